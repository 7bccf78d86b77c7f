//! Sudominoku: a sudoku whose cells, but for one given cell per digit, are
//! covered by the 36 dominoes `{a, b}` (`1 <= a < b <= 9`), each used once.
//!
//! A [`Puzzle`] holds some dominoes already placed and the nine single
//! digits; solving it places every other domino so that the board is a valid
//! sudoku. The solver ([`Sudominoku`], a [`Space`]) keeps bitmask candidates
//! for rows, columns and boxes plus, for every digit `a`, the mask of digits
//! `b` whose domino `{a, b}` is still unused. At each node it branches on the
//! empty cell with the fewest possible placements (a domino laid from it to
//! an empty neighbour, with digits its row, column and box allow and a pair
//! not yet used), so dead ends show up early.
//!
//! Two different tilings can spell the same grid; [`count_grids`] counts
//! distinct grids, which is what "unique solution" means for this puzzle,
//! and [`LexGrids`] lists them in increasing order.
//!
//! ```
//! use backtrack::sudominoku::{parse, solve, format_grid};
//!
//! let text = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n\
//!             7 F7 6 F8\n5 G4 9 G5\n7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n0\n";
//! let puzzles = parse(text).unwrap();
//! let puzzle = puzzles[0].as_ref().unwrap();
//! let solution = solve(puzzle).unwrap();
//! assert!(format_grid(&solution.grid).starts_with("872643195\n361975842\n"));
//! ```

use std::collections::HashSet;
use std::ops::ControlFlow;

use crate::error::Quoted;
use crate::search::{Node, Order, Search, Space};
use crate::ParseError;

/// A board: 81 digits in row-major order, `0` for an empty cell.
pub type Grid = [u8; 81];

/// Marks "no neighbour" in [`NEIGHBORS`].
const NONE: u8 = u8::MAX;

/// The orthogonal neighbours of every cell: right, down, left, up.
const NEIGHBORS: [[u8; 4]; 81] = {
    let mut table = [[NONE; 4]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        if col < 8 {
            table[cell][0] = (cell + 1) as u8;
        }
        if row < 8 {
            table[cell][1] = (cell + 9) as u8;
        }
        if col > 0 {
            table[cell][2] = (cell - 1) as u8;
        }
        if row > 0 {
            table[cell][3] = (cell - 9) as u8;
        }
        cell += 1;
    }
    table
};

/// Box number (0..9, row-major) of every cell.
const BOX: [u8; 81] = {
    let mut table = [0u8; 81];
    let mut cell = 0;
    while cell < 81 {
        table[cell] = ((cell / 27) * 3 + (cell % 9) / 3) as u8;
        cell += 1;
    }
    table
};

/// Cells whose row + column is even ("black" squares of a chessboard colouring).
const BLACK: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if (cell / 9 + cell % 9) % 2 == 0 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// All 81 cells.
const BOARD: u128 = (1 << 81) - 1;

/// Cells not in the first column (where a shift by one to the right may land).
const NOT_FIRST_COLUMN: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if cell % 9 != 0 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// Cells not in the last column.
const NOT_LAST_COLUMN: u128 = {
    let mut mask = 0u128;
    let mut cell = 0;
    while cell < 81 {
        if cell % 9 != 8 {
            mask |= 1 << cell;
        }
        cell += 1;
    }
    mask
};

/// Whether every connected region of `empty` cells has as many black cells as
/// white ones: a domino always covers one of each, so a region that does not
/// balance can never be tiled.
fn regions_balance(empty: u128) -> bool {
    let mut rest = empty;
    while rest != 0 {
        let mut region = rest & rest.wrapping_neg();
        loop {
            let grown = region
                | ((region << 1) & NOT_FIRST_COLUMN)
                | ((region >> 1) & NOT_LAST_COLUMN)
                | ((region << 9) & BOARD)
                | (region >> 9);
            let grown = grown & rest;
            if grown == region {
                break;
            }
            region = grown;
        }
        if (region & BLACK).count_ones() * 2 != region.count_ones() {
            return false;
        }
        rest &= !region;
    }
    true
}

/// Digits 1..9 as bits 1..9.
const ALL_DIGITS: u16 = 0b11_1111_1110;

