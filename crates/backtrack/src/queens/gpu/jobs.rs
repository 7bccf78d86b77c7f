//! The GPU's work list: each subproblem of a [`Plan`] cut into jobs (its
//! canonical prefixes extended to [`job_depth`] rows), the table of head
//! constraints the jobs point into, and the batch loop that hands jobs to a
//! [`Runner`] and adds their counts back up per subproblem.

use std::collections::VecDeque;

use crate::queens::kernel::{leaf, replay, side_mask, Constraints, MAX_N};
use crate::queens::{Counts, Plan};
use crate::search::Control;

/// Most rows of a job's walk: from the job's start to the second-to-last
/// row (the last row is settled in place). Each row may need a word of the
/// kernel's shared memory and each but the last a resume entry (four
/// words), per thread.
pub(crate) const STACK_ROWS: usize = 16;

/// Bytes of shared memory one thread of the kernel needs for walks of
/// `rows` rows: its resume entries and placed queens (see `count_jobs`),
/// the queens' words at least four. The kernel loads a resume entry at
/// every turn, going back or not, and when not going back with its stack
/// full that is the entry just past the stack, which must still lie in the
/// block's shared memory: four words of every thread after the stacks make
/// room for the last thread's entry.
pub(crate) const fn stack_bytes(rows: usize) -> usize {
    let resumes = if rows > 1 { rows - 1 } else { 1 };
    let words = if rows > 4 { rows } else { 4 };
    resumes * 16 + words * 4
}

/// Rows of the longest walk among the jobs of `plan` cut at `depth` (see
/// [`job_depth`]): from the job depth (no job starts above it,
/// [`run_batches`] checks) to the second-to-last row.
#[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
pub(crate) fn walk_rows(plan: &Plan, depth: usize) -> usize {
    plan.n().saturating_sub(1 + depth).max(1)
}

/// Longest prefix a job carries.
pub(crate) const MAX_PREFIX: usize = 16;

/// Bytes of one [`Job`] as the kernel reads it.
pub(crate) const JOB_BYTES: usize = 32;

/// Words of one head entry: the forbidden columns of each row, then the
/// force row and the top queen's column.
pub(crate) const HEAD_WORDS: usize = MAX_N + 2;

/// Where a head entry keeps its force row (`u32::MAX`: none).
pub(crate) const HEAD_FORCE_ROW: usize = MAX_N;

/// Where a head entry keeps the top queen's column when leaves need the
/// symmetry check, 0 when they all weigh the same (a corner queen).
pub(crate) const HEAD_TOP: usize = MAX_N + 1;

/// The `-D` options that give the kernel source the constants it shares
/// with this file, for blocks of `block` threads.
#[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
pub(crate) fn kernel_defines(block: usize) -> Vec<String> {
    [
        ("Q_BLOCK", block),
        ("Q_MAX_PREFIX", MAX_PREFIX),
        ("Q_JOB_BYTES", JOB_BYTES),
        ("Q_HEAD_WORDS", HEAD_WORDS),
        ("Q_HEAD_FORCE_ROW", HEAD_FORCE_ROW),
        ("Q_HEAD_TOP", HEAD_TOP),
    ]
    .iter()
    .map(|(name, value)| format!("-D{name}={value}"))
    .collect()
}

/// One thread's piece of work: a canonical prefix of rows `0..start` and
/// the attacks it leaves on row `start`. The layout is the kernel's
/// `struct Job`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Job {
    /// Left diagonals attacking row `start` (board bits only).
    pub left: u32,
    /// Columns taken.
    pub down: u32,
    /// Right diagonals attacking row `start`.
    pub right: u32,
    /// The head entry of the prefix's first rows ([`head_key`]).
    pub head: u8,
    /// Rows fixed by the prefix.
    pub start: u8,
    /// 1 when a prefix row at the top queen's distance from either end
    /// holds a side queen: the leaves may then tie with another image.
    pub prefix_tie: u8,
    /// Unused, for alignment.
    pub pad: u8,
    /// Columns of rows `0..start`.
    pub cols: [u8; MAX_PREFIX],
}

const _: () = assert!(std::mem::size_of::<Job>() == JOB_BYTES);

impl Job {
    /// Appends the job's bytes as the kernel reads them (little-endian).
    #[cfg_attr(not(all(feature = "gpu", unix)), allow(dead_code))]
    pub(crate) fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.left.to_le_bytes());
        out.extend_from_slice(&self.down.to_le_bytes());
        out.extend_from_slice(&self.right.to_le_bytes());
        out.extend_from_slice(&[self.head, self.start, self.prefix_tie, self.pad]);
        out.extend_from_slice(&self.cols);
    }
}

