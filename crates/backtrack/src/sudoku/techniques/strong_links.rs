//! Strong links joined by weak ones (X-chains of one digit), and the empty
//! rectangle.
//!
//! A strong link is a unit where a digit d has exactly two places: one of
//! them holds it. Links (a1, a2), (b1, b2), ... where a2 sees b1, b2 sees
//! c1, and so on, force d into the first cell or the last one, so d leaves
//! every cell that sees both ends. Ratings follow Sudoku Explainer: two
//! links 4.0, plus 0.1 for a row and a column, 0.2 when one is a box;
//! three links 5.4, plus 0.1 when one is a box, 0.2 when they mix rows and
//! columns without a box. Two parallel
//! lines make a Skyscraper, a row and a column a 2-String Kite, a box and
//! a line a Turbot Fish.
//!
//! Empty rectangle (4.3): in a box, d lies only on one row r and one
//! column c. A strong link of d in a column x outside the box, from (r, x)
//! to (p, x) with p outside the box's rows, means (p, c) cannot be d: if it
//! were, (p, x) would not be, so (r, x) would be, and the box would have no
//! place left for d. The same holds with rows and columns swapped.

use super::{
    cell_name, cells_name, cells_of, col, eliminations_name, pair, row, several, unit_name, Board, Keep, Step, Tables,
    Technique, Words, PEERS, UNITS, UNIT_CELLS,
};
use super::{on_changed_digits, OneDigit, Rater, ALL};
use crate::sudoku::score::Score;

fn kind(unit: usize) -> usize {
    unit / 9
}

/// Rating of a chain whose links lie in `units` (base: the two-link or three-link rating).
fn rating_of(units: &[usize], base: u16) -> u16 {
    let has = |k: usize| units.iter().any(|&u| kind(u) == k);
    let (boxes, rows, cols) = (has(0), has(1), has(2));
    if units.len() == 2 {
        // Skyscraper, 2-String Kite, Turbot Fish.
        return base + if boxes { 2 } else { (rows && cols) as u16 };
    }
    // Three links: any box 0.1, rows and columns without a box 0.2.
    base + if boxes {
        1
    } else if rows && cols {
        2
    } else {
        0
    }
}

/// The lowest rating a chain starting with links in `units` can reach.
fn rating_floor(units: &[usize], links: usize, base: u16) -> u16 {
    if units.len() == links {
        return rating_of(units, base);
    }
    let has = |k: usize| units.iter().any(|&u| kind(u) == k);
    if links == 3 && (has(0) || (has(1) && has(2))) {
        base + 1
    } else {
        base
    }
}

fn technique_of(units: &[usize]) -> Technique {
    if units.len() == 3 {
        return Technique::ThreeStrongLinks;
    }
    match (kind(units[0]), kind(units[1])) {
        (x, y) if x == y && x > 0 => Technique::Skyscraper,
        (x, y) if x > 0 && y > 0 => Technique::TwoStringKite,
        _ => Technique::TurbotFish,
    }
}

/// The easiest chain of exactly `links` (2 or 3) strong links.
pub fn chain(board: &Board, links: usize) -> Option<Step> {
    chain_where(&Tables::new(board), links, Words::Write, &mut |_| true)
}

/// A link: its unit and its two cells, in the order the chain runs through them.
type Link = (usize, usize, usize);

/// [`chain`] on the board's [`Tables`], looking only at the digits whose
/// places changed since it last found nothing with `rater`.
pub fn chain_in(rater: &mut Rater, t: &Tables, links: usize, words: Words) -> Option<Step> {
    let finder = if links == 2 { OneDigit::Chain2 } else { OneDigit::Chain3 };
    on_changed_digits(rater, finder, t, |digits| chain_among(t, links, digits, words, &mut |_| true))
}

/// [`chain_in`], skipping the steps `keep` refuses.
pub fn chain_where(t: &Tables, links: usize, words: Words, keep: Keep) -> Option<Step> {
    chain_among(t, links, ALL, words, keep)
}

