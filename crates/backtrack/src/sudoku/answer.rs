//! The JSON answers of `backtrack sudoku` and of the puzzle maker's `rate`,
//! `explain` and `hint` (`docs/json.md` is their schema).
//!
//! Every puzzle read gets one object, and every object starts with the same
//! head: the input's name, the puzzle's line and index, and a [`Status`]
//! from one vocabulary shared by the four commands. The fields after the
//! head depend on the status.

use serde::Serialize;

pub use crate::json::Status;

use super::rate::{Explanation, Rating};
use super::score::Score;
use super::techniques::Step;

/// The fields every answer starts with.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Head<'a> {
    /// The input's name (`<stdin>` for standard input).
    pub file: &'a str,
    /// The line the puzzle starts on, from 1.
    pub line: usize,
    /// The puzzle's place in its input, from 0.
    pub index: usize,
    /// What became of it.
    pub status: Status,
}

/// The answer of `backtrack sudoku` to a well-formed puzzle (and, with
/// `--all`, one object per solution, then one with the count).
#[derive(Debug, Clone, Serialize)]
pub struct Solve<'a> {
    /// File, line, index and status.
    #[serde(flatten)]
    pub head: Head<'a>,
    /// Solutions counted (`--count`, and the last object of `--all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
    /// Whether `solutions` is every solution (`false`: the count stopped at `--limit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
    /// The first solution found, one symbol per cell, row by row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// Guesses: the times the search chose a cell's digit among two or
    /// more candidates (0 when propagation alone solved the puzzle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guesses: Option<u64>,
}

/// The answer to a puzzle that could not be read (or, for the maker's
/// commands, one that is not 9x9).
#[derive(Debug, Clone, Serialize)]
pub struct Invalid<'a> {
    /// File, line, index and status [`Status::Invalid`].
    #[serde(flatten)]
    pub head: Head<'a>,
    /// The message: line, column and what is wrong.
    pub error: String,
}

/// The answer of `hint` to a grid without a solution: the digits to doubt.
#[derive(Debug, Clone, Serialize)]
pub struct WrongDigits<'a> {
    /// File, line, index and status [`Status::NoSolution`].
    #[serde(flatten)]
    pub head: Head<'a>,
    /// Each placed digit whose removal alone leaves a grid with a solution,
    /// as `[row, column, digit]` from 1; empty when more than one is wrong.
    pub wrong: Vec<[usize; 3]>,
}

/// A rating on Sudoku Explainer's scale, as JSON fields.
#[derive(Debug, Clone, Serialize)]
pub struct RatingFields {
    /// The hardest step's rating; `null` when the puzzle is beyond this rater.
    pub er: Option<Score>,
    /// The hardest rating up to the first placed digit (`null`: none placed).
    pub ep: Option<Score>,
    /// The first step's rating (`null`: no step).
    pub ed: Option<Score>,
    /// The hardest step's technique (`null`: no step).
    pub hardest: Option<&'static str>,
    /// Whether the path stopped at a step this rater cannot take.
    pub beyond: bool,
    /// With `beyond`: the hardest rating reached before it stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached: Option<Score>,
}

impl From<&Rating> for RatingFields {
    fn from(r: &Rating) -> RatingFields {
        RatingFields {
            er: (!r.beyond).then_some(r.er),
            ep: r.ep,
            ed: r.ed,
            hardest: r.hardest.map(|t| t.name()),
            beyond: r.beyond,
            reached: r.beyond.then_some(r.er),
        }
    }
}

/// One step of a solving path as JSON: cells as `[row, column, digit]`, rows and columns from 1.
#[derive(Debug, Clone, Serialize)]
pub struct StepFields {
    /// The technique's name, as Sudoku Explainer writes it.
    pub technique: &'static str,
    /// Its rating.
    pub rating: Score,
    /// Digits placed.
    pub placements: Vec<[u8; 3]>,
    /// Candidates removed.
    pub eliminations: Vec<[u8; 3]>,
    /// The reasoning in words.
    pub text: String,
}

impl From<&Step> for StepFields {
    fn from(step: &Step) -> StepFields {
        let triples =
            |list: &[(usize, u8)]| list.iter().map(|&(c, d)| [(c / 9 + 1) as u8, (c % 9 + 1) as u8, d]).collect();
        StepFields {
            technique: step.technique.name(),
            rating: step.rating,
            placements: triples(&step.placements),
            eliminations: triples(&step.eliminations),
            text: step.text.clone(),
        }
    }
}

/// The answer of `rate` to a puzzle it rated.
#[derive(Debug, Clone, Serialize)]
pub struct Rated<'a> {
    /// File, line, index and status [`Status::Rated`].
    #[serde(flatten)]
    pub head: Head<'a>,
    /// The rating.
    #[serde(flatten)]
    pub rating: RatingFields,
}

/// The answer of `explain`: the rating and every step of the path.
#[derive(Debug, Clone, Serialize)]
pub struct Explained<'a> {
    /// File, line, index and status [`Status::Explained`].
    #[serde(flatten)]
    pub head: Head<'a>,
    /// The rating.
    #[serde(flatten)]
    pub rating: RatingFields,
    /// The steps, in order.
    pub steps: Vec<StepFields>,
}

impl<'a> Explained<'a> {
    /// The answer for `explanation`.
    pub fn new(head: Head<'a>, explanation: &Explanation) -> Explained<'a> {
        Explained {
            head,
            rating: (&explanation.rating).into(),
            steps: explanation.steps.iter().map(StepFields::from).collect(),
        }
    }
}

/// The answer of `hint`: the next step.
#[derive(Debug, Clone, Serialize)]
pub struct Hint<'a> {
    /// File, line, index and status [`Status::Hint`].
    #[serde(flatten)]
    pub head: Head<'a>,
    /// The step.
    #[serde(flatten)]
    pub step: StepFields,
}

pub use crate::json::write_line;

#[cfg(test)]
mod tests {
    use super::*;

    fn line(answer: &impl Serialize) -> String {
        let mut out = Vec::new();
        write_line(&mut out, answer);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_are_one_line_with_the_head_first() {
        let head = Head { file: "a \"b\".txt", line: 3, index: 2, status: Status::NoSolution };
        let solve = Solve { head, solutions: None, complete: None, solution: None, guesses: Some(0) };
        assert_eq!(
            line(&solve),
            "{\"file\":\"a \\\"b\\\".txt\",\"line\":3,\"index\":2,\"status\":\"no_solution\",\"guesses\":0}\n"
        );
        let rating = Rating {
            er: Score::from_tenths(109),
            ep: None,
            ed: Some(Score::from_tenths(100)),
            hardest: None,
            beyond: true,
        };
        let rated = Rated { head: Head { status: Status::Rated, ..head }, rating: (&rating).into() };
        assert!(line(&rated).ends_with(
            "\"status\":\"rated\",\"er\":null,\"ep\":null,\"ed\":10.0,\"hardest\":null,\"beyond\":true,\"reached\":10.9}\n"
        ));
    }
}
