//! `backtrack sudoku generate | rate | explain | hint` end to end, and the
//! plain `backtrack sudoku FILE` next to them.

use std::process::Command as Process;

use serde_json::Value;

use super::sudoku::run;

/// The first puzzle of the development set, rated 4.2/1.2/1.2 by Sudoku Explainer.
const XY_WING: &str = "............2.6...2.1.3.9.8.1..9..5..498.137....6.7....8.574.9.9...6...5..59.34..";
/// A puzzle of the forum's 11+ list, rated 11.1/11.1/11.1 by Sudoku Explainer: its first step is
/// a dynamic forcing chain with multiple forcing chains nested inside.
const HARDEST: &str = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
const TWO_SOLUTIONS: &str = "...46.2.87..1.5....6.......3..5....78....3........7.13.1...2....4.7.1.5.2..39....";

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn generate_is_reproducible_and_unique() {
    let (code, first, _) = run(&["sudoku", "generate", "--count", "20", "--seed", "7", "--threads", "1"], "");
    assert_eq!(code, 0);
    let (_, again, _) = run(&["sudoku", "generate", "-n", "20", "--seed", "7", "--threads", "2"], "");
    assert_eq!(first, again);
    let (_, other, _) = run(&["sudoku", "generate", "-n", "20", "--seed", "8"], "");
    assert_ne!(first, other);
    assert_eq!(lines(&first).len(), 20);
    assert!(lines(&first).iter().all(|l| l.len() == 81));
    let (code, counts, _) = run(&["sudoku", "--count", "--limit", "2"], &first);
    assert_eq!(code, 0);
    assert_eq!(lines(&counts), vec!["1"; 20]);
}

