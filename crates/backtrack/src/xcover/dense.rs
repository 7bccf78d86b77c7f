//! The bitset engine, for problems with a modest number of options.
//!
//! Every option is a bit in a bitset. Two options that cannot both be in a
//! solution (they share a primary item, an uncolored secondary item, or a
//! secondary item with different colors) *conflict*; because Knuth's color
//! rule only ever compares two options with each other, the whole conflict
//! relation is known before the search starts and is stored as one bitset
//! row per option. Choosing an option is then one pass of `live &= !row`
//! over a few machine words, and the options that pass removes are exactly
//! the bits of `live & row`: for each of them the live-option counts of its
//! primary items go down by one. Those counts drive the minimum-remaining-
//! values choice. Each level of the search keeps its own copy of the live
//! set and of the counts, so undoing a choice is just stepping back a level.

use std::sync::{Arc, OnceLock};

use super::item_index::{bytes_of, with_stride, ItemIndex, StrideBody};
use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// Key value marking a primary item that is already covered.
const COVERED: u32 = u32::MAX;

/// Each primary item's *key* is `live_count << COUNT_SHIFT | item`, so the
/// smallest key names the item with the fewest live options, ties going to
/// the first item, and one branch-free minimum over the keys (which the
/// compiler vectorizes) is the whole MRV choice.
const COUNT_SHIFT: u32 = 16;
const ONE: u32 = 1 << COUNT_SHIFT;

/// The largest number of options the bitset engine accepts (the conflict rows
/// take `options² / 8` bytes).
pub const MAX_OPTIONS: usize = 16_384;

/// The most primary items the bitset engine accepts (item indices live in the low bits of the keys).
pub const MAX_PRIMARY: usize = 1 << COUNT_SHIFT;

/// Whether the bitset engine is expected to beat dancing links on `problem`.
///
/// Its cost per node grows with the number of options (one bit each in the
/// live set, copied per level) and of primary items (one key each, copied and
/// scanned per level), while dancing links pays only for the entries a choice
/// touches. The bounds below sit where the measured crossover lies (the
/// figures are in the README's exact-cover section).
pub fn suits(problem: &Problem) -> bool {
    problem.n_options() <= 8192 && problem.n_primary() <= 512
}

/// Tables shared (read-only) by every copy of a [`DenseSpace`].
#[derive(Debug)]
struct Tables {
    /// 64-bit words in one option bitset.
    words: usize,
    n_options: usize,
    n_primary: usize,
    /// The most primary items in one option.
    stride: usize,
    /// Primary items of option `o`: `primary_items[o * stride..(o + 1) * stride]`, padded
    /// with `n_primary` (a scratch slot after the keys, whose value never matters) so that every option
    /// has the same length and the update loop runs a fixed number of times.
    primary_items: Vec<u32>,
    /// `primary_items` in bytes, or empty when they do not fit (see [`super::item_index`]).
    primary_bytes: Vec<u8>,
    /// Row `o` (`words` words): the options that conflict with option `o`, `o` included.
    conflict: Vec<u64>,
    /// Row `p` (`words` words): the options that contain primary item `p`.
    item_options: Vec<u64>,
    /// Number of primary items in option `o`.
    primary_count: Vec<u32>,
    /// Whether every option has `stride` primary items.
    uniform: bool,
    /// `item_options` with rows padded for the popcount count, made by it
    /// the first time it runs (see [`super::dense_pop`]) and then shared by
    /// every piece and thread of a parallel count.
    padded_item_options: OnceLock<super::popcount_rows::AlignedWords>,
}

/// A search position for the bitset engine; plugs into [`crate::search`].
#[derive(Debug, Clone)]
pub struct DenseSpace {
    tables: Arc<Tables>,
    depth: usize,
    /// Level `d` occupies words `d * words .. (d + 1) * words`: the options still possible.
    live: Vec<u64>,
    /// Level `d` occupies `d * (n_primary + 1) ..`: each primary item's key, or
    /// [`COVERED`], then one scratch slot.
    keys: Vec<u32>,
    /// Level `d`: the number of primary items not yet covered.
    open: Vec<u32>,
    chosen: Vec<usize>,
}

/// Cursor over the live options of the item a node branches on.
#[derive(Debug, Clone, Copy)]
pub struct DenseBranch {
    item: u32,
    word: u32,
    bits: u64,
}

