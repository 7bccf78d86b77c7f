//! The typed puzzle, its checks, and the conflicts between its givens.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;

use super::{find_conflict, parse, write_cells, Format};

/// Smallest supported box size (4x4 grids).
pub const MIN_BOX: usize = 2;
/// Largest supported box size (25x25 grids): digits must fit a `u32` bitmask.
pub const MAX_BOX: usize = 5;

/// A sudoku puzzle: box size and cells (row-major, 0 for a blank).
///
/// ```
/// use backtrack::sudoku::Puzzle;
///
/// let p: Puzzle = "1..4..1.2....3..".parse().unwrap(); // a 4x4 puzzle in line format
/// assert_eq!(p.side(), 4);
/// assert_eq!(p.cells()[..4], [1, 0, 0, 4]);
/// assert_eq!(p.to_string(), "1..4..1.2....3..");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub(super) box_size: usize,
    pub(super) cells: Vec<u8>,
}

/// The kind of unit two conflicting givens share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Same row.
    Row,
    /// Same column.
    Column,
    /// Same box.
    Box,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        })
    }
}

/// Two givens with the same digit in one row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// Index of the earlier cell (row-major).
    pub first: usize,
    /// Index of the later cell (row-major).
    pub second: usize,
    /// The repeated digit.
    pub digit: u8,
    /// The unit they share.
    pub unit: Unit,
}

impl Puzzle {
    /// The empty puzzle of box size `box_size`.
    ///
    /// # Panics
    /// If `box_size` is outside [`MIN_BOX`]`..=`[`MAX_BOX`].
    pub fn empty(box_size: usize) -> Puzzle {
        assert!((MIN_BOX..=MAX_BOX).contains(&box_size), "box size {box_size} is not supported");
        Puzzle { box_size, cells: vec![0; box_size.pow(4)] }
    }

    /// A puzzle from its cells. Fails (saying why) when the box size is not
    /// supported, the number of cells is not `box_size⁴`, or a cell is out of range.
    /// Conflicting givens are allowed here (see [`Puzzle::conflict`]).
    pub fn new(box_size: usize, cells: Vec<u8>) -> Result<Puzzle, PuzzleError> {
        if !(MIN_BOX..=MAX_BOX).contains(&box_size) {
            return Err(PuzzleError::BoxSize(box_size));
        }
        let side = box_size * box_size;
        if cells.len() != side * side {
            return Err(PuzzleError::CellCount { side, found: cells.len() });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > side) {
            return Err(PuzzleError::CellOutOfRange { cell: i, value: cells[i], side });
        }
        Ok(Puzzle { box_size, cells })
    }

    /// Box size `b`.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Side `n = b²` of the grid.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The cells, row-major, 0 for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Takes the cells out.
    pub fn into_cells(self) -> Vec<u8> {
        self.cells
    }

    /// The first pair of givens that repeat a digit in a unit, if any.
    pub fn conflict(&self) -> Option<Conflict> {
        find_conflict(self.box_size, &self.cells)
    }

    /// Whether `solution` is a complete valid grid that keeps every given of this puzzle.
    pub fn is_solved_by(&self, solution: &[u8]) -> bool {
        is_solution(self.box_size, &self.cells, solution)
    }

    /// The puzzle as text in `format`, ending with a newline.
    pub fn to_text(&self, format: Format) -> String {
        let mut out = Vec::new();
        write_cells(&mut out, self.box_size, &self.cells, format);
        String::from_utf8(out).expect("symbols are ASCII")
    }
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({self})")
    }
}

/// Line format, without the newline.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.to_text(Format::Line);
        f.write_str(text.trim_end())
    }
}

/// Parses exactly one puzzle in any format ([`parse`]).
impl FromStr for Puzzle {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        parse(text)
    }
}

/// Whether `solution` is a complete valid grid of box size `box_size` that
/// keeps every given of `puzzle`.
pub fn is_solution(box_size: usize, puzzle: &[u8], solution: &[u8]) -> bool {
    let side = box_size * box_size;
    solution.len() == side * side
        && puzzle.len() == solution.len()
        && solution.iter().all(|&v| v >= 1 && v as usize <= side)
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && find_conflict(box_size, solution).is_none()
}

/// Why [`Puzzle::new`] refused its cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// The box size is outside [`MIN_BOX`]`..=`[`MAX_BOX`].
    BoxSize(usize),
    /// The number of cells is not `side²`.
    CellCount {
        /// Side of the grid.
        side: usize,
        /// Cells given.
        found: usize,
    },
    /// A cell holds more than `side`.
    CellOutOfRange {
        /// Index of the cell, row-major from 0.
        cell: usize,
        /// What it holds.
        value: u8,
        /// Side of the grid, the largest digit.
        side: usize,
    },
}

impl std::fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            PuzzleError::BoxSize(b) => write!(f, "box size {b} is not supported (use {MIN_BOX} to {MAX_BOX})"),
            PuzzleError::CellCount { side, found } => {
                write!(f, "a {side}x{side} puzzle has {} cells, not {found}", side * side)
            }
            PuzzleError::CellOutOfRange { cell, value, side } => {
                write!(f, "cell {cell} holds {value}, out of range 0..={side}")
            }
        }
    }
}

impl std::error::Error for PuzzleError {}
