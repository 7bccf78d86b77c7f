//! The search: branch on the cell with the best conflict score per
//! candidate, copying the grid at each level.

use std::ops::ControlFlow;

use super::super::model::{Mask, MAX_CELLS};
use super::{Count, Solver, TrueCandidates, DECAY_EVERY};
use crate::search::{Search, Space};
use crate::sudoku::kernel9::Space9;

/// A branch of the search: `cell` holds `bit`, or it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Branch {
    pub(super) cell: usize,
    pub(super) bit: Mask,
    /// Where the value goes when `cell` does not hold it: the other place
    /// of a value with two places left in a house. A failure there is that
    /// cell's conflict (and that of any other place the value is then left
    /// with in a house), as much as a failure of `cell` is `cell`'s.
    pub(super) other: Option<usize>,
}

impl Solver {
    /// The starting grid after propagation, or `None` when the puzzle has no solution.
    pub(super) fn root(&mut self) -> Option<[Mask; MAX_CELLS]> {
        if self.impossible {
            return None;
        }
        let mut grid = self.start;
        if grid[..self.cells].contains(&0) {
            return None;
        }
        self.clear_queues();
        for h in 0..self.handlers.len() {
            self.queued[h] = true;
            self.queue.push(h as u32);
        }
        for (c, m) in grid[..self.cells].iter().enumerate() {
            if m.count_ones() == 1 {
                self.singles.push(c as u8);
            }
        }
        self.propagate(&mut grid).then_some(grid)
    }

    /// The branch to take next, as a cell and one of its values: the
    /// unfixed cell with the highest conflict score per candidate (the
    /// fewest candidates while no branch has failed yet), and its smallest
    /// value. When that cell has more than two values, a value with two
    /// places left in a house may do better: it splits the search in two,
    /// scored by the busier of its two cells over two.
    pub(super) fn choose(&self, grid: &[Mask; MAX_CELLS]) -> Option<Branch> {
        // Best so far: (conflict score, candidates, cell), scores in fifths.
        let mut best: Option<(u32, u32, usize)> = None;
        let (hot, bonus) = self.hot_value();
        for (c, m) in grid[..self.cells].iter().enumerate() {
            let k = m.count_ones();
            if k < 2 {
                continue;
            }
            let s = 5 * self.score[c] + if m & hot != 0 { bonus } else { 0 };
            let better = match best {
                None => true,
                // s / k > bs / bk, or equal scores and fewer candidates.
                Some((bs, bk, _)) => {
                    let (l, r) = (s as u64 * bk as u64, bs as u64 * k as u64);
                    l > r || (l == r && k < bk)
                }
            };
            if better {
                best = Some((s, k, c));
            }
        }
        let (_, k, c) = best?;
        let bit = grid[c] & grid[c].wrapping_neg();
        let plain = Branch { cell: c, bit, other: None };
        if k <= 2 || self.score[c] == 0 {
            return Some(plain);
        }
        Some(self.house_pair(grid, self.score[c], k).unwrap_or(plain))
    }

    /// The value whose branches failed most often lately, if it stands out
    /// (at least `size` failures, and more than one and a half times the
    /// least failing value's), and its weight: cells holding it are
    /// favoured by a fifth of its failures.
    fn hot_value(&self) -> (Mask, u32) {
        let (mut max, mut value, mut min) = (0, 0, u32::MAX);
        for (v, &s) in self.value_score[..self.size].iter().enumerate() {
            if s > max {
                (max, value) = (s, 1 << v);
            }
            if s != 0 {
                min = min.min(s);
            }
        }
        if (max as usize) < self.size || 2 * max as u64 <= 3 * min as u64 {
            (0, 0)
        } else {
            (value, max)
        }
    }

