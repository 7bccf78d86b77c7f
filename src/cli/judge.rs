//! `backtrack judge ID -- PROGRAM`: runs a program on the cases of a judge
//! problem, gives each run the judge's verdict, and shrinks a failing case.
//! Cases, checkers and shrinking come from `backtrack::judge`; running a
//! program under limits is [`run`].

mod run;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use backtrack::json;
use backtrack::judge::{Budget, Case, Limits, Plan, Problem, Verdict};

use super::{stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Test a program of yours on a judge problem: samples, edge cases, random and adversarial cases,
/// with the judge's verdicts and the smallest failing case.
///
/// The program reads one input on standard input and writes its answer on standard output, as on
/// the judge. Each case gets AC (accepted), WA (wrong answer), TLE (CPU time over the limit), MLE
/// (peak resident memory over the limit), RE (signal or non-zero exit) or OLE (far more output than
/// the answer). Outputs are compared as the judge does: trailing spaces and blank lines at the end
/// are ignored; 2580 accepts any valid completion. On a failure the failing case is shrunk while the
/// verdict stays the same, then shown with the expected and received output and a command that
/// reproduces it. Exit status: 0 every case accepted, 1 some case was not, 2 bad usage.
#[derive(clap::Args, Debug)]
#[command(after_help = format!("Problems: {}\n\nExamples:\n  \
    backtrack judge 9663 -- ./queens                     samples, edge and random cases\n  \
    backtrack judge 2580 --hard -- python3 sudoku.py     add boards built against naive search\n  \
    backtrack judge 6603 --seed 7 --cases 50 -- ./lotto  other random cases, more of them\n  \
    backtrack judge 15649 --json -- ./nm                 last line: one JSON object\n  \
    backtrack judge 2239 --save tests/                   write NAME.in / NAME.out (for `oj test -d tests/`)\n  \
    backtrack judge 4574 --gen --seed 3                  print one random input",
    backtrack::judge::IDS.map(|id| id.to_string()).join(" ")))]