#[test]
fn generated_puzzles_are_unique_for_qqwing_too() {
    let (_, plain, _) = run(&["sudoku", "generate", "-n", "30", "--seed", "3"], "");
    let (_, symmetric, _) = run(&["sudoku", "generate", "-n", "20", "--seed", "3", "--symmetry", "rot180"], "");
    let (_, minimal, _) =
        run(&["sudoku", "generate", "-n", "10", "--seed", "3", "--symmetry", "rot90", "--minimal"], "");
    let puzzles = format!("{plain}{symmetric}{minimal}");
    let Ok(mut child) = Process::new("qqwing")
        .args(["--solve", "--count-solutions", "--one-line", "--nosolution"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        crate::skip::skip(
            "generated_puzzles_are_unique_for_qqwing_too",
            "qqwing is not installed",
            crate::skip::under_ci(),
        );
        return;
    };
    use std::io::Write;
    child.stdin.take().unwrap().write_all(puzzles.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("is unique").count(), 60, "{text}");
}

#[test]
fn generate_options_and_their_errors() {
    let (code, out, _) = run(&["sudoku", "generate", "--size", "4", "-n", "3", "--seed", "1"], "");
    assert_eq!(code, 0);
    assert!(lines(&out).iter().all(|l| l.len() == 16), "{out}");
    let (code, out, _) = run(
        &["sudoku", "generate", "-n", "3", "--seed", "1", "--symmetry", "mirror", "--minimal", "--clues", "30"],
        "",
    );
    assert_eq!(code, 0);
    for line in lines(&out) {
        assert!(line.bytes().filter(u8::is_ascii_digit).count() <= 30);
        let b = line.as_bytes();
        assert!((0..81).all(|i| (b[i] == b'.') == (b[i / 9 * 9 + 8 - i % 9] == b'.')), "{line}");
    }
    let (code, out, _) = run(&["sudoku", "generate", "-n", "2", "--seed", "4", "--rating", "3.0..4.0"], "");
    assert_eq!(code, 0);
    let (_, rated, _) = run(&["sudoku", "rate"], &out);
    for r in lines(&rated) {
        let er: f64 = r.split('/').next().unwrap().parse().unwrap();
        assert!((3.0..=4.0).contains(&er), "{r}");
    }
    for bad in [
        &["sudoku", "generate", "--size", "7"][..],
        &["sudoku", "generate", "--symmetry", "spiral"],
        &["sudoku", "generate", "--threads", "2000"],
        &["sudoku", "generate", "--rating", "5..4"],
        &["sudoku", "generate", "--technique", "guessing"],
        &["sudoku", "generate", "--size", "16", "--rating", "2..3"],
    ] {
        let (code, _, err) = run(bad, "");
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
    let (code, _, err) = run(&["sudoku", "generate", "--clues", "12", "--attempts", "2", "--seed", "1"], "");
    assert_eq!(code, 1, "{err}");
}

#[test]
fn rate_prints_er_ep_ed_and_json() {
    let input = format!("{XY_WING}\n{HARDEST}\n");
    let (code, out, _) = run(&["sudoku", "rate", "--threads", "1"], &input);
    assert_eq!(code, 0);
    let got = lines(&out);
    assert_eq!(got[0], "4.2/1.2/1.2");
    assert_eq!(got[1], "11.1/11.1/11.1");
    let (_, out, _) = run(&["sudoku", "rate", "--json"], &input);
    let objects: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects[0]["er"], 4.2);
    assert_eq!(objects[0]["ep"], 1.2);
    assert_eq!(objects[0]["hardest"], "XY-Wing");
    assert_eq!(objects[1]["er"], 11.1);
    assert_eq!(objects[1]["hardest"], "Dynamic Forcing Chain (+ Multiple Forcing Chains)");
    assert_eq!(objects[1]["beyond"], false);
    assert_eq!(objects[1]["status"], "rated");
    let (code, out, _) = run(&["sudoku", "rate"], &format!("{TWO_SOLUTIONS}\n"));
    assert_eq!((code, out.trim()), (1, "# more than one solution"));
    let (code, _, err) = run(&["sudoku", "rate"], "12x\n");
    assert_eq!(code, 2, "{err}");
}

/// Replays `explain --json` steps on the puzzle and checks them against the solver's solution.
#[test]
fn explain_steps_reach_the_solution() {
    let (_, puzzles, _) = run(&["sudoku", "generate", "-n", "30", "--seed", "12"], "");
    let (code, explained, _) = run(&["sudoku", "explain", "--json"], &puzzles);
    assert_eq!(code, 0);
    let (_, solutions, _) = run(&["sudoku"], &puzzles);
    for ((puzzle, json), solution) in puzzles.lines().zip(explained.lines()).zip(solutions.lines()) {
        let v: Value = serde_json::from_str(json).unwrap();
        let solution: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        let mut grid: Vec<u8> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
        let mut max = 0.0f64;
        for step in v["steps"].as_array().unwrap() {
            max = max.max(step["rating"].as_f64().unwrap());
            assert!(!step["text"].as_str().unwrap().is_empty());
            for p in step["placements"].as_array().unwrap() {
                let (r, c, d) = (p[0].as_u64().unwrap(), p[1].as_u64().unwrap(), p[2].as_u64().unwrap());
                assert!((1..=9).contains(&r) && (1..=9).contains(&c));
                let i = ((r - 1) * 9 + c - 1) as usize;
                assert_eq!(solution[i] as u64, d, "{puzzle}: {step}");
                grid[i] = d as u8;
            }
            for e in step["eliminations"].as_array().unwrap() {
                let i = ((e[0].as_u64().unwrap() - 1) * 9 + e[1].as_u64().unwrap() - 1) as usize;
                assert_ne!(solution[i] as u64, e[2].as_u64().unwrap(), "{puzzle}: {step}");
            }
        }
        if v["beyond"].is_null() {
            assert_eq!(grid, solution, "{puzzle}");
            assert_eq!(v["er"].as_f64().unwrap(), max);
        }
    }
    let (_, text, _) = run(&["sudoku", "explain"], &format!("{XY_WING}\n"));
    assert!(text.contains("XY-Wing: pivot"), "{text}");
    assert!(text.contains("Rating 4.2/1.2/1.2"), "{text}");
}

#[test]
fn hint_gives_the_next_step_from_a_partial_grid() {
    // The puzzle with the first row of its solution filled in.
    let (_, solution, _) = run(&["sudoku"], &format!("{XY_WING}\n"));
    let mut partial: Vec<u8> = XY_WING.bytes().collect();
    partial[..9].copy_from_slice(&solution.as_bytes()[..9]);
    let partial = String::from_utf8(partial).unwrap();
    let (code, out, _) = run(&["sudoku", "hint", "--json"], &format!("{partial}\n"));
    assert_eq!(code, 0);
    let step: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(step["technique"], "Hidden Single");
    let p = &step["placements"][0];
    let i = ((p[0].as_u64().unwrap() - 1) * 9 + p[1].as_u64().unwrap() - 1) as usize;
    assert_eq!(solution.as_bytes()[i] - b'0', p[2].as_u64().unwrap() as u8);
    let (code, out, _) = run(&["sudoku", "hint"], &solution);
    assert_eq!((code, out.trim()), (1, "# solved"));
    // A full grid is complete, not an error.
    let (code, out, _) = run(&["sudoku", "hint", "--json"], &solution);
    let full: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((code, &full["status"]), (1, &Value::from("complete")), "{full}");
    assert!(full.get("error").is_none(), "{full}");
    // A digit that clashes with no given but is not the solution's.
    let givens = XY_WING.as_bytes();
    let clashes = |d: u8| (0..81).any(|i| givens[i] == d && (i / 9 == 0 || i % 9 == 0 || (i / 27 == 0 && i % 9 < 3)));
    let d = (b'1'..=b'9').find(|&d| d != solution.as_bytes()[0] && !clashes(d)).unwrap();
    let wrong = format!("{}{}", d as char, &XY_WING[1..]);
    let (code, out, _) = run(&["sudoku", "hint"], &format!("{wrong}\n"));
    assert_eq!(code, 1);
    assert!(out.starts_with("# no solution: ") && out.contains(&format!("r1c1={}", d as char)), "{out}");
}

#[test]
fn plain_sudoku_files_still_solve_next_to_subcommands() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.txt");
    std::fs::write(&path, format!("{XY_WING}\n")).unwrap();
    let (code, out, _) = run(&["sudoku", path.to_str().unwrap()], "");
    assert_eq!(code, 0);
    assert_eq!(out.trim().len(), 81);
    let (code, out, _) = run(&["sudoku", "rate", path.to_str().unwrap()], "");
    assert_eq!((code, out.trim()), (0, "4.2/1.2/1.2"));
    // The solver's options do not belong to a subcommand.
    let (code, _, err) = run(&["sudoku", "rate", "--count"], "");
    assert_eq!(code, 2, "{err}");
}

