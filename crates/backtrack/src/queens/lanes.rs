//! Eight searches at once: the counting walk of [`super::kernel`] run in the
//! eight 32-bit lanes of an AVX2 register, each lane on its own piece of the
//! search (a [`LaneJob`]), all lanes advancing one step per iteration.
//!
//! A scalar depth-first search spends most of its time on mispredicted
//! branches: whether the current row has a free column is close to a coin
//! toss at every node. Here every lane computes the possible moves of a step
//! and keeps the right ones with masks, so the only branches left are rare
//! events. A step first takes the last queen back in the lanes whose row has
//! no free column left, then places a queen on the lowest free column in the
//! lanes that have one (so a step usually moves to the next sibling at once).
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
//! [`leaf`] code; they are a small fraction.

// Only x86-64 has the vector walk; elsewhere the job plumbing is unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::cpu::X86V3;
use crate::search::{Control, ThreadStartError, Threads};

use super::kernel::{leaf, replay, side_mask, Constraints, MAX_N};
use super::{Counts, Plan};

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

/// Runs every job `feed` hands out on the lanes, reporting each as it
/// finishes. Returns false if `control` was cancelled first (jobs in the
/// lanes then go unreported). Boards must be of a size [`available`] takes.
pub(crate) fn run(cpu: X86V3, n: usize, feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    assert!((6..=MAX_LANE_N).contains(&n), "the lane walk does not support n = {n}");
    #[cfg(target_arch = "x86_64")]
    {
        let mut lanes = Lanes::new(n);
        // SAFETY: the token proves AVX2, BMI1, BMI2 and POPCNT, every
        // feature the walk is compiled with.
        unsafe { walk(cpu, &mut lanes, feed, control) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (cpu, feed, control);
        unreachable!("no processor token exists off x86-64")
    }
}

/// Eight lanes' `u32`s, aligned for whole-register loads.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
struct V([u32; LANES]);

/// The lanes between runs of the vector loop: each field holds one value
/// per lane. The first group changes every step, the second is fixed for a
/// job.
struct Lanes {
    n: usize,
    row: V,
    left: V,
    down: V,
    /// Right diagonals, `32 - n` bits above the board.
    right: V,
    avail: V,
    /// Rows among the tie rows (the top queen's distance from either end)
    /// whose queen sits in a side column: bit `r` for row `r`.
    side_ties: V,
    stack: [V; WORDS],
    /// Leaves counted in the vector loop, as minus their number (the
    /// masks are -1 each), including those also classified one by one.
    leaves: V,

    start: V,
    /// Rows below `limit` may not use the columns `limit_bits`.
    limit: V,
    limit_bits: V,
    /// The row by which both side columns must be taken (31: none).
    force_row: V,
    /// Bits of the rows at the top queen's distance from the top or bottom.
    tie_rows: V,
    /// Side columns if the third-to-last row is a tie row, else 0.
    tie_third: V,
    /// Columns whose queen in the last two rows may make a tie.
    tie_bottom: V,
    forbid_second: V,
    forbid_last: V,

    /// Scalar state of each lane: its job, and the counts of its leaves
    /// classified one by one.
    jobs: [Option<LaneJob>; LANES],
    exact: [Counts; LANES],
    /// Leaves of `leaves` that were classified one by one.
    classified: [u64; LANES],
    /// Lanes holding a job.
    active: u32,
}

impl Lanes {
    fn new(n: usize) -> Lanes {
        Lanes {
            n,
            row: V::default(),
            left: V::default(),
            down: V::default(),
            right: V::default(),
            avail: V::default(),
            side_ties: V::default(),
            stack: [V::default(); WORDS],
            leaves: V::default(),
            start: V::default(),
            limit: V::default(),
            limit_bits: V::default(),
            force_row: V([31; LANES]),
            tie_rows: V::default(),
            tie_third: V::default(),
            tie_bottom: V::default(),
            forbid_second: V::default(),
            forbid_last: V::default(),
            jobs: Default::default(),
            exact: [Counts::default(); LANES],
            classified: [0; LANES],
            active: 0,
        }
    }

    /// Shift of the right diagonals' frame.
    fn frame(&self) -> u32 {
        32 - self.n as u32
    }

    /// Puts `job` into lane `j`.
    fn load(&mut self, j: usize, job: LaneJob) {
        let n = self.n;
        let c = &job.c;
        let start = job.start;
        debug_assert!(job_fits(n, start));
        let side = side_mask(n);
        self.row.0[j] = start as u32;
        self.start.0[j] = start as u32;
        self.left.0[j] = job.left;
        self.down.0[j] = job.down;
        self.right.0[j] = job.right << self.frame();
        self.avail.0[j] = c.available(start, job.left, job.down, job.right);
        for w in &mut self.stack {
            w.0[j] = 0;
        }
        self.leaves.0[j] = 0;
        self.exact[j] = Counts::default();
        self.classified[j] = 0;
        let (limit, limit_bits, force_row, tie_rows) = if c.classify {
            let far = n - 1 - c.top;
            (c.top as u32, side, far as u32, (1u32 << c.top) | (1 << far))
        } else {
            // Corner class: rows 2..=s keep off column 1 (s: the second
            // row's column).
            (job.cols[1] as u32 + 1, 1 << 1, 31, 0)
        };
        self.limit.0[j] = limit;
        self.limit_bits.0[j] = limit_bits;
        self.force_row.0[j] = force_row;
        self.tie_rows.0[j] = tie_rows;
        let mut side_ties = 0;
        for r in 0..start {
            if tie_rows >> r & 1 != 0 && (1u32 << job.cols[r]) & side != 0 {
                side_ties |= 1 << r;
            }
        }
        self.side_ties.0[j] = side_ties;
        self.tie_third.0[j] = if tie_rows >> (n - 3) & 1 != 0 { side } else { 0 };
        let edge_cols = if c.classify { tie_rows } else { 0 };
        self.tie_bottom.0[j] = edge_cols | if tie_rows >> (n - 2) & 1 != 0 { side } else { 0 };
        self.forbid_second.0[j] = c.forbid[n - 2];
        self.forbid_last.0[j] = c.forbid[n - 1];
        if cfg!(debug_assertions) {
            // The walked rows' restrictions are the row limit rule alone
            // (side columns below the force row are already taken).
            for r in start..=n - 3 {
                let rule = if (r as u32) < limit { limit_bits } else { 0 };
                let beyond = if c.classify && r > n - 1 - c.top { side } else { 0 };
                assert_eq!(c.forbid[r] & !beyond, rule, "row {r}");
            }
        }
        self.jobs[j] = Some(job);
        self.active |= 1 << j;
    }

    /// Empties lane `j` (it then stays put: no queen to place or take back).
    fn park(&mut self, j: usize) {
        self.row.0[j] = 0;
        self.start.0[j] = 0;
        self.avail.0[j] = 0;
        self.jobs[j] = None;
        self.active &= !(1 << j);
    }

    /// The counts of lane `j`'s finished job (after [`flush_leaves`](Lanes::flush_leaves)).
    fn take_counts(&mut self, j: usize) -> Counts {
        std::mem::take(&mut self.exact[j])
    }

    /// Moves the lanes' leaf counters into the exact counts (before they
    /// could overflow).
    fn flush_leaves(&mut self) {
        for j in 0..LANES {
            let counted = self.leaves.0[j].wrapping_neg() as u64;
            let plain = (counted - std::mem::take(&mut self.classified[j])) as u128;
            self.leaves.0[j] = 0;
            self.exact[j].add(Counts { total: 8 * plain, unique: plain });
        }
    }

    /// Scalar count of the leaves that lane `j` reaches by placing `bit` on
    /// the third-to-last row, given the attacks `left`, `down`, `right` (in
    /// the lane's frames) on the second-to-last row: each classified by
    /// [`leaf`].
    fn classify_leaves(&mut self, j: usize, bit: u32, left: u32, down: u32, right: u32) {
        let n = self.n;
        let Some(job) = &self.jobs[j] else { return };
        let c = &job.c;
        let mut placed = [0u32; MAX_N];
        for (bits, &col) in placed.iter_mut().zip(&job.cols[..job.start]) {
            *bits = 1 << col;
        }
        // The stack holds the columns of rows start..n-3, newest lowest.
        let walked = n - 3 - job.start;
        for i in 0..walked {
            let col = self.stack[i / 6].0[j] >> (5 * (i % 6)) & 31;
            placed[n - 4 - i] = 1 << col;
        }
        placed[n - 3] = bit;
        let right = right >> self.frame();
        let free = c.mask & !down;
        let mut second = c.available(n - 2, left, down, right);
        let mut counts = Counts::default();
        while second != 0 {
            let x = second & second.wrapping_neg();
            second ^= x;
            let last = c.available(n - 1, (left | x) << 1, down | x, (right | x) >> 1);
            if last != 0 {
                debug_assert_eq!(last, free ^ x);
                placed[n - 2] = x;
                placed[n - 1] = last;
                let (w, u) = leaf(c, &placed);
                counts.add(Counts { total: w as u128, unique: u as u128 });
                self.classified[j] += 1;
            }
        }
        self.exact[j].add(counts);
    }
}

/// Iterations between checks for cancellation (and flushes of the lanes'
/// 32-bit leaf counters, which gain at most two a step).
#[cfg(target_arch = "x86_64")]
const CHECK_EVERY: u32 = 1 << 20;

/// The eight lanes of `v` as a vector.
///
/// # Safety
/// The processor must have AVX2: the helper is inlined into [`walk`],
/// which is compiled for it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn ld(v: &V) -> __m256i {
    // SAFETY: `V` is 32 bytes, 32-byte aligned; AVX2 by the contract.
    unsafe { _mm256_load_si256(v as *const V as *const __m256i) }
}

