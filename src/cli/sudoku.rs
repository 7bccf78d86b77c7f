//! `backtrack sudoku`: solve, count or enumerate sudoku puzzles, one or a whole file.
//!
//! Puzzles are read in one pass into one buffer, answered in chunks (on
//! several threads with `--threads`), and each chunk's output is built in its
//! own byte buffer, then written in input order. Every input puzzle gives
//! exactly one answer (a solution, a count, or a placeholder line), so output
//! lines stay aligned with input puzzles.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use backtrack::search::{self, Mode, Order};
use backtrack::sudoku::{self, Batch, Entry, Format, Layout, Solver};

use super::{read_inputs, stdout, CliError, CliResult, Input, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// Text written in place of the answer to a puzzle that has no solution.
pub const NO_SOLUTION_LINE: &str = "# no solution";

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
    long_about = "Solve sudoku puzzles (4x4 to 25x25): any solution, the smallest, a count, or every solution.\n\n\
        Input formats are detected: one puzzle per line (81 symbols for 9x9, '.' or '0' for a blank, '#' \
        comment lines and blank lines skipped; 16x16 and 25x25 use 1-9 then A, B, ...), or grids of n lines \
        with or without spaces between digits. Output uses the input's format unless --format says otherwise.\n\n\
        Answers come in input order, one per well-formed puzzle: a puzzle with no solution prints the line \
        '# no solution' so that answers stay aligned with puzzles. A malformed puzzle prints nothing on standard \
        output; its error, with line and column, goes to standard error and the other puzzles are still solved \
        (with --json it also gets an object with status \"invalid\"). Grids in grid formats are separated by a \
        blank line.\n\n\
        Exit status: 0 all solved; 1 some puzzle has no solution; 2 some puzzle was malformed (with --strict: \
        nothing is solved when any puzzle is malformed).",
    after_help = "Examples:\n  \
        backtrack sudoku examples/sudoku.txt               solve every puzzle, one per line\n  \
        backtrack sudoku --threads 2 puzzles.txt > out.txt  a big batch on two threads\n  \
        backtrack sudoku --count --limit 2 puzzles.txt      uniqueness check: prints 0, 1 or 2+\n  \
        backtrack sudoku --lexmin board.txt                 the lexicographically smallest solution\n  \
        backtrack sudoku --all board.txt | head             every solution, streamed\n  \
        backtrack sudoku --json puzzles.txt                 one JSON object per puzzle\n  \
        echo 1..4..1.2....3.. | backtrack sudoku --format grid   a 4x4 puzzle, printed as a grid"
)]
pub struct Args {
    /// Puzzle files (standard input when none is given, or for `-`).
    pub files: Vec<PathBuf>,
    /// Print the lexicographically smallest solution (the 81 digits read row by row as one number).
    #[arg(long, conflicts_with_all = ["count", "all"])]
    pub lexmin: bool,
    /// Print the number of solutions of each puzzle instead of a solution.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// With --count: stop counting at K solutions and print "K+" (--limit 2 checks uniqueness).
    #[arg(long, value_name = "K", requires = "count", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Print every solution as it is found (nothing is collected in memory).
    #[arg(long)]
    pub all: bool,
    /// Threads (0: one per core): a batch is shared out by puzzles, answers staying in input order; a
    /// single puzzle with --count has its search split instead. --all runs on one thread.
    #[arg(long, short = 't', value_name = "T", default_value_t = 1)]
    pub threads: usize,
    /// Output format (default: the format the puzzles were read in).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutputFormat>,
    /// Print one JSON object per puzzle (per solution, then a summary, with --all).
    #[arg(long)]
    pub json: bool,
    /// Stop at the first malformed puzzle, before solving anything.
    #[arg(long)]
    pub strict: bool,
}

/// Puzzles answered per job: big enough that scheduling costs nothing,
/// small enough that two threads share a file's tail evenly.
const CHUNK: usize = 256;

/// What to answer and how to write it, shared by every chunk.
struct Plan {
    mode: Mode,
    json: bool,
    format: Option<Format>,
}

/// One input file, parsed (or why it could not be).
struct Parsed {
    name: String,
    /// The file name as a JSON string, escaped once.
    name_json: String,
    batch: Result<Batch, backtrack::ParseError>,
}

