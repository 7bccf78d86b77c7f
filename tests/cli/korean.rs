//! `--lang ko` and a Korean locale: Baekjoon's verdict words and Korean
//! messages from `judge`, `trace` and `boj`, with the same JSON, the same
//! exit statuses and the same lines and columns as in English.

use std::process::Output;

use super::util::backtrack;

const LOTTO: [&str; 3] = ["awk", "-f", "examples/judge/lotto-no-blank-line.awk"];

/// `backtrack ARGS` with the locale variables `env` (and no others).
fn run_in(env: &[(&str, &str)], args: &[&str], stdin: &str) -> Output {
    let mut cmd = backtrack();
    cmd.args(args).write_stdin(stdin);
    for (name, value) in env {
        cmd.env(name, value);
    }
    cmd.output().expect("the binary runs")
}

fn judge_lotto(env: &[(&str, &str)], flags: &[&str]) -> Output {
    let mut args = vec!["judge", "6603", "--cases", "2"];
    args.extend(flags);
    args.push("--");
    args.extend(LOTTO);
    run_in(env, &args, "")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// The text with every digit as `#`: timings and memory differ from run to run.
fn digits_masked(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_digit() { '#' } else { c }).collect()
}

#[test]
fn judge_in_korean_gives_baekjoons_verdict_words() {
    let out = judge_lotto(&[], &["--lang", "ko"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("틀렸습니다   sample-1 "), "{text}");
    assert!(lines[1].starts_with("맞았습니다!! edge-smallest-set "), "{text}");
    assert!(lines[0].ends_with("8번째 줄부터 다릅니다 (정답은 36줄, 받은 출력은 35줄)"), "{text}");
    assert!(
        lines[6].starts_with("6603: 틀렸습니다 (케이스 6개 중 2개 맞음: 맞았습니다!! 2, 틀렸습니다 4; 가장 느린 실행 "),
        "{text}"
    );
    assert!(lines[7].starts_with("sample-1-shrunk: 틀렸습니다 (2단계, "), "{text}");
    for heading in ["입력:", "정답:", "받은 출력:", "차이:"] {
        assert!(lines.contains(&heading), "{heading} in {text}");
    }
    assert!(lines.contains(&"  - (빈 줄)"), "{text}");
    assert!(lines.last().unwrap().starts_with("재현: printf '7 1 2 3 4 5 6 7\\n"), "{text}");
    // No English word of the report is left.
    for english in ["WA ", "AC ", "cases accepted", "expected", "received", "difference", "reproduce", "blank line"] {
        assert!(!text.contains(english), "{english:?} in {text}");
    }
}

#[test]
fn a_korean_locale_speaks_korean_without_the_flag_and_the_flag_wins() {
    let flag = digits_masked(&stdout(&judge_lotto(&[], &["--lang", "ko"])));
    for locale in [[("LANG", "ko_KR.UTF-8")], [("LC_MESSAGES", "ko_KR.eucKR")], [("LC_ALL", "ko")]] {
        let out = judge_lotto(&locale, &[]);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(digits_masked(&stdout(&out)), flag, "{locale:?}");
    }
    let english = stdout(&judge_lotto(&[], &[]));
    assert!(english.starts_with("WA  sample-1 "), "{english}");
    let english = digits_masked(&english);
    assert_eq!(digits_masked(&stdout(&judge_lotto(&[("LANG", "ko_KR.UTF-8")], &["--lang", "en"]))), english);
    // LC_ALL overrides LANG, as POSIX orders them.
    assert_eq!(digits_masked(&stdout(&judge_lotto(&[("LC_ALL", "C"), ("LANG", "ko_KR.UTF-8")], &[]))), english);
}

/// The JSON line without its timing.
fn json_line(out: &Output) -> serde_json::Value {
    let text = stdout(out);
    let mut value: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).expect("a JSON line");
    if let Some(failing) = value["failing"].as_object_mut() {
        assert!(failing.remove("seconds").is_some());
    }
    value
}

#[test]
fn json_and_exit_statuses_are_the_same_in_both_languages() {
    let english = judge_lotto(&[], &["--json"]);
    let korean = judge_lotto(&[], &["--json", "--lang", "ko"]);
    assert_eq!(english.status.code(), Some(1));
    assert_eq!(korean.status.code(), Some(1));
    let json = json_line(&korean);
    assert_eq!(json, json_line(&english));
    assert_eq!(json["verdict"], "WA");
    assert!(json.to_string().is_ascii(), "{json}");

    // Accepted: 0 in both; a program that crashes: RE in JSON, 런타임 에러 on the lines.
    let bin = assert_cmd::cargo::cargo_bin("backtrack").display().to_string();
    for lang in ["en", "ko"] {
        let ok =
            run_in(&[], &["judge", "9663", "--cases", "1", "--lang", lang, "--json", "--", &bin, "boj", "9663"], "");
        assert_eq!(ok.status.code(), Some(0), "{lang}: {}", stdout(&ok));
        assert_eq!(json_line(&ok)["verdict"], "AC");
        let crash = ["judge", "9663", "--cases", "0", "--shrink-runs", "0", "--lang", lang, "--json", "--", "sh", "-c"];
        let crash = run_in(&[], &[&crash[..], &["exit 3"]].concat(), "");
        assert_eq!(crash.status.code(), Some(1));
        assert_eq!(json_line(&crash)["verdict"], "RE");
        let first = stdout(&crash).lines().next().unwrap().to_string();
        let expected = if lang == "ko" { ("런타임 에러 ", "종료 코드 3") } else { ("RE  ", "exit status 3") };
        assert!(first.starts_with(expected.0) && first.ends_with(expected.1), "{first}");
    }
}

