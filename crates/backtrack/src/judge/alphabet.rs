//! Alphabet (BOJ 1987): `R C` and R rows of C capital letters; the answer is
//! the most cells a walk from the top-left cell passes without meeting a
//! letter twice.
//!
//! Random boards use an alphabet of random size: few letters make short,
//! crowded walks; all 26 make long ones, with deep search on a full board.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::solve_1987;

/// Rows and columns (`1 <= R, C <= 20`).
const SIDE: (usize, usize) = (1, 20);

/// BOJ 1987.
#[derive(Debug)]
pub struct Alphabet;

fn board(rows: &[&str]) -> Input {
    Input::Board(rows.iter().map(|r| r.bytes().collect()).collect())
}

/// An `r` x `c` board of the first `letters` capital letters, at random.
fn random_board(rng: &mut Rng, r: usize, c: usize, letters: u64) -> Input {
    Input::Board((0..r).map(|_| (0..c).map(|_| b'A' + rng.range(0, letters - 1) as u8).collect()).collect())
}

impl JudgeProblem for Alphabet {
    fn id(&self) -> u32 {
        1987
    }

    fn title(&self) -> Title {
        Title { ko: "알파벳", en: "longest walk on a letter board, no letter twice" }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(solve_1987(input), out)
    }

    fn samples(&self) -> Vec<Input> {
        vec![
            board(&["CAAB", "ADCB"]),
            board(&["HFDFFB", "AJHGDH", "DGAGEH"]),
            board(&["IEFCJ", "FHFKC", "FFALF", "HFGCF", "HMCHH"]),
        ]
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        let row: String = (b'A'..b'A' + SIDE.1 as u8).map(char::from).collect();
        let column: Vec<String> = row.chars().map(String::from).collect();
        let column: Vec<&str> = column.iter().map(String::as_str).collect();
        vec![
            ("one-cell", board(&["A"])),
            ("one-row", board(&[&row])),
            ("one-column", board(&column)),
            ("max-all-same", Input::Board(vec![vec![b'Z'; SIDE.1]; SIDE.1])),
            ("max-every-letter", random_board(rng, SIDE.1, SIDE.1, 26)),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let r = rng.range(SIDE.0 as u64, SIDE.1 as u64) as usize;
        let c = rng.range(SIDE.0 as u64, SIDE.1 as u64) as usize;
        let letters = rng.range(1, 26);
        random_board(rng, r, c, letters)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        // Each letter in a diagonal band: long walks with many ways to take them.
        let bands =
            Input::Board((0..SIDE.1).map(|i| (0..SIDE.1).map(|j| b'A' + ((i + j) % 26) as u8).collect()).collect());
        vec![("max-diagonal-bands", bands), ("max-random", random_board(rng, SIDE.1, SIDE.1, 26))]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Board(rows) = input else { foreign(self.id(), input) };
        let mut text = format!("{} {}\n", rows.len(), rows.first().map_or(0, Vec::len));
        for row in rows {
            text.push_str(&String::from_utf8_lossy(row));
            text.push('\n');
        }
        text
    }

    /// A row or a column less (the first kept: it holds the start), then a
    /// letter made `A`.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Board(rows) = input else { foreign(self.id(), input) };
        let (r, c) = (rows.len(), rows[0].len());
        let mut out = Vec::new();
        for i in (1..r).rev() {
            let mut fewer = rows.clone();
            fewer.remove(i);
            out.push(fewer);
        }
        for j in (1..c).rev() {
            out.push(rows.iter().map(|row| [&row[..j], &row[j + 1..]].concat()).collect());
        }
        for i in 0..r {
            for j in (0..c).filter(|&j| rows[i][j] != b'A') {
                let mut lower = rows.clone();
                lower[i][j] = b'A';
                out.push(lower);
            }
        }
        out.into_iter().map(Input::Board).collect()
    }
}
