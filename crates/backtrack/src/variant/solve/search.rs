//! The search: branch on the cell with the best conflict score per
//! candidate, copying the grid at each level.

use std::ops::ControlFlow;

use super::super::model::{Mask, MAX_CELLS};
use super::{Count, Solver, TrueCandidates, DECAY_EVERY};

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

    /// The unfixed cell with the highest conflict score per candidate (the
    /// fewest candidates while no branch has failed yet).
    pub(super) fn choose(&self, grid: &[Mask; MAX_CELLS]) -> Option<usize> {
        // Best so far: (conflict score, candidates, cell).
        let mut best: Option<(u32, u32, usize)> = None;
        for (c, m) in grid[..self.cells].iter().enumerate() {
            let k = m.count_ones();
            if k < 2 {
                continue;
            }
            let s = self.score[c];
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
        best.map(|(_, _, c)| c)
    }

    /// Notes a failed branch on `cell`; every so often all scores are
    /// halved, so that the search follows where the conflicts are now.
    pub(super) fn conflict(&mut self, cell: usize) {
        self.score[cell] = self.score[cell].saturating_add(1);
        self.conflicts += 1;
        if self.conflicts.is_multiple_of(DECAY_EVERY) {
            self.score.iter_mut().for_each(|s| *s >>= 1);
        }
    }

    /// Visits every solution below `grid` (already propagated). Branches
    /// two ways: the chosen cell holds its smallest value, or it does not
    /// (and that is propagated before the next branch).
    pub(super) fn walk(
        &mut self,
        grid: &mut [Mask; MAX_CELLS],
        visit: &mut dyn FnMut(&[Mask]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        loop {
            let Some(cell) = self.choose(grid) else {
                return visit(&grid[..self.cells]);
            };
            if self.cancelled() {
                return ControlFlow::Break(());
            }
            let bit = grid[cell] & grid[cell].wrapping_neg();
            self.guesses += 1;
            let mut next = *grid;
            next[cell] = bit;
            self.touched(&next, cell);
            if self.propagate(&mut next) {
                self.walk(&mut next, visit)?;
            } else {
                self.conflict(cell);
            }
            if !self.restrict(grid, cell, !bit) || !self.propagate(grid) {
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
