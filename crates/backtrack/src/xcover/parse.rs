//! Knuth's DLX1/DLX2/DLX3 text format.
//!
//! * A line whose first non-blank character is `|` is a comment; blank lines are ignored.
//! * The first other line names the primary items, then optionally `|` and the secondary items.
//!   A primary item may carry bounds (Knuth's multiplicities, DLX3 and SSMCC): `b|name` is
//!   covered exactly `b` times, `a:b|name` between `a` and `b` times, `:b|name` up to `b` times
//!   (`0 <= a <= b`, `b >= 1`).
//! * Every later line is one option: the names of its items, separated by blanks; a secondary
//!   item may carry a color, `name:color`.
//! * An option may carry costs (Knuth's DLX5): tokens `|n`, `n` a non-negative decimal
//!   number, after its first item; its cost is their sum, 0 when there is none.
//! * Names are 1 to 8 non-blank characters other than `:` and `|`. Colors follow the same rule
//!   (Knuth's examples use one character).

use super::problem::{Problem, XcoverError};
use crate::error::Quoted;
use crate::ParseError;

/// The longest item (or color) name Knuth's programs accept.
pub const MAX_NAME_LEN: usize = 8;

/// A problem read from text, with each option's line as written (for
/// printing solutions), borrowed from the text: the text is held once.
#[derive(Debug, Clone)]
pub struct Parsed<'a> {
    /// The problem.
    pub problem: Problem,
    /// Each option's line, trimmed of surrounding blanks.
    pub option_lines: Vec<&'a str>,
    /// Each option's 1-based line number in the input.
    pub option_line_numbers: Vec<usize>,
}

/// Blank-separated tokens of `line` with their 1-based character columns.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut column = 0;
    for (offset, ch) in line.char_indices() {
        column += 1;
        if ch.is_whitespace() {
            if let Some((s, c)) = start.take() {
                out.push((c, &line[s..offset]));
            }
        } else if start.is_none() {
            start = Some((offset, column));
        }
    }
    if let Some((s, c)) = start {
        out.push((c, &line[s..]));
    }
    out
}

/// Checks one name (item or color): 1 to 8 characters, no `:` or `|`,
/// and no byte-order mark (invisible, and dropped at the start of a text, so
/// a name made of it would not read back).
fn check_name(name: &str, what: &str, line: usize, column: usize) -> Result<(), ParseError> {
    if name.is_empty() {
        return Err(ParseError::new(line, column, format!("empty {what} name")));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(ParseError::new(
            line,
            column,
            format!("{what} name '{}' is too long (more than {MAX_NAME_LEN} characters)", Quoted(name)),
        ));
    }
    if let Some(bad) = name.chars().find(|&c| c == ':' || c == '|') {
        return Err(ParseError::new(line, column, format!("'{bad}' in {what} name '{}'", Quoted(name))));
    }
    if name.contains('\u{feff}') {
        return Err(ParseError::new(
            line,
            column,
            format!("a byte-order mark (U+FEFF) in {what} name '{}'", Quoted(name)),
        ));
    }
    Ok(())
}

/// An item-line token: the item's bounds (`b|` or `a:b|`, absent for a
/// plain name), its name and the name's column.
type ItemToken<'a> = (Option<(u32, u32)>, &'a str, usize);

/// Splits an item-line token into its bounds, name and the name's column.
fn item_with_bounds(tok: &str, line: usize, column: usize) -> Result<ItemToken<'_>, ParseError> {
    let Some((spec, name)) = tok.split_once('|') else {
        if tok.starts_with(|c: char| c.is_ascii_digit() || c == ':') && tok.contains(':') {
            return Err(ParseError::new(
                line,
                column,
                format!("bounds '{}' need '|' before the item name ('a:b|name')", Quoted(tok)),
            ));
        }
        return Ok((None, tok, column));
    };
    let bound = |text: &str, what: &str| -> Result<u32, ParseError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::new(
                line,
                column,
                format!("bad {what} bound '{}' in '{}' (a number is expected)", Quoted(text), Quoted(tok)),
            ));
        }
        text.parse::<u32>()
            .map_err(|_| ParseError::new(line, column, format!("{what} bound in '{}' is too large", Quoted(tok))))
    };
    let (lo, hi) = match spec.split_once(':') {
        Some(("", hi)) => (0, bound(hi, "upper")?),
        Some((lo, hi)) => (bound(lo, "lower")?, bound(hi, "upper")?),
        None => {
            let b = bound(spec, "upper")?;
            (b, b)
        }
    };
    Ok((Some((lo, hi)), name, column + spec.chars().count() + 1))
}

