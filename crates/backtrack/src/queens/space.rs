//! N-queens as a plain [`Space`] of the search core.

use crate::search::{Node, Order, Space};

use super::kernel::full_mask;
use super::{SizeError, MAX_N};

/// The `n`-queens board as a search space: row by row from the top, trying
/// columns from left to right, so solutions come out in lexicographic order
/// in either [`Order`]. A solution is the 0-based column of each row's queen.
///
/// This is the straightforward formulation: no symmetry reduction, one
/// `Vec` per solution. [`count`](super::count) and
/// [`write_solutions`](super::write_solutions) are the fast paths; this one
/// serves the search core's generic tools (splitting, first/lexicographic
/// searches, cross-checks).
///
/// ```
/// use backtrack::queens::QueensSpace;
/// use backtrack::search::Search;
///
/// let mut search = Search::new(QueensSpace::new(6).unwrap());
/// assert_eq!(search.lex_first(), Some(vec![1, 3, 5, 0, 2, 4]));
/// assert_eq!(Search::new(QueensSpace::new(6).unwrap()).count(None), 4);
/// ```
#[derive(Clone, Debug)]
pub struct QueensSpace {
    n: usize,
    mask: u32,
    cols: Vec<u8>,
    /// Attacks (left diagonals, columns, right diagonals) on the next row,
    /// one entry per placed row plus the empty board's.
    attacks: Vec<(u32, u32, u32)>,
}

impl QueensSpace {
    /// The empty `n`×`n` board.
    pub fn new(n: usize) -> Result<Self, SizeError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(SizeError(n));
        }
        let mut attacks = Vec::with_capacity(n + 1);
        attacks.push((0, 0, 0));
        Ok(QueensSpace { n, mask: full_mask(n), cols: Vec::with_capacity(n), attacks })
    }

    /// Board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Columns of the queens placed so far, top row first.
    pub fn columns(&self) -> &[u8] {
        &self.cols
    }
}

impl Space for QueensSpace {
    /// Columns still to try in the next row.
    type Branch = u32;
    /// A column for the next row.
    type Choice = u8;
    type Solution = Vec<u8>;

    fn expand(&mut self, _order: Order) -> Node<u32> {
        if self.cols.len() == self.n {
            return Node::Solution;
        }
        let (left, down, right) = *self.attacks.last().expect("root entry");
        match self.mask & !(left | down | right) {
            0 => Node::Dead,
            free => Node::Branch(free),
        }
    }

    fn next_choice(&mut self, free: &mut u32) -> Option<u8> {
        if *free == 0 {
            return None;
        }
        let col = free.trailing_zeros() as u8;
        *free &= *free - 1;
        Some(col)
    }

    fn push(&mut self, col: u8) -> bool {
        let (left, down, right) = *self.attacks.last().expect("root entry");
        let bit = 1u32 << col;
        let free = self.mask & !(left | down | right) & bit != 0;
        self.cols.push(col);
        self.attacks.push(((left | bit) << 1, down | bit, (right | bit) >> 1));
        free
    }

    fn pop(&mut self) {
        self.cols.pop();
        self.attacks.pop();
    }

    fn solution(&self) -> Vec<u8> {
        self.cols.clone()
    }
}
