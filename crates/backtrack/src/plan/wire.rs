//! The messages of a master/worker count over a message-passing transport
//! (MPI), for any plan: plain byte arrays, so that the transport only moves
//! bytes and this file, tested without it, holds the protocol.
//!
//! Every process builds the same plan, so a subproblem's index is all a
//! work message carries. Each worker first sends a [hello](encode_hello)
//! naming its plan (a [`plan_id`]); the master checks it against its own
//! and answers with the next subproblem's index, or with "stop" once none
//! is left ([`Dispatcher`]), or at once for a worker whose plan differs. A
//! worker sends each subproblem's counts back with its next request, so
//! fast and slow workers balance themselves. A result carries two 128-bit
//! numbers (a [`Tally`]); numbers are little-endian, whatever the
//! processes' machines.

use std::fmt;

use super::Done;

/// Bytes of a result message: the index (or "none" for a hello), then two
/// 128-bit numbers.
pub const RESULT_BYTES: usize = 40;
/// Bytes of a work message: the index, or "stop".
pub const WORK_BYTES: usize = 8;
/// The index that means "none": a hello, or no more work.
const NONE: u64 = u64::MAX;

/// What one subproblem's count is, as a result message carries it and the
/// master adds it up.
pub trait Tally: Copy + Default {
    /// The two numbers a message carries.
    fn to_words(self) -> [u128; 2];
    /// The tally of a message's two numbers.
    fn from_words(words: [u128; 2]) -> Self;
    /// `self + other`, or `None` past the largest count.
    fn checked_add(self, other: Self) -> Option<Self>;
}

/// A plain count (an exact-cover count): the first number, the second is 0.
impl Tally for u128 {
    fn to_words(self) -> [u128; 2] {
        [self, 0]
    }

    fn from_words(words: [u128; 2]) -> u128 {
        words[0]
    }

    fn checked_add(self, other: u128) -> Option<u128> {
        u128::checked_add(self, other)
    }
}

/// The name of a plan in a hello: the 64-bit FNV-1a hash of `description`,
/// which says everything the plan's subproblem list depends on (what is
/// counted, the plan version, its length). Two processes whose plans have
/// different ids would count different pieces under the same index.
pub fn plan_id(description: &str) -> u128 {
    let hash =
        description.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    u128::from(hash)
}

/// A worker's first message: a request for work that names its plan.
pub fn encode_hello(plan: u128) -> [u8; RESULT_BYTES] {
    encode(NONE, [plan, 0])
}

/// A worker's message: subproblem `index`'s counts, and a request for more work.
pub fn encode_result<T: Tally>(index: usize, counts: T) -> [u8; RESULT_BYTES] {
    encode(index as u64, counts.to_words())
}

fn encode(index: u64, words: [u128; 2]) -> [u8; RESULT_BYTES] {
    let mut bytes = [0; RESULT_BYTES];
    bytes[..8].copy_from_slice(&index.to_le_bytes());
    bytes[8..24].copy_from_slice(&words[0].to_le_bytes());
    bytes[24..].copy_from_slice(&words[1].to_le_bytes());
    bytes
}

/// A worker's message, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received<T> {
    /// The first request, naming the worker's plan.
    Hello(u128),
    /// Subproblem `index`'s counts.
    Result(u64, T),
}

