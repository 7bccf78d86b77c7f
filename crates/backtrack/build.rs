//! Tells the tests whether this build is optimized: a few of them take
//! seconds when it is and minutes when it is not (opt-level 0), and those
//! skip themselves, saying so, under `cfg(unoptimized)`. Debug assertions
//! would be the wrong signal: the test profile `checked` has them on and
//! is optimized.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("OPT_LEVEL").is_ok_and(|level| level == "0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
}
