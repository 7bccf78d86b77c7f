//! Counting exact covers on the bitset engine's tree with vector popcounts,
//! on processors with AVX-512 VPOPCNTDQ or AVX2: the count of
//! [`DenseSpace`](super::DenseSpace)'s subtree, node for node the same walk
//! as the search core's, on a leaner state.
//!
//! The bitset engine keeps, per level, every primary item's number of live
//! options, and lowers those numbers option by option as a choice's
//! conflicts take options out: on the pentomino packings, some hundred and
//! fifty options and seven hundred counters per node, most of its time.
//! Here a node keeps only its live options, and counts an open item's live
//! options when it chooses the item to branch on, `popcount(live &
//! options_of_item)`, eight words at a time with AVX-512 and four with AVX2
//! (see [`super::popcount_rows`]). A choice is one pass of
//! `live & !conflicts` over the words. Counted with the scalar popcount
//! instruction the two take about as long, so on other processors the
//! engine's own walk runs.
//!
//! The nodes, dead ends, guesses and solutions it reports are the search
//! core's for the same walk (the completing options of the last level taken
//! in bulk as [`DenseSpace`](super::DenseSpace)'s `take_completing` does),
//! so `--stats` reads the same either way.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use super::popcount_rows::{count_in, mark_items, padded_words, AlignedWords, Rows};
use crate::search::{Control, End, Stats};

/// What the count reads of a [`DenseSpace`](super::DenseSpace) at its
/// current node.
pub(crate) struct View<'a> {
    pub words: usize,
    pub n_primary: usize,
    /// The most primary items in one option, and each option's items
    /// (padded with `n_primary`) and number of them.
    pub stride: usize,
    pub primary_items: &'a [u32],
    pub primary_count: &'a [u32],
    /// Whether every option has `stride` primary items.
    pub uniform: bool,
    /// Row `o` (`words` words): the options that conflict with `o`, `o` included.
    pub conflict: &'a [u64],
    /// Row `p` (`words` words): the options of primary item `p`; and the
    /// same rows padded to whole vectors of eight words, made once per
    /// problem by the first count that needs them.
    pub item_options: &'a [u64],
    pub padded_item_options: &'a OnceLock<AlignedWords>,
    /// The live options at the current node.
    pub live: &'a [u64],
    /// Per primary item: whether it is still to be covered; and how many are.
    pub open: Vec<bool>,
    pub n_open: u32,
}

