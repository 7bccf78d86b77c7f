//! Solves sudokus through the generic exact cover engine.
//!
//! Reads puzzles from standard input, one per line (81 characters, `.` or `0`
//! for an empty cell), and prints each solution on one line, with the number
//! of solutions (up to 2) after it:
//!
//! ```sh
//! echo ..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9 \
//!     | cargo run --release --example xcover_sudoku
//! ```

use std::io::{self, BufRead, Write};

use backtrack::search::Search;
use backtrack::xcover::sudoku::SudokuCover;

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let grid: Vec<u8> = line
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => b - b'0',
                _ => 0,
            })
            .collect();
        let Some(cover) = SudokuCover::new(3, &grid) else {
            writeln!(out, "not a 9x9 puzzle: {line}")?;
            continue;
        };
        let mut search = Search::new(cover.problem().space());
        let Some(solution) = search.first() else {
            writeln!(out, "no solution")?;
            continue;
        };
        let text: String = cover.grid(&solution).iter().map(|d| char::from(b'0' + d)).collect();
        let count = Search::new(cover.problem().space()).count(Some(2));
        writeln!(out, "{text} {}", if count > 1 { "(not unique)" } else { "(unique)" })?;
    }
    Ok(())
}
