//! Solves Sudominoku puzzles (the dominoes-and-digits sudoku) through the
//! generic exact cover engine.
//!
//! Input as in the judge problem: `N`, then N lines `U LU V LV` (a domino
//! already laid: digit U at location LU, digit V at LV; locations are a row
//! letter `A`-`I` and a column digit `1`-`9`), then the locations of the
//! single digits 1..9; a line `0` ends the input. Prints `Puzzle i` and the
//! grid, and the number of distinct grids to standard error.
//!
//! ```sh
//! cargo run --release --example xcover_sudominoku < puzzles.txt
//! ```

use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;

use backtrack::search::Search;
use backtrack::xcover::sudoku::{DominoClue, SudominokuCover};

fn cell(name: &str) -> Option<usize> {
    let b = name.as_bytes();
    (b.len() == 2 && (b'A'..=b'I').contains(&b[0]) && (b'1'..=b'9').contains(&b[1]))
        .then(|| (b[0] - b'A') as usize * 9 + (b[1] - b'1') as usize)
}

fn main() -> io::Result<()> {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text)?;
    let mut words = text.split_whitespace();
    let mut out = io::stdout().lock();
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "malformed puzzle");
    for index in 1.. {
        let n: usize = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        if n == 0 {
            break;
        }
        let mut dominoes = Vec::with_capacity(n);
        for _ in 0..n {
            let mut next = || words.next().ok_or_else(bad);
            let (u, lu, v, lv) = (next()?, next()?, next()?, next()?);
            dominoes.push(DominoClue {
                first_digit: u.parse().map_err(|_| bad())?,
                first: cell(lu).ok_or_else(bad)?,
                second_digit: v.parse().map_err(|_| bad())?,
                second: cell(lv).ok_or_else(bad)?,
            });
        }
        let mut singles = [0usize; 9];
        for s in &mut singles {
            *s = words.next().and_then(cell).ok_or_else(bad)?;
        }
        let cover = SudominokuCover::new(&dominoes, &singles).ok_or_else(bad)?;
        let mut grids = BTreeSet::new();
        Search::new(cover.problem().space()).for_each(|s| {
            grids.insert(cover.grid(&s));
            ControlFlow::Continue(())
        });
        writeln!(out, "Puzzle {index}")?;
        if let Some(grid) = grids.first() {
            for row in grid.chunks(9) {
                writeln!(out, "{}", row.iter().map(|d| char::from(b'0' + d)).collect::<String>())?;
            }
        }
        eprintln!("puzzle {index}: {} distinct grid(s)", grids.len());
    }
    Ok(())
}
