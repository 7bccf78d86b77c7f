//! The vector helpers of the board: the claiming check, the givens sorted
//! by digit and the change detection, each with its portable version and
//! the builds for x86-64-v3 and AVX-512 processors (chosen by a [`Cpu`] token).

use crate::cpu::Cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::{Avx512, X86V3};

use super::tables::*;
use super::Cells;

/// [`Board::claims`], portable version.
#[inline(always)]
pub(super) fn claims_scalar(columns: &[u16; 48]) -> Option<u32> {
    let (mut digits, mut missing) = (0u32, 0u32);
    for d in 0..9 {
        let c = [0, 16, 32].map(|slot| u32::from(columns[slot + d]));
        missing |= 0x1ff ^ (c[0] | c[1] | c[2]);
        let mut lost = 0;
        for b in 0..3 {
            let confined = c[b] & !(c[(b + 1) % 3] | c[(b + 2) % 3]);
            lost |= CLAIMED_BOX_COLUMNS[confined as usize] & c[b];
        }
        digits |= u32::from(lost != 0) << d;
    }
    (missing == 0).then_some(digits)
}

/// [`Board::columns`] as three vectors, one band's nine digits each (a
/// 16-bit lane per digit), and their union.
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn column_vectors(
    columns: &[u16; 48],
) -> ([std::arch::x86_64::__m256i; 3], std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let p = columns.as_ptr() as *const __m256i;
    // SAFETY: 48 u16 are three 32-byte vectors, so the offsets and loads
    // stay inside `columns`; unaligned loads have no alignment requirement.
    let c = unsafe { [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)), _mm256_loadu_si256(p.add(2))] };
    (c, _mm256_or_si256(c[0], _mm256_or_si256(c[1], c[2])))
}

/// Per digit lane of [`column_vectors`]: the columns some band's box must
/// lose because another of its columns holds the digit nowhere else (zero
/// where claiming finds nothing for the digit).
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn lost_columns(c: &[std::arch::x86_64::__m256i; 3]) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let first_columns = _mm256_set1_epi16(0o111);
    let mut lost = _mm256_setzero_si256();
    for b in 0..3 {
        let confined = _mm256_andnot_si256(_mm256_or_si256(c[(b + 1) % 3], c[(b + 2) % 3]), c[b]);
        // Bit 3k: box k has a confined column; then all three of its columns.
        let boxes = _mm256_and_si256(
            _mm256_or_si256(
                confined,
                _mm256_or_si256(_mm256_srli_epi16::<1>(confined), _mm256_srli_epi16::<2>(confined)),
            ),
            first_columns,
        );
        let claimed =
            _mm256_or_si256(boxes, _mm256_or_si256(_mm256_slli_epi16::<1>(boxes), _mm256_slli_epi16::<2>(boxes)));
        lost = _mm256_or_si256(lost, _mm256_and_si256(_mm256_andnot_si256(confined, claimed), c[b]));
    }
    lost
}

/// [`Board::claims`] with the nine digits of a band in one AVX2 vector:
/// no table look-ups, a box's other columns come from shifts.
///
/// # Safety
/// The processor must support AVX2 and BMI2, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
#[inline]
pub(super) unsafe fn claims_avx2(_cpu: X86V3, columns: &[u16; 48]) -> Option<u32> {
    use std::arch::x86_64::*;
    // SAFETY: this function is compiled for AVX2, all `column_vectors` asks.
    let (c, all) = unsafe { column_vectors(columns) };
    // Two mask bits per 16-bit lane; digits are lanes 0..9.
    let full = _mm256_movemask_epi8(_mm256_cmpeq_epi16(all, _mm256_set1_epi16(0x1ff))) as u32;
    if full & 0x3ffff != 0x3ffff {
        return None;
    }
    // SAFETY: as for `column_vectors`.
    let lost = unsafe { lost_columns(&c) };
    let none = _mm256_movemask_epi8(_mm256_cmpeq_epi16(lost, _mm256_setzero_si256())) as u32;
    Some(_pext_u32(!none, 0x15555) & 0x1ff)
}