/// Stores the vector `x` in the eight lanes of `v`.
///
/// # Safety
/// As for [`ld`]: AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn st(v: &mut V, x: __m256i) {
    // SAFETY: as in `ld`.
    unsafe { _mm256_store_si256(v as *mut V as *mut __m256i, x) }
}

/// The sign bit of each lane of `x`: bit `j` for lane `j`.
///
/// # Safety
/// As for [`ld`]: AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn lane_mask(x: __m256i) -> u32 {
    // SAFETY: AVX2 by the contract.
    unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(x)) as u32 }
}

/// What [`free_columns`] needs besides a row's attacks: each lane's row
/// rules and the board's constants.
#[cfg(target_arch = "x86_64")]
struct RowRules {
    limit: __m256i,
    limit_bits: __m256i,
    force_row: __m256i,
    board: __m256i,
    side: __m256i,
    frame: __m128i,
}

/// The free columns of row `row` in each lane given its attacks (right
/// diagonals in their frame), with the row limit rule of
/// `Constraints::available` but not yet its force row rule.
///
/// # Safety
/// As for [`ld`]: AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn unforced_columns(row: __m256i, left: __m256i, down: __m256i, right: __m256i, rules: &RowRules) -> __m256i {
    // SAFETY: AVX2 by the contract.
    unsafe {
        let forbid = _mm256_and_si256(_mm256_cmpgt_epi32(rules.limit, row), rules.limit_bits);
        _mm256_andnot_si256(
            _mm256_or_si256(_mm256_or_si256(left, down), _mm256_or_si256(_mm256_srl_epi32(right, rules.frame), forbid)),
            rules.board,
        )
    }
}

