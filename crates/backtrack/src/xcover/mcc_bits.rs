//! The bitset engine for multiple covers: [`MccSpace`](super::MccSpace)'s
//! search, node for node, on the bitset engine's data structures.
//!
//! The branching is the one the [multiple-cover engine](super::mcc)
//! explains: a node picks the primary item with the fewest branches (its
//! live options less the coverings it still needs, plus one) and its `j`-th
//! branch makes the `j`-th live option of the item the first of the item's
//! options in the set, putting the ones before it out of the subtree; when
//! the item has its lower bound, a last branch takes none of its options.
//!
//! As in the [bitset engine](super::dense), each level of the search holds
//! its own copy of the live options (one bit each) and of every primary
//! item's number of live options, so that undoing a choice is stepping back
//! a level. A choice takes out, in one pass over the words, the union of a
//! few precomputed rows: the options it conflicts with through its
//! secondary items (colors included), the options of every item it brings
//! to its upper bound, and the options of the node's item before it. The
//! counts go down by one per primary item of each option that pass removes.
//! What an item still needs is its lower bound less the chosen options that
//! cover it, one counter per item which a pop gives back.

use std::sync::Arc;

use super::item_index::{bytes_of, with_stride, ItemIndex, StrideBody};
use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// The most options this engine takes: beyond them a conflict row per
/// option would take too much memory, and the list engine runs instead.
pub const MAX_OPTIONS: usize = 8192;

/// The most primary items this engine takes (an item's index fills the low bits of its key).
pub const MAX_PRIMARY: usize = 1 << ITEM_BITS;

/// Bits of an item's key that hold its index; its slack, at most
/// [`MAX_OPTIONS`], fills the others.
const ITEM_BITS: u32 = 16;

/// Whether `problem` fits this engine.
pub fn fits(problem: &Problem) -> bool {
    problem.n_options() <= MAX_OPTIONS && problem.n_primary() <= MAX_PRIMARY
}

/// What no choice changes, shared by every copy.
#[derive(Debug)]
struct Tables {
    words: usize,
    n_options: usize,
    n_primary: usize,
    /// Per primary item: its upper bound less its lower one (the coverings beyond the ones it needs).
    hi_less_lo: Vec<u32>,
    /// The most primary items in one option.
    stride: usize,
    /// Option `o`'s primary items: `primary_items[o * stride..(o + 1) * stride]`, padded with
    /// `n_primary`, a scratch counter whose value never matters.
    primary_items: Vec<u32>,
    /// `primary_items` in bytes, or empty when they do not fit (see
    /// [`super::item_index`]; 4-5% of the 8x8 cost packing's time).
    primary_bytes: Vec<u8>,
    /// Row `o` (`words` words): `o` and the options it conflicts with through a
    /// secondary item; empty when the problem has no secondary item (then `o`'s
    /// own bit is all a choice of it takes out besides its primary items).
    conflict: Vec<u64>,
    /// Row `p` (`words` words): the options that contain primary item `p`.
    item_rows: Vec<u64>,
}

impl Tables {
    fn primary_of(&self, o: usize) -> &[u32] {
        &self.primary_items[o * self.stride..(o + 1) * self.stride]
    }
}

/// A search position for the bitset multiple-cover engine; plugs into [`crate::search`].
#[derive(Debug, Clone)]
pub struct MccBitsSpace {
    tables: Arc<Tables>,
    depth: usize,
    /// Level `d`: words `d * words..(d + 1) * words`, the live options.
    live: Vec<u64>,
    /// Level `d`: `d * (n_primary + 1)..`, each primary item's live options, then a scratch slot.
    counts: Vec<u32>,
    /// Per primary item: the coverings it still needs (its lower bound less the chosen options that cover it, or 0).
    need: Vec<u32>,
    /// Per primary item: the coverings it may still take (its upper bound less the chosen options that cover it).
    room: Vec<u32>,
    /// Per depth: the item the node there branches on (set by `expand`).
    branch_item: Vec<u32>,
    /// Per depth below the current one: the choice made there.
    choices: Vec<u32>,
    /// The options chosen so far, in the order they were chosen.
    chosen: Vec<usize>,
    /// Scratch: the saturated items of the choice being pushed.
    saturated: Vec<u32>,
}

/// Cursor over the alternatives of the item a node branches on.
#[derive(Debug, Clone, Copy)]
pub struct MccBitsBranch {
    item: u32,
    word: u32,
    bits: u64,
    /// Options still to offer.
    options_left: u32,
    /// Whether the "no more options of this item" branch is still to offer.
    stop: bool,
}

