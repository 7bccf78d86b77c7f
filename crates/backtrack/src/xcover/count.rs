//! Counting solutions on one thread or several, each engine through its fastest counting walk.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::{DenseSpace, LinksSpace, SmallSpace};
use crate::search::{effective_threads, replay, split_into_counting, Control, End, Order, Search, Space, Stats};

/// An engine's space, able to count the solutions below its current node.
pub(crate) trait CountHere: Space<Choice = usize, Solution = Vec<usize>> + Clone + Send + Sync {
    /// Counts the solutions below the current node: `found(k)` hears of
    /// every `k` solutions met and may stop the walk, which also stops soon
    /// after any of `controls` is cancelled. Statistics as the search core's.
    fn count_here(&self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End);
}

impl<const W: usize> CountHere for SmallSpace<W> {
    fn count_here(&self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        SmallSpace::count_here(self, controls, found)
    }
}

impl CountHere for DenseSpace {
    fn count_here(&self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        core_count_here(self, controls, found)
    }
}

impl CountHere for LinksSpace {
    fn count_here(&self, controls: &[&Control], found: impl FnMut(u64) -> ControlFlow<()>) -> (Stats, End) {
        core_count_here(self, controls, found)
    }
}

/// The search core's counting walk on a copy of `space`. It polls the first
/// control itself; the others are looked at whenever solutions are found.
fn core_count_here<S: Space + Clone>(
    space: &S,
    controls: &[&Control],
    mut found: impl FnMut(u64) -> ControlFlow<()>,
) -> (Stats, End) {
    let mut search = Search::new(space.clone());
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

/// Pieces per thread: enough that dynamic scheduling balances uneven subtrees.
const PIECES_PER_THREAD: usize = 256;

/// Counts the solutions below `root` on `threads` threads (0: one per core),
/// stopping once `limit` are found or soon after `control` is cancelled.
/// Returns the count (at most `limit`) and the walks' summed statistics.
///
/// With several threads the tree is cut into prefix pieces, which the
/// threads take one at a time, in walk order, through one shared index. Each
/// thread counts into its own counters and reports once, when no piece is
/// left: no message, lock or wake-up per piece, which would cost system calls
/// and context switches that take the CPU from the workers. A shared counter
/// is touched per solution only when there is a limit to watch.
pub(crate) fn count<S: CountHere>(root: &S, limit: Option<u64>, threads: usize, control: &Control) -> (u64, Stats) {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return (0, Stats::default());
    }
    let threads = effective_threads(threads);
    if threads <= 1 {
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
        return (n, stats);
    }
    let (pieces, above) = split_into_counting(&mut root.clone(), Order::Heuristic, threads * PIECES_PER_THREAD);
    let limited = limit != u64::MAX;
    let total = AtomicU64::new(0);
    let next_piece = AtomicUsize::new(0);
    let stop = Control::new();
    // Each thread takes the next piece in walk order until none is left, and
    // keeps its count and statistics to itself until it is done.
    let worker = || {
        let (mut count, mut stats) = (0u64, Stats::default());
        loop {
            let i = next_piece.fetch_add(1, Ordering::Relaxed);
            if i >= pieces.len() || stop.is_cancelled() || control.is_cancelled() {
                return (count, stats);
            }
            let mut space = root.clone();
            if !replay(&mut space, Order::Heuristic, &pieces[i]) {
                continue;
            }
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
    };
    // The walks below the pieces and the split above them add up to one walk's figures.
    let (mut count, mut stats) = (0u64, above);
    std::thread::scope(|scope| {
        let helpers = crate::search::spawn_all(scope, threads - 1, threads, |_| worker);
        // The calling thread is one of the workers.
        let mut results = vec![worker()];
        results.extend(helpers.into_iter().filter_map(|h| h.join().expect("counting thread")));
        for (n, piece_stats) in results {
            count += n;
            stats.add(&piece_stats);
        }
    });
    (count.min(limit), stats)
}
