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
use super::{Control, Order, Search, Space, Stats, Threads};

/// Why threads could not be started (the system refused one: a process or
/// memory limit): what every parallel function of this crate returns then,
/// so that a program can report the failure (and perhaps try fewer threads)
/// instead of crashing.
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

/// The error for `threads` threads that the system refused to start.
fn start_failed(threads: Threads, reason: impl std::fmt::Display) -> ThreadStartError {
    ThreadStartError { threads: threads.get(), reason: reason.to_string() }
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

/// Starts one scoped thread, one of `threads`, or says why the system
/// refused it.
pub fn spawn_scoped<'scope, 'env, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    threads: Threads,
    work: impl FnOnce() -> T + Send + 'scope,
) -> Result<std::thread::ScopedJoinHandle<'scope, T>, ThreadStartError> {
    let mut reserve = start_reserve();
    let started = start_one(&mut reserve, |started| {
        std::thread::Builder::new().spawn_scoped(scope, move || {
            started.signal();
            work()
        })
    });
    drop(reserve);
    started.map_err(|e| start_failed(threads, e))
}

/// Starts `count` scoped threads, the `i`-th running the closure that
/// `make(i)` returns (made on the calling thread), but only once every one of
/// them has started: if the system refuses one, the threads already started
/// return `None` at once, without running their closure (so none of them
/// takes memory for work that cannot be done), and this returns a
/// [`ThreadStartError`] naming `threads`, the threads the work was to run on
/// (the calling thread may be one of them). A thread that ran its closure
/// returns `Some`.
pub fn spawn_all<'scope, 'env, T, F>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    count: usize,
    threads: Threads,
    mut make: impl FnMut(usize) -> F,
) -> Result<Vec<std::thread::ScopedJoinHandle<'scope, Option<T>>>, ThreadStartError>
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
                return Err(start_failed(threads, e));
            }
        }
    }
    drop(reserve);
    open(true);
    Ok(handles)
}

/// A rayon pool of `threads` threads, or why the system refused to start
/// them.
pub fn thread_pool(threads: Threads) -> Result<rayon::ThreadPool, ThreadStartError> {
    let mut reserve = start_reserve();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.get())
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
    pool.map_err(|e| start_failed(threads, e))
}

/// Runs `work` on every job on `threads` threads and calls `done` on the
/// calling thread with each job's index and result, in completion order.
/// Jobs for which `skip` is true are not run (e.g. those already done before
/// a resume). If the threads cannot start, no job runs.
pub fn run_jobs<J, R>(
    threads: Threads,
    jobs: &[J],
    skip: impl Fn(usize) -> bool + Sync,
    work: impl Fn(usize, &J) -> R + Sync,
    mut done: impl FnMut(usize, R),
) -> Result<(), ThreadStartError>
where
    J: Sync,
    R: Send,
{
    let pool = thread_pool(threads)?;
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let work = &work;
        let skip = &skip;
        let pool = &pool;
        // The pool works on a helper thread so that the calling thread is free
        // to receive results (and draw progress) without taking a worker's place.
        spawn_scoped(scope, threads, move || {
            pool.install(|| {
                jobs.par_iter().enumerate().with_max_len(1).for_each_with(tx, |tx, (i, job)| {
                    if !skip(i) {
                        // The receiver lives until the scope ends; a send error
                        // only means the caller panicked, and then nothing matters.
                        let _ = tx.send((i, work(i, job)));
                    }
                })
            });
        })?;
        for (i, result) in rx {
            done(i, result);
        }
        Ok(())
    })
}

/// Runs `work` on the chunks of `items` (`chunk` items each, the last
/// perhaps fewer) on `threads` threads, a chunk at a time per thread: for
/// work that writes its answer into each item and keeps scratch state from
/// one item of a chunk to the next. If the threads cannot start, no item is
/// touched.
pub fn for_each_chunk_mut<T: Send>(
    threads: Threads,
    items: &mut [T],
    chunk: usize,
    work: impl Fn(&mut [T]) + Sync + Send,
) -> Result<(), ThreadStartError> {
    let pool = thread_pool(threads)?;
    pool.install(|| items.par_chunks_mut(chunk.max(1)).for_each(work));
    Ok(())
}

