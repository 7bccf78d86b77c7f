//! The variant puzzle model: a grid shape, its regions, the candidates each
//! cell starts with, and a list of constraints.
//!
//! Cells are numbered row by row from 0 (`row * size + column`), values run
//! from 1 to the grid's size, and a set of values is a [`Mask`] with bit
//! `v - 1` standing for value `v`.

use std::fmt;

/// A set of values: bit `v - 1` stands for value `v` (values 1 to 16).
pub type Mask = u16;

/// Smallest grid side read (4x4).
pub const MIN_SIZE: usize = 4;
/// Largest grid side read (16x16).
pub const MAX_SIZE: usize = 16;
/// Most cells of a grid (16x16).
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// The mask of every value of a grid of side `size`.
pub fn full_mask(size: usize) -> Mask {
    ((1u32 << size) - 1) as Mask
}

/// A square grid and its default boxes.
///
/// The boxes follow the usual rule for square grids: the box height is the
/// largest divisor of the side at most its square root, the width the side
/// divided by that (6x6: 2 rows by 3 columns; 8x8: 2x4; 12x12: 3x4). Sides
/// with no such divisor (5, 7, 11, 13) have no boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    size: usize,
    box_rows: usize,
    box_cols: usize,
}

impl Shape {
    /// The shape of a `size` by `size` grid, or `None` outside 4..=16.
    pub fn new(size: usize) -> Option<Shape> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let mut small = (1..=size).take_while(|s| s * s <= size).last().unwrap_or(1);
        while small >= 2 && !size.is_multiple_of(small) {
            small -= 1;
        }
        let (box_rows, box_cols) = if small >= 2 { (small, size / small) } else { (0, 0) };
        Some(Shape { size, box_rows, box_cols })
    }

    /// The side of the grid (also the number of values).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }

    /// Box height and width, or `None` for a side with no boxes.
    pub fn box_dims(&self) -> Option<(usize, usize)> {
        (self.box_rows > 0).then_some((self.box_rows, self.box_cols))
    }

    /// The cell at `row`, `col` (both from 0).
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.size + col
    }

    /// The row and column of `cell`.
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.size, cell % self.size)
    }

    /// The default boxes, each a list of cells (empty for a side with no boxes).
    pub fn boxes(&self) -> Vec<Vec<usize>> {
        let Some((h, w)) = self.box_dims() else { return Vec::new() };
        let per_row = self.size / w;
        (0..self.size)
            .map(|b| {
                let (br, bc) = (b / per_row, b % per_row);
                (0..self.size).map(|i| self.cell(br * h + i / w, bc * w + i % w)).collect()
            })
            .collect()
    }

    /// Whether two cells share a side.
    pub fn orthogonal(&self, a: usize, b: usize) -> bool {
        let ((ra, ca), (rb, cb)) = (self.row_col(a), self.row_col(b));
        ra.abs_diff(rb) + ca.abs_diff(cb) == 1
    }
}

/// Which diagonal a [`Constraint::Diagonal`] covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Diagonal {
    /// From the top left to the bottom right (`╲`, ISS's `-1`).
    Main,
    /// From the top right to the bottom left (`╱`, ISS's `1`).
    Anti,
}

