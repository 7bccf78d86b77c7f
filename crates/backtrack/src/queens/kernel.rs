//! The counting kernel: an iterative bitmask depth-first search over the rows
//! below a subproblem's prefix, restricted to the canonical placements of the
//! symmetry reduction (see [`super::plan`]), with each solution's symmetry
//! class weight added at the leaf.
//!
//! The board is held as three bitmasks per row, the classic way: columns
//! already taken (`down`), and the two diagonal directions shifted one column
//! per row (`left`, `right`). Bit `c` stands for column `c`. Everything fits a
//! `u32` for `n <= 32`: diagonal bits that move off the board simply shift out.

use crate::cpu::{Cpu, Portable, X86V3};
use crate::search::Control;

use super::Counts;

/// Largest board the kernel handles.
pub const MAX_N: usize = 32;

/// The per-row restrictions that make the search visit one representative
/// of each symmetry class (plus a few extra that the leaf check discards).
#[derive(Clone, Debug)]
pub(crate) struct Constraints {
    /// Board size.
    pub n: usize,
    /// The `n` low bits.
    pub mask: u32,
    /// Columns that row `r` may not use.
    pub forbid: [u32; MAX_N],
    /// The row by which both side columns (0 and n-1) must be taken, or
    /// `usize::MAX` when no such rule applies.
    pub force_row: usize,
    /// Whether leaves need the symmetry check (no queen in a corner) or all
    /// weigh 8 (a queen in the top-left corner).
    pub classify: bool,
    /// Column of the top row's queen when `classify` (its distance to the
    /// nearest corner, the smallest of all edge queens').
    pub top: usize,
}

/// Bits of columns 0 and n-1.
#[inline(always)]
pub(crate) fn side_mask(n: usize) -> u32 {
    1 | (1u32 << (n - 1))
}

/// The `n` low bits set.
#[inline(always)]
pub(crate) fn full_mask(n: usize) -> u32 {
    u32::MAX >> (32 - n)
}

impl Constraints {
    /// Restrictions for the canonical search whose first rows hold the
    /// columns `head` (at least the top row's queen; for a corner queen also
    /// the second row's). `None` when `head` does not start a canonical
    /// placement.
    pub fn new(n: usize, head: &[u8]) -> Option<Constraints> {
        let mask = full_mask(n);
        let mut c = Constraints { n, mask, forbid: [0; MAX_N], force_row: usize::MAX, classify: false, top: 0 };
        let top = *head.first()? as usize;
        if top == 0 {
            // A queen in the top-left corner. Such a solution has no other
            // corner queen, so no symmetry but the identity keeps it, and its
            // class shows the corner queen at the top left exactly twice: as
            // itself and transposed. Keep the one whose row-1 queen sits
            // above the queen of column 1 (they cannot be equal: the two
            // queens would share an anti-diagonal).
            if n == 1 {
                return Some(c);
            }
            let second = *head.get(1)? as usize;
            for row in 2..=second.min(n - 1) {
                c.forbid[row] |= 1 << 1;
            }
        } else {
            // No corner queen: the top queen is at distance `top` from the
            // left corner, and every other edge queen must be at least as far
            // from each corner along its edge. Left and right columns: rows
            // top..=n-1-top; bottom row: columns top..=n-1-top.
            let far = n.checked_sub(1 + top)?;
            if top >= far {
                return None;
            }
            let side = side_mask(n);
            for row in 1..top {
                c.forbid[row] |= side;
            }
            for row in far + 1..n {
                c.forbid[row] |= side;
            }
            let mut bottom_ok = 0u32;
            for col in top..=far {
                bottom_ok |= 1 << col;
            }
            c.forbid[n - 1] |= mask & !bottom_ok;
            c.force_row = far;
            c.classify = true;
            c.top = top;
        }
        Some(c)
    }

