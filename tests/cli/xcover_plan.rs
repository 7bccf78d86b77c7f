//! `xcover --checkpoint`, `--shard` and `merge` of exact-cover reports: an
//! interrupted count resumes to the same total, shards add up to the plain
//! count, and checkpoints or shards of other inputs, missing shards and
//! corrupt files are refused.

use std::path::{Path, PathBuf};

use super::util::{backtrack, checkpoint_done_ranges, interrupted_when};

fn data(name: &str) -> String {
    format!("{}/tests/data/xcover/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `args`, expecting exit status `code`; returns standard output and error.
fn run(args: &[&str], code: i32) -> (String, String) {
    let out = backtrack().args(args).output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (stdout.into_owned(), stderr.into_owned())
}

#[test]
fn an_interrupted_count_resumes_to_the_same_total() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("p.ckpt");
    let file = data("pentomino-6x10.dlx");
    let args =
        ["xcover", "--threads", "1", "--checkpoint", ckpt.to_str().unwrap(), "--checkpoint-interval", "0.05", &file];
    // Interrupt once some finished work is on disk, partway through the count.
    let out = interrupted_when(&args, || checkpoint_done_ranges(&ckpt).is_some_and(|k| k > 0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(out.stdout.is_empty() && stderr.contains("rerun the same command to resume"), "{stderr}");
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&ckpt).unwrap()).unwrap();
    let partial = saved["solutions"].as_u64().unwrap();
    assert!(partial < 9356, "the interrupted run had not finished: {saved}");
    // Resumed, the count is the plain count (published: 9356); run again, it answers from the file.
    assert_eq!(run(&args, 0).0, "9356\n");
    let (again, summary) = run(&args, 0);
    assert_eq!(again, "9356\n");
    assert!(summary.contains("9356 solutions"), "{summary}");
}

#[test]
fn checkpoints_of_other_inputs_or_corrupt_ones_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("c.ckpt");
    let c = ckpt.to_str().unwrap();
    let (toy, queens) = (data("toy-colors.dlx"), data("queens-8.dlx"));
    assert_eq!(run(&["xcover", "--checkpoint", c, &queens], 0).0, "92\n");
    let (_, stderr) = run(&["xcover", "--checkpoint", c, &toy], 2);
    assert!(stderr.contains("it is for another input"), "{stderr}");
    let (_, stderr) = run(&["xcover", "--checkpoint", c, "--shard", "0/2", &queens], 2);
    assert!(stderr.contains("not shard 0/2"), "{stderr}");
    let (_, stderr) = run(&["xcover", "--checkpoint", c, "--engine", "links", &queens], 2);
    assert!(stderr.contains("differs from this run's"), "{stderr}");
    // The refused runs left the file as it was.
    assert_eq!(run(&["xcover", "--checkpoint", c, &queens], 0).0, "92\n");
    let text = std::fs::read_to_string(&ckpt).unwrap();
    for corrupt in [&text[..text.len() / 2], "garbage", &text.replace("\"done\":[[", "\"done\":[[9999999,")] {
        std::fs::write(&ckpt, corrupt).unwrap();
        let (_, stderr) = run(&["xcover", "--checkpoint", c, &queens], 2);
        assert!(stderr.starts_with("backtrack: checkpoint "), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // A cost search is not split.
    let (_, stderr) = run(&["xcover", "--checkpoint", c, "--min-cost", &queens], 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

/// Runs every shard `0..m` of `file` into `dir`, returning the report files.
fn shard_files(dir: &Path, file: &str, m: u32) -> Vec<PathBuf> {
    (0..m)
        .map(|i| {
            let (stdout, _) = run(&["xcover", "--shard", &format!("{i}/{m}"), "--json", file], 0);
            let path = dir.join(format!("{}-{i}of{m}.json", Path::new(file).file_stem().unwrap().to_string_lossy()));
            std::fs::write(&path, stdout).unwrap();
            path
        })
        .collect()
}

fn merge(files: &[&PathBuf], code: i32) -> (String, String) {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, code)
}

#[test]
fn shards_merge_to_the_plain_count_on_xcc_and_mcc_instances() {
    let dir = tempfile::tempdir().unwrap();
    for (name, plain) in [("langford-11.dlx", "35584\n"), ("two-per-line-5.dlx", "2040\n"), ("toy-bounds.dlx", "")] {
        let file = data(name);
        let plain = if plain.is_empty() { run(&["xcover", &file], 0).0 } else { plain.to_string() };
        assert_eq!(run(&["xcover", &file], 0).0, plain, "{name}");
        let files = shard_files(dir.path(), &file, 3);
        let all: Vec<&PathBuf> = files.iter().rev().collect();
        assert_eq!(merge(&all, 0).0, plain, "{name}");
    }
}

#[test]
fn mixed_incomplete_or_damaged_shard_sets_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let langford = shard_files(dir.path(), &data("langford-11.dlx"), 2);
    let queens = shard_files(dir.path(), &data("queens-8.dlx"), 2);
    let (_, stderr) = merge(&[&langford[0]], 2);
    assert!(stderr.contains("incomplete set: shard(s) 1 of 2 missing"), "{stderr}");
    let (_, stderr) = merge(&[&langford[0], &queens[1]], 2);
    assert!(stderr.contains("input hash") && stderr.contains("these shards are not one set"), "{stderr}");
    let (_, stderr) = merge(&[&langford[0], &langford[0]], 2);
    assert!(stderr.contains("appears twice"), "{stderr}");
    let text = std::fs::read_to_string(&langford[1]).unwrap();
    let damaged = dir.path().join("damaged.json");
    std::fs::write(&damaged, &text[..text.len() - 10]).unwrap();
    let (_, stderr) = merge(&[&langford[0], &damaged], 2);
    assert!(stderr.contains("ends in the middle of a report"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let huge = text.replace(&format!("\"solutions\":{}", v["solutions"]), &format!("\"solutions\":{}", u128::MAX));
    std::fs::write(&damaged, huge).unwrap();
    let (_, stderr) = merge(&[&langford[0], &damaged], 2);
    assert!(stderr.contains("corrupt set: the solution counts add up"), "{stderr}");
}

/// `--mpi` hands every subproblem out from rank 0: it cannot keep a
/// checkpoint, count one shard, list, stop at a limit or look for costs.
#[test]
fn mpi_refuses_what_a_planned_count_cannot_do() {
    let file = data("toy-bounds.dlx");
    for extra in [
        &["--checkpoint", "x.ckpt"][..],
        &["--shard", "0/2"],
        &["--all"],
        &["--limit", "2"],
        &["--stats"],
        &["--print-options"],
        &["--min-cost"],
        &["--best", "2"],
    ] {
        let args: Vec<&str> = ["xcover", "--mpi"].iter().chain(extra).chain([&file.as_str()]).copied().collect();
        let (stdout, stderr) = run(&args, 2);
        assert!(stdout.is_empty() && stderr.contains("cannot be used with"), "{args:?}: {stderr}");
    }
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_get_it() {
    let (stdout, stderr) = run(&["xcover", "--mpi", &data("toy-bounds.dlx")], 2);
    assert!(stdout.is_empty() && stderr.contains("--features mpi"), "{stderr}");
}
