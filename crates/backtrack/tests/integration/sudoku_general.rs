//! The sudoku library against brute-force oracles written here, independently
//! of the solvers: 4x4 by full enumeration, 9x9 by a plain row-major
//! backtracker (both the fast 9x9 kernel and the general one), larger grids
//! by checking validity; plus parser round trips and malformed-input errors.

use std::ops::ControlFlow;

use backtrack::search::{Mode, Order, Search};
use backtrack::sudoku::{self, Batch, Format, GeneralSpace, Layout, Puzzle, Solver};
use proptest::prelude::*;

use crate::common::{naive_solutions, no_repeats, Rng};

fn valid_solution(b: usize, puzzle: &[u8], solution: &[u8]) -> bool {
    let n = b * b;
    solution.len() == n * n
        && solution.iter().all(|&v| v >= 1 && v as usize <= n)
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && no_repeats(b, solution)
}

/// Every 4x4 grid, in increasing lexicographic order, by plain recursion.
fn all_4x4_grids() -> Vec<Vec<u8>> {
    fn fill(grid: &mut Vec<u8>, at: usize, out: &mut Vec<Vec<u8>>) {
        if at == 16 {
            out.push(grid.clone());
            return;
        }
        for v in 1..=4 {
            grid[at] = v;
            if no_repeats(2, grid) {
                fill(grid, at + 1, out);
            }
            grid[at] = 0;
        }
    }
    let mut out = Vec::new();
    fill(&mut vec![0; 16], 0, &mut out);
    out
}

/// A random solved grid of box size `b`: a pattern grid with shuffled
/// digits, rows within bands, bands, columns within stacks and stacks.
fn random_solved(b: usize, rng: &mut Rng) -> Vec<u8> {
    let n = b * b;
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut digits);
    let lines = |rng: &mut Rng| {
        let mut bands: Vec<usize> = (0..b).collect();
        rng.shuffle(&mut bands);
        let mut order = Vec::new();
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut inner);
            order.extend(inner.into_iter().map(|i| band * b + i));
        }
        order
    };
    let rows = lines(rng);
    let cols = lines(rng);
    let mut grid = vec![0; n * n];
    for r in 0..n {
        for c in 0..n {
            let (pr, pc) = (rows[r], cols[c]);
            let pattern = (pr % b * b + pr / b + pc) % n;
            grid[r * n + c] = digits[pattern];
        }
    }
    assert!(no_repeats(b, &grid));
    grid
}

/// `solved` with all but `keep` cells blanked.
fn blank_all_but(solved: &[u8], keep: usize, rng: &mut Rng) -> Vec<u8> {
    let mut cells: Vec<usize> = (0..solved.len()).collect();
    rng.shuffle(&mut cells);
    let mut puzzle = vec![0; solved.len()];
    for &i in &cells[..keep] {
        puzzle[i] = solved[i];
    }
    puzzle
}

fn puzzle(b: usize, cells: Vec<u8>) -> Puzzle {
    Puzzle::new(b, cells).unwrap()
}

