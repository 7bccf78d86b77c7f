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
//! renban examples from 86 guesses to 17.5. Matched window by window, the
//! step cost most of what the guesses saved (3.68-3.75 s to 3.58-3.67 s,
//! `backtrack bench sudoku --threads 1`, Zen 4); with every window of a
//! short line at once, 2.37-2.43 s.
//!
//! The matching is found over the subsets of the window's values: which
//! sets of values the first `i` cells can take (forward) and the last
//! cells can take (backward). Cell `i` can take value `v` when a forward
//! set of its predecessors and a backward set of its successors make the
//! window with `v`. Lines are short (at most the grid's size), so the sets
//! fit in a word for windows of up to six values and in sixteen up to
//! [`MAX_MATCHED`]; longer lines keep the covering test alone. Lines of
//! two and three cells, the most common, take every window at once by
//! the orders of their values ([`short_line`]).

use super::super::model::Mask;

/// Longest window matched exactly.
pub(super) const MAX_MATCHED: usize = 10;

/// A line of two or three cells, every window at once: per cell, the
/// values some window's matching gives it, and the windows that match (bit
/// `v` for the window starting at value `v + 1`). Each window start is a
/// bit of one word, so a match of the cells to offsets `(p, q, r)` in the
/// window is three shifted masks and-ed; the six orders of three cells (two
/// of two) cover every matching.
pub(super) fn short_line(cands: &[Mask], allowed: &mut [Mask]) -> u32 {
    let at = |i: usize, offset: usize| u32::from(cands[i]) >> offset;
    let mut windows = 0;
    let mut support = [0u32; 3];
    let mut matched = |offsets: &[usize]| {
        let t = offsets.iter().enumerate().fold(u32::MAX, |t, (i, &o)| t & at(i, o));
        windows |= t;
        for (s, &o) in support.iter_mut().zip(offsets) {
            *s |= t << o;
        }
    };
    match cands.len() {
        2 => [[0, 1], [1, 0]].iter().for_each(|o| matched(o)),
        3 => [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]].iter().for_each(|o| matched(o)),
        k => unreachable!("short_line takes two or three cells, not {k}"),
    }
    for (a, s) in allowed.iter_mut().zip(&support[..cands.len()]) {
        *a = *s as Mask;
    }
    windows
}

/// A set of subsets of the window's values (bit `s` for subset `s`), in
/// `W` words: one word for windows of up to six values, the common case,
/// so that short lines clear and scan one word per set.
#[derive(Clone, Copy)]
struct Subsets<const W: usize>([u64; W]);

impl<const W: usize> Subsets<W> {
    const EMPTY: Subsets<W> = Subsets([0; W]);

    fn insert(&mut self, s: usize) {
        self.0[s / 64] |= 1 << (s % 64);
    }

    fn contains(&self, s: usize) -> bool {
        self.0[s / 64] & (1 << (s % 64)) != 0
    }

