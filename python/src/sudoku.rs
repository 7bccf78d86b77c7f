//! `backtrack.sudoku`: solve, count, stream, batch-solve, generate, rate,
//! explain and hint, on the library's kernels.

use backtrack::search::{for_each_chunk_mut, Control, Mode, Search};
use backtrack::sudoku::generate::{self as maker, GridSize, Options, Symmetry, Target};
use backtrack::sudoku::kernel9::{Cells, Space9};
use backtrack::sudoku::rate::{self as rater, RateError, Rating as LibRating};
use backtrack::sudoku::score::Score;
use backtrack::sudoku::techniques::{Step as LibStep, Technique};
use backtrack::sudoku::{self, Batch, Format, GeneralSpace, Puzzle, Solver};
use backtrack::variant::{self, Line, Shape, Solver as VariantSolver};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::run::{self, Convert, Item, Solutions};
use crate::{errors, line9};

/// A puzzle read from Python: its cells, and the text format it came in
/// (answers go back in that format; `None` for a list of lists, answered
/// by lists of lists).
#[derive(Clone)]
struct Grid {
    box_size: usize,
    cells: Vec<u8>,
    text: Option<Format>,
}

/// What a puzzle argument may be, for messages.
const PUZZLE_TYPES: &str =
    "a puzzle is a string (any format the command line reads), a list of lists of ints (0 for a blank), \
     or an object with tolist() such as a numpy array";

/// A puzzle read from Python: a classic grid, or a variant puzzle
/// compiled for the variant solver (`rows`: given as rows of ints, and
/// answered so; else answered by a line, as the command line writes it).
enum Read {
    Classic(Grid),
    Variant { solver: Box<VariantSolver>, rows: bool },
}

/// Reads one puzzle: a string in any format the command line reads (told
/// from the text as the command line tells it: a line in a format only
/// variant puzzles use is a variant puzzle), a list of rows of ints, or
/// anything with `tolist()`.
fn read(puzzle: &Bound<'_, PyAny>) -> PyResult<Read> {
    if let Ok(text) = puzzle.cast::<PyString>() {
        if let Some(cells) = line9::read(text) {
            return Ok(Read::Classic(Grid { box_size: 3, cells: cells.to_vec(), text: Some(Format::Line) }));
        }
        let text = text.to_cow()?;
        if variant::is_variant_line(&text) {
            return compile(&text, 1).map(|solver| Read::Variant { solver, rows: false });
        }
        return read_text(&text).map(Read::Classic);
    }
    read_rows(puzzle)
}

/// Reads a classic puzzle's text, its format detected.
fn read_text(text: &str) -> PyResult<Grid> {
    let layout = sudoku::detect(text).map_err(|e| errors::parse(&e))?;
    let parsed = sudoku::parse_as(text, layout).map_err(|e| errors::parse(&e))?;
    Ok(Grid { box_size: layout.box_size, cells: parsed.into_cells(), text: Some(layout.format) })
}

/// Reads one variant puzzle on line `line` of its text and compiles it.
fn compile(text: &str, line: usize) -> PyResult<Box<VariantSolver>> {
    let puzzle = variant::parse_line(text, line).map_err(|e| errors::parse(&e))?;
    let solver = VariantSolver::new(&puzzle).map_err(|m| errors::parse(&backtrack::ParseError::new(line, 0, m)))?;
    Ok(Box::new(solver))
}

/// The message for `lexmin=True` on a variant puzzle, as the command line's.
const LEXMIN_VARIANT: &str = "lexmin is for classic grids, not variant puzzles";

/// A variant solution: as rows of ints (`rows`), or as the command line
/// writes it, one line of symbols.
fn variant_answer<'py>(py: Python<'py>, solution: &[u8], rows: bool) -> PyResult<Bound<'py, PyAny>> {
    if rows {
        let side = (1..=variant::MAX_SIZE).find(|n| n * n == solution.len()).unwrap_or(1);
        let rows: PyResult<Vec<Bound<'py, PyList>>> = solution.chunks(side).map(|row| PyList::new(py, row)).collect();
        return Ok(PyList::new(py, rows?)?.into_any());
    }
    Ok(PyString::new(py, &Line(solution).to_string()).into_any())
}