/// [`chain_where`] for the digits of the mask `digits`.
fn chain_among(t: &Tables, links: usize, digits: u16, words: Words, keep: Keep) -> Option<Step> {
    let base = if links == 2 { 40 } else { 54 };
    let mut best: Option<Step> = None;
    for d in super::digits(digits) {
        let mut all = [(0, 0, 0); 27];
        let mut n = 0;
        for u in 0..27 {
            let cells = t.unit_cells(u, d);
            if pair(cells) {
                let (a, b) = pair_of(cells);
                // In three-link chains, two places of a box on one line count as that line's link.
                if links == 3 && u < 9 && (row(a) == row(b) || col(a) == col(b)) {
                    continue;
                }
                all[n] = (u, a, b);
                n += 1;
            }
        }
        // Each link twice, once each way: bit `2 i` runs link `i` from its
        // first cell, bit `2 i + 1` from its second. `starts[c]`: the ways
        // starting at cell `c`; `touching[c]`: the ways using `c`.
        let mut starts = [0u64; 81];
        let mut touching = [0u64; 81];
        let mut ends = 0u128;
        for (i, &(_, x, y)) in all[..n].iter().enumerate() {
            starts[x] |= 1 << (2 * i);
            starts[y] |= 1 << (2 * i + 1);
            touching[x] |= 3 << (2 * i);
            touching[y] |= 3 << (2 * i);
            ends |= 1 << x | 1 << y;
        }
        let mut search = Search {
            t,
            d,
            all: &all[..n],
            starts: &starts,
            touching: &touching,
            ends,
            links,
            base,
            path: [(0, 0, 0); 3],
            len: 0,
            best: &mut best,
            words,
            keep: &mut *keep,
        };
        search.extend();
        // No chain rates below the base: the first one there is final.
        if best.as_ref().is_some_and(|b| b.rating.tenths() == base) {
            break;
        }
    }
    best
}

/// The depth-first search for chains of one digit.
struct Search<'a> {
    t: &'a Tables,
    d: u8,
    all: &'a [Link],
    starts: &'a [u64; 81],
    touching: &'a [u64; 81],
    /// The cells of the links.
    ends: u128,
    links: usize,
    base: u16,
    path: [Link; 3],
    len: usize,
    best: &'a mut Option<Step>,
    words: Words,
    keep: Keep<'a>,
}

impl Search<'_> {
    fn units(&self) -> ([usize; 3], usize) {
        let mut units = [0; 3];
        for (u, l) in units.iter_mut().zip(&self.path[..self.len]) {
            *u = l.0;
        }
        (units, self.len)
    }

    fn extend(&mut self) {
        let (units, n) = self.units();
        if n > 0
            && self.best.as_ref().is_some_and(|b| b.rating.tenths() <= rating_floor(&units[..n], self.links, self.base))
        {
            return;
        }
        if self.len == self.links {
            self.finish();
            return;
        }
        // The ways that use no cell of the path and start where the path's last link ends.
        let ways = if self.len == 0 {
            (1u64 << (2 * self.all.len())) - 1
        } else {
            let last = self.path[self.len - 1].2;
            let joined = cells_of(PEERS[last] & self.ends).fold(0, |m, c| m | self.starts[c]);
            let used = self.path[..self.len].iter().fold(0, |m, l| m | self.touching[l.1] | self.touching[l.2]);
            joined & !used
        };
        let mut ways = ways;
        while ways != 0 {
            let way = ways.trailing_zeros() as usize;
            ways &= ways - 1;
            let (u, x, y) = self.all[way / 2];
            self.path[self.len] = if way.is_multiple_of(2) { (u, x, y) } else { (u, y, x) };
            self.len += 1;
            self.extend();
            self.len -= 1;
        }
    }

    fn finish(&mut self) {
        let (d, links) = (self.d, self.links);
        let path = &self.path[..links];
        let (units, _) = self.units();
        let units = &units[..links];
        let rating = rating_of(units, self.base);
        let (first, last) = (path[0].1, path[links - 1].2);
        let used = path.iter().fold(0u128, |m, l| m | 1 << l.1 | 1 << l.2);
        let targets = PEERS[first] & PEERS[last] & self.t.cells[d as usize - 1] & !used;
        if targets == 0 {
            return;
        }
        let eliminations: Vec<(usize, u8)> = cells_of(targets).map(|c| (c, d)).collect();
        let technique = technique_of(units);
        let described: Vec<String> =
            path.iter().map(|l| format!("{}={} ({})", cell_name(l.1), cell_name(l.2), unit_name(l.0))).collect();
        let text = self.words.make(|| {
            format!(
                "{}: {d} has two places in each of {}; linked end to end, they put {d} in {} or {}: {}",
                technique.name(),
                described.join(", "),
                cell_name(first),
                cell_name(last),
                eliminations_name(&eliminations)
            )
        });
        let step = Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text };
        if (self.keep)(&step) {
            *self.best = Some(step);
        }
    }
}

