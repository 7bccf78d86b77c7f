//! Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5).
//!
//! Two (three) *base* cells are tried together when they share at least
//! two *excluders*: peers with two candidates (two or three, for
//! triplets). Every way of giving the base cells one candidate each is
//! checked: it is impossible when two base cells that see each other get
//! the same digit, or when it takes every candidate of a common excluder
//! (that excluder would be left empty). A candidate of a base cell that no
//! possible way uses is removed.
//!
//! Which sets are tried, and in which order, is Sudoku Explainer's: a cell
//! can be a base cell when it has two candidates or more, no peer with a
//! single candidate, and at least one excluder. Among those, in cell order,
//! the first two base cells are taken in pairs (the second increasing, then
//! the first); a triplet's third cell is a base cell that is an excluder of
//! the first cell, or else of the second, in cell order. The first set that
//! removes something is the step. Sudoku Explainer tries pairs right after
//! the VWXYZ-wings, and triplets after the cycles and forcing chains, just
//! before the Nishio forcing chains.

use super::cellsets::{cells_of, GRID, PEERS};
use super::{cells_name, digits, eliminations_name, sees, Board, Keep, Rater, Step, Technique, Words};
use crate::sudoku::score::Score;

/// What a search of one size found nothing in: the candidates it looked
/// at and the sets it tried, as [`key`]s (in increasing order).
#[derive(Default)]
struct Barren {
    cands: Option<[u16; 81]>,
    tried: Vec<u32>,
}

/// What the aligned exclusions remember: one [`Barren`] per size (pairs,
/// triplets).
#[derive(Default)]
pub(crate) struct Memory {
    barren: [Barren; 2],
}

/// A number for the set of base cells `cells` that grows in the order
/// sets are tried: by second cell, then first cell, then third cell among
/// the excluders of the first, then of the second (`second`).
fn key(cells: &[usize], second: bool) -> u32 {
    let pair = (cells[1] * 81 + cells[0]) as u32;
    match cells.get(2) {
        None => pair,
        Some(&c) => pair * 162 + u32::from(second) * 81 + c as u32,
    }
}

/// The sets of base cells tried in one search, and what is known of them
/// from the last search that found nothing.
struct Search {
    then: Barren,
    /// Cells whose candidates are not those of `then` (all, when unknown).
    changed: u128,
    now: Vec<u32>,
    /// How many of `then.tried` come before the set being tried.
    cursor: usize,
    /// Whether some set removed something (the search is not barren).
    fertile: bool,
    /// Whether the steps carry their text.
    words: Words,
}

impl Search {
    fn new(memory: &mut Memory, board: &Board, size: usize, words: Words) -> Search {
        let then = std::mem::take(&mut memory.barren[size - 2]);
        let changed = match &then.cands {
            Some(cands) => (0..81).filter(|&c| cands[c] != board.cands[c]).fold(0u128, |m, c| m | 1 << c),
            None => GRID,
        };
        let now = Vec::with_capacity(then.tried.len());
        Search { then, changed, now, cursor: 0, fertile: false, words }
    }

    /// [`try_set`], or `None` without looking when the same set found
    /// nothing last time and none of the cells it depends on changed: the
    /// base cells and the cells all of them see (where their common
    /// excluders are).
    /// Sets must come in the order of their keys.
    fn try_set(&mut self, board: &Board, cells: &[usize], common: u128, second: bool) -> Option<Step> {
        let k = key(cells, second);
        let tried = &self.then.tried;
        while tried.get(self.cursor).is_some_and(|&t| t < k) {
            self.cursor += 1;
        }
        let near = cells.iter().fold(GRID, |m, &c| m & PEERS[c]);
        let depends = cells.iter().fold(near, |m, &c| m | 1 << c);
        let step = if tried.get(self.cursor) == Some(&k) && depends & self.changed == 0 {
            None
        } else {
            try_set(board, cells, common, self.words)
        };
        match step {
            None => self.now.push(k),
            Some(_) => self.fertile = true,
        }
        step
    }

    /// Keeps what this search tried, for the next, when it found nothing.
    fn keep(self, memory: &mut Memory, board: &Board, size: usize) {
        let Search { mut then, now, fertile, .. } = self;
        if !fertile {
            then = Barren { cands: Some(board.cands), tried: now };
        }
        memory.barren[size - 2] = then;
    }
}

