//! Command-line parsing, dispatch, and the conventions every command shares:
//! where input comes from, how errors are reported, what exit codes mean,
//! how many threads a command may start, and how much input it may hold.

use std::fmt;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use backtrack::lang::{Lang, Message};
use clap::{Parser, Subcommand};

pub mod bench;
pub mod boj;
pub mod choose;
pub mod judge;
pub mod merge;
mod mpi;
mod progress;
pub mod queens;
pub mod sudoku;
pub mod sudominoku;
pub mod trace;
pub mod web;
pub mod xcover;

/// Exit status: found something (a solution, a non-zero count, a sequence).
pub const EXIT_OK: i32 = 0;
/// Exit status: the input was fine but nothing was found (no solution, a
/// count of 0, an empty enumeration), as `grep` does.
pub const EXIT_NO_SOLUTION: i32 = 1;
/// Exit status: malformed input or bad usage.
pub const EXIT_INPUT: i32 = 2;
/// Exit status: an I/O or resource failure.
pub const EXIT_FAILURE: i32 = 3;
/// Exit status: interrupted (Ctrl-C); what was found so far has been printed.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The exit-status table, as `--help` and the README show it.
macro_rules! exit_status_table {
    () => {
        "Exit status (every command):\n  \
        0    found something: a solution, a non-zero count, a sequence\n  \
        1    found nothing: no solution, a count of 0, an empty enumeration (as grep does)\n  \
        2    bad input or usage: the message names the line and column\n  \
        3    I/O or resource failure: a file that cannot be read or written, threads that cannot start\n  \
        130  interrupted (Ctrl-C): what was found so far is printed first\n\
        `backtrack boj` exits 0 whenever its input is valid, as a judged program must."
    };
}

/// The limits every command keeps, as `--help` and the README show them.
macro_rules! limits_text {
    () => {
        "Limits: input read as a whole (xcover problems, checkpoints, shard reports, judge input, \
        --values-from, bench files) is at most 32 MiB; sudoku, sudoku rate, explain and hint, and trace sudoku \
        read their input as a stream, with lines of at most 64 KiB; --threads takes 0 to 1024 (0 or absent: one thread per core). Messages quote at most \
        40 characters of a bad token."
    };
}

/// `--lang`'s value: a language code of [`backtrack::lang::CODES`].
pub fn parse_lang(code: &str) -> Result<Lang, String> {
    Lang::from_code(code).ok_or_else(|| format!("expected one of {}", backtrack::lang::CODES))
}

/// What `--help` of the commands that speak Korean says of `--lang`.
macro_rules! lang_help {
    () => {
        "Language of verdicts and messages: en, or ko for Korean with Baekjoon's verdict words \
        (맞았습니다!!, 틀렸습니다, 시간 초과, 메모리 초과, 런타임 에러, 출력 초과). Absent: ko when \
        LC_ALL, LC_MESSAGES or LANG (the first one set) names a ko locale, such as ko_KR.UTF-8; en \
        otherwise. JSON output, the verdict codes in it and exit statuses are the same in every language."
    };
}
pub(crate) use lang_help;

/// Most bytes of an input that is read whole.
pub const MAX_WHOLE_INPUT: u64 = 32 << 20;

#[derive(Parser)]
#[command(
    name = "backtrack",
    version,
    about = "Exact backtracking search, fast: sudoku, N-queens, exact cover, enumeration",
    long_about = concat!(
        "Exact backtracking search, fast: sudoku, N-queens, exact cover, enumeration.\n\n\
        Every command reads standard input when no FILE is given (or FILE is '-') and writes results \
        to standard output; diagnostics go to standard error.\n\n",
        exit_status_table!(),
        "\n\n",
        limits_text!()
    ),
    after_help = "Examples:\n  \
        backtrack sudoku puzzles.txt            solve every puzzle, one per line\n  \
        backtrack sudoku --count --limit 2 p.txt  check uniqueness (0, 1 or 2+)\n  \
        backtrack queens 12 --threads 2         count 12-queens solutions\n  \
        backtrack choose perm 4 2               permutations of 2 out of 1..4\n  \
        backtrack xcover pentomino-6x10.dlx     count exact covers in Knuth's format\n  \
        echo 8 | backtrack boj 9663             a judge problem, judge-exact I/O\n  \
        backtrack trace queens 4 --order naive  the search tree, one line per event\n  \
        backtrack web                           the workbench page on http://127.0.0.1:8080/"
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
    Judge(judge::Args),
    Bench(bench::Args),
    Merge(merge::Args),
    Trace(trace::Args),
    Web(web::Args),
}

