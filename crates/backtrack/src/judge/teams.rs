//! Splitting people into two teams (BOJ 14889, two teams of N/2; BOJ 15661,
//! teams of any sizes): `N` and the N x N strengths `S`, the diagonal 0; the
//! answer is the smallest difference of the teams' strengths.
//!
//! Random strengths are asymmetric (a program that adds `S[i][j]` once per
//! pair fails) and, half the time, drawn from a small range, so that several
//! splits tie.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::{solve_14889, solve_15661};

/// People (`4 <= N <= 20`).
const N: (usize, usize) = (4, 20);
/// Largest strength.
const MAX_S: u64 = 100;

/// BOJ 14889 (`equal: true`) or 15661.
#[derive(Debug)]
pub struct Teams {
    /// Whether the teams have N/2 people each (14889; N is even).
    pub equal: bool,
}

/// An `n` x `n` matrix with a zero diagonal, `value(i, j)` elsewhere.
pub(super) fn square(n: usize, mut value: impl FnMut(usize, usize) -> u32) -> Input {
    Input::Matrix((0..n).map(|i| (0..n).map(|j| if i == j { 0 } else { value(i, j) }).collect()).collect())
}

/// The matrix as the judge gives it: `N`, then its rows.
pub(super) fn matrix_text(rows: &[Vec<u32>]) -> String {
    let mut text = format!("{}\n", rows.len());
    for row in rows {
        let row: Vec<String> = row.iter().map(u32::to_string).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

/// `rows` without row and column `i`.
pub(super) fn without(rows: &[Vec<u32>], i: usize) -> Vec<Vec<u32>> {
    let mut fewer = rows.to_vec();
    fewer.remove(i);
    for row in &mut fewer {
        row.remove(i);
    }
    fewer
}

/// `rows` with every entry halved, rounding up (a road or a strength stays above 0).
pub(super) fn halved(rows: &[Vec<u32>]) -> Vec<Vec<u32>> {
    rows.iter().map(|r| r.iter().map(|&v| v.div_ceil(2)).collect()).collect()
}

impl Teams {
    fn sizes(&self, rng: &mut Rng) -> usize {
        let n = rng.range(N.0 as u64, N.1 as u64) as usize;
        if self.equal {
            n & !1
        } else {
            n
        }
    }
}

impl JudgeProblem for Teams {
    fn id(&self) -> u32 {
        if self.equal {
            14889
        } else {
            15661
        }
    }

    fn title(&self) -> Title {
        if self.equal {
            Title { ko: "스타트와 링크", en: "split into two equal teams of closest strength" }
        } else {
            Title { ko: "링크와 스타트", en: "split into two teams of any sizes, closest strength" }
        }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 512)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(if self.equal { solve_14889(input) } else { solve_15661(input) }, out)
    }

    fn samples(&self) -> Vec<Input> {
        let rows = |rows: &[&[u32]]| Input::Matrix(rows.iter().map(|r| r.to_vec()).collect());
        let mut samples = vec![
            rows(&[&[0, 1, 2, 3], &[4, 0, 5, 6], &[7, 1, 0, 2], &[3, 4, 5, 0]]),
            rows(&[
                &[0, 1, 2, 3, 4, 5],
                &[1, 0, 2, 3, 4, 5],
                &[1, 2, 0, 3, 4, 5],
                &[1, 2, 3, 0, 4, 5],
                &[1, 2, 3, 4, 0, 5],
                &[1, 2, 3, 4, 5, 0],
            ]),
            rows(&[
                &[0, 5, 4, 5, 4, 5, 4, 5],
                &[4, 0, 5, 1, 2, 3, 4, 5],
                &[9, 8, 0, 1, 2, 3, 1, 2],
                &[9, 9, 9, 0, 9, 9, 9, 9],
                &[1, 1, 1, 1, 0, 1, 1, 1],
                &[8, 7, 6, 5, 4, 0, 3, 2],
                &[9, 1, 9, 1, 9, 1, 0, 9],
                &[6, 5, 4, 3, 2, 1, 9, 0],
            ]),
        ];
        if !self.equal {
            samples.push(rows(&[
                &[0, 3, 1, 1, 1],
                &[3, 0, 1, 1, 1],
                &[1, 1, 0, 1, 1],
                &[1, 1, 1, 0, 1],
                &[1, 1, 1, 1, 0],
            ]));
        }
        samples
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        let mut edges = vec![
            ("n4-all-equal", square(4, |_, _| 1)),
            ("max-n-all-equal", square(N.1, |_, _| MAX_S as u32)),
            ("max-n-one-way", square(N.1, |i, j| if i < j { MAX_S as u32 } else { 1 })),
            ("max-n-random", square(N.1, |_, _| rng.range(1, MAX_S) as u32)),
        ];
        if !self.equal {
            // One person who works far better with anyone: best alone, against a team of 3.
            edges.push(("uneven-best", square(4, |i, _| if i == 0 { MAX_S as u32 } else { 1 })));
            edges.push(("max-odd-n", square(N.1 - 1, |_, _| rng.range(1, MAX_S) as u32)));
        }
        edges
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let n = self.sizes(rng);
        let high = if rng.below(2) == 0 { MAX_S } else { rng.range(1, 5) };
        square(n, |_, _| rng.range(1, high) as u32)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        // One person far stronger than the rest, on a full-size board.
        let star = square(N.1, |i, j| if i == 0 || j == 0 { MAX_S as u32 } else { rng.range(1, 3) as u32 });
        let skewed = square(N.1, |i, j| ((i * 7 + j * 13) % MAX_S as usize) as u32 + 1);
        vec![("max-n-one-star", star), ("max-n-skewed", skewed)]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Matrix(rows) = input else { foreign(self.id(), input) };
        matrix_text(rows)
    }

    /// One person less (two for 14889, whose N is even), then smaller strengths.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Matrix(rows) = input else { foreign(self.id(), input) };
        let n = rows.len();
        let mut out = Vec::new();
        if n > N.0 {
            for i in 0..n {
                let fewer = without(rows, i);
                out.push(if self.equal { without(&fewer, i % (n - 1)) } else { fewer });
            }
        }
        out.push(halved(rows));
        for i in 0..n {
            let mut ones = rows.to_vec();
            ones[i] = (0..n).map(|j| u32::from(i != j)).collect();
            out.push(ones);
        }
        out.retain(|m| m != rows);
        out.into_iter().map(Input::Matrix).collect()
    }
}
