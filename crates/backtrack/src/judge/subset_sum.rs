//! Sums of subsequences (BOJ 1182): `N S` and N integers; the answer counts
//! the non-empty subsequences that add up to S.
//!
//! Half the random cases draw small numbers and take S as the sum of some of
//! them, so that the count is rarely 0; S = 0 cases catch a program that
//! counts the empty subsequence.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::solve_1182;

/// Numbers in one input (`1 <= N <= 20`).
const N: (usize, usize) = (1, 20);
/// Largest absolute value of a number.
const MAX_VALUE: i64 = 100_000;
/// Largest absolute value of S.
const MAX_S: i64 = 1_000_000;

/// BOJ 1182.
#[derive(Debug)]
pub struct SubsetSum;

fn input(target: i64, numbers: &[i64]) -> Input {
    Input::SubsetSum { target, numbers: numbers.to_vec() }
}

fn draw(rng: &mut Rng, high: i64) -> i64 {
    rng.range(0, 2 * high as u64) as i64 - high
}

impl JudgeProblem for SubsetSum {
    fn id(&self) -> u32 {
        1182
    }

    fn title(&self) -> Title {
        Title { ko: "부분수열의 합", en: "count non-empty subsequences with sum S" }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(solve_1182(input), out)
    }

    fn samples(&self) -> Vec<Input> {
        vec![input(0, &[-7, -3, -2, 5, 8])]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("n1-hit", input(5, &[5])),
            ("n1-miss", input(-5, &[5])),
            ("zero-sum-no-empty", input(0, &[1, 2, 4])),
            ("max-n-all-zero", input(0, &[0; N.1])),
            ("max-n-largest", input(MAX_S, &[MAX_VALUE; N.1])),
            ("max-n-smallest", input(-MAX_S, &[-MAX_VALUE; N.1])),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let n = rng.range(N.0 as u64, N.1 as u64) as usize;
        let small = rng.below(2) == 0;
        let high = if small { rng.range(1, 10) as i64 } else { MAX_VALUE };
        let numbers: Vec<i64> = (0..n).map(|_| draw(rng, high)).collect();
        let target = if small {
            numbers.iter().filter(|_| rng.below(2) == 0).sum::<i64>().clamp(-MAX_S, MAX_S)
        } else {
            draw(rng, MAX_S)
        };
        input(target, &numbers)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        let tiny: Vec<i64> = (0..N.1).map(|_| draw(rng, 2)).collect();
        let halves: Vec<i64> =
            (0..N.1 as i64).map(|i| if i % 2 == 0 { MAX_VALUE / 2 } else { -MAX_VALUE / 2 }).collect();
        vec![("max-n-many-zero-sums", input(0, &tiny)), ("max-n-alternating", input(0, &halves))]
    }

    fn text(&self, input: &Input) -> String {
        let Input::SubsetSum { target, numbers } = input else { foreign(self.id(), input) };
        let numbers: Vec<String> = numbers.iter().map(i64::to_string).collect();
        format!("{} {target}\n{}\n", numbers.len(), numbers.join(" "))
    }

    /// One number less, numbers and S halved toward 0, a number made 0.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::SubsetSum { target, numbers } = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        if numbers.len() > N.0 {
            out.extend(
                super::shrink::drop_each(numbers)
                    .into_iter()
                    .map(|fewer| Input::SubsetSum { target: *target, numbers: fewer }),
            );
        }
        out.push(Input::SubsetSum { target: target / 2, numbers: numbers.iter().map(|v| v / 2).collect() });
        out.push(Input::SubsetSum { target: target / 2, numbers: numbers.clone() });
        for i in (0..numbers.len()).filter(|&i| numbers[i] != 0) {
            let mut zero = numbers.clone();
            zero[i] = 0;
            out.push(Input::SubsetSum { target: *target, numbers: zero });
        }
        out
    }
}
