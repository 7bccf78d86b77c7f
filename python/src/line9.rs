//! The common case of a batch, read and written without the general text
//! machinery: a 9x9 puzzle as one line of 81 characters, answered by a line
//! of 81 digits.
//!
//! `solve_many` on easy puzzles spends about as long turning Python strings
//! into cells and back as the kernel spends solving them (a few microseconds
//! each), so both ends of that path go straight through the interpreter's
//! stable C API: no UTF-8 re-encoding, no format detection, no temporary
//! strings. A line these functions do not take (another size or format, a
//! symbol other than `1`-`9`, `.` and `0`, givens that clash) goes the general
//! way, which gives the same answer or the library's error message.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Cells of a 9x9 grid.
const CELLS: usize = 81;

/// The cells of `text` when it is one clean 9x9 line: 81 symbols, each a
/// digit `1`-`9` or a blank (`.` or `0`), with no digit repeated in a row,
/// column or box. `None` sends the puzzle down the general path.
pub fn read(text: &Bound<'_, PyString>) -> Option<Vec<u8>> {
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
    let mut cells = vec![0u8; CELLS];
    // Digits seen in each row, column and box, one bit per digit.
    let (mut rows, mut columns, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (cell, (&c, out)) in chars.iter().zip(&mut cells).enumerate() {
        let digit = match c {
            0x31..=0x39 => c - 0x30,
            0x2E | 0x30 => continue,
            _ => return None,
        };
        let (row, column) = (cell / 9, cell % 9);
        let square = row / 3 * 3 + column / 3;
        let bit = 1u16 << digit;
        if (rows[row] | columns[column] | boxes[square]) & bit != 0 {
            return None;
        }
        rows[row] |= bit;
        columns[column] |= bit;
        boxes[square] |= bit;
        *out = digit as u8;
    }
    Some(cells)
}

/// A solved 9x9 grid as a line of 81 digits; `None` when `cells` is not 81
/// digits 1-9 (a grid with blanks goes the general way).
pub fn write<'py>(py: Python<'py>, cells: &[u8]) -> Option<PyResult<Bound<'py, PyString>>> {
    let cells: &[u8; CELLS] = cells.try_into().ok()?;
    let mut text = [0u8; CELLS];
    for (byte, &digit) in text.iter_mut().zip(cells) {
        if !(1..=9).contains(&digit) {
            return None;
        }
        *byte = b'0' + digit;
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
