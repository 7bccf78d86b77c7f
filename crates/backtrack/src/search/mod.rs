//! The search core every problem plugs into.
//!
//! A problem describes its search tree by implementing [`Space`]. The core
//! walks that tree depth first with an explicit stack (no recursion, so deep
//! trees cannot overflow the call stack), in one of four [`Mode`]s:
//!
//! * [`Mode::First`]: stop at the first solution the kernel's own heuristic
//!   finds (fastest);
//! * [`Mode::LexFirst`]: stop at the lexicographically smallest solution; the
//!   core asks the space for [`Order::Lexicographic`] branching, under which a
//!   space promises to produce solutions in increasing order;
//! * [`Mode::Count`]: count solutions, optionally stopping once `limit` are
//!   found (a uniqueness check is `Count { limit: Some(2) }`);
//! * [`Mode::All`]: hand every solution to a callback as it is found; nothing
//!   is collected in memory.
//!
//! The walk keeps [`Stats`], polls a [`Control`] for cancellation, and tells
//! an [`Observer`] about every step when one is attached (the default,
//! [`Quiet`], does nothing and compiles away). A search
//! can also be cut into independent subproblems ([`split`](mod@split)) that run on
//! several threads ([`parallel`]), with counts summed and solutions
//! concatenated in the order a sequential search would give.
//!
//! # The protocol between core and space
//!
//! At every node the core calls [`Space::expand`], which says whether the
//! node is a solution, a dead end, or a branching point, and in the last case
//! returns a [`Space::Branch`]: a small cursor over the alternatives (for
//! example a bitmask of candidate digits). The core pulls alternatives one at
//! a time with [`Space::next_choice`], applies each with [`Space::push`], and
//! after exploring it undoes it with [`Space::pop`]. Every `push` is matched
//! by exactly one `pop`, even when `push` reports a contradiction.
//!
//! ```
//! use backtrack::search::{Node, Order, Search, Space};
//!
//! /// All binary strings of length `n` with no two adjacent ones.
//! #[derive(Clone)]
//! struct NoAdjacentOnes { n: usize, bits: Vec<u8> }
//!
//! impl Space for NoAdjacentOnes {
//!     type Branch = u8;            // next bit to try: 0, then 1, then done
//!     type Choice = u8;
//!     type Solution = Vec<u8>;
//!     fn expand(&mut self, _order: Order) -> Node<u8> {
//!         if self.bits.len() == self.n { Node::Solution } else { Node::Branch(0) }
//!     }
//!     fn next_choice(&mut self, next: &mut u8) -> Option<u8> {
//!         while *next < 2 {
//!             let bit = *next;
//!             *next += 1;
//!             if !(bit == 1 && self.bits.last() == Some(&1)) { return Some(bit); }
//!         }
//!         None
//!     }
//!     fn push(&mut self, bit: u8) -> bool { self.bits.push(bit); true }
//!     fn pop(&mut self) { self.bits.pop(); }
//!     fn solution(&self) -> Vec<u8> { self.bits.clone() }
//! }
//!
//! let space = NoAdjacentOnes { n: 5, bits: vec![] };
//! assert_eq!(Search::new(space.clone()).count(None), 13); // Fibonacci
//! assert_eq!(Search::new(space.clone()).count(Some(2)), 2);
//! assert_eq!(Search::new(space).first(), Some(vec![0, 0, 0, 0, 0]));
//! ```

pub mod parallel;
pub mod split;
mod threads;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub use parallel::{
    for_each_chunk_mut, map_in_order, par_count, par_for_each, run_in_order, run_jobs, spawn_all, spawn_scoped,
    thread_pool, Feed, ThreadStartError,
};
pub use split::{deepen_split, replay, split, split_counting, split_into, split_into_counting, Piece};
pub use threads::{Threads, ThreadsError};

/// How a space should order its alternatives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Whatever order finds solutions (or proves there are none) fastest,
    /// e.g. branching on the most constrained variable.
    #[default]
    Heuristic,
    /// Solutions must come out in increasing lexicographic order of
    /// [`Space::solution`], so the first one found is the smallest.
    Lexicographic,
}

/// What [`Space::expand`] found at the current node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node<B> {
    /// The current state is a complete solution.
    Solution,
    /// The current state cannot be extended to a solution.
    Dead,
    /// The current state branches; the cursor enumerates the alternatives.
    Branch(B),
}

