//! Adding up the reports of a sharded count, after checking that they form
//! one complete set.

use std::fmt;

use serde::Serialize;

use super::shard::{Report, Shard};

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

/// Most shards a set may have.
const MAX_SHARDS: u64 = 1 << 24;

/// Checks that `reports` (each with the name it is reported by) are the
/// shards of one count: every report a shard of the same board, shard count
/// and plan, each shard exactly once, and the subproblems covered equal to
/// the plan's; then adds them up, refusing sums that overflow.
pub fn merge_reports(reports: &[(String, Report)]) -> Result<Merged, MergeError> {
    let mut shards: Vec<(&str, &Report, Shard)> = Vec::with_capacity(reports.len());
    for (name, report) in reports {
        let Some(shard) = report.shard else {
            return Err(MergeError::new(format!(
                "{name}: not a shard result (no \"shard\" field); produce one with --shard I/M --json"
            )));
        };
        if shard.count == 0 || shard.index >= shard.count {
            return Err(MergeError::new(format!(
                "{name}: corrupt: shard {}/{} does not exist",
                shard.index, shard.count
            )));
        }
        if report.unique.is_none() {
            return Err(MergeError::new(format!("{name}: corrupt: no \"unique\" count")));
        }
        shards.push((name, report, shard));
    }
    let Some(&(first_name, first, first_shard)) = shards.first() else {
        return Err(MergeError::new("no shard reports to merge".to_string()));
    };
    for &(name, report, shard) in &shards[1..] {
        let mismatch = |what: &str, a: String, b: String| {
            MergeError::new(format!(
                "{name}: {what} {b} does not match {first_name}'s {a}; these shards are not one set"
            ))
        };
        if report.n != first.n {
            return Err(mismatch("board size", format!("N={}", first.n), format!("N={}", report.n)));
        }
        if shard.count != first_shard.count {
            return Err(mismatch("shard count", first_shard.count.to_string(), shard.count.to_string()));
        }
        let plan =
            |r: &Report| format!("v{} depth {} ({} subproblems)", r.plan_version, r.plan_depth, r.plan_subproblems);
        if plan(report) != plan(first) {
            return Err(mismatch("plan", plan(first), plan(report)));
        }
    }
    let count = first_shard.count;
    if count > MAX_SHARDS {
        return Err(MergeError::new(format!("{first_name}: shard count {count} is too large")));
    }
    let mut seen: Vec<Option<&str>> = vec![None; count as usize];
    for &(name, _, shard) in &shards {
        let slot = &mut seen[shard.index as usize];
        if let Some(other) = slot {
            return Err(MergeError::new(format!(
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
        return Err(MergeError::new(format!(
            "incomplete set: shard(s) {}{more} of {count} missing",
            missing.join(", ")
        )));
    }
    let overflow = |what: &str| {
        MergeError::new(format!(
            "corrupt set: the {what} add up to more than the largest count (2^128 - 1); a report is damaged"
        ))
    };
    let mut solutions = 0u128;
    let mut unique = 0u128;
    let mut subproblems = 0u64;
    for &(_, report, _) in &shards {
        solutions = solutions.checked_add(report.solutions).ok_or_else(|| overflow("solution counts"))?;
        unique = unique.checked_add(report.unique.unwrap_or(0)).ok_or_else(|| overflow("unique counts"))?;
        subproblems = subproblems.checked_add(report.subproblems).ok_or_else(|| overflow("subproblem counts"))?;
    }
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
        seconds: shards.iter().map(|(_, r, _)| r.seconds).sum(),
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
    fn mismatched_board_refused() {
        let mut set = vec![report(0, 2, 1), report(1, 2, 1)];
        set[1].1.n = 9;
        let err = merge_reports(&set).unwrap_err().to_string();
        assert_eq!(err, "s1: board size N=9 does not match s0's N=8; these shards are not one set");
    }
}
