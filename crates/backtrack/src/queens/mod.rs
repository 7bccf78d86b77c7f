//! N-queens: place `n` queens on an `n`×`n` board so that no two share a
//! row, a column or a diagonal.
//!
//! * [`count`] gives the number of solutions (OEIS A000170) and of solutions
//!   distinct up to rotation and reflection (A002562), from a bitmask search
//!   that visits one representative of each symmetry class and weighs it by
//!   the class size (see [`plan`]). The work is cut into independent
//!   [`Subproblem`]s of a [`Plan`], which [`count_with`] runs on every core
//!   with dynamic load balancing, reporting each result as it completes
//!   (progress bars, checkpoints, cluster shards build on that). On x86-64
//!   processors with AVX2 (boards up to 22) the searches run eight at a time,
//!   one per lane of a vector register, stepping without branches; elsewhere
//!   a scalar kernel does the same count one search at a time
//!   ([`Plan::solve_scalar`]).
//! * [`QueensSpace`] is the same problem as a plain [`Space`](crate::search::Space)
//!   of the search core (rows in order, columns ascending), and
//!   [`write_solutions`] / [`par_write_solutions`] stream every solution as
//!   text in lexicographic order.
//!
//! ```
//! use backtrack::queens;
//! use backtrack::search::Threads;
//!
//! let counts = queens::count(8, Threads::ONE).unwrap();
//! assert_eq!((counts.total, counts.unique), (92, 12));
//! ```

mod all;
pub mod estimate;
pub mod gpu;
mod kernel;
mod lanes;
mod parse;
pub mod plan;
mod space;

pub use all::{lex_prefixes, par_write_solutions, write_solutions, WriteError};
pub use kernel::MAX_N;
pub use parse::parse_board_size;
pub use plan::{Checkpoint, CheckpointError, Plan, Report, ReportFormat, Shard, ShardError, Subproblem, PLAN_VERSION};
pub use space::QueensSpace;

use crate::search::{run_jobs, Control, ThreadStartError, Threads};

/// Solution counts of one board (or of part of its search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Solutions (A000170 for a whole board).
    pub total: u128,
    /// Solutions distinct up to rotation and reflection (A002562 for a whole board).
    pub unique: u128,
}

impl Counts {
    /// Adds another part's counts to these.
    pub fn add(&mut self, other: Counts) {
        self.total += other.total;
        self.unique += other.unique;
    }
}

/// Queens' counts over MPI: the total, then the unique count.
impl crate::plan::wire::Tally for Counts {
    fn to_words(self) -> [u128; 2] {
        [self.total, self.unique]
    }

    fn from_words(words: [u128; 2]) -> Counts {
        Counts { total: words[0], unique: words[1] }
    }

    fn checked_add(self, other: Counts) -> Option<Counts> {
        Some(Counts { total: self.total.checked_add(other.total)?, unique: self.unique.checked_add(other.unique)? })
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(mut self, other: Counts) -> Counts {
        Counts::add(&mut self, other);
        self
    }
}

impl std::iter::Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(iter: I) -> Counts {
        iter.fold(Counts::default(), |a, b| a + b)
    }
}

/// A board size outside `1..=`[`MAX_N`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeError(pub usize);

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "board size {} is out of range: N must be between 1 and {MAX_N}", self.0)
    }
}

impl std::error::Error for SizeError {}

/// Why a count could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountError {
    /// The board size is out of range.
    Size(SizeError),
    /// The threads to count on could not start.
    Threads(ThreadStartError),
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::Size(e) => e.fmt(f),
            CountError::Threads(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CountError {}

impl From<SizeError> for CountError {
    fn from(e: SizeError) -> Self {
        CountError::Size(e)
    }
}

impl From<ThreadStartError> for CountError {
    fn from(e: ThreadStartError) -> Self {
        CountError::Threads(e)
    }
}

/// Counts the solutions of the `n`-queens problem on `threads` threads.
pub fn count(n: usize, threads: Threads) -> Result<Counts, CountError> {
    let plan = Plan::new(n)?;
    let mut counts = Counts::default();
    count_with(&plan, threads, |_| false, None, |_, c| counts.add(c))?;
    Ok(counts)
}

/// Runs the subproblems of `plan` for which `skip` is false on `threads`
/// threads, handing out one subproblem at a time so that
/// uneven subtrees balance, and calls `done` on the calling thread with each
/// finished subproblem's index and counts, in completion order. After
/// `control` is cancelled, running subproblems stop early and are not
/// reported, and no new ones start. If the threads cannot start, no
/// subproblem runs.
pub fn count_with(
    plan: &Plan,
    threads: Threads,
    skip: impl Fn(usize) -> bool + Sync,
    control: Option<&Control>,
    mut done: impl FnMut(usize, Counts),
) -> Result<(), ThreadStartError> {
    let cancelled = || control.is_some_and(|c| c.is_cancelled());
    if let Some(cpu) = lanes::available(plan.n()) {
        return lanes::count_plan(cpu, plan, threads, |i| skip(i) || cancelled(), control, done);
    }
    run_jobs(
        threads,
        plan.subproblems(),
        |i| skip(i) || cancelled(),
        |i, _| plan.solve_cancellable(i, control),
        |i, result| {
            if let Some(counts) = result {
                done(i, counts);
            }
        },
    )
}
