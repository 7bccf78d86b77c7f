//! What every long count shares, whatever it counts ([`queens`](crate::queens::plan),
//! [`xcover`](crate::xcover::plan)): a count cut into a fixed list of
//! subproblems can keep the finished ones in a checkpoint file, be spread
//! over machines as [`Shard`]s whose reports add up, and show a [`Forecast`]
//! of its progress. This module holds the parts that do not depend on what
//! the subproblems are: shards, the sets of finished subproblems a
//! checkpoint lists, reading a checkpoint file with a size bound and saving
//! it atomically, a [`Run`] that resumes from it, the checks that shard reports form one
//! complete set, the words for JSON that does not decode, and the messages of a master/worker
//! count over MPI ([`wire`]).

mod done;
mod file;
mod forecast;
pub(crate) mod json;
mod resume;
mod run;
mod set;
mod shard;
pub mod wire;

pub use done::{Done, DoneError};
pub use file::{load_bounded, save_atomic, Loaded};
pub use forecast::Forecast;
pub use resume::{Resumable, Run};
pub use run::{load_checkpoint, save_checkpoint, CheckpointError, CheckpointSaving, RunError, MAX_CHECKPOINT_BYTES};
pub use set::{check_shard_set, checked_sum, SetError};
pub(crate) use shard::json_line;
pub use shard::{Shard, ShardError};
