//! The report of an exact-cover count (`xcover --json` on a planned run),
//! and adding up the reports of a sharded count.

use serde::{Deserialize, Serialize};

use super::{Plan, PLAN_VERSION};
use crate::plan::json::report_problem;
use crate::plan::{check_shard_set, checked_sum, json_line, SetError, Shard};

/// The result of a planned count as one JSON object: what `xcover --json`
/// prints with `--checkpoint` or `--shard`, and what `merge` reads back.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// Solutions counted (all of them, or this shard's).
    pub solutions: u128,
    /// Always `true`: a planned count has no limit.
    pub complete: bool,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Worker threads.
    pub threads: u64,
    /// The engine that counted: `small`, `dense`, `links` or `mcc`.
    pub engine: String,
    /// The input's content hash, 16 hexadecimal digits.
    pub problem_hash: String,
    /// Subproblems this run covered.
    pub subproblems: u64,
    /// The shard counted, if only one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<Shard>,
    /// Subproblems in the whole plan.
    pub plan_subproblems: u64,
    /// [`PLAN_VERSION`] of the program that counted.
    pub plan_version: u32,
}

impl Report {
    /// The report of a count of `plan` (or of its `shard`) that found
    /// `solutions` in `seconds` on `threads` threads.
    pub fn new(plan: &Plan, shard: Option<Shard>, solutions: u128, seconds: f64, threads: u64) -> Report {
        let subproblems = match shard {
            Some(shard) => (0..plan.len()).filter(|&i| shard.contains(i)).count(),
            None => plan.len(),
        };
        Report {
            solutions,
            complete: true,
            seconds,
            threads,
            engine: plan.engine().name().into(),
            problem_hash: plan.problem_hash(),
            subproblems: subproblems as u64,
            shard,
            plan_subproblems: plan.len() as u64,
            plan_version: PLAN_VERSION,
        }
    }

    /// The report as one line of JSON, newline included.
    pub fn to_json_line(&self) -> String {
        json_line(self)
    }
}

/// The sum of a complete set of shard reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Merged {
    /// Solutions, all shards together.
    pub solutions: u128,
    /// Always `true`: every shard was counted.
    pub complete: bool,
    /// Sum of the shards' wall-clock seconds.
    pub seconds: f64,
    /// The engine that counted.
    pub engine: String,
    /// The input's content hash.
    pub problem_hash: String,
    /// Subproblems the shards covered.
    pub subproblems: u64,
    /// Shards in the set.
    pub shards: u64,
    /// Subproblems in the plan.
    pub plan_subproblems: u64,
    /// [`PLAN_VERSION`] of the program that counted.
    pub plan_version: u32,
}

impl Merged {
    /// The sum as one line of JSON, newline included.
    pub fn to_json_line(&self) -> String {
        json_line(self)
    }
}

/// Whether the first JSON object of `text` is an exact-cover report (it
/// has a `"problem_hash"` field), so that `merge` reads the input as such.
pub fn is_xcover_report(text: &str) -> bool {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    matches!(values.next(), Some(Ok(serde_json::Value::Object(fields))) if fields.contains_key("problem_hash"))
}

/// Reads the shard reports in `text`, the input called `name`: one JSON
/// object after another, as `xcover --shard I/M --json` writes them. Each
/// comes back with the name `merge_reports` reports it by: `name` for the
/// first, `name (report K)` for the K-th.
pub fn read_reports(name: &str, text: &str) -> Result<Vec<(String, Report)>, SetError> {
    let mut reports = Vec::new();
    for report in serde_json::Deserializer::from_str(text).into_iter::<Report>() {
        let report = report.map_err(|e| SetError(format!("{name}: {}", report_problem("xcover", &e))))?;
        let place = reports.len() + 1;
        let named = if place == 1 { name.to_string() } else { format!("{name} (report {place})") };
        reports.push((named, report));
    }
    if reports.is_empty() {
        return Err(SetError(crate::plan::json::no_report(name)));
    }
    Ok(reports)
}

