//! The checkpoint file of a count: which subproblems of which plan are
//! done, and their summed counts. Reading one checks that it belongs to the
//! very run that resumes it (same board, plan and shard) and that it is not
//! corrupt. Reading and saving the file (atomically) are
//! [`Resumable::load`] and [`Resumable::save`].

use super::{Plan, Shard, PLAN_VERSION};
use crate::error::Quoted;
use crate::plan::{CheckpointError, Done, Resumable};
use crate::queens::gpu::GpuError;
use crate::queens::Counts;
use serde::{Deserialize, Serialize};

/// What a checkpoint file holds, as JSON.
#[derive(Serialize, Deserialize)]
struct CheckpointFile {
    format: String,
    plan_version: u32,
    n: u32,
    plan_depth: u64,
    plan_subproblems: u64,
    shard: Option<Shard>,
    /// Finished subproblems as half-open index ranges `[start, end)`.
    done: Vec<[u64; 2]>,
    solutions: u128,
    unique: u128,
}

/// The `format` field of every checkpoint file.
const CHECKPOINT_FORMAT: &str = "backtrack-queens-checkpoint";

/// A run's progress: which subproblems are finished, and their counts.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    n: u32,
    depth: u64,
    shard: Option<Shard>,
    done: Done,
    counts: Counts,
}

impl Resumable for Checkpoint {
    type Plan = Plan;
    type Count = Counts;
    type EngineError = GpuError;

    fn subproblems(plan: &Plan) -> usize {
        plan.len()
    }

    /// A run of `plan` (or of one shard of it) with nothing done yet.
    fn new(plan: &Plan, shard: Option<Shard>) -> Self {
        Checkpoint {
            n: plan.n() as u32,
            depth: plan.depth() as u64,
            shard,
            done: Done::new(plan.len()),
            counts: Counts::default(),
        }
    }

    /// Reads a checkpoint written by [`to_json`](Self::to_json), refusing
    /// one of another run (board, plan, shard or plan version) or one whose
    /// ranges and counts do not fit together.
    fn from_json(bytes: &[u8], plan: &Plan, shard: Option<Shard>) -> Result<Self, CheckpointError> {
        let file: CheckpointFile = serde_json::from_slice(crate::text::strip_bom_bytes(bytes))
            .map_err(|e| CheckpointError::malformed("queens", &e))?;
        let refuse = |what: String| CheckpointError::Refused(what);
        if file.format != CHECKPOINT_FORMAT {
            return Err(refuse(format!("not a queens checkpoint (format '{}')", Quoted(&file.format))));
        }
        if file.plan_version != PLAN_VERSION {
            return Err(refuse(format!(
                "written by an incompatible version (plan version {}, this program uses {PLAN_VERSION})",
                file.plan_version
            )));
        }
        if file.n as usize != plan.n() {
            return Err(refuse(format!("it is for N={}, not N={}", file.n, plan.n())));
        }
        if file.plan_depth != plan.depth() as u64 || file.plan_subproblems != plan.len() as u64 {
            return Err(refuse("its subproblem plan differs from this program's".into()));
        }
        if file.shard != shard {
            let show = |s: Option<Shard>| {
                s.map_or("the whole board".to_string(), |s| format!("shard {}/{}", s.index, s.count))
            };
            return Err(refuse(format!("it is for {}, not {}", show(file.shard), show(shard))));
        }
        let mut state = Checkpoint::new(plan, shard);
        state.done = Done::from_ranges(plan.len(), &file.done, shard).map_err(|e| refuse(e.to_string()))?;
        if file.unique > file.solutions || (file.solutions > 0 && state.done.none()) {
            return Err(refuse("corrupt: its counts do not fit its finished subproblems".into()));
        }
        state.counts = Counts { total: file.solutions, unique: file.unique };
        Ok(state)
    }

    /// The checkpoint as one line of JSON, ending with a newline.
    fn to_json(&self) -> Vec<u8> {
        let done = self.done.ranges();
        let file = CheckpointFile {
            format: CHECKPOINT_FORMAT.into(),
            plan_version: PLAN_VERSION,
            n: self.n,
            plan_depth: self.depth,
            plan_subproblems: self.done.len() as u64,
            shard: self.shard,
            done,
            solutions: self.counts.total,
            unique: self.counts.unique,
        };
        let mut text = serde_json::to_vec(&file).expect("numbers, strings and lists always serialize");
        text.push(b'\n');
        text
    }

    /// Records subproblem `index` as finished with `counts`.
    fn record(&mut self, index: usize, counts: Counts) {
        self.done.set(index);
        self.counts.add(counts);
    }

    /// Whether subproblem `index` is finished.
    fn is_done(&self, index: usize) -> bool {
        self.done.get(index)
    }

    fn solutions(&self) -> u128 {
        self.counts.total
    }
}

impl Checkpoint {
    /// The summed counts of the finished subproblems.
    pub fn counts(&self) -> Counts {
        self.counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_other_runs() {
        let plan = Plan::new(10).unwrap();
        let shard = Some(Shard { index: 1, count: 3 });
        let mut state = Checkpoint::new(&plan, shard);
        state.record(1, Counts { total: 8, unique: 1 });
        state.record(4, Counts { total: 4, unique: 1 });
        let text = state.to_json();
        let back = Checkpoint::from_json(&text, &plan, shard).unwrap();
        assert!(back.is_done(1) && back.is_done(4) && !back.is_done(7));
        assert_eq!(back.counts(), Counts { total: 12, unique: 2 });
        assert!(matches!(Checkpoint::from_json(&text, &plan, None), Err(CheckpointError::Refused(_))));
        let other = Plan::new(11).unwrap();
        assert!(matches!(Checkpoint::from_json(&text, &other, shard), Err(CheckpointError::Refused(_))));
        assert!(matches!(Checkpoint::from_json(b"{", &plan, shard), Err(CheckpointError::Malformed { .. })));
    }
}
