//! `backtrack queens` and `backtrack boj 9663` end to end through the binary.

use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use super::util::{backtrack, checkpoint_done_ranges, interrupted_when, spawn};
use predicates::prelude::*;

/// OEIS A000170, N = 1..=14.
const TOTAL: [u64; 14] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596];
/// OEIS A002562, N = 1..=14.
const UNIQUE: [u64; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

/// The output of a run; its exit status must be 0, or 1 when it found nothing.
fn stdout_of(args: &[&str]) -> String {
    let out = backtrack().args(args).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = if text.is_empty() || text == "0\n" { 1 } else { 0 };
    assert_eq!(out.status.code(), Some(expected), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    text
}

/// Every solution by checking every permutation of the columns.
fn brute_force(n: usize) -> Vec<Vec<usize>> {
    fn rec(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cols.len() == n {
            let ok = (0..n).all(|i| (i + 1..n).all(|j| cols[i].abs_diff(cols[j]) != j - i));
            if ok {
                out.push(cols.clone());
            }
            return;
        }
        for c in 0..n {
            if !cols.contains(&c) {
                cols.push(c);
                rec(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, &mut Vec::new(), &mut out);
    out
}

#[test]
fn counts_match_oeis() {
    for n in 1..=13 {
        assert_eq!(stdout_of(&["queens", &n.to_string()]), format!("{}\n", TOTAL[n - 1]), "n={n}");
        assert_eq!(stdout_of(&["queens", &n.to_string(), "--unique"]), format!("{}\n", UNIQUE[n - 1]), "n={n}");
    }
}

#[test]
fn one_and_two_threads_agree() {
    for n in ["11", "13"] {
        assert_eq!(stdout_of(&["queens", n, "--threads", "1"]), stdout_of(&["queens", n, "--threads", "2"]));
    }
}

#[test]
fn all_lists_every_solution_in_lexicographic_order() {
    for n in 1..=8 {
        let mut expected = brute_force(n);
        expected.sort();
        let expected: String = expected
            .iter()
            .map(|s| s.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        assert_eq!(stdout_of(&["queens", &n.to_string(), "--all"]), expected, "n={n}");
    }
}

#[test]
fn all_on_several_threads_equals_one_thread() {
    let one = stdout_of(&["queens", "11", "--all", "--threads", "1"]);
    let two = stdout_of(&["queens", "11", "--all", "--threads", "2"]);
    assert_eq!(one.lines().count() as u64, TOTAL[10]);
    assert_eq!(one, two);
}

#[test]
fn all_stops_quietly_when_the_reader_goes_away() {
    let mut child = spawn(&["queens", "13", "--all"]);
    // Read one line, then close the pipe.
    let mut first = [0u8; 8];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(&first, b"1 3 5 2 ");
}

#[test]
fn json_reports_the_run() {
    let text = stdout_of(&["queens", "10", "--json", "--unique", "--threads", "2"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["n"], 10);
    assert_eq!(v["solutions"], 724);
    assert_eq!(v["unique"], 92);
    assert_eq!(v["threads"], 2);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["subproblems"].as_u64().unwrap() > 0);
    assert!(v.get("shard").is_none());
    let plain: serde_json::Value = serde_json::from_str(&stdout_of(&["queens", "10", "--json"])).unwrap();
    assert!(plain.get("unique").is_none());
}

#[test]
fn shards_add_up_to_the_total() {
    for m in [1, 3, 7] {
        let mut sum = 0u64;
        let mut covered = 0u64;
        for i in 0..m {
            let text = stdout_of(&["queens", "12", "--shard", &format!("{i}/{m}"), "--json"]);
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["shard"]["index"], i);
            assert_eq!(v["shard"]["count"], m);
            sum += v["solutions"].as_u64().unwrap();
            covered += v["subproblems"].as_u64().unwrap();
        }
        assert_eq!(sum, TOTAL[11], "m={m}");
        let plan: serde_json::Value = serde_json::from_str(&stdout_of(&["queens", "12", "--json"])).unwrap();
        assert_eq!(covered, plan["subproblems"].as_u64().unwrap());
    }
}

#[test]
fn boj_9663_sample_and_beyond_the_judge() {
    backtrack().args(["boj", "9663"]).write_stdin("8\n").assert().success().stdout("92\n");
    backtrack().args(["boj", "9663"]).write_stdin("  14").assert().success().stdout("365596\n");
    backtrack().args(["boj", "9663"]).write_stdin("\n1\n\n").assert().success().stdout("1\n");
    backtrack().args(["boj", "9663"]).write_stdin("2\n").assert().success().stdout("0\n");
}

/// Exit status 2, nothing on stdout, one line on stderr that contains `needle`.
fn assert_input_error(args: &[&str], stdin: &str, needle: &str) {
    let out = backtrack().args(args).write_stdin(stdin).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} {stdin:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} {stdin:?}");
    assert!(stderr.contains(needle), "{args:?} {stdin:?}: {stderr}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn boj_9663_bad_input_names_line_and_column() {
    let boj = ["boj", "9663"];
    assert_input_error(&boj, "", "found no input");
    assert_input_error(&boj, "  \n", "line 1");
    assert_input_error(&boj, "abc\n", "line 1, column 1");
    assert_input_error(&boj, "\n 8x\n", "line 2, column 3");
    assert_input_error(&boj, "0\n", "out of range");
    assert_input_error(&boj, "33\n", "line 1, column 1: board size 33 is out of range");
    assert_input_error(&boj, "-4\n", "out of range");
    assert_input_error(&boj, "99999999999999999999999\n", "out of range");
    assert_input_error(&boj, "8\n9\n", "line 2, column 1: unexpected '9'");
    assert_input_error(&boj, "8 9\n", "line 1, column 3");
    for case in ["", "x", "8 8"] {
        let out = backtrack().args(boj).write_stdin(case).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{case:?}");
    }
}

#[test]
fn bad_command_lines_are_refused() {
    for args in [
        &["queens", "0"][..],
        &["queens", "33"],
        &["queens", "eight"],
        &["queens"],
        &["queens", "8", "--threads", "1025"],
        &["queens", "8", "--shard", "2/2"],
        &["queens", "8", "--shard", "1"],
        &["queens", "8", "--shard", "a/b"],
        &["queens", "8", "--shard", "0/0"],
        &["queens", "8", "--all", "--unique"],
        &["queens", "8", "--all", "--checkpoint", "x"],
        &["queens", "8", "--mpi", "--shard", "0/2"],
        &["queens", "8", "--checkpoint-interval", "1"],
        &["queens", "8", "--gpu", "--all"],
        &["queens", "8", "--gpu", "--threads", "2"],
        &["queens", "8", "--gpu", "--mpi"],
    ] {
        let out = backtrack().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Where there is no GPU (these tests' machines), `--gpu` says so on one
/// line and exits with status 3, printing no count and writing no
/// checkpoint; where there is one, it counts as the CPU does.
#[test]
fn gpu_without_a_gpu_says_so_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("q.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    for (args, answer) in [
        (&["queens", "8", "--gpu"][..], "92\n"),
        (&["queens", "8", "--gpu", "--unique"], "12\n"),
        (&["queens", "10", "--gpu", "--json"], "\"solutions\":724,"),
        (&["queens", "10", "--gpu", "--shard", "1/3", "--json"], "\"shard\":\"1/3\""),
        (&["queens", "9", "--gpu", "--checkpoint", ckpt_arg], "352\n"),
    ] {
        let out = backtrack().args(args).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if out.status.code() == Some(0) {
            assert!(stdout.contains(answer), "{args:?}: {stdout}");
            continue;
        }
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(stderr.contains("no GPU found: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(!ckpt.exists(), "{args:?} wrote a checkpoint");
    }
}

/// A GPU setting that is not one is bad input (status 2, the variable
/// named), with or without a GPU, and nothing is counted.
#[test]
fn gpu_settings_that_are_not_numbers_or_sizes_are_refused() {
    for (name, value) in [
        ("BACKTRACK_GPU_BLOCK", "100"),
        ("BACKTRACK_GPU_BLOCK", "4096"),
        ("BACKTRACK_GPU_BATCH", "ten"),
        ("BACKTRACK_GPU_KERNEL", "/nonexistent/kernel.cu"),
        ("BACKTRACK_GPU_JOB_DEPTH", "deep"),
        ("BACKTRACK_GPU_JOB_DEPTH", "0"),
    ] {
        let out = backtrack().args(["queens", "8", "--gpu"]).env(name, value).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}={value}: {stderr}");
        assert!(stderr.contains(name), "{name}={value}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}={value}");
    }
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_get_it() {
    assert_input_error(&["queens", "8", "--mpi"], "", "--features mpi");
}

#[test]
fn checkpointed_run_killed_hard_resumes_to_the_right_total() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("q16.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    let args = ["queens", "16", "--threads", "1", "--quiet", "--checkpoint", ckpt_arg, "--checkpoint-interval", "0.05"];
    let mut child = spawn(&args);
    // Wait until some finished work is on disk, then kill -9.
    let started = Instant::now();
    let mut saved_some = false;
    while started.elapsed() < Duration::from_secs(120) {
        if checkpoint_done_ranges(&ckpt).is_some_and(|k| k > 0) {
            saved_some = true;
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no chance to save anything more
    let status = child.wait().unwrap();
    assert!(saved_some, "no checkpoint with finished work appeared (status {status:?})");
    // The file left behind is a complete, readable checkpoint.
    assert!(checkpoint_done_ranges(&ckpt).unwrap() > 0);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(leftovers.len() <= 2, "at most the checkpoint and one half-written temporary file");

    let resumed = stdout_of(&args);
    assert_eq!(resumed, "14772512\n");
    // A finished checkpoint answers at once, with the same total.
    assert_eq!(stdout_of(&args), "14772512\n");
}

#[test]
fn ctrl_c_saves_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("q.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    // N = 19 on one thread runs for minutes: the signal always comes first.
    let args = ["queens", "19", "--threads", "1", "--checkpoint", ckpt_arg, "--checkpoint-interval", "60"];
    // The first (empty) save comes after the handler is installed: from
    // then on the run is counting and Ctrl-C must stop it.
    let out = interrupted_when(&args, || ckpt.exists());
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("rerun the same command to resume"));
    // The save on the way out is a readable checkpoint of this run.
    assert!(checkpoint_done_ranges(&ckpt).is_some());
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    assert_eq!(saved["n"], 19);
}

#[test]
fn checkpoints_of_other_runs_or_corrupt_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c.ckpt");
    let c = ckpt.to_str().unwrap();
    assert_eq!(stdout_of(&["queens", "9", "--checkpoint", c]), "352\n");
    assert_input_error(&["queens", "10", "--checkpoint", c], "", "for N=9, not N=10");
    assert_input_error(&["queens", "9", "--checkpoint", c, "--shard", "0/2", "--json"], "", "shard 0/2");
    // The refused runs left the file as it was.
    assert_eq!(stdout_of(&["queens", "9", "--checkpoint", c]), "352\n");

    let shard = dir.path().join("s.ckpt");
    let s = shard.to_str().unwrap();
    stdout_of(&["queens", "9", "--checkpoint", s, "--shard", "1/2", "--json"]);
    assert_input_error(&["queens", "9", "--checkpoint", s], "", "the whole board");

    // Each names where reading stopped, columns counted from 1.
    for (name, text, place) in [
        ("garbage", "this is not json", "line 1, column 2"),
        ("empty", "", "line 1, column 1"),
        ("truncated", "{\"format\":\"backtrack-queens-checkpoint\",\"plan_version\":1,", "line 1, column 57"),
        ("other", "{\"n\": 9}", "line 1, column 8"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        assert_input_error(&["queens", "9", "--checkpoint", path.to_str().unwrap()], "", "checkpoint");
        assert_input_error(&["queens", "9", "--checkpoint", path.to_str().unwrap()], "", place);
    }
    // A well-formed file whose finished ranges run past the plan.
    let good = std::fs::read_to_string(&ckpt).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["done"] = serde_json::json!([[0, 999999]]);
    let bad = dir.path().join("bad-range");
    std::fs::write(&bad, v.to_string()).unwrap();
    assert_input_error(&["queens", "9", "--checkpoint", bad.to_str().unwrap()], "", "corrupt");
    // An unwritable location fails before any work, with exit status 3.
    let out = backtrack().args(["queens", "9", "--checkpoint", "/nonexistent-dir/x.ckpt"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert!(predicate::str::contains("cannot save").eval(&String::from_utf8_lossy(&out.stderr)));
}

#[test]
fn progress_carries_an_estimate_from_its_first_line() {
    // 23-queens: hours on any machine, and its first subproblems take
    // minutes; the first line drawn must already say how far and how long.
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .args(["queens", "23", "--progress", "--threads", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(60));
    child.kill().unwrap();
    child.wait().unwrap();
    let first = first.expect("a progress line");
    assert!(first.contains("% of the estimated work, about "), "{first}");
    // The time left, e.g. "about 54d 20h left": at least some minutes.
    let left = first.split("about ").nth(1).unwrap().split(" left").next().unwrap();
    assert!(left.ends_with('h') || left.ends_with('s') && left.contains('m'), "{first}");
    assert!(!left.starts_with("0"), "{first}");
    // Without --progress, and standard error not a terminal, nothing is drawn.
    let out = backtrack().args(["queens", "12"]).output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    backtrack().args(["queens", "8", "--progress", "--quiet"]).assert().code(2);
}
