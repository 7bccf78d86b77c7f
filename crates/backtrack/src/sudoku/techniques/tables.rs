//! Where each digit can go on one board, as the finders of one step share it.

use super::{box_of, cells_of, col, row, Board, CellSet, Step, PEERS, UNIT_CELLS};

/// Where each digit can go on one board, computed once and shared by the
/// finders (`*_in` functions) that one step of the rater tries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    /// `positions[unit][d - 1]`: bit `k` when the unit's `k`-th cell can hold `d`
    /// (as [`Board::positions`]).
    pub positions: [[u16; 9]; 27],
    /// `cells[d - 1]`: the cells that can hold `d`.
    pub cells: [CellSet; 9],
    /// Empty cells of each unit (as [`Board::empty_count`]).
    pub empty: [u8; 27],
}

impl Tables {
    /// The tables of `board`.
    pub fn new(board: &Board) -> Tables {
        let mut t = Tables { positions: [[0; 9]; 27], cells: [0; 9], empty: [0; 27] };
        for cell in 0..81 {
            let (r, c) = (row(cell), col(cell));
            let (b, k) = (box_of(cell), r % 3 * 3 + c % 3);
            if board.values[cell] == 0 {
                t.empty[b] += 1;
                t.empty[9 + r] += 1;
                t.empty[18 + c] += 1;
            }
            let mut m = board.cands[cell];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                t.positions[b][d] |= 1 << k;
                t.positions[9 + r][d] |= 1 << c;
                t.positions[18 + c][d] |= 1 << r;
                t.cells[d] |= 1 << cell;
            }
        }
        t
    }

    /// Follows [`Board::apply`]: call with the board before it applies `step`.
    pub fn apply(&mut self, board: &Board, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.remove(cell, d);
        }
        let mut placed = 0u128;
        for &(cell, d) in &step.placements {
            if board.values[cell] != 0 || placed & 1 << cell != 0 {
                continue;
            }
            placed |= 1 << cell;
            for e in 1..=9 {
                self.remove(cell, e);
            }
            let (r, c) = (row(cell), col(cell));
            self.empty[box_of(cell)] -= 1;
            self.empty[9 + r] -= 1;
            self.empty[18 + c] -= 1;
            for peer in cells_of(self.cells[d as usize - 1] & PEERS[cell]) {
                self.remove(peer, d);
            }
        }
    }

    /// Removes candidate `d` of `cell` (if there).
    fn remove(&mut self, cell: usize, d: u8) {
        let i = d as usize - 1;
        if self.cells[i] & 1 << cell == 0 {
            return;
        }
        let (r, c) = (row(cell), col(cell));
        self.positions[box_of(cell)][i] &= !(1 << (r % 3 * 3 + c % 3));
        self.positions[9 + r][i] &= !(1 << c);
        self.positions[18 + c][i] &= !(1 << r);
        self.cells[i] &= !(1 << cell);
    }

    /// The cells of `d` in `unit`.
    pub fn unit_cells(&self, unit: usize, d: u8) -> CellSet {
        self.cells[d as usize - 1] & UNIT_CELLS[unit]
    }
}
