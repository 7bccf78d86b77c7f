//! Rows of option bits counted with vector instructions, for the walks that
//! count an item's live options when a node looks at it rather than keep
//! every count up to date (the cost search's wide walk, the exact-cover
//! count's wide walk): eight words at a time with AVX-512's population
//! count, or four with AVX2, whose bytes are counted by two look-ups of a
//! 16-entry table (one per half byte).
//!
//! The rows these functions read are padded with zeros to whole vectors of
//! eight words ([`padded_words`]), so that no load needs a mask, and
//! start on a vector's boundary ([`AlignedWords`]).

use crate::cpu::{Avx512Popcount, X86V3};

/// The build a popcount walk runs, with the token that proves the
/// processor can run it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rows {
    /// AVX-512 VPOPCNTDQ: eight words per instruction.
    Avx512(Avx512Popcount),
    /// AVX2: four words per table look-up.
    Avx2(X86V3),
}

impl Rows {
    /// The widest build this processor runs, if any.
    pub fn best() -> Option<Rows> {
        Avx512Popcount::new().map(Rows::Avx512).or_else(|| X86V3::new().map(Rows::Avx2))
    }

    /// Every build this processor runs (the tests compare each with the engine).
    #[cfg(test)]
    pub fn all() -> Vec<Rows> {
        Avx512Popcount::new().map(Rows::Avx512).into_iter().chain(X86V3::new().map(Rows::Avx2)).collect()
    }

    /// Whether a walk that counts every open item's live options at each
    /// node is worth it on a problem of `n_primary` primary items and
    /// `words` words of options: at most 1,024 vectors of eight words read
    /// per node at the root with AVX-512, 512 with AVX2. Measured on one
    /// Zen 4 core: pentomino packings (72 items by 4 vectors, 77 by 5)
    /// 2.4-2.7x faster than the bitset engine's counters with AVX-512 and
    /// 1.5x with AVX2; a sudoku grid (324 by 2) and queens 18 (36 by 1)
    /// faster with AVX-512; a random cover of 300 items by 12 vectors about
    /// 1.5x slower. It also bounds the primary items by 1,024: the walks
    /// recurse once per choice and each choice covers an item, so this
    /// bounds their depth on the stack.
    pub fn pays(self, n_primary: usize, words: usize) -> bool {
        let most = match self {
            Rows::Avx512(_) => 1024,
            Rows::Avx2(_) => 512,
        };
        n_primary * (padded_words(words) / 8) <= most
    }
}

/// Says, for the test `test`, which builds of the popcount walks this
/// processor cannot run (and fails under CI where /proc/cpuinfo says it
/// should).
#[cfg(test)]
pub(crate) fn say_which_builds_cannot_run(test: &str) {
    use crate::test_support::{cpuinfo_has, skip, under_ci};
    if Avx512Popcount::new().is_none() {
        let listed = cpuinfo_has(&["avx512f", "avx512bw", "avx512vl", "avx512_vpopcntdq"]) == Some(true);
        skip(&format!("{test} (AVX-512 build)"), "this processor lacks AVX-512 VPOPCNTDQ", under_ci() && listed);
    }
    if X86V3::new().is_none() {
        let listed = cpuinfo_has(&["avx2", "bmi1", "bmi2", "popcnt", "abm"]) == Some(true);
        skip(&format!("{test} (AVX2 build)"), "this processor lacks AVX2/BMI1/BMI2/POPCNT/LZCNT", under_ci() && listed);
    }
}

/// The words of a row of `words` words padded to whole vectors of eight.
pub(crate) fn padded_words(words: usize) -> usize {
    words.div_ceil(8).max(1) * 8
}

/// Rows of words that start on a 64-byte boundary, as many words as a
/// whole number of vectors of eight: the walks' vector loads then never
/// straddle two cache lines. Measured on Zen 4, the AVX-512 count walk on
/// pentomino-5x12 took 7% longer on rows that started 16 bytes past a
/// boundary, as a `Vec<u64>` may.
#[derive(Clone, Debug, Default)]
pub(crate) struct AlignedWords(Vec<Vector>);

/// Eight words on a 64-byte boundary: the unit of [`AlignedWords`].
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Vector([u64; 8]);

impl AlignedWords {
    /// `words` zero words (rounded up to whole vectors).
    pub fn zeroed(words: usize) -> Self {
        AlignedWords(vec![Vector::default(); words.div_ceil(8)])
    }

    /// Grows or shrinks to `words` words (rounded up to whole vectors),
    /// new ones zero.
    pub fn resize(&mut self, words: usize) {
        self.0.resize(words.div_ceil(8), Vector::default());
    }
}

impl std::ops::Deref for AlignedWords {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        // SAFETY: a `Vector` is eight `u64`s and nothing else (`repr(C)`,
        // 64 bytes, its alignment, so no padding), and a `Vec`'s elements
        // are contiguous: its buffer holds `8 * len` initialized words,
        // aligned for `u64`, borrowed as long as `self`.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<u64>(), 8 * self.0.len()) }
    }
}