/// Reads a message of [`encode_hello`] or [`encode_result`].
pub fn decode_result<T: Tally>(bytes: &[u8; RESULT_BYTES]) -> Received<T> {
    let number = |range: std::ops::Range<usize>| {
        let mut n = [0; 16];
        n[..range.len()].copy_from_slice(&bytes[range]);
        u128::from_le_bytes(n)
    };
    let index = number(0..8) as u64;
    let words = [number(8..24), number(24..40)];
    match index {
        NONE => Received::Hello(words[0]),
        _ => Received::Result(index, T::from_words(words)),
    }
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
pub struct Dispatcher<T> {
    plan: u128,
    workers: usize,
    next: usize,
    stopped: usize,
    reported: Done,
    received: usize,
    counts: T,
    refused: Option<WireError>,
}

/// Why a distributed count is not a complete count of the master's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// Not every subproblem reported.
    Incomplete {
        /// Results received.
        received: usize,
        /// Subproblems in the plan.
        subproblems: usize,
    },
    /// A worker built another plan (another input, engine or program version).
    OtherPlan,
    /// A result names a subproblem that was not handed out, or one already reported.
    Corrupt(u64),
    /// The results add up to more than the largest count.
    Overflow,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Incomplete { received, subproblems } => {
                write!(f, "MPI run incomplete: {received} of {subproblems} subproblems reported")
            }
            WireError::OtherPlan => f.write_str(
                "MPI run refused: a worker built another plan than rank 0 (another input, engine or program \
                 version); run the same binary on the same input everywhere",
            ),
            WireError::Corrupt(index) => {
                write!(f, "MPI run refused: subproblem {index} was reported without being handed out, or twice")
            }
            WireError::Overflow => f.write_str("MPI run refused: the counts add up to more than 2^128 - 1"),
        }
    }
}

impl std::error::Error for WireError {}

impl<T: Tally> Dispatcher<T> {
    /// A master for the plan named `plan` (a [`plan_id`]) of `plan_len`
    /// subproblems and `workers` workers.
    pub fn new(plan: u128, plan_len: usize, workers: usize) -> Dispatcher<T> {
        Dispatcher {
            plan,
            workers,
            next: 0,
            stopped: 0,
            reported: Done::new(plan_len),
            received: 0,
            counts: T::default(),
            refused: None,
        }
    }

    /// Whether every worker has been told to stop: the master is done.
    pub fn is_done(&self) -> bool {
        self.stopped >= self.workers
    }

    /// Takes a worker's message and gives the work message to send back to
    /// that worker. A worker of another plan is told to stop at once, and
    /// the run is refused.
    pub fn answer(&mut self, message: &[u8; RESULT_BYTES]) -> [u8; WORK_BYTES] {
        match decode_result::<T>(message) {
            Received::Hello(plan) if plan != self.plan => {
                self.refused.get_or_insert(WireError::OtherPlan);
                self.stopped += 1;
                return encode_work(None);
            }
            Received::Hello(_) => {}
            Received::Result(index, counts) => self.record(index, counts),
        }
        // After a refusal the rest of the work is not worth doing.
        if self.next < self.reported.len() && self.refused.is_none() {
            self.next += 1;
            encode_work(Some(self.next - 1))
        } else {
            self.stopped += 1;
            encode_work(None)
        }
    }

    fn record(&mut self, index: u64, counts: T) {
        if index >= self.next as u64 || self.reported.get(index as usize) {
            self.refused.get_or_insert(WireError::Corrupt(index));
            return;
        }
        self.reported.set(index as usize);
        self.received += 1;
        match self.counts.checked_add(counts) {
            Some(sum) => self.counts = sum,
            None => _ = self.refused.get_or_insert(WireError::Overflow),
        }
    }

    /// The summed counts, once every subproblem has reported once and every
    /// worker had the master's plan.
    pub fn finish(self) -> Result<T, WireError> {
        if let Some(refused) = self.refused {
            return Err(refused);
        }
        if self.received != self.reported.len() {
            return Err(WireError::Incomplete { received: self.received, subproblems: self.reported.len() });
        }
        Ok(self.counts)
    }
}

