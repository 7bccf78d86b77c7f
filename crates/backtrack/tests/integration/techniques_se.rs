//! The techniques that bring the rater to Sudoku Explainer's 5.5-8.x
//! steps, each on crafted grids: every cell open with all nine candidates
//! except the few that make (or spoil) the pattern.

use crate::maker::{at, expect, open_board, sorted};
use backtrack::sudoku::techniques::{als_wings, bit, Technique, ALL};

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
    assert!(als_wings::wing(&b, 3).is_none(), "no pincer yet");
    // Pincer r5c3 {2,4}: its 4 sees the set's only 4, so 2 is in r5c3 or in
    // r1c1/r1c3, and leaves the cells seeing all three.
    b.cands[at(5, 3)] = mask(&[2, 4]);
    let s = expect(als_wings::wing(&b, 3), Technique::WXYZWing, 56);
    assert_eq!(sorted(s.eliminations), vec![(at(2, 3), 2), (at(3, 3), 2)], "{}", s.text);
    // Without r1c3's 4 the set is no longer almost locked with the pincer's 4.
    let mut spoiled = b.clone();
    spoiled.cands[at(1, 3)] = mask(&[2, 3]);
    assert!(als_wings::wing(&spoiled, 3).is_none());
    // Pincer r3c1 {1,4} instead sees every 1 and every 4 of the set: doubly
    // linked, the set is locked on 2 and 3.
    b.cands[at(5, 3)] = ALL;
    b.cands[at(3, 1)] = mask(&[1, 4]);
    let s = expect(als_wings::wing(&b, 3), Technique::WXYZWing, 56);
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
    let s = expect(als_wings::wing(&b, 3), Technique::WXYZWing, 55);
    // 4 is restricted (r1c3 only); 1 leaves the cells seeing r5c3 and r1c1.
    let want = vec![(at(2, 3), 1), (at(3, 3), 1), (at(4, 1), 1), (at(5, 1), 1), (at(6, 1), 1)];
    assert_eq!(sorted(s.eliminations), want, "{}", s.text);
    // A four-candidate cell is as easy as two: 5.5.
    b.cands[at(1, 3)] = mask(&[1, 2, 3, 4]);
    expect(als_wings::wing(&b, 3), Technique::WXYZWing, 55);
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
    let s = expect(als_wings::wing(&b, 4), Technique::VWXYZWing, 64);
    assert_eq!(sorted(s.eliminations), vec![(at(5, 9), 1), (at(6, 9), 1)], "{}", s.text);
    assert!(s.text.contains("r5c8"), "{}", s.text);
}
