//! Sudominoku: a sudoku whose cells, but for one given cell per digit, are
//! covered by the 36 dominoes `{a, b}` (`1 <= a < b <= 9`), each used once.
//!
//! A [`Puzzle`] holds some dominoes already placed and the nine single
//! digits; solving it places every other domino so that the board is a valid
//! sudoku. The solver ([`Sudominoku`], a [`Space`](crate::search::Space)) keeps bitmask candidates
//! for rows, columns and boxes plus, for every digit `a`, the mask of digits
//! `b` whose domino `{a, b}` is still unused. At each node it branches on the
//! empty cell with the fewest possible placements (a domino laid from it to
//! an empty neighbour, with digits its row, column and box allow and a pair
//! not yet used), so dead ends show up early.
//!
//! Two different tilings can spell the same grid; [`count_grids`] counts
//! distinct grids, which is what "unique solution" means for this puzzle,
//! and [`LexGrids`] lists them in increasing order.
//!
//! ```
//! use backtrack::sudominoku::{parse, solve, format_grid};
//!
//! let text = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n\
//!             7 F7 6 F8\n5 G4 9 G5\n7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n0\n";
//! let puzzles = parse(text).unwrap();
//! let puzzle = puzzles[0].as_ref().unwrap();
//! let solution = solve(puzzle).unwrap();
//! assert!(format_grid(&solution.grid).starts_with("872643195\n361975842\n"));
//! ```

mod format;
mod lex;
mod parse;
mod puzzle;
mod solve;
mod space;
mod tables;

pub use format::{cell_name, format_grid};
pub use lex::{lex_first, LexGrids};
pub use parse::{parse, parse_cell};
pub use puzzle::{ClueError, Placement, Puzzle, Solution};
pub use solve::{count_grids, solve};
pub use space::{Branch, Sudominoku};

/// A board: 81 digits in row-major order, `0` for an empty cell.
pub type Grid = [u8; 81];

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n7 F7 6 F8\n\
        5 G4 9 G5\n7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n0\n";

    #[test]
    fn cell_names_round_trip() {
        for cell in 0..81 {
            assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        }
        assert_eq!(parse_cell("J1"), None);
        assert_eq!(parse_cell("A0"), None);
    }

    #[test]
    fn solves_the_sample() {
        let puzzles = parse(SAMPLE).unwrap();
        let puzzle = puzzles[0].as_ref().unwrap();
        let solution = solve(puzzle).unwrap();
        assert_eq!(&format_grid(&solution.grid)[..20], "872643195\n361975842\n");
        assert_eq!(solution.dominoes.len(), 36);
        assert_eq!(count_grids(puzzle, Some(2)), (1, true));
        assert_eq!(lex_first(puzzle).unwrap().grid, solution.grid);
    }

    #[test]
    fn reports_overlap_where_it_is() {
        let text = "1\n1 A1 2 A2\nA1 B1 C1 D1 E1 F1 G1 H1 I1\n";
        let err = parse(text).unwrap()[0].clone().unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
    }
}
