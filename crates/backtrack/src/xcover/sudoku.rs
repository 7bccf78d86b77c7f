//! Sudoku and Sudominoku as exact cover (filled in below).
