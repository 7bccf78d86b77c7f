//! Commands that stream: answers as soon as they exist, one answer per
//! puzzle, an end soon after the reader of the output has gone, and Ctrl-C
//! that prints what was found and exits 130.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::Duration;

use super::util::spawn;

const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
const OTHER: &str = "...46.2.87..1.5....6.......3..5....78....3........7.13.1...2....4.7.1.5.2..39....";

/// The next line from `lines`, or a failure if none comes within a minute
/// (a guard against a hang, not a timing check).
fn next_line(lines: &mpsc::Receiver<String>) -> String {
    lines.recv_timeout(Duration::from_secs(60)).expect("an answer while the input is still open")
}

/// Reads `child`'s standard output line by line on a thread.
fn line_reader(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits for `child` to exit, killing it (and failing) if it runs on for a minute.
fn wait(child: &mut Child) -> i32 {
    for _ in 0..600 {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    panic!("still running a minute later");
}

#[test]
fn sudoku_answers_a_coprocess_one_puzzle_at_a_time() {
    for threads in ["1", "2"] {
        for extra in [&[][..], &["--count"], &["--json"]] {
            let mut child = spawn(&[&["sudoku", "--threads", threads][..], extra].concat());
            let mut stdin = child.stdin.take().unwrap();
            let lines = line_reader(&mut child);
            for puzzle in [PUZZLE, OTHER, PUZZLE] {
                writeln!(stdin, "{puzzle}").unwrap();
                stdin.flush().unwrap();
                let answer = next_line(&lines);
                match extra {
                    [] if puzzle == PUZZLE => assert!(answer.starts_with("987654321"), "{answer}"),
                    ["--count"] => assert_eq!(answer, if puzzle == PUZZLE { "1" } else { "2" }),
                    _ => assert!(answer.len() >= 81, "{answer}"),
                }
            }
            drop(stdin);
            assert_eq!(wait(&mut child), 0);
        }
    }
}

#[test]
fn sudoku_gives_one_answer_per_puzzle_even_to_malformed_ones() {
    let bad = &PUZZLE[..79];
    let input = format!("{PUZZLE}\n{OTHER}\n# a comment\n{bad}\n{PUZZLE}\n{OTHER}\n");
    for threads in ["1", "2"] {
        let output = super::util::backtrack()
            .args(["sudoku", "--threads", threads])
            .write_stdin(input.as_str())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let out = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[2], "# error: line 4, column 80: expected 81 cells, found 79");
        assert!(lines[3].starts_with("987654321"));
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains("line 4, column 80"), "{err}");
        // --json: the malformed puzzle is an object too.
        let output = super::util::backtrack()
            .args(["sudoku", "--json", "--threads", threads])
            .write_stdin(input.as_str())
            .output()
            .unwrap();
        let objects: Vec<serde_json::Value> =
            String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(objects.len(), 5);
        assert_eq!(objects[2]["status"], "invalid");
        assert_eq!(objects[2]["line"], 4);
        assert!(objects[2]["error"].as_str().unwrap().contains("line 4, column 80"));
    }
}

#[test]
fn maker_commands_answer_a_coprocess_one_puzzle_at_a_time() {
    // Each answer must come while the input is still open; explain's answer
    // ends with its "Rating" line.
    let cases: &[&[&str]] = &[
        &["sudoku", "rate", "--threads", "1"],
        &["sudoku", "rate", "--threads", "2"],
        &["sudoku", "rate", "--json", "--threads", "2"],
        &["sudoku", "explain"],
        &["sudoku", "hint"],
        &["sudoku", "hint", "--json"],
    ];
    for args in cases {
        let mut child = spawn(args);
        let mut stdin = child.stdin.take().unwrap();
        let lines = line_reader(&mut child);
        for puzzle in [PUZZLE, OTHER, PUZZLE] {
            writeln!(stdin, "{puzzle}").unwrap();
            stdin.flush().unwrap();
            let mut answer = next_line(&lines);
            if args[1] == "explain" && puzzle == PUZZLE {
                while !answer.starts_with("Rating ") {
                    answer = next_line(&lines);
                }
            }
            match (args[1], puzzle == PUZZLE) {
                (_, false) if args.contains(&"--json") => {
                    assert!(answer.contains("\"status\":\"multiple\""), "{args:?}: {answer}")
                }
                (_, false) => assert_eq!(answer, "# more than one solution", "{args:?}"),
                ("rate", true) if args.contains(&"--json") => {
                    assert!(answer.contains("\"status\":\"rated\",\"er\":2.3"), "{answer}")
                }
                ("rate", true) => assert_eq!(answer, "2.3/1.2/1.2"),
                ("explain", true) => assert!(answer.starts_with("Rating 2.3/1.2/1.2"), "{answer}"),
                (_, true) => assert!(answer.contains("r9c8=1") || answer.contains("[9,8,1]"), "{args:?}: {answer}"),
            }
        }
        drop(stdin);
        assert_eq!(wait(&mut child), 1, "{args:?}: a puzzle with two solutions was among them");
    }
}

