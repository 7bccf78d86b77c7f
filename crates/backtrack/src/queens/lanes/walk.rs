//! The lane walk itself: the lanes' state in vector-sized arrays, the AVX2
//! helpers that compute a step for every lane of a register at once, and
//! the walk that steps two such sets of lanes side by side and refills
//! them from a [`Feed`]. The module above explains the walk; this file
//! holds its `unsafe` code.

// Only x86-64 has the vector walk; elsewhere the lanes' state is unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use crate::cpu::{Avx512, Cpu, X86V3};
use crate::search::Control;

#[cfg(target_arch = "x86_64")]
use super::logic::Logic;
use super::{job_fits, Counts, Feed, LaneJob, LANES, MAX_LANE_N, WORDS};
use crate::queens::kernel::{full_mask, leaf, side_mask, MAX_N};

/// Runs every job `feed` hands out on the lanes, reporting each as it
/// finishes. Returns false if `control` was cancelled first (jobs in the
/// lanes then go unreported). Boards must be of a size [`available`] takes.
/// The walk is the AVX-512 build where the processor has it, else AVX2.
pub(super) fn run(cpu: X86V3, n: usize, feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    match Avx512::new() {
        Some(wide) => run_on(wide, n, feed, control),
        None => run_on(cpu, n, feed, control),
    }
}

/// [`run`] on the build of the walk for the level `cpu`: AVX-512 where the
/// level has it, AVX2 otherwise. Panics for a level without AVX2.
pub(super) fn run_on<C: Cpu>(cpu: C, n: usize, feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    assert!((6..=MAX_LANE_N).contains(&n), "the lane walk does not support n = {n}");
    #[cfg(target_arch = "x86_64")]
    {
        let mut sets: [Lanes; SETS] = std::array::from_fn(|_| Lanes::new(n));
        if let Some(wide) = cpu.avx512() {
            // SAFETY: the token proves AVX-512 F, BW, VL and every feature
            // of `X86V3`, every feature this build is compiled with.
            return unsafe { walk_avx512(wide, &mut sets, feed, control) };
        }
        let v3 = cpu.x86_v3().expect("the lane walk needs AVX2");
        // SAFETY: the token proves AVX2, BMI1, BMI2 and POPCNT, every
        // feature this build is compiled with.
        unsafe { walk_x86_v3(v3, &mut sets, feed, control) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (cpu, feed, control);
        unreachable!("no processor token exists off x86-64")
    }
}

/// Sets of [`LANES`] lanes stepped side by side in one loop: each step
/// is a long chain of dependent operations, and the sets' chains are
/// independent, so the processor overlaps them. The loop names the two
/// sets one by one (see [`walk`]).
const SETS: usize = 2;

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

/// What [`unforced_columns`] and [`forced`] need besides a row's attacks:
/// each lane's row rules and the board's constants.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
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
/// As for [`ld`]: AVX2, and the features of the level `L`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn unforced_columns<L: Logic>(
    row: __m256i,
    left: __m256i,
    down: __m256i,
    right: __m256i,
    rules: &RowRules,
) -> __m256i {
    // SAFETY: AVX2 and the features of `L` by the contract.
    unsafe {
        let forbid = _mm256_and_si256(_mm256_cmpgt_epi32(rules.limit, row), rules.limit_bits);
        L::nor_and(L::or3(left, down, _mm256_srl_epi32(right, rules.frame)), forbid, rules.board)
    }
}

/// The free columns `free` of row `row` (from [`unforced_columns`]) under
/// the force row rule: on the force row both side columns must be taken by
/// its end, so none free means no column and one free means that one.
///
/// # Safety
/// As for [`unforced_columns`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn forced<L: Logic>(row: __m256i, down: __m256i, free: __m256i, rules: &RowRules) -> __m256i {
    // SAFETY: AVX2 and the features of `L` by the contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        let missing = _mm256_andnot_si256(down, rules.side);
        let keep = L::andnot_or(_mm256_cmpeq_epi32(missing, rules.side), missing, _mm256_cmpeq_epi32(missing, zero));
        L::clear_unless(free, _mm256_cmpeq_epi32(row, rules.force_row), keep)
    }
}

