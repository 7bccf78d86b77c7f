//! Three strong links with groups (5.7): a chain of three strong links of
//! one digit, at least one of them grouped.
//!
//! A strong link splits a digit's places in a unit into two ends, one of
//! which holds the digit. Without groups both ends are single cells (the
//! unit has two places, see [`strong_links`](super::strong_links)). With
//! groups an end may be several cells of one box and one line:
//! - in a row or column, the three to six places lie in two of its boxes
//!   (each box's places form an end);
//! - in a box, the places lie on one row and one column (an empty
//!   rectangle: the row's places form one end, the column's the other; a
//!   place where they cross joins one of the two ends), or, with four or
//!   more places and no such cross, on two rows (or two columns), one end
//!   each.
//!
//! Links `S = A`, `B = C`, `D = E` in three units that share no place of
//! the digit, where `A` and `B` lie together in one unit and so do `C` and
//! `D`, put the digit in `S` or in `E`: if `S` has none, `A` has it, so `B`
//! has none, `C` has it, `D` has none, and `E` has it. The digit leaves
//! every cell that sees all of `S` and `E`, outside the link units and the
//! units joining them (as Sudoku Explainer counts it). Sudoku Explainer
//! rates every such chain 5.7 (three links, 5.4, and 0.3 for groups); among
//! several, the one removing the most candidates is used.

use super::cellsets::{cells_of, GRID, PEERS};
use super::grouped_links::{links, set_of, Link};
use super::{
    cells_name, eliminations_name, on_changed_digits, unit_name, units_of, OneDigit, Rater, Step, Tables, Technique,
    Words, UNIT_CELLS,
};
use crate::sudoku::score::Score;

/// The rating of every grouped three-link chain.
const RATING: u16 = 57;

/// Box `b`'s cells (as box positions, bit `k` for its `k`-th cell) on the box row `r`.
const fn box_row(r: usize) -> u16 {
    0b111 << (3 * r)
}

/// Box positions on the box column `c`.
const fn box_col(c: usize) -> u16 {
    0b1001001 << c
}

/// The grouped links of `d` in the boxes, in Sudoku Explainer's shapes.
fn box_links(t: &Tables, d: u8, out: &mut Vec<Link>) {
    for unit in 0..9 {
        let p = t.positions[unit][d as usize - 1];
        let n = p.count_ones();
        if !(3..=6).contains(&n) {
            continue;
        }
        let mut ends: Vec<[u16; 2]> = Vec::new();
        // A cross: every place on the row or the column of one cell.
        let heart = (0..9).find(|&h| p & !(box_row(h / 3) | box_col(h % 3)) == 0);
        if let Some(h) = heart {
            let (column, row) = (p & box_col(h % 3) & !(1 << h), p & box_row(h / 3) & !(1 << h));
            if column != 0 && row != 0 {
                let middle = p & 1 << h;
                ends.push([column | middle, row]);
                if middle != 0 {
                    ends.push([column, row | middle]);
                }
            }
        } else if n >= 4 {
            // Two rows, or two columns.
            for lines in [[box_row(0), box_row(1), box_row(2)], [box_col(0), box_col(1), box_col(2)]] {
                let used: Vec<u16> = lines.iter().map(|&l| p & l).filter(|&m| m != 0).collect();
                if used.len() == 2 {
                    ends.push([used[0], used[1]]);
                }
            }
        }
        for [a, b] in ends {
            out.push(Link { unit, ends: [set_of(unit, a), set_of(unit, b)], grouped: true });
        }
    }
}

/// The unit holding all of `set`, Sudoku Explainer's choice: a column, then a row, then a box.
fn joining_unit(set: u128) -> Option<usize> {
    (18..27).chain(9..18).chain(0..9).find(|&u| set & !UNIT_CELLS[u] == 0)
}

/// A chain of three strong links, at least one grouped, removing the most
/// candidates, looking only at the digits whose places changed since it
/// last found nothing with `rater`.
pub fn grouped_three_links(rater: &mut Rater, t: &Tables, words: Words) -> Option<Step> {
    on_changed_digits(rater, OneDigit::GroupedThreeLinks, t, |digits| grouped_three_links_among(t, digits, words))
}

