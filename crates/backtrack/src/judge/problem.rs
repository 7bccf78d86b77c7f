//! What one judge problem is: [`JudgeProblem`], implemented once per
//! problem, and the typed [`Input`] its cases carry. Everything the problems
//! share (the plan of cases, verdicts, shrinking) is built on it in the
//! other files of this module.

use std::fmt;
use std::io::{self, Write};

use super::{compare, Limits, Rejection, Rng};
use crate::lang::Lang;
use crate::sudominoku::Puzzle;
use crate::ParseError;

/// A problem's title on the judge, in both languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Title {
    /// The judge's own (Korean) title, e.g. `N-Queen`, `연산자 끼워넣기`.
    pub ko: &'static str,
    /// What it asks, in a few English words, e.g. `N-Queen: count placements`.
    pub en: &'static str,
}

/// One problem of the judge: how to answer its input, and how to make,
/// check and shrink its test cases.
///
/// Implemented once per problem; the registry [`PROBLEMS`](super::PROBLEMS)
/// lists them for `backtrack boj` (which only needs [`answer`](Self::answer))
/// and `backtrack judge` (which goes through [`Problem`](super::Problem)).
pub trait JudgeProblem: Sync {
    /// The problem's number on the judge.
    fn id(&self) -> u32;

    /// Its title.
    fn title(&self) -> Title;

    /// The judge's time and memory limits.
    fn limits(&self) -> Limits;

    /// Reads the judge's input and writes the judge's exact output to `out`.
    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError>;

    /// The statement's samples.
    fn samples(&self) -> Vec<Input>;

    /// Edge cases at the limits of the constraints, each with a name.
    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)>;

    /// One random input within the judge's constraints.
    fn random(&self, rng: &mut Rng) -> Input;

    /// The adversarial cases (`--hard`), each with a name.
    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)>;

    /// Every input of the problem, where there are few enough to list.
    fn every_input(&self) -> Option<Vec<Input>> {
        None
    }

    /// The input as the judge gives it.
    ///
    /// # Panics
    /// If `input` belongs to another kind of problem.
    fn text(&self, input: &Input) -> String;

    /// The expected output of an input this problem made: by default, its
    /// [`answer`](Self::answer) to the input's text.
    ///
    /// # Panics
    /// If `input` belongs to another kind of problem, or breaks its rules.
    fn expected(&self, input: &Input) -> String {
        let mut out = Vec::new();
        match self.answer(&self.text(input), &mut out) {
            Ok(()) => String::from_utf8(out).expect("answers are UTF-8"),
            Err(e) => panic!("problem {} refuses an input it made ({e}): {input:?}", self.id()),
        }
    }

    /// Whether `got` is accepted for an input whose `expected` output is
    /// given, and why not, in `lang`'s words. By default the judge's
    /// token-wise comparison ([`compare::same`]).
    fn check_output(&self, lang: Lang, input: &Input, expected: &str, got: &str) -> Result<(), Rejection> {
        let _ = input;
        if compare::same(expected, got) {
            Ok(())
        } else {
            Err(Rejection(compare::short_diff_in(lang, expected, got)))
        }
    }

    /// Whether other outputs than the expected one are accepted (the
    /// expected output is then one valid answer among several).
    fn several_answers(&self) -> bool {
        false
    }

    /// Smaller inputs to try in place of a failing one, the most promising
    /// first (those not smaller by [`Input::measure`] are dropped).
    fn shrink_input(&self, input: &Input) -> Vec<Input>;
}

