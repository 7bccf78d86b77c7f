//! Timing the variant solver on a whole file of puzzles: what
//! `backtrack bench sudoku` does with a file of variant puzzles.
//!
//! [`read_puzzles`] reads every puzzle of a text first (one per line, or
//! a whole f-puzzles document), so that a malformed one stops the run
//! before anything is timed. [`timed_run`] then answers every puzzle on
//! some threads, one puzzle a job (a variant puzzle takes long enough to
//! be scheduled alone), timing from the first job to the last answer.
//! The time covers compiling each puzzle's rules as well as searching: a
//! solver is built for one puzzle, as `backtrack sudoku` builds it.
//! [`Run::first_wrong`] checks the solutions found, outside the timing.

use std::ops::ControlFlow;
use std::time::Instant;

use super::fpuzzles::opens_document;
use super::model::Puzzle;
use super::parse::{parse_line, puzzle_lines};
use super::solve::Solver;
use crate::search::{run_in_order, Feed, ThreadStartError, Threads};
use crate::ParseError;

/// What to ask of each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// One solution, the first the search finds.
    First,
    /// Solutions counted up to this limit (2: a uniqueness check).
    Count(u64),
}

/// A puzzle read from a text, with the line it starts on (from 1).
#[derive(Debug, Clone)]
pub struct Numbered {
    /// The puzzle's first line.
    pub line: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// Every puzzle of `text`, one per line (blank lines and `#` comments
/// skipped), or the one f-puzzles document the text holds from its first
/// puzzle line on; the first malformed puzzle's error otherwise, or an
/// error at line 1 for a text without a puzzle. The puzzles' rules are
/// compiled too, so that a rule no solver can hold is reported here.
pub fn read_puzzles(text: &str) -> Result<Vec<Numbered>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut puzzles = Vec::new();
    for (line, trimmed) in puzzle_lines(text) {
        if puzzles.is_empty() && opens_document(trimmed) {
            // The document runs from this line to the end of the text.
            let start = text.lines().take(line - 1).map(|l| l.len() + 1).sum::<usize>().min(text.len());
            puzzles.push(numbered(&text[start..], line)?);
            break;
        }
        puzzles.push(numbered(trimmed, line)?);
    }
    if puzzles.is_empty() {
        return Err(ParseError::new(1, 0, "empty input: no puzzle found"));
    }
    Ok(puzzles)
}

/// The puzzle of `text`, which starts on line `line`, checked to compile.
fn numbered(text: &str, line: usize) -> Result<Numbered, ParseError> {
    let puzzle = parse_line(text, line)?;
    Solver::new(&puzzle).map_err(|m| ParseError::new(line, 0, m))?;
    Ok(Numbered { line, puzzle })
}

/// What one timed run over a list of puzzles found.
#[derive(Debug, Clone)]
pub struct Run {
    /// Seconds from the first job to the last answer.
    pub seconds: f64,
    /// Puzzles with at least one solution.
    pub solved: u64,
    /// Guesses made, all puzzles together (see [`Solver::guesses`]).
    pub guesses: u64,
    /// Each puzzle's first solution found, in the puzzles' order.
    pub solutions: Vec<Option<Vec<u8>>>,
}

impl Run {
    /// The index of the first puzzle whose solution found does not solve
    /// it (a solver bug), if any.
    pub fn first_wrong(&self, puzzles: &[Numbered]) -> Option<usize> {
        self.solutions
            .iter()
            .zip(puzzles)
            .position(|(solution, p)| solution.as_ref().is_some_and(|s| !p.puzzle.is_solved_by(s)))
    }
}

/// Answers `goal` for every puzzle of `puzzles` on `threads`, once, timing
/// only the answering (see the module's documentation).
pub fn timed_run(puzzles: &[Numbered], goal: Goal, threads: Threads) -> Result<Run, ThreadStartError> {
    let mut solutions: Vec<Option<Vec<u8>>> = Vec::with_capacity(puzzles.len());
    let (mut solved, mut guesses) = (0u64, 0u64);
    let mut next = 0..puzzles.len();
    // The clock starts at the first job, once the threads are up.
    let mut start: Option<Instant> = None;
    run_in_order(
        threads,
        // Every answer is kept for the check: no window to bound.
        usize::MAX,
        || (),
        |_| {
            start.get_or_insert_with(Instant::now);
            next.next().map_or(Feed::End, Feed::Job)
        },
        |_, &k| answer(&puzzles[k].puzzle, goal),
        |_, (solution, puzzle_guesses)| {
            solved += u64::from(solution.is_some());
            guesses += puzzle_guesses;
            solutions.push(solution);
            ControlFlow::Continue(())
        },
    )?;
    let seconds = start.map_or(0.0, |start| start.elapsed().as_secs_f64());
    Ok(Run { seconds, solved, guesses, solutions })
}

/// One puzzle's first solution (if any) and the guesses made.
fn answer(puzzle: &Puzzle, goal: Goal) -> (Option<Vec<u8>>, u64) {
    // Every puzzle compiled once already, in `read_puzzles`.
    let Ok(mut solver) = Solver::new(puzzle) else { return (None, 0) };
    let solution = match goal {
        Goal::First => solver.first(),
        Goal::Count(limit) => solver.count(Some(limit)).first,
    };
    (solution, solver.guesses())
}

#[cfg(test)]
mod tests {
    use super::*;

    const THERMO_4X4: &str = ".Shape~4x4.Thermo~R1C1~R1C2~R1C3~R1C4.~R2C1_3";

    #[test]
    fn every_puzzle_is_answered_in_order_and_checked() {
        let text = format!("# two puzzles\n{THERMO_4X4}\n\n.Shape~4x4.~R1C1_1~R1C2_1\n");
        let puzzles = read_puzzles(&text).unwrap();
        assert_eq!(puzzles.iter().map(|p| p.line).collect::<Vec<_>>(), [2, 4]);
        for threads in [Threads::ONE, Threads::new(2).unwrap()] {
            for goal in [Goal::First, Goal::Count(2)] {
                let run = timed_run(&puzzles, goal, threads).unwrap();
                assert_eq!(run.solved, 1);
                assert_eq!(run.solutions[0].as_deref().map(|s| &s[..4]), Some(&[1, 2, 3, 4][..]));
                assert!(run.solutions[1].is_none());
                assert_eq!(run.first_wrong(&puzzles), None);
                let mut wrong = run.clone();
                wrong.solutions[0].as_mut().unwrap().swap(0, 1);
                assert_eq!(wrong.first_wrong(&puzzles), Some(0));
            }
        }
    }

    #[test]
    fn a_malformed_puzzle_is_reported_at_its_line() {
        let e = read_puzzles(&format!("{THERMO_4X4}\n# c\n.Shape~4x4.Nonsense~R1C1\n")).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert_eq!(read_puzzles("# nothing\n\n").unwrap_err().line, 1);
    }
}
