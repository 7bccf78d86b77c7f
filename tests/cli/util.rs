//! What the end-to-end tests share: the command builder, running it on some
//! input, and the check every command's refusals must pass.

use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The `backtrack` binary that cargo built for these tests.
/// Its messages are in English whatever the locale of the test run: no
/// locale variable reaches it (the Korean tests set their own).
pub fn backtrack() -> Command {
    let mut cmd = Command::cargo_bin("backtrack").expect("the backtrack binary is built");
    cmd.env_remove("LC_ALL").env_remove("LC_MESSAGES").env_remove("LANG");
    cmd
}

/// Starts `backtrack ARGS` with its standard input, output and error piped.
pub fn spawn(args: &[&str]) -> Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Starts `backtrack ARGS`, waits (a minute at most) until `ready` holds
/// while it runs, sends it SIGINT as Ctrl-C does, and returns everything it
/// did. Fails if the run ends before `ready` holds.
pub fn interrupted_when(args: &[&str], ready: impl Fn() -> bool) -> Output {
    let mut child = spawn(args);
    let started = Instant::now();
    while !ready() {
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended before it was interrupted");
        assert!(started.elapsed() < Duration::from_secs(60), "{args:?}: not ready to interrupt after a minute");
        std::thread::sleep(Duration::from_millis(2));
    }
    let killed = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    child.wait_with_output().expect("the interrupted run is waited for")
}

/// The finished ranges a checkpoint file (of queens or xcover) lists, if it
/// is a readable checkpoint.
pub fn checkpoint_done_ranges(path: &Path) -> Option<usize> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    Some(v["done"].as_array()?.len())
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
