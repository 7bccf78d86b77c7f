//! Command-line parsing, dispatch, and the conventions every command shares:
//! where input comes from, how errors are reported, and what exit codes mean.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod bench;
pub mod boj;
pub mod choose;
pub mod merge;
pub mod queens;
pub mod sudoku;
pub mod sudominoku;
pub mod xcover;

/// Exit status: success.
pub const EXIT_OK: i32 = 0;
/// Exit status: the input was fine but has no solution.
pub const EXIT_NO_SOLUTION: i32 = 1;
/// Exit status: malformed input or bad usage.
pub const EXIT_INPUT: i32 = 2;
/// Exit status: an I/O or other operational failure.
pub const EXIT_FAILURE: i32 = 3;
/// Exit status: interrupted (Ctrl-C); partial work was saved where the command checkpoints.
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Parser)]
#[command(
    name = "backtrack",
    version,
    about = "Exact backtracking search, fast: sudoku, N-queens, exact cover, enumeration",
    long_about = "Exact backtracking search, fast: sudoku, N-queens, exact cover, enumeration.\n\n\
        Every command reads standard input when no FILE is given (or FILE is '-') and writes results \
        to standard output; diagnostics go to standard error.\n\n\
        Exit status: 0 success, 1 no solution, 2 malformed input or bad usage, 3 I/O failure, \
        130 interrupted.",
    after_help = "Examples:\n  \
        backtrack sudoku puzzles.txt            solve every puzzle, one per line\n  \
        backtrack sudoku --count --limit 2 p.txt  check uniqueness (0, 1 or 2+)\n  \
        backtrack queens 16 --threads 2         count 16-queens solutions\n  \
        backtrack choose perm 4 2               permutations of 2 out of 1..4\n  \
        backtrack xcover pentomino-6x10.dlx     count exact covers in Knuth's format\n  \
        echo 8 | backtrack boj 9663             a judge problem, judge-exact I/O"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Sudoku(sudoku::Args),
    Queens(queens::Args),
    Choose(choose::Args),
    Sudominoku(sudominoku::Args),
    Xcover(xcover::Args),
    Boj(boj::Args),
    Bench(bench::Args),
    Merge(merge::Args),
}

/// Why a command failed; each kind maps to its own exit status.
#[derive(Debug)]
pub enum CliError {
    /// Malformed input: the message names the source and the line/column.
    Input(String),
    /// The input is well-formed but has no solution.
    NoSolution(String),
    /// Reading, writing or another operational failure.
    Failure(String),
    /// Stopped by Ctrl-C.
    Interrupted(String),
    /// Standard output was closed by the reader (e.g. `| head`): stop quietly.
    BrokenPipe,
}

impl CliError {
    /// The exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => EXIT_INPUT,
            CliError::NoSolution(_) => EXIT_NO_SOLUTION,
            CliError::Failure(_) => EXIT_FAILURE,
            CliError::Interrupted(_) => EXIT_INTERRUPTED,
            CliError::BrokenPipe => EXIT_OK,
        }
    }

    /// An input error located in `source` (a file name or `<stdin>`).
    pub fn bad_input(source: &str, err: &backtrack::ParseError) -> Self {
        CliError::Input(format!("{source}: {err}"))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::NoSolution(m) | CliError::Failure(m) | CliError::Interrupted(m) => {
                f.write_str(m)
            }
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Failure(format!("I/O error: {err}"))
        }
    }
}

/// A command's result: `Ok(code)` lets a command that handled per-item
/// errors itself (batch modes) still choose a non-zero status.
pub type CliResult = Result<i32, CliError>;

/// One input text and the name to report it by.
pub struct Input {
    /// File name as given, or `<stdin>`.
    pub name: String,
    /// The whole text.
    pub text: String,
}

/// Reads each of `files` (standard input for none, or for `-`).
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    if files.is_empty() {
        return Ok(vec![read_stdin()?]);
    }
    files.iter().map(|f| read_input(Some(f))).collect()
}

/// Reads one file, or standard input for `None` or `-`.
pub fn read_input(file: Option<&PathBuf>) -> Result<Input, CliError> {
    match file {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let bytes =
                std::fs::read(p).map_err(|e| CliError::Failure(format!("{}: cannot read: {e}", p.display())))?;
            let name = p.display().to_string();
            let text = String::from_utf8(bytes).map_err(|e| {
                CliError::Input(format!(
                    "{name}: not UTF-8 text (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ))
            })?;
            Ok(Input { name, text })
        }
    }
}

fn read_stdin() -> Result<Input, CliError> {
    let mut bytes = Vec::new();
    io::stdin().lock().read_to_end(&mut bytes).map_err(|e| CliError::Failure(format!("<stdin>: cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!("<stdin>: not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })?;
    Ok(Input { name: "<stdin>".into(), text })
}

/// Buffered standard output; flush it before returning so errors surface.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Parses the command line, runs the command, reports any error on standard
/// error, and returns the process exit status.
pub fn main() -> ExitCode {
    let status = run();
    ExitCode::from(u8::try_from(status).unwrap_or(EXIT_FAILURE as u8))
}

/// [`main`], with the status as a number.
fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
        }
    };
    let result = match cli.command {
        Command::Sudoku(a) => sudoku::run(a),
        Command::Queens(a) => queens::run(a),
        Command::Choose(a) => choose::run(a),
        Command::Sudominoku(a) => sudominoku::run(a),
        Command::Xcover(a) => xcover::run(a),
        Command::Boj(a) => boj::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
    };
    match result {
        Ok(code) => code,
        Err(CliError::BrokenPipe) => EXIT_OK,
        Err(e) => {
            let _ = io::stdout().flush();
            eprintln!("backtrack: {e}");
            e.exit_code()
        }
    }
}
