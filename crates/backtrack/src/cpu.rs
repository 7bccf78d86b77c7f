//! Processor features, as values that prove them.
//!
//! The fast paths of the kernels are compiled for processor features the
//! baseline x86-64 target does not promise (AVX2, BMI1, BMI2, POPCNT,
//! LZCNT, and for one build AVX-512). Running one on a processor without them is undefined behaviour,
//! so a fast path never asks "may I?" itself: it takes a token, a
//! zero-sized value that can only be had where the features are present.
//!
//! * [`X86V3`] stands for the x86-64-v3 level, as far as the kernels use it:
//!   AVX2, BMI1, BMI2, POPCNT and LZCNT. Its safe constructor
//!   [`X86V3::new`] checks every one of them (once per process); the only
//!   other way to get one is the `unsafe` [`X86V3::new_unchecked`], whose
//!   caller promises the same. Every `#[target_feature]` function of the
//!   crate enables a subset of these features (an AVX-512 path: of these
//!   and those of [`Avx512`]) and is reached only through a token.
//! * [`Avx512`] stands for AVX-512 Foundation, Byte/Word and Vector
//!   Length (F, BW, VL) on top of everything [`X86V3`] stands for. Its
//!   constructor [`Avx512::new`] checks all eight features; it includes an
//!   [`X86V3`] token, so code written for that level runs unchanged in an
//!   AVX-512 build.
//! * [`Avx512Popcount`] stands for AVX-512's population count of 64-bit
//!   lanes (VPOPCNTDQ) on top of everything [`Avx512`] stands for: the
//!   exact-cover walks that count options with popcounts (costs, counts)
//!   use it. It is a token for one fast
//!   path, not a level of the generic kernels.
//! * [`Portable`] is the level every processor has.
//! * [`Cpu`] is implemented by all three, so a kernel written once as
//!   generic over `C: Cpu` is compiled once per level, each copy with its
//!   own instructions and no run-time test in its loops ([`Cpu::x86_v3`]
//!   and [`Cpu::avx512`] are constants in each copy).

use std::fmt;
#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// `detect()`, run once per `known` flag (0: not known yet, 1: absent,
/// 2: present); later calls read the flag.
#[cfg(target_arch = "x86_64")]
#[inline]
fn detected_once(known: &AtomicU8, detect: impl FnOnce() -> bool) -> bool {
    match known.load(Ordering::Relaxed) {
        0 => {
            let present = detect();
            known.store(1 + u8::from(present), Ordering::Relaxed);
            present
        }
        known => known == 2,
    }
}

/// A processor level a kernel can be compiled for: [`Portable`], [`X86V3`]
/// or [`Avx512`]. Sealed: a level is a promise about the processor, so
/// only this module makes them.
pub trait Cpu: Copy + Send + Sync + fmt::Debug + sealed::Sealed {
    /// The x86-64-v3 token, when this level includes those features.
    fn x86_v3(self) -> Option<X86V3>;

