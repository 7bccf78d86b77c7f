//! Typed sudoku puzzles and the text formats they are read from and written in.
//!
//! A puzzle of box size `b` has side `n = b²` and `n²` cells, stored row-major;
//! a cell holds 0 for a blank or a digit `1..=n`. Three text formats are read
//! and written:
//!
//! * [`Format::Line`]: one puzzle per line, `n²` symbols (`.` or `0` for a
//!   blank; `1`-`9`, then `A`, `B`, ... for 10, 11, ... on grids past 9x9).
//!   Lines starting with `#` are comments; blank lines are skipped.
//! * [`Format::Grid`]: `n` lines of `n` symbols, no separators (one puzzle
//!   after another; blank lines and `#` comments between puzzles are skipped).
//! * [`Format::Spaced`]: `n` lines of `n` numbers separated by spaces, `0`
//!   (or `.`) for a blank.
//!
//! [`detect`] tells which format (and grid size) a text is in, [`parse`]
//! reads exactly one puzzle, and [`Batch::parse`] reads a whole file, keeping
//! each malformed puzzle's [`ParseError`] so that the others can still be
//! solved.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;

/// Smallest supported box size (4x4 grids).
pub const MIN_BOX: usize = 2;
/// Largest supported box size (25x25 grids): digits must fit a `u32` bitmask.
pub const MAX_BOX: usize = 5;

/// A text format for sudoku puzzles and solutions. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// One puzzle per line, `n²` symbols.
    Line,
    /// `n` lines of `n` symbols, no separators.
    Grid,
    /// `n` lines of `n` numbers separated by single spaces.
    Spaced,
}

/// A format together with the grid size it was detected for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    /// How puzzles are written.
    pub format: Format,
    /// Box size `b` (the grid is `b²` by `b²`).
    pub box_size: usize,
}

/// A sudoku puzzle: box size and cells (row-major, 0 for a blank).
///
/// ```
/// use backtrack::sudoku::Puzzle;
///
/// let p: Puzzle = "1..4..1.2....3..".parse().unwrap(); // a 4x4 puzzle in line format
/// assert_eq!(p.side(), 4);
/// assert_eq!(p.cells()[..4], [1, 0, 0, 4]);
/// assert_eq!(p.to_string(), "1..4..1.2....3..");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    box_size: usize,
    cells: Vec<u8>,
}

/// The kind of unit two conflicting givens share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Same row.
    Row,
    /// Same column.
    Column,
    /// Same box.
    Box,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        })
    }
}

/// Two givens with the same digit in one row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    /// Index of the earlier cell (row-major).
    pub first: usize,
    /// Index of the later cell (row-major).
    pub second: usize,
    /// The repeated digit.
    pub digit: u8,
    /// The unit they share.
    pub unit: Unit,
}

impl Puzzle {
    /// The empty puzzle of box size `box_size`.
    ///
    /// # Panics
    /// If `box_size` is outside [`MIN_BOX`]`..=`[`MAX_BOX`].
    pub fn empty(box_size: usize) -> Puzzle {
        assert!((MIN_BOX..=MAX_BOX).contains(&box_size), "box size {box_size} is not supported");
        Puzzle { box_size, cells: vec![0; box_size.pow(4)] }
    }

    /// A puzzle from its cells. Fails (saying why) when the box size is not
    /// supported, the number of cells is not `box_size⁴`, or a cell is out of range.
    /// Conflicting givens are allowed here (see [`Puzzle::conflict`]).
    pub fn new(box_size: usize, cells: Vec<u8>) -> Result<Puzzle, String> {
        if !(MIN_BOX..=MAX_BOX).contains(&box_size) {
            return Err(format!("box size {box_size} is not supported (use {MIN_BOX} to {MAX_BOX})"));
        }
        let side = box_size * box_size;
        if cells.len() != side * side {
            return Err(format!("a {side}x{side} puzzle has {} cells, not {}", side * side, cells.len()));
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > side) {
            return Err(format!("cell {i} holds {}, out of range 0..={side}", cells[i]));
        }
        Ok(Puzzle { box_size, cells })
    }

    /// Box size `b`.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Side `n = b²` of the grid.
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The cells, row-major, 0 for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Takes the cells out.
    pub fn into_cells(self) -> Vec<u8> {
        self.cells
    }

