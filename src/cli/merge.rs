//! `backtrack merge FILE...`: add up the `--json` results of `backtrack queens
//! N --shard I/M` runs, after checking that they form one complete set.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};
use backtrack::queens::{Report, Shard};

/// Add up the shard results of `backtrack queens N --shard I/M --json`.
///
/// Refuses a set with a missing or repeated shard, or with shards of different boards, shard
/// counts or program versions, so a sum it prints is always a complete count.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    for i in 0 1 2 3; do backtrack queens 16 --shard $i/4 --json > s$i.json; done\n  \
    backtrack merge s0.json s1.json s2.json s3.json          14772512\n  \
    cat s*.json | backtrack merge                            the same, reports read from standard input\n  \
    backtrack merge --unique s*.json                         1846955\n  \
    backtrack merge --json s*.json                           one JSON object with both counts")]
pub struct Args {
    /// Shard result files, each with one or more reports (standard input when none is given, or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the number of solutions distinct up to rotation and reflection.
    #[arg(long)]
    pub unique: bool,
    /// Print the merged result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The merged result.
#[derive(serde::Serialize)]
struct Merged {
    n: u32,
    solutions: u128,
    unique: u128,
    /// Sum of the shards' wall-clock seconds (the CPU time they took, roughly).
    seconds: f64,
    subproblems: u64,
    shards: u64,
    plan_subproblems: u64,
    plan_depth: u64,
    plan_version: u32,
}

pub fn run(args: Args) -> CliResult {
    let mut reports: Vec<(String, Report, Shard)> = Vec::new();
    let files: Vec<Option<&PathBuf>> =
        if args.files.is_empty() { vec![None] } else { args.files.iter().map(Some).collect() };
    for file in files {
        let input = read_input(file)?;
        let mut stream = serde_json::Deserializer::from_str(&input.text).into_iter::<Report>();
        let mut count = 0;
        loop {
            let report = match stream.next() {
                None => break,
                Some(Ok(report)) => report,
                Some(Err(e)) => return Err(CliError::Input(format!("{}: {}", input.name, report_error(&e)))),
            };
            count += 1;
            // Several reports in one input are named by their place in it.
            let name = if count == 1 { input.name.clone() } else { format!("{} (report {count})", input.name) };
            let Some(shard) = report.shard else {
                return Err(CliError::Input(format!(
                    "{name}: not a shard result (no \"shard\" field); produce one with --shard I/M --json"
                )));
            };
            if shard.count == 0 || shard.index >= shard.count {
                return Err(CliError::Input(format!(
                    "{name}: corrupt: shard {}/{} does not exist",
                    shard.index, shard.count
                )));
            }
            if report.unique.is_none() {
                return Err(CliError::Input(format!("{name}: corrupt: no \"unique\" count")));
            }
            reports.push((name, report, shard));
        }
        if count == 0 {
            return Err(CliError::Input(format!("{}: not a queens shard result: no report in it", input.name)));
        }
    }
    let (first_name, first, first_shard) = &reports[0];
    for (name, report, shard) in &reports[1..] {
        let mismatch = |what: &str, a: String, b: String| {
            CliError::Input(format!(
                "{name}: {what} {b} does not match {first_name}'s {a}; these shards are not one set"
            ))
        };
        if report.n != first.n {
            return Err(mismatch("board size", format!("N={}", first.n), format!("N={}", report.n)));
        }
        if shard.count != first_shard.count {
            return Err(mismatch("shard count", first_shard.count.to_string(), shard.count.to_string()));
        }
        if (report.plan_version, report.plan_depth, report.plan_subproblems)
            != (first.plan_version, first.plan_depth, first.plan_subproblems)
        {
            return Err(mismatch(
                "plan",
                format!("v{} depth {} ({} subproblems)", first.plan_version, first.plan_depth, first.plan_subproblems),
                format!(
                    "v{} depth {} ({} subproblems)",
                    report.plan_version, report.plan_depth, report.plan_subproblems
                ),
            ));
        }
    }
    let count = first_shard.count;
    let mut seen: Vec<Option<&str>> = vec![None; usize::try_from(count).unwrap_or(usize::MAX).min(1 << 24)];
    if count as usize != seen.len() {
        return Err(CliError::Input(format!("{first_name}: shard count {count} is too large")));
    }
    for (name, _, shard) in &reports {
        let slot = &mut seen[shard.index as usize];
        if let Some(other) = slot {
            return Err(CliError::Input(format!(
                "shard {}/{count} appears twice: in {other} and in {name}",
                shard.index
            )));
        }
        *slot = Some(name);
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| i.to_string()).take(20).collect();
    if !missing.is_empty() {
        let more = if missing.len() == 20 { ", ..." } else { "" };
        return Err(CliError::Input(format!(
            "incomplete set: shard(s) {}{more} of {count} missing",
            missing.join(", ")
        )));
    }
    let overflow = |what: &str| {
        CliError::Input(format!(
            "corrupt set: the {what} add up to more than the largest count (2^128 - 1); a report is damaged"
        ))
    };
    let mut solutions = 0u128;
    let mut unique = 0u128;
    let mut subproblems = 0u64;
    for (_, report, _) in &reports {
        solutions = solutions.checked_add(report.solutions).ok_or_else(|| overflow("solution counts"))?;
        unique = unique.checked_add(report.unique.unwrap_or(0)).ok_or_else(|| overflow("unique counts"))?;
        subproblems = subproblems.checked_add(report.subproblems).ok_or_else(|| overflow("subproblem counts"))?;
    }
    let merged = Merged {
        n: first.n,
        solutions,
        unique,
        seconds: reports.iter().map(|(_, r, _)| r.seconds).sum(),
        subproblems,
        shards: count,
        plan_subproblems: first.plan_subproblems,
        plan_depth: first.plan_depth,
        plan_version: first.plan_version,
    };
    if merged.subproblems != merged.plan_subproblems {
        return Err(CliError::Input(format!(
            "corrupt set: the shards cover {} subproblems, the plan has {}",
            merged.subproblems, merged.plan_subproblems
        )));
    }
    let mut out = stdout();
    if args.json {
        let text = serde_json::to_string(&merged).map_err(|e| CliError::Failure(e.to_string()))?;
        writeln!(out, "{text}")?;
    } else if args.unique {
        writeln!(out, "{}", merged.unique)?;
    } else {
        writeln!(out, "{}", merged.solutions)?;
    }
    out.flush()?;
    Ok(if merged.solutions == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// A report that cannot be read, in words about reports (not about the
/// decoder's types), with the line and column where reading stopped.
fn report_error(e: &serde_json::Error) -> String {
    let place = format!("line {}, column {}", e.line(), e.column());
    let what = match e.classify() {
        serde_json::error::Category::Io => "cannot be read".to_string(),
        serde_json::error::Category::Eof => "ends in the middle of a report".to_string(),
        serde_json::error::Category::Syntax => "not JSON: a shard report is one JSON object per shard".to_string(),
        serde_json::error::Category::Data => {
            let message = e.to_string();
            if let Some(field) = message.strip_prefix("missing field `").and_then(|m| m.split('`').next()) {
                format!("not a queens shard report: the field \"{field}\" is missing")
            } else if message.starts_with("unknown field") || message.contains("expected struct") {
                "not a queens shard report: a report is a JSON object with the fields --shard I/M --json writes"
                    .to_string()
            } else {
                "not a queens shard report: a field has a value of the wrong kind (counts are whole numbers \
                 from 0 to 2^128 - 1)"
                    .to_string()
            }
        }
    };
    format!("{place}: {what}")
}
