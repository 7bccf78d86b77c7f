//! Sudoku (BOJ 2580, any solution, digits separated by spaces; BOJ 2239,
//! the lexicographically smallest solution, digits side by side).
//!
//! Random boards are carved out of random full grids, so every one has a
//! solution, as the judge promises. For 2239 half of them keep many blanks,
//! so that they have several solutions and only the smallest is right. The
//! hard boards are built against row-major search that tries 1, 2, 3... in
//! order: their solution's first row is `9 8 7 6 5 4 3 2 1` and the first
//! rows hold few givens.

use std::io::Write;

use super::problem::foreign;
use super::{compare, AnswerError, Draw, Input, JudgeProblem, Limits, Rejection, Rng, Title};
use crate::lang::Lang;
use crate::search::Mode;
use crate::sudoku::{self, find_conflict, Format, Layout, Puzzle};

/// Cells on a 9x9 board.
const CELLS: usize = 81;

/// The statement's sample board (the same for both problems).
const SAMPLE_2580: &str = "035469278782105609060278135321046897804913506596820413917652080603701952258394760";
const SAMPLE_2239: &str = "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
/// A board whose unique solution starts `987654321`, with an empty first row.
const AGAINST_BRUTE_FORCE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// A 17-clue board (the fewest givens a unique sudoku can have).
const SEVENTEEN: &str = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

fn board(text: &str) -> Input {
    Input::Sudoku(text.bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect())
}

fn samples(lex: bool) -> Vec<Input> {
    vec![board(if lex { SAMPLE_2239 } else { SAMPLE_2580 })]
}

/// A valid full grid: the pattern `(3r + r/3 + c) mod 9`, with rows and
/// columns permuted inside their bands and stacks, bands, stacks and digits
/// permuted, and the grid maybe transposed.
fn full_grid(rng: &mut Rng) -> Vec<u8> {
    let order = |rng: &mut Rng| -> [usize; 9] {
        let mut bands = [0, 1, 2];
        rng.shuffle(&mut bands);
        let mut out = [0; 9];
        for (i, band) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            rng.shuffle(&mut inner);
            for (j, r) in inner.iter().enumerate() {
                out[3 * i + j] = 3 * band + r;
            }
        }
        out
    };
    let rows = order(rng);
    let cols = order(rng);
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let transpose = rng.below(2) == 1;
    let mut grid = vec![0u8; CELLS];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            let value = digits[(3 * pr + pr / 3 + pc) % 9];
            let cell = if transpose { c * 9 + r } else { r * 9 + c };
            grid[cell] = value;
        }
    }
    // Re-solve with half the cells blank: the pattern's family is small, this leaves it.
    let mut cells = grid.clone();
    for cell in blank_cells(rng, CELLS / 2) {
        cells[cell] = 0;
    }
    solve(&cells, Mode::First)
}

/// `count` distinct random cells.
fn blank_cells(rng: &mut Rng, count: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut cells);
    cells.truncate(count);
    cells
}

/// The solution of `cells` in `mode`; every board here has one.
fn solve(cells: &[u8], mode: Mode) -> Vec<u8> {
    let puzzle = Puzzle::new(3, cells.to_vec()).expect("81 cells of 0..=9");
    sudoku::solve(&puzzle, mode).solution.expect("the board was carved out of a full grid")
}

fn is_unique(cells: &[u8]) -> bool {
    let puzzle = Puzzle::new(3, cells.to_vec()).expect("81 cells of 0..=9");
    sudoku::solve(&puzzle, Mode::Count { limit: Some(2) }).count == 1
}

/// Blanks cells of `grid` in random order (the first `first` cells before
/// the others) as long as the solution stays unique.
fn minimal(rng: &mut Rng, grid: &[u8], first: usize) -> Vec<u8> {
    let mut cells = grid.to_vec();
    let mut head: Vec<usize> = (0..first).collect();
    let mut tail: Vec<usize> = (first..CELLS).collect();
    rng.shuffle(&mut head);
    rng.shuffle(&mut tail);
    for cell in head.into_iter().chain(tail) {
        let digit = cells[cell];
        cells[cell] = 0;
        if !is_unique(&cells) {
            cells[cell] = digit;
        }
    }
    cells
}

