//! Bivalue universal grave, type 1 (5.6), which assumes one solution.
//!
//! If every empty cell had two candidates and every digit two places in
//! each unit, the grid would have two solutions or none. When all empty
//! cells are pairs but one, which has three candidates, that cell must hold
//! the digit that appears three times in its row, column and box.

use super::{cell_name, Board, Keep, Step, Technique, Words, UNITS};
use crate::sudoku::score::Score;

/// A BUG+1: the one cell with three candidates takes its extra digit.
pub fn bug(board: &Board) -> Option<Step> {
    bug_where(board, Words::Write, &mut |_| true)
}

/// [`bug`], skipping the steps `keep` refuses.
pub fn bug_where(board: &Board, words: Words, keep: Keep) -> Option<Step> {
    let mut extra = None;
    for c in 0..81 {
        match board.cands[c].count_ones() {
            0 | 2 => {}
            3 if extra.is_none() => extra = Some(c),
            _ => return None,
        }
    }
    let cell = extra?;
    for d in super::digits(board.cands[cell]) {
        let three = super::units_of(cell).iter().all(|&u| board.positions(u, d).count_ones() == 3);
        let others_two = (0..27).all(|u| {
            (1..=9u8).all(|e| {
                let n = board.positions(u, e).count_ones();
                n == 0 || n == 2 || (e == d && UNITS[u].contains(&cell))
            })
        });
        if three && others_two {
            let text = words.make(|| {
                format!(
                "Bivalue universal grave: every other empty cell has two candidates, so {} must be {d}, the digit it holds three times: {}={d}",
                cell_name(cell),
                cell_name(cell)
            )
            });
            let step = Step {
                technique: Technique::Bug,
                rating: Score::from_tenths(56),
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
}
