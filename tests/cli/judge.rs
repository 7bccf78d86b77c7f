//! `backtrack judge`, end to end: small programs written here, correct and
//! deliberately broken (C compiled with `cc` into a temporary directory, or
//! shell scripts), get the verdicts a judge would give, and the failing
//! case they are shown is the smallest that fails.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::util::backtrack;

const QUEENS: &str = r#"
#include <stdio.h>
int n, count, col[16], up[32], down[32];
void place(int r) {
    if (r == n) { count++; return; }
    for (int c = 0; c < n; c++)
        if (!col[c] && !up[r + c] && !DOWN_TAKEN) {
            col[c] = up[r + c] = down[r - c + n] = 1;
            place(r + 1);
            col[c] = up[r + c] = down[r - c + n] = 0;
        }
}
int main(void) { if (scanf("%d", &n) != 1) return 1; CRASH place(0); printf("%d\n", count); return 0; }
"#;

const LOTTO_NO_BLANK_LINE: &str = r#"
#include <stdio.h>
int k, s[13], pick[6];
void choose(int from, int depth) {
    if (depth == 6) {
        for (int i = 0; i < 6; i++) printf(i ? " %d" : "%d", pick[i]);
        printf("\n");
        return;
    }
    for (int i = from; i < k; i++) { pick[depth] = s[i]; choose(i + 1, depth + 1); }
}
int main(void) {
    while (scanf("%d", &k) == 1 && k != 0) {
        for (int i = 0; i < k; i++) scanf("%d", &s[i]);
        choose(0, 0);
    }
    return 0;
}
"#;

/// Row-major backtracking that tries 1, 2, 3... in each blank: right, and slow on boards built against it.
const NAIVE_SUDOKU: &str = r#"
#include <stdio.h>
int g[81];
int fits(int p, int d) {
    int r = p / 9, c = p % 9;
    for (int i = 0; i < 9; i++) if (g[r * 9 + i] == d || g[i * 9 + c] == d) return 0;
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) if (g[(r / 3 * 3 + i) * 9 + c / 3 * 3 + j] == d) return 0;
    return 1;
}
int fill(int p) {
    if (p == 81) return 1;
    if (g[p]) return fill(p + 1);
    for (int d = 1; d <= 9; d++) if (fits(p, d)) { g[p] = d; if (fill(p + 1)) return 1; g[p] = 0; }
    return 0;
}
int main(void) {
    for (int i = 0; i < 81; i++) if (scanf("%d", &g[i]) != 1) return 1;
    fill(0);
    for (int i = 0; i < 81; i++) printf(i % 9 == 8 ? "%d\n" : "%d ", g[i]);
    return 0;
}
"#;

const HOG: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n, counts[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
    size_t size = (size_t)MIB << 20;
    volatile char *p = malloc(size);
    if (!p || scanf("%d", &n) != 1) return 1;
    for (size_t i = 0; i < size; i += 4096) p[i] = 1;
    printf("%d\n", counts[n] + p[size - 4096] - 1);
    return 0;
}
"#;

/// Compiles `source` (with `-D` definitions) into `dir` as `name`.
pub(super) fn compile(dir: &Path, name: &str, source: &str, defines: &[&str]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(name);
    let status = std::process::Command::new("cc")
        .arg("-O2")
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .expect("a C compiler `cc`");
    assert!(status.success(), "cc {name}");
    exe
}

