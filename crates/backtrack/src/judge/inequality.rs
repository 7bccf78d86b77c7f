//! Inequality signs (BOJ 2529): `k` and k signs `<` or `>`; the answer is the
//! largest and the smallest k+1 distinct digits that obey them, each with all
//! its digits (a leading 0 included).
//!
//! There are only 1,020 inputs (2² + ... + 2⁹), so random cases are drawn
//! from all of them without repeats.

use std::io::Write;

use super::problem::{foreign, write_text};
use super::{AnswerError, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::solve_2529;

/// Signs in one input (`2 <= k <= 9`).
const K: (usize, usize) = (2, 9);

/// BOJ 2529.
#[derive(Debug)]
pub struct Inequality;

/// The signs of `text`, `<` for true.
fn signs(text: &str) -> Input {
    Input::Signs(text.bytes().map(|b| b == b'<').collect())
}

impl JudgeProblem for Inequality {
    fn id(&self) -> u32 {
        2529
    }

    fn title(&self) -> Title {
        Title { ko: "부등호", en: "largest and smallest digits obeying the inequality signs" }
    }

    fn limits(&self) -> Limits {
        super::limits(1, 256)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_text(solve_2529(input), out)
    }

    fn samples(&self) -> Vec<Input> {
        vec![signs("<>"), signs("><<<>>><<")]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("k2-less", signs("<<")),
            ("k2-greater", signs(">>")),
            ("all-less", signs("<<<<<<<<<")),
            ("all-greater", signs(">>>>>>>>>")),
            ("leading-zero", signs("<><><><><")),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let k = K.0 + rng.below(K.1 - K.0 + 1);
        Input::Signs((0..k).map(|_| rng.below(2) == 0).collect())
    }

    fn hard(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        // Most dead ends for a search that tries digits in order.
        vec![("greater-then-less", signs(">>>><<<<<")), ("less-then-greater", signs("<<<<>>>>>"))]
    }

    fn every_input(&self) -> Option<Vec<Input>> {
        let all =
            (K.0..=K.1).flat_map(|k| (0..1u32 << k).map(move |bits| (0..k).map(|i| bits >> i & 1 == 1).collect()));
        Some(all.map(Input::Signs).collect())
    }

    fn text(&self, input: &Input) -> String {
        let Input::Signs(signs) = input else { foreign(self.id(), input) };
        let words: Vec<&str> = signs.iter().map(|&less| if less { "<" } else { ">" }).collect();
        format!("{}\n{}\n", signs.len(), words.join(" "))
    }

    /// The first or the last sign dropped, then any one, then a `>` made `<`.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Signs(signs) = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        if signs.len() > K.0 {
            out.extend(super::shrink::drop_each(signs));
        }
        for i in (0..signs.len()).filter(|&i| !signs[i]) {
            let mut less = signs.clone();
            less[i] = true;
            out.push(less);
        }
        out.into_iter().map(Input::Signs).collect()
    }
}
