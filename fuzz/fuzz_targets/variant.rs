//! Variant puzzles read from any text: a reader error points into the
//! line, and a puzzle read compiles and propagates without panicking (the
//! search is cut short: only the root's propagation and one solution of a
//! grid with at most 16x16 cells are asked for, on small grids).
#![no_main]

use backtrack::variant::{self, Solver};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    let Some(line) = text.lines().next() else { return };
    match variant::parse_line(line, 1) {
        Ok(puzzle) => {
            assert_eq!(puzzle.candidates.len(), puzzle.shape.cells());
            if puzzle.shape.size() <= 6 {
                if let Ok(mut solver) = Solver::new(&puzzle) {
                    if let Some(solution) = solver.first() {
                        assert!(puzzle.is_solved_by(&solution), "{line}");
                    }
                }
            }
        }
        Err(e) => check_position(line, &e),
    }
});
