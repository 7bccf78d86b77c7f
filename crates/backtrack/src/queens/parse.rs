//! Reading a board size.

use crate::error::Quoted;
use crate::tokens::Tokens;
use crate::ParseError;

use super::MAX_N;

/// Reads the board size of the judge's N-Queen problem: one integer N
/// (whitespace around it is fine), `1 <= N <= `[`MAX_N`].
pub fn parse_board_size(text: &str) -> Result<usize, ParseError> {
    let mut tokens = Tokens::new(text);
    let Some(token) = tokens.next_token() else {
        return Err(ParseError::new(text.lines().count().max(1), 0, "expected the board size N, found no input"));
    };
    if let Some(extra) = tokens.next_token() {
        return Err(extra.error(format!("unexpected '{}' after N", Quoted(extra.text))));
    }
    let word = token.text;
    if let Some((at, c)) = word.char_indices().find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-'))) {
        return Err(ParseError::new(
            token.line,
            token.column + word[..at].chars().count(),
            format!("expected the board size N (a whole number), found '{c}'"),
        ));
    }
    let out_of_range =
        |shown: &str| token.error(format!("board size {shown} is out of range: N must be between 1 and {MAX_N}"));
    let n: i64 = word.parse().map_err(|_| out_of_range(&format!("'{}'", Quoted(word))))?;
    if !(1..=MAX_N as i64).contains(&n) {
        return Err(out_of_range(&n.to_string()));
    }
    Ok(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_size_errors_point_at_the_word() {
        assert_eq!(parse_board_size(" 8 \n"), Ok(8));
        let err = parse_board_size("8 9").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        let err = parse_board_size("\n 1x").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
        let err = parse_board_size("33").unwrap_err();
        assert_eq!(err.message, "board size 33 is out of range: N must be between 1 and 32");
        assert_eq!(parse_board_size("  \n").unwrap_err().column, 0);
    }
}
