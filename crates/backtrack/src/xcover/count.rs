//! Counting solutions on one thread or several, each engine through its fastest counting walk.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::{DenseSpace, LinksSpace, MccBitsSpace, MccSpace, SmallSpace};
use crate::search::{
    deepen_split, split_counting, Control, End, Order, Piece, Search, Space, Stats, ThreadStartError, Threads,
};

/// An engine's space, able to count the solutions below its current node.
pub(crate) trait CountHere: Space<Choice = usize, Solution = Vec<usize>> + Clone + Send + Sync {
    /// Counts the solutions below the current node: `found(k)` hears of
    /// every `k` solutions met and may stop the walk, which also stops soon
    /// after any of `controls` is cancelled. Statistics as the search core's.
    /// The space is back at the same node when it returns.
    fn count_here(&mut self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End);

    /// Counts the solutions below the node `piece` leads to from the current
    /// node, as [`count_here`](Self::count_here) would there, and leaves
    /// the space where it was; `None` when a choice of `piece` does not
    /// apply (it came from another space).
    fn count_below(
        &mut self,
        piece: &[usize],
        controls: &[&Control],
        found: impl FnMut(u64) -> ControlFlow<()>,
    ) -> Option<(Stats, End)> {
        count_below_by_replay(self, piece, controls, found)
    }

    /// The pieces [`split_counting`] cuts `depth` levels below the current
    /// node, and the statistics above them, through the space's fastest walk.
    fn split_here(&mut self, depth: usize) -> (Vec<Piece<usize>>, Stats) {
        split_counting(self, Order::Heuristic, depth)
    }
}

/// [`CountHere::count_below`] by the space's own pushes and pops.
fn count_below_by_replay<S: CountHere>(
    space: &mut S,
    piece: &[usize],
    controls: &[&Control],
    found: impl FnMut(u64) -> ControlFlow<()>,
) -> Option<(Stats, End)> {
    let (arrived, pushed) = replay_undoable(space, piece);
    let result = arrived.then(|| space.count_here(controls, found));
    for _ in 0..pushed {
        space.pop();
    }
    result
}

impl<const W: usize> CountHere for SmallSpace<W> {
    fn count_here(&mut self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        SmallSpace::count_here(self, controls, found)
    }
}

impl CountHere for DenseSpace {
    fn count_here(&mut self, controls: &[&Control], mut found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        // With AVX-512's popcount: the same walk, counting an item's live
        // options when it needs them.
        if let Some(result) = super::dense_pop::count_here(self.view(), controls, &mut found) {
            return result;
        }
        core_count_here(self, controls, found)
    }

    fn count_below(
        &mut self,
        piece: &[usize],
        controls: &[&Control],
        mut found: impl FnMut(u64) -> ControlFlow<()>,
    ) -> Option<(Stats, End)> {
        match super::dense_pop::count_below(self.view(), piece, controls, &mut found) {
            Some(result) => result,
            None => count_below_by_replay(self, piece, controls, found),
        }
    }

    fn split_here(&mut self, depth: usize) -> (Vec<Piece<usize>>, Stats) {
        match super::dense_pop::split_here(self.view(), depth) {
            Some(split) => split,
            None => split_counting(self, Order::Heuristic, depth),
        }
    }
}

impl CountHere for MccSpace {
    fn count_here(&mut self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        core_count_here(self, controls, found)
    }
}

impl CountHere for MccBitsSpace {
    fn count_here(&mut self, controls: &[&Control], mut found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        // Small problems: the same walk on popcounts, much faster.
        if let Some(result) = super::mcc_pop::count_here(self.view(), controls, &mut found) {
            return result;
        }
        core_count_here(self, controls, found)
    }
}

impl CountHere for LinksSpace {
    fn count_here(&mut self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        core_count_here(self, controls, found)
    }
}

/// A space lent to a [`Search`], which restores it to the node it started
/// from when the walk ends: the walk needs no copy of its own.
pub(crate) struct Lent<'a, S>(pub(crate) &'a mut S);