    /// The AVX-512 token, when this level includes those features.
    #[inline(always)]
    fn avx512(self) -> Option<Avx512> {
        None
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Portable {}
    impl Sealed for super::X86V3 {}
    impl Sealed for super::Avx512 {}
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
            static KNOWN: AtomicU8 = AtomicU8::new(0);
            let present = detected_once(&KNOWN, || {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("bmi2")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("lzcnt")
            });
            // SAFETY: every feature of the level was detected.
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

/// Proof that the processor has AVX-512 F, BW and VL as well as every
/// feature of [`X86V3`].
#[derive(Clone, Copy, Debug)]
pub struct Avx512 {
    _proof: (),
}

impl Cpu for Avx512 {
    #[inline(always)]
    fn x86_v3(self) -> Option<X86V3> {
        // SAFETY: an `Avx512` token is only made where every feature of
        // `X86V3` was checked too (see `Avx512::new_unchecked`).
        Some(unsafe { X86V3::new_unchecked() })
    }

    #[inline(always)]
    fn avx512(self) -> Option<Avx512> {
        Some(self)
    }
}

/// The features [`Avx512`] checks beyond [`X86V3_FEATURES`], as
/// `#[target_feature]` spells them. A fast path compiled for the level
/// enables both lists; `every_fast_path_is_covered_by_the_token` checks them.
pub const AVX512_FEATURES: &str = "avx512f,avx512bw,avx512vl";

impl Avx512 {
    /// The token, when this processor has every feature of the level
    /// (AVX-512 F, BW, VL and those of [`X86V3`]). The check runs once per
    /// process; later calls read one flag.
    #[inline]
    pub fn new() -> Option<Avx512> {
        #[cfg(target_arch = "x86_64")]
        {
            static KNOWN: AtomicU8 = AtomicU8::new(0);
            let present = detected_once(&KNOWN, || {
                X86V3::new().is_some()
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vl")
            });
            // SAFETY: every feature of the level was detected.
            present.then(|| unsafe { Avx512::new_unchecked() })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The token, unchecked.
    ///
    /// # Safety
    /// The processor running the program must have AVX-512 F, BW and VL,
    /// and every feature [`X86V3::new_unchecked`] asks for: the fast paths
    /// the token opens are compiled for all of them.
    #[inline(always)]
    pub unsafe fn new_unchecked() -> Avx512 {
        Avx512 { _proof: () }
    }
}

/// Proof that the processor has AVX-512 VPOPCNTDQ (the population count
/// of eight 64-bit lanes at once) as well as every feature of [`Avx512`].
#[derive(Clone, Copy, Debug)]
pub struct Avx512Popcount {
    _proof: (),
}

/// The feature [`Avx512Popcount`] checks beyond [`X86V3_FEATURES`] and
/// [`AVX512_FEATURES`], as `#[target_feature]` spells it. Its fast path
/// enables all three lists; `every_fast_path_is_covered_by_the_token`
/// checks them.
pub const AVX512_POPCOUNT_FEATURES: &str = "avx512vpopcntdq";

impl Avx512Popcount {
    /// The token, when this processor has VPOPCNTDQ and every feature of
    /// [`Avx512`]. The check runs once per process; later calls read one flag.
    #[inline]
    pub fn new() -> Option<Avx512Popcount> {
        #[cfg(target_arch = "x86_64")]
        {
            static KNOWN: AtomicU8 = AtomicU8::new(0);
            let present =
                detected_once(&KNOWN, || Avx512::new().is_some() && is_x86_feature_detected!("avx512vpopcntdq"));
            // SAFETY: every feature of the level was detected.
            present.then(|| unsafe { Avx512Popcount::new_unchecked() })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }

    /// The token, unchecked.
    ///
    /// # Safety
    /// The processor running the program must have AVX-512 VPOPCNTDQ and
    /// every feature [`Avx512::new_unchecked`] asks for.
    #[inline(always)]
    pub unsafe fn new_unchecked() -> Avx512Popcount {
        Avx512Popcount { _proof: () }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Rust files under `dir`, at any depth.
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every list of features a `#[target_feature]` of the library enables,
    /// wherever it stands on its line (a macro's argument too), enables
    /// only features a token checks.
    #[test]
    fn every_fast_path_is_covered_by_the_token() {
        let checked: Vec<&str> = X86V3_FEATURES.split(',').collect();
        let wider: Vec<&str> = AVX512_FEATURES.split(',').collect();
        let popcount: Vec<&str> = AVX512_POPCOUNT_FEATURES.split(',').collect();
        let mut files = Vec::new();
        rust_files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        // Spelt in two pieces so that this line is not taken for one.
        let opening = ["target_feature(enable", " = \""].concat();
        let mut seen = 0;
        for file in &files {
            let source = std::fs::read_to_string(file).expect("a readable source file");
            for (number, line) in source.lines().enumerate() {
                for (at, _) in line.match_indices(opening.as_str()) {
                    let list = line[at + opening.len()..].split('"').next().unwrap_or_default();
                    // A list naming an AVX-512 feature belongs to an `Avx512`
                    // fast path, whose token checks both lists.
                    let avx512 = list.split(',').any(|feature| wider.contains(&feature));
                    // One naming VPOPCNTDQ, to an `Avx512Popcount` one,
                    // whose token checks all three.
                    let counts = list.split(',').any(|feature| popcount.contains(&feature));
                    for feature in list.split(',') {
                        assert!(
                            checked.contains(&feature)
                                || (avx512 && wider.contains(&feature))
                                || (avx512 && counts && popcount.contains(&feature)),
                            "{}:{}: `{feature}` is enabled but not checked by a token's `new`",
                            file.display(),
                            number + 1
                        );
                    }
                    seen += 1;
                }
            }
        }
        assert!(seen >= 14, "found {seen} fast paths in {} files", files.len());
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

    /// The tests compare each fast path with the portable code only where
    /// the processor has it; this says which levels this run leaves out.
    #[test]
    fn the_fast_paths_this_processor_cannot_run_are_named() {
        use crate::test_support::{cpuinfo_has, skip, under_ci};
        let v3 = ["avx2", "bmi1", "bmi2", "popcnt", "abm"];
        if X86V3::new().is_none() {
            let listed = cpuinfo_has(&v3) == Some(true);
            skip("the x86-64-v3 fast paths", "this processor lacks AVX2/BMI1/BMI2/POPCNT/LZCNT", under_ci() && listed);
        }
        if Avx512::new().is_none() {
            let listed =
                cpuinfo_has(&v3) == Some(true) && cpuinfo_has(&["avx512f", "avx512bw", "avx512vl"]) == Some(true);
            skip("the AVX-512 fast paths", "this processor lacks AVX-512 F/BW/VL", under_ci() && listed);
        }
        if Avx512Popcount::new().is_none() {
            let listed = Avx512::new().is_some() && cpuinfo_has(&["avx512_vpopcntdq"]) == Some(true);
            skip("the AVX-512 popcount fast path", "this processor lacks AVX-512 VPOPCNTDQ", under_ci() && listed);
        }
    }

    #[test]
    fn the_avx512_popcount_token_agrees_with_detection() {
        #[cfg(target_arch = "x86_64")]
        {
            let all = Avx512::new().is_some() && is_x86_feature_detected!("avx512vpopcntdq");
            assert_eq!(Avx512Popcount::new().is_some(), all);
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert!(Avx512Popcount::new().is_none());
    }

    #[test]
    fn the_avx512_token_agrees_with_detection_and_includes_x86_v3() {
        #[cfg(target_arch = "x86_64")]
        {
            let all = X86V3::new().is_some()
                && AVX512_FEATURES.split(',').all(|f| match f {
                    "avx512f" => is_x86_feature_detected!("avx512f"),
                    "avx512bw" => is_x86_feature_detected!("avx512bw"),
                    "avx512vl" => is_x86_feature_detected!("avx512vl"),
                    _ => false,
                });
            let token = Avx512::new();
            assert_eq!(token.is_some(), all);
            if let Some(cpu) = token {
                assert!(cpu.x86_v3().is_some() && cpu.avx512().is_some());
            } else {
                eprintln!("this processor lacks AVX-512 F/BW/VL: the AVX-512 token is rightly absent");
            }
        }
        assert!(Portable.avx512().is_none());
        if let Some(cpu) = X86V3::new() {
            assert!(cpu.avx512().is_none());
        }
    }
}
