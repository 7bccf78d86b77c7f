//! Rating on the Sudoku Explainer scale, and the solving path behind it.
//!
//! At each step the easiest technique that applies is used (the finders of
//! [`techniques`](super::techniques) in Sudoku Explainer's order) and its
//! step applied. ER is the hardest step of the path, EP the hardest up to
//! and including the first step that places a digit, ED the rating of the
//! first step. When no technique applies before the grid is full, the
//! puzzle is beyond this rater: the rating says so ([`Rating::beyond`]) and
//! gives the hardest step reached as a lower bound, never a guess.

use super::score::Score;
pub use super::techniques::Rater;
use super::techniques::{
    aligned, als_wings, bug, bug_types, cycles, dynamic, fish, grouped_chains, grouped_links, intersections, singles,
    strong_links, subsets, unique, wings, Board, Step, Tables, Technique, Words,
};
use super::Solver;
use crate::search::Mode;
use crate::variant;

/// The ratings of one puzzle (ER, EP and ED).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// The hardest step (a lower bound when `beyond`).
    pub er: Score,
    /// The hardest step up to the first placement (`None` if none was made).
    pub ep: Option<Score>,
    /// The first step's rating (`None` if no step was found).
    pub ed: Option<Score>,
    /// The technique of the hardest step.
    pub hardest: Option<Technique>,
    /// Whether the path stopped: the puzzle needs a technique this rater lacks.
    pub beyond: bool,
}

/// Why a grid cannot be rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateError {
    /// Only 9x9 grids are rated.
    Size,
    /// The givens clash or no solution exists.
    NoSolution,
    /// More than one solution: the techniques assume one.
    NotUnique,
}

impl std::fmt::Display for RateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RateError::Size => f.write_str("only 9x9 puzzles can be rated"),
            RateError::NoSolution => f.write_str("the puzzle has no solution"),
            RateError::NotUnique => f.write_str("the puzzle has more than one solution"),
        }
    }
}

impl std::error::Error for RateError {}

/// A rated path: the steps and the ratings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The ratings.
    pub rating: Rating,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// The solution (from the solver).
    pub solution: Vec<u8>,
}

/// The easiest step available on `board`, trying techniques in Sudoku
/// Explainer's order (with a fresh [`Rater`]: see [`Rater::next_step`]).
pub fn next_step(board: &Board) -> Option<Step> {
    Rater::new().next_step(board)
}

/// [`Rater::next_step`] with the board's [`Tables`], the steps carrying
/// their text as `words` says.
pub fn next_step_in(rater: &mut Rater, board: &Board, t: &Tables, words: Words) -> Option<Step> {
    singles::hidden_single_in(t, words)
        .or_else(|| intersections::direct_in(board, t, words))
        .or_else(|| subsets::direct_hidden_in(board, t, 2, words))
        .or_else(|| singles::naked_single_where(board, words, &mut |_| true))
        .or_else(|| subsets::direct_hidden_in(board, t, 3, words))
        .or_else(|| intersections::locking_in(board, t, words))
        .or_else(|| subsets::naked_where(board, 2, words, &mut |_| true))
        .or_else(|| fish::fish_in(rater, board, t, 2, words))
        .or_else(|| subsets::hidden_in(board, t, 2, words))
        .or_else(|| subsets::naked_where(board, 3, words, &mut |_| true))
        .or_else(|| fish::fish_in(rater, board, t, 3, words))
        .or_else(|| subsets::hidden_in(board, t, 3, words))
        .or_else(|| strong_links::chain_in(rater, t, 2, words))
        .or_else(|| grouped_links::grouped_or_empty_rectangle(rater, board, t, words))
        .or_else(|| wings::wing_where(board, false, words, &mut |_| true))
        .or_else(|| wings::wing_where(board, true, words, &mut |_| true))
        .or_else(|| unique::unique_loop_where(board, words, &mut |_| true))
        .or_else(|| subsets::naked_where(board, 4, words, &mut |_| true))
        .or_else(|| fish::fish_in(rater, board, t, 4, words))
        .or_else(|| subsets::hidden_in(board, t, 4, words))
        .or_else(|| strong_links::chain_in(rater, t, 3, words))
        .or_else(|| grouped_chains::grouped_three_links(rater, t, words))
        .or_else(|| als_wings::wing(board, 3, words))
        .or_else(|| bug::bug_where(board, words, &mut |_| true))
        .or_else(|| bug_types::bug_types(board, t, words))
        .or_else(|| als_wings::wing(board, 4, words))
        .or_else(|| aligned::exclusion(rater, board, 2, words))
        .or_else(|| cycles::cycle_or_forcing_chain(board, words))
        .or_else(|| aligned::exclusion(rater, board, 3, words))
        .or_else(|| dynamic::any_forcing_chain(rater, board, words))
}

