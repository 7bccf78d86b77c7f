//! The GPU kernel's per-thread loop (`kernel.cu`) on the CPU: the same
//! state (the attack words, a stack of rows to resume with their free
//! columns and attacks, the placed queen of each row), the same steps in the same
//! order, the same leaf checks, on the same jobs. The comments tagged `[n]`
//! name the kernel's steps they copy. Tested against the CPU counter, it is
//! what makes a kernel change checkable on a machine without a GPU.

use super::jobs::{Job, Runner, HEAD_FORCE_ROW, HEAD_TOP, HEAD_WORDS, SLOTS, STACK_ROWS};
use crate::search::map_in_order;

/// `avail_at` \[1\]: the columns row `row` may take.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn avail_at(h: &[u32], force: u32, mask: u32, side: u32, row: u32, l: u32, d: u32, r: u32) -> u32 {
    let mut a = mask & !(l | d | r | h[row as usize]);
    if row == force {
        let missing = side & !d;
        if missing == side {
            return 0;
        }
        if missing != 0 {
            a &= missing;
        }
    }
    a
}

/// `classify_tie` \[2\]: compares the placement with the other images the
/// search visits; the class size, or 0 if another image is the class's
/// representative. (The kernel runs it with the whole warp, a lane per
/// row, for each lane's tie in turn \[12\]; the result is the same.)
fn classify_tie(job: &Job, placed: &[u32], start: u32, n: u32, top: u32, lastbit: u32) -> u32 {
    let mut p = [0u8; 32];
    let mut q = [0u8; 32];
    let last = n - 1;
    for row in 0..start {
        p[row as usize] = job.cols[row as usize];
    }
    for row in start..last {
        p[row as usize] = placed[(row - start) as usize].trailing_zeros() as u8;
    }
    p[last as usize] = lastbit.trailing_zeros() as u8;
    for row in 0..n {
        q[p[row as usize] as usize] = row as u8;
    }
    let mut stabilizer = 1u32;
    for g in 0..7u32 {
        let mut order = 0i32;
        for row in 0..n {
            let rr = (last - row) as usize;
            let row_ = row as usize;
            let v = match g {
                0 => last - p[row_] as u32,
                1 => p[rr] as u32,
                2 => last - p[rr] as u32,
                3 => q[row_] as u32,
                4 => last - q[row_] as u32,
                5 => q[rr] as u32,
                _ => last - q[rr] as u32,
            };
            if row == 0 && v != top {
                order = 2; // not a visited image
                break;
            }
            if v != p[row_] as u32 {
                order = if v < p[row_] as u32 { -1 } else { 1 };
                break;
            }
        }
        if order == -1 {
            return 0;
        }
        if order == 0 {
            stabilizer += 1;
        }
    }
    8 / stabilizer
}

/// `leaf` \[3\]: one full placement's weight (0: not its class's
/// representative).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn leaf(
    job: &Job,
    placed: &[u32],
    start: u32,
    n: u32,
    top: u32,
    side: u32,
    prefix_tie: bool,
    plain: u32,
    lastbit: u32,
) -> u32 {
    if top == 0 {
        return plain;
    }
    let far = n - 1 - top;
    let edge = (1u32 << top) | (1u32 << far);
    let tie = prefix_tie
        || lastbit & edge != 0
        || (top >= start && placed[(top - start) as usize] & side != 0)
        || (far >= start && placed[(far - start) as usize] & side != 0);
    if !tie {
        return 8;
    }
    classify_tie(job, placed, start, n, top, lastbit)
}

