//! Writing grids as text.

use super::Format;

/// The symbol for digit `value` (`.` for a blank, `1`-`9`, then `A`...).
pub fn symbol(value: u8) -> u8 {
    match value {
        0 => b'.',
        1..=9 => b'0' + value,
        _ => b'A' + value - 10,
    }
}

/// Appends `cells` (a grid of box size `box_size`) to `out` in `format`,
/// ending with a newline. Blanks are written as `.` in line and grid format
/// and as `0` in spaced format.
pub fn write_cells(out: &mut Vec<u8>, box_size: usize, cells: &[u8], format: Format) {
    let side = box_size * box_size;
    match format {
        Format::Line => {
            out.extend(cells.iter().map(|&v| symbol(v)));
            out.push(b'\n');
        }
        Format::Grid => {
            for row in cells.chunks(side) {
                out.extend(row.iter().map(|&v| symbol(v)));
                out.push(b'\n');
            }
        }
        Format::Spaced => {
            for row in cells.chunks(side) {
                for (i, &v) in row.iter().enumerate() {
                    if i > 0 {
                        out.push(b' ');
                    }
                    if v >= 10 {
                        out.push(b'0' + v / 10);
                    }
                    out.push(b'0' + v % 10);
                }
                out.push(b'\n');
            }
        }
    }
}
