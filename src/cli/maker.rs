//! `backtrack sudoku generate | rate | explain | hint`: the puzzle maker's
//! commands. Generation, rating and explanations live in the library
//! (`sudoku::generate`, `sudoku::rate`); this module maps arguments and prints.

use std::io::Write;
use std::path::PathBuf;

use backtrack::search::thread_pool;
use backtrack::sudoku::generate::{self, parse_band, GridSize, Options, Symmetry, Target};
use backtrack::sudoku::rate::{self, step_json, RateError};
use backtrack::sudoku::techniques::Technique;
use backtrack::sudoku::{write_cells, Batch, Format};
use rayon::prelude::*;

use super::{read_inputs, stdout, CliError, CliResult, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// The puzzle maker's subcommands of `backtrack sudoku`.
#[derive(clap::Subcommand)]
pub enum Command {
    Generate(GenerateArgs),
    Rate(RateArgs),
    Explain(ExplainArgs),
    Hint(HintArgs),
}

/// Generate puzzles with one solution: a size, a symmetry, minimal, few clues, a rating band.
#[derive(clap::Args)]
#[command(
    long_about = "Generate sudoku puzzles with exactly one solution (checked by the solver), one per line.\n\n\
        A random solved grid is drawn, then clues (by symmetric orbits) are taken away while the puzzle keeps \
        one solution. Without a symmetry every puzzle is minimal (no clue can be removed); with one, --minimal \
        keeps only puzzles from which no single clue can be removed either. The same --seed and options give the \
        same puzzles in the same order, whatever --threads.\n\n\
        --rating and --technique (9x9) keep puzzles whose Sudoku Explainer rating lies in the band, or whose \
        hardest step uses the technique (see `backtrack sudoku rate`).\n\n\
        Exit status: 0 all puzzles made; 1 the attempts ran out first (the puzzles found are printed); 2 bad usage.",
    after_help = "Examples:\n  \
        backtrack sudoku generate --count 10 --seed 1           ten minimal 9x9 puzzles\n  \
        backtrack sudoku generate --symmetry rot180 --minimal   symmetric and minimal\n  \
        backtrack sudoku generate --size 16 --count 2           two 16x16 puzzles\n  \
        backtrack sudoku generate --rating 3.0..4.5 --count 5   five puzzles rated 3.0 to 4.5\n  \
        backtrack sudoku generate --technique x-wing            a puzzle whose hardest step is an X-Wing"
)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, short = 'n', value_name = "K", default_value_t = 1)]
    pub count: usize,
    /// Random seed (default: from the clock; printed on standard error).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Symmetry of the clue pattern: none, rot180, rot90, mirror, diagonal, antidiagonal, full.
    #[arg(long, value_name = "SYM", default_value = "none", value_parser = |s: &str| s.parse::<Symmetry>())]
    pub symmetry: Symmetry,
    /// Keep only puzzles from which no clue can be removed (always so without symmetry).
    #[arg(long)]
    pub minimal: bool,
    /// Keep only puzzles with at most N clues.
    #[arg(long, value_name = "N")]
    pub clues: Option<usize>,
    /// Grid size: 4, 9, 16 or 25.
    #[arg(long, value_name = "SIZE", default_value_t, value_parser = |s: &str| s.parse::<GridSize>())]
    pub size: GridSize,
    /// Keep puzzles whose rating (ER) lies in the band A..B, e.g. 7.0..8.0 (9x9 only).
    #[arg(long, value_name = "A..B", value_parser = parse_band)]
    pub rating: Option<(u16, u16)>,
    /// Keep puzzles whose hardest step uses this technique, e.g. x-wing (9x9 only).
    #[arg(long, value_name = "NAME", value_parser = |s: &str| s.parse::<Technique>())]
    pub technique: Option<Technique>,
    /// Attempts allowed per puzzle before giving up.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub attempts: u64,
    /// Threads (0 or absent: one per core); the output does not depend on it.
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    pub threads: Option<backtrack::search::Threads>,
}