/// A search space explored by the core. See the [module docs](self) for the protocol.
pub trait Space {
    /// Cursor over the remaining alternatives at one node.
    type Branch;
    /// One alternative: what [`push`](Space::push) applies.
    type Choice: Copy;
    /// What a solution looks like to the caller.
    type Solution;

    /// Examine the current node. With [`Order::Lexicographic`] the space must
    /// branch so that solutions are met in increasing lexicographic order.
    fn expand(&mut self, order: Order) -> Node<Self::Branch>;
    /// Take the next alternative from `branch`, or `None` when it is exhausted.
    fn next_choice(&mut self, branch: &mut Self::Branch) -> Option<Self::Choice>;
    /// Apply `choice` (and any propagation it triggers). Returns `false` when
    /// that already shows a contradiction. Always matched by one [`pop`](Space::pop).
    fn push(&mut self, choice: Self::Choice) -> bool;
    /// Undo the most recent [`push`](Space::push).
    fn pop(&mut self);
    /// The solution at the current node; called only after `expand` returned
    /// [`Node::Solution`].
    fn solution(&self) -> Self::Solution;
    /// Removes from `branch` the alternatives that each complete a solution
    /// by themselves (pushing one would give a node whose `expand` says
    /// [`Node::Solution`]) and returns how many it removed. Called only when
    /// solutions are merely counted, right after `expand` returned `branch`,
    /// so a space that can see this cheaply saves a push, an expand and a pop
    /// per solution. The default removes nothing.
    fn take_completing(&mut self, _branch: &mut Self::Branch) -> u64 {
        0
    }
}

/// What to search for. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Any one solution.
    First,
    /// The lexicographically smallest solution.
    LexFirst,
    /// Count solutions, stopping early once `limit` are found.
    Count {
        /// Stop after this many solutions (`None`: count them all).
        limit: Option<u64>,
    },
    /// Every solution.
    All,
}

impl Mode {
    /// The branching order and the number of solutions after which this
    /// mode stops (`u64::MAX`: never): [`Order::Lexicographic`] only for
    /// [`Mode::LexFirst`], one solution for the first-solution modes.
    pub fn order_and_limit(self) -> (Order, u64) {
        match self {
            Mode::First => (Order::Heuristic, 1),
            Mode::LexFirst => (Order::Lexicographic, 1),
            Mode::Count { limit } => (Order::Heuristic, limit.unwrap_or(u64::MAX)),
            Mode::All => (Order::Heuristic, u64::MAX),
        }
    }
}

/// Counters kept by the core while it walks a space.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Nodes entered (choices pushed).
    pub nodes: u64,
    /// Nodes that turned out to be dead ends.
    pub dead_ends: u64,
    /// Branching points with two or more alternatives actually tried.
    pub guesses: u64,
    /// Solutions met.
    pub solutions: u64,
}

impl Stats {
    /// Adds another walk's counters to these.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.dead_ends += other.dead_ends;
        self.guesses += other.guesses;
        self.solutions += other.solutions;
    }
}

/// Cancellation shared between a running search and whoever may stop it
/// (a Ctrl-C handler, a deadline, another thread that found the answer).
#[derive(Debug, Clone, Default)]
pub struct Control {
    cancelled: Arc<AtomicBool>,
}

impl Control {
    /// A fresh, not-cancelled control.
    pub fn new() -> Self {
        Self::default()
    }
    /// Ask every search polling this control to stop soon.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
    /// Whether [`cancel`](Control::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// How a walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The whole space was explored.
    Exhausted,
    /// The mode's goal was reached (first solution, count limit) or the callback said stop.
    Stopped,
    /// The [`Control`] was cancelled; the walk is incomplete.
    Cancelled,
}

