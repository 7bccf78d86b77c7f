//! `backtrack sudoku generate | rate | explain | hint`: the puzzle maker's
//! commands. Generation, rating and explanations live in the library
//! (`sudoku::generate`, `sudoku::rate`); this module maps arguments and prints.

use std::io::Write;
use std::path::PathBuf;

use backtrack::error::Counted;
use backtrack::search::Threads;
use backtrack::sudoku::generate::{self, parse_band, GridSize, Options, Symmetry, Target};
use backtrack::sudoku::marks::is_marks_text;
use backtrack::sudoku::pipeline::reply::{Ask, Replies};
use backtrack::sudoku::pipeline::{self, Source};
use backtrack::sudoku::score::Score;
use backtrack::sudoku::techniques::Technique;
use backtrack::sudoku::{write_cells, Format};

use super::super::{diag, interrupt_control, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};
use super::variant::first_puzzle_matches;
use super::{finish, report};

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
        keeps only puzzles from which no single clue can be removed either. On 25x25 grids a clue stays when \
        the solver cannot show quickly that the puzzle without it keeps one solution, so those puzzles are \
        minimal only with --minimal, which is much slower (minutes a puzzle). The same --seed and options give the \
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
    /// How many puzzles (at least 1).
    #[arg(long, short = 'n', value_name = "K", default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub count: usize,
    /// Random seed (default: from the clock; printed on standard error).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Symmetry of the clue pattern: none, rot180, rot90, mirror, diagonal, antidiagonal, full.
    #[arg(long, value_name = "SYM", default_value = "none", value_parser = |s: &str| s.parse::<Symmetry>())]
    pub symmetry: Symmetry,
    /// Keep only puzzles from which no clue can be removed (always so without symmetry, but on 25x25).
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
    pub rating: Option<(Score, Score)>,
    /// Keep puzzles whose hardest step uses this technique, e.g. x-wing (9x9 only).
    #[arg(long, value_name = "NAME", value_parser = |s: &str| s.parse::<Technique>(), long_help = technique_help())]
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
        diag!("backtrack: seed {seed}");
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
    let mut written = 0usize;
    let result = generate::generate_with(&options, args.count, args.threads.unwrap_or_default(), |puzzle| {
        if super::super::interrupted() {
            super::super::exit_interrupted(&mut out, &Counted(written as u128, "puzzle").to_string());
        }
        written += 1;
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
        Err(generate::GenerateError::Threads(e)) => Err(e.into()),
        Err(e @ generate::GenerateError::Exhausted { .. }) => {
            diag!("backtrack: {e}");
            Ok(EXIT_NO_SOLUTION)
        }
    }
}

/// How rate, explain and hint read their input, as their `--help` says it.
macro_rules! stream_doc {
    () => {
        "Input is read as a stream, as by `backtrack sudoku` (lines of at most 64 KiB), and each answer is \
        written as soon as it is ready, in input order: a program can write one puzzle and read its answer \
        before writing the next. Every puzzle gets one answer, so answers stay aligned with puzzles; a \
        malformed puzzle (or one that is not 9x9) gets '# error: line L, column C: ...' (with --json: an \
        object with status \"invalid\" and the error), and its error also goes to standard error.\n\n\
        A file whose first puzzle line is a pencil-mark grid (729 symbols, nine per cell: a digit for a \
        candidate kept, '.' for one removed; the format `backtrack sudoku` reads) is read one grid a line, and \
        the techniques start from its candidates instead of from givens: a cell down to one candidate that no \
        other cell of its row, column or box keeps counts as filled, one whose digit a peer still keeps is a \
        naked single to play. A bad symbol or length is an error at its line and column.\n\n"
    };
}