    /// Columns row `row` may take given the attacks, or 0 for none.
    #[inline(always)]
    pub fn available(&self, row: usize, left: u32, down: u32, right: u32) -> u32 {
        self.available_in::<true>(row, left, down, right)
    }

    /// [`available`](Constraints::available), with the force row test left
    /// out when `FORCE` is false: for searches that have no force row
    /// (corner classes), which then save a compare on every node.
    #[inline(always)]
    fn available_in<const FORCE: bool>(&self, row: usize, left: u32, down: u32, right: u32) -> u32 {
        if !FORCE {
            debug_assert_eq!(self.force_row, usize::MAX);
            return self.mask & !(left | down | right | self.forbid[row]);
        }
        let mut avail = self.mask & !(left | down | right | self.forbid[row]);
        if row == self.force_row {
            // Both side columns must be taken by the end of this row.
            let missing = side_mask(self.n) & !down;
            if missing == side_mask(self.n) {
                return 0;
            }
            if missing != 0 {
                avail &= missing;
            }
        }
        avail
    }
}

/// The attack masks after placing `cols` in rows 0.. in turn, or `None` when
/// the placement breaks a rule (so the caller can validate a prefix).
pub(crate) fn replay(c: &Constraints, cols: &[u8], placed: &mut [u32; MAX_N]) -> Option<(u32, u32, u32)> {
    let (mut left, mut down, mut right) = (0u32, 0u32, 0u32);
    for (row, &col) in cols.iter().enumerate() {
        let bit = 1u32.checked_shl(col as u32)?;
        if row >= c.n || c.available(row, left, down, right) & bit == 0 {
            return None;
        }
        placed[row] = bit;
        left = (left | bit) << 1;
        down |= bit;
        right = (right | bit) >> 1;
    }
    Some((left, down, right))
}

/// What a full canonical-search placement contributes: its class's size and
/// one class, or nothing when another placement of the same class is the
/// class's representative.
#[inline]
pub(crate) fn leaf(c: &Constraints, placed: &[u32; MAX_N]) -> (u32, u32) {
    if !c.classify {
        return if c.n == 1 { (1, 1) } else { (8, 1) };
    }
    let n = c.n;
    let top = c.top;
    let far = n - 1 - top;
    // Another symmetric image is visited too only if another edge queen is
    // exactly `top` from a corner; without such a tie the class has 8
    // distinct members and this placement is its only visited one.
    let edge = (1u32 << top) | (1u32 << far);
    let tie = placed[n - 1] & edge != 0 || (placed[top] | placed[far]) & side_mask(n) != 0;
    if !tie {
        return (8, 1);
    }
    classify_tie(n, top, placed)
}

/// The slow path of [`leaf`]: builds the placement and its inverse and
/// compares it with every image the search also visits (those whose top
/// queen is in column `top`). The representative is the lexicographically
/// smallest of them; the images equal to it give the class size.
#[cold]
#[inline(never)]
fn classify_tie(n: usize, top: usize, placed: &[u32; MAX_N]) -> (u32, u32) {
    let mut p = [0u8; MAX_N];
    let mut q = [0u8; MAX_N];
    for row in 0..n {
        let col = placed[row].trailing_zeros() as usize;
        p[row] = col as u8;
        q[col] = row as u8;
    }
    let last = (n - 1) as u8;
    // The seven non-identity symmetries of the square, as "column of the
    // queen in row r of the image".
    let image = |g: u8, r: usize| -> u8 {
        let rr = n - 1 - r;
        match g {
            0 => last - p[r],
            1 => p[rr],
            2 => last - p[rr],
            3 => q[r],
            4 => last - q[r],
            5 => q[rr],
            _ => last - q[rr],
        }
    };
    let mut stabilizer = 1;
    for g in 0..7u8 {
        if image(g, 0) as usize != top {
            continue;
        }
        let order = (1..n).map(|r| image(g, r).cmp(&p[r])).find(|o| o.is_ne()).unwrap_or(std::cmp::Ordering::Equal);
        match order {
            std::cmp::Ordering::Less => return (0, 0),
            std::cmp::Ordering::Equal => stabilizer += 1,
            std::cmp::Ordering::Greater => {}
        }
    }
    (8 / stabilizer, 1)
}