/// Counts the solutions below the node `view` reads as the search core's
/// walk of [`DenseSpace`](super::DenseSpace) would, or `None` where the
/// processor has neither AVX-512 VPOPCNTDQ nor AVX2 or the problem is too
/// wide for the walk to pay (see [`Rows::pays`]; the caller then walks the
/// space itself).
/// `found(k)` hears of the solutions as the core's walk meets them (one, or
/// the options of a last level taken in bulk), so that a walk stopped by it
/// stops where the core's would; so may any of `controls`, looked at every
/// few thousand nodes.
pub(crate) fn count_here(
    view: View<'_>,
    controls: &[&Control],
    found: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Option<(Stats, End)> {
    count_on(Rows::best()?, view, controls, found)
}

/// [`count_here`] at the node `piece` leads to from the one `view` reads:
/// the walk takes the piece's choices as it takes its own, with no replay
/// through the engine's counters. `None` where [`count_here`] would be;
/// `Some(None)` when a choice of `piece` is not a live option of a node
/// with items still open (the piece came from another space).
pub(crate) fn count_below(
    view: View<'_>,
    piece: &[usize],
    controls: &[&Control],
    found: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Option<Option<(Stats, End)>> {
    let rows = Rows::best()?;
    let mut counter = Counter::new(rows, view, controls, found)?;
    for (depth, &o) in piece.iter().enumerate() {
        let live = &counter.live[depth * counter.words..][..counter.conflict_words];
        if counter.n_open == 0 || live.get(o / 64).is_none_or(|&word| word >> (o % 64) & 1 == 0) {
            return Some(None);
        }
        counter.take(depth, o);
    }
    counter.start = piece.len();
    let end = match counter.visit::<false>(rows, piece.len()) {
        ControlFlow::Continue(()) => End::Exhausted,
        ControlFlow::Break(end) => end,
    };
    Some(Some((counter.stats, end)))
}

/// The pieces of the subtree below the node `view` reads, cut `depth`
/// levels down, and the statistics of the part above them, as
/// [`split_counting`](crate::search::split_counting) gives them for
/// [`DenseSpace`](super::DenseSpace) (the same walk, so the same pieces);
/// `None` where [`count_here`] would be.
pub(crate) fn split_here(view: View<'_>, depth: usize) -> Option<(Vec<Vec<usize>>, Stats)> {
    let rows = Rows::best()?;
    let mut ignore = |_| ControlFlow::Continue(());
    let mut counter = Counter::new(rows, view, &[], &mut ignore)?;
    counter.split.depth = depth;
    // With no controls and no solutions reported, nothing stops the walk.
    let _ = counter.visit::<true>(rows, 0);
    Some((counter.split.pieces, counter.stats))
}

/// [`count_here`] in the build `rows`.
fn count_on(
    rows: Rows,
    view: View<'_>,
    controls: &[&Control],
    found: &mut dyn FnMut(u64) -> ControlFlow<()>,
) -> Option<(Stats, End)> {
    let mut counter = Counter::new(rows, view, controls, found)?;
    let end = match counter.visit::<false>(rows, 0) {
        ControlFlow::Continue(()) => End::Exhausted,
        ControlFlow::Break(end) => end,
    };
    Some((counter.stats, end))
}

/// What a split walk has found: the choices from the start to the node it
/// is at, and the pieces met so far.
#[derive(Default)]
struct Split {
    depth: usize,
    prefix: Vec<usize>,
    pieces: Vec<Vec<usize>>,
}

impl<'a, 'f> Counter<'a, 'f> {
    /// The walk's start at the node `view` reads, in the build `rows`;
    /// `None` where the problem is too wide for it to pay.
    fn new(
        rows: Rows,
        view: View<'a>,
        controls: &'f [&'f Control],
        found: &'f mut dyn FnMut(u64) -> ControlFlow<()>,
    ) -> Option<Self> {
        if !rows.pays(view.n_primary, view.words) {
            return None;
        }
        let (w, np) = (padded_words(view.words), view.n_primary);
        let item_rows = view.padded_item_options.get_or_init(|| {
            let mut rows = AlignedWords::zeroed(np * w);
            for (to, from) in rows.chunks_exact_mut(w).zip(view.item_options.chunks_exact(view.words)) {
                to[..view.words].copy_from_slice(from);
            }
            rows
        });
        let mut open = vec![0u64; np.div_ceil(64).max(1)];
        for (p, _) in view.open.iter().enumerate().filter(|(_, &is_open)| is_open) {
            open[p / 64] |= 1 << (p % 64);
        }
        // Rows for deeper levels are added as the walk first reaches them.
        let mut live = AlignedWords::zeroed(w);
        live[..view.words].copy_from_slice(view.live);
        Some(Counter {
            words: w,
            conflict_words: view.words,
            n_primary: np,
            stride: view.stride,
            uniform: view.uniform,
            primary_items: view.primary_items,
            primary_count: view.primary_count,
            conflict: view.conflict,
            item_rows,
            open,
            n_open: view.n_open,
            live,
            start: 0,
            stats: Stats::default(),
            controls,
            found,
            split: Split::default(),
        })
    }
}

/// The count's tables and its running state.
struct Counter<'a, 'f> {
    /// Words per row of live options (a multiple of eight), and per row of `conflict`.
    words: usize,
    conflict_words: usize,
    n_primary: usize,
    stride: usize,
    uniform: bool,
    primary_items: &'a [u32],
    primary_count: &'a [u32],
    conflict: &'a [u64],
    /// Row `p` (`words` words): the options of primary item `p`.
    item_rows: &'a [u64],
    /// The items still to be covered: one bit each, and how many.
    open: Vec<u64>,
    n_open: u32,
    /// Row `d` (`words` words): the live options `d` levels below the start.
    live: AlignedWords,
    /// The depth the walk counts from (a piece's choices above it), whose
    /// node is not booked as a dead end.
    start: usize,
    stats: Stats,
    controls: &'f [&'f Control],
    found: &'f mut dyn FnMut(u64) -> ControlFlow<()>,
    /// A split walk's state (unused by a count).
    split: Split,
}

impl Counter<'_, '_> {
    /// The node `depth` levels below the start, in the build `rows`,
    /// counted, or split when `SPLIT` (see [`visit_with`](Self::visit_with)).
    fn visit<const SPLIT: bool>(&mut self, rows: Rows, depth: usize) -> ControlFlow<End> {
        match rows {
            // SAFETY: the token proves the features `visit_512` is compiled with.
            Rows::Avx512(_) => unsafe { self.visit_512::<SPLIT>(rows, depth) },
            // SAFETY: as above, for `visit_avx2`.
            Rows::Avx2(_) => unsafe { self.visit_avx2::<SPLIT>(rows, depth) },
        }
    }

