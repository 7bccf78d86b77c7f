//! `sudoku::stream::Reader`: however the bytes arrive, the batches it hands
//! out hold the same puzzles, errors and line numbers as parsing the whole
//! text at once; and it refuses over-long lines.

use std::io::Read;

use backtrack::sudoku::stream::{Reader, StreamError, MAX_LINE};
use backtrack::sudoku::{Batch, Puzzle};
use proptest::prelude::*;

/// A source that gives its bytes in pieces of the given sizes, in turn.
struct Pieces {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    turn: usize,
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.turn % self.sizes.len()].max(1);
        self.turn += 1;
        let n = size.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// (line, cells or error message) of every puzzle of a batch.
type Summary = Vec<(usize, Result<Vec<u8>, String>)>;

fn summary(batch: &Batch) -> Summary {
    batch
        .entries()
        .iter()
        .map(|e| (e.line, e.result.as_ref().map(|&slot| batch.cells(slot).to_vec()).map_err(|e| e.to_string())))
        .collect()
}

fn read_in_pieces(text: &str, sizes: Vec<usize>) -> Result<Summary, String> {
    let mut reader = Reader::new(Pieces { data: text.as_bytes().to_vec(), at: 0, sizes, turn: 0 });
    let mut all = Vec::new();
    while let Some(batch) = reader.next_batch() {
        all.extend(summary(&batch.map_err(|e| e.to_string())?));
    }
    Ok(all)
}

const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

/// A text of puzzles in one of the formats, with comments, blank lines and a few malformed puzzles.
fn texts() -> impl Strategy<Value = String> {
    let puzzle = PUZZLE.parse::<Puzzle>().unwrap();
    (0..3usize, prop::collection::vec((0..6u8, any::<bool>()), 1..12)).prop_map(move |(format, items)| {
        let mut text = String::new();
        for (kind, newline_blank) in items {
            let mut one = match format {
                0 => format!("{}\n", puzzle.to_text(backtrack::sudoku::Format::Line).trim_end()),
                1 => puzzle.to_text(backtrack::sudoku::Format::Grid),
                _ => puzzle.to_text(backtrack::sudoku::Format::Spaced),
            };
            match kind {
                0 => one = format!("# a comment\n{one}"),
                1 => one = one.replacen('9', "x", 1),
                2 => one = one.replacen('\n', " # note\n", 1),
                _ => {}
            }
            text.push_str(&one);
            if newline_blank && format != 0 {
                text.push('\n');
            }
        }
        text
    })
}

proptest! {
    #[test]
    fn pieces_read_like_the_whole(text in texts(), sizes in prop::collection::vec(1..200usize, 1..8), bom in any::<bool>()) {
        let whole = summary(&Batch::parse(&text).unwrap());
        // A byte-order mark in front, whatever pieces cut it, changes nothing.
        let marked = if bom { format!("\u{feff}{text}") } else { text.clone() };
        prop_assert_eq!(read_in_pieces(&marked, sizes).unwrap(), whole);
    }
}

#[test]
fn a_byte_order_mark_is_dropped_even_when_it_comes_byte_by_byte() {
    let text = format!("\u{feff}{PUZZLE}\n");
    for size in 1..4 {
        let got = read_in_pieces(&text, vec![size]).unwrap();
        assert_eq!(got, summary(&Batch::parse(PUZZLE).unwrap()), "pieces of {size}");
    }
    // Only the mark: an empty input, not a strange symbol.
    assert_eq!(read_in_pieces("\u{feff}", vec![1]), read_in_pieces("", vec![1]));
}

/// Only the first of two marks is dropped, as when the whole text is read:
/// the second is a character of the first line (read in the whole text's
/// layout, as a stream whose layout is given).
#[test]
fn a_second_byte_order_mark_is_read_as_the_whole_text_reads_it() {
    for text in [format!("\u{feff}\u{feff}{PUZZLE}\n{PUZZLE}\n"), format!("\u{feff}\u{feff}# note\n{PUZZLE}\n")] {
        let whole = Batch::parse(&text).unwrap();
        for size in [1, 2, 3, 5, 200] {
            let pieces = Pieces { data: text.as_bytes().to_vec(), at: 0, sizes: vec![size], turn: 0 };
            let mut reader = Reader::with_layout(pieces, whole.layout());
            let mut streamed = Vec::new();
            while let Some(batch) = reader.next_batch() {
                streamed.extend(summary(&batch.unwrap()));
            }
            assert_eq!(streamed, summary(&whole), "pieces of {size}: {text:?}");
        }
    }
}

#[test]
fn a_puzzle_without_a_final_newline_is_read() {
    let got = read_in_pieces(PUZZLE, vec![7]).unwrap();
    assert_eq!(got.len(), 1);
    assert!(got[0].1.is_ok());
}

#[test]
fn over_long_lines_are_refused_naming_the_line() {
    let text = format!("{PUZZLE}\n{}\n{PUZZLE}\n", "1".repeat(MAX_LINE + 1));
    let mut reader = Reader::new(text.as_bytes());
    let mut answered = 0;
    let error = loop {
        match reader.next_batch() {
            Some(Ok(batch)) => answered += batch.entries().len(),
            Some(Err(e)) => break e,
            None => panic!("no error"),
        }
    };
    assert!(matches!(error, StreamError::LineTooLong { line: 2 }), "{error}");
    assert!(error.to_string().contains("64 KiB"));
    assert_eq!(answered, 1);
    assert!(reader.next_batch().is_none());
    // An endless line with no newline at all is refused too, in bounded memory.
    let mut reader = Reader::new(std::io::repeat(b'1').take(10 * MAX_LINE as u64));
    assert!(matches!(reader.next_batch(), Some(Err(StreamError::LineTooLong { line: 1 }))));
}
