//! `backtrack trace` and `backtrack web` end to end; the page itself in
//! headless Chromium (tests/web/workbench.mjs, through playwright-core).
//!
//! The browser tests need Node, Chromium and `npm ci --prefix tests/web`
//! (`.ci/run` installs them). Where one is missing they say so and pass,
//! unless `BACKTRACK_BROWSER_TESTS=1` asks for them (as `.ci/run` does).

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use super::skip::{skip, under_ci};
use super::util::backtrack;

fn lines_of(args: &[&str]) -> Vec<String> {
    let out = backtrack().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn trace_queens_lines_read_like_the_tree() {
    let lines = lines_of(&["trace", "queens", "4", "--order", "naive"]);
    assert_eq!(
        lines[..4],
        [
            "try row 1 col 1",
            "  reject row 2 col 1: same column as row 1 col 1",
            "  reject row 2 col 2: same diagonal as row 1 col 1",
            "  try row 2 col 3"
        ]
    );
    let solutions: Vec<&String> = lines.iter().filter(|l| l.trim_start().starts_with("solution")).collect();
    assert_eq!(solutions, ["        solution 1: 2 4 1 3", "        solution 2: 3 1 4 2"]);
    // Every line is indented by whole levels, one deeper at most than the line before.
    let mut depth = 0;
    for line in &lines[..lines.len() - 1] {
        let indent = line.len() - line.trim_start().len();
        assert_eq!(indent % 2, 0, "{line}");
        assert!(indent / 2 <= depth + 1, "{line}");
        depth = indent / 2;
    }
    assert_eq!(lines.last().unwrap(), "summary: 2 solutions; nodes: naive 60, smart 16");
}

#[test]
fn trace_limit_json_and_errors() {
    let limited = lines_of(&["trace", "queens", "8", "--limit", "7"]);
    assert_eq!(limited.len(), 8);
    assert_eq!(limited[7], "summary: 92 solutions; nodes: naive 15720, smart 2056");
    let json = lines_of(&["trace", "choose", "comb", "4", "2", "--json"]);
    let events: Vec<serde_json::Value> = json.iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let plain = lines_of(&["trace", "choose", "comb", "4", "2"]);
    assert_eq!(events.len(), plain.len());
    for (event, line) in events.iter().zip(&plain).take(plain.len() - 1) {
        assert_eq!(event["line"], line.as_str());
    }
    assert_eq!(events.last().unwrap()["summary"]["solutions"], 6);
    backtrack().args(["trace", "queens", "0"]).assert().code(2);
    backtrack().args(["trace", "sudoku"]).write_stdin("12x4\n").assert().code(2);
    backtrack().args(["trace", "sudoku", "no-such-file"]).assert().code(3);
    // No solution: exit status 1, the summary still printed.
    let out = backtrack().args(["trace", "queens", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("summary: 0 solutions; nodes: naive 18, smart 5\n"));
}

/// Each trace subcommand whose summary search is stopped says that its
/// count is a lower bound, in its text as in its JSON.
#[test]
fn trace_summary_of_a_stopped_search_is_a_lower_bound() {
    // Each run walks 20 million nodes: the binary's text and its JSON once
    // each here; the library's `trace` tests stop queens, sudoku and
    // permutations alike.
    let lines = lines_of(&["trace", "queens", "14", "--limit", "0"]);
    let summary = lines.last().unwrap();
    assert!(summary.starts_with("summary: stopped after 20000000 nodes: at least "), "{summary}");
    let queens_found = lines[0].split(' ').nth(7).unwrap().parse::<u64>().unwrap();
    // 14 queens have 365,596 solutions; the stopped search found fewer.
    assert!(queens_found < 365_596, "{queens_found}");
    let json = lines_of(&["trace", "choose", "perm", "12", "12", "--limit", "0", "--json"]);
    let last: serde_json::Value = serde_json::from_str(json.last().unwrap()).unwrap();
    assert_eq!(last["summary"]["complete"], false, "{last}");
    assert_eq!(last["summary"]["stopped"], true, "{last}");
}

#[test]
fn trace_sudoku_from_stdin_matches_inline() {
    let puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let inline = lines_of(&["trace", "sudoku", "--order", "naive", "--limit", "40", puzzle]);
    let out = backtrack()
        .args(["trace", "sudoku", "--order", "naive", "--limit", "40"])
        .write_stdin(puzzle)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().collect::<Vec<_>>(), inline);
    assert_eq!(inline[0], "try r1c3=1");
    assert_eq!(inline[1], "  reject r1c4=1: 1 already in its row at r1c3");
}

/// The lines of `backtrack trace boj ID` on `input` (standard input), and its exit status.
fn boj_trace(id: &str, input: &str, extra: &[&str]) -> (Vec<String>, Option<i32>) {
    let out = backtrack().args(["trace", "boj", id]).args(extra).write_stdin(input).output().unwrap();
    (String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect(), out.status.code())
}

/// 14888, 1759 and 1987 traced both ways: the learner's first search and
/// the library's, the same answer, the nodes of each, and the cuts named.
#[test]
fn trace_judge_problems_naive_and_pruned() {
    let operators = "6\n1 2 3 4 5 6\n2 1 1 1\n";
    let (naive, code) = boj_trace("14888", operators, &["--order", "naive"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        naive[..6],
        [
            "try + 2",
            "  try + 3",
            "    try - 4",
            "      try × 5",
            "        try ÷ 6",
            "          solution 1: 1 + 2 + 3 - 4 × 5 ÷ 6 = 1 (max 1, min 1)"
        ]
    );
    // Every order of the five cards: 5! complete expressions, equal operators counted twice.
    assert_eq!(naive.iter().filter(|l| l.trim_start().starts_with("solution")).count(), 120);
    let summary = "summary: 23 solutions; nodes: naive 325, smart 112; answer: max 54, min -24";
    assert_eq!(naive.last().unwrap(), summary);
    let (smart, _) = boj_trace("14888", operators, &[]);
    assert_eq!(smart.last().unwrap(), summary);
    assert!(smart
        .iter()
        .any(|l| l.trim_start().starts_with("reject") && l.ends_with("already walked with the same operators used")));
    // The last solution line carries the extremes the judge prints.
    let last = smart.iter().rev().find(|l| l.trim_start().starts_with("solution")).unwrap();
    assert!(last.ends_with("(max 54, min -24)"), "{last}");

    let passwords = "4 6\na t c i s w\n";
    let expected = "acis acit aciw acst acsw actw aist aisw aitw astw cist cisw citw istw";
    for order in ["naive", "smart"] {
        let (lines, code) = boj_trace("1759", passwords, &["--order", order]);
        assert_eq!(code, Some(0));
        let found: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.trim_start().strip_prefix("solution "))
            .map(|l| l.split(": ").nth(1).unwrap())
            .collect();
        assert_eq!(found.join(" "), expected, "{order}");
        assert_eq!(lines.last().unwrap(), "summary: 14 solutions; nodes: naive 56, smart 32");
    }
    let (naive, _) = boj_trace("1759", passwords, &["--order", "naive"]);
    assert!(naive.contains(&"      reject w: cstw has no vowel".to_string()), "{naive:?}");
    let (smart, _) = boj_trace("1759", passwords, &[]);
    assert!(smart.contains(&"  reject s: 0 vowels left after it, 1 needed".to_string()), "{smart:?}");

    let board = "2 3\nABC\nDEF\n";
    let (naive, _) = boj_trace("1987", board, &["--order", "naive"]);
    assert_eq!(naive[..3], ["try r2c1=D", "  reject r1c1=A: A already passed at r1c1", "  try r2c2=E"]);
    let (smart, _) = boj_trace("1987", board, &[]);
    assert_eq!(
        smart.last().unwrap(),
        "summary: 1 solution; nodes: naive 31, smart 7; answer: the longest walk passes 6 cells"
    );
    assert_eq!(smart[smart.len() - 2], "reject r1c2=B: 2 cells + 4 letters not passed cannot beat 6");

    // JSON: the same lines, and the answer as numbers.
    for (id, input) in [("14888", operators), ("1759", passwords), ("1987", board)] {
        let (plain, _) = boj_trace(id, input, &[]);
        let (json, _) = boj_trace(id, input, &["--json"]);
        assert_eq!(json.len(), plain.len(), "{id}");
        for (event, line) in json.iter().zip(&plain).take(plain.len() - 1) {
            let event: serde_json::Value = serde_json::from_str(event).unwrap();
            assert_eq!(event["line"], line.as_str());
        }
        let summary: serde_json::Value = serde_json::from_str(json.last().unwrap()).unwrap();
        let answer = &summary["summary"]["answer"];
        match id {
            "14888" => assert_eq!(answer, &serde_json::json!({"extremes": {"max": 54, "min": -24}})),
            "1987" => assert_eq!(answer, &serde_json::json!({"longest": {"cells": 6}})),
            _ => assert!(answer.is_null(), "1759's answer is its solutions"),
        }
    }
}

#[test]
fn trace_judge_problems_refuse_what_they_cannot_follow() {
    let (lines, code) = boj_trace("9663", "8\n", &[]);
    assert!(lines.is_empty());
    assert_eq!(code, Some(2));
    let out = backtrack().args(["trace", "boj", "14888"]).write_stdin("2\n5 x\n0 0 1 0\n").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("<stdin>: line 2, column 3"), "{out:?}");
    let twelve = "12\n1 2 3 4 5 6 7 8 9 10 11 12\n11 0 0 0\n";
    let out = backtrack().args(["trace", "boj", "14888"]).write_stdin(twelve).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a 14888 trace takes N up to 11"), "{out:?}");
    backtrack().args(["trace", "boj", "1987", "no-such-file"]).assert().code(3);
}

