//! The judge's cases for the operator, team, subset-sum, password,
//! inequality, ordering, tour and letter-walk problems: the statement
//! samples with their published answers, every input within the statement's
//! limits, and every expected answer against a brute force written here
//! (plain enumeration of every choice, nothing shared with the solvers).

use backtrack::judge::{Case, Input, Plan, Problem};

/// The ten problems, with the judge's limits on their inputs checked below.
const IDS: [u32; 10] = [14888, 15658, 14889, 15661, 1182, 1759, 2529, 10819, 10971, 1987];

fn cases(id: u32, seed: u64) -> Vec<Case> {
    Problem::new(id).unwrap().cases(&Plan { seed, random: 12, hard: true }).collect()
}

#[test]
fn samples_are_the_statements_with_their_answers() {
    let samples: &[(u32, &str, &str)] = &[
        (14888, "2\n5 6\n0 0 1 0\n", "30\n30\n"),
        (14888, "3\n3 4 5\n1 0 1 0\n", "35\n17\n"),
        (14888, "6\n1 2 3 4 5 6\n2 1 1 1\n", "54\n-24\n"),
        (15658, "2\n5 6\n1 1 1 1\n", "30\n-1\n"),
        (15658, "3\n3 4 5\n2 1 2 1\n", "60\n-5\n"),
        (15658, "6\n1 2 3 4 5 6\n3 2 1 1\n", "72\n-48\n"),
        (14889, "4\n0 1 2 3\n4 0 5 6\n7 1 0 2\n3 4 5 0\n", "0\n"),
        (14889, "6\n0 1 2 3 4 5\n1 0 2 3 4 5\n1 2 0 3 4 5\n1 2 3 0 4 5\n1 2 3 4 0 5\n1 2 3 4 5 0\n", "2\n"),
        (
            14889,
            "8\n0 5 4 5 4 5 4 5\n4 0 5 1 2 3 4 5\n9 8 0 1 2 3 1 2\n9 9 9 0 9 9 9 9\n1 1 1 1 0 1 1 1\n\
             8 7 6 5 4 0 3 2\n9 1 9 1 9 1 0 9\n6 5 4 3 2 1 9 0\n",
            "1\n",
        ),
        (15661, "5\n0 3 1 1 1\n3 0 1 1 1\n1 1 0 1 1\n1 1 1 0 1\n1 1 1 1 0\n", "0\n"),
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
    for &(id, text, expected) in samples {
        let found = cases(id, 1).into_iter().find(|c| c.text == text);
        let case = found.unwrap_or_else(|| panic!("{id}: no sample {text:?}"));
        assert!(case.name.starts_with("sample-"), "{id}: {}", case.name);
        assert_eq!(case.expected, expected, "{id} {text:?}");
    }
    for id in IDS {
        let problem = Problem::new(id).unwrap();
        assert!(cases(id, 1).iter().filter(|c| c.name.starts_with("sample-")).count() >= 1, "{id}");
        assert!(!problem.title().ko.is_empty() && !problem.title().en.is_empty(), "{id}");
    }
}

/// Panics unless `input` keeps problem `id`'s limits.
fn within_limits(id: u32, input: &Input, what: &str) {
    match input {
        Input::Operators { numbers, counts } => {
            let n = numbers.len();
            assert!((2..=11).contains(&n) && numbers.iter().all(|v| (1..=100).contains(v)), "{what}");
            let total: u32 = counts.iter().sum();
            if id == 14888 {
                assert_eq!(total as usize, n - 1, "{what}");
            } else {
                assert!((n - 1..=4 * n).contains(&(total as usize)), "{what}");
            }
        }
        Input::Matrix(rows) => {
            let n = rows.len();
            let (low, high, max) = if id == 10971 { (2, 10, 1_000_000) } else { (4, 20, 100) };
            assert!((low..=high).contains(&n), "{what}");
            assert!(id != 14889 || n % 2 == 0, "{what}");
            for (i, row) in rows.iter().enumerate() {
                assert_eq!(row.len(), n, "{what}");
                for (j, &v) in row.iter().enumerate() {
                    let ok = if i == j { v == 0 } else { v <= max && (id == 10971 || v >= 1) };
                    assert!(ok, "{what}: [{i}][{j}] = {v}");
                }
            }
        }
        Input::SubsetSum { target, numbers } => {
            assert!((1..=20).contains(&numbers.len()) && target.abs() <= 1_000_000, "{what}");
            assert!(numbers.iter().all(|v| v.abs() <= 100_000), "{what}");
        }
        Input::Letters { len, letters } => {
            assert!(3 <= *len && *len <= letters.len() && letters.len() <= 15, "{what}");
            assert!(letters.iter().all(u8::is_ascii_lowercase), "{what}");
            let mut sorted = letters.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), letters.len(), "distinct: {what}");
        }
        Input::Signs(signs) => assert!((2..=9).contains(&signs.len()), "{what}"),
        Input::Numbers(numbers) => {
            assert!((3..=8).contains(&numbers.len()) && numbers.iter().all(|v| v.abs() <= 100), "{what}");
        }
        Input::Board(rows) => {
            assert!((1..=20).contains(&rows.len()), "{what}");
            let c = rows[0].len();
            assert!((1..=20).contains(&c) && rows.iter().all(|r| r.len() == c), "{what}");
            assert!(rows.iter().flatten().all(u8::is_ascii_uppercase), "{what}");
        }
        other => panic!("{id}: {other:?}"),
    }
}

