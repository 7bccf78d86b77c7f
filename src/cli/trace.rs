//! `backtrack trace`: the search event by event, one line per event,
//! indented by depth, then a summary line.

use std::io::Write;

use backtrack::json;
use backtrack::lang::{Lang, Message};
use backtrack::trace::{self, Event, Problem, Strategy};

use backtrack::sudoku::stream::{self, StreamError};

use backtrack::error::Counted;

use super::{stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Watch a search event by event: every try, rejection, undo, dead end and solution.
///
/// One line per event, indented two spaces per choice above it, so the output reads like the
/// search tree. The last line is a summary: the number of solutions and the nodes (choices tried,
/// rejected ones included) of the naive and the smart search. Each search stops counting at 20
/// million nodes; the summary then says so and gives the count as a lower bound ("stopped after
/// 20000000 nodes: at least N solutions"). `naive` is the textbook search
/// (sudoku: first empty cell in row-major order, digits from the smallest, each checked against
/// its row, column and box; queens: every column of the next row); `smart` is the library's
/// (sudoku: the cell with the fewest candidates, with propagation; queens: safe columns only).
/// Three judge problems are traced the same way, a learner's first search against the library's
/// cuts: 14888 (every order of the operator cards; smart: equal operators are one choice, and a
/// value inside the range already walked from the same operators is cut), 1759 (every combination,
/// checked when full; smart: letters that cannot complete the counts are cut) and 1987 (every
/// neighbour, a passed letter rejected; smart: new letters only, and a walk that cannot beat the
/// best is cut). Their solutions are the complete expressions, passwords and walks that cannot go
/// on; the summary adds the answer (14888's extremes, 1987's longest walk). With --lang ko every
/// line is in Korean.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    backtrack trace queens 4 --order naive       the 4-queens tree, every column tried\n  \
    backtrack trace queens 8 --limit 30          the first 30 events of 8-queens\n  \
    backtrack trace sudoku --order naive p.txt   the row-major search of a puzzle file\n  \
    backtrack trace sudoku 1..4..1.2....3..      a puzzle given inline (here a 4x4 one)\n  \
    backtrack trace choose comb 4 2 --json       one JSON object per event\n  \
    backtrack trace boj 1987 letters.txt --order naive  a learner's first search of a 1987 input")]
pub struct Args {
    #[command(subcommand)]
    pub problem: ProblemArgs,
    /// Print at most K events (the summary still covers the whole search).
    #[arg(long, value_name = "K", global = true)]
    pub limit: Option<u64>,
    /// One JSON object per line: each event (with its text as "line"), then {"summary": ...}.
    #[arg(long, global = true)]
    pub json: bool,
    #[arg(long, global = true, value_name = "LANG", value_parser = super::parse_lang, help = super::lang_help!())]
    pub lang: Option<Lang>,
}

/// The problem to trace.
#[derive(clap::Subcommand, Debug)]
pub enum ProblemArgs {
    /// N queens on an NxN board (N from 1 to 20).
    Queens {
        /// Board size.
        n: usize,
        /// Which search to follow.
        #[arg(long, value_enum, default_value = "smart")]
        order: Order,
    },
    /// One sudoku puzzle (4x4 to 25x25).
    Sudoku {
        /// Which search to follow.
        #[arg(long, value_enum, default_value = "smart")]
        order: Order,
        /// The puzzle inline (one line of cells, '.' or '0' for blanks), or a file holding it
        /// ('-' or nothing: standard input).
        puzzle: Option<String>,
    },
    /// Permutations or combinations of M numbers out of 1..N (N up to 50).
    Choose {
        /// perm: permutations, any order; comb: combinations, increasing (each number once: the
        /// repetitions of `backtrack choose --repeat` are not traced).
        #[arg(value_enum, hide_possible_values = true)]
        kind: super::choose::Kind,
        /// Numbers to choose from: 1..N.
        n: u64,
        /// Length of the sequences.
        m: usize,
    },
    /// A judge problem's input: 14888 (N up to 11), 1759 or 1987 (R and C up to 20).
    Boj {
        /// The problem's number.
        id: u32,
        /// Which search to follow.
        #[arg(long, value_enum, default_value = "smart")]
        order: Order,
        /// The input as the judge gives it, in a file ('-' or nothing: standard input).
        input: Option<std::path::PathBuf>,
    },
}

/// Which search a trace follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// The textbook search: every alternative in order, checked against the constraints.
    Naive,
    /// The library's search.
    Smart,
}