/// Searches every canonical completion of the placement `cols` (rows
/// `0..cols.len()`), returning the weighted total and the number of classes.
/// Returns `None` if `control` was cancelled before the search finished, and
/// zero counts if `cols` is not a valid canonical prefix.
pub(crate) fn solve(c: &Constraints, cols: &[u8], control: Option<&Control>) -> Option<Counts> {
    let n = c.n;
    let mut placed = [0u32; MAX_N];
    let Some((left, down, right)) = replay(c, cols, &mut placed) else {
        return Some(Counts::default());
    };
    let start = cols.len();
    if start == n {
        let (w, u) = leaf(c, &placed);
        return Some(Counts { total: w as u128, unique: u as u128 });
    }
    let (total, unique) = search_dispatch(c, start, left, down, right, &mut placed, control)?;
    Some(Counts { total: total as u128, unique: unique as u128 })
}

/// Runs [`search`] compiled for the bit-manipulation instructions (BMI1:
/// lowest-bit isolate and clear, trailing-zero count in one instruction
/// each) when the processor has them, and for the baseline otherwise.
#[inline]
fn search_dispatch(
    c: &Constraints,
    start: usize,
    left: u32,
    down: u32,
    right: u32,
    placed: &mut [u32; MAX_N],
    control: Option<&Control>,
) -> Option<(u64, u64)> {
    match X86V3::new() {
        Some(cpu) => search_on(cpu, c, start, left, down, right, placed, control),
        None => search_on(Portable, c, start, left, down, right, placed, control),
    }
}

/// [`search`] compiled for the processor level `cpu`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn search_on<C: Cpu>(
    cpu: C,
    c: &Constraints,
    start: usize,
    left: u32,
    down: u32,
    right: u32,
    placed: &mut [u32; MAX_N],
    control: Option<&Control>,
) -> Option<(u64, u64)> {
    #[cfg(target_arch = "x86_64")]
    if let Some(v3) = cpu.x86_v3() {
        // SAFETY: the token proves the features the function is compiled for.
        return unsafe { search_bmi(v3, c, start, left, down, right, placed, control) };
    }
    let _ = cpu;
    search_classified(c, start, left, down, right, placed, control)
}

/// [`search`] compiled with BMI1 and POPCNT enabled.
///
/// # Safety
/// The processor must have BMI1 and POPCNT, as the token promises.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "bmi1,popcnt")]
unsafe fn search_bmi(
    _cpu: X86V3,
    c: &Constraints,
    start: usize,
    left: u32,
    down: u32,
    right: u32,
    placed: &mut [u32; MAX_N],
    control: Option<&Control>,
) -> Option<(u64, u64)> {
    search_classified(c, start, left, down, right, placed, control)
}

/// [`search`] for the kind of search `c` is.
#[inline(always)]
fn search_classified(
    c: &Constraints,
    start: usize,
    left: u32,
    down: u32,
    right: u32,
    placed: &mut [u32; MAX_N],
    control: Option<&Control>,
) -> Option<(u64, u64)> {
    if c.classify {
        search::<true>(c, start, left, down, right, placed, control)
    } else {
        search::<false>(c, start, left, down, right, placed, control)
    }
}

