//! The answers of the puzzle maker's `rate`, `explain` and `hint`: a
//! rating, a rated path or the next step of each 9x9 puzzle, as text or
//! JSON.

use std::io::Write;
use std::ops::Range;

use super::{Answer, Answered, Part};
use crate::search::Threads;
use crate::sudoku::answer::{self, Explained, Head, Rated, Status};
use crate::sudoku::marks::{marks_line, Marks};
use crate::sudoku::rate::{self, RateError, Rater};
use crate::sudoku::techniques::Step;
use crate::ParseError;

/// Which question the maker answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// The Sudoku Explainer rating: ER/EP/ED.
    Rate,
    /// Every step of the rated path, then the rating.
    Explain,
    /// The next step of a partly filled grid (or which digit is wrong).
    Hint,
}

/// The maker's answerer: `ask`, as text or with `json` as JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replies {
    /// What to answer.
    pub ask: Ask,
    /// One JSON object per puzzle (`docs/json.md`).
    pub json: bool,
}

impl Answer for Replies {
    /// Each thread's rater, kept from one puzzle to the next.
    type Scratch = Rater;

    fn scratch(&self) -> Rater {
        Rater::new()
    }

    /// One puzzle a job: a rating takes long enough to be worth scheduling alone.
    fn chunk(&self) -> usize {
        1
    }

    fn answer(&self, rater: &mut Rater, part: &Part, range: Range<usize>, _: Option<Threads>) -> Answered {
        let batch = &part.batch;
        let nine = batch.layout().box_size == 3;
        let mut out = Answered::default();
        for k in range {
            let entry = &batch.entries()[k];
            let index = part.first_index + k;
            let error = match &entry.result {
                Ok(slot) if nine => {
                    let reply = self.reply(rater, batch.cells(*slot));
                    out.no_solution += usize::from(!reply.found());
                    match self.json {
                        true => reply.write_json(&mut out.text, part.head(entry, index, Status::Solved)),
                        false => reply.write_text(&mut out.text),
                    }
                    continue;
                }
                Ok(_) => ParseError::new(entry.line, 1, "only 9x9 puzzles are taken here"),
                Err(e) => e.clone(),
            };
            part.write_invalid(&mut out.text, entry, index, &error, self.json, false);
            out.malformed.push(error);
        }
        out
    }
}

impl Replies {
    /// The reply to a pencil-mark grid's candidates (see
    /// [`Board::from_marks`](crate::sudoku::techniques::Board::from_marks)).
    /// A hint to marks that leave no solution says so without naming a
    /// digit to doubt.
    pub fn reply_marks(&self, rater: &mut Rater, marks: &Marks) -> Reply {
        match self.ask {
            Ask::Rate => rater.rate_marks(marks).map_or_else(error_reply, Reply::Rated),
            Ask::Explain => match rater.explain_marks(marks) {
                Ok(e) => Reply::Explained(marks_line(marks), e),
                Err(e) => error_reply(e),
            },
            Ask::Hint => match rater.hint_marks(marks) {
                Ok(Some(step)) => Reply::Hint(step),
                Ok(None) if marks.iter().all(|m| m.count_ones() == 1) => Reply::Missed(Status::Complete),
                Ok(None) => Reply::Missed(Status::Stuck),
                Err(e) => error_reply(e),
            },
        }
    }

    /// The reply to the 9x9 grid `grid` (0 for a blank).
    pub fn reply(&self, rater: &mut Rater, grid: &[u8]) -> Reply {
        match self.ask {
            Ask::Rate => rater.rate(grid).map_or_else(error_reply, Reply::Rated),
            Ask::Explain => match rater.explain(grid) {
                // A header names the puzzle, so that several explanations read apart.
                Ok(e) => {
                    Reply::Explained(grid.iter().map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) }).collect(), e)
                }
                Err(e) => error_reply(e),
            },
            Ask::Hint => match rater.hint(grid) {
                Ok(Some(step)) => Reply::Hint(step),
                Ok(None) if grid.iter().all(|&v| v != 0) => Reply::Missed(Status::Complete),
                Ok(None) => Reply::Missed(Status::Stuck),
                Err(RateError::NoSolution) => Reply::Wrong(rate::wrong_digits(grid)),
                Err(e) => error_reply(e),
            },
        }
    }
}