/// A grid's givens (0 for a blank) as a variant puzzle of side `side`,
/// with rows, columns and the boxes of its size (6x6: 2 rows by 3
/// columns), compiled.
fn variant_grid(side: usize, cells: &[u8]) -> PyResult<Box<VariantSolver>> {
    let shape = Shape::new(side).ok_or_else(|| {
        errors::value(format!(
            "variant grids are {0}x{0} to {1}x{1}, not {side}x{side}",
            variant::MIN_SIZE,
            variant::MAX_SIZE
        ))
    })?;
    let mut puzzle = variant::Puzzle::new(shape);
    for (mask, &digit) in puzzle.candidates.iter_mut().zip(cells) {
        if digit > 0 {
            *mask = 1 << (digit - 1);
        }
    }
    VariantSolver::new(&puzzle).map(Box::new).map_err(errors::value)
}

/// Reads a grid given as rows of ints (or anything with `tolist()`): a
/// classic grid (4, 9, 16 or 25 rows), or a grid of a size only variant
/// puzzles have (6x6, 8x8, 12x12, ...).
fn read_rows(puzzle: &Bound<'_, PyAny>) -> PyResult<Read> {
    let list = if puzzle.hasattr("tolist")? { puzzle.call_method0("tolist")? } else { puzzle.clone() };
    let rows: Vec<Vec<i64>> = list.extract().map_err(|_| PyTypeError::new_err(PUZZLE_TYPES))?;
    let side = rows.len();
    let box_size = (2..=5).find(|b| b * b == side);
    if box_size.is_none() && !(variant::MIN_SIZE..=variant::MAX_SIZE).contains(&side) {
        return Err(errors::value(format!("a grid has 4 to 16 rows, or 25, not {side}")));
    }
    let mut cells = Vec::with_capacity(side * side);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != side {
            return Err(errors::value(format!(
                "row {} has {} values; a {side}x{side} grid has {side}",
                r + 1,
                row.len()
            )));
        }
        for (c, &v) in row.iter().enumerate() {
            let digit = u8::try_from(v).ok().filter(|&d| d as usize <= side).ok_or_else(|| {
                errors::value(format!("row {}, column {} holds {v}, out of range 0..={side}", r + 1, c + 1))
            })?;
            cells.push(digit);
        }
    }
    let Some(box_size) = box_size else {
        return variant_grid(side, &cells).map(|solver| Read::Variant { solver, rows: true });
    };
    let puzzle = Puzzle::new(box_size, cells).map_err(errors::value)?;
    Ok(Read::Classic(Grid { box_size, cells: puzzle.into_cells(), text: None }))
}

/// Cells as Python gives them back: text in `format` (without the final
/// newline), or a list of rows.
fn answer<'py>(py: Python<'py>, box_size: usize, text: Option<Format>, cells: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    match text {
        Some(Format::Line) if box_size == 3 => match line9::write(py, cells) {
            Some(line) => line.map(Bound::into_any),
            None => answer_text(py, box_size, Format::Line, cells),
        },
        Some(format) => answer_text(py, box_size, format, cells),
        None => {
            let side = box_size * box_size;
            let rows: PyResult<Vec<Bound<'py, PyList>>> = cells.chunks(side).map(|row| PyList::new(py, row)).collect();
            Ok(PyList::new(py, rows?)?.into_any())
        }
    }
}

/// Cells as text in `format`, without the final newline.
fn answer_text<'py>(py: Python<'py>, box_size: usize, format: Format, cells: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let mut out = Vec::with_capacity(cells.len() * 2);
    sudoku::write_cells(&mut out, box_size, cells, format);
    out.pop();
    let out = std::str::from_utf8(&out).expect("grids are written in ASCII");
    Ok(PyString::new(py, out).into_any())
}

/// The 9x9 grid of `cells`, when it is one.
fn nine(cells: &[u8]) -> Option<&Cells> {
    cells.try_into().ok()
}

/// Solves `grid` in `mode` (`First` or `LexFirst`): the solution, if any.
/// A 9x9 grid goes to the fast kernel on the calling thread (microseconds);
/// other sizes search on a worker that answers Ctrl-C.
fn solve_grid(py: Python<'_>, grid: Grid, mode: Mode) -> PyResult<Option<Vec<u8>>> {
    if grid.box_size == 3 {
        return run::quick(py, || {
            let mut solution = vec![0u8; 81];
            let solved = Solver::new(3).solve(&grid.cells, mode, &mut solution);
            (solved.count > 0).then_some(solution)
        });
    }
    run::interruptible(py, move |control| {
        let (order, _) = mode.order_and_limit();
        let mut search =
            Search::new(GeneralSpace::new(grid.box_size, &grid.cells)).order(order).control(control.clone());
        let mut first = None;
        search.run(mode, |solution| {
            first.get_or_insert(solution);
        });
        first
    })
}

