//! A UTF-8 byte-order mark (as Windows Notepad saves files) at the start of
//! any input is not part of it: every command reads such a file, or such
//! standard input, exactly as it reads the file without the mark.

use super::util::{backtrack, run};

const BOM: &str = "\u{feff}";

/// Runs `backtrack ARGS` on `input` given once as standard input (for `-`
/// in ARGS, or none) and once as a file (for `FILE` in ARGS), with and
/// without a byte-order mark: the four runs must agree.
fn same_with_bom(args: &[&str], input: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for text in [input.to_string(), format!("{BOM}{input}")] {
        let path = dir.path().join("input.txt");
        std::fs::write(&path, &text).unwrap();
        let with_file: Vec<&str> = args.iter().map(|&a| if a == "FILE" { path.to_str().unwrap() } else { a }).collect();
        let on_stdin: Vec<&str> = args.iter().map(|&a| if a == "FILE" { "-" } else { a }).collect();
        let (code, out, err) = run(&with_file, "");
        results.push((
            code,
            out.replace(path.to_str().unwrap(), "<input>"),
            err.replace(path.to_str().unwrap(), "<input>"),
        ));
        let (code, out, err) = run(&on_stdin, &text);
        results.push((code, out.replace("<stdin>", "<input>"), err.replace("<stdin>", "<input>")));
    }
    let plain = &results[0];
    assert_eq!(plain.0, 0, "{args:?} without a mark: {}", plain.2);
    for other in &results[1..] {
        assert_eq!(other, plain, "{args:?}");
    }
}

const PUZZLE: &str = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n";
const XY_WING: &str = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..\n";

#[test]
fn every_command_reads_input_that_starts_with_a_byte_order_mark() {
    let grid: String =
        PUZZLE.trim_end().as_bytes().chunks(9).map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect();
    same_with_bom(&["sudoku", "FILE"], PUZZLE);
    same_with_bom(&["sudoku", "--json", "FILE"], &grid);
    same_with_bom(&["sudoku", "rate", "FILE"], XY_WING);
    same_with_bom(&["sudoku", "explain", "FILE"], XY_WING);
    same_with_bom(&["sudoku", "hint", "FILE"], XY_WING);
    same_with_bom(&["trace", "sudoku", "--limit", "3", "FILE"], XY_WING);
    // bench's timings vary: the rest of its line must not.
    for input in [PUZZLE.to_string(), format!("{BOM}{PUZZLE}")] {
        let (code, out, err) = run(&["bench", "sudoku", "-"], &input);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"puzzles\":1,\"solved\":1,"), "{out}");
    }
    same_with_bom(&["xcover", "--threads", "1", "FILE"], include_str!("../data/xcover/toy-colors.dlx"));
    same_with_bom(&["sudominoku", "FILE"], include_str!("../data/sudominoku/sample.in"));
    same_with_bom(&["boj", "4574", "FILE"], include_str!("../data/sudominoku/sample.in"));
    same_with_bom(&["boj", "2580", "FILE"], "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n");
    same_with_bom(&["boj", "9663", "FILE"], "8\n");
    same_with_bom(&["boj", "6603", "FILE"], "7 1 2 3 4 5 6 7\n0\n");
    same_with_bom(&["boj", "15650", "FILE"], "4 2\n");
    same_with_bom(&["boj", "15654", "FILE"], "3 1\n4 5 2\n");
    same_with_bom(&["choose", "perm", "2", "--values-from", "FILE"], "9 7 9 1\n");
}

/// Shard reports and checkpoints are JSON files a person may open and save again.
#[test]
fn merge_and_checkpoints_read_files_that_start_with_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for i in 0..2 {
        let (_, report, _) = run(&["queens", "9", "--shard", &format!("{i}/2"), "--json"], "");
        let path = dir.path().join(format!("s{i}.json"));
        std::fs::write(&path, if i == 0 { format!("{BOM}{report}") } else { report }).unwrap();
        shards.push(path.to_str().unwrap().to_string());
    }
    let (code, out, err) = run(&["merge", &shards[0], &shards[1]], "");
    assert_eq!((code, out.as_str()), (0, "352\n"), "{err}");

    let checkpoint = dir.path().join("ck");
    let ck = checkpoint.to_str().unwrap();
    let first = backtrack().args(["queens", "10", "--checkpoint", ck]).output().unwrap();
    assert!(first.status.success());
    let saved = std::fs::read_to_string(&checkpoint).unwrap();
    std::fs::write(&checkpoint, format!("{BOM}{saved}")).unwrap();
    let (code, out, err) = run(&["queens", "10", "--checkpoint", ck], "");
    assert_eq!((code, out.as_str()), (0, "724\n"), "{err}");
}