impl DenseSpace {
    /// The root of `problem`'s search, or `None` when it has more than
    /// [`MAX_OPTIONS`] options or [`MAX_PRIMARY`] primary items.
    pub fn new(problem: &Problem) -> Option<Self> {
        let n_options = problem.n_options();
        if n_options > MAX_OPTIONS || problem.n_primary() > MAX_PRIMARY {
            return None;
        }
        let words = n_options.div_ceil(64).max(1);
        let n_primary = problem.n_primary();
        // Options of every item, with the color each gives it.
        let mut by_item: Vec<Vec<(u32, u32)>> = vec![Vec::new(); problem.n_items()];
        let stride = (0..n_options)
            .map(|o| problem.option(o).iter().filter(|e| (e.item as usize) < n_primary).count())
            .max()
            .unwrap_or(1);
        let mut primary_items = Vec::with_capacity(n_options * stride);
        for o in 0..n_options {
            for e in problem.option(o) {
                by_item[e.item as usize].push((o as u32, e.color));
                if (e.item as usize) < n_primary {
                    primary_items.push(e.item);
                }
            }
            primary_items.resize((o + 1) * stride, n_primary as u32);
        }
        let conflict = conflict_rows(problem, words);
        let mut item_options = vec![0u64; n_primary * words];
        let mut keys = vec![0u32; n_primary + 1];
        for p in 0..n_primary {
            for &(r, _) in &by_item[p] {
                item_options[p * words + r as usize / 64] |= 1 << (r % 64);
            }
            keys[p] = (by_item[p].len() as u32) << COUNT_SHIFT | p as u32;
        }
        let mut live = vec![0u64; words];
        for o in 0..n_options {
            live[o / 64] |= 1 << (o % 64);
        }
        let primary_count: Vec<u32> = (0..n_options)
            .map(|o| problem.option(o).iter().filter(|e| (e.item as usize) < n_primary).count() as u32)
            .collect();
        let uniform = primary_count.iter().all(|&c| c as usize == stride);
        let tables = Tables {
            words,
            n_options,
            n_primary,
            stride,
            primary_bytes: bytes_of(&primary_items, n_primary),
            primary_items,
            conflict,
            item_options,
            primary_count,
            uniform,
            padded_item_options: OnceLock::new(),
        };
        let open = vec![n_primary as u32];
        Some(DenseSpace { tables: Arc::new(tables), depth: 0, live, keys, open, chosen: Vec::new() })
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }

    /// What the wide popcount count reads at the current node.
    pub(crate) fn view(&self) -> super::dense_pop::View<'_> {
        let t = &*self.tables;
        let (w, d, np) = (t.words, self.depth, t.n_primary);
        let keys = &self.keys[d * (np + 1)..d * (np + 1) + np];
        super::dense_pop::View {
            words: w,
            n_primary: np,
            stride: t.stride,
            primary_items: &t.primary_items,
            primary_count: &t.primary_count,
            uniform: t.uniform,
            conflict: &t.conflict,
            item_options: &t.item_options,
            padded_item_options: &t.padded_item_options,
            live: &self.live[d * w..(d + 1) * w],
            open: keys.iter().map(|&key| key != COVERED).collect(),
            n_open: self.open[d],
        }
    }

    /// The bytes a clone of this space takes beyond the tables it shares.
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of;
        self.live.capacity() * size_of::<u64>()
            + (self.keys.capacity() + self.open.capacity()) * size_of::<u32>()
            + self.chosen.capacity() * size_of::<usize>()
    }
}

/// The conflict relation as `problem.n_options()` rows of `words` words: bit
/// `r` of row `o` says options `o` and `r` cannot be in one solution (they
/// share a primary item, an uncolored secondary item, or a secondary item
/// they color differently); every option conflicts with itself.
pub(crate) fn conflict_rows(problem: &Problem, words: usize) -> Vec<u64> {
    let n_options = problem.n_options();
    let mut by_item: Vec<Vec<(u32, u32)>> = vec![Vec::new(); problem.n_items()];
    for o in 0..n_options {
        for e in problem.option(o) {
            by_item[e.item as usize].push((o as u32, e.color));
        }
    }
    let mut conflict = vec![0u64; n_options * words];
    let set = |row: &mut [u64], r: u32| row[r as usize / 64] |= 1 << (r % 64);
    // Scratch rows: an item's options, and those of one of its colors.
    let (mut all, mut same) = (vec![0u64; words], vec![0u64; words]);
    for options in &mut by_item {
        // Options that share the item conflict, unless both give it the same color.
        if options.len() <= words {
            // Few options: pair by pair.
            for &(o, color) in options.iter() {
                let row = &mut conflict[o as usize * words..][..words];
                for &(r, _) in options.iter().filter(|&&(_, c)| color == 0 || c != color) {
                    set(row, r);
                }
            }
            continue;
        }
        // Many: whole rows, an option taking every option of the item, or
        // all but those of its own color. On pentomino-5x12 this makes the
        // table in a tenth of the time pair by pair takes.
        all.fill(0);
        for &(r, _) in options.iter() {
            set(&mut all, r);
        }
        options.sort_unstable_by_key(|&(o, color)| (color, o));
        for group in options.chunk_by(|a, b| a.1 == b.1) {
            let color = group[0].1;
            if color != 0 {
                same.fill(0);
                for &(r, _) in group {
                    set(&mut same, r);
                }
            }
            for &(o, _) in group {
                let row = &mut conflict[o as usize * words..][..words];
                for (k, word) in row.iter_mut().enumerate() {
                    *word |= if color == 0 { all[k] } else { all[k] & !same[k] };
                }
            }
        }
    }
    conflict
}

