//! The contract every command keeps: one exit-status rule, one `--threads`
//! rule, threads that cannot start reported as errors, short quotes of bad
//! tokens, and bounded memory on endless or huge input.

use std::process::Output;

use super::util::output as run;

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited normally")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `script` with `sh -c`, the binary's path in `$B`.
fn shell(script: &str) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("backtrack");
    std::process::Command::new("sh").arg("-c").arg(script).env("B", bin).output().unwrap()
}

const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// The solution of [`PUZZLE`]: a full grid.
const SOLVED: &str = "987654321246173985351928746128537694634892157795461832519286473472319568863745219";
/// No repeated given, but the top-right cell can only be 9 and column 9 already has one.
const NO_SOLUTION: &str = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";

#[test]
fn exit_status_one_rule_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let no_cover = dir.path().join("none.dlx");
    std::fs::write(&no_cover, "a b c\na b\nb c\n").unwrap();
    let cover = dir.path().join("one.dlx");
    std::fs::write(&cover, "a b c\na b\nc\n").unwrap();
    let (no_cover, cover) = (no_cover.to_str().unwrap(), cover.to_str().unwrap());
    // `judge` tests a program: the binary itself is a correct one for 9663.
    let bin = assert_cmd::cargo::cargo_bin("backtrack");
    let bin = bin.to_str().unwrap();
    let full = format!("{}\n", SOLVED);
    let missing = "no/such/file";
    // A port already taken: `web` cannot listen on it.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_port = taken.local_addr().unwrap().port().to_string();
    let cases: &[(&[&str], &str, i32)] = &[
        // 0: found something.
        (&["queens", "8"], "", 0),
        (&["queens", "4", "--all"], "", 0),
        (&["sudoku"], PUZZLE, 0),
        (&["choose", "comb", "5", "3"], "", 0),
        (&["choose", "comb", "5", "3", "--count"], "", 0),
        (&["xcover", cover], "", 0),
        (&["judge", "9663", "--cases", "3", "--", bin, "boj", "9663"], "", 0),
        (&["judge", "9663", "--gen"], "", 0),
        (&["trace", "queens", "4"], "", 0),
        (&["trace", "sudoku"], PUZZLE, 0),
        (&["sudoku", "generate", "--count", "2", "--seed", "1"], "", 0),
        (&["sudoku", "rate"], PUZZLE, 0),
        (&["sudoku", "explain"], PUZZLE, 0),
        (&["sudoku", "hint"], PUZZLE, 0),
        // 1: found nothing, as grep does.
        (&["queens", "2"], "", 1),
        (&["queens", "3", "--all"], "", 1),
        (&["queens", "3", "--json"], "", 1),
        (&["sudoku"], NO_SOLUTION, 1),
        (&["sudoku", "--count"], NO_SOLUTION, 1),
        (&["choose", "comb", "3", "5"], "", 1),
        (&["choose", "comb", "3", "5", "--count"], "", 1),
        (&["xcover", no_cover], "", 1),
        (&["xcover", "--json", no_cover], "", 1),
        (&["xcover", "--all", no_cover], "", 1),
        // judge: a program whose answers are wrong.
        (&["judge", "9663", "--cases", "3", "--shrink-runs", "0", "--", "true"], "", 1),
        (&["trace", "queens", "3"], "", 1),
        (&["trace", "sudoku"], NO_SOLUTION, 1),
        // The attempts run out before a puzzle with so few clues is found.
        (&["sudoku", "generate", "--clues", "12", "--attempts", "2", "--seed", "1"], "", 1),
        (&["sudoku", "rate"], NO_SOLUTION, 1),
        (&["sudoku", "explain"], NO_SOLUTION, 1),
        (&["sudoku", "hint"], NO_SOLUTION, 1),
        // hint: nothing left to do on a full grid.
        (&["sudoku", "hint"], full.as_str(), 1),
        // 2: bad input or usage.
        (&["queens", "33"], "", 2),
        (&["sudoku"], "12x\n", 2),
        (&["xcover"], "a b\nc\n", 2),
        (&["choose", "comb"], "", 2),
        (&["merge"], "{}", 2),
        (&["boj", "9663"], "x\n", 2),
        // A count too big to print is a request out of range, not an I/O failure.
        (&["choose", "perm", "1000", "1000", "--count", "--repeat"], "", 2),
        (&["judge", "1", "--", "true"], "", 2),
        (&["judge", "9663"], "", 2),
        (&["judge", "9663", "--", "no/such/program"], "", 2),
        (&["judge", "9663", "--time-limit", "-1", "--", "true"], "", 2),
        (&["trace", "queens", "21"], "", 2),
        (&["trace", "sudoku"], "12x\n", 2),
        (&["trace", "nothing"], "", 2),
        (&["web", "--port", "x"], "", 2),
        (&["web", "--no-such-option"], "", 2),
        (&["sudoku", "generate", "--size", "7"], "", 2),
        (&["sudoku", "generate", "--count", "x"], "", 2),
        (&["sudoku", "rate"], "12x\n", 2),
        (&["sudoku", "rate", "--count"], "", 2),
        (&["sudoku", "explain"], "12x\n", 2),
        (&["sudoku", "hint"], "12x\n", 2),
        // 3: I/O or resource failure.
        (&["sudoku", "no/such/file"], "", 3),
        (&["xcover", "no/such/file"], "", 3),
        (&["judge", "9663", "--save", "/dev/null/dir"], "", 3),
        (&["trace", "sudoku", missing], "", 3),
        (&["sudoku", "rate", missing], "", 3),
        (&["sudoku", "explain", missing], "", 3),
        (&["sudoku", "hint", missing], "", 3),
        (&["web", "--port", taken_port.as_str()], "", 3),
        // boj: 0 whenever the input is valid, even for a count of 0.
        (&["boj", "9663"], "2\n", 0),
        (&["boj", "9663"], "3\n", 0),
    ];
    for (args, stdin, expected) in cases {
        let output = run(args, stdin);
        assert_eq!(code(&output), *expected, "{args:?} {stdin:?}: {}", stderr(&output));
        if *expected >= 2 {
            assert!(stderr(&output).starts_with("backtrack: ") || stderr(&output).starts_with("error:"), "{args:?}");
        }
    }
    // boj 9663 with N = 2 prints its count of 0.
    assert_eq!(String::from_utf8(run(&["boj", "9663"], "2\n").stdout).unwrap(), "0\n");
    // 3: output that cannot be written is an I/O failure, for every command that prints.
    for args in [
        "queens 8",
        "choose comb 5 3",
        "judge 9663 --gen",
        "trace queens 4",
        "sudoku generate --seed 1",
        "sudoku rate -",
        "sudoku explain -",
        "sudoku hint -",
    ] {
        let output = shell(&format!("echo {PUZZLE} | \"$B\" {args} > /dev/full"));
        assert_eq!(code(&output), 3, "{args} > /dev/full: {}", stderr(&output));
        assert!(stderr(&output).starts_with("backtrack: "), "{args}");
    }
}

