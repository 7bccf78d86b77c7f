//! Eight searches at once: the counting walk of [`super::kernel`] run in the
//! eight 32-bit lanes of an AVX2 register, each lane on its own piece of the
//! search (a [`LaneJob`]), all lanes advancing one step per iteration.
//! Two such registers step side by side in one loop, sixteen searches in
//! flight: a step is a long chain of dependent operations, and the two
//! chains are independent, so the processor overlaps them.
//!
//! A scalar depth-first search spends most of its time on mispredicted
//! branches: whether the current row has a free column is close to a coin
//! toss at every node. Here every lane computes the possible moves of a step
//! and keeps the right ones with masks, so the only branches left are rare
//! events. A step first takes the last queen back in the lanes whose row has
//! no free column left, then places a queen on the lowest free column in the
//! lanes that have one (so a step usually moves to the next sibling at once).
//! The step is bitwise logic through and through, and the vector units are
//! its limit: on processors with AVX-512 the same walk is compiled with each
//! three-input formula and each lane selection as one `vpternlogd` (see
//! `logic`), which issues fewer operations per step.
//!
//! The walk keeps no per-row stack of masks: each step is undone from the
//! queen's column alone. A lane packs the columns of the rows it has placed
//! five bits each into [`WORDS`] words, and taking a queen `b` back from row
//! `r + 1` restores row `r` as `left = (left >> 1) ^ b`, `down ^= b`,
//! `right = (right << 1) ^ b` and `avail(r) & -(2b)` (columns are taken
//! lowest first, so only the columns above `b` are left to try).
//!
//! A shift loses the bit it pushes out of the word, and that diagonal would
//! be missing when the walk climbs back up to where it is on the board. So
//! each word keeps room for the whole walk: the left diagonals hold the
//! board in their low `n` bits and the right diagonals in their high `n`
//! bits (`32 - n` above the low end, see `Lanes::frame`), and a job walks
//! at most `32 - n` rows (and at most the twelve the stack holds) below its
//! start. Its prefix must therefore reach row `n - 3 - min(32 - n, 12)`,
//! which [`job_depth`] sees to; [`available`] says which boards qualify,
//! and hands out the processor token the walk needs.
//!
//! The last two rows are never walked: when a lane places a queen on the
//! third-to-last row it counts the completions of the two columns left, as
//! the scalar kernel does. Leaves that may tie with another member of their
//! symmetry class (an edge queen at the top queen's distance from a corner)
//! are detected with a conservative mask and classified by the scalar
//! [`leaf`](super::kernel::leaf) code; they are a small fraction.

// Only x86-64 has the vector walk; elsewhere the job plumbing is unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::cpu::X86V3;
use crate::search::{Control, ThreadStartError, Threads};

use super::kernel::{replay, Constraints, MAX_N};
use super::{Counts, Plan};

mod logic;
mod walk;

use walk::run;

/// Words of five-bit columns each lane can stack (six columns a word).
pub(crate) const WORDS: usize = 2;

/// Lanes per register.
const LANES: usize = 8;

/// Largest board the lanes take. Larger boards need jobs so deep (to fit
/// the walk into the [`WORDS`] of stack and the 32-bit frames) that cutting
/// a subproblem into them all at once would take too much memory.
pub(crate) const MAX_LANE_N: usize = 22;

/// The token that lets the lane walk count boards of size `n`: `None` when
/// the walk does not take such boards or this processor lacks the features
/// the walk is compiled with.
pub(crate) fn available(n: usize) -> Option<X86V3> {
    if !(6..=MAX_LANE_N).contains(&n) {
        return None;
    }
    X86V3::new()
}

/// The prefix length of the lane jobs for a board `n` whose subproblems fix
/// `plan_depth` rows: two rows deeper, so that a subproblem gives tens of
/// jobs and the lanes stay busy to the end of a run, and never so shallow
/// that a job walks more rows than the frame and the stack hold.
pub(crate) fn job_depth(n: usize, plan_depth: usize) -> usize {
    let deepest_walk = (32 - n).min(6 * WORDS);
    let shallowest = (n - 3).saturating_sub(deepest_walk);
    (plan_depth + 2).max(shallowest).min(n - 3)
}

/// Whether a job starting at row `start` fits the lanes of board `n`.
fn job_fits(n: usize, start: usize) -> bool {
    start >= 2 && start <= n - 3 && n - 3 - start <= (32 - n).min(6 * WORDS)
}