/// The name of a cell: row letter `A`-`I`, then column digit `1`-`9`.
pub fn cell_name(cell: usize) -> String {
    format!("{}{}", (b'A' + (cell / 9) as u8) as char, cell % 9 + 1)
}

/// The cell a name like `B7` denotes.
pub fn parse_cell(name: &str) -> Option<usize> {
    match name.as_bytes() {
        &[row @ b'A'..=b'I', col @ b'1'..=b'9'] => Some((row - b'A') as usize * 9 + (col - b'1') as usize),
        _ => None,
    }
}

/// One domino laid on the board: `first_digit` on `first`, `second_digit` on `second`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Cell (0..81, row-major) of the first half.
    pub first: u8,
    /// Cell of the second half, orthogonally adjacent to `first`.
    pub second: u8,
    /// Digit on the first half.
    pub first_digit: u8,
    /// Digit on the second half, different from `first_digit`.
    pub second_digit: u8,
}

/// Why a set of clues is not a valid puzzle (see [`Puzzle::new`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClueError {
    /// Which clue: the index of the domino, or `dominoes.len() + d - 1` for the single digit `d`.
    pub clue: usize,
    /// Which half of a domino (0 or 1), or 0 for a single digit.
    pub half: usize,
    /// What is wrong.
    pub message: String,
}

/// A sudominoku puzzle: the dominoes already placed and the cells of the single digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The placed dominoes, as given.
    pub dominoes: Vec<Placement>,
    /// `singles[d - 1]` is the cell of the lone digit `d`.
    pub singles: [u8; 9],
    /// The board with every clue written in.
    pub grid: Grid,
}

impl Puzzle {
    /// Checks and assembles a puzzle: every domino's halves are adjacent and
    /// hold different digits 1..9, no domino is used twice, no two clues
    /// share a cell, and no digit repeats in a row, column or box.
    pub fn new(dominoes: Vec<Placement>, singles: [u8; 9]) -> Result<Puzzle, ClueError> {
        let mut grid = [0u8; 81];
        let mut used = [[false; 10]; 10];
        let write = |grid: &mut Grid, cell: u8, digit: u8, clue: usize, half: usize| -> Result<(), ClueError> {
            let err = |message: String| ClueError { clue, half, message };
            if cell >= 81 {
                return Err(err(format!("cell {cell} is off the board")));
            }
            if !(1..=9).contains(&digit) {
                return Err(err(format!("digit {digit} is not between 1 and 9")));
            }
            let cell = cell as usize;
            if grid[cell] != 0 {
                return Err(err(format!("{} is already covered", cell_name(cell))));
            }
            for other in 0..81 {
                let same_unit = other / 9 == cell / 9 || other % 9 == cell % 9 || BOX[other] == BOX[cell];
                if same_unit && grid[other] == digit {
                    return Err(err(format!(
                        "{digit} at {} repeats the {digit} at {} in a row, column or box",
                        cell_name(cell),
                        cell_name(other)
                    )));
                }
            }
            grid[cell] = digit;
            Ok(())
        };
        for (i, p) in dominoes.iter().enumerate() {
            let err = |half: usize, message: String| ClueError { clue: i, half, message };
            if p.first_digit == p.second_digit {
                return Err(err(1, format!("a domino needs two different digits, found {} twice", p.first_digit)));
            }
            if p.first >= 81 || p.second >= 81 || !NEIGHBORS[p.first as usize].contains(&p.second) {
                return Err(err(1, "the two halves of a domino must be side by side".into()));
            }
            write(&mut grid, p.first, p.first_digit, i, 0)?;
            write(&mut grid, p.second, p.second_digit, i, 1)?;
            let (a, b) = (p.first_digit as usize, p.second_digit as usize);
            if used[a][b] {
                return Err(err(0, format!("the domino {}-{} is used twice", a.min(b), a.max(b))));
            }
            used[a][b] = true;
            used[b][a] = true;
        }
        for (d, &cell) in singles.iter().enumerate() {
            write(&mut grid, cell, d as u8 + 1, dominoes.len() + d, 0)?;
        }
        Ok(Puzzle { dominoes, singles, grid })
    }
}

/// A solved puzzle: the grid and the domino tiling that spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The full board.
    pub grid: Grid,
    /// All 36 dominoes: the given ones first, in input order, then those the solver placed.
    pub dominoes: Vec<Placement>,
}

