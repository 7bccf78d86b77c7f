//! `backtrack judge --gen COMMAND --reference COMMAND -- PROGRAM`: a stress
//! test on any problem. The generator, the reference, a checker and a
//! validator are shell commands run through the judge's launcher ([`run`]),
//! under the same limits and process-group killing as the program; the
//! shrinking is [`backtrack::judge::stress::shrink_text`].

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use backtrack::judge::compare::{same, short_diff, visible};
use backtrack::judge::stress::{shrink_text, with_seed};
use backtrack::judge::{Budget, Limits, Problem, Rejection, Verdict};
use backtrack::lang::{Heading, Lang};

use super::{checked_limits, create_dir, mib, run, shown, Args, Judged, KEPT_OUTPUT, SHOWN_WIDTH};
use crate::cli::{stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Limits of a stress test when none are given.
const DEFAULT_LIMITS: Limits = Limits { time: Duration::from_secs(2), memory: 1 << 30 };
/// Seeds tried when --cases is not given.
const DEFAULT_SEEDS: usize = 100;
/// Most output kept of a generator or the reference.
const MOST_OUTPUT: usize = 64 << 20;

/// The commands of one stress test and their limits.
struct Stress<'a> {
    program: &'a [OsString],
    reference: &'a str,
    checker: Option<&'a str>,
    validator: Option<&'a str>,
    limits: Limits,
    /// Where the checker's files go.
    scratch: tempfile::TempDir,
}

/// A shell command as a program to run: `sh -c COMMAND sh ARGS...`.
fn shell(command: &str, args: &[&Path]) -> Vec<OsString> {
    let mut argv: Vec<OsString> = vec!["sh".into(), "-c".into()];
    argv.push(if args.is_empty() { command.into() } else { format!("{command} \"$@\"").into() });
    argv.push("sh".into());
    argv.extend(args.iter().map(|a| a.as_os_str().to_owned()));
    argv
}

/// Runs `argv` on `input` and judges the run with `check`.
fn judged(
    argv: &[OsString],
    input: &str,
    limits: &Limits,
    cap: usize,
    check: impl FnOnce(&[u8]) -> Result<(), Rejection>,
) -> Result<Judged, CliError> {
    let outcome = run::run(argv, input.as_bytes(), limits, cap).map_err(|e| match e {
        run::RunError::Start(e) => CliError::Input(format!("cannot run {}: {e}", argv[0].to_string_lossy())),
        run::RunError::Failure(m) => CliError::Failure(format!("cannot run {}: {m}", argv[0].to_string_lossy())),
        run::RunError::Stopped => CliError::Interrupted("interrupted; the seeds above were tested".into()),
    })?;
    let output = outcome.run.output.clone();
    let (verdict, detail) = Problem::verdict_with(Lang::En, &outcome.run, limits, || check(&output));
    let output_bytes = outcome.run.output.len();
    Ok(Judged { verdict, detail, outcome, output_bytes })
}

/// A run that ended cleanly within the limits, its output whole.
fn clean(argv: &[OsString], input: &str, limits: &Limits) -> Result<Judged, CliError> {
    judged(argv, input, limits, MOST_OUTPUT, |_| Ok(()))
}

