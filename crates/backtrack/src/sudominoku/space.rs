//! The tiling search space: every node lays one domino on the tightest
//! constraint.

use crate::rng::Rng;
use crate::search::{Node, Order, Space};

use super::tables::{regions_balance, ALL_DIGITS, BOX, NEIGHBORS, NONE};
use super::{Grid, Placement, Puzzle, Solution};

/// The solver's search space. Solutions are tilings; see [`count_grids`](super::count_grids) for distinct grids.
///
/// The branching order is always the solver's own (the tightest constraint
/// first): one grid can be reached through several tilings, so an order on
/// tilings says little about grids, and [`Order::Lexicographic`] is not
/// honoured here. [`LexGrids`](super::LexGrids) is the space whose solutions are distinct
/// grids in increasing order; [`lex_first`](super::lex_first) gives the smallest.
#[derive(Debug, Clone)]
pub struct Sudominoku {
    pub(super) grid: Grid,
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// `unused[a]`: bit `b` set while the domino `{a, b}` is still free.
    unused: [u16; 10],
    empty: u8,
    given: Vec<Placement>,
    placed: Vec<Placement>,
    /// `lists[d]`: the placements tried at depth `d`, reused from node to node.
    lists: Vec<Vec<Placement>>,
    /// The generator that shuffles each node's placements; `None`: keep them in order.
    pub(super) shuffle: Option<Rng>,
}

/// The cursor over one node's alternatives: the next index into the list
/// of placements [`Space::expand`] built for this depth.
#[derive(Debug, Clone, Copy)]
pub struct Branch {
    next: u16,
}

/// What a node branches on: the constraint with the fewest placements left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Cover this empty cell.
    Cell(usize),
    /// Put this digit somewhere in this unit (rows 0..9, columns 9..18, boxes 18..27).
    Unit(usize, u8),
    /// Lay the domino {a, b} somewhere.
    Domino(u8, u8),
}

impl Sudominoku {
    /// The root of the search for `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Self {
        let mut space = Sudominoku {
            grid: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            unused: [0; 10],
            empty: 0,
            given: puzzle.dominoes.clone(),
            placed: Vec::with_capacity(36),
            lists: Vec::new(),
            shuffle: None,
        };
        for a in 1..=9 {
            space.unused[a] = ALL_DIGITS & !(1 << a);
        }
        for (cell, &digit) in puzzle.grid.iter().enumerate() {
            if digit != 0 {
                space.set(cell, digit);
            } else {
                space.empty += 1;
            }
        }
        for p in &puzzle.dominoes {
            space.unused[p.first_digit as usize] &= !(1 << p.second_digit);
            space.unused[p.second_digit as usize] &= !(1 << p.first_digit);
        }
        space
    }

    /// The board at the current node.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    #[inline]
    fn set(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << digit;
        self.grid[cell] = digit;
        self.rows[cell / 9] |= bit;
        self.cols[cell % 9] |= bit;
        self.boxes[BOX[cell] as usize] |= bit;
    }

    #[inline]
    fn clear(&mut self, cell: usize) {
        let bit = !(1u16 << self.grid[cell]);
        self.grid[cell] = 0;
        self.rows[cell / 9] &= bit;
        self.cols[cell % 9] &= bit;
        self.boxes[BOX[cell] as usize] &= bit;
    }

    /// Fills `lists[depth]` with every placement that satisfies `target`.
    #[allow(clippy::needless_range_loop)]
    fn list_placements(&mut self, target: Target, candidates: &[u16; 81]) {
        let depth = self.placed.len();
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[depth]);
        list.clear();
        // Every placement with digit `a` (from `digits`) on `cell`, partner any empty neighbour.
        let from_cell = |list: &mut Vec<Placement>, cell: usize, digits: u16, only_partner_digits: u16| {
            for &partner in &NEIGHBORS[cell] {
                if partner == NONE || self.grid[partner as usize] != 0 {
                    continue;
                }
                let mut mine = digits;
                while mine != 0 {
                    let a = mine.trailing_zeros() as u8;
                    mine &= mine - 1;
                    let mut pairs = candidates[partner as usize] & self.unused[a as usize] & only_partner_digits;
                    while pairs != 0 {
                        let b = pairs.trailing_zeros() as u8;
                        pairs &= pairs - 1;
                        list.push(Placement { first: cell as u8, second: partner, first_digit: a, second_digit: b });
                    }
                }
            }
        };
        match target {
            Target::Cell(cell) => from_cell(&mut list, cell, candidates[cell], ALL_DIGITS),
            Target::Unit(u, d) => {
                for cell in 0..81 {
                    let inside = match u {
                        0..=8 => cell / 9 == u,
                        9..=17 => cell % 9 == u - 9,
                        _ => BOX[cell] as usize == u - 18,
                    };
                    if inside && self.grid[cell] == 0 && candidates[cell] & (1 << d) != 0 {
                        from_cell(&mut list, cell, 1 << d, ALL_DIGITS);
                    }
                }
            }
            Target::Domino(a, b) => {
                // Each physical placement once: `a` on its cell, `b` on a neighbour.
                for cell in 0..81 {
                    if self.grid[cell] == 0 && candidates[cell] & (1 << a) != 0 {
                        from_cell(&mut list, cell, 1 << a, 1 << b);
                    }
                }
            }
        }
        if let Some(rng) = &mut self.shuffle {
            // Restarts explore different parts of the tree.
            rng.shuffle(&mut list);
        }
        self.lists[depth] = list;
    }

    /// Digits an empty cell may still take.
    #[inline]
    fn candidates(&self, cell: usize) -> u16 {
        !(self.rows[cell / 9] | self.cols[cell % 9] | self.boxes[BOX[cell] as usize]) & ALL_DIGITS
    }
}

