//! Unique rectangles and loops (4.5 to 5.0 and a little more), which
//! assume the puzzle has one solution.
//!
//! Four or more cells, each holding the digits x and y among its
//! candidates, joined in a closed path where each step stays in a box, a
//! row or a column (never two steps running in the same kind of unit), and
//! where every unit met holds exactly two cells of the path, one at an odd
//! place and one at an even place: if each cell held only x and y, swapping
//! them along the path would give a second solution. Four cells make a
//! rectangle on two rows, two columns and two boxes. So:
//! - type 1: one cell has more candidates; it is neither x nor y;
//! - type 2: the cells with more candidates all have one same extra digit
//!   z; one of them is z, so z leaves every cell seeing them all;
//! - type 3: two cells with more candidates share a unit; one of them holds
//!   one of their extra digits, so, taken together as one cell holding
//!   those extras, they make a naked subset with other cells of the unit
//!   (or x and y a hidden subset of the unit, with one of the two);
//! - type 4: two cells with more candidates share a unit where x has no
//!   other place; one of them is x, so neither is y.
//!
//! Sudoku Explainer rates a rectangle 4.5, a loop of six cells 4.6, of
//! eight 4.7, of ten or more 5.0; type 3 adds a tenth per digit of its
//! naked subset beyond the first (per cell of its hidden subset beyond the
//! second). Of all the steps found, the easiest is used, then the lower
//! type, then the first met: loops are met from each cell holding exactly
//! two candidates, from the first cell on, steps tried in its box, then its
//! row, then its column.

use super::cellsets::{cells_of, GRID, PEERS};
use super::{
    cell_name, cells_name, digits, digits_name, eliminations_name, unit_name, units_of, Board, Keep, Step, Technique,
    Words, UNITS,
};
use crate::sudoku::score::Score;

/// The rating of a loop of `len` cells before type 3's subset.
fn base_rating(len: usize) -> u16 {
    match len {
        0..=5 => 45,
        6..=7 => 46,
        8..=9 => 47,
        _ => 50,
    }
}

/// The loops through cells holding both digits of `pair`, from `start`.
struct Search<'a> {
    board: &'a Board,
    pair: u16,
    start: usize,
    path: Vec<usize>,
    /// The units met at even and at odd places of the path.
    seen: [u32; 2],
    loops: Vec<Vec<usize>>,
}

impl Search<'_> {
    /// Extends the path from its last cell, not through the unit kind
    /// `last_kind`; `extra_cells` cells so far have more candidates, those
    /// being `extra`.
    fn extend(&mut self, last_kind: usize, extra_cells: usize, extra: u16) {
        let cell = *self.path.last().expect("a path");
        for (kind, unit) in units_of(cell).into_iter().enumerate() {
            if kind == last_kind {
                continue;
            }
            for &next in &UNITS[unit] {
                if next == self.start {
                    if self.path.len() >= 4 {
                        self.loops.push(self.path.clone());
                    }
                    continue;
                }
                let cands = self.board.cands[next];
                if cands & self.pair != self.pair || self.path.contains(&next) {
                    continue;
                }
                // Each loop once: from its first cell with exactly two candidates.
                if cands == self.pair && next < self.start {
                    continue;
                }
                let more = cands & !self.pair;
                let new_extra = extra | more;
                if !(more == 0 || new_extra.count_ones() == 1 || extra_cells < 2) {
                    continue;
                }
                // A unit met twice at places of the same parity cannot make a loop.
                let side = self.path.len() % 2;
                let units = units_of(next).iter().fold(0u32, |m, &u| m | 1 << u);
                if self.seen[side] & units != 0 {
                    continue;
                }
                self.seen[side] |= units;
                self.path.push(next);
                self.extend(kind, extra_cells + usize::from(more != 0), new_extra);
                self.path.pop();
                self.seen[side] &= !units;
            }
        }
    }
}

/// Whether every unit met holds two cells of the loop, one at an odd and
/// one at an even place (the search already kept each side's units apart).
fn valid(lp: &[usize]) -> bool {
    let mut seen = [0u32; 2];
    for (i, &c) in lp.iter().enumerate() {
        for u in units_of(c) {
            seen[i % 2] |= 1 << u;
        }
    }
    seen[0] == seen[1]
}

/// One step found: its rating, its type, its loop's cells, the step.
type Found = (u16, u8, u128, Step);

