//! Sudominoku (BOJ 4574): puzzles of placed dominoes and single digits,
//! ended by `0`; the answer is `Puzzle i` and the grid for each.
//!
//! A random puzzle starts from a full solution (a sample's solution with
//! its digits renamed and the board turned or mirrored), gives its dominoes
//! in random order until the grid is unique (at least 10, as the judge's
//! inputs have), and keeps them in the order given. The hard puzzles drop
//! every domino that can go while
//! the grid stays unique.

use std::io::Write;

use super::problem::foreign;
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::sudominoku::{self, cell_name, count_grids, format_grid, Placement, Puzzle};

/// Fewest and most dominoes a puzzle gives (`10 <= N <= 35`).
const GIVEN: (usize, usize) = (10, 35);

/// The statement's sample input.
const SAMPLE: &str = "10\n6 B2 1 B3\n2 C4 9 C3\n6 D3 8 E3\n7 E1 4 F1\n8 B7 4 B8\n3 F5 2 F6\n7 F7 6 F8\n5 G4 9 G5\n\
    7 I8 8 I9\n7 C9 2 B9\nC5 A3 D9 I4 A9 E5 A2 C6 I1\n11\n5 I9 2 H9\n6 A5 7 A6\n4 B8 6 C8\n3 B5 8 B4\n3 C3 2 D3\n\
    9 D2 8 E2\n3 G2 5 H2\n1 A2 8 A1\n1 H8 3 I8\n8 I3 7 I4\n4 I6 9 I7\nI5 E6 D1 F2 B3 G9 H7 C9 E5\n0\n";

fn sample() -> Vec<Puzzle> {
    sudominoku::parse(SAMPLE)
        .expect("the sample parses")
        .into_iter()
        .map(|p| p.expect("the sample puzzles are valid"))
        .collect()
}

fn samples() -> Vec<Input> {
    vec![Input::Sudominoku(sample())]
}

/// A full solution: the 36 dominoes of a tiling and the nine single cells.
///
/// Random placements of the single digits often admit no tiling, and some
/// take long to rule out, so a solution is made from one of the samples'
/// solutions instead: its digits renamed at random and the board turned or
/// mirrored at random (a symmetry of the square keeps rows, columns, boxes
/// and neighbours).
fn full(rng: &mut Rng) -> (Vec<Placement>, [u8; 9]) {
    let base = &sample()[rng.below(2)];
    let dominoes = solution(base).dominoes;
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let rename = |d: u8| digits[d as usize - 1];
    let symmetry = rng.below(8);
    let turn = |cell: u8| -> u8 {
        let (mut r, mut c) = (cell / 9, cell % 9);
        if symmetry & 1 != 0 {
            (r, c) = (c, r);
        }
        if symmetry & 2 != 0 {
            r = 8 - r;
        }
        if symmetry & 4 != 0 {
            c = 8 - c;
        }
        r * 9 + c
    };
    let dominoes = dominoes
        .iter()
        .map(|d| Placement {
            first: turn(d.first),
            second: turn(d.second),
            first_digit: rename(d.first_digit),
            second_digit: rename(d.second_digit),
        })
        .collect();
    let mut singles = [0u8; 9];
    for (d, &cell) in base.singles.iter().enumerate() {
        singles[rename(d as u8 + 1) as usize - 1] = turn(cell);
    }
    (dominoes, singles)
}

fn unique(dominoes: &[Placement], singles: [u8; 9]) -> Option<Puzzle> {
    let puzzle = Puzzle::new(dominoes.to_vec(), singles).expect("clues taken from a solution");
    (count_grids(&puzzle, Some(2)).0 == 1).then_some(puzzle)
}

