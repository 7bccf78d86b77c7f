//! `backtrack merge FILE...`: add up the `--json` results of `backtrack queens
//! N --shard I/M` runs, after checking that they form one complete set.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};
use backtrack::queens::plan::merge_reports;
use backtrack::queens::Report;

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
    let mut reports: Vec<(String, Report)> = Vec::new();
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
            reports.push((name, report));
        }
        if count == 0 {
            return Err(CliError::Input(format!("{}: not a queens shard result: no report in it", input.name)));
        }
    }
    let merged = merge_reports(&reports).map_err(|e| CliError::Input(e.to_string()))?;
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
    // An empty input ends before column 1; the first column is 1.
    let place = format!("line {}, column {}", e.line(), e.column().max(1));
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
