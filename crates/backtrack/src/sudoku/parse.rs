//! Detecting the format of a text and reading its puzzles, one or a batch.

use crate::ParseError;

use super::read::{column, is_skippable, is_space, read_spaced_row, read_symbols, symbol_value, trim_end, Lines};
use super::{find_conflict, symbol, Conflict, Format, Layout, Puzzle};

/// Puzzle lines [`detect`] looks at to find one whose size it can tell.
const DETECT_LINES: usize = 16;

/// Decides which format `text` is in, and the grid size, from the first of
/// its first 16 puzzle lines whose length fits a size exactly
/// (so that one mistyped first puzzle is reported as such, not misread):
///
/// * a line with spaces (or `|`) between symbols: [`Format::Spaced`], with
///   4, 9, 16 or 25 numbers;
/// * 81, 256 or 625 symbols: [`Format::Line`] (9x9, 16x16, 25x25);
/// * 4, 9 or 25 symbols: [`Format::Grid`];
/// * 16 symbols: a 16x16 grid row if any of the first 16 lines uses a digit
///   above 4, otherwise a 4x4 puzzle in line format.
///
/// Fails on input with no puzzle line, or when no line fits any size; the
/// error says which sizes were tried.
pub fn detect(text: &str) -> Result<Layout, ParseError> {
    detect_unmarked(crate::text::strip_bom(text))
}

/// [`detect`] on a text whose byte-order mark, if it had one, is gone
/// already (a stream drops it as it comes): a mark here is a character.
pub(crate) fn detect_unmarked(text: &str) -> Result<Layout, ParseError> {
    let lines: Vec<(usize, &[u8])> =
        Lines::new(text).filter(|(_, l)| !is_skippable(l)).take(DETECT_LINES).map(|(n, l)| (n, content(l))).collect();
    let Some(&(first_no, first)) = lines.first() else {
        return Err(empty_input());
    };
    for &(_, line) in &lines {
        if line.iter().any(|&b| is_space(b)) {
            let tokens = line.split(|&b| is_space(b)).filter(|t| !t.is_empty()).count();
            if let Some(box_size) = [2, 3, 4, 5].into_iter().find(|b| b * b == tokens) {
                return Ok(Layout { format: Format::Spaced, box_size });
            }
            continue;
        }
        let found = match String::from_utf8_lossy(line).chars().count() {
            4 => (Format::Grid, 2),
            9 => (Format::Grid, 3),
            25 => (Format::Grid, 5),
            16 => {
                let big = |l: &[u8]| l.iter().any(|&b| symbol_value(b).is_some_and(|v| v > 4));
                if lines.iter().any(|&(_, l)| big(l)) {
                    (Format::Grid, 4)
                } else {
                    (Format::Line, 2)
                }
            }
            81 => (Format::Line, 3),
            256 => (Format::Line, 4),
            625 => (Format::Line, 5),
            _ => continue,
        };
        return Ok(Layout { format: found.0, box_size: found.1 });
    }
    let what = if first.iter().any(|&b| is_space(b)) {
        format!("{} numbers", first.split(|&b| is_space(b)).filter(|t| !t.is_empty()).count())
    } else {
        format!("{} symbols", String::from_utf8_lossy(first).chars().count())
    };
    Err(ParseError::new(
        first_no,
        0,
        format!(
            "cannot tell the puzzle size: this line has {what}, and no puzzle line among the first {} fits a size; \
             tried 4x4, 9x9, 16x16 and 25x25: a puzzle on one line has 16, 81, 256 or 625 symbols, a row of a \
             grid 4, 9, 16 or 25 symbols or numbers",
            lines.len()
        ),
    ))
}

/// A puzzle line's data, without leading and trailing blanks and comments.
fn content(line: &[u8]) -> &[u8] {
    let line = trim_end(line);
    let start = line.iter().position(|&b| !is_space(b)).unwrap_or(line.len());
    &line[start..]
}

fn empty_input() -> ParseError {
    ParseError::new(1, 0, "empty input: no puzzle found")
}