/// The prefix length of the jobs for board `n` whose plan fixes
/// `plan_depth` rows: deep enough that a large board gives millions of
/// jobs (enough to keep every thread of a large GPU busy to the end) and
/// that no walk outgrows the stack, never past the second-to-last row.
///
/// `chosen` (the `BACKTRACK_GPU_JOB_DEPTH` knob, see tuning.rs) replaces
/// the table's depth within the same bounds: for measuring other depths on
/// a new GPU, not needed for correct counts.
pub(crate) fn job_depth(n: usize, plan_depth: usize, chosen: Option<usize>) -> usize {
    let wanted = chosen.unwrap_or(match n {
        0..=11 => 0,
        12..=15 => 5,
        16..=17 => 6,
        18..=21 => 7,
        _ => 8,
    });
    let shallowest = n.saturating_sub(1 + STACK_ROWS);
    wanted.max(shallowest).max(plan_depth).min(n.saturating_sub(1)).min(MAX_PREFIX)
}

/// Which head entry a canonical prefix uses: its second column for a
/// corner queen (0 on the one-square board), `n` plus its first column
/// otherwise.
pub(crate) fn head_key(n: usize, cols: &[u8]) -> usize {
    match cols {
        [0, second, ..] => *second as usize,
        [0] => 0,
        [top, ..] => n + *top as usize,
        [] => 0,
    }
}

/// The head constraints of board `n`, [`HEAD_WORDS`] per [`head_key`]
/// (entries of keys that start no canonical placement are zero).
pub(crate) fn head_table(n: usize) -> Vec<u32> {
    let mut table = vec![0u32; 2 * n * HEAD_WORDS];
    for key in 0..2 * n {
        let head: Vec<u8> = match key {
            0 if n == 1 => vec![0],
            k if k < n => vec![0, k as u8],
            k => vec![(k - n) as u8],
        };
        if head_key(n, &head) != key {
            continue;
        }
        if let Some(c) = Constraints::new(n, &head) {
            let entry = &mut table[key * HEAD_WORDS..(key + 1) * HEAD_WORDS];
            entry[..MAX_N].copy_from_slice(&c.forbid);
            entry[HEAD_FORCE_ROW] = u32::try_from(c.force_row).unwrap_or(u32::MAX);
            entry[HEAD_TOP] = if c.classify { c.top as u32 } else { 0 };
        }
    }
    table
}

/// What the [`JobStream`] produces, subproblem after subproblem.
#[derive(Debug)]
pub(crate) enum Event {
    /// The next subproblem (its plan index) starts.
    Begin(usize),
    /// A job of the current subproblem.
    Job(Job),
    /// Counts of the current subproblem settled here, not by a job (a
    /// prefix that fills the board, on the one-square board).
    Settled(Counts),
    /// The current subproblem has no more jobs.
    End,
}

/// The jobs of a plan's subproblems (those not skipped), in plan order,
/// made as they are asked for, so that memory stays bounded however many
/// jobs a subproblem has.
pub(crate) struct JobStream<'p, S> {
    plan: &'p Plan,
    depth: usize,
    skip: S,
    next_index: usize,
    pending: VecDeque<Event>,
    walk: Option<Walk>,
}

/// The depth-first expansion of one subproblem's prefix to the job depth.
struct Walk {
    c: Constraints,
    head: u8,
    depth: usize,
    base: usize,
    row: usize,
    cols: [u8; MAX_N],
    avails: [u32; MAX_N],
    lefts: [u32; MAX_N],
    downs: [u32; MAX_N],
    rights: [u32; MAX_N],
}

impl<'p, S: Fn(usize) -> bool> JobStream<'p, S> {
    /// The jobs of the subproblems of `plan` for which `skip` is false,
    /// cut at `depth` (see [`job_depth`]).
    pub(crate) fn new(plan: &'p Plan, depth: usize, skip: S) -> Self {
        JobStream { plan, depth, skip, next_index: 0, pending: VecDeque::new(), walk: None }
    }