    /// The value with two places left in a house whose busier place has
    /// the highest conflict score, if that score over two is at least
    /// `s / k`; the branch puts the value in its busier place, the other
    /// place taking it when that fails.
    fn house_pair(&self, grid: &[Mask; MAX_CELLS], s: u32, k: u32) -> Option<Branch> {
        let n = self.size;
        // Best so far: (score of the busier place, the branch).
        let mut best: Option<(u32, Branch)> = None;
        for house in self.houses.chunks_exact(n) {
            if !house.iter().any(|&c| self.score[c as usize] as u64 * k as u64 >= 2 * s as u64) {
                continue;
            }
            let (mut once, mut twice, mut more) = (0 as Mask, 0 as Mask, 0 as Mask);
            for &c in house {
                let m = grid[c as usize];
                more |= twice & m;
                twice |= once & m;
                once |= m;
            }
            let mut pairs = twice & !more;
            while pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                pairs &= pairs - 1;
                let mut places = house.iter().map(|&c| c as usize).filter(|&c| grid[c] & bit != 0);
                let (Some(a), Some(b)) = (places.next(), places.next()) else { continue };
                // The busier place first (the first on a tie).
                let (top, other) = if self.score[b] > self.score[a] { (b, a) } else { (a, b) };
                let ts = self.score[top];
                // ts / 2 >= s / k, and at least the best pair so far.
                if ts as u64 * k as u64 >= 2 * s as u64 && best.is_none_or(|(bs, _)| ts >= bs) {
                    best = Some((ts, Branch { cell: top, bit, other: Some(other) }));
                }
            }
        }
        best.map(|(_, branch)| branch)
    }

    /// The places `bit` must take once `cell` loses it, as a set: in each
    /// house holding `cell` where `bit` has two places, the other one.
    fn forced_places(&self, grid: &[Mask; MAX_CELLS], cell: usize, bit: Mask) -> [u64; 4] {
        let mut forced = [0u64; 4];
        for house in self.houses.chunks_exact(self.size) {
            if !house.contains(&(cell as u8)) {
                continue;
            }
            let mut places = house.iter().map(|&c| c as usize).filter(|&c| grid[c] & bit != 0);
            if let (Some(a), Some(b), None) = (places.next(), places.next(), places.next()) {
                let o = if a == cell { b } else { a };
                forced[o / 64] |= 1 << (o % 64);
            }
        }
        forced
    }

    /// Notes a failed branch on `cell`; every so often all scores are
    /// halved, so that the search follows where the conflicts are now.
    pub(super) fn conflict(&mut self, cell: usize, bit: Mask) {
        self.score[cell] = self.score[cell].saturating_add(1);
        let v = &mut self.value_score[bit.trailing_zeros() as usize & 15];
        *v = v.saturating_add(1);
        self.conflicts += 1;
        if self.conflicts.is_multiple_of(DECAY_EVERY) {
            self.score.iter_mut().for_each(|s| *s >>= 1);
            self.value_score.iter_mut().for_each(|s| *s >>= 2);
        }
    }

    /// Visits every solution below `grid` (already propagated). Branches
    /// two ways: the chosen cell holds the chosen value, or it does not
    /// (and that is propagated before the next branch). A failure of the
    /// first way is the cell's conflict; a failure of the second, when the
    /// value was chosen for having two places in a house, is the conflict
    /// of every place it is then left with in a house holding the cell.
    pub(super) fn walk(
        &mut self,
        grid: &mut [Mask; MAX_CELLS],
        visit: &mut dyn FnMut(&[Mask]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        loop {
            let Some(Branch { cell, bit, other }) = self.choose(grid) else {
                return visit(&grid[..self.cells]);
            };
            if self.cancelled() {
                return ControlFlow::Break(());
            }
            self.guesses += 1;
            let mut next = *grid;
            next[cell] = bit;
            self.touched(&next, cell);
            if self.propagate(&mut next) {
                self.walk(&mut next, visit)?;
            } else {
                self.conflict(cell, bit);
            }
            let forced = if other.is_some() { self.forced_places(grid, cell, bit) } else { [0; 4] };
            if !self.restrict(grid, cell, !bit) || !self.propagate(grid) {
                for (w, &word) in forced.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        self.conflict(w * 64 + bits.trailing_zeros() as usize, bit);
                        bits &= bits - 1;
                    }
                }
                return ControlFlow::Continue(());
            }
        }
    }

    /// Calls `visit` with every solution (one value per cell, 1 to size)
    /// until it breaks; returns the number of solutions visited.
    pub fn for_each(&mut self, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
        let Some(mut grid) = self.root() else { return 0 };
        let mut count = 0;
        let mut values = vec![0u8; self.cells];
        let _ = self.walk(&mut grid, &mut |g| {
            count += 1;
            for (v, &m) in values.iter_mut().zip(g) {
                *v = m.trailing_zeros() as u8 + 1;
            }
            visit(&values)
        });
        count
    }

    /// The first solution found, if any.
    pub fn first(&mut self) -> Option<Vec<u8>> {
        let mut found = None;
        self.for_each(|s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        found
    }

    /// Counts solutions, stopping at `limit` (`None`: all of them).
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        if self.classic && !self.impossible {
            return self.count_classic(limit);
        }
        let limit = limit.unwrap_or(u64::MAX);
        let mut first = None;
        let mut solutions = 0;
        let mut complete = true;
        if limit > 0 {
            self.for_each(|s| {
                if first.is_none() {
                    first = Some(s.to_vec());
                }
                solutions += 1;
                if solutions >= limit {
                    complete = false;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        // Stopping at the limit exactly leaves open whether more exist.
        Count { solutions, complete, first }
    }

    /// [`Solver::count`] on a classic 9x9 grid, by the classic kernel
    /// started from the candidates (pencil marks as much as givens).
    fn count_classic(&mut self, limit: Option<u64>) -> Count {
        let mut masks = [0u16; 81];
        masks.copy_from_slice(&self.start[..81]);
        let mut search = Search::new(Space9::from_candidates(&masks));
        if let Some(control) = &self.control {
            search = search.control(control.clone());
        }
        let limit = limit.unwrap_or(u64::MAX);
        let (mut solutions, mut first) = (0, None);
        if limit > 0 {
            search.walk(|space| {
                if first.is_none() {
                    first = Some(space.solution().to_vec());
                }
                solutions += 1;
                if solutions >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        self.guesses += search.stats().guesses;
        Count { solutions, complete: solutions < limit, first }
    }

    /// The true candidates of every cell (the values it holds in at least
    /// one solution), and the solutions counted up to `limit`.
    ///
    /// For each cell and each value not yet seen in a solution, one search
    /// asks for a solution with that value there; each solution found marks
    /// all its values at once, so most questions are answered before they
    /// are asked.
    pub fn candidates(&mut self, limit: u64) -> TrueCandidates {
        let counted = self.count(Some(limit.max(1)));
        let mut masks = vec![0 as Mask; self.cells];
        let Some(first) = counted.first else {
            return TrueCandidates { masks, solutions: 0, complete: true };
        };
        let mark = |masks: &mut [Mask], s: &[u8]| {
            for (m, &v) in masks.iter_mut().zip(s) {
                *m |= 1 << (v - 1);
            }
        };
        mark(&mut masks, &first);
        let Some(root) = self.root() else {
            return TrueCandidates { masks, solutions: counted.solutions, complete: counted.complete };
        };
        for cell in 0..self.cells {
            let mut open = root[cell] & !masks[cell];
            while open != 0 && !self.cancelled() {
                let bit = open & open.wrapping_neg();
                open &= open - 1;
                if masks[cell] & bit != 0 {
                    continue;
                }
                let mut grid = root;
                grid[cell] = bit;
                self.touched(&grid, cell);
                if !self.propagate(&mut grid) {
                    continue;
                }
                let mut found = None;
                let cells = self.cells;
                let _ = self.walk(&mut grid, &mut |g| {
                    found = Some(g[..cells].iter().map(|m| m.trailing_zeros() as u8 + 1).collect::<Vec<u8>>());
                    ControlFlow::Break(())
                });
                if let Some(s) = found {
                    mark(&mut masks, &s);
                }
            }
        }
        TrueCandidates { masks, solutions: counted.solutions, complete: counted.complete }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::parse_line;
    use super::super::Solver;
    use super::Branch;
    use std::ops::ControlFlow;

    fn empty() -> Solver {
        let mut solver = Solver::new(&parse_line(&".".repeat(81), 1).unwrap()).unwrap();
        solver.score.iter_mut().for_each(|s| *s = 0);
        solver
    }

    #[test]
    fn a_value_with_two_places_in_a_house_beats_a_cell_with_many() {
        let mut solver = empty();
        let mut grid = solver.start;
        solver.score[0] = 10;
        // 5 is left in the first row at its first two cells only.
        grid[2..9].iter_mut().for_each(|m| *m &= !(1 << 4));
        assert_eq!(solver.choose(&grid), Some(Branch { cell: 0, bit: 1 << 4, other: Some(1) }));
        // With no failures yet, the fewest candidates decide.
        solver.score[0] = 0;
        grid[40] = 0b11000;
        assert_eq!(solver.choose(&grid), Some(Branch { cell: 40, bit: 0b1000, other: None }));
    }

    #[test]
    fn a_failure_of_the_other_place_of_a_house_pair_is_that_place_s_conflict() {
        let mut solver = empty();
        let mut grid = solver.start;
        solver.score[0] = 100;
        // 5 is left in the first row at R1C1 and R1C4 only ...
        for c in [1, 2, 4, 5, 6, 7, 8] {
            grid[c] &= !(1 << 4);
        }
        // ... and each place fails: R4C1 and R5C1, R4C4 and R5C4 hold 5 or 6.
        for c in [27, 36, 30, 39] {
            grid[c] = 0b110000;
        }
        assert_eq!(solver.choose(&grid), Some(Branch { cell: 0, bit: 1 << 4, other: Some(3) }));
        // In the first box, 5 is left at R1C1 and R3C3: without R1C1 it goes
        // to R3C3 as much as to R1C4.
        for c in [9, 10, 11, 18, 19] {
            grid[c] &= !(1 << 4);
        }
        let branch = solver.choose(&grid).unwrap();
        assert_eq!((branch.cell, branch.bit), (0, 1 << 4));
        let mut solutions = 0;
        let _ = solver.walk(&mut grid, &mut |_| {
            solutions += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(solutions, 0);
        let scores = (solver.score[0], solver.score[3], solver.score[20]);
        assert_eq!(scores, (101, 1, 1), "R1C4 and R3C3 failed when 5 went there");
        assert_eq!(solver.value_score[4], 3);
    }

    #[test]
    fn cells_holding_the_value_that_fails_most_are_favoured() {
        let mut solver = empty();
        let mut grid = solver.start;
        grid[0] = 0b011;
        grid[80] = 0b1100;
        assert_eq!(solver.choose(&grid), Some(Branch { cell: 0, bit: 1, other: None }));
        solver.value_score[0] = 5;
        solver.value_score[2] = 20;
        assert_eq!(solver.hot_value(), (0b100, 20));
        assert_eq!(solver.choose(&grid), Some(Branch { cell: 80, bit: 0b100, other: None }));
        // A value that does not stand out is no one's favour.
        solver.value_score[0] = 15;
        assert_eq!(solver.hot_value(), (0, 0));
    }
}
