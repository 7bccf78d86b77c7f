//! `backtrack xcover`: exact cover with colors, multiplicities and costs, from Knuth's DLX1/DLX2/DLX3/DLX5 format.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use backtrack::json;
use backtrack::plan::{Forecast, Shard};
use backtrack::search::{Control, Stats, Threads};
use backtrack::xcover::plan::{CheckpointSaving, Plan, Report, Run, RunError};
use backtrack::xcover::{self, Engine, Parsed, Problem};

use backtrack::error::Counted;

use super::progress::{Progress, ProgressMode};
use super::{diag, read_input, stdout, CliError, CliResult, Input, EXIT_NO_SOLUTION, EXIT_OK};

/// Count (or list) the exact covers of a problem in Knuth's DLX format (multiple covers with bounds, costs too)
#[derive(clap::Args)]
#[command(after_help = "Input (Knuth's DLX1/DLX2/DLX3/DLX5 format):\n  \
    | lines whose first non-blank character is '|' are comments\n  \
    p q r | x y        primary items, then '|' and secondary items\n  \
    2|p 0:3|q :2|r     bounds on primary items: exactly 2, 0 to 3, up to 2 times\n  \
    p q x y:A          one option per line; 'name:color' on secondary items\n  \
    p r |5 |2          '|n' tokens give the option a cost (their sum: 7; none: 0)\n\n\
    Examples:\n  \
    backtrack xcover pentomino-6x10.dlx            count solutions\n  \
    backtrack xcover --threads 0 queens-13.dlx     count on every core\n  \
    backtrack xcover --all --limit 3 toy.dlx       print up to 3 solutions\n  \
    backtrack xcover rooks.dlx                     '2|r1 2|r2 2|c1 2|c2' items: 2 per row and column\n  \
    backtrack xcover --min-cost --all jobs.dlx     the cheapest solution: 'cost N', then its options\n  \
    backtrack xcover --best 3 jobs.dlx             the 3 cheapest costs, one a line (ties: first met)\n  \
    backtrack xcover --stats toy.dlx               nodes and the level profile on standard error\n  \
    backtrack xcover --print-options toy.dlx       each solution as its option numbers (from 1)\n  \
    backtrack xcover --json puzzle.dlx             {\"solutions\":N,\"complete\":true,...}\n  \
    backtrack xcover --progress pentomino-6x10.dlx  a progress bar with an estimate of the time left\n  \
    backtrack xcover --checkpoint p.ckpt pentomino-6x10.dlx  resumable (rerun it)\n  \
    backtrack xcover --shard 3/16 --json pentomino-6x10.dlx > s3.json   one of 16 pieces\n  \
    backtrack merge s*.json                        add the pieces up (all 16 of them)\n  \
    mpirun -n 8 backtrack xcover --mpi pentomino-6x10.dlx  over MPI (build with --features mpi)\n\n\
    Exit status: 0 some cover found, 1 none, 2 bad input, 3 I/O or resource failure, 130 interrupted.")]
