//! Multiple covers (items with bounds): the engine against a brute-force
//! oracle on random problems, the A001499 family, and the parser's bounds.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use backtrack::search::Control;
use backtrack::xcover::{parse, Engine, Problem, XcoverError};
use proptest::prelude::*;

use crate::common::n_threads;

/// Every set of options that is a solution, each sorted, by trying every subset.
pub(super) fn brute_force(problem: &Problem) -> BTreeSet<Vec<usize>> {
    let m = problem.n_options();
    (0u32..1 << m)
        .map(|mask| (0..m).filter(|&o| mask >> o & 1 == 1).collect::<Vec<_>>())
        .filter(|set| problem.is_solution(set))
        .collect()
}

/// The solutions the engine lists on `threads` threads, each sorted; panics on a set met twice.
fn listed(problem: &Problem, engine: Engine, threads: usize) -> BTreeSet<Vec<usize>> {
    let mut all = BTreeSet::new();
    problem
        .space_on(engine)
        .for_each_solution(n_threads(threads), &Control::new(), |mut s| {
            s.sort_unstable();
            assert!(all.insert(s.clone()), "{s:?} met twice");
            ControlFlow::Continue(())
        })
        .unwrap();
    all
}

/// Items r1..rn and c1..cn, each to be covered twice; one option per cell `ri cj`.
fn two_per_line(n: usize) -> Problem {
    let mut b = Problem::builder();
    for prefix in ["r", "c"] {
        for i in 1..=n {
            b.primary_bounded(&format!("{prefix}{i}"), 2, 2).unwrap();
        }
    }
    for i in 1..=n {
        for j in 1..=n {
            b.option([format!("r{i}"), format!("c{j}")]).unwrap();
        }
    }
    b.build().unwrap()
}

#[test]
fn two_ones_per_row_and_column_count_as_a001499() {
    // OEIS A001499: n x n 0/1 matrices with exactly two 1s in each row and column.
    for (n, expected) in [(1, 0), (2, 1), (3, 6), (4, 90), (5, 2040), (6, 67950)] {
        let problem = two_per_line(n);
        assert!(problem.has_multiplicities());
        assert_eq!(problem.count(None), expected, "n = {n}");
        for threads in [1, 2] {
            let (count, _) = problem.space().count_solutions(None, n_threads(threads), &Control::new()).unwrap();
            assert_eq!(count, expected, "n = {n}, {threads} threads");
        }
    }
    // Read from text as well, with the bounds written `2|name`.
    let text = two_per_line(4).to_string();
    assert!(text.starts_with("2|r1 2|r2 2|r3 2|r4 2|c1"), "{text}");
    assert_eq!(parse(&text).unwrap().problem.count(None), 90);
}

#[test]
fn without_bounds_the_fast_engines_run_and_mcc_agrees() {
    let text = "a b c | x\na b\nb c x:A\nc\na x:A\nb\n";
    let problem = parse(text).unwrap().problem;
    assert!(!problem.has_multiplicities());
    assert_ne!(problem.space().engine(), Engine::Mcc);
    assert_eq!(listed(&problem, Engine::Mcc, 1), listed(&problem, Engine::Auto, 1));
    assert_eq!(listed(&problem, Engine::Mcc, 1), brute_force(&problem));
}

#[test]
fn bounds_with_zero_and_ranges() {
    // a: 0 to 2 times; b: exactly once. Options: {a,b}, {a}, {b}, {a}.
    let problem = parse(":2|a b\na b\na\nb\na\n").unwrap().problem;
    assert_eq!(problem.bounds(0), (0, 2));
    assert_eq!(problem.bounds(1), (1, 1));
    assert_eq!(problem.space().engine(), Engine::Mcc);
    let oracle = brute_force(&problem);
    assert_eq!(oracle.len(), 7);
    assert_eq!(listed(&problem, Engine::Auto, 1), oracle);
    assert_eq!(problem.to_string().lines().next(), Some("0:2|a b"));
}

#[test]
fn bad_bounds_are_located() {
    for (text, column, words) in [
        ("a | 2|x\na\n", 5, "bounds on secondary item '2|x'"),
        ("3:2|a\na\n", 1, "lower bound exceeds the upper one"),
        ("0|a\na\n", 1, "upper bound must be at least 1"),
        ("a 2:b\na\n", 3, "need '|' before the item name"),
        ("x|a\na\n", 1, "bad upper bound 'x'"),
        ("1:|a\na\n", 1, "bad upper bound ''"),
        ("a:2|a\na\n", 1, "bad lower bound 'a'"),
        ("99999999999|a\na\n", 1, "too large"),
        ("2|\na\n", 3, "empty item name"),
        ("2|a:b\na\n", 3, "':' in item name"),
    ] {
        let e = parse(text).unwrap_err();
        assert_eq!((e.line, e.column), (1, column), "{text:?}: {e}");
        assert!(e.message.contains(words), "{text:?}: {e}");
    }
    let mut b = Problem::builder();
    assert_eq!(b.primary_bounded("a", 2, 1), Err(XcoverError::BadBounds("a".into(), 2, 1)));
    assert_eq!(b.primary_bounded("a", 0, 0), Err(XcoverError::BadBounds("a".into(), 0, 0)));
}

/// A random problem: up to 4 primary items with random bounds, up to 2
/// secondary items, up to 11 options, colors from two.
pub(super) fn random_problem() -> impl Strategy<Value = Problem> {
    (1usize..=4, 0usize..=2).prop_flat_map(|(n_primary, n_secondary)| {
        let bounds = proptest::collection::vec((0u32..=2, 1u32..=3), n_primary);
        let entry = proptest::collection::vec(0u8..4, n_primary + n_secondary);
        (bounds, proptest::collection::vec(entry, 0..=11)).prop_map(move |(bounds, rows)| {
            let mut b = Problem::builder();
            for (i, &(lo, hi)) in bounds.iter().enumerate() {
                b.primary_bounded(&format!("p{i}"), lo.min(hi), hi).unwrap();
            }
            for s in 0..n_secondary {
                b.secondary(&format!("s{s}")).unwrap();
            }
            for row in rows {
                // 0: not in the option; 1: in it; 2, 3: in it, colored A or B when secondary.
                let mut entries: Vec<(String, Option<&str>)> = Vec::new();
                for (k, &v) in row.iter().enumerate() {
                    if v == 0 {
                        continue;
                    }
                    if k < n_primary {
                        entries.push((format!("p{k}"), None));
                    } else {
                        let color = [None, None, Some("A"), Some("B")][v as usize];
                        entries.push((format!("s{}", k - n_primary), color));
                    }
                }
                // Options without a primary item are refused; the rest are kept.
                let _ = b.option_colored(entries);
            }
            b.build().unwrap()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn mcc_engine_agrees_with_brute_force(problem in random_problem()) {
        let oracle = brute_force(&problem);
        for threads in [1, 2] {
            prop_assert_eq!(&listed(&problem, Engine::Mcc, threads), &oracle, "{}", problem);
            let (count, _) = problem.space_on(Engine::Mcc).count_solutions(None, n_threads(threads), &Control::new()).unwrap();
            prop_assert_eq!(count, oracle.len() as u64, "{}", problem);
        }
        let limit = oracle.len().div_ceil(2) as u64;
        prop_assert_eq!(problem.space_on(Engine::Mcc).count_solutions(Some(limit), n_threads(1), &Control::new()).unwrap().0, limit);
        // Written out and read back, the problem is the same.
        let text = problem.to_string();
        prop_assert_eq!(parse(&text).unwrap().problem.to_string(), text);
    }
}
