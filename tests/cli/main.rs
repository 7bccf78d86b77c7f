//! End-to-end tests of the `backtrack` binary, one module per command.

mod bench;
mod boj_more;
mod boj_nm;
mod bom;
mod choose;
mod contract;
#[path = "../support/effort.rs"]
mod effort;
mod help;
mod json;
mod judge;
mod judge_more;
mod korean;
mod maker;
mod merge;
mod queens;
mod readme;
#[path = "../support/skip.rs"]
mod skip;
mod streaming;
mod streams;
mod stress;
mod sudoku;
mod sudominoku;
mod util;
mod variant;
mod web;
mod xcover;
mod xcover_plan;
