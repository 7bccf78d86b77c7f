//! Exact cover with colors (Knuth's Algorithm C semantics), read from Knuth's format.
//!
//! A [`Problem`] has *primary* items, which a solution must cover exactly
//! once, *secondary* items, which it may cover at most once, and *options*,
//! each a set of items. A secondary item in an option may carry a *color*;
//! several chosen options may share a secondary item when they all give it
//! the same color. Problems come from the [`Builder`] or from Knuth's
//! DLX1/DLX2 text format ([`parse`]).
//!
//! Solving goes through the project's [search core](crate::search):
//! [`Problem::space`] gives an [`XcoverSpace`], a [`Space`] whose choices are
//! option indices and whose solutions are the chosen options in the order
//! they were chosen. At every node the space branches on the primary item
//! with the fewest live options (ties go to the item declared first), trying
//! its options in input order. So first solution, counting with a limit,
//! streaming all solutions, statistics, cancellation and parallel runs
//! ([`par_count`](crate::search::par_count),
//! [`par_for_each`]) all work as for any other
//! space. Under [`Order::Lexicographic`] the space branches on the first
//! uncovered primary item instead, so solutions come out in increasing
//! lexicographic order of their option sequences.
//!
//! Three engines sit behind [`XcoverSpace`], chosen by problem size:
//!
//! * [`SmallSpace`] keeps the live options as a bitset of at most 256 bits
//!   and nothing else: a choice is four word operations, and an item's
//!   number of live options is counted when needed with a popcount; for
//!   problems of up to [`small::MAX_OPTIONS`] options and
//!   [`small::MAX_PRIMARY`] primary items.
//! * [`DenseSpace`] keeps the live options as a bitset and a precomputed
//!   conflict row per option (colors included), so a choice costs a few word
//!   operations per 64 options plus a counter update per removed option; it
//!   takes problems of up to [`dense::MAX_OPTIONS`] options, and is the
//!   faster engine when options and primary items are few (see [`dense::suits`]).
//! * [`LinksSpace`] is dancing links, whose cost per choice depends only on
//!   the entries it touches: for large sparse problems.
//! * [`MccSpace`] solves problems whose primary items carry bounds (Knuth's
//!   multiple covers, MCC: `a:b|name` on the item line); it is chosen
//!   whenever some item's bounds are not `1:1`, whatever engine was asked
//!   for, and counts each set of options once. Problems of up to
//!   [`mcc_bits::MAX_OPTIONS`] options run its search on bitsets
//!   ([`MccBitsSpace`]), larger ones on option lists; a count of a problem
//!   of at most 256 options and 64 primary items walks the same tree on
//!   popcounts (`mcc_pop`), keeping no per-item counters.
//!
//! Options may also carry costs (Knuth's DLX5): [`cost::best`] finds the
//! cheapest solutions by branch and bound.
//!
//! ```
//! use backtrack::search::Search;
//! use backtrack::xcover::Problem;
//!
//! # fn main() -> Result<(), backtrack::xcover::XcoverError> {
//! // Tile a 2x3 board with dominoes: cells are primary items.
//! let mut b = Problem::builder();
//! b.primary_items(["a1", "a2", "a3", "b1", "b2", "b3"])?;
//! for pair in [["a1", "a2"], ["a2", "a3"], ["b1", "b2"], ["b2", "b3"], ["a1", "b1"], ["a2", "b2"], ["a3", "b3"]] {
//!     b.option(pair)?;
//! }
//! let problem = b.build()?;
//! assert_eq!(problem.count(None), 3);
//! let mut search = Search::new(problem.space());
//! let first = search.first().unwrap();
//! assert!(problem.is_solution(&first));
//! # Ok(()) }
//! ```

pub mod cost;
mod count;
pub mod dense;
mod dense_pop;
mod item_index;
pub mod links;
pub mod mcc;
pub mod mcc_bits;
mod mcc_pop;
mod parse;
pub mod plan;
mod popcount_rows;
mod problem;
#[cfg(test)]
mod random_problems;
pub mod small;
pub mod sudoku;

