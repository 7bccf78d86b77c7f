//! `backtrack choose`: what each kind and flag prints, checked against a
//! naive generator written here, and how bad arguments are reported.

use std::collections::BTreeSet;
use std::io::Write;

use proptest::prelude::*;

use super::util::{backtrack, lines};

fn choose(args: &[&str]) -> std::process::Output {
    backtrack().arg("choose").args(args).output().unwrap()
}

/// The output of a run that found something, or (exit status 1) printed a count of 0.
fn ok(args: &[&str]) -> String {
    let out = choose(args);
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = if text == "0\n" { 1 } else { 0 };
    assert_eq!(out.status.code(), Some(expected), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn kinds_and_flags() {
    assert_eq!(ok(&["perm", "3", "2"]), lines(&["1 2", "1 3", "2 1", "2 3", "3 1", "3 2"]));
    assert_eq!(ok(&["comb", "4", "3"]), lines(&["1 2 3", "1 2 4", "1 3 4", "2 3 4"]));
    assert_eq!(ok(&["perm", "2", "2", "--repeat"]), lines(&["1 1", "1 2", "2 1", "2 2"]));
    assert_eq!(ok(&["comb", "3", "2", "-r"]), lines(&["1 1", "1 2", "1 3", "2 2", "2 3", "3 3"]));
    assert_eq!(ok(&["permutations", "2", "2"]), lines(&["1 2", "2 1"]));
    assert_eq!(
        ok(&["perm", "2", "--values", "9", "7", "9", "1"]),
        lines(&["1 7", "1 9", "7 1", "7 9", "9 1", "9 7", "9 9"])
    );
    assert_eq!(ok(&["comb", "2", "--values", "9,7,9,1"]), lines(&["1 7", "1 9", "7 9", "9 9"]));
    assert_eq!(ok(&["comb", "2", "--values", "9,7,9,1", "--distinct"]), lines(&["1 7", "1 9", "7 9"]));
    assert_eq!(ok(&["comb", "4", "2", "--values", "9,7,9,1"]), lines(&["1 7", "1 9", "7 9", "9 9"]));
    assert_eq!(ok(&["perm", "1", "--values", "10", "-2", "9", "100"]), lines(&["-2", "9", "10", "100"]));
    assert_eq!(ok(&["perm", "3", "2", "--separator", ","]), lines(&["1,2", "1,3", "2,1", "2,3", "3,1", "3,2"]));
    assert_eq!(ok(&["perm", "12", "12", "--count"]), "479001600\n");
    assert_eq!(ok(&["comb", "2", "--values", "9,7,9,1", "--count"]), "4\n");
    assert_eq!(ok(&["perm", "3", "0"]), "\n", "one empty sequence");
    assert_eq!(ok(&["perm", "20", "20", "--repeat", "--count"]), format!("{}\n", 20u128.pow(20)));
}

#[test]
fn values_from_a_file_or_standard_input() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "9 7\n9\n  1").unwrap();
    let path = file.path().to_str().unwrap();
    assert_eq!(ok(&["comb", "3", "--values-from", path]), lines(&["1 7 9", "1 9 9", "7 9 9"]));
    let out = backtrack().args(["choose", "comb", "3", "--values-from", "-"]).write_stdin("3 2 1\n").output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1 2 3\n");
}

#[test]
fn bad_arguments() {
    let fails = |args: &[&str], code: i32, words: &str| {
        let out = choose(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(words), "{args:?}: expected `{words}` in {stderr}");
    };
    fails(&["perm", "3"], 2, "give N and M");
    fails(&["perm"], 2, "required");
    fails(&["shuffle", "3", "2"], 2, "invalid value");
    fails(&["perm", "3", "x"], 2, "invalid value");
    fails(&["perm", "5", "2", "--values", "1", "2"], 2, "N = 5 but 2 numbers");
    fails(&["perm", "2", "--values", "1", "x"], 2, "invalid value");
    fails(&["perm", "99999999999", "1"], 2, "too large");
    fails(&["perm", "3", "4"], 1, "no sequences");
    fails(&["perm", "40", "40", "--repeat", "--count"], 2, "2^128 or more");
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "1 2\n3 four").unwrap();
    let path = file.path().to_str().unwrap();
    fails(&["perm", "2", "--values-from", path], 2, "line 2, column 3: expected an integer, found `four`");
    fails(&["perm", "2", "--values-from", "/nonexistent/values.txt"], 3, "cannot read");
}

/// The expected lines, from every index tuple of the sorted pool.
fn naive(pool: &[i64], m: usize, sorted: bool, repeat: bool) -> String {
    let mut pool = pool.to_vec();
    pool.sort();
    let n = pool.len();
    let mut set = BTreeSet::new();
    let mut tuple = vec![0usize; m];
    loop {
        let distinct = tuple.iter().collect::<BTreeSet<_>>().len() == m;
        let order_ok = !sorted || tuple.windows(2).all(|w| if repeat { w[0] <= w[1] } else { w[0] < w[1] });
        if n > 0 && (repeat || distinct) && order_ok {
            set.insert(tuple.iter().map(|&i| pool[i]).collect::<Vec<_>>());
        }
        // Next tuple in base n; stop after the last.
        let mut k = m;
        loop {
            if k == 0 {
                return set
                    .iter()
                    .map(|s| s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ") + "\n")
                    .collect();
            }
            k -= 1;
            tuple[k] += 1;
            if tuple[k] < n {
                break;
            }
            tuple[k] = 0;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn matches_the_naive_generator(
        pool in prop::collection::vec(-5i64..20, 1..6),
        m in 1usize..4,
        sorted in any::<bool>(),
        repeat in any::<bool>(),
    ) {
        let values: Vec<String> = pool.iter().map(|v| v.to_string()).collect();
        let m_text = m.to_string();
        let joined = format!("--values={}", values.join(","));
        let mut args = vec![if sorted { "comb" } else { "perm" }, &m_text, &joined];
        if repeat {
            args.push("--repeat");
        }
        let expected = naive(&pool, m, sorted, repeat);
        let out = choose(&args);
        if expected.is_empty() {
            prop_assert_eq!(out.status.code(), Some(1));
        } else {
            prop_assert_eq!(String::from_utf8(out.stdout).unwrap(), expected.clone());
        }
        args.push("--count");
        prop_assert_eq!(ok(&args), format!("{}\n", expected.lines().count()));
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .args(["choose", "perm", "10", "10"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 21];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"1 2 3 4 5 6 7 8 9 10\n");
    // The reader is gone: the writer stops at its next write, with status 0 and no message.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
}
