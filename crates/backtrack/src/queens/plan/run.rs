//! A count of a plan (or of one shard of it) that can be stopped and
//! resumed: [`Run::start`] reads the checkpoint file a stopped run left,
//! if any, and [`Run::count`] counts what is left on the CPU's threads or
//! a GPU, saving the finished subproblems to that file every so often, when
//! it ends and when it is cancelled. Rerunning the same count resumes it.
//!
//! Each save is atomic: the checkpoint is written to a temporary file in
//! the same directory, flushed to disk, and renamed over the old one, so a
//! crash at any moment leaves either the old checkpoint or the new one.

use std::fmt;
use std::path::Path;
use std::time::Instant;

use super::{Checkpoint, Plan, Report, Shard};
use crate::plan::{load_checkpoint, save_checkpoint, CheckpointSaving};
use crate::queens::gpu::{Gpu, GpuError};
use crate::search::{Control, Threads};

/// What counts the subproblems.
#[derive(Clone, Copy)]
pub enum Engine<'a> {
    /// The CPU, on this many threads.
    Cpu {
        /// Worker threads.
        threads: Threads,
    },
    /// A GPU, [opened](Gpu::open) before the run starts.
    Gpu(&'a Gpu),
}

impl fmt::Debug for Engine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Engine::Cpu { threads } => f.debug_struct("Cpu").field("threads", threads).finish(),
            Engine::Gpu(gpu) => f.debug_tuple("Gpu").field(&gpu.name()).finish(),
        }
    }
}

impl Engine<'_> {
    /// The threads a report names: the CPU's worker threads, or 1 for a GPU.
    fn threads(&self) -> u64 {
        match self {
            Engine::Cpu { threads } => threads.get() as u64,
            Engine::Gpu(_) => 1,
        }
    }
}

/// Why a queens run did not give a complete count ([`RunError::Engine`]: the GPU failed).
pub type RunError = crate::plan::RunError<GpuError>;

impl Checkpoint {
    /// Reads the checkpoint file at `path` if there is one, refusing one of
    /// another run (board, plan, shard) or a corrupt one; no file means a
    /// run with nothing done yet.
    pub fn load(path: &Path, plan: &Plan, shard: Option<Shard>) -> Result<Checkpoint, RunError> {
        let read = load_checkpoint(path, |bytes| Checkpoint::from_json(bytes, plan, shard))?;
        Ok(read.unwrap_or_else(|| Checkpoint::new(plan, shard)))
    }

    /// Writes the checkpoint to `path` atomically (see
    /// [`save_atomic`](crate::plan::save_atomic)), so a crash at any moment
    /// leaves the old file or the new one, whole.
    pub fn save(&self, path: &Path) -> Result<(), RunError> {
        save_checkpoint(path, &self.to_json())
    }
}

