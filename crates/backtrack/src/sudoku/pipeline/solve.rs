//! The answers of `backtrack sudoku`: a solution, the smallest solution, a
//! count, or every solution of each puzzle, as text or JSON.

use std::io::{self, Write};
use std::ops::{ControlFlow, Range};

use super::{Answer, Answered, Part, Tally};
use crate::error::Counted;
use crate::search::{Mode, Order, Threads};
use crate::sudoku::answer::{self, Head, Solve as SolveAnswer, Status};
use crate::sudoku::{self, Format, Solver};

/// Text written in place of the answer to a puzzle that has no solution.
pub const NO_SOLUTION_LINE: &str = "# no solution";

/// Puzzles answered per job.
const CHUNK: usize = 256;

/// What to answer and how to write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solve {
    /// What to find: any of [`Mode`]; [`Mode::All`] goes through [`Solve::list_all`].
    pub mode: Mode,
    /// One JSON object per puzzle (`docs/json.md`).
    pub json: bool,
    /// The output format (default: the format the puzzles were read in).
    pub format: Option<Format>,
}

impl Answer for Solve {
    /// A solver for the box size last met.
    type Scratch = Option<Solver>;

    fn scratch(&self) -> Option<Solver> {
        None
    }

    fn chunk(&self) -> usize {
        CHUNK
    }

    /// A lone puzzle being counted has its search split over the threads.
    fn splits_lone(&self) -> bool {
        matches!(self.mode, Mode::Count { .. })
    }

    fn answer(
        &self,
        solver: &mut Option<Solver>,
        part: &Part,
        range: Range<usize>,
        split: Option<Threads>,
    ) -> Answered {
        let box_size = part.batch.layout().box_size;
        let solver = match solver {
            Some(s) if s.box_size() == box_size => s,
            _ => solver.insert(Solver::new(box_size)),
        };
        self.answer_chunk(solver, part, range, split)
    }
}

impl Solve {
    /// Answers puzzles `range` of `part` into a byte buffer. With `split`,
    /// counts are computed by splitting each puzzle's search across that
    /// many threads.
    fn answer_chunk(&self, solver: &mut Solver, part: &Part, range: Range<usize>, split: Option<Threads>) -> Answered {
        let batch = &part.batch;
        let start = range.start;
        let chunk = &batch.entries()[range];
        let layout = batch.layout();
        let format = self.format.unwrap_or(layout.format);
        let area = layout.box_size.pow(4);
        let mut solution = vec![0u8; area];
        // Grids are separated by a blank line, written before each one; the
        // writer drops the run's very first one.
        let separated = !self.json && format != Format::Line && !matches!(self.mode, Mode::Count { .. });
        let mut out = Answered { text: Vec::with_capacity(chunk.len() * (area + 2)), separated, ..Answered::default() };
        let text = &mut out.text;
        for (k, entry) in chunk.iter().enumerate() {
            let index = part.first_index + start + k;
            let slot = match &entry.result {
                Ok(slot) => *slot,
                Err(e) => {
                    part.write_invalid(text, entry, index, e, self.json, separated);
                    out.malformed.push(e.clone());
                    continue;
                }
            };
            if separated {
                text.push(b'\n');
            }
            let solved = match (split, self.mode) {
                (Some(threads), Mode::Count { limit }) => {
                    let cells = batch.cells(slot);
                    let count = match solver.par_count(cells, limit, threads) {
                        Ok(count) => count,
                        Err(e) => {
                            out.threads_failed = Some(e);
                            return out;
                        }
                    };
                    // The count came from the split search; one quick solve gives a solution to show.
                    let first = solver.solve(cells, Mode::First, &mut solution);
                    sudoku::Solved { count, guesses: first.guesses }
                }
                _ => solver.solve(batch.cells(slot), self.mode, &mut solution),
            };
            if solved.count == 0 {
                out.no_solution += 1;
            }
            if self.json {
                let head = part.head(entry, index, Status::Solved);
                write_json_answer(text, head, self.mode, solved, &solution);
            } else if let Mode::Count { limit } = self.mode {
                let _ = write!(text, "{}", solved.count);
                if limit == Some(solved.count) {
                    text.push(b'+');
                }
                text.push(b'\n');
            } else if solved.count == 0 {
                text.extend_from_slice(NO_SOLUTION_LINE.as_bytes());
                text.push(b'\n');
            } else {
                sudoku::write_cells(text, layout.box_size, &solution, format);
            }
        }
        out
    }

