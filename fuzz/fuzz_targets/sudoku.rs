//! Sudoku text of any size and format, as `backtrack sudoku` reads it: the
//! format is detected, every puzzle of the batch is read, and each good one
//! must be written back and read again unchanged.
#![no_main]

use backtrack::sudoku::{self, find_conflict, Batch, Puzzle};
use backtrack_fuzz::{check_bom_ignored, check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    check_bom_ignored(&text, Batch::parse);
    let batch = match Batch::parse(&text) {
        Ok(batch) => batch,
        Err(e) => return check_position(&text, &e),
    };
    let layout = batch.layout();
    let side = layout.box_size * layout.box_size;
    let mut good = 0;
    for entry in batch.entries() {
        match &entry.result {
            Ok(slot) => {
                let cells = batch.cells(*slot);
                assert_eq!(cells.len(), side * side);
                assert!(cells.iter().all(|&v| usize::from(v) <= side), "cell out of range: {cells:?}");
                assert!(find_conflict(layout.box_size, cells).is_none(), "conflicting givens accepted");
                let puzzle = Puzzle::new(layout.box_size, cells.to_vec()).expect("a batch puzzle is a puzzle");
                let again =
                    sudoku::parse_as(&puzzle.to_text(layout.format), layout).expect("written puzzle reads back");
                assert_eq!(again, puzzle);
                good += 1;
            }
            Err(e) => check_position(&text, e),
        }
    }
    assert_eq!(good, batch.puzzles());
    // Reading exactly one puzzle agrees with the batch.
    match sudoku::parse(&text) {
        Ok(puzzle) => {
            assert_eq!(batch.entries().len(), 1);
            assert_eq!(puzzle.cells(), batch.cells(0));
        }
        Err(e) => check_position(&text, &e),
    }
});