/// [`claims_avx2`] with AVX-512 mask registers: a 16-bit lane compare gives
/// one mask bit per lane, so the digits come out without a byte mask to
/// thin out. 256-bit vectors still (VL), as in the AVX2 build.
///
/// # Safety
/// The processor must support AVX2, AVX-512 F, BW and VL, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
pub(super) unsafe fn claims_avx512(_cpu: Avx512, columns: &[u16; 48]) -> Option<u32> {
    use std::arch::x86_64::*;
    // SAFETY: this function is compiled for AVX2, all `column_vectors` asks.
    let (c, all) = unsafe { column_vectors(columns) };
    // Bit d: digit d misses a column somewhere. Lanes 9..16 hold no digit
    // (always 0), so they are masked off.
    let short = _mm256_cmpneq_epi16_mask(all, _mm256_set1_epi16(0x1ff));
    if short & 0x1ff != 0 {
        return None;
    }
    // SAFETY: as for `column_vectors`.
    let lost = unsafe { lost_columns(&c) };
    // Bit d: lane d of `lost` is not zero (lanes 9..16 are always zero).
    Some(u32::from(_mm256_test_epi16_mask(lost, lost)) & 0x1ff)
}

/// Per band, the cells of `cells` that hold a digit (not blank).
#[inline(always)]
pub(super) fn non_blank(cells: &Cells) -> [u32; 3] {
    let filled = crate::sudoku::conflicts::non_blank_81(cells);
    [filled as u32 & BAND_ALL, (filled >> 27) as u32 & BAND_ALL, (filled >> 54) as u32 & BAND_ALL]
}

/// `given[3 * d + b]`: the cells of band `b` that hold digit `d + 1`.
/// `occupied` is [`non_blank`] of `cells`, whose values must be at most 9.
#[inline(always)]
pub(super) fn given_digit_bands<C: Cpu>(cpu: C, cells: &Cells, occupied: &[u32; 3]) -> [u32; 27] {
    let mut given = [0u32; 27];
    #[cfg(target_arch = "x86_64")]
    if let Some(v4) = cpu.avx512() {
        // SAFETY: the token proves the features the function is compiled for.
        return unsafe { given_digit_bands_avx512(v4, cells) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(_v3) = cpu.x86_v3() {
        use std::arch::x86_64::*;
        // Nine byte compares over three loads (the last one overlaps the
        // second) instead of a loop over the givens: no branch per given.
        // SAFETY: the token proves the processor has AVX2; the loads cover bytes 0..32, 32..64 and
        // 49..81 of the 81, and unaligned loads have no alignment requirement.
        unsafe {
            let p = cells.as_ptr();
            let low = _mm256_loadu_si256(p as *const __m256i);
            let middle = _mm256_loadu_si256(p.add(32) as *const __m256i);
            let high = _mm256_loadu_si256(p.add(49) as *const __m256i);
            for d in 0..9 {
                let digit = _mm256_set1_epi8(d as i8 + 1);
                let first = _mm256_movemask_epi8(_mm256_cmpeq_epi8(low, digit)) as u32 as u64
                    | (_mm256_movemask_epi8(_mm256_cmpeq_epi8(middle, digit)) as u32 as u64) << 32;
                // Cells 64..81 are bytes 15..32 of the last load.
                let last = (_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, digit)) as u32) >> 15;
                given[3 * d] = first as u32 & BAND_ALL;
                given[3 * d + 1] = (first >> 27) as u32 & BAND_ALL;
                given[3 * d + 2] = (first >> 54) as u32 | last << 10;
            }
        }
        return given;
    }
    for b in 0..3 {
        let mut rest = occupied[b];
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let d = cells[27 * b + bit] as usize - 1;
            given[3 * d + b] |= 1 << bit;
        }
    }
    given
}

