//! The search, event by event: what `backtrack trace` prints and what the
//! workbench page shows.
//!
//! A trace attaches an [`Observer`] to the [search core](crate::search) and
//! turns its calls into [`Event`]s: a choice tried, a choice rejected by a
//! constraint, a choice undone, a dead end, a solution. Each event knows its
//! depth (the number of choices above it) and prints as one line indented by
//! that depth, so the whole trace reads like the search tree drawn on a
//! lecture slide:
//!
//! ```
//! use backtrack::trace::{self, Problem, Strategy};
//!
//! let mut lines = Vec::new();
//! let problem = Problem::Queens { n: 4 };
//! trace::run(&problem, Strategy::Naive, 0, 6, |event| lines.push(event.to_string()));
//! assert_eq!(lines, [
//!     "try row 1 col 1",
//!     "  reject row 2 col 1: same column as row 1 col 1",
//!     "  reject row 2 col 2: same diagonal as row 1 col 1",
//!     "  try row 2 col 3",
//!     "    reject row 3 col 1: same column as row 1 col 1",
//!     "    reject row 3 col 2: same diagonal as row 2 col 3",
//! ]);
//! ```
//!
//! Two strategies search the same problem: [`Strategy::Naive`] is the
//! textbook search (sudoku: the first empty cell in row-major order, digits
//! from the smallest, each checked against its row, column and box; queens:
//! every column of the next row), [`Strategy::Smart`] is the library's (sudoku:
//! the cell with the fewest candidates, with naked and hidden singles placed
//! by propagation; queens: only the columns no queen attacks). Three judge
//! problems are traced the same way, a learner's first search against the
//! library's cuts: 14888 ([`OperatorsSearch`]), 1759 ([`PasswordSearch`]) and
//! 1987 ([`AlphabetSearch`]), each naive or smart; their docs say what the
//! smart one cuts. A [`Summary`] gives
//! the nodes of both, so the difference is visible, and the answer where a
//! problem asks for more than its solutions (14888's extremes, 1987's longest
//! walk), which both searches must agree on.
//!
//! Every line is written in a [`Lang`]: [`run_in`] and [`Summary::text`]
//! take one, and the event names, the reasons and the summary follow it
//! (choices in a notation, such as `r1c4=7`, read the same in both).
//!
//! Every event also carries the cells of the board it changed, so a viewer
//! can play the search forward and backward without searching again.

mod alphabet;
mod operators;
mod password;
mod spaces;
mod words;

use std::fmt;
use std::ops::ControlFlow;

use crate::boj::alphabet::Board;
use crate::boj::operators::Expression;
use crate::boj::password::Letters;
use crate::choose::{Choose, Repetition, Shape};
use crate::lang::Lang;
use crate::queens::QueensSpace;
use crate::search::{Control, End, Observer, Search, Space, Stats};
use crate::sudoku::GeneralSpace;
use crate::ParseError;

pub use alphabet::{AlphabetSearch, Neighbours};
pub use operators::OperatorsSearch;
pub use password::PasswordSearch;
pub use spaces::{LectureQueens, NaiveSudoku};
use words::Words;

/// What happened at one step of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A choice was made and passed the constraints.
    Try,
    /// A choice was made and broke a constraint at once.
    Reject,
    /// A choice was taken back.
    Undo,
    /// A node with nothing left to try and nothing that passed.
    Dead,
    /// A complete solution.
    Solution,
}

/// One cell of the board changed by an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Cell index on the board (row-major).
    pub cell: usize,
    /// Its value before the event (0: empty).
    pub before: u8,
    /// Its value after the event.
    pub after: u8,
}