/// One rule of a variant puzzle, with ISS's meaning (cells are indices into
/// the grid, in the order the rule lists them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    /// The cells of one diagonal hold different values.
    Diagonal(Diagonal),
    /// The windoku boxes (one cell in from each box corner) hold different values.
    Windoku,
    /// Cells in the same position of different boxes hold different values.
    DisjointSets,
    /// Cells a knight's move apart hold different values.
    AntiKnight,
    /// Cells a king's move apart hold different values.
    AntiKing,
    /// Orthogonally adjacent cells do not hold consecutive values.
    AntiConsecutive,
    /// Orthogonal neighbours without a kropki dot are neither consecutive nor in ratio 2.
    StrictKropki,
    /// Orthogonal neighbours without an X or a V do not sum to 5 or 10.
    StrictXV,
    /// Different values, summing to `sum` when one is given.
    Cage {
        /// The sum, or `None` for a cage that only forbids repeats.
        sum: Option<i32>,
        /// The cells.
        cells: Vec<usize>,
    },
    /// Values strictly increase from the bulb (the first cell).
    Thermo(Vec<usize>),
    /// The cells after the circle (the first cell) sum to the circle's value.
    Arrow(Vec<usize>),
    /// Neighbours on the line differ by at least `difference`.
    Whisper {
        /// The least difference (German whispers: 5).
        difference: i32,
        /// The line.
        cells: Vec<usize>,
    },
    /// The line holds a set of consecutive values, without repeats, in any order.
    Renban(Vec<usize>),
    /// Each pair of orthogonally adjacent listed cells sums to 10.
    X(Vec<usize>),
    /// Each pair of orthogonally adjacent listed cells sums to 5.
    V(Vec<usize>),
    /// Each pair of orthogonally adjacent listed cells is in ratio 2.
    BlackDot(Vec<usize>),
    /// Each pair of orthogonally adjacent listed cells is consecutive.
    WhiteDot(Vec<usize>),
    /// Each listed cell is greater than the orthogonally adjacent cells listed after it.
    GreaterThan(Vec<usize>),
    /// The diagonal sums to `sum` (values may repeat).
    LittleKiller {
        /// The clue.
        sum: i32,
        /// The diagonal, from the clue inwards.
        cells: Vec<usize>,
    },
    /// The values between the row's (or column's) smallest and largest values sum to `sum`.
    Sandwich {
        /// The clue.
        sum: i32,
        /// The row or column.
        cells: Vec<usize>,
    },
    /// The line reads the same both ways.
    Palindrome(Vec<usize>),
    /// The cells between the two ends hold values strictly between the ends' values.
    Between(Vec<usize>),
    /// The 2x2 square `cells` holds each of `values` (a value listed twice, twice).
    Quad {
        /// The square's four cells.
        cells: [usize; 4],
        /// The values it holds.
        values: Vec<u8>,
    },
    /// The first X cells of the line sum to `sum`, X being the first cell's value.
    XSum {
        /// The clue.
        sum: i32,
        /// The row or column, from the clue inwards.
        cells: Vec<usize>,
    },
    /// Seen from the clue, `count` values are taller than every value before them.
    Skyscraper {
        /// The clue.
        count: i32,
        /// The row or column, from the clue inwards.
        cells: Vec<usize>,
    },
    /// The line after the pill sums to the number the pill's digits spell.
    PillArrow {
        /// Digits in the pill (2 or 3), its cells first in `cells`, in reading order.
        pill: usize,
        /// The pill, then the line.
        cells: Vec<usize>,
    },
    /// The line between the two ends sums to the ends' sum.
    DoubleArrow(Vec<usize>),
    /// Each stretch of the line inside one box (or jigsaw region) has the same sum.
    RegionSumLine(Vec<usize>),
    /// The line splits into stretches that each sum to `sum`.
    SumLine {
        /// The sum of each stretch.
        sum: i32,
        /// Whether the line is a loop.
        looped: bool,
        /// The line.
        cells: Vec<usize>,
    },
    /// Different values; those between the smallest and the largest sum to `sum`.
    Lunchbox {
        /// The clue.
        sum: i32,
        /// The cells, in order.
        cells: Vec<usize>,
    },
    /// The ends differ by at least `difference`; no other cell of the line lies between them (or on them).
    Lockout {
        /// The least difference of the ends.
        difference: i32,
        /// The line.
        cells: Vec<usize>,
    },
    /// Cells the same distance from the middle sum to the same total (the middle cell, for odd lengths).
    Zipper(Vec<usize>),
    /// Each run of `modulus` cells holds different values modulo `modulus`.
    Modular {
        /// The modulus.
        modulus: i32,
        /// The line.
        cells: Vec<usize>,
    },
    /// Each run of three cells holds one of 1-3, one of 4-6 and one of 7-9 (9x9 values only).
    Entropic(Vec<usize>),
}

/// A variant sudoku: shape, regions, starting candidates and constraints.
///
/// Rows and columns always hold different values; the boxes too unless
/// [`no_boxes`](Self::no_boxes); each jigsaw region as well.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The grid.
    pub shape: Shape,
    /// Whether the default boxes are dropped (ISS's `NoBoxes`).
    pub no_boxes: bool,
    /// Jigsaw regions, each `size` cells.
    pub regions: Vec<Vec<usize>>,
    /// The values each cell may hold (givens are single values).
    pub candidates: Vec<Mask>,
    /// The rules beyond rows, columns, boxes and regions.
    pub constraints: Vec<Constraint>,
}

impl Puzzle {
    /// An empty puzzle of `shape`: every cell may hold every value.
    pub fn new(shape: Shape) -> Puzzle {
        Puzzle {
            shape,
            no_boxes: false,
            regions: Vec::new(),
            candidates: vec![full_mask(shape.size()); shape.cells()],
            constraints: Vec::new(),
        }
    }

    /// The houses whose cells all differ and that hold every value once:
    /// rows, columns, boxes (unless dropped) and jigsaw regions.
    pub fn houses(&self) -> Vec<Vec<usize>> {
        let n = self.shape.size();
        let mut houses: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| self.shape.cell(r, c)).collect()).collect();
        houses.extend((0..n).map(|c| (0..n).map(|r| self.shape.cell(r, c)).collect()));
        if !self.no_boxes {
            houses.extend(self.shape.boxes());
        }
        houses.extend(self.regions.iter().cloned());
        houses
    }
}

/// Writes `value` (1 to 16) as one symbol: `1`-`9`, then `A` for 10, `B` for 11, ...
pub fn symbol(value: u8) -> char {
    match value {
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// A solution written as one line of symbols (see [`symbol`]).
#[derive(Debug, Clone, Copy)]
pub struct Line<'a>(pub &'a [u8]);

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|&v| write!(f, "{}", symbol(v)))
    }
}
