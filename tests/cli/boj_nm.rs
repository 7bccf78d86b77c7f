//! `backtrack boj` for Lotto (6603) and the "N and M" series, end to end
//! through the binary: the samples, random inputs against a naive generator
//! written here, and malformed input.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::util::{assert_rejected, lines, output};

fn boj(id: u32, input: &str) -> std::process::Output {
    output(&["boj", &id.to_string()], input)
}

fn stdout_of(id: u32, input: &str) -> String {
    let out = boj(id, input);
    assert!(out.status.success(), "{id} {input:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn samples() {
    assert_eq!(
        stdout_of(15649, "4 2\n"),
        lines(&["1 2", "1 3", "1 4", "2 1", "2 3", "2 4", "3 1", "3 2", "3 4", "4 1", "4 2", "4 3"])
    );
    assert_eq!(stdout_of(15650, "4 2\n"), lines(&["1 2", "1 3", "1 4", "2 3", "2 4", "3 4"]));
    assert_eq!(stdout_of(15663, "4 2\n9 7 9 1\n"), lines(&["1 7", "1 9", "7 1", "7 9", "9 1", "9 7", "9 9"]));
    let out = stdout_of(15657, "4 4\n1231 1232 1233 1234\n");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 35);
    assert_eq!(got[0], "1231 1231 1231 1231");
    assert_eq!(got[34], "1234 1234 1234 1234");
    assert_eq!(stdout_of(15666, "4 4\n1 1 2 2\n"), lines(&["1 1 1 1", "1 1 1 2", "1 1 2 2", "1 2 2 2", "2 2 2 2"]));

    let lotto = stdout_of(6603, "7 1 2 3 4 5 6 7\n8 1 2 3 5 8 13 21 34\n0\n");
    let blocks: Vec<&str> = lotto.split("\n\n").collect();
    assert_eq!(blocks.len(), 3, "two cases, each followed by an empty line");
    assert_eq!(
        format!("{}\n", blocks[0]),
        lines(&[
            "1 2 3 4 5 6",
            "1 2 3 4 5 7",
            "1 2 3 4 6 7",
            "1 2 3 5 6 7",
            "1 2 4 5 6 7",
            "1 3 4 5 6 7",
            "2 3 4 5 6 7"
        ])
    );
    let second: Vec<&str> = blocks[1].lines().collect();
    assert_eq!(second.len(), 28);
    assert_eq!(second[0], "1 2 3 5 8 13");
    assert_eq!(second[27], "3 5 8 13 21 34");
    assert_eq!(blocks[2], "");
}

/// Index tuples of length `m` over `n` items, as itertools would make them.
fn tuples(n: usize, m: usize, keep: &dyn Fn(&[usize]) -> bool) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    for _ in 0..m {
        all = all.into_iter().flat_map(|t| (0..n).map(move |i| [t.clone(), vec![i]].concat())).collect();
    }
    all.into_iter().filter(|t| keep(t)).collect()
}

/// The expected output of "N and M" problem `id` for the pool `values`.
fn naive(id: u32, values: &[u64], m: usize) -> String {
    let mut pool = values.to_vec();
    pool.sort();
    let distinct = |t: &[usize]| t.iter().collect::<BTreeSet<_>>().len() == t.len();
    let increasing = |t: &[usize]| t.windows(2).all(|w| w[0] < w[1]);
    let non_decreasing = |t: &[usize]| t.windows(2).all(|w| w[0] <= w[1]);
    let any = |_: &[usize]| true;
    let keep: &dyn Fn(&[usize]) -> bool = match id {
        15649 | 15654 | 15663 => &distinct,
        15650 | 15655 | 15664 => &increasing,
        15651 | 15656 | 15665 => &any,
        _ => &non_decreasing,
    };
    let set: BTreeSet<Vec<u64>> =
        tuples(pool.len(), m, keep).into_iter().map(|t| t.iter().map(|&i| pool[i]).collect()).collect();
    set.iter().map(|s| s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ") + "\n").collect()
}

/// Joins words with a mix of whitespace, as the judge's "arbitrary whitespace" allows.
fn spaced(words: &[String], gaps: &[u8]) -> String {
    let mut text = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            text.push_str(match gaps[i % gaps.len()] % 4 {
                0 | 1 => " ",
                2 => "\n",
                _ => "  \t",
            });
        }
        text.push_str(w);
    }
    text + "\n"
}