/// Solve one puzzle: its solution, or None when it has none.
///
/// The puzzle is a string in any format the command line reads (one line of
/// 81 symbols with '.' or '0' for a blank, a grid of lines, digits separated
/// by spaces; 4x4 to 25x25), a list of lists of ints (0 for a blank; 6, 7,
/// 8 and 10 to 15 rows make a variant grid, with ISS's boxes), or an object
/// with tolist() such as a numpy array. A string gets a string back, in the
/// format it came in; a list gets a list of lists.
///
/// With lexmin=True the solution is the lexicographically smallest (the
/// cells read row by row as one number).
///
/// >>> from backtrack import sudoku
/// >>> sudoku.solve("1.3.....2.......")
/// '1234341221434321'
/// >>> sudoku.solve([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], lexmin=True)
/// [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
/// >>> sudoku.solve("12....34........") is None
/// True
///
/// Variant puzzles (ISS constraint strings, killer strings, SudokuWiki
/// killers, jigsaws, pencil marks, 6x6 and other sizes only variants have),
/// told from the text as the command line tells them, get a line back:
///
/// >>> sudoku.solve(".Shape~4x4.Thermo~R1C1~R1C2~R1C3~R1C4.~R2C1_4")
/// '1234431221433421'
/// >>> sudoku.solve("1.x.............")
/// Traceback (most recent call last):
///     ...
/// backtrack.ParseError: line 1, column 3: ...
#[pyfunction]
#[pyo3(signature = (puzzle, *, lexmin = false))]
fn solve<'py>(py: Python<'py>, puzzle: &Bound<'py, PyAny>, lexmin: bool) -> PyResult<Option<Bound<'py, PyAny>>> {
    let grid = match read(puzzle)? {
        Read::Classic(grid) => grid,
        Read::Variant { .. } if lexmin => return Err(errors::value(LEXMIN_VARIANT)),
        Read::Variant { mut solver, rows } => {
            let first = run::interruptible(py, move |control| {
                solver.set_control(control.clone());
                solver.first()
            })?;
            return first.map(|s| variant_answer(py, &s, rows)).transpose();
        }
    };
    let (box_size, text) = (grid.box_size, grid.text);
    let mode = if lexmin { Mode::LexFirst } else { Mode::First };
    match solve_grid(py, grid, mode)? {
        Some(solution) => answer(py, box_size, text, &solution).map(Some),
        None => Ok(None),
    }
}

/// Count the solutions of one puzzle, stopping at limit when given
/// (limit=2 checks uniqueness: 0, 1 or 2).
///
/// >>> from backtrack import sudoku
/// >>> sudoku.count("1...............")
/// 72
/// >>> sudoku.count("." * 81, limit=2)
/// 2
/// >>> sudoku.count(".Shape~4x4.Cage~7~R1C2~R1C3.Cage~7~R3C1~R4C1.~R1C1_1~R4C4_1")
/// 2
#[pyfunction]
#[pyo3(signature = (puzzle, *, limit = None))]
fn count(py: Python<'_>, puzzle: &Bound<'_, PyAny>, limit: Option<u64>) -> PyResult<u64> {
    let grid = match read(puzzle)? {
        Read::Classic(grid) => grid,
        Read::Variant { mut solver, .. } => {
            return run::interruptible(py, move |control| {
                solver.set_control(control.clone());
                solver.count(limit).solutions
            })
        }
    };
    run::interruptible(py, move |control| match nine(&grid.cells) {
        Some(cells) => Search::new(Space9::new(cells)).control(control.clone()).count(limit),
        None => Search::new(GeneralSpace::new(grid.box_size, &grid.cells)).control(control.clone()).count(limit),
    })
}

/// Turns streamed cells back into the caller's kind of grid.
enum Grids {
    Classic {
        box_size: usize,
        text: Option<Format>,
    },
    /// Variant solutions, as rows or as lines.
    Variant {
        rows: bool,
    },
}

impl Convert for Grids {
    fn convert<'py>(&self, py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyAny>> {
        let cells: Vec<u8> = item.into_iter().map(|v| v as u8).collect();
        match *self {
            Grids::Classic { box_size, text } => answer(py, box_size, text, &cells),
            Grids::Variant { rows } => variant_answer(py, &cells, rows),
        }
    }
}

fn item(cells: &[u8]) -> Item {
    cells.iter().map(|&v| u32::from(v)).collect()
}

