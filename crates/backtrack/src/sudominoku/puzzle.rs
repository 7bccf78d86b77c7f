//! The typed puzzle: placed dominoes, single digits, and the checks that
//! make a set of clues a puzzle.

use std::fmt;

use super::tables::{BOX, NEIGHBORS};
use super::{cell_name, Grid};

/// One domino laid on the board: `first_digit` on `first`, `second_digit` on `second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Cell (0..81, row-major) of the first half.
    pub first: u8,
    /// Cell of the second half, orthogonally adjacent to `first`.
    pub second: u8,
    /// Digit on the first half.
    pub first_digit: u8,
    /// Digit on the second half, different from `first_digit`.
    pub second_digit: u8,
}

/// Why a set of clues is not a valid puzzle (see [`Puzzle::new`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClueError {
    /// Which clue: the index of the domino, or `dominoes.len() + d - 1` for the single digit `d`.
    pub clue: usize,
    /// Which half of a domino (0 or 1), or 0 for a single digit.
    pub half: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ClueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ClueError {}

/// A sudominoku puzzle: the dominoes already placed and the cells of the single digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The placed dominoes, as given.
    pub dominoes: Vec<Placement>,
    /// `singles[d - 1]` is the cell of the lone digit `d`.
    pub singles: [u8; 9],
    /// The board with every clue written in.
    pub grid: Grid,
}

impl Puzzle {
    /// Checks and assembles a puzzle: every domino's halves are adjacent and
    /// hold different digits 1..9, no domino is used twice, no two clues
    /// share a cell, and no digit repeats in a row, column or box.
    pub fn new(dominoes: Vec<Placement>, singles: [u8; 9]) -> Result<Puzzle, ClueError> {
        let mut grid = [0u8; 81];
        let mut used = [[false; 10]; 10];
        let write = |grid: &mut Grid, cell: u8, digit: u8, clue: usize, half: usize| -> Result<(), ClueError> {
            let err = |message: String| ClueError { clue, half, message };
            if cell >= 81 {
                return Err(err(format!("cell {cell} is off the board")));
            }
            if !(1..=9).contains(&digit) {
                return Err(err(format!("digit {digit} is not between 1 and 9")));
            }
            let cell = cell as usize;
            if grid[cell] != 0 {
                return Err(err(format!("{} is already covered", cell_name(cell))));
            }
            for other in 0..81 {
                let same_unit = other / 9 == cell / 9 || other % 9 == cell % 9 || BOX[other] == BOX[cell];
                if same_unit && grid[other] == digit {
                    return Err(err(format!(
                        "{digit} at {} repeats the {digit} at {} in a row, column or box",
                        cell_name(cell),
                        cell_name(other)
                    )));
                }
            }
            grid[cell] = digit;
            Ok(())
        };
        for (i, p) in dominoes.iter().enumerate() {
            let err = |half: usize, message: String| ClueError { clue: i, half, message };
            if p.first_digit == p.second_digit {
                return Err(err(1, format!("a domino needs two different digits, found {} twice", p.first_digit)));
            }
            if p.first >= 81 || p.second >= 81 || !NEIGHBORS[p.first as usize].contains(&p.second) {
                return Err(err(1, "the two halves of a domino must be side by side".into()));
            }
            write(&mut grid, p.first, p.first_digit, i, 0)?;
            write(&mut grid, p.second, p.second_digit, i, 1)?;
            let (a, b) = (p.first_digit as usize, p.second_digit as usize);
            if used[a][b] {
                return Err(err(0, format!("the domino {}-{} is used twice", a.min(b), a.max(b))));
            }
            used[a][b] = true;
            used[b][a] = true;
        }
        for (d, &cell) in singles.iter().enumerate() {
            write(&mut grid, cell, d as u8 + 1, dominoes.len() + d, 0)?;
        }
        Ok(Puzzle { dominoes, singles, grid })
    }

    /// The blank cells left to cover with dominoes: the 72 cells outside
    /// the nine single digits, less the placed dominoes' two each.
    pub fn blank_cells(&self) -> usize {
        72 - 2 * self.dominoes.len()
    }
}

/// A solved puzzle: the grid and the domino tiling that spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The full board.
    pub grid: Grid,
    /// All 36 dominoes: the given ones first, in input order, then those the solver placed.
    pub dominoes: Vec<Placement>,
}
