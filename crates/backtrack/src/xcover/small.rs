//! The popcount engine, for problems with at most [`MAX_OPTIONS`] options and
//! [`MAX_PRIMARY`] primary items.
//!
//! Like the [bitset engine](super::dense), it keeps the live options as a
//! bitset and removes a chosen option's conflicts with one `live &= !row`
//! per word. Unlike it, it keeps no per-item counters at all: when a node
//! needs an item's number of live options it counts them, `popcount(live &
//! options_of_item)` over a fixed number `W` of words (a const generic, so
//! the loop is fully unrolled). A choice is then only `W` word operations
//! plus one mask for the uncovered primary items, and the minimum-remaining-
//! values scan visits only the items still uncovered, stopping at the first
//! one with no live option. For small problems this beats updating counters
//! option by option, which costs a scattered write per removed option and item.

use std::ops::ControlFlow;
use std::sync::Arc;

use super::dense::conflict_rows;
use super::problem::Problem;
use crate::cpu::{Cpu, Portable, X86V3};
use crate::search::{Control, End, Node, Order, Space, Stats};

/// The most options the popcount engine takes (`W` is at most 4).
pub const MAX_OPTIONS: usize = 256;

/// The most primary items the popcount engine takes (one bit each in a `u64`).
pub const MAX_PRIMARY: usize = 64;

/// Whether `problem` fits the popcount engine.
pub fn fits(problem: &Problem) -> bool {
    problem.n_options() <= MAX_OPTIONS && problem.n_primary() <= MAX_PRIMARY
}

/// Tables shared (read-only) by every copy of a [`SmallSpace`].
#[derive(Debug)]
struct Tables<const W: usize> {
    /// Row `o`: the options that conflict with option `o`, `o` included.
    conflict: Vec<[u64; W]>,
    /// Row `p` for every possible primary item (rows past the last item are
    /// empty): the options that contain item `p`. A full 64 rows so that an
    /// index taken from a `u64` mask needs no bounds check.
    item_options: Box<[[u64; W]; 64]>,
    /// Per option: its primary items, as a mask.
    primary_mask: Vec<u64>,
    /// The most primary items in one option.
    max_primary: u32,
    /// Whether every option has `max_primary` primary items.
    uniform: bool,
    /// The token for the popcount build, when the processor has it (checked
    /// once, when the tables are built).
    cpu: Option<X86V3>,
}

/// A search position for the popcount engine, `W` words per option bitset; plugs into [`crate::search`].
#[derive(Debug, Clone)]
pub struct SmallSpace<const W: usize> {
    tables: Arc<Tables<W>>,
    depth: usize,
    /// Per level: the options still possible. Allocated for the deepest level
    /// up front (every option covers a primary item, so a path has at most
    /// `n_primary` choices), so a push never allocates.
    live: Vec<[u64; W]>,
    /// Per level: the primary items not yet covered.
    open: Vec<u64>,
    chosen: Vec<usize>,
}

/// Cursor over the live options of the item a node branches on.
#[derive(Debug, Clone, Copy)]
pub struct SmallBranch {
    item: u32,
    word: u32,
    bits: u64,
    /// The item's live options when the node was expanded.
    count: u32,
}

impl<const W: usize> SmallSpace<W> {
    /// The root of `problem`'s search, or `None` when it does not fit in `W` words or has more than
    /// [`MAX_PRIMARY`] primary items.
    pub fn new(problem: &Problem) -> Option<Self> {
        let n_options = problem.n_options();
        let n_primary = problem.n_primary();
        if n_options > W * 64 || n_primary > MAX_PRIMARY {
            return None;
        }
        let flat = conflict_rows(problem, W);
        let conflict: Vec<[u64; W]> =
            flat.chunks_exact(W).map(|row| row.try_into().expect("rows of W words")).collect();
        let mut item_options = Box::new([[0u64; W]; 64]);
        let mut primary_mask = vec![0u64; n_options];
        for (o, mask) in primary_mask.iter_mut().enumerate() {
            for e in problem.option(o) {
                let item = e.item as usize;
                if item < n_primary {
                    item_options[item][o / 64] |= 1 << (o % 64);
                    *mask |= 1 << item;
                }
            }
        }
        let max_primary = primary_mask.iter().map(|m| m.count_ones()).max().unwrap_or(0);
        let uniform = primary_mask.iter().all(|m| m.count_ones() == max_primary);
        let mut root_live = [0u64; W];
        for o in 0..n_options {
            root_live[o / 64] |= 1 << (o % 64);
        }
        let levels = n_primary + 1;
        let mut live = vec![[0u64; W]; levels];
        live[0] = root_live;
        let mut open = vec![0u64; levels];
        open[0] = if n_primary == 64 { u64::MAX } else { (1u64 << n_primary) - 1 };
        let tables = Tables { conflict, item_options, primary_mask, max_primary, uniform, cpu: X86V3::new() };
        Some(SmallSpace { tables: Arc::new(tables), depth: 0, live, open, chosen: Vec::with_capacity(levels) })
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }

