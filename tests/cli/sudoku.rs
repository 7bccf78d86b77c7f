//! `backtrack sudoku` and `backtrack boj 2580/2239` end to end through the binary.

use super::util::backtrack;
pub(crate) use super::util::run;

const SAMPLE_2580_IN: &str = "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n\
                              8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n\
                              2 5 8 3 9 4 7 6 0\n";
const SAMPLE_2580_OUT: &str = "1 3 5 4 6 9 2 7 8\n7 8 2 1 3 5 6 4 9\n4 6 9 2 7 8 1 3 5\n3 2 1 5 4 6 8 9 7\n\
                               8 7 4 9 1 3 5 2 6\n5 9 6 8 2 7 4 1 3\n9 1 7 6 5 2 3 8 4\n6 4 3 7 8 1 9 5 2\n\
                               2 5 8 3 9 4 7 6 1\n";
const SAMPLE_2239_IN: &str =
    "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n";
const SAMPLE_2239_OUT: &str =
    "143628579\n572139468\n986754231\n391542786\n468917352\n725863914\n237481695\n619275843\n854396127\n";
/// Made to defeat row-major ascending search: its first row is 987654321.
const ANTI_BRUTE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
/// Exactly two solutions.
const TWO_SOLUTIONS: &str = "...46.2.87..1.5....6.......3..5....78....3........7.13.1...2....4.7.1.5.2..39....";
const EXAMPLES: &str = include_str!("../../examples/sudoku.txt");

/// Digits of a text grid or line, blanks as 0, separators dropped.
fn digits(text: &str) -> Vec<u8> {
    text.bytes()
        .filter_map(|b| match b {
            b'.' | b'0' => Some(0),
            b'1'..=b'9' => Some(b - b'0'),
            _ => None,
        })
        .collect()
}

/// Whether `solution` is a valid 9x9 grid that keeps the givens of `puzzle`
/// (checked here, independently of the library).
fn solves(puzzle: &[u8], solution: &[u8]) -> bool {
    if solution.len() != 81 || puzzle.len() != 81 {
        return false;
    }
    let group_ok = |cells: Vec<usize>| {
        let mut seen = 0u16;
        cells.into_iter().all(|i| {
            let bit = 1 << solution[i];
            let fresh = solution[i] >= 1 && solution[i] <= 9 && seen & bit == 0;
            seen |= bit;
            fresh
        })
    };
    puzzle.iter().zip(solution).all(|(&p, &s)| p == 0 || p == s)
        && (0..9).all(|r| group_ok((0..9).map(|c| r * 9 + c).collect()))
        && (0..9).all(|c| group_ok((0..9).map(|r| r * 9 + c).collect()))
        && (0..9).all(|b| group_ok((0..9).map(|k| (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3).collect()))
}

fn as_grid(line: &str, spaced: bool) -> String {
    let digits = digits(line);
    let sep = if spaced { " " } else { "" };
    digits.chunks(9).map(|row| row.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(sep) + "\n").collect()
}

/// The puzzle lines of a line-format file.
fn puzzle_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect()
}

#[test]
fn boj_2580_sample() {
    backtrack().args(["boj", "2580"]).write_stdin(SAMPLE_2580_IN).assert().success().stdout(SAMPLE_2580_OUT);
}

#[test]
fn boj_2239_sample() {
    backtrack().args(["boj", "2239"]).write_stdin(SAMPLE_2239_IN).assert().success().stdout(SAMPLE_2239_OUT);
}

#[test]
fn boj_empty_boards() {
    let (code, out, _) = run(&["boj", "2239"], &"000000000\n".repeat(9));
    assert_eq!(code, 0);
    assert!(out.starts_with("123456789\n456789123\n789123456\n214365897\n"), "{out}");
    assert!(solves(&[0; 81], &digits(&out)));
    let (code, out, _) = run(&["boj", "2580"], &"0 0 0 0 0 0 0 0 0\n".repeat(9));
    assert_eq!(code, 0);
    assert!(out.lines().all(|l| l.len() == 17 && l.split(' ').count() == 9), "{out}");
    assert!(solves(&[0; 81], &digits(&out)));
}

