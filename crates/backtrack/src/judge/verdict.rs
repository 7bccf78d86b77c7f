//! The judge's verdict on one run: the limits, what a runner saw, and the
//! verdict those give, for any problem.

use std::time::Duration;

use crate::lang::{Detail, Lang};
pub use crate::verdict::Verdict;

/// MiB, in bytes.
pub(super) const MIB: u64 = 1 << 20;

/// The judge's limits for one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time.
    pub time: Duration,
    /// Peak memory, in bytes.
    pub memory: u64,
}

impl Limits {
    /// The wall-clock time after which a run is stopped: five times the CPU
    /// time limit plus two seconds. A program that sleeps or waits for
    /// input uses no CPU time; the margin is for a busy machine, where a
    /// program may get only a fraction of a core.
    pub fn wall(&self) -> Duration {
        self.time * 5 + Duration::from_secs(2)
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// Why the runner stopped a program before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Its CPU time passed the time limit.
    CpuTime,
    /// Its wall-clock time passed [`Limits::wall`] (it slept or waited, using little CPU).
    WallTime,
    /// Its peak memory passed the limit.
    Memory,
    /// It wrote more than [`Problem::output_cap`](super::Problem::output_cap) bytes.
    Output,
}

/// What a runner saw of one run of a program on one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// How it ended.
    pub exit: Exit,
    /// Set when the runner killed it.
    pub stopped: Option<Stop>,
    /// CPU time (user and system), in seconds.
    pub seconds: f64,
    /// Wall-clock time, in seconds.
    pub wall: f64,
    /// Peak resident memory, in bytes.
    pub memory: u64,
    /// Standard output (up to the cap).
    pub output: Vec<u8>,
}

/// The verdict on `run` under `limits` as [`Problem::verdict_in`](super::Problem::verdict_in) gives it,
/// for any problem: the limits and the exit status first, then, for a
/// run that ended cleanly within them, `check` on its output.
pub fn verdict_with(
    lang: Lang,
    run: &Run,
    limits: &Limits,
    check: impl FnOnce() -> Result<(), Rejection>,
) -> (Verdict, String) {
    let over_time = run.seconds > limits.time.as_secs_f64();
    let over_memory = run.memory > limits.memory;
    let mib = |bytes: u64| bytes as f64 / MIB as f64;
    let time_limit = limits.time.as_secs_f64();
    let memory_limit = mib(limits.memory);
    let (verdict, detail) = match run.stopped {
        Some(Stop::CpuTime) => (Verdict::TimeLimit, Detail::CpuStopped { seconds: run.seconds, limit: time_limit }),
        Some(Stop::WallTime) => (
            Verdict::TimeLimit,
            Detail::WallStopped { wall: run.wall, limit: limits.wall().as_secs_f64(), cpu: run.seconds },
        ),
        Some(Stop::Memory) => {
            (Verdict::MemoryLimit, Detail::MemoryStopped { mib: mib(run.memory), limit: memory_limit })
        }
        Some(Stop::Output) => (Verdict::OutputLimit, Detail::OutputStopped { bytes: run.output.len() }),
        None if over_memory => (Verdict::MemoryLimit, Detail::PeakMemory { mib: mib(run.memory), limit: memory_limit }),
        None => match run.exit {
            Exit::Signal(signal) => (Verdict::RuntimeError, Detail::Signal(signal)),
            Exit::Code(code) if code != 0 => (Verdict::RuntimeError, Detail::ExitStatus(code)),
            Exit::Code(_) if over_time => {
                (Verdict::TimeLimit, Detail::CpuTime { seconds: run.seconds, limit: time_limit })
            }
            Exit::Code(_) => {
                return match check() {
                    Ok(()) => (Verdict::Accepted, String::new()),
                    Err(why) => (Verdict::WrongAnswer, why.to_string()),
                }
            }
        },
    };
    (verdict, lang.detail(detail))
}

/// Why [`Problem::check`](super::Problem::check) did not accept an output: the first difference
/// from the expected answer, or the rule of the problem that it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection(pub(super) String);

crate::error::message_error!(Rejection);
