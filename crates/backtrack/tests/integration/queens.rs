//! N-queens counts and solution lists against independent oracles: the
//! published OEIS tables, a plain brute force written here, and the search
//! core's generic walk.

use std::collections::HashSet;
use std::ops::ControlFlow;

use backtrack::queens::{self, lex_prefixes, write_solutions, Counts, Plan, QueensSpace};
use backtrack::search::{par_count, Control, Order, Search};
use proptest::prelude::*;

use crate::common::n_threads;

/// OEIS A000170, N = 1..=17.
const TOTAL: [u128; 17] =
    [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104];

/// OEIS A002562, N = 1..=14.
const UNIQUE: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

/// Every solution by the most direct method there is: try every column for
/// every row and check each pair of queens afterwards. Exponential, so only
/// for small boards.
fn brute_force(n: usize) -> Vec<Vec<u8>> {
    fn rec(n: usize, cols: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if cols.len() == n {
            let ok = (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    let (a, b) = (cols[i] as i32, cols[j] as i32);
                    a != b && (a - b).abs() != (j - i) as i32
                })
            });
            if ok {
                out.push(cols.clone());
            }
            return;
        }
        for c in 0..n as u8 {
            // Prune only repeated columns so the tree stays small enough.
            if !cols.contains(&c) {
                cols.push(c);
                rec(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, &mut Vec::new(), &mut out);
    out
}

/// The eight images of a solution under the symmetries of the square.
fn images(sol: &[u8]) -> Vec<Vec<u8>> {
    let n = sol.len();
    let cells: Vec<(usize, usize)> = sol.iter().enumerate().map(|(r, &c)| (r, c as usize)).collect();
    type CellMap = fn(usize, usize, usize) -> (usize, usize);
    let maps: [CellMap; 8] = [
        |_, r, c| (r, c),
        |n, r, c| (r, n - 1 - c),
        |n, r, c| (n - 1 - r, c),
        |n, r, c| (n - 1 - r, n - 1 - c),
        |_, r, c| (c, r),
        |n, r, c| (c, n - 1 - r),
        |n, r, c| (n - 1 - c, r),
        |n, r, c| (n - 1 - c, n - 1 - r),
    ];
    maps.iter()
        .map(|f| {
            let mut img = vec![0u8; n];
            for &(r, c) in &cells {
                let (r2, c2) = f(n, r, c);
                img[r2] = c2 as u8;
            }
            img
        })
        .collect()
}

/// Classes of solutions up to symmetry, from the brute-force list.
fn brute_force_unique(n: usize) -> usize {
    let mut seen = HashSet::new();
    let mut classes = 0;
    for sol in brute_force(n) {
        if seen.insert(sol.clone()) {
            classes += 1;
            for img in images(&sol) {
                seen.insert(img);
            }
        }
    }
    classes
}

#[test]
fn totals_and_unique_counts_match_oeis_up_to_14() {
    for n in 1..=14 {
        let counts = queens::count(n, n_threads(2)).unwrap();
        assert_eq!(counts.total, TOTAL[n - 1], "total for n={n}");
        assert_eq!(counts.unique, UNIQUE[n - 1], "unique for n={n}");
    }
}

#[test]
fn counts_match_brute_force_up_to_9() {
    for n in 1..=9 {
        let counts = queens::count(n, n_threads(1)).unwrap();
        assert_eq!(counts.total, brute_force(n).len() as u128, "total for n={n}");
        assert_eq!(counts.unique, brute_force_unique(n) as u128, "unique for n={n}");
    }
}

#[test]
fn counts_match_the_search_core_walk_up_to_11() {
    for n in 1..=11 {
        let plain = Search::new(QueensSpace::new(n).unwrap()).count(None);
        assert_eq!(queens::count(n, n_threads(1)).unwrap().total, plain as u128, "n={n}");
        let (parallel, _) =
            par_count(&QueensSpace::new(n).unwrap(), Order::Lexicographic, None, n_threads(2), &Control::new())
                .unwrap();
        assert_eq!(parallel, plain, "n={n}");
    }
}

#[test]
fn every_split_depth_gives_the_same_counts() {
    for n in 1..=12 {
        let reference = queens::count(n, n_threads(1)).unwrap();
        for depth in 2..=6 {
            let plan = Plan::with_depth(n, depth).unwrap();
            let counts: Counts = (0..plan.len()).map(|i| plan.solve(i)).sum();
            assert_eq!(counts, reference, "n={n} depth={depth}");
        }
    }
}

#[test]
fn one_and_two_threads_agree() {
    for n in [10, 12, 13] {
        assert_eq!(queens::count(n, n_threads(1)).unwrap(), queens::count(n, n_threads(2)).unwrap(), "n={n}");
    }
}

#[test]
fn subproblem_results_arrive_once_each() {
    let plan = Plan::new(11).unwrap();
    let mut seen = vec![0u32; plan.len()];
    let mut sum = Counts::default();
    queens::count_with(
        &plan,
        n_threads(2),
        |_| false,
        None,
        |i, c| {
            seen[i] += 1;
            sum.add(c);
        },
    )
    .unwrap();
    assert!(seen.iter().all(|&k| k == 1));
    assert_eq!(sum.total, TOTAL[10]);
}

#[test]
fn skipped_subproblems_are_left_out() {
    let plan = Plan::new(10).unwrap();
    let mut even = Counts::default();
    queens::count_with(
        &plan,
        n_threads(2),
        |i| i % 2 == 1,
        None,
        |i, c| {
            assert_eq!(i % 2, 0);
            even.add(c);
        },
    )
    .unwrap();
    let mut odd = Counts::default();
    queens::count_with(&plan, n_threads(1), |i| i % 2 == 0, None, |_, c| odd.add(c)).unwrap();
    assert_eq!((even + odd).total, TOTAL[9]);
}

#[test]
fn a_cancelled_count_reports_nothing_more() {
    let plan = Plan::new(14).unwrap();
    let control = Control::new();
    control.cancel();
    let mut reported = 0;
    queens::count_with(&plan, n_threads(2), |_| false, Some(&control), |_, _| reported += 1).unwrap();
    assert_eq!(reported, 0);
}

#[test]
fn sizes_outside_1_to_32_are_refused() {
    assert!(queens::count(0, n_threads(1)).is_err());
    assert!(queens::count(33, n_threads(1)).is_err());
    assert!(Plan::new(32).is_ok());
    assert!(QueensSpace::new(0).is_err());
    assert!(lex_prefixes(40, 2).is_err());
}

fn solutions_text(n: usize, threads: usize) -> String {
    let mut out = Vec::new();
    let written = queens::par_write_solutions(n, n_threads(threads), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(written as usize, text.lines().count());
    text
}

fn expected_text(n: usize) -> String {
    let mut sols = brute_force(n);
    sols.sort();
    sols.iter().map(|s| s.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(" ") + "\n").collect()
}

#[test]
fn all_solutions_text_matches_brute_force() {
    for n in 1..=9 {
        let expected = expected_text(n);
        assert_eq!(solutions_text(n, 1), expected, "n={n}, one thread");
        assert_eq!(solutions_text(n, 2), expected, "n={n}, two threads");
    }
}

#[test]
fn all_solutions_of_larger_boards_are_ordered_and_valid() {
    for n in [10, 12] {
        let text = solutions_text(n, 2);
        assert_eq!(text, solutions_text(n, 1));
        let sols: Vec<Vec<u8>> =
            text.lines().map(|l| l.split(' ').map(|t| t.parse::<u8>().unwrap() - 1).collect()).collect();
        assert_eq!(sols.len() as u128, TOTAL[n - 1]);
        assert!(sols.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
        let mut walk = Vec::new();
        Search::new(QueensSpace::new(n).unwrap()).for_each(|s| {
            walk.push(s);
            ControlFlow::Continue(())
        });
        assert_eq!(sols, walk);
    }
}

#[test]
fn two_digit_columns_are_written_in_full() {
    let mut buf = Vec::new();
    let mut text = Vec::new();
    let mut emit = |b: &mut Vec<u8>| {
        text.extend_from_slice(b);
        b.clear();
        Ok(())
    };
    let first = Search::new(QueensSpace::new(20).unwrap()).lex_first().unwrap();
    // Only the first solution: fix all but the last two rows.
    let written = write_solutions(20, &first[..18], &mut buf, &mut emit).unwrap();
    let text = String::from_utf8(text).unwrap();
    let expected = first.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(" ");
    assert!(written >= 1);
    assert_eq!(text.lines().next().unwrap(), expected);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any prefix of a lexicographic split writes exactly the brute-force
    /// solutions that start with it.
    #[test]
    fn prefix_pieces_write_their_own_solutions(n in 4usize..=8, depth in 0usize..=3, pick in any::<prop::sample::Index>()) {
        let pieces = lex_prefixes(n, depth).unwrap();
        prop_assume!(!pieces.is_empty());
        let piece = &pieces[pick.index(pieces.len())];
        let mut buf = Vec::new();
        let mut got = Vec::new();
        let mut emit = |b: &mut Vec<u8>| { got.extend_from_slice(b); b.clear(); Ok(()) };
        write_solutions(n, piece, &mut buf, &mut emit).unwrap();
        let mut want: Vec<Vec<u8>> = brute_force(n).into_iter().filter(|s| s.starts_with(piece)).collect();
        want.sort();
        let want: String = want.iter()
            .map(|s| s.iter().map(|c| (c + 1).to_string()).collect::<Vec<_>>().join(" ") + "\n")
            .collect();
        prop_assert_eq!(String::from_utf8(got).unwrap(), want);
    }

    /// The default kernel (eight searches per AVX2 register where the
    /// processor has it) and the scalar one agree on every piece of work,
    /// whatever the prefix length.
    #[test]
    fn both_kernels_count_each_subproblem_alike(n in 4usize..=14, depth in 2usize..=8, pick in any::<prop::sample::Index>()) {
        let plan = Plan::with_depth(n, depth).unwrap();
        prop_assume!(!plan.is_empty());
        let index = pick.index(plan.len());
        prop_assert_eq!(plan.solve(index), plan.solve_scalar(index, None).unwrap());
    }

    /// Subproblem counts add up to the total whatever subset runs where.
    #[test]
    fn any_partition_of_subproblems_sums_to_the_total(n in 6usize..=11, shards in 1usize..=5) {
        let plan = Plan::new(n).unwrap();
        let mut sum = Counts::default();
        for shard in 0..shards {
            queens::count_with(&plan, n_threads(1), |i| i % shards != shard, None, |_, c| sum.add(c)).unwrap();
        }
        prop_assert_eq!(sum.total, TOTAL[n - 1]);
        prop_assert_eq!(sum.unique, UNIQUE[n - 1]);
    }
}

/// N = 15 and 16 (totals and classes, OEIS A000170 and A002562) on the
/// fastest kernel this processor has; 16 only in optimised builds, where
/// it takes a fraction of a second.
#[test]
fn counts_match_oeis_15_and_16() {
    let last = if cfg!(unoptimized) { 15 } else { 16 };
    for (n, unique) in [(15, 285_053), (16, 1_846_955)] {
        if n > last {
            eprintln!("skipped: n = {n} in an unoptimised build");
            continue;
        }
        let counts = queens::count(n, n_threads(2)).unwrap();
        assert_eq!((counts.total, counts.unique), (TOTAL[n - 1], unique), "n={n}");
    }
}

#[test]
#[ignore = "takes tens of seconds; run with --ignored for the N=15..17 figures"]
fn totals_match_oeis_15_to_17() {
    for n in 15..=17 {
        assert_eq!(queens::count(n, backtrack::search::Threads::available()).unwrap().total, TOTAL[n - 1], "n={n}");
    }
}
