//! Sudoku and Sudominoku as exact cover, built with the [`Builder`]: a worked example.
//!
//! Sudoku on an N×N grid (N = n², boxes n×n) is the classic 4N² items:
//! `p{cell}` (the cell holds a digit), `r{row}{digit}`, `c{col}{digit}` and
//! `b{box}{digit}` (the digit appears in that row, column, box), all
//! primary; each possible placement of a digit in a cell is one option
//! covering four items. Givens simply have one option.
//!
//! ```
//! use backtrack::xcover::sudoku::SudokuCover;
//!
//! let puzzle = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
//! let grid: Vec<u8> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
//! let cover = SudokuCover::new(3, &grid).unwrap();
//! assert_eq!(cover.problem().n_items(), 324);
//! let solution = cover.problem().first().unwrap();
//! let solved = cover.grid(&solution);
//! assert!(grid.iter().zip(&solved).all(|(&g, &s)| g == 0 || g == s));
//! assert_eq!(cover.problem().count(None), 1);
//! ```

use super::problem::{Builder, Problem};

/// A sudoku as exact cover, with the way back from options to digits.
#[derive(Debug, Clone)]
pub struct SudokuCover {
    problem: Problem,
    side: usize,
    /// `(cell, digit)` placed by each option.
    placements: Vec<(usize, u8)>,
}

impl SudokuCover {
    /// The exact cover form of `grid`: `n⁴` digits in row-major order, 0 for an empty cell, on
    /// a grid of side `n²` with n×n boxes. `None` when the length or a digit is out of range.
    pub fn new(n: usize, grid: &[u8]) -> Option<SudokuCover> {
        let side = n * n;
        if n == 0 || side > 255 || grid.len() != side * side || grid.iter().any(|&d| d as usize > side) {
            return None;
        }
        let mut b = Builder::default();
        let cell = |r: usize, c: usize| format!("p{r}_{c}");
        let unit = |kind: char, u: usize, d: usize| format!("{kind}{u}_{d}");
        for r in 0..side {
            for c in 0..side {
                b.primary(&cell(r, c)).ok()?;
            }
        }
        for kind in ['r', 'c', 'b'] {
            for u in 0..side {
                for d in 1..=side {
                    b.primary(&unit(kind, u, d)).ok()?;
                }
            }
        }
        let mut placements = Vec::new();
        for r in 0..side {
            for c in 0..side {
                let given = grid[r * side + c] as usize;
                let box_index = (r / n) * n + c / n;
                for d in 1..=side {
                    if given != 0 && d != given {
                        continue;
                    }
                    b.option([cell(r, c), unit('r', r, d), unit('c', c, d), unit('b', box_index, d)]).ok()?;
                    placements.push((r * side + c, d as u8));
                }
            }
        }
        Some(SudokuCover { problem: b.build().ok()?, side, placements })
    }

    /// The exact cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The grid a solution (a list of option indices) spells, 0 where no option placed a digit.
    pub fn grid(&self, solution: &[usize]) -> Vec<u8> {
        let mut grid = vec![0u8; self.side * self.side];
        for &o in solution {
            let (cell, digit) = self.placements[o];
            grid[cell] = digit;
        }
        grid
    }
}

/// One domino of a Sudominoku: digit `first_digit` on cell `first`, `second_digit` on `second`
/// (cells are 0..81, row-major).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DominoClue {
    /// Cell of the first half.
    pub first: usize,
    /// Digit on the first half.
    pub first_digit: u8,
    /// Cell of the second half.
    pub second: usize,
    /// Digit on the second half.
    pub second_digit: u8,
}

/// A Sudominoku as exact cover: the sudoku's 324 items plus one primary item
/// `d{a}{b}` per domino {a, b}, 1 ≤ a < b ≤ 9. Each option lays one domino on
/// two adjacent free cells, one way round, and covers the domino, both cells
/// and the row, column and box items of both digits. Every given (a single
/// digit or a domino already laid) has exactly one option. Solutions are
/// tilings: two tilings may spell the same grid.
#[derive(Debug, Clone)]
pub struct SudominokuCover {
    problem: Problem,
    /// The `(cell, digit)` pairs each option places.
    placements: Vec<Vec<(usize, u8)>>,
}

