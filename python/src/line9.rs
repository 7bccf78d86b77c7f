//! The common case of a batch, read and written without the general text
//! machinery: a 9x9 puzzle as one line of 81 characters, answered by a line
//! of 81 digits.
//!
//! `solve_many` on easy puzzles spends about as long turning Python strings
//! into cells and back as the kernel spends solving them (a few microseconds
//! each), so both ends of that path go straight through the interpreter's
//! stable C API: no UTF-8 re-encoding, no format detection, no temporary
//! strings, no allocation. A line these functions do not take (another size
//! or format, a symbol other than `1`-`9`, `.` and `0`, givens that clash)
//! goes the general way, which gives the same answer or the library's error
//! message; a batch leaves the clash check to the puzzles found without a
//! solution, since clashing givens never have one.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Cells of a 9x9 grid.
const CELLS: usize = 81;

/// A 9x9 grid's cells, row by row, 0 for a blank.
pub type Cells = [u8; CELLS];

/// The cells of `text` when it is one clean 9x9 line: 81 symbols, each a
/// digit `1`-`9` or a blank (`.` or `0`), with no digit repeated in a row,
/// column or box. `None` sends the puzzle down the general path.
pub fn read(text: &Bound<'_, PyString>) -> Option<Cells> {
    read_unchecked(text).filter(|cells| !clashes(cells))
}

/// The cells of `text` when it is 81 symbols, each a digit `1`-`9` or a
/// blank (`.` or `0`), whether or not givens clash: the kernel finds no
/// solution for clashing givens, so a batch checks [`clashes`] only for
/// the puzzles left unsolved.
pub fn read_unchecked(text: &Bound<'_, PyString>) -> Option<Cells> {
    let mut chars = [0u32; CELLS];
    // SAFETY: `text` is a live `str` object, borrowed for this call, with the
    // GIL held. GetLength only reads it; AsUCS4 copies at most CELLS code
    // points into `chars`, which has room for exactly that many (no NUL asked
    // for), and is reached only when the string has exactly CELLS of them.
    let copied = unsafe {
        ffi::PyUnicode_GetLength(text.as_ptr()) == CELLS as ffi::Py_ssize_t
            && !ffi::PyUnicode_AsUCS4(text.as_ptr(), chars.as_mut_ptr(), CELLS as ffi::Py_ssize_t, 0).is_null()
    };
    if !copied {
        // A failed AsUCS4 sets an exception; the general path reports the
        // puzzle's own problem instead.
        let _ = PyErr::take(text.py());
        return None;
    }
    // Code points cut to their low byte first (the line is no puzzle if any
    // was past 255), then checked and mapped a byte at a time.
    let high = chars.iter().fold(0, |acc, &c| acc | c);
    let bytes: [u8; CELLS] = chars.map(|c| c as u8);
    read_symbols(&bytes).filter(|_| high < 256)
}

/// The cells of 81 symbols, each a digit `1`-`9` or a blank (`.` or `0`),
/// clashing or not. Vectorised without a branch per symbol (16 lanes).
fn read_symbols(bytes: &[u8; CELLS]) -> Option<Cells> {
    let mut cells = [0u8; CELLS];
    let mut clean = true;
    for (out, &b) in cells.iter_mut().zip(bytes) {
        let digit = b.wrapping_sub(b'0');
        let is_digit = digit <= 9;
        clean &= is_digit | (b == b'.');
        *out = if is_digit { digit } else { 0 };
    }
    clean.then_some(cells)
}

/// The puzzles of a whole text when every line is a 9x9 line as
/// [`read_unchecked`] takes it, or empty, or a `#` comment (a byte-order
/// mark may open the text, lines may end in `\r\n`); `None` sends the
/// text the general way. Clashes are left to the caller, as for a list.
pub fn read_lines(text: &str) -> Option<Vec<Cells>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut grids = Vec::with_capacity(text.len() / (CELLS + 1) + 1);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        grids.push(read_symbols(line.as_bytes().try_into().ok()?)?);
    }
    Some(grids)
}

/// Each cell's row, column and box, in one table so that [`clashes`] needs
/// no division.
const PLACES: [[u8; 3]; CELLS] = {
    let mut places = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, column) = (cell / 9, cell % 9);
        places[cell] = [row as u8, column as u8, (row / 3 * 3 + column / 3) as u8];
        cell += 1;
    }
    places
};

/// Whether a digit of `cells` repeats in a row, column or box.
pub fn clashes(cells: &Cells) -> bool {
    // Digits seen in each row, column and box, one bit per digit.
    let mut seen = [[0u16; 9]; 3];
    let mut clash = 0u16;
    for (&digit, place) in cells.iter().zip(&PLACES) {
        // A blank sets bit 0, which no digit uses.
        let bit = 1u16 << digit;
        let [row, column, square] = place.map(usize::from);
        clash |= (seen[0][row] | seen[1][column] | seen[2][square]) & bit & !1;
        seen[0][row] |= bit;
        seen[1][column] |= bit;
        seen[2][square] |= bit;
    }
    clash != 0
}

/// The line a 9x9 grid's cells were read from (up to the blank symbol):
/// to have the general path give the message for clashing givens.
pub fn text(cells: &Cells) -> String {
    cells.iter().map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) }).collect()
}

/// A solved 9x9 grid as a line of 81 digits; `None` when `cells` is not 81
/// digits 1-9 (a grid with blanks goes the general way).
pub fn write<'py>(py: Python<'py>, cells: &[u8]) -> Option<PyResult<Bound<'py, PyString>>> {
    let cells: &[u8; CELLS] = cells.try_into().ok()?;
    let mut text = [0u8; CELLS];
    // Vectorised: no branch per cell.
    let mut digits = true;
    for (byte, &digit) in text.iter_mut().zip(cells) {
        digits &= digit.wrapping_sub(1) < 9;
        *byte = b'0'.wrapping_add(digit);
    }
    if !digits {
        return None;
    }
    // SAFETY: `text` holds CELLS ASCII bytes, readable for the whole call;
    // DecodeASCII copies them into a new string (or returns NULL with an
    // exception set, which `from_owned_ptr_or_err` turns into an error).
    let object = unsafe {
        let object = ffi::PyUnicode_DecodeASCII(text.as_ptr().cast(), CELLS as ffi::Py_ssize_t, std::ptr::null());
        Bound::from_owned_ptr_or_err(py, object)
    };
    Some(object.map(|any| any.cast_into().expect("DecodeASCII returns a str")))
}
