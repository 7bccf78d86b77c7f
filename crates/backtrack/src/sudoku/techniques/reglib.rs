//! HoDoKu's regression library format: one test case of one technique on
//! one pencil-mark grid per line.
//!
//! A line reads `:CODE:DIGITS:GRID:DELETED:ELIMINATIONS:PLACEMENTS:EXTRA`:
//! - `CODE` names the technique with four or five digits (`0300` X-Wing,
//!   `0603` unique rectangle type 4, ...), optionally followed by `-N`, a
//!   variant of the technique's options, or `-x`, a case where no instance
//!   of the technique may be found;
//! - `DIGITS` are the digits the technique works on (for singles, the
//!   digit placed);
//! - `GRID` has 81 cells, each `.` or a digit; a `+` before a digit marks
//!   a placed digit rather than a given;
//! - `DELETED` lists candidates already removed from the grid, and
//!   `ELIMINATIONS` and `PLACEMENTS` what the technique removes and places,
//!   each as space-separated `DRC` triples (digit, row, column; `436` is
//!   r3c6 and digit 4);
//! - `EXTRA` is technique-specific (a chain's length) and may be missing.
//!
//! Lines starting with `#` and blank lines are comments.
//!
//! ```
//! use backtrack::sudoku::techniques::reglib::Case;
//!
//! let line = ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5....42193..1.+57...+44+2.6+3.+1+75:::829:";
//! let case = Case::parse(line).unwrap().unwrap();
//! assert_eq!((case.code.as_str(), case.digits.as_slice()), ("0003", &[8u8][..]));
//! assert_eq!(case.placements, vec![(17, 8)]); // r2c9 = 8
//! assert_eq!(case.board.cands[17], 1 << 7); // the naked single's cell holds only 8
//! assert_eq!(case.givens[0], 6);
//! assert_eq!(case.givens[4], 0); // "+5" is placed, not given
//! ```

use super::{bit, Board};

/// One test case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The technique's code, without the variant (`0300`).
    pub code: String,
    /// The variant number after `-`, if any (`x` is [`Case::fail`]).
    pub variant: Option<u8>,
    /// Whether the case says no instance of the technique may be found.
    pub fail: bool,
    /// The digits the technique works on.
    pub digits: Vec<u8>,
    /// The pencil-mark grid: every digit of the grid placed, then the
    /// deleted candidates removed.
    pub board: Board,
    /// The real givens (placed digits marked `+` left out), 0 for a blank.
    pub givens: [u8; 81],
    /// Candidates the technique removes: (cell, digit), cells 0..81 row by row.
    pub eliminations: Vec<(usize, u8)>,
    /// Digits the technique places: (cell, digit).
    pub placements: Vec<(usize, u8)>,
}

/// A line that is not a case: what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError(String);

crate::error::message_error!(CaseError);

fn error(what: impl Into<String>) -> CaseError {
    CaseError(what.into())
}

/// Reads `DRC DRC ...` as (cell, digit) pairs.
fn candidates(field: &str, name: &str) -> Result<Vec<(usize, u8)>, CaseError> {
    field
        .split_whitespace()
        .map(|token| {
            let b = token.as_bytes();
            let digit =
                |k: usize| b.get(k).and_then(|&x| (x as char).to_digit(10)).filter(|&v| v >= 1).map(|v| v as u8);
            match (b.len(), digit(0), digit(1), digit(2)) {
                (3, Some(d), Some(r), Some(c)) => Ok(((r as usize - 1) * 9 + c as usize - 1, d)),
                _ => Err(error(format!("{name}: '{}' is not a digit, row and column", crate::error::Quoted(token)))),
            }
        })
        .collect()
}

impl Case {
    /// Reads one line: `Ok(None)` for a comment or a blank line.
    pub fn parse(line: &str) -> Result<Option<Case>, CaseError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let fields: Vec<&str> = line.split(':').collect();
        if fields.len() < 7 || !fields[0].is_empty() {
            return Err(error("a case has at least 7 fields between ':'"));
        }
        let (code, variant, fail) = match fields[1].split_once('-') {
            None => (fields[1], None, false),
            Some((code, "x")) => (code, None, true),
            Some((code, v)) => (code, Some(v.parse::<u8>().map_err(|_| error("the variant is not a number"))?), false),
        };
        if code.is_empty() || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error("the technique's code is not a number"));
        }
        let digits = fields[2]
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| match b {
                b'1'..=b'9' => Ok(b - b'0'),
                _ => Err(error("the technique's digits are not digits 1 to 9")),
            })
            .collect::<Result<Vec<u8>, CaseError>>()?;
        let mut cells = [0u8; 81];
        let mut givens = [0u8; 81];
        let mut n = 0;
        let mut placed = false;
        for b in fields[3].bytes() {
            match b {
                b'+' => {
                    placed = true;
                    continue;
                }
                b'.' | b'0' => {}
                b'1'..=b'9' if n < 81 => {
                    cells[n] = b - b'0';
                    if !placed {
                        givens[n] = cells[n];
                    }
                }
                _ if n >= 81 => return Err(error("the grid has more than 81 cells")),
                _ => return Err(error("the grid holds something other than '.', '+' and digits")),
            }
            placed = false;
            n += 1;
        }
        if n != 81 {
            return Err(error(format!("the grid has {n} cells, not 81")));
        }
        let mut board = Board::new(&cells).ok_or_else(|| error("two digits of the grid clash"))?;
        for (cell, d) in candidates(fields[4], "deleted candidates")? {
            board.cands[cell] &= !bit(d);
        }
        Ok(Some(Case {
            code: code.to_string(),
            variant,
            fail,
            digits,
            board,
            givens,
            eliminations: candidates(fields[5], "eliminations")?,
            placements: candidates(fields[6], "placements")?,
        }))
    }
}