/// With `--json`, every puzzle gets exactly one JSON object, in input order:
/// one without a solution or with several too, not a `#` text line.
#[test]
fn json_answers_one_object_for_every_puzzle() {
    let no_solution = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
    let input = format!("{XY_WING}\n{no_solution}\n{TWO_SOLUTIONS}\n12x\n");
    for command in ["rate", "explain", "hint"] {
        let (code, out, _) = run(&["sudoku", command, "--json"], &input);
        let objects: Vec<Value> = lines(&out)
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{command}: not JSON: {l:?}: {e}")))
            .collect();
        assert_eq!(objects.len(), 4, "{command}: {out}");
        assert!(objects[0].get("error").is_none(), "{command}: {}", objects[0]);
        for (object, line, status) in [(&objects[1], 2, "no_solution"), (&objects[2], 3, "multiple")] {
            assert_eq!(object["line"], line, "{command}: {object}");
            assert_eq!(object["status"], status, "{command}: {object}");
            assert!(object.get("error").is_none(), "{command}: only a malformed puzzle has an error: {object}");
        }
        assert_eq!(objects[3]["line"], 4, "{command}: {}", objects[3]);
        assert_eq!(objects[3]["status"], "invalid", "{command}: {}", objects[3]);
        // A malformed puzzle outranks one without an answer: 2.
        assert_eq!(code, 2, "{command}");
        // Without the malformed one: nothing found for some puzzle, 1.
        let (code, out, _) = run(&["sudoku", command, "--json"], &format!("{no_solution}\n{TWO_SOLUTIONS}\n"));
        assert_eq!(code, 1, "{command}");
        assert!(lines(&out).iter().all(|l| serde_json::from_str::<Value>(l).is_ok()), "{command}: {out}");
    }
}

#[test]
fn hint_names_the_wrong_digit_of_a_grid_without_a_solution() {
    // A solved grid with 30 cells blanked and r8c9 set to 1, against no given of its row, column or box.
    let one_wrong = "..76.432...61739.53.1928.4612..37.946348.2.5779.4..8325.928..734723....186...5..9";
    let (code, out, _) = run(&["sudoku", "hint"], &format!("{one_wrong}\n"));
    assert_eq!((code, out.as_str()), (1, "# no solution: r8c9=1 is wrong (without it the grid has a solution)\n"));
    let (_, json, _) = run(&["sudoku", "hint", "--json"], &format!("{one_wrong}\n"));
    assert!(json.contains(r#""status":"no_solution","wrong":[[8,9,1]]"#), "{json}");
    // The top-right cell can only be 9, and column 9 has one: taking away any of them would do.
    let several = "123456780000000000000000000000000000000000009000000000000000000000000000000000000";
    let (_, out, _) = run(&["sudoku", "hint"], &format!("{several}\n"));
    assert!(out.starts_with("# no solution: one of r1c1=1, r1c2=2, ") && out.contains(", ... is wrong"), "{out}");
}

#[test]
fn explain_heads_each_puzzle_with_a_line() {
    let (code, out, _) = run(&["sudoku", "explain"], &format!("{XY_WING}\n{XY_WING}\n"));
    assert_eq!(code, 0);
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("Puzzle ")).collect();
    assert_eq!(heads, [format!("Puzzle {XY_WING}"), format!("Puzzle {XY_WING}")]);
    assert!(out.starts_with("Puzzle "), "{out}");
}

#[test]
fn generate_refuses_a_count_of_zero() {
    let (code, out, err) = run(&["sudoku", "generate", "--count", "0"], "");
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("'0' for '--count <K>'"), "{err}");
}

