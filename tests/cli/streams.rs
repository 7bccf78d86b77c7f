//! Standard streams that fail, for every command: a standard error that is
//! full, closed, or a pipe whose reader has gone never stops a command nor
//! changes what it prints or its exit status; a standard output that is full
//! is an I/O failure (3); one whose reader has gone ends the command quietly;
//! and none of them makes it panic.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// No repeated given, but the top-right cell can only be 9 and column 9 already has one.
const NO_SOLUTION: &str = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
/// A puzzle that the maker's techniques take a few steps to solve.
const RATED: &str = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..";

/// Half of `backtrack queens 8 --shard 0/2 --json`.
const SHARD: &str = r#"{"n":8,"solutions":68,"unique":9,"seconds":0.002,"subproblems":24,"threads":2,"shard":{"index":0,"count":2},"plan_subproblems":47,"plan_depth":3,"plan_version":1}"#;

/// One command line, its standard input, and whether its standard output is
/// the same at every run (a timing or a fresh seed is not).
struct Case {
    args: Vec<String>,
    stdin: Vec<u8>,
    same_every_run: bool,
}

fn case(args: &str, stdin: impl Into<Vec<u8>>) -> Case {
    Case { args: args.split_whitespace().map(String::from).collect(), stdin: stdin.into(), same_every_run: true }
}

/// Every command, with inputs that make it answer, find nothing, refuse its
/// input, and write on standard error beside its answers; and the port
/// that `web` finds taken, held while the cases run.
fn every_command(dir: &Path) -> (Vec<Case>, std::net::TcpListener) {
    let bin = assert_cmd::cargo::cargo_bin("backtrack");
    let bin = bin.to_str().unwrap();
    let binary: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    let batch = format!("{PUZZLE}\n12x\n{NO_SOLUTION}\n{RATED}\n");
    let shard = dir.join("shard.json");
    std::fs::write(&shard, SHARD).unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_port = taken.local_addr().unwrap().port();
    let cases = vec![
        case("", ""),
        case("--help", ""),
        case("--version", ""),
        case("sudoku --no-such-flag", ""),
        case("sudoku", batch.as_str()),
        case("sudoku --all --json", batch.as_str()),
        case("sudoku", binary.clone()),
        case("sudoku no/such/file", ""),
        case("sudoku rate", batch.as_str()),
        case("sudoku explain", batch.as_str()),
        case("sudoku explain", binary.clone()),
        case("sudoku hint", batch.as_str()),
        case("sudoku generate --count 2 --seed 1", ""),
        Case { same_every_run: false, ..case("sudoku generate --count 2", "") },
        case("queens 8", ""),
        case("queens 2", ""),
        case("queens 6 --all", ""),
        Case { same_every_run: false, ..case("queens 8 --shard 1/2 --json", "") },
        case("queens 33", ""),
        case("choose comb 5 3", ""),
        case("choose comb 3 5", ""),
        case("choose comb 2 --values-from -", binary.clone()),
        case("xcover tests/data/xcover/queens-8.dlx", ""),
        case("xcover --all tests/data/xcover/toy-colors.dlx", ""),
        case("xcover", "a b\nc\n"),
        case("sudominoku tests/data/sudominoku/sample.in", ""),
        case("sudominoku", "1\n7 E5 8 E6\nA1 B2 C3 D4 E1 F6 G7 H8 I9\n"),
        case("boj 9663", "8\n"),
        case("boj 9663", "x\n"),
        case("trace queens 4", ""),
        case("trace sudoku", PUZZLE),
        case("trace choose comb 4 2 --json", ""),
        case(&format!("merge {}", shard.display()), ""),
        Case { same_every_run: false, ..case("bench sudoku tests/data/sudoku/serg_100.txt", "") },
        case("judge 9663 --gen", ""),
        Case { same_every_run: false, ..case(&format!("judge 9663 --cases 2 -- {bin} boj 9663"), "") },
        Case { same_every_run: false, ..case("judge 9663 --cases 2 --shrink-runs 0 -- true", "") },
        case(&format!("web --port {taken_port}"), ""),
    ];
    (cases, taken)
}

/// Where a run's standard error goes.
#[derive(Debug, Clone, Copy)]
enum Stream {
    /// Collected by the test.
    Normal,
    /// `/dev/full`: every write fails with "no space left".
    Full,
    /// A pipe whose reader has gone: every write fails with a broken pipe.
    Gone,
    /// Closed (`2>&-` or `>&-`).
    Closed,
}