/// One step of the search. Its [`Display`](fmt::Display) is the trace line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Event {
    /// Position in the trace, from 0.
    pub index: u64,
    /// What happened.
    pub kind: Kind,
    /// Choices on the path above this event (the indentation).
    pub depth: usize,
    /// The choice tried, rejected or undone (e.g. `row 2 col 3`, `r1c4=7`); empty otherwise.
    pub choice: String,
    /// Why a choice was rejected, or a solution's text; empty otherwise.
    pub detail: String,
    /// The board cell of the choice, if it has one.
    pub focus: Option<usize>,
    /// The board cell that made a rejection, if one did.
    pub conflict: Option<usize>,
    /// Cells the event changed (a sudoku try also places the cells it forces).
    pub changes: Vec<Change>,
    /// Nodes (choices tried or rejected) so far, this one included.
    pub nodes: u64,
    /// Solutions so far, this one included.
    pub solutions: u64,
    /// The language of the texts, and of the line the event prints as.
    #[serde(skip)]
    pub lang: Lang,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.depth {
            f.write_str("  ")?;
        }
        let choice = &self.choice;
        let words = match self.kind {
            // A try changes its own cell; anything more was forced by it.
            Kind::Try => Words::Try { choice, forced: self.changes.len().saturating_sub(1) },
            Kind::Reject => Words::Reject { choice, why: &self.detail },
            Kind::Undo => Words::Undo { choice },
            Kind::Dead => Words::DeadEnd,
            Kind::Solution => Words::Solution { count: self.solutions, text: &self.detail },
        };
        f.write_str(&words.say(self.lang))
    }
}

/// A search space that can describe itself to a trace.
pub trait Traced: Space {
    /// The board as one byte per cell, row-major (0: empty): the queens
    /// board with 1 for a queen, the sudoku grid, or the sequence chosen so far.
    fn board(&self, out: &mut Vec<u8>);
    /// The text of `choice` made below a node at `depth`, in `lang`.
    fn choice_text(&self, choice: Self::Choice, depth: usize, lang: Lang) -> String;
    /// The board cell of `choice` made below a node at `depth`.
    fn focus(&self, choice: Self::Choice, depth: usize) -> Option<usize>;
    /// Why pushing `choice` below a node at `depth` failed, in `lang`, and the
    /// cell that made it fail if one did (called right after a push that
    /// returned `false`).
    fn rejection(&self, choice: Self::Choice, depth: usize, lang: Lang) -> (String, Option<usize>);
    /// The text of the solution at the current node, in `lang`.
    fn solution_text(&self, lang: Lang) -> String;
    /// The problem's answer as far as the walk has gone, where it asks for
    /// more than its solutions (the default: none).
    fn answer(&self) -> Option<Answer> {
        None
    }
}

/// What a problem asks for beyond its solutions, found by a whole search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// 14888: the largest and the smallest result.
    Extremes {
        /// The largest result.
        max: i128,
        /// The smallest result.
        min: i128,
    },
    /// 1987: the most cells a walk passes.
    Longest {
        /// Cells, the first one included.
        cells: u32,
    },
}

impl Answer {
    /// The answer in words, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match *self {
            Answer::Extremes { max, min } => Words::Extremes { max, min }.say(lang),
            Answer::Longest { cells } => Words::Longest { cells }.say(lang),
        }
    }
}

/// Which search a trace follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// The textbook search: every alternative in order, each checked against the constraints.
    Naive,
    /// The library's search: only alternatives that pass, the most constrained first, with propagation.
    Smart,
}

/// A problem small enough to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// `n` queens on an `n`×`n` board (1..=[`MAX_QUEENS`]).
    Queens {
        /// Board size.
        n: usize,
    },
    /// A sudoku grid: box size (2..=5) and cells, row-major, 0 for blanks.
    Sudoku {
        /// Box size (3 for 9x9).
        box_size: usize,
        /// The givens, 0 for a blank.
        cells: Vec<u8>,
    },
    /// Sequences of `m` numbers out of `1..=n`: permutations, or combinations (increasing).
    Choose {
        /// Combinations (increasing sequences) rather than permutations.
        combinations: bool,
        /// Numbers to choose from, `1..=n` (1..=[`MAX_CHOOSE`]).
        n: u64,
        /// Length of the sequences.
        m: usize,
    },
    /// BOJ 14888: operators to put between numbers.
    Operators(Expression),
    /// BOJ 1759: passwords from letters.
    Password(Letters),
    /// BOJ 1987: the longest walk over new letters.
    Alphabet(Board),
}

