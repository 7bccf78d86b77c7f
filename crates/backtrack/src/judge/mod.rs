//! Test cases, checkers and verdicts for the judge problems, to test other
//! people's programs: the statement samples, edge cases at the limits of the
//! constraints, random cases from a seed and adversarial ones, each with its
//! input text and the expected answer; a checker that compares as the judge
//! does (or, for 2580, accepts any valid completion); the verdict of one run;
//! and the search for the smallest case that still fails the same way.
//!
//! Running programs is left to the caller, who hands back a [`Run`] for each
//! case: this module needs no processes, so any front end can use it.
//!
//! ```
//! use backtrack::judge::{Plan, Problem};
//!
//! let problem = Problem::new(9663).unwrap();
//! let cases = problem.cases(&Plan { seed: 1, random: 3, hard: false });
//! assert_eq!(cases[0].text, "8\n");
//! assert_eq!(cases[0].expected, "92\n");
//! assert!(problem.check(&cases[0], "92  \n\n").is_ok());
//! assert!(problem.check(&cases[0], "91\n").is_err());
//! ```

pub mod compare;
pub mod lotto;
pub mod nm;
pub mod queens;
pub mod sudoku;
pub mod sudominoku;

use std::fmt;
use std::time::{Duration, Instant};

pub use crate::sudoku::rng::Rng;

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

use crate::sudominoku::Puzzle;

/// The problems with cases and checkers, in the order `backtrack boj` lists them.
pub const IDS: [u32; 17] =
    [2580, 2239, 9663, 6603, 4574, 15649, 15650, 15651, 15652, 15654, 15655, 15656, 15657, 15663, 15664, 15665, 15666];

/// The typed input of one case; [`Problem::case`] writes it as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A 9x9 board, 81 cells row by row, 0 for a blank (2580, 2239).
    Sudoku(Vec<u8>),
    /// The board size N (9663).
    Queens(usize),
    /// The sets of one input, each increasing (6603).
    Lotto(Vec<Vec<u32>>),
    /// `N M` and the numbers of the second line, empty where there is none (the "N and M" series).
    NandM {
        /// N.
        n: usize,
        /// M.
        m: usize,
        /// The N numbers, in input order (empty for 15649-15652).
        values: Vec<u32>,
    },
    /// The puzzles of one input (4574).
    Sudominoku(Vec<Puzzle>),
}

impl Input {
    /// How big the case is, compared lexicographically: the shrinker only
    /// moves to strictly smaller cases, so it always ends.
    pub fn measure(&self) -> Vec<u64> {
        match self {
            Input::Sudoku(cells) => vec![cells.iter().filter(|&&c| c == 0).count() as u64],
            Input::Queens(n) => vec![*n as u64],
            Input::Lotto(sets) => vec![
                sets.len() as u64,
                sets.iter().map(|s| s.len() as u64).sum(),
                sets.iter().flatten().map(|&v| v as u64).sum(),
            ],
            Input::NandM { n, m, values } => vec![*n as u64, *m as u64, values.iter().map(|&v| v as u64).sum()],
            Input::Sudominoku(puzzles) => vec![puzzles.len() as u64, sudominoku::blanks(puzzles)],
        }
    }
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

/// The judge's limits for one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time.
    pub time: Duration,
    /// Peak memory, in bytes.
    pub memory: u64,
}

/// What the judge says about one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Time limit exceeded.
    TimeLimit,
    /// Memory limit exceeded.
    MemoryLimit,
    /// Runtime error: a signal or a non-zero exit status.
    RuntimeError,
    /// Output limit exceeded: far more output than the answer needs.
    OutputLimit,
}

impl Verdict {
    /// The usual two-letter code: `AC`, `WA`, `TLE`, `MLE`, `RE`, `OLE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::RuntimeError => "RE",
            Verdict::OutputLimit => "OLE",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// Why the runner stopped a program before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It ran past the time limit (CPU time, or a multiple of it in wall time).
    Time,
    /// Its peak memory passed the limit.
    Memory,
    /// It wrote more than [`Problem::output_cap`] bytes.
    Output,
}

/// What a runner saw of one run of a program on one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// How it ended.
    pub exit: Exit,
    /// Set when the runner killed it.
    pub stopped: Option<Stop>,
    /// CPU time (user and system), in seconds.
    pub seconds: f64,
    /// Peak resident memory, in bytes.
    pub memory: u64,
    /// Standard output (up to the cap).
    pub output: Vec<u8>,
}

/// A supported problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem {
    id: u32,
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sudoku { lex: bool },
    Queens,
    Lotto,
    NandM(nm::Variant),
    Sudominoku,
}

