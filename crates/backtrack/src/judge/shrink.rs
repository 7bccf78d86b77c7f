//! Shrinking a failing case: smaller candidates tried until none fails the
//! same way.

use std::time::{Duration, Instant};

use super::{Case, Origin, Problem, Verdict};

/// How much running the shrinker may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most runs of the program.
    pub runs: usize,
    /// Most time.
    pub time: Duration,
}

/// The result of [`Problem::shrink`].
#[derive(Debug, Clone)]
pub struct Shrunk<R> {
    /// The smallest failing case found (the original when none was smaller).
    pub case: Case,
    /// What `run` returned for that case (`None`: the original).
    pub result: Option<R>,
    /// Moves to a smaller case.
    pub steps: usize,
    /// Runs of the program.
    pub runs: usize,
    /// Whether no candidate of the final case fails the same way (`false`: the budget ran out first).
    pub complete: bool,
}

/// Each half of `items` (two candidates).
pub(super) fn halves<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() < 4 {
        return vec![];
    }
    let mid = items.len() / 2;
    vec![items[..mid].to_vec(), items[mid..].to_vec()]
}

/// `items` without one of them, for each.
pub(super) fn drop_each<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    (0..items.len())
        .map(|i| {
            let mut fewer = items.to_vec();
            fewer.remove(i);
            fewer
        })
        .collect()
}

impl Problem {
    /// Smaller versions of a case, the most promising first; each is
    /// strictly smaller by [`Input::measure`](super::Input::measure).
    pub fn shrink_candidates(&self, case: &Case) -> Vec<Case> {
        let inputs = self.0.shrink_input(&case.input);
        let size = case.input.measure();
        inputs
            .into_iter()
            .filter(|input| input.measure() < size)
            .map(|input| self.case(format!("{}-shrunk", case.name.trim_end_matches("-shrunk")), Origin::Shrunk, input))
            .collect()
    }

    /// Shrinks a failing case: tries the candidates of
    /// [`Problem::shrink_candidates`] in batches of `batch` (handed to `run`,
    /// which returns their verdicts and whatever it wants kept, in order),
    /// moves to the first one that fails with the same `verdict`, and starts
    /// over from there, until no candidate fails that way or the budget is
    /// spent.
    pub fn shrink<R>(
        &self,
        case: Case,
        verdict: Verdict,
        batch: usize,
        budget: Budget,
        mut run: impl FnMut(&[Case]) -> Vec<(Verdict, R)>,
    ) -> Shrunk<R> {
        let started = Instant::now();
        let mut shrunk = Shrunk { case, result: None, steps: 0, runs: 0, complete: true };
        'outer: loop {
            let candidates = self.shrink_candidates(&shrunk.case);
            for chunk in candidates.chunks(batch.max(1)) {
                if shrunk.runs >= budget.runs || started.elapsed() >= budget.time {
                    shrunk.complete = false;
                    break 'outer;
                }
                let results = run(chunk);
                shrunk.runs += chunk.len();
                if let Some(i) = results.iter().position(|(v, _)| *v == verdict) {
                    let result = results.into_iter().nth(i).map(|(_, r)| r);
                    shrunk.case = chunk[i].clone();
                    shrunk.result = result;
                    shrunk.steps += 1;
                    continue 'outer;
                }
            }
            break;
        }
        shrunk
    }
}