    /// The bytes a clone of this space takes beyond the tables it shares.
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of;
        self.live.capacity() * size_of::<[u64; W]>()
            + self.open.capacity() * size_of::<u64>()
            + self.chosen.capacity() * size_of::<usize>()
    }
}

/// Number of options in both `live` and `row`.
#[inline(always)]
fn count<const W: usize>(live: &[u64; W], row: &[u64; W]) -> u32 {
    let mut n = 0;
    for k in 0..W {
        n += (live[k] & row[k]).count_ones();
    }
    n
}

/// The uncovered item with the fewest live options (ties to the first) and
/// that number; stops at the first item with none.
#[inline(always)]
fn fewest<const W: usize>(item_options: &[[u64; W]; 64], live: &[u64; W], mut open: u64) -> (u32, u32) {
    let (mut best, mut best_count) = (0, u32::MAX);
    while open != 0 {
        let p = open.trailing_zeros();
        open &= open - 1;
        let n = count(live, &item_options[p as usize]);
        if n < best_count {
            (best, best_count) = (p, n);
            if n == 0 {
                break;
            }
        }
    }
    (best, best_count)
}

/// [`fewest`] compiled for the processor level `cpu`.
#[inline(always)]
fn fewest_on<C: Cpu, const W: usize>(cpu: C, item_options: &[[u64; W]; 64], live: &[u64; W], open: u64) -> (u32, u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(v3) = cpu.x86_v3() {
        // SAFETY: the token proves the processor has POPCNT.
        return unsafe { fewest_popcnt(v3, item_options, live, open) };
    }
    let _ = cpu;
    fewest(item_options, live, open)
}

/// [`fewest`] compiled with the popcount instruction.
///
/// # Safety
/// The processor must have POPCNT, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn fewest_popcnt<const W: usize>(
    _cpu: X86V3,
    item_options: &[[u64; W]; 64],
    live: &[u64; W],
    open: u64,
) -> (u32, u32) {
    fewest(item_options, live, open)
}

/// Takes the next option from `branch`, a cursor over `live`.
#[inline(always)]
fn next_option<const W: usize>(
    live: &[u64; W],
    item_options: &[[u64; W]; 64],
    branch: &mut SmallBranch,
) -> Option<usize> {
    while branch.bits == 0 {
        branch.word += 1;
        let k = branch.word as usize;
        if k >= W {
            return None;
        }
        branch.bits = live[k] & item_options[branch.item as usize][k];
    }
    let o = branch.word as usize * 64 + branch.bits.trailing_zeros() as usize;
    branch.bits &= branch.bits - 1;
    Some(o)
}

/// Nodes between two polls of the cancellation flags in [`SmallSpace::count_here`].
const POLL_INTERVAL: u32 = 1 << 12;

/// One level of the counting walk: the node's position and the cursor over its branch item's options.
#[derive(Clone, Copy)]
struct Frame<const W: usize> {
    live: [u64; W],
    open: u64,
    bits: u64,
    item: u32,
    word: u32,
    /// Alternatives tried so far (for [`Stats::guesses`]).
    tried: u32,
}

impl<const W: usize> SmallSpace<W> {
    /// Counts the solutions below the current node with a loop made for this
    /// engine, and returns the walk's statistics and how it ended. It is
    /// [`Search::walk_counting`](crate::search::Search::walk_counting) on a copy of
    /// this space, node for node and counter for counter, without the search
    /// core's per-node calls: `found(k)` hears of every `k` solutions met and
    /// may stop the walk, and the walk also stops soon after any of `controls`
    /// is cancelled ([`End::Cancelled`]).
    pub fn count_here(&self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        match self.tables.cpu {
            Some(cpu) => self.count_here_on(cpu, controls, found),
            None => self.count_here_on(Portable, controls, found),
        }
    }