/// `puzzle`'s pencil marks: a given's cell holds its digit alone, an empty
/// cell every digit none of its row, column and box gives (729 symbols).
pub fn pencil_marks(puzzle: &str) -> String {
    let given: Vec<u8> = puzzle.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
    let sees = |a: usize, b: usize| a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
    (0..81)
        .flat_map(|cell| {
            let given = &given;
            (1..=9u8).map(move |d| {
                let kept = match given[cell] {
                    0 => !(0..81).any(|peer| peer != cell && sees(cell, peer) && given[peer] == d),
                    g => g == d,
                };
                if kept {
                    char::from(b'0' + d)
                } else {
                    '.'
                }
            })
        })
        .collect()
}

/// Pencil-mark grids start the rater from their candidates: the marks a
/// puzzle's givens allow give the givens' answers; a candidate removed
/// from r9c8 of the hardest puzzle (4 of 4 and 9, the solution's 9 kept)
/// turns its next step from a forcing chain into a naked single.
#[test]
fn hint_and_explain_start_from_pencil_marks() {
    let marks = pencil_marks(XY_WING);
    assert_eq!(marks.len(), 729);
    for ask in ["hint", "rate"] {
        let (code, from_marks, err) = run(&["sudoku", ask, "-"], &format!("{marks}\n"));
        assert_eq!(code, 0, "{ask}: {err}");
        let (_, from_givens, _) = run(&["sudoku", ask, "-"], &format!("{XY_WING}\n"));
        assert_eq!(from_marks, from_givens, "{ask}");
    }
    let (code, explained, err) = run(&["sudoku", "explain", "-"], &format!("{marks}\n"));
    assert_eq!(code, 0, "{err}");
    let (_, from_givens, _) = run(&["sudoku", "explain", "-"], &format!("{XY_WING}\n"));
    assert_eq!(lines(&explained)[0], format!("Puzzle {marks}"));
    assert_eq!(lines(&explained)[1..], lines(&from_givens)[1..]);

    let (_, chain, _) = run(&["sudoku", "hint", "-"], &format!("{HARDEST}\n"));
    assert!(chain.contains("Forcing Chain"), "{chain}");
    let mut marks = pencil_marks(HARDEST);
    let r9c8 = (8 * 9 + 7) * 9;
    assert_eq!(&marks[r9c8..r9c8 + 9], "...4....9");
    marks.replace_range(r9c8..r9c8 + 9, "........9");
    let (code, out, err) = run(&["sudoku", "hint", "-"], &format!("{marks}\n"));
    assert_eq!(
        (code, out.as_str()),
        (0, "Naked single: 9 is the only candidate left in r9c8: r9c8=9 [2.3]\n"),
        "{err}"
    );
    let (code, out, _) = run(&["sudoku", "hint", "--json", "-"], &format!("# marks\n\n{marks}\n"));
    assert_eq!(code, 0);
    let answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((answer["line"].as_u64(), &answer["technique"]), (Some(3), &"Naked Single".into()));
    assert_eq!(answer["placements"], serde_json::json!([[9, 8, 9]]));
    let (code, out, err) = run(&["sudoku", "explain", "-"], &format!("{marks}\n"));
    assert_eq!(code, 0, "{err}");
    assert!(lines(&out)[1].starts_with("  1. [2.3] Naked single") && lines(&out)[1].ends_with("r9c8=9"), "{out}");
}

#[test]
fn bad_pencil_marks_are_located() {
    let good = pencil_marks(XY_WING);
    let mut bad_symbol = good.clone();
    bad_symbol.replace_range(99..100, "x");
    let input = format!("{good}\n# c\n{bad_symbol}\n{}\n", &good[..728]);
    for ask in ["hint", "explain", "rate"] {
        let (code, out, err) = run(&["sudoku", ask, "-"], &input);
        assert_eq!(code, 2, "{ask}: {out}");
        let answers = lines(&out);
        assert!(answers.len() >= 3, "{out}");
        assert!(answers[answers.len() - 2].starts_with("# error: line 3, column 100: 'x'"), "{out}");
        assert!(answers[answers.len() - 1].starts_with("# error: line 4, column 729:"), "{out}");
        assert!(err.contains("<stdin>: line 3, column 100:") && err.contains("line 4, column 729:"), "{err}");
    }
    // Marks that leave no solution: r1c1 keeps only the 1 that r3c3 gives.
    let mut clash = good.clone();
    clash.replace_range(0..9, "1........");
    let (code, out, _) = run(&["sudoku", "hint", "-"], &format!("{clash}\n"));
    assert_eq!((code, out.as_str()), (1, "# no solution\n"));
}
