//! The techniques that bring the rater to Sudoku Explainer's 5.5-8.x
//! steps, each on crafted grids: every cell open with all nine candidates
//! except the few that make (or spoil) the pattern.

use crate::common::rater::{at, expect, open_board, sorted};
use backtrack::sudoku::techniques::{als_wings, bit, cycles, grouped_links, Technique, Words, ALL};

fn mask(ds: &[u8]) -> u16 {
    ds.iter().fold(0, |m, &d| m | bit(d))
}

#[test]
fn wxyz_wing_singly_and_doubly_linked() {
    // Set r1c1 {1,2}, r1c2 {1,3}, r1c3 {2,3,4}: three cells, four digits.
    let mut b = open_board();
    b.cands[at(1, 1)] = mask(&[1, 2]);
    b.cands[at(1, 2)] = mask(&[1, 3]);
    b.cands[at(1, 3)] = mask(&[2, 3, 4]);
    assert!(als_wings::wing(&b, 3, Words::Write).is_none(), "no pincer yet");
    // Pincer r5c3 {2,4}: its 4 sees the set's only 4, so 2 is in r5c3 or in
    // r1c1/r1c3, and leaves the cells seeing all three.
    b.cands[at(5, 3)] = mask(&[2, 4]);
    let s = expect(als_wings::wing(&b, 3, Words::Write), Technique::WXYZWing, 56);
    assert_eq!(sorted(s.eliminations), vec![(at(2, 3), 2), (at(3, 3), 2)], "{}", s.text);
    // Without r1c3's 4 the set is no longer almost locked with the pincer's 4.
    let mut spoiled = b.clone();
    spoiled.cands[at(1, 3)] = mask(&[2, 3]);
    assert!(als_wings::wing(&spoiled, 3, Words::Write).is_none());
    // Pincer r3c1 {1,4} instead sees every 1 and every 4 of the set: doubly
    // linked, the set is locked on 2 and 3.
    b.cands[at(5, 3)] = ALL;
    b.cands[at(3, 1)] = mask(&[1, 4]);
    let s = expect(als_wings::wing(&b, 3, Words::Write), Technique::WXYZWing, 56);
    let box1_rest = [at(2, 1), at(2, 2), at(2, 3), at(3, 2), at(3, 3)];
    for c in box1_rest {
        for d in 1..=4 {
            assert!(s.eliminations.contains(&(c, d)), "{c} {d}: {}", s.text);
        }
    }
    for c in 4..=9 {
        assert!(s.eliminations.contains(&(at(1, c), 2)) && s.eliminations.contains(&(at(1, c), 3)));
        assert!(!s.eliminations.contains(&(at(1, c), 1)) && !s.eliminations.contains(&(at(1, c), 4)));
    }
    assert_eq!(s.eliminations.len(), 5 * 4 + 6 * 2, "{}", s.text);
}

#[test]
fn wxyz_wing_rating_follows_the_largest_cell() {
    // Cells of two candidates only: 5.5.
    let mut b = open_board();
    b.cands[at(1, 1)] = mask(&[1, 2]);
    b.cands[at(1, 2)] = mask(&[2, 3]);
    b.cands[at(1, 3)] = mask(&[3, 4]);
    b.cands[at(5, 3)] = mask(&[4, 1]);
    let s = expect(als_wings::wing(&b, 3, Words::Write), Technique::WXYZWing, 55);
    // 4 is restricted (r1c3 only); 1 leaves the cells seeing r5c3 and r1c1.
    let want = vec![(at(2, 3), 1), (at(3, 3), 1), (at(4, 1), 1), (at(5, 1), 1), (at(6, 1), 1)];
    assert_eq!(sorted(s.eliminations), want, "{}", s.text);
    // A four-candidate cell is as easy as two: 5.5.
    b.cands[at(1, 3)] = mask(&[1, 2, 3, 4]);
    expect(als_wings::wing(&b, 3, Words::Write), Technique::WXYZWing, 55);
}

#[test]
fn vwxyz_wing_on_a_crafted_grid() {
    // Column 9: r1 {1,2}, r2 {2,3}, r3 {3,4}, r4 {1,4,5}: four cells, five digits.
    let mut b = open_board();
    b.cands[at(1, 9)] = mask(&[1, 2]);
    b.cands[at(2, 9)] = mask(&[2, 3]);
    b.cands[at(3, 9)] = mask(&[3, 4]);
    b.cands[at(4, 9)] = mask(&[1, 4, 5]);
    // Pincer r5c8 {1,5}: its 5 sees the set's only 5 (box 6), so 1 is in
    // r5c8, r1c9 or r4c9.
    b.cands[at(5, 8)] = mask(&[1, 5]);
    let s = expect(als_wings::wing(&b, 4, Words::Write), Technique::VWXYZWing, 64);
    assert_eq!(sorted(s.eliminations), vec![(at(5, 9), 1), (at(6, 9), 1)], "{}", s.text);
    assert!(s.text.contains("r5c8"), "{}", s.text);
}