    /// [`count_here`](Self::count_here) with the walk compiled for `cpu`.
    fn count_here_on<C: Cpu>(
        &self,
        cpu: C,
        controls: &[&Control],
        mut found: impl FnMut(u64) -> ControlFlow<()>,
    ) -> (Stats, End) {
        let t = &*self.tables;
        let (live, open) = (&self.live[self.depth], self.open[self.depth]);
        let mut stats = Stats::default();
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = cpu.x86_v3() {
            // SAFETY: the token proves the processor has POPCNT.
            let end = unsafe { walk_counting_popcnt(v3, t, live, open, controls, &mut found, &mut stats) };
            return (stats, end);
        }
        let _ = cpu;
        let end = walk_counting(t, live, open, controls, &mut found, &mut stats);
        (stats, end)
    }
}

/// The number of solutions at a node branching on `item` (with `n` live
/// options) when each of those options completes the cover, as
/// [`SmallSpace::take_completing`] finds them; `None` otherwise.
#[inline(always)]
fn completing<const W: usize>(t: &Tables<W>, live: &[u64; W], open: u64, item: u32, n: u32) -> Option<u64> {
    if open.count_ones() > t.max_primary {
        return None;
    }
    if !t.uniform {
        let row = &t.item_options[item as usize];
        for k in 0..W {
            let mut bits = live[k] & row[k];
            while bits != 0 {
                let o = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if t.primary_mask[o] != open {
                    return None;
                }
            }
        }
    }
    Some(n as u64)
}

/// Books `k` solutions counted at once, as the search core does.
#[inline(always)]
fn book_completing(stats: &mut Stats, k: u64, found: &mut impl FnMut(u64) -> ControlFlow<()>) -> ControlFlow<()> {
    stats.nodes += k;
    stats.solutions += k;
    if k >= 2 {
        stats.guesses += 1;
    }
    found(k)
}

/// [`walk_counting`] compiled with the popcount instruction.
///
/// # Safety
/// The processor must have POPCNT, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn walk_counting_popcnt<const W: usize>(
    _cpu: X86V3,
    t: &Tables<W>,
    live: &[u64; W],
    open: u64,
    controls: &[&Control],
    found: &mut impl FnMut(u64) -> ControlFlow<()>,
    stats: &mut Stats,
) -> End {
    walk_counting(t, live, open, controls, found, stats)
}

/// The counting walk from the node (`live`, `open`): depth first, with an
/// explicit stack of at most 64 levels (every option covers a primary item,
/// and a level is stacked only while some primary item is open).
#[inline(always)]
fn walk_counting<const W: usize>(
    t: &Tables<W>,
    live: &[u64; W],
    open: u64,
    controls: &[&Control],
    found: &mut impl FnMut(u64) -> ControlFlow<()>,
    stats: &mut Stats,
) -> End {
    let stopped = |flow: ControlFlow<()>| if flow.is_break() { End::Stopped } else { End::Exhausted };
    if open == 0 {
        stats.solutions += 1;
        return stopped(found(1));
    }
    let (item, n) = fewest(&t.item_options, live, open);
    if n == 0 {
        return End::Exhausted;
    }
    if let Some(k) = completing(t, live, open, item, n) {
        return stopped(book_completing(stats, k, found));
    }
    let frame = |live: [u64; W], open: u64, item: u32| Frame {
        live,
        open,
        bits: live[0] & t.item_options[item as usize][0],
        item,
        word: 0,
        tried: 0,
    };
    let mut stack = [frame([0; W], 0, 0); MAX_PRIMARY + 1];
    stack[0] = frame(*live, open, item);
    let mut depth = 0;
    let mut to_poll = POLL_INTERVAL;
    loop {
        let f = &mut stack[depth];
        while f.bits == 0 && (f.word as usize) < W - 1 {
            f.word += 1;
            f.bits = f.live[f.word as usize] & t.item_options[f.item as usize][f.word as usize];
        }
        if f.bits == 0 {
            if depth == 0 {
                return End::Exhausted;
            }
            depth -= 1;
            continue;
        }
        let option = f.word as usize * 64 + f.bits.trailing_zeros() as usize;
        f.bits &= f.bits - 1;
        f.tried += 1;
        if f.tried == 2 {
            stats.guesses += 1;
        }
        stats.nodes += 1;
        to_poll -= 1;
        if to_poll == 0 {
            to_poll = POLL_INTERVAL;
            if controls.iter().any(|c| c.is_cancelled()) {
                return End::Cancelled;
            }
        }
        let row = &t.conflict[option];
        let mut next = [0u64; W];
        for k in 0..W {
            next[k] = f.live[k] & !row[k];
        }
        let next_open = f.open & !t.primary_mask[option];
        if next_open == 0 {
            stats.solutions += 1;
            if found(1).is_break() {
                return End::Stopped;
            }
            continue;
        }
        let (item, n) = fewest(&t.item_options, &next, next_open);
        if n == 0 {
            stats.dead_ends += 1;
            continue;
        }
        if let Some(k) = completing(t, &next, next_open, item, n) {
            if book_completing(stats, k, found).is_break() {
                return End::Stopped;
            }
            continue;
        }
        depth += 1;
        stack[depth] = frame(next, next_open, item);
    }
}

