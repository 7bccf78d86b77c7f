//! The library's traces for a web page, compiled to `wasm32-unknown-unknown`.
//!
//! The ABI is a handful of exported functions on numbers and linear memory,
//! read by `web/app.js` without generated glue:
//!
//! * text goes in through [`bt_alloc`]: the page writes UTF-8 there;
//! * every answer is UTF-8 left in one output buffer, found with
//!   [`bt_out_ptr`] and [`bt_out_len`], valid until the next call;
//! * a problem opened with [`bt_open`] is a small number (0: the problem was
//!   rejected, and the output holds why).
//!
//! [`bt_events`] writes events one per line, tab-separated:
//! `kind depth focus conflict nodes solutions changes choice text`, with `-1`
//! for no focus or conflict, changes as `cell:before:after` joined by commas,
//! the choice as the event's text names it, and the text exactly as
//! `backtrack trace` prints the event.
//!
//! Texts come in the language the page asks for: `lang` 1 is Korean (what
//! `backtrack trace --lang ko` prints), anything else English. The words are
//! the library's own, one set for the command and the page.

use std::cell::RefCell;
use std::fmt::Write;

use backtrack::lang::Lang;
use backtrack::trace::{self, Kind, Problem, Strategy};

thread_local! {
    /// The answer of the last call.
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
    /// Problems opened, by handle minus one.
    static OPEN: RefCell<Vec<Option<(Problem, Strategy)>>> = const { RefCell::new(Vec::new()) };
}

fn answer(text: &str) -> u32 {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.push_str(text);
    });
    text.len() as u32
}

/// The language numbered `lang` on the page: 1 Korean, else English.
fn lang_of(lang: u32) -> Lang {
    if lang == 1 {
        Lang::Ko
    } else {
        Lang::En
    }
}

fn with_problem<R>(handle: u32, f: impl FnOnce(&Problem, Strategy) -> R) -> Option<R> {
    OPEN.with(|open| {
        let open = open.borrow();
        let (problem, strategy) = open.get((handle as usize).checked_sub(1)?)?.as_ref()?;
        Some(f(problem, *strategy))
    })
}

/// Room for `len` bytes of input; the page writes there, then passes the
/// pointer to [`bt_open`], which frees it.
#[no_mangle]
pub extern "C" fn bt_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Where the last answer starts.
#[no_mangle]
pub extern "C" fn bt_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// Bytes in the last answer.
#[no_mangle]
pub extern "C" fn bt_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

/// Opens the problem written as `queens N`, `sudoku PUZZLE` or
/// `choose perm|comb N M` in the `len` bytes at `ptr` (from
/// [`bt_alloc`]`(len)`, freed here), searched naively (`naive` = 1) or
/// smartly. Returns its handle, or 0 with the reason as the answer.
///
/// # Safety
/// `ptr` must come from `bt_alloc(len)` with `len` bytes written.
#[no_mangle]
pub unsafe extern "C" fn bt_open(ptr: *mut u8, len: usize, naive: u32) -> u32 {
    // SAFETY: the caller passes a buffer from `bt_alloc(len)`, whose capacity
    // is `len.max(1)`, with `len` bytes initialised.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let problem = match String::from_utf8(bytes) {
        Ok(text) => Problem::from_words(&text).map_err(|e| e.to_string()),
        Err(_) => Err("the problem is not UTF-8 text".to_string()),
    };
    match problem {
        Ok(problem) => {
            let strategy = if naive == 1 { Strategy::Naive } else { Strategy::Smart };
            answer("");
            OPEN.with(|open| {
                let mut open = open.borrow_mut();
                open.push(Some((problem, strategy)));
                open.len() as u32
            })
        }
        Err(reason) => {
            answer(&reason);
            0
        }
    }
}

/// Forgets a problem.
#[no_mangle]
pub extern "C" fn bt_close(handle: u32) {
    OPEN.with(|open| {
        if let Some(slot) = open.borrow_mut().get_mut((handle as usize).wrapping_sub(1)) {
            *slot = None;
        }
    });
}