use std::ops::ControlFlow;

pub use dense::{DenseBranch, DenseSpace};
pub use links::{LinksBranch, LinksSpace};
pub use mcc::{MccBranch, MccSpace};
pub use mcc_bits::{MccBitsBranch, MccBitsSpace};
pub use parse::{parse, Parsed, MAX_NAME_LEN};
pub use problem::{Builder, Entry, Problem, XcoverError};
pub use small::{SmallBranch, SmallSpace};

use crate::search::{par_for_each, Control, Node, Order, Search, Space, Stats, ThreadStartError, Threads};
use count::CountHere;

/// Which engine runs a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// The popcount engine when the problem fits it ([`small::fits`]), else the
    /// bitset engine when the problem is small enough for it to be the faster
    /// one (see [`dense::suits`]), dancing links otherwise.
    #[default]
    Auto,
    /// The popcount engine ([`SmallSpace`]); falls back to [`Engine::Dense`] when the problem does not fit.
    Small,
    /// The bitset engine ([`DenseSpace`]); falls back to links when the problem is too large for it.
    Dense,
    /// Dancing links ([`LinksSpace`]).
    Links,
    /// The multiple-cover engine ([`MccSpace`]); problems with bounds other than `1:1` always run on it.
    Mcc,
}

impl Engine {
    /// The engine's name, as a command line spells it: `auto`, `small`, `dense`, `links` or `mcc`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Small => "small",
            Engine::Dense => "dense",
            Engine::Links => "links",
            Engine::Mcc => "mcc",
        }
    }
}

/// A search position of either engine. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct XcoverSpace {
    inner: Inner,
}

#[derive(Debug, Clone)]
enum Inner {
    Small1(SmallSpace<1>),
    Small2(SmallSpace<2>),
    Small3(SmallSpace<3>),
    Small4(SmallSpace<4>),
    Dense(DenseSpace),
    Links(LinksSpace),
    Mcc(MccSpace),
    MccBits(MccBitsSpace),
}

/// Cursor over the alternatives at one node of an [`XcoverSpace`].
#[derive(Debug, Clone, Copy)]
pub struct XcoverBranch(BranchInner);

#[derive(Debug, Clone, Copy)]
enum BranchInner {
    Small(SmallBranch),
    Dense(DenseBranch),
    Links(LinksBranch),
    Mcc(MccBranch),
    MccBits(MccBitsBranch),
}

impl XcoverSpace {
    /// The root of `problem`'s search on `engine` ([`Engine::Mcc`] when the
    /// problem has multiplicities, whatever `engine` says).
    pub fn new(problem: &Problem, engine: Engine) -> Self {
        if engine == Engine::Mcc || problem.has_multiplicities() {
            let inner = match MccBitsSpace::new(problem) {
                Some(bits) => Inner::MccBits(bits),
                None => Inner::Mcc(MccSpace::new(problem)),
            };
            return XcoverSpace { inner };
        }
        let small = || match problem.n_options().div_ceil(64) {
            0 | 1 => SmallSpace::new(problem).map(Inner::Small1),
            2 => SmallSpace::new(problem).map(Inner::Small2),
            3 => SmallSpace::new(problem).map(Inner::Small3),
            4 => SmallSpace::new(problem).map(Inner::Small4),
            _ => None,
        };
        let dense = || match DenseSpace::new(problem) {
            Some(dense) => Inner::Dense(dense),
            None => Inner::Links(LinksSpace::new(problem)),
        };
        let inner = match engine {
            Engine::Links => Inner::Links(LinksSpace::new(problem)),
            Engine::Small => small().unwrap_or_else(dense),
            Engine::Auto => match small() {
                Some(inner) => inner,
                None if dense::suits(problem) => dense(),
                None => Inner::Links(LinksSpace::new(problem)),
            },
            Engine::Dense => dense(),
            Engine::Mcc => unreachable!("handled above"),
        };
        XcoverSpace { inner }
    }
    /// The engine actually in use: [`Engine::Small`], [`Engine::Dense`], [`Engine::Links`] or [`Engine::Mcc`].
    pub fn engine(&self) -> Engine {
        match self.inner {
            Inner::Small1(_) | Inner::Small2(_) | Inner::Small3(_) | Inner::Small4(_) => Engine::Small,
            Inner::Dense(_) => Engine::Dense,
            Inner::Links(_) => Engine::Links,
            Inner::Mcc(_) | Inner::MccBits(_) => Engine::Mcc,
        }
    }
    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        match &self.inner {
            Inner::Small1(s) => s.chosen(),
            Inner::Small2(s) => s.chosen(),
            Inner::Small3(s) => s.chosen(),
            Inner::Small4(s) => s.chosen(),
            Inner::Dense(s) => s.chosen(),
            Inner::Links(s) => s.chosen(),
            Inner::Mcc(s) => s.chosen(),
            Inner::MccBits(s) => s.chosen(),
        }
    }
}