/// Why a command failed; each kind maps to its own exit status.
#[derive(Debug)]
pub enum CliError {
    /// Malformed input or bad usage: the message names the source and the line/column.
    Input(String),
    /// Malformed input in a source (a file name or `<stdin>`): reported in
    /// the command's language, at the same line and column.
    Parse(String, backtrack::ParseError),
    /// Reading, writing, or a resource (memory, threads) that ran out.
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
            CliError::Input(_) | CliError::Parse(..) => EXIT_INPUT,
            CliError::Failure(_) => EXIT_FAILURE,
            CliError::Interrupted(_) => EXIT_INTERRUPTED,
            CliError::BrokenPipe => EXIT_OK,
        }
    }

    /// An input error located in `source` (a file name or `<stdin>`).
    pub fn bad_input(source: &str, err: &backtrack::ParseError) -> Self {
        CliError::Parse(source.to_string(), err.clone())
    }

    /// The message in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            CliError::Parse(source, error) => lang.say(Message::BadInput { source, error }),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(m) | CliError::Failure(m) | CliError::Interrupted(m) => f.write_str(m),
            CliError::Parse(source, error) => write!(f, "{source}: {error}"),
            CliError::BrokenPipe => f.write_str("broken pipe"),
        }
    }
}

impl std::error::Error for CliError {}

