//! Handlers: the propagation of each rule beyond "different values",
//! narrowing the candidates of the cells it watches.

use super::super::line::LineRule;
use super::super::model::{Mask, MAX_CELLS};
use super::{max_value, min_value, range_mask, renban, Solver};

/// One rule's propagation.
#[derive(Debug, Clone)]
pub(super) enum Handler {
    /// `b` may hold `allowed[v]` when `a` holds value `v + 1`, and the converse table.
    Binary { a: u8, b: u8, forward: [Mask; 16], backward: [Mask; 16] },
    /// The sum of `coefs[i] * value(cells[i])` is `target`. The cells come
    /// in groups (`ends[g]` is where group `g` stops) of peers with one
    /// coefficient: a group of peers sums to at least its smallest distinct values.
    /// `stated`: a sum the puzzle states (a little killer, an arrow), whose
    /// values are also checked group total by group total where that is
    /// affordable; the sums derived from houses keep to bounds, which
    /// measured faster on killer puzzles.
    Sum { cells: Vec<u8>, coefs: Vec<i32>, ends: Vec<u8>, target: i32, stated: bool },
    /// Different values forming one of `combos`; when the cells lie in a
    /// house, `rest` is the house's other cells, which hold the values the
    /// combination leaves.
    Combos { cells: Vec<u8>, combos: Vec<Mask>, rest: Vec<u8> },
    /// Strictly increasing values.
    Thermo { cells: Vec<u8> },
    /// Different, consecutive values.
    Renban { cells: Vec<u8> },
    /// The middle cells strictly between the ends.
    Between { a: u8, b: u8, mids: Vec<u8> },
    /// The middle cells outside the ends' span.
    Lockout { a: u8, b: u8, mids: Vec<u8> },
    /// Each value at least its count of times among the cells.
    Required { cells: Vec<u8>, needs: Vec<(Mask, u8)> },
    /// A line automaton.
    Line(Box<LineRule>),
}

impl Handler {
    pub(super) fn cells(&self) -> Vec<u8> {
        match self {
            Handler::Binary { a, b, .. } => vec![*a, *b],
            Handler::Between { a, b, mids } | Handler::Lockout { a, b, mids } => {
                let mut v = vec![*a, *b];
                v.extend(mids);
                v
            }
            Handler::Combos { cells, rest, .. } => [&cells[..], rest].concat(),
            Handler::Sum { cells, .. }
            | Handler::Thermo { cells }
            | Handler::Renban { cells }
            | Handler::Required { cells, .. } => cells.clone(),
            Handler::Line(rule) => rule.cells.clone(),
        }
    }
}

impl Solver {
    pub(super) fn run_handler(&mut self, h: usize, grid: &mut [Mask; MAX_CELLS]) -> bool {
        // The handler is taken out while it runs so that it can borrow its
        // scratch while `restrict` borrows the queues.
        let mut handler = std::mem::replace(&mut self.handlers[h], Handler::Thermo { cells: Vec::new() });
        let ok = self.apply(&mut handler, grid);
        self.handlers[h] = handler;
        ok
    }