impl MccBitsSpace {
    /// The root of `problem`'s search, or `None` when it does not [`fits`].
    pub fn new(problem: &Problem) -> Option<Self> {
        if !fits(problem) {
            return None;
        }
        let n_options = problem.n_options();
        let words = n_options.div_ceil(64).max(1);
        let np = problem.n_primary();
        let is_primary = |e: &super::Entry| (e.item as usize) < np;
        let stride = (0..n_options).map(|o| problem.option(o).iter().filter(|e| is_primary(e)).count()).max();
        let stride = stride.unwrap_or(1).max(1);
        let mut primary_items = Vec::with_capacity(n_options * stride);
        let mut item_rows = vec![0u64; np * words];
        let mut counts = vec![0u32; np + 1];
        let mut by_secondary: Vec<Vec<(u32, u32)>> = vec![Vec::new(); problem.n_items() - np];
        for o in 0..n_options {
            for e in problem.option(o) {
                let i = e.item as usize;
                if i < np {
                    primary_items.push(e.item);
                    item_rows[i * words + o / 64] |= 1 << (o % 64);
                    counts[i] += 1;
                } else {
                    by_secondary[i - np].push((o as u32, e.color));
                }
            }
            primary_items.resize((o + 1) * stride, np as u32);
        }
        let mut conflict = Vec::new();
        if by_secondary.iter().any(|list| !list.is_empty()) {
            conflict = vec![0u64; n_options * words];
            for o in 0..n_options {
                let row = &mut conflict[o * words..(o + 1) * words];
                row[o / 64] |= 1 << (o % 64);
                for e in problem.option(o).iter().filter(|e| !is_primary(e)) {
                    for &(r, color) in &by_secondary[e.item as usize - np] {
                        if e.color == 0 || color != e.color {
                            row[r as usize / 64] |= 1 << (r % 64);
                        }
                    }
                }
            }
        }
        let (lo_bounds, hi_bounds): (Vec<u32>, Vec<u32>) = (0..np).map(|p| problem.bounds(p)).unzip();
        let mut live = vec![0u64; words];
        for o in 0..n_options {
            live[o / 64] |= 1 << (o % 64);
        }
        let hi_less_lo = lo_bounds.iter().zip(&hi_bounds).map(|(lo, hi)| hi - lo).collect();
        let primary_bytes = bytes_of(&primary_items, np);
        let tables = Tables {
            words,
            n_options,
            n_primary: np,
            hi_less_lo,
            stride,
            primary_items,
            primary_bytes,
            conflict,
            item_rows,
        };
        Some(MccBitsSpace {
            tables: Arc::new(tables),
            depth: 0,
            live,
            counts,
            need: lo_bounds,
            room: hi_bounds,
            branch_item: Vec::new(),
            choices: Vec::new(),
            chosen: Vec::new(),
            saturated: Vec::new(),
        })
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }

    /// Per primary item: the coverings it still needs.
    pub(crate) fn needs(&self) -> &[u32] {
        &self.need
    }

    /// Whether option `o` is still live at the current node.
    #[inline]
    pub(crate) fn is_live(&self, o: usize) -> bool {
        let w = self.tables.words;
        self.live[self.depth * w + o / 64] >> (o % 64) & 1 != 0
    }

    /// The first live option of primary item `p` (the cheapest, in the cost
    /// search's numbering), if it has one.
    #[inline]
    pub(crate) fn first_live(&self, p: usize) -> Option<usize> {
        let w = self.tables.words;
        let live = &self.live[self.depth * w..(self.depth + 1) * w];
        let row = &self.tables.item_rows[p * w..(p + 1) * w];
        live.iter()
            .zip(row)
            .position(|(&l, &r)| l & r != 0)
            .map(|k| k * 64 + (live[k] & row[k]).trailing_zeros() as usize)
    }

