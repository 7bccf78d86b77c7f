//! Puzzle generation: random solved grids, then clues taken away while the
//! puzzle keeps exactly one solution.
//!
//! Attempt `i` of a run draws everything from its own random stream
//! ([`Rng::stream`]`(seed, i)`), so the same seed gives the same puzzles in
//! the same order whatever the number of threads: attempts run in parallel
//! in batches and are kept in attempt order.
//!
//! One attempt:
//! 1. a solved grid: the boxes on the main diagonal (which share no row,
//!    column or box) get random permutations, the solver completes the rest,
//!    and the digits are relabelled at random;
//! 2. the cells are grouped into orbits of the chosen [`Symmetry`] and the
//!    orbits visited in random order; an orbit's clues are removed and put
//!    back if the puzzle then has a second solution (a second solution
//!    differs in a removed cell, so each other digit there is tried as a
//!    clue: see `still_unique`). Removing clues only adds solutions, so
//!    after one pass no orbit can be removed any more; without symmetry
//!    this means the puzzle is minimal. On 25x25 grids, unless the options
//!    ask for minimal puzzles, each check has a bounded search
//!    ([`Solver::solve_within`]) and a clue it cannot decide stays: the
//!    puzzle keeps one solution but may not be minimal;
//! 3. the attempt is kept if it meets the options: at most `max_clues` clues,
//!    minimal clue by clue (for a symmetry, checked cell by cell), and a
//!    [`Target`] rating or technique.

use std::fmt;
use std::str::FromStr;

use std::ops::ControlFlow;

use super::rate::Rater;
use super::score::{Score, ScoreError};
use super::techniques::Technique;
use super::{Puzzle, Solver, MAX_BOX, MIN_BOX};
use crate::error::{Counted, Quoted};
use crate::rng::Rng;
use crate::search::{run_in_order, Control, Feed, Mode, ThreadStartError, Threads};

/// Attempts in flight per thread: enough to keep every thread busy while
/// the calling thread takes the results in order.
const ATTEMPTS_PER_THREAD: usize = 8;

/// Which symmetry the clue pattern has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// No symmetry.
    #[default]
    None,
    /// Unchanged by a half turn.
    Rot180,
    /// Unchanged by a quarter turn.
    Rot90,
    /// Unchanged by a left–right mirror.
    Mirror,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
    /// Unchanged by reflection in the anti-diagonal.
    AntiDiagonal,
    /// Unchanged by all eight rotations and reflections of the square.
    Full,
}

impl Symmetry {
    /// Every symmetry, in the order of [`Symmetry::name`]s in help texts.
    pub const ALL: [Symmetry; 7] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Full,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::Full => "full",
        }
    }

    /// The images of cell (`r`, `c`) of a `side`×`side` grid under every map
    /// of this symmetry's group (the identity included).
    pub fn images(self, side: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let m = side - 1;
        let rot90 = |(r, c): (usize, usize)| (c, m - r);
        let mut out = vec![(r, c)];
        match self {
            Symmetry::None => {}
            Symmetry::Rot180 => out.push((m - r, m - c)),
            Symmetry::Rot90 => {
                let mut p = (r, c);
                for _ in 0..3 {
                    p = rot90(p);
                    out.push(p);
                }
            }
            Symmetry::Mirror => out.push((r, m - c)),
            Symmetry::Diagonal => out.push((c, r)),
            Symmetry::AntiDiagonal => out.push((m - c, m - r)),
            Symmetry::Full => {
                let mut p = (r, c);
                for _ in 0..3 {
                    p = rot90(p);
                    out.push(p);
                }
                for i in 0..4 {
                    let (a, b) = out[i];
                    out.push((b, a));
                }
            }
        }
        out
    }

    /// The cells of a `side`×`side` grid grouped into orbits (each orbit's
    /// cells sorted, orbits in order of their first cell).
    pub fn orbits(self, side: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; side * side];
        let mut orbits = Vec::new();
        for r in 0..side {
            for c in 0..side {
                if seen[r * side + c] {
                    continue;
                }
                let mut orbit: Vec<usize> = self.images(side, r, c).into_iter().map(|(a, b)| a * side + b).collect();
                orbit.sort_unstable();
                orbit.dedup();
                for &i in &orbit {
                    seen[i] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// Whether the clue pattern of `cells` (`side`×`side`) has this symmetry.
    pub fn holds(self, side: usize, cells: &[u8]) -> bool {
        self.orbits(side).iter().all(|orbit| orbit.iter().all(|&i| (cells[i] == 0) == (cells[orbit[0]] == 0)))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word of the generator's options that names nothing it knows: a
/// symmetry, a grid size or a rating band. The message says what was
/// expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordError(String);

crate::error::message_error!(WordError);

impl FromStr for Symmetry {
    type Err = WordError;

    fn from_str(s: &str) -> Result<Symmetry, WordError> {
        Symmetry::ALL.into_iter().find(|sym| sym.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
            WordError(format!("unknown symmetry '{}' (use one of: {})", Quoted(s), names.join(", ")))
        })
    }
}

/// A grid size the generator makes: 4, 9, 16 or 25 cells a side (boxes of
/// 2, 3, 4 or 5). Parsed from its side with [`FromStr`].
///
/// ```
/// use backtrack::sudoku::generate::GridSize;
///
/// let size: GridSize = "16".parse().unwrap();
/// assert_eq!((size.side(), size.box_size()), (16, 4));
/// assert!("12".parse::<GridSize>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GridSize {
    box_size: usize,
}

impl GridSize {
    /// The size whose boxes are `box_size` cells a side (2 to 5), if any.
    pub fn from_box_size(box_size: usize) -> Option<GridSize> {
        (2..=5).contains(&box_size).then_some(GridSize { box_size })
    }

    /// Cells on a side of the grid.
    pub fn side(self) -> usize {
        self.box_size * self.box_size
    }

    /// Cells on a side of a box, as [`Options::box_size`] takes it.
    pub fn box_size(self) -> usize {
        self.box_size
    }
}

impl Default for GridSize {
    /// The classic 9x9 grid.
    fn default() -> GridSize {
        GridSize { box_size: 3 }
    }
}

impl fmt::Display for GridSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.side())
    }
}