/// [`given_digit_bands`] with AVX-512 byte compares into mask registers:
/// the last 17 cells come from a masked load (no overlap to shift away),
/// and each compare gives one bit per cell directly.
///
/// # Safety
/// The processor must support AVX2, AVX-512 F, BW and VL, as the token
/// promises; the values of `cells` must be at most 9.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
pub(super) unsafe fn given_digit_bands_avx512(_cpu: Avx512, cells: &Cells) -> [u32; 27] {
    use std::arch::x86_64::*;
    let mut given = [0u32; 27];
    let p = cells.as_ptr();
    // SAFETY: bytes 0..32 and 32..64 are inside the 81; the masked load
    // reads bytes 64..81 only (mask bits 0..17), and the bytes it masks off
    // are neither read nor able to fault; unaligned loads have no alignment
    // requirement; the processor has AVX-512 BW and VL (this function's
    // contract) for the masked load.
    let (low, middle, high) = unsafe {
        (
            _mm256_loadu_si256(p as *const __m256i),
            _mm256_loadu_si256(p.add(32) as *const __m256i),
            _mm256_maskz_loadu_epi8(0x1_ffff, p.add(64) as *const i8),
        )
    };
    for d in 0..9 {
        let digit = _mm256_set1_epi8(d as i8 + 1);
        let first =
            u64::from(_mm256_cmpeq_epi8_mask(low, digit)) | u64::from(_mm256_cmpeq_epi8_mask(middle, digit)) << 32;
        // Cells 64..81; the masked-off bytes are 0, never a digit.
        let last = _mm256_cmpeq_epi8_mask(high, digit);
        given[3 * d] = first as u32 & BAND_ALL;
        given[3 * d + 1] = (first >> 27) as u32 & BAND_ALL;
        given[3 * d + 2] = (first >> 54) as u32 | last << 10;
    }
    given
}

/// Bit `i` set where `bands[i] != seen[i]`, portable version.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
pub(super) fn changed_scalar(bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    let mut mask = 0;
    for i in 0..28 {
        mask |= ((bands[i] != seen[i]) as u32) << i;
    }
    mask
}

/// Bit `i` set where `bands[i] != seen[i]`: seven SSE2 compares (SSE2 is
/// part of every x86-64 processor).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn changed_sse2(bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps};
    let mut equal = 0u32;
    for k in 0..7 {
        // SAFETY: 4 * k + 3 < 28, so both loads stay inside the arrays;
        // unaligned loads have no alignment requirement.
        let lanes = unsafe {
            let a = _mm_loadu_si128(bands.as_ptr().add(4 * k) as *const __m128i);
            let b = _mm_loadu_si128(seen.as_ptr().add(4 * k) as *const __m128i);
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)))
        };
        equal |= (lanes as u32) << (4 * k);
    }
    !equal & 0x0fff_ffff
}

/// Bit `i` set where `bands[i] != seen[i]`: four AVX-512 compares (three
/// of eight lanes, one of four) straight into mask registers.
///
/// # Safety
/// The processor must support AVX-512 F and VL, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
pub(super) unsafe fn changed_avx512(_cpu: Avx512, bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    use std::arch::x86_64::*;
    let (a, b) = (bands.as_ptr(), seen.as_ptr());
    let mut mask = 0u32;
    for k in 0..3 {
        // SAFETY: 8 * k + 7 < 24, so both loads stay inside the arrays;
        // unaligned loads have no alignment requirement.
        let (x, y) = unsafe {
            (_mm256_loadu_si256(a.add(8 * k) as *const __m256i), _mm256_loadu_si256(b.add(8 * k) as *const __m256i))
        };
        mask |= u32::from(_mm256_cmpneq_epi32_mask(x, y)) << (8 * k);
    }
    // SAFETY: entries 24..28, the last four of both arrays.
    let (x, y) =
        unsafe { (_mm_loadu_si128(a.add(24) as *const __m128i), _mm_loadu_si128(b.add(24) as *const __m128i)) };
    mask | u32::from(_mm_cmpneq_epi32_mask(x, y)) << 24
}

#[inline(always)]
pub(super) fn changed<C: Cpu>(cpu: C, bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(v4) = cpu.avx512() {
            // SAFETY: the token proves AVX-512 F and VL.
            return unsafe { changed_avx512(v4, bands, seen) };
        }
        changed_sse2(bands, seen)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = cpu;
        changed_scalar(bands, seen)
    }
}