#[test]
fn x_cycle_on_a_crafted_grid() {
    // 5 has two places in columns 1 and 5 (rows 1 and 5): the loop
    // r1c1=5 -> r1c5<>5 -> r5c5=5 -> r5c1<>5 -> r1c1=5 clears rows 1 and 5.
    let mut b = open_board();
    for r in [2, 3, 4, 6, 7, 8, 9] {
        b.cands[at(r, 1)] &= !bit(5);
        b.cands[at(r, 5)] &= !bit(5);
    }
    let ranked = cycles::best_cycle(&b).expect("an X-cycle");
    assert_eq!((ranked.complexity, ranked.sort_key), (4, 2));
    let s = expect(Some(ranked.step), Technique::XCycle, 65);
    let want: Vec<(usize, u8)> = [1, 5].iter().flat_map(|&r| [2, 3, 4, 6, 7, 8, 9].map(|c| (at(r, c), 5))).collect();
    assert_eq!(sorted(s.eliminations), sorted(want), "{}", s.text);
}

#[test]
fn y_cycle_on_a_crafted_grid() {
    // Four two-candidate cells in a rectangle, each digit shared by two
    // neighbours: r1c1 {1,2}, r1c5 {2,3}, r5c5 {3,4}, r5c1 {1,4}.
    let mut b = open_board();
    b.cands[at(1, 1)] = mask(&[1, 2]);
    b.cands[at(1, 5)] = mask(&[2, 3]);
    b.cands[at(5, 5)] = mask(&[3, 4]);
    b.cands[at(5, 1)] = mask(&[1, 4]);
    let ranked = cycles::best_cycle(&b).expect("a Y-cycle");
    // Eight nodes: the length bonus adds 0.1.
    assert_eq!((ranked.complexity, ranked.sort_key), (8, 3));
    let s = expect(Some(ranked.step), Technique::YCycle, 66);
    // Each digit leaves the rest of the line joining its two cells.
    let rest = [2, 3, 4, 6, 7, 8, 9];
    let mut want: Vec<(usize, u8)> = Vec::new();
    want.extend(rest.map(|r| (at(r, 1), 1)));
    want.extend(rest.map(|c| (at(1, c), 2)));
    want.extend(rest.map(|r| (at(r, 5), 3)));
    want.extend(rest.map(|c| (at(5, c), 4)));
    assert_eq!(sorted(s.eliminations), sorted(want), "{}", s.text);
    // A third candidate in one corner breaks the Y-cycle.
    b.cands[at(5, 1)] |= bit(9);
    assert!(cycles::best_cycle(&b).is_none_or(|r| r.step.technique != Technique::YCycle));
}

#[test]
fn grouped_kite_on_a_crafted_grid() {
    // 5 in column 1 only at r2c1 and r9c1; in row 1 only at r1c2, r1c3 (box
    // 1, a group) and r1c7. r2c1 and the group share box 1, so 5 is in
    // r9c1 or r1c7, and r9c7 sees both.
    let mut b = open_board();
    for r in [1, 3, 4, 5, 6, 7, 8] {
        b.cands[at(r, 1)] &= !bit(5);
    }
    for c in [1, 4, 5, 6, 8, 9] {
        b.cands[at(1, c)] &= !bit(5);
    }
    let s = expect(grouped_links::grouped_links(&b), Technique::GroupedTwoStringKite, 43);
    assert_eq!(s.eliminations, vec![(at(9, 7), 5)], "{}", s.text);
    // Without the group (5 only at r1c2 and r1c7) it is a plain kite, not grouped.
    b.cands[at(1, 3)] &= !bit(5);
    assert!(grouped_links::grouped_links(&b).is_none());
}

#[test]
fn grouped_skyscraper_on_a_crafted_grid() {
    // 4 in column 1 only at r1c1 and r7c1; in column 3 at r1c3, r3c3 (box 1)
    // and r8c3. Read two ways: r1c1 and the group share box 1, so 4 is in
    // r7c1 or r8c3 (box 7 loses it); or r7c1 and r8c3 share box 7, so 4 is
    // in r1c1 or the group (box 1 loses it). As many removals: the first.
    let mut b = open_board();
    for r in [2, 3, 4, 5, 6, 8, 9] {
        b.cands[at(r, 1)] &= !bit(4);
    }
    for r in [2, 4, 5, 6, 7, 9] {
        b.cands[at(r, 3)] &= !bit(4);
    }
    let s = expect(grouped_links::grouped_links(&b), Technique::GroupedSkyscraper, 43);
    assert_eq!(sorted(s.eliminations), vec![(at(1, 2), 4), (at(2, 2), 4), (at(3, 2), 4)], "{}", s.text);
    // With r2c2 and r3c2 not 4, the other reading removes more.
    b.cands[at(2, 2)] &= !bit(4);
    b.cands[at(3, 2)] &= !bit(4);
    let s = expect(grouped_links::grouped_links(&b), Technique::GroupedSkyscraper, 43);
    assert_eq!(sorted(s.eliminations), vec![(at(7, 2), 4), (at(8, 2), 4), (at(9, 2), 4)], "{}", s.text);
}
