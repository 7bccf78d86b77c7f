//! Each variant rule on its own: small puzzles whose counts the brute force
//! of `variant_props` confirms, the degenerate cases (a one-cell cage, a
//! thermometer as long as a row and one longer, a whisper no 4x4 pair can
//! keep, a cage that would repeat a digit), the reader's errors, and ISS's
//! own example puzzles with the solutions ISS gives.

use backtrack::variant::{parse_line, Line, Solver};

use crate::variant_props::brute_force;

/// Solutions of `s`, counted to the end.
fn count(s: &str) -> u64 {
    let puzzle = parse_line(s, 1).unwrap_or_else(|e| panic!("{s}: {e}"));
    Solver::new(&puzzle).unwrap().count(None).solutions
}

/// Asserts the solver's count and true candidates equal the brute force's (4x4 and 6x6 only).
fn agrees(s: &str) -> u64 {
    let puzzle = parse_line(s, 1).unwrap_or_else(|e| panic!("{s}: {e}"));
    let expected = brute_force(&puzzle);
    let mut solver = Solver::new(&puzzle).unwrap();
    let got = solver.count(None);
    assert_eq!(got.solutions, expected.len() as u64, "{s}");
    let union: Vec<u16> =
        (0..puzzle.shape.cells()).map(|c| expected.iter().fold(0, |m, g| m | 1 << (g[c] - 1))).collect();
    let candidates = solver.candidates(u64::MAX);
    if expected.is_empty() {
        assert!(candidates.masks.iter().all(|&m| m == 0), "{s}");
    } else {
        assert_eq!(candidates.masks, union, "{s}");
    }
    got.solutions
}

/// The unique solution of `s`, as a line.
fn unique(s: &str) -> String {
    let puzzle = parse_line(s, 1).unwrap_or_else(|e| panic!("{s}: {e}"));
    let got = Solver::new(&puzzle).unwrap().count(Some(2));
    assert_eq!((got.solutions, got.complete), (1, true), "{s}");
    let solution = got.first.unwrap();
    assert!(puzzle.is_solved_by(&solution));
    Line(&solution).to_string()
}

fn error(s: &str) -> String {
    parse_line(s, 7).expect_err(s).to_string()
}

#[test]
fn givens_and_given_candidates() {
    assert_eq!(agrees(".Shape~4x4"), 288);
    assert_eq!(agrees(".Shape~4x4.~R1C1_1~R1C2_2"), 288 / 12);
    // Given candidates: R1C1 odd.
    assert_eq!(agrees(".Shape~4x4.~R1C1_1_3"), 288 / 2);
    // Two givens for one cell keep the values common to both.
    assert_eq!(agrees(".Shape~4x4.~R1C1_1_3.~R1C1_3_4"), 288 / 4);
    assert_eq!(agrees(".Shape~4x4.~R1C1_1.~R1C1_2"), 0);
    // Plain grids are read too, and a full one is its own solution.
    assert_eq!(unique("1234341221434321"), "1234341221434321");
    assert_eq!(count("1234341221434312"), 0);
}

#[test]
fn no_boxes_and_jigsaw_regions() {
    // Latin squares of order 4.
    assert_eq!(agrees(".Shape~4x4.NoBoxes"), 576);
    // A jigsaw whose regions are the boxes counts as the plain grid.
    assert_eq!(agrees(".Shape~4x4.NoBoxes.Jigsaw~0011001122332233"), 288);
    agrees(".Shape~4x4.NoBoxes.Jigsaw~0001011122232333");
    // The grid-and-layout text format is a jigsaw without boxes.
    let text = format!("1{}{}", ".".repeat(15), "0001011122232333");
    assert_eq!(count(&text), count(".Shape~4x4.NoBoxes.Jigsaw~0001011122232333.~R1C1_1"));
    assert!(error(".Shape~4x4.Jigsaw~0001011122232233").contains("region '2' has 5 cells"));
}

#[test]
fn every_size_from_4_to_16_solves() {
    for n in 4..=16 {
        let puzzle = parse_line(&format!(".Shape~{n}x{n}"), 1).unwrap();
        let solution = Solver::new(&puzzle).unwrap().first().unwrap_or_else(|| panic!("{n}x{n}"));
        assert!(puzzle.is_solved_by(&solution), "{n}x{n}");
    }
    // 6x6 boxes are 2 rows by 3 columns: counting agrees with the brute force.
    agrees(".Shape~6x6.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R3C4_1~R4C5_2~R5C6_3~R6C2_5~R2C6_6~R4C1_6~R5C3_4");
    assert!(error(".Shape~17x17").contains("unsupported shape"));
    assert!(error(".Shape~6x9").contains("unsupported shape"));
}

