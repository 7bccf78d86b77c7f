//! What a resumable run of any plan shares: where it keeps its checkpoint,
//! why it stops, and reading and saving the checkpoint file.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::json::{JsonProblem, JsonProblemKind};
use super::{load_bounded, save_atomic, Loaded};
use crate::error::{Counted, Quoted};
use crate::search::ThreadStartError;

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

/// Why a checkpoint cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// Not JSON of the checkpoint's shape.
    Malformed {
        /// What kind of checkpoint was expected: `queens`, `xcover`.
        kind: &'static str,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A checkpoint, but of another run (problem, plan, shard, version) or corrupt.
    Refused(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Malformed { kind, line, column, message } => {
                let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u', 'x']) { "an" } else { "a" };
                write!(f, "not {article} {kind} checkpoint (line {line}, column {column}: {message})")
            }
            CheckpointError::Refused(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl CheckpointError {
    /// The error for a text that does not decode as a `kind` checkpoint
    /// (decoder error `e`), in words about checkpoints.
    pub(crate) fn malformed(kind: &'static str, e: &serde_json::Error) -> CheckpointError {
        let problem = JsonProblem::of(e);
        let message = match problem.kind {
            JsonProblemKind::Unreadable => "it cannot be read".into(),
            JsonProblemKind::Truncated => "it ends in the middle".into(),
            JsonProblemKind::NotJson => "it is not JSON".into(),
            JsonProblemKind::MissingField(field) => format!("the field \"{}\" is missing", Quoted(&field)),
            JsonProblemKind::NotAnObject | JsonProblemKind::WrongShape | JsonProblemKind::WrongValue => {
                "it is not one JSON object with the fields a checkpoint has, or a field has a value of the wrong kind"
                    .into()
            }
        };
        CheckpointError::Malformed { kind, line: problem.line, column: problem.column, message }
    }
}

/// Why a run did not give a complete count; `E` is what its engine may
/// fail with besides threads (a GPU's errors, or nothing).
#[derive(Debug)]
pub enum RunError<E = std::convert::Infallible> {
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
    /// The engine failed.
    Engine(E),
    /// The CPU's worker threads could not start.
    Threads(ThreadStartError),
    /// The run was cancelled before the count was complete.
    Interrupted {
        /// Subproblems of the run (all of the plan's, or the shard's).
        subproblems: u64,
        /// Those finished, this run and earlier ones together.
        finished: u64,
        /// The finished subproblems' counts.
        solutions: u128,
        /// The checkpoint file that holds them, if the run keeps one.
        saved_in: Option<PathBuf>,
    },
}

impl<E: fmt::Display> fmt::Display for RunError<E> {
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
            RunError::Engine(error) => write!(f, "{error}"),
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

impl<E: std::error::Error + 'static> std::error::Error for RunError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Read { error, .. } | RunError::Save { error, .. } => Some(error),
            RunError::Checkpoint { error, .. } => Some(error),
            RunError::Engine(error) => Some(error),
            RunError::Threads(error) => Some(error),
            RunError::TooLarge { .. } | RunError::Interrupted { .. } => None,
        }
    }
}

/// Reads the checkpoint file at `path` with `read` if there is one (`None`
/// when there is none: nothing done yet), refusing one larger than
/// [`MAX_CHECKPOINT_BYTES`] or one that `read` refuses.
pub fn load_checkpoint<T, E>(
    path: &Path,
    read: impl FnOnce(&[u8]) -> Result<T, CheckpointError>,
) -> Result<Option<T>, RunError<E>> {
    let bytes = match load_bounded(path, MAX_CHECKPOINT_BYTES) {
        Ok(Loaded::Missing) => return Ok(None),
        Ok(Loaded::TooLarge) => return Err(RunError::TooLarge { path: path.into() }),
        Ok(Loaded::Bytes(bytes)) => bytes,
        Err(error) => return Err(RunError::Read { path: path.into(), error }),
    };
    read(&bytes).map(Some).map_err(|error| RunError::Checkpoint { path: path.into(), error })
}

/// Writes a checkpoint's `text` to `path` atomically (see [`save_atomic`]).
pub fn save_checkpoint<E>(path: &Path, text: &[u8]) -> Result<(), RunError<E>> {
    save_atomic(path, text).map_err(|error| RunError::Save { path: path.into(), error })
}
