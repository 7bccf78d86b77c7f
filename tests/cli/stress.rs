//! `backtrack judge --gen COMMAND --reference COMMAND -- PROGRAM`: stress
//! tests on a problem of the test's own (the sum of N numbers), with a
//! program wrong only when 42 is among them.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::judge::{running, spawned, spawner, wait_with_timeout};
use crate::util::backtrack;

/// N from 5 to 9, then N numbers below 100, from the seed given as `$1`.
const GEN: &str = "awk -v s=\"$1\" 'BEGIN { srand(s); n = 5 + int(rand() * 5); print n; \
    for (i = 1; i <= n; i++) printf \"%d%s\", int(rand() * 100), (i < n ? \" \" : \"\\n\") }'\n";
const SUM: &str = "NR == 2 { s = 0; for (i = 1; i <= NF; i++) s += $i; print s }\n";
/// Forgets every 42.
const BUGGY: &str = "NR == 2 { s = 0; for (i = 1; i <= NF; i++) if ($i != 42) s += $i; print s }\n";
/// One line holding N >= 1, then a line of N tokens.
const VALID: &str = "NR == 1 { n = $1; if (NF != 1 || n < 1) bad = 1 } NR == 2 { if (NF != n) bad = 1 } \
    END { exit (bad || NR != 2) }\n";

fn fixtures() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("gen.sh", GEN), ("sum.awk", SUM), ("buggy.awk", BUGGY), ("valid.awk", VALID)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn stress(dir: &Path, args: &[&str], program: &[&str]) -> Output {
    let mut cmd = backtrack();
    cmd.current_dir(dir).arg("judge").args(args).arg("--").args(program);
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const BASE: [&str; 4] = ["--gen", "sh gen.sh {seed}", "--reference", "awk -f sum.awk"];

#[test]
fn a_planted_bug_shrinks_to_two_lines_that_reproduce_it_and_save_in_oj_layout() {
    let dir = fixtures();
    let args = [&BASE[..], &["--validator", "awk -f valid.awk", "--save", "saved"]].concat();
    let out = stress(dir.path(), &args, &["awk", "-f", "buggy.awk"]);
    let stdout = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("\nstress: WA on seed "), "{stdout}");
    let input = stdout.split("input:\n").nth(1).unwrap().split("expected").next().unwrap();
    assert_eq!(input, "  1\n  42\n", "{stdout}");
    assert!(stdout.contains("expected (the reference's output):\n  42\nreceived:\n  0\n"), "{stdout}");
    assert_eq!(std::fs::read_to_string(dir.path().join("saved/failing.in")).unwrap(), "1\n42\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("saved/failing.out")).unwrap(), "42\n");
    // The reproduce line, run by the shell, gives the wrong output shown.
    let line = stdout.lines().find_map(|l| l.strip_prefix("reproduce: ")).unwrap();
    assert_eq!(line, "printf '1\\n42\\n' | awk -f buggy.awk");
    let again = Command::new("sh").arg("-c").arg(line).current_dir(dir.path()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), "0\n");
}

#[test]
fn without_a_validator_the_bug_still_shrinks_to_one_number() {
    let dir = fixtures();
    let out = stress(dir.path(), &BASE, &["awk", "-f", "buggy.awk"]);
    let stdout = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let input = stdout.split("input:\n").nth(1).unwrap().split("expected").next().unwrap();
    let tokens: Vec<&str> = input.split_whitespace().collect();
    assert!(tokens.len() <= 2 && tokens.last() == Some(&"42"), "{stdout}");
}

#[test]
fn a_correct_program_passes_every_seed_and_a_checker_can_judge() {
    let dir = fixtures();
    let out = stress(dir.path(), &[&BASE[..], &["--cases", "20"]].concat(), &["awk", "-f", "sum.awk"]);
    let stdout = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("AC  seed ")).count(), 20, "{stdout}");
    assert!(stdout.contains("stress: AC (20 of 20 seeds accepted"), "{stdout}");
    // A checker that accepts any output within 1000 of the answer: the bug goes unseen.
    std::fs::write(dir.path().join("near.sh"), "a=$(cat \"$3\"); b=$(cat \"$2\"); [ $((a - b)) -lt 1000 ]\n").unwrap();
    let lenient = [&BASE[..], &["--cases", "30", "--checker", "sh near.sh"]].concat();
    let out = stress(dir.path(), &lenient, &["awk", "-f", "buggy.awk"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // One that wants the exact sum finds it, and says so.
    std::fs::write(dir.path().join("exact.sh"), "cmp -s \"$2\" \"$3\" || { echo sums differ; exit 1; }\n").unwrap();
    let strict = [&BASE[..], &["--checker", "sh exact.sh"]].concat();
    let out = stress(dir.path(), &strict, &["awk", "-f", "buggy.awk"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("the checker rejects it (exit status 1): sums differ"), "{}", text(&out));
}

#[test]
fn a_failing_generator_or_reference_and_bad_flags_are_usage_errors() {
    let dir = fixtures();
    let cases: [(&[&str], &[&str], &str); 5] = [
        (
            &["--gen", "echo oops >&2; exit 3", "--reference", "cat"],
            &["cat"],
            "the generator failed on seed 1: RE exit status 3",
        ),
        (
            &["--gen", "echo 1", "--reference", "awk '{ exit 1 }'"],
            &["cat"],
            "the reference failed on seed 1: RE exit status 1",
        ),
        (&["--reference", "cat"], &["cat"], "--reference needs --gen COMMAND"),
        (&["9663", "--gen", "echo 1", "--reference", "cat"], &["cat"], "takes no problem number"),
        (
            &["--gen", "echo 1", "--reference", "cat", "--validator", "false"],
            &["cat"],
            "the validator rejects the input of seed 1",
        ),
    ];
    for (args, program, message) in cases {
        let out = stress(dir.path(), args, program);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let out = stress(dir.path(), &["--gen", "echo 1", "--reference", "cat"], &["./no-such-program"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn ctrl_c_exits_130_and_leaves_no_program_running() {
    let dir = fixtures();
    let script = spawner(dir.path());
    let mut judge = Command::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .current_dir(dir.path())
        .args(["judge", "--gen", "echo 1", "--reference", "cat", "--time-limit", "100", "--"])
        .arg(&script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pids = spawned(dir.path());
    // SAFETY: kill only sends a signal to the judge started above.
    unsafe { libc::kill(judge.id() as libc::pid_t, libc::SIGINT) };
    let status = wait_with_timeout(&mut judge, 10.0);
    assert_eq!(status.code(), Some(130));
    assert!(crate::judge::wait_for(2.0, || pids.iter().all(|p| !running(p))), "{pids:?} still run");
}