/// The solver's search space. Solutions are tilings; see [`count_grids`] for distinct grids.
///
/// The branching order is always the solver's own (the tightest constraint
/// first): one grid can be reached through several tilings, so an order on
/// tilings says little about grids, and [`Order::Lexicographic`] is not
/// honoured here. [`LexGrids`] is the space whose solutions are distinct
/// grids in increasing order; [`lex_first`] gives the smallest.
#[derive(Debug, Clone)]
pub struct Sudominoku {
    grid: Grid,
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
    /// State of the generator that shuffles each node's placements; 0: keep them in order.
    shuffle: u64,
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
            shuffle: 0,
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
        if self.shuffle != 0 {
            // Fisher-Yates with xorshift64: restarts explore different parts of the tree.
            for i in (1..list.len()).rev() {
                self.shuffle ^= self.shuffle << 13;
                self.shuffle ^= self.shuffle >> 7;
                self.shuffle ^= self.shuffle << 17;
                list.swap(i, (self.shuffle % (i as u64 + 1)) as usize);
            }
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

/// Nodes the first attempt of [`solve`] may visit before it restarts.
const FIRST_BUDGET: u64 = 1 << 12;

/// A solution of `puzzle`, or `None` when it has none.
///
/// Puzzles with few dominoes given have many solutions, and a depth-first
/// search can spend long in a barren subtree after one early wrong turn. So
/// the search runs with a node budget and, when the budget runs out,
/// restarts with the placements of every node shuffled and the budget
/// doubled. An attempt that ends within its budget has explored the whole
/// tree, so `None` is still a proof that there is no solution.
pub fn solve(puzzle: &Puzzle) -> Option<Solution> {
    let mut space = Sudominoku::new(puzzle);
    let mut budget = FIRST_BUDGET;
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    loop {
        let mut found = None;
        let mut limited = Budgeted { space: &mut space, nodes_left: budget, exhausted: false };
        Search::new(&mut limited).walk(|b| {
            found = Some(b.space.solution());
            ControlFlow::Break(())
        });
        if found.is_some() || !limited.exhausted {
            return found;
        }
        budget = budget.saturating_mul(2);
        space.shuffle = seed;
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    }
}

/// [`Sudominoku`] that stops branching after a number of nodes.
struct Budgeted<'a> {
    space: &'a mut Sudominoku,
    nodes_left: u64,
    /// Whether the budget ran out (so the walk did not see the whole tree).
    exhausted: bool,
}

impl Space for &mut Budgeted<'_> {
    type Branch = Branch;
    type Choice = Placement;
    type Solution = Solution;

    fn expand(&mut self, order: Order) -> Node<Branch> {
        self.space.expand(order)
    }
    fn next_choice(&mut self, branch: &mut Branch) -> Option<Placement> {
        if self.nodes_left == 0 {
            // Out of budget: every open node reports no more choices, so the walk unwinds at once.
            self.exhausted = true;
            return None;
        }
        self.nodes_left -= 1;
        self.space.next_choice(branch)
    }
    fn push(&mut self, p: Placement) -> bool {
        self.space.push(p)
    }
    fn pop(&mut self) {
        self.space.pop()
    }
    fn solution(&self) -> Solution {
        self.space.solution()
    }
}