/// A master and `workers` workers of the plan `plan_id` taking turns, as
/// the transport would interleave them, each counting with `solve`: what
/// an MPI run gives, without MPI.
#[cfg(test)]
pub(crate) fn count_in_turns<T: Tally>(
    plan_id: u128,
    plan_len: usize,
    workers: usize,
    solve: impl Fn(usize) -> T,
) -> Result<T, WireError> {
    let mut master = Dispatcher::new(plan_id, plan_len, workers);
    let mut outbox = vec![encode_hello(plan_id); workers];
    let mut working = vec![true; workers];
    while !master.is_done() {
        for w in 0..workers {
            if working[w] {
                match decode_work(&master.answer(&outbox[w]), plan_len) {
                    Some(i) => outbox[w] = encode_result(i, solve(i)),
                    None => working[w] = false,
                }
            }
        }
    }
    master.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts of two numbers, as queens has them.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    struct Pair(u128, u128);

    impl Tally for Pair {
        fn to_words(self) -> [u128; 2] {
            [self.0, self.1]
        }
        fn from_words(words: [u128; 2]) -> Pair {
            Pair(words[0], words[1])
        }
        fn checked_add(self, other: Pair) -> Option<Pair> {
            Some(Pair(self.0.checked_add(other.0)?, self.1.checked_add(other.1)?))
        }
    }

    #[test]
    fn messages_round_trip() {
        let big = Pair(u128::MAX - 1, 1 << 100);
        assert_eq!(decode_result(&encode_result(7, big)), Received::Result(7, big));
        assert_eq!(decode_result::<u128>(&encode_result(7, u128::MAX)), Received::Result(7, u128::MAX));
        assert_eq!(decode_result::<Pair>(&encode_hello(42)), Received::Hello(42));
        assert_eq!(decode_work(&encode_work(Some(3)), 4), Some(3));
        assert_eq!(decode_work(&encode_work(Some(4)), 4), None);
        assert_eq!(decode_work(&encode_work(None), 4), None);
        // Little-endian on every machine.
        assert_eq!(encode_work(Some(1)), [1, 0, 0, 0, 0, 0, 0, 0]);
        assert_ne!(plan_id("queens 1 9 3 32"), plan_id("queens 1 9 3 33"));
    }

    /// Three workers taking turns, as the transport would interleave them,
    /// count a whole plan (subproblem `i` counts `i` solutions).
    #[test]
    fn dispatcher_with_workers_counts_the_plan() {
        assert_eq!(count_in_turns(5, 10, 3, |i| i as u128), Ok(45));
    }

    /// A lost result, a worker of another plan, a result reported twice or
    /// never handed out, and an overflowing sum are refused.
    #[test]
    fn dispatcher_refuses_what_is_not_one_complete_count() {
        let mut master = Dispatcher::<u128>::new(5, 2, 1);
        assert_eq!(decode_work(&master.answer(&encode_hello(5)), 2), Some(0));
        // The result of subproblem 0 is lost; 1 is asked for and reported.
        let _ = master.answer(&encode_hello(5));
        let stop = master.answer(&encode_result(1, 0u128));
        assert_eq!(decode_work(&stop, 2), None);
        assert!(master.is_done());
        assert_eq!(master.finish().unwrap_err().to_string(), "MPI run incomplete: 1 of 2 subproblems reported");

        let mut master = Dispatcher::<u128>::new(5, 2, 2);
        assert_eq!(decode_work(&master.answer(&encode_hello(6)), 2), None, "another plan is stopped at once");
        assert_eq!(decode_work(&master.answer(&encode_hello(5)), 2), None, "nothing more is handed out");
        assert!(master.is_done());
        assert_eq!(master.finish(), Err(WireError::OtherPlan));

        let mut master = Dispatcher::<u128>::new(5, 2, 1);
        let _ = master.answer(&encode_hello(5));
        let _ = master.answer(&encode_result(0, 1u128));
        let _ = master.answer(&encode_result(0, 1u128));
        assert_eq!(master.finish(), Err(WireError::Corrupt(0)));
        let mut master = Dispatcher::<u128>::new(5, 2, 1);
        let _ = master.answer(&encode_hello(5));
        let _ = master.answer(&encode_result(1, 1u128));
        assert_eq!(master.finish(), Err(WireError::Corrupt(1)));

        let mut master = Dispatcher::<u128>::new(5, 2, 1);
        let _ = master.answer(&encode_hello(5));
        let _ = master.answer(&encode_result(0, u128::MAX));
        let _ = master.answer(&encode_result(1, 1u128));
        assert_eq!(
            master.finish().unwrap_err().to_string(),
            "MPI run refused: the counts add up to more than 2^128 - 1"
        );
    }
}
