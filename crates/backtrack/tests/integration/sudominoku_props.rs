//! Sudominoku solutions checked against the rules, on the contest samples and
//! on puzzles built from known solutions (transformed by symmetries and digit
//! relabelling, then stripped to a random subset of their dominoes); distinct
//! grid counts checked against a brute force written here.

use std::collections::HashSet;

use backtrack::search::Search;
use backtrack::sudominoku::{self, count_grids, lex_first, parse, solve, LexGrids, Placement, Puzzle, Solution};
use proptest::prelude::*;

const SAMPLE: &str = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n7 F7 6 F8\n\
    5 G4 9 G5\n7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n\
    11\n5 I9 2 H9\n6 A5 7 A6\n4 B8 6 C8\n3 B5 8 B4\n3 C3 2 D3\n9 D2 8 E2\n3 G2 5 H2\n1 A2 8 A1\n1 H8 3 I8\n\
    8 I3 7 I4\n4 I6 9 I7\nI5 E6 D1 F2 B3 G9 H7 C9 E5\n0\n";

const SAMPLE_GRIDS: [&str; 2] = [
    "872643195361975842549218637126754983738169254495832761284597316657381429913426578",
    "814267593965831247273945168392176854586492371741358629137529486459683712628714935",
];

fn adjacent(a: usize, b: usize) -> bool {
    (a / 9 == b / 9 && a.abs_diff(b) == 1) || (a % 9 == b % 9 && a.abs_diff(b) == 9)
}

/// Every rule: a valid sudoku, 36 dominoes on adjacent cells with the grid's
/// digits, each digit pair exactly once, the singles uncovered, the clues kept.
fn check(puzzle: &Puzzle, solution: &Solution) -> Result<(), String> {
    let g = &solution.grid;
    for i in 0..9 {
        let row: HashSet<u8> = (0..9).map(|j| g[i * 9 + j]).collect();
        let col: HashSet<u8> = (0..9).map(|j| g[j * 9 + i]).collect();
        let bx: HashSet<u8> = (0..9).map(|j| g[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3]).collect();
        for set in [row, col, bx] {
            if set != (1..=9).collect() {
                return Err(format!("unit {i} is not 1..9"));
            }
        }
    }
    if solution.dominoes.len() != 36 {
        return Err(format!("{} dominoes", solution.dominoes.len()));
    }
    let mut covered = HashSet::new();
    let mut pairs = HashSet::new();
    for p in &solution.dominoes {
        let (x, y) = (p.first as usize, p.second as usize);
        if !adjacent(x, y) {
            return Err(format!("{p:?} not adjacent"));
        }
        if g[x] != p.first_digit || g[y] != p.second_digit {
            return Err(format!("{p:?} disagrees with the grid"));
        }
        if !covered.insert(x) || !covered.insert(y) {
            return Err(format!("{p:?} overlaps"));
        }
        if !pairs.insert((p.first_digit.min(p.second_digit), p.first_digit.max(p.second_digit))) {
            return Err(format!("{p:?} repeats a domino"));
        }
    }
    for (d, &cell) in puzzle.singles.iter().enumerate() {
        if covered.contains(&(cell as usize)) || g[cell as usize] != d as u8 + 1 {
            return Err(format!("single {} broken", d + 1));
        }
    }
    for given in &puzzle.dominoes {
        if !solution.dominoes.contains(given) {
            return Err(format!("given {given:?} missing"));
        }
    }
    for (cell, (&clue, &digit)) in puzzle.grid.iter().zip(g).enumerate() {
        if clue != 0 && clue != digit {
            return Err(format!("clue at {cell} changed"));
        }
    }
    Ok(())
}

fn samples() -> Vec<Puzzle> {
    parse(SAMPLE).unwrap().into_iter().map(|p| p.unwrap()).collect()
}

#[test]
fn samples_solve_to_the_expected_grids() {
    for (puzzle, expected) in samples().iter().zip(SAMPLE_GRIDS) {
        let solution = solve(puzzle).expect("solvable");
        check(puzzle, &solution).unwrap();
        let digits: String = solution.grid.iter().map(|d| (b'0' + d) as char).collect();
        assert_eq!(digits, expected);
        assert_eq!(count_grids(puzzle, None), (1, true));
        assert_eq!(lex_first(puzzle).unwrap().grid, solution.grid);
    }
}

/// Maps a cell through one of the 8 symmetries of the square.
fn transform_cell(cell: u8, symmetry: u8) -> u8 {
    let (r, c) = (cell / 9, cell % 9);
    let (r, c) = match symmetry {
        0 => (r, c),
        1 => (c, r),
        2 => (r, 8 - c),
        3 => (8 - r, c),
        4 => (8 - r, 8 - c),
        5 => (c, 8 - r),
        6 => (8 - c, r),
        _ => (8 - c, 8 - r),
    };
    r * 9 + c
}