pub struct Args {
    /// Problem number, e.g. 9663 (see `backtrack boj --help`).
    pub id: u32,
    /// Seed of the random and adversarial cases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of random cases.
    #[arg(long = "cases", value_name = "K", default_value_t = 10)]
    pub random: usize,
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
    /// Most seconds spent shrinking a failing case.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub shrink_time: f64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Write every case to DIR as NAME.in and NAME.out (online-judge-tools' layout); with a
    /// program, the smallest failing case too, as failing.in / failing.out. For 2580, .out is one
    /// valid answer among possibly many.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Print one random input generated from --seed, and stop.
    #[arg(long, conflicts_with_all = ["save", "json", "hard"])]
    pub gen: bool,
    /// The program to test and its arguments, after `--`.
    #[arg(last = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}

/// The result of one case: which case, the verdict and its explanation, the run.
struct Judged {
    index: usize,
    verdict: Verdict,
    detail: String,
    outcome: run::Outcome,
}

pub fn run(args: Args) -> CliResult {
    let problem = Problem::new(args.id).ok_or_else(|| {
        CliError::Input(format!(
            "problem {} has no judge; problems: {}",
            args.id,
            backtrack::judge::IDS.map(|id| id.to_string()).join(" ")
        ))
    })?;
    let mut out = stdout();
    if args.gen {
        out.write_all(problem.generate(args.seed).text.as_bytes())?;
        out.flush()?;
        return Ok(EXIT_OK);
    }
    let mut limits = problem.limits();
    if let Some(seconds) = args.time_limit {
        if !(seconds > 0.0 && seconds <= 3600.0) {
            return Err(CliError::Input(format!("--time-limit must be between 0 and 3600 seconds, found {seconds}")));
        }
        limits.time = Duration::from_secs_f64(seconds);
    }
    if let Some(mib) = args.memory_limit {
        if !(1..=1 << 20).contains(&mib) {
            return Err(CliError::Input(format!("--memory-limit must be between 1 and 1048576 MiB, found {mib}")));
        }
        limits.memory = mib << 20;
    }
    if args.program.is_empty() && args.save.is_none() {
        return Err(CliError::Input(
            "give the program to test after `--`, e.g. `backtrack judge 9663 -- ./a.out`".into(),
        ));
    }
    let cases = problem.cases(&Plan { seed: args.seed, random: args.random, hard: args.hard });
    if let Some(dir) = &args.save {
        save(dir, &cases)?;
        if args.program.is_empty() {
            writeln!(out, "{} cases written to {}", cases.len(), dir.display())?;
            out.flush()?;
            return Ok(EXIT_OK);
        }
    }
    let jobs = match args.jobs {
        None | Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(j) => j as usize,
    };
    // A program that cannot start is a usage error, found before anything runs.
    if let Err(e) = run::run(&args.program, b"", &Limits { time: Duration::from_millis(1), ..limits }, 0) {
        return Err(CliError::Input(format!("cannot run {}: {e}", args.program[0].to_string_lossy())));
    }

    let bar = progress(cases.len() as u64);
    let name_width = cases.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut results: Vec<Option<Judged>> = (0..cases.len()).map(|_| None).collect();
    let mut printed = 0;
    run_all(&problem, &cases, &args.program, &limits, jobs, |judged| {
        let index = judged.index;
        results[index] = Some(judged);
        // One line per case, in case order.
        while let Some(Some(j)) = results.get(printed) {
            let line = case_line(&cases[printed], j, name_width);
            match &bar {
                Some(bar) => bar.suspend(|| println!("{line}")),
                None => println!("{line}"),
            }
            printed += 1;
        }
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let results: Vec<Judged> = results.into_iter().map(|r| r.expect("every case ran")).collect();

    let first = results.iter().find(|j| j.verdict != Verdict::Accepted);
    let verdict = first.map_or(Verdict::Accepted, |j| j.verdict);
    summary(&mut out, &problem, &results, verdict)?;
    let mut failing = None;
    if first.is_some() {
        // Shrink the smallest case that failed the way the first one did.
        let start = results
            .iter()
            .filter(|j| j.verdict == verdict)
            .min_by_key(|j| cases[j.index].input.measure())
            .expect("the first failing case qualifies");
        let budget = Budget { runs: args.shrink_runs, time: Duration::from_secs_f64(args.shrink_time.max(0.0)) };
        let shrunk = problem.shrink(cases[start.index].clone(), verdict, jobs, budget, |batch| {
            let mut found: Vec<Option<(Verdict, Judged)>> = (0..batch.len()).map(|_| None).collect();
            let ran = run_all(&problem, batch, &args.program, &limits, jobs, |j| {
                let i = j.index;
                found[i] = Some((j.verdict, j));
            });
            if ran.is_err() {
                return Vec::new();
            }
            found.into_iter().map(|f| f.expect("every candidate ran")).collect()
        });
        let case = &shrunk.case;
        let judged = shrunk.result.as_ref().unwrap_or(start);
        report(&mut out, &problem, case, judged, &shrunk, &args.program)?;
        if let Some(dir) = &args.save {
            write_pair(dir, "failing", case)?;
        }
        failing = Some((case.clone(), judged.outcome.run.seconds, judged.outcome.run.output.clone()));
    }
    if args.json {
        let summary = json::JudgeSummary {
            problem: problem.id(),
            verdict: verdict.code(),
            cases: cases.len(),
            failing: failing.map(|(case, seconds, got)| json::JudgeFailing {
                input: case.text,
                expected: case.expected,
                got: String::from_utf8_lossy(&got).into_owned(),
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

/// Runs every case on `jobs` threads and hands each result to `done`, on this thread, as it comes.
fn run_all(
    problem: &Problem,
    cases: &[Case],
    program: &[OsString],
    limits: &Limits,
    jobs: usize,
    mut done: impl FnMut(Judged),
) -> Result<(), CliError> {
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, cases.len().max(1)) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(index) else { break };
                let result = run::run(program, case.text.as_bytes(), limits, problem.output_cap(case)).map(|outcome| {
                    let (verdict, detail) = problem.verdict(case, &outcome.run, limits);
                    Judged { index, verdict, detail, outcome }
                });
                if send.send(result).is_err() {
                    break;
                }
            });
        }
        drop(send);
        for result in receive {
            match result {
                Ok(judged) => done(judged),
                Err(e) => return Err(CliError::Failure(format!("cannot run the program: {e}"))),
            }
        }
        Ok(())
    })
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

fn case_line(case: &Case, judged: &Judged, width: usize) -> String {
    let run = &judged.outcome.run;
    // A run too short for any look at its memory shows none.
    let memory = if run.memory == 0 { "-".to_string() } else { format!("{:.1}", mib(run.memory)) };
    let mut line =
        format!("{:<3} {:<width$}  {:>6.3} s  {:>7} MiB", judged.verdict.code(), case.name, run.seconds, memory);
    if judged.verdict != Verdict::Accepted {
        let first = judged.detail.lines().next().unwrap_or("");
        line.push_str(&format!("  {first}"));
    }
    line
}

fn summary(out: &mut dyn Write, problem: &Problem, results: &[Judged], verdict: Verdict) -> io::Result<()> {
    let accepted = results.iter().filter(|j| j.verdict == Verdict::Accepted).count();
    let mut counts: Vec<(Verdict, usize)> = Vec::new();
    for j in results {
        match counts.iter_mut().find(|(v, _)| *v == j.verdict) {
            Some((_, n)) => *n += 1,
            None => counts.push((j.verdict, 1)),
        }
    }
    counts.sort();
    let counts: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {v}")).collect();
    let slowest = results.iter().map(|j| j.outcome.run.seconds).fold(0.0, f64::max);
    let peak = results.iter().map(|j| j.outcome.run.memory).max().unwrap_or(0);
    let limits = problem.limits();
    writeln!(
        out,
        "{}: {} ({} of {} cases accepted: {}; slowest {:.3} s, peak {:.1} MiB; limits {} s, {} MiB)",
        problem.id(),
        verdict.code(),
        accepted,
        results.len(),
        counts.join(", "),
        slowest,
        mib(peak),
        limits.time.as_secs_f64(),
        limits.memory >> 20
    )
}

/// Lines of input or output shown in full; longer texts are cut.
const SHOWN_LINES: usize = 8;

fn indented(text: &str) -> String {
    indented_to(text, SHOWN_LINES)
}

fn indented_to(text: &str, shown: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for line in lines.iter().take(shown) {
        // A blank line stays blank, with no trailing spaces.
        out.push_str(if line.is_empty() { "\n" } else { "  " });
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    if lines.len() > shown {
        out.push_str(&format!("  ... {} more lines\n", lines.len() - shown));
    }
    if text.is_empty() {
        out.push_str("  (nothing)\n");
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
) -> io::Result<()> {
    let how = if shrunk.steps == 0 {
        "no smaller case fails the same way".to_string()
    } else {
        format!("shrunk in {} steps, {} runs", shrunk.steps, shrunk.runs)
    };
    let complete = if shrunk.complete { "" } else { "; the shrinking budget ran out" };
    writeln!(
        out,
        "{} on {} ({how}{complete}): {}",
        judged.verdict,
        case.name,
        judged.detail.lines().next().unwrap_or("")
    )?;
    write!(out, "input:\n{}", indented(&case.text))?;
    let got = String::from_utf8_lossy(&judged.outcome.run.output);
    let label = if problem.id() == 2580 { "expected (one valid answer)" } else { "expected" };
    write!(out, "{label}:\n{}", indented(&case.expected))?;
    write!(out, "received:\n{}", indented(&got))?;
    if judged.verdict == Verdict::WrongAnswer && judged.detail.lines().count() > 1 {
        write!(out, "difference:\n{}", indented_to(&judged.detail, usize::MAX))?;
    }
    if !judged.outcome.stderr.trim().is_empty() {
        write!(out, "standard error (end):\n{}", indented(judged.outcome.stderr.trim_end()))?;
    }
    let command: Vec<String> = program.iter().map(|a| shell_quote(&a.to_string_lossy())).collect();
    writeln!(out, "reproduce: printf '{}' | {}", printf_escape(&case.text), command.join(" "))
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

fn save(dir: &PathBuf, cases: &[Case]) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::Failure(format!("{}: cannot create: {e}", dir.display())))?;
    for case in cases {
        write_pair(dir, &case.name, case)?;
    }
    Ok(())
}

fn write_pair(dir: &std::path::Path, name: &str, case: &Case) -> Result<(), CliError> {
    for (ext, text) in [("in", &case.text), ("out", &case.expected)] {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::write(&path, text).map_err(|e| CliError::Failure(format!("{}: cannot write: {e}", path.display())))?;
    }
    Ok(())
}