    /// What the popcount count reads at the current node.
    pub(crate) fn view(&self) -> super::mcc_pop::View<'_> {
        let t = &*self.tables;
        let (w, d) = (t.words, self.depth);
        super::mcc_pop::View {
            words: w,
            n_options: t.n_options,
            n_primary: t.n_primary,
            hi_less_lo: &t.hi_less_lo,
            stride: t.stride,
            primary_items: &t.primary_items,
            conflict: &t.conflict,
            item_rows: &t.item_rows,
            live: &self.live[d * w..(d + 1) * w],
            need: &self.need,
            room: &self.room,
        }
    }

    /// Takes `choice` as [`Space::push`] does, and puts the options at or
    /// past `limit` out of the subtree too (the cost search's options too
    /// dear to take below this choice: options are numbered by cost).
    #[inline]
    pub(crate) fn push_below(&mut self, choice: usize, limit: usize) {
        self.push_and_remove(choice, |k| {
            let first = k * 64;
            if first >= limit {
                !0
            } else if first + 64 <= limit {
                0
            } else {
                !0 << (limit - first)
            }
        });
    }

    /// Takes `choice` (see [`Space::push`]) and puts out of the subtree as
    /// well the options of `extra(k)` in word `k`.
    #[inline(always)]
    fn push_and_remove(&mut self, choice: usize, extra: impl Fn(usize) -> u64) {
        let d = self.depth;
        let MccBitsSpace { tables, live, counts, need, room, branch_item, choices, chosen, saturated, .. } = self;
        let t = &**tables;
        let w = t.words;
        if choices.len() <= d {
            choices.resize(d + 1, 0);
        }
        choices[d] = choice as u32;
        self.depth = d + 1;
        if choice >= t.n_options {
            // No further option of this item is in the set.
            let item = choice - t.n_options;
            step(t, live, counts, d, |k| t.item_rows[item * w + k] | extra(k));
            return;
        }
        let o = choice;
        saturated.clear();
        for &p in t.primary_of(o) {
            let p = p as usize;
            if p < t.n_primary {
                need[p] = need[p].saturating_sub(1);
                room[p] -= 1;
                if room[p] == 0 {
                    saturated.push(p as u32);
                }
            }
        }
        // The options of the node's item before `o` are not in the set.
        let item = branch_item[d] as usize;
        let (first_word, first_bit) = (o / 64, o % 64);
        let has_conflicts = !t.conflict.is_empty();
        let sat = &*saturated;
        step(t, live, counts, d, |k| {
            let row = t.item_rows[item * w + k];
            let mut r = match k.cmp(&first_word) {
                std::cmp::Ordering::Less => row,
                std::cmp::Ordering::Equal => row & ((1u64 << first_bit) - 1),
                std::cmp::Ordering::Greater => 0,
            };
            r |= if has_conflicts {
                t.conflict[o * w + k]
            } else if k == first_word {
                1u64 << first_bit
            } else {
                0
            };
            for &p in sat {
                r |= t.item_rows[p as usize * w + k];
            }
            r | extra(k)
        });
        chosen.push(o);
    }

    /// The bytes a clone of this space takes beyond the tables it shares.
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of;
        self.live.capacity() * size_of::<u64>()
            + (self.counts.capacity()
                + self.need.capacity()
                + self.room.capacity()
                + self.branch_item.capacity()
                + self.choices.capacity()
                + self.saturated.capacity())
                * size_of::<u32>()
            + self.chosen.capacity() * size_of::<usize>()
    }
}

/// Writes level `d + 1` of `live` and `counts`: level `d`'s live options
/// less `remove(k)` in word `k`, with the counts of the removed options'
/// primary items lowered (most of a node's work on packings, compiled per
/// common stride by [`with_stride`]).
#[inline(always)]
fn step(t: &Tables, live: &mut Vec<u64>, counts: &mut Vec<u32>, d: usize, remove: impl Fn(usize) -> u64) {
    with_stride(&t.primary_items, &t.primary_bytes, t.stride, Step { t, live, counts, d, remove });
}

/// A call of [`step_with`] waiting for its table and stride.
struct Step<'a, R> {
    t: &'a Tables,
    live: &'a mut Vec<u64>,
    counts: &'a mut Vec<u32>,
    d: usize,
    remove: R,
}

impl<R: Fn(usize) -> u64> StrideBody for Step<'_, R> {
    type Output = ();

    #[inline(always)]
    fn run<const PER: usize, I: ItemIndex>(self, items: &[I]) {
        step_with::<PER, I>(self.t, items, self.live, self.counts, self.d, self.remove);
    }
}

/// [`step`] for options of `PER` primary item slots (`t.stride`), or of
/// any stride when `PER` is 0.
#[inline(always)]
fn step_with<const PER: usize, I: ItemIndex>(
    t: &Tables,
    primary_items: &[I],
    live: &mut Vec<u64>,
    counts: &mut Vec<u32>,
    d: usize,
    remove: impl Fn(usize) -> u64,
) {
    let (w, stride) = (t.words, t.n_primary + 1);
    let per = if PER == 0 { t.stride } else { PER };
    debug_assert_eq!(per, t.stride);
    if live.len() < (d + 2) * w {
        live.resize((d + 2) * w, 0);
        counts.resize((d + 2) * stride, 0);
    }
    let (here, next) = counts.split_at_mut((d + 1) * stride);
    let counts_next = &mut next[..stride];
    counts_next.copy_from_slice(&here[d * stride..]);
    let (live_here, live_next) = live.split_at_mut((d + 1) * w);
    let live_here = &live_here[d * w..];
    let items = primary_items.as_ptr();
    let n_items = primary_items.len();
    for k in 0..w {
        let (l, r) = (live_here[k], remove(k));
        live_next[k] = l & !r;
        let mut removed = l & r;
        while removed != 0 {
            let o = k * 64 + removed.trailing_zeros() as usize;
            removed &= removed - 1;
            assert!((o + 1) * per <= n_items);
            for j in 0..per {
                // SAFETY: `o` is an option (a live bit), so its `per` entries
                // lie inside `primary_items` (checked above); each is at most
                // `n_primary`, an index of `counts_next`, which has `n_primary + 1` slots.
                // The last slot, which the padding of options with fewer primary
                // items than `per` lowers, is scratch and never read: it wraps.
                unsafe {
                    let p = (*items.add(o * per + j)).index();
                    let count = counts_next.get_unchecked_mut(p);
                    *count = count.wrapping_sub(1);
                }
            }
        }
    }
}

