//! The engine for multiple covers (Knuth's MCC problems, as his DLX3 and SSMCC solve them).
//!
//! Here a primary item has bounds `[lo, hi]` and a solution is a *set* of
//! options covering each primary item between `lo` and `hi` times. A set
//! must be met once, whatever the order its options could be chosen in, so
//! a node does not merely pick "an option for item `i`": its `j`-th branch
//! says that the `j`-th live option of `i` is the *first* one of `i`'s
//! options in the set, and so puts the options of `i` before it out of the
//! whole subtree (they are excluded for every item, not only for `i`). When
//! `i` already has its `lo` coverings, one more branch says that no further
//! option of `i` is in the set, and excludes all of them. These branches
//! split the sets below the node into disjoint parts, so every set is met
//! exactly once.
//!
//! An item that still needs `need = lo - covered` options, and has `live`
//! options left, offers `live - need + 1` options (a later first option
//! leaves too few after it) plus the "no more" branch when `need` is 0. The
//! node branches on the item with the fewest branches, which for `1:1`
//! items is the fewest live options, as in the exact cover engines.
//!
//! The state is an alive flag per option with a live count per item; a
//! choice kills options (chosen, excluded, or in conflict: an item at its
//! upper bound, a secondary item taken or given another color) and records
//! them on a trail, which `pop` replays backwards. The cost of a choice is
//! the entries of the options it kills and the lists it scans.

use std::sync::Arc;

use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// A search position for the multiple-cover engine; plugs into [`crate::search`].
///
/// A clone (one per thread of a parallel walk) copies the state choices
/// change and shares the problem's tables.
#[derive(Debug, Clone)]
pub struct MccSpace {
    tables: Arc<Tables>,
    options: LiveOptions,
    /// Per primary item: the chosen options that cover it.
    covered: Vec<u32>,
    /// Per push: the trail's length before it, and what was pushed.
    undo: Vec<(usize, u32)>,
    /// The options chosen so far, in the order they were chosen.
    chosen: Vec<usize>,
    /// Per depth: the item the node there branches on (set by `expand`).
    branch_item: Vec<u32>,
}

/// What no choice changes.
#[derive(Debug)]
struct Tables {
    n_primary: usize,
    n_options: usize,
    /// Per primary item: at least, at most.
    bounds: Vec<(u32, u32)>,
    /// Option `o`'s entries: `entries[option_start[o]..option_start[o + 1]]` as (item, color).
    option_start: Vec<u32>,
    entries: Vec<(u32, u32)>,
    /// Item `i`'s options, in increasing order: `item_options[item_start[i]..item_start[i + 1]]`,
    /// with the color each gives the item beside it.
    item_start: Vec<u32>,
    item_options: Vec<(u32, u32)>,
}

impl Tables {
    fn option(&self, o: usize) -> &[(u32, u32)] {
        &self.entries[self.option_start[o] as usize..self.option_start[o + 1] as usize]
    }
    fn item(&self, i: usize) -> &[(u32, u32)] {
        &self.item_options[self.item_start[i] as usize..self.item_start[i + 1] as usize]
    }
}

/// The options still live and how many each item has.
#[derive(Debug, Clone)]
struct LiveOptions {
    /// Per option: not chosen, excluded or in conflict with the choices so far.
    alive: Vec<bool>,
    /// Per item: its live options.
    live: Vec<u32>,
    /// Options killed so far, in order.
    trail: Vec<u32>,
}

impl LiveOptions {
    /// Takes option `o` out of the live ones, if it is still there.
    #[inline]
    fn kill(&mut self, t: &Tables, o: u32) {
        if !std::mem::replace(&mut self.alive[o as usize], false) {
            return;
        }
        for &(item, _) in t.option(o as usize) {
            self.live[item as usize] -= 1;
        }
        self.trail.push(o);
    }

    /// Kills the live options of item `i` that `doomed` picks out by (option, color).
    #[inline]
    fn kill_in_item(&mut self, t: &Tables, i: usize, doomed: impl Fn(u32, u32) -> bool) {
        for &(o, color) in t.item(i) {
            if self.alive[o as usize] && doomed(o, color) {
                self.kill(t, o);
            }
        }
    }

    /// Brings back the options killed since the trail was `mark` long.
    fn revive_to(&mut self, t: &Tables, mark: usize) {
        while self.trail.len() > mark {
            let o = self.trail.pop().expect("trail above its mark");
            self.alive[o as usize] = true;
            for &(item, _) in t.option(o as usize) {
                self.live[item as usize] += 1;
            }
        }
    }
}

/// Cursor over the alternatives of the item a node branches on.
#[derive(Debug, Clone, Copy)]
pub struct MccBranch {
    item: u32,
    /// Where the scan of the item's options goes on.
    next: u32,
    /// Options still to offer.
    options_left: u32,
    /// Whether the "no more options of this item" branch is still to offer.
    stop: bool,
}

