//! A sudoku kernel for any box size from 2 (4x4) to 5 (25x25).
//!
//! Each cell keeps its candidate digits as a `u32` bitmask (bit `d - 1` for
//! digit `d`), and each unit counts the cells that can still hold each
//! digit. Placing a digit removes it from the cell's peers; propagation
//! then places naked singles (a cell with one candidate left) and hidden
//! singles (a digit whose count in a row, column or box falls to one) until
//! nothing changes, and detects contradictions (a cell with no candidate, a
//! count falling to zero). The counts make that work proportional to the
//! candidates removed, not to the size of the grid. Branching takes the cell with the fewest candidates
//! ([`Order::Heuristic`]) or the first open cell in row-major order
//! ([`Order::Lexicographic`]), trying digits in increasing order, so that in
//! the latter order solutions are met in increasing lexicographic order.
//!
//! Undo is by snapshot: each [`Space::push`] saves the candidate masks and
//! values on a stack that is reused across pushes, so the search allocates
//! nothing once the stack has grown to the search depth.

use std::sync::OnceLock;

use crate::search::{Node, Order, Space};

use super::{MAX_BOX, MIN_BOX};

/// Cell indices of each unit and of each cell's peers, for one box size.
#[derive(Debug)]
pub struct Geometry {
    box_size: usize,
    side: usize,
    area: usize,
    /// `3 * side` units of `side` cells each: rows, then columns, then boxes.
    units: Vec<u16>,
    /// `area` lists of `peer_count` cells that share a unit with the cell.
    peers: Vec<u16>,
    peer_count: usize,
    /// The row, column and box (unit numbers as in `units`) of each cell.
    cell_units: Vec<[u16; 3]>,
}