#[test]
fn boj_anti_brute_force_board() {
    let puzzle = digits(ANTI_BRUTE);
    let (code, any, _) = run(&["boj", "2580"], &as_grid(ANTI_BRUTE, true));
    assert_eq!(code, 0);
    assert!(solves(&puzzle, &digits(&any)));
    let (code, smallest, _) = run(&["boj", "2239"], &as_grid(ANTI_BRUTE, false));
    assert_eq!(code, 0);
    assert!(smallest.starts_with("987654321\n"), "{smallest}");
    // The solution is unique, so both problems give the same grid.
    assert_eq!(digits(&any), digits(&smallest));
}

#[test]
fn boj_no_solution_is_out_of_range() {
    // No repeated given, yet the top-right cell can only be 9 and column 9 already has one.
    let mut rows: Vec<String> = vec!["123456780".into()];
    rows.extend((1..9).map(|r| if r == 4 { "000000009".into() } else { "000000000".into() }));
    let grid = rows.join("\n") + "\n";
    // The problem promises a solvable puzzle: one without is input out of range.
    let (code, out, err) = run(&["boj", "2239"], &grid);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no solution"), "{err}");
    let spaced: String =
        grid.lines().map(|l| as_grid(l, true).replace('\n', " ").trim_end().to_string() + "\n").collect();
    let (code, out, _) = run(&["boj", "2580"], &spaced);
    assert_eq!((code, out.as_str()), (2, ""));
}

/// Asserts a malformed-input failure: exit 2, one stderr line that names
/// `line` (and `column` when given), and on stdout nothing or (a batch keeps
/// one answer per puzzle) the same error as the puzzle's answer.
fn assert_bad_input(args: &[&str], stdin: &str, line: usize, column: Option<usize>) {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 2, "{args:?} {stdin:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let place = match column {
        Some(c) => format!("line {line}, column {c}:"),
        None => format!("line {line}:"),
    };
    assert!(err.contains(&place), "{args:?} {stdin:?}: expected {place:?} in {err:?}");
    if !out.is_empty() {
        assert_eq!(out.lines().count(), 1, "{args:?} {stdin:?}: {out}");
        assert!(out.starts_with("# error: ") || out.contains("\"status\":\"invalid\""), "{args:?}: {out}");
        assert!(out.contains(&place), "{args:?} {stdin:?}: expected {place:?} in {out:?}");
    }
}

#[test]
fn boj_2580_bad_input() {
    let rows: Vec<&str> = SAMPLE_2580_IN.lines().collect();
    let with = |i: usize, row: &str| {
        let mut r = rows.clone();
        r[i] = row;
        r.join("\n") + "\n"
    };
    let args = ["boj", "2580"];
    assert_bad_input(&args, &with(2, "0 6 0 2 7 8 1 3"), 3, Some(16)); // 8 numbers
    assert_bad_input(&args, &with(2, "0 6 0 2 7 8 1 3 5 4"), 3, Some(20)); // 10 numbers
    assert_bad_input(&args, &with(0, "0 3 5 4 x 9 2 7 8"), 1, Some(9)); // stray character
    assert_bad_input(&args, &with(5, "5 9 6 8 2 10 4 1 3"), 6, Some(11)); // out of range
    assert_bad_input(&args, &with(1, "7 8 2 1 0 5 6 8 9"), 2, Some(15)); // 8 twice in row 2
    assert_bad_input(&args, &rows[..5].join("\n"), 6, None); // truncated
    assert_bad_input(&args, "", 1, None); // empty
    assert_bad_input(&args, &(SAMPLE_2580_IN.to_string() + "1 2 3\n"), 10, Some(1));
    // trailing text
}

