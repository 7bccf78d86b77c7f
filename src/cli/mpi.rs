//! `--mpi` for the counts cut into a plan (`queens`, `xcover`): the
//! transport of the master/worker protocol of [`backtrack::plan::wire`],
//! whose messages it moves as bytes. Rank 0 hands the subproblems out on
//! demand and adds the results up; every other rank counts what it is given.

#[cfg(feature = "mpi")]
pub use transport::Mpi;

/// The error of `--mpi` in a binary built without MPI support: how to get one.
#[cfg(not(feature = "mpi"))]
pub fn unavailable() -> super::CliError {
    super::CliError::Input(
        "--mpi needs a backtrack built with MPI support: install OpenMPI and libclang \
         (e.g. apt-get install libopenmpi-dev openmpi-bin clang libclang-dev), then \
         cargo build --release --features mpi"
            .into(),
    )
}

#[cfg(feature = "mpi")]
mod transport {
    use backtrack::plan::wire::{self, Dispatcher, Tally, RESULT_BYTES, WORK_BYTES};
    use mpi::environment::Universe;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;

    use crate::cli::CliError;

    /// Worker -> master: a result message.
    const RESULT_TAG: i32 = 1;
    /// Master -> worker: a work message.
    const WORK_TAG: i32 = 2;
    /// Most bytes moved by one broadcast (MPI counts in 32-bit numbers).
    const CHUNK: usize = 1 << 26;
    /// The length rank 0 broadcasts when it has nothing to share.
    const NOTHING: u64 = u64::MAX;

    /// This process's place in an MPI job; MPI ends when it is dropped.
    pub struct Mpi {
        world: SimpleCommunicator,
        _universe: Universe,
    }

    impl Mpi {
        /// Joins the job that mpirun started (a process started alone is a job of one).
        pub fn init() -> Result<Mpi, CliError> {
            let universe = mpi::initialize().ok_or_else(|| CliError::Failure("MPI was already initialised".into()))?;
            Ok(Mpi { world: universe.world(), _universe: universe })
        }

        /// Whether this process is rank 0, the master.
        pub fn is_master(&self) -> bool {
            self.world.rank() == 0
        }

        /// Processes in the job, the master included.
        pub fn size(&self) -> usize {
            self.world.size() as usize
        }

        /// Rank 0's `bytes` on every rank (what the other ranks pass is not
        /// read). `None` everywhere when rank 0 passes `None`: it has nothing
        /// to share (its input was refused), and every rank stops.
        pub fn share(&self, bytes: Option<&[u8]>) -> Option<Vec<u8>> {
            let root = self.world.process_at_rank(0);
            let mut len = match (self.is_master(), bytes) {
                (true, Some(bytes)) => bytes.len() as u64,
                _ => NOTHING,
            };
            root.broadcast_into(&mut len);
            if len == NOTHING {
                return None;
            }
            let mut shared = match (self.is_master(), bytes) {
                (true, Some(bytes)) => bytes.to_vec(),
                _ => vec![0u8; len as usize],
            };
            for chunk in shared.chunks_mut(CHUNK) {
                root.broadcast_into(chunk);
            }
            Some(shared)
        }

        /// Counts a plan of `plan_len` subproblems named `plan_id` over the
        /// job's ranks, `solve` counting one subproblem: on rank 0 the total
        /// (refused when a worker's plan differs or a result is missing), on
        /// the others `None` once the master has no more work. Needs at
        /// least two processes.
        pub fn count<T: Tally>(
            &self,
            plan_id: u128,
            plan_len: usize,
            mut solve: impl FnMut(usize) -> T,
        ) -> Result<Option<T>, CliError> {
            if !self.is_master() {
                let master = self.world.process_at_rank(0);
                let mut message = wire::encode_hello(plan_id);
                loop {
                    master.send_with_tag(&message[..], RESULT_TAG);
                    let mut work = [0u8; WORK_BYTES];
                    master.receive_into_with_tag(&mut work[..], WORK_TAG);
                    let Some(index) = wire::decode_work(&work, plan_len) else {
                        return Ok(None);
                    };
                    message = wire::encode_result(index, solve(index));
                }
            }
            let mut dispatcher = Dispatcher::<T>::new(plan_id, plan_len, self.size() - 1);
            while !dispatcher.is_done() {
                let mut message = [0u8; RESULT_BYTES];
                let status = self.world.any_process().receive_into_with_tag(&mut message[..], RESULT_TAG);
                let work = dispatcher.answer(&message);
                self.world.process_at_rank(status.source_rank()).send_with_tag(&work[..], WORK_TAG);
            }
            dispatcher.finish().map(Some).map_err(|e| CliError::Failure(e.to_string()))
        }
    }
}