/// A count of a plan, or of one shard of it, resumed from its checkpoint
/// file where there is one.
///
/// ```
/// use backtrack::queens::plan::{Engine, Run};
/// use backtrack::queens::Plan;
/// use backtrack::search::{Control, Threads};
///
/// let plan = Plan::new(8).unwrap();
/// let run = Run::start(&plan, None, None).unwrap();
/// let report = run.count(Engine::Cpu { threads: Threads::ONE }, &Control::new(), true, |_| {}).unwrap();
/// assert_eq!((report.solutions, report.unique), (92, Some(12)));
/// ```
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
    /// is done. The report's seconds are counted from here.
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

    /// Whether subproblem `index` is still to be counted: in the shard,
    /// and not finished by an earlier run.
    pub fn is_pending(&self, index: usize) -> bool {
        self.shard.is_none_or(|s| s.contains(index)) && !self.state.is_done(index)
    }

    /// Counts the pending subproblems with `engine`, calling `finished`
    /// with each one's index as it ends (for a progress bar) and saving the
    /// checkpoint every [interval](CheckpointSaving::interval) and at the
    /// end, also after `control` is cancelled. A failed save cancels
    /// `control` and is the error. The report keeps the unique solutions
    /// when `unique` asks for them (and always for a shard).
    pub fn count(
        mut self,
        engine: Engine,
        control: &Control,
        unique: bool,
        mut finished: impl FnMut(usize),
    ) -> Result<Report, RunError> {
        let plan = self.plan;
        // Fixed before the count starts: the subproblems finished earlier
        // and those of other shards.
        let skip: Vec<bool> = (0..plan.len()).map(|i| !self.is_pending(i)).collect();
        let mut last_save = Instant::now();
        let mut save_error: Option<RunError> = None;
        let state = &mut self.state;
        let saving = &self.saving;
        let done = |i, counts| {
            state.record(i, counts);
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
        };
        let engine_error = match engine {
            Engine::Gpu(gpu) => gpu.count_with(plan, |i| skip[i], Some(control), done).err().map(RunError::Engine),
            Engine::Cpu { threads } => {
                crate::queens::count_with(plan, threads, |i| skip[i], Some(control), done).err().map(RunError::Threads)
            }
        };
        if let Some(saving) = &self.saving {
            self.state.save(&saving.path)?;
        }
        if let Some(e) = save_error {
            return Err(e);
        }
        if let Some(e) = engine_error {
            return Err(e);
        }
        let in_shard = |i: usize| self.shard.is_none_or(|s| s.contains(i));
        if control.is_cancelled() {
            return Err(RunError::Interrupted {
                subproblems: (0..plan.len()).filter(|&i| in_shard(i)).count() as u64,
                finished: (0..plan.len()).filter(|&i| in_shard(i) && self.state.is_done(i)).count() as u64,
                solutions: self.state.counts().total,
                saved_in: self.saving.map(|s| s.path),
            });
        }
        let seconds = self.started.elapsed().as_secs_f64();
        Ok(Report::new(plan, self.shard, self.state.counts(), unique, seconds, engine.threads()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{CheckpointError, MAX_CHECKPOINT_BYTES};
    use crate::queens::Counts;
    use std::fs;
    use std::path::PathBuf;
    use std::time::Duration;

    fn saving(dir: &Path, interval: Duration) -> Option<CheckpointSaving> {
        Some(CheckpointSaving { path: dir.join("q.ckpt"), interval })
    }

    #[test]
    fn a_run_resumes_from_its_checkpoint_to_the_whole_count() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(10).unwrap();
        // What a stopped run leaves: its first five subproblems finished.
        let mut stopped = Checkpoint::new(&plan, None);
        for i in 0..5 {
            stopped.record(i, plan.solve(i));
        }
        stopped.save(&dir.path().join("q.ckpt")).unwrap();
        let run = Run::start(&plan, None, saving(dir.path(), Duration::from_secs(60))).unwrap();
        let pending = (0..plan.len()).filter(|&i| run.is_pending(i)).count();
        assert_eq!(pending, plan.len() - 5);
        let mut counted = 0;
        let report = run
            .count(Engine::Cpu { threads: Threads::new(2).unwrap() }, &Control::new(), true, |_| counted += 1)
            .unwrap();
        assert_eq!((report.solutions, report.unique, counted), (724, Some(92), pending));
        // The checkpoint saved at the end holds the whole count; no
        // temporary file is left beside it.
        let saved = Checkpoint::load(&dir.path().join("q.ckpt"), &plan, None).unwrap();
        assert_eq!(saved.counts(), Counts { total: 724, unique: 92 });
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_cancelled_run_says_what_it_saved() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(10).unwrap();
        let control = Control::new();
        control.cancel();
        let run = Run::start(&plan, None, saving(dir.path(), Duration::ZERO)).unwrap();
        let stopped = run.count(Engine::Cpu { threads: Threads::ONE }, &control, false, |_| {}).unwrap_err();
        let RunError::Interrupted { subproblems, finished, solutions, saved_in } = &stopped else {
            panic!("a cancelled run is interrupted: {stopped:?}");
        };
        assert_eq!((*subproblems, *finished, *solutions), (plan.len() as u64, 0, 0));
        assert_eq!(saved_in.as_deref(), Some(dir.path().join("q.ckpt").as_path()));
        assert!(stopped.to_string().contains("rerun the same command to resume"), "{stopped}");
        assert!(Checkpoint::load(&dir.path().join("q.ckpt"), &plan, None).is_ok());
    }

    #[test]
    fn a_shard_counts_its_share_and_refuses_another_shards_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(9).unwrap();
        let shard = Some(Shard { index: 1, count: 2 });
        let run = Run::start(&plan, shard, saving(dir.path(), Duration::ZERO)).unwrap();
        let report = run.count(Engine::Cpu { threads: Threads::ONE }, &Control::new(), false, |_| {}).unwrap();
        let share: Counts = (0..plan.len()).filter(|i| i % 2 == 1).map(|i| plan.solve(i)).sum();
        assert_eq!((report.solutions, report.unique, report.shard), (share.total, Some(share.unique), shard));
        let other = Run::start(&plan, None, saving(dir.path(), Duration::ZERO)).err().unwrap();
        assert!(matches!(other, RunError::Checkpoint { error: CheckpointError::Refused(_), .. }), "{other}");
        assert!(other.to_string().ends_with("; use another file or delete it"), "{other}");
    }

    #[test]
    fn unreadable_and_unwritable_checkpoints_are_refused_before_counting() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(6).unwrap();
        let big = dir.path().join("big");
        fs::write(&big, vec![b' '; MAX_CHECKPOINT_BYTES as usize + 1]).unwrap();
        let saving = |path: PathBuf| Some(CheckpointSaving { path, interval: Duration::ZERO });
        let err = Run::start(&plan, None, saving(big)).err().unwrap();
        assert!(matches!(err, RunError::TooLarge { .. }), "{err}");
        let err = Run::start(&plan, None, saving(dir.path().join("no-dir/q.ckpt"))).err().unwrap();
        assert!(matches!(err, RunError::Save { .. }), "{err}");
        assert!(err.to_string().contains("cannot save"), "{err}");
    }
}
