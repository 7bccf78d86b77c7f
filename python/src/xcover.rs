//! `backtrack.xcover`: exact cover with colors (Knuth's Algorithm C),
//! multiplicities (his MCC problems) and costs, built from Python lists or
//! read from Knuth's text format.

use std::collections::HashMap;
use std::sync::Arc;

use backtrack::search::{Search, Threads};
use backtrack::xcover;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::errors;
use crate::run::{self, Convert, Item, Solutions};

/// Solutions as lists of option indices.
struct Lists;

impl Convert for Lists {
    fn convert<'py>(&self, py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, item)?.into_any())
    }
}

/// One entry of an option from Python: "item", "item:color" or (item, color).
fn entry(value: &Bound<'_, PyAny>) -> PyResult<(String, Option<String>)> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(match text.split_once(':') {
            Some((name, color)) => (name.to_string(), Some(color.to_string())),
            None => (text, None),
        });
    }
    value.extract::<(String, Option<String>)>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("an option's entry is 'item', 'item:color' or (item, color)")
    })
}

/// An exact cover problem: choose options (each a set of items) so that
/// every primary item is covered exactly once and every secondary item at
/// most once, except that options may share a secondary item when they all
/// give it the same color.
///
/// Problem(items, options, secondary=[...]) builds one from Python: items
/// are the primary items' names, options a list of options, each a list of
/// entries "item" or "item:color" (or (item, color) pairs), or one string
/// of entries separated by blanks. Problem.parse(text) reads Knuth's
/// DLX1/DLX2 format. Solutions are lists of option indices (0-based, in
/// the order the options were given), in the order the search chose them.
///
/// bounds={"a": (lo, hi)} lets primary item a be covered between lo and hi
/// times (Knuth's MCC problems; a solution is then a set of options,
/// met once); costs=[...] gives each option a cost (non-negative integer),
/// and best(k) returns the k cheapest solutions.
///
/// >>> from backtrack import xcover
/// >>> p = xcover.Problem(["a", "b", "c"], [["a", "b"], ["c"], ["a"], ["b", "c"]])
/// >>> p.count()
/// 2
/// >>> sorted(sorted(s) for s in p.solutions())
/// [[0, 1], [2, 3]]
/// >>> colored = xcover.Problem(["p", "q"], ["p x:A", "q x:A", "q x:B"], secondary=["x"])
/// >>> colored.count(), colored.option(1)
/// (1, 'q x:A')
/// >>> twice = xcover.Problem(["a", "b"], ["a b", "a", "b", "a"], bounds={"a": (2, 2)})
/// >>> twice.count()
/// 3
/// >>> priced = xcover.Problem(["a", "b"], ["a b", "a", "b"], costs=[5, 1, 2])
/// >>> priced.best(2)
/// [(3, [1, 2]), (5, [0])]
#[pyclass(module = "backtrack.xcover", frozen)]
struct Problem {
    problem: Arc<xcover::Problem>,
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (items, options, *, secondary = None, bounds = None, costs = None))]
    fn new(
        items: Vec<String>,
        options: &Bound<'_, PyAny>,
        secondary: Option<Vec<String>>,
        bounds: Option<HashMap<String, (u32, u32)>>,
        costs: Option<Vec<u64>>,
    ) -> PyResult<Problem> {
        let mut builder = xcover::Problem::builder();
        let mut bounds = bounds.unwrap_or_default();
        for name in &items {
            match bounds.remove(name) {
                Some((lo, hi)) => builder.primary_bounded(name, lo, hi),
                None => builder.primary(name),
            }
            .map_err(errors::value)?;
        }
        if let Some(name) = bounds.keys().next() {
            return Err(errors::value(format!("bounds name '{name}', which is not a primary item")));
        }
        builder.secondary_items(secondary.unwrap_or_default()).map_err(errors::value)?;
        for (k, option) in options.try_iter()?.enumerate() {
            let option = option?;
            let entries: Vec<(String, Option<String>)> = match option.cast::<PyString>() {
                Ok(text) => text
                    .to_cow()?
                    .split_whitespace()
                    .map(|e| entry(&PyString::new(option.py(), e)))
                    .collect::<PyResult<_>>(),
                Err(_) => option.try_iter()?.map(|e| entry(&e?)).collect::<PyResult<_>>(),
            }?;
            builder.option_colored(entries).map_err(|e| errors::value(format!("option {k}: {e}")))?;
        }
        if let Some(costs) = costs {
            if costs.len() != builder.n_options() {
                return Err(errors::value(format!(
                    "costs has {} entries for {} options",
                    costs.len(),
                    builder.n_options()
                )));
            }
            for (option, cost) in costs.into_iter().enumerate() {
                builder.set_cost(option, cost);
            }
        }
        Ok(Problem { problem: Arc::new(builder.build().map_err(errors::value)?) })
    }

    /// Reads a problem in Knuth's DLX1/DLX2 format: a first line naming the
    /// primary items (then '|' and the secondary items), then one option a
    /// line, 'name:color' on secondary items; lines starting with '|' are
    /// comments. Raises ParseError (with line and column) on bad input.
    ///
    /// >>> from backtrack import xcover
    /// >>> xcover.Problem.parse("a b | x\na x:1\nb x:1\nb\n").count()
    /// 2
    /// >>> xcover.Problem.parse("a b\na c\n")
    /// Traceback (most recent call last):
    ///     ...
    /// backtrack.ParseError: line 2, column 3: unknown item 'c'
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Problem> {
        let parsed = xcover::parse(text).map_err(|e| errors::parse(&e))?;
        Ok(Problem { problem: Arc::new(parsed.problem) })
    }

    /// The number of solutions, stopping at limit when given; on threads
    /// threads (None: one; 0: one per core). Ctrl-C stops it.
    #[pyo3(signature = (*, limit = None, threads = None))]
    fn count(&self, py: Python<'_>, limit: Option<u64>, threads: Option<usize>) -> PyResult<u64> {
        let threads = match threads {
            None => Threads::ONE,
            Some(t) => crate::threads(Some(t))?,
        };
        let problem = self.problem.clone();
        let counted = run::interruptible(py, move |control| problem.space().count_solutions(limit, threads, control))?;
        counted.map(|(count, _)| count).map_err(errors::threads)
    }

    /// Any one solution (option indices, in the order chosen), or None.
    fn first(&self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        let problem = self.problem.clone();
        run::interruptible(py, move |control| Search::new(problem.space()).control(control.clone()).first())
    }

    /// Every solution, as an iterator that streams (lists of option
    /// indices). Dropping the iterator stops the search.
    fn solutions(&self) -> PyResult<Solutions> {
        let problem = self.problem.clone();
        Solutions::start(Lists, move |feed, control| {
            let walked = problem
                .space()
                .for_each_solution(Threads::ONE, control, |s| feed.push(s.into_iter().map(|o| o as u32).collect()));
            walked.expect("one thread starts no other");
        })
    }

    /// The k cheapest solutions, cheapest first, as (cost, options) pairs
    /// (options sorted; ties in the order the search meets them), fewer
    /// when the problem has fewer solutions: Knuth's DLX5 branch and bound.
    /// Ctrl-C stops it.
    #[pyo3(signature = (k = 1))]
    fn best(&self, py: Python<'_>, k: usize) -> PyResult<Vec<(u64, Vec<usize>)>> {
        let problem = self.problem.clone();
        let found = run::interruptible(py, move |control| xcover::cost::best(&problem, k, control))?;
        let (costed, _) = found.map_err(errors::value)?;
        Ok(costed
            .into_iter()
            .map(|c| {
                let mut options = c.options;
                options.sort_unstable();
                (c.cost, options)
            })
            .collect())
    }

    /// The costs of the k cheapest solutions, least first (those of
    /// best(k)), fewer when the problem has fewer solutions; the search
    /// keeps no solution's options, so a large k costs less. Ctrl-C stops it.
    #[pyo3(signature = (k = 1))]
    fn best_costs(&self, py: Python<'_>, k: usize) -> PyResult<Vec<u64>> {
        let problem = self.problem.clone();
        let found = run::interruptible(py, move |control| xcover::cost::best_costs(&problem, k, control))?;
        let (costs, _) = found.map_err(errors::value)?;
        Ok(costs)
    }

    /// Option `index`'s cost (0 when none was given).
    fn cost(&self, index: usize) -> PyResult<u64> {
        self.check_index(index)?;
        Ok(self.problem.cost(index))
    }

    /// Primary item `name`'s bounds: how many times it is to be covered,
    /// as (lo, hi); (1, 1) unless bounds said otherwise.
    fn bounds(&self, name: &str) -> PyResult<(u32, u32)> {
        (0..self.problem.n_primary())
            .find(|&i| self.problem.item_name(i) == name)
            .map(|i| self.problem.bounds(i))
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no primary item '{name}'")))
    }

    /// Option `index` as text: its entries separated by blanks, as Knuth's format writes it.
    fn option(&self, index: usize) -> PyResult<String> {
        self.check_index(index)?;
        Ok(self.problem.option_text(index))
    }

    /// The primary items' names.
    #[getter]
    fn items(&self) -> Vec<String> {
        (0..self.problem.n_primary()).map(|i| self.problem.item_name(i).to_string()).collect()
    }

    /// The secondary items' names.
    #[getter]
    fn secondary(&self) -> Vec<String> {
        (self.problem.n_primary()..self.problem.n_items()).map(|i| self.problem.item_name(i).to_string()).collect()
    }

    /// The number of options.
    fn __len__(&self) -> usize {
        self.problem.n_options()
    }

    fn __repr__(&self) -> String {
        format!(
            "<xcover.Problem: {} items ({} secondary), {} options>",
            self.problem.n_items(),
            self.problem.n_items() - self.problem.n_primary(),
            self.problem.n_options()
        )
    }
}

impl Problem {
    /// An IndexError unless `index` names an option.
    fn check_index(&self, index: usize) -> PyResult<()> {
        if index >= self.problem.n_options() {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "option {index} is out of range: the problem has {}",
                self.problem.n_options()
            )));
        }
        Ok(())
    }
}

/// Adds the `xcover` submodule to `parent`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "xcover")?;
    m.add_class::<Problem>()?;
    parent.add_submodule(&m)
}
