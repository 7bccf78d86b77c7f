//! Pencil-mark grids: a 9x9 grid written as 729 symbols, nine per cell in
//! row order, a digit for a candidate kept and `.` for one removed
//! (`123456789` a cell with every candidate, `..3.....9` one with 3 and
//! 9), the format the variant reader takes too. Whitespace is ignored.
//!
//! The puzzle maker's `rate`, `explain` and `hint` start from such a
//! grid's candidates (see [`Board::from_marks`](super::techniques::Board::from_marks)).

use crate::ParseError;

/// Symbols of a 9x9 pencil-mark grid.
pub const SYMBOLS: usize = 729;

/// Each cell's candidates, row by row: bit `d - 1` for digit `d`.
pub type Marks = [u16; 81];

/// Whether `line` is written as a pencil-mark grid: 729 symbols besides
/// whitespace. Used to tell a file of them by its first puzzle line; the
/// symbols themselves are checked by [`parse_marks`].
pub fn is_marks_line(line: &str) -> bool {
    line.chars().filter(|c| !c.is_whitespace()).count() == SYMBOLS
}

/// Whether the first puzzle line of `text` (blank lines and `#` comments
/// skipped, a byte order mark dropped) is a pencil-mark grid.
pub fn is_marks_text(text: &str) -> bool {
    crate::variant::puzzle_lines(text).next().is_some_and(|(_, line)| is_marks_line(line))
}

/// Reads a pencil-mark grid on line `line_no` (from 1): its candidates,
/// or an error at the first symbol that is neither a digit 1-9 nor `.`,
/// or at the line's end when it has not 729 symbols. A digit may stand
/// anywhere among its cell's nine symbols, as the variant reader takes it.
pub fn parse_marks(text: &str, line_no: usize) -> Result<Marks, ParseError> {
    let mut marks = [0u16; 81];
    let mut count = 0;
    let mut last_column = 0;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        let column = i + 1;
        last_column = column;
        if count == SYMBOLS {
            return Err(ParseError::new(line_no, column, "a pencil-mark grid has 729 symbols, and this line has more"));
        }
        match c {
            '.' => {}
            '1'..='9' => marks[count / 9] |= 1 << (c as u8 - b'1'),
            _ => {
                let shown: String = c.escape_debug().collect();
                return Err(ParseError::new(
                    line_no,
                    column,
                    format!("'{shown}' in a pencil-mark grid: a candidate is written 1-9, a removed one '.'"),
                ));
            }
        }
        count += 1;
    }
    if count < SYMBOLS {
        return Err(ParseError::new(
            line_no,
            last_column + 1,
            format!("a pencil-mark grid has 729 symbols (9 a cell), and this line ends after {count}"),
        ));
    }
    Ok(marks)
}

/// The grid as 729 symbols.
pub fn marks_line(marks: &Marks) -> String {
    marks
        .iter()
        .flat_map(|&m| (0..9u8).map(move |k| if m & (1 << k) != 0 { char::from(b'1' + k) } else { '.' }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_read_and_written_back() {
        let mut line = "123456789".repeat(81);
        line.replace_range(9..18, "..3.....9");
        let marks = parse_marks(&line, 1).unwrap();
        assert_eq!(marks[1], 0b1_0000_0100);
        assert_eq!(marks[0], 0x1ff);
        assert_eq!(marks_line(&marks), line);
        assert!(is_marks_text(&format!("# c\n\n{line}\n")));
        assert!(!is_marks_text(&".".repeat(81)));
    }

    #[test]
    fn bad_symbols_and_lengths_are_located() {
        let good = "123456789".repeat(81);
        let mut bad = good.clone();
        bad.replace_range(99..100, "0");
        let e = parse_marks(&bad, 3).unwrap_err();
        assert_eq!((e.line, e.column), (3, 100), "{e}");
        let e = parse_marks(&good[..728], 1).unwrap_err();
        assert_eq!(e.column, 729, "{e}");
        assert!(e.message.contains("after 728"), "{e}");
        let e = parse_marks(&format!("{good}1"), 1).unwrap_err();
        assert_eq!(e.column, 730, "{e}");
    }
}
