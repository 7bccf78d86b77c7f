//! Rows of option bits counted eight words at a time with AVX-512's
//! population count, for the walks that count an item's live options when
//! a node looks at it rather than keep every count up to date (the cost
//! search's wide walk, the exact-cover count's wide walk).
//!
//! The rows these functions read are padded with zeros to whole vectors of
//! eight words ([`padded_words`]), so that no load needs a mask.

use crate::cpu::Avx512Popcount;

/// The words of a row of `words` words padded to whole vectors of eight.
pub(crate) fn padded_words(words: usize) -> usize {
    words.div_ceil(8).max(1) * 8
}

/// Whether a walk that counts every open item's live options at each node
/// is worth it on a problem of `n_primary` primary items and `words` words
/// of options: at most [`WORK_MOST`] vectors read per node at the root.
/// Measured on one Zen 4 core: pentomino packings (72 items by 4 vectors,
/// 77 by 5) 2.4-2.7x faster than the bitset engine's counters, a sudoku
/// grid (324 by 2) and queens 18 (36 by 1) faster too, but a random cover
/// of 300 items by 12 vectors about 1.5x slower.
pub(crate) fn pays(n_primary: usize, words: usize) -> bool {
    n_primary * (padded_words(words) / 8) <= WORK_MOST
}

/// See [`pays`].
const WORK_MOST: usize = 1024;

/// Opens (`open_them`) or closes, in the bitset `open` of items still to be
/// covered, one option's primary items `items` (padded with `n_primary`,
/// which is skipped); returns how many there are.
#[inline(always)]
pub(crate) fn mark_items(open: &mut [u64], items: &[u32], n_primary: usize, open_them: bool) -> u32 {
    let mut n = 0;
    for &p in items {
        let p = p as usize;
        if p < n_primary {
            if open_them {
                open[p / 64] |= 1 << (p % 64);
            } else {
                open[p / 64] &= !(1 << (p % 64));
            }
            n += 1;
        }
    }
    n
}

/// How many options `live` and `row` share, and the first of them
/// (`usize::MAX` when none); both are whole vectors of eight words.
#[inline(always)]
pub(crate) fn count_and_first(_cpu: Avx512Popcount, live: &[u64], row: &[u64]) -> (u32, usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        assert!(live.len() == row.len() && live.len().is_multiple_of(8));
        let vecs = live.len() / 8;
        let (l, r) = (live.as_ptr(), row.as_ptr());
        // SAFETY: the token proves AVX-512 F and VPOPCNTDQ (the function is
        // inlined into `visit`, compiled with them); every load reads
        // eight words at `8 * v < live.len() == row.len()`.
        unsafe {
            let mut counts = _mm512_setzero_si512();
            let mut first = usize::MAX;
            // Eight vectors at a time, each adding one byte of a mask of
            // the words that share an option.
            let mut group = 0;
            while group < vecs {
                let end = (group + 8).min(vecs);
                let mut nonzero = 0u64;
                for v in group..end {
                    let both = _mm512_and_si512(
                        _mm512_loadu_si512(l.add(8 * v).cast()),
                        _mm512_loadu_si512(r.add(8 * v).cast()),
                    );
                    counts = _mm512_add_epi64(counts, _mm512_popcnt_epi64(both));
                    nonzero |= u64::from(_mm512_test_epi64_mask(both, both)) << (8 * (v - group));
                }
                if first == usize::MAX && nonzero != 0 {
                    let k = 8 * group + nonzero.trailing_zeros() as usize;
                    first = k * 64 + (live[k] & row[k]).trailing_zeros() as usize;
                }
                group = end;
            }
            // At most 64 per word, and at most 2^16 options in all.
            (_mm512_reduce_add_epi64(counts) as u32, first)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // No token is ever made here.
        let _ = (live, row);
        unreachable!("an AVX-512 token on another architecture")
    }
}

/// How many options `live` and `row` share; both are whole vectors of
/// eight words.
#[inline(always)]
pub(crate) fn count(_cpu: Avx512Popcount, live: &[u64], row: &[u64]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        assert!(live.len() == row.len() && live.len().is_multiple_of(8));
        let (l, r) = (live.as_ptr(), row.as_ptr());
        // SAFETY: the token proves AVX-512 F and VPOPCNTDQ (the function is
        // inlined into a walk compiled with them); every load reads eight
        // words at `8 * v < live.len() == row.len()`.
        unsafe {
            let mut counts = _mm512_setzero_si512();
            for v in 0..live.len() / 8 {
                let both =
                    _mm512_and_si512(_mm512_loadu_si512(l.add(8 * v).cast()), _mm512_loadu_si512(r.add(8 * v).cast()));
                counts = _mm512_add_epi64(counts, _mm512_popcnt_epi64(both));
            }
            // At most 64 per word, and at most 2^16 options in all.
            _mm512_reduce_add_epi64(counts) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // No token is ever made here.
        let _ = (live, row);
        unreachable!("an AVX-512 token on another architecture")
    }
}