/// Bytes of output allowed beyond twice the expected answer.
const OUTPUT_SLACK: usize = 1 << 20;

/// MiB, in bytes.
const MIB: u64 = 1 << 20;

impl Problem {
    /// Problem `id`, or `None` when it is not one of [`IDS`].
    pub fn new(id: u32) -> Option<Problem> {
        let kind = match id {
            2580 => Kind::Sudoku { lex: false },
            2239 => Kind::Sudoku { lex: true },
            9663 => Kind::Queens,
            6603 => Kind::Lotto,
            4574 => Kind::Sudominoku,
            _ => Kind::NandM(nm::Variant::of(id)?),
        };
        Some(Problem { id, kind })
    }

    /// The judge's problem number.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// The judge's time and memory limits.
    pub fn limits(&self) -> Limits {
        let (seconds, mib) = match self.kind {
            Kind::Sudoku { lex: false } => (1, 256),
            Kind::Sudoku { lex: true } => (2, 256),
            Kind::Queens => (10, 128),
            Kind::Lotto => (1, 128),
            Kind::Sudominoku => (2, 128),
            Kind::NandM(_) => (1, 512),
        };
        Limits { time: Duration::from_secs(seconds), memory: mib * MIB }
    }

    /// The cases of `plan`: samples, edge cases, `plan.random` random cases
    /// and, with `plan.hard`, the adversarial ones; the same plan always
    /// gives the same cases. Inputs already listed are not repeated.
    pub fn cases(&self, plan: &Plan) -> Vec<Case> {
        let mut rng = Rng::new(plan.seed);
        let mut out: Vec<Case> = Vec::new();
        let push = |out: &mut Vec<Case>, name: String, origin: Origin, input: Input| {
            if !out.iter().any(|c| c.input == input) {
                out.push(self.case(name, origin, input));
            }
        };
        for (i, input) in self.samples().into_iter().enumerate() {
            push(&mut out, format!("sample-{}", i + 1), Origin::Sample, input);
        }
        // Edge cases come from their own generator, so that they do not depend on the seed.
        for (name, input) in self.edges(&mut Rng::new(0)) {
            push(&mut out, format!("edge-{name}"), Origin::Edge, input);
        }
        for i in 0..plan.random {
            let input = self.random(&mut rng);
            push(&mut out, format!("random-{}", i + 1), Origin::Random, input);
        }
        if plan.hard {
            for (name, input) in self.hard(&mut rng) {
                push(&mut out, format!("hard-{name}"), Origin::Hard, input);
            }
        }
        out
    }

    /// One random case from `seed`, as `--gen` prints it.
    pub fn generate(&self, seed: u64) -> Case {
        let input = self.random(&mut Rng::new(seed));
        self.case(format!("random-seed-{seed}"), Origin::Random, input)
    }

    fn samples(&self) -> Vec<Input> {
        match self.kind {
            Kind::Sudoku { lex } => sudoku::samples(lex),
            Kind::Queens => queens::samples(),
            Kind::Lotto => lotto::samples(),
            Kind::NandM(_) => nm::samples(self.id),
            Kind::Sudominoku => sudominoku::samples(),
        }
    }

    fn edges(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        match self.kind {
            Kind::Sudoku { .. } => sudoku::edges(rng),
            Kind::Queens => queens::edges(),
            Kind::Lotto => lotto::edges(),
            Kind::NandM(v) => nm::edges(&v),
            Kind::Sudominoku => sudominoku::edges(rng),
        }
    }

    fn random(&self, rng: &mut Rng) -> Input {
        match self.kind {
            Kind::Sudoku { lex } => sudoku::random(lex, rng),
            Kind::Queens => queens::random(rng),
            Kind::Lotto => lotto::random(rng),
            Kind::NandM(v) => nm::random(&v, rng),
            Kind::Sudominoku => sudominoku::random(rng),
        }
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        match self.kind {
            Kind::Sudoku { .. } => sudoku::hard(rng),
            Kind::Queens => queens::hard(),
            Kind::Lotto => lotto::hard(rng),
            Kind::NandM(v) => nm::hard(&v, rng),
            Kind::Sudominoku => sudominoku::hard(rng),
        }
    }