impl FromStr for GridSize {
    type Err = WordError;

    fn from_str(s: &str) -> Result<GridSize, WordError> {
        let box_size = match s {
            "4" => 2,
            "9" => 3,
            "16" => 4,
            "25" => 5,
            _ => return Err(WordError(format!("size '{}' is not supported (use 4, 9, 16 or 25)", Quoted(s)))),
        };
        Ok(GridSize { box_size })
    }
}

/// What the generated puzzles' difficulty must be (9x9 only).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Target {
    /// The ER rating must lie in this range, both ends included.
    pub rating: Option<(Score, Score)>,
    /// The hardest step must use this technique.
    pub technique: Option<Technique>,
}

/// How to generate puzzles.
#[derive(Debug, Clone)]
pub struct Options {
    /// Box size (2 for 4x4, 3 for 9x9, 4 for 16x16, 5 for 25x25).
    pub box_size: usize,
    /// The seed: the same seed and options give the same puzzles.
    pub seed: u64,
    /// Symmetry of the clue pattern.
    pub symmetry: Symmetry,
    /// Keep only puzzles from which no single clue can be removed (already
    /// true of every puzzle without symmetry, but for 25x25, where it also
    /// lifts the bound on each uniqueness check).
    pub minimal: bool,
    /// Keep only puzzles with at most this many clues.
    pub max_clues: Option<usize>,
    /// Keep only puzzles with this difficulty.
    pub target: Option<Target>,
    /// Give up after this many attempts (per puzzle asked for).
    pub max_attempts: u64,
}

impl Options {
    /// Defaults for box size `box_size`: seed 0, no symmetry, no limits.
    pub fn new(box_size: usize) -> Options {
        Options {
            box_size,
            seed: 0,
            symmetry: Symmetry::None,
            minimal: false,
            max_clues: None,
            target: None,
            max_attempts: 100_000,
        }
    }
}

/// Why generation stopped short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// The options ask for something impossible or unsupported.
    Options(String),
    /// The attempts ran out before enough puzzles met the options.
    Exhausted {
        /// Puzzles found.
        found: usize,
        /// Puzzles asked for.
        wanted: usize,
        /// Attempts made.
        attempts: u64,
    },
    /// The threads could not be started.
    Threads(ThreadStartError),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Options(message) => f.write_str(message),
            GenerateError::Threads(e) => e.fmt(f),
            GenerateError::Exhausted { found, wanted, attempts } => {
                write!(
                    f,
                    "found {found} of {} in {}; the options may be too strict",
                    Counted(*wanted as u128, "puzzle"),
                    Counted((*attempts).into(), "attempt")
                )
            }
        }
    }
}

impl std::error::Error for GenerateError {}

