//! Answers to variant puzzles, one per input line, as text or JSON: what
//! `backtrack sudoku` writes for a file of variant puzzles.
//!
//! Every line gets exactly one answer (a solution, a count, the true
//! candidates, `# no solution` or `# error: ...`), so that answers stay
//! aligned with puzzles; with `--all` a puzzle's answer is every solution.

use std::ops::ControlFlow;

use serde::Serialize;

use crate::json::{self, Status};
use crate::sudoku::answer::{Head, Invalid, Solve};
use crate::ParseError;

use super::model::{symbol, Line, Puzzle};
use super::parse::parse_line;
use super::solve::{Solver, TrueCandidates};

/// What to ask of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// One solution (the first the search finds).
    First,
    /// The number of solutions, stopping at the limit when there is one.
    Count(Option<u64>),
    /// Every solution.
    All,
    /// The true candidates, with the solutions counted up to the limit.
    Candidates(u64),
}

/// Where a puzzle comes from, for JSON answers and error messages.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The input's name (`<stdin>` for standard input).
    pub file: &'a str,
    /// The puzzle's line, from 1.
    pub line: usize,
    /// The puzzle's place in its input, from 0.
    pub index: usize,
}

/// The JSON answer of `--candidates`.
#[derive(Debug, Clone, Serialize)]
pub struct CandidatesAnswer<'a> {
    /// File, line, index and status.
    #[serde(flatten)]
    pub head: Head<'a>,
    /// Solutions counted, at most the limit.
    pub solutions: u64,
    /// Whether `solutions` is every solution.
    pub complete: bool,
    /// Per cell, row by row, the values it holds in at least one solution.
    pub candidates: Vec<Vec<u8>>,
}

/// What answering one line came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answered {
    /// What became of the puzzle.
    pub status: Status,
    /// The error, for a malformed puzzle.
    pub error: Option<ParseError>,
}

/// Reads the puzzle on one line and appends its answer to `out`.
pub fn answer(text: &str, source: Source, question: Question, json: bool, out: &mut Vec<u8>) -> Answered {
    let built = parse_line(text, source.line).and_then(|puzzle| {
        let solver = Solver::new(&puzzle).map_err(|m| ParseError::new(source.line, 0, m))?;
        Ok((puzzle, solver))
    });
    let (puzzle, mut solver) = match built {
        Ok(p) => p,
        Err(e) => {
            let head = Head { file: source.file, line: source.line, index: source.index, status: Status::Invalid };
            if json {
                json::write_line(out, &Invalid { head, error: e.to_string() });
            } else {
                out.extend_from_slice(format!("# error: {e}\n").as_bytes());
            }
            return Answered { status: Status::Invalid, error: Some(e) };
        }
    };
    let head = |status| Head { file: source.file, line: source.line, index: source.index, status };
    let solve = |status, solutions, complete, solution: Option<&[u8]>, guesses| Solve {
        head: head(status),
        solutions,
        complete,
        solution: solution.map(|s| Line(s).to_string()),
        guesses,
    };
    let status = match question {
        Question::First => {
            let first = solver.first();
            let status = if first.is_some() { Status::Solved } else { Status::NoSolution };
            if json {
                json::write_line(out, &solve(status, None, None, first.as_deref(), Some(solver.guesses())));
            } else {
                write_solution(out, first.as_deref());
            }
            status
        }
        Question::Count(limit) => {
            let count = solver.count(limit);
            let status = Status::of_count(count.solutions, count.complete);
            if json {
                let first = count.first.as_deref();
                json::write_line(
                    out,
                    &solve(status, Some(count.solutions), Some(count.complete), first, Some(solver.guesses())),
                );
            } else {
                let plus = if count.complete { "" } else { "+" };
                out.extend_from_slice(format!("{}{plus}\n", count.solutions).as_bytes());
            }
            status
        }
        Question::All => {
            let solutions = solver.for_each(|s| {
                if json {
                    json::write_line(out, &solve(Status::Solution, None, None, Some(s), None));
                } else {
                    write_solution(out, Some(s));
                }
                ControlFlow::Continue(())
            });
            let status = Status::of_count(solutions, true);
            if json {
                json::write_line(out, &solve(status, Some(solutions), Some(true), None, Some(solver.guesses())));
            } else if solutions == 0 {
                write_solution(out, None);
            }
            status
        }
        Question::Candidates(limit) => {
            let found = solver.candidates(limit);
            let status = Status::of_count(found.solutions, found.complete);
            if json {
                let answer = CandidatesAnswer {
                    head: head(status),
                    solutions: found.solutions,
                    complete: found.complete,
                    candidates: found.values(),
                };
                json::write_line(out, &answer);
            } else {
                write_candidates(out, &puzzle, &found);
            }
            status
        }
    };
    Answered { status, error: None }
}

fn write_solution(out: &mut Vec<u8>, solution: Option<&[u8]>) {
    match solution {
        Some(s) => out.extend_from_slice(format!("{}\n", Line(s)).as_bytes()),
        None => out.extend_from_slice(b"# no solution\n"),
    }
}

/// The true candidates as text: a comment line with the count, then the
/// grid, each cell's values written together and padded to one width.
fn write_candidates(out: &mut Vec<u8>, puzzle: &Puzzle, found: &TrueCandidates) {
    let (solutions, complete) = (found.solutions, found.complete);
    if solutions == 0 {
        out.extend_from_slice(b"# no solution\n");
        return;
    }
    let plural = if solutions == 1 && complete { "" } else { "s" };
    let plus = if complete { "" } else { "+" };
    out.extend_from_slice(format!("# {solutions}{plus} solution{plural}\n").as_bytes());
    let cells: Vec<String> = found.values().into_iter().map(|v| v.into_iter().map(symbol).collect()).collect();
    let width = cells.iter().map(String::len).max().unwrap_or(1);
    let n = puzzle.shape.size();
    for row in cells.chunks(n) {
        let padded: Vec<String> = row.iter().map(|c| format!("{c:<width$}")).collect();
        out.extend_from_slice(padded.join(" ").trim_end().as_bytes());
        out.push(b'\n');
    }
}