/// Work to run on the concrete engine behind an [`XcoverSpace`], so that the
/// search loop is compiled for that engine alone: its per-node calls are then
/// inlined instead of going through a match on the engine at every call.
trait OnEngine {
    type Output;
    fn run<S>(self, space: &mut S) -> Self::Output
    where
        S: CountHere;
}

impl XcoverSpace {
    fn on_engine<V: OnEngine>(&mut self, work: V) -> V::Output {
        match &mut self.inner {
            Inner::Small1(s) => work.run(s),
            Inner::Small2(s) => work.run(s),
            Inner::Small3(s) => work.run(s),
            Inner::Small4(s) => work.run(s),
            Inner::Dense(s) => work.run(s),
            Inner::Links(s) => work.run(s),
            Inner::Mcc(s) => work.run(s),
            Inner::MccBits(s) => work.run(s),
        }
    }

    /// The bytes a copy of this position takes: the state its choices change.
    /// The tables they do not change are shared by every copy.
    pub fn copy_bytes(&self) -> usize {
        match &self.inner {
            Inner::Small1(s) => s.copy_bytes(),
            Inner::Small2(s) => s.copy_bytes(),
            Inner::Small3(s) => s.copy_bytes(),
            Inner::Small4(s) => s.copy_bytes(),
            Inner::Dense(s) => s.copy_bytes(),
            Inner::Links(s) => s.copy_bytes(),
            Inner::Mcc(s) => s.copy_bytes(),
            Inner::MccBits(s) => s.copy_bytes(),
        }
    }

    /// The threads that [`count_solutions`](Self::count_solutions) and
    /// [`for_each_solution`](Self::for_each_solution) run on when asked for
    /// `threads`. Each thread walks its own copy of this
    /// position ([`copy_bytes`](Self::copy_bytes)); where the copies for
    /// every thread would take more than 64 MiB together, fewer threads run
    /// (at least one), so that memory is bounded by the problem's size
    /// whatever the thread count.
    pub fn threads_for(&self, threads: Threads) -> Threads {
        count::threads_for(self.copy_bytes(), threads)
    }

