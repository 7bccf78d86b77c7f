//! `backtrack sudoku`: solve, count or enumerate sudoku puzzles, one or a whole file.
//!
//! A reading thread turns the input into batches of puzzles (see
//! [`stream::Reader`]: bounded memory whatever the input's length); the
//! batches are answered in chunks (on several threads with `--threads`, a
//! bounded window of chunks at a time), and each chunk's output is built in
//! its own byte buffer, then written in input order. Output is flushed
//! whenever no input is ready, so a program feeding puzzles one by one gets
//! each answer at once. Every input puzzle gives exactly one answer (a
//! solution, a count, `# no solution` or `# error: ...`), so output lines stay
//! aligned with input puzzles.

use std::collections::VecDeque;
use std::io::Write;
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use backtrack::search::{self, Mode, Order};
use backtrack::sudoku::answer::{self, Head, Invalid, Solve, Status};
use backtrack::sudoku::stream::{self, StreamError};
use backtrack::sudoku::{self, Batch, Entry, Format, Layout, Solver};

use backtrack::error::Counted;

use super::{diag, stdout, CliError, CliResult, Input, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// Text written in place of the answer to a puzzle that has no solution.
pub const NO_SOLUTION_LINE: &str = "# no solution";

/// What the answer to a malformed puzzle starts with (the error follows).
pub const ERROR_PREFIX: &str = "# error: ";

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
    subcommand_negates_reqs = true,
    group = clap::ArgGroup::new("count_or_candidates").args(["count", "candidates"]).multiple(false),
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
    pub command: Option<super::maker::Command>,
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

/// Puzzles answered per job: big enough that scheduling costs nothing,
/// small enough that two threads share a file's tail evenly.
const CHUNK: usize = 256;

/// Jobs in flight per thread: enough to keep every thread busy while the
/// calling thread writes, few enough to bound the answers held in memory.
const JOBS_PER_THREAD: usize = 4;

/// What to answer and how to write it, shared by every chunk.
#[derive(Clone, Copy)]
struct Plan {
    mode: Mode,
    json: bool,
    format: Option<Format>,
}

/// One input file: its name, and a batch of its puzzles.
pub(super) struct Part {
    pub(super) name: String,
    pub(super) batch: Batch,
    /// Index in the file of the batch's first puzzle.
    pub(super) first_index: usize,
}

/// Tallies of a run, for the exit status.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) invalid: usize,
    pub(super) no_solution: usize,
    /// Files that could not be read.
    pub(super) failed: usize,
    /// Whether any answer was written yet (the first grid gets no separator).
    wrote_any: bool,
    /// Puzzles answered.
    pub(super) answered: usize,
}

/// What the reading thread hands over.
pub(super) enum Message {
    /// Puzzles read.
    Batch(Part),
    /// A file that cannot be read on, and why.
    Failed(CliError),
}

/// Runs `backtrack sudoku`: exit status 2 if any puzzle was malformed, else 1 if any had no solution.
pub fn run(args: Args) -> CliResult {
    if let Some(command) = args.command {
        return super::maker::run(command);
    }
    if let Some(result) = super::variant::divert(&args) {
        return result;
    }
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
    let rx = start_reading(&args.files)?;
    let mut out = stdout();
    let mut tally = Tally::default();
    let threads = search::effective_threads(args.threads.unwrap_or_default().get());
    let result = if mode == Mode::All || threads == 1 {
        answer_in_turn(&rx, &mut out, &plan, args.strict, &mut tally)
    } else {
        answer_on_threads(&rx, &mut out, &plan, args.strict, threads, &mut tally)
    };
    out.flush()?;
    result?;
    tally.check_interrupted()?;
    Ok(tally.exit_code())
}

impl Tally {
    /// After Ctrl-C, the error that ends the run (the answers written are above).
    pub(super) fn check_interrupted(&self) -> Result<(), CliError> {
        if super::interrupted() {
            return Err(CliError::Interrupted(format!(
                "interrupted after {}; their answers are above",
                Counted(self.answered as u128, "puzzle")
            )));
        }
        Ok(())
    }

    /// The exit status of a run: 3 if a file could not be read, else 2 if
    /// any puzzle was malformed, else 1 if any went unanswered (no solution).
    pub(super) fn exit_code(&self) -> i32 {
        if self.failed > 0 {
            super::EXIT_FAILURE
        } else if self.invalid > 0 {
            EXIT_INPUT
        } else if self.no_solution > 0 {
            EXIT_NO_SOLUTION
        } else {
            EXIT_OK
        }
    }
}

