//! The techniques between Sudoku Explainer's 5.5 and 7.x that complete its
//! ladder (grouped three-link chains, BUG types 2 to 4): on a crafted grid,
//! on solving paths of rated puzzles, and agreement with its ratings on a
//! sample of a public puzzle bank.

use std::collections::BTreeMap;

use crate::common::rater::{at, cells_of, check_steps, data, open_board, sorted};
use backtrack::sudoku::rate::{explain_cells, rate_cells, Rater};
use backtrack::sudoku::techniques::{bit, grouped_chains, unique, Tables, Technique, Words};

#[test]
fn grouped_three_links_on_a_crafted_grid() {
    // Digit 1 only in these cells: row 1 holds it in box 1 (r1c1, r1c2) or
    // at r1c7; r1c7 sees r3c8 (box 3); column 8 links r3c8 and r7c8; r7c8
    // sees r7c3 (row 7); box 7 links r7c3 and r9c2. So 1 is in r1c1/r1c2
    // or in r9c2, and leaves r2c2 and r3c2.
    let mut b = open_board();
    for c in 0..81 {
        b.cands[c] &= !bit(1);
    }
    let ones = [(1, 1), (1, 2), (1, 7), (3, 8), (7, 8), (7, 3), (9, 2), (2, 2), (3, 2)];
    for (r, c) in ones {
        b.cands[at(r, c)] |= bit(1);
    }
    let s = grouped_chains::grouped_three_links(&mut Rater::new(), &Tables::new(&b), Words::Write)
        .expect("a grouped chain");
    assert_eq!((s.technique, s.rating.tenths()), (Technique::GroupedThreeStrongLinks, 57), "{}", s.text);
    assert_eq!(sorted(s.eliminations), vec![(at(2, 2), 1), (at(3, 2), 1)], "{}", s.text);
    // Without the middle link (r7c8 gone, column 8 has one place) no chain is left.
    let mut spoiled = b.clone();
    spoiled.cands[at(7, 8)] &= !bit(1);
    assert!(grouped_chains::grouped_three_links(&mut Rater::new(), &Tables::new(&spoiled), Words::Write).is_none());
}

/// Puzzles of the bank whose path needs a technique, with Sudoku Explainer's rating.
const ON_PATHS: [(&str, u16, Technique); 4] = [
    ("800000000000010900000753048508030097006070800170060204320985000004020000000000001", 57, Technique::BugType2),
    ("070403010000807000500000004000318000005000900060000030050000070004080200703205106", 72, Technique::BugType4),
    (
        "200700854600580000100090000000000072028000160970000000000050001000038006863007005",
        57,
        Technique::GroupedThreeStrongLinks,
    ),
    (
        "060204800700005000402000100040001000021080490000400020006000905000800007008306010",
        57,
        Technique::GroupedThreeStrongLinks,
    ),
];

#[test]
fn bug_types_and_grouped_chains_on_rated_paths() {
    for (line, er, technique) in ON_PATHS {
        let cells = cells_of(line);
        let mut used = BTreeMap::new();
        assert!(check_steps(&cells, &mut used), "{line}: not finished");
        assert!(used.contains_key(&technique), "{line}: no {technique} in {used:?}");
        let e = explain_cells(&cells).unwrap();
        assert_eq!(e.rating.er.tenths(), er, "{line}");
        let step = e.steps.iter().find(|s| s.technique == technique).unwrap();
        assert_eq!(step.rating.tenths(), 57, "{}", step.text);
        assert!(step.placements.is_empty() && !step.eliminations.is_empty(), "{}", step.text);
    }
}

#[test]
fn ratings_agree_with_sudoku_explainer_on_the_bank_sample() {
    // (band low, band high, share rated exactly as SE at least, in percent)
    let bands: [(u16, u16, usize); 4] = [(50, 59, 98), (60, 69, 97), (70, 74, 98), (75, 79, 100)];
    let mut per_band = [(0usize, 0usize); 4];
    let (mut n, mut exact, mut near) = (0usize, 0usize, 0usize);
    let mut used = BTreeMap::new();
    for line in data("se_rated_bank_300.tsv").lines() {
        let (puzzle, er) = line.split_once('\t').unwrap();
        let er = (er.parse::<f64>().unwrap() * 10.0).round() as u16;
        let cells = cells_of(puzzle);
        let ours = rate_cells(&cells).unwrap();
        // Every step of every path agrees with the solution.
        check_steps(&cells, &mut used);
        let same = !ours.beyond && ours.er.tenths() == er;
        n += 1;
        exact += same as usize;
        near += (!ours.beyond && ours.er.tenths().abs_diff(er) <= 2) as usize;
        let i = bands.iter().position(|&(lo, hi, _)| (lo..=hi).contains(&er)).expect("a band");
        per_band[i].0 += 1;
        per_band[i].1 += same as usize;
    }
    assert_eq!(n, 300);
    for (&(lo, hi, want), &(n, exact)) in bands.iter().zip(&per_band) {
        assert!(exact * 100 >= n * want, "SE {lo}..{hi}: {exact} of {n} exact, want {want}%");
    }
    assert!(exact * 1000 >= n * 975, "{exact} of {n} exact");
    assert!(near * 1000 >= n * 985, "{near} of {n} within 0.2");
    // The new techniques are on these paths.
    for t in [Technique::GroupedThreeStrongLinks, Technique::BugType2] {
        assert!(used.get(&t).is_some_and(|&k| k > 0), "{t} never used: {used:?}");
    }
}

