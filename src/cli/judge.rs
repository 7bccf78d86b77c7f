//! `backtrack judge ID -- PROGRAM`: runs a program on the cases of a judge
//! problem, gives each run the judge's verdict, and shrinks a failing case.
//! Cases, checkers and shrinking come from `backtrack::judge`; running a
//! program under limits is [`run`].

mod run;
mod stress;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use backtrack::json;
use backtrack::judge::compare::visible;
use backtrack::judge::{Budget, Case, Cases, Limits, Plan, Problem, Verdict};
use backtrack::lang::{display_width, pad, Heading, Lang, Message};
use backtrack::search::{self, Feed, Threads};

use super::{stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Test a program of yours on a judge problem: samples, edge cases, random and adversarial cases,
/// with the judge's verdicts and the smallest failing case.
///
/// The program reads one input on standard input and writes its answer on standard output, as on
/// the judge. Each case gets AC (accepted), WA (wrong answer), TLE (CPU time over the limit, or
/// wall-clock time over five times it plus 2 s: the verdict says which), MLE (peak resident memory
/// over the limit), RE (signal or non-zero exit) or OLE (far more output than the answer). Cases
/// are made as they run, and their verdicts printed as they come. Outputs are compared as the judge
/// does: trailing spaces and blank lines at the end are ignored; 2580 accepts any valid completion.
/// On a failure the failing case is shrunk while the verdict stays the same, then shown with the
/// expected and received output (the first lines, long lines cut, control characters escaped) and
/// a command that reproduces it. Ctrl-C, SIGTERM or any other way out kills the programs still
/// running. Exit status: 0 every case accepted, 1 some case was not, 2 bad usage, 3 a failure of
/// the judge itself, 130 interrupted.
#[derive(clap::Args, Debug)]
#[command(after_help = format!("Problems: {}\n\nExamples:\n  \
    backtrack judge 9663 -- ./queens                     samples, edge and random cases\n  \
    backtrack judge 2580 --hard -- python3 sudoku.py     add boards built against naive search\n  \
    backtrack judge 6603 --seed 7 --cases 50 -- ./lotto  other random cases, more of them\n  \
    backtrack judge 15649 --json -- ./nm                 last line: one JSON object\n  \
    backtrack judge 2239 --save tests/                   NAME.in / NAME.out for `oj test -d tests/`\n  \
    backtrack judge 4574 --gen --seed 3                  print one random input\n  \
    backtrack judge --gen 'sh gen.sh {{seed}}' --reference ./brute -- ./mine  stress test: any problem",
    backtrack::judge::ids().map(|id| id.to_string()).collect::<Vec<_>>().join(" ")))]