fn edges(rng: &mut Rng) -> Vec<(&'static str, Input)> {
    let full = full_grid(rng);
    let mut one_blank = full.clone();
    one_blank[40] = 0;
    vec![
        ("empty-board", Input::Sudoku(vec![0; CELLS])),
        ("full-board", Input::Sudoku(full)),
        ("one-blank", Input::Sudoku(one_blank)),
    ]
}

fn random(lex: bool, rng: &mut Rng) -> Input {
    let grid = full_grid(rng);
    let blanks = if lex && rng.below(2) == 0 {
        // Several solutions are likely: only the smallest is accepted.
        rng.range(50, 75)
    } else {
        rng.range(1, 60)
    } as usize;
    let mut cells = grid;
    for cell in blank_cells(rng, blanks) {
        cells[cell] = 0;
    }
    Input::Sudoku(cells)
}

fn hard(rng: &mut Rng) -> Vec<(&'static str, Input)> {
    let mut out = vec![("against-brute-force", board(AGAINST_BRUTE_FORCE)), ("17-givens", board(SEVENTEEN))];
    for name in ["against-brute-force-random-1", "against-brute-force-random-2"] {
        let grid = full_grid(rng);
        // Rename the digits so that the first row reads 9 8 7 6 5 4 3 2 1.
        let mut rename = [0u8; 10];
        for (i, &d) in grid[..9].iter().enumerate() {
            rename[d as usize] = 9 - i as u8;
        }
        let grid: Vec<u8> = grid.iter().map(|&d| rename[d as usize]).collect();
        out.push((name, Input::Sudoku(minimal(rng, &grid, 27))));
    }
    out
}

fn text(lex: bool, cells: &[u8]) -> String {
    write(lex, cells)
}

fn write(lex: bool, cells: &[u8]) -> String {
    let mut text = String::with_capacity(170);
    for row in cells.chunks(9) {
        for (i, d) in row.iter().enumerate() {
            if i > 0 && !lex {
                text.push(' ');
            }
            text.push((b'0' + d) as char);
        }
        text.push('\n');
    }
    text
}

/// The checker of any valid completion, in 2580's format (nine lines of
/// nine digits separated by single spaces) or, with `lex`, 2239's (nine
/// digits side by side); trailing blanks and blank lines at the end are
/// ignored. The grid must be valid and keep every given.
fn check_any(lex: bool, cells: &[u8], got: &str) -> Result<(), String> {
    let lines = compare::judge_lines(got);
    if lines.len() != 9 {
        return Err(format!("expected 9 lines, received {}", lines.len()));
    }
    let mut grid = Vec::with_capacity(CELLS);
    for (r, line) in lines.iter().enumerate() {
        let bytes = line.as_bytes();
        let well_formed = if lex {
            bytes.len() == 9 && bytes.iter().all(|b| (b'1'..=b'9').contains(b))
        } else {
            bytes.len() == 17
                && bytes
                    .iter()
                    .enumerate()
                    .all(|(i, &b)| if i % 2 == 0 { (b'1'..=b'9').contains(&b) } else { b == b' ' })
        };
        if !well_formed {
            let how = if lex { "side by side" } else { "separated by single spaces" };
            return Err(format!("line {} is not nine digits 1-9 {how}: `{}`", r + 1, compare::visible(line, 40)));
        }
        grid.extend(bytes.iter().filter(|b| b.is_ascii_digit()).map(|b| b - b'0'));
    }
    if let Some(cell) = (0..CELLS).find(|&i| cells[i] != 0 && cells[i] != grid[i]) {
        return Err(format!(
            "row {} column {} holds {}, but the given there is {}",
            cell / 9 + 1,
            cell % 9 + 1,
            grid[cell],
            cells[cell]
        ));
    }
    if let Some(conflict) = find_conflict(3, &grid) {
        let (a, b) = (conflict.first, conflict.second);
        return Err(format!(
            "{} appears twice in one {} (row {} column {} and row {} column {})",
            conflict.digit,
            conflict.unit,
            a / 9 + 1,
            a % 9 + 1,
            b / 9 + 1,
            b % 9 + 1
        ));
    }
    Ok(())
}