/// The first aligned exclusion of `size` cells (2 or 3) on `board`, if
/// any, skipping the sets of cells that found nothing with `rater` when
/// none of the cells they depend on changed since.
pub fn exclusion(rater: &mut Rater, board: &Board, size: usize, words: Words) -> Option<Step> {
    exclusion_where(rater, board, size, words, &mut |_| true)
}

/// [`exclusion`], skipping the steps `keep` refuses.
pub fn exclusion_where(rater: &mut Rater, board: &Board, size: usize, words: Words, keep: Keep) -> Option<Step> {
    assert!(size == 2 || size == 3, "aligned exclusions of two or three cells");
    // Cells by number of candidates: one, and two up to `size` (excluders).
    let (mut ones, mut small) = (0u128, 0u128);
    for (cell, &c) in board.cands.iter().enumerate() {
        match c.count_ones() as usize {
            1 => ones |= 1 << cell,
            n if (2..=size).contains(&n) => small |= 1 << cell,
            _ => {}
        }
    }
    let mut bases = [0usize; 81];
    let mut n = 0;
    let mut excluders = [0u128; 81];
    // Each base cell's place among the base cells.
    let mut place = [0usize; 81];
    for cell in 0..81 {
        let set = PEERS[cell] & small;
        if board.cands[cell].count_ones() >= 2 && PEERS[cell] & ones == 0 && set != 0 {
            bases[n] = cell;
            place[cell] = n;
            n += 1;
            excluders[cell] = set;
        }
    }
    let bases = &bases[..n];
    let based = bases.iter().fold(0u128, |m, &c| m | 1 << c);
    let mut memory = Search::new(&mut rater.aligned, board, size, words);
    let found = search(board, size, keep, bases, &excluders, &place, based, &mut memory);
    memory.keep(&mut rater.aligned, board, size);
    found
}

