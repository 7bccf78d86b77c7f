//! Exact backtracking search, fast.
//!
//! `backtrack` is built around one [search core](search): a problem describes
//! its search space by implementing [`search::Space`] (how to expand a node,
//! enumerate its alternatives, apply and undo a choice), and the core drives
//! that space in any of the [`search::Mode`]s: first solution,
//! lexicographically first solution, count with an optional limit, or every
//! solution streamed to a callback. The core also keeps [`search::Stats`],
//! honours cancellation, and [splits](mod@search::split) a search into
//! independent subproblems that run in parallel on [rayon] threads.
//!
//! Each problem keeps its own fast kernel in its own module:
//!
//! | module | problem |
//! | --- | --- |
//! | [`sudoku`] | 9x9 sudoku (bitboard kernel) and larger n²×n² grids |
//! | [`queens`] | N-queens counting with symmetry reduction |
//! | [`choose`] | permutations / combinations, with or without repetition, of sets and multisets |
//! | [`sudominoku`] | sudoku whose cells are covered by the 36 dominoes |
//! | [`xcover`] | exact cover with colors (Knuth's Algorithm C), read from Knuth's format |
//!
//! [`judge`] makes test cases (samples, edge cases, random and adversarial
//! ones) for the judge problems these kernels solve, checks other programs'
//! answers as the judge would, and shrinks a failing case.
//!
//! Text flows one way: a parser turns text into a typed puzzle, a solver
//! turns the puzzle into solutions, and a formatter turns solutions back into
//! text. Parsers report malformed input as a [`ParseError`] naming the line
//! and column.

pub mod choose;
pub mod error;
pub mod judge;
pub mod queens;
pub mod search;
pub mod sudoku;
pub mod sudominoku;
mod tokens;
pub mod trace;
pub mod xcover;

pub use error::ParseError;
