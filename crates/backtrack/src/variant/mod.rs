//! Variant sudoku: killer cages, thermometers, arrows, kropki dots, German
//! whispers, renban, little killers, sandwiches and more, on square grids
//! from 4x4 to 16x16, read from the constraint strings of the Interactive
//! Sudoku Solver (ISS) and with ISS's meaning for each rule.
//!
//! A [`Puzzle`] is a [`Shape`], its regions, the candidates each cell
//! starts with (givens, or pencil marks such as "odd"), and a list of
//! [`Constraint`]s. [`parse_line`] reads one from a line of text; a
//! [`Solver`] compiled from it finds a solution, counts solutions up to a
//! limit, visits every solution, or works out the true candidates: the
//! values each cell holds in at least one solution.
//!
//! ```
//! use backtrack::variant::{parse_line, Solver};
//!
//! // A 4x4 killer: two cages of 7 (3 + 4), and the givens R1C1 = 1 and R4C4 = 1.
//! let puzzle = parse_line(".Shape~4x4.Cage~7~R1C2~R1C3.Cage~7~R3C1~R4C1.~R1C1_1~R4C4_1", 1).unwrap();
//! let mut solver = Solver::new(&puzzle).unwrap();
//! let count = solver.count(Some(2));
//! let solution = count.first.unwrap();
//! assert!(puzzle.is_solved_by(&solution));
//! assert_eq!(solution[0], 1);
//! ```
//!
//! [`check`](Puzzle::is_solved_by) reads every rule plainly against a full
//! grid; the solver's propagation is tested against it (random rules drawn
//! from random grids keep those grids among their solutions, and counts
//! agree with a brute force on small grids).

pub mod answer;
pub mod bench;
mod check;
pub mod fpuzzles;
mod json_path;
pub mod line;
mod model;
mod parse;
pub mod regions;
mod solve;

pub use model::{full_mask, symbol, Constraint, Diagonal, Line, Mask, Puzzle, Shape, MAX_CELLS, MAX_SIZE, MIN_SIZE};
pub use parse::{is_constraint_string, is_variant_line, is_variant_text, parse_line, puzzle_lines};
pub use solve::{Count, Solver, TrueCandidates};