#[test]
fn help_has_the_exit_status_table_and_the_limits() {
    let help = String::from_utf8(run(&["--help"], "").stdout).unwrap();
    for needle in
        ["0    found something", "1    found nothing", "2    bad input", "3    I/O or resource", "130  interrupted"]
    {
        assert!(help.contains(needle), "{needle:?} missing from --help");
    }
    assert!(help.contains("32 MiB") && help.contains("64 KiB") && help.contains("0 to 1024"), "{help}");
    // The README's table says the same, row for row.
    let words = |text: &str| text.replace('`', "").split_whitespace().collect::<Vec<_>>().join(" ");
    let help = words(&help);
    let readme = include_str!("../../README.md");
    let rows: Vec<(&str, &str)> = readme
        .lines()
        .skip_while(|line| *line != "| status | meaning |")
        .skip(2)
        .map_while(|line| line.strip_prefix("| ")?.strip_suffix(" |")?.split_once(" | "))
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), ["0", "1", "2", "3", "130"], "the README's table");
    for (status, meaning) in rows {
        let row = words(&format!("{status} {meaning}"));
        assert!(help.contains(&row), "README row {row:?} is not in --help: {help}");
    }
}

#[test]
fn threads_one_range_for_every_command() {
    let commands: &[&[&str]] = &[&["sudoku", "-"], &["queens", "6"], &["xcover", "-"], &["bench", "sudoku", "-"]];
    let stdin = |command: &[&str]| if command[0] == "xcover" { "a\na\n" } else { PUZZLE };
    for command in commands {
        for bad in ["1025", "100000", "99999999999", "-1", "two"] {
            let flag = format!("--threads={bad}");
            let output = run(&[command, &[flag.as_str()][..]].concat(), stdin(command));
            assert_eq!(code(&output), 2, "{command:?} --threads {bad}");
            let err = stderr(&output);
            assert!(err.contains("1024") || err.contains("invalid digit"), "{command:?} --threads {bad}: {err}");
            assert!(output.stdout.is_empty());
        }
        for good in ["0", "1", "2", "1024"] {
            let output = run(&[command, &["--threads", good][..]].concat(), stdin(command));
            assert_eq!(code(&output), 0, "{command:?} --threads {good}: {}", stderr(&output));
        }
    }
}

