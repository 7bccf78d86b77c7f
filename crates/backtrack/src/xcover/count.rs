//! Counting solutions on one thread or several, each engine through its fastest counting walk.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::{DenseSpace, LinksSpace, MccBitsSpace, MccSpace, SmallSpace};
use crate::search::{split_into_counting, Control, End, Order, Search, Space, Stats, ThreadStartError, Threads};

/// An engine's space, able to count the solutions below its current node.
pub(crate) trait CountHere: Space<Choice = usize, Solution = Vec<usize>> + Clone + Send + Sync {
    /// Counts the solutions below the current node: `found(k)` hears of
    /// every `k` solutions met and may stop the walk, which also stops soon
    /// after any of `controls` is cancelled. Statistics as the search core's.
    /// The space is back at the same node when it returns.
    fn count_here(&mut self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End);
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
    let (pieces, above) = split_into_counting(root, Order::Heuristic, threads.get() * PIECES_PER_THREAD);
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
            let (arrived, pushed) = replay_undoable(space, &pieces[i]);
            if arrived {
                let (piece_stats, _) = space.count_here(&[control, &stop], |k| {
                    count += k;
                    if limited && total.fetch_add(k, Ordering::Relaxed) + k >= limit {
                        stop.cancel();
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                });
                stats.add(&piece_stats);
            }
            for _ in 0..pushed {
                space.pop();
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
