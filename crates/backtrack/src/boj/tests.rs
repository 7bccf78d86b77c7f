//! The statements' samples, random small inputs against brute forces written
//! here (no pruning, no shared code with the solvers), inputs at and past
//! the judge's limits, and malformed input.

use proptest::prelude::*;

use super::*;
use crate::rng::Rng;

/// The ten problems of this module.
const IDS: [u32; 10] = [14888, 15658, 14889, 15661, 1182, 1759, 2529, 10819, 10971, 1987];

/// The solver of problem `id`.
fn solver(id: u32) -> fn(&str) -> Result<String, ParseError> {
    match id {
        14888 => solve_14888,
        15658 => solve_15658,
        14889 => solve_14889,
        15661 => solve_15661,
        1182 => solve_1182,
        1759 => solve_1759,
        2529 => solve_2529,
        10819 => solve_10819,
        10971 => solve_10971,
        1987 => solve_1987,
        _ => panic!("{id} is not a problem of this module"),
    }
}

fn solve(id: u32, input: &str) -> String {
    solver(id)(input).unwrap_or_else(|e| panic!("{id} {input:?}: {e}"))
}

fn error_at(id: u32, input: &str) -> (usize, usize, String) {
    let e = solver(id)(input).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn samples() {
    let cases: &[(u32, &str, &str)] = &[
        (14888, "2\n5 6\n0 0 1 0\n", "30\n30\n"),
        (14888, "3\n3 4 5\n1 0 1 0\n", "35\n17\n"),
        (14888, "6\n1 2 3 4 5 6\n2 1 1 1\n", "54\n-24\n"),
        (15658, "2\n5 6\n1 1 1 1\n", "30\n-1\n"),
        (15658, "3\n3 4 5\n2 1 2 1\n", "60\n-5\n"),
        (15658, "6\n1 2 3 4 5 6\n3 2 1 1\n", "72\n-48\n"),
        (14889, SAMPLE_4, "0\n"),
        (14889, SAMPLE_6, "2\n"),
        (14889, SAMPLE_8, "1\n"),
        (15661, SAMPLE_4, "0\n"),
        (15661, SAMPLE_6, "2\n"),
        (15661, SAMPLE_8, "1\n"),
        (15661, SAMPLE_5, "0\n"),
        (1182, "5 0\n-7 -3 -2 5 8\n", "1\n"),
        (
            1759,
            "4 6\na t c i s w\n",
            "acis\nacit\naciw\nacst\nacsw\nactw\naist\naisw\naitw\nastw\ncist\ncisw\ncitw\nistw\n",
        ),
        (2529, "2\n< >\n", "897\n021\n"),
        (2529, "9\n> < < < > > > < <\n", "9567843012\n1023765489\n"),
        (10819, "6\n20 1 15 8 4 10\n", "62\n"),
        (10971, "4\n0 10 15 20\n5 0 9 10\n6 13 0 12\n8 8 9 0\n", "35\n"),
        (1987, "2 4\nCAAB\nADCB\n", "3\n"),
        (1987, "3 6\nHFDFFB\nAJHGDH\nDGAGEH\n", "6\n"),
        (1987, "5 5\nIEFCJ\nFHFKC\nFFALF\nHFGCF\nHMCHH\n", "10\n"),
    ];
    for &(id, input, expected) in cases {
        assert_eq!(solve(id, input), expected, "{id} {input:?}");
    }
}

const SAMPLE_4: &str = "4\n0 1 2 3\n4 0 5 6\n7 1 0 2\n3 4 5 0\n";
const SAMPLE_6: &str = "6\n0 1 2 3 4 5\n1 0 2 3 4 5\n1 2 0 3 4 5\n1 2 3 0 4 5\n1 2 3 4 0 5\n1 2 3 4 5 0\n";
const SAMPLE_8: &str = "8\n0 5 4 5 4 5 4 5\n4 0 5 1 2 3 4 5\n9 8 0 1 2 3 1 2\n9 9 9 0 9 9 9 9\n1 1 1 1 0 1 1 1\n\
                        8 7 6 5 4 0 3 2\n9 1 9 1 9 1 0 9\n6 5 4 3 2 1 9 0\n";
const SAMPLE_5: &str = "5\n0 3 1 1 1\n3 0 1 1 1\n1 1 0 1 1\n1 1 1 0 1\n1 1 1 1 0\n";

#[test]
fn the_judge_registry_answers_every_problem_and_streams() {
    for id in IDS {
        let p = crate::judge::Problem::new(id).unwrap_or_else(|| panic!("{id} is in the registry"));
        assert!(!p.title().en.is_empty() && !p.title().ko.is_empty());
        let mut out = Vec::new();
        assert!(
            matches!(p.answer("", &mut out), Err(crate::judge::AnswerError::Parse(_))),
            "{id}: an empty input is refused"
        );
    }
    let mut out = Vec::new();
    crate::judge::Problem::new(1759).unwrap().answer("3 4\na b c d\n", &mut out).unwrap();
    assert_eq!(out, b"abc\nabd\nacd\n");
}

// ---- brute forces ----

/// Left-to-right value of `numbers` with `ops` (0 +, 1 -, 2 ×, 3 ÷ truncating toward zero).
fn evaluate(numbers: &[i64], ops: &[usize]) -> i64 {
    let mut v = numbers[0];
    for (&op, &a) in ops.iter().zip(&numbers[1..]) {
        v = match op {
            0 => v + a,
            1 => v - a,
            2 => v * a,
            _ if v < 0 => -(-v / a),
            _ => v / a,
        };
    }
    v
}

fn naive_operators(numbers: &[i64], counts: [usize; 4]) -> String {
    let gaps = numbers.len() - 1;
    let (mut max, mut min) = (i64::MIN, i64::MAX);
    for code in 0..4usize.pow(gaps as u32) {
        let ops: Vec<usize> = (0..gaps).map(|i| code / 4usize.pow(i as u32) % 4).collect();
        if (0..4).all(|k| ops.iter().filter(|&&o| o == k).count() <= counts[k]) {
            let v = evaluate(numbers, &ops);
            max = max.max(v);
            min = min.min(v);
        }
    }
    format!("{max}\n{min}\n")
}

fn naive_teams(s: &[Vec<u64>], equal: bool) -> String {
    let n = s.len();
    let strength = |mask: u32, inside: bool| -> i64 {
        let mut total = 0;
        for (i, row) in s.iter().enumerate() {
            for (j, &v) in row.iter().enumerate() {
                if i != j && (mask >> i & 1 == 1) == inside && (mask >> j & 1 == 1) == inside {
                    total += v as i64;
                }
            }
        }
        total
    };
    let best = (1..(1u32 << n) - 1)
        .filter(|m| !equal || m.count_ones() as usize * 2 == n)
        .map(|m| (strength(m, true) - strength(m, false)).abs())
        .min()
        .unwrap();
    format!("{best}\n")
}

fn naive_subset_sum(numbers: &[i64], target: i64) -> String {
    let n = numbers.len();
    let count = (1..1u64 << n)
        .filter(|m| (0..n).filter(|&i| m >> i & 1 == 1).map(|i| numbers[i]).sum::<i64>() == target)
        .count();
    format!("{count}\n")
}

fn naive_passwords(len: usize, letters: &[u8]) -> String {
    let mut all: Vec<String> = (0..1u32 << letters.len())
        .filter(|m| m.count_ones() as usize == len)
        .map(|m| {
            let mut word: Vec<u8> = (0..letters.len()).filter(|&i| m >> i & 1 == 1).map(|i| letters[i]).collect();
            word.sort();
            String::from_utf8(word).unwrap()
        })
        .filter(|w| {
            let vowels = w.chars().filter(|c| "aeiou".contains(*c)).count();
            vowels >= 1 && w.len() - vowels >= 2
        })
        .collect();
    all.sort();
    all.iter().map(|w| format!("{w}\n")).collect()
}

/// Every arrangement of `items`, by recursion.
fn arrangements<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.is_empty() {
        return vec![vec![]];
    }
    let mut all = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in arrangements(&rest) {
            tail.insert(0, first.clone());
            all.push(tail);
        }
    }
    all
}