/// Whether the browser tests must run: where `.ci/run` installed their tools
/// (`BACKTRACK_BROWSER_TESTS`), or under `CI=true`.
fn browser_tests_required() -> bool {
    std::env::var_os("BACKTRACK_BROWSER_TESTS").is_some() || under_ci()
}

/// Runs tests/web/workbench.mjs in `mode`, or says why it cannot.
fn browser(mode: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let chromium = std::env::var_os("CHROMIUM").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/chromium".into());
    let node_ok = StdCommand::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    let missing = if !node_ok {
        Some("node")
    } else if !chromium.exists() {
        Some("chromium")
    } else if !root.join("tests/web/node_modules/playwright-core").is_dir() {
        Some("playwright-core (npm ci --prefix tests/web)")
    } else {
        None
    };
    if let Some(what) = missing {
        skip(&format!("browser test {mode}"), &format!("{what} is missing"), browser_tests_required());
        return;
    }
    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("workbench.png");
    let out = StdCommand::new("node")
        .arg(root.join("tests/web/workbench.mjs"))
        .arg(mode)
        .env("BACKTRACK_BIN", assert_cmd::cargo::cargo_bin("backtrack"))
        .env("CHROMIUM", &chromium)
        .env("SCREENSHOT", &screenshot)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    eprintln!("{text}");
    if text.contains("without the page's WebAssembly module") {
        skip(&format!("browser test {mode}"), "the binary was built without the page", browser_tests_required());
        return;
    }
    assert!(out.status.success(), "workbench.mjs {mode} failed:\n{text}");
    if mode == "page" {
        assert!(screenshot.exists());
    }
}