#[test]
fn boj_2239_bad_input() {
    let rows: Vec<&str> = SAMPLE_2239_IN.lines().collect();
    let with = |i: usize, row: &str| {
        let mut r = rows.clone();
        r[i] = row;
        r.join("\n") + "\n"
    };
    let args = ["boj", "2239"];
    assert_bad_input(&args, &with(3, "30050200"), 4, Some(9)); // short row
    assert_bad_input(&args, &with(3, "3005020061"), 4, Some(10)); // long row
    assert_bad_input(&args, &with(4, "060 00050"), 5, Some(4)); // stray space
    assert_bad_input(&args, &with(8, "804000101"), 9, Some(9)); // 1 twice in row 9
    assert_bad_input(&args, &with(2, "300704000"), 3, Some(1)); // 3 twice in box 1
    assert_bad_input(&args, &with(6, "00040100A"), 7, Some(9)); // a letter
    assert_bad_input(&args, &rows[..8].join("\n"), 9, None); // truncated
    assert_bad_input(&args, "\n\n", 1, None); // empty
}

#[test]
fn solves_the_bundled_examples() {
    let (code, out, err) = run(&["sudoku", "examples/sudoku.txt"], "");
    assert_eq!(code, 0, "{err}");
    let puzzles = puzzle_lines(EXAMPLES);
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), puzzles.len());
    for (p, a) in puzzles.iter().zip(&answers) {
        assert_eq!(a.len(), 81);
        assert!(solves(&digits(p), &digits(a)), "{p} -> {a}");
    }
}

#[test]
fn counts_with_and_without_limit() {
    let (code, out, _) = run(&["sudoku", "--count", "--limit", "2", "examples/sudoku.txt"], "");
    assert_eq!(code, 0);
    // Empty board, 17 clues, hardest, anti-brute, two solutions, classic.
    assert_eq!(out, "2+\n1\n1\n1\n2+\n1\n");
    let (_, out, _) = run(&["sudoku", "--count"], TWO_SOLUTIONS);
    assert_eq!(out, "2\n");
    let (_, out, _) = run(&["sudoku", "--count", "--limit", "1"], TWO_SOLUTIONS);
    assert_eq!(out, "1+\n");
}

#[test]
fn all_streams_every_solution_and_lexmin_is_the_smallest() {
    let (code, out, _) = run(&["sudoku", "--all"], TWO_SOLUTIONS);
    assert_eq!(code, 0);
    let mut all: Vec<&str> = out.lines().collect();
    assert_eq!(all.len(), 2, "{out}");
    assert_ne!(all[0], all[1]);
    for s in &all {
        assert!(solves(&digits(TWO_SOLUTIONS), &digits(s)));
    }
    all.sort();
    let (_, smallest, _) = run(&["sudoku", "--lexmin"], TWO_SOLUTIONS);
    assert_eq!(smallest.trim_end(), all[0]);
    // JSON: one object per solution, then a summary.
    let (_, out, _) = run(&["sudoku", "--all", "--json"], TWO_SOLUTIONS);
    let objects: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["status"], "solution");
    assert_eq!(objects[2]["solutions"], 2);
    // The same word as --count: every solution was listed, so two is "multiple".
    assert_eq!(objects[2]["status"], "multiple");
    assert_eq!(objects[2]["complete"], true);
    let (_, counted, _) = run(&["sudoku", "--count", "--json"], TWO_SOLUTIONS);
    let counted: serde_json::Value = serde_json::from_str(counted.trim_end()).unwrap();
    assert_eq!((&counted["status"], &counted["solutions"]), (&objects[2]["status"], &objects[2]["solutions"]));
    // Reaching two solutions takes at least one guess.
    assert!(objects[2]["guesses"].as_u64().unwrap() >= 1, "{}", objects[2]);
    assert!(counted["guesses"].as_u64().unwrap() >= 1, "{counted}");
}