/// [`unforced_columns`] with the force row rule: on the force row both
/// side columns must be taken by its end, so none free means no column and
/// one free means that one.
///
/// # Safety
/// As for [`ld`]: AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn free_columns(row: __m256i, left: __m256i, down: __m256i, right: __m256i, rules: &RowRules) -> __m256i {
    // SAFETY: AVX2 by the contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        let free = unforced_columns(row, left, down, right, rules);
        let missing = _mm256_andnot_si256(down, rules.side);
        let keep = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(missing, rules.side),
            _mm256_or_si256(missing, _mm256_cmpeq_epi32(missing, zero)),
        );
        let dropped = _mm256_andnot_si256(keep, _mm256_cmpeq_epi32(row, rules.force_row));
        _mm256_andnot_si256(dropped, free)
    }
}

/// The columns left to try on a row the walk climbs back to, above the
/// column `back` just taken back. On the force row that is none if a side
/// column was missing there (the queen taken back was the one allowed);
/// otherwise the rule did not restrict the row.
///
/// # Safety
/// As for [`ld`]: AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn columns_left(
    row: __m256i,
    left: __m256i,
    down: __m256i,
    right: __m256i,
    back: __m256i,
    rules: &RowRules,
) -> __m256i {
    // SAFETY: AVX2 by the contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        let above_back = _mm256_sub_epi32(zero, _mm256_add_epi32(back, back));
        let free = _mm256_and_si256(unforced_columns(row, left, down, right, rules), above_back);
        let missing = _mm256_andnot_si256(down, rules.side);
        let dropped = _mm256_andnot_si256(_mm256_cmpeq_epi32(missing, zero), _mm256_cmpeq_epi32(row, rules.force_row));
        _mm256_andnot_si256(dropped, free)
    }
}