/// The judge problems a trace follows, by number.
pub const BOJ_PROBLEMS: [u32; 3] = [14888, 1759, 1987];

/// Most numbers of a 14888 trace (the judge's limit).
pub const MAX_OPERATOR_NUMBERS: usize = 11;
/// Largest number of a 14888 trace (the judge's limit).
pub const MAX_OPERATOR_VALUE: i128 = 100;
/// Most rows and columns of a 1987 trace (the judge's limit).
pub const MAX_ALPHABET_SIDE: usize = 20;

/// Largest board a queens trace takes.
pub const MAX_QUEENS: usize = 20;
/// Largest `n` a choose trace takes.
pub const MAX_CHOOSE: u64 = 50;

impl Problem {
    /// The judge problem `id`, one of [`BOJ_PROBLEMS`], with `input` as the
    /// judge gives it; `None` for a problem a trace does not follow. The
    /// sizes are not checked (see [`Problem::check`]).
    pub fn from_boj(id: u32, input: &str) -> Option<Result<Problem, ParseError>> {
        Some(match id {
            14888 => crate::boj::operators::parse_expression(input, true).map(Problem::Operators),
            1759 => crate::boj::password::parse_letters(input).map(Problem::Password),
            1987 => crate::boj::alphabet::parse_board(input).map(Problem::Alphabet),
            _ => return None,
        })
    }

