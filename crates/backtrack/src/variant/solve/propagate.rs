//! Propagation to a fixpoint: changed cells queue their handlers, fixed
//! cells clear their peers, and hidden singles are placed.

use super::super::model::{full_mask, Mask, MAX_CELLS};
use super::Solver;

impl Solver {
    /// Notes that `cell` changed: queues its watchers, and the cell itself
    /// when it is down to one value.
    pub(super) fn touched(&mut self, grid: &[Mask; MAX_CELLS], cell: usize) {
        for i in self.watch_first[cell]..self.watch_first[cell + 1] {
            let h = self.watchers[i as usize];
            if !self.queued[h as usize] {
                self.queued[h as usize] = true;
                self.queue.push(h);
            }
        }
        if grid[cell].count_ones() == 1 {
            self.singles.push(cell as u8);
        }
    }

    /// Narrows `cell` to `mask`; `false` when nothing is left.
    pub(super) fn restrict(&mut self, grid: &mut [Mask; MAX_CELLS], cell: usize, mask: Mask) -> bool {
        let old = grid[cell];
        let new = old & mask;
        if new != old {
            grid[cell] = new;
            if new == 0 {
                return false;
            }
            self.touched(grid, cell);
        }
        true
    }

    pub(super) fn clear_queues(&mut self) {
        for &h in &self.queue {
            self.queued[h as usize] = false;
        }
        self.queue.clear();
        self.singles.clear();
    }

    /// Propagates to a fixpoint; `false` on a contradiction (the queues are
    /// left empty either way).
    pub(super) fn propagate(&mut self, grid: &mut [Mask; MAX_CELLS]) -> bool {
        let ok = self.propagate_inner(grid);
        if !ok {
            self.clear_queues();
        }
        ok
    }

    pub(super) fn propagate_inner(&mut self, grid: &mut [Mask; MAX_CELLS]) -> bool {
        loop {
            while let Some(cell) = self.singles.pop() {
                let cell = cell as usize;
                let value = grid[cell];
                for i in self.peer_first[cell]..self.peer_first[cell + 1] {
                    let p = self.peers[i as usize] as usize;
                    if grid[p] & value != 0 && !self.restrict(grid, p, !value) {
                        return false;
                    }
                }
            }
            if let Some(h) = self.queue.pop() {
                self.queued[h as usize] = false;
                if !self.run_handler(h as usize, grid) {
                    return false;
                }
                continue;
            }
            match self.hidden_singles(grid) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Places values with one place left in a house; `None` when a value
    /// has no place, `Some(placed any)` otherwise.
    pub(super) fn hidden_singles(&mut self, grid: &mut [Mask; MAX_CELLS]) -> Option<bool> {
        let n = self.size;
        let full = full_mask(n);
        let mut placed = false;
        for h in 0..self.houses.len() / n {
            let (mut once, mut more, mut fixed) = (0 as Mask, 0 as Mask, 0 as Mask);
            for i in 0..n {
                let m = grid[self.houses[h * n + i] as usize];
                more |= once & m;
                once |= m;
                if m.count_ones() == 1 {
                    fixed |= m;
                }
            }
            if once != full {
                return None;
            }
            let mut lone = once & !more & !fixed;
            while lone != 0 {
                let bit = lone & lone.wrapping_neg();
                lone &= lone - 1;
                for i in 0..n {
                    let c = self.houses[h * n + i] as usize;
                    if grid[c] & bit != 0 {
                        if !self.restrict(grid, c, bit) {
                            return None;
                        }
                        placed = true;
                        break;
                    }
                }
            }
        }
        Some(placed)
    }
}
