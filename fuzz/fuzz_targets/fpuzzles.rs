//! f-puzzles data read from any text, as a JSON document and as the
//! payload of an f-puzzles URL: a reader error points into the text, and a
//! puzzle read compiles and propagates without panicking (one solution is
//! asked for on grids up to 6x6).
#![no_main]

use backtrack::variant::{fpuzzles, Solver};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fn check(text: &str) {
    match fpuzzles::parse_fpuzzles(text, 1) {
        Ok(puzzle) => {
            assert_eq!(puzzle.candidates.len(), puzzle.shape.cells());
            if puzzle.shape.size() <= 6 {
                if let Ok(mut solver) = Solver::new(&puzzle) {
                    if let Some(solution) = solver.first() {
                        assert!(puzzle.is_solved_by(&solution), "{text}");
                    }
                }
            }
        }
        Err(e) => check_position(text, &e),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    check(&text);
    check(&format!("https://f-puzzles.com/?load={}", lz_str::compress_to_base64(&*text)));
});
