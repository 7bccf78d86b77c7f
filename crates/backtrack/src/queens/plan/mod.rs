//! Cutting the symmetry-reduced count into independent subproblems.
//!
//! # Which placements are searched
//!
//! The eight symmetries of the square (the group D4) act on solutions. For
//! `n >= 2` no solution is kept by a reflection (a solution symmetric about a
//! diagonal would pair queens `(i, j)` and `(j, i)` on one anti-diagonal, and
//! one symmetric about a middle line would repeat a row or column), so a
//! class has 8 members, 4 (kept by the half turn) or 2 (kept by the quarter
//! turn). The count visits one representative per class and adds the class
//! size:
//!
//! * **A queen in a corner.** Only one corner can hold a queen, and only the
//!   identity and the main-diagonal transpose keep the top-left corner, so
//!   such classes have 8 members, two of them with the queen at the top
//!   left. The search puts the top queen in column 0 and keeps the member
//!   whose second-row queen (column `s`) lies above the queen of column 1,
//!   i.e. rows `2..=s` avoid column 1.
//! * **No corner queen.** Measure each of the four edge queens' distance to
//!   the nearer corner along its edge; the class's representative candidates
//!   are the images whose top queen is in column `b`, the smallest distance
//!   (always below the middle: the four edge queens of an odd board cannot
//!   all sit at the centres). So the search puts the top queen in column
//!   `b < n-1-b`, keeps the side columns' queens in rows `b..=n-1-b` and the
//!   bottom queen in columns `b..=n-1-b`. Usually no other edge queen is at
//!   distance `b` and the placement is the class's only visited member; on a
//!   tie the leaf compares the few visited images and keeps the smallest.
//!
//! A subproblem is a prefix of such a placement: the columns of its first
//! `depth` rows. Their searches are independent and their counts add up.

mod checkpoint;
mod merge;
mod run;
mod shard;

pub use crate::plan::{CheckpointError, CheckpointSaving, MAX_CHECKPOINT_BYTES};
pub use checkpoint::Checkpoint;
pub use merge::{merge_reports, read_reports, MergeError, Merged};
pub use run::{Engine, Run, RunError};
pub use shard::{Report, ReportFormat, Shard, ShardError};

use crate::search::Control;

use super::kernel::{Constraints, MAX_N};
use super::{Counts, SizeError};

/// Identifies the subproblem lists: results are only combined (resumed,
/// merged) between runs whose plans carry the same version, board size and
/// depth. Change it whenever the way plans are built changes.
pub const PLAN_VERSION: u32 = 1;

/// Longest prefix a subproblem may have.
pub const MAX_DEPTH: usize = 8;

/// One independent piece of the count: the queens' columns (0-based) in the
/// first rows of a canonical placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subproblem {
    len: u8,
    cols: [u8; MAX_DEPTH],
}

impl Subproblem {
    /// The 0-based columns of the prefix's rows, top row first.
    pub fn columns(&self) -> &[u8] {
        &self.cols[..self.len as usize]
    }

    fn from_columns(cols: &[u8]) -> Self {
        let mut s = Subproblem { len: cols.len() as u8, cols: [0; MAX_DEPTH] };
        s.cols[..cols.len()].copy_from_slice(cols);
        s
    }
}

/// The subproblems of one board size, in a fixed order. The same `n` and
/// `depth` always give the same list, so an index names the same work in
/// every process: that is what checkpoints, shards and MPI ranks rely on.
#[derive(Clone, Debug)]
pub struct Plan {
    n: usize,
    depth: usize,
    subproblems: Vec<Subproblem>,
}

/// The prefix length [`Plan::new`] uses: enough subproblems (hundreds to
/// tens of thousands) to balance many threads or cluster nodes, few enough
/// that each one is worth scheduling.
pub fn default_depth(n: usize) -> usize {
    match n {
        0..=17 => 3,
        18..=23 => 4,
        _ => 5,
    }
}

impl Plan {
    /// The plan for an `n`-queens count with the [default depth](default_depth).
    pub fn new(n: usize) -> Result<Plan, SizeError> {
        Plan::with_depth(n, default_depth(n))
    }

