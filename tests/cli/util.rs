//! What the end-to-end tests share: the command builder, running it on some
//! input, and the check every command's refusals must pass.

use std::process::Output;

use assert_cmd::Command;

/// The `backtrack` binary that cargo built for these tests.
/// Its messages are in English whatever the locale of the test run: no
/// locale variable reaches it (the Korean tests set their own).
pub fn backtrack() -> Command {
    let mut cmd = Command::cargo_bin("backtrack").expect("the backtrack binary is built");
    cmd.env_remove("LC_ALL").env_remove("LC_MESSAGES").env_remove("LANG");
    cmd
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

/// Runs `backtrack ARGS` with no input and returns its exit status, its
/// standard error and its peak resident memory in bytes, which the kernel
/// keeps for the child exactly (`ru_maxrss` from `wait4`).
#[cfg(unix)]
#[allow(clippy::zombie_processes)] // waited for by `wait4`, which std cannot do
pub fn peak_rss(args: &[&str]) -> (i32, String, u64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stderr = String::new();
    child.stderr.take().expect("piped").read_to_string(&mut stderr).expect("stderr is UTF-8");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is this process's own unwaited child, and `status` and
    // `usage` are valid for writes for the whole call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(libc::WIFEXITED(status), "exited normally, not by a signal");
    // Linux gives ru_maxrss in KiB.
    (libc::WEXITSTATUS(status), stderr, usage.ru_maxrss as u64 * 1024)
}