    /// Counts the solutions below this position on `threads` threads (see
    /// [`threads_for`](Self::threads_for)), stopping once
    /// `limit` are found or when `control` is cancelled; returns the count
    /// and the walk's statistics. The same as [`Search::count`] or
    /// [`par_count`](crate::search::par_count) on this space, only faster and
    /// in less memory: the popcount engine counts with a loop of its own, a
    /// count on one thread walks this position itself (it is back where it
    /// was when the count ends), and each of several threads walks one copy.
    pub fn count_solutions(
        &mut self,
        limit: Option<u64>,
        threads: Threads,
        control: &Control,
    ) -> Result<(u64, Stats), ThreadStartError> {
        struct Count<'a> {
            limit: Option<u64>,
            copy_bytes: usize,
            threads: Threads,
            control: &'a Control,
        }
        impl OnEngine for Count<'_> {
            type Output = Result<(u64, Stats), ThreadStartError>;
            fn run<S>(self, space: &mut S) -> Result<(u64, Stats), ThreadStartError>
            where
                S: CountHere,
            {
                count::count(space, self.copy_bytes, self.limit, self.threads, self.control)
            }
        }
        self.on_engine(Count { limit, copy_bytes: self.copy_bytes(), threads, control })
    }

    /// Counts the solutions below this position on one thread, as
    /// [`count_solutions`](Self::count_solutions) does, and gives the walk's
    /// level profile too: entry `d` is the number of nodes at depth `d` (the
    /// root, at depth 0, is one node; a node at depth `d` has `d` choices
    /// above it), as Knuth's programs print it. The profile's entries past
    /// the first add up to the statistics' nodes.
    pub fn profile(&self, limit: Option<u64>, control: &Control) -> (u64, Stats, Vec<u64>) {
        struct Levels(Vec<u64>);
        impl<S: Space> crate::search::Observer<S> for Levels {
            fn pushed(&mut self, _space: &S, _choice: S::Choice, depth: usize, accepted: bool) {
                if accepted {
                    if self.0.len() <= depth + 1 {
                        self.0.resize(depth + 2, 0);
                    }
                    self.0[depth + 1] += 1;
                }
            }
        }
        let limit = limit.unwrap_or(u64::MAX);
        let mut search = Search::new(self.clone()).control(control.clone()).observe(Levels(vec![1]));
        let mut count = 0u64;
        search.walk(|_| {
            count += 1;
            if count >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let stats = search.stats();
        (count, stats, search.into_observer().0)
    }

    /// Hands every solution below this position to `visit`, in the order of a
    /// sequential search, until it returns `Break`; searches on `threads`
    /// threads (see [`threads_for`](Self::threads_for)). A
    /// single-threaded walk also stops when `control` is cancelled. Returns
    /// the walk's statistics.
    pub fn for_each_solution(
        &self,
        threads: Threads,
        control: &Control,
        visit: impl FnMut(Vec<usize>) -> ControlFlow<()>,
    ) -> Result<Stats, ThreadStartError> {
        struct Each<'a, F> {
            threads: Threads,
            control: &'a Control,
            visit: F,
        }
        impl<F: FnMut(Vec<usize>) -> ControlFlow<()>> OnEngine for Each<'_, F> {
            type Output = Result<Stats, ThreadStartError>;
            fn run<S>(self, space: &mut S) -> Result<Stats, ThreadStartError>
            where
                S: CountHere,
            {
                if self.threads != Threads::ONE {
                    par_for_each(&*space, Order::Heuristic, self.threads, self.visit)
                } else {
                    let mut search = Search::new(count::Lent(space)).control(self.control.clone());
                    search.for_each(self.visit);
                    Ok(search.stats())
                }
            }
        }
        let threads = self.threads_for(threads);
        self.clone().on_engine(Each { threads, control, visit })
    }
}

impl Space for XcoverSpace {
    type Branch = XcoverBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    #[inline]
    fn expand(&mut self, order: Order) -> Node<XcoverBranch> {
        let wrap = |node: Node<BranchInner>| match node {
            Node::Branch(b) => Node::Branch(XcoverBranch(b)),
            Node::Solution => Node::Solution,
            Node::Dead => Node::Dead,
        };
        let small = |node: Node<SmallBranch>| match node {
            Node::Branch(b) => Node::Branch(XcoverBranch(BranchInner::Small(b))),
            Node::Solution => Node::Solution,
            Node::Dead => Node::Dead,
        };
        match &mut self.inner {
            Inner::Small1(s) => small(s.expand(order)),
            Inner::Small2(s) => small(s.expand(order)),
            Inner::Small3(s) => small(s.expand(order)),
            Inner::Small4(s) => small(s.expand(order)),
            Inner::Dense(s) => wrap(match s.expand(order) {
                Node::Branch(b) => Node::Branch(BranchInner::Dense(b)),
                Node::Solution => Node::Solution,
                Node::Dead => Node::Dead,
            }),
            Inner::Links(s) => wrap(match s.expand(order) {
                Node::Branch(b) => Node::Branch(BranchInner::Links(b)),
                Node::Solution => Node::Solution,
                Node::Dead => Node::Dead,
            }),
            Inner::Mcc(s) => wrap(match s.expand(order) {
                Node::Branch(b) => Node::Branch(BranchInner::Mcc(b)),
                Node::Solution => Node::Solution,
                Node::Dead => Node::Dead,
            }),
            Inner::MccBits(s) => wrap(match s.expand(order) {
                Node::Branch(b) => Node::Branch(BranchInner::MccBits(b)),
                Node::Solution => Node::Solution,
                Node::Dead => Node::Dead,
            }),
        }
    }

