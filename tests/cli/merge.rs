//! `backtrack merge`: shard results add up, and incomplete or mixed sets are refused.

use std::path::{Path, PathBuf};

use super::util::backtrack;

/// Runs every shard `0..m` of N = `n` into `dir`, returning the files.
fn shard_files(dir: &Path, n: u32, m: u32) -> Vec<PathBuf> {
    (0..m)
        .map(|i| {
            let out = backtrack()
                .args(["queens", &n.to_string(), "--shard", &format!("{i}/{m}"), "--json"])
                .output()
                .unwrap();
            assert!(out.status.success());
            let path = dir.join(format!("n{n}-{i}of{m}.json"));
            std::fs::write(&path, out.stdout).unwrap();
            path
        })
        .collect()
}

fn merge(files: &[&PathBuf], extra: &[&str]) -> std::process::Output {
    backtrack().arg("merge").args(extra).args(files).output().unwrap()
}

fn assert_refused(files: &[&PathBuf], needle: &str) {
    let out = merge(files, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains(needle), "expected '{needle}' in: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_complete_set_merges_to_the_total_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 12, 4);
    let mut order: Vec<&PathBuf> = files.iter().collect();
    order.reverse();
    let out = merge(&order, &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "14200\n");
    let out = merge(&order, &["--unique"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1787\n");
    let out = merge(&order, &["--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 12);
    assert_eq!(v["solutions"], 14200);
    assert_eq!(v["unique"], 1787);
    assert_eq!(v["shards"], 4);
}

#[test]
fn a_single_shard_of_one_is_a_complete_set() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 8, 1);
    let out = merge(&[&files[0]], &[]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "92\n");
}

#[test]
fn missing_duplicate_and_mismatched_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let four = shard_files(dir.path(), 10, 4);
    let three = shard_files(dir.path(), 10, 3);
    let other_n = shard_files(dir.path(), 9, 4);

    assert_refused(&[&four[0], &four[1], &four[3]], "shard(s) 2 of 4 missing");
    assert_refused(&[&four[0], &four[1], &four[2], &four[3], &four[1]], "appears twice");
    assert_refused(&[&four[0], &four[1], &four[2], &other_n[3]], "board size N=9 does not match");
    assert_refused(&[&four[0], &four[1], &four[2], &three[2]], "shard count 3 does not match");

    // A result without --shard is not a shard.
    let whole = dir.path().join("whole.json");
    let out = backtrack().args(["queens", "10", "--json"]).output().unwrap();
    std::fs::write(&whole, out.stdout).unwrap();
    assert_refused(&[&whole], "not a shard result");

    // A different program version.
    let text = std::fs::read_to_string(&four[3]).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["plan_version"] = serde_json::json!(999);
    let old = dir.path().join("old.json");
    std::fs::write(&old, v.to_string()).unwrap();
    assert_refused(&[&four[0], &four[1], &four[2], &old], "plan v999");
}

#[test]
fn unreadable_or_malformed_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "{\"n\": 8, oops").unwrap();
    assert_refused(&[&garbage], "line 1, column");
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "").unwrap();
    assert_refused(&[&empty], "no shard report in it (merge reads what queens or xcover --shard I/M --json writes)");
    let bad_shard = dir.path().join("bad-shard.json");
    let files = shard_files(dir.path(), 8, 2);
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&files[0]).unwrap()).unwrap();
    v["shard"] = serde_json::json!({"index": 5, "count": 2});
    std::fs::write(&bad_shard, v.to_string()).unwrap();
    assert_refused(&[&bad_shard, &files[1]], "does not exist");

    let out = backtrack().args(["merge", "/nonexistent/shard.json"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let out = backtrack().arg("merge").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn reports_concatenated_on_standard_input_merge_alike() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 10, 3);
    let all: Vec<u8> = files.iter().flat_map(|f| std::fs::read(f).unwrap()).collect();
    let output = backtrack().arg("merge").write_stdin(all.clone()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "724\n");
    // Two reports in one file and one in another; and `-` among files.
    let two = dir.path().join("two.json");
    std::fs::write(&two, [std::fs::read(&files[0]).unwrap(), std::fs::read(&files[1]).unwrap()].concat()).unwrap();
    let output =
        backtrack().arg("merge").arg(&two).arg("-").write_stdin(std::fs::read(&files[2]).unwrap()).output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "724\n");
    // A repeated report among concatenated ones is refused.
    let repeated = [all.clone(), std::fs::read(&files[0]).unwrap()].concat();
    let output = backtrack().arg("merge").write_stdin(repeated).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("appears twice"));
}

#[test]
fn overflowing_sums_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let files = shard_files(dir.path(), 10, 3);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let start = text.find("\"solutions\":").unwrap() + "\"solutions\":".len();
    let end = start + text[start..].find(',').unwrap();
    let corrupt = format!("{}{}{}", &text[..start], u128::MAX, &text[end..]);
    std::fs::write(&files[0], corrupt).unwrap();
    let output = merge(&files.iter().collect::<Vec<_>>(), &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("2^128"), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn messages_speak_of_reports_not_of_the_decoder() {
    for (input, needle) in [
        ("[1, 2, 3]", "not a shard report: a report is a JSON object"),
        ("{\"n\": 8}", "the field \"solutions\" is missing"),
        ("{\"n\": \"eight\"}", "wrong kind"),
        ("not json", "not JSON"),
        ("{\"n\": 8, ", "ends in the middle"),
        ("", "no shard report in it"),
        (" \n\n", "no shard report in it"),
    ] {
        let output = backtrack().arg("merge").write_stdin(input).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(2), "{input:?}: {err}");
        assert!(err.contains(needle), "{input:?}: {err}");
        for internal in ["struct", "Report", "elements", "u128", "invalid type"] {
            assert!(!err.contains(internal), "{input:?}: {err}");
        }
        // Nothing in these says what they were meant to count: the message
        // names no kind of report (merge reads queens and xcover ones).
        if !input.contains("\"n\"") {
            assert!(!err.contains("queens shard") && !err.contains("xcover shard"), "{input:?}: {err}");
        }
    }
}

/// An empty file among exact-cover reports is refused in words about shard
/// reports of any kind, not as a queens report.
#[test]
fn an_empty_file_before_xcover_reports_names_no_kind() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let data = format!("{}/tests/data/xcover/toy-bounds.dlx", env!("CARGO_MANIFEST_DIR"));
    let out = backtrack().args(["xcover", "--shard", "0/1", "--json", &data]).output().unwrap();
    let shard = dir.path().join("s0.json");
    std::fs::write(&shard, &out.stdout).unwrap();
    for files in [[&empty, &shard], [&shard, &empty]] {
        let output = backtrack().arg("merge").args(files).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains("empty.json: no shard report in it (merge reads what queens or xcover"), "{err}");
    }
}