/// One thread's count of one job \[5\]-\[11\]: its weighted total and
/// classes. (The kernel goes on to its next job where this returns.)
pub(crate) fn count_job(heads: &[u32], n: u32, job: &Job) -> [u64; 2] {
    // The rows to resume, each with the columns left to try on it and its
    // attacks (the kernel's `Resume`), and the queen of each row.
    let mut resume = [[0u32; 4]; STACK_ROWS];
    let mut placed = [0u32; STACK_ROWS];
    let mask = u32::MAX >> (32 - n);
    let side = 1u32 | (1u32 << (n - 1));
    let last = n - 1;
    let plain = if n == 1 { 1 } else { 8 };
    // [5]
    let h = &heads[job.head as usize * HEAD_WORDS..][..HEAD_WORDS];
    let top = h[HEAD_TOP];
    let force = h[HEAD_FORCE_ROW];
    let start = job.start as u32;
    let prefix_tie = job.prefix_tie != 0;
    let mut total = 0u64;
    let mut unique = 0u64;
    let mut l = job.left;
    let mut d = job.down;
    let mut r = job.right;
    let mut row = start;
    let mut sp = 0usize;
    let mut a = avail_at(h, force, mask, side, row, l, d, r);
    if row == last {
        // [6]
        if a != 0 {
            let w = leaf(job, &placed, start, n, top, side, prefix_tie, plain, a);
            total += w as u64;
            unique += (w != 0) as u64;
        }
        a = 0;
    }
    loop {
        if a == 0 && sp == 0 {
            // [7]
            break;
        }
        // [8]
        if a == 0 {
            sp -= 1;
            [a, l, d, r] = resume[sp];
            row = d.count_ones();
        }
        // [9]
        let bit = a & a.wrapping_neg();
        a ^= bit;
        let nl = (l | bit) << 1;
        let nd = d | bit;
        let nr = (r | bit) >> 1;
        let na = avail_at(h, force, mask, side, row + 1, nl, nd, nr);
        let alive = na != 0;
        let at_last = row + 1 == last;
        if alive {
            placed[(row - start) as usize] = bit;
        }
        if alive && at_last {
            // [10]
            let w = leaf(job, &placed, start, n, top, side, prefix_tie, plain, na);
            total += w as u64;
            unique += (w != 0) as u64;
        }
        // [11]
        let down = alive && !at_last;
        if down && a != 0 {
            resume[sp] = [a, l, d, r];
            sp += 1;
        }
        if down {
            l = nl;
            d = nd;
            r = nr;
            a = na;
            row += 1;
        }
    }
    [total, unique]
}

/// Counts batches with [`count_job`] on every core: the GPU's results, on
/// the CPU. A batch is counted when it is submitted.
pub(crate) struct Emulator<'h> {
    pub heads: &'h [u32],
    pub n: u32,
    pub results: [Vec<[u64; 2]>; SLOTS],
}

