//! `backtrack bench`: in-process benchmarks that time only the solving.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use backtrack::json;
use backtrack::search::{self, Feed, Mode, Threads};
use backtrack::sudoku::{self, Batch, Solver};
use backtrack::variant;

use super::{read_inputs, stdout, CliError, CliResult, Input, EXIT_OK};

/// Benchmark a solver in-process: time only the solving, print one JSON line per input.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub target: Target,
}

/// What to benchmark.
#[derive(clap::Subcommand)]
pub enum Target {
    Sudoku(SudokuArgs),
}

/// Solve every puzzle of each file and report the solving speed (reading, parsing and checking are not timed).
#[derive(clap::Args)]
#[command(
    long_about = "Solve every puzzle of each file and report the solving speed.\n\n\
        Each file is read and parsed first (a malformed puzzle stops the run with exit status 2 before anything \
        is printed), then solved, timing only the solving, then every solution found is checked against its \
        puzzle (a wrong one is a failure, exit status 3). One JSON line per file: \
        {\"file\",\"puzzles\",\"solved\",\"seconds\",\"puzzles_per_sec\",\"us_per_puzzle\",\"guesses_per_puzzle\", \
        \"mode\",\"threads\"}; 'solved' counts puzzles with at least one solution. The default mode counts \
        solutions up to 2 (a uniqueness check).\n\n\
        A file whose first puzzle is in a format only variant puzzles use (ISS constraint strings, killer \
        strings, jigsaws, pencil marks, f-puzzles; see `backtrack sudoku --help`) goes to the variant solver, \
        one puzzle a job: its time covers compiling each puzzle's rules as well as the search, and its \
        solutions are checked against every rule. --lexmin is for classic grids only.",
    after_help = "Examples:\n  \
        backtrack bench sudoku puzzles.txt                    uniqueness check (count up to 2)\n  \
        backtrack bench sudoku --first --repeat 5 puzzles.txt  first solution, best of 5 runs\n  \
        backtrack bench sudoku --threads 2 a.txt b.txt         two threads, one line per file\n  \
        backtrack bench sudoku --threads 1 killers.txt          variant puzzles, uniqueness on one thread"
)]
pub struct SudokuArgs {
    /// Puzzle files, in any format `backtrack sudoku` reads (standard input for `-`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Count solutions up to K per puzzle (default 2).
    #[arg(long, value_name = "K", conflicts_with_all = ["first", "lexmin"], value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Find one solution per puzzle.
    #[arg(long, conflicts_with = "lexmin")]
    pub first: bool,
    /// Find the lexicographically smallest solution of each puzzle (classic grids only).
    #[arg(long)]
    pub lexmin: bool,
    /// Solving threads, 1 to 1024 (0 or absent: one per core).
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    pub threads: Option<backtrack::search::Threads>,
    /// Solve each file R times and report the fastest run.
    #[arg(long, value_name = "R", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
}

/// Runs `backtrack bench <TARGET>`.
pub fn run(args: Args) -> CliResult {
    match args.target {
        Target::Sudoku(a) => bench_sudoku(a),
    }
}

/// Puzzles per job: enough to make scheduling free, few enough to balance two threads.
const CHUNK: usize = 256;

/// Totals of one timed run over a file.
#[derive(Clone, Copy, Default)]
struct Run {
    seconds: f64,
    solved: u64,
    guesses: u64,
}

/// One file's puzzles, read and checked before anything is timed.
enum Puzzles {
    /// Classic grids, for the sudoku kernels.
    Classic(Batch),
    /// Variant puzzles, for the variant solver, and what to ask of them.
    Variant(Vec<variant::bench::Numbered>, variant::bench::Goal),
}

