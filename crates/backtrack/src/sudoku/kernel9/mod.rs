//! The fast 9x9 kernel.
//!
//! # Representation
//!
//! The board is kept as 27 *digit bands*: for each digit `d` and each band
//! `b` (three rows of the grid) one 27-bit mask of the cells of that band
//! where `d` may still go. Bit `9 * r + c` stands for row `r` of the band and
//! column `c`, so cell `27 * b + bit` is the row-major cell index. A whole
//! board is a couple of hundred bytes and is copied, not undone, when the
//! search backtracks.
//!
//! # Propagation
//!
//! Each digit band is reduced with two table look-ups: the band's
//! row-by-box *shape* (which of the 3x3 row/box pairs still hold the digit)
//! indexes a table of the pairs that belong to some way of placing the digit
//! once in every row and every box of the band. Masking with it is locked
//! candidates (pointing and claiming) inside the band, finds hidden singles in
//! rows and boxes, and detects bands where the digit no longer fits. A row
//! left with one position solves that cell, which leaves the other digits; a
//! box left with one column gives that column to the box, so the digit's
//! other bands lose it. A band is reduced again only when it differs from
//! the value it had after its last reduction (one SSE2 compare per four
//! bands finds those); a sweep visits just those bands, lowest first, and
//! sweeps repeat until no band differs. After a placement (a guess or a
//! naked single) or claiming, the bands that differ come from the values
//! at hand instead: loading the bands as vectors right after the scalar
//! stores of the placement would wait for those stores, and that compare
//! was a good part of a guess's cost on the easy sets (serg_benchmark 5-6%
//! faster without it).
//!
//! At the band fixpoint, naked singles come from bit-sliced candidate counts
//! over the nine digits, for all three bands at once (a digit's three bands
//! are adjacent, so one SSE2 vector per digit): skipping the bands that did
//! not change would save little work for a branch per band that the
//! processor often mispredicts. When there are none, *claiming* looks at columns: a
//! column whose candidates for a digit all lie in one band holds the digit
//! in that band's box, so the box's other columns lose it. Each reduction
//! records the columns its digit band still uses, laid out so that one
//! vector holds a band's nine digits; the check is then a few vector
//! operations (AVX2) and finds something in about one fixpoint in eight. It
//! also finds columns left without a candidate. On the hardest set it saves
//! a sixth of the guesses. Hidden singles in columns are not looked for:
//! with claiming and the band reasoning they save no guesses on any of the
//! standard sets.
//!
//! Each elimination is sound: it removes only candidates that belong to no
//! solution.
//!
//! # Search
//!
//! The specialised search ([`solve`], [`for_each`]) recurses with a copy of
//! the board per branch. In heuristic order it branches on a cell with two
//! candidates when there is one (else on one with the fewest). Until the
//! search first meets a contradiction it takes a cheap pick among those
//! cells; from then on the puzzle has shown itself hard, and it takes the
//! one that sees the most unsolved cells, which saves a fifth of the
//! guesses on the hardest set. In lexicographic order it branches on the
//! first unsolved cell in row-major order, digits ascending, so solutions
//! come out in increasing order (propagation never
//! removes a candidate that belongs to a solution, so it cannot reorder them).
//!
//! Counting up to two solutions (the uniqueness check), the search looks
//! for the second one in the first before searching on: where a branch on
//! the path still has a digit `q` to try at its cell, the cells of `q` and
//! of the cell's digit that the cell reaches through rows, columns and
//! boxes can trade digits, and when none of them is a given that is another
//! solution. On the multi-solution set it finds three second solutions in
//! four and saves three guesses in five; a puzzle with one solution never
//! has such a swap, and the check then costs a few operations per open
//! branch.
//! The search is compiled three times: portable, for x86-64 processors with
//! AVX2/BMI1/BMI2/POPCNT/LZCNT, and for those that also have AVX-512
//! F/BW/VL; the fastest the processor supports is used, and all walk the
//! same tree. The x86-64-v3 build finds a band's shape with one bit
//! extraction (BMI2 `pext`) instead of three table look-ups, checks
//! claiming with vectors instead of table look-ups, and sorts the givens by
//! digit with byte compares instead of a loop over them. The AVX-512 build
//! is the same code compiled with AVX-512 enabled (the compiler folds logic
//! into three-input operations and copies boards with 64-byte moves); the
//! change detection, the claiming check and the sorting of givens compare
//! into mask registers there, on 256-bit vectors as in the AVX2 build.
//!
//! [`Space9`] exposes the same board, propagation and branching to the
//! generic search core so a hard puzzle can be split across threads; it
//! walks the same tree as [`solve`] (same solutions, same guesses).
//!
//! # Measuring
//!
//! `cargo bench -p backtrack --bench sudoku` times 1000-puzzle slices of the
//! standard sets; `cargo run --release -p backtrack --example sudoku_speed --
//! FILE...` times whole files.

mod board;
mod simd;
mod tables;
#[cfg(test)]
mod tests;
mod walk;

use std::ops::ControlFlow;

use crate::cpu::Portable;
use crate::search::{Mode, Node, Order, Space};

use board::Board;
pub use board::Branch9;
use walk::walk;

/// 81 cells, row-major; 0 = blank, 1..=9 = given digit.
pub type Cells = [u8; 81];

