//! Grouped Skyscraper and grouped 2-String Kite (4.3): two strong links
//! of one digit in rows or columns, at least one of them grouped.
//!
//! A *strong link* of digit `d` in a row or column is a split of `d`'s
//! places there into two ends, one of which holds `d`. An end is a single
//! cell when `d` has exactly two places in the line; it is a *group* when
//! `d`'s three to six places in the line lie in exactly two of its three
//! boxes: the places in each box form one end (one of the two boxes holds
//! `d`, and within it one of the group's cells).
//!
//! Two strong links in different lines, `S = B` and `C = E`, whose inner
//! ends `B` and `C` lie together in one unit (row, column or box) and are
//! disjoint, force `d` into `S` or `E`: if no cell of `S` holds `d`, one of
//! `B` does, so none of `C` does (they share a unit), so one of `E` does.
//! Hence `d` leaves every cell that sees all the cells of `S` and of `E`
//! (outside the two lines, as Sudoku Explainer counts it). The two lines
//! must not share a place of `d`. Two parallel lines make a grouped Skyscraper,
//! a row and a column a grouped 2-String Kite; Sudoku Explainer rates both
//! 4.3 (the plain forms, without groups, are in
//! [`strong_links`](super::strong_links)). Among several, the one removing
//! the most candidates is used, then the one with a single grouped link,
//! then rows before columns before mixed lines, then the smaller digit.

use super::cellsets::{cells_of, GRID, PEERS};
use super::{
    cells_name, count9, eliminations_name, on_changed_digits, unit_name, units_of, Board, OneDigit, Rater, Step,
    Tables, Technique, Words, ALL, UNITS, UNIT_CELLS,
};
use crate::sudoku::score::Score;

/// A strong link: its unit and its two ends as cell sets.
#[derive(Clone, Copy)]
pub(super) struct Link {
    /// The unit where the digit lies only in the two ends.
    pub unit: usize,
    /// The two ends (a cell, or a group of cells in one box and line).
    pub ends: [u128; 2],
    /// Whether the unit has more than two places for the digit.
    pub grouped: bool,
}

pub(super) fn set_of(unit: usize, positions: u16) -> u128 {
    (0..9).filter(|k| positions >> k & 1 == 1).fold(0, |m, k| m | 1u128 << UNITS[unit][k])
}

/// The strong links of `d` in rows and columns, grouped or not.
pub(super) fn links(t: &Tables, d: u8, out: &mut Vec<Link>) {
    out.clear();
    for unit in 9..27 {
        let p = t.positions[unit][d as usize - 1];
        let n = count9(p);
        if n == 2 {
            let first = p & p.wrapping_neg();
            out.push(Link { unit, ends: [set_of(unit, first), set_of(unit, p & !first)], grouped: false });
        } else if (3..=6).contains(&n) {
            let segments: Vec<u16> = (0..3).map(|s| p & (7 << (3 * s))).filter(|&m| m != 0).collect();
            if segments.len() == 2 {
                let ends = [set_of(unit, segments[0]), set_of(unit, segments[1])];
                out.push(Link { unit, ends, grouped: true });
            }
        }
    }
}

/// Whether every cell of `set` (not empty) lies in one unit: one of the
/// units of its first cell.
pub(super) fn in_one_unit(set: u128) -> bool {
    units_of(set.trailing_zeros() as usize).iter().any(|&unit| set & !UNIT_CELLS[unit] == 0)
}

/// The best grouped two-link pattern: (number of eliminations, step).
/// Only the digits of the mask `digits` are looked at.
fn best_grouped(board: &Board, t: &Tables, digits: u16, words: Words) -> Option<(usize, Step)> {
    let mut best: Option<(usize, bool, usize, Step)> = None;
    let mut all = Vec::new();
    for d in super::digits(digits) {
        links(t, d, &mut all);
        for (i, l1) in all.iter().enumerate() {
            for l2 in &all[i + 1..] {
                // The two lines must not share a place of `d`.
                if !(l1.grouped || l2.grouped) || (l1.ends[0] | l1.ends[1]) & (l2.ends[0] | l2.ends[1]) != 0 {
                    continue;
                }
                let kind = match (l1.unit < 18, l2.unit < 18) {
                    (true, true) => 0,
                    (false, false) => 1,
                    _ => 2,
                };
                for (s, b) in [(0, 1), (1, 0)] {
                    for (c, e) in [(0, 1), (1, 0)] {
                        let (start, bridge1, bridge2, end) = (l1.ends[s], l1.ends[b], l2.ends[c], l2.ends[e]);
                        if !in_one_unit(bridge1 | bridge2) {
                            continue;
                        }
                        let lines = UNIT_CELLS[l1.unit] | UNIT_CELLS[l2.unit];
                        let mut victims = GRID & !lines;
                        for cell in cells_of(start | end) {
                            victims &= PEERS[cell];
                        }
                        let eliminations: Vec<(usize, u8)> =
                            cells_of(victims).filter(|&v| board.has(v, d)).map(|v| (v, d)).collect();
                        if eliminations.is_empty() {
                            continue;
                        }
                        let both = l1.grouped && l2.grouped;
                        let better = best.as_ref().is_none_or(|(n, bg, k, _)| {
                            (std::cmp::Reverse(eliminations.len()), both, kind) < (std::cmp::Reverse(*n), *bg, *k)
                        });
                        if !better {
                            continue;
                        }
                        let technique =
                            if kind == 2 { Technique::GroupedTwoStringKite } else { Technique::GroupedSkyscraper };
                        let ends = |m: u128| cells_name(&cells_of(m).collect::<Vec<_>>());
                        let text = words.make(|| {
                            format!(
                                "{}: {d} lies in {} or in {} ({}), and in {} or in {} ({}); {} and {} share a unit, \
                                 so {d} is in {} or in {}: {}",
                                technique.name(),
                                ends(start),
                                ends(bridge1),
                                unit_name(l1.unit),
                                ends(bridge2),
                                ends(end),
                                unit_name(l2.unit),
                                ends(bridge1),
                                ends(bridge2),
                                ends(start),
                                ends(end),
                                eliminations_name(&eliminations)
                            )
                        });
                        let n = eliminations.len();
                        let step =
                            Step { technique, rating: Score::from_tenths(43), placements: vec![], eliminations, text };
                        best = Some((n, both, kind, step));
                    }
                }
            }
        }
    }
    best.map(|(n, _, _, step)| (n, step))
}

/// A grouped Skyscraper or 2-String Kite (4.3).
pub fn grouped_links(board: &Board) -> Option<Step> {
    best_grouped(board, &Tables::new(board), ALL, Words::Write).map(|(_, step)| step)
}

/// The 4.3 step Sudoku Explainer's two-strong-link search applies first:
/// of a grouped pattern here and an empty rectangle, the one removing more
/// candidates (the grouped lines when as many).
pub fn grouped_or_empty_rectangle(rater: &mut Rater, board: &Board, t: &Tables, words: Words) -> Option<Step> {
    let rectangle = super::strong_links::empty_rectangle_in(rater, t, words);
    let grouped = on_changed_digits(rater, OneDigit::GroupedLinks, t, |digits| best_grouped(board, t, digits, words));
    match (grouped, rectangle) {
        (Some((n, grouped)), Some(rect)) => Some(if rect.eliminations.len() > n { rect } else { grouped }),
        (Some((_, grouped)), None) => Some(grouped),
        (None, rect) => rect,
    }
}
