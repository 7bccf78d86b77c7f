//! Shards of a plan, and the report of a count that `merge` adds up.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::Quoted;

/// One shard of a plan: the subproblems whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's number, 0-based.
    pub index: u64,
    /// How many shards the plan is cut into.
    pub count: u64,
}

impl Shard {
    /// Whether subproblem `subproblem` of the plan belongs to this shard.
    pub fn contains(&self, subproblem: usize) -> bool {
        subproblem as u64 % self.count == self.index
    }
}

/// Why a text is not a shard `I/M`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardError {
    message: String,
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ShardError {}

/// Reads `I/M`: shard `I` (0-based) of `M`.
impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let fail = |message: String| ShardError { message };
        let (i, m) =
            text.split_once('/').ok_or_else(|| fail(format!("expected I/M such as 0/4, found '{}'", Quoted(text))))?;
        let index: u64 = i.trim().parse().map_err(|_| fail(format!("shard index '{}' is not a number", Quoted(i))))?;
        let count: u64 = m.trim().parse().map_err(|_| fail(format!("shard count '{}' is not a number", Quoted(m))))?;
        if count == 0 {
            return Err(fail("the shard count must be at least 1".into()));
        }
        if index >= count {
            return Err(fail(format!("shard index {index} is out of range: shards are numbered 0 to {}", count - 1)));
        }
        Ok(Shard { index, count })
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_read_and_refuse() {
        assert_eq!("3/16".parse::<Shard>(), Ok(Shard { index: 3, count: 16 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let shard = Shard { index: 1, count: 3 };
        assert_eq!((0..7).filter(|&i| shard.contains(i)).collect::<Vec<_>>(), [1, 4]);
    }
}
