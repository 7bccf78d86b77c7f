//! Distinct solution grids in increasing order.

use std::ops::ControlFlow;

use crate::search::{Node, Order, Search, Space};

use super::space::Branch;
use super::tables::{ALL_DIGITS, BOX};
use super::{solve, Grid, Placement, Puzzle, Solution, Sudominoku};

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
