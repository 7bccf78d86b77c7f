//! The messages of a master/worker count over a message-passing transport
//! (MPI): plain byte arrays, so that the transport only moves bytes and
//! this file, tested without it, holds the protocol.
//!
//! Every process builds the same [`Plan`](super::Plan), so a subproblem's
//! index is all a work message carries. Each worker first sends an empty
//! [result](encode_result) to ask for work; the master answers each result
//! with the next subproblem's index, or with "stop" once none is left
//! ([`Dispatcher`]). A worker sends each subproblem's counts back with its
//! next request, so fast and slow workers balance themselves. Numbers are
//! little-endian, whatever the processes' machines.

use std::fmt;

use crate::queens::Counts;

/// Bytes of a result message: the index (or "none"), then the total and the
/// unique count as 128-bit numbers.
pub const RESULT_BYTES: usize = 40;
/// Bytes of a work message: the index, or "stop".
pub const WORK_BYTES: usize = 8;
/// The index that means "none": no result yet, or no more work.
const NONE: u64 = u64::MAX;

/// A worker's message: subproblem `index`'s counts, or `None` for the first
/// request, which carries no result.
pub fn encode_result(result: Option<(usize, Counts)>) -> [u8; RESULT_BYTES] {
    let mut bytes = [0; RESULT_BYTES];
    let (index, counts) = match result {
        Some((index, counts)) => (index as u64, counts),
        None => (NONE, Counts::default()),
    };
    bytes[..8].copy_from_slice(&index.to_le_bytes());
    bytes[8..24].copy_from_slice(&counts.total.to_le_bytes());
    bytes[24..].copy_from_slice(&counts.unique.to_le_bytes());
    bytes
}

/// Reads a message of [`encode_result`]: the subproblem's index and counts,
/// or `None` for a request without a result.
pub fn decode_result(bytes: &[u8; RESULT_BYTES]) -> Option<(u64, Counts)> {
    let number = |range: std::ops::Range<usize>| {
        let mut n = [0; 16];
        n[..range.len()].copy_from_slice(&bytes[range]);
        u128::from_le_bytes(n)
    };
    let index = number(0..8) as u64;
    (index != NONE).then(|| (index, Counts { total: number(8..24), unique: number(24..40) }))
}

/// The master's answer: subproblem `index` to count, or `None` to stop.
pub fn encode_work(index: Option<usize>) -> [u8; WORK_BYTES] {
    index.map_or(NONE, |i| i as u64).to_le_bytes()
}

/// Reads a message of [`encode_work`] for a plan of `plan_len`
/// subproblems: the index to count, or `None` to stop (also for an index
/// the plan does not have).
pub fn decode_work(bytes: &[u8; WORK_BYTES], plan_len: usize) -> Option<usize> {
    let index = u64::from_le_bytes(*bytes);
    (index < plan_len as u64).then_some(index as usize)
}

/// The master's side: hands the plan's subproblems out one at a time, adds
/// up the results, and tells each worker to stop once none is left.
#[derive(Debug)]
pub struct Dispatcher {
    plan_len: usize,
    workers: usize,
    next: usize,
    stopped: usize,
    received: usize,
    counts: Counts,
}

/// Why a distributed count is not complete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncompleteError {
    /// Results received.
    pub received: usize,
    /// Subproblems in the plan.
    pub subproblems: usize,
}

impl fmt::Display for IncompleteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MPI run incomplete: {} of {} subproblems reported", self.received, self.subproblems)
    }
}

impl std::error::Error for IncompleteError {}

impl Dispatcher {
    /// A master for a plan of `plan_len` subproblems and `workers` workers.
    pub fn new(plan_len: usize, workers: usize) -> Dispatcher {
        Dispatcher { plan_len, workers, next: 0, stopped: 0, received: 0, counts: Counts::default() }
    }

    /// Whether every worker has been told to stop: the master is done.
    pub fn is_done(&self) -> bool {
        self.stopped >= self.workers
    }

    /// Takes a worker's result message and gives the work message to send
    /// back to that worker.
    pub fn answer(&mut self, result: &[u8; RESULT_BYTES]) -> [u8; WORK_BYTES] {
        if let Some((_, counts)) = decode_result(result) {
            self.received += 1;
            self.counts.add(counts);
        }
        if self.next < self.plan_len {
            self.next += 1;
            encode_work(Some(self.next - 1))
        } else {
            self.stopped += 1;
            encode_work(None)
        }
    }

    /// The summed counts, once every subproblem has reported once.
    pub fn finish(self) -> Result<Counts, IncompleteError> {
        if self.received != self.plan_len {
            return Err(IncompleteError { received: self.received, subproblems: self.plan_len });
        }
        Ok(self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::Plan;

    #[test]
    fn messages_round_trip() {
        let big = Counts { total: u128::MAX - 1, unique: 1 << 100 };
        assert_eq!(decode_result(&encode_result(Some((7, big)))), Some((7, big)));
        assert_eq!(decode_result(&encode_result(None)), None);
        assert_eq!(decode_work(&encode_work(Some(3)), 4), Some(3));
        assert_eq!(decode_work(&encode_work(Some(4)), 4), None);
        assert_eq!(decode_work(&encode_work(None), 4), None);
        // Little-endian on every machine.
        assert_eq!(encode_work(Some(1)), [1, 0, 0, 0, 0, 0, 0, 0]);
    }

    /// Three workers taking turns, as the transport would interleave them,
    /// count the whole board; a lost result is an incomplete count.
    #[test]
    fn dispatcher_with_workers_counts_the_plan() {
        let plan = Plan::new(9).unwrap();
        let mut master = Dispatcher::new(plan.len(), 3);
        let mut outbox = [encode_result(None); 3];
        let mut working = [true; 3];
        while !master.is_done() {
            for w in 0..3 {
                if !working[w] {
                    continue;
                }
                match decode_work(&master.answer(&outbox[w]), plan.len()) {
                    Some(i) => outbox[w] = encode_result(Some((i, plan.solve(i)))),
                    None => working[w] = false,
                }
            }
        }
        assert_eq!(master.finish(), Ok(Counts { total: 352, unique: 46 }));

        let mut master = Dispatcher::new(2, 1);
        let work = master.answer(&encode_result(None));
        assert_eq!(decode_work(&work, 2), Some(0));
        // The result of subproblem 0 is lost; 1 is asked for and reported.
        let _ = master.answer(&encode_result(None));
        let stop = master.answer(&encode_result(Some((1, Counts::default()))));
        assert_eq!(decode_work(&stop, 2), None);
        assert!(master.is_done());
        assert_eq!(master.finish().unwrap_err().to_string(), "MPI run incomplete: 1 of 2 subproblems reported");
    }
}
