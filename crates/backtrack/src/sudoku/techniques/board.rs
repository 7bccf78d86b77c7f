//! The board the finders work on: placed digits and candidates.

use super::{bit, cells_of, cellsets, units_of, Step, ALL, PEERS, UNITS};

/// Placed digits and the candidates of empty cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Placed digit of each cell, 0 when empty.
    pub values: [u8; 81],
    /// Candidates of each empty cell (0 for placed cells).
    pub cands: [u16; 81],
}

impl Board {
    /// The board of a 9x9 grid (0 for a blank): candidates are the digits no
    /// peer holds. `None` when two givens clash.
    pub fn new(cells: &[u8]) -> Option<Board> {
        assert_eq!(cells.len(), 81, "a 9x9 grid has 81 cells");
        let mut board = Board { values: [0; 81], cands: [ALL; 81] };
        for (cell, &d) in cells.iter().enumerate() {
            if d != 0 {
                if board.cands[cell] & bit(d) == 0 {
                    return None;
                }
                board.place(cell, d);
            }
        }
        Some(board)
    }

    /// The board of a pencil-mark grid (each cell's candidates, bit `d - 1`
    /// for digit `d`): the candidates are the marks. A cell down to one
    /// candidate that no other cell of its row, column or box keeps counts
    /// as filled (a given, or a digit placed and cleared from its peers);
    /// one whose digit a peer still keeps is left empty, a naked single to
    /// play. `None` when a cell has no candidate.
    pub fn from_marks(marks: &[u16]) -> Option<Board> {
        assert_eq!(marks.len(), 81, "a 9x9 grid has 81 cells");
        let mut board = Board { values: [0; 81], cands: [0; 81] };
        for (cell, &m) in marks.iter().enumerate() {
            board.cands[cell] = m & ALL;
        }
        if board.cands.contains(&0) {
            return None;
        }
        for cell in 0..81 {
            let m = marks[cell] & ALL;
            let settled = m.count_ones() == 1 && cells_of(PEERS[cell]).all(|peer| marks[peer] & m == 0);
            if settled {
                board.values[cell] = m.trailing_zeros() as u8 + 1;
                board.cands[cell] = 0;
            }
        }
        Some(board)
    }

    /// Places `d` in `cell` and removes `d` from the candidates of its peers.
    pub fn place(&mut self, cell: usize, d: u8) {
        self.values[cell] = d;
        self.cands[cell] = 0;
        for unit in units_of(cell) {
            for &peer in &UNITS[unit] {
                self.cands[peer] &= !bit(d);
            }
        }
    }

    /// Applies a step: its eliminations, then its placements.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.cands[cell] &= !bit(d);
        }
        for &(cell, d) in &step.placements {
            if self.values[cell] == 0 {
                self.place(cell, d);
            }
        }
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Where `d` can go in `unit`: bit `k` for the unit's `k`-th cell.
    pub fn positions(&self, unit: usize, d: u8) -> u16 {
        let mut mask = 0;
        for (k, &cell) in UNITS[unit].iter().enumerate() {
            if self.cands[cell] & bit(d) != 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Empty cells of `unit`.
    pub fn empty_count(&self, unit: usize) -> u32 {
        UNITS[unit].iter().filter(|&&c| self.values[c] == 0).count() as u32
    }

    /// Whether `d` is a candidate of `cell`.
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cands[cell] & bit(d) != 0
    }

    /// The cells of `d` in `unit`.
    pub fn cells_with(&self, unit: usize, d: u8) -> Vec<usize> {
        UNITS[unit].iter().copied().filter(|&c| self.has(c, d)).collect()
    }

    /// The eliminations of `d` from every cell that sees all of `cells`
    /// (and is not one of them).
    pub fn seen_by_all(&self, cells: &[usize], d: u8) -> Vec<(usize, u8)> {
        let seen = cells.iter().fold(!0u128, |m, &c| m & PEERS[c]);
        cells_of(seen & cellsets::GRID).filter(|&x| self.has(x, d)).map(|x| (x, d)).collect()
    }
}