#[test]
fn threads_that_cannot_start_are_an_error_not_a_panic() {
    // With 600 MB of address space, 512 threads (2 MiB of stack each) cannot
    // all start. Whether a run fails cleanly used to depend on scheduling
    // (glibc's per-thread malloc arenas, a thread's signal stack mapped after
    // it starts), aborting about one run in fifty; so each case runs many
    // times, with the environment as a user has it (no MALLOC_ARENA_MAX):
    // five by default, fifty in the long version (BACKTRACK_LONG_TESTS=1).
    let dir = tempfile::tempdir().unwrap();
    let dlx = dir.path().join("q.dlx");
    std::fs::write(&dlx, include_str!("../data/xcover/queens-8.dlx")).unwrap();
    let puzzles = dir.path().join("p.txt");
    std::fs::write(&puzzles, format!("{PUZZLE}\n").repeat(2000)).unwrap();
    for args in [
        format!("sudoku --threads 512 {}", puzzles.display()),
        format!("sudoku --count --threads 512 {}", puzzles.display()),
        format!("xcover --threads 512 {}", dlx.display()),
        "queens 14 --threads 512".to_string(),
        "queens 14 --all --threads 512".to_string(),
    ] {
        let runs = crate::effort::rounds(5, 50);
        // One shell runs them all; each run's status and first line of errors go to standard output.
        let script = format!(
            "ulimit -v 600000; unset MALLOC_ARENA_MAX; for i in $(seq {runs}); do \
             timeout 60 \"$B\" {args} > /dev/null 2> err; echo \"$? $(head -c 300 err | tr '\\n' ' ')\"; done"
        );
        let output = shell(&format!("cd '{}' && {script}", dir.path().display()));
        let report = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_eq!(report.lines().count(), runs, "{args}: {report}{}", stderr(&output));
        for line in report.lines() {
            assert!(line.starts_with("3 ") && line.contains("cannot start"), "{args}: {line}");
            assert!(!line.contains("panicked"), "{args}: {line}");
        }
    }
}

#[test]
fn messages_quote_at_most_40_characters_of_a_bad_token() {
    let long = "9".repeat(10_000_000);
    let output = run(&["boj", "9663"], &long);
    assert_eq!(code(&output), 2);
    let err = stderr(&output);
    assert!(err.len() < 300, "{} bytes on standard error", err.len());
    assert!(err.contains(&format!("'{}...'", "9".repeat(40))), "{err}");
    let word = "x".repeat(100_000);
    for (args, stdin) in [
        (&["choose", "comb", "2", "--values-from", "-"][..], format!("1 2 {word}\n")),
        (&["boj", "15649"], format!("{word} 2\n")),
        (&["boj", "4574"], format!("{word}\n")),
        (&["sudoku"], format!("{} 1 2 3 4 5 6 7 8\n", "1".repeat(1000)).repeat(9)),
    ] {
        let output = run(args, &stdin);
        assert_eq!(code(&output), 2, "{args:?}");
        let err = stderr(&output);
        assert!(err.len() < 400 * err.lines().count().max(1), "{args:?}: {} bytes", err.len());
        assert!(err.contains("..."), "{args:?}: {err}");
    }
}

#[test]
fn argument_errors_quote_at_most_40_characters_of_the_argument() {
    let nines = "9".repeat(5000);
    let flag = format!("--{}", "x".repeat(5000));
    for args in [
        vec!["sudoku", "generate", "--count", &nines],
        vec!["sudoku", "rate", &flag],
        vec!["queens", "--threads", &nines],
        vec!["sudoku", "generate", "--technique", &nines],
    ] {
        let output = run(&args, "");
        assert_eq!(code(&output), 2, "{}", stderr(&output));
        let err = stderr(&output);
        assert!(err.len() < 600, "{} bytes on standard error", err.len());
        assert!(err.contains("...'"), "{err}");
    }
}

#[test]
fn whole_file_inputs_are_capped() {
    // Endless inputs end with an error naming the limit, in bounded memory.
    for (script, needle) in [
        ("\"$B\" xcover /dev/zero", "32 MiB"),
        ("\"$B\" choose comb 2 --values-from /dev/zero", "32 MiB"),
        ("\"$B\" boj 9663 /dev/zero", "32 MiB"),
        ("\"$B\" queens 8 --checkpoint /dev/full", "32 MiB"),
        ("\"$B\" merge /dev/zero", "32 MiB"),
        ("\"$B\" sudoku /dev/zero", "64 KiB"),
        ("\"$B\" sudoku rate /dev/zero", "64 KiB"),
        ("\"$B\" sudoku explain /dev/zero", "64 KiB"),
        ("\"$B\" sudoku hint /dev/zero", "64 KiB"),
        ("\"$B\" trace sudoku /dev/zero", "64 KiB"),
        ("head -c 300000000 /dev/zero | tr '\\0' 1 | \"$B\" sudoku rate --threads 2", "64 KiB"),
        ("head -c 300000000 /dev/zero | tr '\\0' 1 | \"$B\" sudoku", "64 KiB"),
    ] {
        let output = shell(&format!("ulimit -v 400000; {script}"));
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{script}: {err}");
        assert!(err.contains(needle), "{script}: {err}");
    }
}

#[test]
fn sudoku_streams_long_input_in_bounded_memory() {
    // 200 MB of comments, then one puzzle: read through in 100 MB of address space.
    let output = shell(&format!(
        "ulimit -v 100000; (yes '# a comment line, skipped' | head -n 8000000; echo {PUZZLE}) | \"$B\" sudoku \
         --threads 1"
    ));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = String::from_utf8(output.stdout).unwrap();
    assert!(out.starts_with("987654321"), "{out}");
}
