//! `backtrack xcover`: exact cover with colors and multiplicities, from Knuth's DLX1/DLX2/DLX3 format.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use backtrack::json;
use backtrack::search::{Control, Stats};
use backtrack::xcover::{self, Engine, Parsed};

use backtrack::error::Counted;

use super::{diag, read_input, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Count (or list) the exact covers of a problem in Knuth's DLX format (multiple covers with bounds too)
#[derive(clap::Args)]
#[command(after_help = "Input (Knuth's DLX1/DLX2/DLX3 format):\n  \
    | lines whose first non-blank character is '|' are comments\n  \
    p q r | x y        primary items, then '|' and secondary items\n  \
    2|p 0:3|q :2|r     bounds on primary items: exactly 2, 0 to 3, up to 2 times\n  \
    p q x y:A          one option per line; 'name:color' on secondary items\n\n\
    Examples:\n  \
    backtrack xcover pentomino-6x10.dlx            count solutions\n  \
    backtrack xcover --threads 0 queens-13.dlx     count on every core\n  \
    backtrack xcover --all --limit 3 toy.dlx       print up to 3 solutions\n  \
    backtrack xcover --json puzzle.dlx             {\"solutions\":N,\"complete\":true,...}\n\n\
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
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum EngineArg {
    Auto,
    Small,
    Dense,
    Links,
    Mcc,
}

pub fn run(args: Args) -> CliResult {
    let input = read_input(args.file.as_ref())?;
    let parsed = xcover::parse(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
    let engine = match args.engine {
        EngineArg::Auto => Engine::Auto,
        EngineArg::Small => Engine::Small,
        EngineArg::Dense => Engine::Dense,
        EngineArg::Links => Engine::Links,
        EngineArg::Mcc => Engine::Mcc,
    };
    // The search needs only its own tables: the problem goes once they are built.
    let Parsed { problem, option_lines, .. } = parsed;
    let mut root = problem.space_on(engine);
    drop(problem);
    let control = super::interrupt_control();
    // A problem too large for a copy per thread runs on fewer threads: say how many ran.
    let threads = root.threads_for(args.threads.unwrap_or_default().get());
    let started = Instant::now();
    let mut out = stdout();
    let mut listed: Vec<Vec<&str>> = Vec::new();
    let (count, stats) = if args.all {
        list(&option_lines, &root, &args, threads, &control, &mut out, &mut listed)?
    } else {
        root.count_solutions(args.limit, threads, &control)
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
            threads,
            engine: engine_name,
            list: args.all.then_some(listed),
        };
        let mut line = Vec::new();
        json::write_line(&mut line, &report);
        out.write_all(&line)?;
    } else if !args.all {
        writeln!(out, "{count}{}", if complete { "" } else { "+" })?;
    }
    out.flush()?;
    diag!(
        "xcover: {at_least}{}{}, {}, {}, {seconds:.3} s, {}, {engine_name} engine",
        Counted(count.into(), "solution"),
        if complete { "" } else { " (stopped at the limit)" },
        Counted(stats.nodes.into(), "node"),
        Counted(stats.dead_ends.into(), "dead end"),
        Counted(threads as u128, "thread"),
    );
    Ok(if count == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// Streams every solution (up to the limit) to `out`, or into `listed` for `--json`.
fn list<'a>(
    option_lines: &[&'a str],
    root: &xcover::XcoverSpace,
    args: &Args,
    threads: usize,
    control: &Control,
    out: &mut impl Write,
    listed: &mut Vec<Vec<&'a str>>,
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
            listed.push(lines);
        } else {
            let mut block = String::new();
            if count > 0 {
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
    let stats = root.for_each_solution(threads, control, &mut visit);
    if let Some(e) = failure {
        return Err(e.into());
    }
    Ok((count, stats))
}
