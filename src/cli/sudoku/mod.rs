//! `backtrack sudoku`: solve, count or enumerate sudoku puzzles ([`solve`]),
//! and the puzzle maker's commands ([`maker`]). Both answer a stream of
//! puzzles through the library's ordered pipeline
//! (`backtrack::sudoku::pipeline`); this module maps its outcome to the
//! exit status.

pub mod maker;
pub mod solve;
pub mod variant;

use std::io::Write;
use std::path::PathBuf;

use backtrack::error::Counted;
use backtrack::sudoku::pipeline::{PipelineError, Tally};
use backtrack::sudoku::Format;

use super::{diag, CliError, CliResult, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// Output format of solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One line of n² symbols per puzzle.
    Line,
    /// n lines of n symbols.
    Grid,
    /// n lines of n numbers separated by spaces.
    Spaced,
}

impl From<OutputFormat> for Format {
    fn from(f: OutputFormat) -> Format {
        match f {
            OutputFormat::Line => Format::Line,
            OutputFormat::Grid => Format::Grid,
            OutputFormat::Spaced => Format::Spaced,
        }
    }
}

/// Solve sudoku puzzles (4x4 to 25x25): any solution, the smallest, a count, or every solution.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    group = clap::ArgGroup::new("count_or_candidates").args(["count", "candidates"]).multiple(false),
    subcommand_negates_reqs = true,
    long_about = "Solve sudoku puzzles (4x4 to 25x25): any solution, the smallest, a count, or every solution.\n\n\
        Input formats are detected: one puzzle per line (81 symbols for 9x9, '.' or '0' for a blank, '#' \
        comment lines and blank lines skipped; 16x16 and 25x25 use 1-9 then A, B, ...), or grids of n lines \
        with or without spaces between digits. Output uses the input's format (a line, a grid, or a grid with spaces; grids drawn with \
        box lines, as QQWing prints them or framed in +---+, are answered as grids with spaces) unless --format \
        says otherwise.\n\n\
        Input is read as a stream and answers are written as puzzles are solved, in input order, so a \
        program can write one puzzle and read its answer before writing the next; memory stays bounded \
        however long the input (lines of at most 64 KiB).\n\n\
        Every puzzle gets exactly one answer, so that answers stay aligned with puzzles: a solution (or a \
        count), '# no solution' for a puzzle without one, and '# error: line L, column C: ...' for a \
        malformed puzzle, whose error also goes to standard error (with --json: an object with status \
        \"invalid\" and the error). Grids in grid formats are separated by a blank line.\n\n\
        Exit status: 0 every puzzle answered; 1 some puzzle has no solution; 2 some puzzle was malformed \
        (with --strict: the run stops at the first one); 3 I/O or resource failure; 130 interrupted.",
    after_help = "Examples:\n  \
        backtrack sudoku examples/sudoku.txt               solve every puzzle, one per line\n  \
        backtrack sudoku --threads 2 puzzles.txt > out.txt  a big batch on two threads\n  \
        backtrack sudoku --count --limit 2 puzzles.txt      uniqueness check: prints 0, 1 or 2+\n  \
        backtrack sudoku --lexmin board.txt                 the lexicographically smallest solution\n  \
        backtrack sudoku --all board.txt | head             every solution, streamed\n  \
        backtrack sudoku --json puzzles.txt                 one JSON object per puzzle\n  \
        backtrack sudoku --count --limit 2 killers.txt      uniqueness of variant puzzles, one per line\n  \
        backtrack sudoku --candidates variant.txt           each cell's true candidates\n  \
        echo 1..4..1.2....3.. | backtrack sudoku --format grid   a 4x4 puzzle, printed as a grid\n  \
        backtrack sudoku generate --count 5 --seed 1       the puzzle maker: generate, rate, explain, hint"
)]
pub struct Args {
    /// The puzzle maker's commands (without one, the FILE arguments are solved).
    #[command(subcommand)]
    pub command: Option<maker::Command>,
    /// Puzzle files (standard input when none is given, or for `-`).
    pub files: Vec<PathBuf>,
    /// Print the lexicographically smallest solution (the 81 digits read row by row as one number).
    #[arg(long, conflicts_with_all = ["count", "all"])]
    pub lexmin: bool,
    /// Print the number of solutions of each puzzle instead of a solution.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// With --count: stop counting at K solutions and print "K+" (--limit 2 checks uniqueness);
    /// with --candidates: count up to K (default 2).
    #[arg(long, value_name = "K", requires = "count_or_candidates", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Print every solution as it is found (nothing is collected in memory).
    #[arg(long)]
    pub all: bool,
    /// Threads, 1 to 1024 (0 or absent: one per core): a batch is shared out by puzzles, answers
    /// staying in input order; a lone puzzle with --count has its search split instead. --all runs
    /// on one thread.
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    pub threads: Option<backtrack::search::Threads>,
    /// Output format (default: the format the puzzles were read in; spaced for grids drawn with box lines).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutputFormat>,
    /// Print one JSON object per puzzle (per solution, then a summary, with --all); docs/json.md has
    /// every field and status.
    #[arg(long)]
    pub json: bool,
    /// Stop at the first malformed puzzle (the puzzles before it are answered).
    #[arg(long)]
    pub strict: bool,
    /// Print the true candidates of each puzzle (the values each cell holds in at least one
    /// solution) and its solutions counted up to --limit (default 2); reads variant puzzles.
    #[arg(long, conflicts_with_all = ["count", "all", "lexmin"])]
    pub candidates: bool,
}

/// Runs `backtrack sudoku`: exit status 2 if any puzzle was malformed, else 1 if any had no solution.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Some(command) => maker::run(command),
        None => match variant::divert(&args) {
            Some(result) => result,
            None => solve::run(args),
        },
    }
}

/// Passes a problem the pipeline met (a malformed puzzle, a file that
/// cannot be read) to standard error.
fn report(problem: &dyn std::fmt::Display) {
    diag!("backtrack: {problem}");
}

/// The exit status of a pipeline's run, once `out` is flushed: 3 if a file
/// could not be read, else 2 if any puzzle was malformed, else 1 if any
/// went without what was asked (no solution); 130 after Ctrl-C, the answers
/// written being above.
fn finish(result: Result<Tally, PipelineError>, out: &mut impl Write) -> CliResult {
    out.flush()?;
    let tally = match result {
        Ok(tally) => tally,
        Err(PipelineError::Write(e)) => return Err(e.into()),
        Err(PipelineError::Strict { name, error }) => return Err(CliError::bad_input(&name, &error)),
        Err(PipelineError::Threads(e)) => return Err(e.into()),
        Err(e @ PipelineError::Reader(_)) => return Err(CliError::Failure(e.to_string())),
    };
    if super::interrupted() {
        return Err(CliError::Interrupted(format!(
            "interrupted after {}; their answers are above",
            Counted(tally.answered as u128, "puzzle")
        )));
    }
    Ok(if tally.failed > 0 {
        super::EXIT_FAILURE
    } else if tally.invalid > 0 {
        EXIT_INPUT
    } else if tally.no_solution > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}