fn naive_inequality(signs: &[char]) -> String {
    let k = signs.len();
    let mut found: Vec<String> = Vec::new();
    // Every choice of k+1 digits, in every order.
    for m in 0..1u32 << 10 {
        if m.count_ones() as usize != k + 1 {
            continue;
        }
        let digits: Vec<u32> = (0..10).filter(|d| m >> d & 1 == 1).collect();
        for order in arrangements(&digits) {
            let ok =
                signs
                    .iter()
                    .enumerate()
                    .all(|(i, &s)| if s == '<' { order[i] < order[i + 1] } else { order[i] > order[i + 1] });
            if ok {
                found.push(order.iter().map(|d| d.to_string()).collect());
            }
        }
    }
    found.sort();
    format!("{}\n{}\n", found.last().unwrap(), found[0])
}

fn naive_difference(numbers: &[i64]) -> String {
    let best = arrangements(numbers).iter().map(|o| o.windows(2).map(|w| (w[0] - w[1]).abs()).sum::<i64>()).max();
    format!("{}\n", best.unwrap())
}

fn naive_tsp(w: &[Vec<u64>]) -> Option<u64> {
    let n = w.len();
    let rest: Vec<usize> = (1..n).collect();
    arrangements(&rest)
        .into_iter()
        .filter_map(|order| {
            let path: Vec<usize> = std::iter::once(0).chain(order).chain(std::iter::once(0)).collect();
            path.windows(2).map(|p| Some(w[p[0]][p[1]]).filter(|&c| c != 0)).sum::<Option<u64>>()
        })
        .min()
}

