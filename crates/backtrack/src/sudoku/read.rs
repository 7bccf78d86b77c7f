//! Reading the symbols of one line or one row, fast.

use crate::ParseError;

use super::symbol;

/// Marks a byte that is no symbol in [`SYMBOL_VALUES`].
pub(super) const NOT_A_SYMBOL: u8 = u8::MAX;

/// Value of every byte as a symbol: 0 for a blank (`.` or `0`), 1-9 for
/// digits, 10-35 for letters (either case), [`NOT_A_SYMBOL`] otherwise.
/// A table keeps the per-cell cost of parsing big batches to one load.
pub(super) static SYMBOL_VALUES: [u8; 256] = {
    let mut table = [NOT_A_SYMBOL; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = match byte {
            b'.' | b'0' => 0,
            b'1'..=b'9' => byte - b'0',
            b'A'..=b'Z' => byte - b'A' + 10,
            b'a'..=b'z' => byte - b'a' + 10,
            _ => NOT_A_SYMBOL,
        };
        b += 1;
    }
    table
};

/// Value of one symbol: `Some(0)` for a blank, `Some(v)` for a digit or
/// letter (`A` = 10), `None` for anything else. Range is checked by the caller.
#[inline]
pub(super) fn symbol_value(byte: u8) -> Option<u8> {
    let v = SYMBOL_VALUES[byte as usize];
    (v != NOT_A_SYMBOL).then_some(v)
}

/// Splits text into lines without allocating, numbering them from 1 and
/// dropping a trailing `\r`.
pub(super) struct Lines<'a> {
    rest: &'a [u8],
    pub(super) number: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Lines::starting_at(text, 1)
    }

    /// Lines numbered from `first` on.
    pub(super) fn starting_at(text: &'a str, first: usize) -> Self {
        Lines { rest: text.as_bytes(), number: first - 1 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);
    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match memchr::memchr(b'\n', self.rest) {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None => (self.rest, &[][..]),
        };
        self.rest = rest;
        self.number += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Some((self.number, line))
    }
}

/// Separators between symbols: spaces, tabs, and the `|` between boxes in
/// printed grids (such as QQWing's).
pub(super) fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'|'
}

/// Lines that carry no puzzle data: blank lines, `#` comments, the rules
/// between bands of printed grids (`-------+-------`, `---|---`), and the
/// header of a CSV file (`quizzes,solutions`).
pub(super) fn is_skippable(line: &[u8]) -> bool {
    match line.iter().position(|&b| !is_space(b)) {
        None => true,
        Some(i) => match line[i] {
            b'#' => true,
            b'-' | b'+' | b'=' => line.iter().all(|&b| is_space(b) || matches!(b, b'-' | b'+' | b'=')),
            b if b.is_ascii_alphabetic() => is_csv_header(line),
            _ => false,
        },
    }
}

/// A first CSV line that names its columns: its first field has letters
/// but not the length of a 16x16 or 25x25 puzzle (the only ones with letters).
fn is_csv_header(line: &[u8]) -> bool {
    match memchr::memchr(b',', line) {
        Some(comma) => {
            let field = trim_end(&line[..comma]);
            field.iter().any(u8::is_ascii_alphabetic) && field.len() != 256 && field.len() != 625
        }
        None => false,
    }
}

/// The puzzle data of `line`: without a trailing `# comment` (a `#` after
/// a space), without the fields after the first of a CSV line, and without
/// trailing spaces and tabs.
pub(super) fn trim_end(line: &[u8]) -> &[u8] {
    let mut line = line;
    let mut from = 0;
    while let Some(at) = memchr::memchr2(b'#', b',', &line[from..]).map(|i| from + i) {
        if line[at] == b',' || (at > 0 && is_space(line[at - 1])) {
            line = &line[..at];
            break;
        }
        from = at + 1;
    }
    let end = line.iter().rposition(|&b| !is_space(b)).map_or(0, |i| i + 1);
    &line[..end]
}

/// 1-based character column of byte offset `at` in `line` (lines are UTF-8).
pub(super) fn column(line: &[u8], at: usize) -> usize {
    String::from_utf8_lossy(&line[..at.min(line.len())]).chars().count() + 1
}

/// The character starting at byte offset `at`, for messages.
pub(super) fn char_at(line: &[u8], at: usize) -> char {
    String::from_utf8_lossy(&line[at..]).chars().next().unwrap_or('?')
}

pub(super) fn digits_hint(side: usize) -> String {
    let last = symbol(side as u8) as char;
    if side <= 9 {
        format!("a {side}x{side} puzzle uses 1-{last}, with '.' or '0' for a blank")
    } else {
        format!("a {side}x{side} puzzle uses 1-9 and A-{last}, with '.' or '0' for a blank")
    }
}

pub(super) fn bad_char(line_no: usize, line: &[u8], at: usize, side: usize) -> ParseError {
    let ch = char_at(line, at);
    ParseError::new(line_no, column(line, at), format!("unexpected character {ch:?}: {}", digits_hint(side)))
}

pub(super) fn out_of_range(line_no: usize, line: &[u8], at: usize, shown: &str, side: usize) -> ParseError {
    ParseError::new(line_no, column(line, at), format!("{shown} is out of range: {}", digits_hint(side)))
}

