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
//! let cases: Vec<_> = problem.cases(&Plan { seed: 1, random: 3, hard: false }).collect();
//! assert_eq!(cases.len(), 1 + 4 + 3);
//! assert_eq!(cases[0].text, "8\n");
//! assert_eq!(cases[0].expected, "92\n");
//! assert!(problem.check(&cases[0], "92  \n\n").is_ok());
//! assert!(problem.check(&cases[0], "91\n").is_err());
//! ```

pub mod compare;
pub mod lotto;
pub mod nm;
pub mod queens;
pub mod stress;
pub mod sudoku;
pub mod sudominoku;

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
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

use crate::lang::{Detail, Lang};
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

impl Limits {
    /// The wall-clock time after which a run is stopped: five times the CPU
    /// time limit plus two seconds. A program that sleeps or waits for
    /// input uses no CPU time; the margin is for a busy machine, where a
    /// program may get only a fraction of a core.
    pub fn wall(&self) -> Duration {
        self.time * 5 + Duration::from_secs(2)
    }
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
    /// Every verdict, accepted first.
    pub const ALL: [Verdict; 6] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::OutputLimit,
    ];

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
    /// Its CPU time passed the time limit.
    CpuTime,
    /// Its wall-clock time passed [`Limits::wall`] (it slept or waited, using little CPU).
    WallTime,
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
    /// Wall-clock time, in seconds.
    pub wall: f64,
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

    /// Every input of the problem, where there are few enough to list (9663,
    /// and the "N and M" problems without a line of numbers).
    pub fn every_input(&self) -> Option<Vec<Input>> {
        match self.kind {
            Kind::Queens => Some((1..=queens::MAX_N).map(Input::Queens).collect()),
            Kind::NandM(v) if !v.given => {
                Some((1..=v.max_n).flat_map(|n| (1..=n).map(move |m| Input::NandM { n, m, values: vec![] })).collect())
            }
            _ => None,
        }
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
        let text = self.text(&input);
        let expected = match (self.kind, &input) {
            (Kind::Sudoku { lex }, Input::Sudoku(cells)) => sudoku::answer(lex, cells),
            (Kind::Queens, &Input::Queens(n)) => queens::answer(n),
            (Kind::Lotto, Input::Lotto(sets)) => lotto::answer(sets),
            (Kind::NandM(v), Input::NandM { n, m, values }) => nm::answer(&v, *n, *m, values),
            (Kind::Sudominoku, Input::Sudominoku(puzzles)) => sudominoku::answer(puzzles),
            _ => self.foreign(&input),
        };
        Case { name, origin, input, text, expected }
    }

    /// The input as the judge gives it.
    fn text(&self, input: &Input) -> String {
        match (self.kind, input) {
            (Kind::Sudoku { lex }, Input::Sudoku(cells)) => sudoku::text(lex, cells),
            (Kind::Queens, &Input::Queens(n)) => queens::text(n),
            (Kind::Lotto, Input::Lotto(sets)) => lotto::text(sets),
            (Kind::NandM(v), Input::NandM { n, m, values }) => nm::text(&v, *n, *m, values),
            (Kind::Sudominoku, Input::Sudominoku(puzzles)) => sudominoku::text(puzzles),
            _ => self.foreign(input),
        }
    }

    fn foreign(&self, input: &Input) -> ! {
        panic!("{input:?} is not an input of problem {}", self.id)
    }

    /// Checks one output: `Ok` when the judge accepts it, else why not.
    /// Every problem but 2580 has one answer, compared as the judge does
    /// ([`compare::same`]); 2580 accepts any valid completion of the board.
    pub fn check(&self, case: &Case, got: &str) -> Result<(), Rejection> {
        self.check_in(Lang::En, case, got)
    }

    /// [`check`](Self::check), the difference in `lang`'s words (what 2580
    /// and 2239 say of a board stays in English).
    pub fn check_in(&self, lang: Lang, case: &Case, got: &str) -> Result<(), Rejection> {
        if let (Kind::Sudoku { lex: false }, Input::Sudoku(cells)) = (self.kind, &case.input) {
            return sudoku::check_any(false, cells, got).map_err(Rejection);
        }
        if compare::same(&case.expected, got) {
            return Ok(());
        }
        let diff = compare::short_diff_in(lang, &case.expected, got);
        if let (Kind::Sudoku { lex: true }, Input::Sudoku(cells)) = (self.kind, &case.input) {
            if sudoku::check_any(true, cells, got).is_ok() {
                return Err(Rejection(format!("{}\n{diff}", sudoku::not_smallest(&case.expected, got))));
            }
        }
        Err(Rejection(diff))
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
        let over_time = run.seconds > limits.time.as_secs_f64();
        let over_memory = run.memory > limits.memory;
        let mib = |bytes: u64| bytes as f64 / MIB as f64;
        let time_limit = limits.time.as_secs_f64();
        let memory_limit = mib(limits.memory);
        let (verdict, detail) = match run.stopped {
            Some(Stop::CpuTime) => (Verdict::TimeLimit, Detail::CpuStopped { seconds: run.seconds, limit: time_limit }),
            Some(Stop::WallTime) => (
                Verdict::TimeLimit,
                Detail::WallStopped { wall: run.wall, limit: limits.wall().as_secs_f64(), cpu: run.seconds },
            ),
            Some(Stop::Memory) => {
                (Verdict::MemoryLimit, Detail::MemoryStopped { mib: mib(run.memory), limit: memory_limit })
            }
            Some(Stop::Output) => (Verdict::OutputLimit, Detail::OutputStopped { bytes: run.output.len() }),
            None if over_memory => {
                (Verdict::MemoryLimit, Detail::PeakMemory { mib: mib(run.memory), limit: memory_limit })
            }
            None => match run.exit {
                Exit::Signal(signal) => (Verdict::RuntimeError, Detail::Signal(signal)),
                Exit::Code(code) if code != 0 => (Verdict::RuntimeError, Detail::ExitStatus(code)),
                Exit::Code(_) if over_time => {
                    (Verdict::TimeLimit, Detail::CpuTime { seconds: run.seconds, limit: time_limit })
                }
                Exit::Code(_) => {
                    return match check() {
                        Ok(()) => (Verdict::Accepted, String::new()),
                        Err(why) => (Verdict::WrongAnswer, why.to_string()),
                    }
                }
            },
        };
        (verdict, lang.detail(detail))
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
            _ => self.foreign(&case.input),
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

/// Draws in a row that may give an input already given before the random
/// cases end: far more than any problem with too many inputs to list needs.
const MOST_DRAWS: usize = 10_000;

/// A fingerprint of an input's text, to tell inputs apart without keeping them.
fn fingerprint(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
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