    /// Reads a problem from words: `queens N`, `sudoku PUZZLE` (81 cells in
    /// one line, `.` or `0` for blanks), `choose perm|comb N M`, or `boj ID
    /// INPUT` with the judge's input of one of [`BOJ_PROBLEMS`].
    pub fn from_words(text: &str) -> Result<Problem, ProblemError> {
        if let Some(rest) = text.trim_start().strip_prefix("boj") {
            let rest = rest.trim_start();
            let (id, input) = rest.split_at(rest.find(char::is_whitespace).unwrap_or(rest.len()));
            let problem = id
                .parse()
                .ok()
                .and_then(|id| Problem::from_boj(id, input))
                .ok_or_else(|| ProblemError(format!("a trace follows the judge problems {}", boj_list())))?
                .map_err(|err| ProblemError(err.to_string()))?;
            problem.check()?;
            return Ok(problem);
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |word: &str| -> Result<u64, ProblemError> {
            word.parse().map_err(|_| ProblemError(format!("'{}' is not a number", clip(word))))
        };
        let problem = match words.as_slice() {
            ["queens", n] => Problem::Queens { n: number(n)? as usize },
            ["sudoku", puzzle] => {
                let puzzle = crate::sudoku::parse(puzzle).map_err(|err| ProblemError(err.to_string()))?;
                Problem::Sudoku { box_size: puzzle.box_size(), cells: puzzle.cells().to_vec() }
            }
            ["choose", shape @ ("perm" | "comb"), n, m] => {
                Problem::Choose { combinations: *shape == "comb", n: number(n)?, m: number(m)? as usize }
            }
            _ => {
                return Err(ProblemError(
                    "expected 'queens N', 'sudoku PUZZLE', 'choose perm|comb N M' or 'boj ID INPUT'".into(),
                ))
            }
        };
        problem.check()?;
        Ok(problem)
    }

    /// Whether the problem is within the sizes a trace takes.
    pub fn check(&self) -> Result<(), ProblemError> {
        match *self {
            Problem::Queens { n } if !(1..=MAX_QUEENS).contains(&n) => {
                Err(ProblemError(format!("a queens trace takes N from 1 to {MAX_QUEENS}, not {n}")))
            }
            Problem::Sudoku { box_size, ref cells }
                if !(crate::sudoku::MIN_BOX..=crate::sudoku::MAX_BOX).contains(&box_size)
                    || cells.len() != box_size.pow(4) =>
            {
                Err(ProblemError("a sudoku trace takes a 4x4 to 25x25 grid".into()))
            }
            Problem::Choose { n, m, .. } if !(1..=MAX_CHOOSE).contains(&n) || m as u64 > n => {
                Err(ProblemError(format!("a choose trace takes N from 1 to {MAX_CHOOSE} and M from 0 to N")))
            }
            Problem::Operators(ref expr)
                if expr.numbers.len() > MAX_OPERATOR_NUMBERS
                    || expr.numbers.iter().any(|&a| a > MAX_OPERATOR_VALUE)
                    || expr.counts.iter().sum::<usize>() + 1 != expr.numbers.len() =>
            {
                Err(ProblemError(format!(
                    "a 14888 trace takes N up to {MAX_OPERATOR_NUMBERS}, numbers up to {MAX_OPERATOR_VALUE} \
                    and N-1 operators"
                )))
            }
            Problem::Alphabet(ref board)
                if board.rows.is_empty()
                    || board.rows.len() > MAX_ALPHABET_SIDE
                    || board.rows[0].is_empty()
                    || board
                        .rows
                        .iter()
                        .any(|row| row.len() != board.rows[0].len() || row.len() > MAX_ALPHABET_SIDE) =>
            {
                Err(ProblemError(format!("a 1987 trace takes R and C from 1 to {MAX_ALPHABET_SIDE}")))
            }
            Problem::Password(ref letters)
                if letters.len == 0 || letters.len > letters.letters.len() || letters.letters.len() > 26 =>
            {
                Err(ProblemError("a 1759 trace takes L from 1 to C and up to 26 letters".into()))
            }
            _ => Ok(()),
        }
    }

    /// [`Problem::check`] with its reason in `lang`'s words.
    pub fn check_in(&self, lang: Lang) -> Result<(), String> {
        let Err(error) = self.check() else { return Ok(()) };
        Err(match lang {
            Lang::En => error.to_string(),
            Lang::Ko => match *self {
                Problem::Queens { n } => format!("queens 추적은 N이 1부터 {MAX_QUEENS}까지여야 합니다. 받은 값: {n}"),
                Problem::Sudoku { .. } => "sudoku 추적은 4x4부터 25x25까지의 판만 받습니다".into(),
                Problem::Choose { .. } => {
                    format!("choose 추적은 N이 1부터 {MAX_CHOOSE}까지, M이 0부터 N까지여야 합니다")
                }
                Problem::Operators(_) => format!(
                    "14888 추적은 N이 {MAX_OPERATOR_NUMBERS} 이하, 수가 {MAX_OPERATOR_VALUE} 이하, 연산자가 N-1개여야 합니다"
                ),
                Problem::Password(_) => "1759 추적은 L이 1부터 C까지, 글자가 26개 이하여야 합니다".into(),
                Problem::Alphabet(_) => format!("1987 추적은 R과 C가 1부터 {MAX_ALPHABET_SIDE}까지여야 합니다"),
            },
        })
    }

    /// Cells of the board a trace of this problem works on (see [`Traced::board`]).
    pub fn board_len(&self) -> usize {
        match *self {
            Problem::Queens { n } => n * n,
            Problem::Sudoku { ref cells, .. } => cells.len(),
            Problem::Choose { m, .. } => m,
            Problem::Operators(ref expr) => 2 * expr.numbers.len() - 1,
            Problem::Password(ref letters) => letters.len,
            Problem::Alphabet(ref board) => board.rows.len() * board.rows[0].len(),
        }
    }

    /// Whether the problem has a naive and a smart search that differ.
    pub fn has_strategies(&self) -> bool {
        !matches!(self, Problem::Choose { .. })
    }
}

/// Why a problem cannot be traced: words that name no problem, or a size
/// beyond what a trace takes. The message says which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemError(String);

crate::error::message_error!(ProblemError);

/// The judge problems a trace follows, as a list in words.
fn boj_list() -> String {
    BOJ_PROBLEMS.map(|id| id.to_string()).join(", ")
}

/// The first characters of `word`, with an ellipsis when cut.
fn clip(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &word[..end]),
        None => word.to_string(),
    }
}

/// How a [`run`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Events handed to the sink.
    pub events: u64,
    /// Whether the search ran to its end (rather than stopping at the limit).
    pub complete: bool,
    /// The search core's counters for the part of the search walked.
    pub stats: Stats,
}

