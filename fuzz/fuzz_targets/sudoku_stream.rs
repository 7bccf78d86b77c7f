//! Sudoku text read as `backtrack sudoku` reads standard input: through a
//! stream [`Reader`] whose source hands out the text in pieces of fuzzed
//! sizes. Read in the layout of the whole text, the puzzles, their line
//! numbers and their errors must be exactly those of reading the whole text
//! at once, however the text was cut.
#![no_main]

use std::io::Read;

use backtrack::sudoku::stream::{Reader, StreamError};
use backtrack::sudoku::{detect, Batch};
use backtrack_fuzz::{check_message, check_position, text};
use libfuzzer_sys::fuzz_target;

/// A source that cuts the text into pieces: its i-th read returns at most
/// `1 + b * b / 8` bytes, `b = sizes[i % sizes.len()]` (1 byte to 8 KB).
struct Pieces<'a> {
    text: &'a [u8],
    sizes: &'a [u8],
    reads: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let b = usize::from(self.sizes[self.reads % self.sizes.len()]);
        let size = 1 + b * b / 8;
        self.reads += 1;
        let n = size.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

/// A batch's puzzles, good or bad, as comparable values.
fn summary(batch: &Batch) -> Vec<(usize, Result<Vec<u8>, backtrack::ParseError>)> {
    batch.entries().iter().map(|e| (e.line, e.result.clone().map(|slot| batch.cells(slot).to_vec()))).collect()
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (sizes, rest) = data.split_at(4);
    let text = text(rest);
    // Whole-text reading as the reference.
    let layout = match detect(&text) {
        Ok(layout) => layout,
        Err(e) => return check_position(&text, &e),
    };
    let whole = summary(&Batch::parse_as(&text, layout));
    let mut streamed = Vec::new();
    let mut reader = Reader::with_layout(Pieces { text: text.as_bytes(), sizes, reads: 0 }, layout);
    while let Some(batch) = reader.next_batch() {
        let batch = batch.unwrap_or_else(|e| panic!("reading a stream failed: {e}"));
        assert_eq!(batch.layout(), layout);
        streamed.extend(summary(&batch));
    }
    assert_eq!(streamed, whole);
    // Finding the layout from the stream itself never fails in other ways.
    let mut reader = Reader::new(Pieces { text: text.as_bytes(), sizes, reads: 0 });
    while let Some(batch) = reader.next_batch() {
        match batch {
            Ok(batch) => {
                batch.entries().iter().filter_map(|e| e.result.as_ref().err()).for_each(|e| check_position(&text, e))
            }
            Err(StreamError::Format(e)) => check_position(&text, &e),
            Err(e) => check_message(&e.to_string()),
        }
    }
});
