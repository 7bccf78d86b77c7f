//! Counting small multiple-cover problems with popcounts: the count of
//! [`MccBitsSpace`](super::MccBitsSpace)'s subtree, node for node the same
//! search, on a leaner state.
//!
//! The bitset engine keeps, per level, a copy of the live options and of
//! every primary item's number of live options, and lowers those numbers
//! option by option when a choice takes options out. With at most
//! [`MAX_OPTIONS`] options the live set is `W <= 4` words, and a node can
//! instead count an item's live options when it needs them,
//! `popcount(live & options_of_item)`, a few word operations per item. A
//! choice is then `W` words of `live & !removed` plus the bounds of its
//! own items, and the walk is a plain recursion with the live set in
//! registers: no level copies, no per-option updates. (The same trade the
//! exact-cover popcount engine makes, see [`super::small`].)
//!
//! The nodes, dead ends, guesses and solutions it reports are the search
//! core's for the same walk, so `--stats` reads the same either way.

use std::ops::ControlFlow;

use crate::cpu::X86V3;
use crate::search::{Control, End, Stats};

/// The most options this count takes (four words).
pub const MAX_OPTIONS: usize = 256;

/// The most primary items this count takes (an item's needs and room are
/// kept in fixed arrays of this size).
pub const MAX_PRIMARY: usize = 64;

/// Nodes between looks at the controls.
const POLL_INTERVAL: u64 = 1 << 14;

/// Solutions gathered before `found` hears of them.
const REPORT_EVERY: u64 = 1 << 10;

/// Counts the solutions below the node `view` reads as
/// [`MccBitsSpace`](super::MccBitsSpace)'s walk would, or `None` when the
/// problem is too large for this count (the caller then walks the space itself). `found(k)`
/// hears of the solutions in batches and may stop the walk; so may any of
/// `controls`, looked at every few thousand nodes.
pub(crate) fn count_here(
    view: View<'_>,
    controls: &[&Control],
    found: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Option<(Stats, End)> {
    if view.n_options > MAX_OPTIONS || view.n_primary > MAX_PRIMARY {
        return None;
    }
    Some(match view.words {
        0 | 1 => Counter::<1>::new(&view, controls, found).run(&view),
        2 => Counter::<2>::new(&view, controls, found).run(&view),
        3 => Counter::<3>::new(&view, controls, found).run(&view),
        _ => Counter::<4>::new(&view, controls, found).run(&view),
    })
}

/// What the count reads of a [`MccBitsSpace`](super::MccBitsSpace) at its
/// current node.
pub(crate) struct View<'a> {
    pub words: usize,
    pub n_options: usize,
    pub n_primary: usize,
    /// Per primary item: its upper bound less its lower one.
    pub hi_less_lo: &'a [u32],
    /// The most primary items in one option, and each option's items
    /// (padded with `n_primary`).
    pub stride: usize,
    pub primary_items: &'a [u32],
    /// Row `o` (`words` words): `o` and its conflicts through secondary
    /// items; empty when there are no secondary items.
    pub conflict: &'a [u64],
    /// Row `p` (`words` words): the options of primary item `p`.
    pub item_rows: &'a [u64],
    /// The live options at the current node.
    pub live: &'a [u64],
    /// Per primary item: the coverings it still needs, and may still take.
    pub need: &'a [u32],
    pub room: &'a [u32],
}

/// A popcount walk's tables in fixed-size words and its items' bounds:
/// what the count and the cost search share.
pub(super) struct Small<const W: usize> {
    pub n_primary: usize,
    stride: usize,
    hi_less_lo: [u32; MAX_PRIMARY],
    primary_items: Vec<u8>,
    /// Row `o`: what choosing `o` takes out besides the node item's
    /// options before it and saturated items' options.
    pub takes: Vec<[u64; W]>,
    pub item_rows: [[u64; W]; MAX_PRIMARY],
    pub need: [u32; MAX_PRIMARY],
    room: [u32; MAX_PRIMARY],
    /// The primary items below their upper bound, one bit each: the only
    /// ones that can have live options (an item at its bound has had them
    /// all taken out), so the only ones a node looks at.
    pub open: u64,
}

