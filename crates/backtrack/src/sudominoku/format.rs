//! Writing cells and grids as text.

use super::Grid;

/// The name of a cell: row letter `A`-`I`, then column digit `1`-`9`.
pub fn cell_name(cell: usize) -> String {
    format!("{}{}", (b'A' + (cell / 9) as u8) as char, cell % 9 + 1)
}

/// The grid as 9 lines of 9 digits, each line ending in `\n`.
pub fn format_grid(grid: &Grid) -> String {
    let mut text = String::with_capacity(90);
    for row in grid.chunks(9) {
        for &d in row {
            text.push((b'0' + d) as char);
        }
        text.push('\n');
    }
    text
}
