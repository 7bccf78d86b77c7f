//! The bitwise building blocks of a lane step, once per processor level.
//!
//! A step of the lane walk is almost all bitwise logic on eight lanes, and
//! its speed is the number of vector operations it issues: the loop keeps
//! the processor's vector units full, and lane selections (`vpblendvb`)
//! issue at half the rate of plain logic. AVX-512 (with its VL extension
//! for 256-bit registers) computes any function of three inputs in one
//! `vpternlogd`, at the rate of a plain `or`; so the walk is written with
//! the three-input functions below, which [`X86V3`] builds from two AVX2
//! operations (or one selection) and [`Avx512`] issues as one instruction.
//! Every function is a plain bitwise formula of its inputs, so both levels
//! give the same bits (tested below).
//!
//! A `vpternlogd` takes its truth table as an 8-bit immediate: bit
//! `4a + 2b + c` of it is the result for input bits `a`, `b`, `c`. With
//! `A = 0xF0`, `B = 0xCC`, `C = 0xAA` (the columns of that table) the
//! immediate of a formula is the formula applied to `A`, `B` and `C`; each
//! constant below is written that way.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::*;

use crate::cpu::{Avx512, X86V3};

/// The truth-table columns of a `vpternlogd`'s three inputs.
const A: u8 = 0xF0;
const B: u8 = 0xCC;
const C: u8 = 0xAA;

