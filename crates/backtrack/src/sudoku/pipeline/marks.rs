//! `rate`, `explain` and `hint` on a stream of pencil-mark grids, one per
//! line ([`marks`](crate::sudoku::marks)): the rater starts from each
//! grid's candidates rather than from givens.
//!
//! The grids are read line by line and answered in turn on the calling
//! thread, each answer written (and flushed) as soon as it is ready, so a
//! program can write one grid and read its answer before writing the
//! next. Every grid gets one answer, a malformed one its error in place,
//! so that answers stay aligned with grids, as in [`answer_in_order`](super::answer_in_order).

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

use super::reply::Replies;
use super::{InputError, PipelineError, Source, Tally, ERROR_PREFIX};
use crate::search::Control;
use crate::sudoku::answer::{self, Head, Invalid, Status};
use crate::sudoku::marks::parse_marks;
use crate::sudoku::rate::Rater;
use crate::sudoku::stream::{StreamError, MAX_LINE};

/// Answers every pencil-mark grid of `sources` with `replies`, writing
/// each answer to `out` as it is ready and passing every problem met (a
/// malformed grid, a source that cannot be read) to `report`. Once
/// `control` is cancelled no more grids are read. Returns the tallies.
pub fn answer_marks(
    sources: Vec<Source>,
    replies: &Replies,
    control: &Control,
    out: &mut dyn Write,
    report: &mut dyn FnMut(&dyn fmt::Display),
) -> Result<Tally, PipelineError> {
    let mut tally = Tally::default();
    let mut rater = Rater::new();
    for source in sources {
        let name = source.name;
        let failed = |error: StreamError, tally: &mut Tally, report: &mut dyn FnMut(&dyn fmt::Display)| {
            let error = InputError { name: name.clone(), error };
            report(&error);
            match error.is_io() {
                true => tally.failed += 1,
                false => tally.invalid += 1,
            }
        };
        let reader = match (source.open)() {
            Ok(reader) => reader,
            Err(e) => {
                failed(StreamError::Io(e), &mut tally, report);
                continue;
            }
        };
        let mut reader = BufReader::new(reader);
        let mut buf = Vec::new();
        let (mut line, mut index) = (0, 0);
        while !control.is_cancelled() {
            buf.clear();
            line += 1;
            match (&mut reader).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) if buf.len() > MAX_LINE => {
                    failed(StreamError::LineTooLong { line }, &mut tally, report);
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    failed(StreamError::Io(e), &mut tally, report);
                    break;
                }
            }
            let text = String::from_utf8_lossy(&buf);
            let text = if line == 1 { text.trim_start_matches('\u{feff}') } else { &text };
            if text.trim().is_empty() || text.trim_start().starts_with('#') {
                continue;
            }
            let head = Head { file: &name, line, index, status: Status::Solved };
            let mut answer = Vec::new();
            match parse_marks(text.trim_end_matches(['\n', '\r']), line) {
                Ok(marks) => {
                    let reply = replies.reply_marks(&mut rater, &marks);
                    tally.no_solution += usize::from(!reply.found());
                    match replies.json {
                        true => reply.write_json(&mut answer, head),
                        false => reply.write_text(&mut answer),
                    }
                }
                Err(error) => {
                    report(&format_args!("{name}: {error}"));
                    tally.invalid += 1;
                    match replies.json {
                        true => answer::write_line(
                            &mut answer,
                            &Invalid { head: Head { status: Status::Invalid, ..head }, error: error.to_string() },
                        ),
                        false => answer.extend_from_slice(format!("{ERROR_PREFIX}{error}\n").as_bytes()),
                    }
                }
            }
            tally.answered += 1;
            index += 1;
            write_now(out, &answer).map_err(PipelineError::Write)?;
        }
    }
    Ok(tally)
}

/// Writes `answer` and flushes it: the next grid may not have been written yet.
fn write_now(out: &mut dyn Write, answer: &[u8]) -> io::Result<()> {
    out.write_all(answer)?;
    out.flush()
}
