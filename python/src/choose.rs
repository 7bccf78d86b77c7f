//! `backtrack.choose`: permutations, combinations and sequences of `1..=n`
//! or of given values (multisets included), streamed in lexicographic order.

use backtrack::choose::{Choose, Repetition, Shape};
use backtrack::search::Search;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors;
use crate::run::{Convert, Item, Solutions, Tuples};

/// Largest n for the pool `1..=n` (the enumerator keeps every value).
const MAX_RANGE: u64 = 10_000_000;

/// Sequences given as indices into the distinct values, turned back into them.
struct Values(Vec<Py<PyAny>>);

impl Convert for Values {
    fn convert<'py>(&self, py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, item.into_iter().map(|i| self.0[i as usize].bind(py)))?.into_any())
    }
}

/// The pool as ranks (equal values share one, in sorted order, repeats
/// kept) and the distinct values, one per rank. Values are compared by
/// Python's own `<` and `==`, so any sortable values will do.
fn ranks(values: &Bound<'_, PyAny>) -> PyResult<(Vec<u32>, Vec<Py<PyAny>>)> {
    let sorted = values.py().import("builtins")?.getattr("sorted")?.call1((values,))?;
    let mut pool = Vec::new();
    let mut distinct: Vec<Py<PyAny>> = Vec::new();
    for value in sorted.try_iter()? {
        let value = value?;
        let same = match distinct.last() {
            Some(last) => last.bind(values.py()).eq(&value)?,
            None => false,
        };
        if !same {
            distinct.push(value.unbind());
        }
        pool.push(u32::try_from(distinct.len() - 1).map_err(|_| errors::value("too many values"))?);
    }
    Ok((pool, distinct))
}

/// Streams the sequences of length `m` of `shape` drawn from `1..=n` or
/// from `values`.
fn sequences(
    n: Option<u64>,
    m: usize,
    shape: Shape,
    repeat: bool,
    values: Option<&Bound<'_, PyAny>>,
) -> PyResult<Solutions> {
    let repetition = if repeat { Repetition::Unlimited } else { Repetition::Once };
    let search = |space: Choose<u32>| {
        move |feed: &mut crate::run::Feed, control: &backtrack::search::Control| {
            Search::new(space).control(control.clone()).for_each(|seq| feed.push(seq));
        }
    };
    match values {
        None => {
            let n = n.ok_or_else(|| errors::value("give n (the pool 1..n) or values"))?;
            if n > MAX_RANGE {
                return Err(errors::value(format!("n = {n} is too large (at most {MAX_RANGE})")));
            }
            Solutions::start(Tuples, search(Choose::new(1..=n as u32, m, shape, repetition)))
        }
        Some(values) => {
            let (pool, distinct) = ranks(values)?;
            if n.is_some_and(|n| n != pool.len() as u64) {
                return Err(errors::value(format!(
                    "n = {} but {} values were given (leave n out with values)",
                    n.unwrap_or_default(),
                    pool.len()
                )));
            }
            Solutions::start(Values(distinct), search(Choose::new(pool, m, shape, repetition)))
        }
    }
}

/// Arrangements of m values in any order, in lexicographic order, each a
/// tuple: the permutations of m out of 1..n, or with repeat=True every
/// sequence of length m (n**m of them). With values= (n then may be None),
/// they are drawn from those values instead, which may repeat (a multiset:
/// a value given c times appears at most c times, and no arrangement comes
/// twice). The iterator streams; dropping it stops the enumeration.
///
/// >>> from backtrack import choose
/// >>> list(choose.perm(3, 2))
/// [(1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2)]
/// >>> len(list(choose.perm(3, 2, repeat=True)))
/// 9
/// >>> list(choose.perm(None, 2, values=["b", "a", "b"]))
/// [('a', 'b'), ('b', 'a'), ('b', 'b')]
#[pyfunction]
#[pyo3(signature = (n, m, repeat = false, values = None))]
fn perm(n: Option<u64>, m: usize, repeat: bool, values: Option<&Bound<'_, PyAny>>) -> PyResult<Solutions> {
    sequences(n, m, Shape::Any, repeat, values)
}

/// Selections of m values, each an increasing tuple, in lexicographic
/// order: the combinations of m out of 1..n, or with repeat=True the
/// non-decreasing ones (multisets of size m). With values= (n then may be
/// None), they are drawn from those values, which may repeat (each given
/// copy used at most once). The iterator streams; dropping it stops the
/// enumeration.
///
/// >>> from backtrack import choose
/// >>> list(choose.comb(4, 2))
/// [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
/// >>> list(choose.comb(2, 2, repeat=True))
/// [(1, 1), (1, 2), (2, 2)]
/// >>> list(choose.comb(None, 2, values=[9, 7, 9, 1]))
/// [(1, 7), (1, 9), (7, 9), (9, 9)]
#[pyfunction]
#[pyo3(signature = (n, m, repeat = false, values = None))]
fn comb(n: Option<u64>, m: usize, repeat: bool, values: Option<&Bound<'_, PyAny>>) -> PyResult<Solutions> {
    // Sorted selections of a multiset keep equal values side by side:
    // non-decreasing, each given copy once; on distinct values, increasing.
    sequences(n, m, Shape::NonDecreasing, repeat, values)
}

/// Adds the `choose` submodule to `parent`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "choose")?;
    m.add_function(wrap_pyfunction!(perm, &m)?)?;
    m.add_function(wrap_pyfunction!(comb, &m)?)?;
    parent.add_submodule(&m)
}
