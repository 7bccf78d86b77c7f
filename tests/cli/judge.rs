//! `backtrack judge`, end to end: small programs written here, correct and
//! deliberately broken (C compiled with `cc` into a temporary directory, or
//! shell scripts), get the verdicts a judge would give, and the failing
//! case they are shown is the smallest that fails.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::util::backtrack;

const QUEENS: &str = r#"
#include <stdio.h>
int n, count, col[16], up[32], down[32];
void place(int r) {
    if (r == n) { count++; return; }
    for (int c = 0; c < n; c++)
        if (!col[c] && !up[r + c] && !DOWN_TAKEN) {
            col[c] = up[r + c] = down[r - c + n] = 1;
            place(r + 1);
            col[c] = up[r + c] = down[r - c + n] = 0;
        }
}
int main(void) { if (scanf("%d", &n) != 1) return 1; CRASH place(0); printf("%d\n", count); return 0; }
"#;

const LOTTO_NO_BLANK_LINE: &str = r#"
#include <stdio.h>
int k, s[13], pick[6];
void choose(int from, int depth) {
    if (depth == 6) {
        for (int i = 0; i < 6; i++) printf(i ? " %d" : "%d", pick[i]);
        printf("\n");
        return;
    }
    for (int i = from; i < k; i++) { pick[depth] = s[i]; choose(i + 1, depth + 1); }
}
int main(void) {
    while (scanf("%d", &k) == 1 && k != 0) {
        for (int i = 0; i < k; i++) scanf("%d", &s[i]);
        choose(0, 0);
    }
    return 0;
}
"#;

/// Row-major backtracking that tries 1, 2, 3... in each blank: right, and slow on boards built against it.
const NAIVE_SUDOKU: &str = r#"
#include <stdio.h>
int g[81];
int fits(int p, int d) {
    int r = p / 9, c = p % 9;
    for (int i = 0; i < 9; i++) if (g[r * 9 + i] == d || g[i * 9 + c] == d) return 0;
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) if (g[(r / 3 * 3 + i) * 9 + c / 3 * 3 + j] == d) return 0;
    return 1;
}
int fill(int p) {
    if (p == 81) return 1;
    if (g[p]) return fill(p + 1);
    for (int d = 1; d <= 9; d++) if (fits(p, d)) { g[p] = d; if (fill(p + 1)) return 1; g[p] = 0; }
    return 0;
}
int main(void) {
    for (int i = 0; i < 81; i++) if (scanf("%d", &g[i]) != 1) return 1;
    fill(0);
    for (int i = 0; i < 81; i++) printf(i % 9 == 8 ? "%d\n" : "%d ", g[i]);
    return 0;
}
"#;

const HOG: &str = r#"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n, counts[] = {0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596};
    size_t size = (size_t)MIB << 20;
    volatile char *p = malloc(size);
    if (!p || scanf("%d", &n) != 1) return 1;
    for (size_t i = 0; i < size; i += 4096) p[i] = 1;
    printf("%d\n", counts[n] + p[size - 4096] - 1);
    return 0;
}
"#;

/// Compiles `source` (with `-D` definitions) into `dir` as `name`.
fn compile(dir: &Path, name: &str, source: &str, defines: &[&str]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(name);
    let status = std::process::Command::new("cc")
        .arg("-O2")
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .expect("a C compiler `cc`");
    assert!(status.success(), "cc {name}");
    exe
}

