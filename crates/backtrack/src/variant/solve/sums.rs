//! Propagating sums: cages by their value combinations, weighted sums by
//! bounds.

use super::super::model::{full_mask, Mask, MAX_CELLS};
use super::{range_mask, Solver};

/// A weighted sum as [`Solver::sum`] reads it: `coefs[i] * value(cells[i])`
/// add up to `target`, the cells in groups of peers sharing a coefficient
/// (`ends[g]` is where group `g` stops).
#[derive(Debug, Clone, Copy)]
pub(super) struct WeightedSum<'a> {
    pub cells: &'a [u8],
    pub coefs: &'a [i32],
    pub ends: &'a [u8],
    pub target: i32,
}

impl Solver {
    /// A cage: different values in `cells` forming one of `combos`. A
    /// combination is kept when every value of it is among the cells'
    /// candidates, every fixed value is in it, every cell can take one of
    /// its values, and (when the cage lies in a house) every value it
    /// leaves can go in `rest`, the house's other cells, none of which is
    /// fixed to one of its values. The cells keep the values of the kept
    /// combinations, `rest` the values they leave; values in every kept
    /// combination must be in the cage, so they leave the cells that see
    /// every place they have in it.
    pub(super) fn cage(&mut self, grid: &mut [Mask; MAX_CELLS], cells: &[u8], combos: &[Mask], rest: &[u8]) -> bool {
        let (union, fixed) = union_and_fixed(grid, cells);
        let (rest_union, rest_fixed) = union_and_fixed(grid, rest);
        let full = full_mask(self.size);
        let (mut allowed, mut required, mut rest_allowed) = (0 as Mask, Mask::MAX, 0 as Mask);
        for &combo in combos {
            let left = full & !combo;
            if combo & !union != 0 || fixed & !combo != 0 {
                continue;
            }
            if !rest.is_empty() && (left & !rest_union != 0 || rest_fixed & combo != 0) {
                continue;
            }
            if cells.iter().all(|&c| grid[c as usize] & combo != 0) {
                allowed |= combo;
                required &= combo;
                rest_allowed |= left;
            }
        }
        if allowed == 0 {
            return false;
        }
        if union & !allowed != 0 {
            for &c in cells {
                if !self.restrict(grid, c as usize, allowed) {
                    return false;
                }
            }
        }
        if rest_union & !rest_allowed != 0 {
            for &c in rest {
                if !self.restrict(grid, c as usize, rest_allowed) {
                    return false;
                }
            }
        }
        self.place_required(grid, cells, required) && self.exclude_required(grid, cells, required & !fixed)
    }

