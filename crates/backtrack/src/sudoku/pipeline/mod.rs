//! The ordered streaming pipeline of the batch commands: puzzles read from
//! a list of sources, answered on several threads, the answers written in
//! input order.
//!
//! A reading thread turns each source into batches of puzzles (a
//! [`stream::Reader`]: bounded memory whatever the input's length). The
//! batches are cut into jobs of a few puzzles, answered by an [`Answer`] on
//! [`run_in_order`]'s threads (a bounded window of jobs at a time), and each
//! job's answers, built in a byte buffer of their own, are written in input
//! order. Output is flushed whenever no input is ready, so that a program
//! feeding puzzles one by one gets each answer at once. Every puzzle gets
//! exactly one answer (a malformed one an error in its place), so answers
//! stay aligned with puzzles.
//!
//! [`solve`] answers with the solver (`backtrack sudoku`), [`reply`] with
//! the rater (`rate`, `explain`, `hint`); [`marks`] answers a stream of
//! pencil-mark grids with the rater.

pub mod marks;
pub mod reply;
pub mod solve;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read, Write};
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

use super::answer::{self, Head, Invalid, Status};
use super::stream::{self, StreamError};
use super::{Batch, Entry};
use crate::search::{run_in_order, Control, Feed, ThreadStartError, Threads};
use crate::ParseError;

/// What the answer to a malformed puzzle starts with (the error follows).
pub const ERROR_PREFIX: &str = "# error: ";

/// Jobs in flight per thread: enough to keep every thread busy while the
/// calling thread writes, few enough to bound the answers held in memory.
const JOBS_PER_THREAD: usize = 4;

/// Where puzzles come from: a name for messages and a way to open it.
pub struct Source {
    name: String,
    open: Box<dyn FnOnce() -> io::Result<Box<dyn Read + Send>> + Send>,
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Source {
    /// The file at `path`, or standard input for `-`.
    pub fn path(path: PathBuf) -> Source {
        if path.as_os_str() == "-" {
            return Source::stdin();
        }
        let name = path.display().to_string();
        Source { name, open: Box::new(move || Ok(Box::new(std::fs::File::open(path)?) as Box<dyn Read + Send>)) }
    }

    /// Standard input, named `<stdin>`.
    pub fn stdin() -> Source {
        Source::reader("<stdin>", io::stdin())
    }

    /// Any reader, under `name`.
    pub fn reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Source {
        Source { name: name.into(), open: Box::new(move || Ok(Box::new(reader) as Box<dyn Read + Send>)) }
    }

    /// The files at `paths` (`-` for standard input), or standard input for none.
    pub fn paths(paths: &[PathBuf]) -> Vec<Source> {
        if paths.is_empty() {
            vec![Source::stdin()]
        } else {
            paths.iter().cloned().map(Source::path).collect()
        }
    }
}

/// A source that cannot be read on, and why.
#[derive(Debug)]
pub struct InputError {
    /// The source's name.
    pub name: String,
    /// What went wrong: [`StreamError::Io`] for a source that cannot be
    /// opened or read, the others for input that is not puzzles.
    pub error: StreamError,
}

impl InputError {
    /// Whether reading failed (rather than the input being malformed).
    pub fn is_io(&self) -> bool {
        matches!(self.error, StreamError::Io(_))
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.error)
    }
}

impl std::error::Error for InputError {}

/// A batch of one source's puzzles.
#[derive(Debug)]
pub struct Part {
    /// The source's name.
    pub name: String,
    /// The puzzles.
    pub batch: Batch,
    /// Index in the source of the batch's first puzzle.
    pub first_index: usize,
}

impl Part {
    /// The head of the JSON answer to `entry`, puzzle `index` of the source.
    pub fn head(&self, entry: &Entry, index: usize, status: Status) -> Head<'_> {
        Head { file: &self.name, line: entry.line, index, status }
    }

    /// The answer to the malformed puzzle `entry`, puzzle `index` of the
    /// source: `# error: ...` (after the blank line that separates grids
    /// when `separated`), or with `json` an object with status "invalid".
    pub fn write_invalid(
        &self,
        text: &mut Vec<u8>,
        entry: &Entry,
        index: usize,
        error: &ParseError,
        json: bool,
        separated: bool,
    ) {
        if json {
            answer::write_line(
                text,
                &Invalid { head: self.head(entry, index, Status::Invalid), error: error.to_string() },
            );
        } else {
            if separated {
                text.push(b'\n');
            }
            let _ = writeln!(text, "{ERROR_PREFIX}{error}");
        }
    }
}

