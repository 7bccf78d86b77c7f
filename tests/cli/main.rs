//! End-to-end tests of the `backtrack` binary, one module per command.

mod bench;
mod boj_nm;
mod choose;
mod judge;
mod maker;
mod merge;
mod queens;
mod readme;
mod sudoku;
mod sudominoku;
mod web;
mod xcover;