/// Watches a walk step by step: every choice pushed, every undo, dead end
/// and solution, with the depth where it happens (the number of choices on
/// the path above it). [`trace`](crate::trace) builds its lines from these
/// calls. Every method does nothing by default.
///
/// Under [`Search::walk_counting`], solutions taken in bulk through
/// [`Space::take_completing`] are reported only to the counting callback.
pub trait Observer<S: Space> {
    /// `choice` was pushed below a node at `depth`; `accepted` is what
    /// [`Space::push`] returned. `space` is in the pushed state.
    #[inline(always)]
    fn pushed(&mut self, _space: &S, _choice: S::Choice, _depth: usize, _accepted: bool) {}
    /// The accepted choice below the node at `depth` was popped; `space` is back at that node.
    #[inline(always)]
    fn undone(&mut self, _space: &S, _depth: usize) {}
    /// [`Space::expand`] called the node at `depth` a dead end.
    #[inline(always)]
    fn dead(&mut self, _space: &S, _depth: usize) {}
    /// The node at `depth` has no alternative left to try.
    #[inline(always)]
    fn exhausted(&mut self, _space: &S, _depth: usize) {}
    /// The node at `depth` is a solution.
    #[inline(always)]
    fn solution(&mut self, _space: &S, _depth: usize) {}
}

/// The observer that watches nothing: the default of [`Search`], free at run time.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl<S: Space> Observer<S> for Quiet {}

/// How often (in nodes) the walk polls its [`Control`]. A power of two.
const POLL_INTERVAL: u64 = 1 << 12;

/// Drives one [`Space`]: the depth-first walk with modes, statistics and
/// cancellation, watched by an [`Observer`] (none by default).
#[derive(Debug)]
pub struct Search<S: Space, O: Observer<S> = Quiet> {
    space: S,
    order: Order,
    control: Option<Control>,
    stats: Stats,
    observer: O,
}

impl<S: Space> Search<S> {
    /// A search over `space`, heuristic order, no cancellation, no observer.
    pub fn new(space: S) -> Self {
        Search { space, order: Order::Heuristic, control: None, stats: Stats::default(), observer: Quiet }
    }
}

impl<S: Space, O: Observer<S>> Search<S, O> {
    /// The same search, watched by `observer`.
    pub fn observe<P: Observer<S>>(self, observer: P) -> Search<S, P> {
        let Search { space, order, control, stats, .. } = self;
        Search { space, order, control, stats, observer }
    }
    /// The observer.
    pub fn observer(&self) -> &O {
        &self.observer
    }
    /// Takes the observer back.
    pub fn into_observer(self) -> O {
        self.observer
    }
    /// Sets the branching order.
    pub fn order(mut self, order: Order) -> Self {
        self.order = order;
        self
    }
    /// Polls `control` during the walk and stops when it is cancelled.
    pub fn control(mut self, control: Control) -> Self {
        self.control = Some(control);
        self
    }
    /// Counters accumulated by every walk run so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }
    /// The space (in its root state after a walk).
    pub fn space(&self) -> &S {
        &self.space
    }
    /// Takes the space back.
    pub fn into_space(self) -> S {
        self.space
    }

    /// Any one solution (the first in the configured order).
    pub fn first(&mut self) -> Option<S::Solution> {
        let mut found = None;
        self.walk(|space| {
            found = Some(space.solution());
            ControlFlow::Break(())
        });
        found
    }

    /// The lexicographically smallest solution.
    pub fn lex_first(&mut self) -> Option<S::Solution> {
        let saved = self.order;
        self.order = Order::Lexicographic;
        let found = self.first();
        self.order = saved;
        found
    }

    /// Number of solutions, stopping once `limit` are found.
    pub fn count(&mut self, limit: Option<u64>) -> u64 {
        self.run(Mode::Count { limit }, |_| {}).0
    }

    /// Hands every solution to `visit`, in search order, until it returns `Break`.
    pub fn for_each(&mut self, mut visit: impl FnMut(S::Solution) -> ControlFlow<()>) -> End {
        self.walk(|space| visit(space.solution()))
    }

