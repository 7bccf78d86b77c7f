//! `backtrack sudoku` on variant puzzles: one puzzle per line (ISS
//! constraint strings, killer strings, jigsaws, pencil marks, plain grids,
//! f-puzzles JSON and URLs; a file whose first puzzle opens a JSON document
//! that goes on past its line is that one document), answered in input order.
//!
//! A file goes this way when its first puzzle is in a format only variant
//! puzzles use ([`variant::is_variant_text`]), or with `--candidates`. A
//! reading thread hands lines over; [`search::run_in_order`] answers them
//! (on the threads with `--threads`, a bounded window at a time), the
//! answers are written in input order, and the output is flushed when no
//! more input is ready, so a program feeding puzzles one at a time gets
//! each answer at once.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use backtrack::json::Status;
use backtrack::search::{self, Feed};
use backtrack::variant::{self, answer, answer::Question};

use super::super::{diag, stdout, CliError, CliResult, EXIT_FAILURE, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use super::Args;

/// Lines in flight or waiting for their turn, per thread: enough to keep
/// every thread busy, few enough to bound memory.
const JOBS_PER_THREAD: usize = 16;

/// Lines read ahead of the answering.
const READ_AHEAD: usize = 256;

/// Longest line read (a 16x16 puzzle with every rule ISS draws fits well within).
const MAX_LINE: usize = 1 << 20;

/// Longest f-puzzles JSON document spanning several lines.
const MAX_DOCUMENT: usize = 16 << 20;

/// Bytes of a file looked at to tell its format.
const PEEK: usize = 1 << 16;

/// Answers the run as variant puzzles when it is one (see the module's
/// documentation); `None` leaves it to the classic path.
pub fn divert(args: &Args) -> Option<CliResult> {
    if !args.candidates && !first_puzzle_matches(&args.files, variant::is_variant_text) {
        return None;
    }
    Some(run(args))
}

/// Whether `test` holds for the first bytes of the first input (as text):
/// whether its first puzzle line is in a format that another path reads.
/// Standard input is looked at without being consumed.
pub fn first_puzzle_matches(files: &[PathBuf], test: fn(&str) -> bool) -> bool {
    let first = files.first().filter(|f| f.as_os_str() != "-");
    let head: Vec<u8> = match first {
        Some(path) => {
            let Ok(file) = std::fs::File::open(path) else { return false };
            let mut head = Vec::new();
            let _ = file.take(PEEK as u64).read_to_end(&mut head);
            head
        }
        None => {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            match lock.fill_buf() {
                Ok(buf) => buf.to_vec(),
                Err(_) => return false,
            }
        }
    };
    test(&String::from_utf8_lossy(&head))
}

/// One line to answer.
struct Item {
    file: usize,
    line: usize,
    index: usize,
    text: Result<String, CliError>,
}

fn run(args: &Args) -> CliResult {
    if args.lexmin {
        return Err(CliError::Input("--lexmin is for classic grids, not variant puzzles".into()));
    }
    if args.format.is_some() {
        return Err(CliError::Input("--format is for classic grids; variant solutions are written as lines".into()));
    }
    let question = if args.candidates {
        Question::Candidates(args.limit.unwrap_or(2))
    } else if args.count {
        Question::Count(args.limit)
    } else if args.all {
        Question::All
    } else {
        Question::First
    };
    let names: Vec<String> = if args.files.is_empty() {
        vec![super::super::input_name(None)]
    } else {
        args.files.iter().map(|f| super::super::input_name(Some(f))).collect()
    };
    let rx = start_reading(args.files.clone())?;
    // Every solution of a puzzle is one answer: held whole until its turn,
    // so those are answered one at a time.
    let threads = match question {
        Question::All => search::Threads::ONE,
        _ => args.threads.unwrap_or_default(),
    };
    let out = RefCell::new(stdout());
    let (mut invalid, mut no_solution, mut failed) = (0usize, 0usize, 0usize);
    // Puzzle lines read, answered or not: none at all is an empty input.
    let mut puzzles = 0usize;
    // Set when the run ends early: a write error, or the first bad puzzle with --strict.
    let mut stop: Option<Result<(), std::io::Error>> = None;
    search::run_in_order(
        threads,
        threads.get() * JOBS_PER_THREAD,
        || (),
        |idle| match rx.try_recv() {
            Ok(item) => Feed::Job(item),
            Err(mpsc::TryRecvError::Disconnected) => Feed::End,
            Err(mpsc::TryRecvError::Empty) if idle => {
                // Nothing in flight and nothing to read: the answers so far
                // go out before waiting. A failed flush shows again at the next write.
                let _ = out.borrow_mut().flush();
                wait(&rx).map_or(Feed::End, Feed::Job)
            }
            Err(mpsc::TryRecvError::Empty) => Feed::Wait,
        },
        |_, item: &Item| -> (Vec<u8>, Option<answer::Answered>) {
            let mut text = Vec::new();
            let Ok(line) = &item.text else { return (text, None) };
            let source = answer::Source { file: &names[item.file], line: item.line, index: item.index };
            let answered = answer::answer(line, source, question, args.json, &mut text);
            (text, Some(answered))
        },
        |item, (text, answered)| {
            if let Err(e) = &item.text {
                diag!("backtrack: {e}");
                // Input that cannot be a puzzle (a line past the limit) is bad
                // input, as for classic puzzles; a file that cannot be read is
                // a failure.
                match e {
                    CliError::Input(_) => invalid += 1,
                    _ => failed += 1,
                }
                return ControlFlow::Continue(());
            }
            puzzles += 1;
            if let Err(e) = out.borrow_mut().write_all(&text) {
                stop = Some(Err(e));
                return ControlFlow::Break(());
            }
            match answered {
                Some(answer::Answered { status: Status::Invalid, error }) => {
                    invalid += 1;
                    if let Some(e) = error {
                        diag!("backtrack: {}: {e}", names[item.file]);
                    }
                    if args.strict {
                        stop = Some(Ok(()));
                        return ControlFlow::Break(());
                    }
                }
                Some(answer::Answered { status: Status::NoSolution, .. }) => no_solution += 1,
                _ => {}
            }
            match super::super::interrupted() {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        },
    )?;
    let mut out = out.into_inner();
    match stop {
        Some(Err(e)) => return Err(e.into()),
        Some(Ok(())) => {
            out.flush()?;
            return Ok(EXIT_INPUT);
        }
        None => {}
    }
    out.flush()?;
    if super::super::interrupted() {
        return Err(CliError::Interrupted("interrupted; the answers written are above".into()));
    }
    if puzzles == 0 && invalid == 0 && failed == 0 {
        diag!("backtrack: {}: line 1: empty input: no puzzle found", names.join(", "));
        return Ok(EXIT_INPUT);
    }
    Ok(if failed > 0 {
        EXIT_FAILURE
    } else if invalid > 0 {
        EXIT_INPUT
    } else if no_solution > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

/// Waits for the next line, or `None` at the end of the input or after Ctrl-C.
fn wait(rx: &mpsc::Receiver<Item>) -> Option<Item> {
    loop {
        if super::super::interrupted() {
            return None;
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(item) => return Some(item),
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    }
}

/// Starts the thread that reads every file's puzzle lines (blank lines and
/// `#` comments skipped).
fn start_reading(files: Vec<PathBuf>) -> Result<mpsc::Receiver<Item>, CliError> {
    let (tx, rx) = mpsc::sync_channel::<Item>(READ_AHEAD);
    std::thread::Builder::new()
        .name("read".into())
        .spawn(move || {
            let files: Vec<Option<PathBuf>> =
                if files.is_empty() { vec![None] } else { files.into_iter().map(Some).collect() };
            for (file, path) in files.iter().enumerate() {
                let mut index = 0;
                let name = super::super::input_name(path.as_ref());
                let source = match super::super::open_input(path.as_ref()) {
                    Ok(s) => s,
                    Err(e) => {
                        if tx.send(Item { file, line: 0, index, text: Err(e) }).is_err() {
                            return;
                        }
                        continue;
                    }
                };
                let mut reader = BufReader::new(source);
                let mut buf = Vec::new();
                let mut line = 0;
                loop {
                    buf.clear();
                    line += 1;
                    match (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
                        Ok(0) => break,
                        Ok(_) => {}
                        Err(e) => {
                            let _ = tx.send(Item {
                                file,
                                line,
                                index,
                                text: Err(CliError::Failure(format!("{name}: cannot read: {e}"))),
                            });
                            break;
                        }
                    }
                    if buf.len() > MAX_LINE {
                        let e = CliError::Input(format!("{name}: line {line}: longer than {MAX_LINE} bytes"));
                        let _ = tx.send(Item { file, line, index, text: Err(e) });
                        break;
                    }
                    let text = String::from_utf8_lossy(&buf);
                    let text = if line == 1 { text.trim_start_matches('\u{feff}') } else { &text };
                    let trimmed = text.trim();
                    if trimmed.is_empty() || trimmed.starts_with('#') {
                        continue;
                    }
                    if index == 0 && variant::fpuzzles::opens_document(trimmed) {
                        // The whole file is one JSON document: one puzzle.
                        let mut rest = Vec::new();
                        let read = (&mut reader).take(MAX_DOCUMENT as u64).read_to_end(&mut rest);
                        let text = match read {
                            Err(e) => Err(CliError::Failure(format!("{name}: cannot read: {e}"))),
                            Ok(_) if rest.len() >= MAX_DOCUMENT => Err(CliError::Input(format!(
                                "{name}: line {line}: a JSON document longer than {MAX_DOCUMENT} bytes"
                            ))),
                            Ok(_) => Ok(format!("{trimmed}\n{}", String::from_utf8_lossy(&rest))),
                        };
                        let _ = tx.send(Item { file, line, index, text });
                        break;
                    }
                    if tx.send(Item { file, line, index, text: Ok(trimmed.to_string()) }).is_err() {
                        return;
                    }
                    index += 1;
                }
            }
        })
        .map_err(|e| CliError::Failure(format!("cannot start the reading thread: {e}")))?;
    Ok(rx)
}
