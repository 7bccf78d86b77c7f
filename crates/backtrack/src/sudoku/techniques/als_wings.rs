//! WXYZ-Wing (5.5-5.6) and VWXYZ-Wing (6.2-6.4): an almost locked set
//! and a two-candidate cell.
//!
//! An *almost locked set* (ALS) here is `n` empty cells of one unit (so
//! every two of them see each other) whose candidates together are exactly
//! `n + 1` digits: `n = 3` for the WXYZ-Wing, `n = 4` for the VWXYZ-Wing.
//! Since `n` cells of one unit hold `n` different digits, exactly one digit
//! of the `n + 1` is missing from the set.
//!
//! The other part is a *pincer*: a cell outside the set with exactly two
//! candidates `x` and `z`, both among the set's digits. The digit `x` is
//! *restricted* when every cell of the set that has `x` sees the pincer:
//! then the pincer and the set cannot both hold `x`.
//!
//! - **Singly linked** (only `x` restricted). If the pincer is `x`, the set
//!   loses `x`, so it holds all its other digits, `z` among them. If the
//!   pincer is not `x`, it is `z`. Either way `z` is in the pincer or in a
//!   cell of the set that has `z`: `z` leaves every other cell that sees the
//!   pincer and all those cells.
//! - **Doubly linked** (`x` and `z` both restricted). Pincer and set share
//!   neither digit, so the set holds exactly its digits other than the
//!   pincer's one: `x` and `z` each leave the cells that see the pincer and
//!   every cell of the set having that digit, and each other digit `w` of
//!   the set (locked in it now) leaves the cells that see every cell of the
//!   set having `w`.
//!
//! Ratings follow Sudoku Explainer, from the largest candidate count `b`
//! among the set's cells: the WXYZ-Wing is 5.5 plus 0.1 when `b` is 3; the
//! VWXYZ-Wing is 6.2 plus 0.1 for `b` of 2 or 4 and 0.2 for `b` of 3.
//! Among all wings of one size, the lowest rating is used first, then the
//! one removing the most candidates, then (as Sudoku Explainer breaks ties)
//! the larger label "link count, `b`, sum of the set's candidate counts",
//! compared as text.

use std::cmp::Reverse;

use super::{
    cell_name, cells_name, cells_of, count9, digits, digits_name, eliminations_name, unit_name, Board, Step, Technique,
    Words, PEERS, UNITS, UNIT_CELLS,
};
use crate::sudoku::score::Score;

/// One wing found, with what Sudoku Explainer sorts wings by.
struct Found {
    rating: u16,
    /// The label as text, padded with zero bytes (which sort before any
    /// digit, so the padded labels sort as the texts do).
    label: [u8; 4],
    als: [usize; 4],
    union: u16,
    pincer: usize,
    restricted: u16,
    eliminations: Vec<(usize, u8)>,
}

impl Found {
    /// Sudoku Explainer's order: rating, more removals, larger label; then
    /// as generated (set, then pincer).
    fn key(&self) -> (u16, Reverse<usize>, Reverse<[u8; 4]>, [usize; 4], usize) {
        (self.rating, Reverse(self.eliminations.len()), Reverse(self.label), self.als, self.pincer)
    }
}

/// Sudoku Explainer's label of a wing, "link count, `b`, sum of the set's
/// candidate counts", as text padded with zero bytes.
fn label(links: u8, biggest: u16, size: u32) -> [u8; 4] {
    let mut label = [b'0' + links, b'0' + biggest as u8, 0, 0];
    if size >= 10 {
        label[2..].copy_from_slice(&[b'0' + (size / 10) as u8, b'0' + (size % 10) as u8]);
    } else {
        label[2] = b'0' + size as u8;
    }
    label
}

/// The cells with candidate `d` seeing every cell of `seers`, outside `exclude`.
fn seen_by(board: &Board, seers: u128, exclude: u128, d: u8, out: &mut Vec<(usize, u8)>) {
    let mut victims = super::cellsets::GRID & !exclude;
    for c in cells_of(seers) {
        victims &= PEERS[c];
    }
    out.extend(cells_of(victims).filter(|&c| board.has(c, d)).map(|c| (c, d)));
}

/// Examines the set `als` (cells, candidate union) with every pincer (a
/// cell of `bivalue`, the cells with two candidates), keeping the best
/// wing in `best`.
fn examine(board: &Board, bivalue: u128, als: &[usize], union: u16, base: u16, best: &mut Option<Found>) {
    let set = als.iter().fold(0u128, |m, &c| m | 1u128 << c);
    let reach = als.iter().fold(0u128, |m, &c| m | PEERS[c]) & !set;
    let biggest = als.iter().map(|&c| count9(board.cands[c])).max().unwrap_or(0) as u16;
    let size: u32 = als.iter().map(|&c| count9(board.cands[c])).sum();
    let n = als.len() as u16;
    // 5.5 + (1 - |3 - b|) / 10 for three cells, 6.2 + (2 - |3 - b|) / 10 for four.
    let rating = base + (n - 2) - biggest.abs_diff(3);
    if best.as_ref().is_some_and(|b| b.rating < rating) {
        return;
    }
    // The cells of the set holding each digit.
    let mut holders = [0u128; 9];
    for &c in als {
        for d in digits(board.cands[c]) {
            holders[d as usize - 1] |= 1u128 << c;
        }
    }
    let mut cells = [0usize; 4];
    cells[..als.len()].copy_from_slice(als);
    let mut eliminations = Vec::new();
    for pincer in cells_of(reach & bivalue) {
        let pc = board.cands[pincer];
        if pc & !union != 0 {
            continue;
        }
        let restricted: u16 =
            digits(pc).filter(|&d| holders[d as usize - 1] & !PEERS[pincer] == 0).fold(0, |m, d| m | super::bit(d));
        if restricted == 0 {
            continue;
        }
        let exclude = set | 1u128 << pincer;
        eliminations.clear();
        let (mut strong, mut weak) = ([false; 2], false);
        for (i, d) in digits(pc).enumerate() {
            // The pincer's unrestricted digit, or both when doubly linked.
            if restricted == pc || restricted & super::bit(d) == 0 {
                let before = eliminations.len();
                let seers = holders[d as usize - 1] | 1u128 << pincer;
                seen_by(board, seers, exclude, d, &mut eliminations);
                strong[i] = eliminations.len() > before;
            }
        }
        if restricted == pc {
            for w in digits(union & !pc) {
                let before = eliminations.len();
                seen_by(board, holders[w as usize - 1], exclude, w, &mut eliminations);
                weak |= eliminations.len() > before;
            }
        }
        if eliminations.is_empty() {
            continue;
        }
        let double = restricted == pc && (weak || (strong[0] && strong[1]));
        let mut wing = Found {
            rating,
            label: label(if double { 2 } else { 1 }, biggest, size),
            als: cells,
            union,
            pincer,
            restricted,
            eliminations: Vec::new(),
        };
        let key = (rating, Reverse(eliminations.len()), Reverse(wing.label), cells, pincer);
        if best.as_ref().is_none_or(|b| key < b.key()) {
            eliminations.sort_unstable();
            wing.eliminations = eliminations.clone();
            *best = Some(wing);
        }
    }
}