    /// A case of this problem from its input: the text and the expected answer.
    ///
    /// # Panics
    /// If `input` belongs to another kind of problem.
    pub fn case(&self, name: String, origin: Origin, input: Input) -> Case {
        let (text, expected) = match (self.kind, &input) {
            (Kind::Sudoku { lex }, Input::Sudoku(cells)) => (sudoku::text(lex, cells), sudoku::answer(lex, cells)),
            (Kind::Queens, &Input::Queens(n)) => (queens::text(n), queens::answer(n)),
            (Kind::Lotto, Input::Lotto(sets)) => (lotto::text(sets), lotto::answer(sets)),
            (Kind::NandM(v), Input::NandM { n, m, values }) => {
                (nm::text(&v, *n, *m, values), nm::answer(&v, *n, *m, values))
            }
            (Kind::Sudominoku, Input::Sudominoku(puzzles)) => (sudominoku::text(puzzles), sudominoku::answer(puzzles)),
            _ => panic!("{input:?} is not an input of problem {}", self.id),
        };
        Case { name, origin, input, text, expected }
    }

    /// Checks one output: `Ok` when the judge accepts it, else why not.
    /// Every problem but 2580 has one answer, compared as the judge does
    /// ([`compare::same`]); 2580 accepts any valid completion of the board.
    pub fn check(&self, case: &Case, got: &str) -> Result<(), Rejection> {
        if let (Kind::Sudoku { lex: false }, Input::Sudoku(cells)) = (self.kind, &case.input) {
            return sudoku::check_any(cells, got).map_err(Rejection);
        }
        if compare::same(&case.expected, got) {
            Ok(())
        } else {
            Err(Rejection(compare::short_diff(&case.expected, got)))
        }
    }

    /// Output beyond which a run is stopped with [`Verdict::OutputLimit`]:
    /// twice the expected answer and a mebibyte.
    pub fn output_cap(&self, case: &Case) -> usize {
        2 * case.expected.len() + OUTPUT_SLACK
    }

    /// The verdict on `run` under `limits`, and a line that explains it
    /// (empty for an accepted run).
    pub fn verdict(&self, case: &Case, run: &Run, limits: &Limits) -> (Verdict, String) {
        let over_time = run.seconds > limits.time.as_secs_f64();
        let over_memory = run.memory > limits.memory;
        let mib = |bytes: u64| bytes as f64 / MIB as f64;
        match run.stopped {
            Some(Stop::Time) => return (Verdict::TimeLimit, format!("stopped at {:.2} s of CPU time", run.seconds)),
            Some(Stop::Memory) => return (Verdict::MemoryLimit, format!("stopped at {:.1} MiB", mib(run.memory))),
            Some(Stop::Output) => {
                return (Verdict::OutputLimit, format!("stopped after {} bytes of output", run.output.len()))
            }
            None => {}
        }
        if over_memory {
            return (Verdict::MemoryLimit, format!("peak memory {:.1} MiB", mib(run.memory)));
        }
        match run.exit {
            Exit::Signal(signal) => return (Verdict::RuntimeError, format!("killed by signal {signal}")),
            Exit::Code(code) if code != 0 => return (Verdict::RuntimeError, format!("exit status {code}")),
            Exit::Code(_) => {}
        }
        if over_time {
            return (Verdict::TimeLimit, format!("{:.2} s of CPU time", run.seconds));
        }
        match self.check(case, &String::from_utf8_lossy(&run.output)) {
            Ok(()) => (Verdict::Accepted, String::new()),
            Err(why) => (Verdict::WrongAnswer, why.to_string()),
        }
    }

    /// Smaller versions of a case, the most promising first; each is
    /// strictly smaller by [`Input::measure`].
    pub fn shrink_candidates(&self, case: &Case) -> Vec<Case> {
        let inputs = match (self.kind, &case.input) {
            (Kind::Sudoku { lex }, Input::Sudoku(cells)) => sudoku::shrink(lex, cells),
            (Kind::Queens, &Input::Queens(n)) => queens::shrink(n),
            (Kind::Lotto, Input::Lotto(sets)) => lotto::shrink(sets),
            (Kind::NandM(v), Input::NandM { n, m, values }) => nm::shrink(&v, *n, *m, values),
            (Kind::Sudominoku, Input::Sudominoku(puzzles)) => sudominoku::shrink(puzzles),
            _ => panic!("{:?} is not an input of problem {}", case.input, self.id),
        };
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
fn halves<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() < 4 {
        return vec![];
    }
    let mid = items.len() / 2;
    vec![items[..mid].to_vec(), items[mid..].to_vec()]
}

/// `items` without one of them, for each.
fn drop_each<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    (0..items.len())
        .map(|i| {
            let mut fewer = items.to_vec();
            fewer.remove(i);
            fewer
        })
        .collect()
}

/// Why [`Problem::check`] did not accept an output: the first difference
/// from the expected answer, or the rule of the problem that it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection(String);

crate::error::message_error!(Rejection);
