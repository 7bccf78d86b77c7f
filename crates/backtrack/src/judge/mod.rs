//! Test cases, checkers and verdicts for the judge problems, to test other
//! people's programs: the statement samples, edge cases at the limits of the
//! constraints, random cases from a seed and adversarial ones, each with its
//! input text and the expected answer; a checker that compares as the judge
//! does (or, for 2580, accepts any valid completion); the verdict of one run;
//! and the search for the smallest case that still fails the same way.
//!
//! Each problem is one implementation of [`JudgeProblem`] (its answer, its
//! cases, its checker, its shrinking), listed once in [`PROBLEMS`], which
//! both `backtrack boj` and `backtrack judge` use; [`Problem`] builds the
//! plan of cases, the verdicts and the shrinking on top of it.
//!
//! Running programs is left to the caller, who hands back a [`Run`] for each
//! case: this module needs no processes, so any front end can use it.
//!
//! ```
//! use backtrack::judge::{Plan, Problem};
//!
//! let problem = Problem::new(9663).unwrap();
//! let cases: Vec<_> = problem.cases(&Plan { seed: 1, random: 3, hard: false }).collect();
//! assert_eq!(cases.len(), 1 + 4 + 3);
//! assert_eq!(cases[0].text, "8\n");
//! assert_eq!(cases[0].expected, "92\n");
//! assert!(problem.check(&cases[0], "92  \n\n").is_ok());
//! assert!(problem.check(&cases[0], "91\n").is_err());
//! ```

pub mod alphabet;
pub mod cases;
pub mod compare;
pub mod difference;
pub mod inequality;
pub mod lotto;
pub mod nm;
pub mod operators;
pub mod password;
pub mod problem;
pub mod queens;
pub mod shrink;
pub mod stress;
pub mod subset_sum;
pub mod sudoku;
pub mod sudominoku;
pub mod teams;
pub mod tsp;
pub mod verdict;

use std::fmt;
use std::ops::Deref;

pub use crate::rng::Rng;
pub use cases::Cases;
pub use problem::{AnswerError, Input, JudgeProblem, Title};
pub use shrink::{Budget, Shrunk};
pub use verdict::{Exit, Limits, Rejection, Run, Stop, Verdict};

use crate::lang::Lang;
use verdict::MIB;

/// Draws the judge's generators need beyond [`Rng`]'s own.
trait Draw {
    /// A number in `low..=high`.
    fn range(&mut self, low: u64, high: u64) -> u64;
    /// `k` distinct numbers of `low..=high`, increasing.
    fn subset(&mut self, k: usize, low: u64, high: u64) -> Vec<u64>;
}

impl Draw for Rng {
    fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.below((high - low + 1) as usize) as u64
    }

    fn subset(&mut self, k: usize, low: u64, high: u64) -> Vec<u64> {
        let mut all: Vec<u64> = (low..=high).collect();
        self.shuffle(&mut all);
        all.truncate(k);
        all.sort_unstable();
        all
    }
}

/// Every problem, in the order `backtrack boj` lists them.
pub static PROBLEMS: &[&dyn JudgeProblem] = &[
    &sudoku::Sudoku { lex: false },
    &sudoku::Sudoku { lex: true },
    &queens::Queens,
    &lotto::Lotto,
    &sudominoku::Sudominoku,
    &nm::NandM { id: 15649 },
    &nm::NandM { id: 15650 },
    &nm::NandM { id: 15651 },
    &nm::NandM { id: 15652 },
    &nm::NandM { id: 15654 },
    &nm::NandM { id: 15655 },
    &nm::NandM { id: 15656 },
    &nm::NandM { id: 15657 },
    &nm::NandM { id: 15663 },
    &nm::NandM { id: 15664 },
    &nm::NandM { id: 15665 },
    &nm::NandM { id: 15666 },
    &operators::Operators { exact: true },
    &operators::Operators { exact: false },
    &teams::Teams { equal: true },
    &teams::Teams { equal: false },
    &subset_sum::SubsetSum,
    &password::Password,
    &inequality::Inequality,
    &difference::Difference,
    &tsp::Tsp,
    &alphabet::Alphabet,
];

/// The numbers of [`PROBLEMS`], in their order.
pub fn ids() -> impl Iterator<Item = u32> {
    PROBLEMS.iter().map(|p| p.id())
}

/// Where a case comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A sample of the problem statement.
    Sample,
    /// An edge case at a limit of the constraints.
    Edge,
    /// A random case from the seed.
    Random,
    /// An adversarial case (`--hard`).
    Hard,
    /// A smaller case found while shrinking a failing one.
    Shrunk,
}

