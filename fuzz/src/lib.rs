//! Checks shared by the fuzz targets.

use backtrack::ParseError;

/// The fuzz input as text: invalid UTF-8 is replaced, so every input reaches the parser.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Panics unless `error` points into `text` (or just past its end): the line
/// is 1 to one past the last, the column (in characters, 0 for the whole
/// line) at most one past the end of that line, and the message is not empty
/// and short (it quotes at most a few dozen characters of the input).
pub fn check_position(text: &str, error: &ParseError) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(!error.message.is_empty(), "empty message at line {}", error.line);
    check_message(&error.message);
    assert!(
        (1..=lines.len() + 1).contains(&error.line),
        "line {} outside 1..={} ({error})",
        error.line,
        lines.len() + 1
    );
    let width = lines.get(error.line - 1).map_or(0, |l| l.chars().count());
    assert!(
        error.column <= width + 1,
        "column {} past the end of line {} ({width} characters): {error}",
        error.column,
        error.line
    );
}

/// Longest message a parser may give, in characters: its own words and a few
/// quoted pieces of input, each cut to [`backtrack::error::QUOTE_LIMIT`]. The
/// longest own words are an unknown technique's, which list every technique
/// name (about 560 characters for 35 names), so there is room for more.
pub const MAX_MESSAGE: usize = 1000;

/// Panics unless `message` is at most [`MAX_MESSAGE`] characters long.
pub fn check_message(message: &str) {
    let len = message.chars().count();
    assert!(len <= MAX_MESSAGE, "a message of {len} characters: {message}");
}

/// Panics unless `parse` reads `text` with a byte-order mark in front
/// exactly as it reads `text`: the mark is dropped, and positions in errors
/// count from the character after it.
pub fn check_bom_ignored<T: std::fmt::Debug>(text: &str, parse: impl Fn(&str) -> T) {
    if text.starts_with(backtrack::text::BOM) {
        return;
    }
    let marked = format!("{}{text}", backtrack::text::BOM);
    assert_eq!(format!("{:?}", parse(&marked)), format!("{:?}", parse(text)), "a byte-order mark changed the reading");
}