impl<S: Space> Space for Lent<'_, S> {
    type Branch = S::Branch;
    type Choice = S::Choice;
    type Solution = S::Solution;
    #[inline(always)]
    fn expand(&mut self, order: Order) -> crate::search::Node<S::Branch> {
        self.0.expand(order)
    }
    #[inline(always)]
    fn next_choice(&mut self, branch: &mut S::Branch) -> Option<S::Choice> {
        self.0.next_choice(branch)
    }
    #[inline(always)]
    fn push(&mut self, choice: S::Choice) -> bool {
        self.0.push(choice)
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.0.pop()
    }
    fn solution(&self) -> S::Solution {
        self.0.solution()
    }
    #[inline(always)]
    fn take_completing(&mut self, branch: &mut S::Branch) -> u64 {
        self.0.take_completing(branch)
    }
}

/// The search core's counting walk on `space` itself. It polls the first
/// control itself; the others are looked at whenever solutions are found.
fn core_count_here<S: Space>(
    space: &mut S,
    controls: &[&Control],
    mut found: impl FnMut(u64) -> ControlFlow<()>,
) -> (Stats, End) {
    let mut search = Search::new(Lent(space));
    if let Some(first) = controls.first() {
        search = search.control((*first).clone());
    }
    let end = search.walk_counting(|k| {
        if found(k).is_break() || controls.iter().any(|c| c.is_cancelled()) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (search.stats(), end)
}

/// What the copies of a space for the threads of one parallel walk may take
/// together, beyond the first: a parallel walk runs on fewer threads than
/// asked when more copies would not fit, so that memory does not grow with
/// the thread count (see [`threads_for`]).
pub(crate) const COPIES_BUDGET: usize = 64 << 20;

/// The threads a parallel walk of a space whose copy takes `copy_bytes`
/// runs on when `threads` are asked for: as many as asked, but no more than
/// fit in [`COPIES_BUDGET`], and at least one.
pub(crate) fn threads_for(copy_bytes: usize, threads: Threads) -> Threads {
    let fit = (COPIES_BUDGET / copy_bytes.max(1)).max(1);
    Threads::new(threads.get().min(fit)).unwrap_or(Threads::ONE)
}

/// Pieces per thread: enough that dynamic scheduling balances uneven subtrees.
const PIECES_PER_THREAD: usize = 256;

/// Counts the solutions below `root` on `threads` threads (no more than [`threads_for`] allows), stopping once `limit` are found or
/// soon after `control` is cancelled. Returns the count (at most `limit`)
/// and the walks' summed statistics.
///
/// With several threads the tree is cut into prefix pieces, which the
/// threads take one at a time, in walk order, through one shared index. Each
/// thread counts into its own counters and reports once, when no piece is
/// left: no message, lock or wake-up per piece, which would cost system calls
/// and context switches that take the CPU from the workers. A shared counter
/// is touched per solution only when there is a limit to watch. Each thread
/// makes one copy of `root` and walks every piece it takes on that copy,
/// going back to the root after each; a count on one thread walks `root`
/// itself.
pub(crate) fn count<S: CountHere>(
    root: &mut S,
    copy_bytes: usize,
    limit: Option<u64>,
    threads: Threads,
    control: &Control,
) -> Result<(u64, Stats), ThreadStartError> {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return Ok((0, Stats::default()));
    }
    let threads = threads_for(copy_bytes, threads);
    if threads == Threads::ONE {
        let mut n = 0u64;
        let (stats, _) = root.count_here(&[control], |k| {
            n += k;
            if n >= limit {
                n = limit;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        return Ok((n, stats));
    }
    // The split walks the root itself and leaves it where it was; the threads copy it then.
    let (pieces, above) = deepen_split(threads.get() * PIECES_PER_THREAD, |depth| root.split_here(depth));
    let root = &*root;
    let limited = limit != u64::MAX;
    let total = AtomicU64::new(0);
    let next_piece = AtomicUsize::new(0);
    let stop = Control::new();
    // Each thread takes the next piece in walk order until none is left, and
    // keeps its count and statistics to itself until it is done.
    let worker = || {
        let (mut count, mut stats) = (0u64, Stats::default());
        let mut copy: Option<S> = None;
        loop {
            let i = next_piece.fetch_add(1, Ordering::Relaxed);
            if i >= pieces.len() || stop.is_cancelled() || control.is_cancelled() {
                return (count, stats);
            }
            let space = copy.get_or_insert_with(|| root.clone());
            let found = space.count_below(&pieces[i], &[control, &stop], |k| {
                count += k;
                if limited && total.fetch_add(k, Ordering::Relaxed) + k >= limit {
                    stop.cancel();
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if let Some((piece_stats, _)) = found {
                stats.add(&piece_stats);
            }
        }
    };
    // The walks below the pieces and the split above them add up to one walk's figures.
    let (mut count, mut stats) = (0u64, above);
    std::thread::scope(|scope| {
        let helpers = crate::search::spawn_all(scope, threads.get() - 1, threads, |_| worker)?;
        // The calling thread is one of the workers.
        let mut results = vec![worker()];
        results.extend(helpers.into_iter().filter_map(|h| h.join().expect("counting thread")));
        for (n, piece_stats) in results {
            count += n;
            stats.add(&piece_stats);
        }
        Ok::<(), ThreadStartError>(())
    })?;
    Ok((count.min(limit), stats))
}

/// Puts `space` at the node `piece` leads to, as [`replay`](crate::search::replay)
/// does, and returns whether it got there and how many pushes it made (each
/// one, accepted or refused, to be undone by one pop).
fn replay_undoable<S: Space>(space: &mut S, piece: &[S::Choice]) -> (bool, usize) {
    for (k, &choice) in piece.iter().enumerate() {
        if !matches!(space.expand(Order::Heuristic), crate::search::Node::Branch(_)) {
            return (false, k);
        }
        if !space.push(choice) {
            return (false, k + 1);
        }
    }
    (true, piece.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::random_problems::random_problem;
    use proptest::prelude::*;

    /// The count and statistics below `piece`, by `count_below` or by replay.
    fn below(space: &mut DenseSpace, piece: &[usize], by_replay: bool) -> Option<(u64, Stats)> {
        let mut n = 0;
        let found = |k| {
            n += k;
            ControlFlow::Continue(())
        };
        let result = if by_replay {
            count_below_by_replay(space, piece, &[], found)
        } else {
            space.count_below(piece, &[], found)
        };
        result.map(|(stats, end)| {
            assert_eq!(end, End::Exhausted);
            (n, stats)
        })
    }

    proptest! {
        #![proptest_config(crate::xcover::random_problems::proptest_config())]
        /// Below every piece of a split two levels deep, the dense engine's
        /// count from the piece's live options (no replay) is the count and
        /// the statistics of a replay, and the space stays at its root.
        #[test]
        fn counting_below_a_piece_is_counting_after_its_replay(problem in random_problem(false, 600)) {
            let mut space = DenseSpace::new(&problem).unwrap();
            let (pieces, _) = split_counting(&mut space, Order::Heuristic, 2);
            for piece in &pieces {
                let direct = below(&mut space, piece, false);
                prop_assert!(direct.is_some(), "{}: piece {:?} refused", problem, piece);
                prop_assert_eq!(direct, below(&mut space, piece, true), "{}: piece {:?}", problem, piece);
                prop_assert!(space.chosen().is_empty());
            }
            // The space's own split is the core's, at every depth.
            for depth in 0..=3 {
                prop_assert_eq!(space.split_here(depth), split_counting(&mut space.clone(), Order::Heuristic, depth), "depth {}", depth);
            }
            // A choice that is no longer a live option is refused.
            if let Some(piece) = pieces.iter().find(|p| p.len() == 2) {
                prop_assert_eq!(below(&mut space, &[piece[0], piece[0]], false), None);
            }
        }
    }

    /// On a pentomino packing too, the dense engine's split is the core's:
    /// the same pieces in the same order, the same figures above them.
    #[test]
    fn the_dense_split_is_the_core_split_on_a_packing() {
        crate::xcover::popcount_rows::say_which_builds_cannot_run("the_dense_split_is_the_core_split_on_a_packing");
        let problem = crate::xcover::random_problems::fixture("pentomino-6x10.dlx");
        let mut space = DenseSpace::new(&problem).unwrap();
        for depth in 0..=3 {
            let core = split_counting(&mut space.clone(), Order::Heuristic, depth);
            assert!(core.0.len() > 10 * depth, "depth {depth}: {} pieces", core.0.len());
            assert_eq!(space.split_here(depth), core, "depth {depth}");
        }
    }
}