/// Runs the trace of `problem` with `strategy` and hands events
/// `skip..skip + limit` to `sink`, in order, in English. The events before
/// `skip` are walked but not built, so a viewer can fetch a long trace in
/// pieces.
///
/// # Panics
/// If the problem fails [`Problem::check`].
pub fn run(problem: &Problem, strategy: Strategy, skip: u64, limit: u64, sink: impl FnMut(&Event)) -> Outcome {
    run_in(problem, strategy, Lang::En, skip, limit, sink)
}

/// [`run`], with every event's texts in `lang`.
///
/// # Panics
/// If the problem fails [`Problem::check`].
pub fn run_in(
    problem: &Problem,
    strategy: Strategy,
    lang: Lang,
    skip: u64,
    limit: u64,
    sink: impl FnMut(&Event),
) -> Outcome {
    struct Walk<F> {
        lang: Lang,
        skip: u64,
        end: u64,
        sink: F,
    }
    impl<F: FnMut(&Event)> Visit for Walk<F> {
        type Out = Outcome;
        fn visit<S: Traced>(self, space: S) -> Outcome {
            walk(space, self.lang, self.skip, self.end, self.sink)
        }
    }
    dispatch(problem, strategy, Walk { lang, skip, end: skip.saturating_add(limit), sink })
}

/// The board before the first event of a trace of `problem` (the givens of a sudoku).
///
/// # Panics
/// If the problem fails [`Problem::check`].
pub fn start_board(problem: &Problem, strategy: Strategy) -> Vec<u8> {
    struct Board;
    impl Visit for Board {
        type Out = Vec<u8>;
        fn visit<S: Traced>(self, space: S) -> Vec<u8> {
            let mut board = Vec::new();
            space.board(&mut board);
            board
        }
    }
    dispatch(problem, strategy, Board)
}

/// Something to do with the space of a problem, whatever its type.
trait Visit {
    type Out;
    fn visit<S: Traced>(self, space: S) -> Self::Out;
}

/// Builds the space `strategy` searches for `problem` and hands it to `visit`.
fn dispatch<V: Visit>(problem: &Problem, strategy: Strategy, visit: V) -> V::Out {
    problem.check().expect("a problem within the trace's sizes");
    match (problem, strategy) {
        (&Problem::Queens { n }, Strategy::Naive) => visit.visit(LectureQueens::new(n)),
        (&Problem::Queens { n }, Strategy::Smart) => visit.visit(QueensSpace::new(n).expect("checked size")),
        (Problem::Sudoku { box_size, cells }, Strategy::Naive) => visit.visit(NaiveSudoku::new(*box_size, cells)),
        (Problem::Sudoku { box_size, cells }, Strategy::Smart) => visit.visit(GeneralSpace::new(*box_size, cells)),
        (&Problem::Choose { combinations, n, m }, _) => visit.visit(choose_space(combinations, n, m)),
        (Problem::Operators(expr), _) => visit.visit(OperatorsSearch::new(expr, strategy)),
        (Problem::Password(letters), _) => visit.visit(PasswordSearch::new(letters, strategy)),
        (Problem::Alphabet(board), _) => visit.visit(AlphabetSearch::new(board, strategy)),
    }
}

fn choose_space(combinations: bool, n: u64, m: usize) -> Choose<u64> {
    let shape = if combinations { Shape::Increasing } else { Shape::Any };
    Choose::range(n, m, shape, Repetition::Once)
}

/// Nodes a [`summary`] lets each search walk before it gives up counting.
pub const SUMMARY_NODES: u64 = 20_000_000;

/// The nodes each strategy needs for the whole search, and the solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Solutions of the problem found by the smart search: all of them when
    /// [`complete`](Self::complete), else those found before it was stopped.
    pub solutions: u64,
    /// Nodes of the naive search (`None` where there is one search only).
    pub naive_nodes: Option<u64>,
    /// Nodes of the smart search, or of the only one.
    pub nodes: u64,
    /// Whether a search passed [`SUMMARY_NODES`] and was stopped (its
    /// nodes then read "more than" that).
    pub stopped: bool,
    /// Whether the smart search ran to its end, so that `solutions` is the
    /// whole count rather than a lower bound.
    pub complete: bool,
    /// The problem's answer, where it asks for more than its solutions and
    /// the smart search ran to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

