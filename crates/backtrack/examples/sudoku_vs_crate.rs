//! The 9x9 kernel against the `sudoku` crate, in one process.
//!
//! ```text
//! cargo run --release -p backtrack --example sudoku_vs_crate -- ROUNDS FILE...
//! ```
//!
//! Each FILE holds one puzzle per line (81 characters, `.` or `0` for
//! blanks, `#` comment lines). For each file, counting up to two solutions
//! and finding the first, both solvers take turns on 50-puzzle chunks, each
//! chunk timed by the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, which
//! leaves out the time the machine was taken away), and the whole file is
//! solved ROUNDS times; the best round of each solver is printed, with the
//! ratio. Every count is checked against the other solver's.

use backtrack::search::Mode;
use backtrack::sudoku::kernel9::{self, Cells};
use sudoku::Sudoku;

/// Nanoseconds of CPU time this thread has used.
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

fn parse(text: &str) -> Vec<Cells> {
    let lines = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    lines
        .map(|line| {
            assert!(line.len() >= 81, "short line: {line}");
            let mut cells = [0u8; 81];
            for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
                *cell = if (b'1'..=b'9').contains(&ch) { ch - b'0' } else { 0 };
            }
            cells
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|n| n.parse().ok()).expect("usage: ROUNDS FILE...");
    for file in &args[1..] {
        let puzzles = parse(&std::fs::read_to_string(file).expect("readable file"));
        let theirs: Vec<Sudoku> = puzzles.iter().map(|c| Sudoku::from_bytes(*c).expect("a 9x9 puzzle")).collect();
        let name = file.rsplit('/').next().unwrap_or(file);
        for (mode_name, mode) in [("limit 2", Mode::Count { limit: Some(2) }), ("first", Mode::First)] {
            let mut best = [u64::MAX; 2];
            let mut guesses = 0;
            for _ in 0..rounds {
                let mut spent = [0u64; 2];
                guesses = 0;
                for (ours, crate_chunk) in puzzles.chunks(50).zip(theirs.chunks(50)) {
                    let mut counts = [[0usize; 50]; 2];
                    let start = thread_cpu_ns();
                    for (count, cells) in counts[0].iter_mut().zip(ours) {
                        let outcome = kernel9::solve(cells, mode);
                        *count = outcome.count as usize;
                        guesses += outcome.guesses;
                    }
                    let middle = thread_cpu_ns();
                    for (count, puzzle) in counts[1].iter_mut().zip(crate_chunk) {
                        *count = match mode {
                            Mode::First => usize::from(puzzle.some_solution().is_some()),
                            _ => puzzle.solutions_count_up_to(2),
                        };
                    }
                    spent[0] += middle - start;
                    spent[1] += thread_cpu_ns() - middle;
                    assert_eq!(counts[0], counts[1], "{name}: the solvers disagree on a count");
                }
                best = [best[0].min(spent[0]), best[1].min(spent[1])];
            }
            let rate = |ns: u64| puzzles.len() as f64 / (ns as f64 * 1e-9);
            println!(
                "{name:<32} {mode_name:<8} kernel {:>9.0}/s  sudoku crate {:>9.0}/s  ratio {:.3}  guesses/puzzle {:.3}",
                rate(best[0]),
                rate(best[1]),
                rate(best[0]) / rate(best[1]),
                guesses as f64 / puzzles.len() as f64
            );
        }
    }
}