/// The columns left to try on a row the walk climbs back to, above the
/// column `back_col` just taken back. On the force row that is none if a side
/// column was missing there (the queen taken back was the one allowed);
/// otherwise the rule did not restrict the row.
///
/// # Safety
/// As for [`unforced_columns`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn columns_left<L: Logic>(
    row: __m256i,
    left: __m256i,
    down: __m256i,
    right: __m256i,
    back_col: __m256i,
    rules: &RowRules,
) -> __m256i {
    // SAFETY: AVX2 and the features of `L` by the contract.
    unsafe {
        let zero = _mm256_setzero_si256();
        // The columns above `back`: all ones shifted past it.
        let above_back = _mm256_sllv_epi32(_mm256_set1_epi32(-2), back_col);
        let missing = _mm256_andnot_si256(down, rules.side);
        let allowed =
            L::clear_unless(above_back, _mm256_cmpeq_epi32(row, rules.force_row), _mm256_cmpeq_epi32(missing, zero));
        _mm256_and_si256(unforced_columns::<L>(row, left, down, right, rules), allowed)
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
unsafe fn walk_x86_v3(_cpu: X86V3, sets: &mut [Lanes; SETS], feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    // SAFETY: the features `walk` asks for are enabled here.
    unsafe { walk::<X86V3>(sets, feed, control) }
}

/// [`walk_x86_v3`] with AVX-512: the same walk, its three-input logic and
/// lane selections one `vpternlogd` each ([`Logic`]).
///
/// # Safety
/// The processor must have AVX-512 F, BW and VL and every feature of
/// [`walk_x86_v3`], as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl")]
unsafe fn walk_avx512(_cpu: Avx512, sets: &mut [Lanes; SETS], feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    // SAFETY: the features `walk` asks for are enabled here.
    unsafe { walk::<Avx512>(sets, feed, control) }
}

/// The board's constants, shared by every set of lanes.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Board {
    zero: __m256i,
    one: __m256i,
    five_bits: __m256i,
    exponent_bias: __m256i,
    board: __m256i,
    side: __m256i,
    settle_row: __m256i,
    frame: __m128i,
    frame_plus_one: __m128i,
}

/// A set of lanes in registers: the state a step changes, and the rules
/// of the jobs in its lanes, which stay put between refills.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Regs {
    row: __m256i,
    left: __m256i,
    down: __m256i,
    right: __m256i,
    avail: __m256i,
    side_ties: __m256i,
    stack: [__m256i; WORDS],
    leaves: __m256i,
    start: __m256i,
    tie_rows: __m256i,
    tie_third: __m256i,
    tie_bottom: __m256i,
    forbid_second: __m256i,
    forbid_last: __m256i,
    rules: RowRules,
}

#[cfg(target_arch = "x86_64")]
impl Regs {
    /// The registers of `lanes`.
    ///
    /// # Safety
    /// As for [`ld`]: AVX2.
    #[inline(always)]
    unsafe fn load(lanes: &Lanes, k: &Board) -> Regs {
        // SAFETY: AVX2 by the contract; `ld` reads aligned `V`s.
        unsafe {
            let mut stack = [k.zero; WORDS];
            for (w, v) in stack.iter_mut().zip(&lanes.stack) {
                *w = ld(v);
            }
            Regs {
                row: ld(&lanes.row),
                left: ld(&lanes.left),
                down: ld(&lanes.down),
                right: ld(&lanes.right),
                avail: ld(&lanes.avail),
                side_ties: ld(&lanes.side_ties),
                stack,
                leaves: ld(&lanes.leaves),
                start: ld(&lanes.start),
                tie_rows: ld(&lanes.tie_rows),
                tie_third: ld(&lanes.tie_third),
                tie_bottom: ld(&lanes.tie_bottom),
                forbid_second: ld(&lanes.forbid_second),
                forbid_last: ld(&lanes.forbid_last),
                rules: RowRules {
                    limit: ld(&lanes.limit),
                    limit_bits: ld(&lanes.limit_bits),
                    force_row: ld(&lanes.force_row),
                    board: k.board,
                    side: k.side,
                    frame: k.frame,
                },
            }
        }
    }

    /// Writes the state a step changes back to `lanes`.
    ///
    /// # Safety
    /// As for [`ld`]: AVX2.
    #[inline(always)]
    unsafe fn store(&self, lanes: &mut Lanes) {
        // SAFETY: AVX2 by the contract; `st` writes aligned `V`s.
        unsafe {
            st(&mut lanes.row, self.row);
            st(&mut lanes.left, self.left);
            st(&mut lanes.down, self.down);
            st(&mut lanes.right, self.right);
            st(&mut lanes.avail, self.avail);
            st(&mut lanes.side_ties, self.side_ties);
            for (v, w) in lanes.stack.iter_mut().zip(&self.stack) {
                st(v, *w);
            }
            st(&mut lanes.leaves, self.leaves);
        }
    }