/// Every solution of one puzzle, as an iterator that streams: solutions are
/// found on a worker thread a few hundred ahead of the reader, so a puzzle
/// with billions of solutions can be walked in constant memory. Dropping
/// the iterator (or calling close()) stops the search.
///
/// >>> from backtrack import sudoku
/// >>> it = sudoku.solutions("1...............")
/// >>> next(it)
/// '1234341221434321'
/// >>> sum(1 for _ in it) + 1
/// 72
/// >>> list(sudoku.solutions(".Shape~4x4.Cage~7~R1C2~R1C3.Cage~7~R3C1~R4C1.~R1C1_1~R4C4_1"))
/// ['1342241331244231', '1432231441233241']
#[pyfunction]
fn solutions(puzzle: &Bound<'_, PyAny>) -> PyResult<Solutions> {
    let grid = match read(puzzle)? {
        Read::Classic(grid) => grid,
        Read::Variant { mut solver, rows } => {
            return Solutions::start(Grids::Variant { rows }, move |feed, control| {
                solver.set_control(control.clone());
                solver.for_each(|s| feed.push(item(s)));
            })
        }
    };
    let convert = Grids::Classic { box_size: grid.box_size, text: grid.text };
    Solutions::start(convert, move |feed, control| match nine(&grid.cells) {
        Some(cells) => {
            Search::new(Space9::new(cells)).control(control.clone()).for_each(|s| feed.push(item(&s)));
        }
        None => {
            Search::new(GeneralSpace::new(grid.box_size, &grid.cells))
                .control(control.clone())
                .for_each(|s| feed.push(item(&s)));
        }
    })
}

/// Puzzles answered per job: as in the command line (which answers variant
/// puzzles, each taking milliseconds or more, one per job).
const CHUNK: usize = 256;

/// One puzzle of `solve_many`, and its answer once solved.
enum Job {
    /// A 9x9 line read by [`line9::read_unchecked`]; `cells` holds the
    /// solution once `solved`. Clashing givens are only looked for when
    /// the search finds no solution (they never have one).
    Line9 {
        cells: line9::Cells,
        solved: bool,
    },
    Classic {
        grid: Grid,
        solution: Option<Vec<u8>>,
    },
    Variant {
        solver: Box<VariantSolver>,
        rows: bool,
        solution: Option<Vec<u8>>,
    },
}

impl Job {
    /// A puzzle read by [`read`].
    fn of(read: Read) -> Job {
        match read {
            Read::Classic(grid) => Job::Classic { grid, solution: None },
            Read::Variant { solver, rows } => Job::Variant { solver, rows, solution: None },
        }
    }

    /// Solves the puzzle in place (`solver`: a classic solver kept between
    /// puzzles of one size).
    fn solve(&mut self, solver: &mut Option<Solver>, mode: Mode, control: &Control) {
        match self {
            Job::Line9 { cells, solved } => {
                let mut solution = [0u8; 81];
                *solved = classic(solver, 3).solve(cells.as_slice(), mode, &mut solution).count > 0;
                if *solved {
                    *cells = solution;
                }
            }
            Job::Classic { grid, solution } => {
                let mut cells = vec![0u8; grid.cells.len()];
                let solved = classic(solver, grid.box_size).solve(&grid.cells, mode, &mut cells);
                *solution = (solved.count > 0).then_some(cells);
            }
            Job::Variant { solver, solution, .. } => {
                solver.set_control(control.clone());
                *solution = solver.first();
            }
        }
    }

    /// The answer to give back: the solution in the format the puzzle came
    /// in, or None.
    fn answer<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Job::Line9 { cells, solved: true } => answer(py, 3, Some(Format::Line), cells),
            Job::Classic { grid, solution: Some(cells) } => answer(py, grid.box_size, grid.text, cells),
            Job::Variant { solution: Some(cells), rows, .. } => variant_answer(py, cells, *rows),
            _ => Ok(py.None().into_bound(py)),
        }
    }
}

/// The classic solver kept in `solver` when it is for `box_size`, else a new one.
fn classic(solver: &mut Option<Solver>, box_size: usize) -> &mut Solver {
    if solver.as_ref().is_none_or(|s| s.box_size() != box_size) {
        *solver = Some(Solver::new(box_size));
    }
    solver.as_mut().expect("set above")
}

/// The first of `jobs` whose givens clash (left unchecked by the fast
/// reader), as the error the general path gives for it.
fn first_clash(jobs: &[Job]) -> PyResult<()> {
    for job in jobs {
        if let Job::Line9 { cells, solved: false } = job {
            if line9::clashes(cells) {
                read_text(&line9::text(cells))?;
            }
        }
    }
    Ok(())
}

/// [`first_clash`] for puzzles read from one text: the error the general
/// reading of the whole text gives (with the line it is on), if any.
fn first_clash_in_text(jobs: &[Job], text: &Bound<'_, PyString>) -> PyResult<()> {
    let clash = jobs.iter().any(|job| matches!(job, Job::Line9 { cells, solved: false } if line9::clashes(cells)));
    if clash {
        let batch = Batch::parse(&text.to_cow()?).map_err(|e| errors::parse(&e))?;
        if let Some(e) = batch.first_error() {
            return Err(errors::parse(e));
        }
    }
    Ok(())
}