/// Writes one line on standard error, as `eprintln!` does, except that a
/// standard error that cannot be written (full, closed, a pipe whose
/// reader has gone) is ignored: a diagnostic never stops a command, never
/// changes what it prints on standard output, nor its exit status. Every
/// message of the command-line tool goes through it.
macro_rules! diag {
    ($($arg:tt)*) => {
        $crate::cli::diag_text(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use diag;

/// Writes `text` on standard error in one piece, ignoring failure (see [`diag!`]).
pub fn diag_text(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The error [`Out`] returns once Ctrl-C has been pressed, so that a
/// command writing solutions stops at its next write.
#[derive(Debug)]
struct InterruptedWrite;

impl fmt::Display for InterruptedWrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for InterruptedWrite {}

impl From<io::Error> for CliError {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else if err.get_ref().is_some_and(|e| e.is::<InterruptedWrite>()) {
            CliError::Interrupted("interrupted; the output above is what was found so far".into())
        } else {
            CliError::Failure(format!("I/O error: {err}"))
        }
    }
}

/// Threads that cannot start are a resource failure, reported with the way
/// out (the judge, whose option is `--jobs`, words its own).
impl From<backtrack::search::ThreadStartError> for CliError {
    fn from(err: backtrack::search::ThreadStartError) -> Self {
        CliError::Failure(format!("{err}; try fewer with --threads"))
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

/// The name an input is reported by: the path, or `<stdin>` for `None` and `-`.
pub fn input_name(file: Option<&PathBuf>) -> String {
    match file {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "<stdin>".into(),
    }
}

/// Opens a file, or standard input for `None` or `-`.
pub fn open_input(file: Option<&PathBuf>) -> Result<Box<dyn Read + Send>, CliError> {
    match file {
        Some(p) if p.as_os_str() != "-" => {
            let f =
                std::fs::File::open(p).map_err(|e| CliError::Failure(format!("{}: cannot read: {e}", p.display())))?;
            Ok(Box::new(f))
        }
        _ => Ok(Box::new(io::stdin())),
    }
}

/// Reads each of `files` whole (standard input for none, or for `-`).
pub fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, CliError> {
    if files.is_empty() {
        return Ok(vec![read_input(None)?]);
    }
    files.iter().map(|f| read_input(Some(f))).collect()
}

/// Reads one file whole, or standard input for `None` or `-`, refusing more
/// than [`MAX_WHOLE_INPUT`] bytes.
pub fn read_input(file: Option<&PathBuf>) -> Result<Input, CliError> {
    let name = input_name(file);
    let reader = open_input(file)?;
    let bytes = read_capped(reader, MAX_WHOLE_INPUT).map_err(|e| match e {
        Capped::Io(e) => CliError::Failure(format!("{name}: cannot read: {e}")),
        Capped::TooLong => CliError::Input(format!(
            "{name}: input too large: more than {} MiB (the limit for an input read whole)",
            MAX_WHOLE_INPUT >> 20
        )),
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!("{name}: not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })?;
    // Every input may start with a byte-order mark, also those read as JSON here.
    text.drain(..text.len() - backtrack::text::strip_bom(&text).len());
    Ok(Input { name, text })
}

/// Why [`read_capped`] failed.
pub enum Capped {
    /// Reading failed.
    Io(io::Error),
    /// There was more than the limit.
    TooLong,
}

/// Reads `reader` to its end, failing as soon as it has given more than `limit` bytes.
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, Capped> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes).map_err(Capped::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Capped::TooLong);
    }
    Ok(bytes)
}

/// Set by the watch thread every [`FLUSH_EVERY`]: buffered output is due.
static FLUSH_DUE: AtomicBool = AtomicBool::new(false);
/// How long output may sit in a buffer, and how often the watch thread looks at standard output.
const FLUSH_EVERY: Duration = Duration::from_millis(100);
/// How long a command has, after Ctrl-C, to print what it has and stop by itself.
const INTERRUPT_GRACE: Duration = Duration::from_secs(2);

/// The one record of Ctrl-C: a [`backtrack::search::Control`] that the
/// handler cancels.
fn ctrl_c() -> &'static backtrack::search::Control {
    static CONTROL: std::sync::OnceLock<backtrack::search::Control> = std::sync::OnceLock::new();
    CONTROL.get_or_init(backtrack::search::Control::new)
}

/// Whether Ctrl-C has been pressed.
pub fn interrupted() -> bool {
    ctrl_c().is_cancelled()
}

/// A [`backtrack::search::Control`] cancelled by Ctrl-C, for searches and
/// pipelines to poll.
pub fn interrupt_control() -> backtrack::search::Control {
    ctrl_c().clone()
}

/// Standard output, buffered, flushed at least every [`FLUSH_EVERY`] while
/// something is written (so sparse solutions do not sit in the buffer), and
/// failing at its next write once Ctrl-C has been pressed (after flushing
/// what it holds). Flush it before returning so that errors surface.
pub struct Out {
    inner: io::BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    /// Flushes when the timer says so; stops the command after Ctrl-C.
    #[inline]
    fn tick(&mut self) -> io::Result<()> {
        if FLUSH_DUE.load(Ordering::Relaxed) {
            FLUSH_DUE.store(false, Ordering::Relaxed);
            self.inner.flush()?;
            if interrupted() {
                return Err(io::Error::other(InterruptedWrite));
            }
        }
        Ok(())
    }
}

impl Write for Out {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.tick()?;
        Ok(n)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)?;
        self.tick()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Ends the process after Ctrl-C from inside a library call that its
/// callback cannot stop (a generator, a trace): writes out what `out` holds,
/// says on standard error what was done, and exits with status 130.
pub fn exit_interrupted(out: &mut Out, done: &str) -> ! {
    let _ = out.inner.flush();
    diag!("backtrack: interrupted after {done}; the output above is what was found so far");
    std::process::exit(EXIT_INTERRUPTED);
}

/// Buffered standard output (see [`Out`]).
pub fn stdout() -> Out {
    Out { inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()) }
}

/// Whether the reader of standard output has gone (a pipe whose other end
/// is closed). Only pipes can tell; anything else answers `false`.
#[cfg(unix)]
fn stdout_closed() -> bool {
    let mut fd = libc::pollfd { fd: 1, events: libc::POLLOUT, revents: 0 };
    // SAFETY: `fd` is one valid pollfd that lives across the call, and a zero
    // timeout makes poll return at once; it only reads the descriptor's state.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready == 1 && fd.revents & libc::POLLERR != 0
}

#[cfg(not(unix))]
fn stdout_closed() -> bool {
    false
}

/// Starts the thread that, every [`FLUSH_EVERY`], marks buffered output as
/// due, ends the process quietly once the reader of standard output has
/// gone (even when nothing is being written), and ends it with status 130
/// when a command has not stopped within [`INTERRUPT_GRACE`] of Ctrl-C; and
/// installs the Ctrl-C handler.
fn start_watch() {
    let _ = ctrlc::set_handler(|| {
        ctrl_c().cancel();
        FLUSH_DUE.store(true, Ordering::SeqCst);
    });
    let _ = std::thread::Builder::new().name("watch".into()).stack_size(64 << 10).spawn(|| {
        let mut interrupted_at: Option<Instant> = None;
        loop {
            std::thread::sleep(FLUSH_EVERY);
            FLUSH_DUE.store(true, Ordering::Relaxed);
            if stdout_closed() {
                std::process::exit(EXIT_OK);
            }
            if interrupted() {
                let at = *interrupted_at.get_or_insert_with(Instant::now);
                if at.elapsed() >= INTERRUPT_GRACE {
                    diag!("backtrack: interrupted");
                    std::process::exit(EXIT_INTERRUPTED);
                }
            }
        }
    });
}

/// Address space one glibc malloc arena reserves (`HEAP_MAX_SIZE` on 64-bit systems).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const ARENA_RESERVE: u64 = 64 << 20;

/// Under a finite address-space limit (`ulimit -v`), caps glibc's malloc
/// arenas so that together they reserve at most an eighth of the limit.
///
/// glibc gives each thread that allocates while the others hold their
/// arenas a new arena, up to eight per core, and each new arena reserves
/// [`ARENA_RESERVE`] of address space at once, at a moment that depends on
/// scheduling. With hundreds of threads that reservation, not the memory
/// used, exhausts the limit, and an allocation of a thread already running
/// then fails, which aborts the process instead of reporting that threads
/// cannot start. Without a limit nothing changes (the default serves many
/// threads best); with one, the arenas stay few, as `MALLOC_ARENA_MAX` would
/// make them, unless that variable already says how many.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn cap_malloc_arenas() {
    if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
        return;
    }
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `limit` is a valid rlimit that outlives the call, which only writes it.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return;
    }
    let arenas = (limit.rlim_cur / 8 / ARENA_RESERVE).clamp(1, 1024) as libc::c_int;
    // SAFETY: called on the main thread before any other thread starts;
    // M_ARENA_MAX only bounds how many arenas later allocations may create.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, arenas);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn cap_malloc_arenas() {}

/// Most characters of a message printed on standard error (a last guard:
/// parsers already quote bad tokens short).
const MAX_MESSAGE: usize = 2000;

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
        Err(e) => return usage_error(e),
    };
    cap_malloc_arenas();
    start_watch();
    // The language of the commands that speak Korean too; the others speak English.
    let lang = match &cli.command {
        Command::Boj(a) => Lang::resolve(a.lang),
        Command::Judge(a) => Lang::resolve(a.lang),
        Command::Trace(a) => Lang::resolve(a.lang),
        _ => Lang::En,
    };
    let result = match cli.command {
        Command::Sudoku(a) => sudoku::run(a),
        Command::Queens(a) => queens::run(a),
        Command::Choose(a) => choose::run(a),
        Command::Sudominoku(a) => sudominoku::run(a),
        Command::Xcover(a) => xcover::run(a),
        Command::Boj(a) => boj::run(a, lang),
        Command::Judge(a) => judge::run(a, lang),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Trace(a) => trace::run(a, lang),
        Command::Web(a) => web::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => report_error(&e, lang),
    }
}

