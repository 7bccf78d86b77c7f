//! Running independent subproblems on several threads.
//!
//! [`run_jobs`] is the one scheduler: it hands jobs out to rayon's
//! work-stealing pool one at a time (so a few long jobs cannot leave a thread
//! idle while others queue behind them) and reports each result to the
//! calling thread as soon as it is ready, which is where progress bars and
//! checkpoints hook in. [`par_count`] and [`par_for_each`] use it to run a
//! [`Space`] split into [pieces](mod@super::split).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use rayon::prelude::*;

use super::split::{replay, split_into_counting};
use super::{Control, Order, Search, Space, Stats};

/// Why threads could not be started (the system refused one: a process or
/// memory limit). The parallel functions of this crate panic with this value
/// as the payload when that happens, so that a program can catch the panic
/// (`std::panic::catch_unwind`) and report the failure instead of a crash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadStartError {
    /// Threads that were asked for.
    pub threads: usize,
    /// What the system said.
    pub reason: String,
}

impl std::fmt::Display for ThreadStartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start {} threads: {}", self.threads, self.reason)
    }
}

impl std::error::Error for ThreadStartError {}

/// Panics with a [`ThreadStartError`] payload.
fn start_failed(threads: usize, reason: impl std::fmt::Display) -> ! {
    std::panic::panic_any(ThreadStartError { threads, reason: reason.to_string() })
}

/// Address space held back while threads start. Running out of address
/// space (`ulimit -v`) must fail on a thread's stack, which `spawn` reports
/// as an error, and not a moment later on the small signal stack that the
/// standard library maps inside a thread that has already started, or on an
/// allocation of a running thread: both of those abort the process. So the
/// reserve is held while a thread's stack is mapped, and given back while
/// the new thread sets itself up (see [`start_one`]). It is larger than the
/// allocator's largest heap block, so it is mapped on its own and unmapped
/// when dropped; it is never touched, so it costs address space only, not
/// memory.
fn start_reserve() -> Vec<u8> {
    let mut reserve = Vec::new();
    // Where even this much is not left, threads start without the margin.
    let _ = reserve.try_reserve_exact(64 << 20);
    reserve
}

/// What a thread started by [`start_one`] calls first, once the standard
/// library has set it up, to let the starting thread go on.
struct Started(std::sync::Arc<std::sync::Barrier>);

impl Started {
    fn signal(self) {
        self.0.wait();
    }
}

/// Starts one thread with `spawn`, whose thread must call [`Started::signal`]
/// first, and returns once it has: the stack is mapped while `reserve` is
/// held (so running out fails there, as an error), and the reserve is given
/// back while the new thread maps its signal stack, before the next thread
/// starts. Threads started one at a time like this never find the address
/// space taken by a sibling's stack in the middle of their own set-up.
fn start_one<H>(reserve: &mut Vec<u8>, spawn: impl FnOnce(Started) -> std::io::Result<H>) -> std::io::Result<H> {
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let handle = spawn(Started(barrier.clone()))?;
    *reserve = Vec::new();
    barrier.wait();
    *reserve = start_reserve();
    Ok(handle)
}

/// Starts one scoped thread, one of `threads`, or panics with a
/// [`ThreadStartError`] payload if the system refuses it.
pub fn spawn_scoped<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    threads: usize,
    work: impl FnOnce() -> T + Send + 'scope,
) -> std::thread::ScopedJoinHandle<'scope, T> {
    let mut reserve = start_reserve();
    let started = start_one(&mut reserve, |started| {
        std::thread::Builder::new().spawn_scoped(scope, move || {
            started.signal();
            work()
        })
    });
    drop(reserve);
    started.unwrap_or_else(|e| start_failed(threads, e))
}

/// Starts `count` scoped threads, the `i`-th running the closure that
/// `make(i)` returns (made on the calling thread), but only once every one of
/// them has started: if the system refuses one, the threads already started
/// return `None` at once, without running their closure (so none of them
/// takes memory for work that cannot be done), and this panics with a
/// [`ThreadStartError`] payload naming `threads`, the threads the work was
/// to run on (the calling thread may be one of them). A thread that ran its
/// closure returns `Some`.
pub fn spawn_all<'scope, 'env, T, F>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    count: usize,
    threads: usize,
    mut make: impl FnMut(usize) -> F,
) -> Vec<std::thread::ScopedJoinHandle<'scope, Option<T>>>
where
    T: Send + 'scope,
    F: FnOnce() -> T + Send + 'scope,
{
    // The gate: `None` while threads are starting, then whether to work.
    let gate = std::sync::Arc::new((std::sync::Mutex::new(None::<bool>), std::sync::Condvar::new()));
    let open = |work: bool| {
        let (state, changed) = &*gate;
        *state.lock().unwrap_or_else(|e| e.into_inner()) = Some(work);
        changed.notify_all();
    };
    let mut handles = Vec::with_capacity(count);
    let mut reserve = Some(start_reserve());
    for i in 0..count {
        let work = make(i);
        let gate = gate.clone();
        let spawn = |started: Started| {
            std::thread::Builder::new().spawn_scoped(scope, move || {
                started.signal();
                let (state, changed) = &*gate;
                let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
                while state.is_none() {
                    state = changed.wait(state).unwrap_or_else(|e| e.into_inner());
                }
                let go = state.unwrap_or(false);
                drop(state);
                go.then(work)
            })
        };
        match start_one(reserve.as_mut().expect("held until the end"), spawn) {
            Ok(handle) => handles.push(handle),
            Err(e) => {
                drop(reserve.take());
                open(false);
                start_failed(threads, e);
            }
        }
    }
    drop(reserve);
    open(true);
    handles
}

