//! The "N and M" series (BOJ 15649-15652, 15654-15657, 15663-15666): `N M`,
//! from 15654 on a line of N numbers; the answer lists every sequence of
//! length M the variant allows, in increasing lexicographic order.

use super::{Draw, Input, Rng};
use crate::choose::Choose;
pub use crate::choose::NandMVariant as Variant;

/// Largest number in the second line.
const MAX_VALUE: u64 = 10_000;

fn input(n: usize, m: usize, values: Vec<u32>) -> Input {
    Input::NandM { n, m, values }
}

/// The statement samples this project knows (see `specs/problems.md`).
pub(super) fn samples(id: u32) -> Vec<Input> {
    match id {
        15649 | 15650 => vec![input(4, 2, vec![])],
        15663 => vec![input(4, 2, vec![9, 7, 9, 1])],
        15657 => vec![input(4, 4, vec![1231, 1232, 1233, 1234])],
        15666 => vec![input(4, 4, vec![1, 1, 2, 2])],
        _ => vec![],
    }
}

/// `n` numbers for the second line (none when the pool is `1..=N`).
fn values(v: &Variant, rng: &mut Rng, n: usize) -> Vec<u32> {
    if !v.given {
        return vec![];
    }
    let mut values: Vec<u32> = if v.multiset {
        // A small range makes repeats likely.
        let high = if rng.below(4) == 0 { MAX_VALUE } else { rng.range(1, n as u64) };
        (0..n).map(|_| rng.range(1, high) as u32).collect()
    } else {
        rng.subset(n, 1, MAX_VALUE).into_iter().map(|x| x as u32).collect()
    };
    rng.shuffle(&mut values);
    values
}

pub(super) fn edges(v: &Variant) -> Vec<(&'static str, Input)> {
    let max = v.max_n;
    let pool = |n: usize, top: bool| -> Vec<u32> {
        if !v.given {
            vec![]
        } else if top {
            // The largest numbers, given in decreasing order.
            (0..n as u32).map(|i| MAX_VALUE as u32 - i).collect()
        } else {
            (1..=n as u32).rev().collect()
        }
    };
    let mut edges = vec![
        ("n1-m1", input(1, 1, pool(1, true))),
        ("max-n-m1", input(max, 1, pool(max, false))),
        ("max-n-max-m", input(max, max, pool(max, false))),
        ("largest-numbers", input(max, max.min(3), pool(max, true))),
    ];
    if v.multiset {
        edges.push(("all-equal", input(max, max, vec![7; max])));
        edges.push(("pairs", input(6, 3, vec![5, 3, 5, 1, 3, 1])));
    }
    edges
}

pub(super) fn random(v: &Variant, rng: &mut Rng) -> Input {
    let n = rng.range(1, v.max_n as u64) as usize;
    let m = rng.range(1, n as u64) as usize;
    let values = values(v, rng, n);
    input(n, m, values)
}

/// The largest output: N at its limit, the M with the most sequences, five-digit numbers.
pub(super) fn hard(v: &Variant, rng: &mut Rng) -> Vec<(&'static str, Input)> {
    let n = v.max_n;
    let values: Vec<u32> = if v.given {
        let mut values: Vec<u32> = rng.subset(n, MAX_VALUE - 999, MAX_VALUE).into_iter().map(|x| x as u32).collect();
        rng.shuffle(&mut values);
        values
    } else {
        vec![]
    };
    let lines = |m: usize| pool(v, n, &values, m).count().unwrap_or(0);
    let m = (1..=n).max_by_key(|&m| lines(m)).expect("n >= 1");
    vec![("largest-output", input(n, m, values))]
}

fn pool(v: &Variant, n: usize, values: &[u32], m: usize) -> Choose<u32> {
    if v.given {
        Choose::new(values.iter().copied(), m, v.shape, v.repetition)
    } else {
        Choose::new(1..=n as u32, m, v.shape, v.repetition)
    }
}

pub(super) fn text(v: &Variant, n: usize, m: usize, values: &[u32]) -> String {
    let mut text = format!("{n} {m}\n");
    if v.given {
        let line: Vec<String> = values.iter().map(u32::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

pub(super) fn answer(v: &Variant, n: usize, m: usize, values: &[u32]) -> String {
    let mut out = Vec::new();
    pool(v, n, values, m).write_all(&mut out, b" ").expect("writing to memory");
    String::from_utf8(out).expect("digits and spaces")
}

/// Smaller M, then one number less (smaller N), then the numbers renumbered
/// to `1, 2, ...` keeping their order and repeats.
pub(super) fn shrink(v: &Variant, n: usize, m: usize, values: &[u32]) -> Vec<Input> {
    let mut out = Vec::new();
    for smaller_m in 1..m {
        out.push(input(n, smaller_m, values.to_vec()));
    }
    if n > 1 {
        if v.given {
            for i in 0..n {
                let mut fewer = values.to_vec();
                fewer.remove(i);
                out.push(input(n - 1, m.min(n - 1), fewer));
            }
        } else {
            out.push(input(n - 1, m.min(n - 1), vec![]));
        }
    }
    if v.given {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let ranks: Vec<u32> = values.iter().map(|x| sorted.binary_search(x).expect("present") as u32 + 1).collect();
        if ranks != values {
            out.push(input(n, m, ranks));
        }
    }
    out
}