/// Reads `cells.len()` symbols from `line` (no separators). `what` names the
/// thing being read for the count error ("cells" or "symbols in a row").
pub(super) fn read_symbols(
    line_no: usize,
    line: &[u8],
    side: usize,
    cells: &mut [u8],
    what: &str,
) -> Result<(), ParseError> {
    let line = trim_end(line);
    #[cfg(target_arch = "x86_64")]
    if side == 9 && line.len() == 81 && cells.len() == 81 && read_nine_sse2(line, cells) {
        return Ok(());
    }
    if line.len() == cells.len() {
        // The common case, one pass with no error checks inside: NOT_A_SYMBOL
        // is above every side, so one comparison catches both kinds of error.
        let mut worst = 0u8;
        for (cell, &b) in cells.iter_mut().zip(line) {
            let v = SYMBOL_VALUES[b as usize];
            worst = worst.max(v);
            *cell = v;
        }
        if worst as usize <= side {
            return Ok(());
        }
    }
    for (i, &b) in line.iter().enumerate() {
        let Some(v) = symbol_value(b) else {
            return Err(bad_char(line_no, line, i, side));
        };
        if v as usize > side {
            // Letters are symbols only on grids past 9x9.
            if side <= 9 && b.is_ascii_alphabetic() {
                return Err(bad_char(line_no, line, i, side));
            }
            return Err(out_of_range(line_no, line, i, &format!("{:?}", b as char), side));
        }
        if i < cells.len() {
            cells[i] = v;
        }
    }
    if line.len() != cells.len() {
        let at = line.len().min(cells.len());
        return Err(ParseError::new(
            line_no,
            column(line, at),
            format!("expected {} {what}, found {}", cells.len(), line.len()),
        ));
    }
    Ok(())
}

/// The 9x9 line of `read_symbols` with 16 bytes at a time: `true` when
/// every byte is `.` or a digit (then `cells` holds their values), `false`
/// to let the byte-by-byte path find and name the error. Batches of
/// millions of puzzles spend a good part of their parsing here.
#[cfg(target_arch = "x86_64")]
pub(super) fn read_nine_sse2(line: &[u8], cells: &mut [u8]) -> bool {
    use std::arch::x86_64::*;
    assert!(line.len() == 81 && cells.len() == 81);
    let mut bad = 0;
    // Bytes 0..80 in five vectors, then the last one alone.
    for k in 0..5 {
        // SAFETY: SSE2 is part of every x86-64 processor; 16 * k + 15 < 81,
        // so the load and the store stay inside `line` and `cells`, and
        // unaligned loads and stores have no alignment requirement.
        unsafe {
            let bytes = _mm_loadu_si128(line.as_ptr().add(16 * k) as *const __m128i);
            let digits = _mm_sub_epi8(bytes, _mm_set1_epi8(b'0' as i8));
            // Unsigned `digits <= 9`: the saturating subtraction is zero.
            let is_digit = _mm_cmpeq_epi8(_mm_subs_epu8(digits, _mm_set1_epi8(9)), _mm_setzero_si128());
            let is_dot = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'.' as i8));
            bad |= !_mm_movemask_epi8(_mm_or_si128(is_digit, is_dot)) & 0xffff;
            _mm_storeu_si128(cells.as_mut_ptr().add(16 * k) as *mut __m128i, _mm_and_si128(digits, is_digit));
        }
    }
    let last = line[80];
    cells[80] = last.wrapping_sub(b'0');
    if last == b'.' {
        cells[80] = 0;
    }
    bad == 0 && (last == b'.' || last.is_ascii_digit())
}

/// Reads one row of `side` space-separated numbers (or `.`, or letter symbols).
pub(super) fn read_spaced_row(line_no: usize, line: &[u8], side: usize, row: &mut [u8]) -> Result<(), ParseError> {
    let line = trim_end(line);
    let mut count = 0;
    let mut i = 0;
    while i < line.len() {
        if is_space(line[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && !is_space(line[i]) {
            i += 1;
        }
        let token = &line[start..i];
        let value = if token.iter().all(u8::is_ascii_digit) {
            // Saturate instead of overflowing on absurdly long numbers.
            let v = token.iter().fold(0u32, |acc, &d| acc.saturating_mul(10).saturating_add((d - b'0') as u32));
            if v as usize > side {
                let shown = crate::error::Quoted(&String::from_utf8_lossy(token)).to_string();
                return Err(out_of_range(line_no, line, start, &shown, side));
            }
            v as u8
        } else if token.len() == 1 && symbol_value(token[0]).is_some() && (side > 9 || token[0] == b'.') {
            let v = symbol_value(token[0]).expect("checked");
            if v as usize > side {
                return Err(out_of_range(line_no, line, start, &format!("{:?}", token[0] as char), side));
            }
            v
        } else {
            let bad = token.iter().position(|&b| !b.is_ascii_digit()).unwrap_or(0);
            return Err(bad_char(line_no, line, start + bad, side));
        };
        if count < side {
            row[count] = value;
        }
        count += 1;
    }
    if count != side {
        return Err(ParseError::new(
            line_no,
            column(line, line.len()),
            format!("expected {side} numbers in a row, found {count}"),
        ));
    }
    Ok(())
}
