//! How a test says it cannot run its subject here (a processor feature, a
//! browser, a reference program is missing): visibly, and as a failure where
//! the subject is expected to run.
//!
//! The test harness captures what tests print through `eprintln!`, and shows it
//! only for failures; a skip written that way passes unseen. The line is
//! written to the process's standard error itself, which the harness does not
//! capture, so it appears in every `cargo test` run.

use std::io::Write;

/// Whether this run is continuous integration (`CI=true`), which installs
/// every tool the tests use, so that a missing one is a failure.
#[allow(dead_code)]
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Says on the real standard error that `test` is skipped and why; panics
/// instead when the subject `must_run` here.
#[allow(dead_code)]
pub fn skip(test: &str, why: &str, must_run: bool) {
    if must_run {
        panic!("{test}: cannot run its subject here: {why}");
    }
    // Ignoring a failed write: a test's verdict must not depend on stderr.
    let _ = writeln!(std::io::stderr().lock(), "{test}: skipped: {why}");
}

/// Whether Linux's `/proc/cpuinfo` lists every flag of `flags` for the first
/// processor; `None` where the file cannot be read (another system). This is a
/// second opinion on the run-time detection, read by other means.
#[allow(dead_code)]
pub fn cpuinfo_has(flags: &[&str]) -> Option<bool> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|line| line.starts_with("flags"))?;
    let listed: Vec<&str> = line.split_whitespace().collect();
    Some(flags.iter().all(|flag| listed.contains(flag)))
}