/// Reads the puzzles of `solve_many`: the text of a whole file (variant
/// puzzles when its first puzzle is one, as for the command line), or an
/// iterable of puzzles.
fn read_many(puzzles: &Bound<'_, PyAny>) -> PyResult<Vec<Job>> {
    if let Ok(text) = puzzles.cast::<PyString>() {
        let text = text.to_cow()?;
        if let Some(grids) = line9::read_lines(&text) {
            return Ok(grids.into_iter().map(|cells| Job::Line9 { cells, solved: false }).collect());
        }
        if variant::is_variant_text(&text) {
            return variant::puzzle_lines(&text)
                .map(|(line, puzzle)| {
                    compile(puzzle, line).map(|solver| Job::of(Read::Variant { solver, rows: false }))
                })
                .collect();
        }
        let batch = Batch::parse(&text).map_err(|e| errors::parse(&e))?;
        if let Some(e) = batch.first_error() {
            return Err(errors::parse(e));
        }
        let layout = batch.layout();
        let job = |cells: &[u8]| match cells.try_into() {
            Ok(cells) if layout.format == Format::Line => Job::Line9 { cells, solved: false },
            _ => Job::of(Read::Classic(Grid {
                box_size: layout.box_size,
                cells: cells.to_vec(),
                text: Some(layout.format),
            })),
        };
        return Ok(batch
            .entries()
            .iter()
            .filter_map(|entry| entry.result.as_ref().ok())
            .map(|&slot| job(batch.cells(slot)))
            .collect());
    }
    let mut jobs = Vec::with_capacity(puzzles.len().unwrap_or(0));
    for puzzle in puzzles.try_iter()? {
        let puzzle = puzzle?;
        if let Some(cells) = puzzle.cast::<PyString>().ok().and_then(|text| line9::read_unchecked(text)) {
            jobs.push(Job::Line9 { cells, solved: false });
            continue;
        }
        match read(&puzzle) {
            Ok(read) => jobs.push(Job::of(read)),
            Err(e) => {
                // An earlier puzzle's clash is the first error.
                first_clash(&jobs)?;
                return Err(e);
            }
        }
    }
    Ok(jobs)
}

/// Solve many puzzles on several threads; the answers come back in input
/// order (None for a puzzle without a solution).
///
/// puzzles is the text of a whole file (any format the command line reads,
/// variant puzzles one per line included; '#' comment lines and blank lines
/// skipped) or an iterable of puzzles, each as solve() takes it. threads:
/// how many (None or 0: one per core).
///
/// >>> from backtrack import sudoku
/// >>> sudoku.solve_many(["1.3.....2.......", "12....34........"], threads=2)
/// ['1234341221434321', None]
/// >>> sudoku.solve_many("# two puzzles\n1.3.....2.......\n.2..............\n")
/// ['1234341221434321', '1234341221434321']
/// >>> sudoku.solve_many([".Shape~4x4.~R1C1_1~R1C2_2~R2C3_1~R3C4_3~R4C1_4", "1.3.....2......."])
/// ['1234341221434321', '1234341221434321']
#[pyfunction]
#[pyo3(signature = (puzzles, *, threads = None, lexmin = false))]
fn solve_many<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<usize>,
    lexmin: bool,
) -> PyResult<Bound<'py, PyList>> {
    let mut jobs = read_many(puzzles)?;
    if lexmin && jobs.iter().any(|job| matches!(job, Job::Variant { .. })) {
        return Err(errors::value(LEXMIN_VARIANT));
    }
    let threads = crate::threads(threads)?;
    let mode = if lexmin { Mode::LexFirst } else { Mode::First };
    let chunk = if jobs.iter().any(|job| matches!(job, Job::Variant { .. })) { 1 } else { CHUNK };
    let jobs = run::interruptible(py, move |control| {
        for_each_chunk_mut(threads, &mut jobs, chunk, |chunk| {
            let mut solver = None;
            for job in chunk {
                if control.is_cancelled() {
                    return;
                }
                job.solve(&mut solver, mode, control);
            }
        })?;
        Ok(jobs)
    })?
    .map_err(errors::threads)?;
    match puzzles.cast::<PyString>() {
        Ok(text) => first_clash_in_text(&jobs, text)?,
        Err(_) => first_clash(&jobs)?,
    }
    let answers = jobs.iter().map(|job| job.answer(py)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, answers)
}