impl MccSpace {
    /// The root of `problem`'s search.
    pub fn new(problem: &Problem) -> Self {
        let n_items = problem.n_items();
        let n_options = problem.n_options();
        let mut option_start = Vec::with_capacity(n_options + 1);
        let mut entries = Vec::new();
        let mut live = vec![0u32; n_items];
        option_start.push(0);
        for o in 0..n_options {
            for e in problem.option(o) {
                entries.push((e.item, e.color));
                live[e.item as usize] += 1;
            }
            option_start.push(entries.len() as u32);
        }
        let mut item_start = Vec::with_capacity(n_items + 1);
        item_start.push(0u32);
        for &n in &live {
            item_start.push(item_start.last().copied().unwrap_or(0) + n);
        }
        let mut fill: Vec<u32> = item_start[..n_items].to_vec();
        let mut item_options = vec![(0, 0); entries.len()];
        for o in 0..n_options {
            for &(item, color) in &entries[option_start[o] as usize..option_start[o + 1] as usize] {
                item_options[fill[item as usize] as usize] = (o as u32, color);
                fill[item as usize] += 1;
            }
        }
        let n_primary = problem.n_primary();
        let bounds = (0..n_primary).map(|i| problem.bounds(i)).collect();
        let tables = Tables { n_primary, n_options, bounds, option_start, entries, item_start, item_options };
        MccSpace {
            tables: Arc::new(tables),
            options: LiveOptions { alive: vec![true; n_options], live, trail: Vec::new() },
            covered: vec![0; n_primary],
            undo: Vec::new(),
            chosen: Vec::new(),
            branch_item: Vec::new(),
        }
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }

    /// The bytes a clone of this space takes beyond the tables it shares.
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of;
        let options = &self.options;
        options.alive.len()
            + (options.live.len() + self.covered.len() + options.trail.capacity() + self.branch_item.capacity())
                * size_of::<u32>()
            + self.undo.capacity() * size_of::<(usize, u32)>()
            + self.chosen.capacity() * size_of::<usize>()
    }
}

impl Space for MccSpace {
    type Branch = MccBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    fn expand(&mut self, order: Order) -> Node<MccBranch> {
        let t = &self.tables;
        let mut best: Option<(u32, u32, u32)> = None; // (branches, item, need)
        for i in 0..t.n_primary {
            let live = self.options.live[i];
            let need = t.bounds[i].0.saturating_sub(self.covered[i]);
            if live < need {
                return Node::Dead;
            }
            if live == 0 {
                continue;
            }
            let branches = live + 1 - need;
            if best.is_none_or(|(b, _, _)| branches < b) {
                best = Some((branches, i as u32, need));
                if order == Order::Lexicographic {
                    break;
                }
            }
        }
        let Some((_, item, need)) = best else {
            // Every item has its lower bound and no option is left to add.
            return Node::Solution;
        };
        let depth = self.undo.len();
        if self.branch_item.len() <= depth {
            self.branch_item.resize(depth + 1, 0);
        }
        self.branch_item[depth] = item;
        let live = self.options.live[item as usize];
        Node::Branch(MccBranch {
            item,
            next: self.tables.item_start[item as usize],
            options_left: if need == 0 { live } else { live + 1 - need },
            stop: need == 0,
        })
    }

    fn next_choice(&mut self, branch: &mut MccBranch) -> Option<usize> {
        if branch.options_left > 0 {
            let end = self.tables.item_start[branch.item as usize + 1];
            while branch.next < end {
                let (o, _) = self.tables.item_options[branch.next as usize];
                branch.next += 1;
                if self.options.alive[o as usize] {
                    branch.options_left -= 1;
                    return Some(o as usize);
                }
            }
            branch.options_left = 0;
        }
        if std::mem::take(&mut branch.stop) {
            return Some(self.tables.n_options + branch.item as usize);
        }
        None
    }

    fn push(&mut self, choice: usize) -> bool {
        let depth = self.undo.len();
        self.undo.push((self.options.trail.len(), choice as u32));
        let t = &*self.tables;
        let options = &mut self.options;
        if choice >= t.n_options {
            // No further option of this item is in the set.
            options.kill_in_item(t, choice - t.n_options, |_, _| true);
            return true;
        }
        // The options of the node's item before this one are not in the set.
        if let Some(&item) = self.branch_item.get(depth) {
            if t.option(choice).iter().any(|&(i, _)| i == item) {
                options.kill_in_item(t, item as usize, |o, _| (o as usize) < choice);
            }
        }
        options.kill(t, choice as u32);
        self.chosen.push(choice);
        for &(item, color) in t.option(choice) {
            let i = item as usize;
            if i < t.n_primary {
                self.covered[i] += 1;
                if self.covered[i] == t.bounds[i].1 {
                    options.kill_in_item(t, i, |_, _| true);
                }
            } else if color == 0 {
                options.kill_in_item(t, i, |_, _| true);
            } else {
                options.kill_in_item(t, i, |_, c| c != color);
            }
        }
        true
    }

    fn pop(&mut self) {
        let (mark, choice) = self.undo.pop().expect("pop without push");
        self.options.revive_to(&self.tables, mark);
        if (choice as usize) < self.tables.n_options {
            self.chosen.pop();
            for &(item, _) in self.tables.option(choice as usize) {
                if (item as usize) < self.tables.n_primary {
                    self.covered[item as usize] -= 1;
                }
            }
        }
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }
}
