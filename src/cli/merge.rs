//! `backtrack merge FILE...`: add up the `--json` results of `backtrack queens
//! N --shard I/M` or `backtrack xcover --shard I/M` runs, after checking that
//! they form one complete set.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, Input, EXIT_NO_SOLUTION, EXIT_OK};
use backtrack::queens::plan::{merge_reports, read_reports};
use backtrack::queens::ReportFormat;
use backtrack::xcover::plan as xcover;

/// Add up the shard results of `backtrack queens N --shard I/M --json` or `backtrack xcover --shard I/M --json`.
///
/// Refuses a set with a missing or repeated shard, or with shards of different boards or inputs, shard
/// counts or program versions, so a sum it prints is always a complete count.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    for i in 0 1 2 3; do backtrack queens 12 --shard $i/4 --json > s$i.json; done\n  \
    backtrack merge s0.json s1.json s2.json s3.json          14200\n  \
    cat s*.json | backtrack merge                            the same, read from standard input\n  \
    backtrack merge --unique s*.json                         1787\n  \
    backtrack merge --json s*.json                           one JSON object with both counts\n  \
    for i in 0 1 2; do backtrack xcover --shard $i/3 --json rooks.dlx > x$i.json; done\n  \
    backtrack merge x0.json x1.json x2.json                  2040, the exact-cover count")]
pub struct Args {
    /// Shard result files, each with one or more reports (standard input when none is given, or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the number of solutions distinct up to rotation and reflection (queens reports only).
    #[arg(long)]
    pub unique: bool,
    /// Print the merged result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> CliResult {
    let files: Vec<Option<&PathBuf>> =
        if args.files.is_empty() { vec![None] } else { args.files.iter().map(Some).collect() };
    let inputs = files.into_iter().map(read_input).collect::<Result<Vec<_>, _>>()?;
    // The first report says what was counted; the others must be alike.
    if inputs.first().is_some_and(|input| xcover::is_xcover_report(&input.text)) {
        return merge_xcover(&args, &inputs);
    }
    let mut reports = Vec::new();
    for input in &inputs {
        reports.extend(read_reports(&input.name, &input.text).map_err(|e| CliError::Input(e.to_string()))?);
    }
    let merged = merge_reports(&reports).map_err(|e| CliError::Input(e.to_string()))?;
    let mut out = stdout();
    out.write_all(merged.render(ReportFormat::new(args.json, args.unique)).as_bytes())?;
    out.flush()?;
    Ok(if merged.solutions == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// Adds up the shard reports of `backtrack xcover --shard I/M --json`.
fn merge_xcover(args: &Args, inputs: &[Input]) -> CliResult {
    if args.unique {
        return Err(CliError::Input(
            "--unique is for queens results; exact-cover counts have no symmetry classes".into(),
        ));
    }
    let mut reports = Vec::new();
    for input in inputs {
        reports.extend(xcover::read_reports(&input.name, &input.text).map_err(|e| CliError::Input(e.to_string()))?);
    }
    let merged = xcover::merge_reports(&reports).map_err(|e| CliError::Input(e.to_string()))?;
    let mut out = stdout();
    match args.json {
        true => out.write_all(merged.to_json_line().as_bytes())?,
        false => writeln!(out, "{}", merged.solutions)?,
    }
    out.flush()?;
    Ok(if merged.solutions == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}