/// The solution of a 9x9 grid, checked unique.
pub fn unique_solution(cells: &[u8]) -> Result<Vec<u8>, RateError> {
    if cells.len() != 81 {
        return Err(RateError::Size);
    }
    let mut solver = Solver::new(3);
    let mut solution = vec![0u8; 81];
    match solver.solve(cells, Mode::Count { limit: Some(2) }, &mut solution).count {
        0 => Err(RateError::NoSolution),
        1 => Ok(solution),
        _ => Err(RateError::NotUnique),
    }
}

/// The solution of a pencil-mark grid (each cell's candidates, bit `d - 1`
/// for digit `d`), checked unique, found by the variant solver (the
/// classic kernels take givens only).
pub fn unique_solution_of_marks(marks: &[u16]) -> Result<Vec<u8>, RateError> {
    if marks.len() != 81 {
        return Err(RateError::Size);
    }
    let mut puzzle = variant::Puzzle::new(variant::Shape::new(9).expect("9x9"));
    puzzle.candidates.copy_from_slice(marks);
    let mut solver = variant::Solver::new(&puzzle).map_err(|_| RateError::NoSolution)?;
    let count = solver.count(Some(2));
    match (count.solutions, count.first) {
        (1, Some(solution)) => Ok(solution),
        (0, _) => Err(RateError::NoSolution),
        _ => Err(RateError::NotUnique),
    }
}

/// Where a rated path starts: a grid's givens, or a pencil-mark grid's candidates.
#[derive(Debug, Clone, Copy)]
enum Start<'a> {
    Givens(&'a [u8]),
    Marks(&'a [u16]),
}

impl Start<'_> {
    /// The one solution and the board the path starts from.
    fn board(self) -> Result<(Vec<u8>, Board), RateError> {
        match self {
            Start::Givens(cells) => Ok((unique_solution(cells)?, Board::new(cells).ok_or(RateError::NoSolution)?)),
            Start::Marks(marks) => {
                Ok((unique_solution_of_marks(marks)?, Board::from_marks(marks).ok_or(RateError::NoSolution)?))
            }
        }
    }
}

/// The path and ratings of a 9x9 puzzle (0 for a blank), which must have
/// one solution (with a fresh [`Rater`]: see [`Rater::explain`]).
pub fn explain_cells(cells: &[u8]) -> Result<Explanation, RateError> {
    Rater::new().explain(cells)
}

/// The ratings of a 9x9 puzzle (see [`explain_cells`]; with a fresh
/// [`Rater`]: see [`Rater::rate`]).
pub fn rate_cells(cells: &[u8]) -> Result<Rating, RateError> {
    Rater::new().rate(cells)
}

/// The next step from a partly filled 9x9 grid, whose filled cells must
/// agree with its one solution. `Ok(None)` when the grid is full or no
/// technique applies. With a fresh [`Rater`]: see [`Rater::hint`].
pub fn hint_cells(cells: &[u8]) -> Result<Option<Step>, RateError> {
    Rater::new().hint(cells)
}

/// Rating with a [`Rater`] kept from one puzzle to the next: what its
/// finders remember of the boards they last looked at lets them skip what
/// did not change, and their buffers are reused. The results are those of
/// a fresh `Rater`.
///
/// ```
/// use backtrack::sudoku::rate::Rater;
///
/// let puzzle = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..";
/// let cells: Vec<u8> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
/// let mut rater = Rater::new();
/// let rating = rater.rate(&cells).unwrap();
/// assert_eq!(rating.text(), "4.2/1.2/1.2");
/// assert_eq!(rater.explain(&cells).unwrap().rating, rating);
/// ```
impl Rater {
    /// The easiest step available on `board`, trying techniques in Sudoku Explainer's order.
    pub fn next_step(&mut self, board: &Board) -> Option<Step> {
        next_step_in(self, board, &Tables::new(board), Words::Write)
    }

    /// The path and ratings of a 9x9 puzzle (0 for a blank), which must have one solution.
    pub fn explain(&mut self, cells: &[u8]) -> Result<Explanation, RateError> {
        self.walk(Start::Givens(cells), Words::Write)
    }

    /// The path and ratings from a pencil-mark grid's candidates (see
    /// [`Board::from_marks`]), which must leave one solution.
    pub fn explain_marks(&mut self, marks: &[u16]) -> Result<Explanation, RateError> {
        self.walk(Start::Marks(marks), Words::Write)
    }

    /// The rated path from `start`, its steps carrying their text as `words` says.
    fn walk(&mut self, start: Start, words: Words) -> Result<Explanation, RateError> {
        let (solution, mut board) = start.board()?;
        let mut steps = Vec::new();
        let mut rating = Rating { er: Score::default(), ep: None, ed: None, hardest: None, beyond: false };
        let mut tables = Tables::new(&board);
        while !board.is_solved() {
            let Some(step) = next_step_in(self, &board, &tables, words) else {
                rating.beyond = true;
                break;
            };
            if step.rating > rating.er || rating.hardest.is_none() {
                rating.er = rating.er.max(step.rating);
                rating.hardest = Some(step.technique);
            }
            rating.ed.get_or_insert(step.rating);
            if rating.ep.is_none() && !step.placements.is_empty() {
                rating.ep = Some(rating.er);
            }
            tables.apply(&board, &step);
            board.apply(&step);
            debug_assert_eq!(tables, Tables::new(&board));
            steps.push(step);
        }
        Ok(Explanation { rating, steps, solution })
    }

