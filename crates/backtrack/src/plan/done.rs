//! Which subproblems of a plan are finished, as a checkpoint file lists them.

use std::fmt;

use super::Shard;

/// The finished subproblems of a plan of `len` subproblems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    done: Vec<bool>,
}

/// Why a list of finished ranges does not fit a plan (a corrupt checkpoint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoneError(String);

impl fmt::Display for DoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DoneError {}

impl Done {
    /// Nothing finished among `len` subproblems.
    pub fn new(len: usize) -> Done {
        Done { done: vec![false; len] }
    }

    /// Reads the half-open ranges `[start, end)` that [`ranges`](Self::ranges)
    /// writes, refusing ranges that are empty, out of the plan, overlapping,
    /// or (with a `shard`) outside it.
    pub fn from_ranges(len: usize, ranges: &[[u64; 2]], shard: Option<Shard>) -> Result<Done, DoneError> {
        let mut state = Done::new(len);
        for &[start, end] in ranges {
            if start >= end || end > len as u64 {
                return Err(DoneError(format!("corrupt: subproblem range {start}..{end} is out of bounds")));
            }
            for i in start as usize..end as usize {
                if state.done[i] || shard.is_some_and(|s| !s.contains(i)) {
                    return Err(DoneError(format!("corrupt: subproblem {i} is listed twice or outside the shard")));
                }
                state.done[i] = true;
            }
        }
        Ok(state)
    }

    /// The finished subproblems as the fewest half-open ranges, in order.
    pub fn ranges(&self) -> Vec<[u64; 2]> {
        let mut ranges = Vec::new();
        let mut i = 0;
        while i < self.done.len() {
            if self.done[i] {
                let start = i;
                while i < self.done.len() && self.done[i] {
                    i += 1;
                }
                ranges.push([start as u64, i as u64]);
            } else {
                i += 1;
            }
        }
        ranges
    }

    /// Marks subproblem `index` finished.
    pub fn set(&mut self, index: usize) {
        self.done[index] = true;
    }

    /// Whether subproblem `index` is finished.
    pub fn get(&self, index: usize) -> bool {
        self.done[index]
    }

    /// Subproblems in the plan.
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether the plan has no subproblem.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Whether none is finished.
    pub fn none(&self) -> bool {
        !self.done.contains(&true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_round_trip_and_corrupt_ones_are_refused() {
        let mut done = Done::new(10);
        for i in [0, 1, 2, 5, 9] {
            done.set(i);
        }
        assert_eq!(done.ranges(), [[0, 3], [5, 6], [9, 10]]);
        assert_eq!(Done::from_ranges(10, &done.ranges(), None).unwrap(), done);
        assert!(Done::from_ranges(10, &[[3, 3]], None).is_err());
        assert!(Done::from_ranges(10, &[[3, 11]], None).is_err());
        assert!(Done::from_ranges(10, &[[0, 4], [3, 5]], None).is_err());
        assert!(Done::from_ranges(10, &[[0, 2]], Some(Shard { index: 0, count: 2 })).is_err());
        assert!(Done::from_ranges(10, &[[4, 5]], Some(Shard { index: 0, count: 2 })).is_ok());
    }
}