/// Starts the thread that reads and parses `files` (standard input for
/// none), a few batches ahead of the receiver.
pub(super) fn start_reading(files: &[PathBuf]) -> Result<mpsc::Receiver<Message>, CliError> {
    let files: Vec<Option<PathBuf>> =
        if files.is_empty() { vec![None] } else { files.iter().cloned().map(Some).collect() };
    let (tx, rx) = mpsc::sync_channel::<Message>(2);
    std::thread::Builder::new()
        .name("read".into())
        .spawn(move || read_files(&files, &tx))
        .map_err(|e| CliError::Failure(format!("cannot start the reading thread: {e}")))?;
    Ok(rx)
}

/// The reading thread: every file in turn, batch by batch, until the
/// receiver hangs up.
fn read_files(files: &[Option<PathBuf>], tx: &mpsc::SyncSender<Message>) {
    for file in files {
        let name = super::input_name(file.as_ref());
        let source = match super::open_input(file.as_ref()) {
            Ok(source) => source,
            Err(e) => {
                if tx.send(Message::Failed(e)).is_err() {
                    return;
                }
                continue;
            }
        };
        let mut reader = stream::Reader::new(source);
        let mut first_index = 0;
        while let Some(next) = reader.next_batch() {
            let message = match next {
                Ok(batch) => {
                    let part = Part { name: name.clone(), batch, first_index };
                    first_index += part.batch.entries().len();
                    Message::Batch(part)
                }
                Err(StreamError::Io(e)) => Message::Failed(CliError::Failure(format!("{name}: cannot read: {e}"))),
                Err(e) => Message::Failed(CliError::Input(format!("{name}: {e}"))),
            };
            if tx.send(message).is_err() {
                return;
            }
        }
    }
}

