//! A planned exact-cover count (or one shard of it) that can be stopped and
//! resumed: [`Run::start`] reads the checkpoint file a stopped run left, if
//! any, and [`Run::count`] counts what is left, saving the finished
//! subproblems every so often, when it ends and when it is cancelled
//! (atomically: see [`save_atomic`]).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Checkpoint, CheckpointError, Plan, Report};
use crate::error::Counted;
use crate::plan::{load_bounded, save_atomic, Loaded, Shard};
use crate::search::{Control, ThreadStartError, Threads};

/// Largest checkpoint file read back (a real one holds a few kilobytes).
pub const MAX_CHECKPOINT_BYTES: u64 = 32 << 20;

/// Where a run keeps its checkpoint, and how often it saves it.
#[derive(Clone, Debug)]
pub struct CheckpointSaving {
    /// The checkpoint file.
    pub path: PathBuf,
    /// Least time between two saves while the count runs.
    pub interval: Duration,
}

/// Why a run did not give a complete count.
#[derive(Debug)]
pub enum RunError {
    /// The checkpoint file exists but cannot be read.
    Read {
        /// The checkpoint file.
        path: PathBuf,
        /// Why reading failed.
        error: io::Error,
    },
    /// The checkpoint file is larger than [`MAX_CHECKPOINT_BYTES`]: not a checkpoint.
    TooLarge {
        /// The checkpoint file.
        path: PathBuf,
    },
    /// The checkpoint file is not a checkpoint, or one of another run.
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong with it.
        error: CheckpointError,
    },
    /// The checkpoint cannot be saved.
    Save {
        /// The checkpoint file.
        path: PathBuf,
        /// Why writing failed.
        error: io::Error,
    },
    /// The worker threads could not start.
    Threads(ThreadStartError),
    /// The run was cancelled before the count was complete.
    Interrupted {
        /// Subproblems of the run (all of the plan's, or the shard's).
        subproblems: u64,
        /// Those finished, this run and earlier ones together.
        finished: u64,
        /// The finished subproblems' count.
        solutions: u128,
        /// The checkpoint file that holds them, if the run keeps one.
        saved_in: Option<PathBuf>,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Read { path, error } => write!(f, "checkpoint {}: cannot read: {error}", path.display()),
            RunError::TooLarge { path } => write!(
                f,
                "checkpoint {}: more than {} MiB, the most a checkpoint may hold: not a checkpoint",
                path.display(),
                MAX_CHECKPOINT_BYTES >> 20
            ),
            RunError::Checkpoint { path, error: error @ CheckpointError::Malformed { .. } } => {
                write!(f, "checkpoint {}: {error}", path.display())
            }
            RunError::Checkpoint { path, error: error @ CheckpointError::Refused(_) } => {
                write!(f, "checkpoint {}: {error}; use another file or delete it", path.display())
            }
            RunError::Save { path, error } => write!(f, "checkpoint {}: cannot save: {error}", path.display()),
            RunError::Threads(error) => write!(f, "{error}"),
            RunError::Interrupted { subproblems, finished, solutions, saved_in } => {
                write!(
                    f,
                    "interrupted after {finished} of {}: {} so far (not a complete count)",
                    Counted(*subproblems as u128, "subproblem"),
                    Counted(*solutions, "solution")
                )?;
                match saved_in {
                    Some(path) => {
                        write!(f, "; they are saved in {}: rerun the same command to resume", path.display())
                    }
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Read { error, .. } | RunError::Save { error, .. } => Some(error),
            RunError::Checkpoint { error, .. } => Some(error),
            RunError::Threads(error) => Some(error),
            RunError::TooLarge { .. } | RunError::Interrupted { .. } => None,
        }
    }
}

impl Checkpoint {
    /// Reads the checkpoint file at `path` if there is one, refusing one of
    /// another run or a corrupt one; no file means nothing done yet.
    pub fn load(path: &Path, plan: &Plan, shard: Option<Shard>) -> Result<Checkpoint, RunError> {
        let bytes = match load_bounded(path, MAX_CHECKPOINT_BYTES) {
            Ok(Loaded::Missing) => return Ok(Checkpoint::new(plan, shard)),
            Ok(Loaded::TooLarge) => return Err(RunError::TooLarge { path: path.into() }),
            Ok(Loaded::Bytes(bytes)) => bytes,
            Err(error) => return Err(RunError::Read { path: path.into(), error }),
        };
        Checkpoint::from_json(&bytes, plan, shard).map_err(|error| RunError::Checkpoint { path: path.into(), error })
    }

    /// Writes the checkpoint to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), RunError> {
        save_atomic(path, &self.to_json()).map_err(|error| RunError::Save { path: path.into(), error })
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
