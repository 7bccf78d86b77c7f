//! A planned exact-cover count (or one shard of it) that can be stopped and
//! resumed: the shared [`Run`](crate::plan::Run) over exact-cover
//! checkpoints, counting what is left on the CPU's threads.

use super::{Checkpoint, Report};
use crate::plan::Resumable;
use crate::search::{Control, Threads};

/// Why an exact-cover run did not give a complete count.
pub type RunError = crate::plan::RunError;

/// A count of a plan, or of one shard of it, resumed from its checkpoint
/// file where there is one.
pub type Run<'a> = crate::plan::Run<'a, Checkpoint>;

impl Run<'_> {
    /// Counts the pending subproblems on `threads` threads, calling
    /// `finished` with each one's index as it ends (for a progress bar) and
    /// saving the checkpoint every [interval](crate::plan::CheckpointSaving::interval),
    /// at the end, and after `control` is cancelled. A failed save cancels
    /// `control` and is the error.
    pub fn count(self, threads: Threads, control: &Control, finished: impl FnMut(usize)) -> Result<Report, RunError> {
        let (plan, shard) = (self.plan(), self.shard());
        let (state, seconds) = self.count_with(control, finished, |skip, done| {
            plan.count_with(threads, |i| skip[i], control, done).map_err(RunError::Threads)
        })?;
        Ok(Report::new(plan, shard, state.solutions(), seconds, threads.get() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{CheckpointSaving, Shard};
    use crate::xcover::plan::Plan;
    use crate::xcover::{parse, Engine};
    use std::fs;
    use std::time::Duration;

    #[test]
    fn a_run_resumes_from_its_checkpoint_and_shards_add_up() {
        let text =
            fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/xcover/queens-8.dlx")).unwrap();
        let problem = parse(&text).unwrap().problem;
        let plan = Plan::new(&text, &problem, Engine::Auto);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.ckpt");
        let saving = Some(CheckpointSaving { path: path.clone(), interval: Duration::ZERO });
        // What a stopped run leaves: its first subproblems finished.
        let mut stopped = Checkpoint::new(&plan, None);
        for i in 0..plan.len() / 2 {
            stopped.record(i, plan.solve(i, &Control::new()).unwrap());
        }
        stopped.save(&path).unwrap();
        let run = Run::start(&plan, None, saving.clone()).unwrap();
        let mut counted = 0;
        let report = run.count(Threads::new(2).unwrap(), &Control::new(), |_| counted += 1).unwrap();
        assert_eq!((report.solutions, counted), (92, plan.len() - plan.len() / 2));
        assert_eq!(Checkpoint::load(&path, &plan, None).unwrap().solutions(), 92);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
        // A cancelled run says what it saved.
        fs::remove_file(&path).unwrap();
        let control = Control::new();
        control.cancel();
        let stopped = Run::start(&plan, None, saving).unwrap().count(Threads::ONE, &control, |_| {}).unwrap_err();
        assert!(stopped.to_string().contains("rerun the same command to resume"), "{stopped}");
        // Shards add up to the whole count.
        let total: u128 = (0..3)
            .map(|index| {
                let run = Run::start(&plan, Some(Shard { index, count: 3 }), None).unwrap();
                run.count(Threads::ONE, &Control::new(), |_| {}).unwrap().solutions
            })
            .sum();
        assert_eq!(total, 92);
    }
}