    /// [`visit`](Self::visit) compiled for AVX-512 VPOPCNTDQ.
    ///
    /// # Safety
    /// The processor must have the features of [`crate::cpu::Avx512Popcount`]; `rows` holds the token.
    #[cfg_attr(
        target_arch = "x86_64",
        target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vpopcntdq")
    )]
    unsafe fn visit_512<const SPLIT: bool>(&mut self, rows: Rows, depth: usize) -> ControlFlow<End> {
        self.visit_with::<2, SPLIT>(rows, depth)
    }

    /// [`visit`](Self::visit) compiled for AVX2.
    ///
    /// # Safety
    /// The processor must have the features of [`crate::cpu::X86V3`]; `rows` holds the token.
    #[cfg_attr(target_arch = "x86_64", target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt"))]
    unsafe fn visit_avx2<const SPLIT: bool>(&mut self, rows: Rows, depth: usize) -> ControlFlow<End> {
        self.visit_with::<1, SPLIT>(rows, depth)
    }

    /// The node `depth` levels below the start: a solution, a dead end, the
    /// last level of a cover (its options taken in bulk), or a branch whose
    /// children are visited in turn; `L` is the build (2: AVX-512, 1: AVX2).
    /// A split (`SPLIT`) walks as the core's split does: it makes a piece of
    /// each solution and of each branch `split.depth` levels down, and
    /// takes no options in bulk.
    #[inline(always)]
    fn visit_with<const L: u8, const SPLIT: bool>(&mut self, rows: Rows, depth: usize) -> ControlFlow<End> {
        let w = self.words;
        if self.n_open == 0 {
            if SPLIT {
                self.split.pieces.push(self.split.prefix.clone());
                return ControlFlow::Continue(());
            }
            return self.met(1);
        }
        // The open item with the fewest live options, ties to the first;
        // one with none is a dead end.
        let mut best = u64::MAX;
        {
            let live = &self.live[depth * w..(depth + 1) * w];
            for (j, &word) in self.open.iter().enumerate() {
                let mut items = word;
                while items != 0 {
                    let p = j * 64 + items.trailing_zeros() as usize;
                    items &= items - 1;
                    let n = count_in::<L, false>(rows, live, &self.item_rows[p * w..(p + 1) * w]).0;
                    if n == 0 {
                        if depth > self.start {
                            self.stats.dead_ends += 1;
                        }
                        return ControlFlow::Continue(());
                    }
                    best = best.min(u64::from(n) << 32 | p as u64);
                }
            }
        }
        if SPLIT && depth == self.split.depth {
            self.split.pieces.push(self.split.prefix.clone());
            return ControlFlow::Continue(());
        }
        let (item, n) = ((best & 0xffff_ffff) as usize, best >> 32);
        if !SPLIT && self.completes(depth, item) {
            // As the core books options taken in bulk: a node and a
            // solution each, one guess when there are several.
            self.stats.nodes += n;
            if n >= 2 {
                self.stats.guesses += 1;
            }
            return self.met(n);
        }
        let mut tried = 0u32;
        for k in 0..w {
            let mut bits = self.live[depth * w + k] & self.item_rows[item * w + k];
            while bits != 0 {
                let o = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.enter(&mut tried)?;
                if SPLIT {
                    self.split.prefix.push(o);
                }
                self.take(depth, o);
                let flow = if L == 2 {
                    // SAFETY: `visit_with::<2, _>` runs only inside
                    // `visit_512`, which runs only where the token was had.
                    unsafe { self.visit_512::<SPLIT>(rows, depth + 1) }
                } else {
                    // SAFETY: as above, for `visit_avx2`.
                    unsafe { self.visit_avx2::<SPLIT>(rows, depth + 1) }
                };
                self.give_back(o);
                if SPLIT {
                    self.split.prefix.pop();
                }
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Whether every live option of `item` completes the cover (the test
    /// of the engine's `take_completing`): at most `stride` items are open,
    /// and every option has as many primary items as are open.
    fn completes(&self, depth: usize, item: usize) -> bool {
        if self.n_open as usize > self.stride {
            return false;
        }
        if self.uniform {
            return true;
        }
        let w = self.words;
        (0..w).all(|k| {
            let mut bits = self.live[depth * w + k] & self.item_rows[item * w + k];
            while bits != 0 {
                let o = k * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.primary_count[o] != self.n_open {
                    return false;
                }
            }
            true
        })
    }

    /// Books `n` solutions met and reports them.
    fn met(&mut self, n: u64) -> ControlFlow<End> {
        self.stats.solutions += n;
        if (self.found)(n).is_break() {
            return ControlFlow::Break(End::Stopped);
        }
        ControlFlow::Continue(())
    }

    /// Writes row `depth + 1` of the live options: row `depth` less the
    /// options that conflict with `o`; covers `o`'s items.
    #[inline(always)]
    fn take(&mut self, depth: usize, o: usize) {
        let (w, cw) = (self.words, self.conflict_words);
        if self.live.len() < (depth + 2) * w {
            self.live.resize((depth + 2) * w);
        }
        let (here, next) = self.live.split_at_mut((depth + 1) * w);
        let (here, next) = (&here[depth * w..], &mut next[..w]);
        next.copy_from_slice(here);
        for (out, &c) in next.iter_mut().zip(&self.conflict[o * cw..(o + 1) * cw]) {
            *out &= !c;
        }
        let items = &self.primary_items[o * self.stride..(o + 1) * self.stride];
        self.n_open -= mark_items(&mut self.open, items, self.n_primary, false);
    }

    /// Opens again the items [`take`](Self::take)`(_, o)` covered.
    #[inline(always)]
    fn give_back(&mut self, o: usize) {
        let items = &self.primary_items[o * self.stride..(o + 1) * self.stride];
        self.n_open += mark_items(&mut self.open, items, self.n_primary, true);
    }

    /// Books a child about to be visited (the `tried`-th of its node) and
    /// looks at the controls now and then.
    #[inline(always)]
    fn enter(&mut self, tried: &mut u32) -> ControlFlow<End> {
        super::mcc_pop::book_child(&mut self.stats, tried, self.controls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Order, Space};
    use crate::xcover::{DenseSpace, Problem};
    use proptest::prelude::*;

    /// The search core's count of the space's subtree and its statistics.
    fn core_walk(space: &DenseSpace) -> (u64, Stats) {
        crate::xcover::random_problems::core_walk(space.clone())
    }

    /// This count of the space's subtree in the build `rows` and its statistics.
    fn wide_walk(rows: Rows, space: &DenseSpace) -> (u64, Stats) {
        let mut n = 0;
        let (stats, end) = count_on(rows, space.view(), &[], &mut |k| {
            n += k;
            ControlFlow::Continue(())
        })
        .expect("a problem the walk takes");
        assert_eq!(end, End::Exhausted);
        (n, stats)
    }

    /// A random exact cover with colors: up to 6 primary items, up to 2
    /// secondary items, up to 60 or up to 600 options (one to ten words).
    fn random_problem() -> impl Strategy<Value = Problem> {
        use crate::xcover::random_problems::random_problem;
        prop_oneof![random_problem(false, 60), random_problem(false, 600)]
    }

    proptest! {
        #![proptest_config(crate::xcover::random_problems::proptest_config())]
        /// The same walk as the search core's: the same count, nodes, dead
        /// ends and guesses, from the root and from a node below it.
        #[test]
        fn the_wide_walk_is_the_core_walk(problem in random_problem()) {
            let mut space = DenseSpace::new(&problem).unwrap();
            for rows in Rows::all() {
                prop_assert_eq!(wide_walk(rows, &space), core_walk(&space), "{:?}\n{}", rows, problem);
            }
            if let crate::search::Node::Branch(mut branch) = space.expand(Order::Heuristic) {
                if let Some(choice) = space.next_choice(&mut branch) {
                    space.push(choice);
                    for rows in Rows::all() {
                        let (wide, core) = (wide_walk(rows, &space), core_walk(&space));
                        prop_assert_eq!(wide, core, "{:?}\n{}, below {}", rows, problem, choice);
                    }
                }
            }
        }
    }

    /// A pentomino packing (1,928 options, 72 items, options of 6 items):
    /// the same count and figures as the core's, below a few of its first
    /// choices (the whole walk is left to the integration tests).
    #[test]
    fn the_wide_walk_is_the_core_walk_on_a_packing() {
        crate::xcover::popcount_rows::say_which_builds_cannot_run("the_wide_walk_is_the_core_walk_on_a_packing");
        let problem = crate::xcover::random_problems::fixture("pentomino-6x10.dlx");
        let mut space = DenseSpace::new(&problem).unwrap();
        let crate::search::Node::Branch(mut root) = space.expand(Order::Heuristic) else { panic!("a branch") };
        let mut compared = 0;
        while let Some(first) = space.next_choice(&mut root) {
            space.push(first);
            if let crate::search::Node::Branch(mut branch) = space.expand(Order::Heuristic) {
                if let Some(second) = space.next_choice(&mut branch) {
                    space.push(second);
                    for rows in Rows::all() {
                        assert_eq!(wide_walk(rows, &space), core_walk(&space), "{rows:?} below {first}, {second}");
                    }
                    compared += 1;
                    space.pop();
                }
            }
            space.pop();
            if compared == 3 {
                break;
            }
        }
        assert_eq!(compared, 3);
    }
}