    pub(super) fn apply(&mut self, handler: &mut Handler, grid: &mut [Mask; MAX_CELLS]) -> bool {
        match handler {
            Handler::Binary { a, b, forward, backward } => {
                let (a, b) = (*a as usize, *b as usize);
                let mut allowed_b = 0;
                let mut m = grid[a];
                while m != 0 {
                    allowed_b |= forward[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                if !self.restrict(grid, b, allowed_b) {
                    return false;
                }
                let mut allowed_a = 0;
                let mut m = grid[b];
                while m != 0 {
                    allowed_a |= backward[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                self.restrict(grid, a, allowed_a)
            }
            Handler::Sum { cells, coefs, ends, target, stated } => {
                self.sum(grid, &super::sums::WeightedSum { cells, coefs, ends, target: *target }, *stated)
            }
            Handler::Combos { cells, combos, rest } => self.cage(grid, cells, combos, rest),
            Handler::Thermo { cells } => {
                if cells.is_empty() {
                    return true;
                }
                let mut floor = min_value(grid[cells[0] as usize]);
                for &c in &cells[1..] {
                    if !self.restrict(grid, c as usize, range_mask(floor + 1, 16)) {
                        return false;
                    }
                    floor = min_value(grid[c as usize]);
                }
                let mut ceiling = max_value(grid[cells[cells.len() - 1] as usize]);
                for &c in cells[..cells.len() - 1].iter().rev() {
                    if !self.restrict(grid, c as usize, range_mask(1, ceiling - 1)) {
                        return false;
                    }
                    ceiling = max_value(grid[c as usize]);
                }
                true
            }
            Handler::Renban { cells } if cells.len() <= renban::MAX_MATCHED => {
                let k = cells.len();
                let mut cands = [0 as Mask; renban::MAX_MATCHED];
                for (m, &c) in cands.iter_mut().zip(cells.iter()) {
                    *m = grid[c as usize];
                }
                let mut allowed = [0 as Mask; renban::MAX_MATCHED];
                let windows = renban::line_windows(&cands[..k], &mut allowed);
                if windows == 0 {
                    return false;
                }
                if !cells.iter().zip(&allowed).all(|(&c, &a)| self.restrict(grid, c as usize, a)) {
                    return false;
                }
                // The values between the last window's start and the first
                // window's end lie in every window.
                let (first, last) = (windows.trailing_zeros() as i32, 31 - windows.leading_zeros() as i32);
                let required = range_mask(last + 1, first + k as i32);
                self.place_required(grid, cells, required) && self.exclude_required(grid, cells, required)
            }
            Handler::Renban { cells } => {
                // Too long to match (grids above 10x10): windows where every
                // cell has a value and together they cover it.
                let k = cells.len() as i32;
                let (mut allowed, mut required, mut any) = (0 as Mask, Mask::MAX, false);
                for lo in 1..=self.size as i32 - k + 1 {
                    let window = range_mask(lo, lo + k - 1);
                    let mut covered = 0;
                    let fits = cells.iter().all(|&c| {
                        covered |= grid[c as usize] & window;
                        grid[c as usize] & window != 0
                    });
                    if fits && covered == window {
                        allowed |= window;
                        required &= window;
                        any = true;
                    }
                }
                if !any || !cells.iter().all(|&c| self.restrict(grid, c as usize, allowed)) {
                    return false;
                }
                self.place_required(grid, cells, required) && self.exclude_required(grid, cells, required)
            }
            Handler::Between { a, b, mids } => {
                let ends = grid[*a as usize] | grid[*b as usize];
                let inside = range_mask(min_value(ends) + 1, max_value(ends) - 1);
                let mut fixed = 0;
                for &c in mids.iter() {
                    if !self.restrict(grid, c as usize, inside) {
                        return false;
                    }
                    if grid[c as usize].count_ones() == 1 {
                        fixed |= grid[c as usize];
                    }
                }
                if fixed != 0 {
                    let span = !range_mask(min_value(fixed), max_value(fixed));
                    return self.restrict(grid, *a as usize, span) && self.restrict(grid, *b as usize, span);
                }
                true
            }
            Handler::Lockout { a, b, mids } => {
                let (ea, eb) = (grid[*a as usize], grid[*b as usize]);
                let (small, large) = if min_value(ea) >= max_value(eb) {
                    (eb, ea)
                } else if min_value(eb) >= max_value(ea) {
                    (ea, eb)
                } else {
                    return true;
                };
                let outside = range_mask(1, max_value(small) - 1) | range_mask(min_value(large) + 1, 16);
                mids.iter().all(|&c| self.restrict(grid, c as usize, outside))
            }
            Handler::Required { cells, needs } => {
                for &(bit, count) in needs.iter() {
                    let places = cells.iter().filter(|&&c| grid[c as usize] & bit != 0).count();
                    if places < count as usize {
                        return false;
                    }
                    if places == count as usize {
                        for &c in cells.iter() {
                            if grid[c as usize] & bit != 0 && !self.restrict(grid, c as usize, bit) {
                                return false;
                            }
                        }
                    }
                }
                true
            }
            Handler::Line(rule) => {
                let snapshot = *grid;
                let mut ok = true;
                let mut narrowed: [Mask; 16 * 16] = [Mask::MAX; MAX_CELLS];
                let keeps = rule.propagate(&snapshot[..], |cell, mask| {
                    narrowed[cell] &= mask;
                    snapshot[cell] & mask != 0
                });
                if !keeps {
                    return false;
                }
                for &c in rule.cells.iter() {
                    ok &= self.restrict(grid, c as usize, narrowed[c as usize]);
                    if !ok {
                        break;
                    }
                }
                ok
            }
        }
    }

    /// Each value of `required` must appear among `cells`: one with no
    /// place is a contradiction, one with a single place goes there.
    pub(super) fn place_required(&mut self, grid: &mut [Mask; MAX_CELLS], cells: &[u8], required: Mask) -> bool {
        let mut need = required;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need &= need - 1;
            let mut places = cells.iter().filter(|&&c| grid[c as usize] & bit != 0);
            match (places.next(), places.next()) {
                (None, _) => return false,
                (Some(&c), None) if !self.restrict(grid, c as usize, bit) => return false,
                _ => {}
            }
        }
        true
    }
}