/// A call of [`remove_conflicts`] waiting for its table and stride (see
/// [`with_stride`]). Made only in [`DenseSpace::push`], where its contract holds.
struct RemoveConflicts<'t> {
    t: &'t Tables,
    option: usize,
    live_here: *const u64,
    live_next: *mut u64,
    keys_next: *mut u32,
}

impl StrideBody for RemoveConflicts<'_> {
    type Output = ();

    #[inline(always)]
    fn run<const PER: usize, I: ItemIndex>(self, items: &[I]) {
        let RemoveConflicts { t, option, live_here, live_next, keys_next } = self;
        // SAFETY: `push` makes this value with the rows and the option the
        // contract asks for, and `with_stride` passes one of `t`'s two
        // tables with `PER` 0 or `t.stride`.
        unsafe { remove_conflicts::<PER, I>(t, items, option, live_here, live_next, keys_next) }
    }
}

/// Writes the next level's live set (`live_here` less the options that
/// conflict with `option`), decrements in `keys_next` (a copy of the current
/// keys) the counts of every primary item of every option that removes, and
/// marks `option`'s own items covered. `PER` is `t.stride`, or 0 for "read
/// it from `t`".
///
/// # Safety
/// `option < t.n_options`; `live_here` and `live_next` hold `t.words` words,
/// `keys_next` `t.n_primary + 1` keys; `PER` is 0 or `t.stride`; `items` is
/// one of `t`'s two tables of primary items (`t.stride` entries per option,
/// each at most `t.n_primary`).
#[inline(always)]
unsafe fn remove_conflicts<const PER: usize, I: ItemIndex>(
    t: &Tables,
    items: &[I],
    option: usize,
    live_here: *const u64,
    live_next: *mut u64,
    keys_next: *mut u32,
) {
    // SAFETY: every offset and access below stays inside the rows the
    // contract names (`option < t.n_options`, `t.words` live words, `t.n_primary
    // + 1` keys, entries below `t.n_primary + 1`).
    unsafe {
        let w = t.words;
        let per = if PER == 0 { t.stride } else { PER };
        let row = t.conflict.as_ptr().add(option * w);
        debug_assert_eq!(items.len(), t.n_options * per);
        let items = items.as_ptr();
        for k in 0..w {
            let (l, c) = (*live_here.add(k), *row.add(k));
            *live_next.add(k) = l & !c;
            let mut removed = l & c;
            while removed != 0 {
                let r = k * 64 + removed.trailing_zeros() as usize;
                removed &= removed - 1;
                let entries = items.add(r * per);
                for j in 0..per {
                    // Padding entries land on the scratch slot at `np`; the
                    // chosen option's own items are overwritten below.
                    let key = keys_next.add((*entries.add(j)).index());
                    *key = (*key).wrapping_sub(ONE);
                }
            }
        }
        let own = items.add(option * per);
        for j in 0..per {
            *keys_next.add((*own.add(j)).index()) = COVERED;
        }
    }
}

impl Space for DenseSpace {
    type Branch = DenseBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    #[inline]
    fn expand(&mut self, order: Order) -> Node<DenseBranch> {
        let t = &*self.tables;
        let np = t.n_primary;
        let stride = np + 1;
        let keys = &self.keys[self.depth * stride..self.depth * stride + np];
        let best = match order {
            // Minimum remaining values, ties to the first item.
            Order::Heuristic => keys.iter().fold(COVERED, |m, &k| m.min(k)),
            Order::Lexicographic => keys.iter().copied().find(|&k| k != COVERED).unwrap_or(COVERED),
        };
        if best == COVERED {
            return Node::Solution;
        }
        if best < ONE {
            return Node::Dead;
        }
        let best_item = (best & (ONE - 1)) as usize;
        let w = t.words;
        let bits = self.live[self.depth * w] & t.item_options[best_item * w];
        Node::Branch(DenseBranch { item: best_item as u32, word: 0, bits })
    }

