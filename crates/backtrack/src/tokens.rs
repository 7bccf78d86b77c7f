//! The one tokenizer behind the word-based parsers (the enumeration
//! problems, the N-queens board size, sudominoku): whitespace-separated
//! words, each with the 1-based line and column it starts at, so that every
//! error can point at its word.

use std::fmt::Display;
use std::str::FromStr;

use crate::error::Quoted;
use crate::ParseError;

/// Whitespace-separated words of a text, in order, with their positions.
#[derive(Debug, Clone)]
pub(crate) struct Tokens<'a> {
    text: &'a str,
    /// Byte offset of the rest of the text.
    pos: usize,
    /// Line and column of `pos`.
    line: usize,
    column: usize,
}

/// One word and where it starts (1-based line and column, in characters).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    /// The word itself.
    pub text: &'a str,
    /// Line of its first character.
    pub line: usize,
    /// Column of its first character.
    pub column: usize,
}

impl Token<'_> {
    /// An error pointing at this word.
    pub fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.line, self.column, message)
    }
}

impl<'a> Tokens<'a> {
    /// The words of `text`.
    pub fn new(text: &'a str) -> Self {
        Tokens { text: crate::text::strip_bom(text), pos: 0, line: 1, column: 1 }
    }

    /// The next word, or `None` at the end of the text.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        let rest = &self.text[self.pos..];
        let mut start = None;
        let mut end = rest.len();
        let (mut line, mut column) = (self.line, self.column);
        for (i, c) in rest.char_indices() {
            if c.is_whitespace() {
                if start.is_some() {
                    end = i;
                    break;
                }
                if c == '\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
            } else {
                if start.is_none() {
                    start = Some(i);
                    (line, column) = (self.line, self.column);
                }
                self.column += 1;
            }
        }
        let start = start?;
        self.pos += end;
        Some(Token { text: &rest[start..end], line, column })
    }

    /// Where the text ends: the place an "expected more" error points at.
    pub fn end(&self) -> (usize, usize) {
        crate::error::end_position(self.text)
    }

    /// An error at the end of the text.
    pub fn error_at_end(&self, message: impl Into<String>) -> ParseError {
        let (line, column) = self.end();
        ParseError::new(line, column, message)
    }

    /// The next word; `what` names it in the error at the end of the text.
    pub fn expect(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        self.next_token().ok_or_else(|| self.error_at_end(format!("expected {what}, found the end of the input")))
    }

    /// The next word as a number in `min..=max`; `what` names it in errors.
    pub fn number<N>(&mut self, what: &str, min: N, max: N) -> Result<N, ParseError>
    where
        N: FromStr + PartialOrd + Display + Copy,
    {
        self.number_at(what, min, max).map(|(value, _)| value)
    }

    /// Like [`number`](Self::number), also returning the word.
    pub fn number_at<N>(&mut self, what: &str, min: N, max: N) -> Result<(N, Token<'a>), ParseError>
    where
        N: FromStr + PartialOrd + Display + Copy,
    {
        let token = self.expect(what)?;
        let value: N =
            token.text.parse().map_err(|_| token.error(format!("expected {what}, found `{}`", Quoted(token.text))))?;
        if value < min || value > max {
            return Err(token.error(format!("{what} must be between {min} and {max}, found {value}")));
        }
        Ok((value, token))
    }

    /// Fails on any word left; `after` names what came last in the error.
    pub fn expect_end(&mut self, after: &str) -> Result<(), ParseError> {
        match self.next_token() {
            None => Ok(()),
            Some(token) => Err(token.error(format!("unexpected `{}` after {after}", Quoted(token.text)))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_carry_their_line_and_column() {
        let mut tokens = Tokens::new("  ab\tc\n\n é x\r\n");
        let mut seen = Vec::new();
        while let Some(t) = tokens.next_token() {
            seen.push((t.text, t.line, t.column));
        }
        assert_eq!(seen, [("ab", 1, 3), ("c", 1, 6), ("é", 3, 2), ("x", 3, 4)]);
        assert_eq!(tokens.end(), (4, 1));
    }

    #[test]
    fn numbers_are_checked_for_range() {
        let mut tokens = Tokens::new("5 12 x");
        assert_eq!(tokens.number("N", 1, 9), Ok(5));
        let err = tokens.number("M", 1, 9).unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        let err = tokens.number::<u32>("K", 1, 9).unwrap_err();
        assert_eq!(err.message, "expected K, found `x`");
        let err = tokens.number::<u32>("K", 1, 9).unwrap_err();
        assert_eq!((err.line, err.column), (1, 7));
    }
}
