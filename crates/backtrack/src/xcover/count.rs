//! Counting solutions on one thread or several, each engine through its fastest counting walk.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{DenseSpace, LinksSpace, SmallSpace};
use crate::search::{effective_threads, replay, run_jobs, split_into, Control, End, Order, Search, Space, Stats};

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
/// With several threads the tree is cut into prefix pieces, which are
/// handed out one at a time. Each piece counts into a local counter; a
/// shared counter is touched only when there is a limit to watch, so that
/// threads do not fight over one cache line once per solution.
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
    let pieces = split_into(&mut root.clone(), Order::Heuristic, threads * PIECES_PER_THREAD);
    let limited = limit != u64::MAX;
    let total = AtomicU64::new(0);
    let stop = Control::new();
    let (mut count, mut stats) = (0u64, Stats::default());
    run_jobs(
        threads,
        &pieces,
        |_| stop.is_cancelled() || control.is_cancelled(),
        |_, piece| {
            let mut space = root.clone();
            if !replay(&mut space, Order::Heuristic, piece) {
                return (0, Stats::default());
            }
            let mut n = 0u64;
            let (piece_stats, _) = space.count_here(&[control, &stop], |k| {
                n += k;
                if limited && total.fetch_add(k, Ordering::Relaxed) + k >= limit {
                    stop.cancel();
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            (n, piece_stats)
        },
        |_, (n, piece_stats)| {
            count += n;
            stats.add(&piece_stats);
        },
    );
    (count.min(limit), stats)
}
