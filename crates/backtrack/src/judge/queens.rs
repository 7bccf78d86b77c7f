//! N-Queen (BOJ 9663): one integer N, the answer is the number of placements.

use super::{Draw, Input, Rng};
use crate::queens;

/// Largest N on the judge (`1 <= N < 15`).
pub const MAX_N: usize = 14;

pub(super) fn samples() -> Vec<Input> {
    vec![Input::Queens(8)]
}

pub(super) fn edges() -> Vec<(&'static str, Input)> {
    vec![("n1", Input::Queens(1)), ("n2", Input::Queens(2)), ("n3", Input::Queens(3)), ("max", Input::Queens(MAX_N))]
}

pub(super) fn random(rng: &mut Rng) -> Input {
    Input::Queens(rng.range(1, MAX_N as u64) as usize)
}

pub(super) fn hard() -> Vec<(&'static str, Input)> {
    // Every N is small; the slowest ones are the adversarial ones.
    vec![("n12", Input::Queens(12)), ("n13", Input::Queens(13))]
}

pub(super) fn text(n: usize) -> String {
    format!("{n}\n")
}

pub(super) fn answer(n: usize) -> String {
    let counts = queens::count(n, 1).expect("judge sizes are in range");
    format!("{}\n", counts.total)
}

/// Every smaller board, smallest first.
pub(super) fn shrink(n: usize) -> Vec<Input> {
    (1..n).map(Input::Queens).collect()
}
