//! `backtrack xcover` end to end: counts of the bundled instances, output
//! formats, limits, threads, and located errors for malformed files.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use assert_cmd::Command;

use super::util::backtrack;

fn data(name: &str) -> String {
    format!("{}/tests/data/xcover/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn xcover(args: &[&str]) -> Command {
    let mut cmd = backtrack();
    cmd.arg("xcover").args(args);
    cmd
}

/// Runs with `args`, expects success, returns stdout.
fn stdout_of(args: &[&str]) -> String {
    let out = xcover(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn count(args: &[&str]) -> u64 {
    stdout_of(args).trim().parse().unwrap()
}

#[test]
fn small_instances_count_as_published() {
    for (name, expected) in [
        ("toy-colors.dlx", 1),
        ("queens-8.dlx", 92),
        ("queens-12.dlx", 14_200),
        ("langford-11.dlx", 35_584),
        ("sudoku-antibrute.dlx", 1),
    ] {
        assert_eq!(count(&[&data(name)]), expected, "{name}");
    }
    // Every engine and thread count, in-process: the library's xcover_engine tests.
    assert_eq!(count(&["--engine", "links", "--threads", "2", &data("queens-8.dlx")]), 92);
}

#[test]
#[cfg_attr(unoptimized, ignore = "seconds when optimized, minutes at opt-level 0")]
fn large_instances_count_as_published() {
    for (name, expected) in [
        ("queens-13.dlx", 73_712),
        ("langford-12.dlx", 216_288),
        ("pentomino-5x12.dlx", 4_040),
        ("pentomino-6x10.dlx", 9_356),
    ] {
        assert_eq!(count(&["--threads", "2", &data(name)]), expected, "{name}");
    }
}

#[test]
fn threads_agree_with_one_thread() {
    // One instance end to end; the rest in-process (xcover_engine).
    let name = data("queens-8.dlx");
    let one = stdout_of(&["--all", &name]);
    let two = stdout_of(&["--all", "--threads", "2", &name]);
    assert_eq!(one, two, "--all output");
    assert_eq!(count(&["--threads", "2", &name]), count(&[&name]), "count");
}

#[test]
fn toy_colors_prints_its_one_solution() {
    let out = stdout_of(&["--all", &data("toy-colors.dlx")]);
    let lines: BTreeSet<&str> = out.lines().collect();
    assert_eq!(lines, BTreeSet::from(["q x:A", "p r x:A y"]));
    assert_eq!(out.lines().count(), 2);
    assert!(out.ends_with('\n') && !out.ends_with("\n\n"));
}

#[test]
fn all_prints_blocks_separated_by_blank_lines() {
    // Dominoes on a 2x3 board: 3 tilings, each of 3 dominoes.
    let text = "| 2x3\na1 a2 a3 b1 b2 b3\na1 a2\na2 a3\nb1 b2\nb2 b3\na1   b1\na2 b2\na3 b3\n";
    let out = xcover(&["--all"]).write_stdin(text).output().unwrap();
    assert!(out.status.success());
    let out = String::from_utf8(out.stdout).unwrap();
    let blocks: Vec<&str> = out.trim_end().split("\n\n").collect();
    assert_eq!(blocks.len(), 3);
    let tilings: BTreeSet<BTreeSet<&str>> = blocks.iter().map(|b| b.lines().collect()).collect();
    let expected: BTreeSet<BTreeSet<&str>> =
        [vec!["a1   b1", "a2 b2", "a3 b3"], vec!["a1   b1", "a2 a3", "b2 b3"], vec!["a1 a2", "b1 b2", "a3 b3"]]
            .into_iter()
            .map(|v| v.into_iter().collect())
            .collect();
    assert_eq!(tilings, expected);
    // The limit caps the listing and the count.
    let limited = stdout_of(&["--all", "--limit", "2", &data("queens-8.dlx")]);
    assert_eq!(limited.trim_end().split("\n\n").count(), 2);
    // A count stopped by the limit is a lower bound, and says so.
    for threads in ["1", "2"] {
        let out = xcover(&["--limit", "5", "--threads", threads, &data("queens-8.dlx")]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "5+\n");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("xcover: at least 5 solutions (stopped at the limit), "), "{stderr}");
    }
    let limited = xcover(&["--all", "--limit", "2", &data("queens-8.dlx")]).output().unwrap();
    assert!(String::from_utf8_lossy(&limited.stderr).starts_with("xcover: at least 2 solutions (stopped"));
    assert_eq!(count(&["--limit", "500", &data("queens-8.dlx")]), 92);
}

#[test]
fn json_has_the_count() {
    let out = stdout_of(&["--json", &data("queens-8.dlx")]);
    assert_eq!(out.lines().count(), 1);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["solutions"], 92);
    assert_eq!(value["complete"], true);
    assert!(value["nodes"].as_u64().unwrap() > 92);
    let out = stdout_of(&["--json", "--all", &data("toy-colors.dlx")]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["solutions"], 1);
    assert_eq!(value["list"][0].as_array().unwrap().len(), 2);
    let out = stdout_of(&["--json", "--limit", "3", &data("queens-8.dlx")]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((value["solutions"].as_u64(), value["complete"].as_bool()), (Some(3), Some(false)));
}

#[test]
fn statistics_are_one_line_on_stderr() {
    let out = xcover(&[&data("queens-8.dlx")]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("92 solutions") && err.contains("nodes") && err.contains(" s"), "{err}");
}

#[test]
fn no_solution_counts_zero() {
    // Exit status 1: nothing found, as grep does.
    let out = xcover(&[]).write_stdin("a b\na\n").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0\n");
    let out = xcover(&["--all"]).write_stdin("a b\na\n").output().unwrap();
    assert!(out.status.code() == Some(1) && out.stdout.is_empty());
}

/// Every malformed input: exit 2, nothing on stdout, one stderr line naming the line and item.
#[test]
fn malformed_files_are_located() {
    let cases = [
        ("a b\na c\n", "line 2", "'c'"),
        ("a b a\n", "line 1", "'a'"),
        ("| x\na b\nb a b\n", "line 3", "'b'"),
        ("a | x\nx\n", "line 2", "no primary item"),
        ("a123456789 b\na\n", "line 1", "'a123456789'"),
        ("a b\nb a123456789\n", "line 2", "'a123456789'"),
        ("a | x\na:R x\n", "line 2", "'a'"),
        ("| only a comment\n", "line 2", "no item list"),
        ("", "line 1", "no item list"),
        ("a | x | y\n", "line 1", "second '|'"),
        ("a b\na b:\n", "line 2", "'b'"),
    ];
    for (text, line, item) in cases {
        let out = xcover(&[]).write_stdin(text).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        assert!(out.stdout.is_empty(), "{text:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{text:?}: {err}");
        assert!(err.contains(line) && err.contains(item), "{text:?}: {err}");
        assert!(err.contains("<stdin>"), "{err}");
    }
    let out = xcover(&["/no/such/file.dlx"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
}

/// A random small instance in Knuth's format, and its solutions by brute force
/// (each as the set of its option lines).
fn random_instance() -> impl Strategy<Value = (String, BTreeSet<BTreeSet<String>>, usize)> {
    let option = proptest::collection::btree_map(0usize..6, 0u8..3, 1..4);
    proptest::collection::vec(option, 1..10).prop_map(|options| {
        // Items 0..3 primary, 3..6 secondary; primary items never carry colors.
        let name = |i: usize| if i < 3 { format!("p{i}") } else { format!("s{i}") };
        let mut lines = Vec::new();
        for option in &options {
            let mut words: Vec<String> = option
                .iter()
                .map(|(&i, &c)| if i < 3 || c == 0 { name(i) } else { format!("{}:{c}", name(i)) })
                .collect();
            if !option.keys().any(|&i| i < 3) {
                words.push("p0".into());
            }
            lines.push(words);
        }
        let text = format!("p0 p1 p2 | s3 s4 s5\n{}", lines.iter().map(|w| w.join(" ") + "\n").collect::<String>());
        let mut solutions = BTreeSet::new();
        let mut count = 0;
        for mask in 0u32..1 << lines.len() {
            let mut hits = [0; 3];
            let mut colors: [Option<String>; 6] = Default::default();
            let mut ok = true;
            for (_, words) in lines.iter().enumerate().filter(|(o, _)| mask >> o & 1 == 1) {
                for w in words {
                    let (item, color) = w.split_once(':').map_or((w.as_str(), ""), |(i, c)| (i, c));
                    let i: usize = item[1..].parse().unwrap();
                    if i < 3 {
                        hits[i] += 1;
                    } else if let Some(prev) = &colors[i] {
                        ok &= !color.is_empty() && prev == color;
                    } else {
                        colors[i] = Some(color.to_string());
                    }
                }
            }
            if ok && hits == [1, 1, 1] {
                count += 1;
                let chosen: Vec<usize> = (0..lines.len()).filter(|o| mask >> o & 1 == 1).collect();
                solutions.insert(chosen.iter().map(|&o| lines[o].join(" ")).collect());
            }
        }
        (text, solutions, count)
    })
}

#[test]
fn random_instances_list_the_brute_force_solutions() {
    // The output format end to end; the engines against brute force on many
    // more cases in-process (xcover_engine).
    let mut runner = TestRunner::new(Config { cases: 8, ..Config::default() });
    runner
        .run(&random_instance(), |(text, expected, expected_count)| {
            let out = xcover(&["--all"]).write_stdin(text.clone()).output().unwrap();
            prop_assert_eq!(out.status.code(), Some(if expected_count == 0 { 1 } else { 0 }));
            let out = String::from_utf8(out.stdout).unwrap();
            let listed: Vec<BTreeSet<String>> = if out.is_empty() {
                Vec::new()
            } else {
                out.trim_end().split("\n\n").map(|b| b.lines().map(String::from).collect()).collect()
            };
            // Duplicate option lines make identical blocks: compare distinct sets, then counts.
            prop_assert_eq!(listed.len(), expected_count);
            let distinct: BTreeSet<BTreeSet<String>> = listed.iter().cloned().collect();
            prop_assert_eq!(&distinct, &expected, "{}", text);
            let counted = xcover(&[]).write_stdin(text.clone()).output().unwrap();
            let n: usize = String::from_utf8(counted.stdout).unwrap().trim().parse().unwrap();
            prop_assert_eq!(n, listed.len());
            Ok(())
        })
        .unwrap();
}

/// The `--json` object of a run.
fn json_of(args: &[&str]) -> serde_json::Value {
    let output = backtrack().args(args).output().unwrap();
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn statistics_with_threads_equal_one_thread() {
    // The statistics reach --json on every engine; their equality over
    // threads on every bundled instance is tested in-process (xcover_engine).
    let path = data("langford-11.dlx");
    for engine in ["small", "dense", "links"] {
        let one = json_of(&["xcover", "--json", "--engine", engine, "--threads", "1", &path]);
        let two = json_of(&["xcover", "--json", "--engine", engine, "--threads", "2", &path]);
        for key in ["solutions", "nodes", "dead_ends"] {
            assert_eq!(one[key], two[key], "{engine}: {key}");
        }
        assert!(one["nodes"].as_u64().unwrap() > 0, "{engine}");
    }
}

#[test]
fn statistics_say_one_of_a_thing_in_the_singular() {
    let out = backtrack().args(["xcover", "--threads", "1", &data("toy-colors.dlx")]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("xcover: 1 solution, 3 nodes, 1 dead end, "), "{err}");
    assert!(err.contains(" s, 1 thread, "), "{err}");
}

/// A problem of about 4 MB whose search splits into a few thousand pieces
/// quickly: the first three primary items have 16, 64 and 8 options, the
/// fourth 200,000, each with three of 50,000 secondary items.
fn multi_megabyte_problem() -> String {
    let mut rng = backtrack::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move |n: usize| rng.below(n);
    let secondary = 50_000;
    let mut text = String::from("a b c d |");
    for s in 0..secondary {
        text.push_str(&format!(" s{s}"));
    }
    text.push('\n');
    for (item, options) in [("a", 16), ("b", 64), ("c", 8), ("d", 200_000)] {
        for _ in 0..options {
            let (x, y, z) = (next(secondary), next(secondary), next(secondary));
            if x != y && y != z && x != z {
                text.push_str(&format!("{item} s{x} s{y} s{z}\n"));
            }
        }
    }
    text
}

#[cfg(unix)]
#[test]
fn threads_share_the_problem_so_memory_does_not_grow_with_them() {
    let problem = multi_megabyte_problem();
    let mut file = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut file, problem.as_bytes()).unwrap();
    let path = file.path().to_str().unwrap();
    let peak = |threads: &str| {
        let (status, stderr, bytes) =
            super::util::peak_rss(&["xcover", "--limit", "1000", "--engine", "links", "--threads", threads, path]);
        assert_eq!(status, 0, "{stderr}");
        assert!(stderr.starts_with("xcover: at least 1000 solutions"), "{stderr}");
        (bytes, stderr)
    };
    let (one, _) = peak("1");
    let (eight, stderr) = peak("8");
    // Each thread beyond the first may take one copy of the links, all of
    // them together at most 64 MiB; the parsed problem is never copied.
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    assert!(
        eight < one + (80 << 20),
        "peak {:.0} MiB on one thread, {:.0} MiB on eight ({stderr})",
        mib(one),
        mib(eight)
    );
}

#[test]
fn multiplicities_count_list_and_split_over_threads() {
    assert_eq!(count(&["--threads", "1", &data("two-per-line-5.dlx")]), 2040);
    assert_eq!(count(&["--threads", "2", &data("two-per-line-5.dlx")]), 2040);
    // A count stopped at the limit is a lower bound: "100+".
    assert_eq!(stdout_of(&["--threads", "2", "--limit", "100", &data("two-per-line-5.dlx")]), "100+\n");
    let listed = stdout_of(&["--all", "--threads", "2", &data("toy-bounds.dlx")]);
    let blocks: BTreeSet<&str> = listed.split("\n\n").map(str::trim).collect();
    assert_eq!(blocks, BTreeSet::from(["a b\na c", "a c\na"]));
    let json = stdout_of(&["--json", "--threads", "1", &data("toy-bounds.dlx")]);
    assert!(json.contains("\"solutions\":2") && json.contains("\"engine\":\"mcc\""), "{json}");
    // No solution: exit status 1.
    let out = xcover(&["--threads", "1", "-"]).write_stdin("3|a\na\n").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bad_bounds_exit_2_with_their_place() {
    for (text, place) in [
        ("a | 2|x\na\n", "line 1, column 5"),
        ("b 3:2|a\na\n", "line 1, column 3"),
        ("0|a\na\n", "line 1, column 1"),
        ("a 2:b\na\n", "line 1, column 3"),
    ] {
        super::util::assert_rejected(&["xcover", "-"], text, place);
    }
}

#[test]
fn min_cost_and_best_print_costs_and_with_all_the_options() {
    let assign = data("assign-4.dlx");
    assert_eq!(stdout_of(&["--min-cost", &assign]), "637\n");
    assert_eq!(stdout_of(&["--best", "5", &assign]), "637\n724\n862\n890\n974\n");
    assert_eq!(
        stdout_of(&["--best", "2", "--all", &assign]),
        "cost 637\nw1 j4 |405\nw4 j1 |60\nw2 j3 |75\nw3 j2 |97\n\n\
         cost 724\nw1 j1 |332\nw3 j2 |97\nw2 j3 |75\nw4 j4 |220\n"
    );
    assert_eq!(stdout_of(&["--min-cost", "--print-options", &assign]), "cost 637\n4 7 10 13\n");
    let json = stdout_of(&["--best", "2", "--json", &assign]);
    assert!(json.contains(r#""costs":[637,724]"#) && json.contains(r#""engine":"cost""#), "{json}");
    // DLX5's k5 on the 9x9 assignment problem.
    assert_eq!(stdout_of(&["--best", "5", &data("assign-9.dlx")]), "2013\n2035\n2041\n2056\n2084\n");
    // No solution: exit 1, nothing printed.
    let out = xcover(&["--min-cost", "-"]).write_stdin("a b\na |3\n").output().unwrap();
    assert_eq!((out.status.code(), out.stdout.as_slice()), (Some(1), &b""[..]));
}

/// Interrupted, a cost search prints the cheapest it has found so far, as
/// a finished one prints its answer (`--json`: not complete), and exits 130.
#[test]
fn an_interrupted_cost_search_prints_the_cheapest_so_far() {
    // Every packing of the board, costs 0..999: some 129,000 solutions,
    // seconds of search, the first of them found in milliseconds.
    let packing = data("pentomino-8x8-costs-999.dlx");
    for json in [false, true] {
        let mut args = vec!["xcover", "--best", "1000000", &packing];
        if json {
            args.push("--json");
        }
        let started = std::time::Instant::now();
        let out = super::util::interrupted_when(&args, || started.elapsed() > std::time::Duration::from_secs(1));
        let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
        assert_eq!(out.status.code(), Some(130), "{args:?}: {stderr}");
        assert!(stderr.contains("interrupted: the cheapest") && !stderr.contains("panicked"), "{stderr}");
        let costs: Vec<u64> = if json {
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(report["complete"], false, "{stdout}");
            report["costs"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect()
        } else {
            stdout.lines().map(|line| line.parse().unwrap()).collect()
        };
        // Some found, none below the cheapest packing (2789, DLX5's k1).
        assert!(costs.first().is_some_and(|&c| c >= 2789), "{costs:?}");
        assert!(costs.windows(2).all(|w| w[0] <= w[1]), "not cheapest first");
        assert!(costs.len() < 129_168, "the whole search ran: {}", costs.len());
    }
}

#[test]
fn bad_cost_tokens_and_cost_arguments_are_refused() {
    let out = xcover(&["-"]).write_stdin("a\na |x\n").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 2, column 3") && err.contains("bad option cost '|x'"), "{err}");
    for args in
        [&["--best", "0"][..], &["--min-cost", "--best", "2"], &["--min-cost", "--limit", "2"], &["--stats", "--all"]]
    {
        let file = data("assign-4.dlx");
        let mut all = args.to_vec();
        all.push(&file);
        let out = xcover(&all).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn stats_print_the_level_profile_and_print_options_the_option_numbers() {
    let out = xcover(&["--stats", &data("toy-bounds.dlx")]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("level profile (nodes at each depth):\n  0: 1\n  1: 2\n  2: 2\n"), "{err}");
    // The profile's levels below the root add up to the nodes.
    let out = xcover(&["--stats", &data("queens-8.dlx")]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let levels: u64 = err
        .lines()
        .filter(|l| l.starts_with(' '))
        .filter_map(|l| l.trim().split_once(": "))
        .skip(1)
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert!(err.contains(&format!(" {levels} nodes")), "{err}");
    assert_eq!(stdout_of(&["--print-options", &data("toy-bounds.dlx")]), "1 2\n2 3\n");
    assert_eq!(
        stdout_of(&["--print-options", "--all", "--threads", "1", &data("toy-colors.dlx")]),
        "2 4\nq x:A\np r x:A y\n"
    );
}