/// `work` of every job, in the jobs' order, into `out` (what it held is
/// replaced), on the pool this is called from: one of [`thread_pool`]'s
/// inside its `install`, else one thread per core.
pub fn map_in_order<J: Sync, R: Send>(jobs: &[J], work: impl Fn(&J) -> R + Sync + Send, out: &mut Vec<R>) {
    jobs.par_iter().map(work).collect_into_vec(out);
}

/// What the feeder of [`run_in_order`] hands over next.
#[derive(Debug)]
pub enum Feed<J> {
    /// A job to run.
    Job(J),
    /// Nothing yet: asked again once a job in flight is done.
    Wait,
    /// No more jobs.
    End,
}

/// Runs a stream of jobs on `threads` threads and hands each job and its
/// result to `done`, on the calling thread, in the order the jobs came.
///
/// `next` is called on the calling thread for the next job; its argument
/// says whether no job is in flight, when it should wait for one (a
/// [`Feed::Wait`] then is asked again at once) rather than answer
/// [`Feed::Wait`]. At most `window` jobs are in flight or waiting for their
/// turn to be handed to `done`, so memory holds a bounded window of results
/// however long the stream. Each worker passes `work` a scratch value made
/// by `scratch` and kept from one job to the next. When `done` returns
/// `Break`, no more jobs are asked for; the jobs in flight finish and their
/// results are dropped. On one thread every job runs on the calling thread.
pub fn run_in_order<J, R, S>(
    threads: Threads,
    window: usize,
    scratch: impl Fn() -> S + Sync,
    mut next: impl FnMut(bool) -> Feed<J>,
    work: impl Fn(&mut S, &J) -> R + Sync,
    mut done: impl FnMut(J, R) -> ControlFlow<()>,
) -> Result<(), ThreadStartError>
where
    J: Send,
    R: Send,
    S: Send,
{
    if threads == Threads::ONE {
        let mut scratch = scratch();
        loop {
            match next(true) {
                Feed::Job(job) => {
                    let result = work(&mut scratch, &job);
                    if done(job, result).is_break() {
                        return Ok(());
                    }
                }
                Feed::Wait => {}
                Feed::End => return Ok(()),
            }
        }
    }
    let pool = thread_pool(threads)?;
    let window = window.max(1);
    // Scratch values not in use: a worker takes one (or makes one) for a job
    // and puts it back after, so each is reused without a thread-local.
    let spare: std::sync::Mutex<Vec<S>> = std::sync::Mutex::new(Vec::new());
    let (tx, rx) = mpsc::channel::<(u64, Option<(J, R)>)>();
    pool.in_place_scope(|scope| {
        let (work, scratch, spare) = (&work, &scratch, &spare);
        // Jobs handed out and not yet passed to `done`, in order, with their results once back.
        let mut pending: std::collections::VecDeque<Option<(J, R)>> = std::collections::VecDeque::new();
        let mut first_id = 0u64;
        let mut in_flight = 0usize;
        let mut ended = false;
        let mut stopped = false;
        loop {
            while !ended && !stopped && pending.len() < window {
                match next(in_flight == 0) {
                    Feed::Job(job) => {
                        let id = first_id + pending.len() as u64;
                        pending.push_back(None);
                        in_flight += 1;
                        let tx = tx.clone();
                        scope.spawn(move |_| {
                            // Reports the job even if `work` panics, so the
                            // calling thread never waits for it forever.
                            let mut report = Report { tx, id, result: None };
                            let taken = spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
                            let mut mine = taken.unwrap_or_else(scratch);
                            let result = work(&mut mine, &job);
                            spare.lock().unwrap_or_else(|e| e.into_inner()).push(mine);
                            report.result = Some((job, result));
                        });
                    }
                    Feed::Wait if in_flight == 0 => {}
                    Feed::Wait => break,
                    Feed::End => ended = true,
                }
            }
            if in_flight == 0 {
                break;
            }
            let Ok((id, result)) = rx.recv() else { break };
            in_flight -= 1;
            let Some(result) = result else {
                // A job panicked: the scope passes the panic on once the others are done.
                stopped = true;
                continue;
            };
            pending[(id - first_id) as usize] = Some(result);
            while let Some(Some(_)) = pending.front() {
                let (job, result) = pending.pop_front().flatten().expect("checked");
                first_id += 1;
                if !stopped && done(job, result).is_break() {
                    stopped = true;
                }
            }
        }
    });
    Ok(())
}