impl<const W: usize> Space for SmallSpace<W> {
    type Branch = SmallBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    #[inline]
    fn expand(&mut self, order: Order) -> Node<SmallBranch> {
        let t = &*self.tables;
        let open = self.open[self.depth];
        if open == 0 {
            return Node::Solution;
        }
        let live = &self.live[self.depth];
        let (item, n) = match order {
            Order::Heuristic => match t.cpu {
                Some(cpu) => fewest_on(cpu, &t.item_options, live, open),
                None => fewest_on(Portable, &t.item_options, live, open),
            },
            Order::Lexicographic => {
                let p = open.trailing_zeros();
                (p, count(live, &t.item_options[p as usize]))
            }
        };
        if n == 0 {
            return Node::Dead;
        }
        let bits = live[0] & t.item_options[item as usize][0];
        Node::Branch(SmallBranch { item, word: 0, bits, count: n })
    }

    #[inline(always)]
    fn next_choice(&mut self, branch: &mut SmallBranch) -> Option<usize> {
        next_option(&self.live[self.depth], &self.tables.item_options, branch)
    }

    #[inline(always)]
    fn push(&mut self, option: usize) -> bool {
        let t = &*self.tables;
        let d = self.depth;
        if d + 1 == self.live.len() {
            // Only reached when pushing options that are not live (a path of
            // live options is never this deep).
            self.live.push([0; W]);
            self.open.push(0);
        }
        let row = &t.conflict[option];
        let here = self.live[d];
        let next = &mut self.live[d + 1];
        for k in 0..W {
            next[k] = here[k] & !row[k];
        }
        self.open[d + 1] = self.open[d] & !t.primary_mask[option];
        self.chosen.push(option);
        self.depth = d + 1;
        true
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.depth -= 1;
        self.chosen.pop();
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }

    /// At the last level of a cover every live option of the branch item
    /// covers exactly the open items: a live option conflicts with no chosen
    /// one, so its primary items are all open, and each such option is a solution.
    #[inline]
    fn take_completing(&mut self, branch: &mut SmallBranch) -> u64 {
        let t = &*self.tables;
        let open = self.open[self.depth];
        if open.count_ones() > t.max_primary {
            return 0;
        }
        if !t.uniform {
            // Every remaining alternative must complete the cover, or none is taken.
            let mut rest = *branch;
            while let Some(o) = next_option(&self.live[self.depth], &t.item_options, &mut rest) {
                if t.primary_mask[o] != open {
                    return 0;
                }
            }
        }
        // The branch is fresh from `expand`: all of its `count` options remain.
        let found = branch.count as u64;
        branch.bits = 0;
        branch.word = W as u32;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::parse;

    /// Every way to cover `n` cells of a row with pieces of length 1 to 3:
    /// a problem with many solutions and many ties among items.
    fn strips(n: usize) -> String {
        let mut text: String = (0..n).map(|i| format!("c{i} ")).collect();
        text.push('\n');
        for len in 1..=3.min(n) {
            for start in 0..=n - len {
                text.extend((start..start + len).map(|i| format!("c{i} ")));
                text.push('\n');
            }
        }
        text
    }

    #[test]
    fn fast_and_portable_walks_agree() {
        for n in [1, 5, 12, 20] {
            let problem = parse(&strips(n)).unwrap().problem;
            let space = SmallSpace::<1>::new(&problem).expect("fits one word");
            let count = |(stats, end): (Stats, End)| (stats.solutions, stats.nodes, end);
            let portable = count(space.count_here_on(Portable, &[], |_| ControlFlow::Continue(())));
            assert!(portable.0 > 0, "n = {n}");
            if let Some(cpu) = X86V3::new() {
                let fast = count(space.count_here_on(cpu, &[], |_| ControlFlow::Continue(())));
                assert_eq!(fast, portable, "n = {n}");
            }
            let items = |cpu: Option<X86V3>| {
                let live = &space.live[0];
                match cpu {
                    Some(cpu) => fewest_on(cpu, &space.tables.item_options, live, space.open[0]),
                    None => fewest_on(Portable, &space.tables.item_options, live, space.open[0]),
                }
            };
            assert_eq!(items(X86V3::new()), items(None), "n = {n}");
        }
    }
}