impl Geometry {
    fn new(box_size: usize) -> Geometry {
        let side = box_size * box_size;
        let area = side * side;
        let mut units = Vec::with_capacity(3 * area);
        for r in 0..side {
            units.extend((0..side).map(|c| (r * side + c) as u16));
        }
        for c in 0..side {
            units.extend((0..side).map(|r| (r * side + c) as u16));
        }
        for b in 0..side {
            let (r0, c0) = ((b / box_size) * box_size, (b % box_size) * box_size);
            for k in 0..side {
                units.push(((r0 + k / box_size) * side + c0 + k % box_size) as u16);
            }
        }
        let peer_count = 3 * side - 2 * box_size - 1;
        let mut peers = Vec::with_capacity(area * peer_count);
        for cell in 0..area {
            let (r, c) = (cell / side, cell % side);
            let start = peers.len();
            for other in 0..area {
                let (ro, co) = (other / side, other % side);
                let same_box = r / box_size == ro / box_size && c / box_size == co / box_size;
                if other != cell && (r == ro || c == co || same_box) {
                    peers.push(other as u16);
                }
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        let cell_units = (0..area)
            .map(|cell| {
                let (r, c) = (cell / side, cell % side);
                [r, side + c, 2 * side + r / box_size * box_size + c / box_size].map(|u| u as u16)
            })
            .collect();
        Geometry { box_size, side, area, units, peers, peer_count, cell_units }
    }

    /// The shared geometry for `box_size` (built once per process).
    ///
    /// # Panics
    /// If `box_size` is outside 2..=5.
    pub fn of(box_size: usize) -> &'static Geometry {
        static GEOMETRIES: [OnceLock<Geometry>; MAX_BOX + 1] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        assert!((MIN_BOX..=MAX_BOX).contains(&box_size), "box size {box_size} is not supported");
        GEOMETRIES[box_size].get_or_init(|| Geometry::new(box_size))
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

/// A sudoku of any supported size as a search [`Space`]; solutions are the
/// filled grids (row-major cells).
///
/// ```
/// use backtrack::search::Search;
/// use backtrack::sudoku::general::GeneralSpace;
///
/// // An empty 4x4 grid has 288 solutions.
/// let space = GeneralSpace::new(2, &[0; 16]);
/// assert_eq!(Search::new(space).count(None), 288);
/// ```
#[derive(Clone, Debug)]
pub struct GeneralSpace {
    geometry: &'static Geometry,
    /// Candidate digits per cell; a placed cell keeps just its digit's bit.
    candidates: Vec<u32>,
    /// Placed digit per cell, 0 while open.
    values: Vec<u8>,
    /// Number of open cells.
    open: usize,
    /// `counts[unit * side + d - 1]`: cells of the unit that can hold `d`
    /// (a placed cell holds its digit).
    counts: Vec<u8>,
    /// Whether the givens already contradict each other.
    dead: bool,
    /// Saved `candidates` and `values` of each pushed level, back to back.
    saved_candidates: Vec<u32>,
    saved_values: Vec<u8>,
    saved_open: Vec<usize>,
    saved_counts: Vec<u8>,
    /// Cells known to have a single candidate but not yet placed.
    queue: Vec<u16>,
    /// Entries of `counts` that fell to one: a hidden single, or the unit's placed digit.
    hidden: Vec<u16>,
    /// Choices the search may still take (see [`GeneralSpace::set_budget`]).
    budget: u64,
    /// Whether a choice was refused for want of budget.
    starved: bool,
    /// Branching points met since the last reset: cells where the search
    /// had to choose among two or more candidates (see [`guesses`](Self::guesses)).
    guesses: u64,
}

/// Branching point: the cell and the digits still to try there.
#[derive(Clone, Copy, Debug)]
pub struct Branch {
    cell: u16,
    digits: u32,
}

/// Placing a digit in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Row-major cell index.
    pub cell: u16,
    /// Digit `1..=side`.
    pub digit: u8,
}

impl GeneralSpace {
    /// The space of `cells` (row-major, 0 blank) on a grid of box size
    /// `box_size`. Conflicting givens give a space with no solution.
    ///
    /// # Panics
    /// If the box size is unsupported or `cells` has the wrong length.
    pub fn new(box_size: usize, cells: &[u8]) -> GeneralSpace {
        let geometry = Geometry::of(box_size);
        let mut space = GeneralSpace {
            geometry,
            candidates: Vec::new(),
            values: Vec::new(),
            open: 0,
            counts: Vec::new(),
            dead: false,
            saved_candidates: Vec::new(),
            saved_values: Vec::new(),
            saved_open: Vec::new(),
            saved_counts: Vec::new(),
            queue: Vec::with_capacity(geometry.area),
            hidden: Vec::new(),
            budget: u64::MAX,
            starved: false,
            guesses: 0,
        };
        space.reset(cells);
        space
    }

    /// Starts over on new `cells` of the same size, keeping the buffers.
    ///
    /// # Panics
    /// If `cells` has the wrong length.
    pub fn reset(&mut self, cells: &[u8]) {
        let g = self.geometry;
        assert_eq!(cells.len(), g.area, "a {0}x{0} grid has {1} cells", g.side, g.area);
        let full = full_mask(g.side);
        self.candidates.clear();
        self.candidates.resize(g.area, full);
        self.values.clear();
        self.values.resize(g.area, 0);
        self.open = g.area;
        self.counts.clear();
        self.counts.resize(3 * g.side * g.side, g.side as u8);
        self.saved_candidates.clear();
        self.saved_values.clear();
        self.saved_open.clear();
        self.saved_counts.clear();
        self.queue.clear();
        self.hidden.clear();
        self.dead = false;
        self.guesses = 0;
        for (cell, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u32 << (v - 1);
            if v as usize > g.side || self.candidates[cell] & bit == 0 || !self.place(cell, bit) {
                self.dead = true;
                return;
            }
        }
        self.dead = !self.propagate();
    }

    /// Lets a search over this space take at most `budget` more choices:
    /// past that, every branch reports no alternative left, so the walk
    /// ends as if the space were exhausted and [`starved`](Self::starved)
    /// says the answer is incomplete. `u64::MAX` (the default) is no limit.
    pub fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
        self.starved = false;
    }

    /// Whether the budget ran out during the last walk (its count of
    /// solutions is then only a lower bound).
    pub fn starved(&self) -> bool {
        self.starved
    }

    /// The guesses of the searches since the last [`reset`](Self::reset):
    /// the times a cell's digit had to be chosen among two or more
    /// candidates (whether the first one tried held or not).
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// Box size of the grid.
    pub fn box_size(&self) -> usize {
        self.geometry.box_size
    }

    /// The current cells (0 for open ones).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Counts `cell` out of the places of the digit of `bit` in its three
    /// units, queueing counts that fall to one. False when one falls to zero.
    fn lose(&mut self, cell: usize, bit: u32) -> bool {
        let side = self.geometry.side;
        let d = bit.trailing_zeros() as usize;
        for unit in self.geometry.cell_units[cell] {
            let k = unit as usize * side + d;
            self.counts[k] -= 1;
            match self.counts[k] {
                0 => return false,
                1 => self.hidden.push(k as u16),
                _ => {}
            }
        }
        true
    }

    /// Places the digit of `bit` in `cell` and removes it from the peers,
    /// queueing peers left with one candidate. False on a contradiction.
    fn place(&mut self, cell: usize, bit: u32) -> bool {
        let mut others = self.candidates[cell] & !bit;
        while others != 0 {
            let other = others & others.wrapping_neg();
            others &= others - 1;
            if !self.lose(cell, other) {
                return false;
            }
        }
        self.candidates[cell] = bit;
        self.values[cell] = bit.trailing_zeros() as u8 + 1;
        self.open -= 1;
        let g = self.geometry;
        for &peer in g.peers(cell) {
            let peer = peer as usize;
            let before = self.candidates[peer];
            if before & bit != 0 {
                let after = before & !bit;
                if after == 0 || !self.lose(peer, bit) {
                    return false;
                }
                self.candidates[peer] = after;
                if after & (after - 1) == 0 && self.values[peer] == 0 {
                    self.queue.push(peer as u16);
                }
            }
        }
        true
    }

    /// Places naked and hidden singles until none is left. False on a contradiction.
    fn propagate(&mut self) -> bool {
        let g = self.geometry;
        loop {
            let (cell, bit) = if let Some(cell) = self.queue.pop() {
                let cell = cell as usize;
                (cell, self.candidates[cell])
            } else if let Some(k) = self.hidden.pop() {
                let (unit, bit) = (k as usize / g.side, 1u32 << (k as usize % g.side));
                let cells = &g.units[unit * g.side..(unit + 1) * g.side];
                let Some(&cell) = cells.iter().find(|&&c| self.candidates[c as usize] & bit != 0) else {
                    self.fail();
                    return false;
                };
                (cell as usize, bit)
            } else {
                return true;
            };
            if self.values[cell] != 0 {
                continue;
            }
            if bit == 0 || !self.place(cell, bit) {
                self.fail();
                return false;
            }
        }
    }

    /// Forgets the pending singles after a contradiction.
    fn fail(&mut self) {
        self.queue.clear();
        self.hidden.clear();
    }
}

fn full_mask(side: usize) -> u32 {
    if side >= 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    }
}