/// The true candidates of a puzzle, as candidates() returns them: the
/// fields of the command line's sudoku --candidates --json.
///
/// >>> from backtrack import sudoku
/// >>> sudoku.candidates("1234341221434321")
/// Candidates(solutions=1, complete=True, size=4, candidates=[[1], [2], [3], [4], [3], ...])
#[pyclass(module = "backtrack.sudoku", frozen, get_all)]
struct Candidates {
    /// Per cell, row by row, the values it holds in at least one solution
    /// (empty lists when there is no solution). (Not `u8`, which would
    /// become `bytes`.)
    candidates: Vec<Vec<u16>>,
    /// Solutions counted, at most the limit.
    solutions: u64,
    /// Whether solutions is every solution (not cut short by the limit).
    complete: bool,
    /// The grid's side (the values run from 1 to size).
    size: usize,
}

#[pymethods]
impl Candidates {
    fn __repr__(&self) -> String {
        let complete = if self.complete { "True" } else { "False" };
        format!(
            "Candidates(solutions={}, complete={complete}, size={}, candidates={:?})",
            self.solutions, self.size, self.candidates
        )
    }

    /// The candidates as rows: rows()[r][c] is the values of row r, column c (from 0).
    fn rows(&self) -> Vec<Vec<Vec<u16>>> {
        self.candidates.chunks(self.size.max(1)).map(<[Vec<u16>]>::to_vec).collect()
    }
}

/// A puzzle for candidates(): a string as the command line's --candidates
/// reads a line (any variant or classic format on one line), a classic grid
/// in lines, or rows of ints, 4x4 to 16x16.
fn read_for_candidates(puzzle: &Bound<'_, PyAny>) -> PyResult<Box<VariantSolver>> {
    if let Ok(text) = puzzle.cast::<PyString>() {
        let text = text.to_cow()?;
        if text.trim().lines().nth(1).is_none() {
            return compile(&text, 1);
        }
    }
    match read(puzzle)? {
        Read::Classic(grid) => variant_grid(grid.box_size * grid.box_size, &grid.cells),
        Read::Variant { solver, .. } => Ok(solver),
    }
}

/// The true candidates of a puzzle: per cell, the values it holds in at
/// least one solution, with the solutions counted up to limit (as the
/// command line's sudoku --candidates --json). Any puzzle solve() takes,
/// 4x4 to 16x16, classic or variant; a string is read as one line of the
/// command line's --candidates.
///
/// >>> from backtrack import sudoku
/// >>> killer = ".Shape~4x4.Cage~7~R1C2~R1C3.~R1C1_1~R4C4_1~R2C3_1"
/// >>> c = sudoku.candidates(killer)
/// >>> c.solutions, c.complete
/// (2, False)
/// >>> c.rows()[0]
/// [[1], [3, 4], [3, 4], [2]]
/// >>> sudoku.candidates(killer, limit=10).solutions
/// 6
/// >>> sudoku.candidates("1234341221434321").candidates[:4]
/// [[1], [2], [3], [4]]
#[pyfunction]
#[pyo3(signature = (puzzle, *, limit = 2))]
fn candidates(py: Python<'_>, puzzle: &Bound<'_, PyAny>, limit: u64) -> PyResult<Candidates> {
    if limit == 0 {
        return Err(errors::value("limit is at least 1"));
    }
    let mut solver = read_for_candidates(puzzle)?;
    let size = solver.size();
    let found = run::interruptible(py, move |control| {
        solver.set_control(control.clone());
        solver.candidates(limit)
    })?;
    let candidates = found.values().into_iter().map(|v| v.into_iter().map(u16::from).collect()).collect();
    Ok(Candidates { candidates, solutions: found.solutions, complete: found.complete, size })
}

/// A rating band from Python: "3.0..4.5", a number, or a pair (either end
/// may be None for an open end).
fn band(rating: &Bound<'_, PyAny>) -> PyResult<(Score, Score)> {
    let text = if let Ok(text) = rating.extract::<String>() {
        text
    } else if let Ok((lo, hi)) = rating.extract::<(Option<f64>, Option<f64>)>() {
        let end = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
        format!("{}..{}", end(lo), end(hi))
    } else if let Ok(x) = rating.extract::<f64>() {
        x.to_string()
    } else {
        return Err(PyTypeError::new_err("rating is a band like '3.0..4.5', a pair (3.0, 4.5) or one number"));
    };
    maker::parse_band(&text).map_err(errors::value)
}

