//! `backtrack bench sudoku` end to end through the binary.

use super::util::run;

const ROYLE: &str = "tests/data/sudoku/royle_17_clue_200.txt";
const SERG: &str = "tests/data/sudoku/serg_100.txt";

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn one_json_line_per_file_with_the_documented_keys() {
    let (code, out, err) = run(&["bench", "sudoku", ROYLE, SERG], "");
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let keys = ["file", "puzzles", "solved", "seconds", "puzzles_per_sec", "us_per_puzzle", "guesses_per_puzzle"];
    for line in &lines {
        for key in keys {
            assert!(line.get(key).is_some(), "{key} missing in {line}");
        }
        assert_eq!(line["mode"], "count<=2");
    }
    // Keys come in the documented order.
    let positions: Vec<usize> = keys.iter().map(|k| out.find(&format!("\"{k}\"")).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{out}");
    assert_eq!(lines[0]["file"], ROYLE);
    assert_eq!(lines[0]["puzzles"], 199);
    assert_eq!(lines[0]["solved"], 199);
    assert_eq!(lines[1]["puzzles"], 100);
    assert_eq!(lines[1]["solved"], 100);
    assert!(lines[1]["guesses_per_puzzle"].as_f64().unwrap() > 0.0);
}

#[test]
fn modes_threads_and_repeats() {
    for args in [
        &["bench", "sudoku", "--first", ROYLE][..],
        &["bench", "sudoku", "--limit", "1", "--threads", "2", ROYLE],
        &["bench", "sudoku", "--lexmin", "--repeat", "2", ROYLE],
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let lines = json_lines(&out);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["solved"], 199, "{args:?}");
    }
    let (_, out, _) = run(&["bench", "sudoku", "--threads", "2", "-"], &".".repeat(81));
    assert_eq!(json_lines(&out)[0]["threads"], 2);
    // Unsolvable puzzles are answered (0 solutions) and counted as unsolved.
    let no_solution = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
    let (code, out, _) = run(&["bench", "sudoku", "-"], &format!("{no_solution}\n{}\n", ".".repeat(81)));
    assert_eq!(code, 0);
    let line = &json_lines(&out)[0];
    assert_eq!((line["puzzles"].as_u64(), line["solved"].as_u64()), (Some(2), Some(1)));
}

#[test]
fn bench_bad_input() {
    let good = ".".repeat(81);
    for (input, place) in [
        (String::new(), "line 1:"),
        (format!("{good}\n{}\n", &good[..80]), "line 2, column 81:"),
        (format!("{}x{}\n", &good[..5], &good[6..]), "line 1, column 6:"),
        (format!("# c\n5{}5{}\n", &good[..7], &good[..72]), "line 2, column 9:"),
        ("0 0 0 0 0 0 0 0 0\n".repeat(3), "line 4:"),
    ] {
        let (code, out, err) = run(&["bench", "sudoku", "-"], &input);
        assert_eq!(code, 2, "{input:?}: {err}");
        assert_eq!(out, "", "{input:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(place), "{input:?}: {err}");
    }
    // A bad second file: nothing is printed for the first either.
    let (code, out, _) = run(&["bench", "sudoku", ROYLE, "-"], "12x\n");
    assert_eq!((code, out.as_str()), (2, ""));
    // No file at all is a usage error.
    let (code, out, _) = run(&["bench", "sudoku"], "");
    assert_eq!((code, out.as_str()), (2, ""));
}

const VARIANT: &str = "examples/variant.txt";

/// Variant puzzles go to the variant solver, in every mode but --lexmin,
/// and report in the classic lines' shape.
#[test]
fn variant_files_are_benchmarked_in_the_same_shape() {
    let (code, out, err) = run(&["bench", "sudoku", "--threads", "1", VARIANT, SERG], "");
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let keys: Vec<&String> = lines[1].as_object().unwrap().keys().collect();
    assert_eq!(lines[0].as_object().unwrap().keys().collect::<Vec<_>>(), keys);
    assert_eq!(lines[0]["file"], VARIANT);
    assert_eq!((lines[0]["puzzles"].as_u64(), lines[0]["solved"].as_u64()), (Some(3), Some(3)));
    assert_eq!((&lines[0]["mode"], &lines[0]["threads"]), (&"count<=2".into(), &1.into()));
    // The thermometer puzzle needs guesses: a count to 2 has to search.
    assert!(lines[0]["guesses_per_puzzle"].as_f64().unwrap() > 0.0, "{out}");
    assert!(lines[0]["seconds"].as_f64().unwrap() > 0.0, "{out}");
    for (args, mode) in [
        (&["bench", "sudoku", "--first", "--repeat", "2", "--threads", "2", VARIANT][..], "first"),
        (&["bench", "sudoku", "--limit", "1", "examples/fpuzzles.json"], "count<=1"),
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let line = &json_lines(&out)[0];
        assert_eq!(line["mode"], mode, "{args:?}");
        assert_eq!(line["solved"], line["puzzles"], "{args:?}");
    }
    // Counted as unsolved when the rules leave no solution.
    let input = ".Shape~4x4.~R1C1_1~R1C2_1\n.Shape~4x4.Thermo~R1C1~R1C2~R1C3~R1C4\n";
    let (code, out, err) = run(&["bench", "sudoku", "-"], input);
    assert_eq!(code, 0, "{err}");
    let line = &json_lines(&out)[0];
    assert_eq!((line["puzzles"].as_u64(), line["solved"].as_u64()), (Some(2), Some(1)));
}

#[test]
fn variant_bad_input_stops_before_anything_is_printed() {
    let (code, out, err) = run(&["bench", "sudoku", "--lexmin", VARIANT], "");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("--lexmin is for classic grids"), "{err}");
    let input = ".Shape~4x4.Cage~7~R1C2~R1C3\n# c\n.Shape~4x4.Spiral~R1C1\n";
    let (code, out, err) = run(&["bench", "sudoku", SERG, "-"], input);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("line 3, column 12:") && err.contains("Spiral"), "{err}");
}
