//! Renban lines: `k` cells holding `k` different, consecutive values, so
//! some window of values `lo..lo + k` exactly, one value to a cell.
//!
//! A window fits when the cells can be matched to its values one to one;
//! a cell's value is kept when some fitting window matches the cell to it.
//! That is all the line itself can tell (given the candidates, a value
//! kept is part of an assignment of the whole line). Testing each window
//! only for "every cell has a value in it and together they cover it" lets
//! through, for example, a cell that alone holds two of the window's
//! values: it cannot give both. On ISS's HARD_RENBAN collection the
//! matching took the guesses from 235,518 to 147,825 a puzzle, and ISS's
//! renban examples from 86 guesses to 17.5.
//!
//! Every window is matched at once ([`line_windows`]; lines of up to three
//! cells try the orders of their offsets instead): a window is a bit
//! of a word (bit `v` for the window starting at value `v + 1`), and cell
//! `i` can take the value at offset `o` of the windows `cands[i] >> o`.
//! Going through the cells in order, the windows in which the first cells
//! can take exactly the offsets `S` are kept for each set `S` (forward),
//! and likewise for the last cells (backward); cell `i` takes offset `o`
//! in the windows where a forward set and a backward set complete each
//! other with `o`. That is `k` times 2^(k-1) word operations each way,
//! for every window together. Matched window by window, the step cost
//! most of what the guesses saved (HARD_RENBAN 3.68-3.75 s to 3.58-3.67 s,
//! `backtrack bench sudoku --threads 1`, Zen 4); with every window at
//! once, 2.29-2.33 s. Lines longer than [`MAX_MATCHED`] cells (on grids
//! above 10x10) keep the covering test alone.

use super::super::model::Mask;

/// Longest line matched exactly.
pub(super) const MAX_MATCHED: usize = 10;

