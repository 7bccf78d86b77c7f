//! What the end-to-end tests share: the command builder, running it on some
//! input, and the check every command's refusals must pass.

use std::process::Output;

use assert_cmd::Command;

/// The `backtrack` binary that cargo built for these tests.
pub fn backtrack() -> Command {
    Command::cargo_bin("backtrack").expect("the backtrack binary is built")
}

/// Runs `backtrack ARGS` with `stdin` and returns everything it did.
pub fn output(args: &[&str], stdin: &str) -> Output {
    backtrack().args(args).write_stdin(stdin).output().expect("the binary runs")
}

/// Runs `backtrack ARGS` with `stdin`; returns (exit status, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = output(args, stdin);
    (
        out.status.code().expect("exited normally, not by a signal"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Each of `list` followed by a newline, as a command prints lines.
pub fn lines(list: &[&str]) -> String {
    list.iter().map(|l| format!("{l}\n")).collect()
}

/// Asserts that `backtrack ARGS` refuses `stdin` as bad input: exit status 2,
/// nothing on stdout, and one line on stderr that contains `place` (where the
/// input went wrong) and no panic.
pub fn assert_rejected(args: &[&str], stdin: &str, place: &str) {
    let out = output(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} {stdin:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} {stdin:?} wrote to stdout");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?} {stdin:?}: {stderr}");
    assert!(stderr.contains(place), "{args:?} {stdin:?}: expected `{place}` in {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
