//! The cases of a plan, made one at a time as they are asked for.

use std::collections::{HashSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{Case, Input, Origin, Plan, Problem, Rng};

/// Draws in a row that may give an input already given before the random
/// cases end: far more than any problem with too many inputs to list needs.
const MOST_DRAWS: usize = 10_000;

/// A fingerprint of an input's text, to tell inputs apart without keeping them.
pub(super) fn fingerprint(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

impl Problem {
    /// The cases of `plan`: samples, edge cases, `plan.random` random cases
    /// and, with `plan.hard`, the adversarial ones, made one at a time as
    /// they are asked for (memory does not grow with `plan.random`). The
    /// same plan always gives the same cases, and no input comes twice: a
    /// random input already given is drawn again, and where the problem has
    /// fewer distinct inputs than asked for, [`Cases::random_count`] says
    /// how many random cases there are.
    pub fn cases(&self, plan: &Plan) -> Cases {
        let mut fixed = VecDeque::new();
        let mut seen = HashSet::new();
        for (i, input) in self.samples().into_iter().enumerate() {
            fixed.push_back((format!("sample-{}", i + 1), Origin::Sample, input));
        }
        // Edge cases come from their own generator, so that they do not depend on the seed.
        for (name, input) in self.edges(&mut Rng::new(0)) {
            fixed.push_back((format!("edge-{name}"), Origin::Edge, input));
        }
        fixed.retain(|(_, _, input)| seen.insert(fingerprint(&self.text(input))));
        // Where every input can be listed, random cases are drawn from those not
        // used yet (the hard ones of such problems do not depend on the seed).
        let unused = self.every_input().map(|all| {
            let hard: Vec<Input> = if plan.hard {
                self.hard(&mut Rng::new(plan.seed)).into_iter().map(|(_, input)| input).collect()
            } else {
                Vec::new()
            };
            all.into_iter().filter(|i| !hard.contains(i) && !seen.contains(&fingerprint(&self.text(i)))).collect()
        });
        let random = unused.as_ref().map_or(plan.random, |u: &Vec<Input>| u.len().min(plan.random));
        Cases {
            problem: *self,
            rng: Rng::new(plan.seed),
            fixed,
            seen,
            unused,
            random,
            asked: plan.random,
            made: 0,
            hard: plan.hard,
        }
    }
}

/// The cases of a [`Plan`], made one at a time: see [`Problem::cases`].
#[derive(Debug)]
pub struct Cases {
    problem: Problem,
    rng: Rng,
    /// Samples and edge cases not given yet.
    fixed: VecDeque<(String, Origin, Input)>,
    /// Fingerprints of the inputs given so far.
    seen: HashSet<u64>,
    /// For problems whose inputs can be listed: those not given yet.
    unused: Option<Vec<Input>>,
    /// Random cases to give.
    random: usize,
    /// Random cases asked for.
    asked: usize,
    /// Random cases given so far.
    made: usize,
    /// Whether the hard cases are still to come.
    hard: bool,
}

impl Cases {
    /// How many random cases there are: those asked for, or fewer where the
    /// problem has fewer distinct inputs left after the samples, the edge
    /// and the hard cases.
    pub fn random_count(&self) -> usize {
        self.random
    }

    /// How many random cases were asked for.
    pub fn random_asked(&self) -> usize {
        self.asked
    }

    /// Samples, edge and random cases still to come (the hard cases, a few,
    /// are not counted).
    pub fn remaining(&self) -> usize {
        self.fixed.len() + self.random - self.made
    }

    /// The length of the longest name among the samples, edge and random
    /// cases still to come (the hard cases' names may be longer).
    pub fn name_width(&self) -> usize {
        let random = if self.random > self.made { format!("random-{}", self.random).len() } else { 0 };
        self.fixed.iter().map(|(name, _, _)| name.len()).fold(random, usize::max)
    }

    /// A random input not given yet, if there is one.
    fn draw(&mut self) -> Option<Input> {
        if let Some(unused) = &mut self.unused {
            if unused.is_empty() {
                return None;
            }
            let i = self.rng.below(unused.len());
            return Some(unused.swap_remove(i));
        }
        for _ in 0..MOST_DRAWS {
            let input = self.problem.random(&mut self.rng);
            if self.seen.insert(fingerprint(&self.problem.text(&input))) {
                return Some(input);
            }
        }
        None
    }
}

impl Iterator for Cases {
    type Item = Case;

    fn next(&mut self) -> Option<Case> {
        if let Some((name, origin, input)) = self.fixed.pop_front() {
            return Some(self.problem.case(name, origin, input));
        }
        if self.made < self.random {
            match self.draw() {
                Some(input) => {
                    self.made += 1;
                    return Some(self.problem.case(format!("random-{}", self.made), Origin::Random, input));
                }
                // Only a problem whose inputs cannot be listed gets here, and none does in practice.
                None => self.random = self.made,
            }
        }
        if std::mem::take(&mut self.hard) {
            for (name, input) in self.problem.hard(&mut self.rng) {
                if self.seen.insert(fingerprint(&self.problem.text(&input))) {
                    self.fixed.push_back((format!("hard-{name}"), Origin::Hard, input));
                }
            }
            return self.next();
        }
        None
    }
}