    /// The ratings of a 9x9 puzzle (see [`Rater::explain`]).
    pub fn rate(&mut self, cells: &[u8]) -> Result<Rating, RateError> {
        // The ratings need no words: the steps are found without their text.
        self.walk(Start::Givens(cells), Words::Skip).map(|e| e.rating)
    }

    /// The ratings from a pencil-mark grid's candidates (see [`Rater::explain_marks`]).
    pub fn rate_marks(&mut self, marks: &[u16]) -> Result<Rating, RateError> {
        self.walk(Start::Marks(marks), Words::Skip).map(|e| e.rating)
    }

    /// The next step from a partly filled 9x9 grid, whose filled cells must
    /// agree with its one solution. `Ok(None)` when the grid is full or no
    /// technique applies.
    pub fn hint(&mut self, cells: &[u8]) -> Result<Option<Step>, RateError> {
        self.hint_from(Start::Givens(cells))
    }

    /// The next step from a pencil-mark grid's candidates (see
    /// [`Board::from_marks`]), which must leave one solution. `Ok(None)`
    /// when every cell is filled or no technique applies.
    pub fn hint_marks(&mut self, marks: &[u16]) -> Result<Option<Step>, RateError> {
        self.hint_from(Start::Marks(marks))
    }

    fn hint_from(&mut self, start: Start) -> Result<Option<Step>, RateError> {
        let (_, board) = start.board()?;
        Ok(if board.is_solved() { None } else { self.next_step(&board) })
    }
}

/// The digits that may be wrong in a 9x9 grid without a solution: each
/// filled cell (index, digit) whose removal alone gives the grid a
/// solution. Empty when the grid has a solution, is not 9x9, or no single
/// removal helps (more than one digit is wrong).
pub fn wrong_digits(cells: &[u8]) -> Vec<(usize, u8)> {
    if cells.len() != 81 {
        return Vec::new();
    }
    let mut solver = Solver::new(3);
    let mut solution = vec![0u8; 81];
    let mut solvable = |grid: &[u8]| solver.solve(grid, Mode::Count { limit: Some(1) }, &mut solution).count > 0;
    let mut grid = cells.to_vec();
    if solvable(&grid) {
        return Vec::new();
    }
    let mut wrong = Vec::new();
    for (cell, &digit) in cells.iter().enumerate().filter(|(_, &d)| d != 0) {
        grid[cell] = 0;
        if solvable(&grid) {
            wrong.push((cell, digit));
        }
        grid[cell] = digit;
    }
    wrong
}

impl Rating {
    /// `ER/EP/ED` (e.g. `4.2/1.2/1.2`). A puzzle beyond this rater reads
    /// `beyond/EP/ED`; a rating never reached reads `-`.
    pub fn text(&self) -> String {
        let er = if self.beyond { "beyond".to_string() } else { self.er.to_string() };
        let opt = |r: Option<Score>| r.map_or_else(|| "-".to_string(), |r| r.to_string());
        format!("{er}/{}/{}", opt(self.ep), opt(self.ed))
    }
}

/// For tests, the boards the rater meets at its hardest steps: every
/// step's board on the rated paths of the development set's puzzles rated
/// 7.0 and up (boards where static chains still meet contradictions among
/// them).
#[cfg(test)]
pub(crate) fn hard_boards() -> Vec<Board> {
    let data = include_str!("../../../../tests/data/sudoku/se_rated_dev.tsv");
    let mut boards = Vec::new();
    for line in data.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[2].parse::<f64>().unwrap() < 7.0 {
            continue;
        }
        let cells: Vec<u8> = fields[0].bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect();
        let explanation = explain_cells(&cells).unwrap();
        let mut board = Board::new(&cells).unwrap();
        for step in &explanation.steps {
            boards.push(board.clone());
            board.apply(step);
        }
    }
    boards
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a caller asks for change the steps' text only, on any
    /// thread and with one rater kept throughout: the finders read no
    /// state of their own to choose.
    #[test]
    fn steps_without_words_are_the_steps_with_their_text_left_empty() {
        let mut rater = Rater::new();
        let boards = hard_boards();
        for board in boards.iter().step_by(5) {
            let t = Tables::new(board);
            let written = next_step_in(&mut rater, board, &t, Words::Write).expect("a step");
            let silent = next_step_in(&mut rater, board, &t, Words::Skip).expect("a step");
            assert!(!written.text.is_empty() && silent.text.is_empty());
            assert_eq!(Step { text: String::new(), ..written }, silent);
        }
        assert!(boards.len() > 100, "{}", boards.len());
    }
}
