//! `backtrack.queens`: count and list the solutions of the N-queens problem.

use backtrack::queens::{self, Counts, Plan, QueensSpace};
use backtrack::search::{Order, Search};
use pyo3::prelude::*;

use crate::errors;
use crate::run::{self, Solutions, Tuples};

/// Count the ways to place n queens on an n x n board, none attacking
/// another (OEIS A000170); with unique=True, the solutions distinct up to
/// rotation and reflection (A002562). Runs on threads threads (None or 0:
/// one per core) with the interpreter's lock released; Ctrl-C stops it.
///
/// >>> from backtrack import queens
/// >>> queens.count(8)
/// 92
/// >>> queens.count(8, unique=True)
/// 12
/// >>> queens.count(10, threads=1)
/// 724
#[pyfunction]
#[pyo3(signature = (n, *, unique = false, threads = None))]
fn count(py: Python<'_>, n: usize, unique: bool, threads: Option<usize>) -> PyResult<u128> {
    let plan = Plan::new(n).map_err(errors::value)?;
    let threads = crate::threads(threads)?;
    let counts = run::interruptible(py, move |control| {
        let mut counts = Counts::default();
        queens::count_with(&plan, threads, |_| false, Some(control), |_, c| counts.add(c)).map(|()| counts)
    })?
    .map_err(errors::threads)?;
    Ok(if unique { counts.unique } else { counts.total })
}

/// Every solution of the n-queens problem, in lexicographic order, as an
/// iterator that streams: each solution is a tuple giving, row by row, the
/// column (from 0) of that row's queen. Dropping the iterator stops the search.
///
/// >>> from backtrack import queens
/// >>> list(queens.solutions(4))
/// [(1, 3, 0, 2), (2, 0, 3, 1)]
/// >>> next(queens.solutions(8))
/// (0, 4, 7, 5, 2, 6, 1, 3)
#[pyfunction]
fn solutions(n: usize) -> PyResult<Solutions> {
    let space = QueensSpace::new(n).map_err(errors::value)?;
    Solutions::start(Tuples, move |feed, control| {
        Search::new(space)
            .order(Order::Lexicographic)
            .control(control.clone())
            .for_each(|columns| feed.push(columns.iter().map(|&c| u32::from(c)).collect()));
    })
}

/// Adds the `queens` submodule to `parent`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "queens")?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(solutions, &m)?)?;
    parent.add_submodule(&m)
}