/// A unique puzzle from a random solution: dominoes given in random order
/// until the grid is unique; with `lean`, then every domino that can go.
fn puzzle(rng: &mut Rng, lean: bool) -> Puzzle {
    let (mut dominoes, singles) = full(rng);
    rng.shuffle(&mut dominoes);
    let mut given = GIVEN.0;
    // Doubling, then bisecting, keeps the number of uniqueness checks small.
    while given < GIVEN.1 && unique(&dominoes[..given], singles).is_none() {
        given = (given * 2).min(GIVEN.1);
    }
    let (mut low, mut high) = (GIVEN.0.max(given / 2), given);
    while low < high {
        let mid = (low + high) / 2;
        if unique(&dominoes[..mid], singles).is_some() {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    let mut kept = dominoes[..high].to_vec();
    if lean {
        let mut i = 0;
        while i < kept.len() && kept.len() > GIVEN.0 {
            let mut fewer = kept.clone();
            fewer.remove(i);
            if unique(&fewer, singles).is_some() {
                kept = fewer;
            } else {
                i += 1;
            }
        }
    }
    Puzzle::new(kept, singles).expect("clues taken from a solution")
}

fn edges(rng: &mut Rng) -> Vec<(&'static str, Input)> {
    // One domino left to place.
    let (dominoes, singles) = full(rng);
    let last = Puzzle::new(dominoes[..GIVEN.1].to_vec(), singles).expect("clues taken from a solution");
    let several = (0..5).map(|_| puzzle(rng, false)).collect();
    vec![("most-dominoes", Input::Sudominoku(vec![last])), ("several-puzzles", Input::Sudominoku(several))]
}

fn random(rng: &mut Rng) -> Input {
    let count = rng.range(1, 3) as usize;
    Input::Sudominoku((0..count).map(|_| puzzle(rng, false)).collect())
}

fn hard(rng: &mut Rng) -> Vec<(&'static str, Input)> {
    vec![
        ("fewest-dominoes", Input::Sudominoku((0..3).map(|_| puzzle(rng, true)).collect())),
        ("many-puzzles", Input::Sudominoku((0..30).map(|_| puzzle(rng, false)).collect())),
    ]
}

fn text(puzzles: &[Puzzle]) -> String {
    let mut text = String::new();
    for p in puzzles {
        text.push_str(&format!("{}\n", p.dominoes.len()));
        for d in &p.dominoes {
            let (a, b) = (cell_name(d.first as usize), cell_name(d.second as usize));
            text.push_str(&format!("{} {a} {} {b}\n", d.first_digit, d.second_digit));
        }
        let singles: Vec<String> = p.singles.iter().map(|&c| cell_name(c as usize)).collect();
        text.push_str(&singles.join(" "));
        text.push('\n');
    }
    text.push_str("0\n");
    text
}

fn solution(puzzle: &Puzzle) -> sudominoku::Solution {
    sudominoku::solve(puzzle).expect("generated puzzles have a solution")
}

/// Fewer puzzles (each alone, halves, one less), then more dominoes given
/// (half of the missing ones, then one at a time), taken from the solution.
fn shrink(puzzles: &[Puzzle]) -> Vec<Input> {
    let mut out: Vec<Vec<Puzzle>> = Vec::new();
    if puzzles.len() > 1 {
        out.extend(puzzles.iter().map(|p| vec![p.clone()]));
        out.extend(super::shrink::halves(puzzles));
        out.extend(super::shrink::drop_each(puzzles));
    }
    for (i, p) in puzzles.iter().enumerate() {
        if p.dominoes.len() >= GIVEN.1 {
            continue;
        }
        // The solver lists the given dominoes first, then the ones it placed.
        let missing = solution(p).dominoes[p.dominoes.len()..].to_vec();
        let room = GIVEN.1 - p.dominoes.len();
        let mut counts = vec![missing.len().div_ceil(2).min(room)];
        if counts[0] > 1 {
            counts.push(1);
        }
        for take in counts {
            let mut more = p.dominoes.clone();
            more.extend_from_slice(&missing[..take]);
            let mut all = puzzles.to_vec();
            all[i] = Puzzle::new(more, p.singles).expect("clues taken from a solution");
            out.push(all);
        }
    }
    out.into_iter().map(Input::Sudominoku).collect()
}

/// BOJ 4574.
#[derive(Debug)]
pub struct Sudominoku;

impl JudgeProblem for Sudominoku {
    fn id(&self) -> u32 {
        4574
    }

    fn title(&self) -> Title {
        Title { ko: "스도미노쿠", en: "Sudominoku" }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 128)
    }

    /// Every puzzle is read and solved before anything is written, so bad
    /// input leaves the output empty.
    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        let parsed = sudominoku::parse(input)?;
        let puzzles: Vec<&Puzzle> =
            parsed.iter().map(|p| p.as_ref().map_err(Clone::clone)).collect::<Result<_, _>>()?;
        let mut text = String::with_capacity(puzzles.len() * 100);
        for (i, puzzle) in puzzles.into_iter().enumerate() {
            let Some(solution) = sudominoku::solve(puzzle) else {
                // The problem promises solvable puzzles: one without is input out of its range.
                return Err(AnswerError::Unsolvable(format!(
                    "puzzle {} has no solution (the problem promises one)",
                    i + 1
                )));
            };
            text.push_str(&format!("Puzzle {}\n", i + 1));
            text.push_str(&format_grid(&solution.grid));
        }
        out.write_all(text.as_bytes())?;
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        samples()
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        edges(rng)
    }

    fn random(&self, rng: &mut Rng) -> Input {
        random(rng)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        hard(rng)
    }

    fn text(&self, input: &Input) -> String {
        match input {
            Input::Sudominoku(puzzles) => text(puzzles),
            _ => foreign(self.id(), input),
        }
    }

    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        match input {
            Input::Sudominoku(puzzles) => shrink(puzzles),
            _ => foreign(self.id(), input),
        }
    }
}
