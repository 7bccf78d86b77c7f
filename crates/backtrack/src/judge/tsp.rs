//! Travelling salesman 2 (BOJ 10971): `N` and the N x N costs, 0 for no
//! road; the answer is the cheapest round trip through every city.
//!
//! Every case has a round trip, as the statement promises: a random one is
//! laid first, with positive costs, and the other roads are drawn around
//! it. Many random cases leave roads out (cost 0): a program that takes a 0
//! as a free road finds a trip cheaper than any real one.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::teams::{halved, matrix_text, square, without};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::solve_10971;
use crate::boj::tsp::cheapest_tour;

/// Cities (`2 <= N <= 10`).
const N: (usize, usize) = (2, 10);
/// Largest cost of a road.
const MAX_COST: u64 = 1_000_000;

/// BOJ 10971.
#[derive(Debug)]
pub struct Tsp;

/// Whether some round trip visits every city of `rows`.
fn has_tour(rows: &[Vec<u32>]) -> bool {
    let costs: Vec<Vec<u64>> = rows.iter().map(|r| r.iter().map(|&v| v as u64).collect()).collect();
    cheapest_tour(&costs).cost.is_some()
}

/// `n` cities with a random round trip in them; every other road is there
/// with odds `1 - 1/missing` (`missing` 0: every road), costs `1..=high`.
fn random_costs(rng: &mut Rng, n: usize, missing: usize, high: u64) -> Input {
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut next = vec![0; n];
    for i in 0..n {
        next[order[i]] = order[(i + 1) % n];
    }
    square(
        n,
        |i, j| if next[i] == j || missing == 0 || rng.below(missing) != 0 { rng.range(1, high) as u32 } else { 0 },
    )
}

impl JudgeProblem for Tsp {
    fn id(&self) -> u32 {
        10971
    }

    fn title(&self) -> Title {
        Title { ko: "외판원 순회 2", en: "cheapest round trip through every city" }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(solve_10971(input), out)
    }

    fn samples(&self) -> Vec<Input> {
        vec![Input::Matrix(vec![vec![0, 10, 15, 20], vec![5, 0, 9, 10], vec![6, 13, 0, 12], vec![8, 8, 9, 0]])]
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("n2", Input::Matrix(vec![vec![0, 5], vec![7, 0]])),
            // One-way roads around a ring: the only trip goes 1 -> 2 -> 3 -> 4 -> 1.
            ("one-way-ring", square(4, |i, j| if j == (i + 1) % 4 { 10 } else { 0 })),
            ("max-n-max-cost", square(N.1, |_, _| MAX_COST as u32)),
            ("max-n-sparse", random_costs(rng, N.1, 2, 100)),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let n = rng.range(N.0 as u64, N.1 as u64) as usize;
        let missing = [0, 2, 3, 4][rng.below(4)];
        let high = if rng.below(2) == 0 { MAX_COST } else { rng.range(1, 20) };
        random_costs(rng, n, missing, high)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        // Cheap roads that lead nowhere, and one dear trip: little to prune.
        let trap = square(N.1, |i, j| if (i + j) % 3 == 0 { 1 } else { 1000 + (i * N.1 + j) as u32 });
        vec![("max-n-dense", random_costs(rng, N.1, 0, MAX_COST)), ("max-n-near-ties", trap)]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Matrix(rows) = input else { foreign(self.id(), input) };
        matrix_text(rows)
    }

    /// One city less, costs halved (roads kept), one road made to cost 1;
    /// each only while a round trip remains.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Matrix(rows) = input else { foreign(self.id(), input) };
        let n = rows.len();
        let mut out = Vec::new();
        if n > N.0 {
            out.extend((0..n).map(|i| without(rows, i)));
        }
        out.push(halved(rows));
        for i in 0..n {
            for j in (0..n).filter(|&j| rows[i][j] > 1) {
                let mut cheaper = rows.clone();
                cheaper[i][j] = 1;
                out.push(cheaper);
            }
        }
        out.retain(|m| m != rows && has_tour(m));
        out.into_iter().map(Input::Matrix).collect()
    }
}
