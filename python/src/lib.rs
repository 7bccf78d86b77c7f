//! The Python package `backtrack`: bindings to the library crate.
//!
//! Every function maps Python arguments to one library call and the result
//! back; no solver logic lives here. Long calls run on a worker thread with
//! the interpreter's lock released and answer Ctrl-C ([`run`]); a Rust
//! panic becomes `backtrack.InternalError`, never a crash ([`errors`]).

mod choose;
mod errors;
mod line9;
mod queens;
mod run;
mod sudoku;
mod xcover;

use backtrack::search::Threads;
use pyo3::prelude::*;

/// A `threads=` argument as the library takes it: `None` (or 0) for one per core.
fn threads(threads: Option<usize>) -> PyResult<Threads> {
    Threads::from_count(threads.unwrap_or(0)).map_err(errors::value)
}

/// Panics on purpose, so that the tests can check that a panic becomes
/// `InternalError`: on the calling thread ("here"), on a worker ("worker"),
/// on a pool thread under a worker ("pool"), or in a streaming search ("stream").
#[pyfunction]
fn _panic(py: Python<'_>, place: &str) -> PyResult<Py<PyAny>> {
    let boom = || -> () { panic!("a deliberate panic") };
    match place {
        "here" => run::quick(py, boom).map(|()| py.None()),
        "worker" => run::interruptible(py, move |_| boom()).map(|()| py.None()),
        "pool" => {
            let pool = backtrack::search::thread_pool(Threads::new(2).expect("in range")).map_err(errors::threads)?;
            run::interruptible(py, move |_| pool.install(boom)).map(|()| py.None())
        }
        "stream" => Ok(run::Solutions::start(run::Tuples, move |_, _| boom())?.into_pyobject(py)?.into_any().unbind()),
        _ => Err(errors::value(format!("no such place: {place}"))),
    }
}

/// The compiled part of the package (imported by `backtrack/__init__.py`).
#[pymodule]
fn _backtrack(m: &Bound<'_, PyModule>) -> PyResult<()> {
    sudoku::register(m)?;
    queens::register(m)?;
    xcover::register(m)?;
    choose::register(m)?;
    m.add_class::<run::Solutions>()?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    Ok(())
}