/// For 2239: why a valid completion `got` is not the smallest, `expected`:
/// the first cell where they differ.
fn not_smallest(expected: &str, got: &str) -> String {
    let digits = |text: &str| -> Vec<u8> { text.bytes().filter(u8::is_ascii_digit).collect() };
    let (want, have) = (digits(expected), digits(got));
    match (0..CELLS.min(want.len()).min(have.len())).find(|&i| want[i] != have[i]) {
        Some(cell) => format!(
            "a valid solution, but not the smallest: row {} column {} holds {}, the smallest solution has {} there",
            cell / 9 + 1,
            cell % 9 + 1,
            have[cell] as char,
            want[cell] as char
        ),
        None => "a valid solution, but not the smallest".to_string(),
    }
}

/// Fewer blanks: chunks of the blanks (halves, quarters, ... single cells)
/// filled with the expected solution's digits, the largest chunks first.
/// Filling a cell with a digit of the smallest solution keeps that solution
/// the smallest, so 2239's answer does not change either.
fn shrink(lex: bool, cells: &[u8]) -> Vec<Input> {
    let solution = solve(cells, if lex { Mode::LexFirst } else { Mode::First });
    let blanks: Vec<usize> = (0..CELLS).filter(|&i| cells[i] == 0).collect();
    let mut out = Vec::new();
    let mut parts = 2;
    while !blanks.is_empty() {
        let size = blanks.len().div_ceil(parts);
        for chunk in blanks.chunks(size) {
            let mut fewer = cells.to_vec();
            for &cell in chunk {
                fewer[cell] = solution[cell];
            }
            out.push(Input::Sudoku(fewer));
        }
        if size == 1 {
            break;
        }
        parts *= 2;
    }
    out
}

/// BOJ 2580 (any solution, `lex: false`) or 2239 (the smallest, `lex: true`).
#[derive(Debug)]
pub struct Sudoku {
    /// Whether only the lexicographically smallest solution is accepted (2239).
    pub lex: bool,
}

impl Sudoku {
    fn mode(&self) -> Mode {
        if self.lex {
            Mode::LexFirst
        } else {
            Mode::First
        }
    }
}

impl JudgeProblem for Sudoku {
    fn id(&self) -> u32 {
        if self.lex {
            2239
        } else {
            2580
        }
    }

    fn title(&self) -> Title {
        if self.lex {
            Title { ko: "스도쿠", en: "Sudoku, lexicographically smallest solution" }
        } else {
            Title { ko: "스도쿠", en: "Sudoku, any solution" }
        }
    }

    fn limits(&self) -> Limits {
        super::limits(if self.lex { 2 } else { 1 }, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        let format = if self.lex { Format::Grid } else { Format::Spaced };
        let puzzle = sudoku::parse_as(input, Layout { format, box_size: 3 })?;
        let Some(solution) = sudoku::solve(&puzzle, self.mode()).solution else {
            // The problem promises a solvable puzzle: one without is input out of its range.
            return Err(AnswerError::Unsolvable("the puzzle has no solution (the problem promises one)".into()));
        };
        let mut text = Vec::with_capacity(200);
        sudoku::write_cells(&mut text, 3, &solution, format);
        out.write_all(&text)?;
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        samples(self.lex)
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        edges(rng)
    }

    fn random(&self, rng: &mut Rng) -> Input {
        random(self.lex, rng)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        hard(rng)
    }

    fn text(&self, input: &Input) -> String {
        match input {
            Input::Sudoku(cells) => text(self.lex, cells),
            _ => foreign(self.id(), input),
        }
    }

    /// 2580 accepts any valid completion; 2239 only the smallest, and says
    /// so when the output is a valid completion that is not.
    fn check_output(&self, lang: Lang, input: &Input, expected: &str, got: &str) -> Result<(), Rejection> {
        let Input::Sudoku(cells) = input else { foreign(self.id(), input) };
        if !self.lex {
            return check_any(false, cells, got).map_err(Rejection);
        }
        if compare::same(expected, got) {
            return Ok(());
        }
        let diff = compare::short_diff_in(lang, expected, got);
        if check_any(true, cells, got).is_ok() {
            return Err(Rejection(format!("{}\n{diff}", not_smallest(expected, got))));
        }
        Err(Rejection(diff))
    }

    fn several_answers(&self) -> bool {
        !self.lex
    }

    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        match input {
            Input::Sudoku(cells) => shrink(self.lex, cells),
            _ => foreign(self.id(), input),
        }
    }
}