/// What the reading thread hands over.
enum Message {
    /// Puzzles read.
    Batch(Part),
    /// A source that cannot be read on.
    Failed(InputError),
}

/// Batches read ahead by a reading thread.
struct Reading {
    rx: mpsc::Receiver<Message>,
}

impl Reading {
    /// Starts the thread that reads and parses `sources` in turn, a few
    /// batches ahead of the receiver, until the receiver hangs up.
    fn start(sources: Vec<Source>) -> Result<Reading, PipelineError> {
        let (tx, rx) = mpsc::sync_channel::<Message>(2);
        std::thread::Builder::new()
            .name("read".into())
            .spawn(move || read_sources(sources, &tx))
            .map_err(PipelineError::Reader)?;
        Ok(Reading { rx })
    }

    /// The next message, `None` at the end of the input, after `control`
    /// is cancelled, or (unless `wait`) when none is ready yet. Before
    /// waiting, `idle` is called (to flush output: a program feeding
    /// puzzles one at a time then gets each answer at once).
    fn next(&self, wait: bool, control: &Control, idle: &mut dyn FnMut()) -> Option<Message> {
        match self.rx.try_recv() {
            Ok(message) => return Some(message),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) if !wait => return None,
            Err(mpsc::TryRecvError::Empty) => idle(),
        }
        loop {
            if control.is_cancelled() {
                return None;
            }
            match self.rx.recv_timeout(Duration::from_millis(100)) {
                Ok(message) => return Some(message),
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }
}

/// The reading thread: every source in turn, batch by batch.
fn read_sources(sources: Vec<Source>, tx: &mpsc::SyncSender<Message>) {
    for source in sources {
        let name = source.name;
        let reader = match (source.open)() {
            Ok(reader) => reader,
            Err(e) => {
                if tx.send(Message::Failed(InputError { name, error: StreamError::Io(e) })).is_err() {
                    return;
                }
                continue;
            }
        };
        let mut reader = stream::Reader::new(reader);
        let mut first_index = 0;
        while let Some(next) = reader.next_batch() {
            let message = match next {
                Ok(batch) => {
                    let part = Part { name: name.clone(), batch, first_index };
                    first_index += part.batch.entries().len();
                    Message::Batch(part)
                }
                Err(error) => Message::Failed(InputError { name: name.clone(), error }),
            };
            if tx.send(message).is_err() {
                return;
            }
        }
    }
}

/// The tallies of a run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Puzzles answered.
    pub answered: usize,
    /// Puzzles that were malformed (and sources whose input is not puzzles).
    pub invalid: usize,
    /// Puzzles that did not get what was asked (no solution, no rating).
    pub no_solution: usize,
    /// Sources that could not be read.
    pub failed: usize,
}

/// Why a run stopped before the end of its input.
#[derive(Debug)]
pub enum PipelineError {
    /// Writing the answers failed.
    Write(io::Error),
    /// The reading thread could not be started.
    Reader(io::Error),
    /// The answering threads could not be started.
    Threads(ThreadStartError),
    /// A malformed puzzle ended a strict run (the answers before it are written).
    Strict {
        /// The source's name.
        name: String,
        /// What is wrong with the puzzle.
        error: ParseError,
    },
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineError::Write(e) => write!(f, "cannot write: {e}"),
            PipelineError::Reader(e) => write!(f, "cannot start the reading thread: {e}"),
            PipelineError::Threads(e) => e.fmt(f),
            PipelineError::Strict { name, error } => write!(f, "{name}: {error}"),
        }
    }
}

impl std::error::Error for PipelineError {}

