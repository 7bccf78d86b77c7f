//! Unique rectangles (4.5 and up), which assume the puzzle has one solution.
//!
//! Four cells on two rows, two columns and two boxes that could all hold
//! only x and y would let x and y swap: a second solution. So:
//! - type 1: three corners are exactly {x, y}; the fourth is not x or y;
//! - type 2: two corners are {x, y} and the other two {x, y, z}; one of
//!   those two is z, so z leaves every cell seeing both (4.5);
//! - type 4: two corners are {x, y}; in a unit holding the other two, x
//!   has no other place, so those two cannot be y (4.5).

use super::{
    bit, cells_name, count9, digits_name, eliminations_name, units_of, words, Board, Keep, Step, Technique, UNITS,
};

fn step(corners: &[usize; 4], pair: u16, kind: u8, eliminations: Vec<(usize, u8)>, why: String) -> Step {
    let text = words(|| {
        format!(
            "Unique rectangle type {kind}: {} would let {} swap and give a second solution; {why}: {}",
            cells_name(corners),
            digits_name(pair),
            eliminations_name(&eliminations)
        )
    });
    Step { technique: Technique::UniqueRectangle, rating: 45, placements: vec![], eliminations, text }
}

fn shared_units(a: usize, b: usize) -> Vec<usize> {
    let ub = units_of(b);
    units_of(a).into_iter().filter(|u| ub.contains(u)).collect()
}

/// A unique rectangle of type 1, 2 or 4.
pub fn rectangle(board: &Board) -> Option<Step> {
    rectangle_where(board, &mut |_| true)
}

/// [`rectangle`], skipping the steps `keep` refuses.
pub fn rectangle_where(board: &Board, keep: Keep) -> Option<Step> {
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                        continue; // four boxes, or one
                    }
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    if let Some(found) = check(board, &corners, keep) {
                        return Some(found);
                    }
                }
            }
        }
    }
    None
}

fn check(board: &Board, corners: &[usize; 4], keep: Keep) -> Option<Step> {
    let common = corners.iter().fold(0x1FFu16, |m, &c| m & board.cands[c]);
    if count9(common) < 2 || corners.iter().any(|&c| board.values[c] != 0) {
        return None;
    }
    let pairs: Vec<u16> = super::digits(common)
        .flat_map(|x| super::digits(common).filter(move |&y| y > x).map(move |y| bit(x) | bit(y)))
        .collect();
    for pair in pairs {
        let floor: Vec<usize> = corners.iter().copied().filter(|&c| board.cands[c] == pair).collect();
        let roof: Vec<usize> = corners.iter().copied().filter(|&c| board.cands[c] != pair).collect();
        if floor.len() == 3 {
            let cell = roof[0];
            let eliminations: Vec<(usize, u8)> = super::digits(pair).map(|d| (cell, d)).collect();
            let found = step(corners, pair, 1, eliminations, format!("so {} is neither", super::cell_name(cell)));
            if keep(&found) {
                return Some(found);
            }
            continue;
        }
        if floor.len() != 2 {
            continue;
        }
        let (e0, e1) = (board.cands[roof[0]] & !pair, board.cands[roof[1]] & !pair);
        if e0 == e1 && count9(e0) == 1 {
            let z = e0.trailing_zeros() as u8 + 1;
            let eliminations = board.seen_by_all(&roof, z);
            if !eliminations.is_empty() {
                let found = step(corners, pair, 2, eliminations, format!("one of {} is {z}", cells_name(&roof)));
                if keep(&found) {
                    return Some(found);
                }
            }
        }
        for unit in shared_units(roof[0], roof[1]) {
            let ds: Vec<u8> = super::digits(pair).collect();
            for (x, y) in [(ds[0], ds[1]), (ds[1], ds[0])] {
                let only_roof = UNITS[unit].iter().all(|&c| !board.has(c, x) || roof.contains(&c));
                if only_roof {
                    let eliminations: Vec<(usize, u8)> = roof.iter().map(|&c| (c, y)).collect();
                    let why = format!(
                        "{x} must be in {} within {}, so they are not {y}",
                        cells_name(&roof),
                        super::unit_name(unit)
                    );
                    let found = step(corners, pair, 4, eliminations, why);
                    if keep(&found) {
                        return Some(found);
                    }
                }
            }
        }
    }
    None
}