    /// The plan whose subproblems fix the first `depth` rows (clamped to
    /// `2..=`[`MAX_DEPTH`] and to `n`).
    pub fn with_depth(n: usize, depth: usize) -> Result<Plan, SizeError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(SizeError(n));
        }
        let depth = depth.clamp(2, MAX_DEPTH).min(n);
        let mut subproblems = Vec::new();
        if n == 1 {
            subproblems.push(Subproblem::from_columns(&[0]));
        } else {
            let mut prefix = Vec::with_capacity(depth);
            // Corner classes: top queen in column 0, second-row queen in `s`.
            for second in 2..n as u8 {
                let head = [0, second];
                if let Some(c) = Constraints::new(n, &head) {
                    prefix.clear();
                    prefix.extend_from_slice(&head);
                    extend(&c, depth, &mut prefix, &mut subproblems);
                }
            }
            // Classes without a corner queen: top queen at distance `b`.
            for top in 1..n as u8 {
                if let Some(c) = Constraints::new(n, &[top]) {
                    prefix.clear();
                    prefix.push(top);
                    extend(&c, depth, &mut prefix, &mut subproblems);
                }
            }
        }
        Ok(Plan { n, depth, subproblems })
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Rows fixed by each subproblem (shorter only where the board is).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Number of subproblems.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// Whether there are no subproblems (boards of size 2 and 3).
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }

    /// The plan's name in the hello of an MPI worker ([`wire::plan_id`](crate::plan::wire::plan_id)):
    /// the board, the depth, the number of subproblems and [`PLAN_VERSION`].
    pub fn id(&self) -> u128 {
        crate::plan::wire::plan_id(&format!("queens {PLAN_VERSION} {} {} {}", self.n, self.depth, self.len()))
    }

    /// Every subproblem, in plan order.
    pub fn subproblems(&self) -> &[Subproblem] {
        &self.subproblems
    }

    /// Counts subproblem `index`: solutions (each class weighted by its
    /// size) and classes.
    pub fn solve(&self, index: usize) -> Counts {
        self.solve_cancellable(index, None).unwrap_or_default()
    }

    /// Like [`solve`](Plan::solve), but gives up (`None`) soon after
    /// `control` is cancelled.
    pub fn solve_cancellable(&self, index: usize, control: Option<&Control>) -> Option<Counts> {
        if let Some(cpu) = super::lanes::available(self.n) {
            return super::lanes::solve_one(cpu, self, index, control);
        }
        self.solve_scalar(index, control)
    }

    /// [`solve_cancellable`](Plan::solve_cancellable) with the scalar
    /// kernel (one search at a time), whatever the processor has. The
    /// counts are the same; this is the baseline the eight-lane AVX2 walk
    /// that [`solve`](Plan::solve) uses where it can is measured and tested
    /// against.
    pub fn solve_scalar(&self, index: usize, control: Option<&Control>) -> Option<Counts> {
        let cols = self.subproblems[index].columns();
        match Constraints::new(self.n, cols) {
            Some(c) => super::kernel::solve(&c, cols, control),
            None => Some(Counts::default()),
        }
    }
}

/// Appends every canonical prefix of length `depth` (or shorter, when it
/// already fills the board) that extends `prefix`.
fn extend(c: &Constraints, depth: usize, prefix: &mut Vec<u8>, out: &mut Vec<Subproblem>) {
    let row = prefix.len();
    if row == depth || row == c.n {
        out.push(Subproblem::from_columns(prefix));
        return;
    }
    let mut placed = [0u32; MAX_N];
    let Some((left, down, right)) = super::kernel::replay(c, prefix, &mut placed) else {
        return;
    };
    let mut avail = c.available(row, left, down, right);
    while avail != 0 {
        let col = avail.trailing_zeros() as u8;
        avail &= avail - 1;
        prefix.push(col);
        extend(c, depth, prefix, out);
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three workers taking turns over the wire's messages count the whole
    /// board; a plan of another board is another plan.
    #[test]
    fn a_master_and_workers_count_the_board() {
        let plan = Plan::new(9).unwrap();
        assert_ne!(plan.id(), Plan::new(10).unwrap().id());
        let counted = crate::plan::wire::count_in_turns(plan.id(), plan.len(), 3, |i| plan.solve(i));
        assert_eq!(counted, Ok(Counts { total: 352, unique: 46 }));
    }
}
