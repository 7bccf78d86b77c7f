//! Lotto (BOJ 6603): sets of 7 to 12 numbers of 1..49, one per line, ended
//! by `0`; the answer lists every 6-subset of each set, then a blank line.

use std::io::Write;

use super::problem::foreign;
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::choose::{parse_lotto, Choose, Repetition, Shape};

/// Smallest and largest set size `k` (`6 < k < 13`).
const K: (usize, usize) = (7, 12);
/// Largest number in a set.
const MAX_VALUE: u64 = 49;

fn set(rng: &mut Rng) -> Vec<u32> {
    let k = rng.range(K.0 as u64, K.1 as u64) as usize;
    rng.subset(k, 1, MAX_VALUE).into_iter().map(|v| v as u32).collect()
}

/// BOJ 6603.
#[derive(Debug)]
pub struct Lotto;

impl JudgeProblem for Lotto {
    fn id(&self) -> u32 {
        6603
    }

    fn title(&self) -> Title {
        Title { ko: "로또", en: "Lotto: every 6-subset" }
    }

    fn limits(&self) -> Limits {
        super::limits(1, 128)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        for set in parse_lotto(input)? {
            Choose::new(set, 6, Shape::Increasing, Repetition::Once).write_all(out, b" ")?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        vec![Input::Lotto(vec![(1..=7).collect(), vec![1, 2, 3, 5, 8, 13, 21, 34]])]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("smallest-set", Input::Lotto(vec![(1..=7).collect()])),
            ("largest-set", Input::Lotto(vec![(38..=49).collect()])),
            (
                "several-sets",
                Input::Lotto(vec![(1..=12).collect(), (43..=49).collect(), vec![1, 10, 20, 30, 40, 45, 49]]),
            ),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let cases = rng.range(1, 4) as usize;
        Input::Lotto((0..cases).map(|_| set(rng)).collect())
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        // The largest output: many sets of 12 (924 lines each).
        let sets = (0..100).map(|_| rng.subset(K.1, 1, MAX_VALUE).into_iter().map(|v| v as u32).collect()).collect();
        vec![("many-largest-sets", Input::Lotto(sets))]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Lotto(sets) = input else { foreign(self.id(), input) };
        let mut text = String::new();
        for set in sets {
            text.push_str(&set.len().to_string());
            for v in set {
                text.push_str(&format!(" {v}"));
            }
            text.push('\n');
        }
        text.push_str("0\n");
        text
    }

    /// Fewer sets (each alone, then halves, then one less), then a set with one
    /// number less, then sets renumbered `1..=k`.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Lotto(sets) = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        if sets.len() > 1 {
            out.extend(sets.iter().map(|s| vec![s.clone()]));
            out.extend(super::shrink::halves(sets));
            out.extend(super::shrink::drop_each(sets));
        }
        for (i, set) in sets.iter().enumerate() {
            if set.len() > K.0 {
                for j in 0..set.len() {
                    let mut smaller = sets.to_vec();
                    smaller[i].remove(j);
                    out.push(smaller);
                }
            }
        }
        for (i, set) in sets.iter().enumerate() {
            let low: Vec<u32> = (1..=set.len() as u32).collect();
            if *set != low {
                let mut renumbered = sets.to_vec();
                renumbered[i] = low;
                out.push(renumbered);
            }
        }
        out.into_iter().map(Input::Lotto).collect()
    }
}