impl std::ops::DerefMut for AlignedWords {
    fn deref_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `deref`, borrowed mutably as long as `self`.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr().cast::<u64>(), 8 * self.0.len()) }
    }
}

/// How many options `live` and `row` share, and (when `FIRST`) the first
/// of them, `usize::MAX` when none, in the build `L` (2: AVX-512, 1: AVX2),
/// which `rows` must be; both rows are whole vectors of eight words.
#[inline(always)]
pub(crate) fn count_in<const L: u8, const FIRST: bool>(rows: Rows, live: &[u64], row: &[u64]) -> (u32, usize) {
    match rows {
        Rows::Avx512(cpu) if L == 2 => count_avx512::<FIRST>(cpu, live, row),
        Rows::Avx2(cpu) if L == 1 => count_avx2::<FIRST>(cpu, live, row),
        _ => unreachable!("a walk compiled for another build"),
    }
}

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

/// [`count_in`] with AVX-512: eight words per population count.
#[inline(always)]
fn count_avx512<const FIRST: bool>(_cpu: Avx512Popcount, live: &[u64], row: &[u64]) -> (u32, usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        assert!(live.len() == row.len() && live.len().is_multiple_of(8));
        let vecs = live.len() / 8;
        let (l, r) = (live.as_ptr(), row.as_ptr());
        // SAFETY: the token proves AVX-512 F and VPOPCNTDQ (the function is
        // inlined into a walk compiled with them); every load reads
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
                // Without `FIRST` the masks are dead code the compiler drops.
                if FIRST && first == usize::MAX && nonzero != 0 {
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

/// [`count_in`] with AVX2: each byte's bits counted by looking its two
/// halves up in a 16-entry table, the bytes summed by `vpsadbw`.
#[inline(always)]
fn count_avx2<const FIRST: bool>(_cpu: X86V3, live: &[u64], row: &[u64]) -> (u32, usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        assert!(live.len() == row.len() && live.len().is_multiple_of(8));
        let vecs = live.len() / 4;
        let (l, r) = (live.as_ptr(), row.as_ptr());
        // SAFETY: the token proves AVX2 (the function is inlined into a walk
        // compiled with it); every load reads four words at
        // `4 * v < live.len() == row.len()`.
        unsafe {
            let halves = _mm256_set1_epi8(0x0f);
            #[rustfmt::skip]
            let table = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
            );
            let zero = _mm256_setzero_si256();
            let mut counts = zero;
            let mut first = usize::MAX;
            // Sixteen vectors at a time: a byte then holds at most 128, and
            // each vector adds four bits to a mask of the words that share
            // an option.
            let mut group = 0;
            while group < vecs {
                let end = (group + 16).min(vecs);
                let (mut bytes, mut nonzero) = (zero, 0u64);
                for v in group..end {
                    let both = _mm256_and_si256(
                        _mm256_loadu_si256(l.add(4 * v).cast()),
                        _mm256_loadu_si256(r.add(4 * v).cast()),
                    );
                    let low = _mm256_shuffle_epi8(table, _mm256_and_si256(both, halves));
                    let high = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(both, 4), halves));
                    bytes = _mm256_add_epi8(bytes, _mm256_add_epi8(low, high));
                    let empty = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(both, zero))) as u64;
                    nonzero |= (!empty & 0xf) << (4 * (v - group));
                }
                counts = _mm256_add_epi64(counts, _mm256_sad_epu8(bytes, zero));
                // Without `FIRST` the masks are dead code the compiler drops.
                if FIRST && first == usize::MAX && nonzero != 0 {
                    let k = 4 * group + nonzero.trailing_zeros() as usize;
                    first = k * 64 + (live[k] & row[k]).trailing_zeros() as usize;
                }
                group = end;
            }
            let lanes: [u64; 4] = std::mem::transmute(counts);
            // At most 64 per word, and at most 2^16 options in all.
            (lanes.iter().sum::<u64>() as u32, first)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // No token is ever made here.
        let _ = (live, row);
        unreachable!("an x86-64-v3 token on another architecture")
    }
}

#[cfg(test)]
mod tests {
    use super::AlignedWords;

    /// Rows start on a 64-byte boundary however they are made or grown, hold
    /// whole vectors of zeros, and keep their words when they grow.
    #[test]
    fn aligned_words_start_on_a_vector_boundary() {
        let mut words = AlignedWords::zeroed(13);
        assert_eq!(words.len(), 16);
        assert!(words.iter().all(|&w| w == 0));
        for (k, w) in words.iter_mut().enumerate() {
            *w = k as u64 + 1;
        }
        for grown in [24, 1000, 4096] {
            words.resize(grown);
            assert_eq!(words.as_ptr() as usize % 64, 0, "{grown} words");
            assert_eq!(words.len(), grown);
            assert_eq!(words[..16], (1..=16).collect::<Vec<u64>>()[..]);
            assert!(words[16..].iter().all(|&w| w == 0));
        }
        assert_eq!(AlignedWords::zeroed(1).as_ptr() as usize % 64, 0);
        assert_eq!(AlignedWords::zeroed(0).len(), 0);
    }
}
