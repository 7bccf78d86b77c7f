//! Sudoku text read in a layout given by the first byte (any format, box
//! sizes 2 to 5), so every reader sees inputs meant for the others.
#![no_main]

use backtrack::sudoku::{self, Batch, Format, Layout, MAX_BOX, MIN_BOX};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let format = [Format::Line, Format::Grid, Format::Spaced][usize::from(pick % 3)];
    let box_size = MIN_BOX + usize::from(pick / 3) % (MAX_BOX - MIN_BOX + 1);
    let layout = Layout { format, box_size };
    let text = text(rest);
    let batch = Batch::parse_as(&text, layout);
    assert_eq!(batch.layout(), layout);
    for entry in batch.entries() {
        match &entry.result {
            Ok(slot) => {
                let cells = batch.cells(*slot);
                let mut written = Vec::new();
                sudoku::write_cells(&mut written, box_size, cells, format);
                let again = sudoku::parse_as(std::str::from_utf8(&written).unwrap(), layout).expect("reads back");
                assert_eq!(again.cells(), cells);
            }
            Err(e) => check_position(&text, e),
        }
    }
    if let Err(e) = sudoku::parse_as(&text, layout) {
        check_position(&text, &e);
    }
});