#[test]
fn all_on_the_empty_board_stops_quietly_when_the_reader_goes() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command as Process, Stdio};
    // The empty board has about 6.7e21 solutions: streaming must start at
    // once, and closing the pipe must end the run quietly with status 0.
    let mut child = Process::new(env!("CARGO_BIN_EXE_backtrack"))
        .args(["sudoku", "--all"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(".".repeat(81).as_bytes()).unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    for _ in 0..1000 {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(solves(&[0; 81], &digits(line.trim_end())), "{line}");
        seen.push(line);
    }
    seen.dedup();
    assert_eq!(seen.len(), 1000);
    drop(reader);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn threads_keep_input_order() {
    let files = [
        "tests/data/sudoku/royle_17_clue_200.txt",
        "tests/data/sudoku/forum_hardest_60.txt",
        "tests/data/sudoku/serg_100.txt",
    ];
    let (code, one, _) = run(&["sudoku", files[0], files[1], files[2]], "");
    assert_eq!(code, 0);
    let (code, two, _) = run(&["sudoku", "--threads", "2", files[0], files[1], files[2]], "");
    assert_eq!(code, 0);
    let text: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    let puzzles = puzzle_lines(&text);
    let answers: Vec<&str> = two.lines().collect();
    assert_eq!(answers.len(), puzzles.len());
    for (p, a) in puzzles.iter().zip(&answers) {
        assert!(solves(&digits(p), &digits(a)), "{p} -> {a}");
    }
    // Puzzles with several solutions may be answered differently by
    // different runs only if the solver were nondeterministic; it is not.
    assert_eq!(one, two);
    let (_, counts, _) = run(&["sudoku", "--count", "--limit", "2", "-t", "2", files[2]], "");
    assert!(counts.lines().all(|l| l == "2+"), "the serg set has several solutions per puzzle");
}

#[test]
fn json_has_one_object_per_puzzle() {
    let input = format!("{ANTI_BRUTE}\n{}x\n{TWO_SOLUTIONS}\n", &ANTI_BRUTE[..80]);
    let (code, out, err) = run(&["sudoku", "--json", "--count", "--limit", "2"], &input);
    assert_eq!(code, 2, "{err}");
    let objects: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["line"], 1);
    assert_eq!(objects[0]["index"], 0);
    assert_eq!(objects[0]["status"], "unique");
    assert_eq!(objects[0]["solutions"], 1);
    assert!(solves(&digits(ANTI_BRUTE), &digits(objects[0]["solution"].as_str().unwrap())));
    assert_eq!(objects[1]["status"], "invalid");
    assert!(objects[1]["error"].as_str().unwrap().contains("line 2, column 81"));
    assert_eq!(objects[2]["status"], "multiple");
    assert_eq!(objects[2]["complete"], false);
}

#[test]
fn output_formats() {
    let (_, grid, _) = run(&["sudoku", "--format", "grid"], ANTI_BRUTE);
    assert_eq!(grid.lines().count(), 9);
    assert!(grid.starts_with("987654321\n"));
    let (_, spaced, _) = run(&["sudoku", "--format", "spaced"], ANTI_BRUTE);
    assert!(spaced.starts_with("9 8 7 6 5 4 3 2 1\n"));
    // Grid input gives grid output by default; several grids are separated by a blank line.
    let two = format!("{SAMPLE_2239_IN}\n{SAMPLE_2239_IN}");
    let (code, out, _) = run(&["sudoku", "--lexmin"], &two);
    assert_eq!(code, 0);
    assert_eq!(out, format!("{SAMPLE_2239_OUT}\n{SAMPLE_2239_OUT}"));
    let (_, out, _) = run(&["sudoku"], SAMPLE_2580_IN);
    assert_eq!(out, SAMPLE_2580_OUT);
    // 4x4 and 16x16 puzzles in line format.
    let (code, out, _) = run(&["sudoku", "--format", "grid"], "1..4..1.2....3..\n");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 4);
    let (code, out, _) = run(&["sudoku", "--count", "--limit", "2"], &".".repeat(256));
    assert_eq!((code, out.as_str()), (0, "2+\n"));
}