pub struct Args {
    /// Problem number, e.g. 9663 (see `backtrack boj --help`); none with --reference.
    pub id: Option<u32>,
    /// Seed of the random and adversarial cases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of random cases, each input different from every other case; a problem with fewer
    /// inputs left (9663 has 14 in all) gives them all and says so.
    /// With --reference: seeds to try (default 100).
    #[arg(long = "cases", value_name = "K")]
    pub random: Option<usize>,
    /// Add adversarial cases: boards against naive search, the largest outputs.
    #[arg(long)]
    pub hard: bool,
    /// CPU time limit in seconds (default: the problem's).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Memory limit in MiB (default: the problem's).
    #[arg(long, value_name = "MIB")]
    pub memory_limit: Option<u64>,
    /// Programs run at once (0 or absent: one per core).
    #[arg(short, long, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub jobs: Option<u32>,
    /// Most runs spent shrinking a failing case (0: do not shrink).
    #[arg(long, value_name = "RUNS", default_value_t = 500)]
    pub shrink_runs: usize,
    /// Most seconds spent shrinking a failing case (0 to 86400).
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub shrink_time: f64,
    /// Print one JSON object as the last line (`got`: the first 4 KiB of the failing output,
    /// `got_bytes`: how many bytes it had).
    #[arg(long)]
    pub json: bool,
    /// Write every case to DIR as NAME.in and NAME.out (online-judge-tools' layout); with a
    /// program, the smallest failing case too, as failing.in / failing.out. For 2580, .out is one
    /// valid answer among possibly many.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Print one random input generated from --seed, and stop. With --reference: the generator's
    /// shell command, `{seed}` replaced by the seed (or the seed added last).
    #[arg(long, value_name = "COMMAND", num_args = 0..=1)]
    pub gen: Option<Option<String>>,
    /// Stress test: the shell command of a reference program, run on each generated input.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["hard", "json"])]
    pub reference: Option<String>,
    /// With --reference: a shell command run as `COMMAND INPUT OUTPUT ANSWER` (files: the input,
    /// the program's output, the reference's); exit status 0 accepts.
    #[arg(long, value_name = "COMMAND", requires = "reference")]
    pub checker: Option<String>,
    /// With --reference: a shell command that reads an input on standard input and exits 0 when
    /// it is valid; shrinking keeps to valid inputs.
    #[arg(long, value_name = "COMMAND", requires = "reference")]
    pub validator: Option<String>,
    /// The program to test and its arguments, after `--`.
    #[arg(last = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
    #[arg(long, value_name = "LANG", value_parser = super::parse_lang, help = super::lang_help!())]
    pub lang: Option<Lang>,
    /// Start PROGRAM for a judge and report on descriptor 3 (the judge's own use).
    #[arg(long, hide = true)]
    pub launch: bool,
}

/// The result of one case: the verdict and its explanation, the run.
struct Judged {
    verdict: Verdict,
    detail: String,
    outcome: run::Outcome,
    /// Bytes of output received (the outcome keeps the first [`KEPT_OUTPUT`]).
    output_bytes: usize,
}

/// Bytes of a run's output kept once it is judged: what the report and the JSON line show.
const KEPT_OUTPUT: usize = 4 << 10;

/// Most seconds `--shrink-time` takes.
const MOST_SHRINK_SECONDS: f64 = 86_400.0;

