//! Intersections: a digit confined to where a box meets a line.
//!
//! Pointing: in a box, a digit's places all lie on one row or column, so it
//! leaves the rest of that line (2.6). Claiming: in a row or column, a
//! digit's places all lie in one box, so it leaves the rest of that box
//! (2.8). The direct forms (pointing 1.7, claiming 1.9) are counted only
//! when the removal leaves a hidden single in a unit of the first kind
//! crossing the same line or box, and place that single; as in Sudoku
//! Explainer, only the placement is applied.

use super::{
    bit, cell_name, cells_name, cells_of, eliminations_name, several, single, unit_name, Board, Keep, Step, Tables,
    Technique, Words, UNIT_CELLS,
};
use crate::sudoku::score::Score;

/// The (unit, crossing unit) kinds in Sudoku Explainer's order: box/column,
/// box/row, column/box, row/box.
const KINDS: [(std::ops::Range<usize>, std::ops::Range<usize>); 4] =
    [(0..9, 18..27), (0..9, 9..18), (18..27, 0..9), (9..18, 0..9)];

/// `CROSSING[u]`: bit `v` for each unit `v` of another kind sharing cells with `u`.
const CROSSING: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut u = 0;
    while u < 27 {
        let mut v = 0;
        while v < 27 {
            if u / 9 != v / 9 && crosses(u, v) {
                table[u] |= 1 << v;
            }
            v += 1;
        }
        u += 1;
    }
    table
};

/// Whether units `a` and `b` (of different kinds) share cells.
const fn crosses(a: usize, b: usize) -> bool {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    match (a / 9, b / 9) {
        (0, 1) => (b - 9) / 3 == a / 3,
        (0, 2) => (b - 18) / 3 == a % 3,
        (1, 2) => true,
        _ => false,
    }
}

/// Calls `found` with each locked candidate: digit `d` of `u1` confined to `u2`.
fn each_lock(t: &Tables, mut found: impl FnMut(usize, usize, u8) -> Option<Step>) -> Option<Step> {
    for (kind1, kind2) in KINDS {
        for d in 1..=9u8 {
            for u1 in kind1.clone() {
                let p = t.positions[u1][d as usize - 1];
                if !several(p as u128) {
                    continue;
                }
                if let Some(u2) = confined(u1, kind2.start, p) {
                    if let Some(step) = found(u1, u2, d) {
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

/// The unit of the kind starting at `kind2` (crossing `u1`) that holds
/// every position `p` of a digit in `u1`, if one does.
fn confined(u1: usize, kind2: usize, p: u16) -> Option<usize> {
    // Positions in a box run row by row; in a line, box by box.
    const THREE: [u16; 3] = [0b111, 0b111 << 3, 0b111 << 6];
    const BOX_COLUMNS: [u16; 3] = [0b001_001_001, 0b010_010_010, 0b100_100_100];
    let masks = if u1 < 9 && kind2 == 18 { &BOX_COLUMNS } else { &THREE };
    let k = masks.iter().position(|&m| p & !m == 0)?;
    Some(match (u1 / 9, kind2) {
        (0, 18) => 18 + u1 % 3 * 3 + k,
        (0, _) => 9 + u1 / 3 * 3 + k,
        (1, _) => (u1 - 9) / 3 * 3 + k,
        _ => k * 3 + (u1 - 18) / 3,
    })
}

fn removals(t: &Tables, u1: usize, u2: usize, d: u8) -> Vec<(usize, u8)> {
    cells_of(t.unit_cells(u2, d) & !UNIT_CELLS[u1]).map(|c| (c, d)).collect()
}

fn reason(board: &Board, u1: usize, u2: usize, d: u8) -> String {
    format!(
        "in {}, {d} can only be in {} ({}), so not elsewhere in {}",
        unit_name(u1),
        unit_name(u2),
        cells_name(&board.cells_with(u1, d)),
        unit_name(u2)
    )
}

/// Pointing or claiming (2.6 / 2.8).
pub fn locking(board: &Board) -> Option<Step> {
    locking_in(board, &Tables::new(board), Words::Write)
}

/// [`locking`] with the board's [`Tables`].
pub fn locking_in(board: &Board, t: &Tables, words: Words) -> Option<Step> {
    locking_where(board, t, words, &mut |_| true)
}

/// [`locking_in`], skipping the steps `keep` refuses.
pub fn locking_where(board: &Board, t: &Tables, words: Words, keep: Keep) -> Option<Step> {
    each_lock(t, |u1, u2, d| {
        if t.unit_cells(u2, d) & !UNIT_CELLS[u1] == 0 {
            return None;
        }
        let eliminations = removals(t, u1, u2, d);
        let (technique, rating) = if u1 < 9 { (Technique::Pointing, 26) } else { (Technique::Claiming, 28) };
        let text = words.make(|| {
            format!("{}: {}: {}", technique.name(), reason(board, u1, u2, d), eliminations_name(&eliminations))
        });
        Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
            .filter(|step| keep(step))
    })
}

/// Direct pointing or claiming (1.7 / 1.9): a lock whose removals leave a hidden single.
pub fn direct(board: &Board) -> Option<Step> {
    direct_in(board, &Tables::new(board), Words::Write)
}

/// [`direct`] with the board's [`Tables`].
pub fn direct_in(board: &Board, t: &Tables, words: Words) -> Option<Step> {
    direct_where(board, t, words, &mut |_| true)
}

/// [`direct_in`], skipping the steps `keep` refuses.
pub fn direct_where(board: &Board, t: &Tables, words: Words, keep: Keep) -> Option<Step> {
    each_lock(t, |u1, u2, d| {
        // The other units of `u1`'s kind crossing `u2`, increasing.
        let mut others = CROSSING[u2] & 0x1FF << (u1 / 9 * 9) & !(1 << u1);
        while others != 0 {
            let u3 = others.trailing_zeros() as usize;
            others &= others - 1;
            let cells = t.unit_cells(u3, d);
            if !several(cells) {
                continue;
            }
            let left = cells & !UNIT_CELLS[u2];
            if single(left) {
                let cell = left.trailing_zeros() as usize;
                let (technique, rating) =
                    if u1 < 9 { (Technique::DirectPointing, 17) } else { (Technique::DirectClaiming, 19) };
                debug_assert!(board.cands[cell] & bit(d) != 0);
                let text = words.make(|| {
                    format!(
                        "{}: {}, which leaves one place for {d} in {}: {}={d}",
                        technique.name(),
                        reason(board, u1, u2, d),
                        unit_name(u3),
                        cell_name(cell)
                    )
                });
                // Like Sudoku Explainer, only the placement is applied: the
                // candidates the lock removes stay for later steps to find.
                let step = Step {
                    technique,
                    rating: Score::from_tenths(rating),
                    placements: vec![(cell, d)],
                    eliminations: vec![],
                    text,
                };
                if keep(&step) {
                    return Some(step);
                }
            }
        }
        None
    })
}
