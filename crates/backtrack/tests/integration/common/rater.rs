//! What the rater's tests share: the sudoku fixtures, cells from a line,
//! an open board, cell numbers from 1-based coordinates, and checks of a
//! found step and of a whole explanation against the solution.

use std::collections::BTreeMap;

use backtrack::sudoku::rate::{explain_cells, Explanation};
use backtrack::sudoku::techniques::{Board, Step, Technique, ALL};

/// The text of a fixture under tests/data/sudoku.
pub fn data(name: &str) -> String {
    let path = format!("{}/../../tests/data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Replays an explanation on a board, checking every step against the
/// solution; returns whether the steps reached the solution.
pub fn check_steps(cells: &[u8], used: &mut BTreeMap<Technique, usize>) -> bool {
    let e = explain_cells(cells).unwrap();
    for step in &e.steps {
        *used.entry(step.technique).or_default() += 1;
    }
    let mut board = Board::new(cells).unwrap();
    for step in &e.steps {
        check_step(&board, step, &e.solution);
        board.apply(step);
    }
    if e.rating.beyond {
        assert!(!board.is_solved());
        return false;
    }
    assert_eq!(board.values.to_vec(), e.solution, "{cells:?}");
    assert_eq!(e.rating.er.tenths(), e.steps.iter().map(|s| s.rating.tenths()).max().unwrap_or(0));
    true
}

/// A board with every cell empty and every candidate.
pub fn open_board() -> Board {
    Board { values: [0; 81], cands: [ALL; 81] }
}

/// The cell at row `r`, column `c`, both from 1.
pub fn at(r: usize, c: usize) -> usize {
    (r - 1) * 9 + (c - 1)
}

/// The list sorted, for comparing sets of (cell, digit).
pub fn sorted(mut list: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    list.sort_unstable();
    list
}

/// The step found, which must be of `technique` at `rating` (tenths).
pub fn expect(step: Option<Step>, technique: Technique, rating: u16) -> Step {
    let step = step.unwrap_or_else(|| panic!("no {technique} found"));
    assert_eq!((step.technique, step.rating.tenths()), (technique, rating), "{}", step.text);
    step
}

/// A 9x9 puzzle line (81 characters, a digit for a given, anything else a
/// blank) as cells, 0 for a blank.
pub fn cells_of(line: &str) -> Vec<u8> {
    let cells: Vec<u8> = line.trim().bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect();
    assert_eq!(cells.len(), 81, "{line:?}");
    cells
}

/// Checks a rating step against the solution and the board it applies to:
/// it does something, places only true digits and removes only false
/// candidates still on the board.
pub fn check_step(board: &Board, step: &Step, solution: &[u8]) {
    assert!(!step.placements.is_empty() || !step.eliminations.is_empty(), "empty step {step:?}");
    for &(c, d) in &step.placements {
        assert_eq!(solution[c], d, "wrong placement: {}", step.text);
    }
    for &(c, d) in &step.eliminations {
        assert_ne!(solution[c], d, "wrong elimination: {}", step.text);
        assert!(board.has(c, d), "removes a candidate already gone: {}", step.text);
    }
}

/// Rates a 9x9 puzzle, checking every step of the path against the solution
/// ([`check_step`]) and that the path solves the puzzle.
pub fn explain_checked(puzzle: &[u8]) -> Explanation {
    let e = explain_cells(puzzle).unwrap();
    let mut board = Board::new(puzzle).unwrap();
    for step in &e.steps {
        check_step(&board, step, &e.solution);
        board.apply(step);
    }
    assert!(!e.rating.beyond && board.values.to_vec() == e.solution, "{puzzle:?} not solved");
    e
}
