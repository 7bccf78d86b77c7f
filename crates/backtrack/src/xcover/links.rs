//! The dancing-links engine (Knuth's Algorithm C), for problems with many options.
//!
//! Each item heads a circular doubly linked list of the option entries that
//! name it; choosing an option unlinks ("hides") every option that conflicts
//! with it from the lists of its other items, and undoing the choice relinks
//! them in reverse order. The work per choice is proportional to the entries
//! touched, not to the size of the problem, which is what large sparse
//! problems need.
//!
//! As in Knuth's Algorithm C, the item a node branches on is covered once
//! for all the options tried there (on the first `push` at that depth), and
//! uncovered when the branch is exhausted or the walk leaves the node.
//!
//! A secondary item with a color is *purified* rather than covered: options
//! giving it another color (or none) are hidden, and options giving it the
//! same color are marked (color `-1`) so that choosing them later leaves the
//! item alone.

use std::sync::Arc;

use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// One node: an item header (`i < n_items`) or an option entry.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    up: u32,
    down: u32,
    /// Entries: their item. Headers: the number of live entries in their list.
    top: u32,
    /// Entry color: 0 none, > 0 a color, -1 "its item is already purified to this color".
    color: i32,
}

/// A search position for the dancing-links engine; plugs into [`crate::search`].
///
/// A clone (one per thread of a parallel walk) copies the links, which every
/// choice changes, and shares the tables no choice changes.
#[derive(Debug, Clone)]
pub struct LinksSpace {
    n_items: usize,
    n_primary: usize,
    /// Node `i < n_items` heads item `i`'s list; node `n_items + k` is option entry `k`.
    /// The fields of one node sit together, so following a link touches one cache line.
    cells: Vec<Cell>,
    /// The option of each node (headers: unused).
    option_of: Arc<[u32]>,
    /// Entry nodes of option `o`: `n_items + option_start[o] .. n_items + option_start[o + 1]`.
    option_start: Arc<[u32]>,
    /// Uncovered primary items, a circular list through `n_primary` (the root).
    prev: Vec<u32>,
    next: Vec<u32>,
    chosen: Vec<usize>,
    /// Per depth: the item the node there branches on (set by `expand`).
    branch_item: Vec<u32>,
    /// Per depth: the branch item when it is covered, else [`NONE`]. Covering
    /// it once for all the options tried at that node, as Knuth's Algorithm C
    /// does, instead of once per option, saves a whole cover per sibling.
    level_cover: Vec<u32>,
    /// Per chosen option: the entry's item its `push` left to the level cover, or [`NONE`].
    skipped: Vec<u32>,
}

/// No item.
const NONE: u32 = u32::MAX;

/// Cursor over the options of the item a node branches on.
#[derive(Debug, Clone, Copy)]
pub struct LinksBranch {
    item: u32,
    node: u32,
}

