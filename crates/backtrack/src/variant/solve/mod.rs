//! The variant solver: candidates as bitmasks, propagation per rule, and a
//! depth-first search that picks the cell with the fewest candidates.
//!
//! A [`Solver`] is compiled once per puzzle. It holds:
//!
//! * the **peers** of each cell: the cells that must hold a different value
//!   (rows, columns, boxes, regions, diagonals, windoku boxes, disjoint
//!   sets, knight and king neighbours, cages, renban lines, lunchboxes).
//!   When a cell is down to one value, its peers lose it;
//! * the **houses**: groups of exactly `size` peers, which must hold every
//!   value once; a value with one place left in a house goes there (a
//!   hidden single), a value with none is a contradiction;
//! * the **handlers**, one per rule beyond that, each watching its cells:
//!   binary relations between two cells (whispers, dots, X and V, `>`,
//!   palindromes, modular and entropic lines, anti-consecutive and the
//!   strict negatives) kept as tables of which values of one cell each
//!   value of the other allows; sums (arrows, little killers, zippers,
//!   double and pill arrows, region sum lines) narrowed by bounds, and
//!   exactly once three cells or fewer are open; cages with a sum narrowed
//!   by their value combinations together with the rest of their house
//!   (see [`sums`]); the sums the houses imply, innies and outies (see
//!   [`innies`]); thermometers by a forward and a backward
//!   pass; renban lines by the windows of consecutive values that fit,
//!   each cell keeping the values some fitting window can match it to
//!   (see [`renban`]; a value every window holds leaves the cells that see
//!   all its places on the line);
//!   between and lockout lines by their ends; quads by counting places;
//!   and the [line automata](super::line).
//!
//! Propagation runs to a fixpoint: a changed cell queues its watching
//! handlers, a cell fixed to a value clears it from its peers, and when the
//! queues run dry, hidden singles are placed and then, where two houses
//! cross (a box and a row), the rest of each is kept to the values the
//! rest of the other can hold (pointing and claiming). Every handler is
//! exact once its cells are fixed, so what the search reaches with every
//! cell fixed is a solution.
//!
//! The search copies the candidate array (a fixed-size array on the stack)
//! at each level, so nothing is allocated while it runs. It branches on the
//! cell with the highest conflict score (failed branches, decayed, starting
//! from the weight of the rules on the cell) per candidate, cells holding
//! the value that failed most often lately being favoured; when that cell
//! has more than two values, a value with two places left in a house can
//! be the branch instead: the value in its busier place, or else in the
//! other, whose failure then counts against that other place.
//!
//! The parts: [`compile`] turns a puzzle into peers, houses and handlers,
//! with [`innies`] deriving sums from houses; [`handler`] narrows the
//! cells of one rule, [`sums`] those of cages and sums, [`renban`] the
//! windows of renban lines; [`propagate`] runs
//! the handlers and singles to a fixpoint; [`search`] branches.

mod compile;
mod handler;
mod innies;
mod propagate;
mod renban;
mod search;
mod sums;

use super::model::{Mask, MAX_CELLS};
use crate::search::Control;
use handler::Handler;

/// Conflicts between two halvings of the conflict scores.
const DECAY_EVERY: u64 = 1 << 14;