    /// Runs `mode`, handing each solution it yields to `visit`. For
    /// [`Mode::Count`] no solution is built; the count is returned.
    pub fn run(&mut self, mode: Mode, mut visit: impl FnMut(S::Solution)) -> (u64, End) {
        let (order, limit) = mode.order_and_limit();
        if order == Order::Lexicographic {
            self.order = order;
        }
        if limit == 0 {
            return (0, End::Stopped);
        }
        let mut n = 0u64;
        let stop_at_limit = |n: &mut u64| {
            if *n >= limit {
                *n = limit;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let end = if let Mode::Count { .. } = mode {
            self.walk_counting(|found| {
                n += found;
                stop_at_limit(&mut n)
            })
        } else {
            self.walk(|space| {
                n += 1;
                visit(space.solution());
                stop_at_limit(&mut n)
            })
        };
        (n, end)
    }

    /// The walk itself: calls `at_solution` with the space positioned at each
    /// solution; the space is restored to its root state when the walk ends,
    /// however it ends.
    pub fn walk(&mut self, mut at_solution: impl FnMut(&S) -> ControlFlow<()>) -> End {
        self.walk_with::<false>(|space, _| at_solution(space))
    }

    /// The walk for counting: calls `at_solutions(k)` for every `k` solutions
    /// met (`k` may exceed one where the space counts several at once through
    /// [`Space::take_completing`]); statistics come out as [`walk`](Self::walk)'s.
    pub fn walk_counting(&mut self, mut at_solutions: impl FnMut(u64) -> ControlFlow<()>) -> End {
        self.walk_with::<true>(|_, found| at_solutions(found))
    }

    /// [`walk`](Self::walk), also taking completing alternatives in bulk when
    /// `COUNTING`; `at_solution(space, k)` then gets `k` solutions at once,
    /// with `space` at their parent node rather than at a solution.
    fn walk_with<const COUNTING: bool>(&mut self, mut at_solution: impl FnMut(&S, u64) -> ControlFlow<()>) -> End {
        let order = self.order;
        let space = &mut self.space;
        let stats = &mut self.stats;
        let observer = &mut self.observer;
        let mut stack: Vec<(S::Branch, u32)> = Vec::new();
        let mut end = End::Exhausted;
        match space.expand(order) {
            Node::Solution => {
                stats.solutions += 1;
                observer.solution(space, 0);
                let _ = at_solution(space, 1);
                return End::Exhausted;
            }
            Node::Dead => {
                observer.dead(space, 0);
                return End::Exhausted;
            }
            Node::Branch(mut b) => {
                let found = if COUNTING { space.take_completing(&mut b) } else { 0 };
                stack.push((b, found as u32));
                if found > 0 && Self::met_completing(stats, space, found, &mut at_solution).is_break() {
                    return End::Stopped;
                }
            }
        }
        'walk: while let Some((branch, tried)) = stack.last_mut() {
            let Some(choice) = space.next_choice(branch) else {
                stack.pop();
                observer.exhausted(space, stack.len());
                if !stack.is_empty() {
                    space.pop();
                    observer.undone(space, stack.len() - 1);
                }
                continue;
            };
            *tried += 1;
            if *tried == 2 {
                stats.guesses += 1;
            }
            stats.nodes += 1;
            if stats.nodes & (POLL_INTERVAL - 1) == 0 {
                if let Some(control) = &self.control {
                    if control.is_cancelled() {
                        // `choice` was taken but not pushed: nothing to undo for it.
                        end = End::Cancelled;
                        break 'walk;
                    }
                }
            }
            let depth = stack.len() - 1;
            let accepted = space.push(choice);
            observer.pushed(space, choice, depth, accepted);
            if accepted {
                match space.expand(order) {
                    Node::Branch(mut b) => {
                        let found = if COUNTING { space.take_completing(&mut b) } else { 0 };
                        stack.push((b, found as u32));
                        if found > 0 && Self::met_completing(stats, space, found, &mut at_solution).is_break() {
                            end = End::Stopped;
                            break 'walk;
                        }
                        continue;
                    }
                    Node::Solution => {
                        stats.solutions += 1;
                        observer.solution(space, depth + 1);
                        if at_solution(space, 1).is_break() {
                            space.pop();
                            end = End::Stopped;
                            break 'walk;
                        }
                    }
                    Node::Dead => {
                        stats.dead_ends += 1;
                        observer.dead(space, depth + 1);
                    }
                }
                space.pop();
                observer.undone(space, depth);
            } else {
                stats.dead_ends += 1;
                space.pop();
            }
        }
        // Unwind whatever is still pushed so the space is back at its root.
        if end != End::Exhausted {
            for _ in 1..stack.len() {
                space.pop();
            }
        }
        end
    }

    /// Books `found` completing alternatives taken in bulk at the current node
    /// as the nodes and solutions the plain walk would have met one by one.
    fn met_completing(
        stats: &mut Stats,
        space: &S,
        found: u64,
        at_solution: &mut impl FnMut(&S, u64) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        stats.nodes += found;
        stats.solutions += found;
        if found >= 2 {
            stats.guesses += 1;
        }
        at_solution(space, found)
    }
}