/// Reports `error` on standard error (after writing out what standard
/// output holds) and returns its exit status; a reader of standard output
/// that has gone ends the command quietly.
fn report_error(error: &CliError, lang: Lang) -> i32 {
    if let CliError::BrokenPipe = error {
        return EXIT_OK;
    }
    let _ = io::stdout().flush();
    diag!("backtrack: {}", short_message(&error.message(lang)));
    error.exit_code()
}

/// What clap's refusal of the command line becomes: `--help` and
/// `--version` printed on standard output (0, or 3 when it cannot be
/// written); a command line that lacks its command gets the whole `--help`
/// text of what it named, on standard error (2), as `--help` prints it; any
/// other error its message, with long tokens cut short (2).
fn usage_error(error: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match error.print().and_then(|()| io::stdout().flush()) {
            Ok(()) => EXIT_OK,
            Err(e) => report_error(&CliError::from(e), Lang::En),
        },
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // The same words as `--help` after what was given.
            let help = std::env::args_os().chain([std::ffi::OsString::from("--help")]);
            let text = match Cli::try_parse_from(help) {
                Err(help) if help.kind() == ErrorKind::DisplayHelp => help.render(),
                _ => error.render(),
            };
            if io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
                diag_text(&text.ansi().to_string());
            } else {
                diag_text(&text.to_string());
            }
            EXIT_INPUT
        }
        _ => {
            diag_text(&short_tokens(&error));
            EXIT_INPUT
        }
    }
}

/// `error`'s message with every argument it quotes cut as
/// [`backtrack::error::Quoted`] cuts it (clap repeats a rejected argument
/// whole, in the message and in its tips).
fn short_tokens(error: &clap::Error) -> String {
    use clap::error::ContextValue;
    let mut message = error.render().to_string();
    for (_, value) in error.context() {
        let tokens = match value {
            ContextValue::String(token) => std::slice::from_ref(token),
            ContextValue::Strings(tokens) => tokens.as_slice(),
            _ => &[],
        };
        for token in tokens {
            let short = backtrack::error::Quoted(token).to_string();
            if short.len() < token.len() {
                message = message.replace(token.as_str(), &short);
            }
        }
    }
    message
}

/// `message`, cut to [`MAX_MESSAGE`] characters.
fn short_message(message: &str) -> std::borrow::Cow<'_, str> {
    match message.char_indices().nth(MAX_MESSAGE) {
        None => message.into(),
        Some((end, _)) => format!("{}...", &message[..end]).into(),
    }
}