/// Three-input bitwise functions on eight 32-bit lanes.
///
/// # Safety
/// Every function needs the features of the level it is implemented for:
/// the implementations are inlined into walks compiled for that level,
/// which only the level's token opens.
pub(super) trait Logic: Copy {
    /// Lanes of `b` where `mask` is set, of `a` elsewhere; every lane of
    /// `mask` is all ones or all zeros.
    unsafe fn select(a: __m256i, b: __m256i, mask: __m256i) -> __m256i;
    /// The bits of `a` where `m` is set, of `b` elsewhere.
    unsafe fn bit_select(m: __m256i, a: __m256i, b: __m256i) -> __m256i;
    /// `a | b | c`.
    unsafe fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `a & b & c`.
    unsafe fn and3(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `!(a | b)`.
    unsafe fn nor(a: __m256i, b: __m256i) -> __m256i;
    /// `!(a | b) & c`.
    unsafe fn nor_and(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `!a & (b | c)`.
    unsafe fn andnot_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `(a & b) | c`.
    unsafe fn and_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `(!a & b) | c`.
    unsafe fn andnot_then_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `c & !(a & b)`.
    unsafe fn clear_both(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
    /// `a & !(b & !c)`: `a`, less where `b` is set and `c` is not.
    unsafe fn clear_unless(a: __m256i, b: __m256i, c: __m256i) -> __m256i;
}

/// AVX2: two operations per function, a byte selection for `select`.
impl Logic for X86V3 {
    #[inline(always)]
    unsafe fn select(a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: AVX2, by the trait's contract (so for every function of
        // this impl).
        unsafe { _mm256_blendv_epi8(a, b, mask) }
    }
    #[inline(always)]
    unsafe fn bit_select(m: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_or_si256(_mm256_and_si256(m, a), _mm256_andnot_si256(m, b)) }
    }
    #[inline(always)]
    unsafe fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_or_si256(_mm256_or_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn and3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_and_si256(_mm256_and_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn nor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_andnot_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(-1)) }
    }
    #[inline(always)]
    unsafe fn nor_and(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_andnot_si256(_mm256_or_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn andnot_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_andnot_si256(a, _mm256_or_si256(b, c)) }
    }
    #[inline(always)]
    unsafe fn and_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_or_si256(_mm256_and_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn andnot_then_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_or_si256(_mm256_andnot_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn clear_both(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_andnot_si256(_mm256_and_si256(a, b), c) }
    }
    #[inline(always)]
    unsafe fn clear_unless(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { _mm256_andnot_si256(_mm256_andnot_si256(c, b), a) }
    }
}

/// `vpternlogd` with the truth table `imm` (see the module notes).
macro_rules! ternary {
    ($a:expr, $b:expr, $c:expr, $imm:expr) => {{
        const IMM: i32 = $imm as i32;
        _mm256_ternarylogic_epi32::<IMM>($a, $b, $c)
    }};
}

/// AVX-512 VL: one `vpternlogd` per function.
impl Logic for Avx512 {
    #[inline(always)]
    unsafe fn select(a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: AVX-512 F and VL, by the trait's contract (so for every
        // function of this impl).
        unsafe { ternary!(mask, b, a, (A & B) | (!A & C)) }
    }
    #[inline(always)]
    unsafe fn bit_select(m: __m256i, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(m, a, b, (A & B) | (!A & C)) }
    }
    #[inline(always)]
    unsafe fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, A | B | C) }
    }
    #[inline(always)]
    unsafe fn and3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, A & B & C) }
    }
    #[inline(always)]
    unsafe fn nor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, b, !(A | B)) }
    }
    #[inline(always)]
    unsafe fn nor_and(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, !(A | B) & C) }
    }
    #[inline(always)]
    unsafe fn andnot_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, !A & (B | C)) }
    }
    #[inline(always)]
    unsafe fn and_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, (A & B) | C) }
    }
    #[inline(always)]
    unsafe fn andnot_then_or(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, (!A & B) | C) }
    }
    #[inline(always)]
    unsafe fn clear_both(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, C & !(A & B)) }
    }
    #[inline(always)]
    unsafe fn clear_unless(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: as for `select`.
        unsafe { ternary!(a, b, c, A & !(B & !C)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function of both levels on random words (and on masks for
    /// `select`), against the formula on `u32`s.
    #[test]
    fn both_levels_compute_the_formulas() {
        let Some(v3) = X86V3::new() else {
            eprintln!("skipped: no AVX2 here");
            return;
        };
        let wide = Avx512::new();
        if wide.is_none() {
            eprintln!("skipped for AVX-512: this processor lacks AVX-512 F/BW/VL");
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut word = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u32
        };
        for _ in 0..1000 {
            let (a, b, c) = (word(), word(), word());
            let mask = if word() & 1 == 0 { 0 } else { u32::MAX };
            let expected = [
                if mask != 0 { b } else { a },
                (a & b) | (!a & c),
                a | b | c,
                a & b & c,
                !(a | b),
                !(a | b) & c,
                !a & (b | c),
                (a & b) | c,
                (!a & b) | c,
                c & !(a & b),
                a & !(b & !c),
            ];
            // SAFETY: the tokens prove the features of each level.
            unsafe {
                assert_eq!(apply_v3(v3, a, b, c, mask), expected, "AVX2, {a:#x} {b:#x} {c:#x}");
                if let Some(wide) = wide {
                    assert_eq!(apply_avx512(wide, a, b, c, mask), expected, "AVX-512, {a:#x} {b:#x} {c:#x}");
                }
            }
        }
    }

    /// [`apply`] on AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2, as the token promises.
    #[target_feature(enable = "avx2")]
    unsafe fn apply_v3(_cpu: X86V3, a: u32, b: u32, c: u32, mask: u32) -> [u32; 11] {
        // SAFETY: the features of the level are enabled here.
        unsafe { apply::<X86V3>(a, b, c, mask) }
    }

    /// [`apply`] on AVX-512.
    ///
    /// # Safety
    /// The processor must have AVX-512 F and VL and AVX2, as the token promises.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    unsafe fn apply_avx512(_cpu: Avx512, a: u32, b: u32, c: u32, mask: u32) -> [u32; 11] {
        // SAFETY: the features of the level are enabled here.
        unsafe { apply::<Avx512>(a, b, c, mask) }
    }

    /// Every function of level `L` on words broadcast to all lanes (lane 0
    /// read back; the lanes are independent).
    ///
    /// # Safety
    /// The processor must have the features of `L`.
    #[inline(always)]
    unsafe fn apply<L: Logic>(a: u32, b: u32, c: u32, mask: u32) -> [u32; 11] {
        // SAFETY: by the contract.
        unsafe {
            let (x, y, z, m) = (
                _mm256_set1_epi32(a as i32),
                _mm256_set1_epi32(b as i32),
                _mm256_set1_epi32(c as i32),
                _mm256_set1_epi32(mask as i32),
            );
            let lane = |v: __m256i| _mm256_extract_epi32::<0>(v) as u32;
            [
                lane(L::select(x, y, m)),
                lane(L::bit_select(x, y, z)),
                lane(L::or3(x, y, z)),
                lane(L::and3(x, y, z)),
                lane(L::nor(x, y)),
                lane(L::nor_and(x, y, z)),
                lane(L::andnot_or(x, y, z)),
                lane(L::and_or(x, y, z)),
                lane(L::andnot_then_or(x, y, z)),
                lane(L::clear_both(x, y, z)),
                lane(L::clear_unless(x, y, z)),
            ]
        }
    }
}
