//! A planned exact-cover count (or one shard of it) that can be stopped and
//! resumed: [`Run::start`] reads the checkpoint file a stopped run left, if
//! any, and [`Run::count`] counts what is left, saving the finished
//! subproblems every so often, when it ends and when it is cancelled
//! (atomically: see [`save_atomic`](crate::plan::save_atomic)).

use std::path::Path;
use std::time::Instant;

use super::{Checkpoint, Plan, Report};
use crate::plan::{load_checkpoint, save_checkpoint, CheckpointSaving, Shard};
use crate::search::{Control, Threads};

/// Why an exact-cover run did not give a complete count.
pub type RunError = crate::plan::RunError;

impl Checkpoint {
    /// Reads the checkpoint file at `path` if there is one, refusing one of
    /// another run or a corrupt one; no file means nothing done yet.
    pub fn load(path: &Path, plan: &Plan, shard: Option<Shard>) -> Result<Checkpoint, RunError> {
        let read = load_checkpoint(path, |bytes| Checkpoint::from_json(bytes, plan, shard))?;
        Ok(read.unwrap_or_else(|| Checkpoint::new(plan, shard)))
    }

    /// Writes the checkpoint to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), RunError> {
        save_checkpoint(path, &self.to_json())
    }
}

/// A count of a plan, or of one shard of it, resumed from its checkpoint
/// file where there is one.
#[derive(Debug)]
pub struct Run<'a> {
    plan: &'a Plan,
    shard: Option<Shard>,
    saving: Option<CheckpointSaving>,
    state: Checkpoint,
    started: Instant,
}

impl<'a> Run<'a> {
    /// Starts counting `plan` (or only its `shard`): reads the checkpoint
    /// file of `saving`, if it exists, to resume from it, and writes it at
    /// once, so that a refused or unwritable path shows up before any work
    /// is done.
    pub fn start(plan: &'a Plan, shard: Option<Shard>, saving: Option<CheckpointSaving>) -> Result<Run<'a>, RunError> {
        let started = Instant::now();
        let state = match &saving {
            Some(saving) => Checkpoint::load(&saving.path, plan, shard)?,
            None => Checkpoint::new(plan, shard),
        };
        if let Some(saving) = &saving {
            state.save(&saving.path)?;
        }
        Ok(Run { plan, shard, saving, state, started })
    }

    /// Whether subproblem `index` is still to be counted: in the shard, and
    /// not finished by an earlier run.
    pub fn is_pending(&self, index: usize) -> bool {
        self.shard.is_none_or(|s| s.contains(index)) && !self.state.is_done(index)
    }

    /// Counts the pending subproblems on `threads` threads, calling
    /// `finished` with each one's index as it ends (for a progress bar) and
    /// saving the checkpoint every [interval](CheckpointSaving::interval),
    /// at the end, and after `control` is cancelled. A failed save cancels
    /// `control` and is the error.
    pub fn count(
        mut self,
        threads: Threads,
        control: &Control,
        mut finished: impl FnMut(usize),
    ) -> Result<Report, RunError> {
        let plan = self.plan;
        let skip: Vec<bool> = (0..plan.len()).map(|i| !self.is_pending(i)).collect();
        let mut last_save = Instant::now();
        let mut save_error: Option<RunError> = None;
        let state = &mut self.state;
        let saving = &self.saving;
        let counted = plan.count_with(
            threads,
            |i| skip[i],
            control,
            |i, count| {
                state.record(i, count);
                finished(i);
                if let Some(saving) = saving {
                    if last_save.elapsed() >= saving.interval {
                        if let Err(e) = state.save(&saving.path) {
                            save_error.get_or_insert(e);
                            control.cancel();
                        }
                        last_save = Instant::now();
                    }
                }
            },
        );
        if let Some(saving) = &self.saving {
            self.state.save(&saving.path)?;
        }
        if let Some(e) = save_error {
            return Err(e);
        }
        counted.map_err(RunError::Threads)?;
        let in_shard = |i: usize| self.shard.is_none_or(|s| s.contains(i));
        if control.is_cancelled() {
            return Err(RunError::Interrupted {
                subproblems: (0..plan.len()).filter(|&i| in_shard(i)).count() as u64,
                finished: (0..plan.len()).filter(|&i| in_shard(i) && self.state.is_done(i)).count() as u64,
                solutions: self.state.solutions(),
                saved_in: self.saving.map(|s| s.path),
            });
        }
        let seconds = self.started.elapsed().as_secs_f64();
        Ok(Report::new(plan, self.shard, self.state.solutions(), seconds, threads.get() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