/// Distinct solution grids of `puzzle`, stopping once `limit` are found.
/// Returns the count and whether the search was complete (`false`: stopped at the limit).
pub fn count_grids(puzzle: &Puzzle, limit: Option<u64>) -> (u64, bool) {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return (0, false);
    }
    let mut grids: HashSet<Grid> = HashSet::new();
    let mut search = Search::new(Sudominoku::new(puzzle));
    let mut complete = true;
    search.walk(|space| {
        grids.insert(space.grid);
        if grids.len() as u64 >= limit {
            complete = false;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (grids.len() as u64, complete)
}

/// The lexicographically smallest solution grid (row-major digits), or `None`.
pub fn lex_first(puzzle: &Puzzle) -> Option<Solution> {
    Search::new(LexGrids::new(puzzle)).first()
}

/// The distinct solution grids of a puzzle in increasing lexicographic order
/// (row-major digits), as a [`Space`]: each solution is a different grid.
///
/// It branches on the digit of the first cell, in row-major order, that no
/// clue fills, and keeps a digit only when a tiling search shows that some
/// solution agrees with every digit chosen so far. A tiling found for one
/// node often agrees with the next digit too, which then needs no search.
/// Both [`Order`]s branch alike: increasing order is the natural one here.
///
/// ```
/// use backtrack::search::Search;
/// use backtrack::sudominoku::{parse, LexGrids};
///
/// let text = "11\n5 I9 2 H9\n6 A5 7 A6\n4 B8 6 C8\n3 B5 8 B4\n3 C3 2 D3\n9 D2 8 E2\n\
///             3 G2 5 H2\n1 A2 8 A1\n1 H8 3 I8\n8 I3 7 I4\n4 I6 9 I7\nI5 E6 D1 F2 B3 G9 H7 C9 E5\n";
/// let puzzle = parse(text).unwrap().remove(0).unwrap();
/// assert_eq!(Search::new(LexGrids::new(&puzzle)).count(None), 1);
/// ```
#[derive(Debug, Clone)]
pub struct LexGrids {
    space: Sudominoku,
    /// The clues plus the digits chosen so far; 0 for cells still open.
    pins: Grid,
    /// Cells pinned by choices, in order, for `pop`.
    pinned: Vec<u8>,
    /// For the root and each choice: a solution that agrees with the pins
    /// (`None` after a choice that admits none).
    witnesses: Vec<Option<Solution>>,
}

impl LexGrids {
    /// The grids of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Self {
        LexGrids {
            space: Sudominoku::new(puzzle),
            pins: puzzle.grid,
            pinned: Vec::with_capacity(81),
            witnesses: vec![solve(puzzle)],
        }
    }

    /// Digits `cell` may take given the pinned digits of its row, column and box.
    fn pin_candidates(&self, cell: usize) -> u16 {
        let mut taken = 0u16;
        for (other, &digit) in self.pins.iter().enumerate() {
            let same_unit = other / 9 == cell / 9 || other % 9 == cell % 9 || BOX[other] == BOX[cell];
            if same_unit {
                taken |= 1 << digit;
            }
        }
        !taken & ALL_DIGITS
    }
}

impl Space for LexGrids {
    /// The cell, and the digits still to try on it.
    type Branch = (u8, u16);
    /// A cell and the digit pinned on it.
    type Choice = (u8, u8);
    type Solution = Solution;

    fn expand(&mut self, _order: Order) -> Node<(u8, u16)> {
        if !matches!(self.witnesses.last(), Some(Some(_))) {
            return Node::Dead;
        }
        match self.pins.iter().position(|&d| d == 0) {
            None => Node::Solution,
            Some(cell) => Node::Branch((cell as u8, self.pin_candidates(cell))),
        }
    }

    fn next_choice(&mut self, branch: &mut (u8, u16)) -> Option<(u8, u8)> {
        let (cell, digits) = branch;
        if *digits == 0 {
            return None;
        }
        let digit = digits.trailing_zeros() as u8;
        *digits &= *digits - 1;
        Some((*cell, digit))
    }

    fn push(&mut self, (cell, digit): (u8, u8)) -> bool {
        self.pins[cell as usize] = digit;
        self.pinned.push(cell);
        let known = match self.witnesses.last() {
            Some(Some(w)) if w.grid[cell as usize] == digit => Some(w.clone()),
            _ => None,
        };
        let witness = known.or_else(|| solve_pinned(&mut self.space, &self.pins));
        let alive = witness.is_some();
        self.witnesses.push(witness);
        alive
    }

    fn pop(&mut self) {
        if let Some(cell) = self.pinned.pop() {
            self.pins[cell as usize] = 0;
            self.witnesses.pop();
        }
    }

    fn solution(&self) -> Solution {
        self.witnesses.last().cloned().flatten().expect("expand reported a solution only with a witness")
    }
}

/// A solution whose grid agrees with every non-zero digit of `pins`.
fn solve_pinned(space: &mut Sudominoku, pins: &Grid) -> Option<Solution> {
    let mut found = None;
    Search::new(Pinned { space, pins }).walk(|pinned| {
        found = Some(pinned.space.solution());
        ControlFlow::Break(())
    });
    found
}

/// [`Sudominoku`] restricted to grids that agree with `pins`.
struct Pinned<'a> {
    space: &'a mut Sudominoku,
    pins: &'a Grid,
}