impl Space for GeneralSpace {
    type Branch = Branch;
    type Choice = Placement;
    type Solution = Vec<u8>;

    fn expand(&mut self, order: Order) -> Node<Branch> {
        if self.dead {
            return Node::Dead;
        }
        if self.open == 0 {
            return Node::Solution;
        }
        let cell = match order {
            Order::Lexicographic => self.values.iter().position(|&v| v == 0).expect("an open cell exists"),
            Order::Heuristic => {
                let mut best = usize::MAX;
                let mut best_count = u32::MAX;
                for (cell, (&v, &m)) in self.values.iter().zip(&self.candidates).enumerate() {
                    if v == 0 {
                        let count = m.count_ones();
                        if count < best_count {
                            best = cell;
                            best_count = count;
                            if count <= 2 {
                                break;
                            }
                        }
                    }
                }
                best
            }
        };
        let digits = self.candidates[cell];
        self.guesses += u64::from(digits.count_ones() >= 2);
        Node::Branch(Branch { cell: cell as u16, digits })
    }

    fn next_choice(&mut self, branch: &mut Branch) -> Option<Placement> {
        if branch.digits == 0 {
            return None;
        }
        if self.budget == 0 {
            self.starved = true;
            return None;
        }
        self.budget -= 1;
        let digit = branch.digits.trailing_zeros() as u8 + 1;
        branch.digits &= branch.digits - 1;
        Some(Placement { cell: branch.cell, digit })
    }

    fn push(&mut self, choice: Placement) -> bool {
        self.saved_candidates.extend_from_slice(&self.candidates);
        self.saved_values.extend_from_slice(&self.values);
        self.saved_open.push(self.open);
        self.saved_counts.extend_from_slice(&self.counts);
        let cell = choice.cell as usize;
        let bit = 1u32 << (choice.digit - 1);
        if self.values[cell] != 0 || self.candidates[cell] & bit == 0 {
            return false;
        }
        self.place(cell, bit) && self.propagate()
    }

    fn pop(&mut self) {
        let area = self.geometry.area;
        let start = self.saved_candidates.len() - area;
        self.candidates.copy_from_slice(&self.saved_candidates[start..]);
        self.saved_candidates.truncate(start);
        self.values.copy_from_slice(&self.saved_values[start..]);
        self.saved_values.truncate(start);
        self.open = self.saved_open.pop().expect("pop matches a push");
        let start = self.saved_counts.len() - self.counts.len();
        self.counts.copy_from_slice(&self.saved_counts[start..]);
        self.saved_counts.truncate(start);
        self.fail();
    }

    fn solution(&self) -> Vec<u8> {
        self.values.clone()
    }
}
