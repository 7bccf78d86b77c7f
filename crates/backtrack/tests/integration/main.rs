//! Integration tests of the library, one module per kernel or concern.

mod common;
#[path = "../../../../tests/support/effort.rs"]
mod effort;

mod aligned_exclusion;
mod bom;
mod choose_props;
mod forcing_chains;
mod fpuzzles;
mod fuzz_regressions;
mod generate_sizes;
mod hodoku_reglib;
mod judge;
mod judge_more;
mod kernel9;
mod maker;
mod mid_level;
mod module_graph;
mod nested_chains;
mod queens;
mod search_core;
mod sudoku_general;
mod sudoku_stream;
mod sudominoku_props;
mod techniques_se;
mod trace;
mod variant;
mod variant_iss;
mod variant_props;
mod xcover_cost;
mod xcover_crosscheck;
mod xcover_engine;
mod xcover_mcc;
mod xcover_plan;
mod xcover_sudoku;