/// Runs `backtrack judge`, speaking `lang`.
pub fn run(args: Args, lang: Lang) -> CliResult {
    if args.launch {
        return run::launch(&args.program);
    }
    if args.reference.is_some() {
        return stress::test(args, lang);
    }
    let Some(id) = args.id else {
        return Err(CliError::Input("give a problem number, or --gen and --reference for a stress test".into()));
    };
    if args.gen.as_ref().is_some_and(|g| g.is_some()) {
        return Err(CliError::Input("--gen COMMAND needs --reference; for a problem's own input: --gen alone".into()));
    }
    if args.gen.is_some() && (args.save.is_some() || args.json || args.hard) {
        return Err(CliError::Input("--gen prints one input: it takes no --save, --json or --hard".into()));
    }
    let problem = Problem::new(id).ok_or_else(|| {
        let ids = backtrack::judge::ids().map(|id| id.to_string()).collect::<Vec<_>>().join(" ");
        CliError::Input(lang.say(Message::NoJudge { id, ids: &ids }))
    })?;
    let mut out = stdout();
    if args.gen.is_some() {
        out.write_all(problem.generate(args.seed).text.as_bytes())?;
        out.flush()?;
        return Ok(EXIT_OK);
    }
    let limits = checked_limits(&args, problem.limits(), lang)?;
    if args.program.is_empty() && args.save.is_none() {
        return Err(CliError::Input(lang.say(Message::NoProgram)));
    }
    let mut cases = problem.cases(&Plan { seed: args.seed, random: args.random.unwrap_or(10), hard: args.hard });
    if args.program.is_empty() {
        let dir = args.save.as_deref().expect("checked above");
        create_dir(dir, lang)?;
        let mut written = 0;
        for case in cases.by_ref() {
            if run::stop_requested() {
                return Err(CliError::Interrupted(lang.say(Message::InterruptedWriting(written))));
            }
            write_pair(dir, &case.name, &case, lang)?;
            written += 1;
        }
        if let Some(note) = fewer_note(&problem, &cases, args.hard, lang) {
            writeln!(out, "{note}")?;
        }
        let dir = dir.display().to_string();
        writeln!(out, "{}", lang.say(Message::CasesWritten { count: written, dir: &dir }))?;
        out.flush()?;
        return Ok(EXIT_OK);
    }
    if let Some(dir) = &args.save {
        create_dir(dir, lang)?;
    }
    let jobs = Threads::from_count(args.jobs.unwrap_or(0) as usize).map_err(|e| CliError::Input(e.to_string()))?;
    // From here on, every way out kills the programs still running.
    run::end_all_on_exit();

    let bar = progress(cases.remaining() as u64);
    let name_width = cases.name_width();
    let mut tally = Tally::default();
    let run = Runner { problem: &problem, program: &args.program, limits: &limits, jobs, lang };
    run.all(&mut cases, args.save.as_deref(), |case, judged| {
        let line = case_line(&case, &judged, name_width, lang);
        match &bar {
            Some(bar) => {
                bar.suspend(|| writeln!(out, "{line}").and_then(|()| out.flush()))?;
                if bar.position() >= bar.length().unwrap_or(0) {
                    bar.inc_length(1);
                }
                bar.inc(1);
            }
            None => {
                writeln!(out, "{line}")?;
                out.flush()?;
            }
        }
        tally.add(case, judged);
        Ok(())
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(note) = fewer_note(&problem, &cases, args.hard, lang) {
        writeln!(out, "{note}")?;
    }

    let verdict = tally.verdict.unwrap_or(Verdict::Accepted);
    summary(&mut out, &problem, &tally, verdict, &limits, lang)?;
    let mut failing = None;
    if let Some((start_case, start)) = tally.start.take() {
        // Shrink the smallest case that failed the way the first one did.
        let budget = Budget { runs: args.shrink_runs, time: Duration::from_secs_f64(args.shrink_time) };
        let mut failed = None;
        let shrunk = problem.shrink(start_case.clone(), verdict, jobs.get(), budget, |batch| {
            let mut found = Vec::with_capacity(batch.len());
            if failed.is_none() {
                let ran = run.all(&mut batch.iter().cloned(), None, |_, judged| {
                    found.push((judged.verdict, judged));
                    Ok(())
                });
                if let Err(e) = ran {
                    failed = Some(e);
                    found.clear();
                }
            }
            found
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let case = &shrunk.case;
        let judged = shrunk.result.as_ref().unwrap_or(&start);
        report(&mut out, &problem, case, judged, &shrunk, &args.program, lang)?;
        if let Some(dir) = &args.save {
            write_pair(dir, "failing", case, lang)?;
        }
        failing =
            Some((case.clone(), judged.outcome.run.seconds, judged.outcome.run.output.clone(), judged.output_bytes));
    }
    if args.json {
        let summary = json::JudgeSummary {
            problem: problem.id(),
            verdict: verdict.code(),
            cases: tally.cases,
            failing: failing.map(|(case, seconds, got, bytes)| json::JudgeFailing {
                input: case.text,
                expected: case.expected,
                got: String::from_utf8_lossy(&got).into_owned(),
                got_bytes: bytes,
                seconds: json::rounded(seconds, 3),
            }),
        };
        let mut line = Vec::new();
        json::write_line(&mut line, &summary);
        out.write_all(&line)?;
    }
    out.flush()?;
    Ok(if verdict == Verdict::Accepted { EXIT_OK } else { EXIT_NO_SOLUTION })
}

/// `limits` with --time-limit and --memory-limit applied, once they and
/// --shrink-time are checked.
fn checked_limits(args: &Args, mut limits: Limits, lang: Lang) -> Result<Limits, CliError> {
    if let Some(seconds) = args.time_limit {
        if !(seconds > 0.0 && seconds <= 3600.0) {
            return Err(CliError::Input(lang.say(Message::TimeLimitRange(seconds))));
        }
        limits.time = Duration::from_secs_f64(seconds);
    }
    if let Some(mib) = args.memory_limit {
        if !(1..=1 << 20).contains(&mib) {
            return Err(CliError::Input(lang.say(Message::MemoryLimitRange(mib))));
        }
        limits.memory = mib << 20;
    }
    if !(0.0..=MOST_SHRINK_SECONDS).contains(&args.shrink_time) {
        return Err(CliError::Input(
            lang.say(Message::ShrinkTimeRange { most: MOST_SHRINK_SECONDS, found: args.shrink_time }),
        ));
    }
    Ok(limits)
}

/// A line saying that the problem has fewer distinct inputs than the random cases asked for.
fn fewer_note(problem: &Problem, cases: &Cases, hard: bool, lang: Lang) -> Option<String> {
    let (count, asked) = (cases.random_count(), cases.random_asked());
    if count >= asked {
        return None;
    }
    let id = problem.id();
    Some(lang.say(match problem.every_input() {
        Some(all) => Message::FewerInputs { id, all: all.len(), hard, count, asked },
        None => Message::FewerDraws { id, count, asked },
    }))
}

/// Verdict counts, and the case to shrink, gathered as results come.
#[derive(Default)]
struct Tally {
    cases: usize,
    counts: BTreeMap<Verdict, usize>,
    slowest: f64,
    peak: u64,
    /// The verdict of the first case (in case order) that was not accepted.
    verdict: Option<Verdict>,
    /// The smallest case with that verdict, and its result.
    start: Option<(Case, Judged)>,
}

impl Tally {
    fn add(&mut self, case: Case, judged: Judged) {
        self.cases += 1;
        *self.counts.entry(judged.verdict).or_default() += 1;
        self.slowest = self.slowest.max(judged.outcome.run.seconds);
        self.peak = self.peak.max(judged.outcome.run.memory);
        if judged.verdict == Verdict::Accepted {
            return;
        }
        let verdict = *self.verdict.get_or_insert(judged.verdict);
        let smaller = self.start.as_ref().is_none_or(|(c, _)| case.input.measure() < c.input.measure());
        if judged.verdict == verdict && smaller {
            self.start = Some((case, judged));
        }
    }
}

/// A progress bar on standard error when it is a terminal.
fn progress(len: u64) -> Option<indicatif::ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(len);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} cases") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    })
}

/// What every run of one judging shares.
struct Runner<'a> {
    problem: &'a Problem,
    program: &'a [OsString],
    limits: &'a Limits,
    jobs: Threads,
    lang: Lang,
}

impl Runner<'_> {
    /// Runs the cases on `jobs` threads, taking them from `cases` only as
    /// threads are free (and saving each to `save`), and hands each result
    /// to `done`, on this thread, in case order. At most two cases per
    /// thread are held at once, so memory does not grow with the number of
    /// cases.
    fn all(
        &self,
        cases: &mut dyn Iterator<Item = Case>,
        save: Option<&Path>,
        mut done: impl FnMut(Case, Judged) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        // The first error ends the feeding; the runs in flight finish first.
        let failure: RefCell<Option<CliError>> = RefCell::new(None);
        let printed = Cell::new(0usize);
        let fail = |e: CliError| {
            failure.borrow_mut().get_or_insert(e);
        };
        search::run_in_order(
            self.jobs,
            2 * self.jobs.get(),
            || (),
            |_| {
                if failure.borrow().is_some() {
                    return Feed::End;
                }
                if run::stop_requested() {
                    fail(interrupted(printed.get(), self.lang));
                    return Feed::End;
                }
                let Some(case) = cases.next() else { return Feed::End };
                if let Some(dir) = save {
                    if let Err(e) = write_pair(dir, &case.name, &case, self.lang) {
                        fail(e);
                        return Feed::End;
                    }
                }
                Feed::Job(case)
            },
            |(), case| self.judge(case),
            |case, result| {
                let judged = match result {
                    Ok(judged) => judged,
                    Err(run::RunError::Start(e)) => {
                        fail(CliError::Input(self.lang.say(Message::CannotRun {
                            program: &self.program[0].to_string_lossy(),
                            error: &e.to_string(),
                        })));
                        return ControlFlow::Break(());
                    }
                    Err(run::RunError::Failure(m)) => {
                        fail(CliError::Failure(self.lang.say(Message::RunFailure(&m))));
                        return ControlFlow::Break(());
                    }
                    Err(run::RunError::Stopped) => {
                        fail(interrupted(printed.get(), self.lang));
                        return ControlFlow::Break(());
                    }
                };
                printed.set(printed.get() + 1);
                match done(case, judged) {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(e) => {
                        fail(e);
                        ControlFlow::Break(())
                    }
                }
            },
        )
        .map_err(|e| CliError::Failure(format!("{e}; try fewer with --jobs")))?;
        match failure.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Runs the program on one case and judges the run.
    fn judge(&self, case: &Case) -> Result<Judged, run::RunError> {
        let mut outcome = run::run(self.program, case.text.as_bytes(), self.limits, self.problem.output_cap(case))?;
        let (verdict, detail) = self.problem.verdict_in(self.lang, case, &outcome.run, self.limits);
        let output_bytes = outcome.run.output.len();
        let output = &mut outcome.run.output;
        output.truncate(KEPT_OUTPUT);
        output.shrink_to_fit();
        Ok(Judged { verdict, detail, outcome, output_bytes })
    }
}

fn interrupted(done: usize, lang: Lang) -> CliError {
    CliError::Interrupted(lang.say(Message::InterruptedJudging(done)))
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

fn case_line(case: &Case, judged: &Judged, width: usize, lang: Lang) -> String {
    let run = &judged.outcome.run;
    // A run too short for any look at its memory shows none.
    let memory = if run.memory == 0 { "-".to_string() } else { format!("{:.1}", mib(run.memory)) };
    let verdict_width = Verdict::ALL.iter().map(|v| display_width(lang.verdict(*v))).max().unwrap_or(0);
    let verdict = pad(lang.verdict(judged.verdict), verdict_width);
    let mut line = format!("{verdict} {:<width$}  {:>6.3} s  {:>7} MiB", case.name, run.seconds, memory);
    if judged.verdict != Verdict::Accepted {
        let first = judged.detail.lines().next().unwrap_or("");
        line.push_str(&format!("  {}", visible(first, SHOWN_WIDTH)));
    }
    line
}

fn summary(
    out: &mut dyn Write,
    problem: &Problem,
    tally: &Tally,
    verdict: Verdict,
    limits: &Limits,
    lang: Lang,
) -> io::Result<()> {
    let counts: Vec<(Verdict, usize)> = tally.counts.iter().map(|(v, n)| (*v, *n)).collect();
    let line = lang.say(Message::Summary {
        id: problem.id(),
        verdict,
        cases: tally.cases,
        counts: &counts,
        slowest: tally.slowest,
        peak: mib(tally.peak),
        time_limit: limits.time.as_secs_f64(),
        memory_limit: mib(limits.memory),
    });
    writeln!(out, "{line}")
}

/// Lines of a text shown whole; a longer one shows [`SHOWN_HEAD`] of them.
const SHOWN_LINES: usize = 12;
/// Lines shown of a text longer than [`SHOWN_LINES`].
const SHOWN_HEAD: usize = 10;
/// Characters of one line shown before it is cut.
const SHOWN_WIDTH: usize = 100;

/// `text` indented by two spaces: whole when it has at most [`SHOWN_LINES`]
/// lines, else its first (or, `from_end`, last) [`SHOWN_HEAD`] lines and
/// how many more there are; each line shown by [`visible`].
fn shown(text: &str, from_end: bool, lang: Lang) -> String {
    let count = text.lines().count();
    let take = if count <= SHOWN_LINES { count } else { SHOWN_HEAD };
    let skip = if from_end { count - take } else { 0 };
    let mut out = String::new();
    if skip > 0 {
        out.push_str(&format!("  {}\n", lang.say(Message::LinesBefore(skip))));
    }
    for line in text.lines().skip(skip).take(take) {
        // A blank line stays blank, with no trailing spaces.
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("  {}\n", visible(line, SHOWN_WIDTH)));
        }
    }
    if !from_end && count > take {
        out.push_str(&format!("  {}\n", lang.say(Message::LinesAfter(count - take))));
    }
    if text.is_empty() {
        out.push_str(&format!("  {}\n", lang.say(Message::Nothing)));
    }
    out
}