    /// The first pair of givens that repeat a digit in a unit, if any.
    pub fn conflict(&self) -> Option<Conflict> {
        find_conflict(self.box_size, &self.cells)
    }

    /// Whether `solution` is a complete valid grid that keeps every given of this puzzle.
    pub fn is_solved_by(&self, solution: &[u8]) -> bool {
        is_solution(self.box_size, &self.cells, solution)
    }

    /// The puzzle as text in `format`, ending with a newline.
    pub fn to_text(&self, format: Format) -> String {
        let mut out = Vec::new();
        write_cells(&mut out, self.box_size, &self.cells, format);
        String::from_utf8(out).expect("symbols are ASCII")
    }
}

impl fmt::Debug for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Puzzle({self})")
    }
}

/// Line format, without the newline.
impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.to_text(Format::Line);
        f.write_str(text.trim_end())
    }
}

/// Parses exactly one puzzle in any format ([`parse`]).
impl FromStr for Puzzle {
    type Err = ParseError;
    fn from_str(text: &str) -> Result<Puzzle, ParseError> {
        parse(text)
    }
}

/// The symbol for digit `value` (`.` for a blank, `1`-`9`, then `A`...).
pub fn symbol(value: u8) -> u8 {
    match value {
        0 => b'.',
        1..=9 => b'0' + value,
        _ => b'A' + value - 10,
    }
}

/// Appends `cells` (a grid of box size `box_size`) to `out` in `format`,
/// ending with a newline. Blanks are written as `.` in line and grid format
/// and as `0` in spaced format.
pub fn write_cells(out: &mut Vec<u8>, box_size: usize, cells: &[u8], format: Format) {
    let side = box_size * box_size;
    match format {
        Format::Line => {
            out.extend(cells.iter().map(|&v| symbol(v)));
            out.push(b'\n');
        }
        Format::Grid => {
            for row in cells.chunks(side) {
                out.extend(row.iter().map(|&v| symbol(v)));
                out.push(b'\n');
            }
        }
        Format::Spaced => {
            for row in cells.chunks(side) {
                for (i, &v) in row.iter().enumerate() {
                    if i > 0 {
                        out.push(b' ');
                    }
                    if v >= 10 {
                        out.push(b'0' + v / 10);
                    }
                    out.push(b'0' + v % 10);
                }
                out.push(b'\n');
            }
        }
    }
}

/// The first pair of givens in `cells` that repeat a digit in a row, column
/// or box (the pair whose later cell comes first in row-major order). Cells
/// must hold 0..=side, as a [`Puzzle`] does.
pub fn find_conflict(box_size: usize, cells: &[u8]) -> Option<Conflict> {
    match box_size {
        2 => scan_conflict::<2, 4>(cells),
        3 if cells.len() == 81 && !givens_conflict_9(cells) => None,
        3 => scan_conflict::<3, 9>(cells),
        4 => scan_conflict::<4, 16>(cells),
        5 => scan_conflict::<5, 25>(cells),
        _ => None,
    }
}

/// Row, column and box of each cell of a 9x9 grid, packed as
/// `row | column << 4 | box << 8`.
static UNITS_9: [u16; 81] = {
    let mut table = [0u16; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        table[i] = (r | c << 4 | (r / 3 * 3 + c / 3) << 8) as u16;
        i += 1;
    }
    table
};

/// Whether two givens of a 9x9 grid (`cells.len() == 81`) may share a row,
/// column or box: `false` only when none do and every value is at most 9.
/// Visits only the givens, which batches of sparse puzzles have few of;
/// [`scan_conflict`] then finds and names the conflict.
fn givens_conflict_9(cells: &[u8]) -> bool {
    let (mut rows, mut columns, mut boxes) = ([0u32; 9], [0u32; 9], [0u32; 9]);
    let mut clash = 0u32;
    let mut givens = non_blank_81(cells);
    while givens != 0 {
        let i = givens.trailing_zeros() as usize;
        givens &= givens - 1;
        let v = cells[i];
        clash |= u32::from(v > 9);
        let bit = (1u32 << (v & 15)) >> 1;
        let units = UNITS_9[i] as usize;
        let (r, c, b) = (units & 15, (units >> 4) & 15, units >> 8);
        clash |= (rows[r] | columns[c] | boxes[b]) & bit;
        rows[r] |= bit;
        columns[c] |= bit;
        boxes[b] |= bit;
    }
    clash != 0
}