/// [`grouped_three_links`] for the digits of the mask `digits`.
fn grouped_three_links_among(t: &Tables, digits: u16, words: Words) -> Option<Step> {
    let mut best: Option<(usize, Step)> = None;
    let mut all = Vec::new();
    for d in super::digits(digits) {
        links(t, d, &mut all);
        // Boxes with two places off one line are plain links too.
        for unit in 0..9 {
            let cells = t.unit_cells(unit, d);
            if cells.count_ones() == 2 && !in_one_unit_line(cells) {
                let first = cells & cells.wrapping_neg();
                all.push(Link { unit, ends: [first, cells & !first], grouped: false });
            }
        }
        box_links(t, d, &mut all);
        if !all.iter().any(|l| l.grouped) {
            continue;
        }
        let places = t.cells[d as usize - 1];
        // Each link both ways: (link, its start end, its far end); way `2 i + s` starts at end `s` of link `i`.
        let ways: Vec<(usize, u128, u128)> =
            all.iter().enumerate().flat_map(|(i, l)| [(i, l.ends[0], l.ends[1]), (i, l.ends[1], l.ends[0])]).collect();
        debug_assert!(ways.len() <= 128, "at most two links per unit");
        let cover: Vec<u128> = all.iter().map(|l| l.ends[0] | l.ends[1]).collect();
        // Sets of ways (bit `w` for way `w`): those of links sharing no place with link `i`,
        // and those of grouped links.
        let mut apart = vec![0u128; all.len()];
        let mut grouped = 0u128;
        for (i, l) in all.iter().enumerate() {
            for (j, &c) in cover.iter().enumerate() {
                if j != i && cover[i] & c == 0 {
                    apart[i] |= 0b11 << (2 * j);
                }
            }
            if l.grouped {
                grouped |= 0b11 << (2 * i);
            }
        }
        // The units holding each way's start end, and its far end (bit `u` for unit `u`): two
        // ends lie in one unit together when they have one in common.
        let units = |set: u128| {
            let first = units_of(set.trailing_zeros() as usize);
            first.into_iter().filter(|&u| set & !UNIT_CELLS[u] == 0).fold(0u32, |m, u| m | 1 << u)
        };
        let start_units: Vec<u32> = ways.iter().map(|&(_, start, _)| units(start)).collect();
        // next[w]: the ways that may follow way w (another link, no shared place, weakly linked).
        let next: Vec<u128> = ways
            .iter()
            .map(|&(i, _, far)| {
                let far_units = units(far);
                cells_of(apart[i]).filter(|&v| far_units & start_units[v] != 0).fold(0, |m, v| m | 1 << v)
            })
            .collect();
        // The places of `d` seeing every cell of each way's far end.
        let seen_far: Vec<u128> =
            ways.iter().map(|&(_, _, far)| cells_of(far).fold(places, |m, x| m & PEERS[x])).collect();
        let ways_mask = if ways.len() == 128 { !0 } else { (1u128 << ways.len()) - 1 };
        for (w1, &(i, s, a)) in ways.iter().enumerate() {
            let seen_s = cells_of(s).fold(places, |m, x| m & PEERS[x]);
            if seen_s == 0 {
                continue;
            }
            // Each chain once (the reversed one is the same): the last link after the first,
            // sharing no place with it, its far end seeing a place that `s` sees.
            let after = !0u128 << (2 * i + 2);
            let lasts = cells_of(after & apart[i] & ways_mask)
                .filter(|&w| seen_s & seen_far[w] != 0)
                .fold(0u128, |m, w| m | 1 << w);
            if lasts == 0 {
                continue;
            }
            for w2 in cells_of(next[w1]) {
                let (j, b, c) = ways[w2];
                // With a group somewhere, sharing no place with the first two links.
                let mut thirds = next[w2] & lasts;
                if !(all[i].grouped || all[j].grouped) {
                    thirds &= grouped;
                }
                for w3 in cells_of(thirds) {
                    let (k, dd, e) = ways[w3];
                    let seen = seen_s & seen_far[w3];
                    if seen == 0 || (seen.count_ones() as usize) <= best.as_ref().map_or(0, |(m, _)| *m) {
                        continue;
                    }
                    let (Some(u1), Some(u2)) = (joining_unit(a | b), joining_unit(c | dd)) else {
                        continue;
                    };
                    let outside =
                        [all[i].unit, all[j].unit, all[k].unit, u1, u2].iter().fold(GRID, |m, &u| m & !UNIT_CELLS[u]);
                    let victims = seen & outside;
                    let n = victims.count_ones() as usize;
                    if n == 0 || best.as_ref().is_some_and(|(m, _)| *m >= n) {
                        continue;
                    }
                    let (l1, l2, l3) = (&all[i], &all[j], &all[k]);
                    let eliminations: Vec<(usize, u8)> = cells_of(victims).map(|v| (v, d)).collect();
                    let text = words.make(|| {
                        let group = |m: u128| {
                            let cells: Vec<usize> = cells_of(m).collect();
                            if cells.len() == 1 {
                                cells_name(&cells)
                            } else {
                                format!("({})", cells_name(&cells))
                            }
                        };
                        format!(
                            "{}: {d} lies in {}={} ({}), {}={} ({}), {}={} ({}); linked end to end, \
                             they put {d} in {} or {}: {}",
                            Technique::GroupedThreeStrongLinks.name(),
                            group(s),
                            group(a),
                            unit_name(l1.unit),
                            group(b),
                            group(c),
                            unit_name(l2.unit),
                            group(dd),
                            group(e),
                            unit_name(l3.unit),
                            group(s),
                            group(e),
                            eliminations_name(&eliminations)
                        )
                    });
                    let step = Step {
                        technique: Technique::GroupedThreeStrongLinks,
                        rating: Score::from_tenths(RATING),
                        placements: vec![],
                        eliminations,
                        text,
                    };
                    best = Some((n, step));
                }
            }
        }
    }
    best.map(|(_, step)| step)
}

/// Whether all of `set` lies in one row or one column.
fn in_one_unit_line(set: u128) -> bool {
    (9..27).any(|u| set & !UNIT_CELLS[u] == 0)
}
