//! The judge sudoku inputs: BOJ 2580 (spaced grid, any solution) and BOJ 2239
//! (digit grid, the smallest solution), read and solved as `backtrack boj`
//! does. Every solution must solve its puzzle, the smallest must be no larger
//! than any other, and the 9x9 kernel must agree with the general solver.
#![no_main]

use backtrack::search::Mode;
use backtrack::sudoku::{self, Format, Layout, Solver};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let format = if pick & 1 == 0 { Format::Spaced } else { Format::Grid };
    let text = text(rest);
    let puzzle = match sudoku::parse_as(&text, Layout { format, box_size: 3 }) {
        Ok(puzzle) => puzzle,
        Err(e) => return check_position(&text, &e),
    };
    let first = sudoku::solve(&puzzle, Mode::First).solution;
    let least = sudoku::solve(&puzzle, Mode::LexFirst).solution;
    assert_eq!(first.is_some(), least.is_some());
    if let (Some(first), Some(least)) = (&first, &least) {
        assert!(puzzle.is_solved_by(first), "{puzzle:?} is not solved by {first:?}");
        assert!(puzzle.is_solved_by(least), "{puzzle:?} is not solved by {least:?}");
        assert!(least <= first, "the smallest solution {least:?} is larger than {first:?}");
    }
    let mut general = Solver::general(3);
    let mut solution = vec![0; 81];
    let solved = general.solve(puzzle.cells(), Mode::LexFirst, &mut solution);
    assert_eq!(least, (solved.count > 0).then_some(solution), "the kernels disagree on {puzzle:?}");
    let count = |solver: &mut Solver| solver.solve(puzzle.cells(), Mode::Count { limit: Some(2) }, &mut [0; 81]).count;
    assert_eq!(count(&mut Solver::new(3)), count(&mut general), "the kernels count {puzzle:?} differently");
});