impl SudominokuCover {
    /// The exact cover form of a puzzle: the dominoes already laid, and the cell of each of the
    /// single digits 1..9. `None` when a cell is out of range, a domino's halves are not
    /// adjacent or repeat a digit, two givens overlap, or a domino is given twice.
    pub fn new(dominoes: &[DominoClue], singles: &[usize; 9]) -> Option<SudominokuCover> {
        let mut b = Builder::default();
        let cell = |c: usize| format!("p{}{}", c / 9, c % 9);
        let unit = |kind: char, u: usize, d: u8| format!("{kind}{u}{d}");
        let domino = |x: u8, y: u8| format!("d{}{}", x.min(y), x.max(y));
        for c in 0..81 {
            b.primary(&cell(c)).ok()?;
        }
        for kind in ['r', 'c', 'b'] {
            for u in 0..9 {
                for d in 1..=9 {
                    b.primary(&unit(kind, u, d)).ok()?;
                }
            }
        }
        for x in 1..=9u8 {
            for y in x + 1..=9 {
                b.primary(&domino(x, y)).ok()?;
            }
        }
        let digit_items = |c: usize, d: u8| {
            [cell(c), unit('r', c / 9, d), unit('c', c % 9, d), unit('b', (c / 27) * 3 + (c % 9) / 3, d)]
        };
        let adjacent = |p: usize, q: usize| (p / 9 == q / 9 && p.abs_diff(q) == 1) || p.abs_diff(q) == 9;
        let mut used = [false; 81];
        let mut domino_given = [[false; 10]; 10];
        let mut placements = Vec::new();
        for (d, &c) in singles.iter().enumerate() {
            if c >= 81 || used[c] {
                return None;
            }
            used[c] = true;
            b.option(digit_items(c, d as u8 + 1)).ok()?;
            placements.push(vec![(c, d as u8 + 1)]);
        }
        for clue in dominoes {
            let (p, q, x, y) = (clue.first, clue.second, clue.first_digit, clue.second_digit);
            let digits_ok = (1..=9).contains(&x) && (1..=9).contains(&y) && x != y;
            if p >= 81 || q >= 81 || !digits_ok || !adjacent(p, q) || used[p] || used[q] {
                return None;
            }
            let (lo, hi) = (x.min(y) as usize, x.max(y) as usize);
            if domino_given[lo][hi] {
                return None;
            }
            domino_given[lo][hi] = true;
            used[p] = true;
            used[q] = true;
            let mut items = vec![domino(x, y)];
            items.extend(digit_items(p, x));
            items.extend(digit_items(q, y));
            b.option(items).ok()?;
            placements.push(vec![(p, x), (q, y)]);
        }
        for x in 1..=9u8 {
            for y in x + 1..=9 {
                if domino_given[x as usize][y as usize] {
                    continue;
                }
                for p in 0..81 {
                    // Each unordered pair of adjacent cells once: right and down neighbours.
                    let right = (p % 9 < 8).then_some(p + 1);
                    let down = (p < 72).then_some(p + 9);
                    for q in [right, down].into_iter().flatten() {
                        if used[p] || used[q] {
                            continue;
                        }
                        for (dp, dq) in [(x, y), (y, x)] {
                            let mut items = vec![domino(x, y)];
                            items.extend(digit_items(p, dp));
                            items.extend(digit_items(q, dq));
                            b.option(items).ok()?;
                            placements.push(vec![(p, dp), (q, dq)]);
                        }
                    }
                }
            }
        }
        Some(SudominokuCover { problem: b.build().ok()?, placements })
    }

    /// The exact cover problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The grid (81 digits, row-major) a solution spells, 0 where nothing was placed.
    pub fn grid(&self, solution: &[usize]) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for &o in solution {
            for &(c, d) in &self.placements[o] {
                grid[c] = d;
            }
        }
        grid
    }
}