#[test]
fn wasm_api_matches_trace_in_chromium() {
    browser("api");
}

#[test]
fn web_page_steps_runs_and_matches_trace_in_chromium() {
    browser("page");
}

/// `backtrack web --port 0`: serves the page's files and the module, 404 for anything else.
#[test]
fn web_serves_the_page_and_the_module() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::process::Stdio;

    let mut server = StdCommand::new(assert_cmd::cargo::cargo_bin("backtrack"))
        .args(["web", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut first).unwrap();
    if first.is_empty() {
        let mut err = String::new();
        server.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(server.wait().unwrap().code(), Some(3));
        assert!(err.contains("rustup target add wasm32-unknown-unknown"), "{err}");
        skip("web server test", "the binary was built without the page", browser_tests_required());
        return;
    }
    let addr = first.split("http://").nth(1).unwrap().split('/').next().unwrap().to_string();
    let get = |path: &str| -> (String, Vec<u8>) {
        let mut stream = TcpStream::connect(&addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let mut reader = BufReader::new(stream);
        let (mut status, mut line, mut length) = (String::new(), String::new(), 0);
        reader.read_line(&mut status).unwrap();
        while reader.read_line(&mut line).unwrap() > 2 {
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
            line.clear();
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        (status.trim().to_string(), body)
    };
    let (status, index) = get("/");
    assert_eq!(status, "HTTP/1.1 200 OK");
    let index = String::from_utf8(index).unwrap();
    for id in [
        "problem",
        "n",
        "puzzle",
        "step",
        "back",
        "play",
        "reset",
        "run",
        "nodes",
        "solutions",
        "board",
        "board-naive",
        "log",
    ] {
        assert!(index.contains(&format!("id=\"{id}\"")), "#{id} is on the page");
    }
    let (status, wasm) = get("/backtrack.wasm?v=1");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(wasm[..4], *b"\0asm");
    assert_eq!(get("/app.js").0, "HTTP/1.1 200 OK");
    assert_eq!(get("/../Cargo.toml").0, "HTTP/1.1 404 Not Found");
    server.kill().unwrap();
    server.wait().unwrap();
}