/// What one solve found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome9 {
    /// Solutions found: for `Count { limit }` min(total, limit); for
    /// `First`/`LexFirst` 0 or 1; for `All` the total.
    pub count: u64,
    /// The first solution found (for `LexFirst`: the lexicographically
    /// smallest, row-major digits).
    pub solution: Option<Cells>,
    /// Guesses: the times the search chose a cell's digit among two or more
    /// candidates, whether that digit held or not.
    pub guesses: u64,
}

/// Solves one puzzle in `mode`. Givens that conflict, or values outside
/// 0..=9, give count 0 (never panic).
pub fn solve(cells: &Cells, mode: Mode) -> Outcome9 {
    let mut solution = [0; 81];
    let solved = solve_into(cells, mode, &mut solution);
    Outcome9 { count: solved.count, solution: (solved.count > 0).then_some(solution), guesses: solved.guesses }
}

/// [`solve`], writing the first solution found into `solution` (untouched
/// when there is none) instead of returning it: a batch solver then copies
/// no grid on the way.
pub fn solve_into(cells: &Cells, mode: Mode, solution: &mut Cells) -> super::Solved {
    let (order, limit) = mode.order_and_limit();
    if limit == 0 {
        return super::Solved::default();
    }
    let mut count = 0u64;
    // Counting up to two: the second solution ends the walk, so it may
    // come from swapping digits of the first.
    let guesses = walk(cells, order, limit == 2, |board| {
        if count == 0 {
            *solution = board.cells();
        }
        count += 1;
        if count >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    super::Solved { count, guesses }
}

/// Streams every solution to `visit` (in increasing lexicographic order when
/// `order` is [`Order::Lexicographic`]) until it returns `Break`. The outcome
/// counts the solutions visited and holds the first one.
pub fn for_each(cells: &Cells, order: Order, mut visit: impl FnMut(&Cells) -> ControlFlow<()>) -> Outcome9 {
    let (mut count, mut solution) = (0u64, None);
    let guesses = walk(cells, order, false, |board| {
        let grid = board.cells();
        if count == 0 {
            solution = Some(grid);
        }
        count += 1;
        visit(&grid)
    });
    Outcome9 { count, solution, guesses }
}

/// The kernel as a search-core [`Space`]: same board, propagation and
/// branching as [`solve`], so a depth-first walk by the core walks the same
/// tree; used to split one hard puzzle across threads with
/// [`crate::search::par_count`] / [`crate::search::par_for_each`]. (A piece
/// split off takes along whether the search had met a contradiction yet,
/// which steers the guess choice, so split pieces may guess differently
/// from one walk; the solutions are the same.)
#[derive(Clone, Debug)]
pub struct Space9 {
    /// `None`: the givens conflict, so there is nothing to search.
    board: Option<Board>,
    /// Boards saved by `push`, restored by `pop`.
    saved: Vec<Option<Board>>,
    /// Set by the first propagation that fails, and kept (see [`Board::branch`]).
    careful: bool,
}

impl Space9 {
    /// The space of the puzzle `cells`; conflicting givens make a space with no solutions.
    pub fn new(cells: &Cells) -> Space9 {
        Space9 { board: Board::new(Portable, cells), saved: Vec::with_capacity(81), careful: false }
    }

    /// The space of a grid given by candidates: cell `c` keeps the digits
    /// of `masks[c]` (bit `d` = digit `d + 1`), pencil marks as much as givens.
    pub fn from_candidates(masks: &[u16; 81]) -> Space9 {
        Space9 { board: Board::from_masks(Portable, masks), saved: Vec::with_capacity(81), careful: false }
    }
}

impl Space for Space9 {
    type Branch = Branch9;
    /// `(cell, digit)` with the digit 1..=9.
    type Choice = (u8, u8);
    type Solution = Cells;

    fn expand(&mut self, order: Order) -> Node<Branch9> {
        match &self.board {
            None => Node::Dead,
            Some(board) if board.is_solved() => Node::Solution,
            Some(board) => Node::Branch(board.branch(order, self.careful)),
        }
    }

    fn next_choice(&mut self, branch: &mut Branch9) -> Option<(u8, u8)> {
        if branch.digits == 0 {
            return None;
        }
        let d = branch.digits.trailing_zeros() as u8;
        branch.digits &= branch.digits - 1;
        Some((branch.cell, d + 1))
    }

    fn push(&mut self, (cell, digit): (u8, u8)) -> bool {
        self.saved.push(self.board);
        let Some(board) = &mut self.board else { return false };
        let (cell, d) = (cell as usize, digit as usize - 1);
        if cell >= 81 || d >= 9 || board.bands[3 * d + cell / 27] & (1 << (cell % 27)) == 0 {
            self.board = None;
            return false;
        }
        let pending = board.assign(cell, d, board.digits_of(cell));
        if board.propagate(Portable, pending) {
            true
        } else {
            self.board = None;
            self.careful = true;
            false
        }
    }

    fn pop(&mut self) {
        if let Some(board) = self.saved.pop() {
            self.board = board;
        }
    }

    fn solution(&self) -> Cells {
        self.board.as_ref().map_or([0; 81], Board::cells)
    }
}