#[test]
fn batch_reports_bad_puzzles_and_goes_on() {
    let no_solution = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
    let input = format!("{ANTI_BRUTE}\n{}\n# comment\n{no_solution}\n{TWO_SOLUTIONS}\n", &ANTI_BRUTE[..79]);
    let (code, out, err) = run(&["sudoku"], &input);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("987654321"));
    assert_eq!(lines[1], "# error: line 2, column 80: expected 81 cells, found 79");
    assert_eq!(lines[2], "# no solution");
    assert!(solves(&digits(TWO_SOLUTIONS), &digits(lines[3])));
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("line 2, column 80: expected 81 cells, found 79"), "{err}");
    // --strict: the run stops at the malformed puzzle, after answering those before it.
    let (code, out, err) = run(&["sudoku", "--strict"], &input);
    assert_eq!(code, 2);
    assert!(out.starts_with("987654321") && out.lines().count() == 1, "{out}");
    assert!(err.contains("line 2, column 80"), "{err}");
    // Only an unsolvable puzzle: exit 1.
    let (code, out, _) = run(&["sudoku"], no_solution);
    assert_eq!((code, out.as_str()), (1, "# no solution\n"));
}

#[test]
fn sudoku_bad_input() {
    let args = ["sudoku"];
    assert_bad_input(&args, "", 1, None);
    assert_bad_input(&args, "# only comments\n\n", 1, None);
    // A lone line of no puzzle size: the error says which sizes were tried.
    assert_bad_input(&args, &format!("# c\n{}\n", &ANTI_BRUTE[..70]), 2, None);
    // A mistyped first puzzle before good ones is that puzzle's error.
    let (code, out, err) = run(&args, &format!("# c\n{}\n{ANTI_BRUTE}\n", &ANTI_BRUTE[..70]));
    assert_eq!(code, 2);
    assert!(out.starts_with("# error: line 2, column 71: expected 81 cells, found 70\n987654321"), "{out}");
    assert!(err.contains("line 2, column 71"), "{err}");
    assert_bad_input(&args, &format!("{ANTI_BRUTE}1\n"), 1, None);
    assert_bad_input(&args, &format!("{}?{}\n", &ANTI_BRUTE[..40], &ANTI_BRUTE[41..]), 1, Some(41));
    let dup = format!("5{}", &ANTI_BRUTE[1..]); // 5 again in column 1 at row 7
    assert_bad_input(&args, &dup, 1, Some(55));
    assert_bad_input(&args, &"0 0 0 0 0 0 0 0 0\n".repeat(4), 5, None);
    assert_bad_input(&args, &"0 0 0 0 0 0 0 0 12\n".repeat(9), 1, Some(17));
    for args in [&["sudoku", "--strict"][..], &["sudoku", "--count"], &["sudoku", "--all"], &["sudoku", "--lexmin"]] {
        assert_bad_input(args, "12x\n", 1, None);
    }
    // Bad usage is exit 2 too, with nothing on stdout.
    for args in [
        &["sudoku", "--count", "--limit", "0"][..],
        &["sudoku", "--limit", "2"],
        &["sudoku", "--lexmin", "--count"],
        &["sudoku", "--format", "html"],
    ] {
        let (code, out, _) = run(args, ANTI_BRUTE);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
    }
    // A missing file is an I/O failure, not an input error.
    let (code, out, err) = run(&["sudoku", "no/such/file.txt"], "");
    assert_eq!((code, out.as_str()), (3, ""));
    assert!(err.contains("no/such/file.txt"));
}

#[test]
fn windows_line_endings_and_16x16_grids() {
    let crlf = SAMPLE_2239_IN.replace('\n', "\r\n");
    backtrack().args(["boj", "2239"]).write_stdin(crlf).assert().success().stdout(SAMPLE_2239_OUT);
    // A 16x16 grid, one row per line, letters for 10..16; the answer comes back as a grid.
    let mut rows = vec!["G...............".to_string()];
    rows.extend((1..16).map(|_| ".".repeat(16)));
    let (code, out, err) = run(&["sudoku"], &(rows.join("\n") + "\n"));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 16);
    assert!(lines[0].starts_with('G') && lines.iter().all(|l| l.len() == 16), "{out}");
}

