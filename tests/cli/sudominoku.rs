//! `backtrack boj 4574` and `backtrack sudominoku`, end to end through the binary.

use super::util::{assert_rejected, backtrack, output as run};

const SAMPLE_IN: &str = include_str!("../data/sudominoku/sample.in");
const SAMPLE_OUT: &str = include_str!("../data/sudominoku/sample.out");

/// A puzzle with no solution: all nine single digits on cells of one chessboard colour,
/// while the 36 dominoes cover 36 cells of each colour.
const UNSOLVABLE: &str = "1\n7 E5 8 E6\nA1 B2 C3 D4 E1 F6 G7 H8 I9\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn judge_sample() {
    let out = run(&["boj", "4574"], SAMPLE_IN);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), SAMPLE_OUT);
}

#[test]
fn command_reads_files_and_stdin() {
    let from_file = backtrack().args(["sudominoku", "tests/data/sudominoku/sample.in"]).output().unwrap();
    assert!(from_file.status.success());
    assert_eq!(text(&from_file.stdout), SAMPLE_OUT);
    let from_stdin = run(&["sudominoku", "-"], SAMPLE_IN);
    assert_eq!(text(&from_stdin.stdout), SAMPLE_OUT);
    // The terminating 0 may be left out.
    let unterminated = SAMPLE_IN.trim_end().trim_end_matches('0');
    assert_eq!(text(&run(&["sudominoku"], unterminated).stdout), SAMPLE_OUT);
}

#[test]
fn count_lexmin_and_json() {
    assert_eq!(text(&run(&["sudominoku", "--count"], SAMPLE_IN).stdout), "Puzzle 1: 1\nPuzzle 2: 1\n");
    assert_eq!(
        text(&run(&["sudominoku", "--count", "--limit", "1"], SAMPLE_IN).stdout),
        "Puzzle 1: 1+\nPuzzle 2: 1+\n"
    );
    assert_eq!(text(&run(&["sudominoku", "--lexmin"], SAMPLE_IN).stdout), SAMPLE_OUT);
    let json = text(&run(&["sudominoku", "--json"], SAMPLE_IN).stdout);
    let rows: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2);
    let grid: String = SAMPLE_OUT.lines().skip(1).take(9).collect();
    assert_eq!(rows[0]["puzzle"], 1);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solution"], grid.as_str());
    let counted = text(&run(&["sudominoku", "--json", "--count"], SAMPLE_IN).stdout);
    let first: serde_json::Value = serde_json::from_str(counted.lines().next().unwrap()).unwrap();
    assert_eq!(first["solutions"], 1);
    assert_eq!(first["complete"], true);
    assert_eq!(first["status"], "unique");
}

#[test]
fn no_solution() {
    // The problem promises solvable puzzles: an unsolvable one is input out of range.
    let out = run(&["boj", "4574"], &format!("{UNSOLVABLE}0\n"));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("puzzle 1 has no solution"));
    // The command still solves the others.
    let both = format!("{UNSOLVABLE}{SAMPLE_IN}");
    let out = run(&["sudominoku"], &both);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), SAMPLE_OUT.replace("Puzzle 2", "Puzzle 3").replace("Puzzle 1", "Puzzle 2"));
    assert_eq!(text(&run(&["sudominoku", "--count"], UNSOLVABLE).stdout), "Puzzle 1: 0\n");
}

fn rejects(input: &str, place: &str) {
    assert_rejected(&["boj", "4574"], input, place);
}

#[test]
fn malformed_input() {
    // Singles that agree with a 1 on A1 and a 2 on A2.
    let singles = "E5 F7 B4 C7 D1 G2 H3 I6 I9";
    rejects("", "line 1, column 1: expected the number of dominoes");
    rejects("ten\n", "line 1, column 1: expected the number of dominoes (1 to 36, or 0 to end), found `ten`");
    rejects("40\n", "line 1, column 1");
    rejects(&format!("1\n1 A1 2 K2\n{singles}\n0\n"), "line 2, column 8: expected a location A1-I9, found `K2`");
    rejects(&format!("1\n1 A1 2 A10\n{singles}\n0\n"), "line 2, column 8");
    rejects(&format!("1\n1 A1 10 A2\n{singles}\n0\n"), "line 2, column 6: expected a digit 1-9, found `10`");
    rejects(
        &format!("1\n1 A1 2 B2\n{singles}\n0\n"),
        "line 2, column 8: the two halves of a domino must be side by side",
    );
    rejects(&format!("2\n1 A1 2 A2\n2 E5 1 E6\n{singles}\n0\n"), "line 3, column 3: the domino 1-2 is used twice");
    rejects(&format!("2\n1 A1 2 A2\n3 A2 4 A3\n{singles}\n0\n"), "line 3, column 3: A2 is already covered");
    rejects("1\n1 A1 2 A2\nA5 F7 B4 C7 D1 G2 H3 I6 I9\n0\n", "line 3, column 1: 1 at A5 repeats the 1 at A1");
    rejects("1\n1 A1 2 A2\nE5 F7 B4 C7\n", "line 4, column 1: expected the location of the digit 5");
    rejects("2\n1 A1 2 A2\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n0\n", "line 3, column 1: expected a digit 1-9, found `E5`");
    // A bad puzzle after a good one: nothing is written.
    rejects(
        &format!("{}1\n1 A1 2 Z9\n{singles}\n0\n", SAMPLE_IN.trim_end().trim_end_matches('0')),
        "line 27, column 8",
    );
}

#[test]
fn the_command_reports_a_bad_puzzle_and_solves_the_rest() {
    let input = format!("1\n1 A1 2 Z9\nE5 F7 B4 C7 D1 G2 H3 I6 I9\n{SAMPLE_IN}");
    let out = run(&["sudominoku"], &input);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("puzzle 1: line 2, column 8"));
    assert_eq!(text(&out.stdout), SAMPLE_OUT.replace("Puzzle 2", "Puzzle 3").replace("Puzzle 1", "Puzzle 2"));
}