fn judge(args: &[&str], program: &[&str]) -> Output {
    let mut cmd = backtrack();
    cmd.arg("judge").args(args).arg("--").args(program);
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The `--json` object of the last line.
fn json(out: &Output) -> serde_json::Value {
    let stdout = text(out);
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn backtrack_bin() -> String {
    assert_cmd::cargo::cargo_bin("backtrack").display().to_string()
}

#[test]
fn a_missing_diagonal_fails_on_the_smallest_n_that_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let good = compile(dir.path(), "queens", QUEENS, &["DOWN_TAKEN=down[r-c+n]", "CRASH="]);
    let bad = compile(dir.path(), "queens_one_diagonal", QUEENS, &["DOWN_TAKEN=0", "CRASH="]);

    let out = judge(&["9663", "--cases", "3", "--json"], &[good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "AC");
    assert!(report["failing"].is_null());

    // One diagonal unchecked: 2 queens on a 2x2 board count 1 placement instead of 0.
    let out = judge(&["9663", "--cases", "3", "--json", "--time-limit", "1"], &[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["problem"], 9663);
    assert_eq!(report["verdict"], "WA");
    assert_eq!(report["failing"]["input"], "2\n");
    assert_eq!(report["failing"]["expected"], "0\n");
    assert_eq!(report["failing"]["got"], "1\n");
    let stdout = text(&out);
    assert!(stdout.contains(&format!("reproduce: printf '2\\n' | {}", bad.display())), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("{\"problem\":9663,\"verdict\":\"WA\",\"cases\":"), "{last}");
}

#[test]
fn a_lotto_program_without_blank_lines_fails_on_two_sets() {
    let dir = tempfile::tempdir().unwrap();
    let bad = compile(dir.path(), "lotto", LOTTO_NO_BLANK_LINE, &[]);
    let out = judge(&["6603", "--cases", "4", "--json"], &[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "WA");
    // Two sets and the closing 0; a single set passes, since a blank line at the end is ignored.
    let input = report["failing"]["input"].as_str().unwrap();
    assert_eq!(input.lines().count(), 3, "{input}");
    assert!(input.lines().take(2).all(|l| l.starts_with("7 ")), "{input}");
    assert!(text(&out).contains("- (blank line)"), "{}", text(&out));
}

#[test]
fn a_crash_on_one_is_a_runtime_error_on_one() {
    let dir = tempfile::tempdir().unwrap();
    let crash = compile(dir.path(), "crash", QUEENS, &["DOWN_TAKEN=down[r-c+n]", "CRASH=if(n==1)*(volatile int*)0=1;"]);
    let out = judge(&["9663", "--cases", "2", "--json"], &[crash.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report = json(&out);
    assert_eq!(report["verdict"], "RE");
    assert_eq!(report["failing"]["input"], "1\n");
    assert!(text(&out).contains("RE  edge-n1"), "{}", text(&out));
}

#[test]
fn a_program_past_the_memory_limit_is_mle() {
    let dir = tempfile::tempdir().unwrap();
    let hog = compile(dir.path(), "hog", HOG, &["MIB=200"]);
    let out = judge(&["9663", "--cases", "0", "--json", "--jobs", "1"], &[hog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "MLE", "{}", text(&out));
    // The same program under a larger limit is accepted.
    let out = judge(&["9663", "--cases", "0", "--memory-limit", "400", "--jobs", "1"], &[hog.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn naive_sudoku_passes_the_default_cases_and_times_out_under_hard() {
    let dir = tempfile::tempdir().unwrap();
    let naive = compile(dir.path(), "naive", NAIVE_SUDOKU, &[]);
    let out = judge(&["2580", "--cases", "3"], &[naive.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = judge(&["2580", "--cases", "0", "--hard", "--shrink-runs", "0", "--json"], &[naive.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "TLE");
    assert!(text(&out).contains("TLE hard-against-brute-force "), "{}", text(&out));
}

#[test]
fn output_without_end_is_ole() {
    let out = judge(&["9663", "--cases", "0", "--shrink-runs", "0", "--json"], &["yes", "92"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "OLE");
}

#[test]
fn the_solver_itself_passes_every_problem() {
    let bin = backtrack_bin();
    for id in backtrack::judge::IDS {
        let id = id.to_string();
        let out = judge(&[&id, "--cases", "2", "--json"], &[&bin, "boj", &id]);
        assert_eq!(out.status.code(), Some(0), "{id}: {}", text(&out));
        assert_eq!(json(&out)["verdict"], "AC");
    }
}

#[test]
fn sudoku_2580_takes_any_solution_and_2239_only_the_smallest() {
    let bin = backtrack_bin();
    // The smallest solution is one valid answer among many for 2580.
    let out = judge(&["2580", "--cases", "4"], &[&bin, "sudoku", "--lexmin", "--format", "spaced"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Any solution is not enough for 2239: the random boards with several solutions catch it.
    let out = judge(&["2239", "--cases", "10", "--json"], &[&bin, "sudoku", "--format", "grid"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert_eq!(json(&out)["verdict"], "WA");
}

#[test]
fn gen_prints_one_input_that_boj_reads() {
    for id in backtrack::judge::IDS {
        let id = id.to_string();
        let gen = |seed: &str| {
            let out = backtrack().args(["judge", &id, "--gen", "--seed", seed]).output().unwrap();
            assert!(out.status.success());
            String::from_utf8(out.stdout).unwrap()
        };
        let input = gen("3");
        assert_eq!(input, gen("3"));
        backtrack().args(["boj", &id]).write_stdin(input).assert().success();
    }
}

#[test]
fn save_writes_pairs_that_boj_reproduces() {
    let dir = tempfile::tempdir().unwrap();
    backtrack().args(["judge", "15663", "--cases", "2", "--save"]).arg(dir.path()).assert().success();
    let mut pairs = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
            let input = std::fs::read_to_string(&path).unwrap();
            backtrack().args(["boj", "15663"]).write_stdin(input).assert().stdout(expected);
            pairs += 1;
        }
    }
    assert!(pairs >= 4, "{pairs}");
    assert!(dir.path().join("sample-1.in").exists());
}

#[test]
fn bad_usage_is_status_2() {
    let run = |args: &[&str]| backtrack().arg("judge").args(args).output().unwrap();
    assert_eq!(run(&["9663"]).status.code(), Some(2), "no program");
    assert_eq!(run(&["1000", "--", "true"]).status.code(), Some(2), "unknown problem");
    assert_eq!(run(&["9663", "--", "/nonexistent/program"]).status.code(), Some(2), "missing program");
    assert_eq!(run(&["9663", "--time-limit", "0", "--", "true"]).status.code(), Some(2), "zero time");
    assert_eq!(run(&["9663", "--jobs", "2000", "--", "true"]).status.code(), Some(2), "too many jobs");
}