impl Summary {
    /// The summary line (without a newline) in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let nodes = |n: u64| {
            if n >= SUMMARY_NODES {
                Words::MoreThan { nodes: SUMMARY_NODES }.say(lang)
            } else {
                n.to_string()
            }
        };
        let mut line = Words::Summary.say(lang);
        if !self.complete {
            line += &Words::StoppedAfter { nodes: SUMMARY_NODES }.say(lang);
        }
        line += &Words::Solutions { count: self.solutions }.say(lang);
        line += &match self.naive_nodes.map(nodes) {
            Some(naive) => Words::NodesBoth { naive: &naive, smart: &nodes(self.nodes) }.say(lang),
            None => Words::NodesOne { nodes: &nodes(self.nodes) }.say(lang),
        };
        if let Some(answer) = self.answer {
            line += &Words::Answer { answer: &answer.text(lang) }.say(lang);
        }
        line
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// Searches `problem` with every strategy, quietly, and sums up.
///
/// # Panics
/// If the problem fails [`Problem::check`].
pub fn summary(problem: &Problem) -> Summary {
    let (smart, complete, answer) = quietly(problem, Strategy::Smart);
    let naive = problem.has_strategies().then(|| quietly(problem, Strategy::Naive));
    let stopped = !complete || naive.is_some_and(|(_, done, _)| !done);
    Summary {
        solutions: smart.solutions,
        naive_nodes: naive.map(|(n, _, _)| n.nodes),
        nodes: smart.nodes,
        stopped,
        complete,
        answer: answer.filter(|_| complete),
    }
}

/// The answer `strategy` finds for `problem` (see [`Traced::answer`]), or
/// `None` where the problem asks for nothing more than its solutions or the
/// search passed [`SUMMARY_NODES`].
///
/// # Panics
/// If the problem fails [`Problem::check`].
pub fn answer(problem: &Problem, strategy: Strategy) -> Option<Answer> {
    let (_, complete, answer) = quietly(problem, strategy);
    answer.filter(|_| complete)
}

/// Walks `problem` with `strategy`, quietly, up to [`SUMMARY_NODES`]: the
/// core's counters, whether it ran to its end, and its answer.
fn quietly(problem: &Problem, strategy: Strategy) -> (Stats, bool, Option<Answer>) {
    struct Quietly;
    impl Visit for Quietly {
        type Out = (Stats, bool, Option<Answer>);
        fn visit<S: Traced>(self, space: S) -> (Stats, bool, Option<Answer>) {
            /// Stops the walk once it has pushed [`SUMMARY_NODES`] choices.
            struct Budget(Control, u64);
            impl<S: Space> Observer<S> for Budget {
                fn pushed(&mut self, _: &S, _: S::Choice, _: usize, _: bool) {
                    self.1 += 1;
                    if self.1 == SUMMARY_NODES {
                        self.0.cancel();
                    }
                }
            }
            let control = Control::new();
            let mut search = Search::new(space).control(control.clone()).observe(Budget(control, 0));
            let end = search.walk(|_| ControlFlow::Continue(()));
            let mut stats = search.stats();
            stats.nodes = stats.nodes.min(SUMMARY_NODES);
            (stats, end == End::Exhausted, search.space().answer())
        }
    }
    dispatch(problem, strategy, Quietly)
}

/// Walks `space` with a [`Recorder`] that builds events `skip..end`.
fn walk<S: Traced>(space: S, lang: Lang, skip: u64, end: u64, sink: impl FnMut(&Event)) -> Outcome {
    let control = Control::new();
    let mut board = Vec::new();
    space.board(&mut board);
    let recorder = Recorder {
        sink,
        lang,
        skip,
        end,
        control: control.clone(),
        index: 0,
        nodes: 0,
        solutions: 0,
        scratch: Vec::with_capacity(board.len()),
        board,
        path: Vec::new(),
        passed: vec![false],
    };
    let mut search = Search::new(space).control(control).observe(recorder);
    search.walk(|_| ControlFlow::Continue(()));
    let stats = search.stats();
    let recorder = search.into_observer();
    let complete = !recorder.control.is_cancelled();
    Outcome { events: recorder.index.min(end).saturating_sub(skip), complete, stats }
}