/// Checks that `reports` are the shards of one count (the same input,
/// engine, plan and shard count, each shard once, covering the plan) and
/// adds them up, refusing sums that overflow.
pub fn merge_reports(reports: &[(String, Report)]) -> Result<Merged, SetError> {
    let named: Vec<(&str, Option<Shard>)> = reports.iter().map(|(name, r)| (name.as_str(), r.shard)).collect();
    let shards = check_shard_set(&named)?;
    let (first_name, first) = &reports[0];
    let plan = |r: &Report| format!("v{} {} engine ({} subproblems)", r.plan_version, r.engine, r.plan_subproblems);
    for (name, report) in reports {
        let mismatch = |what: &str, a: &str, b: &str| {
            SetError(format!("{name}: {what} {b} does not match {first_name}'s {a}; these shards are not one set"))
        };
        if report.problem_hash != first.problem_hash {
            return Err(mismatch("input hash", &first.problem_hash, &report.problem_hash));
        }
        if plan(report) != plan(first) {
            return Err(mismatch("plan", &plan(first), &plan(report)));
        }
    }
    let solutions = checked_sum(reports.iter().map(|(_, r)| r.solutions), "solution counts")?;
    let subproblems = checked_sum(reports.iter().map(|(_, r)| r.subproblems), "subproblem counts")?;
    if subproblems != first.plan_subproblems {
        return Err(SetError(format!(
            "corrupt set: the shards cover {subproblems} subproblems, the plan has {}",
            first.plan_subproblems
        )));
    }
    Ok(Merged {
        solutions,
        complete: true,
        seconds: reports.iter().map(|(_, r)| r.seconds).sum(),
        engine: first.engine.clone(),
        problem_hash: first.problem_hash.clone(),
        subproblems,
        shards,
        plan_subproblems: first.plan_subproblems,
        plan_version: first.plan_version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(index: u64, count: u64, solutions: u128) -> (String, Report) {
        let report = Report {
            solutions,
            complete: true,
            seconds: 1.0,
            threads: 1,
            engine: "dense".into(),
            problem_hash: "00000000000000ab".into(),
            subproblems: 1,
            shard: Some(Shard { index, count }),
            plan_subproblems: count,
            plan_version: PLAN_VERSION,
        };
        (format!("s{index}"), report)
    }

    #[test]
    fn sets_add_up_and_bad_sets_are_refused() {
        let set: Vec<_> = (0..3).map(|i| report(i, 3, 10)).collect();
        assert_eq!(merge_reports(&set).unwrap().solutions, 30);
        let refused = |set: &[(String, Report)]| merge_reports(set).unwrap_err().to_string();
        assert_eq!(refused(&set[..2]), "incomplete set: shard(s) 2 of 3 missing");
        let mut other = set.clone();
        other[2].1.problem_hash = "00000000000000cd".into();
        assert!(refused(&other).starts_with("s2: input hash 00000000000000cd does not match"), "{}", refused(&other));
        let mut big = set.clone();
        big[0].1.solutions = u128::MAX;
        assert!(refused(&big).starts_with("corrupt set: the solution counts"), "{}", refused(&big));
    }

    #[test]
    fn reports_read_back_and_are_told_from_queens_reports() {
        let text = format!("{}{}", report(0, 2, 1).1.to_json_line(), report(1, 2, 2).1.to_json_line());
        assert!(is_xcover_report(&text) && !is_xcover_report("{\"n\":8}") && !is_xcover_report("x"));
        let reports = read_reports("s", &text).unwrap();
        assert_eq!(merge_reports(&reports).unwrap().solutions, 3);
        let empty = read_reports("s", " \n").unwrap_err().to_string();
        assert_eq!(empty, "s: no shard report in it (merge reads what queens or xcover --shard I/M --json writes)");
        let cut = &text[..text.len() / 3];
        assert!(read_reports("s", cut).unwrap_err().to_string().contains("ends in the middle"));
    }
}