    /// A weighted sum (see [`WeightedSum`]). With three unfixed cells or
    /// fewer, every value is checked against the others' (exact); a sum
    /// the puzzle states (`stated`) with groups of at most three cells, by
    /// the totals each group can make ([`Self::sum_by_totals`]); otherwise by bounds:
    /// `m` peers hold `m` different values, so a group's total lies
    /// between the sums of the `m` smallest and the `m` largest values it
    /// can take, and a value is kept when the group's total with it can
    /// meet what the other groups leave.
    pub(super) fn sum(&mut self, grid: &mut [Mask; MAX_CELLS], sum: &WeightedSum, stated: bool) -> bool {
        let WeightedSum { cells, coefs, ends, target } = *sum;
        // The unfixed cells while there are at most three: cell,
        // coefficient, group, candidates less the values fixed in the group.
        let mut free = [(0usize, 0i32, 0usize, 0 as Mask); 3];
        let (mut unfixed, mut fixed_total) = (0, 0);
        let mut start = 0;
        for (g, &end) in ends.iter().enumerate() {
            let group = start..end as usize;
            start = end as usize;
            let mut fixed = 0 as Mask;
            for i in group.clone() {
                let m = grid[cells[i] as usize];
                if m & m.wrapping_sub(1) == 0 {
                    fixed |= m;
                    fixed_total += coefs[i] * value(m);
                }
            }
            for i in group {
                let m = grid[cells[i] as usize];
                if m & m.wrapping_sub(1) != 0 {
                    if unfixed < 3 {
                        free[unfixed] = (cells[i] as usize, coefs[i], g, m & !fixed);
                    }
                    unfixed += 1;
                }
            }
        }
        if unfixed == 0 {
            return fixed_total == target;
        }
        if unfixed <= 3 {
            return self.sum_exact(grid, &free[..unfixed], target - fixed_total);
        }
        if stated {
            if let Some(result) = self.sum_by_totals(grid, sum) {
                return result;
            }
        }
        let (mut lo, mut hi) = (0, 0);
        let mut start = 0;
        for &end in ends {
            let group = &cells[start..end as usize];
            let union = group.iter().fold(0, |u, &c| u | grid[c as usize]);
            let Some(span) = Span::new(union, group.len()) else { return false };
            let k = coefs[start];
            let (a, b) = if k >= 0 { (k * span.low, k * span.high) } else { (k * span.high, k * span.low) };
            lo += a;
            hi += b;
            start = end as usize;
        }
        if target < lo || target > hi {
            return false;
        }
        let mut start = 0;
        for &end in ends {
            let (s, e) = (start, end as usize);
            start = e;
            let union = cells[s..e].iter().fold(0, |u, &c| u | grid[c as usize]);
            let Some(span) = Span::new(union, e - s) else { return false };
            let k = coefs[s];
            let (a, b) = if k >= 0 { (k * span.low, k * span.high) } else { (k * span.high, k * span.low) };
            // The other groups leave this one the range [need_lo, need_hi]
            // (times k).
            let (need_lo, need_hi) = (target - (hi - b), target - (lo - a));
            if need_lo <= a && need_hi >= b {
                continue;
            }
            let (low, high) = if k > 0 {
                (ceil_div(need_lo, k), need_hi.div_euclid(k))
            } else {
                (ceil_div(-need_hi, -k), (-need_lo).div_euclid(-k))
            };
            let keep = span.keeps(low, high);
            for &c in &cells[s..e] {
                if !self.restrict(grid, c as usize, keep) {
                    return false;
                }
            }
        }
        true
    }

