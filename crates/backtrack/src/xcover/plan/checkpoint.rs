//! The checkpoint file of an exact-cover count: which subproblems of which
//! plan are done, and their summed count. Reading one checks that it
//! belongs to the very run that resumes it (same input, engine, plan and
//! shard) and that it is not corrupt.

use serde::{Deserialize, Serialize};

use super::{Plan, PLAN_VERSION};
use crate::error::Quoted;
use crate::plan::{CheckpointError, Done, Resumable, Shard};

/// What a checkpoint file holds, as JSON.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointFile {
    format: String,
    plan_version: u32,
    problem_hash: String,
    engine: String,
    plan_subproblems: u64,
    shard: Option<Shard>,
    /// Finished subproblems as half-open index ranges `[start, end)`.
    done: Vec<[u64; 2]>,
    solutions: u128,
}

/// The `format` field of every exact-cover checkpoint file.
const CHECKPOINT_FORMAT: &str = "backtrack-xcover-checkpoint";

/// A run's progress: which subproblems are finished, and their count.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    problem_hash: String,
    engine: &'static str,
    shard: Option<Shard>,
    done: Done,
    solutions: u128,
}

impl Resumable for Checkpoint {
    type Plan = Plan;
    type Count = u64;
    type EngineError = std::convert::Infallible;

    fn subproblems(plan: &Plan) -> usize {
        plan.len()
    }

    /// A run of `plan` (or of one shard of it) with nothing done yet.
    fn new(plan: &Plan, shard: Option<Shard>) -> Self {
        Checkpoint {
            problem_hash: plan.problem_hash(),
            engine: plan.engine().name(),
            shard,
            done: Done::new(plan.len()),
            solutions: 0,
        }
    }

    /// Reads a checkpoint written by [`to_json`](Self::to_json), refusing
    /// one of another run (input, engine, plan, shard or plan version) or
    /// one whose ranges and count do not fit together.
    fn from_json(bytes: &[u8], plan: &Plan, shard: Option<Shard>) -> Result<Self, CheckpointError> {
        let file: CheckpointFile = serde_json::from_slice(crate::text::strip_bom_bytes(bytes))
            .map_err(|e| CheckpointError::malformed("xcover", &e))?;
        let refuse = |what: String| CheckpointError::Refused(what);
        if file.format != CHECKPOINT_FORMAT {
            return Err(refuse(format!("not an xcover checkpoint (format '{}')", Quoted(&file.format))));
        }
        if file.plan_version != PLAN_VERSION {
            return Err(refuse(format!(
                "written by an incompatible version (plan version {}, this program uses {PLAN_VERSION})",
                file.plan_version
            )));
        }
        if file.problem_hash != plan.problem_hash() {
            return Err(refuse(format!(
                "it is for another input (hash {}, this input's is {})",
                Quoted(&file.problem_hash),
                plan.problem_hash()
            )));
        }
        if file.engine != plan.engine().name() || file.plan_subproblems != plan.len() as u64 {
            return Err(refuse(format!(
                "its subproblem plan ({} engine, {} subproblems) differs from this run's ({} engine, {})",
                Quoted(&file.engine),
                file.plan_subproblems,
                plan.engine().name(),
                plan.len()
            )));
        }
        if file.shard != shard {
            let show = |s: Option<Shard>| {
                s.map_or("the whole count".to_string(), |s| format!("shard {}/{}", s.index, s.count))
            };
            return Err(refuse(format!("it is for {}, not {}", show(file.shard), show(shard))));
        }
        let done = Done::from_ranges(plan.len(), &file.done, shard).map_err(|e| refuse(e.to_string()))?;
        if file.solutions > 0 && done.none() {
            return Err(refuse("corrupt: its count does not fit its finished subproblems".into()));
        }
        Ok(Checkpoint { done, solutions: file.solutions, ..Checkpoint::new(plan, shard) })
    }

    /// The checkpoint as one line of JSON, ending with a newline.
    fn to_json(&self) -> Vec<u8> {
        let file = CheckpointFile {
            format: CHECKPOINT_FORMAT.into(),
            plan_version: PLAN_VERSION,
            problem_hash: self.problem_hash.clone(),
            engine: self.engine.into(),
            plan_subproblems: self.done.len() as u64,
            shard: self.shard,
            done: self.done.ranges(),
            solutions: self.solutions,
        };
        let mut text = serde_json::to_vec(&file).expect("numbers, strings and lists always serialize");
        text.push(b'\n');
        text
    }

    /// Records subproblem `index` as finished with `count` solutions.
    fn record(&mut self, index: usize, count: u64) {
        self.done.set(index);
        self.solutions += u128::from(count);
    }

    /// Whether subproblem `index` is finished.
    fn is_done(&self, index: usize) -> bool {
        self.done.get(index)
    }

    /// The summed count of the finished subproblems.
    fn solutions(&self) -> u128 {
        self.solutions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::{parse, Engine};
    use proptest::prelude::*;

    const TOY: &str = "a b c d\na b\nc d\na c\nb d\na d\nb c\na\nb\nc\nd\n";

    fn plan() -> Plan {
        Plan::new(TOY, &parse(TOY).unwrap().problem, Engine::Auto)
    }

    #[test]
    fn round_trips_and_refuses_other_runs() {
        let plan = plan();
        assert!(plan.len() >= 2);
        let mut state = Checkpoint::new(&plan, None);
        state.record(1, 3);
        let text = state.to_json();
        let back = Checkpoint::from_json(&text, &plan, None).unwrap();
        assert!(back.is_done(1) && !back.is_done(0));
        assert_eq!(back.solutions(), 3);
        let shard = Some(Shard { index: 0, count: 2 });
        assert!(matches!(Checkpoint::from_json(&text, &plan, shard), Err(CheckpointError::Refused(_))));
        let other = Plan::new("x\nx\n", &parse("x\nx\n").unwrap().problem, Engine::Auto);
        let refused = Checkpoint::from_json(&text, &other, None).unwrap_err().to_string();
        assert!(refused.starts_with("it is for another input"), "{refused}");
        assert!(matches!(Checkpoint::from_json(b"{", &plan, None), Err(CheckpointError::Malformed { .. })));
    }

    proptest! {
        /// A damaged checkpoint never panics: each byte changed, cut or
        /// inserted gives the same checkpoint back or a refusal.
        #[test]
        fn damaged_checkpoints_are_refused_or_read_whole(at in 0usize..400, byte in any::<u8>(), how in 0u8..3) {
            let plan = plan();
            let mut state = Checkpoint::new(&plan, None);
            state.record(0, 2);
            let mut text = state.to_json();
            let at = at % text.len();
            match how {
                0 => text[at] = byte,
                1 => text.truncate(at),
                _ => text.insert(at, byte),
            }
            if let Ok(back) = Checkpoint::from_json(&text, &plan, None) {
                // What is read is a whole checkpoint of this plan: it
                // writes and reads back to itself.
                let again = Checkpoint::from_json(&back.to_json(), &plan, None).unwrap();
                prop_assert_eq!(again.solutions(), back.solutions());
                prop_assert!((0..plan.len()).all(|i| again.is_done(i) == back.is_done(i)));
            }
        }
    }
}