// ---- brute forces: every choice, one after the other ----

/// Every assignment of an operator to each gap that the counts allow, worked
/// out left to right; the largest and smallest results, and the largest
/// absolute value met along the way.
fn operators_oracle(numbers: &[u32], counts: [u32; 4]) -> (i64, i64, i64) {
    let gaps = numbers.len() - 1;
    let (mut max, mut min, mut widest) = (i64::MIN, i64::MAX, 0i64);
    for code in 0..4usize.pow(gaps as u32) {
        let ops: Vec<usize> = (0..gaps).map(|g| code / 4usize.pow(g as u32) % 4).collect();
        if (0..4).any(|k| ops.iter().filter(|&&o| o == k).count() > counts[k] as usize) {
            continue;
        }
        let mut value = numbers[0] as i64;
        for (g, &op) in ops.iter().enumerate() {
            let a = numbers[g + 1] as i64;
            value = match op {
                0 => value + a,
                1 => value - a,
                2 => value * a,
                // Truncation toward zero, spelled out.
                _ => value.signum() * (value.abs() / a),
            };
            widest = widest.max(value.abs());
        }
        max = max.max(value);
        min = min.min(value);
    }
    (max, min, widest)
}

/// The smallest difference over every split (team sizes N/2 when `equal`).
fn teams_oracle(s: &[Vec<u32>], equal: bool) -> u64 {
    let n = s.len();
    let full = (1usize << n) - 1;
    // strength[mask]: the team `mask`'s strength, built from the mask without its lowest member.
    let mut strength = vec![0u64; 1 << n];
    for mask in 1..=full {
        let b = mask.trailing_zeros() as usize;
        let rest = mask & (mask - 1);
        let added: u64 = (0..n).filter(|&j| rest >> j & 1 == 1).map(|j| (s[b][j] + s[j][b]) as u64).sum();
        strength[mask] = strength[rest] + added;
    }
    (1..full)
        .filter(|&m| !equal || (m as u32).count_ones() as usize == n / 2)
        .map(|m| strength[m].abs_diff(strength[full ^ m]))
        .min()
        .unwrap()
}

fn subset_sum_oracle(target: i64, numbers: &[i64]) -> u64 {
    let n = numbers.len();
    let mut sums = vec![0i64; 1 << n];
    let mut hits = 0;
    for mask in 1usize..1 << n {
        let b = mask.trailing_zeros() as usize;
        sums[mask] = sums[mask & (mask - 1)] + numbers[b];
        hits += u64::from(sums[mask] == target);
    }
    hits
}

fn password_oracle(len: usize, letters: &[u8]) -> String {
    let mut words = Vec::new();
    for mask in 0u32..1 << letters.len() {
        if mask.count_ones() as usize != len {
            continue;
        }
        let mut word: Vec<u8> = (0..letters.len()).filter(|&i| mask >> i & 1 == 1).map(|i| letters[i]).collect();
        word.sort_unstable();
        let vowels = word.iter().filter(|b| b"aeiou".contains(b)).count();
        if vowels >= 1 && len - vowels >= 2 {
            words.push(String::from_utf8(word).unwrap());
        }
    }
    words.sort();
    words.iter().map(|w| format!("{w}\n")).collect()
}

/// Calls `visit` with every ordering of `items` (each index once).
fn permutations(n: usize, prefix: &mut Vec<usize>, visit: &mut dyn FnMut(&[usize])) {
    if prefix.len() == n {
        visit(prefix);
        return;
    }
    for i in 0..n {
        if !prefix.contains(&i) {
            prefix.push(i);
            permutations(n, prefix, visit);
            prefix.pop();
        }
    }
}

fn inequality_oracle(signs: &[bool]) -> String {
    let mut found: Vec<String> = Vec::new();
    let mut digits = Vec::new();
    // Every sequence of distinct digits, each digit checked against the
    // sign before it as it is placed (so that nine signs do not mean 3.6
    // million sequences checked only at their ends); the whole sequence is
    // checked again when complete.
    fn pick(signs: &[bool], digits: &mut Vec<u8>, found: &mut Vec<String>) {
        if digits.len() == signs.len() + 1 {
            if signs.iter().enumerate().all(|(i, &less)| (digits[i] < digits[i + 1]) == less) {
                found.push(digits.iter().map(|d| char::from(b'0' + d)).collect());
            }
            return;
        }
        for d in 0..10 {
            let fits = match digits.last() {
                Some(&last) => (last < d) == signs[digits.len() - 1],
                None => true,
            };
            if fits && !digits.contains(&d) {
                digits.push(d);
                pick(signs, digits, found);
                digits.pop();
            }
        }
    }
    pick(signs, &mut digits, &mut found);
    found.sort();
    format!("{}\n{}\n", found.last().unwrap(), found[0])
}