/// One test case: its input as data and as text, and the expected answer
/// (for 2580, one valid answer among possibly many).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// A name usable as a file name: `sample-1`, `edge-empty-board`, `random-3`...
    pub name: String,
    /// Where it comes from.
    pub origin: Origin,
    /// The input as data.
    pub input: Input,
    /// The input as the judge gives it.
    pub text: String,
    /// The expected output.
    pub expected: String,
}

/// Which cases [`Problem::cases`] makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Seed of the random and adversarial cases.
    pub seed: u64,
    /// How many random cases.
    pub random: usize,
    /// Add the adversarial cases.
    pub hard: bool,
}

/// A supported problem: one of [`PROBLEMS`], with the machinery every
/// problem shares (the plan of cases, checking, verdicts, shrinking). It
/// dereferences to its [`JudgeProblem`].
#[derive(Clone, Copy)]
pub struct Problem(&'static dyn JudgeProblem);

impl fmt::Debug for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Problem").field(&self.0.id()).finish()
    }
}

impl PartialEq for Problem {
    fn eq(&self, other: &Problem) -> bool {
        self.0.id() == other.0.id()
    }
}

impl Eq for Problem {}

impl Deref for Problem {
    type Target = dyn JudgeProblem;

    fn deref(&self) -> &(dyn JudgeProblem + 'static) {
        self.0
    }
}

/// Bytes of output allowed beyond twice the expected answer.
const OUTPUT_SLACK: usize = 1 << 20;

impl Problem {
    /// Problem `id`, or `None` when it is not one of [`PROBLEMS`].
    pub fn new(id: u32) -> Option<Problem> {
        PROBLEMS.iter().find(|p| p.id() == id).map(|&p| Problem(p))
    }

    /// Every problem, in the order of [`PROBLEMS`].
    pub fn all() -> impl Iterator<Item = Problem> {
        PROBLEMS.iter().map(|&p| Problem(p))
    }

    /// One random case from `seed`, as `--gen` prints it.
    pub fn generate(&self, seed: u64) -> Case {
        let input = self.random(&mut Rng::new(seed));
        self.case(format!("random-seed-{seed}"), Origin::Random, input)
    }

    /// A case of this problem from its input: the text and the expected answer.
    ///
    /// # Panics
    /// If `input` belongs to another kind of problem.
    pub fn case(&self, name: String, origin: Origin, input: Input) -> Case {
        let text = self.text(&input);
        let expected = self.expected(&input);
        Case { name, origin, input, text, expected }
    }

    /// Checks one output: `Ok` when the judge accepts it, else why not.
    /// Most problems have one answer, compared as the judge does
    /// ([`compare::same`]); 2580 accepts any valid completion of the board.
    pub fn check(&self, case: &Case, got: &str) -> Result<(), Rejection> {
        self.check_in(Lang::En, case, got)
    }

    /// [`check`](Self::check), the difference in `lang`'s words (what 2580
    /// and 2239 say of a board stays in English).
    pub fn check_in(&self, lang: Lang, case: &Case, got: &str) -> Result<(), Rejection> {
        self.check_output(lang, &case.input, &case.expected, got)
    }

    /// Output beyond which a run is stopped with [`Verdict::OutputLimit`]:
    /// twice the expected answer and a mebibyte.
    pub fn output_cap(&self, case: &Case) -> usize {
        2 * case.expected.len() + OUTPUT_SLACK
    }

    /// The verdict on `run` under `limits`, and a line that explains it
    /// (empty for an accepted run), in English.
    pub fn verdict(&self, case: &Case, run: &Run, limits: &Limits) -> (Verdict, String) {
        self.verdict_in(Lang::En, case, run, limits)
    }

    /// [`verdict`](Self::verdict), with the explanation in `lang` (see
    /// [`check_in`](Self::check_in)).
    pub fn verdict_in(&self, lang: Lang, case: &Case, run: &Run, limits: &Limits) -> (Verdict, String) {
        Problem::verdict_with(lang, run, limits, || self.check_in(lang, case, &String::from_utf8_lossy(&run.output)))
    }

    /// The verdict on `run` under `limits` as [`Problem::verdict_in`] gives it,
    /// for any problem: the limits and the exit status first, then, for a
    /// run that ended cleanly within them, `check` on its output.
    pub fn verdict_with(
        lang: Lang,
        run: &Run,
        limits: &Limits,
        check: impl FnOnce() -> Result<(), Rejection>,
    ) -> (Verdict, String) {
        verdict::verdict_with(lang, run, limits, check)
    }
}

/// The judge's limits of `seconds` and `mib`.
fn limits(seconds: u64, mib: u64) -> Limits {
    Limits { time: std::time::Duration::from_secs(seconds), memory: mib * MIB }
}
