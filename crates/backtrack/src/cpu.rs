//! Processor features, as values that prove them.
//!
//! The fast paths of the kernels are compiled for processor features the
//! baseline x86-64 target does not promise (AVX2, BMI1, BMI2, POPCNT,
//! LZCNT). Running one on a processor without them is undefined behaviour,
//! so a fast path never asks "may I?" itself: it takes a token, a
//! zero-sized value that can only be had where the features are present.
//!
//! * [`X86V3`] stands for the x86-64-v3 level, as far as the kernels use it:
//!   AVX2, BMI1, BMI2, POPCNT and LZCNT. Its safe constructor
//!   [`X86V3::new`] checks every one of them (once per process); the only
//!   other way to get one is the `unsafe` [`X86V3::new_unchecked`], whose
//!   caller promises the same. Every `#[target_feature]` function of the
//!   crate enables a subset of these features and is reached only through
//!   a token.
//! * [`Portable`] is the level every processor has.
//! * [`Cpu`] is implemented by both, so a kernel written once as generic
//!   over `C: Cpu` is compiled once per level, each copy with its own
//!   instructions and no run-time test in its loops
//!   ([`Cpu::x86_v3`] is a constant in each copy).
//!
//! A higher level (an AVX-512 build, say) is a third token: its constructor
//! checks its own features *and* those of [`X86V3`], it implements [`Cpu`]
//! with `x86_v3` returning the [`X86V3`] it includes, and [`Cpu`] grows a
//! method for it that returns `None` on the lower levels.

use std::fmt;

/// A processor level a kernel can be compiled for: [`Portable`] or
/// [`X86V3`]. Sealed: a level is a promise about the processor, so only
/// this module makes them.
pub trait Cpu: Copy + Send + Sync + fmt::Debug + sealed::Sealed {
    /// The x86-64-v3 token, when this level includes those features.
    fn x86_v3(self) -> Option<X86V3>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Portable {}
    impl Sealed for super::X86V3 {}
}

/// The baseline: whatever the target promises, nothing more.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Cpu for Portable {
    #[inline(always)]
    fn x86_v3(self) -> Option<X86V3> {
        None
    }
}

/// Proof that the processor has AVX2, BMI1, BMI2, POPCNT and LZCNT.
#[derive(Clone, Copy, Debug)]
pub struct X86V3 {
    _proof: (),
}

impl Cpu for X86V3 {
    #[inline(always)]
    fn x86_v3(self) -> Option<X86V3> {
        Some(self)
    }
}

/// The features [`X86V3`] checks, as `#[target_feature]` spells them.
/// Attributes cannot name a constant, so each fast path repeats (a subset
/// of) this list; `every_fast_path_is_covered_by_the_token` keeps them honest.
pub const X86V3_FEATURES: &str = "avx2,bmi1,bmi2,popcnt,lzcnt";

impl X86V3 {
    /// The token, when this processor has every feature of the level.
    /// The check runs once per process; later calls read one flag.
    #[inline]
    pub fn new() -> Option<X86V3> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            // 0: not known yet, 1: absent, 2: present.
            static KNOWN: AtomicU8 = AtomicU8::new(0);
            let present = match KNOWN.load(Ordering::Relaxed) {
                0 => {
                    let present = is_x86_feature_detected!("avx2")
                        && is_x86_feature_detected!("bmi1")
                        && is_x86_feature_detected!("bmi2")
                        && is_x86_feature_detected!("popcnt")
                        && is_x86_feature_detected!("lzcnt");
                    KNOWN.store(1 + u8::from(present), Ordering::Relaxed);
                    present
                }
                known => known == 2,
            };
            // SAFETY: every feature of the level was just detected.
            present.then(|| unsafe { X86V3::new_unchecked() })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The token, unchecked.
    ///
    /// # Safety
    /// The processor running the program must have AVX2, BMI1, BMI2, POPCNT
    /// and LZCNT: the fast paths the token opens are compiled for them.
    #[inline(always)]
    pub unsafe fn new_unchecked() -> X86V3 {
        X86V3 { _proof: () }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fast_path_is_covered_by_the_token() {
        let checked: Vec<&str> = X86V3_FEATURES.split(',').collect();
        let sources = [
            include_str!("sudoku/kernel9.rs"),
            include_str!("queens/kernel.rs"),
            include_str!("queens/lanes.rs"),
            include_str!("xcover/small.rs"),
        ];
        let mut seen = 0;
        for source in sources {
            for line in source.lines() {
                let Some(rest) = line.trim().strip_prefix("#[target_feature(enable = \"") else { continue };
                let list = rest.split('"').next().unwrap_or_default();
                for feature in list.split(',') {
                    assert!(checked.contains(&feature), "`{feature}` is enabled but not checked by X86V3::new");
                }
                seen += 1;
            }
        }
        assert!(seen >= 4, "found {seen} fast paths");
    }

    #[test]
    fn the_token_agrees_with_detection() {
        #[cfg(target_arch = "x86_64")]
        {
            let all = X86V3_FEATURES.split(',').all(|f| match f {
                "avx2" => is_x86_feature_detected!("avx2"),
                "bmi1" => is_x86_feature_detected!("bmi1"),
                "bmi2" => is_x86_feature_detected!("bmi2"),
                "popcnt" => is_x86_feature_detected!("popcnt"),
                "lzcnt" => is_x86_feature_detected!("lzcnt"),
                _ => false,
            });
            assert_eq!(X86V3::new().is_some(), all);
        }
        assert!(Portable.x86_v3().is_none());
    }
}