/// Runs `backtrack sudoku generate`.
pub fn generate(args: GenerateArgs) -> CliResult {
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let seed = now.as_nanos() as u64;
        eprintln!("backtrack: seed {seed}");
        seed
    });
    let box_size = args.size.box_size();
    let target = (args.rating.is_some() || args.technique.is_some())
        .then_some(Target { rating: args.rating, technique: args.technique });
    let options = Options {
        box_size,
        seed,
        symmetry: args.symmetry,
        minimal: args.minimal,
        max_clues: args.clues,
        target,
        max_attempts: args.attempts.max(1),
    };
    let mut out = stdout();
    let mut line = Vec::new();
    let mut write_error = None;
    let result = generate::generate_with(&options, args.count, args.threads.unwrap_or_default().get(), |puzzle| {
        line.clear();
        write_cells(&mut line, box_size, puzzle.cells(), Format::Line);
        if write_error.is_none() {
            if let Err(e) = out.write_all(&line) {
                write_error = Some(e);
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    out.flush()?;
    match result {
        Ok(_) => Ok(EXIT_OK),
        Err(generate::GenerateError::Options(m)) => Err(CliError::Input(m)),
        Err(e @ generate::GenerateError::Exhausted { .. }) => {
            eprintln!("backtrack: {e}");
            Ok(EXIT_NO_SOLUTION)
        }
    }
}

/// Rate puzzles on the Sudoku Explainer scale: ER/EP/ED.
#[derive(clap::Args)]
#[command(
    long_about = "Rate 9x9 puzzles on the Sudoku Explainer scale, one line per puzzle: ER/EP/ED.\n\n\
        The puzzle is solved step by step, each step by the easiest technique that applies (hidden single 1.2 \
        in a box, 1.5 in a line; naked single 2.3; pointing 2.6; naked pair 3.0; X-Wing 3.2; ... BUG 5.6; forcing chains 6.6 \
        and up). ER \
        is the hardest step, EP the hardest up to the first placed digit, ED the first step's rating. A \
        puzzle that needs a technique this rater lacks (nishio, multiple, dynamic or nested forcing chains) prints 'beyond' for ER \
        (with --json: \"er\":null, \"beyond\":true and \"reached\", the hardest step before it stopped), \
        never a guessed rating. A puzzle without exactly one solution prints '# no solution' or \
        '# more than one solution'.\n\n\
        Exit status: 0 every puzzle rated; 1 some puzzle has no single solution; 2 some puzzle was malformed.",
    after_help = "Examples:\n  \
        backtrack sudoku rate puzzles.txt                ER/EP/ED per line\n  \
        backtrack sudoku rate --json --threads 2 p.txt   {\"er\":4.2,\"ep\":1.2,\"ed\":1.2,\"hardest\":\"XY-Wing\"}"
)]
pub struct RateArgs {
    /// Puzzle files (standard input when none is given, or for `-`).
    pub files: Vec<PathBuf>,
    /// One JSON object per puzzle.
    #[arg(long)]
    pub json: bool,
    /// Threads (0 or absent: one per core); output stays in input order.
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    pub threads: Option<backtrack::search::Threads>,
}

/// Explain every step of the rated path of each puzzle.
#[derive(clap::Args)]
#[command(
    long_about = "Explain how each 9x9 puzzle is solved: every step of the path `rate` follows, in words \
        (\"Hidden single: 7 is the only place for 7 in row 3: r3c5=7\"), then the rating. With --json, one \
        object per puzzle: {\"er\":..,\"ep\":..,\"ed\":..,\"hardest\":..,\"steps\":[{\"technique\":..,\"rating\":..,\
        \"placements\":[[row,col,digit]],\"eliminations\":[[row,col,digit]],\"text\":..}]} (rows and columns from 1).",
    after_help = "Examples:\n  \
        backtrack sudoku explain puzzle.txt\n  \
        backtrack sudoku explain --json puzzles.txt"
)]
pub struct ExplainArgs {
    /// Puzzle files (standard input when none is given, or for `-`).
    pub files: Vec<PathBuf>,
    /// One JSON object per puzzle.
    #[arg(long)]
    pub json: bool,
}

/// The next step from a partly filled grid.
#[derive(clap::Args)]
#[command(
    long_about = "Give the next step for a partly filled 9x9 grid (the givens and the digits placed so far, in \
        any input format): the easiest technique that applies, in words, or with --json as one step object \
        {\"technique\":..,\"rating\":..,\"placements\":[[row,col,digit]],\"eliminations\":[[row,col,digit]],\"text\":..}. \
        The grid must still have exactly one solution (a wrong digit is reported).\n\n\
        Exit status: 0 a step was found; 1 the grid is full, has no single solution, or needs a technique \
        this solver lacks; 2 malformed input.",
    after_help = "Examples:\n  \
        backtrack sudoku hint board.txt\n  \
        echo 4.....8.5.3.......... | backtrack sudoku hint --json"
)]
pub struct HintArgs {
    /// The grid (standard input when absent or `-`); with several puzzles, one hint each.
    pub file: Option<PathBuf>,
    /// One JSON object per grid.
    #[arg(long)]
    pub json: bool,
}

/// The 9x9 puzzles of `files`, in order, each with its source and line; malformed ones reported.
struct Puzzles {
    grids: Vec<Vec<u8>>,
    malformed: usize,
}