    /// The active lanes back at their start row with nothing left: their
    /// jobs are done.
    ///
    /// # Safety
    /// As for [`ld`]: AVX2.
    #[inline(always)]
    unsafe fn finished(&self, k: &Board, active: u32) -> u32 {
        // SAFETY: AVX2 by the contract.
        unsafe {
            let empty = _mm256_cmpeq_epi32(self.avail, k.zero);
            lane_mask(_mm256_and_si256(empty, _mm256_cmpeq_epi32(self.row, self.start))) & active
        }
    }

    /// One step of every lane of the set: a pop, then a push. `lanes` is
    /// the set's scalar side, for the rare leaves classified one by one.
    ///
    /// # Safety
    /// As for [`unforced_columns`].
    #[inline(always)]
    unsafe fn step<L: Logic>(&mut self, k: &Board, lanes: &mut Lanes) {
        // SAFETY: the unsafe calls below are the helpers of this file and
        // those of `L`, whose conditions, AVX2 and the features of `L`,
        // this function's contract gives; `st` writes aligned `V`s.
        unsafe {
            let Board { zero, one, five_bits, exponent_bias, board, side, settle_row, frame, frame_plus_one } = *k;
            let rules = &self.rules;
            let (mut row, mut left, mut down, mut right, mut avail) =
                (self.row, self.left, self.down, self.right, self.avail);
            let mut side_ties = self.side_ties;
            let mut stack = self.stack;
            let empty = _mm256_cmpeq_epi32(avail, zero);
            let at_start = _mm256_cmpeq_epi32(row, self.start);

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
            let avail_out = columns_left::<L>(row_out, left_out, down_out, right_out, back_col, rules);
            left = L::select(left, left_out, pop);
            down = L::select(down, down_out, pop);
            right = L::select(right, right_out, pop);
            row = row_out;
            avail = L::select(avail, avail_out, pop);
            side_ties = L::clear_both(_mm256_sllv_epi32(one, row), pop, side_ties);
            for k in 0..WORDS {
                let next = if k + 1 < WORDS { _mm256_slli_epi32(stack[k + 1], 25) } else { zero };
                let popped = _mm256_or_si256(_mm256_srli_epi32(stack[k], 5), next);
                stack[k] = L::select(stack[k], popped, pop);
            }

            // Then every lane with a free column places a queen on the
            // lowest, `bit`: on the third-to-last row it counts the
            // completions and stays, above it goes down a row.
            let empty = _mm256_cmpeq_epi32(avail, zero);
            let at_settle = _mm256_cmpeq_epi32(row, settle_row);
            let settle = _mm256_andnot_si256(empty, at_settle);
            let push = L::nor(empty, at_settle);
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
            let second = L::nor_and(_mm256_or_si256(left_in, right_board), self.forbid_second, free);
            let last = L::nor_and(
                _mm256_or_si256(_mm256_slli_epi32(left_in, 1), _mm256_srl_epi32(right_in, frame_plus_one)),
                self.forbid_last,
                free,
            );
            let low = _mm256_and_si256(free, _mm256_sub_epi32(zero, free));
            let high = _mm256_xor_si256(free, low);
            let apart = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_slli_epi32(low, 1), high), zero);
            // `second` and `last` lie within `free`, the two columns `low`
            // and `high`: so `low` from `second` and the rest from `last`
            // is `free` exactly when `low` may go second and `high` last.
            let low_first = _mm256_cmpeq_epi32(L::bit_select(low, second, last), free);
            let high_first = _mm256_cmpeq_epi32(L::bit_select(low, last, second), free);
            let counted = _mm256_and_si256(settle, apart);
            let low_first = _mm256_and_si256(low_first, counted);
            let high_first = _mm256_and_si256(high_first, counted);
            // Leaves that may tie with another visited member of their
            // class: a side queen on a tie row, or a tie column free for
            // the last rows. They are classified one by one.
            let tie = L::and_or(free, self.tie_bottom, L::and_or(bit, self.tie_third, side_ties));
            let maybe_tie = L::andnot_or(_mm256_cmpeq_epi32(tie, zero), low_first, high_first);
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
            self.leaves = _mm256_add_epi32(self.leaves, _mm256_add_epi32(low_first, high_first));