impl<const W: usize> Small<W> {
    /// The tables of `view`, which has at most `64 * W` options and
    /// [`MAX_PRIMARY`] primary items.
    pub fn new(view: &View<'_>) -> Self {
        let (w, np) = (view.words, view.n_primary);
        let row = |table: &[u64], r: usize| {
            let mut out = [0u64; W];
            out[..w].copy_from_slice(&table[r * w..(r + 1) * w]);
            out
        };
        let takes = (0..view.n_options)
            .map(|o| {
                if view.conflict.is_empty() {
                    let mut own = [0u64; W];
                    own[o / 64] = 1 << (o % 64);
                    own
                } else {
                    row(view.conflict, o)
                }
            })
            .collect();
        let mut item_rows = [[0u64; W]; MAX_PRIMARY];
        let (mut hi_less_lo, mut need, mut room) = ([0; MAX_PRIMARY], [0; MAX_PRIMARY], [0; MAX_PRIMARY]);
        let mut open = 0u64;
        for p in 0..np {
            item_rows[p] = row(view.item_rows, p);
            hi_less_lo[p] = view.hi_less_lo[p];
            need[p] = view.need[p];
            room[p] = view.room[p];
            if room[p] > 0 {
                open |= 1 << p;
            }
        }
        Small {
            n_primary: np,
            stride: view.stride,
            hi_less_lo,
            // Items fit a byte (at most 64); the padding `n_primary` too.
            primary_items: view.primary_items.iter().map(|&p| p as u8).collect(),
            takes,
            item_rows,
            need,
            room,
            open,
        }
    }

    /// Option `o`'s primary items (padded with `n_primary`).
    pub fn items_of(&self, o: usize) -> &[u8] {
        &self.primary_items[o * self.stride..(o + 1) * self.stride]
    }

    /// Takes `o`: its items' bounds, and into `out` the options of the
    /// items it brings to their upper bound.
    #[inline(always)]
    pub fn take(&mut self, o: usize, out: &mut [u64; W]) {
        let np = self.n_primary;
        for i in o * self.stride..(o + 1) * self.stride {
            let p = self.primary_items[i] as usize;
            if p < np {
                self.need[p] = self.need[p].saturating_sub(1);
                self.room[p] -= 1;
                if self.room[p] == 0 {
                    self.open &= !(1 << p);
                    for (word, row) in out.iter_mut().zip(&self.item_rows[p]) {
                        *word |= row;
                    }
                }
            }
        }
    }

    /// Undoes [`take`](Self::take)`(o)`.
    #[inline(always)]
    pub fn give_back(&mut self, o: usize) {
        let np = self.n_primary;
        for i in o * self.stride..(o + 1) * self.stride {
            let p = self.primary_items[i] as usize;
            if p < np {
                self.room[p] += 1;
                self.open |= 1 << p;
                if self.room[p] > self.hi_less_lo[p] {
                    self.need[p] += 1;
                }
            }
        }
    }
}

/// The count's tables and its running state.
struct Counter<'f, const W: usize> {
    small: Small<W>,
    stats: Stats,
    /// Solutions not yet reported to `found`.
    unreported: u64,
    controls: &'f [&'f Control],
    found: &'f mut dyn FnMut(u64) -> ControlFlow<()>,
    /// The token for the build with the popcount instruction, when the
    /// processor has it.
    cpu: Option<X86V3>,
}

