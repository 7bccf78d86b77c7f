//! `backtrack sudoku` on variant puzzles: told from the first puzzle, each
//! line answered in place (errors too), every mode, threads in input order.

use crate::util::run;

/// ISS's "Thermo" example and its solution (data/example_puzzles.js).
const THERMO: &str = ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9.Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6.Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9~R7C8~R8C7~R9C6~R8C5~R7C4";
const THERMO_SOLUTION: &str = "847632519295471386631598247129743865486259173753816924368924751974185632512367498";

#[test]
fn variant_lines_are_solved_counted_and_errors_stay_in_place() {
    let input = format!("# a comment\n{THERMO}\n.Shape~4x4.Foo~1\n.Shape~4x4.Cage~2~R1C1~R1C2\n{THERMO}\n");
    let (code, out, err) = run(&["sudoku"], &input);
    assert_eq!(code, 2, "{err}");
    let expected = format!(
        "{THERMO_SOLUTION}\n# error: line 3, column 12: unknown constraint type 'Foo'\n# no solution\n{THERMO_SOLUTION}\n"
    );
    assert_eq!(out, expected);
    assert!(err.contains("<stdin>: line 3, column 12: unknown constraint type 'Foo'"), "{err}");

    let (code, out, _) = run(&["sudoku", "--count", "--limit", "2"], &format!("{THERMO}\n.Shape~4x4\n"));
    assert_eq!((code, out.as_str()), (0, "1\n2+\n"));
    let (code, out, _) = run(&["sudoku", "--count"], ".Shape~4x4.NoBoxes\n");
    assert_eq!((code, out.as_str()), (0, "576\n"));
}

#[test]
fn all_json_and_threads() {
    let (code, out, _) = run(&["sudoku", "--all"], ".Shape~4x4.~R1C1_1~R1C2_2~R2C1_3\n");
    assert_eq!(code, 0);
    assert!(out.lines().count() >= 1 && out.lines().all(|l| l.len() == 16), "{out}");

    let (code, out, _) = run(&["sudoku", "--json", "--count", "--limit", "2"], &format!("{THERMO}\n"));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["status"], "unique");
    assert_eq!(v["solution"], THERMO_SOLUTION);
    assert_eq!(v["line"], 1);

    let many: String =
        (0..40).map(|i| if i % 3 == 1 { ".Shape~4x4.Bad\n".to_string() } else { format!("{THERMO}\n") }).collect();
    let (_, one, _) = run(&["sudoku", "--threads", "1"], &many);
    let (_, two, _) = run(&["sudoku", "--threads", "2"], &many);
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 40);
}

#[test]
fn candidates_as_a_grid_and_as_json() {
    let (code, out, _) = run(&["sudoku", "--candidates"], ".Shape~4x4.Cage~7~R1C2~R1C3.~R1C1_1~R4C4_1~R2C3_1\n");
    assert_eq!(code, 0);
    assert_eq!(out, "# 2+ solutions\n1   34  34  2\n234 234 1   34\n234 1   234 34\n234 234 234 1\n");
    let (_, out, _) = run(&["sudoku", "--candidates", "--json"], &format!("{THERMO}\n"));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["status"], "unique");
    assert_eq!(v["candidates"][0], serde_json::json!([8]));
    // A classic line asked for candidates goes the variant way too.
    let (code, out, _) = run(&["sudoku", "--candidates"], &format!("{}\n", THERMO_SOLUTION));
    assert_eq!(code, 0);
    assert!(out.starts_with("# 1 solution\n8 4 7 6"), "{out}");
}

#[test]
fn empty_input_and_an_overlong_line_are_bad_input() {
    // As for classic puzzles: exit 2, not 0 for nothing read or 3 as if a
    // file could not be read.
    let (code, out, err) = run(&["sudoku", "--candidates"], "");
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("empty input: no puzzle found"), "{err}");
    let (code, _, err) = run(&["sudoku", "--candidates"], "# only a comment\n\n");
    assert_eq!(code, 2, "{err}");
    let long = format!(".Shape~4x4{}\n", "~".repeat(2 << 20));
    let (code, _, err) = run(&["sudoku", "--candidates"], &long);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1: longer than"), "{err}");
}

#[test]
fn a_plain_grid_of_a_variant_only_size_is_a_variant_puzzle() {
    // 36 symbols: a 6x6 (boxes of 2 rows by 3 columns), which no classic
    // grid is; it used to stop with "cannot tell the puzzle size".
    let six = "132654654312215463463125541236326541";
    let blanked: String = six.chars().enumerate().map(|(i, c)| if i % 5 == 0 { c } else { '.' }).collect();
    let (code, out, err) = run(&["sudoku", "--count"], &format!("{blanked}\n"));
    assert_eq!(code, 0, "{err}");
    let count: u64 = out.trim().parse().unwrap();
    assert!(count >= 1, "{out}");
    let (code, out, err) = run(&["sudoku"], &format!("{six}\n"));
    assert_eq!((code, out.as_str()), (0, format!("{six}\n").as_str()), "{err}");
}

#[test]
fn fpuzzles_json_lines_urls_and_whole_documents() {
    let lines = std::fs::read_to_string("examples/fpuzzles.txt").unwrap();
    let (json, url) = lines.trim().split_once('\n').unwrap();
    let input = format!("{json}\n{{\"size\":4,\"grid\":[],\"clone\":[]}}\n{url}\n");
    let (code, out, err) = run(&["sudoku"], &input);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        out,
        format!(
            "1234341243212143\n# error: line 2, column 21: clone: unsupported f-puzzles constraint 'clone'\n{THERMO_SOLUTION}\n"
        )
    );
    // A file that is one pretty-printed document is one puzzle; its errors
    // count lines from the top of the file.
    let pretty = std::fs::read_to_string("examples/fpuzzles.json").unwrap();
    let (code, out, _) = run(&["sudoku", "--count"], &format!("# a comment\n\n{pretty}"));
    assert_eq!((code, out.as_str()), (0, "1\n"));
    let broken = pretty.replace("\"R3C4\"", "\"R3C5\"");
    let (code, out, err) = run(&["sudoku"], &format!("# a comment\n{broken}"));
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "# error: line 13, column 37: difference[0].cells[1]: 'R3C5' is not a cell of a 4x4 grid\n");
    let (code, out, _) = run(&["sudoku"], "{\"size\": 4,\n\"grid\": [\n");
    assert_eq!((code, out.as_str()), (2, "# error: line 3: not f-puzzles JSON: EOF while parsing a list\n"));
}

#[test]
fn two_threads_answer_in_input_order_with_a_bad_line_in_place() {
    // Enough lines that several are in flight at once on two threads.
    let bad_at = 20;
    let input: String =
        (0..41).map(|i| if i == bad_at { ".Shape~4x4.Bad\n".to_string() } else { format!("{THERMO}\n") }).collect();
    let (code, out, err) = run(&["sudoku", "--threads", "2"], &input);
    assert_eq!(code, 2, "{err}");
    let expected: String = (0..41)
        .map(|i| match i == bad_at {
            true => "# error: line 21, column 12: unknown constraint type 'Bad'\n".to_string(),
            false => format!("{THERMO_SOLUTION}\n"),
        })
        .collect();
    assert_eq!(out, expected);
    // --strict: the answers before the bad line, the bad line's, nothing after.
    let (code, out, _) = run(&["sudoku", "--threads", "2", "--strict"], &input);
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), bad_at + 1, "{out}");
    assert!(out.ends_with("unknown constraint type 'Bad'\n"), "{out}");
}
