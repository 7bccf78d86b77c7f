//! Sudoku: 9x9 with a fast bitboard kernel ([`kernel9`]), and larger
//! n²×n² grids with a general kernel.
//!
//! (Being built.)

pub mod kernel9;