impl Runner for Emulator<'_> {
    type Error = std::convert::Infallible;

    fn submit(&mut self, slot: usize, jobs: &[Job]) -> Result<(), Self::Error> {
        let (heads, n) = (self.heads, self.n);
        map_in_order(jobs, |job| count_job(heads, n, job), &mut self.results[slot]);
        Ok(())
    }

    fn collect(&mut self, slot: usize, out: &mut Vec<[u64; 2]>) -> Result<(), Self::Error> {
        std::mem::swap(out, &mut self.results[slot]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::jobs::{head_table, job_depth, walk_rows, Event, JobStream, MAX_PREFIX};
    use super::*;
    use crate::queens::{count, Counts, Plan};

    /// Every job of `plan` (with the subproblem it comes from) and the
    /// counts settled without a job.
    fn all_jobs(plan: &Plan) -> (Vec<(usize, Job)>, Counts) {
        let mut stream = JobStream::new(plan, job_depth(plan.n(), plan.depth(), None), |_| false);
        let (mut jobs, mut settled, mut owner) = (Vec::new(), Counts::default(), 0);
        while let Some(event) = stream.next_event() {
            match event {
                Event::Begin(i) => owner = i,
                Event::Job(job) => jobs.push((owner, job)),
                Event::Settled(c) => settled.add(c),
                Event::End => {}
            }
        }
        (jobs, settled)
    }

    #[test]
    fn the_emulated_kernel_counts_every_board_to_14() {
        for n in 1..=14usize {
            let plan = Plan::new(n).unwrap();
            let heads = head_table(n);
            let (jobs, mut counts) = all_jobs(&plan);
            for (_, job) in &jobs {
                let [t, u] = count_job(&heads, n as u32, job);
                counts.add(Counts { total: t as u128, unique: u as u128 });
            }
            assert_eq!(counts, count(n, crate::search::Threads::ONE).unwrap(), "n = {n}");
        }
    }

    #[test]
    fn each_subproblem_gets_the_cpu_kernels_counts() {
        for n in [5, 8, 11, 12] {
            let plan = Plan::new(n).unwrap();
            let heads = head_table(n);
            let mut per = vec![Counts::default(); plan.len()];
            let (jobs, _) = all_jobs(&plan);
            for (owner, job) in &jobs {
                let [t, u] = count_job(&heads, n as u32, job);
                per[*owner].add(Counts { total: t as u128, unique: u as u128 });
            }
            for (i, got) in per.iter().enumerate() {
                assert_eq!(*got, plan.solve_scalar(i, None).unwrap(), "n = {n}, subproblem {i}");
            }
        }
    }

    /// Every resume entry and queen the kernel touches lies in the block's
    /// shared memory, for every walk length and block size: the entry just
    /// past a full stack of the block's last thread too, which the turn's
    /// load reads when it does not go back.
    #[test]
    fn the_kernels_stack_stays_in_the_blocks_shared_memory() {
        use super::super::jobs::stack_bytes;
        use super::super::tuning::MAX_BLOCK;
        for rows in 1..=STACK_ROWS {
            let resumes = rows.saturating_sub(1).max(1);
            // The stack holds at most rows - 1 entries; the load may read one past.
            let deepest = rows - 1;
            for block in (32..=MAX_BLOCK).step_by(32) {
                let shared = block * stack_bytes(rows);
                let past_last_entry = (deepest * block + block) * 16;
                assert!(past_last_entry <= shared, "rows {rows}, block {block}: {past_last_entry} > {shared}");
                let past_last_queen = resumes * 16 * block + (rows * block) * 4;
                assert!(past_last_queen <= shared, "rows {rows}, block {block}: {past_last_queen} > {shared}");
            }
        }
    }

    #[test]
    fn jobs_fit_the_kernels_stack_and_prefix_for_every_size() {
        for n in 1..=crate::queens::MAX_N {
            let plan_depth = crate::queens::plan::default_depth(n).clamp(2, crate::queens::plan::MAX_DEPTH).min(n);
            let depth = job_depth(n, plan_depth, None);
            assert!(depth >= plan_depth || depth + 1 == n, "n = {n}");
            assert!(depth <= MAX_PREFIX, "n = {n}");
            if depth < n {
                assert!(n - 1 - depth <= STACK_ROWS, "n = {n}: a walk of {} rows", n - 1 - depth);
            }
        }
    }

    /// The part of the kernel source that host C++ can compile: CUDA's
    /// keywords and intrinsics as plain functions, one warp of 32 threads
    /// (its votes and shuffles through a barrier).
    const CPU_SHIM: &str = r#"
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>
#define __global__
#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(x)
#define __shared__ static
#define __align__(x) alignas(x)
alignas(16) static unsigned char q_shared_memory[1 << 20];
#define Q_HOST_SHARED_MEMORY q_shared_memory
#define Q_DYNAMIC_SHARED(name) unsigned char* name = q_shared_memory
// One warp: 32 threads whose votes and shuffles meet at a barrier.
static thread_local struct { unsigned x; } threadIdx;
static std::mutex warp_lock;
static std::condition_variable warp_turn;
static unsigned warp_arrived = 0, warp_generation = 0;
static unsigned long long warp_slots[32];
static void __syncwarp() {
    std::unique_lock<std::mutex> lock(warp_lock);
    unsigned generation = warp_generation;
    if (++warp_arrived == 32) {
        warp_arrived = 0;
        warp_generation++;
        warp_turn.notify_all();
    } else {
        warp_turn.wait(lock, [&] { return warp_generation != generation; });
    }
}
static unsigned long long warp_exchange(unsigned long long v, unsigned from) {
    warp_slots[threadIdx.x & 31] = v;
    __syncwarp();
    unsigned long long got = warp_slots[from & 31];
    __syncwarp();
    return got;
}
static unsigned __ballot_sync(unsigned, bool p) {
    warp_slots[threadIdx.x & 31] = p;
    __syncwarp();
    unsigned votes = 0;
    for (unsigned i = 0; i < 32; i++) votes |= (warp_slots[i] ? 1u : 0u) << i;
    __syncwarp();
    return votes;
}
static bool __all_sync(unsigned mask, bool p) { return __ballot_sync(mask, p) == mask; }
template <class T> static T __shfl_sync(unsigned, T v, unsigned from) { return (T)warp_exchange((unsigned long long)v, from); }
static unsigned atomicAdd(unsigned* p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static int __popc(unsigned x) { return __builtin_popcount(x); }
#include "kernel.cu"
static unsigned word(FILE* f) { unsigned v = 0; if (fread(&v, 4, 1, f) != 1) exit(2); return v; }
int main(int argc, char** argv) {
    FILE* f = fopen(argv[1], "rb");
    unsigned n = word(f);
    std::vector<unsigned> heads(word(f));
    for (auto& h : heads) h = word(f);
    unsigned rows = word(f);
    unsigned count = word(f);
    std::vector<Job> jobs(count);
    if (count && fread(jobs.data(), sizeof(Job), count, f) != count) return 2;
    std::vector<unsigned long long> counts(2 * (size_t)count);
    unsigned next = 0;
    std::vector<std::thread> warp;
    for (unsigned lane = 0; lane < 32; lane++) {
        warp.emplace_back([&, lane] {
            threadIdx.x = lane;
            count_jobs(jobs.data(), count, heads.data(), n, counts.data(), &next, rows);
        });
    }
    for (auto& thread : warp) thread.join();
    for (unsigned j = 0; j < count; j++) printf("%llu %llu\n", counts[2 * j], counts[2 * j + 1]);
    return 0;
}
"#;

    /// The CUDA source itself, compiled for the CPU by the host's C++
    /// compiler and run as one warp of 32 threads, counts every job as the
    /// emulation does: the two copies of the loop agree, and the warp's
    /// shared classification of ties gives each lane its own weights.
    #[test]
    fn the_cuda_source_run_on_the_cpu_agrees_with_the_emulation() {
        use std::process::Command;
        let dir = std::env::temp_dir().join(format!("backtrack-kernel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("kernel.cu"), super::super::KERNEL_SOURCE).unwrap();
        std::fs::write(dir.join("harness.cpp"), CPU_SHIM).unwrap();
        let exe = dir.join("harness");
        let mut compile = Command::new("c++");
        compile.args(["-std=c++17", "-O1", "-pthread", "-Wall", "-Werror", "-Wno-unused-function"]);
        compile.args(super::super::jobs::kernel_defines(super::super::tuning::DEFAULT_BLOCK));
        compile.arg("-o").arg(&exe).arg(dir.join("harness.cpp"));
        let output = match compile.output() {
            Ok(output) => output,
            Err(e) => {
                eprintln!("skipped: no C++ compiler (c++: {e})");
                assert!(std::env::var_os("CI").is_none(), "CI has a C++ compiler");
                return;
            }
        };
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        // Every board to 11 covers each path of the loop and of the warp's
        // classification; 12 (four times the jobs) in the long version.
        let largest = if crate::effort::long() { 12 } else { 11 };
        for n in 1..=largest {
            let plan = Plan::new(n).unwrap();
            let heads = head_table(n);
            let (jobs, _) = all_jobs(&plan);
            let mut input = Vec::new();
            for w in [n as u32, heads.len() as u32].into_iter().chain(heads.iter().copied()) {
                input.extend_from_slice(&w.to_le_bytes());
            }
            input.extend_from_slice(&(walk_rows(&plan, job_depth(n, plan.depth(), None)) as u32).to_le_bytes());
            input.extend_from_slice(&(jobs.len() as u32).to_le_bytes());
            for (_, job) in &jobs {
                job.write_to(&mut input);
            }
            let path = dir.join(format!("jobs{n}"));
            std::fs::write(&path, &input).unwrap();
            let run = Command::new(&exe).arg(&path).output().unwrap();
            assert!(run.status.success(), "n = {n}: {}", String::from_utf8_lossy(&run.stderr));
            let expected: String = jobs
                .iter()
                .map(|(_, job)| {
                    let [t, u] = count_job(&heads, n as u32, job);
                    format!("{t} {u}\n")
                })
                .collect();
            assert_eq!(String::from_utf8_lossy(&run.stdout), expected, "n = {n}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
