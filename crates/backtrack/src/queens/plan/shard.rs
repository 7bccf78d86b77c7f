//! The report of a count that `merge` adds up.

use serde::{Deserialize, Serialize};

use super::Plan;
use crate::plan::json_line;
pub use crate::plan::{Shard, ShardError};
use crate::queens::Counts;

/// The result of a count as one JSON object: what `queens --json` prints,
/// and what `merge` reads back.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Report {
    /// Board size.
    pub n: u32,
    /// Solutions counted (all of them, or this shard's).
    pub solutions: u128,
    /// Solutions distinct up to symmetry (asked for, and always in shards).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unique: Option<u128>,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
    /// Subproblems this run covered.
    pub subproblems: u64,
    /// Worker threads (or MPI worker ranks).
    pub threads: u64,
    /// The shard counted, if only one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<Shard>,
    /// Subproblems in the whole plan.
    pub plan_subproblems: u64,
    /// Rows fixed by each subproblem.
    pub plan_depth: u64,
    /// [`PLAN_VERSION`](super::PLAN_VERSION) of the program that counted.
    pub plan_version: u32,
}

impl Report {
    /// The report of a count of `plan` (or of its `shard`) that found
    /// `counts` in `seconds` on `threads` threads (or worker ranks): the
    /// unique solutions are kept when `unique` asks for them, and always
    /// in a shard's report, which `merge` adds up.
    pub fn new(plan: &Plan, shard: Option<Shard>, counts: Counts, unique: bool, seconds: f64, threads: u64) -> Report {
        let subproblems = match shard {
            Some(shard) => (0..plan.len()).filter(|&i| shard.contains(i)).count(),
            None => plan.len(),
        };
        Report {
            n: plan.n() as u32,
            solutions: counts.total,
            unique: (unique || shard.is_some()).then_some(counts.unique),
            seconds,
            subproblems: subproblems as u64,
            threads,
            shard,
            plan_subproblems: plan.len() as u64,
            plan_depth: plan.depth() as u64,
            plan_version: super::PLAN_VERSION,
        }
    }

    /// The line a count prints, newline included: the solutions, the
    /// unique solutions, or the whole report as one JSON object.
    pub fn render(&self, format: ReportFormat) -> String {
        match format {
            ReportFormat::Solutions => format!("{}\n", self.solutions),
            ReportFormat::Unique => format!("{}\n", self.unique.unwrap_or_default()),
            ReportFormat::Json => json_line(self),
        }
    }

    /// Whether the count shows the board has no solution: the whole board
    /// counted and nothing found. A shard's count is its share, even when 0.
    pub fn no_solution(&self) -> bool {
        self.solutions == 0 && self.shard.is_none()
    }
}

/// What a finished count, or a merge, prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// The number of solutions.
    Solutions,
    /// The number of solutions distinct up to rotation and reflection.
    Unique,
    /// Everything, as one JSON object.
    Json,
}

impl ReportFormat {
    /// The format that `--json` and `--unique` ask for (JSON when both).
    pub fn new(json: bool, unique: bool) -> ReportFormat {
        match (json, unique) {
            (true, _) => ReportFormat::Json,
            (false, true) => ReportFormat::Unique,
            (false, false) => ReportFormat::Solutions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_cover_their_shard_and_render() {
        let plan = Plan::new(8).unwrap();
        let counts = Counts { total: 92, unique: 12 };
        let whole = Report::new(&plan, None, counts, false, 0.5, 2);
        assert_eq!((whole.subproblems, whole.unique), (plan.len() as u64, None));
        assert_eq!(whole.render(ReportFormat::new(false, false)), "92\n");
        assert_eq!(whole.render(ReportFormat::new(false, true)), "0\n");
        let json = whole.render(ReportFormat::new(true, true));
        assert!(json.starts_with("{\"n\":8,\"solutions\":92,\"seconds\":0.5,") && json.ends_with("}\n"), "{json}");
        let shard = Some(Shard { index: 1, count: 3 });
        let part = Report::new(&plan, shard, counts, false, 0.5, 2);
        let covered = (0..plan.len()).filter(|i| i % 3 == 1).count() as u64;
        assert_eq!((part.subproblems, part.unique), (covered, Some(12)));
        assert_eq!(part.render(ReportFormat::Unique), "12\n");
        let none = Report::new(&plan, None, Counts::default(), true, 0.0, 1);
        assert!(none.no_solution() && !Report::new(&plan, shard, Counts::default(), true, 0.0, 1).no_solution());
    }
}