/// A random solved grid of box size `box_size`, drawn from `rng`.
///
/// The boxes on the main diagonal share no row, column or box, so any
/// permutations there agree; the solver completes the rest. (On 4x4 such
/// a start can have no completion; then only the first box is kept, which
/// always completes.)
pub fn solved_grid(box_size: usize, rng: &mut Rng, solver: &mut Solver) -> Vec<u8> {
    let side = box_size * box_size;
    let mut cells = vec![0u8; side * side];
    let mut digits: Vec<u8> = (1..=side as u8).collect();
    for b in 0..box_size {
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            let r = b * box_size + k / box_size;
            let c = b * box_size + k % box_size;
            cells[r * side + c] = d;
        }
    }
    let mut solution = vec![0u8; side * side];
    if solver.solve(&cells, Mode::First, &mut solution).count == 0 {
        for (i, v) in cells.iter_mut().enumerate() {
            if i / side >= box_size || i % side >= box_size {
                *v = 0;
            }
        }
        let solved = solver.solve(&cells, Mode::First, &mut solution);
        assert_eq!(solved.count, 1, "one filled box always completes");
    }
    rng.shuffle(&mut digits);
    for v in &mut solution {
        *v = digits[*v as usize - 1];
    }
    solution
}

/// Choices one uniqueness check may take on a grid of box size 5 when the
/// puzzle need not be minimal: past this, the clue stays.
const BIG_GRID_BUDGET: u64 = 2_000;

/// Whether `cells`, whose only solution was `solution` before the clues of
/// `removed` were taken away, still has that one solution only; `None` when
/// the solver could not tell within `budget` choices for each trial.
///
/// A second solution would agree with `solution` on every clue left, so it
/// differs from it in one of the removed cells (or the puzzle with them was
/// not unique). Each other digit those cells can take (no clue in their
/// row, column or box holds it) is tried as a clue in turn; the puzzle is
/// unique when none of them leads to a solution. This asks the solver far
/// narrower questions than counting the solutions of the whole puzzle.
fn still_unique(
    solver: &mut Solver,
    cells: &mut [u8],
    removed: &[usize],
    solution: &[u8],
    budget: u64,
    scratch: &mut [u8],
) -> Option<bool> {
    let box_size = solver.box_size();
    let side = box_size * box_size;
    for &cell in removed {
        let (r, c) = (cell / side, cell % side);
        let (r0, c0) = (r / box_size * box_size, c / box_size * box_size);
        let mut taken = 1u64 << solution[cell];
        for k in 0..side {
            for peer in [r * side + k, k * side + c, (r0 + k / box_size) * side + c0 + k % box_size] {
                taken |= 1u64 << cells[peer];
            }
        }
        for digit in 1..=side as u8 {
            if taken & 1 << digit != 0 {
                continue;
            }
            cells[cell] = digit;
            let found = solver.solve_within(cells, Mode::First, scratch, budget);
            cells[cell] = 0;
            match found {
                None => return None,
                Some(solved) if solved.count > 0 => return Some(false),
                Some(_) => {}
            }
        }
    }
    Some(true)
}

/// Whether removing any single clue of `cells` (which has one solution)
/// gives a second solution. A checker apart from the generator's own
/// reasoning: it counts the solutions of each puzzle with one clue less.
pub fn is_minimal(solver: &mut Solver, cells: &[u8]) -> bool {
    let mut work = cells.to_vec();
    let mut scratch = vec![0u8; cells.len()];
    for i in 0..cells.len() {
        if cells[i] == 0 {
            continue;
        }
        work[i] = 0;
        let still = solver.solve(&work, Mode::Count { limit: Some(2) }, &mut scratch).count == 1;
        work[i] = cells[i];
        if still {
            return false;
        }
    }
    true
}

/// Attempt `index` of a run with `options`: the puzzle, or `None` when it
/// does not meet the options. `rater` rates it when the options target a
/// rating or technique.
pub fn attempt(options: &Options, index: u64, solver: &mut Solver, rater: &mut Rater) -> Option<Puzzle> {
    let box_size = options.box_size;
    let side = box_size * box_size;
    let mut rng = Rng::stream(options.seed, index);
    let solution = solved_grid(box_size, &mut rng, solver);
    let mut cells = solution.clone();
    let mut scratch = vec![0u8; cells.len()];
    let mut orbits = options.symmetry.orbits(side);
    rng.shuffle(&mut orbits);
    let mut clues = cells.len();
    // Without a budget every removal is decided, so without symmetry the
    // puzzle comes out minimal.
    let budget = if box_size >= 5 && !options.minimal { BIG_GRID_BUDGET } else { u64::MAX };
    for orbit in &orbits {
        for &i in orbit {
            cells[i] = 0;
        }
        if still_unique(solver, &mut cells, orbit, &solution, budget, &mut scratch) == Some(true) {
            clues -= orbit.len();
        } else {
            for &i in orbit {
                cells[i] = solution[i];
            }
        }
    }
    if options.max_clues.is_some_and(|n| clues > n) {
        return None;
    }
    if options.minimal && options.symmetry != Symmetry::None && !is_minimal(solver, &cells) {
        return None;
    }
    if let Some(target) = &options.target {
        let rating = rater.rate(&cells).ok()?;
        if rating.beyond {
            return None;
        }
        if target.rating.is_some_and(|(lo, hi)| rating.er < lo || rating.er > hi) {
            return None;
        }
        if target.technique.is_some_and(|t| rating.hardest != Some(t)) {
            return None;
        }
    }
    Some(Puzzle::new(box_size, cells).expect("cells of the right size"))
}