fn difference_oracle(numbers: &[i64]) -> i64 {
    let mut best = 0;
    permutations(numbers.len(), &mut Vec::new(), &mut |order| {
        let sum = order.windows(2).map(|w| (numbers[w[0]] - numbers[w[1]]).abs()).sum();
        best = best.max(sum);
    });
    best
}

fn tsp_oracle(w: &[Vec<u32>]) -> u64 {
    let n = w.len();
    let mut best = u64::MAX;
    permutations(n - 1, &mut Vec::new(), &mut |order| {
        let trip: Vec<usize> =
            std::iter::once(0).chain(order.iter().map(|c| c + 1)).chain(std::iter::once(0)).collect();
        if trip.windows(2).all(|p| w[p[0]][p[1]] != 0) {
            best = best.min(trip.windows(2).map(|p| w[p[0]][p[1]] as u64).sum());
        }
    });
    best
}

fn alphabet_oracle(rows: &[Vec<u8>]) -> u32 {
    fn walk(rows: &[Vec<u8>], r: usize, c: usize, seen: &mut [bool; 26]) -> u32 {
        let mut best = 0;
        let steps = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (nr, nc) in steps {
            if let Some(&letter) = rows.get(nr).and_then(|row| row.get(nc)) {
                let l = (letter - b'A') as usize;
                if !seen[l] {
                    seen[l] = true;
                    best = best.max(walk(rows, nr, nc, seen));
                    seen[l] = false;
                }
            }
        }
        best + 1
    }
    let mut seen = [false; 26];
    seen[(rows[0][0] - b'A') as usize] = true;
    walk(rows, 0, 0, &mut seen)
}

#[test]
fn every_case_keeps_the_limits_and_its_answer_matches_a_brute_force() {
    // Each seed's plan has every kind of case (samples, edges, 12 random,
    // the hard ones), so one seed checks every kind against the brute
    // forces; BACKTRACK_LONG_TESTS=1 tries four seeds.
    let seeds = crate::effort::rounds(1, 4) as u64;
    for id in IDS {
        for seed in 0..seeds {
            for case in cases(id, seed) {
                let what = format!("{id} {} {:?}", case.name, case.text);
                within_limits(id, &case.input, &what);
                let want = match &case.input {
                    Input::Operators { numbers, counts } => {
                        let (max, min, widest) = operators_oracle(numbers, *counts);
                        assert!(widest <= 1_000_000_000, "the promise of ±10^9: {what}");
                        format!("{max}\n{min}\n")
                    }
                    Input::Matrix(s) if id == 10971 => format!("{}\n", tsp_oracle(s)),
                    Input::Matrix(s) => format!("{}\n", teams_oracle(s, id == 14889)),
                    Input::SubsetSum { target, numbers } => format!("{}\n", subset_sum_oracle(*target, numbers)),
                    Input::Letters { len, letters } => password_oracle(*len, letters),
                    Input::Signs(signs) => inequality_oracle(signs),
                    Input::Numbers(numbers) => format!("{}\n", difference_oracle(numbers)),
                    Input::Board(rows) => format!("{}\n", alphabet_oracle(rows)),
                    other => panic!("{other:?}"),
                };
                assert_eq!(case.expected, want, "{what}");
            }
        }
    }
}

#[test]
fn shrunk_cases_keep_the_limits() {
    for id in IDS {
        let problem = Problem::new(id).unwrap();
        for case in cases(id, 3).into_iter().filter(|c| !c.name.starts_with("hard-")) {
            for smaller in problem.shrink_candidates(&case) {
                within_limits(id, &smaller.input, &format!("{id} {} from {}", smaller.text, case.name));
            }
        }
    }
}

#[test]
fn the_ten_are_judged_and_differ_where_a_learner_slips() {
    // Cases that tell the usual slips apart: each must be among the cases made.
    let telling: &[(u32, &str)] = &[
        (14888, "3\n1 5 3\n0 1 0 1\n"),                         // -4 ÷ 3 truncates to -1
        (1182, "3 0\n1 2 4\n"),                                 // the empty subsequence does not count
        (1759, "4 9\nz y x w v u o i e\n"),                     // the letters come unsorted
        (2529, "2\n< <\n"),                                     // 012: the leading zero stays
        (10971, "4\n0 10 0 0\n0 0 10 0\n0 0 0 10\n10 0 0 0\n"), // 0 is no road
        (1987, "1 1\nA\n"),
    ];
    for &(id, text) in telling {
        let all = cases(id, 1);
        assert!(
            all.iter().any(|c| c.text == text),
            "{id}: no case {text:?} among {:?}",
            all.iter().map(|c| &c.name).collect::<Vec<_>>()
        );
    }
}