    /// [`Self::sum`] exactly, when every group has at most three cells and
    /// the totals the sum can make span fewer than 128 values: each group's
    /// possible totals (its peers taking different values), and for each
    /// cell and value the group totals it leaves, are listed; a value is
    /// kept when one of those totals, with some total of the other groups,
    /// makes `target`. `None` when the sum is not of that shape (the
    /// caller then reasons by bounds).
    fn sum_by_totals(&mut self, grid: &mut [Mask; MAX_CELLS], sum: &WeightedSum) -> Option<bool> {
        let WeightedSum { cells, coefs, ends, target } = *sum;
        const MAX_GROUPS: usize = 12;
        let n = ends.len();
        if n > MAX_GROUPS {
            return None;
        }
        // Per group: its raw totals (bit s: its values can add up to s);
        // the least of coefficient times total; and the bits of
        // coefficient times total less that least.
        let mut totals = [0u64; MAX_GROUPS];
        // Per group: its cells' candidates (the groups' cells are distinct,
        // so restricting one group leaves the others' as they are).
        let mut candidates = [[0 as Mask; 3]; MAX_GROUPS];
        let mut least = [0i32; MAX_GROUPS];
        let mut shifted = [0u128; MAX_GROUPS];
        let mut start = 0;
        for g in 0..n {
            let (s, e) = (start, ends[g] as usize);
            start = e;
            if e - s > 3 {
                return None;
            }
            let k = coefs[s];
            candidates[g] = group_masks(grid, &cells[s..e]);
            totals[g] = group_totals(&candidates[g][..e - s]);
            if totals[g] == 0 {
                return Some(false);
            }
            let (lo, hi) = (totals[g].trailing_zeros() as i32, 63 - totals[g].leading_zeros() as i32);
            least[g] = (k * lo).min(k * hi);
            if (k * hi - k * lo).abs() >= 128 {
                return None;
            }
            shifted[g] = match k {
                // Coefficients of 1 (nearly every sum) shift the totals down,
                // -1 mirror them: whole words, not a bit at a time.
                1 => u128::from(totals[g] >> lo),
                -1 => u128::from(totals[g].reverse_bits() >> (63 - hi)),
                _ => {
                    let (mut rest, mut out) = (totals[g], 0u128);
                    while rest != 0 {
                        let t = rest.trailing_zeros() as i32;
                        rest &= rest - 1;
                        out |= 1 << (k * t - least[g]);
                    }
                    out
                }
            };
        }
        // Totals of the groups before `g` and after it, offset by their least.
        let mut before = [0u128; MAX_GROUPS + 1];
        let mut after = [0u128; MAX_GROUPS + 1];
        before[0] = 1;
        after[n] = 1;
        for g in 0..n {
            before[g + 1] = minkowski(before[g], shifted[g])?;
        }
        for g in (0..n).rev() {
            after[g] = minkowski(after[g + 1], shifted[g])?;
        }
        let all_least: i32 = least[..n].iter().sum();
        let need = target - all_least;
        if !(0..128).contains(&need) || after[0] >> need & 1 == 0 {
            return Some(false);
        }
        let mut start = 0;
        for g in 0..n {
            let (s, e) = (start, ends[g] as usize);
            start = e;
            let k = coefs[s];
            // A group with one total keeps it: `target` is reachable, and
            // only through that total.
            if totals[g].is_power_of_two() {
                continue;
            }
            let others = minkowski(before[g], after[g + 1])?;
            let others_least = all_least - least[g];
            // The raw totals of this group that the others complete: total t
            // when the others make target - k t (less their least).
            let fits = completed(totals[g], k, target - others_least, others);
            if fits == totals[g] {
                continue;
            }
            // A cell keeps the values with which the group can make a
            // total that fits.
            let masks = candidates[g];
            let m = e - s;
            for (i, &c) in cells[s..e].iter().enumerate() {
                // The group's other cells, by the totals they make without `v`.
                let peers: [Mask; 2] = match i {
                    0 => [masks[1], masks[2]],
                    1 => [masks[0], masks[2]],
                    _ => [masks[0], masks[1]],
                };
                let mut kept = 0 as Mask;
                for v in bits(masks[i]) {
                    let rest = if m == 1 { 1 } else { group_totals(&[peers[0] & !v, peers[1] & !v][..m - 1]) };
                    if (rest << value(v)) & fits != 0 {
                        kept |= v;
                    }
                }
                if !self.restrict(grid, c as usize, kept) {
                    return Some(false);
                }
            }
        }
        Some(true)
    }

    /// [`Self::sum`] with at most three unfixed cells, `free` (cell,
    /// coefficient, group, candidates), and `target` what they must make:
    /// each value of each is kept when the others can complete it (peers of
    /// one group taking different values).
    fn sum_exact(&mut self, grid: &mut [Mask; MAX_CELLS], free: &[(usize, i32, usize, Mask)], target: i32) -> bool {
        // The value `rest / k` as a bit, when it is a whole value of `m`.
        let exact = |rest: i32, k: i32, m: Mask| -> Mask {
            if rest % k != 0 || !(1..=16).contains(&(rest / k)) {
                return 0;
            }
            m & (1 << (rest / k - 1))
        };
        let mut keep = [0 as Mask; 3];
        match free {
            [(_, k, _, m)] => keep[0] = exact(target, *k, *m),
            [(_, ka, ga, ma), (_, kb, gb, mb)] => {
                for va in bits(*ma) {
                    let same = if ga == gb { va } else { 0 };
                    let vb = exact(target - ka * value(va), *kb, mb & !same);
                    if vb != 0 {
                        keep[0] |= va;
                        keep[1] |= vb;
                    }
                }
            }
            [(_, ka, ga, ma), (_, kb, gb, mb), (_, kc, gc, mc)] => {
                for va in bits(*ma) {
                    let after_a = target - ka * value(va);
                    for vb in bits(mb & !if ga == gb { va } else { 0 }) {
                        let mut banned = 0;
                        if ga == gc {
                            banned |= va;
                        }
                        if gb == gc {
                            banned |= vb;
                        }
                        let vc = exact(after_a - kb * value(vb), *kc, mc & !banned);
                        if vc != 0 {
                            keep[0] |= va;
                            keep[1] |= vb;
                            keep[2] |= vc;
                        }
                    }
                }
            }
            _ => return true,
        }
        free.iter().zip(keep).all(|(&(c, ..), m)| self.restrict(grid, c, m))
    }
}