impl Space for Sudominoku {
    type Branch = Branch;
    type Choice = Placement;
    type Solution = Solution;

    // A cell number indexes several parallel tables here; plain index loops read best.
    #[allow(clippy::needless_range_loop)]
    fn expand(&mut self, _order: Order) -> Node<Branch> {
        if self.empty == 0 {
            return Node::Solution;
        }
        // Count, in one pass over every (cell, neighbour, digit, digit), the
        // placements that could satisfy each constraint: cover a cell, put a
        // digit in a unit, lay a domino. A constraint with none is a dead end;
        // the one with the fewest is the branching point.
        let mut candidates = [0u16; 81];
        let mut empty_cells = 0u128;
        for (cell, slot) in candidates.iter_mut().enumerate() {
            if self.grid[cell] == 0 {
                *slot = self.candidates(cell);
                empty_cells |= 1 << cell;
            }
        }
        if !regions_balance(empty_cells) {
            return Node::Dead;
        }
        let mut cell_count = [0u16; 81];
        let mut unit_count = [[0u16; 10]; 27];
        let mut domino_count = [[0u16; 10]; 10];
        for cell in 0..81 {
            if self.grid[cell] != 0 {
                continue;
            }
            let mine = candidates[cell];
            let units = [cell / 9, 9 + cell % 9, 18 + BOX[cell] as usize];
            for &partner in &NEIGHBORS[cell] {
                if partner == NONE || self.grid[partner as usize] != 0 {
                    continue;
                }
                let theirs = candidates[partner as usize];
                let mut digits = mine;
                while digits != 0 {
                    let a = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let pairs = theirs & self.unused[a];
                    if pairs == 0 {
                        continue;
                    }
                    let k = pairs.count_ones() as u16;
                    cell_count[cell] += k;
                    for &u in &units {
                        unit_count[u][a] += k;
                    }
                    // Each physical placement once: from its lower cell.
                    if (partner as usize) > cell {
                        let mut rest = pairs;
                        while rest != 0 {
                            let b = rest.trailing_zeros() as usize;
                            rest &= rest - 1;
                            domino_count[a.min(b)][a.max(b)] += 1;
                        }
                    }
                }
            }
        }
        let mut best = Target::Cell(0);
        let mut best_count = u16::MAX;
        for cell in 0..81 {
            if self.grid[cell] == 0 && cell_count[cell] < best_count {
                if cell_count[cell] == 0 {
                    return Node::Dead;
                }
                best_count = cell_count[cell];
                best = Target::Cell(cell);
            }
        }
        for (u, counts) in unit_count.iter().enumerate() {
            let placed = match u {
                0..=8 => self.rows[u],
                9..=17 => self.cols[u - 9],
                _ => self.boxes[u - 18],
            };
            let mut missing = !placed & ALL_DIGITS;
            while missing != 0 {
                let d = missing.trailing_zeros() as usize;
                missing &= missing - 1;
                if counts[d] < best_count {
                    if counts[d] == 0 {
                        return Node::Dead;
                    }
                    best_count = counts[d];
                    best = Target::Unit(u, d as u8);
                }
            }
        }
        for a in 1..9 {
            let mut free = self.unused[a] & !((2u16 << a) - 1);
            while free != 0 {
                let b = free.trailing_zeros() as usize;
                free &= free - 1;
                if domino_count[a][b] < best_count {
                    if domino_count[a][b] == 0 {
                        return Node::Dead;
                    }
                    best_count = domino_count[a][b];
                    best = Target::Domino(a as u8, b as u8);
                }
            }
        }
        self.list_placements(best, &candidates);
        Node::Branch(Branch { next: 0 })
    }

    fn next_choice(&mut self, branch: &mut Branch) -> Option<Placement> {
        let choice = *self.lists[self.placed.len()].get(branch.next as usize)?;
        branch.next += 1;
        Some(choice)
    }

    fn push(&mut self, p: Placement) -> bool {
        self.set(p.first as usize, p.first_digit);
        self.set(p.second as usize, p.second_digit);
        self.unused[p.first_digit as usize] &= !(1 << p.second_digit);
        self.unused[p.second_digit as usize] &= !(1 << p.first_digit);
        self.empty -= 2;
        self.placed.push(p);
        true
    }

    fn pop(&mut self) {
        if let Some(p) = self.placed.pop() {
            self.clear(p.first as usize);
            self.clear(p.second as usize);
            self.unused[p.first_digit as usize] |= 1 << p.second_digit;
            self.unused[p.second_digit as usize] |= 1 << p.first_digit;
            self.empty += 2;
        }
    }

    fn solution(&self) -> Solution {
        let mut dominoes = self.given.clone();
        dominoes.extend_from_slice(&self.placed);
        Solution { grid: self.grid, dominoes }
    }
}