    #[inline(always)]
    fn next_choice(&mut self, branch: &mut DenseBranch) -> Option<usize> {
        let t = &*self.tables;
        let w = t.words;
        while branch.bits == 0 {
            branch.word += 1;
            let k = branch.word as usize;
            if k >= w {
                return None;
            }
            branch.bits = self.live[self.depth * w + k] & t.item_options[branch.item as usize * w + k];
        }
        let o = branch.word as usize * 64 + branch.bits.trailing_zeros() as usize;
        branch.bits &= branch.bits - 1;
        Some(o)
    }

    #[inline]
    fn push(&mut self, option: usize) -> bool {
        let t = &*self.tables;
        let (w, np, d) = (t.words, t.n_primary, self.depth);
        let stride = np + 1;
        // Checked once here so that the loops below can index without checks.
        assert!(option < t.n_options, "option {option} out of range");
        if self.live.len() < (d + 2) * w {
            self.live.resize((d + 2) * w, 0);
            self.keys.resize((d + 2) * stride, 0);
        }
        if self.open.len() < d + 2 {
            self.open.resize(d + 2, 0);
        }
        self.open[d + 1] = self.open[d] - t.primary_count[option];
        // SAFETY: `live` holds at least `d + 2` levels of `w` words and `keys`
        // at least `d + 2` levels of `stride` keys (resized just above); `option`
        // and every `r` taken from a live bitset are below the number of
        // options, so rows `option` and `r` of `conflict` (`w` words each) and
        // of both tables of primary items (`t.stride` entries each) exist;
        // every entry of them is at most `np < stride`.
        unsafe {
            let live_here = self.live.as_ptr().add(d * w);
            let live_next = self.live.as_mut_ptr().add((d + 1) * w);
            let keys_here = self.keys.as_ptr().add(d * stride);
            let keys_next = self.keys.as_mut_ptr().add((d + 1) * stride);
            for j in 0..stride {
                *keys_next.add(j) = *keys_here.add(j);
            }
            let remove = RemoveConflicts { t, option, live_here, live_next, keys_next };
            with_stride(&t.primary_items, &t.primary_bytes, t.stride, remove);
        }
        self.chosen.push(option);
        self.depth += 1;
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
    /// holds all the open items, and each of them is a solution: a live
    /// option conflicts with no chosen one, so its primary items are all
    /// open, and it covers every open item when it has as many as are open.
    fn take_completing(&mut self, branch: &mut DenseBranch) -> u64 {
        let t = &*self.tables;
        let open = self.open[self.depth];
        if open as usize > t.stride {
            return 0;
        }
        let w = t.words;
        let item = branch.item as usize;
        if !t.uniform {
            // Every remaining alternative must complete the cover, or none is taken.
            for k in branch.word as usize..w {
                let mut bits = if k == branch.word as usize {
                    branch.bits
                } else {
                    self.live[self.depth * w + k] & t.item_options[item * w + k]
                };
                while bits != 0 {
                    let o = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if t.primary_count[o] != open {
                        return 0;
                    }
                }
            }
        }
        let key = self.keys[self.depth * (t.n_primary + 1) + item];
        branch.bits = 0;
        branch.word = w as u32;
        (key >> COUNT_SHIFT) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::random_problems::random_problem;
    use proptest::prelude::*;

    proptest! {
        /// The table says, for every pair of options, whether they share an
        /// item and do not both give it the same color, whichever way it
        /// was made (the random problems have items with fewer options and
        /// more than a row has words).
        #[test]
        fn conflict_rows_are_the_pairwise_relation(problem in random_problem(false, 300)) {
            let n = problem.n_options();
            let words = n.div_ceil(64).max(1);
            let rows = conflict_rows(&problem, words);
            for o in 0..n {
                for r in 0..n {
                    let clash = problem.option(o).iter().any(|e| {
                        problem.option(r).iter().any(|f| f.item == e.item && (e.color == 0 || f.color != e.color))
                    });
                    prop_assert_eq!(rows[o * words + r / 64] >> (r % 64) & 1 == 1, clash, "options {} and {}", o, r);
                }
            }
        }
    }
}
