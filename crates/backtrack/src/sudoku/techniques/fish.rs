//! Basic fish: a digit whose places in `k` rows lie in `k` columns (or the
//! other way round) leaves those columns' other cells. X-Wing (k = 2, 3.2),
//! Swordfish (3, 3.8), Jellyfish (4, 5.2).

use super::{
    count9, eliminations_name, on_changed_digits, subsets, unit_name, Board, Keep, OneDigit, Rater, Step, Tables,
    Technique, Words, ALL, UNITS,
};
use crate::sudoku::score::Score;

/// A fish of size `k` (2..=4): rows as base first, then columns.
pub fn fish(board: &Board, k: usize) -> Option<Step> {
    fish_where(board, &Tables::new(board), k, Words::Write, &mut |_| true)
}

/// [`fish`] with the board's [`Tables`], looking only at the digits whose
/// places changed since it last found nothing with `rater`.
pub fn fish_in(rater: &mut Rater, board: &Board, t: &Tables, k: usize, words: Words) -> Option<Step> {
    let finder = match k {
        2 => OneDigit::Fish2,
        3 => OneDigit::Fish3,
        _ => OneDigit::Fish4,
    };
    on_changed_digits(rater, finder, t, |digits| fish_among(board, t, k, digits, words, &mut |_| true))
}

/// [`fish_in`], skipping the steps `keep` refuses.
pub fn fish_where(board: &Board, t: &Tables, k: usize, words: Words, keep: Keep) -> Option<Step> {
    fish_among(board, t, k, ALL, words, keep)
}

/// [`fish_where`] for the digits of the mask `digits`.
fn fish_among(board: &Board, t: &Tables, k: usize, digits: u16, words: Words, keep: Keep) -> Option<Step> {
    let (technique, rating) = match k {
        2 => (Technique::XWing, 32),
        3 => (Technique::Swordfish, 38),
        _ => (Technique::Jellyfish, 52),
    };
    for (base, cover) in [(9usize, 18usize), (18, 9)] {
        for d in super::digits(digits) {
            let mut lines = [(0usize, 0u16); 9];
            let mut n = 0;
            for i in 0..9 {
                let p = t.positions[base + i][d as usize - 1];
                if (2..=k as u32).contains(&count9(p)) {
                    lines[n] = (base + i, p);
                    n += 1;
                }
            }
            if n < k {
                continue;
            }
            let step = subsets(n, k, |idx| {
                let union = idx.iter().fold(0u16, |m, &i| m | lines[i].1);
                if count9(union) as usize != k {
                    return None;
                }
                let bases: Vec<usize> = idx.iter().map(|&i| lines[i].0).collect();
                let covers: Vec<usize> = (0..9).filter(|j| union & 1 << j != 0).map(|j| cover + j).collect();
                let eliminations: Vec<(usize, u8)> = covers
                    .iter()
                    .flat_map(|&u| UNITS[u].iter().copied())
                    .filter(|&c| board.has(c, d) && !bases.iter().any(|&b| UNITS[b].contains(&c)))
                    .map(|c| (c, d))
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let names = |us: &[usize]| us.iter().map(|&u| unit_name(u)).collect::<Vec<_>>().join(", ");
                let text = words.make(|| {
                    format!(
                        "{}: in {}, {d} lies only in {}, so it leaves the rest of those: {}",
                        technique.name(),
                        names(&bases),
                        names(&covers),
                        eliminations_name(&eliminations)
                    )
                });
                Some(Step { technique, rating: Score::from_tenths(rating), placements: vec![], eliminations, text })
                    .filter(|step| keep(step))
            });
            if step.is_some() {
                return step;
            }
        }
    }
    None
}