/// The loop being judged, for building its steps.
struct Loop<'a> {
    board: &'a Board,
    cells: &'a [usize],
    pair: u16,
    words: Words,
}

impl Loop<'_> {
    fn step(&self, kind: u8, rating: u16, mut eliminations: Vec<(usize, u8)>, why: String) -> Option<Found> {
        if eliminations.is_empty() {
            return None;
        }
        eliminations.sort_unstable();
        let (technique, name) = if self.cells.len() == 4 {
            (Technique::UniqueRectangle, "Unique rectangle")
        } else {
            (Technique::UniqueLoop, "Unique loop")
        };
        let text = self.words.make(|| {
            format!(
                "{name} type {kind}: {} would let {} swap and give a second solution; {why}: {}",
                cells_name(self.cells),
                digits_name(self.pair),
                eliminations_name(&eliminations)
            )
        });
        let mask = self.cells.iter().fold(0u128, |m, &c| m | 1 << c);
        Some((
            rating,
            kind,
            mask,
            Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text },
        ))
    }

    /// The steps of the loop, in Sudoku Explainer's order.
    fn steps(&self, out: &mut Vec<Found>) {
        let (board, pair) = (self.board, self.pair);
        let base = base_rating(self.cells.len());
        let extra: Vec<usize> = self.cells.iter().copied().filter(|&c| board.cands[c] != pair).collect();
        let more = extra.iter().fold(0u16, |m, &c| m | board.cands[c]) & !pair;
        if extra.len() == 1 {
            let cell = extra[0];
            let eliminations = digits(pair).map(|d| (cell, d)).collect();
            out.extend(self.step(1, base, eliminations, format!("so {} is neither", cell_name(cell))));
            return;
        }
        if extra.len() >= 2 && more.count_ones() == 1 {
            let z = more.trailing_zeros() as u8 + 1;
            let seen = extra.iter().fold(GRID, |m, &c| m & PEERS[c]);
            let eliminations = cells_of(seen).filter(|&c| board.has(c, z)).map(|c| (c, z)).collect();
            out.extend(self.step(2, base, eliminations, format!("one of {} is {z}", cells_name(&extra))));
        }
        if extra.len() != 2 {
            return;
        }
        let (c1, c2) = (extra[0], extra[1]);
        let shared: Vec<usize> = units_of(c1).into_iter().filter(|u| units_of(c2).contains(u)).collect();
        if more.count_ones() >= 2 {
            self.type3(c1, c2, more, &shared, out);
        }
        // Type 4: the lower digit locked first, in the last unit it is locked in.
        let ds: Vec<u8> = digits(pair).collect();
        for (x, y) in [(ds[0], ds[1]), (ds[1], ds[0])] {
            let locked = shared
                .iter()
                .rev()
                .copied()
                .find(|&u| UNITS[u].iter().all(|&c| c == c1 || c == c2 || !board.has(c, x)));
            if let Some(unit) = locked {
                let why =
                    format!("{x} must be in {} within {}, so they are not {y}", cells_name(&extra), unit_name(unit));
                out.extend(self.step(4, base, vec![(c1, y), (c2, y)], why));
                return;
            }
        }
    }

    /// Type 3: naked subsets with `c1` standing for both extra cells
    /// (holding `more`), then hidden subsets of x, y and other digits
    /// without `c2`, in each unit the two share, by growing size.
    fn type3(&self, c1: usize, c2: usize, more: u16, shared: &[usize], out: &mut Vec<Found>) {
        let (board, pair) = (self.board, self.pair);
        let base = base_rating(self.cells.len());
        let common = more & board.cands[c1] & board.cands[c2];
        for degree in 2..=7usize {
            for &unit in shared {
                let cells = &UNITS[unit];
                let empty = cells.iter().filter(|&&c| board.values[c] == 0).count();
                if degree * 2 <= empty && degree >= more.count_ones() as usize {
                    // The other cells of the subset: empty, two or more candidates.
                    let others: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&c| c != c1 && c != c2 && board.cands[c].count_ones() >= 2)
                        .collect();
                    for_each_combination(others.len(), degree - 1, &mut |pick| {
                        let chosen: Vec<usize> = pick.iter().map(|&i| others[i]).collect();
                        let union = chosen.iter().fold(0u16, |m, &c| m | board.cands[c]);
                        if (union | common).count_ones() as usize != degree
                            || (union | more).count_ones() as usize != degree
                        {
                            return;
                        }
                        let subset = union | more;
                        let eliminations: Vec<(usize, u8)> = cells
                            .iter()
                            .copied()
                            .filter(|&c| c != c1 && c != c2 && !chosen.contains(&c))
                            .flat_map(|c| digits(board.cands[c] & subset).map(move |d| (c, d)))
                            .collect();
                        let why = format!(
                            "one of {} holds one of {}, so with {} they hold {} within {}",
                            cells_name(&[c1, c2]),
                            digits_name(more),
                            cells_name(&chosen),
                            digits_name(subset),
                            unit_name(unit)
                        );
                        out.extend(self.step(3, base + degree as u16 - 1, eliminations, why));
                    });
                }
                if degree * 2 < empty {
                    let rest: Vec<u8> = digits(0x1FF & !pair & !more).collect();
                    if degree - 2 > rest.len() {
                        continue;
                    }
                    let places = |d: u8| -> u128 {
                        cells.iter().filter(|&&c| c != c2 && board.has(c, d)).fold(0, |m, &c| m | 1 << c)
                    };
                    for_each_combination(rest.len(), degree - 2, &mut |pick| {
                        let mut hidden = pair;
                        let mut union = digits(pair).fold(0, |m, d| m | places(d));
                        let mut empty_digit = false;
                        for &i in pick {
                            let p = places(rest[i]);
                            empty_digit |= p == 0;
                            union |= p;
                            hidden |= 1 << (rest[i] - 1);
                        }
                        if empty_digit || union.count_ones() as usize != degree {
                            return;
                        }
                        let holders: Vec<usize> = cells_of(union).filter(|&c| c != c1).collect();
                        let eliminations: Vec<(usize, u8)> = holders
                            .iter()
                            .flat_map(|&c| digits(board.cands[c] & !hidden).map(move |d| (c, d)))
                            .collect();
                        let why = format!(
                            "one of {} is not {}, so {} are in {} within {}",
                            cells_name(&[c1, c2]),
                            digits_name(pair),
                            digits_name(hidden),
                            cells_name(&cells_of(union).collect::<Vec<_>>()),
                            unit_name(unit)
                        );
                        out.extend(self.step(3, base + degree as u16 - 2, eliminations, why));
                    });
                }
            }
        }
    }
}