            // Going down: the next row's attacks and free columns.
            let row_in = _mm256_sub_epi32(row, push);
            let free_in = unforced_columns::<L>(row_in, left_in, down_in, right_in, rules);
            let avail_in = forced::<L>(row_in, down_in, free_in, rules);
            let row_bit = _mm256_sllv_epi32(one, row);
            let off_side = _mm256_cmpeq_epi32(_mm256_and_si256(bit, side), zero);
            side_ties = L::andnot_then_or(off_side, L::and3(row_bit, self.tie_rows, push), side_ties);
            self.left = L::select(left, left_in, push);
            self.down = L::select(down, down_in, push);
            self.right = L::select(right, right_in, push);
            self.row = row_in;
            self.avail = L::select(_mm256_xor_si256(avail, bit), avail_in, push);
            self.side_ties = side_ties;
            // The packed column stack: the placed column goes on top.
            let col =
                _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(bit)), 23), exponent_bias);
            for k in (0..WORDS).rev() {
                let below = if k == 0 { col } else { _mm256_srli_epi32(stack[k - 1], 25) };
                let pushed = _mm256_or_si256(_mm256_slli_epi32(stack[k], 5), below);
                stack[k] = L::select(stack[k], pushed, push);
            }
            self.stack = stack;
        }
    }
}

/// Hands each lane of `finished` its job's counts to `feed` and refills it
/// (or parks it once `feed` is dry).
fn refill(lanes: &mut Lanes, mut finished: u32, feed: &mut dyn Feed, dry: &mut bool) {
    while finished != 0 {
        let j = finished.trailing_zeros() as usize;
        finished &= finished - 1;
        let counts = lanes.take_counts(j);
        // Lanes empty before (at the first fill) have nothing to report.
        if let Some(job) = &lanes.jobs[j] {
            feed.finished(job.owner, counts);
        }
        match if *dry { None } else { feed.next() } {
            Some(job) => lanes.load(j, job),
            None => {
                *dry = true;
                lanes.park(j);
            }
        }
    }
}

/// The body of the walks, for the level `L`.
///
/// # Safety
/// As for [`unforced_columns`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn walk<L: Logic>(sets: &mut [Lanes; SETS], feed: &mut dyn Feed, control: Option<&Control>) -> bool {
    // SAFETY: the unsafe calls below are the methods of `Regs`, whose
    // conditions, AVX2 and the features of `L`, this function's contract
    // gives.
    unsafe {
        let n = sets[0].n;
        let mut dry = false;
        for lanes in sets.iter_mut() {
            refill(lanes, (1 << LANES) - 1, feed, &mut dry);
        }
        let k = Board {
            zero: _mm256_setzero_si256(),
            one: _mm256_set1_epi32(1),
            five_bits: _mm256_set1_epi32(31),
            exponent_bias: _mm256_set1_epi32(127),
            board: _mm256_set1_epi32(full_mask(n) as i32),
            side: _mm256_set1_epi32(side_mask(n) as i32),
            settle_row: _mm256_set1_epi32(n as i32 - 3),
            frame: _mm_cvtsi32_si128(sets[0].frame() as i32),
            frame_plus_one: _mm_cvtsi32_si128(sets[0].frame() as i32 + 1),
        };
        while sets.iter().any(|lanes| lanes.active != 0) {
            if control.is_some_and(|c| c.is_cancelled()) {
                return false;
            }
            // Two sets by name, not an array indexed in a loop: so both
            // stay in registers and their steps are laid side by side.
            let [one, two] = &mut *sets;
            let (mut a, mut b) = (Regs::load(one, &k), Regs::load(two, &k));
            let mut finished = [0u32; SETS];
            let mut steps = 0u32;
            while steps < CHECK_EVERY {
                steps += 1;
                // A lane back at its start row with nothing left has finished
                // its job (and idles until it is refilled: checking every
                // eighth step is enough and saves work on the others).
                if steps.is_multiple_of(8) {
                    finished = [a.finished(&k, one.active), b.finished(&k, two.active)];
                    if finished != [0; SETS] {
                        break;
                    }
                }
                a.step::<L>(&k, one);
                b.step::<L>(&k, two);
            }
            a.store(one);
            b.store(two);
            for (lanes, done) in sets.iter_mut().zip(finished) {
                lanes.flush_leaves();
                refill(lanes, done, feed, &mut dry);
            }
        }
        true
    }
}