/// Writes events `skip..skip + max` of the trace (see the crate docs), their
/// texts in language `lang`, and returns how many there are; fewer than
/// `max` means the trace ended.
#[no_mangle]
pub extern "C" fn bt_events(handle: u32, skip: u32, max: u32, lang: u32) -> u32 {
    let mut text = String::new();
    let outcome = with_problem(handle, |problem, strategy| {
        trace::run_in(problem, strategy, lang_of(lang), skip.into(), max.into(), |event| {
            let kind = match event.kind {
                Kind::Try => 't',
                Kind::Reject => 'r',
                Kind::Undo => 'u',
                Kind::Dead => 'd',
                Kind::Solution => 's',
            };
            let cell = |c: Option<usize>| c.map_or(-1, |c| c as i64);
            let _ = write!(
                text,
                "{kind}\t{}\t{}\t{}\t{}\t{}\t",
                event.depth,
                cell(event.focus),
                cell(event.conflict),
                event.nodes,
                event.solutions
            );
            for (i, change) in event.changes.iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                let _ = write!(text, "{sep}{}:{}:{}", change.cell, change.before, change.after);
            }
            let _ = writeln!(text, "\t{}\t{event}", event.choice);
        })
    });
    answer(&text);
    outcome.map_or(0, |outcome| outcome.events as u32)
}

/// Writes the board before the first event, one number per cell separated
/// by commas, and returns the number of cells.
#[no_mangle]
pub extern "C" fn bt_board(handle: u32) -> u32 {
    let board = with_problem(handle, trace::start_board).unwrap_or_default();
    let text: Vec<String> = board.iter().map(u8::to_string).collect();
    answer(&text.join(","));
    board.len() as u32
}

/// Writes the summary line `backtrack trace` ends with (searching the whole
/// problem, every strategy) in language `lang`, and returns the solutions.
#[no_mangle]
pub extern "C" fn bt_summary(handle: u32, lang: u32) -> u32 {
    let summary = with_problem(handle, |problem, _| trace::summary(problem));
    answer(&summary.map(|s| s.text(lang_of(lang))).unwrap_or_default());
    summary.map_or(0, |s| s.solutions as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(spec: &str, naive: bool) -> u32 {
        let ptr = bt_alloc(spec.len());
        // SAFETY: `ptr` has room for `spec.len()` bytes, from `bt_alloc`.
        unsafe { std::ptr::copy_nonoverlapping(spec.as_ptr(), ptr, spec.len()) };
        // SAFETY: `ptr` comes from `bt_alloc(spec.len())` with every byte written.
        unsafe { bt_open(ptr, spec.len(), u32::from(naive)) }
    }

    fn out() -> String {
        OUT.with(|out| out.borrow().clone())
    }

    /// The events' choices and texts, and the summary, in the language
    /// asked for: Korean as `backtrack trace --lang ko` prints it, English
    /// for any other number.
    #[test]
    fn events_and_summary_speak_the_language_asked_for() {
        let handle = open("queens 4", true);
        assert_ne!(handle, 0, "{}", out());
        let problem = Problem::from_words("queens 4").unwrap();
        for (lang, number) in [(Lang::Ko, 1), (Lang::En, 0), (Lang::En, 7)] {
            assert_eq!(bt_events(handle, 0, 3, number), 3);
            let records = out();
            let fields: Vec<Vec<&str>> = records.lines().map(|r| r.split('\t').collect()).collect();
            let mut want = Vec::new();
            trace::run_in(&problem, Strategy::Naive, lang, 0, 3, |e| want.push((e.choice.clone(), e.to_string())));
            assert_eq!(fields.len(), 3);
            for (record, (choice, line)) in fields.iter().zip(&want) {
                assert_eq!((record[7], record[8]), (choice.as_str(), line.as_str()));
            }
            bt_summary(handle, number);
            assert_eq!(out(), trace::summary(&problem).text(lang));
        }
        bt_events(handle, 0, 2, 1);
        let korean: Vec<String> = out().lines().map(|r| r.split('\t').nth(8).unwrap().to_string()).collect();
        assert_eq!(korean, ["시도 1행 1열", "  거절 2행 1열: 1행 1열과 같은 열"]);
        bt_summary(handle, 1);
        assert!(out().starts_with("요약: 해 2개"), "{}", out());
        bt_close(handle);
    }
}