pub struct Args {
    /// Problem file (standard input when absent or '-')
    file: Option<PathBuf>,
    /// Print every solution: the chosen options' lines, one solution per block, blocks separated by blank lines
    #[arg(long)]
    all: bool,
    /// Stop after this many solutions (at least 1); a count that reaches K prints 'K+'
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Worker threads, 1 to 1024 (0 or absent: one per core)
    #[arg(long, short = 't', value_name = "T", value_parser = |s: &str| s.parse::<backtrack::search::Threads>())]
    threads: Option<backtrack::search::Threads>,
    /// Print one JSON object (with "solutions", the count) instead of plain text
    #[arg(long)]
    json: bool,
    /// Search engine: auto, small (popcounts, up to 256 options), dense (bitsets), links (dancing links) or mcc
    /// (multiple covers; always used when some item has bounds other than 1:1)
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    engine: EngineArg,
    /// Find the cheapest solution (options' costs are '|n' tokens); prints its cost, with --all its options too
    #[arg(long, conflicts_with_all = ["best", "limit"])]
    min_cost: bool,
    /// Find the K cheapest solutions, cheapest first (among equal costs, the ones the search meets first);
    /// prints each cost, with --all the options too. Runs on one thread
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1_000_000), conflicts_with = "limit")]
    best: Option<u64>,
    /// Print the search's statistics on standard error: nodes, dead ends and the level profile (nodes at each
    /// depth, as Knuth's programs print it); the count runs on one thread
    #[arg(long, conflicts_with_all = ["min_cost", "best", "all", "print_options"])]
    stats: bool,
    /// Print each solution as its option numbers (from 1, in input order), increasing, one solution a line
    /// (with --min-cost or --best, below each cost line)
    #[arg(long)]
    print_options: bool,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Show the progress bar (with an estimate of the time left) even when standard error is not a terminal: one
    /// line every ten seconds, for a log. By default a plain count shows it on a terminal only
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Save finished subproblems of the count to FILE every few seconds and on Ctrl-C; rerunning the same command
    /// resumes from it (a checkpoint of another input, engine or shard is refused)
    #[arg(long, value_name = "FILE", conflicts_with_all = PLANNED_CONFLICTS)]
    checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint saves
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0, requires = "checkpoint")]
    checkpoint_interval: f64,
    /// Count only shard I of M (0-based) of the count's subproblems; add the shards' --json outputs up with
    /// `backtrack merge`
    #[arg(long, value_name = "I/M", value_parser = clap::value_parser!(Shard), conflicts_with_all = PLANNED_CONFLICTS)]
    shard: Option<Shard>,
    /// Run as an MPI job: rank 0 reads the input, hands the count's subproblems out to the other ranks on demand and
    /// prints the total (needs a binary built with `--features mpi`; start it with mpirun)
    #[arg(long, conflicts_with_all = MPI_CONFLICTS)]
    mpi: bool,
}

/// What a count cut into subproblems (`--checkpoint`, `--shard`, `--mpi`) cannot do:
/// list solutions, stop at a limit, profile one walk, or look for the
/// cheapest solutions (a bound that each piece would need from the others).
const PLANNED_CONFLICTS: [&str; 6] = ["all", "limit", "stats", "print_options", "min_cost", "best"];

/// What `--mpi` cannot do: what a planned count cannot, and keep a
/// checkpoint or count one shard (rank 0 hands every subproblem out).
const MPI_CONFLICTS: [&str; 8] = ["all", "limit", "stats", "print_options", "min_cost", "best", "checkpoint", "shard"];

#[derive(Clone, Copy, clap::ValueEnum)]
enum EngineArg {
    Auto,
    Small,
    Dense,
    Links,
    Mcc,
}