    /// Streams every solution of the first `end` puzzles of `part` to `out`,
    /// one puzzle at a time, as found (nothing is collected in memory);
    /// `wrote_any` says whether anything was written before (grids after
    /// the first are separated by a blank line). Malformed puzzles are
    /// answered by their error and passed to `report`. The part for
    /// [`super::each_in_turn`].
    pub fn list_all(
        &self,
        part: &Part,
        end: usize,
        tally: &mut Tally,
        wrote_any: &mut bool,
        out: &mut dyn Write,
        report: &mut dyn FnMut(&dyn std::fmt::Display),
    ) -> io::Result<()> {
        let batch = &part.batch;
        let layout = batch.layout();
        let format = self.format.unwrap_or(layout.format);
        let mut solver = Solver::new(layout.box_size);
        let mut text = Vec::new();
        for (k, entry) in batch.entries()[..end].iter().enumerate() {
            let index = part.first_index + k;
            tally.answered += 1;
            let slot = match &entry.result {
                Ok(slot) => *slot,
                Err(e) => {
                    report(&format_args!("{}: {e}", part.name));
                    tally.invalid += 1;
                    let separated = !self.json && *wrote_any && format != Format::Line;
                    part.write_invalid(&mut text, entry, index, e, self.json, separated);
                    *wrote_any = true;
                    out.write_all(&text)?;
                    text.clear();
                    continue;
                }
            };
            let mut failure: Option<io::Error> = None;
            let solved = solver.for_each(batch.cells(slot), Order::Heuristic, |solution| {
                text.clear();
                if self.json {
                    let answer = SolveAnswer {
                        head: part.head(entry, index, Status::Solution),
                        solutions: None,
                        complete: None,
                        solution: Some(solution_field(solution)),
                        guesses: None,
                    };
                    answer::write_line(&mut text, &answer);
                } else {
                    if *wrote_any && format != Format::Line {
                        text.push(b'\n');
                    }
                    sudoku::write_cells(&mut text, layout.box_size, solution, format);
                }
                *wrote_any = true;
                match out.write_all(&text) {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(e) => {
                        failure = Some(e);
                        ControlFlow::Break(())
                    }
                }
            });
            if let Some(e) = failure {
                return Err(e);
            }
            text.clear();
            if solved.count == 0 {
                tally.no_solution += 1;
            }
            if self.json {
                // Every solution was listed: the count is complete.
                let answer = SolveAnswer {
                    head: part.head(entry, index, Status::of_count(solved.count, true)),
                    solutions: Some(solved.count),
                    complete: Some(true),
                    solution: None,
                    guesses: Some(solved.guesses),
                };
                answer::write_line(&mut text, &answer);
            } else if solved.count == 0 {
                if *wrote_any && format != Format::Line {
                    text.push(b'\n');
                }
                text.extend_from_slice(NO_SOLUTION_LINE.as_bytes());
                text.push(b'\n');
                *wrote_any = true;
            } else if index > 0 || batch.entries().len() > 1 {
                // Several puzzles: say where one's solutions end.
                let _ =
                    writeln!(text, "# {} line {}: {}", part.name, entry.line, Counted(solved.count.into(), "solution"));
            }
            out.write_all(&text)?;
            text.clear();
        }
        Ok(())
    }
}

/// A solution as the JSON `solution` field: one symbol per cell.
fn solution_field(solution: &[u8]) -> String {
    solution.iter().map(|&v| char::from(sudoku::symbol(v))).collect()
}

/// The JSON answer to a well-formed puzzle in `mode` (any but `All`).
fn write_json_answer(text: &mut Vec<u8>, head: Head, mode: Mode, solved: sudoku::Solved, solution: &[u8]) {
    let (status, solutions, complete) = match mode {
        Mode::Count { limit } => {
            let complete = limit != Some(solved.count);
            (Status::of_count(solved.count, complete), Some(solved.count), Some(complete))
        }
        _ if solved.count == 0 => (Status::NoSolution, None, None),
        _ => (Status::Solved, None, None),
    };
    let answer = SolveAnswer {
        head: Head { status, ..head },
        solutions,
        complete,
        solution: (solved.count > 0).then(|| solution_field(solution)),
        guesses: Some(solved.guesses),
    };
    answer::write_line(text, &answer);
}
