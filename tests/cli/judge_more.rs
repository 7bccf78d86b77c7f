//! `backtrack judge` on the operator, team, subset-sum, password,
//! inequality, ordering, tour and letter-walk problems: for each, a C
//! program with a learner's typical slip gets WA, and the failing case it is
//! shown is shrunk to a few lines; `--save` writes pairs that `boj`
//! reproduces.

use std::process::Output;

use super::judge::compile;
use super::util::backtrack;

/// Splits into two teams of N/2 people; each pair `x < y` of a team adds
/// `S[x][y]`, and with `PAIRS_FROM=0` every ordered pair is counted.
const TEAMS_OF_HALF: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#ifndef PAIRS_FROM
#define PAIRS_FROM x + 1
#endif
int n, s[20][20], team[20], best = 1 << 30;
void go(int i, int picked) {
    if (i == n) {
        if (picked != n / 2) return;
        int a = 0, b = 0;
        for (int x = 0; x < n; x++) for (int y = PAIRS_FROM; y < n; y++)
            if (x != y && team[x] && team[y]) a += s[x][y]; else if (x != y && !team[x] && !team[y]) b += s[x][y];
        if (abs(a - b) < best) best = abs(a - b);
        return;
    }
    team[i] = 1; go(i + 1, picked + 1); team[i] = 0; go(i + 1, picked);
}
int main(void) {
    scanf("%d", &n);
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) scanf("%d", &s[i][j]);
    go(0, 0); printf("%d\n", best); return 0;
}
"#;

