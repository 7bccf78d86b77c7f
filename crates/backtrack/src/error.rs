//! Errors shared by every parser in the crate.

use std::fmt;

/// Malformed input: what is wrong, and where.
///
/// `line` and `column` are 1-based; a column of 0 means the error concerns
/// the whole line (or the end of the input, when `line` is one past the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number of the offending text.
    pub line: usize,
    /// 1-based column (in characters) of the offending text, or 0 for "the whole line".
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl ParseError {
    /// An error at `line`, `column` (both 1-based; column 0 for the whole line).
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError { line, column, message: message.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for ParseError {}

/// The 1-based line and column just past the end of `text`: where an
/// "expected more input" error points.
pub fn end_position(text: &str) -> (usize, usize) {
    let (mut line, mut column) = (1, 1);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (line, column)
}

/// Most characters of a piece of input that a message quotes.
pub const QUOTE_LIMIT: usize = 40;

/// A piece of input as messages quote it: whole when it has at most
/// [`QUOTE_LIMIT`] characters, else its first characters and `...`, so a
/// 10 MB token does not come back as a 10 MB message.
///
/// ```
/// use backtrack::error::Quoted;
///
/// assert_eq!(Quoted("abc").to_string(), "abc");
/// let long = "9".repeat(1000);
/// assert_eq!(Quoted(&long).to_string(), format!("{}...", "9".repeat(40)));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_LIMIT) {
            None => f.write_str(self.0),
            Some((end, _)) => write!(f, "{}...", &self.0[..end]),
        }
    }
}

/// A count and what it counts, as messages print them: the noun in the
/// plural unless the count is 1 (every noun the library and the tool count
/// takes an `s`).
///
/// ```
/// use backtrack::error::Counted;
///
/// assert_eq!(Counted(1, "dead end").to_string(), "1 dead end");
/// assert_eq!(Counted(0, "node").to_string(), "0 nodes");
/// assert_eq!(Counted(92, "solution").to_string(), "92 solutions");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a>(pub u128, pub &'a str);

impl fmt::Display for Counted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Counted(count, noun) = *self;
        write!(f, "{count} {noun}{}", if count == 1 { "" } else { "s" })
    }
}

/// `Display` and `Error` for an error type that is one message in the
/// library's own words (`struct Name(String)`): it prints the message.
macro_rules! message_error {
    ($name:ident) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}
    };
}
pub(crate) use message_error;