fn naive_alphabet(rows: &[Vec<u8>]) -> String {
    fn dfs(rows: &[Vec<u8>], r: usize, c: usize, used: &mut Vec<u8>) -> usize {
        let mut best = used.len();
        let moves = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)];
        for (dr, dc) in moves {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            if nr < 0 || nc < 0 || nr as usize >= rows.len() || nc as usize >= rows[0].len() {
                continue;
            }
            let letter = rows[nr as usize][nc as usize];
            if !used.contains(&letter) {
                used.push(letter);
                best = best.max(dfs(rows, nr as usize, nc as usize, used));
                used.pop();
            }
        }
        best
    }
    format!("{}\n", dfs(rows, 0, 0, &mut vec![rows[0][0]]))
}

fn lines_of<T: ToString>(rows: &[Vec<T>]) -> String {
    rows.iter().map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ") + "\n").collect()
}

fn join<T: ToString>(values: &[T]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn samples_agree_with_the_brute_forces() {
    assert_eq!(naive_operators(&[1, 2, 3, 4, 5, 6], [3, 2, 1, 1]), "72\n-48\n");
    assert_eq!(naive_operators(&[3, 4, 5], [2, 1, 2, 1]), "60\n-5\n");
    assert_eq!(naive_operators(&[1, 2, 3, 4, 5, 6], [2, 1, 1, 1]), "54\n-24\n");
    let matrix = |text: &str| -> Vec<Vec<u64>> {
        text.lines().skip(1).map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect()).collect()
    };
    assert_eq!(naive_teams(&matrix(SAMPLE_8), true), "1\n");
    assert_eq!(naive_teams(&matrix(SAMPLE_6), false), "2\n");
    assert_eq!(naive_teams(&matrix(SAMPLE_5), false), "0\n");
    assert_eq!(naive_subset_sum(&[1, 2, 3], 3), "2\n");
    assert_eq!(naive_inequality(&['<', '>']), "897\n021\n");
    assert_eq!(naive_difference(&[20, 1, 15, 8, 4, 10]), "62\n");
    assert_eq!(naive_alphabet(&[b"HFDFFB".to_vec(), b"AJHGDH".to_vec(), b"DGAGEH".to_vec()]), "6\n");
}