/// The observer behind a trace: numbers the events, keeps the board in step
/// with the space, and builds the events in its window.
struct Recorder<S: Space, F> {
    sink: F,
    /// The language of the events' texts.
    lang: Lang,
    /// Window of events to build: `skip..end`.
    skip: u64,
    end: u64,
    /// Cancelled once the window is passed, to stop the walk.
    control: Control,
    /// Events met so far.
    index: u64,
    nodes: u64,
    solutions: u64,
    /// The board as of the last event, and a buffer for the next one.
    board: Vec<u8>,
    scratch: Vec<u8>,
    /// The accepted choices on the current path.
    path: Vec<S::Choice>,
    /// Per depth: whether any choice below that node passed.
    passed: Vec<bool>,
}

impl<S: Traced, F: FnMut(&Event)> Recorder<S, F> {
    /// Brings the board up to date with `space` and returns what changed.
    fn sync(&mut self, space: &S) -> Vec<Change> {
        self.scratch.clear();
        space.board(&mut self.scratch);
        let mut changes = Vec::new();
        for (cell, (before, &after)) in self.board.iter_mut().zip(&self.scratch).enumerate() {
            if *before != after {
                changes.push(Change { cell, before: *before, after });
                *before = after;
            }
        }
        changes
    }

    /// Counts one event, and builds it with `build` when it falls in the window.
    fn emit(&mut self, space: &S, kind: Kind, depth: usize, build: impl FnOnce(&mut Event)) {
        // A rejected push may leave its mark in the space until the pop
        // that follows; the board keeps to the accepted choices.
        let changes = if kind == Kind::Reject { Vec::new() } else { self.sync(space) };
        let index = self.index;
        self.index += 1;
        if index < self.skip {
            return;
        }
        if index >= self.end {
            self.control.cancel();
            return;
        }
        let mut event = Event {
            index,
            kind,
            depth,
            choice: String::new(),
            detail: String::new(),
            focus: None,
            conflict: None,
            changes,
            nodes: self.nodes,
            solutions: self.solutions,
            lang: self.lang,
        };
        build(&mut event);
        (self.sink)(&event);
    }
}

impl<S: Traced, F: FnMut(&Event)> Observer<S> for Recorder<S, F> {
    fn pushed(&mut self, space: &S, choice: S::Choice, depth: usize, accepted: bool) {
        let lang = self.lang;
        self.nodes += 1;
        if accepted {
            self.path.push(choice);
            self.passed[depth] = true;
            self.passed.truncate(depth + 1);
            self.passed.push(false);
            self.emit(space, Kind::Try, depth, |event| {
                event.choice = space.choice_text(choice, depth, lang);
                event.focus = space.focus(choice, depth);
            });
        } else {
            self.emit(space, Kind::Reject, depth, |event| {
                event.choice = space.choice_text(choice, depth, lang);
                event.focus = space.focus(choice, depth);
                (event.detail, event.conflict) = space.rejection(choice, depth, lang);
            });
        }
    }

    fn undone(&mut self, space: &S, depth: usize) {
        let choice = self.path.pop().expect("an undo matches an accepted push");
        let lang = self.lang;
        self.emit(space, Kind::Undo, depth, |event| {
            event.choice = space.choice_text(choice, depth, lang);
            event.focus = space.focus(choice, depth);
        });
    }

    fn dead(&mut self, space: &S, depth: usize) {
        self.emit(space, Kind::Dead, depth, |_| {});
    }

    fn exhausted(&mut self, space: &S, depth: usize) {
        if !self.passed[depth] {
            self.emit(space, Kind::Dead, depth, |_| {});
        }
    }

    fn solution(&mut self, space: &S, depth: usize) {
        self.solutions += 1;
        let lang = self.lang;
        self.emit(space, Kind::Solution, depth, |event| event.detail = space.solution_text(lang));
    }
}
