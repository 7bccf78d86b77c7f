//! The JSON objects the command line writes, as serde types: one line of
//! JSON per object, keys and status values in `snake_case`. `docs/json.md`
//! is their schema; the sudoku family's answers are in
//! [`sudoku::answer`](crate::sudoku::answer), the queens reports in
//! [`queens::plan`](crate::queens::plan), the trace's events in
//! [`trace`](crate::trace); the others are here.

use serde::Serialize;

/// What became of one puzzle: the `status` field of `sudoku`, `rate`,
/// `explain`, `hint` and `sudominoku` answers. One vocabulary for all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A solution was found; whether it is the only one was not asked.
    Solved,
    /// Exactly one solution.
    Unique,
    /// Two solutions or more.
    Multiple,
    /// No solution (givens that clash, or a dead end everywhere).
    NoSolution,
    /// The puzzle could not be read (the `error` field says why).
    Invalid,
    /// One solution of a puzzle whose every solution is listed (`--all`).
    Solution,
    /// Rated (`rate`).
    Rated,
    /// Explained step by step (`explain`).
    Explained,
    /// The next step (`hint`).
    Hint,
    /// The grid is already full (`hint`).
    Complete,
    /// No technique the rater knows applies (`hint`).
    Stuck,
}

impl Status {
    /// The status of a count of `solutions`: `complete` when the count is
    /// every solution, not one cut short at a limit.
    pub fn of_count(solutions: u64, complete: bool) -> Status {
        match solutions {
            0 => Status::NoSolution,
            1 if complete => Status::Unique,
            1 => Status::Solved,
            _ => Status::Multiple,
        }
    }
}

/// Appends `object` to `out` as one line of JSON.
pub fn write_line(out: &mut Vec<u8>, object: &impl Serialize) {
    // Writing into a vector fails only on a serializer error, which the
    // types of this crate (strings, numbers, booleans, maps with string
    // keys) cannot raise.
    serde_json::to_writer(&mut *out, object).expect("a JSON object serializes");
    out.push(b'\n');
}

/// `xcover --json`: the count, the search's statistics and, with `--all`,
/// the solutions.
#[derive(Debug, Clone, Serialize)]
pub struct XcoverReport<'a> {
    /// Solutions counted (or listed).
    pub solutions: u64,
    /// Whether that is every solution (`false`: the count stopped at `--limit`).
    pub complete: bool,
    /// Nodes of one walk of the whole tree, whatever the threads.
    pub nodes: u64,
    /// Nodes that were dead ends.
    pub dead_ends: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Threads used.
    pub threads: usize,
    /// The engine: `small`, `dense`, `links` or `mcc` (`cost` for the cost search).
    pub engine: &'static str,
    /// With `--all`: each solution as the input lines of its options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<Vec<&'a str>>>,
    /// With `--min-cost` or `--best K`: the cost of each solution found, cheapest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub costs: Option<Vec<u64>>,
    /// With `--stats`: the nodes at each depth of the search tree, the root's first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Vec<u64>>,
    /// With `--print-options`: each solution's option numbers (from 1, in input order), increasing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub option_numbers: Option<Vec<Vec<usize>>>,
}

/// `sudominoku --json`: one object per puzzle.
#[derive(Debug, Clone, Serialize)]
pub struct SudominokuAnswer {
    /// The puzzle's place in the input, from 1.
    pub puzzle: usize,
    /// What became of it.
    pub status: Status,
    /// The solution grid, 81 digits row by row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// With `--count`: distinct solution grids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
    /// With `--count`: whether that is every grid (`false`: stopped at `--limit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
    /// Why the puzzle could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `judge --json`: the last line, the verdict of the whole run.
#[derive(Debug, Clone, Serialize)]
pub struct JudgeSummary {
    /// The problem's number.
    pub problem: u32,
    /// The run's verdict: the judge's code (`AC`, `WA`, `TLE`, `MLE`, `RE`, `OLE`).
    pub verdict: &'static str,
    /// Cases run.
    pub cases: usize,
    /// The failing case (shrunk), `null` when every case was accepted.
    pub failing: Option<JudgeFailing>,
}

/// The failing case of a [`JudgeSummary`].
#[derive(Debug, Clone, Serialize)]
pub struct JudgeFailing {
    /// The input given to the program.
    pub input: String,
    /// An accepted output.
    pub expected: String,
    /// What the program wrote (invalid UTF-8 replaced), its first 4 KiB.
    pub got: String,
    /// How many bytes the program wrote in all.
    pub got_bytes: usize,
    /// The program's CPU seconds on it, to the millisecond.
    pub seconds: f64,
}

/// `bench sudoku`: one line per file.
#[derive(Debug, Clone, Serialize)]
pub struct BenchLine {
    /// The file's name.
    pub file: String,
    /// Puzzles in it.
    pub puzzles: usize,
    /// Puzzles with at least one solution.
    pub solved: u64,
    /// Seconds of the fastest run, solving only.
    pub seconds: f64,
    /// Puzzles solved per second.
    pub puzzles_per_sec: f64,
    /// Microseconds per puzzle.
    pub us_per_puzzle: f64,
    /// Guesses per puzzle (see [`Outcome::guesses`](crate::sudoku::Outcome::guesses)).
    pub guesses_per_puzzle: f64,
    /// `first`, `lexmin` or `count<=K`.
    pub mode: String,
    /// Solving threads.
    pub threads: usize,
}

/// `trace --json`: one event, with its line of text.
#[derive(Debug, Clone, Serialize)]
pub struct TraceEvent<'a> {
    /// The event's fields.
    #[serde(flatten)]
    pub event: &'a crate::trace::Event,
    /// The event as `backtrack trace` prints it.
    pub line: String,
}

/// `trace --json`: the last line.
#[derive(Debug, Clone, Serialize)]
pub struct TraceSummary {
    /// The whole search's totals.
    pub summary: crate::trace::Summary,
}

/// `x` rounded to `places` decimal places, for figures whose noise
/// digits would only clutter a line.
pub fn rounded(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_name_their_status() {
        assert_eq!(Status::of_count(0, true), Status::NoSolution);
        assert_eq!(Status::of_count(1, true), Status::Unique);
        assert_eq!(Status::of_count(1, false), Status::Solved);
        assert_eq!(Status::of_count(2, true), Status::Multiple);
        assert_eq!(Status::of_count(2, false), Status::Multiple);
    }

    #[test]
    fn status_values_are_snake_case() {
        assert_eq!(serde_json::to_string(&Status::NoSolution).unwrap(), "\"no_solution\"");
        assert_eq!(rounded(1.23456, 3), 1.235);
    }
}