impl<'f, const W: usize> Counter<'f, W> {
    fn new(view: &View<'_>, controls: &'f [&'f Control], found: &'f mut dyn FnMut(u64) -> ControlFlow<()>) -> Self {
        Counter { small: Small::new(view), stats: Stats::default(), unreported: 0, controls, found, cpu: X86V3::new() }
    }

    fn run(mut self, view: &View<'_>) -> (Stats, End) {
        let mut live = [0u64; W];
        live[..view.words].copy_from_slice(&view.live[..view.words]);
        let mut end = match self.visit(live, true) {
            ControlFlow::Continue(()) => End::Exhausted,
            ControlFlow::Break(end) => end,
        };
        if self.unreported > 0 && (self.found)(self.unreported).is_break() && end == End::Exhausted {
            end = End::Stopped;
        }
        (self.stats, end)
    }

    /// The node with live options `live`: a solution, a dead end, or a
    /// branch whose children are visited in turn.
    fn visit(&mut self, live: [u64; W], root: bool) -> ControlFlow<End> {
        match self.cpu {
            // SAFETY: the token proves the features `visit_v3` is compiled with.
            Some(_) => unsafe { self.visit_v3(live, root) },
            None => self.visit_portable(live, root),
        }
    }

    /// [`visit`](Self::visit) compiled with the popcount instruction (the
    /// baseline x86-64 counts bits with a dozen instructions instead).
    ///
    /// # Safety
    /// The processor must have POPCNT; `self.cpu` holds the token.
    #[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
    unsafe fn visit_v3(&mut self, live: [u64; W], root: bool) -> ControlFlow<End> {
        self.visit_with::<true>(live, root)
    }

    fn visit_portable(&mut self, live: [u64; W], root: bool) -> ControlFlow<End> {
        self.visit_with::<false>(live, root)
    }

    /// A child of the node: the same build as the node's.
    #[inline(always)]
    fn child<const V3: bool>(&mut self, live: [u64; W]) -> ControlFlow<End> {
        if V3 {
            // SAFETY: `visit_with::<true>` runs only inside `visit_v3`,
            // which runs only where the token was had.
            unsafe { self.visit_v3(live, false) }
        } else {
            self.visit_portable(live, false)
        }
    }

    #[inline(always)]
    fn visit_with<const V3: bool>(&mut self, live: [u64; W], root: bool) -> ControlFlow<End> {
        // The item with the least slack (live options less coverings still
        // needed), ties to the first; a negative slack is a dead end, and
        // no item with a live option left means a solution.
        let (mut best, mut negative) = (u32::MAX, 0u32);
        let mut open = self.small.open;
        while open != 0 {
            let p = open.trailing_zeros() as usize;
            open &= open - 1;
            let n: u32 = live.iter().zip(&self.small.item_rows[p]).map(|(l, r)| (l & r).count_ones()).sum();
            let slack = n.wrapping_sub(self.small.need[p]);
            negative |= slack;
            let key = if n == 0 { u32::MAX } else { slack << 8 | p as u32 };
            best = best.min(key);
        }
        if negative & (1 << 31) != 0 {
            if !root {
                self.stats.dead_ends += 1;
            }
            return ControlFlow::Continue(());
        }
        if best == u32::MAX {
            self.stats.solutions += 1;
            self.unreported += 1;
            if self.unreported >= REPORT_EVERY {
                let k = std::mem::take(&mut self.unreported);
                if (self.found)(k).is_break() {
                    return ControlFlow::Break(End::Stopped);
                }
            }
            return ControlFlow::Continue(());
        }
        let (item, slack) = ((best & 0xff) as usize, best >> 8);
        let stop = self.small.need[item] == 0;
        let mut options_left = if stop { slack } else { slack + 1 };
        let row = self.small.item_rows[item];
        let mut tried = 0u32;
        // The item's options already offered, taken out of the later branches.
        let mut before = [0u64; W];
        for k in 0..W {
            let mut bits = live[k] & row[k];
            while bits != 0 && options_left > 0 {
                let bit = bits & bits.wrapping_neg();
                bits ^= bit;
                options_left -= 1;
                let o = k * 64 + bit.trailing_zeros() as usize;
                self.enter(&mut tried)?;
                let mut out = self.small.takes[o];
                for (j, word) in out.iter_mut().enumerate() {
                    *word |= before[j];
                }
                out[k] |= (bit - 1) & row[k];
                self.small.take(o, &mut out);
                let mut child = live;
                for j in 0..W {
                    child[j] &= !out[j];
                }
                let flow = self.child::<V3>(child);
                self.small.give_back(o);
                flow?;
            }
            before[k] = live[k] & row[k];
        }
        if stop {
            // No further option of the item is in the set.
            self.enter(&mut tried)?;
            let mut child = live;
            for j in 0..W {
                child[j] &= !row[j];
            }
            self.child::<V3>(child)?;
        }
        ControlFlow::Continue(())
    }

    /// Books a child about to be visited (the `tried`-th of its node) and
    /// looks at the controls now and then.
    #[inline(always)]
    fn enter(&mut self, tried: &mut u32) -> ControlFlow<End> {
        book_child(&mut self.stats, tried, self.controls)
    }
}

/// Books a child about to be visited (the `tried`-th of its node) as the
/// search core does, and looks at `controls` every [`POLL_INTERVAL`] nodes:
/// shared by the popcount counts.
#[inline(always)]
pub(super) fn book_child(stats: &mut Stats, tried: &mut u32, controls: &[&Control]) -> ControlFlow<End> {
    *tried += 1;
    if *tried == 2 {
        stats.guesses += 1;
    }
    stats.nodes += 1;
    if stats.nodes & (POLL_INTERVAL - 1) == 0 && controls.iter().any(|c| c.is_cancelled()) {
        return ControlFlow::Break(End::Cancelled);
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Order, Space};
    use crate::xcover::{MccBitsSpace, Problem};
    use proptest::prelude::*;

    /// The search core's count of the space's subtree and its statistics.
    fn core_walk(space: &MccBitsSpace) -> (u64, Stats) {
        crate::xcover::random_problems::core_walk(space.clone())
    }

    /// This count of the space's subtree and its statistics.
    fn popcount_walk(space: &MccBitsSpace) -> (u64, Stats) {
        let mut n = 0;
        let (stats, end) = count_here(space.view(), &[], &mut |k| {
            n += k;
            ControlFlow::Continue(())
        })
        .expect("a small problem");
        assert_eq!(end, End::Exhausted);
        (n, stats)
    }

    /// A random problem of up to 6 primary items with bounds, up to 2
    /// secondary items with colors, and up to 200 options (one to four
    /// words of live options).
    fn random_problem() -> impl Strategy<Value = Problem> {
        crate::xcover::random_problems::random_problem(true, 200)
    }

    proptest! {
        #![proptest_config(crate::xcover::random_problems::proptest_config())]
        /// The same walk as the search core's: the same count, nodes, dead
        /// ends and guesses, from the root and from a node below it.
        #[test]
        fn the_popcount_walk_is_the_core_walk(problem in random_problem()) {
            let mut space = MccBitsSpace::new(&problem).unwrap();
            prop_assert_eq!(popcount_walk(&space), core_walk(&space), "{}", problem);
            if let crate::search::Node::Branch(mut branch) = space.expand(Order::Heuristic) {
                if let Some(choice) = space.next_choice(&mut branch) {
                    space.push(choice);
                    prop_assert_eq!(popcount_walk(&space), core_walk(&space), "{}, below {}", problem, choice);
                }
            }
        }
    }

    #[test]
    fn a_walk_stops_when_found_says_so_and_reports_what_it_met() {
        // Two of each row and column of a 6x6 board: 67,950 sets.
        let mut b = Problem::builder();
        for prefix in ["r", "c"] {
            for i in 0..6 {
                b.primary_bounded(&format!("{prefix}{i}"), 2, 2).unwrap();
            }
        }
        for i in 0..6 {
            for j in 0..6 {
                b.option_colored([(format!("r{i}"), None::<&str>), (format!("c{j}"), None)]).unwrap();
            }
        }
        let space = MccBitsSpace::new(&b.build().unwrap()).unwrap();
        assert_eq!(popcount_walk(&space).0, 67_950);
        let mut heard = 0;
        let (stats, end) = count_here(space.view(), &[], &mut |k| {
            heard += k;
            if heard >= 5_000 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!(end, End::Stopped);
        assert!((5_000..67_950).contains(&heard), "{heard}");
        assert_eq!(stats.solutions, heard);
        let cancelled = Control::new();
        cancelled.cancel();
        let (_, end) = count_here(space.view(), &[&cancelled], &mut |_| ControlFlow::Continue(())).unwrap();
        assert_eq!(end, End::Cancelled);
    }
}