#[test]
fn maker_commands_give_one_answer_per_puzzle_even_to_malformed_ones() {
    let bad = &PUZZLE[..79];
    let input = format!("{PUZZLE}\n{OTHER}\n# a comment\n{bad}\n{PUZZLE}\n");
    for args in [&["sudoku", "rate", "--threads", "1"][..], &["sudoku", "rate", "--threads", "2"], &["sudoku", "hint"]]
    {
        let output = super::util::backtrack().args(args).write_stdin(input.as_str()).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let out = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{args:?}: {out}");
        assert_eq!(lines[1], "# more than one solution");
        assert_eq!(lines[2], "# error: line 4, column 80: expected 81 cells, found 79");
        assert_eq!(lines[0], lines[3], "{args:?}: the same puzzle, the same answer");
        let err = String::from_utf8(output.stderr).unwrap();
        assert!(err.contains("line 4, column 80"), "{err}");
        // --json: the malformed puzzle is an object too.
        let json = [args, &["--json"]].concat();
        let output = super::util::backtrack().args(&json).write_stdin(input.as_str()).output().unwrap();
        let out = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{json:?}: {out}");
        let invalid: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
        assert_eq!(invalid["status"], "invalid");
        assert_eq!(invalid["line"], 4);
        assert!(invalid["error"].as_str().unwrap().contains("line 4, column 80"));
        assert!(serde_json::from_str::<serde_json::Value>(lines[3]).is_ok(), "{json:?}: {}", lines[3]);
    }
}

#[test]
fn streaming_commands_end_soon_after_the_reader_goes() {
    // Sparse solutions: the first lines come quickly, the next ones slowly;
    // each command must notice the closed pipe without waiting for them.
    for args in [&["queens", "32", "--all", "--threads", "1"][..], &["queens", "32", "--all", "--threads", "2"]] {
        let mut child = spawn(args);
        drop(child.stdin.take());
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        assert_eq!(wait(&mut child), 0, "{args:?}");
    }
}

#[test]
fn variant_sudoku_answers_a_coprocess_one_puzzle_at_a_time_and_stops_on_ctrl_c() {
    let killer = ".Shape~4x4.Cage~10~R1C1~R1C2~R2C1~R2C2";
    for threads in ["1", "2"] {
        let mut child = spawn(&["sudoku", "--count", "--limit", "2", "--threads", threads]);
        let mut stdin = child.stdin.take().unwrap();
        let lines = line_reader(&mut child);
        for (puzzle, count) in [(killer, "2+"), (".Shape~4x4.Bad", "# error"), (killer, "2+")] {
            writeln!(stdin, "{puzzle}").unwrap();
            stdin.flush().unwrap();
            let answer = next_line(&lines);
            assert!(answer.starts_with(count), "{threads} threads: {answer}");
        }
        // The input stays open: Ctrl-C ends the wait for the next line.
        let (code, err) = interrupt_and_wait(&mut child);
        assert_eq!(code, 130, "{err}");
        assert!(err.contains("interrupted"), "{err}");
    }
}

/// Sends Ctrl-C's signal to `child`.
fn interrupt(child: &Child) {
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// Sends Ctrl-C's signal to `child`, waits for it to exit, and returns its
/// exit status and standard error.
fn interrupt_and_wait(child: &mut Child) -> (i32, String) {
    interrupt(child);
    let code = wait(child);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    (code, err)
}

#[test]
fn ctrl_c_prints_what_was_found_and_exits_130_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let dlx = dir.path().join("p.dlx");
    std::fs::write(&dlx, include_str!("../data/xcover/pentomino-6x10.dlx")).unwrap();
    let dlx = dlx.to_str().unwrap();
    let long_runs: &[&[&str]] = &[
        &["queens", "19", "--threads", "1", "--quiet"],
        &["queens", "32", "--all", "--threads", "1"],
        &["xcover", "--threads", "1", dlx],
        &["xcover", "--all", "--threads", "1", dlx],
        &["sudoku", "--all", "--threads", "1", "-"],
        &["sudoku", "--threads", "2", "-"],
        &["choose", "perm", "14", "14"],
        &["sudoku", "generate", "--count", "1000000", "--seed", "1", "--threads", "1"],
        &["sudoku", "rate", "--threads", "1", "-"],
        &["sudoku", "rate", "--threads", "2", "-"],
        &["sudoku", "explain", "-"],
        &["sudoku", "hint", "-"],
        &["trace", "queens", "20", "--order", "naive"],
    ];
    for args in long_runs {
        let mut child = spawn(args);
        let stdin = child.stdin.take().unwrap();
        if args[0] == "sudoku" && args[1] != "generate" {
            // A puzzle (for the solver an empty board), and input that stays open.
            let mut stdin = stdin;
            let puzzle = if args[1] == "-" || args[1].starts_with("--") { ".".repeat(81) } else { PUZZLE.to_string() };
            writeln!(stdin, "{puzzle}").unwrap();
            std::mem::forget(stdin);
        }
        let lines = line_reader(&mut child);
        if !matches!(args[0], "queens" | "xcover") || args.contains(&"--all") {
            next_line(&lines); // something was found before the interrupt
        } else {
            std::thread::sleep(Duration::from_millis(500));
        }
        let (code, err) = interrupt_and_wait(&mut child);
        assert_eq!(code, 130, "{args:?}: {err}");
        assert!(err.contains("interrupted"), "{args:?}: {err}");
        if args[0] == "queens" && !args.contains(&"--all") || args[0] == "xcover" && !args.contains(&"--all") {
            assert!(err.contains("so far"), "{args:?}: a partial count: {err}");
        }
    }
}
