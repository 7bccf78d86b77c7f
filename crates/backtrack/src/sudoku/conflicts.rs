//! Finding two givens that repeat a digit in a row, column or box.

use super::{Conflict, Unit};

/// The first pair of givens in `cells` that repeat a digit in a row, column
/// or box (the pair whose later cell comes first in row-major order). Cells
/// must hold 0..=side, as a [`Puzzle`](super::Puzzle) does.
pub fn find_conflict(box_size: usize, cells: &[u8]) -> Option<Conflict> {
    match box_size {
        2 => scan_conflict::<2, 4>(cells),
        3 if cells.len() == 81 && !givens_conflict_9(cells) => None,
        3 => scan_conflict::<3, 9>(cells),
        4 => scan_conflict::<4, 16>(cells),
        5 => scan_conflict::<5, 25>(cells),
        _ => None,
    }
}

/// Row, column and box of each cell of a 9x9 grid, packed as
/// `row | column << 4 | box << 8`.
static UNITS_9: [u16; 81] = {
    let mut table = [0u16; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        table[i] = (r | c << 4 | (r / 3 * 3 + c / 3) << 8) as u16;
        i += 1;
    }
    table
};

/// Whether two givens of a 9x9 grid (`cells.len() == 81`) may share a row,
/// column or box: `false` only when none do and every value is at most 9.
/// Visits only the givens, which batches of sparse puzzles have few of;
/// [`scan_conflict`] then finds and names the conflict.
pub(super) fn givens_conflict_9(cells: &[u8]) -> bool {
    let (mut rows, mut columns, mut boxes) = ([0u32; 9], [0u32; 9], [0u32; 9]);
    let mut clash = 0u32;
    let mut givens = non_blank_81(cells);
    while givens != 0 {
        let i = givens.trailing_zeros() as usize;
        givens &= givens - 1;
        let v = cells[i];
        clash |= u32::from(v > 9);
        let bit = (1u32 << (v & 15)) >> 1;
        let units = UNITS_9[i] as usize;
        let (r, c, b) = (units & 15, (units >> 4) & 15, units >> 8);
        clash |= (rows[r] | columns[c] | boxes[b]) & bit;
        rows[r] |= bit;
        columns[c] |= bit;
        boxes[b] |= bit;
    }
    clash != 0
}

/// The cells of an 81-cell grid that are not blank, one bit each.
#[inline(always)]
pub(crate) fn non_blank_81(cells: &[u8]) -> u128 {
    assert_eq!(cells.len(), 81);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut blank = 0u128;
        for k in 0..5 {
            // SAFETY: SSE2 is part of every x86-64 processor; 16 * k + 15 <
            // 81, so the load stays inside `cells`; unaligned loads have no
            // alignment requirement.
            let lanes = unsafe {
                let v = _mm_loadu_si128(cells.as_ptr().add(16 * k) as *const __m128i);
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32 & 0xffff
            };
            blank |= u128::from(lanes) << (16 * k);
        }
        blank |= u128::from(cells[80] == 0) << 80;
        !blank & ((1u128 << 81) - 1)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        cells.iter().enumerate().fold(0u128, |m, (i, &v)| m | u128::from(v != 0) << i)
    }
}

/// [`find_conflict`] for one size: fixed-size arrays let the compiler drop
/// bounds checks and unroll, which matters when parsing large batches.
pub(super) fn scan_conflict<const BOX: usize, const SIDE: usize>(cells: &[u8]) -> Option<Conflict> {
    if cells.len() != SIDE * SIDE {
        return None;
    }
    // One bitmask of seen digits per column and box; u32 holds up to 25 digits.
    let mut cols = [0u32; SIDE];
    let mut boxes = [0u32; SIDE];
    for r in 0..SIDE {
        let row: &[u8; SIDE] = cells[r * SIDE..(r + 1) * SIDE].try_into().expect("SIDE cells");
        let band = (r / BOX) * BOX;
        let mut seen_in_row = 0u32;
        for c in 0..SIDE {
            // Blank (0) gives no bit, so blanks need no branch.
            let bit = (1u32 << row[c]) >> 1;
            let b = band + c / BOX;
            if (seen_in_row | cols[c] | boxes[b]) & bit != 0 {
                let in_row = seen_in_row & bit != 0;
                return Some(describe_conflict(BOX, cells, r * SIDE + c, in_row, cols[c] & bit != 0));
            }
            seen_in_row |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    None
}

/// Names the earlier cell that cell `i` conflicts with (slow, taken once).
fn describe_conflict(box_size: usize, cells: &[u8], i: usize, in_row: bool, in_column: bool) -> Conflict {
    let side = box_size * box_size;
    let (r, c, v) = (i / side, i % side, cells[i]);
    let unit = if in_row {
        Unit::Row
    } else if in_column {
        Unit::Column
    } else {
        Unit::Box
    };
    let first = (0..i)
        .find(|&j| {
            let (rj, cj) = (j / side, j % side);
            let same = match unit {
                Unit::Row => rj == r,
                Unit::Column => cj == c,
                Unit::Box => rj / box_size == r / box_size && cj / box_size == c / box_size,
            };
            same && cells[j] == v
        })
        .expect("an earlier cell set the bit");
    Conflict { first, second: i, digit: v, unit }
}