/// Generate puzzles with exactly one solution, as lines of symbols.
///
/// A random solved grid is drawn, then clues (by symmetric orbits) are
/// taken away while the puzzle keeps one solution. Without a symmetry
/// every puzzle is minimal; with one, minimal=True keeps only puzzles from
/// which no single clue can be removed either. size: 4, 9, 16 or 25.
/// rating (a band like "3.0..4.5" or a pair) and technique (a name like
/// "x-wing": the hardest step's) filter 9x9 puzzles by difficulty. clues:
/// at most this many. The same seed and options give the same puzzles,
/// whatever the number of threads; seed=None draws one from the clock.
/// Raises RuntimeError when the attempts (per puzzle) run out first.
///
/// >>> from backtrack import sudoku
/// >>> puzzles = sudoku.generate(2, seed=7)
/// >>> [sudoku.count(p, limit=2) for p in puzzles]
/// [1, 1]
/// >>> sudoku.generate(seed=7, size=4) == sudoku.generate(seed=7, size=4, threads=1)
/// True
#[pyfunction]
#[pyo3(signature = (count = 1, *, seed = None, symmetry = "none", minimal = false, size = 9, rating = None, technique = None, clues = None, attempts = 20_000, threads = None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    count: usize,
    seed: Option<u64>,
    symmetry: &str,
    minimal: bool,
    size: usize,
    rating: Option<&Bound<'_, PyAny>>,
    technique: Option<&str>,
    clues: Option<usize>,
    attempts: u64,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let symmetry: Symmetry = symmetry.parse().map_err(errors::value)?;
    let box_size = size.to_string().parse::<GridSize>().map_err(errors::value)?.box_size();
    let rating = rating.map(band).transpose()?;
    let technique = technique.map(str::parse::<Technique>).transpose().map_err(errors::value)?;
    let target = (rating.is_some() || technique.is_some()).then_some(Target { rating, technique });
    let seed = seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        now.as_nanos() as u64
    });
    let options =
        Options { box_size, seed, symmetry, minimal, max_clues: clues, target, max_attempts: attempts.max(1) };
    let threads = crate::threads(threads)?;
    let result =
        run::interruptible(py, move |control| maker::generate_until(&options, count, threads, control, |_| {}))?;
    let puzzles = match result {
        Ok(puzzles) => puzzles,
        Err(e @ maker::GenerateError::Options(_)) => return Err(errors::value(e)),
        Err(maker::GenerateError::Threads(e)) => return Err(errors::threads(e)),
        Err(e) => return Err(PyRuntimeError::new_err(e.to_string())),
    };
    Ok(puzzles.iter().map(|p| p.to_text(Format::Line).trim_end().to_string()).collect())
}

/// A 9x9 puzzle's cells, for the rater.
fn nine_cells(puzzle: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let Read::Classic(grid) = read(puzzle)? else {
        return Err(errors::value("the rater reads classic 9x9 puzzles, not variant puzzles"));
    };
    if grid.box_size != 3 {
        return Err(errors::value(RateError::Size));
    }
    Ok(grid.cells)
}

/// Runs one of the rater's functions on a worker (a hard puzzle takes seconds).
fn rated<T: Send + 'static>(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    work: impl FnOnce(&[u8]) -> Result<T, RateError> + Send + 'static,
) -> PyResult<T> {
    let cells = nine_cells(puzzle)?;
    run::interruptible(py, move |_| work(&cells))?.map_err(errors::value)
}

/// A puzzle's ratings on the Sudoku Explainer scale: er, the hardest step;
/// ep, the hardest up to the first placed digit; ed, the first step.
/// A puzzle that needs a technique this rater lacks has beyond=True and
/// er=None; reached is then the hardest step before the rater stopped.
#[pyclass(module = "backtrack.sudoku", frozen, get_all)]
struct Rating {
    /// The hardest step's rating (None when beyond).
    er: Option<f64>,
    /// The hardest step's rating up to the first placement (None if none was made).
    ep: Option<f64>,
    /// The first step's rating (None if no step was found).
    ed: Option<f64>,
    /// The technique of the hardest step, e.g. "XY-Wing".
    hardest: Option<String>,
    /// Whether the puzzle needs a technique this rater lacks.
    beyond: bool,
    /// The hardest step reached (er, or a lower bound when beyond).
    reached: f64,
    text: String,
}

impl From<LibRating> for Rating {
    fn from(r: LibRating) -> Rating {
        Rating {
            er: (!r.beyond).then(|| r.er.value()),
            ep: r.ep.map(Score::value),
            ed: r.ed.map(Score::value),
            hardest: r.hardest.map(|t| t.name().to_string()),
            beyond: r.beyond,
            reached: r.er.value(),
            text: r.text(),
        }
    }
}