    /// The next event, or `None` when every subproblem is done.
    pub(crate) fn next_event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event);
            }
            if let Some(walk) = &mut self.walk {
                return Some(match walk.step() {
                    Some(job) => Event::Job(job),
                    None => {
                        self.walk = None;
                        Event::End
                    }
                });
            }
            let plan = self.plan;
            let index = (self.next_index..plan.len()).find(|&i| !(self.skip)(i))?;
            self.next_index = index + 1;
            self.begin(index);
        }
    }

    /// Queues the events of subproblem `index` that are known at once, or
    /// starts its walk.
    fn begin(&mut self, index: usize) {
        let n = self.plan.n();
        let prefix = self.plan.subproblems()[index].columns();
        self.pending.push_back(Event::Begin(index));
        let mut placed = [0u32; MAX_N];
        let found = Constraints::new(n, prefix).and_then(|c| Some((replay(&c, prefix, &mut placed)?, c)));
        let Some(((left, down, right), c)) = found else {
            // Not a canonical prefix: nothing to count (as the CPU kernels).
            self.pending.push_back(Event::End);
            return;
        };
        let base = prefix.len();
        if base == n {
            let (w, u) = leaf(&c, &placed);
            self.pending.push_back(Event::Settled(Counts { total: w as u128, unique: u as u128 }));
            self.pending.push_back(Event::End);
            return;
        }
        let mut walk = Walk {
            head: head_key(n, prefix) as u8,
            c,
            depth: self.depth.max(base),
            base,
            row: base,
            cols: [0; MAX_N],
            avails: [0; MAX_N],
            lefts: [0; MAX_N],
            downs: [0; MAX_N],
            rights: [0; MAX_N],
        };
        walk.cols[..base].copy_from_slice(prefix);
        if walk.depth == base {
            self.pending.push_back(Event::Job(walk.job(left, down, right)));
            self.pending.push_back(Event::End);
            return;
        }
        walk.lefts[base] = left;
        walk.downs[base] = down;
        walk.rights[base] = right;
        walk.avails[base] = walk.c.available(base, left, down, right);
        self.walk = Some(walk);
    }
}

impl Walk {
    /// The next job of the expansion, or `None` when it is finished.
    fn step(&mut self) -> Option<Job> {
        loop {
            let row = self.row;
            let avail = self.avails[row];
            if avail == 0 {
                if row == self.base {
                    return None;
                }
                self.row -= 1;
                continue;
            }
            let bit = avail & avail.wrapping_neg();
            self.avails[row] = avail ^ bit;
            self.cols[row] = bit.trailing_zeros() as u8;
            let left = (self.lefts[row] | bit) << 1;
            let down = self.downs[row] | bit;
            let right = (self.rights[row] | bit) >> 1;
            if row + 1 == self.depth {
                return Some(self.job(left, down, right));
            }
            self.row = row + 1;
            self.lefts[row + 1] = left;
            self.downs[row + 1] = down;
            self.rights[row + 1] = right;
            self.avails[row + 1] = self.c.available(row + 1, left, down, right);
        }
    }

    /// The job of the prefix `cols[..depth]` with the given attacks on its
    /// next row.
    fn job(&self, left: u32, down: u32, right: u32) -> Job {
        let (c, start) = (&self.c, self.depth);
        let mut job = Job {
            left: left & c.mask,
            down,
            right,
            head: self.head,
            start: start as u8,
            prefix_tie: 0,
            pad: 0,
            cols: [0; MAX_PREFIX],
        };
        job.cols[..start].copy_from_slice(&self.cols[..start]);
        if c.classify {
            let side = side_mask(c.n);
            let far = c.n - 1 - c.top;
            let side_queen = |row: usize| row < start && (1u32 << self.cols[row]) & side != 0;
            job.prefix_tie = u8::from(side_queen(c.top) || side_queen(far));
        }
        job
    }
}

/// Counts batches of jobs: the GPU, or the kernel's emulation on the CPU.
///
/// A runner has [`SLOTS`] slots, each holding one batch at a time, so
/// that the next batch can start while the last threads of the previous
/// one are still finishing their jobs (otherwise the GPU would idle
/// through every batch's tail).
pub(crate) trait Runner {
    /// Why a batch could not be counted.
    type Error;
    /// Starts counting `jobs` in `slot` (whose previous batch has been
    /// collected).
    fn submit(&mut self, slot: usize, jobs: &[Job]) -> Result<(), Self::Error>;
    /// Waits for the batch in `slot` and puts each job's weighted total
    /// and classes into `out`, in job order.
    fn collect(&mut self, slot: usize, out: &mut Vec<[u64; 2]>) -> Result<(), Self::Error>;
}

/// Batches a runner holds at once.
pub(crate) const SLOTS: usize = 2;

/// A subproblem whose jobs are out.
struct Owner {
    index: usize,
    counts: Counts,
    outstanding: usize,
    expanded: bool,
}

/// The subproblems started and not yet reported, in plan order.
#[derive(Default)]
struct Ledger {
    owners: VecDeque<Owner>,
    /// Sequence number of the front owner.
    first: usize,
}

/// A batch of jobs and the sequence number of each one's owner.
#[derive(Default)]
struct Batch {
    jobs: Vec<Job>,
    owners: Vec<usize>,
}