/// Rate puzzles on the Sudoku Explainer scale: ER/EP/ED.
#[derive(clap::Args)]
#[command(
    long_about = concat!("Rate 9x9 puzzles on the Sudoku Explainer scale, one line per puzzle: ER/EP/ED.\n\n\
        The puzzle is solved step by step, each step by the easiest technique that applies (hidden single 1.2 \
        in a box, 1.5 in a line; naked single 2.3; pointing 2.6; naked pair 3.0; X-Wing 3.2; ... BUG 5.6; forcing chains 6.6 \
        and up). ER \
        is the hardest step, EP the hardest up to the first placed digit, ED the first step's rating. A \
        puzzle that needs a technique this rater lacks (forcing chains nested two deep, which Sudoku Explainer \
        tries after its first 10.5 level) prints 'beyond' for ER \
        (with --json: \"er\":null, \"beyond\":true and \"reached\", the hardest rating reached before it stopped), \
        never a guessed rating. A puzzle without exactly one solution prints '# no solution' or \
        '# more than one solution'.\n\n\
        ",
        stream_doc!(),
        "Exit status: 0 every puzzle rated; 1 some puzzle has no single solution; 2 some puzzle was malformed; \
        3 I/O failure; 130 interrupted (the answers so far are printed)."),
    after_help = "Examples:\n  \
        backtrack sudoku rate puzzles.txt     ER/EP/ED per line\n  \
        backtrack sudoku rate --json p.txt    {..,\"er\":4.2,\"ep\":1.2,\"ed\":1.2,\"hardest\":\"XY-Wing\",..}"
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
    long_about = concat!("Explain how each 9x9 puzzle is solved: a line 'Puzzle' and the puzzle on one line, every \
        step of the path `rate` follows, in words (\"Hidden single: 7 is the only place for 7 in row 3: r3c5=7\"), \
        then the rating. With --json, one \
        object per puzzle (docs/json.md): {\"file\":..,\"line\":..,\"index\":..,\"status\":\"explained\",\"er\":..,\"ep\":..,\"ed\":..,\"hardest\":..,\"steps\":[{\"technique\":..,\"rating\":..,\
        \"placements\":[[row,col,digit]],\"eliminations\":[[row,col,digit]],\"text\":..}]} (rows and columns from 1).\n\n\
        ",
        stream_doc!(),
        "Exit status: 0 every puzzle explained; 1 some puzzle has no single solution; 2 some puzzle was \
        malformed; 3 I/O failure; 130 interrupted."),
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
    long_about = concat!("Give the next step for a partly filled 9x9 grid (the givens and the digits placed so far, in \
        any input format, or a pencil-mark grid of the candidates left): the easiest technique that applies, in words, or with --json as one object (docs/json.md) \
        {\"file\":..,\"line\":..,\"index\":..,\"status\":\"hint\",\"technique\":..,\"rating\":..,\"placements\":[[row,col,digit]],\"eliminations\":[[row,col,digit]],\"text\":..}; a full grid gets status \"complete\". \
        The grid must still have exactly one solution. When it has none, the answer says which digit is wrong: \
        '# no solution: r1c5=7 is wrong (without it the grid has a solution)', or 'one of r1c1=5, r1c9=5 is \
        wrong' when taking away any of several would do (with --json, status \"no_solution\" and \"wrong\":[[row,col,digit]]).\n\n\
        ",
        stream_doc!(),
        "Exit status: 0 a step was found for every grid; 1 some grid is full, has no single solution, or \
        needs a technique this solver lacks; 2 malformed input; 3 I/O failure; 130 interrupted."),
    after_help = "Examples:\n  \
        backtrack sudoku hint board.txt          the next step, in words\n  \
        backtrack sudoku hint --json board.txt   the same step as one JSON object\n  \
        backtrack sudoku hint marks.txt          the next step from pencil marks (729 symbols a line)"
)]
pub struct HintArgs {
    /// The grid (standard input when absent or `-`); with several puzzles, one hint each.
    pub file: Option<PathBuf>,
    /// One JSON object per grid.
    #[arg(long)]
    pub json: bool,
}

/// Answers every puzzle of `files` (standard input for none) with
/// `replies` on `threads`, through the library's ordered pipeline: one
/// answer per puzzle, in input order, written as soon as it is ready.
/// A file whose first puzzle is a pencil-mark grid is read as one grid a
/// line and answered from its candidates, on one thread.
fn answer_stream(files: &[PathBuf], threads: Threads, replies: Replies) -> CliResult {
    let mut out = stdout();
    let control = interrupt_control();
    let sources = Source::paths(files);
    let result = if first_puzzle_matches(files, is_marks_text) {
        pipeline::marks::answer_marks(sources, &replies, &control, &mut out, &mut report)
    } else {
        pipeline::answer_in_order(sources, threads, false, &control, &replies, &mut out, &mut report)
    };
    finish(result, &mut out)
}

/// Runs `backtrack sudoku rate`.
pub fn rate(args: RateArgs) -> CliResult {
    answer_stream(&args.files, args.threads.unwrap_or_default(), Replies { ask: Ask::Rate, json: args.json })
}

/// Runs `backtrack sudoku explain`.
pub fn explain(args: ExplainArgs) -> CliResult {
    answer_stream(&args.files, Threads::ONE, Replies { ask: Ask::Explain, json: args.json })
}

/// Runs `backtrack sudoku hint`.
pub fn hint(args: HintArgs) -> CliResult {
    let files: Vec<PathBuf> = args.file.into_iter().collect();
    answer_stream(&files, Threads::ONE, Replies { ask: Ask::Hint, json: args.json })
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

/// The long help of `--technique`: what it keeps and every name it takes.
fn technique_help() -> String {
    let names: Vec<String> = Technique::ALL.iter().map(|t| t.slug()).collect();
    format!(
        "Keep puzzles whose hardest step uses this technique (9x9 only). Names, in the order the rater tries them \
         (any case; spaces, '-' or '_' between words or none):\n{}",
        names.join(", ")
    )
}
