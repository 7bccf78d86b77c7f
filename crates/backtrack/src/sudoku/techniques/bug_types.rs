//! Bivalue universal grave with several extra candidates (types 1 to 4),
//! which assume the puzzle has one solution.
//!
//! A grid where every empty cell has two candidates and every digit two
//! places in each unit it still misses has no solution or several. Take
//! from a few *BUG cells* their *extra* digits (those that a unit holds
//! more than twice, where that unit has one cell with three or more
//! candidates among them): if what remains is such a grave, one of the BUG
//! cells holds one of its extra digits. Then:
//! - type 1 (5.6): one BUG cell, which holds one of its extra digits;
//! - type 2 (5.7): every extra digit is the same digit `x`, so `x` leaves
//!   every cell that sees all the BUG cells;
//! - type 4 (5.7): two BUG cells in one unit sharing one digit `v` besides
//!   their extras: `v`'s places in that unit are those two cells, so one
//!   holds its extra digit and the other `v`; their other digits go;
//! - type 3 (5.7 plus 0.1 per digit beyond one): BUG cells in one unit,
//!   whose extra digits together with `n - 1` other cells of the unit form
//!   a naked set of `n` digits: those digits leave the rest of the unit.
//!
//! The BUG cells and their extras are found as Sudoku Explainer finds them
//! (when every irregular unit concerns one digit, all the cells with three
//! or more candidates among its places are BUG cells); of types 2 and 4,
//! or 4 and 3, the first that removes something is used.

use super::cellsets::{cells_of, PEERS};
use super::{
    cell_name, cells_name, digits, digits_name, eliminations_name, unit_name, Board, Step, Tables, Technique, Words,
    UNITS, UNIT_CELLS,
};
use crate::sudoku::score::Score;

/// The BUG cells, the extra digits of each (indexed by cell), and the cells seeing all BUG cells.
struct Grave {
    cells: Vec<usize>,
    extra: [u16; 81],
    all_extra: u16,
    common: u128,
}