#[test]
fn empty_4x4_has_288_solutions_in_order() {
    let brute = all_4x4_grids();
    assert_eq!(brute.len(), 288);
    let mut seen = Vec::new();
    let outcome = sudoku::for_each(&Puzzle::empty(2), Order::Lexicographic, |s| {
        seen.push(s.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!(outcome.count, 288);
    assert_eq!(seen, brute);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random 4x4 givens (often contradictory or with many solutions): every
    /// mode agrees with filtering the full list of 4x4 grids.
    #[test]
    fn matches_4x4_enumeration(givens in proptest::collection::vec((0usize..16, 1u8..=4), 0..9)) {
        let mut cells = vec![0u8; 16];
        for (i, v) in givens {
            cells[i] = v;
        }
        let brute: Vec<Vec<u8>> = all_4x4_grids()
            .into_iter()
            .filter(|g| cells.iter().zip(g).all(|(&p, &s)| p == 0 || p == s))
            .collect();
        let p = puzzle(2, cells.clone());
        prop_assert_eq!(sudoku::solve(&p, Mode::Count { limit: None }).count, brute.len() as u64);
        for limit in 1..4u64 {
            let counted = sudoku::solve(&p, Mode::Count { limit: Some(limit) }).count;
            prop_assert_eq!(counted, (brute.len() as u64).min(limit));
        }
        prop_assert_eq!(sudoku::solve(&p, Mode::LexFirst).solution, brute.first().cloned());
        let any = sudoku::solve(&p, Mode::First).solution;
        prop_assert_eq!(any.is_some(), !brute.is_empty());
        if let Some(s) = any {
            prop_assert!(brute.contains(&s));
        }
        let mut listed = Vec::new();
        sudoku::for_each(&p, Order::Heuristic, |s| { listed.push(s.to_vec()); ControlFlow::Continue(()) });
        listed.sort();
        prop_assert_eq!(listed, brute);
    }

    /// Random 9x9 boards cut from a solved grid: counts (with a limit) and the
    /// smallest solution agree with plain row-major backtracking.
    #[test]
    fn matches_naive_9x9(seed in any::<u64>(), keep in 28usize..50, corrupt in any::<bool>()) {
        let mut rng = Rng::new(seed | 1);
        let solved = random_solved(3, &mut rng);
        let mut cells = blank_all_but(&solved, keep, &mut rng);
        if corrupt {
            // Change one given: often leaves no solution, sometimes a conflict.
            let givens: Vec<usize> = (0..81).filter(|&i| cells[i] != 0).collect();
            let i = givens[rng.below(givens.len())];
            cells[i] = (cells[i] % 9) + 1;
        }
        const LIMIT: usize = 30;
        let naive = naive_solutions(3, &mut cells.clone(), LIMIT);
        let p = puzzle(3, cells.clone());
        let counted = sudoku::solve(&p, Mode::Count { limit: Some(LIMIT as u64) });
        prop_assert_eq!(counted.count, naive.len() as u64);
        prop_assert_eq!(sudoku::solve(&p, Mode::LexFirst).solution, naive.first().cloned());
        if let Some(s) = sudoku::solve(&p, Mode::First).solution {
            prop_assert!(valid_solution(3, &cells, &s));
        } else {
            prop_assert!(naive.is_empty());
        }
        // The general kernel, which 9x9 grids do not use by default, agrees too.
        let space = GeneralSpace::new(3, &cells);
        prop_assert_eq!(Search::new(space).count(Some(LIMIT as u64)), naive.len() as u64);
        let mut general = Solver::general(3);
        let mut smallest = vec![0; 81];
        let found = general.solve(&cells, Mode::LexFirst, &mut smallest).count;
        prop_assert_eq!((found > 0).then_some(smallest), naive.first().cloned());
    }

    /// Every format writes what it reads.
    #[test]
    fn formats_round_trip(seed in any::<u64>(), b in 2usize..=4, keep_percent in 0usize..=100) {
        let mut rng = Rng::new(seed | 1);
        let solved = random_solved(b, &mut rng);
        let keep = solved.len() * keep_percent / 100;
        let p = puzzle(b, blank_all_but(&solved, keep, &mut rng));
        for format in [Format::Line, Format::Grid, Format::Spaced] {
            let text = p.to_text(format);
            let back = sudoku::parse_as(&text, Layout { format, box_size: b }).unwrap();
            prop_assert_eq!(&back, &p);
            // Detection finds the format unless a 16-symbol row is ambiguous
            // (a 16x16 grid row using only digits up to 4 reads as a 4x4 line).
            if !(b == 4 && format == Format::Grid) || text.lines().take(16).any(|l| l.bytes().any(|c| c > b'4')) {
                prop_assert_eq!(sudoku::parse(&text).unwrap(), p.clone());
            }
        }
    }
}

#[test]
fn solves_16x16_and_25x25() {
    let mut rng = Rng::new(0x5eed);
    for b in [4, 5] {
        let empty = Puzzle::empty(b);
        let any = sudoku::solve(&empty, Mode::First).solution.unwrap();
        assert!(valid_solution(b, empty.cells(), &any));
        let solved = random_solved(b, &mut rng);
        let keep = solved.len() * 55 / 100;
        let p = puzzle(b, blank_all_but(&solved, keep, &mut rng));
        let outcome = sudoku::solve(&p, Mode::First);
        assert!(valid_solution(b, p.cells(), &outcome.solution.unwrap()));
    }
    let smallest = sudoku::solve(&Puzzle::empty(4), Mode::LexFirst).solution.unwrap();
    assert!(valid_solution(4, &[0; 256], &smallest));
    // Row-major smallest: the first row counts up.
    assert_eq!(smallest[..16], (1..=16).collect::<Vec<u8>>()[..]);
}

#[test]
fn empty_9x9_lexmin_starts_as_known() {
    let s = sudoku::solve(&Puzzle::empty(3), Mode::LexFirst).solution.unwrap();
    let text = Puzzle::new(3, s).unwrap().to_text(Format::Grid);
    assert!(text.starts_with("123456789\n456789123\n789123456\n214365897\n"), "{text}");
}

#[test]
fn anti_brute_force_board() {
    // Its solution's first row is 9 8 7 6 5 4 3 2 1, far down a row-major ascending search.
    let p: Puzzle =
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9".parse().unwrap();
    let outcome = sudoku::solve(&p, Mode::Count { limit: Some(2) });
    assert_eq!(outcome.count, 1);
    let s = outcome.solution.unwrap();
    assert!(valid_solution(3, p.cells(), &s));
    assert_eq!(s[..9], [9, 8, 7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(sudoku::solve(&p, Mode::LexFirst).solution.unwrap(), s);
}

#[test]
fn conflicting_givens_have_no_solution() {
    let mut cells = vec![0; 81];
    cells[0] = 5;
    cells[8] = 5;
    let p = puzzle(3, cells);
    assert!(p.conflict().is_some());
    assert_eq!(sudoku::solve(&p, Mode::Count { limit: None }).count, 0);
    assert_eq!(sudoku::solve(&p, Mode::First).solution, None);
}

/// Parses `text` as a batch and returns its first error as (line, column, message).
fn first_error(text: &str) -> (usize, usize, String) {
    let err = match Batch::parse(text) {
        Err(e) => e,
        Ok(batch) => batch.first_error().cloned().expect("an error"),
    };
    (err.line, err.column, err.message)
}

#[test]
fn malformed_input_is_located() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    // Wrong count: one short, one long.
    let (l, c, m) = first_error(&format!("{good}\n{}\n", &good[..80]));
    assert_eq!((l, c), (2, 81));
    assert!(m.contains("expected 81 cells, found 80"), "{m}");
    // A first line that fits no size: the whole line is named, with the sizes tried.
    let (l, c, m) = first_error(&format!("# x\n{good}5\n"));
    assert_eq!((l, c), (2, 0));
    assert!(m.contains("82 symbols") && m.contains("tried 4x4, 9x9, 16x16 and 25x25"), "{m}");
    // Once the size is known, a long line is located at its first extra cell.
    let (l, c, m) = first_error(&format!("{good}\n{good}5\n"));
    assert_eq!((l, c), (2, 82));
    assert!(m.contains("found 82"), "{m}");
    // Stray character.
    let (l, c, m) = first_error(&format!("{}x{}\n", &good[..10], &good[11..]));
    assert_eq!((l, c), (1, 11));
    assert!(m.contains("unexpected character 'x'"), "{m}");
    // Out of range in a 4x4 puzzle, and in a spaced 9x9 grid.
    // (Detection would read a 16-symbol line with a 7 as a 16x16 grid row.)
    let batch = Batch::parse_as("1..4..7.........\n", Layout { format: Format::Line, box_size: 2 });
    let err = batch.first_error().unwrap();
    assert_eq!((err.line, err.column), (1, 7));
    assert!(err.message.contains("'7' is out of range"), "{err}");
    let spaced = "0 0 0 0 0 0 0 0 0\n".repeat(4) + "0 0 10 0 0 0 0 0 0\n" + &"0 0 0 0 0 0 0 0 0\n".repeat(4);
    let (l, c, m) = first_error(&spaced);
    assert_eq!((l, c), (5, 5));
    assert!(m.contains("10 is out of range"), "{m}");
    // A grid row too short.
    let grid = "000000000\n".repeat(3) + "00000000\n" + &"000000000\n".repeat(5);
    let (l, c, m) = first_error(&grid);
    assert_eq!((l, c), (4, 9));
    assert!(m.contains("expected 9 symbols in a row, found 8"), "{m}");
    // Duplicate givens in a box, in grid format: both cells are named.
    let grid = "100000000\n020000000\n001000000\n".to_string() + &"000000000\n".repeat(6);
    let (l, c, m) = first_error(&grid);
    assert_eq!((l, c), (3, 3));
    assert!(m.contains("row 3, column 3") && m.contains("row 1, column 1") && m.contains("same box"), "{m}");
    // Truncated grid, and empty input.
    let (l, c, m) = first_error(&"000000000\n".repeat(5));
    assert_eq!((l, c), (6, 0));
    assert!(m.contains("end of input") && m.contains("5 of 9 rows"), "{m}");
    let (l, _, m) = first_error("# nothing here\n\n");
    assert_eq!(l, 1);
    assert!(m.contains("empty input"), "{m}");
}

#[test]
fn batch_keeps_going_after_bad_lines() {
    let good = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let text = format!("{good}\nnonsense\n\n# comment\n{good}\n");
    let batch = Batch::parse(&text).unwrap();
    let lines: Vec<(usize, bool)> = batch.entries().iter().map(|e| (e.line, e.result.is_ok())).collect();
    assert_eq!(lines, [(1, true), (2, false), (5, true)]);
    assert_eq!(batch.puzzles(), 2);
    assert_eq!(batch.cells(1), puzzle(3, good.parse::<Puzzle>().unwrap().into_cells()).cells());
}

#[test]
fn sixteen_by_sixteen_line_format_uses_letters() {
    let mut rng = Rng::new(99);
    let solved = random_solved(4, &mut rng);
    let p = puzzle(4, solved.clone());
    let text = p.to_string();
    assert_eq!(text.len(), 256);
    assert!(text.contains('G') && !text.contains('H'));
    assert_eq!(text.parse::<Puzzle>().unwrap(), p);
    assert_eq!(text.to_lowercase().parse::<Puzzle>().unwrap(), p);
}