    /// Calls `f` with each subset.
    fn for_each(&self, mut f: impl FnMut(usize)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// The values each cell of a line of `local.len()` cells can take in a
/// one-to-one matching of the cells to a window of as many values, the
/// cells' candidates given within the window (`local[i]`, bit `j` for the
/// window's `j`-th value). Writes them to `supported` and returns whether
/// there is a matching at all. Needs `local.len() <= MAX_MATCHED`.
pub(super) fn window_matching(local: &[Mask], supported: &mut [Mask]) -> bool {
    debug_assert!(local.len() <= MAX_MATCHED && supported.len() >= local.len());
    let full = (1 << local.len()) - 1;
    if local.iter().all(|&m| m == full) {
        // Every cell can take every value: any order matches.
        supported[..local.len()].fill(full);
        return true;
    }
    match local.len() {
        0..=6 => matching::<1>(local, supported),
        _ => matching::<{ (1 << MAX_MATCHED) / 64 }>(local, supported),
    }
}

/// [`window_matching`] with sets of subsets in `W` words.
fn matching<const W: usize>(local: &[Mask], supported: &mut [Mask]) -> bool {
    let k = local.len();
    let full = (1usize << k) - 1;
    // forward[i]: the sets of values cells 0..i can take; backward[i]: those
    // cells i..k can take.
    let mut forward = [Subsets::<W>::EMPTY; MAX_MATCHED + 1];
    let mut backward = [Subsets::<W>::EMPTY; MAX_MATCHED + 1];
    let extend = |from: &Subsets<W>, cell: Mask, to: &mut Subsets<W>| {
        from.for_each(|s| {
            let mut free = cell as usize & !s;
            while free != 0 {
                to.insert(s | (free & free.wrapping_neg()));
                free &= free - 1;
            }
        })
    };
    forward[0].insert(0);
    for i in 0..k {
        let (done, rest) = forward.split_at_mut(i + 1);
        extend(&done[i], local[i], &mut rest[0]);
    }
    if !forward[k].contains(full) {
        return false;
    }
    backward[k].insert(0);
    for i in (0..k).rev() {
        let (head, done) = backward.split_at_mut(i + 1);
        extend(&done[0], local[i], &mut head[i]);
    }
    for i in 0..k {
        let mut support = 0usize;
        forward[i].for_each(|s| {
            let rest = full ^ s;
            let mut free = local[i] as usize & rest & !support;
            while free != 0 {
                let v = free & free.wrapping_neg();
                free ^= v;
                if backward[i + 1].contains(rest ^ v) {
                    support |= v;
                }
            }
        });
        supported[i] = support as Mask;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Every one-to-one assignment of the cells to the window's values, by
    /// trying them all.
    fn brute(local: &[Mask]) -> Option<Vec<Mask>> {
        let k = local.len();
        let mut supported = vec![0; k];
        let mut found = false;
        let mut order: Vec<usize> = (0..k).collect();
        // Heap's algorithm over the permutations: cell i takes value order[i].
        let mut c = vec![0; k];
        let mut check = |order: &[usize]| {
            if order.iter().enumerate().all(|(i, &v)| local[i] & (1 << v) != 0) {
                found = true;
                for (i, &v) in order.iter().enumerate() {
                    supported[i] |= 1 << v;
                }
            }
        };
        check(&order);
        let mut i = 0;
        while i < k {
            if c[i] < i {
                if i % 2 == 0 {
                    order.swap(0, i);
                } else {
                    order.swap(c[i], i);
                }
                check(&order);
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        found.then_some(supported)
    }

    #[test]
    fn the_matching_keeps_exactly_the_values_of_some_assignment() {
        let mut rng = Rng::new(7);
        for round in 0..4000 {
            let k = 1 + round % 7;
            let density = 1 + rng.below(3);
            let local: Vec<Mask> = (0..k)
                .map(|_| {
                    let mut m = 0;
                    for v in 0..k {
                        if rng.below(4) < density {
                            m |= 1 << v;
                        }
                    }
                    m
                })
                .collect();
            let mut supported = vec![0; k];
            let found = window_matching(&local, &mut supported);
            match brute(&local) {
                Some(expected) => {
                    assert!(found, "{local:?}");
                    assert_eq!(supported, expected, "{local:?}");
                }
                None => assert!(!found, "{local:?}"),
            }
        }
    }

    /// Short lines, all windows at once, against the window-by-window
    /// matching: the same values kept and the same windows found.
    #[test]
    fn short_lines_agree_with_the_matching_of_each_window() {
        let mut rng = Rng::new(11);
        for round in 0..6000 {
            let k = 2 + round % 2;
            let size = 4 + rng.below(13);
            let cands: Vec<Mask> = (0..k).map(|_| (rng.next_u64() as Mask) & (((1u32 << size) - 1) as Mask)).collect();
            let (mut allowed, mut windows) = ([0 as Mask; 3], 0u32);
            for lo in 0..=size - k {
                let window = (((1u32 << k) - 1) << lo) as Mask;
                let local: Vec<Mask> = cands.iter().map(|&m| (m & window) >> lo).collect();
                let mut supported = [0; 3];
                if window_matching(&local, &mut supported) {
                    windows |= 1 << lo;
                    for (a, s) in allowed.iter_mut().zip(&supported[..k]) {
                        *a |= s << lo;
                    }
                }
            }
            let mut got = [0 as Mask; 3];
            assert_eq!(short_line(&cands, &mut got), windows, "{cands:?} on {size}");
            assert_eq!(got[..k], allowed[..k], "{cands:?} on {size}");
        }
    }

    #[test]
    fn windows_the_covering_test_lets_through_do_not_match() {
        let mut supported = [0; 4];
        // Two cells for one value.
        assert!(!window_matching(&[0b001 | 0b010, 0b100, 0b100], &mut supported));
        // A cell alone holding two of the values.
        assert!(!window_matching(&[0b1001, 0b0110, 0b0110, 0b0110], &mut supported));
        // Values given up because another cell needs them.
        assert!(window_matching(&[0b001, 0b011, 0b111], &mut supported));
        assert_eq!(supported[..3], [0b001, 0b010, 0b100]);
        assert!(window_matching(&[0b101, 0b011, 0b110], &mut supported));
        assert_eq!(supported[..3], [0b101, 0b011, 0b110]);
    }

    #[test]
    fn the_longest_window_is_matched() {
        let local = [(1 << MAX_MATCHED) - 1; MAX_MATCHED].map(|m: usize| m as Mask);
        let mut supported = [0; MAX_MATCHED];
        assert!(window_matching(&local, &mut supported));
        assert_eq!(supported, local);
    }
}
