//! Strong links joined by weak ones (X-chains of one digit), and the empty
//! rectangle.
//!
//! A strong link is a unit where a digit d has exactly two places: one of
//! them holds it. Links (a1, a2), (b1, b2), ... where a2 sees b1, b2 sees
//! c1, and so on, force d into the first cell or the last one, so d leaves
//! every cell that sees both ends. Ratings follow Sudoku Explainer: two
//! links 4.0, three 5.4; plus 0.1 when the links mix a box with lines or
//! rows with columns, 0.2 when they use a box, a row and a column. Two
//! parallel lines make a Skyscraper, a row and a column a 2-String Kite, a
//! box and a line a Turbot Fish.
//!
//! Empty rectangle (4.3): in a box, d lies only on one row r and one
//! column c. A strong link of d in a column x outside the box, from (r, x)
//! to (p, x) with p outside the box's rows, means (p, c) cannot be d: if it
//! were, (p, x) would not be, so (r, x) would be, and the box would have no
//! place left for d. The same holds with rows and columns swapped.

use super::{cell_name, cells_name, col, eliminations_name, row, sees, unit_name, Board, Step, Technique, UNITS};

fn kind(unit: usize) -> usize {
    unit / 9
}

/// Rating of a chain whose links lie in `units` (base: the two-link or three-link rating).
fn rating_of(units: &[usize], base: u16) -> u16 {
    let has = |k: usize| units.iter().any(|&u| kind(u) == k);
    let (boxes, rows, cols) = (has(0), has(1), has(2));
    if boxes && rows && cols {
        base + 2
    } else if boxes || (rows && cols) {
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
    let base = if links == 2 { 40 } else { 54 };
    let mut best: Option<Step> = None;
    for d in 1..=9u8 {
        let all: Vec<(usize, usize, usize)> = (0..27)
            .filter_map(|u| {
                let cells = board.cells_with(u, d);
                (cells.len() == 2).then(|| (u, cells[0], cells[1]))
            })
            .collect();
        let mut path: Vec<(usize, usize, usize)> = Vec::with_capacity(links);
        extend(board, d, &all, links, base, &mut path, &mut best);
    }
    best
}

fn extend(
    board: &Board,
    d: u8,
    all: &[(usize, usize, usize)],
    links: usize,
    base: u16,
    path: &mut Vec<(usize, usize, usize)>,
    best: &mut Option<Step>,
) {
    if path.len() == links {
        let units: Vec<usize> = path.iter().map(|l| l.0).collect();
        let rating = rating_of(&units, base);
        if best.as_ref().is_some_and(|b| b.rating <= rating) {
            return;
        }
        let (first, last) = (path[0].1, path[links - 1].2);
        let cells: Vec<usize> = path.iter().flat_map(|l| [l.1, l.2]).collect();
        let eliminations: Vec<(usize, u8)> =
            board.seen_by_all(&[first, last], d).into_iter().filter(|(c, _)| !cells.contains(c)).collect();
        if eliminations.is_empty() {
            return;
        }
        let technique = technique_of(&units);
        let described: Vec<String> =
            path.iter().map(|l| format!("{}={} ({})", cell_name(l.1), cell_name(l.2), unit_name(l.0))).collect();
        let text = format!(
            "{}: {d} has two places in each of {}; linked end to end, they put {d} in {} or {}: {}",
            technique.name(),
            described.join(", "),
            cell_name(first),
            cell_name(last),
            eliminations_name(&eliminations)
        );
        *best = Some(Step { technique, rating, placements: vec![], eliminations, text });
        return;
    }
    for &(u, x, y) in all {
        for (a, b) in [(x, y), (y, x)] {
            let fresh = path.iter().all(|l| l.0 != u && ![l.1, l.2].contains(&a) && ![l.1, l.2].contains(&b));
            let joined = path.last().is_none_or(|l| sees(l.2, a));
            if fresh && joined {
                path.push((u, a, b));
                extend(board, d, all, links, base, path, best);
                path.pop();
            }
        }
    }
}

/// An empty rectangle with a strong link in a line (4.3).
pub fn empty_rectangle(board: &Board) -> Option<Step> {
    for d in 1..=9u8 {
        for bx in 0..9 {
            let cells = board.cells_with(bx, d);
            if cells.len() < 2 {
                continue;
            }
            let (band, stack) = (bx / 3, bx % 3);
            for r in band * 3..band * 3 + 3 {
                for c in stack * 3..stack * 3 + 3 {
                    if !cells.iter().all(|&x| row(x) == r || col(x) == c) {
                        continue;
                    }
                    // Not all on one line: that is a pointing.
                    if cells.iter().all(|&x| row(x) == r) || cells.iter().all(|&x| col(x) == c) {
                        continue;
                    }
                    // A strong link in a column x (outside the stack) from (r, x) to (p, x).
                    for x in (0..9).filter(|x| x / 3 != stack) {
                        let link = board.cells_with(18 + x, d);
                        if link.len() != 2 {
                            continue;
                        }
                        for (near, far) in [(link[0], link[1]), (link[1], link[0])] {
                            let target = row(far) * 9 + c;
                            if row(near) == r && row(far) / 3 != band && board.has(target, d) {
                                return Some(er_step(bx, d, &cells, 18 + x, near, far, target));
                            }
                        }
                    }
                    // A strong link in a row y (outside the band) from (y, c) to (y, q).
                    for y in (0..9).filter(|y| y / 3 != band) {
                        let link = board.cells_with(9 + y, d);
                        if link.len() != 2 {
                            continue;
                        }
                        for (near, far) in [(link[0], link[1]), (link[1], link[0])] {
                            let target = r * 9 + col(far);
                            if col(near) == c && col(far) / 3 != stack && board.has(target, d) {
                                return Some(er_step(bx, d, &cells, 9 + y, near, far, target));
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

fn er_step(bx: usize, d: u8, cells: &[usize], line: usize, near: usize, far: usize, target: usize) -> Step {
    let eliminations = vec![(target, d)];
    debug_assert!(UNITS[bx].iter().all(|&c| c != target));
    let text = format!(
        "Empty rectangle: in {}, {d} lies only on one row and one column ({}); with {d} in {} or {} ({}), {} cannot be {d}: {}",
        unit_name(bx),
        cells_name(cells),
        cell_name(near),
        cell_name(far),
        unit_name(line),
        cell_name(target),
        eliminations_name(&eliminations)
    );
    Step { technique: Technique::EmptyRectangle, rating: 43, placements: vec![], eliminations, text }
}