fn read_puzzles(files: &[PathBuf]) -> Result<Puzzles, CliError> {
    let mut grids = Vec::new();
    let mut malformed = 0;
    for input in read_inputs(files)? {
        let batch = match Batch::parse(&input.text) {
            Ok(batch) => batch,
            Err(e) => {
                eprintln!("backtrack: {}: {e}", input.name);
                malformed += 1;
                continue;
            }
        };
        for entry in batch.entries() {
            match &entry.result {
                Ok(slot) if batch.layout().box_size == 3 => grids.push(batch.cells(*slot).to_vec()),
                Ok(_) => {
                    eprintln!("backtrack: {}: line {}: only 9x9 puzzles can be rated", input.name, entry.line);
                    malformed += 1;
                }
                Err(e) => {
                    eprintln!("backtrack: {}: {e}", input.name);
                    malformed += 1;
                }
            }
        }
    }
    Ok(Puzzles { grids, malformed })
}

fn error_line(e: RateError) -> &'static str {
    match e {
        RateError::NotUnique => "# more than one solution",
        _ => "# no solution",
    }
}

/// Runs `f` on every grid on `threads` threads, returning its lines in input order.
fn answer_all(
    grids: &[Vec<u8>],
    threads: usize,
    f: impl Fn(&[u8]) -> Result<String, RateError> + Sync,
) -> Vec<Result<String, RateError>> {
    thread_pool(threads).install(|| grids.par_iter().with_min_len(16).map(|g| f(g)).collect())
}

fn finish(out: &mut impl Write, answers: Vec<Result<String, RateError>>, malformed: usize) -> CliResult {
    let mut unsolved = 0;
    for answer in answers {
        match answer {
            Ok(text) => writeln!(out, "{text}")?,
            Err(e) => {
                unsolved += 1;
                writeln!(out, "{}", error_line(e))?;
            }
        }
    }
    out.flush()?;
    Ok(if malformed > 0 {
        EXIT_INPUT
    } else if unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

/// Runs `backtrack sudoku rate`.
pub fn rate(args: RateArgs) -> CliResult {
    let puzzles = read_puzzles(&args.files)?;
    let json = args.json;
    let answers = answer_all(&puzzles.grids, args.threads.unwrap_or_default().get(), |g| {
        rate::rate_cells(g).map(|r| if json { r.json() } else { r.text() })
    });
    finish(&mut stdout(), answers, puzzles.malformed)
}

/// Runs `backtrack sudoku explain`.
pub fn explain(args: ExplainArgs) -> CliResult {
    let puzzles = read_puzzles(&args.files)?;
    let json = args.json;
    let answers = answer_all(&puzzles.grids, 1, |g| {
        rate::explain_cells(g).map(|e| {
            if json {
                e.json()
            } else {
                let mut text = String::new();
                for (i, step) in e.steps.iter().enumerate() {
                    text.push_str(&format!("{:>3}. [{}] {}\n", i + 1, rate::tenths(step.rating), step.text));
                }
                if e.rating.beyond {
                    text.push_str("Stuck: the next step needs a technique this solver lacks.\n");
                }
                let hardest = e.rating.hardest.map_or("none", |t| t.name());
                text.push_str(&format!("Rating {} (ER/EP/ED), hardest step: {hardest}\n", e.rating.text()));
                text
            }
        })
    });
    finish(&mut stdout(), answers, puzzles.malformed)
}

/// Runs `backtrack sudoku hint`.
pub fn hint(args: HintArgs) -> CliResult {
    let files: Vec<PathBuf> = args.file.into_iter().collect();
    let puzzles = read_puzzles(&files)?;
    let mut out = stdout();
    let mut missed = 0;
    for grid in &puzzles.grids {
        match rate::hint_cells(grid) {
            Ok(Some(step)) => {
                if args.json {
                    writeln!(out, "{}", step_json(&step))?;
                } else {
                    writeln!(out, "{} [{}]", step.text, rate::tenths(step.rating))?;
                }
            }
            Ok(None) => {
                missed += 1;
                let full = grid.iter().all(|&v| v != 0);
                writeln!(
                    out,
                    "{}",
                    if full {
                        "# solved"
                    } else {
                        "# no step found: the next step needs a technique this solver lacks"
                    }
                )?;
            }
            Err(e) => {
                missed += 1;
                writeln!(out, "{}", error_line(e))?;
            }
        }
    }
    out.flush()?;
    Ok(if puzzles.malformed > 0 {
        EXIT_INPUT
    } else if missed > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

/// Runs one of the maker's subcommands.
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Generate(a) => generate(a),
        Command::Rate(a) => rate(a),
        Command::Explain(a) => explain(a),
        Command::Hint(a) => hint(a),
    }
}