impl Ledger {
    /// Takes events from `stream` until `batch` holds `max` jobs or the
    /// stream ends.
    fn fill<S: Fn(usize) -> bool>(&mut self, stream: &mut JobStream<'_, S>, batch: &mut Batch, max: usize) {
        batch.jobs.clear();
        batch.owners.clear();
        while batch.jobs.len() < max {
            let Some(event) = stream.next_event() else { break };
            let seq = self.first + self.owners.len();
            match event {
                Event::Begin(index) => {
                    self.owners.push_back(Owner { index, counts: Counts::default(), outstanding: 0, expanded: false })
                }
                Event::Job(job) => {
                    // The kernel's stack is sized for walks from the job depth
                    // down (walk_rows): a job starting above it would overrun it.
                    assert!(usize::from(job.start) >= stream.depth, "a job starts above the job depth");
                    let owner = self.owners.back_mut().expect("a job follows its subproblem's start");
                    owner.outstanding += 1;
                    batch.jobs.push(job);
                    batch.owners.push(seq - 1);
                }
                Event::Settled(counts) => {
                    self.owners.back_mut().expect("counts follow their subproblem's start").counts.add(counts)
                }
                Event::End => self.owners.back_mut().expect("an end follows its subproblem's start").expanded = true,
            }
        }
    }

    /// Adds a counted batch's results to their owners.
    fn settle(&mut self, batch: &Batch, results: &[[u64; 2]]) {
        assert_eq!(results.len(), batch.jobs.len(), "one result per job");
        for (&seq, &[total, unique]) in batch.owners.iter().zip(results) {
            let owner = &mut self.owners[seq - self.first];
            owner.counts.add(Counts { total: total as u128, unique: unique as u128 });
            owner.outstanding -= 1;
        }
    }

    /// Reports the subproblems whose jobs are all counted.
    fn report(&mut self, done: &mut dyn FnMut(usize, Counts)) {
        while let Some(owner) = self.owners.front() {
            if !owner.expanded || owner.outstanding > 0 {
                break;
            }
            done(owner.index, owner.counts);
            self.owners.pop_front();
            self.first += 1;
        }
    }
}

/// Counts the subproblems of `plan` for which `skip` is false on the
/// runner that `make_runner` makes once the first batch is ready,
/// `batch_jobs` jobs at a time, calling `done` with each finished
/// subproblem's index and counts. Two batches are out at a time: the next
/// one is made and submitted while the runner counts the current one.
/// After `control` is cancelled no new batch starts; the batches already
/// out are collected and their finished subproblems reported.
///
/// The runner is made late so that a GPU still opening (0.2 s) finishes
/// while the first batch is made (0.1 s for N = 20's 2^21 jobs): on an
/// H200 the whole command took 3.06-3.11 s that way, 3.27-3.41 s opening
/// first. Smaller first batches, growing twofold or fourfold, would let
/// the GPU start sooner, but their short launches leave it idle in their
/// tails: 3.21-3.35 s.
pub(crate) fn run_batches<R: Runner>(
    make_runner: impl FnOnce() -> Result<R, R::Error>,
    plan: &Plan,
    depth: usize,
    skip: impl Fn(usize) -> bool,
    control: Option<&Control>,
    batch_jobs: usize,
    done: &mut dyn FnMut(usize, Counts),
) -> Result<(), R::Error> {
    let cancelled = || control.is_some_and(|c| c.is_cancelled());
    let mut stream = JobStream::new(plan, depth, skip);
    let mut ledger = Ledger::default();
    let mut batches: [Batch; SLOTS] = Default::default();
    let mut results = Vec::new();
    if cancelled() {
        return Ok(());
    }
    ledger.fill(&mut stream, &mut batches[0], batch_jobs);
    if batches[0].jobs.is_empty() {
        // Nothing for the runner (subproblems settled without a job).
        ledger.report(done);
        return Ok(());
    }
    let mut runner = make_runner()?;
    runner.submit(0, &batches[0].jobs)?;
    let mut current = 0;
    while !batches[current].jobs.is_empty() {
        let following = (current + 1) % SLOTS;
        if cancelled() {
            batches[following].jobs.clear();
            batches[following].owners.clear();
        } else {
            ledger.fill(&mut stream, &mut batches[following], batch_jobs);
            if !batches[following].jobs.is_empty() {
                runner.submit(following, &batches[following].jobs)?;
            }
        }
        runner.collect(current, &mut results)?;
        ledger.settle(&batches[current], &results);
        ledger.report(done);
        current = following;
    }
    ledger.report(done);
    Ok(())
}