#[pymethods]
impl Rating {
    fn __repr__(&self) -> String {
        let opt = |x: Option<f64>| x.map_or("None".to_string(), |x| x.to_string());
        let hardest = self.hardest.as_ref().map_or("None".to_string(), |h| format!("{h:?}"));
        format!(
            "Rating(er={}, ep={}, ed={}, hardest={hardest}, beyond={})",
            opt(self.er),
            opt(self.ep),
            opt(self.ed),
            if self.beyond { "True" } else { "False" }
        )
    }

    /// "ER/EP/ED", as the command line prints it: "4.2/1.2/1.2".
    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// One step of a solving path: the technique, its rating, the digits it
/// places and the candidates it removes (as (row, column, digit), rows and
/// columns from 1), and the reasoning in words.
#[pyclass(module = "backtrack.sudoku", frozen, get_all)]
struct Step {
    /// The technique's name, e.g. "Hidden Single".
    technique: String,
    /// Its rating on the Sudoku Explainer scale.
    rating: f64,
    /// Digits placed: (row, column, digit).
    placements: Vec<(usize, usize, u8)>,
    /// Candidates removed: (row, column, digit).
    eliminations: Vec<(usize, usize, u8)>,
    /// The reasoning in words.
    text: String,
}

impl From<LibStep> for Step {
    fn from(step: LibStep) -> Step {
        let triples = |list: &[(usize, u8)]| list.iter().map(|&(c, d)| (c / 9 + 1, c % 9 + 1, d)).collect();
        Step {
            technique: step.technique.name().to_string(),
            rating: step.rating.value(),
            placements: triples(&step.placements),
            eliminations: triples(&step.eliminations),
            text: step.text,
        }
    }
}

#[pymethods]
impl Step {
    fn __repr__(&self) -> String {
        format!("Step({:?}, {}, {:?})", self.technique, self.rating, self.text)
    }

    fn __str__(&self) -> String {
        self.text.clone()
    }
}

/// Rate a 9x9 puzzle with one solution on the Sudoku Explainer scale.
/// Raises ValueError for a puzzle with no solution or several.
///
/// >>> from backtrack import sudoku
/// >>> r = sudoku.rate("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
/// >>> r.er, r.hardest
/// (2.6, 'Pointing')
/// >>> str(r)
/// '2.6/1.2/1.2'
#[pyfunction]
fn rate(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Rating> {
    rated(py, puzzle, rater::rate_cells).map(Rating::from)
}

/// The path the rater follows on a 9x9 puzzle with one solution: every
/// step, each by the easiest technique that applies. (The path stops short
/// when the puzzle needs a technique the rater lacks: see rate().beyond.)
///
/// >>> from backtrack import sudoku
/// >>> steps = sudoku.explain("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
/// >>> steps[0].technique, steps[0].placements
/// ('Hidden Single', [(6, 2, 4)])
/// >>> max(s.rating for s in steps)
/// 2.6
#[pyfunction]
fn explain(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Vec<Step>> {
    rated(py, puzzle, rater::explain_cells).map(|e| e.steps.into_iter().map(Step::from).collect())
}

/// The next step from a partly filled 9x9 grid (the givens and the digits
/// placed so far), which must still have exactly one solution; None when
/// the grid is full or no technique applies.
///
/// >>> from backtrack import sudoku
/// >>> step = sudoku.hint("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
/// >>> step.text
/// 'Hidden single: 4 is the only place for 4 in box 4: r6c2=4'
#[pyfunction]
fn hint(py: Python<'_>, puzzle: &Bound<'_, PyAny>) -> PyResult<Option<Step>> {
    rated(py, puzzle, rater::hint_cells).map(|s| s.map(Step::from))
}

/// Adds the `sudoku` submodule to `parent`.
pub fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let m = PyModule::new(parent.py(), "sudoku")?;
    m.add_function(wrap_pyfunction!(solve, &m)?)?;
    m.add_function(wrap_pyfunction!(count, &m)?)?;
    m.add_function(wrap_pyfunction!(solutions, &m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, &m)?)?;
    m.add_function(wrap_pyfunction!(generate, &m)?)?;
    m.add_function(wrap_pyfunction!(rate, &m)?)?;
    m.add_function(wrap_pyfunction!(explain, &m)?)?;
    m.add_function(wrap_pyfunction!(hint, &m)?)?;
    m.add_function(wrap_pyfunction!(candidates, &m)?)?;
    m.add_class::<Candidates>()?;
    m.add_class::<Rating>()?;
    m.add_class::<Step>()?;
    parent.add_submodule(&m)
}