/// The reply to a puzzle without a single solution.
fn error_reply(e: RateError) -> Reply {
    match e {
        RateError::NotUnique => Reply::Missed(Status::Multiple),
        _ => Reply::Missed(Status::NoSolution),
    }
}

/// What rate, explain or hint found for one puzzle, before it is written
/// as text or JSON.
#[derive(Debug)]
pub enum Reply {
    /// The rating.
    Rated(rate::Rating),
    /// The puzzle on one line, and its path.
    Explained(String, rate::Explanation),
    /// The next step.
    Hint(Step),
    /// No solution for `hint`: the placed digits (cell, digit) any one of
    /// which, taken away, leaves a grid with a solution.
    Wrong(Vec<(usize, u8)>),
    /// No rating, path or step: the status says why.
    Missed(Status),
}

impl Reply {
    /// Whether the puzzle got what was asked (a rating, a path, a step).
    pub fn found(&self) -> bool {
        !matches!(self, Reply::Missed(_) | Reply::Wrong(_))
    }

    /// The answer as text: lines, each ending with a newline.
    pub fn write_text(&self, text: &mut Vec<u8>) {
        let _ = match self {
            Reply::Rated(r) => writeln!(text, "{}", r.text()),
            Reply::Explained(puzzle, e) => writeln!(text, "Puzzle {puzzle}").and_then(|()| write_explanation(text, e)),
            Reply::Hint(step) => writeln!(text, "{} [{}]", step.text, step.rating),
            Reply::Missed(status) => writeln!(text, "{}", missed_line(*status)),
            Reply::Wrong(wrong) => writeln!(text, "{}", wrong_digits_line(wrong)),
        };
    }

    /// The answer as one JSON line, after `head`'s fields.
    pub fn write_json(&self, text: &mut Vec<u8>, head: Head) {
        match self {
            Reply::Rated(r) => {
                answer::write_line(text, &Rated { head: Head { status: Status::Rated, ..head }, rating: r.into() })
            }
            Reply::Explained(_, e) => {
                answer::write_line(text, &Explained::new(Head { status: Status::Explained, ..head }, e))
            }
            Reply::Hint(step) => answer::write_line(
                text,
                &answer::Hint { head: Head { status: Status::Hint, ..head }, step: step.into() },
            ),
            Reply::Missed(status) => answer::write_line(text, &Head { status: *status, ..head }),
            Reply::Wrong(wrong) => answer::write_line(
                text,
                &answer::WrongDigits {
                    head: Head { status: Status::NoSolution, ..head },
                    wrong: wrong
                        .iter()
                        .map(|&(cell, digit)| [cell / 9 + 1, cell % 9 + 1, usize::from(digit)])
                        .collect(),
                },
            ),
        }
    }
}

/// The text line of a puzzle without an answer.
fn missed_line(status: Status) -> &'static str {
    match status {
        Status::Multiple => "# more than one solution",
        Status::Complete => "# solved",
        Status::Stuck => "# no step found: the next step needs a technique this solver lacks",
        _ => "# no solution",
    }
}

/// Every step of `e`'s path, numbered, then its rating.
fn write_explanation(text: &mut Vec<u8>, e: &rate::Explanation) -> std::io::Result<()> {
    for (i, step) in e.steps.iter().enumerate() {
        writeln!(text, "{:>3}. [{}] {}", i + 1, step.rating, step.text)?;
    }
    if e.rating.beyond {
        writeln!(text, "Stuck: the next step needs a technique this solver lacks.")?;
    }
    let hardest = e.rating.hardest.map_or("none", |t| t.name());
    writeln!(text, "Rating {} (ER/EP/ED), hardest step: {hardest}", e.rating.text())
}

/// The answer to a grid without a solution: which digit is wrong, when
/// taking one away gives it a solution.
fn wrong_digits_line(wrong: &[(usize, u8)]) -> String {
    /// Most cells named.
    const SHOWN: usize = 6;
    let named: Vec<String> =
        wrong.iter().take(SHOWN).map(|&(cell, digit)| format!("r{}c{}={digit}", cell / 9 + 1, cell % 9 + 1)).collect();
    let more = if wrong.len() > SHOWN { ", ..." } else { "" };
    match named.as_slice() {
        [] => "# no solution: more than one digit is wrong".to_string(),
        [one] => format!("# no solution: {one} is wrong (without it the grid has a solution)"),
        _ => format!("# no solution: one of {}{more} is wrong (without it the grid has a solution)", named.join(", ")),
    }
}
