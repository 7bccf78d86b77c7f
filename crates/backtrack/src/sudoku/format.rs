//! The text formats sudoku puzzles are read from and written in.

/// A text format for sudoku puzzles and solutions.
///
/// A puzzle of box size `b` has side `n = b²` and `n²` cells, stored row-major;
/// a cell holds 0 for a blank or a digit `1..=n`. Three text formats are read
/// and written:
///
/// * [`Format::Line`]: one puzzle per line, `n²` symbols (`.` or `0` for a
///   blank; `1`-`9`, then `A`, `B`, ... for 10, 11, ... on grids past 9x9).
///   Lines starting with `#` are comments; blank lines are skipped.
/// * [`Format::Grid`]: `n` lines of `n` symbols, no separators (one puzzle
///   after another; blank lines and `#` comments between puzzles are skipped).
/// * [`Format::Spaced`]: `n` lines of `n` numbers separated by spaces, `0`
///   (or `.`) for a blank.
///
/// [`detect`](super::detect) tells which format (and grid size) a text is in, [`parse`](super::parse)
/// reads exactly one puzzle, and [`Batch::parse`](super::Batch::parse) reads a whole file, keeping
/// each malformed puzzle's [`ParseError`](crate::ParseError) so that the others can still be
/// solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle per line, `n²` symbols.
    Line,
    /// `n` lines of `n` symbols, no separators.
    Grid,
    /// `n` lines of `n` numbers separated by single spaces.
    Spaced,
}

/// A format together with the grid size it was detected for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    /// How puzzles are written.
    pub format: Format,
    /// Box size `b` (the grid is `b²` by `b²`).
    pub box_size: usize,
}
