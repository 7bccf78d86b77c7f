//! HoDoKu's regression library lines, as the technique tests read them: a
//! case read must name cells and digits that exist, its givens must be digits
//! of its grid, and a line refused must be refused in a short message.
#![no_main]

use backtrack::sudoku::techniques::reglib::Case;
use backtrack_fuzz::{check_message, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    for line in text.lines() {
        match Case::parse(line) {
            Ok(None) => assert!(line.trim().is_empty() || line.trim().starts_with('#')),
            Ok(Some(case)) => {
                assert!(!case.code.is_empty() && case.code.bytes().all(|b| b.is_ascii_digit()));
                assert!(case.digits.iter().all(|d| (1..=9).contains(d)));
                for &(cell, d) in case.eliminations.iter().chain(&case.placements) {
                    assert!(cell < 81 && (1..=9).contains(&d), "r{}c{} {d}", cell / 9 + 1, cell % 9 + 1);
                }
                for (cell, &given) in case.givens.iter().enumerate() {
                    if given != 0 {
                        assert_eq!(case.board.values[cell], given, "given {given} at cell {cell}");
                    }
                }
            }
            Err(error) => check_message(&error.to_string()),
        }
    }
});