/// What a job produced: its answers' text and what they found.
#[derive(Debug, Default)]
pub struct Answered {
    /// The answers, in order.
    pub text: Vec<u8>,
    /// Puzzles that did not get what was asked.
    pub no_solution: usize,
    /// The errors of the puzzles answered as malformed, in order.
    pub malformed: Vec<ParseError>,
    /// Whether every answer in `text` starts with a blank line that
    /// separates it from the one before (dropped before the run's first).
    pub separated: bool,
    /// Threads that a split search could not start: the job ended there,
    /// and so does the run.
    pub threads_failed: Option<ThreadStartError>,
}

/// How a batch command answers puzzles: one job, a range of a part's
/// puzzles, at a time.
pub trait Answer: Sync {
    /// What a thread keeps from one job to the next (a solver, a rater).
    type Scratch: Send;

    /// A fresh scratch value.
    fn scratch(&self) -> Self::Scratch;

    /// Puzzles per job: big enough that scheduling costs nothing, small
    /// enough that the threads share the tail of the input evenly.
    fn chunk(&self) -> usize;

    /// Whether a lone puzzle (a batch of one, with no other job in flight)
    /// should have every thread to itself: then [`Answer::answer`] gets
    /// `split`.
    fn splits_lone(&self) -> bool {
        false
    }

    /// Answers puzzles `range` of `part` into `out`, every one of them,
    /// each either an answer or (for a malformed one) its error, recorded
    /// in [`Answered::malformed`] too.
    fn answer(&self, scratch: &mut Self::Scratch, part: &Part, range: Range<usize>, split: Option<Threads>)
        -> Answered;
}

/// One job of a run, in input order.
enum Job {
    /// Puzzles `range` of a part, with the threads for a lone puzzle's split search.
    Chunk(Arc<Part>, Range<usize>, Option<Threads>),
    /// A source that cannot be read on, reported in its turn.
    Failed(InputError),
    /// The malformed puzzle that ends a strict run.
    Strict(Arc<Part>, usize),
}

/// How the jobs of a run are made from what the reading thread hands over.
struct Feeder<'a> {
    reading: Reading,
    queued: VecDeque<Job>,
    strict: bool,
    /// Whether the input has ended (or a strict run met its end).
    ended: bool,
    control: &'a Control,
}

impl Feeder<'_> {
    /// The next job; `wait` as for [`Reading::next`]. `chunk` puzzles a
    /// job, and `split` for a part of one puzzle when `wait` (no job in flight).
    fn next(&mut self, wait: bool, chunk: usize, split: Option<Threads>, idle: &mut dyn FnMut()) -> Feed<Job> {
        loop {
            if self.control.is_cancelled() {
                self.queued.clear();
                self.ended = true;
            }
            if let Some(job) = self.queued.pop_front() {
                return Feed::Job(job);
            }
            if self.ended {
                return Feed::End;
            }
            match self.reading.next(wait, self.control, idle) {
                Some(Message::Batch(part)) => {
                    let entries = part.batch.entries();
                    let end = match self.strict {
                        true => entries.iter().position(|e| e.result.is_err()).unwrap_or(entries.len()),
                        false => entries.len(),
                    };
                    let whole = end == entries.len();
                    let part = Arc::new(part);
                    let split = split.filter(|_| wait && end == 1);
                    for start in (0..end).step_by(chunk.max(1)) {
                        self.queued.push_back(Job::Chunk(
                            part.clone(),
                            start..start.saturating_add(chunk).min(end),
                            split,
                        ));
                    }
                    if !whole {
                        self.queued.push_back(Job::Strict(part, end));
                        self.ended = true;
                    }
                }
                Some(Message::Failed(e)) => return Feed::Job(Job::Failed(e)),
                None if wait => self.ended = true,
                None => return Feed::Wait,
            }
        }
    }
}

/// What the calling thread of a run keeps: the output and the tallies.
struct Writer<'a> {
    out: &'a mut dyn Write,
    tally: Tally,
    /// Whether any answer was written yet (the first gets no separator).
    wrote_any: bool,
    report: &'a mut dyn FnMut(&dyn fmt::Display),
}

