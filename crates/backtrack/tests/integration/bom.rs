//! Every parser of the library reads a text that starts with a UTF-8
//! byte-order mark as the same text without it, errors at the same line
//! and column.

use backtrack::{choose, queens, sudoku, sudominoku, xcover};

const BOM: &str = "\u{feff}";
const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n";

/// `parse` reads `text` and the marked text alike (compared through `Debug`).
fn same<T: std::fmt::Debug>(text: &str, parse: impl Fn(&str) -> T) {
    assert_eq!(format!("{:?}", parse(&format!("{BOM}{text}"))), format!("{:?}", parse(text)), "{text:?}");
}

#[test]
fn every_parser_drops_a_leading_byte_order_mark() {
    let grid: String =
        PUZZLE.trim_end().as_bytes().chunks(9).map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect();
    for text in [PUZZLE, grid.as_str(), "1.3\n", "a\n"] {
        same(text, sudoku::parse);
        same(text, sudoku::detect);
        same(text, sudoku::Batch::parse);
    }
    assert!(sudoku::parse(&format!("{BOM}{PUZZLE}")).is_ok());
    // A parsed problem borrows its text: compared as text at once.
    same("p q | x\np x\nq\n", |t| format!("{:?}", xcover::parse(t)));
    same("a b\na\n", |t| format!("{:?}", xcover::parse(t)));
    // A mark past the start is no name: it would not read back once written first.
    let inner = xcover::parse("\n\u{feff}\n").unwrap_err();
    assert_eq!((inner.line, inner.column), (2, 1), "{inner}");
    same(include_str!("../../../../tests/data/sudominoku/sample.in"), sudominoku::parse);
    same("9 7 9 1\n", choose::parse_values);
    same("4 2\n", |t| choose::parse_n_and_m(t, false));
    same("7 1 2 3 4 5 6 7\n0\n", choose::parse_lotto);
    same("8\n", queens::parse_board_size);
    same("x\n", queens::parse_board_size);
    // One mark only: a second is content, and refused as such.
    assert!(queens::parse_board_size(&format!("{BOM}{BOM}8")).is_err());
}