impl Space for Pinned<'_> {
    type Branch = Branch;
    type Choice = Placement;
    type Solution = Solution;

    fn expand(&mut self, order: Order) -> Node<Branch> {
        self.space.expand(order)
    }
    fn next_choice(&mut self, branch: &mut Branch) -> Option<Placement> {
        while let Some(p) = self.space.next_choice(branch) {
            let agrees =
                |cell: u8, digit: u8| matches!(self.pins[cell as usize], 0) || self.pins[cell as usize] == digit;
            if agrees(p.first, p.first_digit) && agrees(p.second, p.second_digit) {
                return Some(p);
            }
        }
        None
    }
    fn push(&mut self, p: Placement) -> bool {
        self.space.push(p)
    }
    fn pop(&mut self) {
        self.space.pop()
    }
    fn solution(&self) -> Solution {
        self.space.solution()
    }
}

/// The grid as 9 lines of 9 digits, each line ending in `\n`.
pub fn format_grid(grid: &Grid) -> String {
    let mut text = String::with_capacity(90);
    for row in grid.chunks(9) {
        for &d in row {
            text.push((b'0' + d) as char);
        }
        text.push('\n');
    }
    text
}

/// Whitespace-separated words with their 1-based line and column.
struct Words<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    column: usize,
}

/// One word and where it starts.
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl<'a> Words<'a> {
    fn next_word(&mut self) -> Option<Word<'a>> {
        let rest = &self.text[self.pos..];
        let mut start = None;
        let mut end = rest.len();
        let (mut line, mut column) = (self.line, self.column);
        for (i, c) in rest.char_indices() {
            if c.is_whitespace() {
                if start.is_some() {
                    end = i;
                    break;
                }
                if c == '\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
            } else {
                if start.is_none() {
                    start = Some(i);
                    (line, column) = (self.line, self.column);
                }
                self.column += 1;
            }
        }
        let start = start?;
        self.pos += end;
        Some(Word { text: &rest[start..end], line, column })
    }

    /// Where the text ends.
    fn end(&self) -> (usize, usize) {
        crate::error::end_position(self.text)
    }

    fn expect_word(&mut self, what: &str) -> Result<Word<'a>, ParseError> {
        self.next_word().ok_or_else(|| {
            let (line, column) = self.end();
            ParseError::new(line, column, format!("expected {what}, found the end of the input"))
        })
    }
}

/// Parses the judge's format: puzzles (`N`, N lines `U LU V LV`, a line of
/// nine locations), ended by a line `0` (or by the end of the input).
///
/// The outer `Err` is an error that loses track of the structure (a bad `N`,
/// a truncated puzzle); an inner `Err` is a puzzle whose words were all
/// there but do not make a valid puzzle, and the others can still be solved.
pub fn parse(text: &str) -> Result<Vec<Result<Puzzle, ParseError>>, ParseError> {
    let mut words = Words { text, pos: 0, line: 1, column: 1 };
    let mut puzzles = Vec::new();
    loop {
        let Some(count) = words.next_word() else {
            if puzzles.is_empty() {
                let (line, column) = words.end();
                return Err(ParseError::new(line, column, "expected the number of dominoes, found an empty input"));
            }
            // A missing terminating 0 is forgiven: every puzzle before it was complete.
            break;
        };
        let n: usize = match count.text.parse() {
            Ok(0) => {
                if let Some(extra) = words.next_word() {
                    return Err(ParseError::new(
                        extra.line,
                        extra.column,
                        format!("unexpected `{}` after the terminating 0", Quoted(extra.text)),
                    ));
                }
                break;
            }
            Ok(n @ 1..=36) => n,
            _ => {
                return Err(ParseError::new(
                    count.line,
                    count.column,
                    format!("expected the number of dominoes (1 to 36, or 0 to end), found `{}`", Quoted(count.text)),
                ))
            }
        };
        // Words read so far with what each should be, to explain a truncated
        // puzzle by its first misplaced word (a missing word shifts the rest).
        let mut seen: Vec<(Word, bool)> = Vec::with_capacity(4 * n + 9);
        fn take<'a>(
            words: &mut Words<'a>,
            what: String,
            digit: bool,
            seen: &mut Vec<(Word<'a>, bool)>,
        ) -> Result<Word<'a>, ParseError> {
            match words.expect_word(&what) {
                Ok(word) => {
                    seen.push((word, digit));
                    Ok(word)
                }
                Err(end) => Err(first_misplaced(seen).unwrap_or(end)),
            }
        }
        let mut domino_words = Vec::with_capacity(n);
        for i in 1..=n {
            let mut four = [count; 4];
            for (j, slot) in four.iter_mut().enumerate() {
                let what = ["a digit", "a location", "a digit", "a location"][j];
                *slot = take(&mut words, format!("{what} in domino {i} of {n}"), j % 2 == 0, &mut seen)?;
            }
            domino_words.push(four);
        }
        let mut single_words = [count; 9];
        for (d, slot) in single_words.iter_mut().enumerate() {
            *slot = take(&mut words, format!("the location of the digit {}", d + 1), false, &mut seen)?;
        }
        puzzles.push(read_puzzle(&domino_words, &single_words));
    }
    Ok(puzzles)
}