/// The values `cells` may hold, and those they hold for sure.
fn union_and_fixed(grid: &[Mask; MAX_CELLS], cells: &[u8]) -> (Mask, Mask) {
    let (mut union, mut fixed) = (0 as Mask, 0 as Mask);
    for &c in cells {
        let m = grid[c as usize];
        union |= m;
        if m & m.wrapping_sub(1) == 0 {
            fixed |= m;
        }
    }
    (union, fixed)
}

/// The value of a one-value mask (0 for none).
fn value(m: Mask) -> i32 {
    if m == 0 {
        0
    } else {
        m.trailing_zeros() as i32 + 1
    }
}

/// Each value of `m` as a one-value mask, smallest first.
fn bits(m: Mask) -> impl Iterator<Item = Mask> {
    let mut rest = m;
    std::iter::from_fn(move || {
        let bit = rest & rest.wrapping_neg();
        rest &= rest.wrapping_sub(1);
        (bit != 0).then_some(bit)
    })
}

/// The candidates of a group's (at most three) cells.
fn group_masks(grid: &[Mask; MAX_CELLS], cells: &[u8]) -> [Mask; 3] {
    let mut masks = [0 as Mask; 3];
    for (m, &c) in masks.iter_mut().zip(cells) {
        *m = grid[c as usize];
    }
    masks
}

/// The totals (bit `t`: total `t`) that one, two or three peers with the
/// candidates `masks` can make with different values: each value of the
/// first shifts the totals the others make without it.
fn group_totals(masks: &[Mask]) -> u64 {
    match *masks {
        [a] => u64::from(a) << 1,
        [a, b] => bits(a).fold(0, |t, va| t | (u64::from(b & !va) << 1) << value(va)),
        [a, b, c] => bits(a).fold(0, |t, va| t | group_totals(&[b & !va, c & !va]) << value(va)),
        _ => 0,
    }
}

/// The totals `x + y` for `x` in `a` and `y` in `b` (bit sets), `None`
/// when one passes 127.
fn minkowski(a: u128, b: u128) -> Option<u128> {
    if a == 0 || b == 0 {
        return Some(0);
    }
    let (a_high, b_high) = (127 - a.leading_zeros(), 127 - b.leading_zeros());
    if a_high + b_high >= 128 {
        return None;
    }
    // Two runs of consecutive totals add up to the run from the least sum
    // to the greatest: the usual case (a group's totals rarely have gaps),
    // at a cost that does not grow with the runs' lengths.
    if is_run(a) && is_run(b) {
        let (low, high) = (a.trailing_zeros() + b.trailing_zeros(), a_high + b_high);
        return Some((u128::MAX >> (127 - high)) & (u128::MAX << low));
    }
    // Otherwise one shifted copy of the denser set per total of the sparser.
    let (dense, sparse) = if a.count_ones() >= b.count_ones() { (a, b) } else { (b, a) };
    let (mut out, mut rest) = (0u128, sparse);
    while rest != 0 {
        out |= dense << rest.trailing_zeros();
        rest &= rest - 1;
    }
    Some(out)
}

/// The totals `t` of `totals` for which `others` has `c - k t`: for
/// `k = 1` the others' totals mirrored and shifted onto the group's, for
/// `k = -1` just shifted, otherwise one test a total.
fn completed(totals: u64, k: i32, c: i32, others: u128) -> u64 {
    match k {
        // Bit t of the mirror shifted right by 127 - c is bit c - t of
        // `others` (0 when c - t leaves 0..128).
        1 if c < 0 => 0,
        1 if c <= 127 => totals & (others.reverse_bits() >> (127 - c)) as u64,
        1 => totals & ((others.reverse_bits() << (c - 127).min(127)) as u64),
        // For k = -1 the others must make c + t: bit t of `others` shifted
        // right by c.
        -1 if c >= 128 => 0,
        -1 if c >= 0 => totals & (others >> c) as u64,
        _ => {
            let (mut fits, mut rest) = (0u64, totals);
            while rest != 0 {
                let t = rest.trailing_zeros() as i32;
                rest &= rest - 1;
                let need = c - k * t;
                if (0..128).contains(&need) && others >> need & 1 != 0 {
                    fits |= 1 << t;
                }
            }
            fits
        }
    }
}