proptest! {
    // Each case runs the binary: a few dozen by default, more with BACKTRACK_LONG_TESTS=1.
    #![proptest_config(ProptestConfig { cases: crate::effort::rounds(24, 96) as u32, ..ProptestConfig::default() })]

    #[test]
    fn n_and_m_match_the_naive_generator(
        id in prop::sample::select(vec![
            15649u32, 15650, 15651, 15652, 15654, 15655, 15656, 15657, 15663, 15664, 15665, 15666,
        ]),
        n in 1usize..=5,
        m_seed in 0usize..5,
        seeds in prop::collection::vec(1u64..=10_000, 5),
        small in prop::collection::vec(1u64..=4, 5),
        gaps in prop::collection::vec(any::<u8>(), 1..8),
    ) {
        let m = 1 + m_seed % n;
        let values: Vec<u64> = match id {
            15649..=15652 => (1..=n as u64).collect(),
            // Distinct numbers for 15654-15657.
            15654..=15657 => {
                let mut v: Vec<u64> = seeds.iter().copied().collect::<BTreeSet<_>>().into_iter().collect();
                v.truncate(n);
                v.reverse();
                v
            }
            // A multiset, often with repeats.
            _ => small[..n].to_vec(),
        };
        let n = values.len();
        let m = m.min(n);
        let mut words = vec![n.to_string(), m.to_string()];
        if id >= 15654 {
            words.extend(values.iter().map(|v| v.to_string()));
        }
        let input = spaced(&words, &gaps);
        prop_assert_eq!(stdout_of(id, &input), naive(id, &values, m));
    }

    #[test]
    fn lotto_matches_the_naive_generator(
        sets in prop::collection::vec(prop::collection::btree_set(1u64..=49, 6..=9), 1..3),
        terminated in any::<bool>(),
    ) {
        let mut input = String::new();
        let mut expected = String::new();
        for set in &sets {
            let values: Vec<u64> = set.iter().copied().collect();
            input += &format!("{} {}\n", values.len(), values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "));
            expected += &naive(15650, &values, 6);
            expected += "\n";
        }
        if terminated {
            input += "0\n";
        }
        prop_assert_eq!(stdout_of(6603, &input), expected);
    }
}

fn rejects(id: u32, input: &str, place: &str) {
    assert_rejected(&["boj", &id.to_string()], input, place);
}

#[test]
fn malformed_input_is_rejected_with_its_place() {
    rejects(15649, "", "line 1, column 1: expected N");
    rejects(15649, "4\n", "line 2, column 1: expected M");
    rejects(15649, "4 5\n", "line 1, column 3: M must be between 1 and 4");
    rejects(15651, "3 0\n", "line 1, column 3");
    rejects(15650, "0 0\n", "line 1, column 1: N must be between");
    rejects(15652, "x 2\n", "line 1, column 1: expected N, found `x`");
    rejects(15649, "4 2 7\n", "line 1, column 5: unexpected `7`");
    rejects(15654, "3 2\n", "line 2, column 1: expected number 1 of 3");
    rejects(15655, "3 2\n5 6\n", "line 3, column 1: expected number 3 of 3");
    rejects(15656, "3 2\n5 6 7 8\n", "line 2, column 7: unexpected `8`");
    rejects(15657, "3 2\n5 -6 7\n", "line 2, column 3: expected number 2 of 3, found `-6`");
    rejects(15663, "3 2\n5 6 seven\n", "line 2, column 5");
    rejects(15664, "2 1\n5 99999999999999999999\n", "line 2, column 3");
    rejects(15665, "2 1\n5 0\n", "line 2, column 3: number 2 of 2 must be between 1 and");
    rejects(15666, "2 3\n5 5\n", "line 1, column 3: M must be between 1 and 2");
    rejects(6603, "", "line 1, column 1");
    rejects(6603, "5 1 2 3 4 5\n0\n", "line 1, column 1: k must be 0 (end) or between 6");
    rejects(6603, "7 1 2 3 4 5 6\n0\n", "line 2, column 1: number 7 of 7 must be between 1 and");
    rejects(6603, "7 1 2 3 4 5 6", "line 1, column 14: expected number 7 of 7, found the end of the input");
    rejects(6603, "7 1 2 3 4 5 6 6\n0\n", "line 1, column 15: 6 appears twice");
    rejects(6603, "7 1 2 3 4 5 6 x\n0\n", "line 1, column 15");
    rejects(6603, "6 1 2 3 4 5 6\n0\n1\n", "line 3, column 1: unexpected `1` after the terminating 0");
}

#[test]
fn beyond_the_judge_limits() {
    // 9 numbers (the judge stops at 8): 9! lines, streamed.
    let out = stdout_of(15649, "9 9\n");
    assert_eq!(out.lines().count(), 362_880);
    assert!(out.starts_with("1 2 3 4 5 6 7 8 9\n") && out.ends_with("9 8 7 6 5 4 3 2 1\n"));
}