/// Runs `backtrack trace`; its errors speak `lang`.
pub fn run(args: Args, lang: Lang) -> CliResult {
    let (problem, strategy) = match args.problem {
        ProblemArgs::Queens { n, order } => (Problem::Queens { n }, order),
        ProblemArgs::Sudoku { order, puzzle } => (sudoku_problem(puzzle, lang)?, order),
        ProblemArgs::Choose { kind, n, m } => {
            (Problem::Choose { combinations: kind == super::choose::Kind::Comb, n, m }, Order::Smart)
        }
        ProblemArgs::Boj { id, order, input } => (boj_problem(id, input, lang)?, order),
    };
    problem.check_in(lang).map_err(CliError::Input)?;
    let strategy = match strategy {
        Order::Naive => Strategy::Naive,
        Order::Smart => Strategy::Smart,
    };
    let mut out = stdout();
    let mut failed = None;
    let mut events = 0u64;
    trace::run_in(&problem, strategy, lang, 0, args.limit.unwrap_or(u64::MAX), |event| {
        if super::interrupted() {
            super::exit_interrupted(&mut out, &Counted(events.into(), "event").to_string());
        }
        events += 1;
        if failed.is_none() {
            failed = write_event(&mut out, event, args.json).err();
        }
    });
    if let Some(err) = failed {
        return Err(err.into());
    }
    let summary = trace::summary(&problem);
    if args.json {
        let mut line = Vec::new();
        json::write_line(&mut line, &json::TraceSummary { summary });
        out.write_all(&line)?;
    } else {
        writeln!(out, "{}", summary.text(lang))?;
    }
    out.flush()?;
    Ok(if summary.solutions > 0 { EXIT_OK } else { EXIT_NO_SOLUTION })
}

fn write_event(out: &mut impl Write, event: &Event, json: bool) -> std::io::Result<()> {
    if json {
        let mut line = Vec::new();
        json::write_line(&mut line, &json::TraceEvent { event, line: event.to_string() });
        out.write_all(&line)
    } else {
        writeln!(out, "{event}")
    }
}

/// The judge problem `id` with the input in `file` (or standard input).
fn boj_problem(id: u32, file: Option<std::path::PathBuf>, lang: Lang) -> Result<Problem, CliError> {
    let list = trace::BOJ_PROBLEMS.map(|id| id.to_string()).join("\n");
    if Problem::from_boj(id, "").is_none() {
        return Err(CliError::Input(lang.say(Message::BojUnsupported { id, list: &list })));
    }
    let input = super::read_input(file.as_ref())?;
    Problem::from_boj(id, &input.text)
        .expect("a problem the trace follows")
        .map_err(|err| CliError::bad_input(&input.name, &err))
}

/// The puzzle given inline, or read from a file or standard input.
fn sudoku_problem(puzzle: Option<String>, lang: Lang) -> Result<Problem, CliError> {
    let inline = puzzle.as_deref().filter(|text| {
        text.len() >= 16
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
            && !std::path::Path::new(text).exists()
    });
    if let Some(text) = inline {
        let puzzle = backtrack::sudoku::parse(text).map_err(|err| CliError::bad_input("<argument>", &err))?;
        return Ok(Problem::Sudoku { box_size: puzzle.box_size(), cells: puzzle.cells().to_vec() });
    }
    // A file or standard input is read as `backtrack sudoku` reads it: a
    // stream with a bound on the line length, whatever its size.
    let file = puzzle.map(std::path::PathBuf::from);
    let name = super::input_name(file.as_ref());
    let mut reader = stream::Reader::new(super::open_input(file.as_ref())?);
    let mut problem = None;
    while let Some(batch) = reader.next_batch() {
        let batch = batch.map_err(|e| match e {
            StreamError::Io(e) => CliError::Failure(format!("{name}: cannot read: {e}")),
            e => CliError::Input(format!("{name}: {e}")),
        })?;
        for entry in batch.entries() {
            let slot = entry.result.as_ref().map_err(|err| CliError::bad_input(&name, err))?;
            if problem.is_some() {
                return Err(CliError::Input(lang.say(Message::SecondPuzzle { source: &name, line: entry.line })));
            }
            let cells = batch.cells(*slot).to_vec();
            problem = Some(Problem::Sudoku { box_size: batch.layout().box_size, cells });
        }
    }
    problem.ok_or_else(|| CliError::Input(lang.say(Message::NoPuzzle { source: &name })))
}
