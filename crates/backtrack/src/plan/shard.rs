//! Shards: one count spread over machines, each counting every M-th subproblem.

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

/// `value` as one line of JSON, newline included.
pub(crate) fn json_line(value: &impl Serialize) -> String {
    let mut line = serde_json::to_string(value).expect("numbers, strings and options always serialize");
    line.push('\n');
    line
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