/// Tallies of a run, for the exit status.
#[derive(Default)]
struct Tally {
    invalid: usize,
    no_solution: usize,
    /// Whether any answer was written yet (the first grid gets no separator).
    wrote_any: bool,
}

/// Runs `backtrack sudoku`: exit status 2 if any puzzle was malformed, else 1 if any had no solution.
pub fn run(args: Args) -> CliResult {
    let mode = if args.lexmin {
        Mode::LexFirst
    } else if args.count {
        Mode::Count { limit: args.limit }
    } else if args.all {
        Mode::All
    } else {
        Mode::First
    };
    let plan = Plan { mode, json: args.json, format: args.format.map(Format::from) };
    let inputs = read_inputs(&args.files)?;
    let parsed: Vec<Parsed> = inputs.iter().map(read_batch).collect();
    if args.strict {
        for p in &parsed {
            match &p.batch {
                Err(e) => return Err(CliError::bad_input(&p.name, e)),
                Ok(batch) => {
                    if let Some(e) = batch.first_error() {
                        return Err(CliError::bad_input(&p.name, e));
                    }
                }
            }
        }
    }
    let mut out = stdout();
    let mut tally = Tally::default();
    let total_entries: usize = parsed.iter().map(|p| p.batch.as_ref().map_or(0, |b| b.entries().len())).sum();
    let threads = (args.threads != 1).then_some(args.threads);
    for p in &parsed {
        let batch = match &p.batch {
            Ok(batch) => batch,
            Err(e) => {
                // An empty or unreadable file is one bad "puzzle" of the run.
                eprintln!("backtrack: {}: {e}", p.name);
                tally.invalid += 1;
                continue;
            }
        };
        if mode == Mode::All {
            answer_all(&mut out, p, batch, &plan, total_entries > 1, &mut tally)?;
        } else {
            answer_batch(&mut out, p, batch, &plan, threads, &mut tally)?;
        }
    }
    out.flush()?;
    Ok(if tally.invalid > 0 {
        EXIT_INPUT
    } else if tally.no_solution > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

fn read_batch(input: &Input) -> Parsed {
    Parsed {
        name: input.name.clone(),
        name_json: serde_json::to_string(&input.name).expect("a string serializes"),
        batch: Batch::parse(&input.text),
    }
}

/// What one chunk produced.
struct ChunkOutput {
    text: Vec<u8>,
    no_solution: usize,
    /// Whether every answer in `text` starts with a separating blank line.
    separated: bool,
}

/// Answers every puzzle of `batch` (any mode but `All`), chunk by chunk, in
/// parallel when `threads` is given (0: one per core), writing the chunks in input order.
fn answer_batch(
    out: &mut impl Write,
    parsed: &Parsed,
    batch: &Batch,
    plan: &Plan,
    threads: Option<usize>,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let entries = batch.entries();
    let box_size = batch.layout().box_size;
    let mut emit = |out: &mut dyn Write, chunk_index: usize, output: ChunkOutput| -> Result<(), CliError> {
        let start = chunk_index * CHUNK;
        for entry in &entries[start..(start + CHUNK).min(entries.len())] {
            if let Err(e) = &entry.result {
                eprintln!("backtrack: {}: {e}", parsed.name);
                tally.invalid += 1;
            }
        }
        tally.no_solution += output.no_solution;
        let skip = (output.separated && !tally.wrote_any && !output.text.is_empty()) as usize;
        out.write_all(&output.text[skip..])?;
        tally.wrote_any |= !output.text.is_empty();
        Ok(())
    };
    let chunks: Vec<&[Entry]> = entries.chunks(CHUNK).collect();
    if let (Some(threads), Mode::Count { .. }, 1) = (threads, plan.mode, entries.len()) {
        // One puzzle to count: split its search tree across the threads instead.
        let output = answer_chunk(&mut Solver::new(box_size), parsed, batch, plan, 0, Some(threads));
        return emit(out, 0, output);
    }
    match threads {
        None => {
            let mut solver = Solver::new(box_size);
            for i in 0..chunks.len() {
                let output = answer_chunk(&mut solver, parsed, batch, plan, i * CHUNK, None);
                emit(out, i, output)?;
            }
        }
        Some(threads) => {
            // Jobs are handed out one chunk at a time and their outputs come
            // back to this thread as they finish, so writing overlaps solving;
            // finished chunks wait here until every earlier one is written.
            let failed = AtomicBool::new(false);
            let mut error: Option<CliError> = None;
            let mut pending: Vec<Option<ChunkOutput>> = (0..chunks.len()).map(|_| None).collect();
            let mut next = 0;
            let starts: Vec<usize> = (0..chunks.len()).map(|i| i * CHUNK).collect();
            search::run_jobs(
                threads,
                &starts,
                |_| failed.load(Ordering::Relaxed),
                |_, &start| answer_chunk(&mut Solver::new(box_size), parsed, batch, plan, start, None),
                |i, output| {
                    pending[i] = Some(output);
                    while next < pending.len() && error.is_none() {
                        let Some(output) = pending[next].take() else { break };
                        if let Err(e) = emit(out, next, output) {
                            failed.store(true, Ordering::Relaxed);
                            error = Some(e);
                        }
                        next += 1;
                    }
                },
            );
            if let Some(e) = error {
                return Err(e);
            }
        }
    }
    Ok(())
}

/// Answers one chunk of puzzles into a byte buffer. `start` is the index of
/// the chunk's first puzzle in `batch`. With `split_threads`, counts are
/// computed by splitting each puzzle's search across that many threads.
fn answer_chunk(
    solver: &mut Solver,
    parsed: &Parsed,
    batch: &Batch,
    plan: &Plan,
    start: usize,
    split_threads: Option<usize>,
) -> ChunkOutput {
    let chunk = &batch.entries()[start..(start + CHUNK).min(batch.entries().len())];
    let layout = batch.layout();
    let format = plan.format.unwrap_or(layout.format);
    let area = layout.box_size.pow(4);
    let mut solution = vec![0u8; area];
    let mut text = Vec::with_capacity(chunk.len() * (area + 2));
    let mut no_solution = 0;
    // Grids are separated by a blank line, written before each one; the
    // writer drops the run's very first one.
    let separated = !plan.json && format != Format::Line && !matches!(plan.mode, Mode::Count { .. });
    for (k, entry) in chunk.iter().enumerate() {
        let index = start + k;
        let slot = match &entry.result {
            Ok(slot) => *slot,
            Err(e) => {
                if plan.json {
                    json_head(&mut text, parsed, entry, index);
                    let error = serde_json::to_string(&e.to_string()).expect("a string serializes");
                    let _ = writeln!(text, ",\"status\":\"invalid\",\"error\":{error}}}");
                }
                continue;
            }
        };
        if separated {
            text.push(b'\n');
        }
        let solved = match (split_threads, plan.mode) {
            (Some(threads), Mode::Count { limit }) => {
                let cells = batch.cells(slot);
                let count = solver.par_count(cells, limit, threads);
                // The count came from the split search; one quick solve gives a solution to show.
                let first = solver.solve(cells, Mode::First, &mut solution);
                sudoku::Solved { count, guesses: first.guesses }
            }
            _ => solver.solve(batch.cells(slot), plan.mode, &mut solution),
        };
        if solved.count == 0 {
            no_solution += 1;
        }
        if plan.json {
            json_head(&mut text, parsed, entry, index);
            write_json_answer(&mut text, plan.mode, solved, &solution);
        } else if let Mode::Count { limit } = plan.mode {
            let _ = write!(text, "{}", solved.count);
            if limit == Some(solved.count) {
                text.push(b'+');
            }
            text.push(b'\n');
        } else if solved.count == 0 {
            text.extend_from_slice(NO_SOLUTION_LINE.as_bytes());
            text.push(b'\n');
        } else {
            sudoku::write_cells(&mut text, layout.box_size, &solution, format);
        }
    }
    ChunkOutput { text, no_solution, separated }
}

fn json_head(text: &mut Vec<u8>, parsed: &Parsed, entry: &Entry, index: usize) {
    let _ = write!(text, "{{\"file\":{},\"line\":{},\"index\":{}", parsed.name_json, entry.line, index);
}

fn write_json_answer(text: &mut Vec<u8>, mode: Mode, solved: sudoku::Solved, solution: &[u8]) {
    let status = match mode {
        _ if solved.count == 0 => "no_solution",
        Mode::Count { limit } => {
            let complete = limit != Some(solved.count);
            match solved.count {
                1 if complete => "unique",
                1 => "solved",
                _ => "multiple",
            }
        }
        _ => "solved",
    };
    let _ = write!(text, ",\"status\":\"{status}\"");
    if let Mode::Count { limit } = mode {
        let _ = write!(text, ",\"count\":{},\"limit_reached\":{}", solved.count, limit == Some(solved.count));
    }
    if solved.count > 0 {
        text.extend_from_slice(b",\"solution\":\"");
        text.extend(solution.iter().map(|&v| sudoku::symbol(v)));
        text.push(b'"');
    }
    let _ = writeln!(text, ",\"guesses\":{}}}", solved.guesses);
}

/// `--all`: streams every solution of every puzzle of `batch`, one puzzle at a time.
fn answer_all(
    out: &mut impl Write,
    parsed: &Parsed,
    batch: &Batch,
    plan: &Plan,
    several_puzzles: bool,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let layout = batch.layout();
    let format = plan.format.unwrap_or(layout.format);
    let mut solver = Solver::new(layout.box_size);
    let mut text = Vec::new();
    for (index, entry) in batch.entries().iter().enumerate() {
        let slot = match &entry.result {
            Ok(slot) => *slot,
            Err(e) => {
                eprintln!("backtrack: {}: {e}", parsed.name);
                tally.invalid += 1;
                if plan.json {
                    json_head(&mut text, parsed, entry, index);
                    let error = serde_json::to_string(&e.to_string()).expect("a string serializes");
                    let _ = writeln!(text, ",\"status\":\"invalid\",\"error\":{error}}}");
                }
                out.write_all(&text)?;
                text.clear();
                continue;
            }
        };
        let mut failure: Option<std::io::Error> = None;
        let solved = solver.for_each(batch.cells(slot), Order::Heuristic, |solution| {
            text.clear();
            if plan.json {
                json_head(&mut text, parsed, entry, index);
                text.extend_from_slice(b",\"solution\":\"");
                text.extend(solution.iter().map(|&v| sudoku::symbol(v)));
                text.extend_from_slice(b"\"}\n");
            } else {
                if tally.wrote_any && format != Format::Line {
                    text.push(b'\n');
                }
                sudoku::write_cells(&mut text, layout.box_size, solution, format);
            }
            tally.wrote_any = true;
            match out.write_all(&text) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(e) = failure {
            return Err(e.into());
        }
        text.clear();
        if solved.count == 0 {
            tally.no_solution += 1;
        }
        if plan.json {
            json_head(&mut text, parsed, entry, index);
            let status = if solved.count == 0 { "no_solution" } else { "solved" };
            let _ =
                writeln!(text, ",\"status\":\"{status}\",\"count\":{},\"guesses\":{}}}", solved.count, solved.guesses);
        } else if solved.count == 0 {
            text.extend_from_slice(NO_SOLUTION_LINE.as_bytes());
            text.push(b'\n');
        } else if several_puzzles {
            let _ = writeln!(text, "# {} line {}: {} solutions", parsed.name, entry.line, solved.count);
        }
        out.write_all(&text)?;
        text.clear();
    }
    Ok(())
}

/// Judge-exact solution of BOJ problem `id`: 2580 (spaced grid, any
/// solution) or 2239 (unspaced grid, the smallest solution).
pub fn boj(id: u32, input: &Input, out: &mut dyn Write) -> Result<(), CliError> {
    let (format, mode) = match id {
        2580 => (Format::Spaced, Mode::First),
        2239 => (Format::Grid, Mode::LexFirst),
        _ => return Err(CliError::Failure(format!("problem {id} is not a sudoku problem"))),
    };
    let puzzle = sudoku::parse_as(&input.text, Layout { format, box_size: 3 })
        .map_err(|e| CliError::bad_input(&input.name, &e))?;
    let outcome = sudoku::solve(&puzzle, mode);
    let Some(solution) = outcome.solution else {
        return Err(CliError::NoSolution(format!("{}: the puzzle has no solution", input.name)));
    };
    let mut text = Vec::with_capacity(200);
    sudoku::write_cells(&mut text, 3, &solution, format);
    out.write_all(&text)?;
    Ok(())
}
