//! `backtrack merge FILE...`: add up the `--json` results of `backtrack queens
//! N --shard I/M` runs, after checking that they form one complete set.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};
use backtrack::queens::plan::{merge_reports, read_reports};
use backtrack::queens::ReportFormat;

/// Add up the shard results of `backtrack queens N --shard I/M --json`.
///
/// Refuses a set with a missing or repeated shard, or with shards of different boards, shard
/// counts or program versions, so a sum it prints is always a complete count.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    for i in 0 1 2 3; do backtrack queens 16 --shard $i/4 --json > s$i.json; done\n  \
    backtrack merge s0.json s1.json s2.json s3.json          14772512\n  \
    cat s*.json | backtrack merge                            the same, read from standard input\n  \
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

pub fn run(args: Args) -> CliResult {
    let mut reports = Vec::new();
    let files: Vec<Option<&PathBuf>> =
        if args.files.is_empty() { vec![None] } else { args.files.iter().map(Some).collect() };
    for file in files {
        let input = read_input(file)?;
        reports.extend(read_reports(&input.name, &input.text).map_err(|e| CliError::Input(e.to_string()))?);
    }
    let merged = merge_reports(&reports).map_err(|e| CliError::Input(e.to_string()))?;
    let mut out = stdout();
    out.write_all(merged.render(ReportFormat::new(args.json, args.unique)).as_bytes())?;
    out.flush()?;
    Ok(if merged.solutions == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}
