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
                Some(false) => {}
            }
            match self.locked(grid) {
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

    /// Where two houses cross, the rest of each must hold the same values:
    /// a value missing from the rest of one is removed from the rest of the
    /// other. `None` on a contradiction, `Some(narrowed any)` otherwise.
    pub(super) fn locked(&mut self, grid: &mut [Mask; MAX_CELLS]) -> Option<bool> {
        let mut narrowed = false;
        for i in 0..self.crossings.len() {
            let (a, b) = &self.crossings[i];
            let union = |cells: &[u8]| cells.iter().fold(0, |u, &c| u | grid[c as usize]);
            let (ua, ub) = (union(a), union(b));
            if ua == ub {
                continue;
            }
            let both = ua & ub;
            // Take the lists out so `restrict` may borrow the solver.
            let (a, b) = std::mem::take(&mut self.crossings[i]);
            let mut ok = true;
            for &c in a.iter().chain(b.iter()) {
                if grid[c as usize] & !both != 0 {
                    narrowed = true;
                    if !self.restrict(grid, c as usize, both) {
                        ok = false;
                        break;
                    }
                }
            }
            self.crossings[i] = (a, b);
            if !ok {
                return None;
            }
        }
        Some(narrowed)
    }

    /// Each value of `required` must appear among `cells`: a cell that
    /// sees every one of its places there cannot hold it.
    pub(super) fn exclude_required(&mut self, grid: &mut [Mask; MAX_CELLS], cells: &[u8], required: Mask) -> bool {
        let mut need = required;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need &= need - 1;
            let mut seen = [u64::MAX; 4];
            let mut places = 0;
            for &c in cells {
                let m = grid[c as usize];
                if m & bit != 0 {
                    if m == bit {
                        // Placed: its peers lose it with the singles.
                        places = 0;
                        break;
                    }
                    places += 1;
                    let peers = &self.peer_sets[c as usize];
                    seen.iter_mut().zip(peers).for_each(|(s, p)| *s &= p);
                }
            }
            if places < 2 {
                continue;
            }
            for (w, &word) in seen.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let c = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if grid[c] & bit != 0 && !self.restrict(grid, c, !bit) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::parse_line;
    use super::super::Solver;

    #[test]
    fn a_value_confined_where_a_box_meets_a_row_leaves_the_rest_of_both() {
        let puzzle = parse_line(&".".repeat(81), 1).unwrap();
        let mut solver = Solver::new(&puzzle).unwrap();
        let mut grid = solver.start;
        // In the first box, 1 is left only in the first row (pointing) ...
        for c in [9, 10, 11, 18, 19, 20] {
            grid[c] &= !1;
        }
        // ... and in the fourth row, 2 is left only in the fourth box (claiming).
        grid[30..36].iter_mut().for_each(|m| *m &= !2);
        assert_eq!(solver.locked(&mut grid), Some(true));
        assert!((3..9).all(|c| grid[c] & 1 == 0), "the rest of the first row keeps 1");
        assert!([0, 1, 2, 27].iter().all(|&c| grid[c] & 1 != 0));
        assert!([36, 37, 38, 45, 46, 47].iter().all(|&c| grid[c] & 2 == 0), "the rest of the box keeps 2");
        assert!([27, 28, 29, 39].iter().all(|&c| grid[c] & 2 != 0));
        assert_eq!(solver.locked(&mut grid), Some(false));
    }

    #[test]
    fn a_value_a_line_needs_leaves_the_cells_that_see_all_its_places() {
        let puzzle = parse_line(&".".repeat(81), 1).unwrap();
        let mut solver = Solver::new(&puzzle).unwrap();
        let mut grid = solver.start;
        let lost = |grid: &[u16]| (0..81).filter(|&c| grid[c] & 1 << 4 == 0).collect::<Vec<usize>>();
        // 5 is needed among R1C1, R1C2 and R5C5: only R1C5 sees all three.
        assert!(solver.exclude_required(&mut grid, &[0, 1, 40], 1 << 4));
        assert_eq!(lost(&grid), [4]);
        // With R5C5 out, 5 is needed among the first two cells of the first row ...
        grid[40] &= !(1 << 4);
        assert!(solver.exclude_required(&mut grid, &[0, 1, 40], 1 << 4));
        // ... so the rest of that row and of that box lose it, and no other cell.
        assert_eq!(lost(&grid), [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20, 40]);
    }
}