fn report(
    out: &mut dyn Write,
    problem: &Problem,
    case: &Case,
    judged: &Judged,
    shrunk: &backtrack::judge::Shrunk<Judged>,
    program: &[OsString],
    lang: Lang,
) -> io::Result<()> {
    let detail = visible(judged.detail.lines().next().unwrap_or(""), SHOWN_WIDTH);
    let first = lang.say(Message::Failing {
        verdict: judged.verdict,
        case: &case.name,
        steps: shrunk.steps,
        runs: shrunk.runs,
        complete: shrunk.complete,
        detail: &detail,
    });
    writeln!(out, "{first}")?;
    let label = if problem.several_answers() { Heading::ExpectedOneOf } else { Heading::Expected };
    report_run(out, &case.text, label, &case.expected, judged, program, lang)
}

/// The body of a failure's report: the input, the expected and the received
/// output, the difference, standard error's end and a command that
/// reproduces the run.
fn report_run(
    out: &mut dyn Write,
    input: &str,
    label: Heading,
    expected: &str,
    judged: &Judged,
    program: &[OsString],
    lang: Lang,
) -> io::Result<()> {
    let heading = |heading| lang.say(Message::Heading(heading));
    write!(out, "{}\n{}", heading(Heading::Input), shown(input, false, lang))?;
    let got = String::from_utf8_lossy(&judged.outcome.run.output);
    write!(out, "{}\n{}", heading(label), shown(expected, false, lang))?;
    write!(out, "{}\n{}", heading(Heading::Received), shown(&got, false, lang))?;
    if judged.output_bytes > judged.outcome.run.output.len() {
        let kept = Message::FirstBytes { kept: judged.outcome.run.output.len(), total: judged.output_bytes };
        writeln!(out, "  {}", lang.say(kept))?;
    }
    if judged.verdict == Verdict::WrongAnswer && judged.detail.lines().count() > 1 {
        write!(out, "{}\n{}", heading(Heading::Difference), shown(&judged.detail, false, lang))?;
    }
    if !judged.outcome.stderr.trim().is_empty() {
        write!(out, "{}\n{}", heading(Heading::StandardError), shown(judged.outcome.stderr.trim_end(), true, lang))?;
    }
    let command: Vec<String> = program.iter().map(|a| shell_quote(&a.to_string_lossy())).collect();
    writeln!(out, "{} printf '{}' | {}", heading(Heading::Reproduce), printf_escape(input), command.join(" "))
}

/// `text` as a printf format inside single quotes.
fn printf_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "%%").replace('\'', "'\\''").replace('\n', "\\n")
}

fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@".contains(&b)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn create_dir(dir: &Path, lang: Lang) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CliError::Failure(lang.say(Message::CannotCreate { path: &dir.display().to_string(), error: &e.to_string() }))
    })
}

fn write_pair(dir: &Path, name: &str, case: &Case, lang: Lang) -> Result<(), CliError> {
    write_texts(dir, name, &case.text, &case.expected, lang)
}

/// `input` and `expected` written as `NAME.in` and `NAME.out` in `dir`.
fn write_texts(dir: &Path, name: &str, input: &str, expected: &str, lang: Lang) -> Result<(), CliError> {
    for (ext, text) in [("in", input), ("out", expected)] {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::write(&path, text).map_err(|e| {
            CliError::Failure(
                lang.say(Message::CannotWrite { path: &path.display().to_string(), error: &e.to_string() }),
            )
        })?;
    }
    Ok(())
}
