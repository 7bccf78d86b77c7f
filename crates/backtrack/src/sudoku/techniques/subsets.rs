//! Naked and hidden subsets in one unit.
//!
//! Naked: `k` cells of a unit whose candidates together are `k` digits;
//! those digits leave the unit's other cells (pair 3.0, triplet 3.6, quad
//! 5.0). Hidden: `k` digits whose places in a unit are `k` cells; those
//! cells lose their other candidates (pair 3.4, triplet 4.0, quad 5.4).
//! The direct hidden pair (2.0) and triplet (2.5) are counted only when the
//! removals leave a hidden single in the same unit, and place it (as in
//! Sudoku Explainer, only the placement is applied).

use super::singles::SE_ORDER;
use super::{
    bit, cells_name, count9, digits_name, eliminations_name, subsets, unit_name, Board, Keep, Step, Tables, Technique,
    Words, UNITS,
};
use crate::sudoku::score::Score;

/// A naked subset of `k` (2..=4) cells.
pub fn naked(board: &Board, k: usize) -> Option<Step> {
    naked_where(board, k, Words::Write, &mut |_| true)
}

/// [`naked`], skipping the steps `keep` refuses.
pub fn naked_where(board: &Board, k: usize, words: Words, keep: Keep) -> Option<Step> {
    let (technique, rating) = match k {
        2 => (Technique::NakedPair, 30),
        3 => (Technique::NakedTriplet, 36),
        _ => (Technique::NakedQuad, 50),
    };
    for range in SE_ORDER {
        for unit in range {
            let mut open = [0usize; 9];
            let mut n = 0;
            for &c in &UNITS[unit] {
                if board.values[c] == 0 && count9(board.cands[c]) as usize <= k {
                    open[n] = c;
                    n += 1;
                }
            }
            if n < k {
                continue;
            }
            let found = subsets(n, k, |idx| {
                let union = idx.iter().fold(0u16, |m, &i| m | board.cands[open[i]]);
                if count9(union) as usize != k {
                    return None;
                }
                let cells: Vec<usize> = idx.iter().map(|&i| open[i]).collect();
                let eliminations: Vec<(usize, u8)> = UNITS[unit]
                    .iter()
                    .filter(|c| !cells.contains(c))
                    .flat_map(|&c| super::digits(board.cands[c] & union).map(move |d| (c, d)))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let text = words.make(|| {
                    format!(
                        "{}: {} hold only {} in {}, so these digits leave the unit's other cells: {}",
                        technique.name(),
                        cells_name(&cells),
                        digits_name(union),
                        unit_name(unit),
                        eliminations_name(&eliminations)
                    )
                });
                Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
                    .filter(|step| keep(step))
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// Calls `found` with each hidden subset of `k` digits in units with more
/// than `min_empty` empty cells: (unit, digit mask, cell positions in the unit).
fn each_hidden(
    t: &Tables,
    k: usize,
    min_empty: u8,
    mut found: impl FnMut(usize, u16, u16) -> Option<Step>,
) -> Option<Step> {
    for range in SE_ORDER {
        for unit in range {
            if t.empty[unit] <= min_empty {
                continue;
            }
            // Only digits with 1..=k places can be in a subset of k; the
            // subsets of those come in the same order as among all nine.
            let mut fit = [0usize; 9];
            let mut n = 0;
            for (i, &p) in t.positions[unit].iter().enumerate() {
                if p != 0 && count9(p) as usize <= k {
                    fit[n] = i;
                    n += 1;
                }
            }
            let positions = &t.positions[unit];
            let step = subsets(n, k, |idx| {
                let union = idx.iter().fold(0u16, |m, &i| m | positions[fit[i]]);
                if count9(union) as usize != k {
                    return None;
                }
                let digits = idx.iter().fold(0u16, |m, &i| m | 1 << fit[i]);
                found(unit, digits, union)
            });
            if step.is_some() {
                return step;
            }
        }
    }
    None
}

fn hidden_removals(board: &Board, unit: usize, digits: u16, places: u16) -> (Vec<usize>, Vec<(usize, u8)>) {
    let cells: Vec<usize> = (0..9).filter(|k| places & 1 << k != 0).map(|k| UNITS[unit][k]).collect();
    let eliminations =
        cells.iter().flat_map(|&c| super::digits(board.cands[c] & !digits).map(move |d| (c, d))).collect();
    (cells, eliminations)
}

/// A hidden subset of `k` (2..=4) digits.
pub fn hidden(board: &Board, k: usize) -> Option<Step> {
    hidden_in(board, &Tables::new(board), k, Words::Write)
}

/// [`hidden`] with the board's [`Tables`].
pub fn hidden_in(board: &Board, t: &Tables, k: usize, words: Words) -> Option<Step> {
    hidden_where(board, t, k, words, &mut |_| true)
}

/// [`hidden_in`], skipping the steps `keep` refuses.
pub fn hidden_where(board: &Board, t: &Tables, k: usize, words: Words, keep: Keep) -> Option<Step> {
    let (technique, rating) = match k {
        2 => (Technique::HiddenPair, 34),
        3 => (Technique::HiddenTriplet, 40),
        _ => (Technique::HiddenQuad, 54),
    };
    each_hidden(t, k, 2 * k as u8, |unit, digits, places| {
        let (cells, eliminations) = hidden_removals(board, unit, digits, places);
        if eliminations.is_empty() {
            return None;
        }
        let text = words.make(|| {
            format!(
                "{}: in {}, {} can only go in {}, so those cells hold nothing else: {}",
                technique.name(),
                unit_name(unit),
                digits_name(digits),
                cells_name(&cells),
                eliminations_name(&eliminations)
            )
        });
        Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
            .filter(|step| keep(step))
    })
}

/// A direct hidden pair (`k` = 2) or triplet (3): a hidden subset that leaves a hidden single in its unit.
pub fn direct_hidden(board: &Board, k: usize) -> Option<Step> {
    direct_hidden_in(board, &Tables::new(board), k, Words::Write)
}

/// [`direct_hidden`] with the board's [`Tables`].
pub fn direct_hidden_in(board: &Board, t: &Tables, k: usize, words: Words) -> Option<Step> {
    direct_hidden_where(board, t, k, words, &mut |_| true)
}

/// [`direct_hidden_in`], skipping the steps `keep` refuses.
pub fn direct_hidden_where(board: &Board, t: &Tables, k: usize, words: Words, keep: Keep) -> Option<Step> {
    let (technique, rating) =
        if k == 2 { (Technique::DirectHiddenPair, 20) } else { (Technique::DirectHiddenTriplet, 25) };
    each_hidden(t, k, k as u8, |unit, digits, places| {
        for d in 1..=9u8 {
            if digits & bit(d) != 0 {
                continue;
            }
            let p = t.positions[unit][d as usize - 1];
            if count9(p) > 1 && count9(p & !places) == 1 {
                let cell = UNITS[unit][(p & !places).trailing_zeros() as usize];
                let (cells, _) = hidden_removals(board, unit, digits, places);
                let text = words.make(|| {
                    format!(
                        "{}: in {}, {} can only go in {}, which leaves one place for {d}: {}={d}",
                        technique.name(),
                        unit_name(unit),
                        digits_name(digits),
                        cells_name(&cells),
                        super::cell_name(cell)
                    )
                });
                // Like Sudoku Explainer, only the placement is applied: the
                // cells' other candidates stay for later steps to find.
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
