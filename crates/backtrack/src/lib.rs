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
//! | [`boj`] | ten judge problems of the backtracking set: operators, teams, subset sums, passwords, inequality signs, orders, tours, letter walks |
//! | [`sudominoku`] | sudoku whose cells are covered by the 36 dominoes |
//! | [`xcover`] | exact cover with colors (Knuth's Algorithm C), read from Knuth's format |
//!
//! [`judge`] makes test cases (samples, edge cases, random and adversarial
//! ones) for the judge problems these kernels solve, checks other programs'
//! answers as the judge would, and shrinks a failing case.
//!
//! # Who walks the tree
//!
//! Most kernels are [`search::Space`]s and let the core walk them: the
//! general n²×n² sudoku ([`sudoku::GeneralSpace`]), sudominoku, the dense
//! and dancing-links exact-cover engines, the enumerations of [`choose`],
//! [`queens::QueensSpace`] and [`sudoku::kernel9::Space9`]. Where the core's
//! per-node calls cost too much, a kernel runs a walk of its own, and each
//! such walk is tested to give what the core gives on the same problem:
//!
//! * the 9x9 sudoku solver ([`sudoku::kernel9::solve`]): a recursive walk
//!   over copied boards, tested against [`sudoku::kernel9::Space9`] and the
//!   general kernel under the core;
//! * the N-queens count ([`queens::count`]): a scalar bitmask walk and an
//!   eight-lane AVX2 walk, tested against each other and against
//!   [`queens::QueensSpace`] under the core;
//! * the small exact-cover engine's counting loop
//!   ([`xcover::SmallSpace::count_here`]), whose counts are tested against
//!   the dense and dancing-links engines under the core;
//! * [`choose::Choose::write_all`], which writes sequences as text without
//!   building them, tested against the core's enumeration of the same space.
//!
//! The fast paths compiled for newer processors take a token from [`cpu`]
//! that proves the features they use; each has a portable twin, and the
//! tests run both.
//!
//! # Text in, text out
//!
//! Text flows one way: a parser turns text into a typed puzzle, a solver
//! turns the puzzle into solutions, and a formatter turns solutions back into
//! text. Parsers report malformed input as a [`ParseError`] naming the line
//! and column; other failures have one error type per module, written by
//! hand.

#![deny(missing_docs)]
#![warn(missing_debug_implementations, unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub mod boj;
pub mod choose;
pub mod cpu;
pub mod error;
pub mod json;
pub mod judge;
pub mod lang;
pub mod plan;
pub mod queens;
pub mod rng;
pub mod search;
pub mod sudoku;
pub mod sudominoku;
pub mod text;
mod tokens;
pub mod trace;
pub mod variant;
mod verdict;
pub mod xcover;

/// How tests say they cannot run their subject here, shared with the
/// integration and end-to-end tests.
#[cfg(test)]
#[path = "../../../tests/support/skip.rs"]
mod test_support;

/// How hard a stress test tries (`BACKTRACK_LONG_TESTS`), shared with the
/// integration and end-to-end tests.
#[cfg(test)]
#[path = "../../../tests/support/effort.rs"]
mod effort;

pub use error::ParseError;