/// stderr of `args` on `stdin` in English and in Korean, both refused with status 2.
fn refused_in_both(args: &[&str], stdin: &str) -> (String, String) {
    let english = run_in(&[], args, stdin);
    let korean = run_in(&[("LANG", "ko_KR.UTF-8")], args, stdin);
    assert_eq!(english.status.code(), Some(2), "{}", stderr(&english));
    assert_eq!(korean.status.code(), Some(2), "{}", stderr(&korean));
    assert!(english.stdout.is_empty() && korean.stdout.is_empty());
    (stderr(&english), stderr(&korean))
}

#[test]
fn boj_and_trace_errors_in_korean_keep_the_line_and_column() {
    let (english, korean) = refused_in_both(&["boj", "2529"], "2\n< x\n");
    assert_eq!(english, "backtrack: <stdin>: line 2, column 3: expected `<` or `>`, found `x`\n");
    assert_eq!(korean, "backtrack: <stdin>: 2번째 줄 3번째 칸: `<` or `>`이(가) 와야 하는데 `x`이(가) 있습니다\n");

    let puzzle = "1..4..1.2....3.x";
    let (english, korean) = refused_in_both(&["trace", "sudoku", puzzle], "");
    assert!(english.starts_with("backtrack: <argument>: line 1, column 16: "), "{english}");
    assert!(korean.starts_with("backtrack: <argument>: 1번째 줄 16번째 칸: "), "{korean}");

    let (english, korean) = refused_in_both(&["trace", "queens", "30"], "");
    assert_eq!(english, "backtrack: a queens trace takes N from 1 to 20, not 30\n");
    assert_eq!(korean, "backtrack: queens 추적은 N이 1부터 20까지여야 합니다. 받은 값: 30\n");

    let (_, korean) = refused_in_both(&["boj", "1"], "");
    assert!(korean.starts_with("backtrack: 1번 문제는 풀 수 없습니다. 풀 수 있는 문제:\n"), "{korean}");
    let (_, korean) = refused_in_both(&["judge", "6603"], "");
    assert_eq!(korean, "backtrack: 채점할 프로그램을 `--` 뒤에 적어 주세요. 예: `backtrack judge 9663 -- ./a.out`\n");
    // An unknown language is bad usage.
    let out = run_in(&[], &["judge", "6603", "--lang", "fr"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("expected one of en, ko"), "{}", stderr(&out));
}

#[test]
fn help_of_judge_trace_and_boj_documents_lang() {
    for command in ["judge", "trace", "boj"] {
        let out = run_in(&[], &[command, "--help"], "");
        let text = stdout(&out);
        assert!(text.contains("--lang <LANG>"), "{command}: {text}");
        assert!(text.contains("맞았습니다!!") && text.contains("ko_KR.UTF-8"), "{command}: {text}");
    }
}

/// `trace --lang ko`: every event line and the summary in Korean, the JSON
/// keys and kinds as in English, the same exit status.
#[test]
fn trace_lines_in_korean() {
    let out = run_in(&[], &["trace", "queens", "4", "--order", "naive", "--limit", "9", "--lang", "ko"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "시도 1행 1열\n  거절 2행 1열: 1행 1열과 같은 열\n  거절 2행 2열: 1행 1열과 같은 대각선\n  시도 2행 3열\n    \
         거절 3행 1열: 1행 1열과 같은 열\n    거절 3행 2열: 2행 3열과 같은 대각선\n    거절 3행 3열: 1행 1열과 같은 대각선\n    \
         거절 3행 4열: 2행 3열과 같은 대각선\n    막다른 길\n요약: 해 2개; 노드: naive 60, smart 16\n"
    );
    let out = run_in(&[("LANG", "ko_KR.UTF-8")], &["trace", "boj", "1987"], "2 3\nABC\nDEF\n");
    let text = stdout(&out);
    assert!(text.starts_with("시도 r2c1=D\n  시도 r2c2=E\n"), "{text}");
    assert!(
        text.ends_with(
            "되돌림 r2c1=D\n거절 r1c2=B: 지나온 2칸 + 아직 안 지난 글자 4개로는 6칸을 넘을 수 없음\n\
             요약: 해 1개; 노드: naive 31, smart 7; 답: 가장 긴 길은 6칸\n"
        ),
        "{text}"
    );
    let out = run_in(&[], &["trace", "boj", "14888", "--lang", "ko", "--order", "naive"], "2\n5 6\n0 0 1 0\n");
    assert_eq!(stdout(&out), "시도 × 6\n  해 1: 5 × 6 = 30 (최댓값 30, 최솟값 30)\n되돌림 × 6\n요약: 해 1개; 노드: naive 1, smart 1; 답: 최댓값 30, 최솟값 30\n");
    let sudoku = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let out = run_in(&[], &["trace", "sudoku", "--order", "naive", "--limit", "2", "--lang", "ko", sudoku], "");
    assert!(
        stdout(&out).starts_with("시도 r1c3=1\n  거절 r1c5=1: 1은(는) 이미 같은 행의 r1c3에 있음\n"),
        "{}",
        stdout(&out)
    );
    // JSON: the keys and the kind stay; the texts follow the language.
    let english = run_in(&[], &["trace", "choose", "comb", "3", "2", "--json"], "");
    let korean = run_in(&[], &["trace", "choose", "comb", "3", "2", "--json", "--lang", "ko"], "");
    let parse = |out: &Output| -> Vec<serde_json::Value> {
        stdout(out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let (english, korean) = (parse(&english), parse(&korean));
    assert_eq!(english.len(), korean.len());
    for (e, k) in english.iter().zip(&korean) {
        let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(e), keys(k));
        assert_eq!(e["kind"], k["kind"]);
    }
    assert_eq!(korean[0]["line"], "시도 1");
    assert_eq!(english.last(), korean.last(), "the summary object is numbers only");
}