/// Why an answer could not be written: the input, or the writer.
#[derive(Debug)]
pub enum AnswerError {
    /// The input is malformed or outside the statement's promises.
    Parse(ParseError),
    /// The input is well formed but has no answer, which the statement promises it has.
    Unsolvable(String),
    /// The writer failed.
    Io(io::Error),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Parse(e) => e.fmt(f),
            AnswerError::Unsolvable(why) => f.write_str(why),
            AnswerError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnswerError {}

impl From<ParseError> for AnswerError {
    fn from(e: ParseError) -> Self {
        AnswerError::Parse(e)
    }
}

impl From<io::Error> for AnswerError {
    fn from(e: io::Error) -> Self {
        AnswerError::Io(e)
    }
}

/// The typed input of one case; [`JudgeProblem::text`] writes it as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A 9x9 board, 81 cells row by row, 0 for a blank (2580, 2239).
    Sudoku(Vec<u8>),
    /// The board size N (9663).
    Queens(usize),
    /// The sets of one input, each increasing (6603).
    Lotto(Vec<Vec<u32>>),
    /// `N M` and the numbers of the second line, empty where there is none (the "N and M" series).
    NandM {
        /// N.
        n: usize,
        /// M.
        m: usize,
        /// The N numbers, in input order (empty for 15649-15652).
        values: Vec<u32>,
    },
    /// The puzzles of one input (4574).
    Sudominoku(Vec<Puzzle>),
    /// The numbers and how many `+`, `-`, `×`, `÷` there are (14888, 15658).
    Operators {
        /// The numbers, in their fixed order.
        numbers: Vec<u32>,
        /// The counts of `+`, `-`, `×`, `÷`.
        counts: [u32; 4],
    },
    /// A square matrix, row by row, its diagonal 0 (14889, 15661: strengths; 10971: costs).
    Matrix(Vec<Vec<u32>>),
    /// The target S and the numbers (1182).
    SubsetSum {
        /// S.
        target: i64,
        /// The numbers, in input order.
        numbers: Vec<i64>,
    },
    /// The password length and the letters, in input order (1759).
    Letters {
        /// L.
        len: usize,
        /// The letters, distinct and lowercase.
        letters: Vec<u8>,
    },
    /// The inequality signs, `true` for `<` (2529).
    Signs(Vec<bool>),
    /// Numbers to order (10819).
    Numbers(Vec<i64>),
    /// The rows of a board of capital letters (1987).
    Board(Vec<Vec<u8>>),
}

impl Input {
    /// How big the case is, compared lexicographically: the shrinker only
    /// moves to strictly smaller cases, so it always ends.
    pub fn measure(&self) -> Vec<u64> {
        let sum = |values: &mut dyn Iterator<Item = u64>| values.sum::<u64>();
        match self {
            Input::Sudoku(cells) => vec![cells.iter().filter(|&&c| c == 0).count() as u64],
            Input::Queens(n) => vec![*n as u64],
            Input::Lotto(sets) => vec![
                sets.len() as u64,
                sets.iter().map(|s| s.len() as u64).sum(),
                sets.iter().flatten().map(|&v| v as u64).sum(),
            ],
            Input::NandM { n, m, values } => vec![*n as u64, *m as u64, values.iter().map(|&v| v as u64).sum()],
            Input::Sudominoku(puzzles) => {
                vec![puzzles.len() as u64, puzzles.iter().map(|p| p.blank_cells() as u64).sum()]
            }
            Input::Operators { numbers, counts } => vec![
                numbers.len() as u64,
                sum(&mut counts.iter().map(|&c| c as u64)),
                sum(&mut numbers.iter().map(|&v| v as u64)),
            ],
            Input::Matrix(rows) => vec![rows.len() as u64, sum(&mut rows.iter().flatten().map(|&v| v as u64))],
            Input::SubsetSum { target, numbers } => {
                vec![numbers.len() as u64, sum(&mut numbers.iter().map(|v| v.unsigned_abs())), target.unsigned_abs()]
            }
            Input::Letters { len, letters } => {
                vec![letters.len() as u64, *len as u64, sum(&mut letters.iter().map(|&b| b as u64))]
            }
            Input::Signs(signs) => vec![signs.len() as u64, signs.iter().filter(|&&less| !less).count() as u64],
            Input::Numbers(numbers) => vec![numbers.len() as u64, sum(&mut numbers.iter().map(|v| v.unsigned_abs()))],
            Input::Board(rows) => vec![
                rows.iter().map(|r| r.len() as u64).sum(),
                rows.len() as u64,
                sum(&mut rows.iter().flatten().map(|&b| b as u64)),
            ],
        }
    }
}

/// Panics: `input` is not an input of problem `id`.
pub(super) fn foreign(id: u32, input: &Input) -> ! {
    panic!("{input:?} is not an input of problem {id}")
}

/// `text`'s whole output written at once (the problems with a short answer).
pub(super) fn write_text(text: Result<String, ParseError>, out: &mut dyn Write) -> Result<(), AnswerError> {
    out.write_all(text?.as_bytes())?;
    Ok(())
}