impl Stress<'_> {
    /// The reference's run on `input`.
    fn reference(&self, input: &str) -> Result<Judged, CliError> {
        clean(&shell(self.reference, &[]), input, &self.limits)
    }

    /// Whether the validator (if any) accepts `input`.
    fn valid(&self, input: &str) -> Result<bool, CliError> {
        match self.validator {
            None => Ok(true),
            Some(v) => Ok(clean(&shell(v, &[]), input, &self.limits)?.verdict == Verdict::Accepted),
        }
    }

    /// The program's run on `input`, judged against the reference's output `answer`.
    fn program(&self, input: &str, answer: &[u8]) -> Result<Judged, CliError> {
        let mut failed = None;
        let cap = 2 * answer.len() + (1 << 20);
        let mut judged = judged(self.program, input, &self.limits, cap, |got| match self.checker {
            None => {
                let (want, got) = (String::from_utf8_lossy(answer), String::from_utf8_lossy(got));
                if same(&want, &got) {
                    Ok(())
                } else {
                    Err(Rejection::new(short_diff(&want, &got)))
                }
            }
            Some(checker) => match self.check(checker, input, got, answer) {
                Ok(result) => result,
                Err(e) => {
                    failed = Some(e);
                    Ok(())
                }
            },
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        judged.outcome.run.output.truncate(KEPT_OUTPUT);
        Ok(judged)
    }

    /// Runs the checker on the three files: `Err` with its message when it rejects.
    fn check(&self, checker: &str, input: &str, got: &[u8], answer: &[u8]) -> Result<Result<(), Rejection>, CliError> {
        let dir = self.scratch.path();
        let paths = [dir.join("input"), dir.join("output"), dir.join("answer")];
        for (path, bytes) in paths.iter().zip([input.as_bytes(), got, answer]) {
            std::fs::write(path, bytes)
                .map_err(|e| CliError::Failure(format!("{}: cannot write: {e}", path.display())))?;
        }
        let argv = shell(checker, &paths.iter().map(|p| p.as_path()).collect::<Vec<_>>());
        let ran = clean(&argv, "", &self.limits)?;
        if ran.verdict == Verdict::Accepted {
            return Ok(Ok(()));
        }
        let said = format!("{}{}", String::from_utf8_lossy(&ran.outcome.run.output), ran.outcome.stderr);
        let first = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("").to_string();
        Ok(Err(Rejection::new(format!("the checker rejects it ({}): {first}", ran.detail))))
    }
}

/// Why a helper command failed, with the input it was given.
fn helper_failed(what: &str, seed: u64, ran: &Judged, input: Option<&str>) -> CliError {
    let mut message = format!("{what} failed on seed {seed}: {} {}", ran.verdict, ran.detail);
    if let Some(input) = input {
        message.push_str(&format!("\ninput:\n{}", shown(input, false, Lang::En)));
    }
    if !ran.outcome.stderr.trim().is_empty() {
        message.push_str(&format!("\nstandard error (end):\n{}", shown(ran.outcome.stderr.trim_end(), true, Lang::En)));
    }
    CliError::Input(message.trim_end().to_string())
}

pub fn test(args: Args, lang: Lang) -> CliResult {
    let Some(Some(generator)) = args.gen.as_ref() else {
        return Err(CliError::Input("--reference needs --gen COMMAND, the generator of inputs".into()));
    };
    if args.id.is_some() {
        return Err(CliError::Input(
            "a stress test takes no problem number: --gen and --reference stand for it".into(),
        ));
    }
    if args.program.is_empty() {
        return Err(CliError::Input("give the program to test after `--`, e.g. `-- ./a.out`".into()));
    }
    let limits = checked_limits(&args, DEFAULT_LIMITS, lang)?;
    let scratch = tempfile::tempdir().map_err(|e| CliError::Failure(format!("cannot make a scratch folder: {e}")))?;
    let stress = Stress {
        program: &args.program,
        reference: args.reference.as_deref().expect("stress mode"),
        checker: args.checker.as_deref(),
        validator: args.validator.as_deref(),
        limits,
        scratch,
    };
    if let Some(dir) = &args.save {
        create_dir(dir, lang)?;
    }
    run::end_all_on_exit();
    let mut out = stdout();
    let seeds = args.random.unwrap_or(DEFAULT_SEEDS) as u64;
    let (mut slowest, mut peak) = (0f64, 0u64);
    for seed in args.seed..args.seed.saturating_add(seeds) {
        if run::stop_requested() {
            return Err(CliError::Interrupted("interrupted; the seeds above were tested".into()));
        }
        let made = clean(&shell(&with_seed(generator, seed), &[]), "", &limits)?;
        if made.verdict != Verdict::Accepted {
            return Err(helper_failed("the generator", seed, &made, None));
        }
        let input = String::from_utf8_lossy(&made.outcome.run.output).into_owned();
        if !stress.valid(&input)? {
            return Err(CliError::Input(format!(
                "the validator rejects the input of seed {seed}:\n{}",
                shown(&input, false, lang).trim_end()
            )));
        }
        let answer = stress.reference(&input)?;
        if answer.verdict != Verdict::Accepted {
            return Err(helper_failed("the reference", seed, &answer, Some(&input)));
        }
        let mine = stress.program(&input, &answer.outcome.run.output)?;
        slowest = slowest.max(mine.outcome.run.seconds);
        peak = peak.max(mine.outcome.run.memory);
        let mut line = format!(
            "{:<3} seed {seed}  {:>6.3} s  {:>7.1} MiB",
            mine.verdict.code(),
            mine.outcome.run.seconds,
            mib(mine.outcome.run.memory)
        );
        if mine.verdict != Verdict::Accepted {
            line.push_str(&format!("  {}", visible(mine.detail.lines().next().unwrap_or(""), SHOWN_WIDTH)));
        }
        writeln!(out, "{line}")?;
        out.flush()?;
        if mine.verdict == Verdict::Accepted {
            continue;
        }
        let verdict = mine.verdict;
        let budget = Budget { runs: args.shrink_runs, time: Duration::from_secs_f64(args.shrink_time) };
        let mut smallest = (answer, mine);
        let shrunk = shrink_text(&input, budget, |text| -> Result<bool, CliError> {
            if !stress.valid(text)? {
                return Ok(false);
            }
            let answer = stress.reference(text)?;
            if answer.verdict != Verdict::Accepted {
                return Ok(false);
            }
            let mine = stress.program(text, &answer.outcome.run.output)?;
            let fails = mine.verdict == verdict;
            if fails {
                smallest = (answer, mine);
            }
            Ok(fails)
        })?;
        let (answer, mine) = smallest;
        let how = if shrunk.steps == 0 {
            "no smaller input fails the same way".to_string()
        } else {
            format!("shrunk in {} steps, {} tries", shrunk.steps, shrunk.tries)
        };
        let complete = if shrunk.complete { "" } else { "; the shrinking budget ran out" };
        writeln!(
            out,
            "stress: {verdict} on seed {seed} ({how}{complete}): {}",
            visible(mine.detail.lines().next().unwrap_or(""), SHOWN_WIDTH)
        )?;
        let expected = String::from_utf8_lossy(&answer.outcome.run.output);
        super::report_run(&mut out, &shrunk.text, Heading::ExpectedReference, &expected, &mine, &args.program, lang)?;
        if let Some(dir) = &args.save {
            super::write_texts(dir, "failing", &shrunk.text, &expected, lang)?;
        }
        out.flush()?;
        return Ok(EXIT_NO_SOLUTION);
    }
    writeln!(
        out,
        "stress: AC ({seeds} of {seeds} seeds accepted; slowest {slowest:.3} s, peak {:.1} MiB; limits {} s, {} MiB)",
        mib(peak),
        limits.time.as_secs_f64(),
        mib(limits.memory)
    )?;
    out.flush()?;
    Ok(EXIT_OK)
}