/// Where each cell of the puzzle being read came from, for conflict messages.
#[derive(Clone, Copy, Default)]
struct Spot {
    line: usize,
    column: usize,
}

fn conflict_error(conflict: &Conflict, side: usize, spots: &dyn Fn(usize) -> Spot) -> ParseError {
    let at = spots(conflict.second);
    let (r1, c1) = (conflict.first / side + 1, conflict.first % side + 1);
    let (r2, c2) = (conflict.second / side + 1, conflict.second % side + 1);
    let symbol = symbol(conflict.digit) as char;
    ParseError::new(
        at.line,
        at.column,
        format!(
            "{symbol} at row {r2}, column {c2} repeats the {symbol} at row {r1}, column {c1} (same {})",
            conflict.unit
        ),
    )
}

/// Every puzzle of a text, read in one pass with one buffer for all cells.
/// Malformed puzzles keep their error, so a batch can report them and go on.
#[derive(Debug, Clone)]
pub struct Batch {
    layout: Layout,
    cells: Vec<u8>,
    entries: Vec<Entry>,
}

/// One puzzle of a [`Batch`]: where it starts, and its cells or what is wrong with it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// Index of the puzzle's cells in the batch (see [`Batch::cells`]), or the parse error.
    pub result: Result<usize, ParseError>,
}

impl Batch {
    /// Reads every puzzle of `text` in the format [`detect`] finds.
    /// Fails only on empty input.
    pub fn parse(text: &str) -> Result<Batch, ParseError> {
        let layout = detect(text)?;
        Ok(Batch::parse_as(text, layout))
    }

    /// Reads every puzzle of `text` in `layout`. An input with no puzzle
    /// gives an empty batch.
    pub fn parse_as(text: &str, layout: Layout) -> Batch {
        Batch::parse_part(crate::text::strip_bom(text), layout, 1)
    }

    /// [`Batch::parse_as`] on a part of a longer text that starts on line
    /// `first_line` of it (1-based), so that lines are numbered as in the
    /// whole text. The part must start and end between puzzles. A leading
    /// byte-order mark is the caller's to drop (it is a character here):
    /// [`Batch::parse_as`] drops it from a whole text, and a stream as it
    /// comes, so that a second mark never goes unseen.
    pub fn parse_part(text: &str, layout: Layout, first_line: usize) -> Batch {
        let side = layout.box_size * layout.box_size;
        let area = side * side;
        let mut batch = Batch { layout, cells: Vec::new(), entries: Vec::new() };
        match layout.format {
            Format::Line => {
                batch.cells.reserve(text.len() / (area + 1) * area + area);
                for (line_no, line) in Lines::starting_at(text, first_line) {
                    if is_skippable(line) {
                        continue;
                    }
                    let slot = batch.cells.len() / area;
                    batch.cells.resize(batch.cells.len() + area, 0);
                    let cells = &mut batch.cells[slot * area..];
                    let result = read_symbols(line_no, line, side, cells, "cells").and_then(|()| {
                        match find_conflict(layout.box_size, cells) {
                            None => Ok(slot),
                            Some(c) => Err(conflict_error(&c, side, &|i| Spot { line: line_no, column: i + 1 })),
                        }
                    });
                    if result.is_err() {
                        batch.cells.truncate(slot * area);
                    }
                    batch.entries.push(Entry { line: line_no, result });
                }
            }
            Format::Grid | Format::Spaced => {
                let mut lines = Lines::starting_at(text, first_line);
                let mut spots = vec![Spot::default(); area];
                while let Some((start, first_row)) = lines.by_ref().find(|(_, l)| !is_skippable(l)) {
                    let slot = batch.cells.len() / area;
                    batch.cells.resize(batch.cells.len() + area, 0);
                    let cells = &mut batch.cells[slot * area..];
                    let mut error: Option<ParseError> = None;
                    let mut row = 0;
                    let mut current = Some((start, first_row));
                    loop {
                        let Some((line_no, line)) = current else {
                            // End of input inside the puzzle.
                            error.get_or_insert_with(|| {
                                ParseError::new(
                                    lines.number + 1,
                                    0,
                                    format!(
                                        "unexpected end of input: the puzzle starting on line {start} has {row} of \
                                         {side} rows"
                                    ),
                                )
                            });
                            break;
                        };
                        if is_skippable(line) {
                            if line.iter().all(|&b| is_space(b)) {
                                error.get_or_insert_with(|| {
                                    ParseError::new(
                                        line_no,
                                        0,
                                        format!(
                                            "blank line inside a puzzle: the puzzle starting on line {start} has \
                                             {row} of {side} rows"
                                        ),
                                    )
                                });
                                break;
                            }
                        } else {
                            if error.is_none() {
                                let dest = &mut cells[row * side..(row + 1) * side];
                                let read = match layout.format {
                                    Format::Spaced => read_spaced_row(line_no, line, side, dest),
                                    _ => read_symbols(line_no, line, side, dest, "symbols in a row"),
                                };
                                if let Err(e) = read {
                                    error = Some(e);
                                } else {
                                    record_spots(
                                        &mut spots[row * side..(row + 1) * side],
                                        line_no,
                                        line,
                                        layout.format,
                                    );
                                }
                            }
                            row += 1;
                            if row == side {
                                break;
                            }
                        }
                        current = lines.next();
                    }
                    let result = match error {
                        Some(e) => Err(e),
                        None => match find_conflict(layout.box_size, cells) {
                            None => Ok(slot),
                            Some(c) => Err(conflict_error(&c, side, &|i| spots[i])),
                        },
                    };
                    if result.is_err() {
                        batch.cells.truncate(slot * area);
                    }
                    batch.entries.push(Entry { line: start, result });
                }
            }
        }
        batch
    }