/// Generates `count` puzzles with `options` on `threads` threads, in the
/// order the seed determines.
pub fn generate(options: &Options, count: usize, threads: Threads) -> Result<Vec<Puzzle>, GenerateError> {
    generate_with(options, count, threads, |_| {})
}

/// [`generate`], calling `found` with each puzzle as soon as it is known to
/// be among the first `count` (in order), so output can stream.
pub fn generate_with(
    options: &Options,
    count: usize,
    threads: Threads,
    found: impl FnMut(&Puzzle),
) -> Result<Vec<Puzzle>, GenerateError> {
    generate_until(options, count, threads, &Control::new(), found)
}

/// [`generate_with`], stopping early once `control` is cancelled: no
/// attempt starts after that, and the puzzles found so far are returned
/// (fewer than `count`; the caller knows why).
pub fn generate_until(
    options: &Options,
    count: usize,
    threads: Threads,
    control: &Control,
    mut found: impl FnMut(&Puzzle),
) -> Result<Vec<Puzzle>, GenerateError> {
    check_options(options)?;
    let budget = options.max_attempts.saturating_mul(count.max(1) as u64);
    let mut puzzles = Vec::with_capacity(count);
    // Attempts are numbered, each from a random stream of its own, and taken
    // in that order: the puzzles do not depend on the threads.
    let mut attempts = 0..budget;
    let mut made = 0u64;
    let mut stopped = false;
    // Cancelled once `count` puzzles are found: the attempts queued behind
    // the last one then end without being made.
    let enough = Control::new();
    run_in_order(
        threads,
        threads.get() * ATTEMPTS_PER_THREAD,
        || (Solver::new(options.box_size), Rater::new()),
        |_| match attempts.next() {
            Some(i) if !control.is_cancelled() => Feed::Job(i),
            _ => Feed::End,
        },
        |(solver, rater), &i| {
            if control.is_cancelled() || enough.is_cancelled() {
                None
            } else {
                attempt(options, i, solver, rater)
            }
        },
        |_, puzzle| {
            if control.is_cancelled() {
                // Attempts skipped after the cancel make what follows no longer the seed's.
                stopped = true;
                return ControlFlow::Break(());
            }
            made += 1;
            if let Some(puzzle) = puzzle {
                found(&puzzle);
                puzzles.push(puzzle);
            }
            if puzzles.len() < count {
                ControlFlow::Continue(())
            } else {
                enough.cancel();
                ControlFlow::Break(())
            }
        },
    )
    .map_err(GenerateError::Threads)?;
    if puzzles.len() < count && !stopped && !control.is_cancelled() {
        return Err(GenerateError::Exhausted { found: puzzles.len(), wanted: count, attempts: made });
    }
    Ok(puzzles)
}

fn check_options(options: &Options) -> Result<(), GenerateError> {
    if !(MIN_BOX..=MAX_BOX).contains(&options.box_size) {
        return Err(GenerateError::Options(format!(
            "box size {} is not supported (sizes 4, 9, 16 and 25)",
            options.box_size
        )));
    }
    if options.target.is_some() && options.box_size != 3 {
        return Err(GenerateError::Options("--rating and --technique are for 9x9 puzzles only".into()));
    }
    Ok(())
}

/// Reads a rating band `A..B` (e.g. `7.0..8.0`; `A..` or `..B` leave an end
/// open; one number `A` means `A..A`), both ends included.
pub fn parse_band(text: &str) -> Result<(Score, Score), WordError> {
    let one = |s: &str, open: Score| -> Result<Score, WordError> {
        if s.trim().is_empty() {
            return Ok(open);
        }
        s.parse().map_err(|e: ScoreError| WordError(e.to_string()))
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (one(a, Score::default())?, one(b.trim_start_matches('='), Score::MAX)?),
        None => {
            let v = one(text, Score::default())?;
            (v, v)
        }
    };
    if lo > hi {
        return Err(WordError(format!("empty rating band '{}' (the lower end is above the upper)", Quoted(text))));
    }
    Ok((lo, hi))
}
