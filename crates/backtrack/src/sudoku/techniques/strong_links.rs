//! Two strong links joined by a weak one: the Turbot family.
//!
//! A strong link is a unit where a digit has exactly two places: one of
//! them holds it. Given links (a1, a2) and (b1, b2) of digit d where a2 and
//! b1 see each other, at most one of a2, b1 holds d, so a1 or b2 does: d
//! leaves every cell that sees both. Named and rated by the links' units:
//! two parallel lines make a Skyscraper (4.0), a row and a column a
//! 2-String Kite (4.1), a box and a line a Turbot Fish (4.1).

use super::{bit, cell_name, eliminations_name, sees, unit_name, Board, Step, Technique};

fn kind(unit: usize) -> usize {
    unit / 9
}

/// The easiest two-link pattern, rated as above.
pub fn turbot(board: &Board) -> Option<Step> {
    let mut best: Option<Step> = None;
    for d in 1..=9u8 {
        let links: Vec<(usize, usize, usize)> = (0..27)
            .filter_map(|u| {
                let cells = board.cells_with(u, d);
                (cells.len() == 2).then(|| (u, cells[0], cells[1]))
            })
            .collect();
        for (i, &(ua, x1, x2)) in links.iter().enumerate() {
            for &(ub, y1, y2) in &links[i + 1..] {
                for (a1, a2) in [(x1, x2), (x2, x1)] {
                    for (b1, b2) in [(y1, y2), (y2, y1)] {
                        let distinct = a1 != b1 && a1 != b2 && a2 != b1 && a2 != b2;
                        if !distinct || !sees(a2, b1) {
                            continue;
                        }
                        // A link whose two cells share another unit is the
                        // same pattern: rate it once, by its line units.
                        let eliminations = board.seen_by_all(&[a1, b2], d);
                        if eliminations.is_empty() {
                            continue;
                        }
                        let (technique, rating) = match (kind(ua), kind(ub)) {
                            (x, y) if x == y && x > 0 => (Technique::Skyscraper, 40),
                            (x, y) if x > 0 && y > 0 => (Technique::TwoStringKite, 41),
                            _ => (Technique::TurbotFish, 41),
                        };
                        if best.as_ref().is_some_and(|b| b.rating <= rating) {
                            continue;
                        }
                        debug_assert!(board.cands[a1] & bit(d) != 0);
                        let text = format!(
                            "{}: {d} is in {} or {} ({}) and in {} or {} ({}); {} and {} see each other, so {} or {} is {d}: {}",
                            technique.name(),
                            cell_name(a1),
                            cell_name(a2),
                            unit_name(ua),
                            cell_name(b1),
                            cell_name(b2),
                            unit_name(ub),
                            cell_name(a2),
                            cell_name(b1),
                            cell_name(a1),
                            cell_name(b2),
                            eliminations_name(&eliminations)
                        );
                        best = Some(Step { technique, rating, placements: vec![], eliminations, text });
                    }
                }
            }
        }
    }
    best
}