#[test]
fn diagonal_windoku_disjoint_sets() {
    agrees(".Shape~4x4.Diagonal~1");
    agrees(".Shape~4x4.Diagonal~-1");
    agrees(".Shape~4x4.Diagonal~1.Diagonal~-1");
    agrees(".Shape~6x6.Windoku.~R1C1_1~R2C4_2~R3C2_3~R4C6_4~R5C3_5~R6C5_6~R1C6_2~R6C1_3~R3C5_1~R4C2_6");
    agrees(".Shape~4x4.DisjointSets");
    assert!(error(".Diagonal~2").contains("Diagonal takes 1"));
}

#[test]
fn anti_knight_anti_king_anti_consecutive() {
    agrees(".Shape~4x4.AntiKnight");
    agrees(".Shape~4x4.AntiKing");
    agrees(".Shape~4x4.AntiConsecutive");
    agrees(".Shape~6x6.AntiKing.~R1C1_1~R2C4_2~R3C2_3~R4C6_4~R5C3_5~R6C5_6~R1C6_2~R6C1_3~R3C5_1~R4C2_6");
}

#[test]
fn cages() {
    agrees(".Shape~4x4.Cage~3~R1C1~R1C2.Cage~7~R3C3~R3C4");
    agrees(".Shape~4x4.Cage~~R1C1~R2C2~R3C3~R4C4");
    agrees(".Shape~4x4.Cage~0~R1C1~R2C2~R3C3~R4C4");
    // A one-cell cage is a given.
    assert_eq!(agrees(".Shape~4x4.Cage~3~R2C2"), 288 / 4);
    // Two cells cannot sum to 2 without repeating a 1, nor to 8 without two 4s.
    assert_eq!(agrees(".Shape~4x4.Cage~2~R1C1~R2C2"), 0);
    assert_eq!(agrees(".Shape~4x4.Cage~8~R1C1~R2C2"), 0);
    // Five different values do not fit a 4x4 grid.
    assert_eq!(agrees(".Shape~4x4.Cage~~R1C1~R2C2~R3C3~R4C4~R1C4"), 0);
    assert!(error(".Cage~5~R1C1~R1C1").contains("lists cell R1C1 twice"));
    assert!(error(".Cage~x~R1C1").contains("'x' is not an integer"));
}

