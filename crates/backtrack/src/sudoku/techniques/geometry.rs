//! The grid's geometry and digit masks: units, cells and their names,
//! and counts of the small sets the finders handle.

/// Every candidate (digits 1 to 9).
pub const ALL: u16 = 0x1FF;

/// The cells of each unit: boxes 0..9, rows 9..18, columns 18..27.
pub const UNITS: [[usize; 9]; 27] = build_units();

const fn build_units() -> [[usize; 9]; 27] {
    let mut units = [[0usize; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            units[i][k] = (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3;
            units[9 + i][k] = i * 9 + k;
            units[18 + i][k] = k * 9 + i;
            k += 1;
        }
        i += 1;
    }
    units
}

/// A set of cells: bit `c` for cell `c`.
pub type CellSet = u128;

/// The cells of each unit as a [`CellSet`] (units numbered as in [`UNITS`]).
pub const UNIT_CELLS: [CellSet; 27] = build_unit_cells();

const fn build_unit_cells() -> [CellSet; 27] {
    let mut sets = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            sets[u] |= 1 << UNITS[u][k];
            k += 1;
        }
        u += 1;
    }
    sets
}

/// Row of `cell` (0..9).
pub const fn row(cell: usize) -> usize {
    cell / 9
}

/// Column of `cell` (0..9).
pub const fn col(cell: usize) -> usize {
    cell % 9
}

/// Box of `cell` (0..9).
pub const fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// The three units of `cell`: its box, row and column.
pub const fn units_of(cell: usize) -> [usize; 3] {
    [box_of(cell), 9 + row(cell), 18 + col(cell)]
}

/// Whether two different cells share a unit.
pub const fn sees(a: usize, b: usize) -> bool {
    a != b && (row(a) == row(b) || col(a) == col(b) || box_of(a) == box_of(b))
}

/// `cell` as `r3c5` (1-based).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row(cell) + 1, col(cell) + 1)
}

/// Several cells as `r1c2, r3c4`.
pub fn cells_name(cells: &[usize]) -> String {
    cells.iter().map(|&c| cell_name(c)).collect::<Vec<_>>().join(", ")
}

/// `unit` as `box 3`, `row 3` or `column 3` (1-based).
pub fn unit_name(unit: usize) -> String {
    match unit {
        0..=8 => format!("box {}", unit + 1),
        9..=17 => format!("row {}", unit - 8),
        _ => format!("column {}", unit - 17),
    }
}

/// The digits of a mask, increasing.
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    let mut rest = mask & ALL;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let d = rest.trailing_zeros() as u8 + 1;
        rest &= rest - 1;
        Some(d)
    })
}

/// The digits of a mask as `1/5/7`.
pub fn digits_name(mask: u16) -> String {
    digits(mask).map(|d| d.to_string()).collect::<Vec<_>>().join("/")
}

/// The mask of digit `d`.
pub const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The number of bits of each nine-bit mask.
const NINE_BIT_COUNTS: [u8; 512] = {
    let mut counts = [0u8; 512];
    let mut m = 1;
    while m < 512 {
        counts[m] = counts[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    counts
};

/// The number of bits set in a nine-bit mask (a digit mask, or the
/// positions of a digit in a unit), read from a table: quicker than
/// `count_ones` on CPUs without a popcount instruction.
pub const fn count9(mask: u16) -> u32 {
    NINE_BIT_COUNTS[mask as usize] as u32
}

/// Whether a set has exactly one member.
pub const fn single(set: u128) -> bool {
    set != 0 && set & (set - 1) == 0
}

/// Whether a set has two members or more.
pub const fn several(set: u128) -> bool {
    set & set.wrapping_sub(1) != 0
}

/// Whether a set has exactly two members.
pub const fn pair(set: u128) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}