    /// The layout the batch was read in.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Every puzzle, good or bad, in input order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The cells of the well-formed puzzle at `slot` (from [`Entry::result`]).
    pub fn cells(&self, slot: usize) -> &[u8] {
        let area = self.layout.box_size.pow(4);
        &self.cells[slot * area..(slot + 1) * area]
    }

    /// Number of well-formed puzzles.
    pub fn puzzles(&self) -> usize {
        self.cells.len() / self.layout.box_size.pow(4)
    }

    /// The first malformed puzzle's error, if any.
    pub fn first_error(&self) -> Option<&ParseError> {
        self.entries.iter().find_map(|e| e.result.as_ref().err())
    }
}

/// Records the text position of each cell of one row just read, so that a
/// conflict found later can point at the right column.
fn record_spots(spots: &mut [Spot], line_no: usize, line: &[u8], format: Format) {
    match format {
        Format::Spaced => {
            let mut k = 0;
            let mut i = 0;
            while i < line.len() && k < spots.len() {
                if is_space(line[i]) {
                    i += 1;
                    continue;
                }
                spots[k] = Spot { line: line_no, column: column(line, i) };
                k += 1;
                while i < line.len() && !is_space(line[i]) {
                    i += 1;
                }
            }
        }
        _ => {
            for (k, spot) in spots.iter_mut().enumerate() {
                *spot = Spot { line: line_no, column: k + 1 };
            }
        }
    }
}

/// Reads exactly one puzzle in the format [`detect`] finds.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let layout = detect(text)?;
    parse_as(text, layout)
}

/// Reads exactly one puzzle in `layout`: empty input, a malformed puzzle,
/// or text after the puzzle (other than blank lines and comments) is an error.
pub fn parse_as(text: &str, layout: Layout) -> Result<Puzzle, ParseError> {
    let batch = Batch::parse_as(text, layout);
    let Some(entry) = batch.entries.first() else {
        return Err(empty_input());
    };
    let slot = entry.result.clone()?;
    if let Some(extra) = batch.entries.get(1) {
        return Err(ParseError::new(
            extra.line,
            1,
            format!("unexpected text after the puzzle that ends before line {}", extra.line),
        ));
    }
    Ok(Puzzle { box_size: layout.box_size, cells: batch.cells(slot).to_vec() })
}
