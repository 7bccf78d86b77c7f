//! The Sudominoku contest format (BOJ 4574), as `backtrack sudominoku` and
//! `backtrack boj 4574` read it. Every puzzle read must be written back and
//! read again unchanged.
#![no_main]

use backtrack::sudominoku::{self, cell_name, Puzzle};
use backtrack_fuzz::{check_bom_ignored, check_position, text};
use libfuzzer_sys::fuzz_target;

/// One puzzle in the contest format, without the terminating `0`.
fn to_text(puzzle: &Puzzle) -> String {
    let mut text = format!("{}\n", puzzle.dominoes.len());
    for d in &puzzle.dominoes {
        text.push_str(&format!(
            "{} {} {} {}\n",
            d.first_digit,
            cell_name(d.first.into()),
            d.second_digit,
            cell_name(d.second.into())
        ));
    }
    let singles: Vec<String> = puzzle.singles.iter().map(|&c| cell_name(c.into())).collect();
    text.push_str(&singles.join(" "));
    text.push('\n');
    text
}

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    check_bom_ignored(&text, sudominoku::parse);
    let puzzles = match sudominoku::parse(&text) {
        Ok(puzzles) => puzzles,
        Err(e) => return check_position(&text, &e),
    };
    let mut written = String::new();
    for puzzle in &puzzles {
        match puzzle {
            Ok(puzzle) => {
                for d in &puzzle.dominoes {
                    assert_eq!(puzzle.grid[usize::from(d.first)], d.first_digit);
                    assert_eq!(puzzle.grid[usize::from(d.second)], d.second_digit);
                }
                for (digit, &cell) in (1..).zip(&puzzle.singles) {
                    assert_eq!(puzzle.grid[usize::from(cell)], digit);
                }
                written.push_str(&to_text(puzzle));
            }
            Err(e) => check_position(&text, e),
        }
    }
    written.push_str("0\n");
    let again = sudominoku::parse(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    let good: Vec<&Puzzle> = puzzles.iter().filter_map(|p| p.as_ref().ok()).collect();
    let again: Vec<&Puzzle> = again.iter().map(|p| p.as_ref().expect("a written puzzle is valid")).collect();
    assert_eq!(again, good);
});