pub fn run(args: Args) -> CliResult {
    let engine = match args.engine {
        EngineArg::Auto => Engine::Auto,
        EngineArg::Small => Engine::Small,
        EngineArg::Dense => Engine::Dense,
        EngineArg::Links => Engine::Links,
        EngineArg::Mcc => Engine::Mcc,
    };
    if args.mpi {
        return run_mpi(&args, engine);
    }
    let input = read_input(args.file.as_ref())?;
    let parsed = xcover::parse(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
    if args.min_cost || args.best.is_some() {
        return run_best(&args, &parsed);
    }
    let mode = ProgressMode::new(args.quiet, args.progress);
    let plain = !(args.all || args.print_options || args.stats || args.limit.is_some());
    // A count shows its bar by going through the plan; on a terminal a
    // plain count does (with --json only when asked: the report differs).
    if args.checkpoint.is_some() || args.shard.is_some() || (plain && mode.shown(!args.json)) {
        return run_planned(&args, &input, &parsed.problem, engine, mode);
    }
    // The search needs only its own tables: the problem goes once they are built.
    let Parsed { problem, option_lines, .. } = parsed;
    let mut root = problem.space_on(engine);
    drop(problem);
    let control = super::interrupt_control();
    // A problem too large for a copy per thread runs on fewer threads: say how many ran.
    let threads = root.threads_for(args.threads.unwrap_or_default());
    let started = Instant::now();
    let mut out = stdout();
    let mut listed: Vec<Vec<&str>> = Vec::new();
    let mut numbers: Vec<Vec<usize>> = Vec::new();
    let mut profile = None;
    let threads = if args.stats { Threads::ONE } else { threads };
    let (count, stats) = if args.all || args.print_options {
        list(&option_lines, &root, &args, threads, &control, &mut out, &mut listed, &mut numbers)?
    } else if args.stats {
        let (count, stats, levels) = root.profile(args.limit, &control);
        profile = Some(levels);
        (count, stats)
    } else {
        root.count_solutions(args.limit, threads, &control)?
    };
    let seconds = started.elapsed().as_secs_f64();
    if control.is_cancelled() {
        out.flush()?;
        return Err(CliError::Interrupted(format!(
            "interrupted: {} so far ({} searched), not a complete count",
            Counted(count.into(), "solution"),
            Counted(stats.nodes.into(), "node")
        )));
    }
    let engine_name = root.engine().name();
    // A count that reached the limit is a lower bound: the search stopped there.
    let complete = args.limit.is_none_or(|k| count < k);
    let at_least = if complete { "" } else { "at least " };
    if args.json {
        let report = json::XcoverReport {
            solutions: count,
            complete,
            nodes: stats.nodes,
            dead_ends: stats.dead_ends,
            seconds,
            threads: threads.get(),
            engine: engine_name,
            list: args.all.then_some(listed),
            costs: None,
            profile: profile.clone(),
            option_numbers: args.print_options.then_some(numbers),
        };
        let mut line = Vec::new();
        json::write_line(&mut line, &report);
        out.write_all(&line)?;
    } else if !args.all && !args.print_options {
        writeln!(out, "{count}{}", if complete { "" } else { "+" })?;
    }
    out.flush()?;
    if let Some(levels) = &profile {
        print_profile(levels);
    }
    diag!(
        "xcover: {at_least}{}{}, {}, {}, {seconds:.3} s, {}, {engine_name} engine",
        Counted(count.into(), "solution"),
        if complete { "" } else { " (stopped at the limit)" },
        Counted(stats.nodes.into(), "node"),
        Counted(stats.dead_ends.into(), "dead end"),
        Counted(threads.get() as u128, "thread"),
    );
    Ok(if count == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// A count cut into subproblems: resumable from `--checkpoint`, one
/// `--shard`, or shown with a progress bar.
fn run_planned(args: &Args, input: &Input, problem: &Problem, engine: Engine, mode: ProgressMode) -> CliResult {
    if !(args.checkpoint_interval.is_finite() && args.checkpoint_interval >= 0.0) {
        return Err(CliError::Input(format!(
            "--checkpoint-interval must be a number of seconds >= 0, not {}",
            args.checkpoint_interval
        )));
    }
    let plan = Plan::new(&input.text, problem, engine);
    let threads = plan.threads_for(args.threads.unwrap_or_default());
    let saving = args.checkpoint.as_ref().map(|path| CheckpointSaving {
        path: path.clone(),
        interval: Duration::from_secs_f64(args.checkpoint_interval),
    });
    let run = Run::start(&plan, args.shard, saving).map_err(run_error)?;
    let progress = Progress::new(mode, true, || {
        let weights = plan.weights(PROBES);
        let rate = plan.calibrate(&weights).unwrap_or(1e6) * threads.get() as f64;
        Ok(Forecast::new(weights, |i| run.is_pending(i), rate))
    })?;
    let counted = run.count(threads, &super::interrupt_control(), |i| progress.advance(i));
    progress.finish();
    print_report(args, &counted.map_err(run_error)?, "thread")
}

/// Prints a planned count's report (`--json`: the object, else the count)
/// and its summary line, whose `workers` are threads or MPI ranks.
fn print_report(args: &Args, report: &Report, workers: &str) -> CliResult {
    let mut out = stdout();
    if args.json {
        out.write_all(report.to_json_line().as_bytes())?;
    } else {
        writeln!(out, "{}", report.solutions)?;
    }
    out.flush()?;
    diag!(
        "xcover: {}{}, {} of {}, {:.3} s, {}, {} engine",
        Counted(report.solutions, "solution"),
        match report.shard {
            Some(s) => format!(" in shard {}/{}", s.index, s.count),
            None => String::new(),
        },
        report.subproblems,
        Counted(report.plan_subproblems.into(), "subproblem"),
        report.seconds,
        Counted(report.threads.into(), workers),
        report.engine,
    );
    // A shard's count is its share, even when 0.
    Ok(if report.solutions == 0 && report.shard.is_none() { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// `--mpi`: rank 0 reads and parses the input and shares it with the other
/// ranks, which build the same plan; rank 0 then hands its subproblems out
/// on demand and prints the total. A job of one process counts alone, on
/// its threads.
#[cfg(feature = "mpi")]
fn run_mpi(args: &Args, engine: Engine) -> CliResult {
    let mpi = super::mpi::Mpi::init()?;
    let read = match mpi.is_master() {
        true => Some(read_input(args.file.as_ref()).and_then(|input| {
            xcover::parse(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
            Ok(input.text)
        })),
        false => None,
    };
    let text = match &read {
        Some(Ok(text)) => mpi.share(Some(text.as_bytes())),
        _ => mpi.share(None),
    };
    let Some(text) = text else {
        // Rank 0 says why; the others have nothing to count.
        return read.map_or(Ok(EXIT_OK), |read| read.map(|_| EXIT_OK));
    };
    let text = String::from_utf8(text).map_err(|_| CliError::Failure("MPI: the input arrived damaged".into()))?;
    let problem = xcover::parse(&text).map_err(|e| CliError::bad_input("<input from rank 0>", &e))?.problem;
    let plan = Plan::new(&text, &problem, engine);
    drop(problem);
    let started = Instant::now();
    let (solutions, workers, unit) = if mpi.size() == 1 {
        let threads = plan.threads_for(args.threads.unwrap_or_default());
        let report = Run::start(&plan, None, None).and_then(|run| run.count(threads, &Control::new(), |_| {}));
        (report.map_err(run_error)?.solutions, threads.get() as u64, "thread")
    } else {
        let control = Control::new();
        let solve = |i| u128::from(plan.solve(i, &control).expect("a count that is never cancelled ends"));
        match mpi.count(plan.id(), plan.len(), solve)? {
            Some(total) => (total, mpi.size() as u64 - 1, "worker"),
            None => return Ok(EXIT_OK),
        }
    };
    let report = Report::new(&plan, None, solutions, started.elapsed().as_secs_f64(), workers);
    print_report(args, &report, unit)
}

#[cfg(not(feature = "mpi"))]
fn run_mpi(_args: &Args, _engine: Engine) -> CliResult {
    Err(super::mpi::unavailable())
}

/// Random probes per subproblem for the progress bar's estimate.
const PROBES: usize = 4;

/// A run's error as the CLI reports it: a checkpoint that is not one (or
/// of another run) is bad input; a file that cannot be read or written a
/// failure; Ctrl-C an interruption.
fn run_error(e: RunError) -> CliError {
    match e {
        RunError::TooLarge { .. } | RunError::Checkpoint { .. } => CliError::Input(e.to_string()),
        RunError::Read { .. } | RunError::Save { .. } => CliError::Failure(e.to_string()),
        RunError::Threads(e) => CliError::from(e),
        RunError::Interrupted { .. } => CliError::Interrupted(e.to_string()),
    }
}

/// Prints the level profile on standard error, one depth a line, as Knuth's programs do.
fn print_profile(levels: &[u64]) {
    diag!("xcover: level profile (nodes at each depth):");
    for (depth, nodes) in levels.iter().enumerate() {
        diag!("{depth:3}: {nodes}");
    }
}

/// The option numbers `--print-options` prints for a solution: from 1, increasing.
fn option_numbers(solution: &[usize]) -> Vec<usize> {
    let mut numbers: Vec<usize> = solution.iter().map(|&o| o + 1).collect();
    numbers.sort_unstable();
    numbers
}

/// One line of option numbers, separated by blanks.
fn numbers_line(numbers: &[usize]) -> String {
    numbers.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

/// `--min-cost` and `--best K`: the cheapest solutions by branch and bound, on one thread.
fn run_best(args: &Args, parsed: &Parsed) -> CliResult {
    let k = args.best.unwrap_or(1) as usize;
    let control = super::interrupt_control();
    let started = Instant::now();
    let failed = |e: xcover::cost::CostError| CliError::Failure(format!("xcover: {e}"));
    // The options only when they are printed: the search then keeps none.
    let (mut costs, found, stats) = if args.all || args.print_options {
        let (found, stats) = xcover::cost::best(&parsed.problem, k, &control).map_err(failed)?;
        (found.iter().map(|c| c.cost).collect(), found, stats)
    } else {
        let (costs, stats) = xcover::cost::best_costs(&parsed.problem, k, &control).map_err(failed)?;
        (costs, Vec::new(), stats)
    };
    let seconds = started.elapsed().as_secs_f64();
    let mut out = stdout();
    // Interrupted, the search still hands back the cheapest it had found:
    // they are printed as a finished search's would be (`--json`: not
    // complete), and the run ends with the interruption's message and code.
    let interrupted = control.is_cancelled();
    // The summary line's figures, taken before `--json` moves the costs into its report.
    let n = costs.len();
    let span = match (costs.first(), costs.last()) {
        (Some(a), Some(b)) if a == b => format!("cost {a}"),
        (Some(a), Some(b)) => format!("costs {a} to {b}"),
        _ => "none".to_string(),
    };
    let lines = |c: &xcover::cost::Costed| -> Vec<&str> { c.options.iter().map(|&o| parsed.option_lines[o]).collect() };
    // The whole answer is made first and written at once.
    let answer = if args.json {
        let report = json::XcoverReport {
            solutions: n as u64,
            complete: !interrupted,
            nodes: stats.nodes,
            dead_ends: stats.cut,
            seconds,
            threads: 1,
            engine: "cost",
            list: args.all.then(|| found.iter().map(lines).collect()),
            costs: Some(std::mem::take(&mut costs)),
            profile: None,
            option_numbers: args.print_options.then(|| found.iter().map(|c| option_numbers(&c.options)).collect()),
        };
        let mut line = Vec::new();
        json::write_line(&mut line, &report);
        line
    } else if found.is_empty() {
        // One line per solution, and K may be large: digits written without a formatter.
        let mut text = String::with_capacity(costs.len() * 8);
        let mut digits = itoa::Buffer::new();
        for &cost in &costs {
            text.push_str(digits.format(cost));
            text.push('\n');
        }
        text.into_bytes()
    } else {
        let mut text = String::new();
        for (i, found) in found.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&format!("cost {}\n", found.cost));
            if args.print_options {
                text.push_str(&numbers_line(&option_numbers(&found.options)));
                text.push('\n');
            }
            if args.all {
                for line in lines(found) {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
        text.into_bytes()
    };
    // Once Ctrl-C was pressed the writer flushes and then fails: the answer
    // is out either way, and the interruption is told below.
    let written = out.write_all(&answer).and_then(|()| out.flush());
    if interrupted {
        return Err(CliError::Interrupted(format!(
            "interrupted: the cheapest {} found so far ({span}) are not known to be the cheapest",
            Counted(n as u128, "solution")
        )));
    }
    written?;
    diag!(
        "xcover: {} ({}), {}, {}, {seconds:.3} s, 1 thread, cost search",
        Counted(n as u128, "cheapest solution"),
        span,
        Counted(stats.nodes.into(), "node"),
        Counted(stats.cut.into(), "cut"),
    );
    Ok(if n == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// Streams every solution (up to the limit) to `out`, or into `listed` for `--json`.
#[allow(clippy::too_many_arguments)]
fn list<'a>(
    option_lines: &[&'a str],
    root: &xcover::XcoverSpace,
    args: &Args,
    threads: Threads,
    control: &Control,
    out: &mut impl Write,
    listed: &mut Vec<Vec<&'a str>>,
    numbers: &mut Vec<Vec<usize>>,
) -> Result<(u64, Stats), CliError> {
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut count = 0u64;
    let mut failure: Option<std::io::Error> = None;
    if limit == 0 {
        return Ok((0, Stats::default()));
    }
    let mut visit = |solution: Vec<usize>| {
        if control.is_cancelled() {
            return ControlFlow::Break(());
        }
        let lines: Vec<&str> = solution.iter().map(|&o| option_lines[o]).collect();
        if args.json {
            if args.all {
                listed.push(lines);
            }
            if args.print_options {
                numbers.push(option_numbers(&solution));
            }
        } else if args.print_options && !args.all {
            let line = numbers_line(&option_numbers(&solution)) + "\n";
            if let Err(e) = out.write_all(line.as_bytes()) {
                failure = Some(e);
                return ControlFlow::Break(());
            }
        } else {
            let mut block = String::new();
            if count > 0 {
                block.push('\n');
            }
            if args.print_options {
                block.push_str(&numbers_line(&option_numbers(&solution)));
                block.push('\n');
            }
            for line in &lines {
                block.push_str(line);
                block.push('\n');
            }
            if let Err(e) = out.write_all(block.as_bytes()) {
                failure = Some(e);
                return ControlFlow::Break(());
            }
        }
        count += 1;
        if count >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let stats = root.for_each_solution(threads, control, &mut visit)?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok((count, stats))
}
