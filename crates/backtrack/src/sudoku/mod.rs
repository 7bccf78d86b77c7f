//! Sudoku: 9x9 with a fast bitboard kernel ([`kernel9`]), and other
//! n²×n² grids (4x4 to 25x25) with a general kernel ([`general`]).
//!
//! Text goes through the [formats](Format): [`parse`] or [`Batch::parse`]
//! read puzzles in the line, grid or spaced format (detected), and
//! [`write_cells`] writes solutions back. [`solve`] and [`for_each`] answer one puzzle in any
//! [`Mode`]; a [`Solver`] does the same for many puzzles of one size without
//! allocating per puzzle. A [`stream::Reader`] reads a batch at a time from a
//! stream of any length, in bounded memory.
//!
//! ```
//! use backtrack::search::Mode;
//! use backtrack::sudoku::{self, Puzzle};
//!
//! let puzzle: Puzzle = "\
//!     103000509\n002109400\n000704000\n300502006\n060000050\n\
//!     700803004\n000401000\n009205800\n804000107\n".parse().unwrap();
//! let smallest = sudoku::solve(&puzzle, Mode::LexFirst).solution.unwrap();
//! assert_eq!(smallest[..9], [1, 4, 3, 6, 2, 8, 5, 7, 9]);
//! assert!(puzzle.is_solved_by(&smallest));
//! assert_eq!(sudoku::solve(&puzzle, Mode::Count { limit: Some(2) }).count, 1);
//! ```

pub mod answer;
mod conflicts;
mod format;
pub mod general;
pub mod generate;
pub mod kernel9;
pub mod marks;
mod parse;
pub mod pipeline;
mod puzzle;
pub mod rate;
mod read;
pub mod score;
pub mod stream;
pub mod techniques;
#[cfg(test)]
mod tests;
mod write;

use std::ops::ControlFlow;

pub use conflicts::find_conflict;
pub use format::{Format, Layout};
pub use general::GeneralSpace;
pub use parse::{detect, parse, parse_as, Batch, Entry};
pub use puzzle::{is_solution, Conflict, Puzzle, PuzzleError, Unit, MAX_BOX, MIN_BOX};
pub use write::{symbol, write_cells};

use crate::search::{self, Control, Mode, Order, Search, ThreadStartError, Threads};

/// What solving one puzzle found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (1 at most for [`Mode::First`] and [`Mode::LexFirst`];
    /// at most the limit for [`Mode::Count`]).
    pub count: u64,
    /// The first solution found (the smallest for [`Mode::LexFirst`]), if any.
    pub solution: Option<Vec<u8>>,
    /// Guesses: the times the search chose a cell's digit among two or
    /// more candidates, whether that digit held or not (0 when propagation
    /// alone solved the puzzle).
    pub guesses: u64,
}

/// What [`Solver::solve`] found; the solution itself is written to the caller's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Solved {
    /// Solutions found (see [`Outcome::count`]).
    pub count: u64,
    /// Guesses (see [`Outcome::guesses`]).
    pub guesses: u64,
}

/// Solves puzzles of one box size, one after another, reusing its buffers.
/// 9x9 grids go to the fast [`kernel9`], other sizes to the [`general`] kernel.
#[derive(Debug, Clone)]
pub struct Solver {
    box_size: usize,
    /// Whether 9x9 grids use [`kernel9`].
    fast9: bool,
    /// The general kernel's space, kept between puzzles (taken while a search
    /// runs; built on first use).
    general: Option<GeneralSpace>,
}

impl Solver {
    /// A solver for grids of box size `box_size` (2..=5).
    ///
    /// # Panics
    /// If the box size is unsupported.
    pub fn new(box_size: usize) -> Solver {
        assert!((MIN_BOX..=MAX_BOX).contains(&box_size), "box size {box_size} is not supported");
        Solver { box_size, fast9: true, general: None }
    }

    /// A solver that uses the [`general`] kernel for every size, 9x9
    /// included (to cross-check the fast kernel, or to compare speeds).
    pub fn general(box_size: usize) -> Solver {
        Solver { fast9: false, ..Solver::new(box_size) }
    }

    /// Box size this solver handles.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Solves `cells` in `mode`, writing the first solution found (the
    /// smallest for [`Mode::LexFirst`]) into `solution` when there is one.
    /// [`Mode::All`] counts every solution. Conflicting givens give count 0.
    ///
    /// # Panics
    /// If `cells` or `solution` does not have `box_size⁴` cells.
    pub fn solve(&mut self, cells: &[u8], mode: Mode, solution: &mut [u8]) -> Solved {
        self.solve_within(cells, mode, solution, u64::MAX).expect("an unlimited search always ends")
    }

