//! Inserting operators (BOJ 14888, exactly N-1 operators; BOJ 15658, at
//! least N-1): `N`, the N numbers, the counts of `+ - × ÷`; the answer is the
//! largest and the smallest result.
//!
//! Every case keeps the statement's promise that every value along the way
//! lies within ±10⁹: with `x` multiplications usable, no value passes
//! (A1 + ... + AN) · max(A)^x, and the generators keep that bound within it.
//! The division edge case divides a negative value, where truncating and
//! flooring differ.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::{solve_14888, solve_15658};

/// Numbers in one input (`2 <= N <= 11`).
const N: (usize, usize) = (2, 11);
/// Largest number.
const MAX_VALUE: u64 = 100;
/// Largest absolute value the statement promises along the way.
const PROMISE: u64 = 1_000_000_000;

/// BOJ 14888 (`exact: true`) or 15658.
#[derive(Debug)]
pub struct Operators {
    /// Whether the counts add up to exactly N-1 (14888) or to at least N-1 (15658).
    pub exact: bool,
}

fn input(numbers: &[u32], counts: [u32; 4]) -> Input {
    Input::Operators { numbers: numbers.to_vec(), counts }
}

/// Whether every value along the way stays within the promise (see the module doc).
fn kept(numbers: &[u32], counts: [u32; 4]) -> bool {
    let sum: u64 = numbers.iter().map(|&v| v as u64).sum();
    let max = numbers.iter().copied().max().unwrap_or(1) as u64;
    let times = counts[2].min(numbers.len() as u32 - 1);
    (0..times).try_fold(sum, |bound, _| bound.checked_mul(max).filter(|&b| b <= PROMISE)).is_some_and(|b| b <= PROMISE)
}

impl Operators {
    /// Counts for `n` numbers: exactly n-1 in all (14888), or n-1 plus up to
    /// 3n more (15658, at most 4n in all); multiplications moved to the other
    /// operators until the promise holds.
    fn counts(&self, rng: &mut Rng, numbers: &[u32]) -> [u32; 4] {
        let gaps = numbers.len() as u32 - 1;
        let total = if self.exact { gaps } else { gaps + rng.range(0, 3 * numbers.len() as u64 + 1) as u32 };
        let mut counts = [0u32; 4];
        for _ in 0..total {
            counts[rng.below(4)] += 1;
        }
        while !kept(numbers, counts) {
            counts[2] -= 1;
            counts[rng.below(2)] += 1;
        }
        counts
    }

    fn numbers(rng: &mut Rng, n: usize) -> Vec<u32> {
        // Small numbers half the time: more multiplications keep the promise.
        let high = if rng.below(2) == 0 { MAX_VALUE } else { rng.range(1, 9) };
        (0..n).map(|_| rng.range(1, high) as u32).collect()
    }
}

impl JudgeProblem for Operators {
    fn id(&self) -> u32 {
        if self.exact {
            14888
        } else {
            15658
        }
    }

    fn title(&self) -> Title {
        if self.exact {
            Title { ko: "연산자 끼워넣기", en: "insert the given operators: largest and smallest result" }
        } else {
            Title {
                ko: "연산자 끼워넣기 (2)",
                en: "insert operators, more than enough given: largest and smallest result",
            }
        }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 512)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(if self.exact { solve_14888(input) } else { solve_15658(input) }, out)
    }

    fn samples(&self) -> Vec<Input> {
        if self.exact {
            vec![
                input(&[5, 6], [0, 0, 1, 0]),
                input(&[3, 4, 5], [1, 0, 1, 0]),
                input(&[1, 2, 3, 4, 5, 6], [2, 1, 1, 1]),
            ]
        } else {
            vec![
                input(&[5, 6], [1, 1, 1, 1]),
                input(&[3, 4, 5], [2, 1, 2, 1]),
                input(&[1, 2, 3, 4, 5, 6], [3, 2, 1, 1]),
            ]
        }
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        let spare = if self.exact { 0 } else { 1 };
        vec![
            // 1 - 5 = -4, then -4 ÷ 3 = -1 (truncated), not -2 (floored).
            ("divide-a-negative", input(&[1, 5, 3], [spare, 1, spare, 1])),
            // Every result negative: the largest is below 0.
            ("n2-minus", input(&[1, 100], [0, 1, 0, 0])),
            ("one-kind-only", input(&[100; 11], [0, 10, 0, 0])),
            ("max-n-times", input(&[100; 11], [4 + spare, 2, 2, 2])),
            ("max-n-divide", input(&[1, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91], [0, 5, 0, 5 + spare])),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let n = rng.range(N.0 as u64, N.1 as u64) as usize;
        let numbers = Operators::numbers(rng, n);
        let counts = self.counts(rng, &numbers);
        input(&numbers, counts)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        let large: Vec<u32> = (0..N.1).map(|_| rng.range(50, MAX_VALUE) as u32).collect();
        let small: Vec<u32> = (0..N.1).map(|_| rng.range(2, 5) as u32).collect();
        if self.exact {
            // The most distinct orders of ten operators: 10! / (3! 3! 2! 2!) = 25,200.
            vec![
                ("most-orders", input(&large, [3, 3, 2, 2])),
                ("small-numbers-most-orders", input(&small, [3, 3, 2, 2])),
            ]
        } else {
            // Every operator at every gap: 4^10 orders.
            vec![
                ("every-operator-everywhere", input(&small, [10, 10, 10, 10])),
                ("large-numbers", input(&large, [10, 10, 2, 10])),
            ]
        }
    }

    fn text(&self, input: &Input) -> String {
        let Input::Operators { numbers, counts } = input else { foreign(self.id(), input) };
        let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
        let counts: Vec<String> = counts.iter().map(u32::to_string).collect();
        format!("{}\n{}\n{}\n", numbers.len(), numbers.join(" "), counts.join(" "))
    }

    /// One number less (with one operator less, for each operator left),
    /// fewer spare operators (15658), smaller numbers.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Operators { numbers, counts } = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        let total: u32 = counts.iter().sum();
        if numbers.len() > N.0 {
            for i in 0..numbers.len() {
                let mut fewer = numbers.clone();
                fewer.remove(i);
                for k in (0..4).filter(|&k| counts[k] > 0) {
                    let mut less = *counts;
                    less[k] -= 1;
                    // 15658 gives at most 4N operators.
                    while less.iter().sum::<u32>() > 4 * fewer.len() as u32 {
                        let most = (0..4).max_by_key(|&j| less[j]).expect("four counts");
                        less[most] -= 1;
                    }
                    out.push(Input::Operators { numbers: fewer.clone(), counts: less });
                }
            }
        }
        if !self.exact && total >= numbers.len() as u32 {
            for k in (0..4).filter(|&k| counts[k] > 0) {
                let mut less = *counts;
                less[k] -= 1;
                out.push(Input::Operators { numbers: numbers.clone(), counts: less });
            }
        }
        let lowered: Vec<u32> = numbers.iter().map(|&v| v.div_ceil(2)).collect();
        out.push(Input::Operators { numbers: lowered, counts: *counts });
        for i in (0..numbers.len()).filter(|&i| numbers[i] > 1) {
            let mut lower = numbers.clone();
            lower[i] = 1;
            out.push(Input::Operators { numbers: lower, counts: *counts });
        }
        out
    }
}