/// (problem, what the program gets wrong, its source).
const WRONG: &[(u32, &str, &str)] = &[
    (
        14888,
        "divides by flooring, as Python's // does: -4 / 3 gives -2",
        r#"
#include <stdio.h>
int n, a[12], ops[4]; long long mx = -2000000000LL, mn = 2000000000LL;
long long fdiv(long long x, long long y) { long long q = x / y; if (x % y != 0 && (x < 0) != (y < 0)) q--; return q; }
void go(int i, long long v) {
    if (i == n) { if (v > mx) mx = v; if (v < mn) mn = v; return; }
    for (int k = 0; k < 4; k++) if (ops[k]) {
        ops[k]--;
        go(i + 1, k == 0 ? v + a[i] : k == 1 ? v - a[i] : k == 2 ? v * a[i] : fdiv(v, a[i]));
        ops[k]++;
    }
}
int main(void) {
    scanf("%d", &n);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int k = 0; k < 4; k++) scanf("%d", &ops[k]);
    go(1, a[0]); printf("%lld\n%lld\n", mx, mn); return 0;
}
"#,
    ),
    (
        15658,
        "starts the largest result at 0, so an all-negative answer comes out as 0",
        r#"
#include <stdio.h>
int n, a[12], ops[4]; long long mx = 0, mn = 2000000000LL;
void go(int i, long long v) {
    if (i == n) { if (v > mx) mx = v; if (v < mn) mn = v; return; }
    for (int k = 0; k < 4; k++) if (ops[k]) {
        ops[k]--;
        go(i + 1, k == 0 ? v + a[i] : k == 1 ? v - a[i] : k == 2 ? v * a[i] : v / a[i]);
        ops[k]++;
    }
}
int main(void) {
    scanf("%d", &n);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int k = 0; k < 4; k++) scanf("%d", &ops[k]);
    go(1, a[0]); printf("%lld\n%lld\n", mx, mn); return 0;
}
"#,
    ),
    (14889, "adds S[i][j] once per pair, forgetting S[j][i]", TEAMS_OF_HALF),
    // The same program with both S[i][j] and S[j][i]: right for 14889.
    (15661, "keeps the equal teams of 14889, missing uneven splits", TEAMS_OF_HALF),
    (
        1182,
        "counts the empty subsequence when S is 0",
        r#"
#include <stdio.h>
int main(void) {
    int n, s, a[20], count = 0;
    scanf("%d %d", &n, &s);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int mask = 0; mask < 1 << n; mask++) {
        long long sum = 0;
        for (int i = 0; i < n; i++) if (mask >> i & 1) sum += a[i];
        if (sum == s) count++;
    }
    printf("%d\n", count); return 0;
}
"#,
    ),
    (
        1759,
        "never sorts the letters, so the passwords come in input order",
        r#"
#include <stdio.h>
int l, c; char a[16], word[16];
int vowel(char x) { return x == 'a' || x == 'e' || x == 'i' || x == 'o' || x == 'u'; }
void go(int from, int depth) {
    if (depth == l) {
        int v = 0;
        for (int i = 0; i < l; i++) v += vowel(word[i]);
        if (v >= 1 && l - v >= 2) { word[l] = 0; puts(word); }
        return;
    }
    for (int i = from; i < c; i++) { word[depth] = a[i]; go(i + 1, depth + 1); }
}
int main(void) {
    scanf("%d %d", &l, &c);
    for (int i = 0; i < c; i++) scanf(" %c", &a[i]);
    go(0, 0); return 0;
}
"#,
    ),
    (
        2529,
        "prints the smallest number as an integer, dropping its leading 0",
        r#"
#include <stdio.h>
int k, used[10], d[10]; char sign[10]; long long mx = -1, mn = -1;
void go(int i) {
    if (i == k + 1) {
        long long v = 0;
        for (int j = 0; j <= k; j++) v = v * 10 + d[j];
        if (mx < 0 || v > mx) mx = v;
        if (mn < 0 || v < mn) mn = v;
        return;
    }
    for (int x = 0; x < 10; x++) {
        if (used[x]) continue;
        if (i > 0 && (sign[i - 1] == '<' ? d[i - 1] > x : d[i - 1] < x)) continue;
        used[x] = 1; d[i] = x; go(i + 1); used[x] = 0;
    }
}
int main(void) {
    scanf("%d", &k);
    for (int i = 0; i < k; i++) scanf(" %c", &sign[i]);
    go(0); printf("%lld\n%lld\n", mx, mn); return 0;
}
"#,
    ),
    (
        10819,
        "walks next_permutation from the input order without sorting first",
        r#"
#include <stdio.h>
#include <stdlib.h>
int n, a[8];
int next(void) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return 0;
    int j = n - 1;
    while (a[j] <= a[i]) j--;
    int t = a[i]; a[i] = a[j]; a[j] = t;
    for (int x = i + 1, y = n - 1; x < y; x++, y--) { t = a[x]; a[x] = a[y]; a[y] = t; }
    return 1;
}
int main(void) {
    int best = 0;
    scanf("%d", &n);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    do {
        int sum = 0;
        for (int i = 0; i + 1 < n; i++) sum += abs(a[i] - a[i + 1]);
        if (sum > best) best = sum;
    } while (next());
    printf("%d\n", best); return 0;
}
"#,
    ),
    (
        10971,
        "takes a cost of 0 as a free road instead of no road",
        r#"
#include <stdio.h>
int n, w[10][10], seen[10]; long long best = -1;
void go(int at, int count, long long cost) {
    if (count == n) { long long total = cost + w[at][0]; if (best < 0 || total < best) best = total; return; }
    for (int next = 1; next < n; next++)
        if (!seen[next]) { seen[next] = 1; go(next, count + 1, cost + w[at][next]); seen[next] = 0; }
}
int main(void) {
    scanf("%d", &n);
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) scanf("%d", &w[i][j]);
    seen[0] = 1; go(0, 1, 0); printf("%lld\n", best); return 0;
}
"#,
    ),
    (
        1987,
        "marks a letter as passed and never unmarks it when stepping back",
        r#"
#include <stdio.h>
int r, c, seen[26], best; char b[20][21];
void go(int y, int x, int depth) {
    if (depth > best) best = depth;
    int dy[] = {-1, 1, 0, 0}, dx[] = {0, 0, -1, 1};
    for (int k = 0; k < 4; k++) {
        int ny = y + dy[k], nx = x + dx[k];
        if (ny < 0 || nx < 0 || ny >= r || nx >= c || seen[b[ny][nx] - 'A']) continue;
        seen[b[ny][nx] - 'A'] = 1;
        go(ny, nx, depth + 1);
    }
}
int main(void) {
    scanf("%d %d", &r, &c);
    for (int i = 0; i < r; i++) scanf("%s", b[i]);
    seen[b[0][0] - 'A'] = 1; go(0, 0, 1); printf("%d\n", best); return 0;
}
"#,
    ),
];

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn each_learners_slip_is_wrong_answer_on_a_small_case() {
    let dir = tempfile::tempdir().unwrap();
    for &(id, slip, source) in WRONG {
        let defines: &[&str] = if id == 15661 { &["PAIRS_FROM=0"] } else { &[] };
        let exe = compile(dir.path(), &format!("wrong{id}"), source, defines);
        let id = id.to_string();
        let out = backtrack().args(["judge", &id, "--cases", "20", "--json", "--"]).arg(&exe).output().unwrap();
        let stdout = text(&out);
        assert_eq!(out.status.code(), Some(1), "{id} ({slip}): {stdout}");
        let report: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert_eq!(report["verdict"], "WA", "{id} ({slip}): {stdout}");
        let input = report["failing"]["input"].as_str().unwrap();
        // Small: a few short lines, the first number (N, k, L or R) small.
        let first: usize = input.split_whitespace().next().unwrap().parse().unwrap();
        assert!(input.lines().count() <= 5 && input.len() <= 40 && first <= 5, "{id} ({slip}): shrunk to {input:?}");
        assert_ne!(report["failing"]["expected"], report["failing"]["got"], "{id}");
        eprintln!("{id}: {input:?}");
    }
}

#[test]
fn save_writes_pairs_that_boj_reproduces_for_each_problem() {
    for &(id, _, _) in WRONG {
        let dir = tempfile::tempdir().unwrap();
        let id = id.to_string();
        backtrack().args(["judge", &id, "--cases", "2", "--hard", "--save"]).arg(dir.path()).assert().success();
        let mut pairs = 0;
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "in") {
                let expected = std::fs::read_to_string(path.with_extension("out")).unwrap();
                let input = std::fs::read_to_string(&path).unwrap();
                backtrack().args(["boj", &id]).write_stdin(input).assert().success().stdout(expected);
                pairs += 1;
            }
        }
        assert!(pairs >= 5, "{id}: {pairs}");
    }
}