/// A compiled puzzle, ready to answer any number of questions about it.
#[derive(Debug, Clone)]
pub struct Solver {
    size: usize,
    cells: usize,
    start: [Mask; MAX_CELLS],
    /// A rule that no assignment can keep was found while compiling.
    impossible: bool,
    /// A classic 9x9 grid (rows, columns, 3x3 boxes, no other rule):
    /// counts go to the classic kernel, started from the candidates.
    classic: bool,
    /// Peers of cell `c`: `peers[peer_first[c]..peer_first[c + 1]]`.
    peer_first: Vec<u32>,
    peers: Vec<u8>,
    /// Peers of cell `c` as a set, one bit per cell.
    peer_sets: Vec<[u64; 4]>,
    /// Houses, `size` cells each, one after another.
    houses: Vec<u8>,
    /// Pairs of houses meeting in two cells or more, as the cells of each
    /// outside the other: both parts must hold the same values.
    crossings: Vec<(Vec<u8>, Vec<u8>)>,
    handlers: Vec<Handler>,
    /// Handlers watching cell `c`: `watchers[watch_first[c]..watch_first[c + 1]]`.
    watch_first: Vec<u32>,
    watchers: Vec<u32>,
    // Scratch, reused by every propagation.
    queued: Vec<bool>,
    queue: Vec<u32>,
    singles: Vec<u8>,
    score: Vec<u32>,
    /// Failed branches per value, decayed faster than the cells' scores.
    value_score: [u32; 16],
    conflicts: u64,
    guesses: u64,
    /// Polled at every guess: once cancelled, the search ends as if its
    /// visitor had said stop.
    control: Option<Control>,
}

/// How a count ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// Whether that is every solution (not cut short by the limit).
    pub complete: bool,
    /// The first solution found.
    pub first: Option<Vec<u8>>,
}

/// True candidates: the values each cell holds in at least one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrueCandidates {
    /// Per cell, the values it holds in some solution (0: no solution at all).
    pub masks: Vec<Mask>,
    /// Solutions counted, at most the limit.
    pub solutions: u64,
    /// Whether `solutions` is every solution.
    pub complete: bool,
}

impl TrueCandidates {
    /// Per cell, row by row, its values, smallest first (none when the
    /// puzzle has no solution).
    pub fn values(&self) -> Vec<Vec<u8>> {
        self.masks.iter().map(|&m| (1..=16u8).filter(|v| m & (1 << (v - 1)) != 0).collect()).collect()
    }
}

/// Values `lo..=hi` (clamped to 1..=16) as a mask.
pub(super) fn range_mask(lo: i32, hi: i32) -> Mask {
    let (lo, hi) = (lo.max(1), hi.min(16));
    if lo > hi {
        return 0;
    }
    ((((1u32 << (hi - lo + 1)) - 1) << (lo - 1)) & 0xffff) as Mask
}

/// The sum of the `count` smallest values of `m`, or `None` when it has fewer.
pub(super) fn smallest(mut m: Mask, count: usize) -> Option<i32> {
    let mut total = 0;
    for _ in 0..count {
        if m == 0 {
            return None;
        }
        total += m.trailing_zeros() as i32 + 1;
        m &= m - 1;
    }
    Some(total)
}

/// The sum of the `count` largest values of `m`, or `None` when it has fewer.
pub(super) fn largest(mut m: Mask, count: usize) -> Option<i32> {
    let mut total = 0;
    for _ in 0..count {
        if m == 0 {
            return None;
        }
        let top = 15 - m.leading_zeros() as i32;
        total += top + 1;
        m &= !(1 << top);
    }
    Some(total)
}

pub(super) fn min_value(m: Mask) -> i32 {
    m.trailing_zeros() as i32 + 1
}

pub(super) fn max_value(m: Mask) -> i32 {
    16 - m.leading_zeros() as i32
}

impl Solver {
    /// Makes every later search stop soon after `control` is cancelled
    /// (by another thread, a Ctrl-C handler): it then ends as if its
    /// visitor had said stop, so what it returns (a count, the candidates)
    /// is partial and should be dropped.
    pub fn set_control(&mut self, control: Control) {
        self.control = Some(control);
    }

    /// Whether the control, if any, was cancelled.
    fn cancelled(&self) -> bool {
        self.control.as_ref().is_some_and(Control::is_cancelled)
    }

    /// The grid's side: values run from 1 to this.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Guesses made so far: the times the search chose a value for a cell
    /// among two or more candidates.
    pub fn guesses(&self) -> u64 {
        self.guesses
    }
}
