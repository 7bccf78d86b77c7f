//! XY-Wing (4.2) and XYZ-Wing (4.4).
//!
//! XY-Wing: a pivot with candidates {x, y} sees two pincers {x, z} and
//! {y, z}; whichever digit the pivot takes, one pincer is z, so z leaves
//! every cell that sees both pincers. XYZ-Wing: the pivot is {x, y, z},
//! so z also leaves only the cells that see the pivot too.

use super::{cell_name, count9, eliminations_name, sees, Board, Keep, Step, Technique, Words};
use crate::sudoku::score::Score;

/// An XY-Wing (`xyz` false) or an XYZ-Wing (`xyz` true).
pub fn wing(board: &Board, xyz: bool) -> Option<Step> {
    wing_where(board, xyz, Words::Write, &mut |_| true)
}

/// [`wing`], skipping the steps `keep` refuses.
pub fn wing_where(board: &Board, xyz: bool, words: Words, keep: Keep) -> Option<Step> {
    let (technique, rating, pivot_size) = if xyz { (Technique::XYZWing, 44, 3) } else { (Technique::XYWing, 42, 2) };
    let bivalue: Vec<usize> = (0..81).filter(|&c| count9(board.cands[c]) == 2).collect();
    for pivot in 0..81 {
        let pc = board.cands[pivot];
        if count9(pc) != pivot_size {
            continue;
        }
        let wings: Vec<usize> = bivalue.iter().copied().filter(|&w| sees(pivot, w)).collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ca, cb) = (board.cands[a], board.cands[b]);
                if ca == cb {
                    continue;
                }
                let z = ca & cb;
                if count9(z) != 1 {
                    continue;
                }
                let ok =
                    if xyz { ca | cb == pc && ca & pc == ca && cb & pc == cb } else { (ca ^ cb) == pc && z & pc == 0 };
                if !ok {
                    continue;
                }
                let d = z.trailing_zeros() as u8 + 1;
                let mut group = vec![a, b];
                if xyz {
                    group.push(pivot);
                }
                let eliminations: Vec<(usize, u8)> =
                    board.seen_by_all(&group, d).into_iter().filter(|&(c, _)| c != pivot).collect();
                if eliminations.is_empty() {
                    continue;
                }
                let text = words.make(|| {
                    format!(
                    "{}: pivot {} with pincers {} and {}: one of them is {d}, so {d} leaves the cells that see {}: {}",
                    technique.name(),
                    cell_name(pivot),
                    cell_name(a),
                    cell_name(b),
                    if xyz { "all three" } else { "both pincers" },
                    eliminations_name(&eliminations)
                )
                });
                let step =
                    Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text };
                if keep(&step) {
                    return Some(step);
                }
            }
        }
    }
    None
}