/// The matching of a renban line's cells, whose candidates are `cands`,
/// to every window of `cands.len()` consecutive values at once: returns
/// the windows that match (bit `v` for the window starting at value
/// `v + 1`) and writes to `allowed[i]` the values cell `i` takes in some
/// matching. Needs `cands.len() <= MAX_MATCHED`.
pub(super) fn line_windows(cands: &[Mask], allowed: &mut [Mask]) -> u32 {
    match cands.len() {
        0 => 0,
        // The two- and three-cell lines, the most common, by the orders of
        // their offsets: the tables below cost them a fifth more time.
        1 => by_orders(cands, &[[0]], allowed),
        2 => by_orders(cands, &[[0, 1], [1, 0]], allowed),
        3 => by_orders(cands, &[[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], allowed),
        4..=6 => windows_in::<64>(cands, allowed),
        _ => windows_in::<{ 1 << MAX_MATCHED }>(cands, allowed),
    }
}

/// [`line_windows`] by every order of the offsets (`orders`): cell `i` at
/// offset `order[i]` in the windows where all of `cands[i] >> order[i]`
/// meet.
fn by_orders<const K: usize>(cands: &[Mask], orders: &[[usize; K]], allowed: &mut [Mask]) -> u32 {
    let mut windows = 0;
    let mut support = [0u32; K];
    for order in orders {
        let w = (0..K).fold(u32::MAX, |w, i| w & u32::from(cands[i]) >> order[i]);
        windows |= w;
        for i in 0..K {
            support[i] |= w << order[i];
        }
    }
    for (a, s) in allowed.iter_mut().zip(support) {
        *a = s as Mask;
    }
    windows
}

/// [`line_windows`] with tables of `SETS` sets of offsets.
fn windows_in<const SETS: usize>(cands: &[Mask], allowed: &mut [Mask]) -> u32 {
    let k = cands.len();
    debug_assert!(k <= MAX_MATCHED && 1 << k <= SETS && allowed.len() >= k);
    let full = (1usize << k) - 1;
    // The windows in which cell `i` can take offset `o`.
    let at = |i: usize, o: usize| u32::from(cands[i]) >> o;
    // forward[s]: the windows in which the first |s| cells can take exactly
    // the offsets s; backward[s]: those in which the last |s| cells can.
    let mut forward = [0u32; SETS];
    let mut backward = [0u32; SETS];
    forward[0] = u32::MAX;
    backward[0] = u32::MAX;
    // Sets in increasing order: a set's subsets come before it.
    for s in 1..=full {
        let (i, j) = (s.count_ones() as usize - 1, k - s.count_ones() as usize);
        let (mut f, mut b) = (0, 0);
        let mut offsets = s;
        while offsets != 0 {
            let o = offsets.trailing_zeros() as usize;
            offsets &= offsets - 1;
            f |= forward[s ^ 1 << o] & at(i, o);
            b |= backward[s ^ 1 << o] & at(j, o);
        }
        forward[s] = f;
        backward[s] = b;
    }
    let windows = forward[full];
    if windows == 0 {
        allowed[..k].fill(0);
        return 0;
    }
    let mut support = [0u32; MAX_MATCHED];
    for s in 0..full {
        // Cell i = |s| takes an offset o outside s, and the cells after it
        // the rest.
        let i = s.count_ones() as usize;
        if forward[s] == 0 {
            continue;
        }
        let mut offsets = full ^ s;
        while offsets != 0 {
            let o = offsets.trailing_zeros() as usize;
            offsets &= offsets - 1;
            let w = forward[s] & at(i, o) & backward[full ^ s ^ 1 << o];
            support[i] |= w << o;
        }
    }
    for (a, s) in allowed.iter_mut().zip(&support[..k]) {
        *a = *s as Mask;
    }
    windows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The windows that match and the values each cell takes in some
    /// matching, by trying every order of every window's values.
    fn brute(cands: &[Mask], size: usize) -> (u32, Vec<Mask>) {
        let k = cands.len();
        let (mut windows, mut allowed) = (0u32, vec![0 as Mask; k]);
        for lo in 0..=size.saturating_sub(k) {
            let mut order: Vec<usize> = (0..k).collect();
            // Heap's algorithm over the orders: cell i takes value lo + order[i].
            let mut c = vec![0; k];
            let mut check = |order: &[usize]| {
                if order.iter().enumerate().all(|(i, &o)| cands[i] & (1 << (lo + o)) != 0) {
                    windows |= 1 << lo;
                    for (i, &o) in order.iter().enumerate() {
                        allowed[i] |= 1 << (lo + o);
                    }
                }
            };
            check(&order);
            let mut i = 0;
            while i < k {
                if c[i] < i {
                    let j = if i % 2 == 0 { 0 } else { c[i] };
                    order.swap(j, i);
                    check(&order);
                    c[i] += 1;
                    i = 0;
                } else {
                    c[i] = 0;
                    i += 1;
                }
            }
        }
        (windows, allowed)
    }

    #[test]
    fn every_window_is_matched_as_trying_every_order_does() {
        let mut rng = Rng::new(7);
        for round in 0..6000 {
            let k = 1 + round % 7;
            let size = (k + rng.below(10)).min(16);
            let density = 1 + rng.below(3);
            let cands: Vec<Mask> =
                (0..k).map(|_| (0..size).filter(|_| rng.below(4) < density).fold(0, |m, v| m | 1 << v)).collect();
            let mut allowed = [0; MAX_MATCHED];
            let windows = line_windows(&cands, &mut allowed);
            let (expected_windows, expected) = brute(&cands, size);
            assert_eq!(windows, expected_windows, "{cands:?} on {size}");
            assert_eq!(allowed[..k], expected[..], "{cands:?} on {size}");
        }
    }

    #[test]
    fn windows_the_covering_test_lets_through_do_not_match() {
        let mut allowed = [0; 4];
        // Two cells for one value.
        assert_eq!(line_windows(&[0b011, 0b100, 0b100], &mut allowed), 0);
        // A cell alone holding two of the values.
        assert_eq!(line_windows(&[0b1001, 0b0110, 0b0110, 0b0110], &mut allowed), 0);
        // Values given up because another cell needs them.
        assert_eq!(line_windows(&[0b001, 0b011, 0b111], &mut allowed), 1);
        assert_eq!(allowed[..3], [0b001, 0b010, 0b100]);
        // Two windows, 1-3 and 2-4: the first cell takes 1 or 4.
        assert_eq!(line_windows(&[0b1001, 0b0110, 0b0110], &mut allowed), 0b11);
        assert_eq!(allowed[..3], [0b1001, 0b0110, 0b0110]);
    }

    #[test]
    fn the_longest_line_is_matched() {
        let cands = [(1 << 16) - 1; MAX_MATCHED].map(|m: u32| m as Mask);
        let mut allowed = [0; MAX_MATCHED];
        assert_eq!(line_windows(&cands, &mut allowed), (1 << 7) - 1, "windows starting at 1 to 7");
        assert!(allowed.iter().all(|&a| a == Mask::MAX));
    }
}
