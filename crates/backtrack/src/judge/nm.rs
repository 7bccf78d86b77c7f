//! The "N and M" series (BOJ 15649-15652, 15654-15657, 15663-15666): `N M`,
//! from 15654 on a line of N numbers; the answer lists every sequence of
//! length M the variant allows, in increasing lexicographic order.

use std::io::Write;

use super::problem::foreign;
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
pub use crate::choose::NandMVariant as Variant;
use crate::choose::{parse_n_and_m, Choose};

/// Largest number in the second line.
const MAX_VALUE: u64 = 10_000;

fn input(n: usize, m: usize, values: Vec<u32>) -> Input {
    Input::NandM { n, m, values }
}

/// The statement samples this project knows (see `specs/problems.md`).
fn samples(id: u32) -> Vec<Input> {
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

fn edges(v: &Variant) -> Vec<(&'static str, Input)> {
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

fn random(v: &Variant, rng: &mut Rng) -> Input {
    let n = rng.range(1, v.max_n as u64) as usize;
    let m = rng.range(1, n as u64) as usize;
    let values = values(v, rng, n);
    input(n, m, values)
}

/// The largest output: N at its limit, the M with the most sequences, five-digit numbers.
fn hard(v: &Variant, rng: &mut Rng) -> Vec<(&'static str, Input)> {
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

fn text(v: &Variant, n: usize, m: usize, values: &[u32]) -> String {
    let mut text = format!("{n} {m}\n");
    if v.given {
        let line: Vec<String> = values.iter().map(u32::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// Smaller M, then one number less (smaller N), then the numbers renumbered
/// to `1, 2, ...` keeping their order and repeats.
fn shrink(v: &Variant, n: usize, m: usize, values: &[u32]) -> Vec<Input> {
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

/// One problem of the "N and M" series.
#[derive(Debug)]
pub struct NandM {
    /// Its number, 15649-15652, 15654-15657 or 15663-15666.
    pub id: u32,
}

/// The English titles of the series, by number.
const TITLES: [(u32, &str, &str); 12] = [
    (15649, "N과 M (1)", "N and M (1): permutations of 1..N"),
    (15650, "N과 M (2)", "N and M (2): combinations of 1..N"),
    (15651, "N과 M (3)", "N and M (3): sequences of 1..N with repetition"),
    (15652, "N과 M (4)", "N and M (4): non-decreasing sequences of 1..N"),
    (15654, "N과 M (5)", "N and M (5): permutations of given numbers"),
    (15655, "N과 M (6)", "N and M (6): combinations of given numbers"),
    (15656, "N과 M (7)", "N and M (7): sequences of given numbers with repetition"),
    (15657, "N과 M (8)", "N and M (8): non-decreasing sequences of given numbers"),
    (15663, "N과 M (9)", "N and M (9): permutations of a multiset"),
    (15664, "N과 M (10)", "N and M (10): combinations of a multiset"),
    (15665, "N과 M (11)", "N and M (11): sequences of a multiset's values with repetition"),
    (15666, "N과 M (12)", "N and M (12): non-decreasing sequences of a multiset's values"),
];

impl NandM {
    fn variant(&self) -> Variant {
        Variant::of(self.id).expect("a problem of the series")
    }
}

impl JudgeProblem for NandM {
    fn id(&self) -> u32 {
        self.id
    }

    fn title(&self) -> Title {
        let &(_, ko, en) = TITLES.iter().find(|t| t.0 == self.id).expect("a problem of the series");
        Title { ko, en }
    }

    fn limits(&self) -> Limits {
        super::limits(1, 512)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        let v = self.variant();
        let input = parse_n_and_m(input, v.given)?;
        if v.given {
            Choose::new(input.values, input.m, v.shape, v.repetition).write_all(out, b" ")?;
        } else {
            Choose::range(input.n, input.m, v.shape, v.repetition).write_all(out, b" ")?;
        }
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        samples(self.id)
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        edges(&self.variant())
    }

    fn random(&self, rng: &mut Rng) -> Input {
        random(&self.variant(), rng)
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        hard(&self.variant(), rng)
    }

    fn every_input(&self) -> Option<Vec<Input>> {
        let v = self.variant();
        (!v.given).then(|| (1..=v.max_n).flat_map(|n| (1..=n).map(move |m| input(n, m, vec![]))).collect())
    }

    fn text(&self, input: &Input) -> String {
        match input {
            Input::NandM { n, m, values } => text(&self.variant(), *n, *m, values),
            _ => foreign(self.id, input),
        }
    }

    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        match input {
            Input::NandM { n, m, values } => shrink(&self.variant(), *n, *m, values),
            _ => foreign(self.id, input),
        }
    }
}