/// A solved board's tiling and singles, moved by a symmetry and a relabelling of the digits.
fn transformed(base: &Solution, singles: &[u8; 9], symmetry: u8, digits: &[u8]) -> (Vec<Placement>, [u8; 9]) {
    let relabel = |d: u8| digits[d as usize - 1];
    let dominoes = base
        .dominoes
        .iter()
        .map(|p| Placement {
            first: transform_cell(p.first, symmetry),
            second: transform_cell(p.second, symmetry),
            first_digit: relabel(p.first_digit),
            second_digit: relabel(p.second_digit),
        })
        .collect();
    let mut moved = [0u8; 9];
    for (d, &cell) in singles.iter().enumerate() {
        moved[relabel(d as u8 + 1) as usize - 1] = transform_cell(cell, symmetry);
    }
    (dominoes, moved)
}

/// Distinct solution grids by brute force, in increasing order: every sudoku
/// completion of the clues, kept when its empty cells can be tiled by the
/// unused dominoes.
fn brute_force_grids(puzzle: &Puzzle) -> Vec<[u8; 81]> {
    let mut used = HashSet::new();
    for p in &puzzle.dominoes {
        used.insert((p.first_digit.min(p.second_digit), p.first_digit.max(p.second_digit)));
    }
    let empty: Vec<usize> = (0..81).filter(|&c| puzzle.grid[c] == 0).collect();
    let mut grid = puzzle.grid;
    let mut found = Vec::new();
    fill(&mut grid, &empty, 0, &used, &mut found);
    found
}

fn fits(grid: &[u8; 81], cell: usize, d: u8) -> bool {
    (0..81).all(|o| {
        let same = o / 9 == cell / 9 || o % 9 == cell % 9 || (o / 27 == cell / 27 && o % 9 / 3 == cell % 9 / 3);
        !(same && o != cell && grid[o] == d)
    })
}

fn fill(grid: &mut [u8; 81], empty: &[usize], i: usize, used: &HashSet<(u8, u8)>, found: &mut Vec<[u8; 81]>) {
    if i == empty.len() {
        let mut used = used.clone();
        if tiles(grid, empty, &mut used) {
            found.push(*grid);
        }
        return;
    }
    for d in 1..=9 {
        if fits(grid, empty[i], d) {
            grid[empty[i]] = d;
            fill(grid, empty, i + 1, used, found);
            grid[empty[i]] = 0;
        }
    }
}

/// Whether the cells in `free` can be paired into adjacent dominoes not in `used`, each once.
fn tiles(grid: &[u8; 81], free: &[usize], used: &mut HashSet<(u8, u8)>) -> bool {
    let Some(&first) = free.iter().min() else { return true };
    for k in 0..free.len() {
        let other = free[k];
        if !adjacent(first, other) {
            continue;
        }
        let pair = (grid[first].min(grid[other]), grid[first].max(grid[other]));
        if pair.0 == pair.1 || used.contains(&pair) {
            continue;
        }
        let rest: Vec<usize> = free.iter().copied().filter(|&c| c != first && c != other).collect();
        used.insert(pair);
        let ok = tiles(grid, &rest, used);
        used.remove(&pair);
        if ok {
            return true;
        }
    }
    false
}

