//! Reading puzzles from a stream in bounded memory, a batch at a time.
//!
//! A [`Reader`] takes whatever bytes its source has ready (one `read` call),
//! cuts them after the last complete puzzle, and parses that part as a
//! [`Batch`] numbered as in the whole stream; the rest waits for the next
//! read. So a program answering puzzles as batches come sees each puzzle as
//! soon as its last line has arrived, and memory holds one read's worth of
//! text however long the stream. A line longer than [`MAX_LINE`] stops the
//! reading with an error naming the limit.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Read};

use super::parse::detect_unmarked;
use super::read::{is_skippable, is_space};
use super::{Batch, Format, Layout};
use crate::ParseError;

/// Longest line a [`Reader`] accepts, in bytes (the longest puzzle line,
/// 25x25 in one line, has 625 symbols).
pub const MAX_LINE: usize = 64 << 10;

/// Bytes asked for by one read: several thousand 9x9 puzzles.
const READ_SIZE: usize = 256 << 10;

/// Why a [`Reader`] stopped.
#[derive(Debug)]
pub enum StreamError {
    /// Reading failed.
    Io(io::Error),
    /// A line is longer than [`MAX_LINE`] bytes.
    LineTooLong {
        /// The 1-based number of the line.
        line: usize,
    },
    /// The puzzles' format or size cannot be told from the first lines.
    Format(ParseError),
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StreamError::Io(e) => write!(f, "cannot read: {e}"),
            StreamError::LineTooLong { line } => {
                write!(f, "line {line}: longer than {} KiB, the longest line accepted", MAX_LINE >> 10)
            }
            StreamError::Format(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StreamError {}

/// Where a line ends a puzzle, for cutting grids between puzzles.
#[derive(Debug, Clone, Copy, Default)]
struct Cutter {
    /// Rows of the puzzle being read that have been seen so far.
    row: usize,
}

impl Cutter {
    /// Takes one line; returns whether the text may be cut after it.
    fn line(&mut self, line: &[u8], side: usize) -> bool {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|&b| is_space(b)) {
            // A blank line ends the puzzle being read (as an error if it has begun).
            self.row = 0;
        } else if !is_skippable(line) {
            self.row = (self.row + 1) % side;
        }
        self.row == 0
    }
}

/// Puzzles read from a byte stream, batch by batch (see the [module docs](self)).
#[derive(Debug)]
pub struct Reader<R> {
    source: R,
    /// Bytes read and not yet handed out; `buf[..scanned]` has been looked at for cuts.
    buf: Vec<u8>,
    scanned: usize,
    /// Where the text may be cut: just past the last line that ends a puzzle.
    cut: usize,
    /// Line number of `buf[0]`, and of `buf[scanned]`.
    first_line: usize,
    scan_line: usize,
    layout: Option<Layout>,
    cutter: Cutter,
    /// Whether the source has ended.
    ended: bool,
    /// Whether the first bytes may still be a byte-order mark to drop.
    at_start: bool,
    /// Whether the reader has failed or handed out everything.
    done: bool,
    /// An error found after complete puzzles, to hand out once they are.
    failed: Option<StreamError>,
}

impl<R: Read> Reader<R> {
    /// A reader of `source`, whose format is found from its first puzzle lines.
    pub fn new(source: R) -> Self {
        Reader {
            source,
            buf: Vec::new(),
            scanned: 0,
            cut: 0,
            first_line: 1,
            scan_line: 1,
            layout: None,
            cutter: Cutter::default(),
            ended: false,
            at_start: true,
            done: false,
            failed: None,
        }
    }

    /// A reader of puzzles known to be in `layout`.
    pub fn with_layout(source: R, layout: Layout) -> Self {
        Reader { layout: Some(layout), ..Reader::new(source) }
    }

    /// The layout of the puzzles, once known.
    pub fn layout(&self) -> Option<Layout> {
        self.layout
    }

    /// The next batch: every complete puzzle read so far (at least one, or
    /// the last ones at the end of the stream, complete or not). Reads from
    /// the source only when no complete puzzle is waiting, one read at a
    /// time. `None` once the stream has ended; after an error, `None` too.
    pub fn next_batch(&mut self) -> Option<Result<Batch, StreamError>> {
        if self.done {
            return None;
        }
        if let Some(e) = self.failed.take() {
            self.done = true;
            return Some(Err(e));
        }
        loop {
            if let Err(e) = self.scan() {
                if self.cut > 0 {
                    // The puzzles before the fault first, the error next time.
                    self.failed = Some(e);
                    return Some(Ok(self.take(self.cut)));
                }
                self.done = true;
                return Some(Err(e));
            }
            if self.cut > 0 {
                let batch = self.take(self.cut);
                return Some(Ok(batch));
            }
            if self.ended {
                self.done = true;
                if self.layout.is_none() {
                    // No complete line held a puzzle: the last line (with no
                    // newline) may, or the input has none.
                    match detect_unmarked(&String::from_utf8_lossy(&self.buf)) {
                        Ok(layout) => self.layout = Some(layout),
                        Err(e) => return Some(Err(StreamError::Format(e))),
                    }
                }
                if self.buf.iter().all(u8::is_ascii_whitespace) {
                    return None;
                }
                // The last puzzle lacks its end: the parser says what is missing.
                return Some(Ok(self.take(self.buf.len())));
            }
            if let Err(e) = self.fill() {
                self.done = true;
                return Some(Err(e));
            }
        }
    }