/// Waits for the next message, flushing `out` first when none is ready (so
/// that a program feeding puzzles one at a time gets each answer at once).
/// `None` at the end of the input, or after Ctrl-C.
pub(super) fn next_message(rx: &mpsc::Receiver<Message>, out: &mut impl Write) -> Result<Option<Message>, CliError> {
    match rx.try_recv() {
        Ok(message) => return Ok(Some(message)),
        Err(mpsc::TryRecvError::Disconnected) => return Ok(None),
        Err(mpsc::TryRecvError::Empty) => out.flush()?,
    }
    loop {
        if super::interrupted() {
            return Ok(None);
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(message) => return Ok(Some(message)),
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// Records a file that cannot be read on.
pub(super) fn failed(error: CliError, tally: &mut Tally) {
    diag!("backtrack: {error}");
    match error.exit_code() {
        EXIT_INPUT => tally.invalid += 1,
        _ => tally.failed += 1,
    }
}

/// The end of a batch's entries to answer: all of them, or with `strict`
/// those before the first malformed one.
fn strict_end(batch: &Batch, strict: bool) -> usize {
    let entries = batch.entries();
    if strict {
        entries.iter().position(|e| e.result.is_err()).unwrap_or(entries.len())
    } else {
        entries.len()
    }
}

/// Answers every batch on this thread, in turn.
fn answer_in_turn(
    rx: &mpsc::Receiver<Message>,
    out: &mut impl Write,
    plan: &Plan,
    strict: bool,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let mut solver: Option<Solver> = None;
    while let Some(message) = next_message(rx, out)? {
        let part = match message {
            Message::Batch(part) => part,
            Message::Failed(e) => {
                failed(e, tally);
                continue;
            }
        };
        let box_size = part.batch.layout().box_size;
        let solver = match &mut solver {
            Some(s) if s.box_size() == box_size => s,
            _ => solver.insert(Solver::new(box_size)),
        };
        let end = strict_end(&part.batch, strict);
        if plan.mode == Mode::All {
            answer_all(out, &part, end, plan, tally)?;
        } else {
            let mut start = 0;
            while start < end {
                let stop = (start + CHUNK).min(end);
                let output = answer_chunk(solver, &part, start..stop, plan, None);
                emit(out, &part, start..stop, output, tally)?;
                start = stop;
                if super::interrupted() {
                    return Ok(());
                }
            }
        }
        if end < part.batch.entries().len() {
            return stop_strict(&part, end);
        }
    }
    Ok(())
}

/// The error that ends a `--strict` run at entry `at` of `part`.
fn stop_strict(part: &Part, at: usize) -> Result<(), CliError> {
    let e = part.batch.entries()[at].result.as_ref().expect_err("a malformed entry");
    Err(CliError::bad_input(&part.name, e))
}

/// One job for the threads: a range of one batch's puzzles.
struct Job {
    part: Arc<Part>,
    range: Range<usize>,
    /// Split the lone puzzle's search over the threads instead.
    split: bool,
}

/// Answers the batches on `threads` threads, a bounded window of jobs at a
/// time, writing the answers in input order as they come back.
fn answer_on_threads(
    rx: &mpsc::Receiver<Message>,
    out: &mut impl Write,
    plan: &Plan,
    strict: bool,
    threads: usize,
    tally: &mut Tally,
) -> Result<(), CliError> {
    let pool = search::thread_pool(threads);
    let window = threads * JOBS_PER_THREAD;
    let (done_tx, done_rx) = mpsc::channel::<(u64, ChunkOutput)>();
    // Jobs waiting to start; then everything to write, in input order: the
    // jobs started (with their answers once back) and the files that failed.
    let mut queued: VecDeque<Job> = VecDeque::new();
    let mut to_write: VecDeque<(Pending, Option<ChunkOutput>)> = VecDeque::new();
    let mut first_id = 0u64;
    let mut in_flight = 0usize;
    let mut input_done = false;
    // A malformed puzzle that ends a --strict run, once the answers before it are written.
    let mut strict_stop: Option<(Arc<Part>, usize)> = None;
    loop {
        while to_write.len() < window {
            let Some(job) = queued.pop_front() else { break };
            let id = first_id + to_write.len() as u64;
            to_write.push_back((Pending::Job(job.part.clone(), job.range.clone()), None));
            in_flight += 1;
            let (done_tx, plan) = (done_tx.clone(), *plan);
            pool.spawn(move || {
                let box_size = job.part.batch.layout().box_size;
                let split = job.split.then_some(threads);
                let output = answer_chunk(&mut Solver::new(box_size), &job.part, job.range, &plan, split);
                // The receiver is gone only when the run has stopped.
                let _ = done_tx.send((id, output));
            });
        }
        if queued.is_empty() && !input_done && strict_stop.is_none() {
            let message = if in_flight == 0 {
                let message = next_message(rx, out)?;
                input_done = message.is_none();
                message
            } else {
                match rx.try_recv() {
                    Ok(message) => Some(message),
                    Err(mpsc::TryRecvError::Empty) => None,
                    Err(mpsc::TryRecvError::Disconnected) => {
                        input_done = true;
                        None
                    }
                }
            };
            match message {
                Some(Message::Batch(part)) => {
                    let end = strict_end(&part.batch, strict);
                    let part = Arc::new(part);
                    // A lone puzzle with nothing else to do: split its count over the threads.
                    let split = matches!(plan.mode, Mode::Count { .. }) && end == 1 && in_flight == 0;
                    for start in (0..end).step_by(CHUNK) {
                        queued.push_back(Job { part: part.clone(), range: start..(start + CHUNK).min(end), split });
                    }
                    if end < part.batch.entries().len() {
                        strict_stop = Some((part, end));
                    }
                    continue;
                }
                Some(Message::Failed(e)) if to_write.is_empty() => failed(e, tally),
                Some(Message::Failed(e)) => to_write.push_back((Pending::Failed(e), None)),
                None => {}
            }
        }
        if in_flight > 0 {
            let (id, output) = done_rx.recv().expect("a job in flight sends its answers");
            in_flight -= 1;
            to_write[(id - first_id) as usize].1 = Some(output);
        }
        // Write what is ready, in order.
        while let Some((pending, output)) = to_write.front_mut() {
            match pending {
                Pending::Job(..) if output.is_none() => break,
                _ => {}
            }
            let (pending, output) = to_write.pop_front().expect("checked");
            first_id += 1;
            match (pending, output) {
                (Pending::Job(part, range), Some(output)) => emit(out, &part, range, output, tally)?,
                (Pending::Failed(e), _) => failed(e, tally),
                (Pending::Job(..), None) => unreachable!("checked above"),
            }
        }
        if super::interrupted() {
            queued.clear();
            input_done = true;
        }
        if in_flight == 0 && queued.is_empty() && to_write.is_empty() && (input_done || strict_stop.is_some()) {
            break;
        }
    }
    if let Some((part, at)) = strict_stop {
        return stop_strict(&part, at);
    }
    Ok(())
}

/// Something to write in its turn.
enum Pending {
    /// The answers to a range of a batch's puzzles.
    Job(Arc<Part>, Range<usize>),
    /// A file that could not be read on.
    Failed(CliError),
}

/// What one chunk produced.
struct ChunkOutput {
    text: Vec<u8>,
    no_solution: usize,
    /// Whether every answer in `text` starts with a separating blank line.
    separated: bool,
}

/// Writes one chunk's answers, and reports its malformed puzzles on standard error.
fn emit(
    out: &mut impl Write,
    part: &Part,
    range: Range<usize>,
    output: ChunkOutput,
    tally: &mut Tally,
) -> Result<(), CliError> {
    for entry in &part.batch.entries()[range.clone()] {
        if let Err(e) = &entry.result {
            diag!("backtrack: {}: {e}", part.name);
            tally.invalid += 1;
        }
    }
    tally.no_solution += output.no_solution;
    tally.answered += range.len();
    let skip = (output.separated && !tally.wrote_any && !output.text.is_empty()) as usize;
    out.write_all(&output.text[skip..])?;
    tally.wrote_any |= !output.text.is_empty();
    Ok(())
}

/// Answers puzzles `range` of `part` into a byte buffer. With
/// `split_threads`, counts are computed by splitting each puzzle's search
/// across that many threads.
fn answer_chunk(
    solver: &mut Solver,
    part: &Part,
    range: Range<usize>,
    plan: &Plan,
    split_threads: Option<usize>,
) -> ChunkOutput {
    let batch = &part.batch;
    let start = range.start;
    let chunk = &batch.entries()[range];
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
        let index = part.first_index + start + k;
        let slot = match &entry.result {
            Ok(slot) => *slot,
            Err(e) => {
                write_invalid(&mut text, part, entry, index, e, plan.json, separated);
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
            write_json_answer(&mut text, part.head(entry, index, Status::Solved), plan.mode, solved, &solution);
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

/// The answer to a malformed puzzle: `# error: ...` (after the blank line
/// that separates grids), or a JSON object with status "invalid".
pub(super) fn write_invalid(
    text: &mut Vec<u8>,
    part: &Part,
    entry: &Entry,
    index: usize,
    error: &backtrack::ParseError,
    json: bool,
    separated: bool,
) {
    if json {
        answer::write_line(text, &Invalid { head: part.head(entry, index, Status::Invalid), error: error.to_string() });
    } else {
        if separated {
            text.push(b'\n');
        }
        let _ = writeln!(text, "{ERROR_PREFIX}{error}");
    }
}

impl Part {
    /// The head of the JSON answer to `entry`, puzzle `index` of the input.
    pub(super) fn head(&self, entry: &Entry, index: usize, status: Status) -> Head<'_> {
        Head { file: &self.name, line: entry.line, index, status }
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
    let answer = Solve {
        head: Head { status, ..head },
        solutions,
        complete,
        solution: (solved.count > 0).then(|| solution_field(solution)),
        guesses: Some(solved.guesses),
    };
    answer::write_line(text, &answer);
}

/// `--all`: streams every solution of the first `end` puzzles of `part`, one puzzle at a time.
fn answer_all(out: &mut impl Write, part: &Part, end: usize, plan: &Plan, tally: &mut Tally) -> Result<(), CliError> {
    let batch = &part.batch;
    let layout = batch.layout();
    let format = plan.format.unwrap_or(layout.format);
    let mut solver = Solver::new(layout.box_size);
    let mut text = Vec::new();
    for (k, entry) in batch.entries()[..end].iter().enumerate() {
        let index = part.first_index + k;
        tally.answered += 1;
        let slot = match &entry.result {
            Ok(slot) => *slot,
            Err(e) => {
                diag!("backtrack: {}: {e}", part.name);
                tally.invalid += 1;
                let separated = !plan.json && tally.wrote_any && format != Format::Line;
                write_invalid(&mut text, part, entry, index, e, plan.json, separated);
                tally.wrote_any = true;
                out.write_all(&text)?;
                text.clear();
                continue;
            }
        };
        let mut failure: Option<std::io::Error> = None;
        let solved = solver.for_each(batch.cells(slot), Order::Heuristic, |solution| {
            text.clear();
            if plan.json {
                let answer = Solve {
                    head: part.head(entry, index, Status::Solution),
                    solutions: None,
                    complete: None,
                    solution: Some(solution_field(solution)),
                    guesses: None,
                };
                answer::write_line(&mut text, &answer);
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
            // Every solution was listed: the count is complete.
            let answer = Solve {
                head: part.head(entry, index, Status::of_count(solved.count, true)),
                solutions: Some(solved.count),
                complete: Some(true),
                solution: None,
                guesses: Some(solved.guesses),
            };
            answer::write_line(&mut text, &answer);
        } else if solved.count == 0 {
            if tally.wrote_any && format != Format::Line {
                text.push(b'\n');
            }
            text.extend_from_slice(NO_SOLUTION_LINE.as_bytes());
            text.push(b'\n');
            tally.wrote_any = true;
        } else if index > 0 || batch.entries().len() > 1 {
            // Several puzzles: say where one's solutions end.
            let _ = writeln!(text, "# {} line {}: {}", part.name, entry.line, Counted(solved.count.into(), "solution"));
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
        // The problem promises a solvable puzzle: one without is input out of its range.
        return Err(CliError::Input(format!("{}: the puzzle has no solution (the problem promises one)", input.name)));
    };
    let mut text = Vec::with_capacity(200);
    sudoku::write_cells(&mut text, 3, &solution, format);
    out.write_all(&text)?;
    Ok(())
}