/// What a job of [`run_in_order`] sends back when it ends, run or not.
struct Report<J, R> {
    tx: mpsc::Sender<(u64, Option<(J, R)>)>,
    id: u64,
    result: Option<(J, R)>,
}

impl<J, R> Drop for Report<J, R> {
    fn drop(&mut self) {
        // The receiver lives until every job has reported.
        let _ = self.tx.send((self.id, self.result.take()));
    }
}

/// Pieces per thread: enough that work stealing balances uneven subtrees.
const PIECES_PER_THREAD: usize = 64;

/// Counts the solutions of `root` on `threads` threads, stopping once
/// `limit` are found. Returns the count (at most `limit`) and the summed
/// stats.
pub fn par_count<S>(
    root: &S,
    order: Order,
    limit: Option<u64>,
    threads: Threads,
    control: &Control,
) -> Result<(u64, Stats), ThreadStartError>
where
    S: Space + Clone + Send + Sync,
    S::Choice: Send + Sync,
{
    let limit = limit.unwrap_or(u64::MAX);
    let target = threads.get() * PIECES_PER_THREAD;
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
    )?;
    Ok((found.load(Ordering::Relaxed).min(limit), stats))
}

/// Hands every solution of `root` to `visit` in the order a sequential walk
/// would, while searching several pieces in parallel. Pieces are searched in
/// windows a few times the thread count wide, so memory holds only one
/// window's solutions. Stops when `visit` returns `Break`.
pub fn par_for_each<S>(
    root: &S,
    order: Order,
    threads: Threads,
    mut visit: impl FnMut(S::Solution) -> ControlFlow<()>,
) -> Result<Stats, ThreadStartError>
where
    S: Space + Clone + Send + Sync,
    S::Choice: Send + Sync,
    S::Solution: Send,
{
    let pool = thread_pool(threads)?;
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
                    return Ok(stats);
                }
            }
        }
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_each_worked_once_and_maps_keep_the_jobs_order() {
        let mut items: Vec<u64> = (0..1000).collect();
        for_each_chunk_mut(Threads::new(3).unwrap(), &mut items, 7, |chunk| {
            assert!(chunk.len() == 7 || chunk.len() == 1000 % 7);
            chunk.iter_mut().for_each(|item| *item *= 2);
        })
        .unwrap();
        assert!(items.iter().enumerate().all(|(i, &v)| v == i as u64 * 2), "{items:?}");
        let mut out = vec![5u64; 3];
        thread_pool(Threads::new(4).unwrap()).unwrap().install(|| map_in_order(&items, |v| v + 1, &mut out));
        assert_eq!(out, (0..1000).map(|i| i * 2 + 1).collect::<Vec<u64>>());
    }
    use std::sync::atomic::AtomicUsize;

    /// Runs jobs 0..n, which take longer the smaller they are, on
    /// `threads`; returns the order `done` saw them in and the most jobs
    /// ever in flight at once.
    fn run(n: u64, threads: usize, window: usize, stop_at: Option<u64>) -> (Vec<u64>, usize) {
        let (live, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let mut jobs = 0..n;
        let mut seen = Vec::new();
        run_in_order(
            Threads::new(threads).unwrap(),
            window,
            || 0u64,
            |_| jobs.next().map_or(Feed::End, Feed::Job),
            |runs, &job| {
                *runs += 1;
                let now = live.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_micros(200 * (n - job) % 1000));
                live.fetch_sub(1, Ordering::SeqCst);
                job * 10
            },
            |job, result| {
                assert_eq!(result, job * 10);
                seen.push(job);
                if stop_at == Some(job) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        )
        .unwrap();
        (seen, most.into_inner())
    }

    #[test]
    fn results_come_in_job_order_within_the_window() {
        for threads in [1, 2, 4] {
            let (seen, most) = run(50, threads, 3, None);
            assert_eq!(seen, (0..50).collect::<Vec<_>>(), "{threads} threads");
            assert!(most <= 3, "{most} jobs in flight with a window of 3");
        }
    }

    #[test]
    fn a_break_ends_the_run_after_that_job() {
        for threads in [1, 3] {
            let (seen, _) = run(50, threads, 8, Some(7));
            assert_eq!(seen, (0..=7).collect::<Vec<_>>(), "{threads} threads");
        }
    }
}
