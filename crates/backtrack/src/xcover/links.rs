//! The dancing-links engine (Knuth's Algorithm C), for problems with many options.
//!
//! Each item heads a circular doubly linked list of the option entries that
//! name it; choosing an option unlinks ("hides") every option that conflicts
//! with it from the lists of its other items, and undoing the choice relinks
//! them in reverse order. The work per choice is proportional to the entries
//! touched, not to the size of the problem, which is what large sparse
//! problems need.
//!
//! A secondary item with a color is *purified* rather than covered: options
//! giving it another color (or none) are hidden, and options giving it the
//! same color are marked (color `-1`) so that choosing them later leaves the
//! item alone.

use super::problem::Problem;
use crate::search::{Node, Order, Space};

/// A search position for the dancing-links engine; plugs into [`crate::search`].
#[derive(Debug, Clone)]
pub struct LinksSpace {
    n_items: usize,
    n_primary: usize,
    /// Node `i < n_items` heads item `i`'s list; node `n_items + k` is option entry `k`.
    up: Vec<u32>,
    down: Vec<u32>,
    /// The item of each node (headers: themselves).
    top: Vec<u32>,
    /// The option of each entry node (headers: unused).
    option_of: Vec<u32>,
    /// Entry color: 0 none, > 0 a color, -1 "its item is already purified to this color".
    color: Vec<i32>,
    /// Live entries per item.
    len: Vec<u32>,
    /// Entry nodes of option `o`: `n_items + option_start[o] .. n_items + option_start[o + 1]`.
    option_start: Vec<u32>,
    /// Uncovered primary items, a circular list through `n_primary` (the root).
    prev: Vec<u32>,
    next: Vec<u32>,
    chosen: Vec<usize>,
}

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
        let mut up: Vec<u32> = (0..n_nodes as u32).collect();
        let mut down = up.clone();
        let mut top = up.clone();
        let mut option_of = vec![0u32; n_nodes];
        let mut color = vec![0i32; n_nodes];
        let mut len = vec![0u32; n_items];
        let mut option_start = Vec::with_capacity(problem.n_options() + 1);
        let mut node = n_items;
        option_start.push(0);
        for o in 0..problem.n_options() {
            for e in problem.option(o) {
                let i = e.item as usize;
                // Append `node` at the bottom of item i's list.
                let last = up[i] as usize;
                down[last] = node as u32;
                up[node] = last as u32;
                down[node] = i as u32;
                up[i] = node as u32;
                top[node] = i as u32;
                option_of[node] = o as u32;
                color[node] = e.color as i32;
                len[i] += 1;
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
            up,
            down,
            top,
            option_of,
            color,
            len,
            option_start,
            prev,
            next,
            chosen: Vec::new(),
        }
    }

    fn entries(&self, option: usize) -> std::ops::Range<usize> {
        self.n_items + self.option_start[option] as usize..self.n_items + self.option_start[option + 1] as usize
    }

    /// Unlinks every entry of `p`'s option except `p` itself (and marked ones).
    fn hide(&mut self, p: usize) {
        for q in self.entries(self.option_of[p] as usize) {
            if q == p || self.color[q] < 0 {
                continue;
            }
            let (u, d) = (self.up[q] as usize, self.down[q] as usize);
            self.down[u] = d as u32;
            self.up[d] = u as u32;
            self.len[self.top[q] as usize] -= 1;
        }
    }

    fn unhide(&mut self, p: usize) {
        for q in self.entries(self.option_of[p] as usize).rev() {
            if q == p || self.color[q] < 0 {
                continue;
            }
            let (u, d) = (self.up[q] as usize, self.down[q] as usize);
            self.down[u] = q as u32;
            self.up[d] = q as u32;
            self.len[self.top[q] as usize] += 1;
        }
    }

    fn cover(&mut self, i: usize) {
        let mut p = self.down[i] as usize;
        while p != i {
            self.hide(p);
            p = self.down[p] as usize;
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
        let mut p = self.up[i] as usize;
        while p != i {
            self.unhide(p);
            p = self.up[p] as usize;
        }
    }

    fn purify(&mut self, i: usize, c: i32) {
        let mut p = self.down[i] as usize;
        while p != i {
            if self.color[p] == c {
                self.color[p] = -1;
            } else {
                self.hide(p);
            }
            p = self.down[p] as usize;
        }
    }

    fn unpurify(&mut self, i: usize, c: i32) {
        let mut p = self.up[i] as usize;
        while p != i {
            if self.color[p] < 0 {
                self.color[p] = c;
            } else {
                self.unhide(p);
            }
            p = self.up[p] as usize;
        }
    }

    /// The options chosen so far, in the order they were chosen.
    pub fn chosen(&self) -> &[usize] {
        &self.chosen
    }
}

impl Space for LinksSpace {
    type Branch = LinksBranch;
    type Choice = usize;
    type Solution = Vec<usize>;

    fn expand(&mut self, order: Order) -> Node<LinksBranch> {
        let root = self.n_primary;
        let mut i = self.next[root] as usize;
        if i == root {
            return Node::Solution;
        }
        if order == Order::Heuristic {
            let mut best = i;
            while i != root {
                if self.len[i] < self.len[best] {
                    best = i;
                    if self.len[i] == 0 {
                        break;
                    }
                }
                i = self.next[i] as usize;
            }
            i = best;
        }
        if self.len[i] == 0 {
            return Node::Dead;
        }
        Node::Branch(LinksBranch { item: i as u32, node: i as u32 })
    }

    fn next_choice(&mut self, branch: &mut LinksBranch) -> Option<usize> {
        branch.node = self.down[branch.node as usize];
        (branch.node != branch.item).then(|| self.option_of[branch.node as usize] as usize)
    }

    fn push(&mut self, option: usize) -> bool {
        // Uncolored entries first: the option always has a primary item, so
        // after this it is out of every list and purifying cannot meet it.
        for q in self.entries(option) {
            if self.color[q] == 0 {
                self.cover(self.top[q] as usize);
            }
        }
        for q in self.entries(option) {
            if self.color[q] > 0 {
                self.purify(self.top[q] as usize, self.color[q]);
            }
        }
        self.chosen.push(option);
        true
    }

    fn pop(&mut self) {
        let option = self.chosen.pop().expect("pop without push");
        for q in self.entries(option).rev() {
            if self.color[q] > 0 {
                self.unpurify(self.top[q] as usize, self.color[q]);
            }
        }
        for q in self.entries(option).rev() {
            if self.color[q] == 0 {
                self.uncover(self.top[q] as usize);
            }
        }
    }

    fn solution(&self) -> Vec<usize> {
        self.chosen.clone()
    }
}
