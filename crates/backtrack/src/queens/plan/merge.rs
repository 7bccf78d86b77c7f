//! Adding up the reports of a sharded count: reading them back from the
//! text `queens --shard I/M --json` writes, and checking that they form one
//! complete set.

use std::fmt;

use serde::Serialize;

use super::shard::{Report, ReportFormat, Shard};
use crate::plan::json::report_problem;
use crate::plan::{check_shard_set, checked_sum};

/// The sum of a complete set of shard reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Merged {
    /// Board size.
    pub n: u32,
    /// Solutions, all shards together.
    pub solutions: u128,
    /// Solutions distinct up to rotation and reflection.
    pub unique: u128,
    /// Sum of the shards' wall-clock seconds (the CPU time they took, roughly).
    pub seconds: f64,
    /// Subproblems the shards covered.
    pub subproblems: u64,
    /// Shards in the set.
    pub shards: u64,
    /// Subproblems in the plan.
    pub plan_subproblems: u64,
    /// Rows fixed by each subproblem.
    pub plan_depth: u64,
    /// [`PLAN_VERSION`](super::PLAN_VERSION) of the program that counted.
    pub plan_version: u32,
}

/// Why a set of reports cannot be merged; the message names the report at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    message: String,
}

impl MergeError {
    fn new(message: String) -> MergeError {
        MergeError { message }
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MergeError {}

impl Merged {
    /// The line a merge prints, newline included: the solutions, the
    /// unique solutions, or the whole sum as one JSON object.
    pub fn render(&self, format: ReportFormat) -> String {
        match format {
            ReportFormat::Solutions => format!("{}\n", self.solutions),
            ReportFormat::Unique => format!("{}\n", self.unique),
            ReportFormat::Json => crate::plan::json_line(self),
        }
    }
}

/// Reads the shard reports in `text`, the input called `name`: one JSON
/// object after another (whitespace between), as `queens --shard I/M
/// --json` writes them and a shell's `cat` joins them. Each comes back
/// with the name [`merge_reports`] reports it by: `name` for the first,
/// `name (report K)` for the K-th. An input without a report is refused;
/// a report that cannot be read is refused with its line and column, in
/// words about reports.
pub fn read_reports(name: &str, text: &str) -> Result<Vec<(String, Report)>, MergeError> {
    let mut reports = Vec::new();
    for report in serde_json::Deserializer::from_str(text).into_iter::<Report>() {
        let report = report.map_err(|e| MergeError::new(format!("{name}: {}", report_problem("queens", &e))))?;
        // Several reports in one input are named by their place in it.
        let place = reports.len() + 1;
        let named = if place == 1 { name.to_string() } else { format!("{name} (report {place})") };
        reports.push((named, report));
    }
    if reports.is_empty() {
        return Err(MergeError::new(crate::plan::json::no_report(name)));
    }
    Ok(reports)
}

/// Checks that `reports` (each with the name it is reported by) are the
/// shards of one count: every report a shard of the same board, shard count
/// and plan, each shard exactly once, and the subproblems covered equal to
/// the plan's; then adds them up, refusing sums that overflow.
pub fn merge_reports(reports: &[(String, Report)]) -> Result<Merged, MergeError> {
    let named: Vec<(&str, Option<Shard>)> = reports.iter().map(|(name, r)| (name.as_str(), r.shard)).collect();
    let count = check_shard_set(&named).map_err(|e| MergeError::new(e.0))?;
    let (first_name, first) = &reports[0];
    for (name, report) in reports {
        if report.unique.is_none() {
            return Err(MergeError::new(format!("{name}: corrupt: no \"unique\" count")));
        }
        let mismatch = |what: &str, a: String, b: String| {
            MergeError::new(format!(
                "{name}: {what} {b} does not match {first_name}'s {a}; these shards are not one set"
            ))
        };
        if report.n != first.n {
            return Err(mismatch("board size", format!("N={}", first.n), format!("N={}", report.n)));
        }
        let plan =
            |r: &Report| format!("v{} depth {} ({} subproblems)", r.plan_version, r.plan_depth, r.plan_subproblems);
        if plan(report) != plan(first) {
            return Err(mismatch("plan", plan(first), plan(report)));
        }
    }
    let sum = |values: Vec<u128>, what: &str| checked_sum(values, what).map_err(|e| MergeError::new(e.0));
    let solutions = sum(reports.iter().map(|(_, r)| r.solutions).collect(), "solution counts")?;
    let unique = sum(reports.iter().map(|(_, r)| r.unique.unwrap_or(0)).collect(), "unique counts")?;
    let subproblems = checked_sum(reports.iter().map(|(_, r)| r.subproblems), "subproblem counts")
        .map_err(|e| MergeError::new(e.0))?;
    if subproblems != first.plan_subproblems {
        return Err(MergeError::new(format!(
            "corrupt set: the shards cover {subproblems} subproblems, the plan has {}",
            first.plan_subproblems
        )));
    }
    Ok(Merged {
        n: first.n,
        solutions,
        unique,
        seconds: reports.iter().map(|(_, r)| r.seconds).sum(),
        subproblems,
        shards: count,
        plan_subproblems: first.plan_subproblems,
        plan_depth: first.plan_depth,
        plan_version: first.plan_version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(index: u64, count: u64, solutions: u128) -> (String, Report) {
        let report = Report {
            n: 8,
            solutions,
            unique: Some(solutions / 8),
            seconds: 1.0,
            subproblems: 1,
            threads: 1,
            shard: Some(Shard { index, count }),
            plan_subproblems: count,
            plan_depth: 1,
            plan_version: super::super::PLAN_VERSION,
        };
        (format!("s{index}"), report)
    }

    #[test]
    fn complete_set_adds_up() {
        let set: Vec<_> = (0..4).map(|i| report(i, 4, 10 + i as u128)).collect();
        let merged = merge_reports(&set).unwrap();
        assert_eq!((merged.solutions, merged.subproblems, merged.shards), (46, 4, 4));
        assert_eq!(merged.unique, 1 + 1 + 1 + 1);
    }

    #[test]
    fn missing_and_repeated_shards_refused() {
        let set = vec![report(0, 3, 1), report(2, 3, 1)];
        assert_eq!(merge_reports(&set).unwrap_err().to_string(), "incomplete set: shard(s) 1 of 3 missing");
        let set = vec![report(0, 2, 1), report(1, 2, 1), report(1, 2, 1)];
        assert_eq!(merge_reports(&set).unwrap_err().to_string(), "shard 1/2 appears twice: in s1 and in s1");
        assert!(merge_reports(&[]).is_err());
    }

    #[test]
    fn overflow_refused() {
        let set = vec![report(0, 2, u128::MAX), report(1, 2, 1)];
        let err = merge_reports(&set).unwrap_err().to_string();
        assert!(err.starts_with("corrupt set: the solution counts add up"), "{err}");
    }

    #[test]
    fn reports_read_back_named_by_place() {
        let text = format!(
            "{}\n{}",
            serde_json::to_string(&report(0, 2, 1).1).unwrap(),
            serde_json::to_string(&report(1, 2, 3).1).unwrap()
        );
        let reports = read_reports("s.json", &text).unwrap();
        let names: Vec<&str> = reports.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["s.json", "s.json (report 2)"]);
        assert_eq!(merge_reports(&reports).unwrap().solutions, 4);
    }

    #[test]
    fn unreadable_reports_refused_in_own_words() {
        let refused = |text: &str| read_reports("s", text).unwrap_err().to_string();
        assert_eq!(
            refused(""),
            "s: no shard report in it (merge reads what queens or xcover --shard I/M --json writes)"
        );
        assert_eq!(refused("x"), "s: line 1, column 1: not JSON: a shard report is one JSON object per shard");
        assert_eq!(refused("{\"n\": 8"), "s: line 1, column 7: ends in the middle of a report");
        assert_eq!(
            refused("{\"n\": 8}"),
            "s: line 1, column 8: not a queens shard report: the field \"solutions\" is missing"
        );
        assert!(refused("[1]").contains("a report is a JSON object with the fields"));
        assert!(refused("{\"n\": -1}").contains("a value of the wrong kind"));
    }

    #[test]
    fn merged_renders_each_format() {
        let set: Vec<_> = (0..2).map(|i| report(i, 2, 8)).collect();
        let merged = merge_reports(&set).unwrap();
        assert_eq!(merged.render(ReportFormat::Solutions), "16\n");
        assert_eq!(merged.render(ReportFormat::Unique), "2\n");
        let json = merged.render(ReportFormat::Json);
        assert!(json.starts_with("{\"n\":8,\"solutions\":16,\"unique\":2,") && json.ends_with("}\n"), "{json}");
    }

    #[test]
    fn mismatched_board_refused() {
        let mut set = vec![report(0, 2, 1), report(1, 2, 1)];
        set[1].1.n = 9;
        let err = merge_reports(&set).unwrap_err().to_string();
        assert_eq!(err, "s1: board size N=9 does not match s0's N=8; these shards are not one set");
    }
}