#[test]
fn unique_loop_of_six_cells_on_a_crafted_grid() {
    // r1c1-r1c4-r2c4-r2c7-r3c7-r3c1: rows 1 to 3, columns 1, 4 and 7 and
    // boxes 1 to 3 each hold two of its cells, one at an odd place and one
    // at an even place. Five cells are {6, 8}; r3c1 has more.
    let mut b = open_board();
    for (r, c) in [(1, 1), (1, 4), (2, 4), (2, 7), (3, 7)] {
        b.cands[at(r, c)] = bit(6) | bit(8);
    }
    // No rectangle on three of those cells.
    for (r, c) in [(2, 1), (1, 7), (3, 4)] {
        b.cands[at(r, c)] &= !bit(6);
    }
    let s = unique::unique_loop(&b).expect("a unique loop");
    assert_eq!((s.technique, s.rating.tenths()), (Technique::UniqueLoop, 46), "{}", s.text);
    assert_eq!(sorted(s.eliminations), vec![(at(3, 1), 6), (at(3, 1), 8)], "{}", s.text);
    // Type 4 instead: r3c1 and r3c7 both have more; 6 has no other place in row 3.
    b.cands[at(3, 7)] = b.cands[at(3, 1)];
    for c in [2, 3, 4, 5, 6, 8, 9] {
        b.cands[at(3, c)] &= !bit(6);
    }
    let s = unique::unique_loop(&b).expect("a unique loop");
    assert_eq!((s.technique, s.rating.tenths()), (Technique::UniqueLoop, 46), "{}", s.text);
    assert_eq!(sorted(s.eliminations), vec![(at(3, 1), 8), (at(3, 7), 8)], "{}", s.text);
    // Without 6 in r3c1 the path does not close: no loop.
    let mut spoiled = open_board();
    for (r, c) in [(1, 1), (1, 4), (2, 4), (2, 7), (3, 7)] {
        spoiled.cands[at(r, c)] = bit(6) | bit(8);
    }
    for (r, c) in [(2, 1), (1, 7), (3, 4), (3, 1)] {
        spoiled.cands[at(r, c)] &= !bit(6);
    }
    assert!(unique::unique_loop(&spoiled).is_none(), "a loop without r3c1");
}

/// Puzzles of the bank whose path has a unique loop, or a rectangle of
/// type 3: Sudoku Explainer's rating, the technique and its step's rating.
const LOOPS_ON_PATHS: [(&str, u16, Technique, u16); 6] = [
    (
        "030106020670020058500000006400509001000604000005000400002010800900307002000000000",
        50,
        Technique::UniqueLoop,
        50,
    ),
    (
        "804000507090000060076501240003000400900020001068000950080040090009206800000010000",
        57,
        Technique::UniqueLoop,
        46,
    ),
    (
        "050102060000070000601050702002060800060809050900507004040000070005406300000080000",
        56,
        Technique::UniqueLoop,
        46,
    ),
    (
        "609080504000070000000435000003000100502090807807000402090000010400000003000201000",
        56,
        Technique::UniqueLoop,
        47,
    ),
    (
        "900405001084070320003000400097000640060090030008000100000183000036000510000000000",
        71,
        Technique::UniqueLoop,
        47,
    ),
    (
        "082400003907005000010027000000009062090000050260800000000170020000900704800006130",
        56,
        Technique::UniqueRectangle,
        46,
    ),
];

#[test]
fn unique_loops_on_rated_paths() {
    for (line, er, technique, rating) in LOOPS_ON_PATHS {
        let cells = cells_of(line);
        let mut used = BTreeMap::new();
        assert!(check_steps(&cells, &mut used), "{line}: not finished");
        let e = explain_cells(&cells).unwrap();
        assert_eq!(e.rating.er.tenths(), er, "{line}");
        let step = e.steps.iter().find(|s| s.technique == technique && s.rating.tenths() == rating);
        let step = step.unwrap_or_else(|| panic!("{line}: no {technique} rated {rating}"));
        assert!(step.placements.is_empty() && !step.eliminations.is_empty(), "{}", step.text);
    }
}
