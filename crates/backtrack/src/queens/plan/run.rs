//! A queens count of a plan (or of one shard of it) that can be stopped and
//! resumed: the shared [`Run`](crate::plan::Run) over queens checkpoints,
//! counting what is left on the CPU's threads or a GPU.

use std::fmt;

use super::{Checkpoint, Report};
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
            Engine::Gpu(gpu) => f.debug_tuple("Gpu").field(gpu).finish(),
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
pub type Run<'a> = crate::plan::Run<'a, Checkpoint>;

impl Run<'_> {
    /// Counts the pending subproblems with `engine`, calling `finished`
    /// with each one's index as it ends (for a progress bar) and saving the
    /// checkpoint every [interval](crate::plan::CheckpointSaving::interval) and at the
    /// end, also after `control` is cancelled. A failed save cancels
    /// `control` and is the error. The report keeps the unique solutions
    /// when `unique` asks for them (and always for a shard).
    pub fn count(
        self,
        engine: Engine,
        control: &Control,
        unique: bool,
        finished: impl FnMut(usize),
    ) -> Result<Report, RunError> {
        let (plan, shard) = (self.plan(), self.shard());
        let (state, seconds) = self.count_with(control, finished, |skip, done| match engine {
            Engine::Gpu(gpu) => gpu.count_with(plan, |i| skip[i], Some(control), done).map_err(RunError::Engine),
            Engine::Cpu { threads } => {
                crate::queens::count_with(plan, threads, |i| skip[i], Some(control), done).map_err(RunError::Threads)
            }
        })?;
        Ok(Report::new(plan, shard, state.counts(), unique, seconds, engine.threads()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{CheckpointError, CheckpointSaving, Resumable, Shard, MAX_CHECKPOINT_BYTES};
    use crate::queens::Counts;
    use crate::queens::Plan;
    use std::fs;
    use std::path::{Path, PathBuf};
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
