//! The largest sum of differences (BOJ 10819): `N` and N integers; the
//! answer is the largest `|A[0]-A[1]| + ... + |A[N-2]-A[N-1]|` over every order.
//!
//! Inputs come unsorted, with repeats half the time: a program that walks
//! permutations from the input order without sorting it first misses some.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::solve_10819;

/// Numbers in one input (`3 <= N <= 8`).
const N: (usize, usize) = (3, 8);
/// Largest absolute value of a number.
const MAX_VALUE: i64 = 100;

/// BOJ 10819.
#[derive(Debug)]
pub struct Difference;

fn draw(rng: &mut Rng, high: i64) -> i64 {
    rng.range(0, 2 * high as u64) as i64 - high
}

impl JudgeProblem for Difference {
    fn id(&self) -> u32 {
        10819
    }

    fn title(&self) -> Title {
        Title { ko: "차이를 최대로", en: "order the numbers to maximize the sum of neighbour differences" }
    }

    fn limits(&self) -> Limits {
        super::limits(1, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(solve_10819(input), out)
    }

    fn samples(&self) -> Vec<Input> {
        vec![Input::Numbers(vec![20, 1, 15, 8, 4, 10])]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("n3", Input::Numbers(vec![1, 2, 3])),
            ("all-equal", Input::Numbers(vec![7; N.1])),
            ("extremes", Input::Numbers(vec![-100, 100, -100, 100, -100, 100, -100, 100])),
            ("all-negative", Input::Numbers(vec![-1, -50, -100, -3, -7, -99, -20, -60])),
            ("decreasing", Input::Numbers((0..N.1 as i64).map(|i| 100 - 25 * i).collect())),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let n = rng.range(N.0 as u64, N.1 as u64) as usize;
        let high = if rng.below(2) == 0 { MAX_VALUE } else { rng.range(1, 3) as i64 };
        Input::Numbers((0..n).map(|_| draw(rng, high)).collect())
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        let mut spread: Vec<i64> = (0..N.1 as i64).map(|i| -100 + 28 * i).collect();
        rng.shuffle(&mut spread);
        vec![("max-n-spread", Input::Numbers(spread)), ("max-n-descending", Input::Numbers((0..8).rev().collect()))]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Numbers(numbers) = input else { foreign(self.id(), input) };
        let words: Vec<String> = numbers.iter().map(i64::to_string).collect();
        format!("{}\n{}\n", numbers.len(), words.join(" "))
    }

    /// One number less, the numbers halved toward 0, one made 0.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Numbers(numbers) = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        if numbers.len() > N.0 {
            out.extend(super::shrink::drop_each(numbers));
        }
        out.push(numbers.iter().map(|v| v / 2).collect());
        for i in (0..numbers.len()).filter(|&i| numbers[i] != 0) {
            let mut zero = numbers.clone();
            zero[i] = 0;
            out.push(zero);
        }
        out.into_iter().map(Input::Numbers).collect()
    }
}
