//! A count of a plan (or of one shard of it) that can be stopped and
//! resumed, whatever its subproblems are: [`Run::start`] reads the
//! checkpoint file a stopped run left, if any, and each problem's `count`
//! ([`queens`](crate::queens::plan::Run), [`xcover`](crate::xcover::plan::Run))
//! counts what is left, saving the finished subproblems every so often, when
//! it ends and when it is cancelled. Rerunning the same count resumes it.
//!
//! Each save is atomic (see [`save_atomic`](super::save_atomic)): a crash at
//! any moment leaves either the old checkpoint or the new one, whole.

use std::path::Path;
use std::time::Instant;

use super::{load_checkpoint, save_checkpoint, CheckpointError, CheckpointSaving, RunError, Shard};
use crate::search::Control;

/// What a [`Run`] needs of a problem's checkpoint: a fresh one, the JSON
/// text of its file both ways, and the finished subproblems with their
/// counts.
pub trait Resumable: Sized {
    /// The plan whose subproblems are counted.
    type Plan: ?Sized;
    /// What counting one subproblem gives.
    type Count;
    /// What the problem's engine may fail with besides threads (a GPU's
    /// errors, or nothing).
    type EngineError;

    /// Subproblems in `plan`.
    fn subproblems(plan: &Self::Plan) -> usize;
    /// A run of `plan` (or of one `shard` of it) with nothing done yet.
    fn new(plan: &Self::Plan, shard: Option<Shard>) -> Self;
    /// Reads the text of a checkpoint file, refusing one of another run or
    /// a corrupt one.
    fn from_json(bytes: &[u8], plan: &Self::Plan, shard: Option<Shard>) -> Result<Self, CheckpointError>;
    /// The text of the checkpoint file.
    fn to_json(&self) -> Vec<u8>;
    /// Records subproblem `index` as finished with `count`.
    fn record(&mut self, index: usize, count: Self::Count);
    /// Whether subproblem `index` is finished.
    fn is_done(&self, index: usize) -> bool;
    /// The solutions of the finished subproblems.
    fn solutions(&self) -> u128;

    /// Reads the checkpoint file at `path` if there is one, refusing one of
    /// another run or a corrupt one; no file means a run with nothing done
    /// yet.
    fn load(path: &Path, plan: &Self::Plan, shard: Option<Shard>) -> Result<Self, RunError<Self::EngineError>> {
        let read = load_checkpoint(path, |bytes| Self::from_json(bytes, plan, shard))?;
        Ok(read.unwrap_or_else(|| Self::new(plan, shard)))
    }

    /// Writes the checkpoint to `path` atomically, so a crash at any moment
    /// leaves the old file or the new one, whole.
    fn save(&self, path: &Path) -> Result<(), RunError<Self::EngineError>> {
        save_checkpoint(path, &self.to_json())
    }
}

/// A count of a plan, or of one shard of it, resumed from its checkpoint
/// file where there is one; `C` is the problem's checkpoint.
#[derive(Debug)]
pub struct Run<'a, C: Resumable> {
    plan: &'a C::Plan,
    shard: Option<Shard>,
    saving: Option<CheckpointSaving>,
    state: C,
    started: Instant,
}

impl<'a, C: Resumable> Run<'a, C> {
    /// Starts counting `plan` (or only its `shard`): reads the checkpoint
    /// file of `saving`, if it exists, to resume from it, and writes it at
    /// once, so that a refused or unwritable path shows up before any work
    /// is done. The report's seconds are counted from here.
    pub fn start(
        plan: &'a C::Plan,
        shard: Option<Shard>,
        saving: Option<CheckpointSaving>,
    ) -> Result<Self, RunError<C::EngineError>> {
        let started = Instant::now();
        let state = match &saving {
            Some(saving) => C::load(&saving.path, plan, shard)?,
            None => C::new(plan, shard),
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

    /// The plan counted.
    pub fn plan(&self) -> &'a C::Plan {
        self.plan
    }

    /// The shard counted, if only one.
    pub fn shard(&self) -> Option<Shard> {
        self.shard
    }

    /// Counts the pending subproblems with `engine`, which is given which
    /// subproblems to skip and where to record each finished one. Calls
    /// `finished` with each one's index as it ends (for a progress bar) and
    /// saves the checkpoint every [interval](CheckpointSaving::interval) and
    /// at the end, also after `control` is cancelled. A failed save cancels
    /// `control` and is the error; a cancelled count is
    /// [`RunError::Interrupted`]. Gives the whole count's checkpoint and
    /// the seconds since the run started.
    pub(crate) fn count_with(
        mut self,
        control: &Control,
        mut finished: impl FnMut(usize),
        engine: impl FnOnce(&[bool], &mut dyn FnMut(usize, C::Count)) -> Result<(), RunError<C::EngineError>>,
    ) -> Result<(C, f64), RunError<C::EngineError>> {
        let len = C::subproblems(self.plan);
        // Fixed before the count starts: the subproblems finished earlier
        // and those of other shards.
        let skip: Vec<bool> = (0..len).map(|i| !self.is_pending(i)).collect();
        let mut last_save = Instant::now();
        let mut save_error = None;
        let state = &mut self.state;
        let saving = &self.saving;
        let counted = engine(&skip, &mut |i, count| {
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
        });
        if let Some(saving) = &self.saving {
            self.state.save(&saving.path)?;
        }
        if let Some(e) = save_error {
            return Err(e);
        }
        counted?;
        let in_shard = |i: usize| self.shard.is_none_or(|s| s.contains(i));
        if control.is_cancelled() {
            return Err(RunError::Interrupted {
                subproblems: (0..len).filter(|&i| in_shard(i)).count() as u64,
                finished: (0..len).filter(|&i| in_shard(i) && self.state.is_done(i)).count() as u64,
                solutions: self.state.solutions(),
                saved_in: self.saving.map(|s| s.path),
            });
        }
        Ok((self.state, self.started.elapsed().as_secs_f64()))
    }
}