fn bench_sudoku(args: SudokuArgs) -> CliResult {
    let (mode, mode_name) = if args.first {
        (Mode::First, "first".to_string())
    } else if args.lexmin {
        (Mode::LexFirst, "lexmin".to_string())
    } else {
        let limit = args.limit.unwrap_or(2);
        (Mode::Count { limit: Some(limit) }, format!("count<={limit}"))
    };
    // Read and check everything before timing or printing anything.
    let inputs = read_inputs(&args.files)?;
    let mut parsed = Vec::with_capacity(inputs.len());
    for input in &inputs {
        if variant::is_variant_text(&input.text) {
            let goal = match mode {
                Mode::First => variant::bench::Goal::First,
                Mode::Count { limit } => variant::bench::Goal::Count(limit.unwrap_or(2)),
                _ => {
                    return Err(CliError::Input(format!(
                        "{}: --lexmin is for classic grids, not variant puzzles",
                        input.name
                    )))
                }
            };
            let puzzles =
                variant::bench::read_puzzles(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
            parsed.push(Puzzles::Variant(puzzles, goal));
            continue;
        }
        let batch = Batch::parse(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
        if let Some(e) = batch.first_error() {
            return Err(CliError::bad_input(&input.name, e));
        }
        parsed.push(Puzzles::Classic(batch));
    }
    let threads = args.threads.unwrap_or_default();
    let mut out = stdout();
    for (input, puzzles) in inputs.iter().zip(&parsed) {
        let (count, best) = match puzzles {
            Puzzles::Classic(batch) => (batch.puzzles(), bench_classic(input, batch, mode, threads, args.repeat)?),
            Puzzles::Variant(puzzles, goal) => {
                (puzzles.len(), bench_variant(input, puzzles, *goal, threads, args.repeat)?)
            }
        };
        let n = count.max(1) as f64;
        let line = json::BenchLine {
            file: input.name.clone(),
            puzzles: count,
            solved: best.solved,
            seconds: json::rounded(best.seconds, 6),
            puzzles_per_sec: json::rounded(if best.seconds > 0.0 { count as f64 / best.seconds } else { 0.0 }, 1),
            us_per_puzzle: json::rounded(best.seconds * 1e6 / n, 3),
            guesses_per_puzzle: json::rounded(best.guesses as f64 / n, 3),
            mode: mode_name.clone(),
            threads: threads.get(),
        };
        let mut text = Vec::new();
        json::write_line(&mut text, &line);
        out.write_all(&text)?;
        out.flush()?;
    }
    Ok(EXIT_OK)
}

/// The fastest of `repeat` runs over a file of classic grids, every
/// solution found checked against its puzzle.
fn bench_classic(input: &Input, batch: &Batch, mode: Mode, threads: Threads, repeat: u32) -> Result<Run, CliError> {
    let box_size = batch.layout().box_size;
    let area = box_size.pow(4);
    let puzzles = batch.puzzles();
    let mut solutions = vec![0u8; puzzles * area];
    let mut counts = vec![0u64; puzzles];
    let mut best: Option<Run> = None;
    for _ in 0..repeat {
        let run = timed_run(threads, batch, mode, &mut solutions, &mut counts)?;
        if best.is_none_or(|b| run.seconds < b.seconds) {
            best = Some(run);
        }
    }
    // Check every solution found, outside the timed region.
    for slot in 0..puzzles {
        let solution = &solutions[slot * area..(slot + 1) * area];
        if counts[slot] > 0 && !sudoku::is_solution(box_size, batch.cells(slot), solution) {
            return Err(wrong_solution(input, slot));
        }
    }
    Ok(best.expect("at least one run"))
}

/// The fastest of `repeat` runs over a file of variant puzzles, every
/// solution found checked against its puzzle's rules.
fn bench_variant(
    input: &Input,
    puzzles: &[variant::bench::Numbered],
    goal: variant::bench::Goal,
    threads: Threads,
    repeat: u32,
) -> Result<Run, CliError> {
    let mut best: Option<Run> = None;
    for _ in 0..repeat {
        let run = variant::bench::timed_run(puzzles, goal, threads)?;
        if let Some(slot) = run.first_wrong(puzzles) {
            return Err(wrong_solution(input, slot));
        }
        if best.is_none_or(|b| run.seconds < b.seconds) {
            best = Some(Run { seconds: run.seconds, solved: run.solved, guesses: run.guesses });
        }
    }
    Ok(best.expect("at least one run"))
}

/// The failure of a solution that does not solve its puzzle.
fn wrong_solution(input: &Input, slot: usize) -> CliError {
    CliError::Failure(format!("{}: wrong solution for puzzle {} (a solver bug)", input.name, slot + 1))
}

/// What one job of a timed run found: the solutions and counts of its puzzles.
struct Chunk {
    solutions: Vec<u8>,
    counts: Vec<u64>,
    solved: u64,
    guesses: u64,
}

/// Solves every puzzle of `batch` once on `threads` threads, timing only
/// the solving, and leaves each puzzle's solution and count in
/// `solutions` and `counts` (written after the clock stops).
fn timed_run(
    threads: Threads,
    batch: &Batch,
    mode: Mode,
    solutions: &mut [u8],
    counts: &mut [u64],
) -> Result<Run, CliError> {
    let box_size = batch.layout().box_size;
    let area = box_size.pow(4);
    let puzzles = batch.puzzles();
    let mut chunks: Vec<Chunk> = Vec::with_capacity(puzzles.div_ceil(CHUNK));
    let mut starts = (0..puzzles).step_by(CHUNK);
    // The clock starts at the first job, once the threads are up.
    let mut start: Option<Instant> = None;
    search::run_in_order(
        threads,
        // Every chunk's results are kept for the check: no window to bound.
        usize::MAX,
        || Solver::new(box_size),
        |_| {
            start.get_or_insert_with(Instant::now);
            starts.next().map_or(Feed::End, Feed::Job)
        },
        |solver, &first| {
            let len = CHUNK.min(puzzles - first);
            let mut chunk = Chunk { solutions: vec![0; len * area], counts: vec![0; len], solved: 0, guesses: 0 };
            for (k, (solution, count)) in chunk.solutions.chunks_mut(area).zip(chunk.counts.iter_mut()).enumerate() {
                let result = solver.solve(batch.cells(first + k), mode, solution);
                *count = result.count;
                chunk.solved += (result.count > 0) as u64;
                chunk.guesses += result.guesses;
            }
            chunk
        },
        |_, chunk| {
            chunks.push(chunk);
            ControlFlow::Continue(())
        },
    )?;
    let elapsed: Duration = start.map_or(Duration::ZERO, |start| start.elapsed());
    let (mut solved, mut guesses) = (0, 0);
    for (i, chunk) in chunks.iter().enumerate() {
        let first = i * CHUNK;
        solutions[first * area..][..chunk.solutions.len()].copy_from_slice(&chunk.solutions);
        counts[first..][..chunk.counts.len()].copy_from_slice(&chunk.counts);
        solved += chunk.solved;
        guesses += chunk.guesses;
    }
    Ok(Run { seconds: elapsed.as_secs_f64(), solved, guesses })
}