/// The search of [`exclusion_where`] over the base cells `bases`.
#[allow(clippy::too_many_arguments)]
fn search(
    board: &Board,
    size: usize,
    keep: Keep,
    bases: &[usize],
    excluders: &[u128; 81],
    place: &[usize; 81],
    based: u128,
    memory: &mut Search,
) -> Option<Step> {
    let n = bases.len();
    for j in 1..n {
        for i in 0..j {
            let (a, b) = (bases[i], bases[j]);
            let common = excluders[a] & excluders[b];
            if common.count_ones() < 2 {
                continue;
            }
            if size == 2 {
                if let Some(step) = memory.try_set(board, &[a, b], common, false).filter(|s| keep(s)) {
                    return Some(step);
                }
                continue;
            }
            let pair = (1u128 << a) | (1u128 << b);
            // With two common excluders, only a cell seeing both keeps them.
            let near = if common.count_ones() == 2 {
                let low = common.trailing_zeros() as usize;
                let high = 127 - common.leading_zeros() as usize;
                PEERS[low] & PEERS[high]
            } else {
                GRID
            };
            let first = excluders[a] & based & !pair & near;
            let second = excluders[b] & based & !pair & !first & near;
            for (c, in_second) in cells_of(first).map(|c| (c, false)).chain(cells_of(second).map(|c| (c, true))) {
                let common = common & excluders[c];
                if common.count_ones() < 2 {
                    continue;
                }
                // The same three cells came earlier (nothing to remove) with
                // `c` among the first two when `c` is before `b` and `b` is
                // an excluder of `a` or `c`.
                if place[c] < j && (excluders[a] | excluders[c]) >> b & 1 != 0 {
                    continue;
                }
                if let Some(step) = memory.try_set(board, &[a, b, c], common, in_second).filter(|s| keep(s)) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The step of base cells `cells` (two or three) with common excluders
/// `common`, if it removes something.
fn try_set(board: &Board, cells: &[usize], common: u128, words: Words) -> Option<Step> {
    // Only an excluder within the cells' candidates can be emptied.
    let union = cells.iter().fold(0u16, |u, &c| u | board.cands[c]);
    let mut masks = [0u16; 20];
    let mut m = 0;
    for e in cells_of(common) {
        if board.cands[e] & !union == 0 {
            masks[m] = board.cands[e];
            m += 1;
        }
    }
    if m == 0 && !naked_pair_inside(board, cells) {
        return None;
    }
    let allowed = allowed(board, cells, &masks[..m])?;
    let mut eliminations: Vec<(usize, u8)> = Vec::new();
    for (k, &cell) in cells.iter().enumerate() {
        eliminations.extend(digits(board.cands[cell] & !allowed[k]).map(|d| (cell, d)));
    }
    eliminations.sort_unstable();
    let (technique, rating, name) = if cells.len() == 2 {
        (Technique::AlignedPairExclusion, 62, "Aligned pair exclusion")
    } else {
        (Technique::AlignedTripletExclusion, 75, "Aligned triplet exclusion")
    };
    let text = words.make(|| {
        let common: Vec<usize> = cells_of(common).collect();
        format!(
            "{name}: {} share the excluders {}; every way of filling them that leaves each excluder a candidate \
             and repeats no digit among cells that see each other avoids {}",
            cells_name(cells),
            cells_name(&common),
            eliminations_name(&eliminations)
        )
    });
    Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
}

/// Whether two of three cells that see each other hold the same two
/// candidates: the only way their repeats alone, without an excluder, can
/// rule out a digit of the third (pairs never).
fn naked_pair_inside(board: &Board, cells: &[usize]) -> bool {
    let [a, b, c] = cells else { return false };
    let same = |x: usize, y: usize| board.cands[x] == board.cands[y] && board.cands[x].count_ones() == 2;
    sees(*a, *b) && sees(*a, *c) && sees(*b, *c) && (same(*a, *b) || same(*a, *c) || same(*b, *c))
}

/// The digits each base cell takes in at least one possible way of
/// filling `cells` (see the module's comment), as masks, or `None` when
/// that is all their candidates (nothing to remove). `excluders` are the
/// common excluders' candidates.
fn allowed(board: &Board, cells: &[usize], excluders: &[u16]) -> Option<[u16; 3]> {
    let (a, b) = (cells[0], cells[1]);
    let (ca, cb) = (board.cands[a], board.cands[b]);
    let cc = cells.get(2).map_or(0, |&c| board.cands[c]);
    // Digits that may repeat between two cells: all when they do not see
    // each other, none when they do.
    let repeat = |x: usize, y: usize| if sees(x, y) { 0 } else { u16::MAX };
    let ab = repeat(a, b);
    let (ac, bc) = cells.get(2).map_or((0, 0), |&c| (repeat(a, c), repeat(b, c)));
    // An excluder of two digits is emptied by the cells taking both; for
    // each digit, the digits it makes one with. One of three digits is
    // emptied only by all three cells.
    let mut partner = [0u16; 9];
    let mut threes = [0u16; 20];
    let mut n3 = 0;
    for &e in excluders {
        if e.count_ones() == 2 {
            let (low, high) = (e & e.wrapping_neg(), e & (e - 1));
            partner[low.trailing_zeros() as usize] |= high;
            partner[high.trailing_zeros() as usize] |= low;
        } else {
            threes[n3] = e;
            n3 += 1;
        }
    }
    let threes = &threes[..n3];
    let full = [ca, cb, cc];
    let mut allowed = [0u16; 3];
    let mut rest0 = ca;
    while rest0 != 0 {
        let m0 = rest0 & rest0.wrapping_neg();
        rest0 ^= m0;
        let p0 = partner[m0.trailing_zeros() as usize];
        // The second cell's digits that empty no excluder with the first's.
        let mut rest1 = cb & (!m0 | ab) & !p0;
        while rest1 != 0 {
            let m1 = rest1 & rest1.wrapping_neg();
            rest1 ^= m1;
            let taken = m0 | m1;
            if cells.len() == 3 {
                // Digits the third cell may not take: one that would
                // complete the candidates of an excluder, or repeat a digit
                // of a cell it sees.
                let mut forbidden = (p0 | partner[m1.trailing_zeros() as usize]) & !taken;
                if m0 != m1 {
                    for &e in threes {
                        if taken & !e == 0 {
                            forbidden |= e & !taken;
                        }
                    }
                }
                let third = cc & !forbidden & (!m0 | ac) & (!m1 | bc);
                if third == 0 {
                    continue;
                }
                allowed[2] |= third;
            }
            allowed[0] |= m0;
            allowed[1] |= m1;
            if allowed == full {
                return None;
            }
        }
    }
    Some(allowed)
}