impl Writer<'_> {
    /// Reports a source that cannot be read on.
    fn failed(&mut self, error: &InputError) {
        (self.report)(error);
        match error.is_io() {
            true => self.tally.failed += 1,
            false => self.tally.invalid += 1,
        }
    }

    /// Writes the answers to puzzles `range` of `part`, and reports its malformed puzzles.
    fn answers(&mut self, part: &Part, range: Range<usize>, answered: Answered) -> io::Result<()> {
        for error in &answered.malformed {
            (self.report)(&format_args!("{}: {error}", part.name));
        }
        self.tally.invalid += answered.malformed.len();
        self.tally.no_solution += answered.no_solution;
        self.tally.answered += range.len();
        let text = &answered.text;
        let skip = usize::from(answered.separated && !self.wrote_any && !text.is_empty());
        self.out.write_all(&text[skip..])?;
        self.wrote_any |= !text.is_empty();
        Ok(())
    }
}

/// Answers every puzzle of `sources` with `answer` on `threads` threads,
/// writing the answers to `out` in input order (see the [module
/// docs](self)) and passing every problem met on the way (a malformed
/// puzzle, a source that cannot be read) to `report`, in its turn. With
/// `strict`, the first malformed puzzle ends the run, after the answers
/// before it. Once `control` is cancelled no more puzzles are read; the
/// answers in flight are written. Returns the tallies; `out` is flushed
/// whenever no input is ready, not at the end.
pub fn answer_in_order<A: Answer>(
    sources: Vec<Source>,
    threads: Threads,
    strict: bool,
    control: &Control,
    answer: &A,
    out: &mut dyn Write,
    report: &mut dyn FnMut(&dyn fmt::Display),
) -> Result<Tally, PipelineError> {
    let mut feeder =
        Feeder { reading: Reading::start(sources)?, queued: VecDeque::new(), strict, ended: false, control };
    let writer = RefCell::new(Writer { out, tally: Tally::default(), wrote_any: false, report });
    let mut stop: Option<PipelineError> = None;
    let split = (threads != Threads::ONE && answer.splits_lone()).then_some(threads);
    let chunk = answer.chunk();
    run_in_order(
        threads,
        threads.get() * JOBS_PER_THREAD,
        || answer.scratch(),
        |wait| {
            feeder.next(wait, chunk, split, &mut || {
                // A failed flush shows again at the next write.
                let _ = writer.borrow_mut().out.flush();
            })
        },
        |scratch, job| match job {
            Job::Chunk(part, range, split) => Some(answer.answer(scratch, part, range.clone(), *split)),
            Job::Failed(_) | Job::Strict(..) => None,
        },
        |job, answered| {
            let writer = &mut *writer.borrow_mut();
            match (job, answered) {
                (Job::Chunk(_, _, _), Some(Answered { threads_failed: Some(e), .. })) => {
                    stop = Some(PipelineError::Threads(e));
                    return ControlFlow::Break(());
                }
                (Job::Chunk(part, range, _), Some(answered)) => {
                    if let Err(e) = writer.answers(&part, range, answered) {
                        stop = Some(PipelineError::Write(e));
                        return ControlFlow::Break(());
                    }
                }
                (Job::Failed(error), _) => writer.failed(&error),
                (Job::Strict(part, at), _) => {
                    let error = part.batch.entries()[at].result.clone().expect_err("a malformed entry");
                    stop = Some(PipelineError::Strict { name: part.name.clone(), error });
                    return ControlFlow::Break(());
                }
                (Job::Chunk(..), None) => unreachable!("a chunk is answered"),
            }
            ControlFlow::Continue(())
        },
    )
    .map_err(PipelineError::Threads)?;
    match stop {
        Some(e) => Err(e),
        None => Ok(writer.into_inner().tally),
    }
}