/// The lane walk. Fills the lanes from `feed`, steps them until a lane
/// finishes its job (or needs scalar help), refills, and so on until `feed`
/// runs dry and every lane is done.
///
/// # Safety
/// The processor must have AVX2, BMI1, BMI2 and POPCNT, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
unsafe fn walk(_cpu: X86V3, lanes: &mut Lanes, feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    // SAFETY: the unsafe calls below are the AVX2 helpers of this file
    // (`ld`, `st`, `lane_mask`, `free_columns`, `columns_left`), whose one
    // condition, AVX2, this function's contract gives; `ld` and `st` take
    // references to aligned `V`s.
    unsafe {
        let n = lanes.n;
        let mut dry = false;
        for j in 0..LANES {
            match feed.next() {
                Some(job) => lanes.load(j, job),
                None => {
                    dry = true;
                    lanes.park(j);
                }
            }
        }
        let frame = _mm_cvtsi32_si128(lanes.frame() as i32);
        let frame_plus_one = _mm_cvtsi32_si128(lanes.frame() as i32 + 1);
        let zero = _mm256_setzero_si256();
        let ones = _mm256_set1_epi32(-1);
        let one = _mm256_set1_epi32(1);
        let five_bits = _mm256_set1_epi32(31);
        let exponent_bias = _mm256_set1_epi32(127);
        let board = _mm256_set1_epi32(super::kernel::full_mask(n) as i32);
        let side = _mm256_set1_epi32(side_mask(n) as i32);
        let settle_row = _mm256_set1_epi32(n as i32 - 3);
        while lanes.active != 0 {
            if control.is_some_and(|c| c.is_cancelled()) {
                return false;
            }
            let mut row = ld(&lanes.row);
            let mut left = ld(&lanes.left);
            let mut down = ld(&lanes.down);
            let mut right = ld(&lanes.right);
            let mut avail = ld(&lanes.avail);
            let mut side_ties = ld(&lanes.side_ties);
            let mut stack = [zero; WORDS];
            for (k, w) in stack.iter_mut().enumerate() {
                *w = ld(&lanes.stack[k]);
            }
            let mut leaves = ld(&lanes.leaves);
            let start = ld(&lanes.start);
            let limit = ld(&lanes.limit);
            let limit_bits = ld(&lanes.limit_bits);
            let force_row = ld(&lanes.force_row);
            let tie_rows = ld(&lanes.tie_rows);
            let tie_third = ld(&lanes.tie_third);
            let tie_bottom = ld(&lanes.tie_bottom);
            let forbid_second = ld(&lanes.forbid_second);
            let forbid_last = ld(&lanes.forbid_last);
            let rules = RowRules { limit, limit_bits, force_row, board, side, frame };
            let active = lanes.active;
            let mut finished = 0u32;
            let mut steps = 0u32;
            while steps < CHECK_EVERY {
                steps += 1;
                let empty = _mm256_cmpeq_epi32(avail, zero);
                let at_start = _mm256_cmpeq_epi32(row, start);
                // A lane back at its start row with nothing left has finished
                // its job (and idles until it is refilled: checking every
                // eighth step is enough and saves work on the others).
                if steps.is_multiple_of(8) {
                    finished = lane_mask(_mm256_and_si256(empty, at_start)) & active;
                    if finished != 0 {
                        break;
                    }
                }

                // First, lanes with no column left take back the queen of the
                // row above (its column is the newest on the stack), and get
                // that row's columns above the one taken back.
                let pop = _mm256_andnot_si256(at_start, empty);
                let back_col = _mm256_and_si256(stack[0], five_bits);
                let back = _mm256_sllv_epi32(one, back_col);
                let left_out = _mm256_xor_si256(_mm256_srli_epi32(left, 1), back);
                let down_out = _mm256_xor_si256(down, back);
                let right_out = _mm256_xor_si256(_mm256_slli_epi32(right, 1), _mm256_sll_epi32(back, frame));
                let row_out = _mm256_add_epi32(row, pop);
                let avail_out = columns_left(row_out, left_out, down_out, right_out, back, &rules);
                left = _mm256_blendv_epi8(left, left_out, pop);
                down = _mm256_blendv_epi8(down, down_out, pop);
                right = _mm256_blendv_epi8(right, right_out, pop);
                row = row_out;
                avail = _mm256_blendv_epi8(avail, avail_out, pop);
                side_ties =
                    _mm256_blendv_epi8(side_ties, _mm256_andnot_si256(_mm256_sllv_epi32(one, row), side_ties), pop);
                for k in 0..WORDS {
                    let next = if k + 1 < WORDS { _mm256_slli_epi32(stack[k + 1], 25) } else { zero };
                    let popped = _mm256_or_si256(_mm256_srli_epi32(stack[k], 5), next);
                    stack[k] = _mm256_blendv_epi8(stack[k], popped, pop);
                }

                // Then every lane with a free column places a queen on the
                // lowest, `bit`: on the third-to-last row it counts the
                // completions and stays, above it goes down a row.
                let empty = _mm256_cmpeq_epi32(avail, zero);
                let at_settle = _mm256_cmpeq_epi32(row, settle_row);
                let settle = _mm256_andnot_si256(empty, at_settle);
                let push = _mm256_andnot_si256(_mm256_or_si256(empty, at_settle), ones);
                let bit = _mm256_and_si256(avail, _mm256_sub_epi32(zero, avail));
                let bit_right = _mm256_sll_epi32(bit, frame);
                let left_in = _mm256_slli_epi32(_mm256_or_si256(left, bit), 1);
                let down_in = _mm256_or_si256(down, bit);
                let right_in = _mm256_srli_epi32(_mm256_or_si256(right, bit_right), 1);

                // The last two rows after a queen on the third-to-last: two
                // free columns, low and high; each order is a completion if
                // both queens are free of attacks and not diagonal neighbours.
                let free = _mm256_andnot_si256(down_in, board);
                let right_board = _mm256_srl_epi32(right_in, frame);
                let second =
                    _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(left_in, right_board), forbid_second), free);
                let last = _mm256_andnot_si256(
                    _mm256_or_si256(
                        _mm256_or_si256(_mm256_slli_epi32(left_in, 1), _mm256_srl_epi32(right_in, frame_plus_one)),
                        forbid_last,
                    ),
                    free,
                );
                let low = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
                let high = _mm256_xor_si256(free, low);
                let apart = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_slli_epi32(low, 1), high), zero);
                let low_first = _mm256_cmpeq_epi32(
                    _mm256_or_si256(_mm256_and_si256(second, low), _mm256_and_si256(last, high)),
                    free,
                );
                let high_first = _mm256_cmpeq_epi32(
                    _mm256_or_si256(_mm256_and_si256(second, high), _mm256_and_si256(last, low)),
                    free,
                );
                let counted = _mm256_and_si256(settle, apart);
                let low_first = _mm256_and_si256(low_first, counted);
                let high_first = _mm256_and_si256(high_first, counted);
                // Leaves that may tie with another visited member of their
                // class: a side queen on a tie row, or a tie column free for
                // the last rows. They are classified one by one.
                let tie = _mm256_or_si256(
                    _mm256_or_si256(side_ties, _mm256_and_si256(bit, tie_third)),
                    _mm256_and_si256(free, tie_bottom),
                );
                let maybe_tie =
                    _mm256_andnot_si256(_mm256_cmpeq_epi32(tie, zero), _mm256_or_si256(low_first, high_first));
                let rare = lane_mask(maybe_tie);
                if rare != 0 {
                    let mut v = [V::default(); 4];
                    st(&mut v[0], bit);
                    st(&mut v[1], left_in);
                    st(&mut v[2], down_in);
                    st(&mut v[3], right_in);
                    for (k, w) in stack.iter().enumerate() {
                        st(&mut lanes.stack[k], *w);
                    }
                    let mut m = rare;
                    while m != 0 {
                        let j = m.trailing_zeros() as usize;
                        m &= m - 1;
                        lanes.classify_leaves(j, v[0].0[j], v[1].0[j], v[2].0[j], v[3].0[j]);
                    }
                }
                // Every leaf is counted here; the ones classified above are
                // taken off again when the lanes are flushed.
                leaves = _mm256_add_epi32(leaves, _mm256_add_epi32(low_first, high_first));

                // Going down: the next row's attacks and free columns.
                let row_in = _mm256_sub_epi32(row, push);
                let avail_in = free_columns(row_in, left_in, down_in, right_in, &rules);
                let row_bit = _mm256_sllv_epi32(one, row);
                let pushed_side = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(bit, side), zero), row_bit);
                side_ties = _mm256_or_si256(side_ties, _mm256_and_si256(_mm256_and_si256(pushed_side, tie_rows), push));
                left = _mm256_blendv_epi8(left, left_in, push);
                down = _mm256_blendv_epi8(down, down_in, push);
                right = _mm256_blendv_epi8(right, right_in, push);
                row = row_in;
                avail = _mm256_blendv_epi8(_mm256_xor_si256(avail, bit), avail_in, push);
                // The packed column stack: the placed column goes on top.
                let col = _mm256_sub_epi32(
                    _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(bit)), 23),
                    exponent_bias,
                );
                for k in (0..WORDS).rev() {
                    let below = if k == 0 { col } else { _mm256_srli_epi32(stack[k - 1], 25) };
                    let pushed = _mm256_or_si256(_mm256_slli_epi32(stack[k], 5), below);
                    stack[k] = _mm256_blendv_epi8(stack[k], pushed, push);
                }
            }
            st(&mut lanes.row, row);
            st(&mut lanes.left, left);
            st(&mut lanes.down, down);
            st(&mut lanes.right, right);
            st(&mut lanes.avail, avail);
            st(&mut lanes.side_ties, side_ties);
            for (k, w) in stack.iter().enumerate() {
                st(&mut lanes.stack[k], *w);
            }
            st(&mut lanes.leaves, leaves);
            lanes.flush_leaves();
            while finished != 0 {
                let j = finished.trailing_zeros() as usize;
                finished &= finished - 1;
                let counts = lanes.take_counts(j);
                let owner = lanes.jobs[j].as_ref().map_or(usize::MAX, |job| job.owner);
                feed.finished(owner, counts);
                match if dry { None } else { feed.next() } {
                    Some(job) => lanes.load(j, job),
                    None => {
                        dry = true;
                        lanes.park(j);
                    }
                }
            }
        }
        true
    }
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

    /// Counts `jobs` on the lanes, per owner.
    fn run_jobs_on_lanes(cpu: X86V3, n: usize, jobs: Vec<LaneJob>) -> Vec<(usize, Counts)> {
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
        assert!(run(cpu, n, &mut feed, None));
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
        let Some(cpu) = available(8) else {
            return;
        };
        for n in 6..=12 {
            let plan = Plan::with_depth(n, 2).unwrap();
            for depth in 2..=n - 3 {
                let mut jobs = Vec::new();
                let mut outside = Counts::default();
                for (index, sub) in plan.subproblems().iter().enumerate() {
                    let c = Constraints::new(n, sub.columns()).unwrap();
                    outside.add(expand(&c, sub.columns(), depth, index, &mut jobs));
                }
                let lanes: Counts = run_jobs_on_lanes(cpu, n, jobs).into_iter().map(|r| r.1).sum();
                let scalar: Counts = (0..plan.len()).map(|i| plan.solve_scalar(i, None).unwrap()).sum();
                assert_eq!(lanes + outside, scalar, "n = {n}, job depth {depth}");
            }
        }
    }

    /// The deepest walks the lanes take: twelve stacked columns (n = 18
    /// from row 3) and right diagonals that use the whole frame below the
    /// board (n = 20 from row 5, n = 22 from row 9), on a sample of jobs of
    /// each.
    #[test]
    fn deepest_walks_match_the_scalar_kernel() {
        let Some(cpu) = available(8) else { return };
        if cfg!(debug_assertions) {
            // Minutes without optimisation: the release test run covers it.
            return;
        }
        for (n, start) in [(18, 3), (19, 4), (20, 5), (21, 7), (22, 9)] {
            assert_eq!(job_depth(n, 0), start);
            assert!(job_fits(n, start) && !job_fits(n, start - 1), "n = {n}, start {start}");
            let heads = Plan::with_depth(n, 2).unwrap();
            let mut jobs = Vec::new();
            let mut expected = Vec::new();
            let mut seed = 0usize;
            while jobs.len() < 12 {
                seed += 1;
                let head = heads.subproblems()[seed * 7 % heads.len()].columns();
                let Some(c) = Constraints::new(n, head) else { continue };
                let Some(prefix) = descend(&c, head, start, seed) else { continue };
                assert_eq!(expand(&c, &prefix, start, jobs.len(), &mut jobs), Counts::default());
                expected.push(super::super::kernel::solve(&c, &prefix, None).unwrap());
            }
            assert!(expected.iter().any(|c| c.total > 0), "n = {n}: only empty samples");
            for (owner, counts) in run_jobs_on_lanes(cpu, n, jobs) {
                assert_eq!(counts, expected[owner], "n = {n}, job {owner}");
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
