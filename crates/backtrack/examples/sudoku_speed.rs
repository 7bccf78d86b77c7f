//! Full-set throughput of the 9x9 kernel.
//!
//! ```text
//! cargo run --release -p backtrack --example sudoku_speed -- [--repeat N] [--mode M] FILE...
//! ```
//!
//! `--mode` (`limit2`, `first` or `lexmin`) times that mode alone, for
//! instruction-count comparisons under a profiler.
//!
//! Each FILE holds one puzzle per line (81 characters, `.` or `0` for blanks,
//! `#` comment lines). For every file and mode (uniqueness check = count up
//! to 2, first solution, lexicographically first) the whole file is solved
//! `N` times (default 3); the best and worst rates are printed, timing only
//! the solving. Every solution is then checked against its puzzle.
//!
//! Besides wall-clock rates, on Linux the rate per second of CPU time this
//! thread actually ran (from `/proc/thread-self/schedstat`) is printed too:
//! on a machine shared with other work it is the steadier figure.

use std::time::Instant;

use backtrack::search::Mode;
use backtrack::sudoku::kernel9::{self, Cells};

fn parse(text: &str) -> Vec<Cells> {
    let mut puzzles = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cells = [0u8; 81];
        let bytes = line.as_bytes();
        assert!(bytes.len() >= 81, "short line: {line}");
        for (cell, &ch) in cells.iter_mut().zip(bytes) {
            *cell = match ch {
                b'1'..=b'9' => ch - b'0',
                _ => 0,
            };
        }
        puzzles.push(cells);
    }
    puzzles
}

/// Nanoseconds this thread has run on a CPU, where the kernel tells.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn check(puzzle: &Cells, solution: &Cells) {
    for i in 0..81 {
        assert!(puzzle[i] == 0 || puzzle[i] == solution[i], "solution contradicts a given");
    }
    for unit in 0..9 {
        let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << solution[unit * 9 + k];
            col |= 1 << solution[k * 9 + unit];
            bx |= 1 << solution[(unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3];
        }
        assert!(row == 0x3fe && col == 0x3fe && bx == 0x3fe, "invalid solution");
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 3;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).and_then(|n| n.parse().ok()).expect("--repeat N");
        args.drain(i..i + 2);
    }
    let mut only = None;
    if let Some(i) = args.iter().position(|a| a == "--mode") {
        only = Some(args.get(i + 1).cloned().expect("--mode M"));
        args.drain(i..i + 2);
    }
    let all_modes = [("limit2", Mode::Count { limit: Some(2) }), ("first", Mode::First), ("lexmin", Mode::LexFirst)];
    let modes: Vec<_> = all_modes.into_iter().filter(|(name, _)| only.as_deref().is_none_or(|m| m == *name)).collect();
    for path in &args {
        let text = std::fs::read_to_string(path).expect("readable file");
        let puzzles = parse(&text);
        let name = std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into());
        for &(mode_name, mode) in &modes {
            let mut rates = Vec::new();
            let mut cpu_rates = Vec::new();
            let (mut solved, mut guesses) = (0u64, 0u64);
            for _ in 0..repeat {
                let cpu_start = thread_cpu_ns();
                let start = Instant::now();
                let (mut s, mut g) = (0u64, 0u64);
                for p in &puzzles {
                    let out = kernel9::solve(p, mode);
                    s += (out.count > 0) as u64;
                    g += out.guesses;
                }
                let secs = start.elapsed().as_secs_f64();
                rates.push(puzzles.len() as f64 / secs);
                if let (Some(a), Some(b)) = (cpu_start, thread_cpu_ns()) {
                    cpu_rates.push(puzzles.len() as f64 / ((b - a).max(1) as f64 * 1e-9));
                }
                (solved, guesses) = (s, g);
            }
            for p in &puzzles {
                if let Some(sol) = kernel9::solve(p, mode).solution {
                    check(p, &sol);
                }
            }
            let best = rates.iter().cloned().fold(0.0, f64::max);
            let worst = rates.iter().cloned().fold(f64::INFINITY, f64::min);
            let cpu_best = cpu_rates.iter().cloned().fold(0.0, f64::max);
            let cpu_worst = cpu_rates.iter().cloned().fold(f64::INFINITY, f64::min);
            println!(
                "{name:32} {mode_name:7} puzzles {:6} solved {:6} wall best {:9.0}/s ({:6.2} us) worst {:9.0}/s \
                 cpu best {:9.0}/s worst {:9.0}/s guesses/puzzle {:.2}",
                puzzles.len(),
                solved,
                best,
                1e6 / best,
                worst,
                cpu_best,
                cpu_worst,
                guesses as f64 / puzzles.len() as f64
            );
        }
    }
}
