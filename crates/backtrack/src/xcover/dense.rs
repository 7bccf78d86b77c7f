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

use std::sync::Arc;

use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// Count value marking a primary item that is already covered.
const COVERED: u16 = u16::MAX;

/// The largest number of options the bitset engine accepts (counts are `u16`,
/// and the conflict rows take `options² / 8` bytes).
pub const MAX_OPTIONS: usize = 16_384;

/// Tables shared (read-only) by every copy of a [`DenseSpace`].
#[derive(Debug)]
struct Tables {
    /// 64-bit words in one option bitset.
    words: usize,
    n_primary: usize,
    /// Primary items of option `o`: `primary_items[primary_start[o]..primary_start[o + 1]]`.
    primary_start: Vec<u32>,
    primary_items: Vec<u32>,
    /// Row `o` (`words` words): the options that conflict with option `o`, `o` included.
    conflict: Vec<u64>,
    /// Row `p` (`words` words): the options that contain primary item `p`.
    item_options: Vec<u64>,
}

/// A search position for the bitset engine; plugs into [`crate::search`].
#[derive(Debug, Clone)]
pub struct DenseSpace {
    tables: Arc<Tables>,
    depth: usize,
    /// Level `d` occupies words `d * words .. (d + 1) * words`: the options still possible.
    live: Vec<u64>,
    /// Level `d` occupies `d * n_primary ..`: live options per primary item, or [`COVERED`].
    counts: Vec<u16>,
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
    /// The root of `problem`'s search, or `None` when it has more than [`MAX_OPTIONS`] options.
    pub fn new(problem: &Problem) -> Option<Self> {
        let n_options = problem.n_options();
        if n_options > MAX_OPTIONS {
            return None;
        }
        let words = n_options.div_ceil(64).max(1);
        let n_primary = problem.n_primary();
        // Options of every item, with the color each gives it.
        let mut by_item: Vec<Vec<(u32, u32)>> = vec![Vec::new(); problem.n_items()];
        let mut primary_start = Vec::with_capacity(n_options + 1);
        let mut primary_items = Vec::new();
        primary_start.push(0);
        for o in 0..n_options {
            for e in problem.option(o) {
                by_item[e.item as usize].push((o as u32, e.color));
                if (e.item as usize) < n_primary {
                    primary_items.push(e.item);
                }
            }
            primary_start.push(primary_items.len() as u32);
        }
        let mut conflict = vec![0u64; n_options * words];
        for o in 0..n_options {
            let row = &mut conflict[o * words..(o + 1) * words];
            for e in problem.option(o) {
                for &(r, color) in &by_item[e.item as usize] {
                    // Same item: a conflict unless both give it the same color.
                    if e.color == 0 || color != e.color {
                        row[r as usize / 64] |= 1 << (r % 64);
                    }
                }
            }
        }
        let mut item_options = vec![0u64; n_primary * words];
        let mut counts = vec![0u16; n_primary];
        for p in 0..n_primary {
            for &(r, _) in &by_item[p] {
                item_options[p * words + r as usize / 64] |= 1 << (r % 64);
            }
            counts[p] = by_item[p].len() as u16;
        }
        let mut live = vec![0u64; words];
        for o in 0..n_options {
            live[o / 64] |= 1 << (o % 64);
        }
        let tables = Tables { words, n_primary, primary_start, primary_items, conflict, item_options };
        Some(DenseSpace { tables: Arc::new(tables), depth: 0, live, counts, chosen: Vec::new() })
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
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
        let counts = &self.counts[self.depth * np..(self.depth + 1) * np];
        let (mut best, mut best_item) = (COVERED, 0);
        match order {
            Order::Heuristic => {
                // Minimum remaining values, ties to the first item.
                for (p, &c) in counts.iter().enumerate() {
                    if c < best {
                        best = c;
                        best_item = p;
                        if c == 0 {
                            break;
                        }
                    }
                }
            }
            Order::Lexicographic => {
                if let Some(p) = counts.iter().position(|&c| c != COVERED) {
                    best = counts[p];
                    best_item = p;
                }
            }
        }
        if best == COVERED {
            return Node::Solution;
        }
        if best == 0 {
            return Node::Dead;
        }
        let w = t.words;
        let bits = self.live[self.depth * w] & t.item_options[best_item * w];
        Node::Branch(DenseBranch { item: best_item as u32, word: 0, bits })
    }

    #[inline]
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
        if self.live.len() < (d + 2) * w {
            self.live.resize((d + 2) * w, 0);
            self.counts.resize((d + 2) * np, 0);
        }
        let (live_here, live_next) = self.live.split_at_mut((d + 1) * w);
        let live_here = &live_here[d * w..];
        let live_next = &mut live_next[..w];
        let (counts_here, counts_next) = self.counts.split_at_mut((d + 1) * np);
        let counts_next = &mut counts_next[..np];
        counts_next.copy_from_slice(&counts_here[d * np..]);
        let row = &t.conflict[option * w..(option + 1) * w];
        for k in 0..w {
            let (l, c) = (live_here[k], row[k]);
            live_next[k] = l & !c;
            let mut removed = l & c;
            while removed != 0 {
                let r = k * 64 + removed.trailing_zeros() as usize;
                removed &= removed - 1;
                let items = &t.primary_items[t.primary_start[r] as usize..t.primary_start[r + 1] as usize];
                for &p in items {
                    counts_next[p as usize] -= 1;
                }
            }
        }
        let own = &t.primary_items[t.primary_start[option] as usize..t.primary_start[option + 1] as usize];
        for &p in own {
            counts_next[p as usize] = COVERED;
        }
        self.chosen.push(option);
        self.depth += 1;
        true
    }

    #[inline]
    fn pop(&mut self) {
        self.depth -= 1;
        self.chosen.pop();
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }
}