fn matrix_strategy(n: std::ops::RangeInclusive<usize>, zero: u32, max: u64) -> impl Strategy<Value = Vec<Vec<u64>>> {
    n.prop_flat_map(move |n| {
        proptest::collection::vec(proptest::collection::vec((0..100u32, 1..=max), n), n).prop_map(move |rows| {
            rows.iter()
                .enumerate()
                .map(|(i, row)| {
                    row.iter().enumerate().map(|(j, &(z, v))| if i == j || z < zero { 0 } else { v }).collect()
                })
                .collect()
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn operators_match_every_order(numbers in proptest::collection::vec(1i64..=12, 2..=7), extra in proptest::collection::vec(0usize..3, 4), split in proptest::collection::vec(0usize..4, 6)) {
        let gaps = numbers.len() - 1;
        let mut counts = [0usize; 4];
        for &k in &split[..gaps] {
            counts[k] += 1;
        }
        let input = format!("{}\n{}\n{}\n", numbers.len(), join(&numbers), join(&counts));
        prop_assert_eq!(solve(14888, &input), naive_operators(&numbers, counts));
        for k in 0..4 {
            counts[k] += extra[k];
        }
        let input = format!("{}\n{}\n{}\n", numbers.len(), join(&numbers), join(&counts));
        prop_assert_eq!(solve(15658, &input), naive_operators(&numbers, counts));
    }

    #[test]
    fn teams_match_every_split(s in matrix_strategy(4..=9, 10, 20)) {
        let n = s.len();
        let input = format!("{n}\n{}", lines_of(&s));
        prop_assert_eq!(solve(15661, &input), naive_teams(&s, false));
        if n % 2 == 0 {
            prop_assert_eq!(solve(14889, &input), naive_teams(&s, true));
        }
    }

    #[test]
    fn subset_sums_match_every_subsequence(numbers in proptest::collection::vec(-6i64..=6, 1..=13), target in -8i64..=8) {
        let input = format!("{} {target}\n{}\n", numbers.len(), join(&numbers));
        prop_assert_eq!(solve(1182, &input), naive_subset_sum(&numbers, target));
    }

    #[test]
    fn passwords_match_every_choice(pool in proptest::sample::subsequence((b'a'..=b'z').collect::<Vec<u8>>(), 3..=10), len in 3usize..=10, seed in any::<u64>()) {
        let len = len.min(pool.len());
        let mut letters = pool.clone();
        Rng::new(seed).shuffle(&mut letters);
        let words: Vec<String> = letters.iter().map(|&b| (b as char).to_string()).collect();
        let input = format!("{len} {}\n{}\n", letters.len(), words.join(" "));
        prop_assert_eq!(solve(1759, &input), naive_passwords(len, &letters));
    }

    #[test]
    fn inequalities_match_every_placement(signs in proptest::collection::vec(prop_oneof![Just('<'), Just('>')], 1..=4)) {
        let input = format!("{}\n{}\n", signs.len(), join(&signs));
        prop_assert_eq!(solve(2529, &input), naive_inequality(&signs));
    }

    #[test]
    fn differences_match_every_order(numbers in proptest::collection::vec(-20i64..=20, 3..=7)) {
        let input = format!("{}\n{}\n", numbers.len(), join(&numbers));
        prop_assert_eq!(solve(10819, &input), naive_difference(&numbers));
    }

    #[test]
    fn tours_match_every_order(w in matrix_strategy(2..=7, 30, 50)) {
        let input = format!("{}\n{}", w.len(), lines_of(&w));
        match naive_tsp(&w) {
            Some(cost) => prop_assert_eq!(solve(10971, &input), format!("{cost}\n")),
            None => prop_assert!(solve_10971(&input).is_err()),
        }
    }

    #[test]
    fn walks_match_a_plain_search(rows in (1usize..=5, 1usize..=5, 2u8..=8).prop_flat_map(|(r, c, k)| proptest::collection::vec(proptest::collection::vec(b'A'..b'A' + k, c), r))) {
        let text: Vec<String> = rows.iter().map(|r| String::from_utf8(r.clone()).unwrap()).collect();
        let input = format!("{} {}\n{}\n", rows.len(), rows[0].len(), text.join("\n"));
        prop_assert_eq!(solve(1987, &input), naive_alphabet(&rows));
    }
}

// ---- at and past the judge's limits ----

#[test]
fn operators_at_the_limits() {
    // Eleven 100s with every kind of operator: the walk's table keeps it small.
    let input = "11\n100 100 100 100 100 100 100 100 100 100 100\n3 3 2 2\n";
    let expr = operators::parse_expression(input, true).unwrap();
    let e = operators::extremes(&expr);
    assert!(e.nodes < 10_000, "{} nodes", e.nodes);
    // 15658 with forty numbers and every operator available forty times.
    let numbers = vec![1; 40];
    let text = format!("40\n{}\n40 40 40 40\n", join(&numbers));
    assert_eq!(solve(15658, &text), "40\n-38\n");
    let mut rng = Rng::new(7);
    let numbers: Vec<u64> = (0..30).map(|_| 1 + rng.below(3) as u64).collect();
    let text = format!("30\n{}\n8 8 7 6\n", join(&numbers));
    let e = operators::extremes(&operators::parse_expression(&text, true).unwrap());
    assert!(e.max > e.min && e.nodes < 5_000_000, "{e:?}");
}

#[test]
fn teams_at_the_limits() {
    let mut rng = Rng::new(11);
    for n in [20, 32] {
        let s: Vec<Vec<u64>> =
            (0..n).map(|i| (0..n).map(|j| if i == j { 0 } else { 1 + rng.below(100) as u64 }).collect()).collect();
        let teams = teams::parse_teams(&format!("{n}\n{}", lines_of(&s)), teams::Sizes::Equal).unwrap();
        let split = teams::closest_split(&teams, teams::Sizes::Equal);
        assert!(split.difference <= 1 && split.nodes < 10_000_000, "{split:?}");
    }
    // Everyone alike and an odd number of people: the floor proves the first split best.
    let n = 31;
    let s: Vec<Vec<u64>> = (0..n).map(|i| (0..n).map(|j| u64::from(i != j)).collect()).collect();
    let teams = teams::parse_teams(&format!("{n}\n{}", lines_of(&s)), teams::Sizes::Any).unwrap();
    let split = teams::closest_split(&teams, teams::Sizes::Any);
    // 16 and 15 people: 16*15 - 15*14 = 30.
    assert_eq!(split.difference, 30);
    assert!(split.nodes < 1_000, "{split:?}");
}

#[test]
fn subset_sums_at_the_limits() {
    assert_eq!(solve(1182, &format!("20 0\n{}\n", join(&[0; 20]))), "1048575\n");
    assert_eq!(solve(1182, &format!("40 0\n{}\n", join(&[0; 40]))), format!("{}\n", (1u64 << 40) - 1));
    let values: Vec<i64> = (1..=40).map(|i| if i % 2 == 0 { 1_000_000_000 } else { -1_000_000_000 }).collect();
    // Choose j of the 20 positives and j of the 20 negatives, j >= 1: C(40, 20) - 1.
    assert_eq!(solve(1182, &format!("40 0\n{}\n", join(&values))), "137846528819\n");
}

#[test]
fn passwords_at_the_limits() {
    let all: Vec<String> = (b'a'..=b'z').map(|b| (b as char).to_string()).collect();
    let letters = password::parse_letters(&format!("13 26\n{}\n", all.join(" "))).unwrap();
    let count = password::write_passwords(&letters, &mut std::io::sink()).unwrap();
    // C(26,13) less those with no vowel (C(21,13)) and those with at most one consonant (none at 13).
    assert_eq!(count, 10_400_600 - 203_490);
    // No vowel at all: nothing to print.
    assert_eq!(solve(1759, "3 4\nb c d f\n"), "");
    assert_eq!(solve(1759, "3 3\na b c\n"), "abc\n");
}

#[test]
fn inequalities_at_the_limits() {
    assert_eq!(solve(2529, "9\n< < < < < < < < <\n"), "0123456789\n0123456789\n");
    assert_eq!(solve(2529, "9\n> > > > > > > > >\n"), "9876543210\n9876543210\n");
    assert_eq!(solve(2529, "1\n<\n"), "89\n01\n");
}

#[test]
fn differences_at_the_limits() {
    assert_eq!(solve(10819, "8\n-100 100 -100 100 -100 100 -100 100\n"), "1400\n");
    assert_eq!(solve(10819, "3\n5 5 5\n"), "0\n");
    let mut rng = Rng::new(3);
    let numbers: Vec<i64> = (0..12).map(|_| rng.below(2001) as i64 - 1000).collect();
    let best = difference::largest_sum(&numbers);
    assert!(best.sum > 0 && best.nodes < 50_000_000, "{best:?}");
    let eight = &numbers[..8];
    assert_eq!(format!("{}\n", difference::largest_sum(eight).sum), naive_difference(eight));
}

#[test]
fn tours_at_the_limits() {
    let mut rng = Rng::new(5);
    for n in [10, 16] {
        let w: Vec<Vec<u64>> = (0..n)
            .map(|i| (0..n).map(|j| if i == j { 0 } else { 1 + rng.below(1_000_000) as u64 }).collect())
            .collect();
        let tour = tsp::cheapest_tour(&w);
        assert!(tour.cost.is_some() && tour.nodes < 50_000_000, "{tour:?}");
    }
    // One road out of each city: the single cycle 1 -> 2 -> ... -> N -> 1.
    let n = 16;
    let w: Vec<Vec<u64>> =
        (0..n).map(|i| (0..n).map(|j| u64::from(j == (i + 1) % n) * 1_000_000_000).collect()).collect();
    assert_eq!(solve(10971, &format!("{n}\n{}", lines_of(&w))), "16000000000\n");
    let e = error_at(10971, "3\n0 1 0\n0 0 1\n0 0 0\n");
    assert!(e.2.contains("no round trip"), "{e:?}");
}

#[test]
fn walks_at_the_limits() {
    let mut rng = Rng::new(9);
    for side in [20, 100] {
        let rows: Vec<String> =
            (0..side).map(|_| (0..side).map(|_| (b'A' + rng.below(26) as u8) as char).collect()).collect();
        let board = alphabet::parse_board(&format!("{side} {side}\n{}\n", rows.join("\n"))).unwrap();
        let longest = alphabet::longest_walk(&board);
        assert!(longest.cells >= 10 && longest.cells <= 26, "{longest:?}");
    }
    assert_eq!(solve(1987, "1 1\nZ\n"), "1\n");
    let line: String = (b'A'..=b'Z').map(|b| b as char).collect();
    assert_eq!(solve(1987, &format!("1 26\n{line}\n")), "26\n");
}

// ---- malformed input ----

#[test]
fn errors_name_the_place() {
    let cases: &[(u32, &str, (usize, usize), &str)] = &[
        (14888, "3\n3 4 5\n1 1 1 0\n", (3, 1), "must add up to N-1 = 2, found 3"),
        (14888, "3\n3 0 5\n1 1 0 0\n", (2, 3), "A2 must be between 1 and"),
        (15658, "3\n3 4 5\n1 0 0 0\n", (3, 1), "at least N-1 = 2"),
        (14888, "2\n5 6\n0 0 1\n", (4, 1), "expected the number of ÷"),
        (14889, "5\n", (1, 1), "N must be even"),
        (15661, "4\n0 1 2 3\n4 7 5 6\n7 1 0 2\n3 4 5 0\n", (3, 3), "S[2][2] must be 0"),
        (1182, "2 1\n1 x\n", (2, 3), "expected number 2 of 2"),
        (1759, "3 4\na b b c\n", (2, 5), "the letter b is given twice"),
        (1759, "3 4\na b C d\n", (2, 5), "one lowercase letter"),
        (1759, "4 3\na b c\n", (1, 3), "C must be between 4 and 26"),
        (2529, "2\n< =\n", (2, 3), "expected `<` or `>`"),
        (2529, "2\n<>\n", (2, 1), "expected `<` or `>`"),
        (10819, "3\n1 2\n", (3, 1), "expected A[2]"),
        (10971, "2\n0 1\n1 0\n5\n", (4, 1), "unexpected `5`"),
        (1987, "2 3\nABC\nAbC\n", (3, 2), "capital letter"),
        (1987, "2 3\nABC\nABCD\n", (3, 1), "must have C = 3 letters"),
    ];
    for &(id, input, place, words) in cases {
        let (line, column, message) = error_at(id, input);
        assert_eq!((line, column), place, "{id} {input:?}: {message}");
        assert!(message.contains(words), "{id} {input:?}: {message}");
    }
    // Too large to stay exact: refused, not wrapped.
    let big = format!("12\n{}\n11 0 0 0\n", join(&[1_000_000; 12]));
    assert!(error_at(14888, &big).2.contains("128 bits"));
}