    /// [`solve`](Self::solve), giving up (`None`) once the search has taken
    /// `budget` choices without finishing: how a generator bounds the cost
    /// of one uniqueness check on a large grid. 9x9 grids on the fast kernel
    /// are always solved to the end.
    ///
    /// # Panics
    /// If `cells` or `solution` does not have `box_size⁴` cells.
    pub fn solve_within(&mut self, cells: &[u8], mode: Mode, solution: &mut [u8], budget: u64) -> Option<Solved> {
        let (order, limit) = mode.order_and_limit();
        if limit == 0 {
            return Some(Solved::default());
        }
        if let Some(cells) = self.fast_cells(cells) {
            let solution: &mut kernel9::Cells = solution.try_into().expect("a solution buffer of 81 cells");
            return Some(kernel9::solve_into(cells, mode, solution));
        }
        let mut count = 0u64;
        let (guesses, starved) = self.walk(cells, order, budget, |values| {
            if count == 0 {
                solution.copy_from_slice(values);
            }
            count += 1;
            if count >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (!starved || count >= limit).then_some(Solved { count, guesses })
    }

    /// Hands every solution of `cells` to `visit`, in `order`
    /// ([`Order::Lexicographic`]: increasing), until it returns `Break`.
    pub fn for_each(&mut self, cells: &[u8], order: Order, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> Solved {
        if let Some(cells) = self.fast_cells(cells) {
            let outcome = kernel9::for_each(cells, order, |grid| visit(grid));
            return Solved { count: outcome.count, guesses: outcome.guesses };
        }
        let mut count = 0u64;
        let (guesses, _) = self.walk(cells, order, u64::MAX, |values| {
            count += 1;
            visit(values)
        });
        Solved { count, guesses }
    }

    /// Counts the solutions of `cells` (stopping at `limit`) with the
    /// search tree split into pieces that run on `threads` threads: the way
    /// to count one puzzle with many solutions fast.
    ///
    /// # Panics
    /// If `cells` does not have `box_size⁴` cells.
    pub fn par_count(&self, cells: &[u8], limit: Option<u64>, threads: Threads) -> Result<u64, ThreadStartError> {
        let control = Control::new();
        let counted = match self.fast_cells(cells) {
            Some(grid) => search::par_count(&kernel9::Space9::new(grid), Order::Heuristic, limit, threads, &control),
            None => {
                let root = GeneralSpace::new(self.box_size, cells);
                search::par_count(&root, Order::Heuristic, limit, threads, &control)
            }
        };
        counted.map(|(count, _)| count)
    }

    /// `cells` as a 9x9 grid when the fast kernel applies.
    fn fast_cells<'a>(&self, cells: &'a [u8]) -> Option<&'a kernel9::Cells> {
        if self.fast9 && self.box_size == 3 {
            cells.try_into().ok()
        } else {
            None
        }
    }

    /// Runs the search within `budget` choices, calling `at_solution` with
    /// each solution's cells; returns the guesses made and whether the
    /// budget ran out.
    fn walk(
        &mut self,
        cells: &[u8],
        order: Order,
        budget: u64,
        mut at_solution: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) -> (u64, bool) {
        // Built on first use: 9x9 grids on the fast kernel never need it.
        let mut space = match self.general.take() {
            Some(mut space) => {
                space.reset(cells);
                space
            }
            None => GeneralSpace::new(self.box_size, cells),
        };
        space.set_budget(budget);
        let mut search = Search::new(space).order(order);
        search.walk(|space| at_solution(space.values()));
        let space = search.into_space();
        let guesses = space.guesses();
        let starved = space.starved();
        self.general = Some(space);
        (guesses, starved)
    }
}

/// Solves `puzzle` in `mode` (see [`Solver::solve`]).
pub fn solve(puzzle: &Puzzle, mode: Mode) -> Outcome {
    let mut solver = Solver::new(puzzle.box_size());
    let mut solution = vec![0; puzzle.cells().len()];
    let solved = solver.solve(puzzle.cells(), mode, &mut solution);
    Outcome { count: solved.count, solution: (solved.count > 0).then_some(solution), guesses: solved.guesses }
}

/// Hands every solution of `puzzle` to `visit` in `order` until it returns
/// `Break`; nothing is collected. The returned [`Outcome`] has the number of
/// solutions visited and no solution.
pub fn for_each(puzzle: &Puzzle, order: Order, visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> Outcome {
    let mut solver = Solver::new(puzzle.box_size());
    let solved = solver.for_each(puzzle.cells(), order, visit);
    Outcome { count: solved.count, solution: None, guesses: solved.guesses }
}