    #[inline(always)]
    fn next_choice(&mut self, branch: &mut XcoverBranch) -> Option<usize> {
        match (&mut self.inner, &mut branch.0) {
            (Inner::Small1(s), BranchInner::Small(b)) => s.next_choice(b),
            (Inner::Small2(s), BranchInner::Small(b)) => s.next_choice(b),
            (Inner::Small3(s), BranchInner::Small(b)) => s.next_choice(b),
            (Inner::Small4(s), BranchInner::Small(b)) => s.next_choice(b),
            (Inner::Dense(s), BranchInner::Dense(b)) => s.next_choice(b),
            (Inner::Links(s), BranchInner::Links(b)) => s.next_choice(b),
            (Inner::Mcc(s), BranchInner::Mcc(b)) => s.next_choice(b),
            (Inner::MccBits(s), BranchInner::MccBits(b)) => s.next_choice(b),
            _ => None,
        }
    }

    #[inline]
    fn push(&mut self, option: usize) -> bool {
        match &mut self.inner {
            Inner::Small1(s) => s.push(option),
            Inner::Small2(s) => s.push(option),
            Inner::Small3(s) => s.push(option),
            Inner::Small4(s) => s.push(option),
            Inner::Dense(s) => s.push(option),
            Inner::Links(s) => s.push(option),
            Inner::Mcc(s) => s.push(option),
            Inner::MccBits(s) => s.push(option),
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        match &mut self.inner {
            Inner::Small1(s) => s.pop(),
            Inner::Small2(s) => s.pop(),
            Inner::Small3(s) => s.pop(),
            Inner::Small4(s) => s.pop(),
            Inner::Dense(s) => s.pop(),
            Inner::Links(s) => s.pop(),
            Inner::Mcc(s) => s.pop(),
            Inner::MccBits(s) => s.pop(),
        }
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen().to_vec()
    }

    #[inline]
    fn take_completing(&mut self, branch: &mut XcoverBranch) -> u64 {
        match (&mut self.inner, &mut branch.0) {
            (Inner::Small1(s), BranchInner::Small(b)) => s.take_completing(b),
            (Inner::Small2(s), BranchInner::Small(b)) => s.take_completing(b),
            (Inner::Small3(s), BranchInner::Small(b)) => s.take_completing(b),
            (Inner::Small4(s), BranchInner::Small(b)) => s.take_completing(b),
            (Inner::Dense(s), BranchInner::Dense(b)) => s.take_completing(b),
            _ => 0,
        }
    }
}

impl Problem {
    /// The root of this problem's search on the engine that suits its size.
    pub fn space(&self) -> XcoverSpace {
        XcoverSpace::new(self, Engine::Auto)
    }
    /// The root of this problem's search on a given engine.
    pub fn space_on(&self, engine: Engine) -> XcoverSpace {
        XcoverSpace::new(self, engine)
    }
    /// Number of solutions, stopping once `limit` are found.
    pub fn count(&self, limit: Option<u64>) -> u64 {
        let counted = self.space().count_solutions(limit, Threads::ONE, &Control::new());
        counted.expect("one thread starts no other").0
    }
    /// Any one solution (the chosen options, in the order they were chosen).
    pub fn first(&self) -> Option<Vec<usize>> {
        Search::new(self.space()).first()
    }
    /// Every solution, in search order.
    pub fn solve_all(&self) -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        let walked = self.space().for_each_solution(Threads::ONE, &Control::new(), |s| {
            all.push(s);
            ControlFlow::Continue(())
        });
        walked.expect("one thread starts no other");
        all
    }
}