fn stdio(stream: Stream) -> Stdio {
    match stream {
        Stream::Normal | Stream::Closed => Stdio::piped(),
        Stream::Full => File::options().write(true).open("/dev/full").unwrap().into(),
        Stream::Gone => {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            writer.into()
        }
    }
}

/// Runs `case` with its standard output and standard error as given.
fn run(case: &Case, dir: &Path, stdout: Stream, stderr: Stream) -> Output {
    let input: PathBuf = dir.join("stdin");
    File::create(&input).unwrap().write_all(&case.stdin).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("backtrack");
    // The shell closes what is to be closed, then becomes the binary.
    let close = match (stdout, stderr) {
        (Stream::Closed, Stream::Closed) => ">&- 2>&-",
        (Stream::Closed, _) => ">&-",
        (_, Stream::Closed) => "2>&-",
        _ => "",
    };
    Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {close}"))
        .arg(bin)
        .args(&case.args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(File::open(&input).unwrap())
        .stdout(stdio(stdout))
        .stderr(stdio(stderr))
        .output()
        .unwrap()
}

fn status(output: &Output, what: &str) -> i32 {
    let code = output.status.code().unwrap_or_else(|| panic!("{what}: killed by a signal: {output:?}"));
    assert_ne!(code, 101, "{what}: panicked: {}", String::from_utf8_lossy(&output.stderr));
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"), "{what}: {output:?}");
    code
}

/// What must stay the same across runs: the text, or for a timing or a fresh
/// seed the number of lines.
fn comparable(case: &Case, stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    if case.same_every_run {
        text.into_owned()
    } else {
        format!("{} lines", text.lines().count())
    }
}

/// Runs every command with its streams as they should be, and hands each
/// case, what it printed and its status to `check`.
fn for_every_command(check: impl Fn(&Case, &Path, &Output, i32)) {
    let dir = tempfile::tempdir().unwrap();
    let (cases, _taken) = every_command(dir.path());
    for case in &cases {
        let normal = run(case, dir.path(), Stream::Normal, Stream::Normal);
        check(case, dir.path(), &normal, status(&normal, &format!("{:?}", case.args)));
    }
}

#[test]
fn a_failing_standard_error_changes_nothing() {
    for_every_command(|case, dir, normal, expected| {
        for stderr in [Stream::Full, Stream::Gone, Stream::Closed] {
            let what = format!("{:?} with standard error {stderr:?}", case.args);
            let output = run(case, dir, Stream::Normal, stderr);
            assert_eq!(status(&output, &what), expected, "{what}");
            assert_eq!(comparable(case, &output.stdout), comparable(case, &normal.stdout), "{what}");
        }
    });
}

#[test]
fn a_failing_standard_output_is_reported_or_ends_the_command_quietly() {
    for_every_command(|case, dir, normal, expected| {
        let prints = !normal.stdout.is_empty();
        // Full: an I/O failure, said on standard error, for whatever prints.
        let what = format!("{:?} > /dev/full", case.args);
        let full = run(case, dir, Stream::Full, Stream::Normal);
        let code = status(&full, &what);
        if prints {
            assert_eq!(code, 3, "{what}");
            let err = String::from_utf8_lossy(&full.stderr);
            assert!(err.starts_with("backtrack: ") && err.contains("No space left"), "{what}: {err}");
        } else {
            assert_eq!(code, expected, "{what}");
        }
        // Closed: the system gives the command an empty sink; nothing changes.
        let what = format!("{:?} >&-", case.args);
        assert_eq!(status(&run(case, dir, Stream::Closed, Stream::Normal), &what), expected, "{what}");
        let what = format!("{:?} >&- 2>&-", case.args);
        assert_eq!(status(&run(case, dir, Stream::Closed, Stream::Closed), &what), expected, "{what}");
        // A reader that has gone: the command stops quietly (0), unless it
        // ended by itself before noticing.
        for stderr in [Stream::Normal, Stream::Full] {
            let what = format!("{:?} with standard output gone, standard error {stderr:?}", case.args);
            let gone = run(case, dir, Stream::Gone, stderr);
            let code = status(&gone, &what);
            assert!(code == 0 || code == expected, "{what}: status {code}");
            let err = String::from_utf8_lossy(&gone.stderr);
            assert!(!err.contains("I/O error") && !err.contains("roken pipe"), "{what}: {err}");
        }
    });
}
