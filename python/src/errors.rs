//! The exceptions the package raises. `ParseError` and `InternalError` are
//! defined in Python (`backtrack/__init__.py`), so that `ParseError` can be
//! a `ValueError` with `line` and `column` attributes; they are looked up
//! when raised.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// An instance of the package's exception class `class`, made by `make`;
/// `fallback` should the package not be importable (it always is once the
/// extension is loaded, since the package imports it).
fn package_error(
    class: &str,
    make: impl for<'py> FnOnce(&Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>,
    fallback: impl FnOnce() -> PyErr,
) -> PyErr {
    Python::attach(|py| match py.import("backtrack").and_then(|m| m.getattr(class)).and_then(|c| make(&c)) {
        Ok(value) => PyErr::from_value(value),
        Err(_) => fallback(),
    })
}

/// `backtrack.ParseError` for a parser's error: the library's message,
/// with `line` and `column` (1-based; column 0 for the whole line).
pub fn parse(e: &backtrack::ParseError) -> PyErr {
    let message = e.to_string();
    package_error(
        "ParseError",
        |class| class.call1((message.as_str(), e.line, e.column)),
        || PyValueError::new_err(message.clone()),
    )
}

/// `backtrack.InternalError` for a Rust panic: a bug, never the caller's fault.
pub fn internal(message: impl Into<String>) -> PyErr {
    let message = format!("internal error (a bug in backtrack): {}", message.into());
    package_error(
        "InternalError",
        |class| class.call1((message.as_str(),)),
        || PyRuntimeError::new_err(message.clone()),
    )
}

/// `RuntimeError` for threads that the system would not start (a process or
/// memory limit): the caller may try fewer.
pub fn threads(e: backtrack::search::ThreadStartError) -> PyErr {
    PyRuntimeError::new_err(format!("{e}; try fewer threads"))
}

/// `ValueError` with one of the library's messages.
pub fn value(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}