fn base_solutions() -> Vec<(Solution, [u8; 9])> {
    samples().iter().map(|p| (solve(p).unwrap(), p.singles)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Puzzles with 10 to 35 of a known tiling's dominoes: the solver's answer obeys every rule.
    #[test]
    fn generated_puzzles_solve_validly(
        base in 0usize..2,
        symmetry in 0u8..8,
        digits in Just((1u8..=9).collect::<Vec<u8>>()).prop_shuffle(),
        order in Just((0usize..36).collect::<Vec<usize>>()).prop_shuffle(),
        keep in 10usize..=35,
    ) {
        let bases = base_solutions();
        let (solution, singles) = &bases[base];
        let (tiling, singles) = transformed(solution, singles, symmetry, &digits);
        let given: Vec<Placement> = order[..keep].iter().map(|&i| tiling[i]).collect();
        let puzzle = Puzzle::new(given, singles).expect("clues from a valid solution are valid");
        let found = solve(&puzzle).expect("the puzzle was built from a solution");
        prop_assert_eq!(check(&puzzle, &found), Ok(()));
        let (grids, _) = count_grids(&puzzle, Some(2));
        prop_assert!(grids >= 1);
    }

    /// With few dominoes missing the brute force is quick: distinct grid counts agree.
    #[test]
    fn grid_counts_match_brute_force(
        base in 0usize..2,
        symmetry in 0u8..8,
        digits in Just((1u8..=9).collect::<Vec<u8>>()).prop_shuffle(),
        order in Just((0usize..36).collect::<Vec<usize>>()).prop_shuffle(),
        keep in 30usize..=35,
    ) {
        let bases = base_solutions();
        let (solution, singles) = &bases[base];
        let (tiling, singles) = transformed(solution, singles, symmetry, &digits);
        let given: Vec<Placement> = order[..keep].iter().map(|&i| tiling[i]).collect();
        let puzzle = Puzzle::new(given, singles).unwrap();
        let (grids, complete) = count_grids(&puzzle, None);
        prop_assert!(complete);
        // Cells are filled in row-major order with digits ascending: the first grid is the smallest.
        let expected = brute_force_grids(&puzzle);
        prop_assert_eq!(grids as usize, expected.len());
        let smallest = lex_first(&puzzle).unwrap();
        prop_assert_eq!(check(&puzzle, &smallest), Ok(()));
        prop_assert_eq!(smallest.grid, expected[0]);
        // Every grid, in increasing order, each once.
        let mut listed = Vec::new();
        Search::new(LexGrids::new(&puzzle)).for_each(|s| {
            listed.push(s.grid);
            std::ops::ControlFlow::Continue(())
        });
        prop_assert_eq!(listed, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Puzzles with several solution grids: the grids listed in order are
    /// exactly the distinct grids that the tiling search finds.
    #[test]
    fn grid_listing_matches_tiling_search(
        base in 0usize..2,
        symmetry in 0u8..8,
        digits in Just((1u8..=9).collect::<Vec<u8>>()).prop_shuffle(),
        order in Just((0usize..36).collect::<Vec<usize>>()).prop_shuffle(),
        keep in 10usize..=13,
    ) {
        let bases = base_solutions();
        let (solution, singles) = &bases[base];
        let (tiling, singles) = transformed(solution, singles, symmetry, &digits);
        let given: Vec<Placement> = order[..keep].iter().map(|&i| tiling[i]).collect();
        let puzzle = Puzzle::new(given, singles).unwrap();
        let (grids, complete) = count_grids(&puzzle, Some(40));
        prop_assume!(complete);
        let mut solutions = Vec::new();
        Search::new(LexGrids::new(&puzzle)).for_each(|s| {
            solutions.push(s);
            std::ops::ControlFlow::Continue(())
        });
        for s in &solutions {
            prop_assert_eq!(check(&puzzle, s), Ok(()));
        }
        let listed: Vec<[u8; 81]> = solutions.iter().map(|s| s.grid).collect();
        prop_assert_eq!(listed.len() as u64, grids);
        prop_assert!(listed.windows(2).all(|w| w[0] < w[1]), "increasing and distinct");
    }
}

#[test]
fn parse_errors_name_the_place() {
    // Singles that agree with a 1 on A1 and a 2 on A2.
    let cases: &[(&str, (usize, usize), &str)] = &[
        ("1\n1 A1 2 J2\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (2, 8), "location"),
        ("1\n1 A1 0 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (2, 6), "digit"),
        ("1\n1 A1 2 A3\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (2, 8), "side by side"),
        ("1\n1 A1 1 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (2, 8), "two different digits"),
        ("2\n1 A1 2 A2\n2 E5 1 E6\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (3, 3), "used twice"),
        ("2\n1 A1 2 A2\n3 A2 4 A3\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n", (3, 3), "already covered"),
        ("1\n1 A1 2 A2\nE5 F7 B4 C7 D1 G2 H3 I6 A1\n", (3, 25), "already covered"),
        ("1\n1 A1 2 A2\nA5 F7 B4 C7 D1 G2 H3 I6 I9\n", (3, 1), "repeats"),
        ("1\n1 A1 2 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9x\n", (3, 25), "location"),
    ];
    for (text, place, words) in cases {
        let err = parse(text).unwrap()[0].clone().unwrap_err();
        assert_eq!((err.line, err.column), *place, "{text:?}: {err}");
        assert!(err.message.contains(words), "{text:?}: {err}");
    }
    let fatal: &[(&str, (usize, usize))] =
        &[("", (1, 1)), ("x\n", (1, 1)), ("37\n", (1, 1)), ("1\n1 A1 2\n", (3, 1)), ("1\n1 A1 2 A2\nA3 B5\n", (4, 1))];
    for (text, place) in fatal {
        let err = parse(text).unwrap_err();
        assert_eq!((err.line, err.column), *place, "{text:?}: {err}");
    }
    // The end of the input may stand in for the terminating 0.
    let unterminated = parse("1\n1 A1 2 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9").unwrap();
    assert!(unterminated.len() == 1 && unterminated[0].is_ok());
    // Text after the terminating 0 is an error.
    let err = parse("1\n1 A1 2 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n0\n5\n").unwrap_err();
    assert_eq!((err.line, err.column), (5, 1));
    assert_eq!(sudominoku::parse_cell("I9"), Some(80));
}