/// The BUG cells and extras of `board`, if removing the extras leaves a grave.
fn grave(board: &Board, t: &Tables) -> Option<Grave> {
    let mut g = Grave { cells: Vec::new(), extra: [0; 81], all_extra: 0, common: !0 };
    // All the cells with three or more candidates among the places of
    // irregular units, while those units all concern one digit.
    let mut many: u128 = 0;
    let mut only: Option<u8> = None;
    let mut one_digit = true;
    let wide_all: u128 = (0..81).filter(|&c| board.cands[c].count_ones() >= 3).fold(0, |m, c| m | 1 << c);
    for unit in 0..27 {
        for d in 1..=9u8 {
            let places = t.unit_cells(unit, d);
            let n = places.count_ones();
            if n == 0 || n == 2 {
                continue;
            }
            let wide = places & wide_all;
            match only {
                None => {
                    only = Some(d);
                    many = wide;
                }
                Some(x) if one_digit && x == d => many |= wide,
                Some(_) => one_digit = false,
            }
            if wide.count_ones() == 1 {
                add(&mut g, wide.trailing_zeros() as usize, d);
            } else if wide == 0 {
                return None;
            }
        }
    }
    if let (true, Some(d)) = (one_digit, only) {
        let known = g.cells.iter().fold(0u128, |m, &c| m | 1 << c);
        if many.count_ones() as usize > g.cells.len() {
            for c in cells_of(many & !known) {
                add(&mut g, c, d);
            }
        }
    }
    if g.cells.len() > 1 && g.all_extra.count_ones() > 1 && g.common == 0 {
        return None;
    }
    // A cell with three or more candidates that loses none keeps them.
    if g.cells.iter().fold(wide_all, |m, &c| m & !(1u128 << c)) != 0 {
        return None;
    }
    // What remains must be a grave: two candidates per empty cell, two places per digit and unit.
    let left = |c: usize| board.cands[c] & !g.extra[c];
    if (0..81).any(|c| board.values[c] == 0 && left(c).count_ones() != 2) {
        return None;
    }
    for unit in UNITS {
        for d in 1..=9u8 {
            let n = unit.iter().filter(|&&c| left(c) & super::bit(d) != 0).count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    Some(g)
}

fn add(g: &mut Grave, cell: usize, d: u8) {
    if !g.cells.contains(&cell) {
        g.cells.push(cell);
    }
    g.extra[cell] |= super::bit(d);
    g.all_extra |= super::bit(d);
    g.common &= PEERS[cell];
    for &c in &g.cells {
        g.common &= !(1u128 << c);
    }
}

fn step(technique: Technique, rating: u16, eliminations: Vec<(usize, u8)>, why: String, words: Words) -> Option<Step> {
    if eliminations.is_empty() {
        return None;
    }
    let text = words.make(|| format!("{}: {why}: {}", technique.name(), eliminations_name(&eliminations)));
    Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
}

/// The units holding every cell of `cells` (boxes, then rows, then columns).
fn shared_units(cells: &[usize]) -> impl Iterator<Item = usize> + '_ {
    (0..27).filter(move |&u| cells.iter().all(|&c| UNIT_CELLS[u] & 1 << c != 0))
}

fn type1(board: &Board, g: &Grave, words: Words) -> Option<Step> {
    let cell = g.cells[0];
    let eliminations: Vec<(usize, u8)> = digits(board.cands[cell] & !g.all_extra).map(|d| (cell, d)).collect();
    let why = words.make(|| {
        format!(
            "every other empty cell has two candidates, so {} holds one of {}",
            cell_name(cell),
            digits_name(g.all_extra)
        )
    });
    step(Technique::Bug, 56, eliminations, why, words)
}

fn type2(board: &Board, g: &Grave, words: Words) -> Option<Step> {
    let x = g.all_extra.trailing_zeros() as u8 + 1;
    let eliminations: Vec<(usize, u8)> = cells_of(g.common).filter(|&c| board.has(c, x)).map(|c| (c, x)).collect();
    let why = words.make(|| format!("one of {} is {x}, so no cell seeing them all is", cells_name(&g.cells)));
    step(Technique::BugType2, 57, eliminations, why, words)
}

fn type4(board: &Board, g: &Grave, words: Words) -> Option<Step> {
    let (c1, c2) = (g.cells[0], g.cells[1]);
    let common = board.cands[c1] & board.cands[c2] & !g.all_extra;
    if common.count_ones() != 1 {
        return None;
    }
    let unit = shared_units(&g.cells).next()?;
    let v = common.trailing_zeros() as u8 + 1;
    let mut eliminations = Vec::new();
    for c in [c1, c2] {
        eliminations.extend(digits(board.cands[c] & !g.extra[c] & !common).map(|d| (c, d)));
    }
    let why = words.make(|| {
        format!(
            "one of {} holds its extra digit and the other {v}, the only places of {v} in {}",
            cells_name(&g.cells),
            unit_name(unit)
        )
    });
    step(Technique::BugType4, 57, eliminations, why, words)
}

fn type3(board: &Board, g: &Grave, words: Words) -> Option<Step> {
    for degree in 2..=6usize {
        for unit in shared_units(&g.cells) {
            let others: Vec<usize> = cells_of(g.common & UNIT_CELLS[unit]).collect();
            if others.len() < degree {
                continue;
            }
            let found = super::subsets(others.len(), degree - 1, |pick| {
                let union = pick.iter().fold(0u16, |m, &i| m | board.cands[others[i]]);
                let set = union | g.all_extra;
                let wide = pick.iter().all(|&i| board.cands[others[i]].count_ones() >= 2);
                if !wide || union.count_ones() as usize != degree || set.count_ones() as usize != degree {
                    return None;
                }
                let naked: Vec<usize> = pick.iter().map(|&i| others[i]).collect();
                let eliminations: Vec<(usize, u8)> = others
                    .iter()
                    .filter(|c| !naked.contains(c))
                    .flat_map(|&c| digits(board.cands[c] & set).map(move |d| (c, d)))
                    .collect();
                let why = words.make(|| {
                    format!(
                        "one of {} holds one of {}, a naked set {} with {} in {}",
                        cells_name(&g.cells),
                        digits_name(g.all_extra),
                        digits_name(set),
                        cells_name(&naked),
                        unit_name(unit)
                    )
                });
                step(Technique::BugType3, 56 + degree as u16, eliminations, why, words)
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

/// A BUG of type 1 to 4 (type 1 here when its cell keeps several candidates; see [`super::bug`]).
pub fn bug_types(board: &Board, t: &Tables, words: Words) -> Option<Step> {
    let g = grave(board, t)?;
    if g.cells.is_empty() {
        return None;
    }
    if g.cells.len() == 1 {
        return type1(board, &g, words);
    }
    if g.all_extra.count_ones() == 1 {
        return type2(board, &g, words).or_else(|| if g.cells.len() == 2 { type4(board, &g, words) } else { None });
    }
    if g.common == 0 {
        return None;
    }
    if g.cells.len() == 2 {
        if let Some(found) = type4(board, &g, words) {
            return Some(found);
        }
    }
    type3(board, &g, words)
}