/// The first word that is not the digit or location expected in its place.
fn first_misplaced(seen: &[(Word, bool)]) -> Option<ParseError> {
    seen.iter().find_map(|&(word, digit)| {
        let fits = if digit { matches!(word.text.as_bytes(), [b'1'..=b'9']) } else { parse_cell(word.text).is_some() };
        (!fits).then(|| {
            let what = if digit { "a digit 1-9" } else { "a location A1-I9" };
            ParseError::new(word.line, word.column, format!("expected {what}, found `{}`", Quoted(word.text)))
        })
    })
}

/// Turns one puzzle's words into a [`Puzzle`].
fn read_puzzle(domino_words: &[[Word; 4]], single_words: &[Word; 9]) -> Result<Puzzle, ParseError> {
    let at = |w: &Word, message: String| ParseError::new(w.line, w.column, message);
    let digit = |w: &Word| -> Result<u8, ParseError> {
        match w.text.as_bytes() {
            &[d @ b'1'..=b'9'] => Ok(d - b'0'),
            _ => Err(at(w, format!("expected a digit 1-9, found `{}`", Quoted(w.text)))),
        }
    };
    let location = |w: &Word| -> Result<u8, ParseError> {
        parse_cell(w.text)
            .map(|c| c as u8)
            .ok_or_else(|| at(w, format!("expected a location A1-I9, found `{}`", Quoted(w.text))))
    };
    let mut dominoes = Vec::with_capacity(domino_words.len());
    for [u, lu, v, lv] in domino_words {
        dominoes.push(Placement {
            first_digit: digit(u)?,
            first: location(lu)?,
            second_digit: digit(v)?,
            second: location(lv)?,
        });
    }
    let mut singles = [0u8; 9];
    for (slot, w) in singles.iter_mut().zip(single_words) {
        *slot = location(w)?;
    }
    Puzzle::new(dominoes, singles).map_err(|e| {
        let word = if e.clue < domino_words.len() {
            // Point at the location of the offending half.
            &domino_words[e.clue][2 * e.half + 1]
        } else {
            &single_words[e.clue - domino_words.len()]
        };
        at(word, e.message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n7 F7 6 F8\n\
        5 G4 9 G5\n7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n0\n";

    #[test]
    fn cell_names_round_trip() {
        for cell in 0..81 {
            assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        }
        assert_eq!(parse_cell("J1"), None);
        assert_eq!(parse_cell("A0"), None);
    }

    #[test]
    fn solves_the_sample() {
        let puzzles = parse(SAMPLE).unwrap();
        let puzzle = puzzles[0].as_ref().unwrap();
        let solution = solve(puzzle).unwrap();
        assert_eq!(&format_grid(&solution.grid)[..20], "872643195\n361975842\n");
        assert_eq!(solution.dominoes.len(), 36);
        assert_eq!(count_grids(puzzle, Some(2)), (1, true));
        assert_eq!(lex_first(puzzle).unwrap().grid, solution.grid);
    }

    #[test]
    fn reports_overlap_where_it_is() {
        let text = "1\n1 A1 2 A2\nA1 B1 C1 D1 E1 F1 G1 H1 I1\n";
        let err = parse(text).unwrap()[0].clone().unwrap_err();
        assert_eq!((err.line, err.column), (3, 1));
    }
}