/// The depth-first walk from row `start` with the given attacks. Only
/// classified searches (no corner queen) have a force row, so `CLASSIFY`
/// also says whether the row availability must test for it. Rows are
/// kept on an explicit stack of four masks each; the last three rows are
/// never pushed: the third-to-last is walked in a local loop and the last
/// two are settled in place ([`settle_two`]), which saves the stack traffic
/// of the most numerous nodes.
#[inline(always)]
fn search<const CLASSIFY: bool>(
    c: &Constraints,
    start: usize,
    left: u32,
    down: u32,
    right: u32,
    placed: &mut [u32; MAX_N],
    control: Option<&Control>,
) -> Option<(u64, u64)> {
    let n = c.n;
    let last = n - 1;
    let mut total = 0u64;
    let mut unique = 0u64;
    if start == last {
        let avail = c.available_in::<CLASSIFY>(last, left, down, right);
        if avail != 0 {
            placed[last] = avail;
            let (w, u) = leaf(c, placed);
            return Some((w as u64, u as u64));
        }
        return Some((0, 0));
    }

    // Leaves without symmetry work all weigh 8; count them and scale once.
    let mut plain_leaves = 0u64;
    if start + 1 == last {
        let mut avail = c.available_in::<CLASSIFY>(start, left, down, right);
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            let end = c.available_in::<CLASSIFY>(last, (left | bit) << 1, down | bit, (right | bit) >> 1);
            if end != 0 {
                if CLASSIFY {
                    placed[start] = bit;
                    placed[last] = end;
                    let (w, u) = leaf(c, placed);
                    total += w as u64;
                    unique += u as u64;
                } else {
                    plain_leaves += 1;
                }
            }
        }
        return Some(finish::<CLASSIFY>(n, total, unique, plain_leaves));
    }
    let mut lefts = [0u32; MAX_N];
    let mut downs = [0u32; MAX_N];
    let mut rights = [0u32; MAX_N];
    let mut avails = [0u32; MAX_N];
    let mut row = start;
    lefts[row] = left;
    downs[row] = down;
    rights[row] = right;
    avails[row] = c.available_in::<CLASSIFY>(row, left, down, right);
    loop {
        let avail = avails[row];
        if avail == 0 {
            if row == start {
                break;
            }
            row -= 1;
            if row <= start + 1 {
                // Shallow backtracks are rare: a cheap place to notice Ctrl-C.
                if let Some(control) = control {
                    if control.is_cancelled() {
                        return None;
                    }
                }
            }
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        avails[row] = avail ^ bit;
        let l = (lefts[row] | bit) << 1;
        let d = downs[row] | bit;
        let r = (rights[row] | bit) >> 1;
        if CLASSIFY {
            placed[row] = bit;
        }
        if row + 3 == last {
            // The third-to-last row's columns are walked here, without
            // pushing them, each settling the last two rows.
            let mut third = c.available_in::<CLASSIFY>(last - 2, l, d, r);
            while third != 0 {
                let bit = third & third.wrapping_neg();
                third ^= bit;
                if CLASSIFY {
                    placed[last - 2] = bit;
                }
                settle_two::<CLASSIFY>(
                    c,
                    (l | bit) << 1,
                    d | bit,
                    (r | bit) >> 1,
                    placed,
                    &mut total,
                    &mut unique,
                    &mut plain_leaves,
                );
            }
            continue;
        }
        if row + 2 == last {
            settle_two::<CLASSIFY>(c, l, d, r, placed, &mut total, &mut unique, &mut plain_leaves);
            continue;
        }
        row += 1;
        lefts[row] = l;
        downs[row] = d;
        rights[row] = r;
        avails[row] = c.available_in::<CLASSIFY>(row, l, d, r);
    }
    Some(finish::<CLASSIFY>(n, total, unique, plain_leaves))
}