impl MccBitsBranch {
    /// Offers none of the options left, only the "no more" branch if there is one.
    pub(crate) fn skip_options(&mut self) {
        self.options_left = 0;
    }
}

impl Space for MccBitsSpace {
    type Branch = MccBitsBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    #[inline]
    fn expand(&mut self, order: Order) -> Node<MccBitsBranch> {
        let t = &*self.tables;
        let np = t.n_primary;
        let counts = &self.counts[self.depth * (np + 1)..self.depth * (np + 1) + np];
        let need = &self.need[..np];
        // Per item, its slack (live options less the coverings still needed,
        // one less than its branches) above the item's index, so that the
        // smallest key names the item to branch on, ties to the first; an
        // item with no live option left has none. A negative slack (more
        // coverings needed than options left) is a dead end. Branch-free, so
        // that the loop vectorizes.
        let (best, negative) = match order {
            Order::Heuristic => {
                let (mut best, mut negative) = (u32::MAX, 0u32);
                for (p, (&live, &need)) in counts.iter().zip(need).enumerate() {
                    let slack = live.wrapping_sub(need);
                    negative |= slack;
                    let key = if live == 0 { u32::MAX } else { slack << ITEM_BITS | p as u32 };
                    best = best.min(key);
                }
                (best, negative)
            }
            Order::Lexicographic => {
                let (mut best, mut negative) = (u32::MAX, 0u32);
                for (p, (&live, &need)) in counts.iter().zip(need).enumerate() {
                    let slack = live.wrapping_sub(need);
                    negative |= slack;
                    if live != 0 && best == u32::MAX {
                        best = slack << ITEM_BITS | p as u32;
                    }
                }
                (best, negative)
            }
        };
        if negative & (1 << 31) != 0 {
            return Node::Dead;
        }
        if best == u32::MAX {
            // Every item has its lower bound and no option is left to add.
            return Node::Solution;
        }
        let (item, slack) = (best & ((1 << ITEM_BITS) - 1), best >> ITEM_BITS);
        let stop = need[item as usize] == 0;
        let d = self.depth;
        if self.branch_item.len() <= d {
            self.branch_item.resize(d + 1, 0);
        }
        self.branch_item[d] = item;
        let w = t.words;
        let bits = self.live[d * w] & t.item_rows[item as usize * w];
        // `slack + 1` branches: the "no more" one among them when nothing is needed.
        let options_left = if stop { slack } else { slack + 1 };
        Node::Branch(MccBitsBranch { item, word: 0, bits, options_left, stop })
    }

    #[inline(always)]
    fn next_choice(&mut self, branch: &mut MccBitsBranch) -> Option<usize> {
        if branch.options_left > 0 {
            let t = &*self.tables;
            let w = t.words;
            while branch.bits == 0 {
                branch.word += 1;
                let k = branch.word as usize;
                if k >= w {
                    branch.options_left = 0;
                    break;
                }
                branch.bits = self.live[self.depth * w + k] & t.item_rows[branch.item as usize * w + k];
            }
            if branch.bits != 0 {
                let o = branch.word as usize * 64 + branch.bits.trailing_zeros() as usize;
                branch.bits &= branch.bits - 1;
                branch.options_left -= 1;
                return Some(o);
            }
        }
        if std::mem::take(&mut branch.stop) {
            return Some(self.tables.n_options + branch.item as usize);
        }
        None
    }

    /// Takes `choice`, which is one of the alternatives the node's branch
    /// offered: an option of the node's item, or that item's "no more".
    #[inline]
    fn push(&mut self, choice: usize) -> bool {
        self.push_and_remove(choice, |_| 0);
        true
    }

    #[inline]
    fn pop(&mut self) {
        self.depth -= 1;
        let choice = self.choices[self.depth] as usize;
        let t = &*self.tables;
        if choice < t.n_options {
            self.chosen.pop();
            for &p in t.primary_of(choice) {
                let p = p as usize;
                if p < t.n_primary {
                    self.room[p] += 1;
                    // The item needed one more covering than it now does
                    // unless it had more than its lower bound.
                    if self.room[p] > t.hi_less_lo[p] {
                        self.need[p] += 1;
                    }
                }
            }
        }
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }
}