#[test]
fn one_puzzle_counted_on_two_threads() {
    // Fewer givens than the two-solution puzzle: many solutions.
    let mut sparse: Vec<u8> = TWO_SOLUTIONS.bytes().collect();
    let givens: Vec<usize> = (0..81).filter(|&i| sparse[i] != b'.').take(4).collect();
    for i in givens {
        sparse[i] = b'.';
    }
    let sparse = String::from_utf8(sparse).unwrap();
    let (code, one, _) = run(&["sudoku", "--count"], &sparse);
    assert_eq!(code, 0);
    let (code, two, _) = run(&["sudoku", "--count", "--threads", "2"], &sparse);
    assert_eq!(code, 0);
    assert_eq!(one, two);
    assert!(one.trim().parse::<u64>().unwrap() > 2, "{one}");
    let (_, limited, _) = run(&["sudoku", "--count", "--limit", "3", "-t", "2"], &sparse);
    assert_eq!(limited, "3+\n");
    let (_, empty_4x4, _) = run(&["sudoku", "--count", "-t", "2"], &".".repeat(16));
    assert_eq!(empty_4x4, "288\n");
}

#[test]
fn sizes_tried_are_named_when_no_line_fits() {
    for input in ["y\n".repeat(100), "12x\n".to_string(), format!("{}\n", &ANTI_BRUTE[..80])] {
        let (code, out, err) = run(&["sudoku"], &input);
        assert_eq!((code, out.as_str()), (2, ""), "{input:?}");
        assert!(err.contains("tried 4x4, 9x9, 16x16 and 25x25"), "{err}");
        assert!(!err.contains("uses 1-4"), "{err}");
    }
    // `yes | backtrack sudoku` ends at once with that error.
    let bin = assert_cmd::cargo::cargo_bin("backtrack");
    let output = std::process::Command::new("sh").arg("-c").arg("yes | \"$B\" sudoku").env("B", bin).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot tell the puzzle size"));
}

/// Two puzzles as QQWing prints them (`qqwing --generate 2`).
const QQWING: &str = " . . . | . 5 . | 8 4 .
 . . 5 | 1 6 . | . 9 .
 8 6 . | . 3 . | . 7 .
-------|-------|-------
 4 . . | . 1 9 | 3 8 .
 . 3 . | . . . | . . .
 . . . | . . . | . 1 .
-------|-------|-------
 1 . 9 | . . . | . 6 .
 . 5 . | . . . | 1 . .
 . . . | . . . | . . 7

 . . . | . . 1 | . . .
 . . . | . 2 8 | . . 5
 . 4 . | . . . | . . .
-------|-------|-------
 1 . 4 | . . 6 | . . .
 . . 7 | 2 . 9 | . . .
 5 . . | . . 7 | . . 4
-------|-------|-------
 . . 2 | . 1 . | . 7 9
 6 7 . | 9 . 5 | 8 . .
 . . . | . . . | 5 6 .
";

#[test]
fn formats_people_have() {
    // QQWing's printed grids: answered as spaced grids, one per puzzle.
    let (code, out, err) = run(&["sudoku", "--format", "line"], QQWING);
    assert_eq!(code, 0, "{err}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), 2, "{out}");
    let puzzles: Vec<String> = QQWING.split("\n\n").map(|p| p.replace(['|', '-'], "")).collect();
    for (puzzle, answer) in puzzles.iter().zip(&answers) {
        assert!(solves(&digits(puzzle), &digits(answer)), "{puzzle}\n{answer}");
    }
    // A CSV with a header: the first column is the puzzle.
    let csv = format!("quizzes,solutions\n{ANTI_BRUTE},whatever\n{TWO_SOLUTIONS},\n");
    let (code, out, err) = run(&["sudoku"], &csv);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("987654321"));
    assert!(solves(&digits(TWO_SOLUTIONS), &digits(lines[1])));
    // A trailing comment after a puzzle line, on lines and on grid rows.
    let commented = format!("{ANTI_BRUTE} # from the anti-brute-force set\n{TWO_SOLUTIONS}\t# two solutions\n");
    let (code, out, _) = run(&["sudoku", "--count"], &commented);
    assert_eq!((code, out.as_str()), (0, "1\n2\n"));
    let grid = as_grid(ANTI_BRUTE, false).lines().map(|l| format!("{l}  # a row\n")).collect::<String>();
    let (code, out, _) = run(&["sudoku", "--format", "line"], &grid);
    assert_eq!(code, 0);
    assert!(out.starts_with("987654321"), "{out}");
}