/// Whether the bits of `x` (not 0) are consecutive.
fn is_run(x: u128) -> bool {
    let y = x >> x.trailing_zeros();
    y & y.wrapping_add(1) == 0
}

/// `a / b` rounded up, for `b > 0`.
fn ceil_div(a: i32, b: i32) -> i32 {
    -((-a).div_euclid(b))
}

/// The totals `m` peers can make from a set of values: at least the sum
/// of the `m` smallest, at most that of the `m` largest.
#[derive(Debug, Clone, Copy)]
struct Span {
    low: i32,
    high: i32,
    /// The sums of the `m - 1` smallest and largest values.
    low_but_one: i32,
    high_but_one: i32,
    /// The `m` smallest and the `m` largest values.
    lows: Mask,
    highs: Mask,
}

impl Span {
    /// The span of `m` different values of `union`, `None` when it has fewer.
    fn new(union: Mask, m: usize) -> Option<Span> {
        let (mut low, mut lows, mut rest) = (0, 0 as Mask, union);
        let mut low_but_one = 0;
        for i in 0..m {
            let bit = rest & rest.wrapping_neg();
            if bit == 0 {
                return None;
            }
            rest &= rest - 1;
            if i + 1 == m {
                low_but_one = low;
            }
            low += value(bit);
            lows |= bit;
        }
        let (mut high, mut highs, mut rest) = (0, 0 as Mask, union);
        let mut high_but_one = 0;
        for i in 0..m {
            let top = 1 << (15 - rest.leading_zeros());
            rest &= !top;
            if i + 1 == m {
                high_but_one = high;
            }
            high += value(top);
            highs |= top;
        }
        Some(Span { low, high, low_but_one, high_but_one, lows, highs })
    }