#[test]
fn thermometers() {
    agrees(".Shape~4x4.Thermo~R1C1~R1C2~R2C2");
    // A thermometer as long as a row is 1 to 9; one cell longer has no solution.
    let row: Vec<String> = (1..=9).map(|c| format!("R1C{c}")).collect();
    let nine = format!(".Thermo~{}", row.join("~"));
    let puzzle = parse_line(&nine, 1).unwrap();
    let first = Solver::new(&puzzle).unwrap().first().unwrap();
    assert_eq!(first[..9], [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(count(&format!("{nine}~R2C9")), 0);
    // A cell listed twice would have to exceed itself.
    assert_eq!(count(".Shape~4x4.Thermo~R1C1~R1C2~R1C1"), 0);
}

/// Two of ISS's hard thermometer puzzles (empty grids, two-cell
/// thermometers only), proved unique, with ISS's solutions.
#[test]
fn hard_thermometers() {
    let free = concat!(
        ".Thermo~r1c2~r2c3.Thermo~r3c2~r2c1.Thermo~r4c2~r5c1.Thermo~r6c2~r5c3.Thermo~r7c2~r8c3",
        ".Thermo~r9c2~r8c1.Thermo~r1c6~r2c6.Thermo~r3c5~r2c4.Thermo~r3c5~r2c5.Thermo~r6c5~r5c4",
        ".Thermo~r7c5~r8c4.Thermo~r9c6~r8c6.Thermo~r1c8~r2c9.Thermo~r3c8~r2c7.Thermo~r4c8~r5c9",
        ".Thermo~r6c8~r5c7.Thermo~r7c8~r8c9.Thermo~r9c8~r8c7",
    );
    let race = concat!(
        ".Thermo~R1C2~R2C1.Thermo~R3C2~R2C3.Thermo~R4C2~R5C3.Thermo~R4C3~R5C4.Thermo~R6C2~R5C1",
        ".Thermo~R7C2~R8C3.Thermo~R9C2~R8C1.Thermo~R9C4~R8C5.Thermo~R7C7~R8C6.Thermo~R7C8~R8C7",
        ".Thermo~R9C8~R8C9.Thermo~R6C7~R5C6.Thermo~R6C8~R5C7.Thermo~R4C8~R5C9.Thermo~R3C8~R2C7",
        ".Thermo~R1C8~R2C9.Thermo~R1C7~R2C6.Thermo~R3C4~R2C5.Thermo~R6C4~R5C5.",
    );
    for (puzzle, solution) in [
        (free, "953874162816235497472916538265398741794621385138457629387169254529743816641582973"),
        (race, "561798243784263915239541687472916538618352794953487162146825379395174826827639451"),
    ] {
        assert_eq!(unique(puzzle), solution);
    }
}

#[test]
fn arrows_pill_arrows_double_arrows() {
    agrees(".Shape~4x4.Arrow~R1C1~R2C2~R2C3");
    agrees(".Shape~4x4.Arrow~R1C4~R1C3");
    agrees(".Shape~4x4.DoubleArrow~R1C1~R2C2~R3C3~R4C4");
    agrees(".Shape~6x6.PillArrow~2~R1C5~R1C6~R2C5~R3C6~R4C6.~R1C1_1~R1C2_2~R2C1_4~R3C4_1~R4C5_2~R5C6_3~R6C2_5~R4C1_6~R5C3_4~R6C6_1");
    assert!(error(".PillArrow~4~R1C1~R1C2~R2C2").contains("2 or 3 digits"));
    assert!(error(".PillArrow~2~R1C1~R3C2~R2C2").contains("reading order"));
}

#[test]
fn hard_renban() {
    // One of ISS's hard renban puzzles, proved unique, with ISS's solution.
    let puzzle = concat!(
        ".Renban~R2C1~R2C2~R2C3~R3C4~R3C5~R3C6.Renban~R4C1~R3C2~R4C3~R4C4~R5C3~R6C4",
        ".Renban~R4C2~R5C2~R6C2~R7C3~R8C3~R9C3~R9C4.Renban~R1C4~R2C4~R1C5",
        ".Renban~R1C6~R1C7~R2C7~R3C7~R4C8~R5C8~R6C8.Renban~R6C9~R7C8~R6C7~R6C6~R5C7~R4C6",
        ".Renban~R8C9~R8C8~R8C7~R7C6~R7C5~R7C4.Renban~R9C6~R8C6~R9C5.Thermo~R9C2~R8C2.",
    );
    assert_eq!(unique(puzzle), "123564897654789312978231546586412973249357168731896425465978231897123654312645789");
}

#[test]
fn whispers_renban_palindromes() {
    // No two values of a 4x4 grid differ by 5.
    assert_eq!(agrees(".Shape~4x4.Whisper~R1C1~R1C2"), 0);
    agrees(".Shape~4x4.Whisper~2~R1C1~R1C2~R2C2~R2C1");
    agrees(".Shape~4x4.Whisper~3~R1C1~R2C2");
    agrees(".Shape~4x4.Renban~R1C1~R2C2~R3C3");
    agrees(".Shape~6x6.Renban~R2C2~R3C3~R4C4~R5C5.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R3C4_1~R4C5_2~R5C6_3~R6C2_5~R2C6_6~R4C1_6~R5C3_4");
    agrees(".Shape~4x4.Palindrome~R1C1~R2C2~R1C3");
    agrees(".Shape~4x4.Palindrome~R1C1~R2C2~R3C1~R4C2");
}

#[test]
fn x_v_dots_greater_than_and_the_strict_negatives() {
    agrees(".Shape~4x4.X~R1C1~R1C2");
    agrees(".Shape~4x4.X~R1C1~R1C2.V~R2C1~R2C2");
    agrees(".Shape~4x4.BlackDot~R1C1~R1C2~R2C2");
    agrees(".Shape~4x4.WhiteDot~R1C1~R1C2~R1C3~R1C4");
    agrees(".Shape~4x4.GreaterThan~R1C1~R1C2~R2C2");
    agrees(".Shape~4x4.StrictKropki.WhiteDot~R1C1~R1C2.BlackDot~R2C1~R2C2");
    agrees(".Shape~4x4.StrictXV.V~R1C1~R1C2");
    assert!(error(".X~R1C1~R3C3").contains("joins no orthogonally adjacent cells"));
}

#[test]
fn outside_clues() {
    agrees(".Shape~4x4.LittleKiller~6~R1C2");
    agrees(".Shape~4x4.LittleKiller~10~R1C1");
    agrees(".Shape~4x4.LittleKiller~0~R2C1");
    agrees(".Shape~4x4.Sandwich~5~R1.Sandwich~0~C2");
    agrees(".Shape~4x4.XSum~R1~3~.XSum~C2~~10");
    agrees(".Shape~4x4.Skyscraper~R1~1~2.Skyscraper~C3~4~");
    agrees(".Shape~6x6.Skyscraper~R2~3~2.Sandwich~9~C3.XSum~R5~12~.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R3C4_1~R4C5_2~R5C6_3~R6C2_5~R2C6_6~R4C1_6~R5C3_4");
    assert!(error(".Sandwich~5~R10").contains("not a row or column"));
    assert!(error(".XSum~R1~0~").contains("cannot be 0"));
    assert!(error(".LittleKiller~5~R5C5").contains("no little killer diagonal"));
}

#[test]
fn lines_between_lockout_quads_and_the_rest() {
    agrees(".Shape~4x4.Between~R1C1~R2C2~R3C3");
    agrees(".Shape~4x4.Lockout~2~R1C1~R2C2~R3C3");
    agrees(".Shape~4x4.Quad~R1C1~1~2.Quad~R3C3~4");
    assert_eq!(agrees(".Shape~4x4.Quad~R1C1~1~1"), 0);
    agrees(".Shape~4x4.RegionSumLine~R1C2~R1C3~R2C3");
    agrees(".Shape~4x4.SumLine~5~R1C1~R1C2~R2C2~R2C1");
    agrees(".Shape~4x4.SumLine~5~R1C1~R1C2~R2C2~R2C1~LOOP");
    agrees(".Shape~4x4.Lunchbox~3~R1C1~R1C2~R1C3");
    agrees(".Shape~4x4.Zipper~R1C1~R2C2~R3C3");
    agrees(".Shape~4x4.Zipper~R1C1~R2C2~R3C3~R4C4");
    agrees(".Shape~4x4.Modular~2~R1C1~R2C2~R3C3~R4C4");
    agrees(".Shape~6x6.Modular~3~R2C2~R3C3~R4C4~R5C5~R6C6.~R1C1_1~R1C2_2~R1C3_3~R2C1_4~R3C4_1~R4C5_2~R5C6_3~R6C2_5~R2C6_6~R4C1_6~R5C3_4");
    let entropic = parse_line(".Entropic~R1C1~R2C2~R3C3~R4C4", 1).unwrap();
    assert!(entropic.is_solved_by(&Solver::new(&entropic).unwrap().first().unwrap()));
    assert!(error(".Shape~4x4.Entropic~R1C1~R2C2").contains("values 1 to 9"));
}

#[test]
fn reader_errors_name_the_type_line_and_column() {
    assert_eq!(error(".Shape~4x4.Foo~1"), "line 7, column 12: unknown constraint type 'Foo'");
    assert_eq!(error(".Or.Cage~3~R1C1.End"), "line 7, column 2: unsupported constraint type 'Or'");
    assert_eq!(error(".Cage~3~R1C1~R1CZ"), "line 7, column 14: 'R1CZ' is not a cell of a 9x9 grid");
    assert_eq!(error(".~R1C1_10"), "line 7, column 8: '10' is not a value of a 9x9 grid");
    assert!(error("Cage~3~R1C1").contains("neither a constraint string"));
    // A line of 81 blanks is an empty classic grid, not a constraint string.
    assert!(!backtrack::variant::is_variant_line(&".".repeat(81)));
    assert!(backtrack::variant::is_variant_line(".~R1C1_1"));
    // Plain grids of sizes classic grids never have are variant puzzles;
    // 4x4, 9x9 and 16x16 lines, 25-symbol rows and spaced rows are not.
    for side in [6, 7, 8, 10, 12, 15] {
        assert!(backtrack::variant::is_variant_line(&".".repeat(side * side)), "{side}");
    }
    for side in [4, 5, 9, 16] {
        assert!(!backtrack::variant::is_variant_line(&".".repeat(side * side)), "{side}");
    }
    assert!(!backtrack::variant::is_variant_line(&["10"; 18].join(" ")));
    assert!(backtrack::variant::is_variant_text("\u{feff}# comment\n\n.Shape~4x4\n1..............."));
    assert!(!backtrack::variant::is_variant_text("# comment\n1...............\n.Shape~4x4\n"));
    let lines: Vec<(usize, &str)> = backtrack::variant::puzzle_lines("# c\n\n  .Shape~4x4 \n1\n").collect();
    assert_eq!(lines, [(3, ".Shape~4x4"), (4, "1")]);
    // Long tokens are quoted short.
    let long = format!(".{}", "Q".repeat(100));
    assert!(error(&long).len() < 100);
}

#[test]
fn killer_strings_and_sudokuwiki_killers() {
    // The killer string of ISS's TAREK collection's first puzzle, and the
    // same cages as a SudokuWiki export give one solution.
    let short = "G<<L<K<L<^G>^>^E^^>^IJ<G^<G^>^^I^<>^HC<C^<B^N^^G^<>^>^^E^<DF<^PG^<>^^J<^^<H<<>^>^";
    let solution = unique(short);
    let puzzle = parse_line(short, 1).unwrap();
    let mut cage_of = [0usize; 81];
    let mut wiki = String::from("3x3::k");
    for (i, c) in puzzle.constraints.iter().enumerate() {
        if let backtrack::variant::Constraint::Cage { sum: Some(s), cells } = c {
            for &cell in cells {
                cage_of[cell] = (i + 1) + 256 * *s as usize;
            }
        }
    }
    for v in cage_of {
        wiki.push_str(&format!(":{v}"));
    }
    assert_eq!(unique(&wiki), solution);
    // Exports end with a colon; the kind is empty (a plain killer) or d.
    assert_eq!(unique(&format!("{wiki}:")), solution);
    let diagonals = parse_line(&format!("3x3:d{}:", &wiki[4..]), 1).unwrap();
    assert_eq!(diagonals.constraints.len(), puzzle.constraints.len() + 2);
    assert!(error(&format!("3x3:x{}", &wiki[4..])).contains("'x' is not a SudokuWiki killer's kind"));
    assert!(error("3x3::k:1:2").contains("SudokuWiki"));
    assert!(error(&format!("{wiki}::")).contains("SudokuWiki"));
}

#[test]
fn pencil_marks() {
    // 4x4: every cell's four places, R1C1 down to 1.
    let mut marks = String::from("1...");
    marks.push_str(&"1234".repeat(15));
    assert_eq!(count(&marks), 288 / 4);
}

/// Classic 9x9 grids given by pencil marks are counted by the classic
/// kernel: its counts and first solutions agree with the variant search's
/// own walk, on grids with many solutions, one, or none.
#[test]
fn classic_pencil_marks_count_as_the_variant_walk_does() {
    let solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut state = 12345u32;
    let mut next = || {
        state = state.wrapping_mul(1103515245).wrapping_add(12345);
        state >> 16
    };
    let mut kinds = [false; 3];
    for round in 0..24 {
        let mut marks = String::new();
        for (cell, digit) in solution.bytes().enumerate() {
            let keep_all = next() % 3 == 0;
            for d in b'1'..=b'9' {
                // Every cell keeps its digit except one in some rounds.
                let own = d == digit && !(round % 6 == 5 && cell == 40);
                marks.push(if own || keep_all || next() % 4 == 0 { d as char } else { '.' });
            }
        }
        let puzzle = parse_line(&marks, 1).unwrap();
        let mut walked = (0u64, None);
        Solver::new(&puzzle).unwrap().for_each(|g| {
            walked.0 += 1;
            walked.1.get_or_insert_with(|| g.to_vec());
            std::ops::ControlFlow::Continue(())
        });
        let got = Solver::new(&puzzle).unwrap().count(None);
        assert_eq!(got.solutions, walked.0, "{marks}");
        assert!(got.complete);
        if let Some(first) = &got.first {
            assert!(puzzle.is_solved_by(first), "{marks}");
        }
        assert_eq!(got.first.is_some(), walked.1.is_some());
        let two = Solver::new(&puzzle).unwrap().count(Some(2));
        assert_eq!((two.solutions, two.complete), (walked.0.min(2), walked.0 < 2));
        kinds[walked.0.min(2) as usize] = true;
    }
    assert_eq!(kinds, [true; 3], "none, one and many solutions all met");
}

/// ISS's example puzzles that use only the rules read here, each with the
/// solution ISS gives for it (`tests/data/variant/iss_examples.tsv` says
/// where each comes from).
#[test]
fn iss_examples_solve_to_the_solutions_iss_gives() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/variant/iss_examples.tsv"))
            .expect("the fixture");
    let mut solved = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (name, input, expected) = (fields[1], fields[2], fields[3]);
        // ISS writes the values of grids past 9x9 as letters from A.
        let expected: String = if expected.len() > 81 {
            expected.chars().map(|c| backtrack::variant::symbol(c as u8 - b'A' + 1)).collect()
        } else {
            expected.to_string()
        };
        assert_eq!(unique(input), expected, "{name}");
        solved += 1;
    }
    assert!(solved >= 40, "{solved}");
}