/// The cells of an 81-cell grid that are not blank, one bit each.
#[inline(always)]
pub(crate) fn non_blank_81(cells: &[u8]) -> u128 {
    assert_eq!(cells.len(), 81);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let mut blank = 0u128;
        for k in 0..5 {
            // SAFETY: SSE2 is part of every x86-64 processor; 16 * k + 15 <
            // 81, so the load stays inside `cells`; unaligned loads have no
            // alignment requirement.
            let lanes = unsafe {
                let v = _mm_loadu_si128(cells.as_ptr().add(16 * k) as *const __m128i);
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32 & 0xffff
            };
            blank |= u128::from(lanes) << (16 * k);
        }
        blank |= u128::from(cells[80] == 0) << 80;
        !blank & ((1u128 << 81) - 1)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        cells.iter().enumerate().fold(0u128, |m, (i, &v)| m | u128::from(v != 0) << i)
    }
}

/// [`find_conflict`] for one size: fixed-size arrays let the compiler drop
/// bounds checks and unroll, which matters when parsing large batches.
fn scan_conflict<const BOX: usize, const SIDE: usize>(cells: &[u8]) -> Option<Conflict> {
    if cells.len() != SIDE * SIDE {
        return None;
    }
    // One bitmask of seen digits per column and box; u32 holds up to 25 digits.
    let mut cols = [0u32; SIDE];
    let mut boxes = [0u32; SIDE];
    for r in 0..SIDE {
        let row: &[u8; SIDE] = cells[r * SIDE..(r + 1) * SIDE].try_into().expect("SIDE cells");
        let band = (r / BOX) * BOX;
        let mut seen_in_row = 0u32;
        for c in 0..SIDE {
            // Blank (0) gives no bit, so blanks need no branch.
            let bit = (1u32 << row[c]) >> 1;
            let b = band + c / BOX;
            if (seen_in_row | cols[c] | boxes[b]) & bit != 0 {
                let in_row = seen_in_row & bit != 0;
                return Some(describe_conflict(BOX, cells, r * SIDE + c, in_row, cols[c] & bit != 0));
            }
            seen_in_row |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    None
}

/// Names the earlier cell that cell `i` conflicts with (slow, taken once).
fn describe_conflict(box_size: usize, cells: &[u8], i: usize, in_row: bool, in_column: bool) -> Conflict {
    let side = box_size * box_size;
    let (r, c, v) = (i / side, i % side, cells[i]);
    let unit = if in_row {
        Unit::Row
    } else if in_column {
        Unit::Column
    } else {
        Unit::Box
    };
    let first = (0..i)
        .find(|&j| {
            let (rj, cj) = (j / side, j % side);
            let same = match unit {
                Unit::Row => rj == r,
                Unit::Column => cj == c,
                Unit::Box => rj / box_size == r / box_size && cj / box_size == c / box_size,
            };
            same && cells[j] == v
        })
        .expect("an earlier cell set the bit");
    Conflict { first, second: i, digit: v, unit }
}

/// Whether `solution` is a complete valid grid of box size `box_size` that
/// keeps every given of `puzzle`.
pub fn is_solution(box_size: usize, puzzle: &[u8], solution: &[u8]) -> bool {
    let side = box_size * box_size;
    solution.len() == side * side
        && puzzle.len() == solution.len()
        && solution.iter().all(|&v| v >= 1 && v as usize <= side)
        && puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && find_conflict(box_size, solution).is_none()
}

// ---------------------------------------------------------------------------
// Reading

/// Marks a byte that is no symbol in [`SYMBOL_VALUES`].
const NOT_A_SYMBOL: u8 = u8::MAX;

/// Value of every byte as a symbol: 0 for a blank (`.` or `0`), 1-9 for
/// digits, 10-35 for letters (either case), [`NOT_A_SYMBOL`] otherwise.
/// A table keeps the per-cell cost of parsing big batches to one load.
static SYMBOL_VALUES: [u8; 256] = {
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
fn symbol_value(byte: u8) -> Option<u8> {
    let v = SYMBOL_VALUES[byte as usize];
    (v != NOT_A_SYMBOL).then_some(v)
}

/// Splits text into lines without allocating, numbering them from 1 and
/// dropping a trailing `\r`.
struct Lines<'a> {
    rest: &'a [u8],
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines::starting_at(text, 1)
    }

    /// Lines numbered from `first` on.
    fn starting_at(text: &'a str, first: usize) -> Self {
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

fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Blank lines and `#` comments carry no puzzle data.
fn is_skippable(line: &[u8]) -> bool {
    match line.iter().position(|&b| !is_space(b)) {
        None => true,
        Some(i) => line[i] == b'#',
    }
}

/// `line` without trailing spaces and tabs.
fn trim_end(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|&b| !is_space(b)).map_or(0, |i| i + 1);
    &line[..end]
}

/// 1-based character column of byte offset `at` in `line` (lines are UTF-8).
fn column(line: &[u8], at: usize) -> usize {
    String::from_utf8_lossy(&line[..at.min(line.len())]).chars().count() + 1
}

/// The character starting at byte offset `at`, for messages.
fn char_at(line: &[u8], at: usize) -> char {
    String::from_utf8_lossy(&line[at..]).chars().next().unwrap_or('?')
}

fn digits_hint(side: usize) -> String {
    let last = symbol(side as u8) as char;
    if side <= 9 {
        format!("a {side}x{side} puzzle uses 1-{last}, with '.' or '0' for a blank")
    } else {
        format!("a {side}x{side} puzzle uses 1-9 and A-{last}, with '.' or '0' for a blank")
    }
}

fn bad_char(line_no: usize, line: &[u8], at: usize, side: usize) -> ParseError {
    let ch = char_at(line, at);
    ParseError::new(line_no, column(line, at), format!("unexpected character {ch:?}: {}", digits_hint(side)))
}

fn out_of_range(line_no: usize, line: &[u8], at: usize, shown: &str, side: usize) -> ParseError {
    ParseError::new(line_no, column(line, at), format!("{shown} is out of range: {}", digits_hint(side)))
}

/// Reads `cells.len()` symbols from `line` (no separators). `what` names the
/// thing being read for the count error ("cells" or "symbols in a row").
fn read_symbols(line_no: usize, line: &[u8], side: usize, cells: &mut [u8], what: &str) -> Result<(), ParseError> {
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
fn read_nine_sse2(line: &[u8], cells: &mut [u8]) -> bool {
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
fn read_spaced_row(line_no: usize, line: &[u8], side: usize, row: &mut [u8]) -> Result<(), ParseError> {
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

/// Decides which format `text` is in, and the grid size, from its first
/// puzzle line. Fails only on empty input (no puzzle line at all).
///
/// * a line with spaces between symbols: [`Format::Spaced`], side = number of tokens;
/// * 81, 256 or 625 symbols: [`Format::Line`] (9x9, 16x16, 25x25);
/// * 4, 9 or 25 symbols: [`Format::Grid`];
/// * 16 symbols: a 16x16 grid row if any of the first 16 lines uses a digit
///   above 4, otherwise a 4x4 puzzle in line format;
/// * other lengths: the nearest of these, so that parsing reports the wrong count.
pub fn detect(text: &str) -> Result<Layout, ParseError> {
    let mut lines = Lines::new(text).filter(|(_, l)| !is_skippable(l));
    let Some((_, first)) = lines.next() else {
        return Err(empty_input());
    };
    let first = trim_end(first);
    let start = first.iter().position(|&b| !is_space(b)).unwrap_or(0);
    let first = &first[start..];
    if first.iter().any(|&b| is_space(b)) {
        let tokens = first.split(|&b| is_space(b)).filter(|t| !t.is_empty()).count();
        let box_size = match tokens {
            0..=6 => 2,
            7..=12 => 3,
            13..=20 => 4,
            _ => 5,
        };
        return Ok(Layout { format: Format::Spaced, box_size });
    }
    let len = String::from_utf8_lossy(first).chars().count();
    let (format, box_size) = match len {
        0..=6 => (Format::Grid, 2),
        7..=12 => (Format::Grid, 3),
        16 => {
            let big = |l: &[u8]| l.iter().any(|&b| symbol_value(b).is_some_and(|v| v > 4));
            if big(first) || lines.take(15).any(|(_, l)| big(l)) {
                (Format::Grid, 4)
            } else {
                (Format::Line, 2)
            }
        }
        13..=20 => (Format::Line, 2),
        21..=30 => (Format::Grid, 5),
        31..=168 => (Format::Line, 3),
        169..=440 => (Format::Line, 4),
        _ => (Format::Line, 5),
    };
    Ok(Layout { format, box_size })
}

fn empty_input() -> ParseError {
    ParseError::new(1, 0, "empty input: no puzzle found")
}

/// Where each cell of the puzzle being read came from, for conflict messages.
#[derive(Clone, Copy, Default)]
struct Spot {
    line: usize,
    column: usize,
}

fn conflict_error(conflict: &Conflict, side: usize, spots: &dyn Fn(usize) -> Spot) -> ParseError {
    let at = spots(conflict.second);
    let (r1, c1) = (conflict.first / side + 1, conflict.first % side + 1);
    let (r2, c2) = (conflict.second / side + 1, conflict.second % side + 1);
    let symbol = symbol(conflict.digit) as char;
    ParseError::new(
        at.line,
        at.column,
        format!(
            "{symbol} at row {r2}, column {c2} repeats the {symbol} at row {r1}, column {c1} (same {})",
            conflict.unit
        ),
    )
}

/// Every puzzle of a text, read in one pass with one buffer for all cells.
/// Malformed puzzles keep their error, so a batch can report them and go on.
#[derive(Debug, Clone)]
pub struct Batch {
    layout: Layout,
    cells: Vec<u8>,
    entries: Vec<Entry>,
}

/// One puzzle of a [`Batch`]: where it starts, and its cells or what is wrong with it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// Index of the puzzle's cells in the batch (see [`Batch::cells`]), or the parse error.
    pub result: Result<usize, ParseError>,
}

impl Batch {
    /// Reads every puzzle of `text` in the format [`detect`] finds.
    /// Fails only on empty input.
    pub fn parse(text: &str) -> Result<Batch, ParseError> {
        let layout = detect(text)?;
        Ok(Batch::parse_as(text, layout))
    }

    /// Reads every puzzle of `text` in `layout`. An input with no puzzle
    /// gives an empty batch.
    pub fn parse_as(text: &str, layout: Layout) -> Batch {
        Batch::parse_part(text, layout, 1)
    }

    /// [`Batch::parse_as`] on a part of a longer text that starts on line
    /// `first_line` of it (1-based), so that lines are numbered as in the
    /// whole text. The part must start and end between puzzles.
    pub fn parse_part(text: &str, layout: Layout, first_line: usize) -> Batch {
        let side = layout.box_size * layout.box_size;
        let area = side * side;
        let mut batch = Batch { layout, cells: Vec::new(), entries: Vec::new() };
        match layout.format {
            Format::Line => {
                batch.cells.reserve(text.len() / (area + 1) * area + area);
                for (line_no, line) in Lines::starting_at(text, first_line) {
                    if is_skippable(line) {
                        continue;
                    }
                    let slot = batch.cells.len() / area;
                    batch.cells.resize(batch.cells.len() + area, 0);
                    let cells = &mut batch.cells[slot * area..];
                    let result = read_symbols(line_no, line, side, cells, "cells").and_then(|()| {
                        match find_conflict(layout.box_size, cells) {
                            None => Ok(slot),
                            Some(c) => Err(conflict_error(&c, side, &|i| Spot { line: line_no, column: i + 1 })),
                        }
                    });
                    if result.is_err() {
                        batch.cells.truncate(slot * area);
                    }
                    batch.entries.push(Entry { line: line_no, result });
                }
            }
            Format::Grid | Format::Spaced => {
                let mut lines = Lines::starting_at(text, first_line);
                let mut spots = vec![Spot::default(); area];
                while let Some((start, first_row)) = lines.by_ref().find(|(_, l)| !is_skippable(l)) {
                    let slot = batch.cells.len() / area;
                    batch.cells.resize(batch.cells.len() + area, 0);
                    let cells = &mut batch.cells[slot * area..];
                    let mut error: Option<ParseError> = None;
                    let mut row = 0;
                    let mut current = Some((start, first_row));
                    loop {
                        let Some((line_no, line)) = current else {
                            // End of input inside the puzzle.
                            error.get_or_insert_with(|| {
                                ParseError::new(
                                    lines.number + 1,
                                    0,
                                    format!(
                                        "unexpected end of input: the puzzle starting on line {start} has {row} of \
                                         {side} rows"
                                    ),
                                )
                            });
                            break;
                        };
                        if is_skippable(line) {
                            if line.iter().all(|&b| is_space(b)) {
                                error.get_or_insert_with(|| {
                                    ParseError::new(
                                        line_no,
                                        0,
                                        format!(
                                            "blank line inside a puzzle: the puzzle starting on line {start} has \
                                             {row} of {side} rows"
                                        ),
                                    )
                                });
                                break;
                            }
                        } else {
                            if error.is_none() {
                                let dest = &mut cells[row * side..(row + 1) * side];
                                let read = match layout.format {
                                    Format::Spaced => read_spaced_row(line_no, line, side, dest),
                                    _ => read_symbols(line_no, line, side, dest, "symbols in a row"),
                                };
                                if let Err(e) = read {
                                    error = Some(e);
                                } else {
                                    record_spots(
                                        &mut spots[row * side..(row + 1) * side],
                                        line_no,
                                        line,
                                        layout.format,
                                    );
                                }
                            }
                            row += 1;
                            if row == side {
                                break;
                            }
                        }
                        current = lines.next();
                    }
                    let result = match error {
                        Some(e) => Err(e),
                        None => match find_conflict(layout.box_size, cells) {
                            None => Ok(slot),
                            Some(c) => Err(conflict_error(&c, side, &|i| spots[i])),
                        },
                    };
                    if result.is_err() {
                        batch.cells.truncate(slot * area);
                    }
                    batch.entries.push(Entry { line: start, result });
                }
            }
        }
        batch
    }

    /// The layout the batch was read in.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Every puzzle, good or bad, in input order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The cells of the well-formed puzzle at `slot` (from [`Entry::result`]).
    pub fn cells(&self, slot: usize) -> &[u8] {
        let area = self.layout.box_size.pow(4);
        &self.cells[slot * area..(slot + 1) * area]
    }

    /// Number of well-formed puzzles.
    pub fn puzzles(&self) -> usize {
        self.cells.len() / self.layout.box_size.pow(4)
    }

    /// The first malformed puzzle's error, if any.
    pub fn first_error(&self) -> Option<&ParseError> {
        self.entries.iter().find_map(|e| e.result.as_ref().err())
    }
}

/// Records the text position of each cell of one row just read, so that a
/// conflict found later can point at the right column.
fn record_spots(spots: &mut [Spot], line_no: usize, line: &[u8], format: Format) {
    match format {
        Format::Spaced => {
            let mut k = 0;
            let mut i = 0;
            while i < line.len() && k < spots.len() {
                if is_space(line[i]) {
                    i += 1;
                    continue;
                }
                spots[k] = Spot { line: line_no, column: column(line, i) };
                k += 1;
                while i < line.len() && !is_space(line[i]) {
                    i += 1;
                }
            }
        }
        _ => {
            for (k, spot) in spots.iter_mut().enumerate() {
                *spot = Spot { line: line_no, column: k + 1 };
            }
        }
    }
}

/// Reads exactly one puzzle in the format [`detect`] finds.
pub fn parse(text: &str) -> Result<Puzzle, ParseError> {
    let layout = detect(text)?;
    parse_as(text, layout)
}

/// Reads exactly one puzzle in `layout`: empty input, a malformed puzzle,
/// or text after the puzzle (other than blank lines and comments) is an error.
pub fn parse_as(text: &str, layout: Layout) -> Result<Puzzle, ParseError> {
    let batch = Batch::parse_as(text, layout);
    let Some(entry) = batch.entries.first() else {
        return Err(empty_input());
    };
    let slot = entry.result.clone()?;
    if let Some(extra) = batch.entries.get(1) {
        return Err(ParseError::new(
            extra.line,
            1,
            format!("unexpected text after the puzzle that ends before line {}", extra.line),
        ));
    }
    Ok(Puzzle { box_size: layout.box_size, cells: batch.cells(slot).to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator: the tests need many varied grids, not
    /// good randomness.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn givens_check_agrees_with_the_full_scan() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut seen = [0usize; 2];
        for _ in 0..20_000 {
            // 5 to 40 givens at random cells: some grids clash, some do not.
            let mut cells = [0u8; 81];
            let givens = 5 + xorshift(&mut state) % 36;
            for _ in 0..givens {
                let r = xorshift(&mut state);
                cells[(r % 81) as usize] = 1 + (r >> 8) as u8 % 9;
            }
            let clash = givens_conflict_9(&cells);
            assert_eq!(clash, scan_conflict::<3, 9>(&cells).is_some(), "{cells:?}");
            assert_eq!(find_conflict(3, &cells).is_some(), clash);
            seen[usize::from(clash)] += 1;
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
        // Values past 9 go to the full scan, which does not panic on them.
        let mut cells = [0u8; 81];
        cells[3] = 12;
        assert!(givens_conflict_9(&cells));
        assert_eq!(non_blank_81(&cells), 1 << 3);
    }

    #[test]
    fn nine_by_nine_lines_read_alike_both_ways() {
        let mut state = 0x0f0f_1234_abcd_9876u64;
        let alphabet = b".0123456789x:/ A";
        for k in 0..20_000 {
            let mut line = [b'.'; 81];
            for b in line.iter_mut() {
                let r = xorshift(&mut state);
                // Mostly digits and dots; now and then one bad byte.
                *b = if k % 4 == 0 && r % 97 == 0 {
                    alphabet[(r >> 8) as usize % 16]
                } else {
                    alphabet[(r >> 8) as usize % 11]
                };
            }
            let mut slow = [0u8; 81];
            let expected: Option<[u8; 81]> = line
                .iter()
                .zip(slow.iter_mut())
                .all(|(&b, cell)| match b {
                    b'.' => true,
                    b'0'..=b'9' => {
                        *cell = b - b'0';
                        true
                    }
                    _ => false,
                })
                .then_some(slow);
            let mut cells = [0u8; 81];
            let read = read_symbols(1, &line, 9, &mut cells, "cells");
            assert_eq!(read.is_ok(), expected.is_some(), "{:?}", std::str::from_utf8(&line));
            if let Some(expected) = expected {
                assert_eq!(cells, expected);
            }
            #[cfg(target_arch = "x86_64")]
            {
                let mut fast = [0u8; 81];
                assert_eq!(read_nine_sse2(&line, &mut fast), expected.is_some());
                if let Some(expected) = expected {
                    assert_eq!(fast, expected);
                }
            }
        }
    }

    const SAMPLE: &str = "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n\
                          8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n";

    #[test]
    fn detects_formats() {
        assert_eq!(detect(SAMPLE).unwrap(), Layout { format: Format::Spaced, box_size: 3 });
        assert_eq!(detect("# c\n\n103000509\n").unwrap(), Layout { format: Format::Grid, box_size: 3 });
        assert_eq!(detect(&".".repeat(81)).unwrap(), Layout { format: Format::Line, box_size: 3 });
        assert_eq!(detect(&".".repeat(256)).unwrap(), Layout { format: Format::Line, box_size: 4 });
        assert_eq!(detect("1..4............\n").unwrap(), Layout { format: Format::Line, box_size: 2 });
        assert_eq!(detect("1..4..........G.\n").unwrap(), Layout { format: Format::Grid, box_size: 4 });
        assert!(detect("\n# only a comment\n").is_err());
    }

    #[test]
    fn spaced_round_trip() {
        let p = parse(SAMPLE).unwrap();
        assert_eq!(p.to_text(Format::Spaced), SAMPLE);
        assert_eq!(parse(&p.to_text(Format::Grid)).unwrap(), p);
        assert_eq!(parse(&p.to_text(Format::Line)).unwrap(), p);
    }

    #[test]
    fn conflict_names_both_cells() {
        let mut line = ".".repeat(81).into_bytes();
        line[2] = b'5';
        line[20] = b'5';
        let err = parse(std::str::from_utf8(&line).unwrap()).unwrap_err();
        assert_eq!((err.line, err.column), (1, 21));
        assert!(err.message.contains("row 3, column 3") && err.message.contains("row 1, column 3"), "{err}");
        assert!(err.message.contains("same column"), "{err}");
    }
}