    /// The values one of the peers may hold when their total lies in
    /// `low..=high`: with value `v`, the least total is the `m` smallest
    /// values' when `v` is one of them, `v` plus the `m - 1` smallest
    /// otherwise (and the mirror for the greatest).
    fn keeps(&self, low: i32, high: i32) -> Mask {
        let under =
            (if self.low <= high { self.lows } else { 0 }) | (!self.lows & range_mask(1, high - self.low_but_one));
        let over =
            (if self.high >= low { self.highs } else { 0 }) | (!self.highs & range_mask(low - self.high_but_one, 16));
        under & over
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::parse_line;
    use super::super::Solver;
    use super::{completed, minkowski, WeightedSum};
    use crate::rng::Rng;

    /// `completed`'s shifts against testing each total, for coefficients
    /// of either sign and targets on both sides of the window.
    #[test]
    fn completed_keeps_the_totals_the_others_complete() {
        let mut rng = Rng::new(31);
        for _ in 0..20000 {
            let totals = rng.next_u64() >> rng.below(64);
            let others = (u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64) >> rng.below(128);
            let k = [1, -1, 2, -3][rng.below(4)];
            let c = rng.below(400) as i32 - 140;
            let naive = (0..64)
                .filter(|&t| totals >> t & 1 != 0)
                .filter(|&t| (0..128).contains(&(c - k * t)) && others >> (c - k * t) & 1 != 0)
                .fold(0u64, |f, t| f | 1 << t);
            assert_eq!(completed(totals, k, c, others), naive, "k {k}, c {c}");
        }
    }

    /// `minkowski` (with its shortcut for runs) against every pair of
    /// totals: random sets, runs, single totals, and sums past 127.
    #[test]
    fn minkowski_adds_every_pair_of_totals() {
        let mut rng = Rng::new(27);
        let set = |rng: &mut Rng| -> u128 {
            let low = rng.below(100) as u32;
            let len = 1 + rng.below(40) as u32;
            match rng.below(3) {
                0 => (u128::MAX >> (128 - len)) << low.min(128 - len),
                1 => 1u128 << low,
                _ => (u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64) >> rng.below(128),
            }
        };
        for _ in 0..5000 {
            let (a, b) = (set(&mut rng), set(&mut rng));
            let mut naive = Some(0u128);
            for x in (0..128).filter(|x| a >> x & 1 != 0) {
                for y in (0..128).filter(|y| b >> y & 1 != 0) {
                    naive = match naive {
                        Some(out) if x + y < 128 => Some(out | 1 << (x + y)),
                        _ => None,
                    };
                }
            }
            assert_eq!(minkowski(a, b), naive, "{a:#x} + {b:#x}");
        }
    }

    /// The candidates of `cell` once the puzzle's rules are propagated.
    fn after_propagation(text: &str, cell: usize) -> u16 {
        let mut solver = Solver::new(&parse_line(text, 1).unwrap()).unwrap();
        solver.root().expect("a puzzle with solutions")[cell]
    }

    #[test]
    fn a_cage_keeps_its_needed_values_from_the_cells_seeing_it() {
        // 1, 2 and 3 are in the cage; 3 not in R1C4 (R5C4 is 3), so in R1C3
        // or R2C3, and R3C3 sees both.
        assert_eq!(after_propagation(".Cage~6~R1C3~R1C4~R2C3.~R5C4_3", 20) & 0b100, 0);
    }

    #[test]
    fn a_cage_leaves_the_rest_of_its_house_the_values_it_can_hold() {
        // Row 1 has no place for 4 outside the cage R1C1 R1C2 of 9, so of
        // 1+8, 2+7, 3+6 and 4+5 only 4+5 is left.
        let mut solver = Solver::new(&parse_line(".Shape~9x9", 1).unwrap()).unwrap();
        let mut grid = solver.start;
        let rest: Vec<u8> = (2..9).collect();
        for &c in &rest {
            grid[c as usize] &= !0b1000;
        }
        let combos = [0b1000_0001, 0b0100_0010, 0b0010_0100, 0b0001_1000];
        assert!(solver.cage(&mut grid, &[0, 1], &combos, &rest));
        assert_eq!((grid[0], grid[1]), (0b11000, 0b11000));
    }

    /// Two pairs of peers in different houses, R1C1 R1C2 on {1, 5} (total
    /// 6) and R5C5 on {1, 2, 3}, R5C6 on {4, 6}, summing to 13: the second
    /// pair must make 7, as 1+6 or 3+4, so R5C5 loses 2, which bounds keep
    /// (2+4 <= 7 <= 2+6).
    #[test]
    fn a_stated_sum_keeps_only_values_whose_group_totals_complete_it() {
        let mut solver = Solver::new(&parse_line(".Shape~9x9", 1).unwrap()).unwrap();
        let (cells, coefs, ends) = ([0u8, 1, 40, 41], [1; 4], [2u8, 4]);
        for stated in [true, false] {
            let mut grid = solver.start;
            (grid[0], grid[1], grid[40], grid[41]) = (0b10001, 0b10001, 0b111, 0b101000);
            let sum = WeightedSum { cells: &cells, coefs: &coefs, ends: &ends, target: 13 };
            assert!(solver.sum(&mut grid, &sum, stated));
            let expected = if stated { 0b101 } else { 0b111 };
            assert_eq!((grid[40], grid[41]), (expected, 0b101000), "stated: {stated}");
        }
        // No total of the pairs makes 20.
        let mut grid = solver.start;
        (grid[0], grid[1], grid[40], grid[41]) = (0b10001, 0b10001, 0b111, 0b101000);
        let sum = WeightedSum { cells: &cells, coefs: &coefs, ends: &ends, target: 20 };
        assert!(!solver.sum(&mut grid, &sum, true));
    }

    #[test]
    fn a_sum_with_few_cells_left_keeps_only_values_that_complete_it() {
        // The circle 4 or 6, one arrow cell 1: the other 3 or 5, not 4.
        assert_eq!(after_propagation(".Arrow~R1C1~R1C2~R1C3.~R1C1_4_6~R1C2_1", 2), 0b10100);
    }
}