impl LinksSpace {
    /// The root of `problem`'s search.
    pub fn new(problem: &Problem) -> Self {
        let n_items = problem.n_items();
        let n_primary = problem.n_primary();
        let n_entries: usize = (0..problem.n_options()).map(|o| problem.option(o).len()).sum();
        let n_nodes = n_items + n_entries;
        let mut cells = vec![Cell::default(); n_nodes];
        for (i, cell) in cells.iter_mut().enumerate().take(n_items) {
            *cell = Cell { up: i as u32, down: i as u32, top: 0, color: 0 };
        }
        let mut option_of = vec![0u32; n_nodes];
        let mut option_start = Vec::with_capacity(problem.n_options() + 1);
        let mut node = n_items;
        option_start.push(0);
        for o in 0..problem.n_options() {
            for e in problem.option(o) {
                let i = e.item as usize;
                // Append `node` at the bottom of item i's list.
                let last = cells[i].up as usize;
                cells[last].down = node as u32;
                cells[node] = Cell { up: last as u32, down: i as u32, top: i as u32, color: e.color as i32 };
                cells[i].up = node as u32;
                cells[i].top += 1;
                option_of[node] = o as u32;
                node += 1;
            }
            option_start.push((node - n_items) as u32);
        }
        let root = n_primary as u32;
        let prev = (0..=root).map(|i| if i == 0 { root } else { i - 1 }).collect();
        let next = (0..=root).map(|i| if i == root { 0 } else { i + 1 }).collect();
        LinksSpace {
            n_items,
            n_primary,
            cells,
            option_of: option_of.into(),
            option_start: option_start.into(),
            prev,
            next,
            chosen: Vec::new(),
            branch_item: Vec::new(),
            level_cover: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// The bytes a clone of this space takes beyond the tables it shares.
    pub fn copy_bytes(&self) -> usize {
        use std::mem::size_of;
        self.cells.len() * size_of::<Cell>()
            + (self.prev.len() + self.next.len()) * size_of::<u32>()
            + self.chosen.capacity() * size_of::<usize>()
            + (self.branch_item.capacity() + self.level_cover.capacity() + self.skipped.capacity()) * size_of::<u32>()
    }

    fn entries(&self, option: usize) -> std::ops::Range<usize> {
        self.n_items + self.option_start[option] as usize..self.n_items + self.option_start[option + 1] as usize
    }

    /// Unlinks every entry of `p`'s option except `p` itself (and marked ones).
    #[inline]
    fn hide(&mut self, p: usize) {
        let cells = &mut self.cells[..];
        for q in self.n_items + self.option_start[self.option_of[p] as usize] as usize
            ..self.n_items + self.option_start[self.option_of[p] as usize + 1] as usize
        {
            let c = cells[q];
            if q == p || c.color < 0 {
                continue;
            }
            cells[c.up as usize].down = c.down;
            cells[c.down as usize].up = c.up;
            cells[c.top as usize].top -= 1;
        }
    }

    #[inline]
    fn unhide(&mut self, p: usize) {
        let cells = &mut self.cells[..];
        for q in (self.n_items + self.option_start[self.option_of[p] as usize] as usize
            ..self.n_items + self.option_start[self.option_of[p] as usize + 1] as usize)
            .rev()
        {
            let c = cells[q];
            if q == p || c.color < 0 {
                continue;
            }
            cells[c.up as usize].down = q as u32;
            cells[c.down as usize].up = q as u32;
            cells[c.top as usize].top += 1;
        }
    }

    fn cover(&mut self, i: usize) {
        let mut p = self.cells[i].down as usize;
        while p != i {
            self.hide(p);
            p = self.cells[p].down as usize;
        }
        if i < self.n_primary {
            let (l, r) = (self.prev[i] as usize, self.next[i] as usize);
            self.next[l] = r as u32;
            self.prev[r] = l as u32;
        }
    }

    fn uncover(&mut self, i: usize) {
        if i < self.n_primary {
            let (l, r) = (self.prev[i] as usize, self.next[i] as usize);
            self.next[l] = i as u32;
            self.prev[r] = i as u32;
        }
        let mut p = self.cells[i].up as usize;
        while p != i {
            self.unhide(p);
            p = self.cells[p].up as usize;
        }
    }

    fn purify(&mut self, i: usize, c: i32) {
        let mut p = self.cells[i].down as usize;
        while p != i {
            if self.cells[p].color == c {
                self.cells[p].color = -1;
            } else {
                self.hide(p);
            }
            p = self.cells[p].down as usize;
        }
    }

    fn unpurify(&mut self, i: usize, c: i32) {
        let mut p = self.cells[i].up as usize;
        while p != i {
            if self.cells[p].color < 0 {
                self.cells[p].color = c;
            } else {
                self.unhide(p);
            }
            p = self.cells[p].up as usize;
        }
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }

    /// Undoes the level cover of the node at `depth`, if any: its branch is
    /// exhausted, or the walk left the node for good.
    fn drop_level_cover(&mut self, depth: usize) {
        if let Some(&item) = self.level_cover.get(depth) {
            if item != NONE {
                self.level_cover[depth] = NONE;
                self.uncover(item as usize);
            }
        }
    }
}

impl Space for LinksSpace {
    type Branch = LinksBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    fn expand(&mut self, order: Order) -> Node<LinksBranch> {
        let depth = self.chosen.len();
        // A cover left behind by a walk that stopped early (only possible at the root).
        self.drop_level_cover(depth);
        let root = self.n_primary;
        let mut i = self.next[root] as usize;
        if i == root {
            return Node::Solution;
        }
        if order == Order::Heuristic {
            let (mut best, mut best_len) = (i, u32::MAX);
            while i != root {
                let len = self.cells[i].top;
                if len < best_len {
                    (best, best_len) = (i, len);
                    if len == 0 {
                        break;
                    }
                }
                i = self.next[i] as usize;
            }
            i = best;
        }
        if self.cells[i].top == 0 {
            return Node::Dead;
        }
        if self.branch_item.len() <= depth {
            self.branch_item.resize(depth + 1, NONE);
            self.level_cover.resize(depth + 1, NONE);
        }
        self.branch_item[depth] = i as u32;
        Node::Branch(LinksBranch { item: i as u32, node: i as u32 })
    }

    fn next_choice(&mut self, branch: &mut LinksBranch) -> Option<usize> {
        branch.node = self.cells[branch.node as usize].down;
        if branch.node == branch.item {
            self.drop_level_cover(self.chosen.len());
            return None;
        }
        Some(self.option_of[branch.node as usize] as usize)
    }

    fn push(&mut self, option: usize) -> bool {
        let depth = self.chosen.len();
        // The node's branch item is covered once, for all its options; an
        // option that does not contain it (not from this node's branch) covers
        // all its items itself.
        let item = self.branch_item.get(depth).copied().unwrap_or(NONE);
        let mut skip = NONE;
        if item != NONE && self.entries(option).any(|q| self.cells[q].top == item) {
            if self.level_cover[depth] != item {
                self.drop_level_cover(depth);
                self.cover(item as usize);
                self.level_cover[depth] = item;
            }
            skip = item;
        }
        // Uncolored entries next: the option always has a primary item, so
        // after this it is out of every list and purifying cannot meet it.
        for q in self.entries(option) {
            let c = self.cells[q];
            if c.color == 0 && c.top != skip {
                self.cover(c.top as usize);
            }
        }
        for q in self.entries(option) {
            let c = self.cells[q];
            if c.color > 0 {
                self.purify(c.top as usize, c.color);
            }
        }
        self.chosen.push(option);
        self.skipped.push(skip);
        true
    }

    fn pop(&mut self) {
        // The child node's level cover goes first (its branch may not be exhausted).
        self.drop_level_cover(self.chosen.len());
        let option = self.chosen.pop().expect("pop without push");
        let skip = self.skipped.pop().unwrap_or(NONE);
        for q in self.entries(option).rev() {
            let c = self.cells[q];
            if c.color > 0 {
                self.unpurify(c.top as usize, c.color);
            }
        }
        for q in self.entries(option).rev() {
            let c = self.cells[q];
            if c.color == 0 && c.top != skip {
                self.uncover(c.top as usize);
            }
        }
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }
}
