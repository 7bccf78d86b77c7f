//! N-Queen (BOJ 9663): one integer N, the answer is the number of placements.

use std::io::Write;

use super::problem::foreign;
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::queens;
use crate::search::Threads;

/// Largest N on the judge (`1 <= N < 15`).
pub const MAX_N: usize = 14;

/// BOJ 9663.
#[derive(Debug)]
pub struct Queens;

impl JudgeProblem for Queens {
    fn id(&self) -> u32 {
        9663
    }

    fn title(&self) -> Title {
        Title { ko: "N-Queen", en: "N-Queen: count placements" }
    }

    fn limits(&self) -> Limits {
        super::limits(10, 128)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        let n = queens::parse_board_size(input)?;
        let counts = queens::count(n, Threads::available()).map_err(|e| AnswerError::Unsolvable(e.to_string()))?;
        writeln!(out, "{}", counts.total)?;
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        vec![Input::Queens(8)]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("n1", Input::Queens(1)),
            ("n2", Input::Queens(2)),
            ("n3", Input::Queens(3)),
            ("max", Input::Queens(MAX_N)),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        Input::Queens(rng.range(1, MAX_N as u64) as usize)
    }

    fn hard(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        // Every N is small; the slowest ones are the adversarial ones.
        vec![("n12", Input::Queens(12)), ("n13", Input::Queens(13))]
    }

    fn every_input(&self) -> Option<Vec<Input>> {
        Some((1..=MAX_N).map(Input::Queens).collect())
    }

    fn text(&self, input: &Input) -> String {
        match input {
            Input::Queens(n) => format!("{n}\n"),
            _ => foreign(self.id(), input),
        }
    }

    /// Every smaller board, smallest first.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        match input {
            &Input::Queens(n) => (1..n).map(Input::Queens).collect(),
            _ => foreign(self.id(), input),
        }
    }
}