    /// One read from the source into the buffer.
    fn fill(&mut self) -> Result<(), StreamError> {
        self.fill_once()?;
        // A byte-order mark starts no line: dropped once its three bytes
        // (or the end) are in. Until then no line is complete, so nothing
        // was scanned or cut yet.
        if self.at_start && (self.buf.len() >= crate::text::BOM.len() || self.ended) {
            self.at_start = false;
            let kept = crate::text::strip_bom_bytes(&self.buf).len();
            self.buf.drain(..self.buf.len() - kept);
        }
        Ok(())
    }

    /// One read from the source into the buffer, as it comes.
    fn fill_once(&mut self) -> Result<(), StreamError> {
        let len = self.buf.len();
        self.buf.resize(len + READ_SIZE, 0);
        let read = loop {
            match self.source.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(StreamError::Io(e));
                }
            }
        };
        self.buf.truncate(len + read);
        self.ended = read == 0;
        Ok(())
    }

    /// Looks at the new complete lines for places to cut; finds the layout
    /// first if it is not known yet.
    fn scan(&mut self) -> Result<(), StreamError> {
        if self.layout.is_none() {
            match self.try_detect()? {
                Some(layout) => self.layout = Some(layout),
                None => {
                    // Only blank and comment lines so far: they carry nothing to keep.
                    let complete = memchr::memrchr(b'\n', &self.buf).map_or(0, |end| end + 1);
                    self.first_line += memchr::memchr_iter(b'\n', &self.buf[..complete]).count();
                    self.scan_line = self.first_line;
                    self.buf.drain(..complete);
                    return Ok(());
                }
            }
        }
        let layout = self.layout.expect("found above");
        let side = layout.box_size * layout.box_size;
        while let Some(end) = memchr::memchr(b'\n', &self.buf[self.scanned..]) {
            let line = &self.buf[self.scanned..self.scanned + end];
            if line.len() > MAX_LINE {
                return Err(StreamError::LineTooLong { line: self.scan_line });
            }
            let cuttable = layout.format == Format::Line || self.cutter.line(line, side);
            self.scanned += end + 1;
            self.scan_line += 1;
            if cuttable {
                self.cut = self.scanned;
            }
        }
        if self.buf.len() - self.scanned > MAX_LINE {
            return Err(StreamError::LineTooLong { line: self.scan_line });
        }
        if self.ended && self.scanned < self.buf.len() && layout.format == Format::Line {
            // A last line with no newline is a whole puzzle line too.
            self.scanned = self.buf.len();
            self.cut = self.scanned;
        }
        Ok(())
    }

    /// The layout, if the buffer holds enough lines to tell it (the first
    /// puzzle line and up to 15 more, or the end of the stream).
    fn try_detect(&mut self) -> Result<Option<Layout>, StreamError> {
        let mut complete = match memchr::memrchr(b'\n', &self.buf) {
            Some(end) => end + 1,
            None => 0,
        };
        // Only the lines before an over-long one count (the scan refuses it later).
        let mut start = 0;
        for (k, line) in self.buf[..complete].split(|&b| b == b'\n').enumerate() {
            if line.len() > MAX_LINE {
                if start == 0 {
                    return Err(StreamError::LineTooLong { line: self.first_line + k });
                }
                complete = start;
                break;
            }
            start += line.len() + 1;
        }
        if complete == 0 && self.buf.len() > MAX_LINE {
            return Err(StreamError::LineTooLong { line: self.first_line });
        }
        // One puzzle line is enough (with the next 15, when they have come,
        // to tell 4x4 lines from 16x16 rows): a source that sends one puzzle
        // and waits for its answer must get it.
        let text = String::from_utf8_lossy(&self.buf[..complete]);
        if text.lines().all(|l| is_skippable(l.as_bytes())) {
            return Ok(None);
        }
        detect_unmarked(&text).map(Some).map_err(StreamError::Format)
    }

    /// Parses `buf[..end]` as a batch and drops it from the buffer.
    fn take(&mut self, end: usize) -> Batch {
        let layout = self.layout.expect("known before a cut");
        let batch = {
            let text: Cow<str> = String::from_utf8_lossy(&self.buf[..end]);
            Batch::parse_part(&text, layout, self.first_line)
        };
        self.first_line += memchr::memchr_iter(b'\n', &self.buf[..end]).count();
        self.buf.drain(..end);
        self.scanned = self.scanned.saturating_sub(end);
        self.cut = 0;
        batch
    }
}