/// An empty rectangle with a strong link in a line (4.3).
pub fn empty_rectangle(board: &Board) -> Option<Step> {
    empty_rectangle_where(&Tables::new(board), Words::Write, &mut |_| true)
}

/// The two cells of a two-cell set, increasing.
fn pair_of(set: u128) -> (usize, usize) {
    (set.trailing_zeros() as usize, 127 - set.leading_zeros() as usize)
}

/// [`empty_rectangle`] on the board's [`Tables`], looking only at the
/// digits whose places changed since it last found nothing with `rater`.
pub fn empty_rectangle_in(rater: &mut Rater, t: &Tables, words: Words) -> Option<Step> {
    on_changed_digits(rater, OneDigit::EmptyRectangle, t, |digits| {
        empty_rectangle_among(t, digits, words, &mut |_| true)
    })
}

/// [`empty_rectangle_in`], skipping the steps `keep` refuses.
pub fn empty_rectangle_where(t: &Tables, words: Words, keep: Keep) -> Option<Step> {
    empty_rectangle_among(t, ALL, words, keep)
}

/// [`empty_rectangle_where`] for the digits of the mask `digits`.
fn empty_rectangle_among(t: &Tables, digits: u16, words: Words, keep: Keep) -> Option<Step> {
    for d in super::digits(digits) {
        let has = |cell: usize| t.cells[d as usize - 1] & 1 << cell != 0;
        for bx in 0..9 {
            let cells = t.unit_cells(bx, d);
            if !several(cells) {
                continue;
            }
            let (band, stack) = (bx / 3, bx % 3);
            for r in band * 3..band * 3 + 3 {
                for c in stack * 3..stack * 3 + 3 {
                    let (on_row, on_col) = (UNIT_CELLS[9 + r], UNIT_CELLS[18 + c]);
                    if cells & !(on_row | on_col) != 0 {
                        continue;
                    }
                    // Not all on one line: that is a pointing.
                    if cells & !on_row == 0 || cells & !on_col == 0 {
                        continue;
                    }
                    // A strong link in a column x (outside the stack) from (r, x) to (p, x).
                    for x in (0..9).filter(|x| x / 3 != stack) {
                        let link = t.unit_cells(18 + x, d);
                        if !pair(link) {
                            continue;
                        }
                        let (l0, l1) = pair_of(link);
                        for (near, far) in [(l0, l1), (l1, l0)] {
                            let target = row(far) * 9 + c;
                            if row(near) == r && row(far) / 3 != band && has(target) {
                                let step = er_step(bx, d, cells, 18 + x, (near, far), target, words);
                                if keep(&step) {
                                    return Some(step);
                                }
                            }
                        }
                    }
                    // A strong link in a row y (outside the band) from (y, c) to (y, q).
                    for y in (0..9).filter(|y| y / 3 != band) {
                        let link = t.unit_cells(9 + y, d);
                        if !pair(link) {
                            continue;
                        }
                        let (l0, l1) = pair_of(link);
                        for (near, far) in [(l0, l1), (l1, l0)] {
                            let target = r * 9 + col(far);
                            if col(near) == c && col(far) / 3 != stack && has(target) {
                                let step = er_step(bx, d, cells, 9 + y, (near, far), target, words);
                                if keep(&step) {
                                    return Some(step);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

/// The step of an empty rectangle: `link` is the strong link (its cell
/// nearer the box first), `target` the cell it removes `d` from.
fn er_step(bx: usize, d: u8, cells: u128, line: usize, link: (usize, usize), target: usize, words: Words) -> Step {
    let (near, far) = link;
    let eliminations = vec![(target, d)];
    debug_assert!(UNITS[bx].iter().all(|&c| c != target));
    let text = words.make(|| {
        format!(
        "Empty rectangle: in {}, {d} lies only on one row and one column ({}); with {d} in {} or {} ({}), {} cannot be {d}: {}",
        unit_name(bx),
        cells_name(&cells_of(cells).collect::<Vec<_>>()),
        cell_name(near),
        cell_name(far),
        unit_name(line),
        cell_name(target),
        eliminations_name(&eliminations)
    )
    });
    Step {
        technique: Technique::EmptyRectangle,
        rating: Score::from_tenths(43),
        placements: vec![],
        eliminations,
        text,
    }
}