/// Every set of `n` cells of one unit holding `n + 1` digits, each once
/// (cells increasing), passed to `visit` with its union of candidates.
fn each_als(board: &Board, n: usize, mut visit: impl FnMut(&[usize], u16)) {
    for (unit, unit_cells) in UNITS.iter().enumerate() {
        let mut open = [0usize; 9];
        let mut len = 0;
        for &c in unit_cells {
            if board.values[c] == 0 && (2..=n as u32 + 1).contains(&count9(board.cands[c])) {
                open[len] = c;
                len += 1;
            }
        }
        let mut cells = [0usize; 4];
        grow(board, unit, &open[..len], n, &mut cells, 0, 0, &mut visit);
    }
}

/// Adds cells of `open` to the `k` cells chosen so far (candidates
/// `union`), while the union has at most `n + 1` digits, up to `n` cells.
#[allow(clippy::too_many_arguments)]
fn grow(
    board: &Board,
    unit: usize,
    open: &[usize],
    n: usize,
    cells: &mut [usize; 4],
    k: usize,
    union: u16,
    visit: &mut impl FnMut(&[usize], u16),
) {
    if k == n {
        if count9(union) as usize != n + 1 {
            return;
        }
        let mut set = *cells;
        let set = &mut set[..n];
        set.sort_unstable();
        // Count each set once: in the first unit holding all its cells.
        let mask = set.iter().fold(0u128, |m, &c| m | 1u128 << c);
        if !UNIT_CELLS[..unit].iter().any(|&u| mask & !u == 0) {
            visit(set, union);
        }
        return;
    }
    // Room for the `n - k` cells still to choose: none when `open` has fewer.
    for (i, &c) in open.iter().enumerate().take((open.len() + k + 1).saturating_sub(n)) {
        let union = union | board.cands[c];
        if count9(union) as usize <= n + 1 {
            cells[k] = c;
            grow(board, unit, &open[i + 1..], n, cells, k + 1, union, visit);
        }
    }
}

/// A WXYZ-Wing (`n` = 3) or VWXYZ-Wing (`n` = 4), the one Sudoku Explainer
/// applies first.
pub fn wing(board: &Board, n: usize, words: Words) -> Option<Step> {
    let (technique, base) = if n == 3 { (Technique::WXYZWing, 55) } else { (Technique::VWXYZWing, 62) };
    let bivalue = (0..81).filter(|&c| count9(board.cands[c]) == 2).fold(0u128, |m, c| m | 1u128 << c);
    let mut best = None;
    each_als(board, n, |als, union| examine(board, bivalue, als, union, base, &mut best));
    let f = best?;
    let als = &f.als[..n];
    let pc = board.cands[f.pincer];
    let text = words.make(|| {
        let unit = (0..27).find(|&u| als.iter().all(|c| UNITS[u].contains(c))).unwrap_or(0);
        let pincer = cell_name(f.pincer);
        let why = if f.restricted == pc {
            let (x, z) = (pc.trailing_zeros() as u8 + 1, 16 - pc.leading_zeros() as u8);
            format!(
                "every {x} and every {z} of the set sees {pincer}, so the set holds exactly its digits other than the one in {pincer}: \
                 {x} and {z} leave the cells that see {pincer} and all their places in the set, \
                 and each other digit leaves the cells that see all its places in the set"
            )
        } else {
            let x = f.restricted.trailing_zeros() as u8 + 1;
            let z = (pc & !f.restricted).trailing_zeros() as u8 + 1;
            format!(
                "every {x} of the set sees {pincer}, so if {pincer} is {x} the set holds {z}, and otherwise {pincer} is {z}: \
                 {z} leaves the cells that see {pincer} and every {z} of the set"
            )
        };
        format!(
            "{}: {} in {} hold only {} (one digit more than cells) and {} holds {}; {why}: {}",
            technique.name(),
            cells_name(als),
            unit_name(unit),
            digits_name(f.union),
            cell_name(f.pincer),
            digits_name(pc),
            eliminations_name(&f.eliminations)
        )
    });
    Some(Step {
        technique,
        rating: Score::from_tenths(f.rating),
        placements: vec![],
        eliminations: f.eliminations,
        text,
    })
}