/// Hands every part of `sources` to `each`, in turn, on this thread: the
/// pipeline of a command that answers a puzzle by streaming its output
/// (every solution), which no job could hold. Problems are reported as by
/// [`answer_in_order`]; `each` gets the part, the end of the puzzles to
/// answer (those before the first malformed one with `strict`), the
/// tallies, the output and `report`. Stops when `each` fails or `control` is cancelled.
pub fn each_in_turn(
    sources: Vec<Source>,
    strict: bool,
    control: &Control,
    out: &mut dyn Write,
    report: &mut dyn FnMut(&dyn fmt::Display),
    mut each: impl FnMut(&Part, usize, &mut Tally, &mut dyn Write, &mut dyn FnMut(&dyn fmt::Display)) -> io::Result<()>,
) -> Result<Tally, PipelineError> {
    let mut feeder =
        Feeder { reading: Reading::start(sources)?, queued: VecDeque::new(), strict, ended: false, control };
    let mut writer = Writer { out, tally: Tally::default(), wrote_any: false, report };
    // Whole parts: one job each.
    loop {
        let job = feeder.next(true, usize::MAX, None, &mut || {
            let _ = writer.out.flush();
        });
        match job {
            Feed::Job(Job::Chunk(part, range, _)) => {
                each(&part, range.end, &mut writer.tally, writer.out, writer.report).map_err(PipelineError::Write)?
            }
            Feed::Job(Job::Failed(error)) => writer.failed(&error),
            Feed::Job(Job::Strict(part, at)) => {
                let error = part.batch.entries()[at].result.clone().expect_err("a malformed entry");
                return Err(PipelineError::Strict { name: part.name.clone(), error });
            }
            Feed::Wait => {}
            Feed::End => return Ok(writer.tally),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::solve::Solve;
    use super::*;
    use crate::search::Mode;

    const PUZZLE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    /// The answers to `input` on `threads`, the problems reported, and the tallies.
    fn answer(input: &str, threads: usize, strict: bool) -> (String, Vec<String>, Result<Tally, PipelineError>) {
        let solve = Solve { mode: Mode::First, json: false, format: None };
        let (mut out, mut problems) = (Vec::new(), Vec::new());
        let sources = vec![Source::reader("in", io::Cursor::new(input.as_bytes().to_vec()))];
        let threads = Threads::new(threads).unwrap();
        let result = answer_in_order(sources, threads, strict, &Control::new(), &solve, &mut out, &mut |p| {
            problems.push(p.to_string())
        });
        (String::from_utf8(out).unwrap(), problems, result)
    }

    #[test]
    fn answers_come_in_input_order_with_errors_in_place() {
        // 600 puzzles (several jobs), every 97th malformed.
        let lines: Vec<String> =
            (0..600).map(|i| if i % 97 == 5 { format!("{}x", &PUZZLE[1..]) } else { PUZZLE.to_string() }).collect();
        let input = lines.join("\n") + "\n";
        let (one, problems, tally) = answer(&input, 1, false);
        let answers: Vec<&str> = one.lines().collect();
        assert_eq!(answers.len(), 600);
        for (i, answer) in answers.iter().enumerate() {
            assert_eq!(answer.starts_with(ERROR_PREFIX), i % 97 == 5, "answer {i}: {answer}");
        }
        assert_eq!(problems.len(), 7);
        assert_eq!(tally.unwrap(), Tally { answered: 600, invalid: 7, no_solution: 0, failed: 0 });
        for threads in [2, 3] {
            let (many, problems_many, _) = answer(&input, threads, false);
            assert_eq!(many, one, "{threads} threads");
            assert_eq!(problems_many, problems);
        }
    }

    #[test]
    fn strict_stops_at_the_first_malformed_puzzle_after_the_answers_before_it() {
        let input = format!("{PUZZLE}\n{PUZZLE}\n{}x\n{PUZZLE}\n", &PUZZLE[1..]);
        for threads in [1, 2] {
            let (out, _, result) = answer(&input, threads, true);
            assert_eq!(out.lines().count(), 2, "{threads} threads: {out}");
            assert!(matches!(result, Err(PipelineError::Strict { error, .. }) if error.line == 3));
        }
    }

    #[test]
    fn a_source_that_cannot_be_opened_is_reported_in_its_turn() {
        let solve = Solve { mode: Mode::First, json: false, format: None };
        let sources = vec![
            Source::reader("a", io::Cursor::new(format!("{PUZZLE}\n").into_bytes())),
            Source::path(PathBuf::from("/no/such/file")),
            Source::reader("b", io::Cursor::new(format!("{PUZZLE}\n").into_bytes())),
        ];
        let (mut out, mut problems) = (Vec::new(), Vec::new());
        let tally = answer_in_order(sources, Threads::ONE, false, &Control::new(), &solve, &mut out, &mut |p| {
            problems.push(p.to_string())
        })
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
        assert_eq!(tally.failed, 1);
        assert!(problems[0].starts_with("/no/such/file: cannot read"), "{problems:?}");
    }
}
