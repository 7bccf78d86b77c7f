//! Singles: a digit with one place left in a unit (hidden single: 1.0 when
//! it fills the unit's last empty cell, 1.2 in a box, 1.5 in a row or a
//! column), and a cell with one candidate left (naked single, 2.3).

use super::{bit, cell_name, count9, unit_name, Board, Keep, Step, Tables, Technique, Words, UNITS};
use crate::sudoku::score::Score;

/// Units in Sudoku Explainer's order: boxes, then columns, then rows.
pub const SE_ORDER: [std::ops::Range<usize>; 3] = [0..9, 18..27, 9..18];

/// A hidden single: first one filling a unit's last empty cell, then one
/// in a box, then one in a column or row.
pub fn hidden_single(board: &Board) -> Option<Step> {
    hidden_single_in(&Tables::new(board), Words::Write)
}

/// [`hidden_single`] on a board's [`Tables`].
pub fn hidden_single_in(t: &Tables, words: Words) -> Option<Step> {
    hidden_single_where(t, words, &mut |_| true)
}

/// [`hidden_single_in`], skipping the steps `keep` refuses.
pub fn hidden_single_where(t: &Tables, words: Words, keep: Keep) -> Option<Step> {
    for last_only in [true, false] {
        for range in SE_ORDER {
            for unit in range {
                let empty = t.empty[unit];
                if empty == 0 || (empty == 1) != last_only {
                    continue;
                }
                for d in 1..=9u8 {
                    let positions = t.positions[unit][d as usize - 1];
                    if count9(positions) == 1 {
                        let cell = UNITS[unit][positions.trailing_zeros() as usize];
                        let rating = if last_only {
                            10
                        } else if unit < 9 {
                            12
                        } else {
                            15
                        };
                        let text = words.make(|| {
                            let why = if last_only {
                                format!("{} is the last empty cell of {}", cell_name(cell), unit_name(unit))
                            } else {
                                format!("{d} is the only place for {d} in {}", unit_name(unit))
                            };
                            format!("Hidden single: {why}: {}={d}", cell_name(cell))
                        });
                        let step = Step {
                            technique: Technique::HiddenSingle,
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
            }
        }
    }
    None
}

/// A naked single: an empty cell with one candidate.
pub fn naked_single(board: &Board) -> Option<Step> {
    naked_single_where(board, Words::Write, &mut |_| true)
}

/// [`naked_single`], skipping the steps `keep` refuses.
pub fn naked_single_where(board: &Board, words: Words, keep: Keep) -> Option<Step> {
    let singles = (0..81).filter(|&c| board.values[c] == 0 && count9(board.cands[c]) == 1);
    singles
        .map(|cell| {
            let d = board.cands[cell].trailing_zeros() as u8 + 1;
            debug_assert_eq!(board.cands[cell], bit(d));
            Step {
                technique: Technique::NakedSingle,
                rating: Score::from_tenths(23),
                placements: vec![(cell, d)],
                eliminations: vec![],
                text: words.make(|| {
                    format!(
                        "Naked single: {d} is the only candidate left in {}: {}={d}",
                        cell_name(cell),
                        cell_name(cell)
                    )
                }),
            }
        })
        .find(|step| keep(step))
}