/// A rayon pool of `threads` threads (0: one per available core).
///
/// # Panics
/// With a [`ThreadStartError`] payload if the threads cannot be started.
pub fn thread_pool(threads: usize) -> rayon::ThreadPool {
    let mut reserve = start_reserve();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|thread| {
            start_one(&mut reserve, |started| {
                let mut builder = std::thread::Builder::new();
                if let Some(name) = thread.name() {
                    builder = builder.name(name.to_string());
                }
                if let Some(size) = thread.stack_size() {
                    builder = builder.stack_size(size);
                }
                builder.spawn(move || {
                    started.signal();
                    thread.run();
                })
            })
            .map(drop)
        })
        .build();
    drop(reserve);
    pool.unwrap_or_else(|e| start_failed(effective_threads(threads), e))
}

/// Runs `work` on every job on `threads` threads (0: all cores) and calls
/// `done` on the calling thread with each job's index and result, in
/// completion order. Jobs for which `skip` is true are not run (e.g. those
/// already done before a resume).
pub fn run_jobs<J, R>(
    threads: usize,
    jobs: &[J],
    skip: impl Fn(usize) -> bool + Sync,
    work: impl Fn(usize, &J) -> R + Sync,
    mut done: impl FnMut(usize, R),
) where
    J: Sync,
    R: Send,
{
    let pool = thread_pool(threads);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let work = &work;
        let skip = &skip;
        let pool = &pool;
        // The pool works on a helper thread so that the calling thread is free
        // to receive results (and draw progress) without taking a worker's place.
        spawn_scoped(scope, effective_threads(threads), move || {
            pool.install(|| {
                jobs.par_iter().enumerate().with_max_len(1).for_each_with(tx, |tx, (i, job)| {
                    if !skip(i) {
                        // The receiver lives until the scope ends; a send error
                        // only means the caller panicked, and then nothing matters.
                        let _ = tx.send((i, work(i, job)));
                    }
                })
            });
        });
        for (i, result) in rx {
            done(i, result);
        }
    });
}

/// Pieces per thread: enough that work stealing balances uneven subtrees.
const PIECES_PER_THREAD: usize = 64;

/// Counts the solutions of `root` on `threads` threads (0: all cores),
/// stopping once `limit` are found. Returns the count (at most `limit`) and
/// the summed stats.
pub fn par_count<S>(root: &S, order: Order, limit: Option<u64>, threads: usize, control: &Control) -> (u64, Stats)
where
    S: Space + Clone + Send + Sync,
    S::Choice: Send + Sync,
{
    let limit = limit.unwrap_or(u64::MAX);
    let target = effective_threads(threads) * PIECES_PER_THREAD;
    let (pieces, mut stats) = split_into_counting(&mut root.clone(), order, target);
    let found = AtomicU64::new(0);
    let stop = Control::new();
    run_jobs(
        threads,
        &pieces,
        |_| stop.is_cancelled() || control.is_cancelled(),
        |_, piece| {
            let mut space = root.clone();
            if !replay(&mut space, order, piece) {
                return Stats::default();
            }
            let mut search = Search::new(space).order(order).control(stop.clone());
            search.walk_counting(|k| {
                let so_far = found.fetch_add(k, Ordering::Relaxed) + k;
                if so_far >= limit {
                    stop.cancel();
                    ControlFlow::Break(())
                } else if control.is_cancelled() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            search.stats()
        },
        |_, piece_stats| stats.add(&piece_stats),
    );
    (found.load(Ordering::Relaxed).min(limit), stats)
}

/// Hands every solution of `root` to `visit` in the order a sequential walk
/// would, while searching several pieces in parallel. Pieces are searched in
/// windows a few times the thread count wide, so memory holds only one
/// window's solutions. Stops when `visit` returns `Break`.
pub fn par_for_each<S>(
    root: &S,
    order: Order,
    threads: usize,
    mut visit: impl FnMut(S::Solution) -> ControlFlow<()>,
) -> Stats
where
    S: Space + Clone + Send + Sync,
    S::Choice: Send + Sync,
    S::Solution: Send,
{
    let pool = thread_pool(threads);
    let threads = pool.current_num_threads();
    let (pieces, mut stats) = split_into_counting(&mut root.clone(), order, threads * PIECES_PER_THREAD);
    for window in pieces.chunks(threads * 4) {
        let results: Vec<(Vec<S::Solution>, Stats)> = pool.install(|| {
            window
                .par_iter()
                .with_max_len(1)
                .map(|piece| {
                    let mut space = root.clone();
                    let mut found = Vec::new();
                    if !replay(&mut space, order, piece) {
                        return (found, Stats::default());
                    }
                    let mut search = Search::new(space).order(order);
                    search.for_each(|s| {
                        found.push(s);
                        ControlFlow::Continue(())
                    });
                    (found, search.stats())
                })
                .collect()
        });
        for (found, piece_stats) in results {
            stats.add(&piece_stats);
            for solution in found {
                if visit(solution).is_break() {
                    return stats;
                }
            }
        }
    }
    stats
}

/// The number of threads `threads` stands for (0: one per available core).
pub fn effective_threads(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}