/// The last two rows, given their attacks after a queen in row `n - 3`:
/// they share the two columns still free, one queen takes each, and the two
/// must not touch diagonally, so both orders are checked in place.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn settle_two<const CLASSIFY: bool>(
    c: &Constraints,
    l: u32,
    d: u32,
    r: u32,
    placed: &mut [u32; MAX_N],
    total: &mut u64,
    unique: &mut u64,
    plain_leaves: &mut u64,
) {
    let last = c.n - 1;
    let free = c.mask & !d;
    let mut second = c.available_in::<CLASSIFY>(last - 1, l, d, r);
    // Free columns in the last row, ignoring the second-to-last queen.
    let final_ok = c.available_in::<CLASSIFY>(last, l << 1, d, r >> 1);
    while second != 0 {
        let x = second & second.wrapping_neg();
        second ^= x;
        let y = free ^ x;
        if y & final_ok != 0 && ((x << 1) | (x >> 1)) & y == 0 {
            if CLASSIFY {
                placed[last - 1] = x;
                placed[last] = y;
                let (w, u) = leaf(c, placed);
                *total += w as u64;
                *unique += u as u64;
            } else {
                *plain_leaves += 1;
            }
        }
    }
}

/// Adds the plain leaves (all of one class size) to the classified counts.
#[inline(always)]
fn finish<const CLASSIFY: bool>(n: usize, mut total: u64, mut unique: u64, plain_leaves: u64) -> (u64, u64) {
    if !CLASSIFY {
        let weight = if n == 1 { 1 } else { 8 };
        total += plain_leaves * weight;
        unique += plain_leaves;
    }
    (total, unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every canonical prefix of the first rows for board `n`, with its
    /// constraints: the corner heads `[0, s]` and the edge heads `[b]`.
    fn heads(n: usize) -> Vec<(Constraints, Vec<u8>)> {
        let mut out = Vec::new();
        for s in 2..n as u8 {
            if let Some(c) = Constraints::new(n, &[0, s]) {
                out.push((c, vec![0, s]));
            }
        }
        for b in 1..n as u8 {
            if let Some(c) = Constraints::new(n, &[b]) {
                out.push((c, vec![b]));
            }
        }
        out
    }

    /// A plain recursive count of the same constraints, with the
    /// unspecialised availability and the leaf classification at every
    /// full placement.
    fn plain(c: &Constraints, row: usize, l: u32, d: u32, r: u32, placed: &mut [u32; MAX_N]) -> (u64, u64) {
        if row == c.n {
            let (w, u) = leaf(c, placed);
            return (w as u64, u as u64);
        }
        let mut avail = c.available(row, l, d, r);
        let (mut total, mut unique) = (0, 0);
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            placed[row] = bit;
            let (t, u) = plain(c, row + 1, (l | bit) << 1, d | bit, (r | bit) >> 1, placed);
            total += t;
            unique += u;
        }
        (total, unique)
    }

    #[test]
    fn corner_searches_have_no_force_row() {
        for n in 2..=MAX_N {
            for (c, _) in heads(n) {
                assert_eq!(c.classify, c.force_row != usize::MAX, "n = {n}");
            }
        }
    }

    #[test]
    fn kernels_match_a_plain_count_per_head_up_to_12() {
        for n in 1..=12 {
            for (c, head) in heads(n) {
                let mut placed = [0u32; MAX_N];
                let expected = match replay(&c, &head, &mut placed) {
                    Some((l, d, r)) => plain(&c, head.len(), l, d, r, &mut placed),
                    None => (0, 0),
                };
                let dispatched = solve(&c, &head, None).unwrap();
                assert_eq!((dispatched.total, dispatched.unique), (expected.0 as u128, expected.1 as u128));
                // The portable and the fast build of the kernel, whatever
                // the processor picks for `solve`.
                let mut placed = [0u32; MAX_N];
                if let Some((l, d, r)) = replay(&c, &head, &mut placed) {
                    if head.len() < n {
                        let portable = search_on(Portable, &c, head.len(), l, d, r, &mut placed, None);
                        assert_eq!(portable, Some(expected), "n = {n}, head = {head:?}");
                        if let Some(cpu) = X86V3::new() {
                            let fast = search_on(cpu, &c, head.len(), l, d, r, &mut placed, None);
                            assert_eq!(fast, Some(expected), "n = {n}, head = {head:?}");
                        }
                    }
                }
            }
        }
    }
}
