//! Builds the library for the browser (`crates/backtrack-wasm`, target
//! `wasm32-unknown-unknown`) so that `backtrack web` can serve it from the
//! binary. Without that target the build goes on without the page: the
//! binary then says which command adds the target.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo"));
    for path in ["crates/backtrack/src", "crates/backtrack/Cargo.toml", "crates/backtrack-wasm", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=BACKTRACK_NO_WASM");
    // The CLI tests that take minutes without optimization skip themselves
    // under cfg(unoptimized), as the library's do (crates/backtrack/build.rs).
    println!("cargo::rustc-check-cfg=cfg(unoptimized)");
    if env::var("OPT_LEVEL").is_ok_and(|level| level == "0") {
        println!("cargo::rustc-cfg=unoptimized");
    }
    let sysroot = sysroot();
    // Adding or removing a target changes the toolchain's list of
    // installed components (rustup rewrites `lib/rustlib/components`;
    // without rustup, the `lib/rustlib` directory gains or loses the
    // target's directory): watched, so that the first build after
    // `rustup target add` builds the page instead of keeping the note that
    // the target is missing.
    if let Ok(rustlib) = sysroot.as_ref().map(|s| s.join("lib/rustlib")) {
        let components = rustlib.join("components");
        let watched = if components.is_file() { components } else { rustlib };
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    let wasm = out_dir.join("backtrack.wasm");
    let note = match build_wasm(&root, &out_dir, sysroot) {
        Ok(built) => {
            std::fs::copy(built, &wasm).expect("copy the WebAssembly module into OUT_DIR");
            String::new()
        }
        Err(why) => {
            println!("cargo:warning=backtrack web will not have its page: {why}; run `rustup target add {TARGET}`");
            std::fs::write(&wasm, b"").expect("write OUT_DIR");
            why
        }
    };
    println!("cargo:rustc-env=BACKTRACK_WASM_NOTE={note}");
}

/// The compiler's sysroot, or what went wrong asking for it.
fn sysroot() -> Result<PathBuf, String> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(&rustc).args(["--print", "sysroot"]).output().map_err(|e| format!("{rustc}: {e}"))?;
    Ok(PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim()))
}

/// Builds the WebAssembly module and returns its path, or says why not.
fn build_wasm(root: &Path, out_dir: &Path, sysroot: Result<PathBuf, String>) -> Result<PathBuf, String> {
    if env::var_os("BACKTRACK_NO_WASM").is_some() {
        return Err("BACKTRACK_NO_WASM is set".into());
    }
    let sysroot = sysroot?;
    if !sysroot.join("lib/rustlib").join(TARGET).is_dir() {
        return Err(format!("the {TARGET} target is not installed"));
    }
    // A target directory of its own: the outer build holds the lock on the
    // usual one. It sits beside the profile directories, shared by them.
    let target_dir = out_dir.ancestors().nth(4).unwrap_or(out_dir).join("web-wasm");
    let profile = page_profile();
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--profile", profile, "--quiet", "--target", TARGET, "-p", "backtrack-wasm"])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(root);
    // The outer build's settings for the host (a wrapper such as clippy's,
    // host flags, its target) are not for this build.
    for var in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_ENCODED_RUSTDOCFLAGS",
    ] {
        build.env_remove(var);
    }
    let output = build.output().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("building crates/backtrack-wasm failed: {}", tail.join(" | ")));
    }
    Ok(target_dir.join(TARGET).join(profile).join("backtrack_wasm.wasm"))
}

/// The profile the page is built in: `release` when the outer build is
/// optimized for speed (the binary users run), else `checked`. Lint runs, dev
/// builds and the tests then build the page in a fraction of the time, as one
/// artifact they share, with overflow checks on while the browser tests run it.
fn page_profile() -> &'static str {
    match env::var("OPT_LEVEL").as_deref() {
        Ok("2" | "3" | "s" | "z") => "release",
        _ => "checked",
    }
}