/// One piece of work for a lane: a canonical prefix and its attacks.
#[derive(Clone, Debug)]
pub(crate) struct LaneJob {
    /// Who the counts go to (the subproblem the job was cut from).
    pub owner: usize,
    /// The rows' constraints.
    c: Constraints,
    /// Columns of rows `0..start`.
    cols: [u8; MAX_N],
    start: usize,
    left: u32,
    down: u32,
    right: u32,
}

/// Cuts the canonical completions of `prefix` into lane jobs of prefix
/// length `depth` (appended to `out`). Returns the counts of the part that
/// does not go to the lanes: completions shorter than `depth` rows are
/// counted here by the scalar kernel (only on very small boards).
pub(crate) fn expand(c: &Constraints, prefix: &[u8], depth: usize, owner: usize, out: &mut Vec<LaneJob>) -> Counts {
    let n = c.n;
    let mut placed = [0u32; MAX_N];
    let Some((left, down, right)) = replay(c, prefix, &mut placed) else {
        return Counts::default();
    };
    let mut cols = [0u8; MAX_N];
    cols[..prefix.len()].copy_from_slice(prefix);
    if prefix.len() >= depth || !job_fits(n, depth) {
        if job_fits(n, prefix.len()) {
            out.push(LaneJob { owner, c: c.clone(), cols, start: prefix.len(), left, down, right });
            return Counts::default();
        }
        return super::kernel::solve(c, prefix, None).unwrap_or_default();
    }
    let mut job = LaneJob { owner, c: c.clone(), cols, start: prefix.len(), left, down, right };
    extend(&mut job, depth, out);
    Counts::default()
}

fn extend(job: &mut LaneJob, depth: usize, out: &mut Vec<LaneJob>) {
    let row = job.start;
    if row == depth {
        out.push(job.clone());
        return;
    }
    let (left, down, right) = (job.left, job.down, job.right);
    let mut avail = job.c.available(row, left, down, right);
    while avail != 0 {
        let bit = avail & avail.wrapping_neg();
        avail ^= bit;
        job.cols[row] = bit.trailing_zeros() as u8;
        job.start = row + 1;
        job.left = (left | bit) << 1;
        job.down = down | bit;
        job.right = (right | bit) >> 1;
        extend(job, depth, out);
    }
    job.start = row;
    job.left = left;
    job.down = down;
    job.right = right;
}

/// Where lane jobs come from and where their counts go.
pub(crate) trait Feed {
    /// The next job, or `None` when there is no more work.
    fn next(&mut self) -> Option<LaneJob>;
    /// The counts of one finished job of `owner`.
    fn finished(&mut self, owner: usize, counts: Counts);
}

/// The jobs of one plan's subproblems, taken one subproblem at a time from
/// a cursor shared by every worker; each subproblem's counts are sent once
/// all its jobs are done.
struct PlanFeed<'a, S: Fn(usize) -> bool> {
    plan: &'a Plan,
    depth: usize,
    cursor: &'a AtomicUsize,
    /// One past the last subproblem to take.
    end: usize,
    skip: &'a S,
    /// Jobs cut and not yet in a lane.
    queue: Vec<LaneJob>,
    /// Subproblems with jobs in flight: index, jobs left, counts so far.
    pending: Vec<(usize, usize, Counts)>,
    results: mpsc::Sender<(usize, Counts)>,
}

impl<S: Fn(usize) -> bool> Feed for PlanFeed<'_, S> {
    fn next(&mut self) -> Option<LaneJob> {
        loop {
            if let Some(job) = self.queue.pop() {
                return Some(job);
            }
            let index = self.cursor.fetch_add(1, Ordering::Relaxed);
            if index >= self.end {
                return None;
            }
            if (self.skip)(index) {
                continue;
            }
            let cols = self.plan.subproblems()[index].columns();
            let mut counts = Counts::default();
            if let Some(c) = Constraints::new(self.plan.n(), cols) {
                counts = expand(&c, cols, self.depth, index, &mut self.queue);
            }
            if self.queue.is_empty() {
                // Nothing for the lanes: the subproblem is done already.
                let _ = self.results.send((index, counts));
            } else {
                // Taken from the end: reversed, the jobs go out in the order they were cut.
                self.queue.reverse();
                self.pending.push((index, self.queue.len(), counts));
            }
        }
    }

    fn finished(&mut self, owner: usize, counts: Counts) {
        let Some(at) = self.pending.iter().position(|p| p.0 == owner) else {
            return;
        };
        let entry = &mut self.pending[at];
        entry.1 -= 1;
        entry.2.add(counts);
        if entry.1 == 0 {
            let (index, _, counts) = self.pending.swap_remove(at);
            // The receiver outlives the workers; a send error only means
            // the caller is gone.
            let _ = self.results.send((index, counts));
        }
    }
}

