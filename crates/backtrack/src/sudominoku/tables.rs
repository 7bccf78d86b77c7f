//! Constant tables of the 9x9 board: neighbours, boxes, the chessboard
//! colouring, and the balance check built on it.

/// Marks "no neighbour" in [`NEIGHBORS`].
pub(super) const NONE: u8 = u8::MAX;

/// The orthogonal neighbours of every cell: right, down, left, up.
pub(super) const NEIGHBORS: [[u8; 4]; 81] = {
    let mut table = [[NONE; 4]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        if col < 8 {
            table[cell][0] = (cell + 1) as u8;
        }
        if row < 8 {
            table[cell][1] = (cell + 9) as u8;
        }
        if col > 0 {
            table[cell][2] = (cell - 1) as u8;
        }
        if row > 0 {
            table[cell][3] = (cell - 9) as u8;
        }
        cell += 1;
    }
    table
};

/// Box number (0..9, row-major) of every cell.
pub(super) const BOX: [u8; 81] = {
    let mut table = [0u8; 81];
    let mut cell = 0;
    while cell < 81 {
        table[cell] = ((cell / 27) * 3 + (cell % 9) / 3) as u8;
        cell += 1;
    }
    table
};

/// Cells whose row + column is even ("black" squares of a chessboard colouring).
pub(super) const BLACK: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if (cell / 9 + cell % 9) % 2 == 0 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// All 81 cells.
pub(super) const BOARD: u128 = (1 << 81) - 1;

/// Cells not in the first column (where a shift by one to the right may land).
pub(super) const NOT_FIRST_COLUMN: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if cell % 9 != 0 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// Cells not in the last column.
pub(super) const NOT_LAST_COLUMN: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if cell % 9 != 8 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// Whether every connected region of `empty` cells has as many black cells as
/// white ones: a domino always covers one of each, so a region that does not
/// balance can never be tiled.
pub(super) fn regions_balance(empty: u128) -> bool {
    let mut rest = empty;
    while rest != 0 {
        let mut region = rest & rest.wrapping_neg();
        loop {
            let grown = region
                | ((region << 1) & NOT_FIRST_COLUMN)
                | ((region >> 1) & NOT_LAST_COLUMN)
                | ((region << 9) & BOARD)
                | (region >> 9);
            let grown = grown & rest;
            if grown == region {
                break;
            }
            region = grown;
        }
        if (region & BLACK).count_ones() * 2 != region.count_ones() {
            return false;
        }
        rest &= !region;
    }
    true
}

/// Digits 1..9 as bits 1..9.
pub(super) const ALL_DIGITS: u16 = 0b11_1111_1110;
