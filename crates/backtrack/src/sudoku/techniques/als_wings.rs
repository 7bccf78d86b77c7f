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

use super::{
    cell_name, cells_name, cells_of, digits, digits_name, eliminations_name, unit_name, Board, Step, Technique, PEERS,
    UNITS,
};

/// One wing found, with what Sudoku Explainer sorts wings by.
struct Found {
    rating: u16,
    label: String,
    als: Vec<usize>,
    union: u16,
    pincer: usize,
    restricted: u16,
    eliminations: Vec<(usize, u8)>,
}

/// Cells of `board` with candidate `d`, as a bit set.
fn holders(board: &Board, cells: impl Iterator<Item = usize>, d: u8) -> u128 {
    cells.filter(|&c| board.has(c, d)).fold(0, |m, c| m | 1u128 << c)
}

/// The cells with candidate `d` seeing every cell of `seers`, outside `exclude`.
fn seen_by(board: &Board, seers: u128, exclude: u128, d: u8, out: &mut Vec<(usize, u8)>) {
    let mut victims = super::cellsets::GRID & !exclude;
    for c in cells_of(seers) {
        victims &= PEERS[c];
    }
    out.extend(cells_of(victims).filter(|&c| board.has(c, d)).map(|c| (c, d)));
}

/// Examines the set `als` (cells, candidate union) with every pincer.
fn examine(board: &Board, als: &[usize], union: u16, base: u16, found: &mut Vec<Found>) {
    let set = als.iter().fold(0u128, |m, &c| m | 1u128 << c);
    let reach = als.iter().fold(0u128, |m, &c| m | PEERS[c]) & !set;
    let biggest = als.iter().map(|&c| board.cands[c].count_ones()).max().unwrap_or(0) as u16;
    let size: u32 = als.iter().map(|&c| board.cands[c].count_ones()).sum();
    let n = als.len() as u16;
    // 5.5 + (1 - |3 - b|) / 10 for three cells, 6.2 + (2 - |3 - b|) / 10 for four.
    let rating = base + (n - 2) - biggest.abs_diff(3);
    for pincer in cells_of(reach) {
        let pc = board.cands[pincer];
        if pc.count_ones() != 2 || pc & !union != 0 {
            continue;
        }
        let restricted_digit =
            |d: u8| cells_of(holders(board, als.iter().copied(), d)).all(|c| PEERS[pincer] >> c & 1 == 1);
        let restricted: u16 = digits(pc).filter(|&d| restricted_digit(d)).fold(0, |m, d| m | super::bit(d));
        if restricted == 0 {
            continue;
        }
        let exclude = set | 1u128 << pincer;
        let mut eliminations = Vec::new();
        let (mut strong, mut weak) = ([false; 2], false);
        for (i, d) in digits(pc).enumerate() {
            // The pincer's unrestricted digit, or both when doubly linked.
            if restricted == pc || restricted & super::bit(d) == 0 {
                let before = eliminations.len();
                let seers = holders(board, als.iter().copied(), d) | 1u128 << pincer;
                seen_by(board, seers, exclude, d, &mut eliminations);
                strong[i] = eliminations.len() > before;
            }
        }
        if restricted == pc {
            for w in digits(union & !pc) {
                let before = eliminations.len();
                seen_by(board, holders(board, als.iter().copied(), w), exclude, w, &mut eliminations);
                weak |= eliminations.len() > before;
            }
        }
        if eliminations.is_empty() {
            continue;
        }
        eliminations.sort_unstable();
        let double = restricted == pc && (weak || (strong[0] && strong[1]));
        found.push(Found {
            rating,
            label: format!("{}{biggest}{size}", if double { 2 } else { 1 }),
            als: als.to_vec(),
            union,
            pincer,
            restricted,
            eliminations,
        });
    }
}

/// Every set of `n` cells of one unit holding `n + 1` digits, each once
/// (cells increasing), passed to `visit` with its union of candidates.
fn each_als(board: &Board, n: usize, mut visit: impl FnMut(&[usize], u16)) {
    let mut cells = [0usize; 4];
    for (unit, unit_cells) in UNITS.iter().enumerate() {
        let open: Vec<usize> = unit_cells
            .iter()
            .copied()
            .filter(|&c| board.values[c] == 0 && (2..=n as u32 + 1).contains(&board.cands[c].count_ones()))
            .collect();
        super::subsets::<()>(open.len(), n, |idx| {
            let union = idx.iter().fold(0u16, |m, &i| m | board.cands[open[i]]);
            if union.count_ones() as usize != n + 1 {
                return None;
            }
            for (k, &i) in idx.iter().enumerate() {
                cells[k] = open[i];
            }
            let set = &mut cells[..n];
            set.sort_unstable();
            // Count each set once: in the first unit holding all its cells.
            let first = (0..unit).any(|u| set.iter().all(|c| UNITS[u].contains(c)));
            if !first {
                visit(set, union);
            }
            None
        });
    }
}

/// A WXYZ-Wing (`n` = 3) or VWXYZ-Wing (`n` = 4), the one Sudoku Explainer
/// applies first.
pub fn wing(board: &Board, n: usize) -> Option<Step> {
    let (technique, base) = if n == 3 { (Technique::WXYZWing, 55) } else { (Technique::VWXYZWing, 62) };
    let mut found = Vec::new();
    each_als(board, n, |als, union| examine(board, als, union, base, &mut found));
    // Sudoku Explainer's order: rating, more removals, larger label; then as generated.
    found.sort_by_key(|f| (f.als.clone(), f.pincer));
    found.sort_by(|a, b| {
        a.rating.cmp(&b.rating).then(b.eliminations.len().cmp(&a.eliminations.len())).then(b.label.cmp(&a.label))
    });
    let f = found.into_iter().next()?;
    let pc = board.cands[f.pincer];
    let unit = (0..27).find(|&u| f.als.iter().all(|c| UNITS[u].contains(c))).unwrap_or(0);
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
    let text = format!(
        "{}: {} in {} hold only {} (one digit more than cells) and {} holds {}; {why}: {}",
        technique.name(),
        cells_name(&f.als),
        unit_name(unit),
        digits_name(f.union),
        cell_name(f.pincer),
        digits_name(pc),
        eliminations_name(&f.eliminations)
    );
    Some(Step { technique, rating: f.rating, placements: vec![], eliminations: f.eliminations, text })
}