/// [`super::count_with`] on the lanes: every thread runs a lane walk fed
/// with the jobs of the subproblems it takes, one after the other, so the
/// lanes stay full until the plan runs out.
pub(crate) fn count_plan(
    cpu: X86V3,
    plan: &Plan,
    threads: Threads,
    skip: impl Fn(usize) -> bool + Sync,
    control: Option<&Control>,
    mut done: impl FnMut(usize, Counts),
) -> Result<(), ThreadStartError> {
    let n = plan.n();
    let depth = job_depth(n, plan.depth());
    let cursor = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        let (cursor, skip) = (&cursor, &skip);
        crate::search::spawn_all(scope, threads.get(), threads, |_| {
            let results = tx.clone();
            move || {
                let mut feed = PlanFeed {
                    plan,
                    depth,
                    cursor,
                    end: plan.len(),
                    skip,
                    queue: Vec::new(),
                    pending: Vec::new(),
                    results,
                };
                run(cpu, n, &mut feed, control);
            }
        })?;
        drop(tx);
        for (index, counts) in rx {
            done(index, counts);
        }
        Ok(())
    })
}

/// Counts one subproblem of `plan` on the lanes of this thread, or `None`
/// if `control` was cancelled first.
pub(crate) fn solve_one(cpu: X86V3, plan: &Plan, index: usize, control: Option<&Control>) -> Option<Counts> {
    let cursor = AtomicUsize::new(index);
    let (tx, rx) = mpsc::channel();
    let mut feed = PlanFeed {
        plan,
        depth: job_depth(plan.n(), plan.depth()),
        cursor: &cursor,
        end: index + 1,
        skip: &|_| false,
        queue: Vec::new(),
        pending: Vec::new(),
        results: tx,
    };
    if !run(cpu, plan.n(), &mut feed, control) {
        return None;
    }
    drop(feed);
    rx.into_iter().next().map(|r| r.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build of the lane walk, called as [`walk::run`].
    type Walk = fn(usize, &mut dyn Feed, Option<&Control>) -> bool;

    /// Every build of the walk this processor runs, by name: AVX2, and
    /// AVX-512 where the processor has it (otherwise the test that asked
    /// says so, and fails under `CI=true` where `/proc/cpuinfo` lists the
    /// features detection missed).
    fn walks(test: &str) -> Vec<(&'static str, Walk)> {
        let mut walks: Vec<(&'static str, Walk)> = Vec::new();
        if X86V3::new().is_some() {
            walks.push(("AVX2", |n, feed, control| walk::run_on(X86V3::new().unwrap(), n, feed, control)));
        }
        if crate::cpu::Avx512::new().is_some() {
            walks.push(("AVX-512", |n, feed, control| {
                walk::run_on(crate::cpu::Avx512::new().unwrap(), n, feed, control)
            }));
        } else {
            let listed = crate::test_support::cpuinfo_has(&["avx512f", "avx512bw", "avx512vl", "avx2", "bmi1", "bmi2"]);
            crate::test_support::skip(
                test,
                "this processor lacks AVX-512 F/BW/VL: the AVX-512 lane walk is not tested",
                crate::test_support::under_ci() && listed == Some(true),
            );
        }
        walks
    }

    /// Counts `jobs` on the lanes of `walk`, per owner.
    fn run_jobs_on_lanes(walk: Walk, n: usize, jobs: Vec<LaneJob>) -> Vec<(usize, Counts)> {
        struct Fixed(Vec<LaneJob>, Vec<(usize, Counts)>);
        impl Feed for Fixed {
            fn next(&mut self) -> Option<LaneJob> {
                self.0.pop()
            }
            fn finished(&mut self, owner: usize, counts: Counts) {
                self.1.push((owner, counts));
            }
        }
        let mut feed = Fixed(jobs, Vec::new());
        assert!(walk(n, &mut feed, None));
        feed.1
    }

    #[test]
    fn every_subproblem_matches_the_scalar_kernel_4_to_13() {
        if available(8).is_none() {
            eprintln!("no AVX2 here: lane walk not tested");
            return;
        }
        for n in 4..=13 {
            for plan_depth in 2..=4 {
                let plan = Plan::with_depth(n, plan_depth).unwrap();
                for index in 0..plan.len() {
                    let expected = plan.solve_scalar(index, None).unwrap();
                    let got = plan.solve_cancellable(index, None).unwrap();
                    assert_eq!(got, expected, "n = {n}, depth {plan_depth}, subproblem {index}");
                }
            }
        }
    }

    #[test]
    fn every_job_depth_gives_the_scalar_counts() {
        for (name, walk) in walks("every_job_depth_gives_the_scalar_counts") {
            job_depths_give_the_scalar_counts(name, walk);
        }
    }

    /// [`every_job_depth_gives_the_scalar_counts`] on one build of the walk.
    fn job_depths_give_the_scalar_counts(name: &str, walk: Walk) {
        for n in 6..=12 {
            let plan = Plan::with_depth(n, 2).unwrap();
            for depth in 2..=n - 3 {
                let mut jobs = Vec::new();
                let mut outside = Counts::default();
                for (index, sub) in plan.subproblems().iter().enumerate() {
                    let c = Constraints::new(n, sub.columns()).unwrap();
                    outside.add(expand(&c, sub.columns(), depth, index, &mut jobs));
                }
                let lanes: Counts = run_jobs_on_lanes(walk, n, jobs).into_iter().map(|r| r.1).sum();
                let scalar: Counts = (0..plan.len()).map(|i| plan.solve_scalar(i, None).unwrap()).sum();
                assert_eq!(lanes + outside, scalar, "{name}: n = {n}, job depth {depth}");
            }
        }
    }

    /// The deepest walks the lanes take: twelve stacked columns (n = 18
    /// from row 3) and right diagonals that use the whole frame below the
    /// board (n = 20 from row 5, n = 22 from row 9), on a sample of jobs of
    /// each: four by default, twelve with BACKTRACK_LONG_TESTS=1.
    #[test]
    fn deepest_walks_match_the_scalar_kernel() {
        let walks = walks("deepest_walks_match_the_scalar_kernel");
        if cfg!(unoptimized) {
            // Minutes without optimisation; seconds in the test profile.
            eprintln!("skipped: the deepest walks take minutes in an unoptimised build");
            return;
        }
        for (n, start) in [(18, 3), (19, 4), (20, 5), (21, 7), (22, 9)] {
            assert_eq!(job_depth(n, 0), start);
            assert!(job_fits(n, start) && !job_fits(n, start - 1), "n = {n}, start {start}");
            let heads = Plan::with_depth(n, 2).unwrap();
            let mut jobs = Vec::new();
            let mut expected = Vec::new();
            let mut seed = 0usize;
            while jobs.len() < crate::effort::rounds(4, 12) {
                seed += 1;
                let head = heads.subproblems()[seed * 7 % heads.len()].columns();
                let Some(c) = Constraints::new(n, head) else { continue };
                let Some(prefix) = descend(&c, head, start, seed) else { continue };
                assert_eq!(expand(&c, &prefix, start, jobs.len(), &mut jobs), Counts::default());
                expected.push(super::super::kernel::solve(&c, &prefix, None).unwrap());
            }
            assert!(expected.iter().any(|c| c.total > 0), "n = {n}: only empty samples");
            for &(name, walk) in &walks {
                let counted = run_jobs_on_lanes(walk, n, jobs.clone());
                assert_eq!(counted.len(), expected.len(), "{name}: n = {n}");
                for (owner, counts) in counted {
                    assert_eq!(counts, expected[owner], "{name}: n = {n}, job {owner}");
                }
            }
        }
    }

    /// A canonical prefix of length `depth` extending `head`, its columns
    /// picked by `seed`, or `None` if the choices run into a dead end.
    fn descend(c: &Constraints, head: &[u8], depth: usize, seed: usize) -> Option<Vec<u8>> {
        let mut prefix = head.to_vec();
        let mut placed = [0u32; MAX_N];
        while prefix.len() < depth {
            let (left, down, right) = replay(c, &prefix, &mut placed)?;
            let mut avail = c.available(prefix.len(), left, down, right);
            if avail == 0 {
                return None;
            }
            for _ in 0..(seed * 31 + prefix.len() * 17) % avail.count_ones() as usize {
                avail &= avail - 1;
            }
            prefix.push(avail.trailing_zeros() as u8);
        }
        Some(prefix)
    }
}