/// Calls `f` on every increasing choice of `k` indices below `n`.
fn for_each_combination(n: usize, k: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(n: usize, k: usize, from: usize, pick: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if pick.len() == k {
            f(pick);
            return;
        }
        for i in from..n {
            if n - i < k - pick.len() {
                break;
            }
            pick.push(i);
            go(n, k, i + 1, pick, f);
            pick.pop();
        }
    }
    go(n, k, 0, &mut Vec::with_capacity(k), f);
}

/// Every step of every unique rectangle and loop, in the order met.
fn all_steps(board: &Board, words: Words) -> Vec<Found> {
    let mut found = Vec::new();
    for start in 0..81 {
        let pair = board.cands[start];
        if pair.count_ones() != 2 {
            continue;
        }
        let units = units_of(start).iter().fold(0u32, |m, &u| m | 1 << u);
        let mut search = Search { board, pair, start, path: vec![start], seen: [units, 0], loops: Vec::new() };
        search.extend(usize::MAX, 0, 0);
        for cells in search.loops.iter().filter(|lp| valid(lp)) {
            let from = found.len();
            Loop { board, cells, pair, words }.steps(&mut found);
            // A loop is met once each way round: its steps once.
            let mut fresh = found.split_off(from);
            let mask = cells.iter().fold(0u128, |m, &c| m | 1 << c);
            fresh.retain(|new| !found.iter().any(|old| old.2 == mask && old.3.eliminations == new.3.eliminations));
            found.append(&mut fresh);
        }
    }
    found
}

/// The easiest unique rectangle or loop (the lower type on a tie, then
/// the first met), as Sudoku Explainer chooses.
pub fn unique_loop(board: &Board) -> Option<Step> {
    unique_loop_where(board, Words::Write, &mut |_| true)
}

/// [`unique_loop`], skipping the steps `keep` refuses.
pub fn unique_loop_where(board: &Board, words: Words, keep: Keep) -> Option<Step> {
    let mut found = all_steps(board, words);
    found.sort_by_key(|&(rating, kind, _, _)| (rating, kind));
    found.into_iter().map(|(_, _, _, step)| step).find(|step| keep(step))
}