/// The cost a `|n` token gives an option (`digits` is `n`).
fn option_cost(digits: &str, tok: &str, line: usize, column: usize) -> Result<u64, ParseError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            line,
            column,
            format!("bad option cost '{}' (a '|' then a non-negative number is expected)", Quoted(tok)),
        ));
    }
    digits.parse().map_err(|_| ParseError::new(line, column, format!("option cost '{}' is too large", Quoted(tok))))
}

/// Reads a problem in Knuth's format. Errors name the line, the column and the offending item.
pub fn parse(text: &str) -> Result<Parsed<'_>, ParseError> {
    let text = crate::text::strip_bom(text);
    let mut builder = Problem::builder();
    let mut header_seen = false;
    let mut option_lines = Vec::new();
    let mut option_line_numbers = Vec::new();
    let mut last_line = 0;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        last_line = line_no;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('|') {
            continue;
        }
        let toks = tokens(raw);
        if !header_seen {
            header_seen = true;
            let mut secondary = false;
            let mut n_primary = 0;
            for &(column, tok) in &toks {
                if tok == "|" {
                    if secondary {
                        return Err(ParseError::new(line_no, column, "second '|' in the item list"));
                    }
                    secondary = true;
                    continue;
                }
                let (bounds, name, name_column) = item_with_bounds(tok, line_no, column)?;
                check_name(name, "item", line_no, name_column)?;
                let declared = match (secondary, bounds) {
                    (false, Some((lo, hi))) => builder.primary_bounded(name, lo, hi),
                    (false, None) => builder.primary(name),
                    (true, None) => builder.secondary(name),
                    (true, Some(_)) => {
                        return Err(ParseError::new(
                            line_no,
                            column,
                            format!("bounds on secondary item '{}' (only primary items take them)", Quoted(tok)),
                        ))
                    }
                };
                declared.map_err(|e| ParseError::new(line_no, column, e.to_string()))?;
                n_primary += usize::from(!secondary);
            }
            if n_primary == 0 {
                return Err(ParseError::new(line_no, 0, "the item list names no primary item"));
            }
            continue;
        }
        let mut entries: Vec<(&str, Option<&str>)> = Vec::with_capacity(toks.len());
        let mut item_toks = Vec::with_capacity(toks.len());
        let mut cost = 0u64;
        for &(column, tok) in &toks {
            if let Some(digits) = tok.strip_prefix('|') {
                cost = cost.checked_add(option_cost(digits, tok, line_no, column)?).ok_or_else(|| {
                    ParseError::new(line_no, column, "the option's costs add up to more than 2^64 - 1")
                })?;
                continue;
            }
            item_toks.push((column, tok));
            let (name, color) = match tok.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (tok, None),
            };
            check_name(name, "item", line_no, column)?;
            if let Some(c) = color {
                check_name(c, "color", line_no, column + name.chars().count() + 1)
                    .map_err(|e| ParseError::new(e.line, e.column, format!("{} (on item '{name}')", e.message)))?;
            }
            entries.push((name, color));
        }
        let toks = item_toks;
        let added = builder.option_colored(entries.iter().copied());
        if let Ok(option) = added {
            if cost != 0 {
                builder.set_cost(option, cost);
            }
        }
        if let Err(e) = added {
            let column = match &e {
                XcoverError::UnknownItem(n) | XcoverError::ColorOnPrimary(n) | XcoverError::EmptyColor(n) => {
                    toks.iter().zip(&entries).find(|(_, (name, _))| name == n).map_or(0, |(t, _)| t.0)
                }
                XcoverError::RepeatedItem(n) => {
                    toks.iter().zip(&entries).filter(|(_, (name, _))| name == n).nth(1).map_or(0, |(t, _)| t.0)
                }
                _ => 0,
            };
            return Err(ParseError::new(line_no, column, e.to_string()));
        }
        option_lines.push(trimmed);
        option_line_numbers.push(line_no);
    }
    if !header_seen {
        return Err(ParseError::new(last_line + 1, 0, "no item list (the input has no line other than comments)"));
    }
    let problem = builder.build().map_err(|e| ParseError::new(last_line + 1, 0, e.to_string()))?;
    Ok(Parsed { problem, option_lines, option_line_numbers })
}
