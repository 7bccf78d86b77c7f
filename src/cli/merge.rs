//! `backtrack merge FILE...`: add up the `--json` results of `backtrack queens
//! N --shard I/M` runs, after checking that they form one complete set.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, EXIT_OK};
use backtrack::queens::{Report, Shard};

/// Add up the shard results of `backtrack queens N --shard I/M --json`.
///
/// Refuses a set with a missing or repeated shard, or with shards of different boards, shard
/// counts or program versions, so a sum it prints is always a complete count.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    for i in 0 1 2 3; do backtrack queens 16 --shard $i/4 --json > s$i.json; done\n  \
    backtrack merge s0.json s1.json s2.json s3.json          14772512\n  \
    backtrack merge --unique s*.json                         1846955\n  \
    backtrack merge --json s*.json                           one JSON object with both counts")]
pub struct Args {
    /// Shard result files (one JSON object each; `-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
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
    for file in &args.files {
        let input = read_input(Some(file))?;
        let report: Report = serde_json::from_str(input.text.trim_end()).map_err(|e| {
            CliError::Input(format!(
                "{}: line {}, column {}: not a queens shard result: {e}",
                input.name,
                e.line(),
                e.column()
            ))
        })?;
        let Some(shard) = report.shard else {
            return Err(CliError::Input(format!(
                "{}: not a shard result (no \"shard\" field); produce one with --shard I/M --json",
                input.name
            )));
        };
        if shard.count == 0 || shard.index >= shard.count {
            return Err(CliError::Input(format!(
                "{}: corrupt: shard {}/{} does not exist",
                input.name, shard.index, shard.count
            )));
        }
        if report.unique.is_none() {
            return Err(CliError::Input(format!("{}: corrupt: no \"unique\" count", input.name)));
        }
        reports.push((input.name, report, shard));
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
    let merged = Merged {
        n: first.n,
        solutions: reports.iter().map(|(_, r, _)| r.solutions).sum(),
        unique: reports.iter().map(|(_, r, _)| r.unique.unwrap_or(0)).sum(),
        seconds: reports.iter().map(|(_, r, _)| r.seconds).sum(),
        subproblems: reports.iter().map(|(_, r, _)| r.subproblems).sum(),
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
    Ok(EXIT_OK)
}