fn judge(args: &[&str], program: &[&str]) -> Output {
    let mut cmd = backtrack();
    cmd.arg("judge").args(args).arg("--").args(program);
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `--json` object of the last line.
fn json(out: &Output) -> serde_json::Value {
    let stdout = text(out);
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn backtrack_bin() -> String {
    assert_cmd::cargo::cargo_bin("backtrack").display().to_string()
}

#[test]
fn a_missing_diagonal_fails_on_the_smallest_n_that_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let good = compile(dir.path(), "queens", QUEENS, &["DOWN_TAKEN=down[r-c+n]", "CRASH="]);
    let bad = compile(dir.path(), "queens_one_diagonal", QUEENS, &["DOWN_TAKEN=0", "CRASH="]);

    let out = judge(&["9663", "--cases", "3", "--json"], &[good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "AC");
    assert!(report["failing"].is_null());

    // One diagonal unchecked: 2 queens on a 2x2 board count 1 placement instead of 0.
    let out = judge(&["9663", "--cases", "3", "--json", "--time-limit", "1"], &[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["problem"], 9663);
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["failing"]["input"], "2\n");
    assert_eq!(report["failing"]["expected"], "0\n");
    assert_eq!(report["failing"]["got"], "1\n");
    let stdout = text(&out);
    assert!(stdout.contains(&format!("reproduce: printf '2\\n' | {}", bad.display())), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("{\"problem\":9663,\"verdict\":\"WA\",\"cases\":"), "{last}");
}

#[test]
fn a_lotto_program_without_blank_lines_fails_on_two_sets() {
    let dir = tempfile::tempdir().unwrap();
    let bad = compile(dir.path(), "lotto", LOTTO_NO_BLANK_LINE, &[]);
    let out = judge(&["6603", "--cases", "4", "--json"], &[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "WA");
    // Two sets and the closing 0; a single set passes, since a blank line at the end is ignored.
    let input = report["failing"]["input"].as_str().unwrap();
    assert_eq!(input.lines().count(), 3, "{input}");
    assert!(input.lines().take(2).all(|l| l.starts_with("7 ")), "{input}");
    assert!(text(&out).contains("- (blank line)"), "{}", text(&out));
}

#[test]
fn a_crash_on_one_is_a_runtime_error_on_one() {
    let dir = tempfile::tempdir().unwrap();
    let crash = compile(dir.path(), "crash", QUEENS, &["DOWN_TAKEN=down[r-c+n]", "CRASH=if(n==1)*(volatile int*)0=1;"]);
    let out = judge(&["9663", "--cases", "2", "--json"], &[crash.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "RE");
    assert_eq!(report["failing"]["input"], "1\n");
    assert!(text(&out).contains("RE  edge-n1"), "{}", text(&out));
}

#[test]
fn a_program_past_the_memory_limit_is_mle() {
    let dir = tempfile::tempdir().unwrap();
    let hog = compile(dir.path(), "hog", HOG, &["MIB=200"]);
    let out = judge(&["9663", "--cases", "0", "--json", "--jobs", "1"], &[hog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "MLE", "{}", text(&out));
    // The same program under a larger limit is accepted.
    let out = judge(&["9663", "--cases", "0", "--memory-limit", "400", "--jobs", "1"], &[hog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn naive_sudoku_passes_the_default_cases_and_times_out_under_hard() {
    let dir = tempfile::tempdir().unwrap();
    let naive = compile(dir.path(), "naive", NAIVE_SUDOKU, &[]);
    let out = judge(&["2580", "--cases", "3"], &[naive.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = judge(&["2580", "--cases", "0", "--hard", "--shrink-runs", "0", "--json"], &[naive.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "TLE");
    assert!(text(&out).contains("TLE hard-against-brute-force "), "{}", text(&out));
}

#[test]
fn output_without_end_is_ole() {
    let out = judge(&["9663", "--cases", "0", "--shrink-runs", "0", "--json"], &["yes", "92"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "OLE");
}

#[test]
fn the_solver_itself_passes_every_problem() {
    let bin = backtrack_bin();
    for id in backtrack::judge::ids() {
        let id = id.to_string();
        let out = judge(&[&id, "--cases", "2", "--json"], &[&bin, "boj", &id]);
        assert_eq!(out.status.code(), Some(0), "{id}: {}", text(&out));
        assert_eq!(json(&out)["verdict"], "AC");
    }
}

#[test]
fn sudoku_2580_takes_any_solution_and_2239_only_the_smallest() {
    let bin = backtrack_bin();
    // The smallest solution is one valid answer among many for 2580.
    let out = judge(&["2580", "--cases", "4"], &[&bin, "sudoku", "--lexmin", "--format", "spaced"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Any solution is not enough for 2239: the random boards with several solutions catch it.
    let out = judge(&["2239", "--cases", "10", "--json"], &[&bin, "sudoku", "--format", "grid"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "WA");
    // And the verdict says why: the answer is a solution, only not the smallest.
    assert!(text(&out).contains("a valid solution, but not the smallest: row "), "{}", text(&out));
}

#[test]
fn gen_prints_one_input_that_boj_reads() {
    for id in backtrack::judge::ids() {
        let id = id.to_string();
        let gen = |seed: &str| {
            let out = backtrack().args(["judge", &id, "--gen", "--seed", seed]).output().unwrap();
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap()
        };
        let input = gen("3");
        assert_eq!(input, gen("3"));
        backtrack().args(["boj", &id]).write_stdin(input).assert().success();
    }
}

#[test]
fn save_writes_pairs_that_boj_reproduces() {
    let dir = tempfile::tempdir().unwrap();
    backtrack().args(["judge", "15663", "--cases", "2", "--save"]).arg(dir.path()).assert().success();
    let mut pairs = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
            let input = std::fs::read_to_string(&path).unwrap();
            backtrack().args(["boj", "15663"]).write_stdin(input).assert().stdout(expected);
            pairs += 1;
        }
    }
    assert!(pairs >= 4, "{pairs}");
    assert!(dir.path().join("sample-1.in").exists());
}

#[test]
fn bad_usage_is_status_2() {
    let run = |args: &[&str]| backtrack().arg("judge").args(args).output().unwrap();
    assert_eq!(run(&["9663"]).status.code(), Some(2), "no program");
    assert_eq!(run(&["1000", "--", "true"]).status.code(), Some(2), "unknown problem");
    assert_eq!(run(&["9663", "--", "/nonexistent/program"]).status.code(), Some(2), "missing program");
    assert_eq!(run(&["9663", "--time-limit", "0", "--", "true"]).status.code(), Some(2), "zero time");
    assert_eq!(run(&["9663", "--jobs", "2000", "--", "true"]).status.code(), Some(2), "too many jobs");
}

/// Allocates and touches MIB mebibytes, then exits without output.
const MEMORY: &str = r#"
#include <stdlib.h>
int main(void) {
    size_t size = (size_t)MIB << 20;
    volatile char *p = malloc(size);
    if (!p) return 1;
    for (size_t i = 0; i < size; i += 4096) p[i] = 1;
    return p[size - 4096] - 1;
}
"#;

/// A script that starts `sleep 1000` in the background, writes its process
/// id and its own to `pids` in `dir`, then loops.
pub(crate) fn spawner(dir: &Path) -> PathBuf {
    let script = dir.join("spawner.sh");
    let pids = dir.join("pids");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsleep 1000 &\necho \"$! $$\" > {}.new\nmv {0}.new {0}\nwhile :; do :; done\n",
            pids.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    script
}

/// Waits up to `seconds` for `ready`, checking every 20 ms.
pub(crate) fn wait_for(seconds: f64, mut ready: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
    while std::time::Instant::now() < until {
        if ready() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    ready()
}

/// Whether process `pid` still runs (gone, or a zombie waiting to be reaped, is not running).
pub(crate) fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").split_whitespace().next();
        !matches!(state, Some("Z" | "X"))
    })
}

/// The processes the spawner wrote down, once it has.
pub(crate) fn spawned(dir: &Path) -> Vec<String> {
    let file = dir.join("pids");
    assert!(wait_for(20.0, || file.exists()), "the program never started");
    let pids: Vec<String> = std::fs::read_to_string(&file).unwrap().split_whitespace().map(String::from).collect();
    assert_eq!(pids.len(), 2, "{pids:?}");
    assert!(pids.iter().all(|p| running(p)), "{pids:?}");
    pids
}

fn judge_child(args: &[&str], program: &[&str]) -> std::process::Child {
    std::process::Command::new(backtrack_bin())
        .arg("judge")
        .args(args)
        .arg("--")
        .args(program)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

pub(crate) fn wait_with_timeout(child: &mut std::process::Child, seconds: f64) -> std::process::ExitStatus {
    let mut status = None;
    wait_for(seconds, || {
        status = child.try_wait().unwrap();
        status.is_some()
    });
    status.unwrap_or_else(|| {
        let _ = child.kill();
        panic!("the judge did not end within {seconds} s")
    })
}

#[test]
fn ctrl_c_and_sigterm_kill_the_programs_and_exit_130() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let script = spawner(dir.path());
        let mut judge = judge_child(&["9663", "--cases", "0", "--jobs", "1"], &[script.to_str().unwrap()]);
        let pids = spawned(dir.path());
        // SAFETY: kill only sends a signal to the judge started above.
        unsafe { libc::kill(judge.id() as libc::pid_t, signal) };
        let status = wait_with_timeout(&mut judge, 10.0);
        let mut stderr = String::new();
        std::io::Read::read_to_string(judge.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(130), "signal {signal}: {stderr}");
        assert!(stderr.contains("interrupted"), "{stderr}");
        assert!(wait_for(2.0, || pids.iter().all(|p| !running(p))), "signal {signal}: {pids:?} still run");
    }
}

#[test]
fn a_closed_standard_output_kills_the_programs() {
    let dir = tempfile::tempdir().unwrap();
    let script = spawner(dir.path());
    let mut judge = judge_child(&["9663", "--cases", "0", "--jobs", "1"], &[script.to_str().unwrap()]);
    let pids = spawned(dir.path());
    drop(judge.stdout.take());
    let status = wait_with_timeout(&mut judge, 10.0);
    let mut stderr = String::new();
    std::io::Read::read_to_string(judge.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(wait_for(2.0, || pids.iter().all(|p| !running(p))), "{pids:?} still run");
}

#[test]
fn the_first_verdicts_come_before_all_cases_are_made() {
    // A million cases: the first verdicts come at once, and memory does not grow with the count.
    let mut judge = judge_child(&["6603", "--cases", "1000000", "--jobs", "2"], &["false"]);
    let (send, receive) = std::sync::mpsc::channel();
    let stdout = judge.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
            if send.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let pid = judge.id();
    let peak = || -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).unwrap_or("0 kB");
        kib.trim().trim_end_matches("kB").trim().parse().unwrap_or(0)
    };
    let mut lines = Vec::new();
    for _ in 0..30 {
        match receive.recv_timeout(std::time::Duration::from_secs(15)) {
            Ok(line) => lines.push(line),
            Err(_) => {
                let _ = judge.kill();
                panic!("no verdict within 15 s; {} lines so far, peak {} KiB", lines.len(), peak());
            }
        }
    }
    let kib = peak();
    // SAFETY: kill only sends a signal to the judge started above.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGINT) };
    let status = wait_with_timeout(&mut judge, 10.0);
    assert_eq!(status.code(), Some(130));
    assert!(lines[0].starts_with("RE  sample-1"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("RE  random-")), "{lines:?}");
    assert!(kib > 0 && kib < 64 << 10, "the judge holds {kib} KiB");
}

#[test]
fn the_report_stays_small_whatever_the_program_prints() {
    // One endless line of zero bytes.
    let out = judge(&["9663", "--cases", "0", "--shrink-runs", "0", "--json"], &["cat", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1));
    // The report, and a JSON line with the first 4 KiB of the output (each zero byte written `\u0000`).
    assert!(out.stdout.len() < 32 << 10, "{} bytes", out.stdout.len());
    assert!(!out.stdout.contains(&0), "a raw NUL byte");
    let stdout = text(&out);
    assert!(stdout.contains("received:\n  \\0\\0\\0"), "{stdout}");
    assert!(stdout.contains("more characters)") && stdout.contains("bytes received)"), "{stdout}");
    let report = json(&out);
    assert_eq!(report["verdict"], "OLE");
    assert!(report["failing"]["got_bytes"].as_u64().unwrap() > 1 << 20, "{report}");
    // Megabytes on standard error, terminal escapes, and many lines.
    let noisy = "head -c 3000000 /dev/zero >&2; echo >&2; seq 30 >&2; printf '\\033[31mred\\n' >&2; seq 100000";
    let out = judge(&["9663", "--cases", "0", "--shrink-runs", "0"], &["sh", "-c", noisy]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.len() < 8 << 10, "{} bytes", out.stdout.len());
    assert!(!out.stdout.contains(&0x1b) && !out.stdout.contains(&0), "raw control bytes");
    let stdout = text(&out);
    assert!(stdout.contains("standard error (end):\n  ... 22 lines before\n  22\n"), "{stdout}");
    assert!(stdout.contains("  30\n  \\x1b[31mred\nreproduce: "), "{stdout}");
    assert!(stdout.contains("  (the first 4096 of 588895 bytes received)\n"), "{stdout}");
    assert!(stdout.contains("  + ... 99996 more lines\n"), "{stdout}");
}

#[test]
fn a_whole_board_is_shown_and_one_more_line_is_singular() {
    // `cat` sends the board back, blanks and all: a wrong answer of nine lines.
    let out = judge(&["2580", "--cases", "0", "--shrink-runs", "0", "--jobs", "1"], &["cat"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out);
    let expected = stdout.split("expected (one valid answer):\n").nth(1).unwrap().split("received:").next().unwrap();
    assert_eq!(expected.lines().count(), 9, "{stdout}");
    assert!(!stdout.contains("more line"), "{stdout}");
}

#[test]
fn the_summary_and_the_verdicts_name_the_limits_used() {
    // Sleeping: stopped by the wall clock, with no CPU time to speak of.
    let out = judge(
        &["9663", "--cases", "0", "--time-limit", "0.2", "--memory-limit", "64", "--shrink-runs", "0", "--jobs", "5"],
        &["sleep", "60"],
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out);
    assert!(stdout.contains("limits 0.2 s, 64 MiB)"), "{stdout}");
    assert!(stdout.contains("TLE on edge-n1 (no smaller case fails the same way): stopped at 3."), "{stdout}");
    assert!(stdout.contains("of wall-clock time (limit 3 s) after 0.0"), "{stdout}");
    // Spinning: stopped by CPU time.
    let out = judge(
        &["9663", "--cases", "0", "--time-limit", "0.2", "--shrink-runs", "0"],
        &["sh", "-c", "while :; do :; done"],
    );
    let stdout = text(&out);
    assert!(stdout.contains("s of CPU time (limit 0.2 s)"), "{stdout}");
    assert!(stdout.contains("limits 0.2 s, 128 MiB)"), "{stdout}");
}

#[test]
fn peak_memory_is_exact_and_the_same_on_every_run() {
    // 15651 --hard holds answers of 11 MB while its programs run: a program
    // started from the judge would count that memory as its own.
    let dir = tempfile::tempdir().unwrap();
    let program = compile(dir.path(), "memory", MEMORY, &["MIB=40"]);
    let program = program.to_str().unwrap();
    let lines = |out: &Output| -> Vec<String> {
        text(out).lines().filter(|l| l.contains("MiB") && !l.starts_with("15651:")).map(String::from).collect()
    };
    for _ in 0..2 {
        let out = judge(&["15651", "--cases", "0", "--hard", "--shrink-runs", "0", "--memory-limit", "48"], &[program]);
        let cases = lines(&out);
        // The four edge cases (the hard one is the largest edge case again).
        assert_eq!(cases.len(), 4, "{}", text(&out));
        for line in &cases {
            // Nothing printed: a wrong answer, at 40 MiB and the little a C program needs besides.
            let mib: f64 = line.split(" MiB").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
            assert!(line.starts_with("WA ") && (40.0..42.5).contains(&mib), "{line}");
        }
        let out = judge(&["15651", "--cases", "0", "--hard", "--shrink-runs", "0", "--memory-limit", "38"], &[program]);
        assert!(lines(&out).iter().all(|l| l.starts_with("MLE ")), "{}", text(&out));
    }
}

#[test]
fn cases_n_gives_n_distinct_random_cases_or_says_why_not() {
    let random_files = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("random-") && n.ends_with(".in"))
            .collect();
        names.sort();
        names
    };
    for (id, cases, made) in [("9663", "1", 1), ("15649", "10", 10), ("6603", "25", 25)] {
        let dir = tempfile::tempdir().unwrap();
        let out = backtrack().args(["judge", id, "--cases", cases, "--save"]).arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(!text(&out).contains("note:"), "{}", text(&out));
        let names = random_files(dir.path());
        assert_eq!(names.len(), made, "{id} --cases {cases}: {names:?}");
        let inputs: std::collections::BTreeSet<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        assert_eq!(inputs.len() * 2, std::fs::read_dir(dir.path()).unwrap().count(), "{id}: an input came twice");
    }
    // N-Queen has 14 inputs; the sample and the edge cases take 5 of them.
    let dir = tempfile::tempdir().unwrap();
    let out = backtrack().args(["judge", "9663", "--save"]).arg(dir.path()).output().unwrap();
    let stdout = text(&out);
    assert!(
        stdout.starts_with("note: problem 9663 has only 14 distinct inputs, and the samples and edge cases take 5 of them: 9 random cases, not 10\n"),
        "{stdout}"
    );
    // Judging, the note comes before the summary.
    let out = judge(&["9663", "--json"], &[&backtrack_bin(), "boj", "9663"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out).contains("not 10\n9663: AC (14 of 14 cases accepted"), "{}", text(&out));
    assert_eq!(random_files(dir.path()).len(), 9);
}

#[test]
fn bad_flags_and_programs_are_usage_errors() {
    let run = |args: &[&str]| backtrack().arg("judge").args(args).output().unwrap();
    for args in [
        &["9663", "--shrink-time", "inf", "--", "true"][..],
        &["9663", "--shrink-time=-1", "--", "true"],
        &["9663", "--shrink-time", "NaN", "--", "true"],
        &["9663", "--time-limit", "inf", "--", "true"],
        &["9663", "--", "/"],
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && stderr.lines().count() == 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Not a flag for people: without the judge's descriptor it refuses.
    assert_eq!(run(&["0", "--launch", "--", "true"]).status.code(), Some(2));
}
