//! Each rule read plainly against a full grid: the reference the solver's
//! propagation is tested against (slow, allocation-happy, obviously right).

use super::model::{Constraint, Puzzle};
use super::regions;

impl Puzzle {
    /// Whether `grid` (one value per cell, 1 to size) keeps every rule.
    ///
    /// This is the plain reading of each rule, written apart from the
    /// solver's propagation so that tests can check one against the other.
    pub fn is_solved_by(&self, grid: &[u8]) -> bool {
        satisfies(self, grid)
    }
}

/// Whether `grid` (one value per cell) keeps the shape's houses, the
/// candidates and every constraint of `puzzle`.
pub fn satisfies(puzzle: &Puzzle, grid: &[u8]) -> bool {
    let shape = puzzle.shape;
    let n = shape.size();
    if grid.len() != shape.cells() || grid.iter().any(|&v| v == 0 || v as usize > n) {
        return false;
    }
    if grid.iter().zip(&puzzle.candidates).any(|(&v, &m)| m & (1 << (v - 1)) == 0) {
        return false;
    }
    let distinct = |cells: &[usize]| {
        let mut seen = 0u32;
        cells.iter().all(|&c| {
            let bit = 1u32 << grid[c];
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        })
    };
    if !puzzle.houses().iter().all(|h| distinct(h)) {
        return false;
    }
    let marked = |kinds: &[Pick]| -> Vec<(usize, usize)> {
        puzzle
            .constraints
            .iter()
            .filter_map(|c| kinds.iter().find_map(|k| k(c)))
            .flat_map(|cells| regions::adjacent_pairs(shape, cells))
            .collect()
    };
    puzzle.constraints.iter().all(|c| keeps(puzzle, grid, c, &distinct, &marked))
}

fn v(grid: &[u8], cell: usize) -> i32 {
    grid[cell] as i32
}

fn sum(grid: &[u8], cells: &[usize]) -> i32 {
    cells.iter().map(|&c| v(grid, c)).sum()
}

/// Picks the cells of a rule of one kind.
type Pick = fn(&Constraint) -> Option<&Vec<usize>>;

/// The pairs the rules picked mark.
type Marked<'a> = dyn Fn(&[Pick]) -> Vec<(usize, usize)> + 'a;

fn keeps(puzzle: &Puzzle, grid: &[u8], c: &Constraint, distinct: &dyn Fn(&[usize]) -> bool, marked: &Marked) -> bool {
    let shape = puzzle.shape;
    let pairs_hold = |cells: &[usize], f: &dyn Fn(i32, i32) -> bool| {
        regions::adjacent_pairs(shape, cells).iter().all(|&(a, b)| f(v(grid, a), v(grid, b)))
    };
    let all_pairs = |f: &dyn Fn(i32, i32) -> bool, unmarked: &[(usize, usize)]| {
        regions::orthogonal_pairs(shape)
            .iter()
            .all(|&(a, b)| unmarked.contains(&(a, b)) || unmarked.contains(&(b, a)) || f(v(grid, a), v(grid, b)))
    };
    match c {
        Constraint::Diagonal(d) => distinct(&regions::diagonal(shape, *d)),
        Constraint::Windoku => regions::windoku(shape).iter().all(|r| distinct(r)),
        Constraint::DisjointSets => regions::disjoint_sets(shape).iter().all(|r| distinct(r)),
        Constraint::AntiKnight => regions::knight_pairs(shape).iter().all(|&(a, b)| grid[a] != grid[b]),
        Constraint::AntiKing => regions::king_pairs(shape).iter().all(|&(a, b)| grid[a] != grid[b]),
        Constraint::AntiConsecutive => all_pairs(&|a, b| (a - b).abs() != 1, &[]),
        Constraint::StrictKropki => {
            let dots = marked(&[
                |c| if let Constraint::BlackDot(x) = c { Some(x) } else { None },
                |c| if let Constraint::WhiteDot(x) = c { Some(x) } else { None },
            ]);
            all_pairs(&|a, b| (a - b).abs() != 1 && a != 2 * b && b != 2 * a, &dots)
        }
        Constraint::StrictXV => {
            let marks = marked(&[
                |c| if let Constraint::X(x) = c { Some(x) } else { None },
                |c| if let Constraint::V(x) = c { Some(x) } else { None },
            ]);
            all_pairs(&|a, b| a + b != 5 && a + b != 10, &marks)
        }
        Constraint::Cage { sum: s, cells } => distinct(cells) && s.is_none_or(|s| sum(grid, cells) == s),
        Constraint::Thermo(cells) => cells.windows(2).all(|w| grid[w[0]] < grid[w[1]]),
        Constraint::Arrow(cells) => v(grid, cells[0]) == sum(grid, &cells[1..]),
        Constraint::Whisper { difference, cells } => {
            cells.windows(2).all(|w| (v(grid, w[0]) - v(grid, w[1])).abs() >= *difference)
        }
        Constraint::Renban(cells) => {
            let (lo, hi) = min_max(grid, cells);
            distinct(cells) && (hi - lo) as usize + 1 == cells.len()
        }
        Constraint::X(cells) => pairs_hold(cells, &|a, b| a + b == 10),
        Constraint::V(cells) => pairs_hold(cells, &|a, b| a + b == 5),
        Constraint::BlackDot(cells) => pairs_hold(cells, &|a, b| a == 2 * b || b == 2 * a),
        Constraint::WhiteDot(cells) => pairs_hold(cells, &|a, b| (a - b).abs() == 1),
        Constraint::GreaterThan(cells) => pairs_hold(cells, &|a, b| a > b),
        Constraint::LittleKiller { sum: s, cells } => sum(grid, cells) == *s,
        Constraint::Sandwich { sum: s, cells } | Constraint::Lunchbox { sum: s, cells } => {
            let (lo, hi) = min_max(grid, cells);
            let at = |x: i32| cells.iter().position(|&c| v(grid, c) == x).unwrap_or(0);
            let (i, j) = (at(lo).min(at(hi)), at(lo).max(at(hi)));
            distinct(cells) && sum(grid, &cells[i + 1..j.max(i + 1)]) == *s
        }
        Constraint::Palindrome(cells) => cells.iter().zip(cells.iter().rev()).all(|(&a, &b)| grid[a] == grid[b]),
        Constraint::Between(cells) => {
            let (a, b) = (v(grid, cells[0]), v(grid, cells[cells.len() - 1]));
            let (lo, hi) = (a.min(b), a.max(b));
            cells[1..cells.len() - 1].iter().all(|&c| lo < v(grid, c) && v(grid, c) < hi)
        }
        Constraint::Quad { cells, values } => values.iter().all(|&x| {
            let need = values.iter().filter(|&&y| y == x).count();
            cells.iter().filter(|&&c| grid[c] == x).count() >= need
        }),
        Constraint::XSum { sum: s, cells } => {
            let x = grid[cells[0]] as usize;
            sum(grid, &cells[..x.min(cells.len())]) == *s && x <= cells.len()
        }
        Constraint::Skyscraper { count, cells } => {
            let mut top = 0;
            let seen = cells.iter().filter(|&&c| {
                let taller = grid[c] > top;
                top = top.max(grid[c]);
                taller
            });
            seen.count() as i32 == *count
        }
        Constraint::PillArrow { pill, cells } => {
            let mut pill_cells = cells[..*pill].to_vec();
            pill_cells.sort_unstable();
            let number = pill_cells.iter().fold(0, |acc, &c| acc * 10 + v(grid, c));
            let digits_ok = pill_cells[1..].iter().all(|&c| grid[c] <= 9);
            digits_ok && number == sum(grid, &cells[*pill..])
        }
        Constraint::DoubleArrow(cells) => {
            v(grid, cells[0]) + v(grid, cells[cells.len() - 1]) == sum(grid, &cells[1..cells.len() - 1])
        }
        Constraint::RegionSumLine(cells) => {
            let segments = regions::region_segments(puzzle, cells);
            segments.windows(2).all(|w| sum(grid, &w[0]) == sum(grid, &w[1]))
        }
        Constraint::SumLine { sum: s, looped, cells } => sum_line_holds(grid, cells, *s, *looped),
        Constraint::Lockout { difference, cells } => {
            let (a, b) = (v(grid, cells[0]), v(grid, cells[cells.len() - 1]));
            let (lo, hi) = (a.min(b), a.max(b));
            (a - b).abs() >= *difference
                && cells[1..cells.len() - 1].iter().all(|&c| v(grid, c) < lo || v(grid, c) > hi)
        }
        Constraint::Zipper(cells) => {
            let k = cells.len();
            let pair_sums: Vec<i32> = (0..k / 2).map(|i| v(grid, cells[i]) + v(grid, cells[k - 1 - i])).collect();
            if k % 2 == 1 {
                pair_sums.iter().all(|&p| p == v(grid, cells[k / 2]))
            } else {
                pair_sums.windows(2).all(|w| w[0] == w[1])
            }
        }
        Constraint::Modular { modulus, cells } => {
            let m = *modulus as usize;
            let residues: Vec<i32> = cells.iter().map(|&c| v(grid, c) % *modulus).collect();
            residues
                .windows(m.min(residues.len()))
                .all(|w| w.iter().enumerate().all(|(i, a)| w[i + 1..].iter().all(|b| a != b)))
                && (m..residues.len()).all(|i| residues[i] == residues[i - m])
        }
        Constraint::Entropic(cells) => {
            let groups: Vec<i32> = cells.iter().map(|&c| (v(grid, c) - 1) / 3).collect();
            groups
                .windows(3.min(groups.len()))
                .all(|w| w.iter().enumerate().all(|(i, a)| w[i + 1..].iter().all(|b| a != b)))
        }
    }
}

fn min_max(grid: &[u8], cells: &[usize]) -> (i32, i32) {
    let values = cells.iter().map(|&c| v(grid, c));
    (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
}

/// Whether the line splits into stretches each summing to `target` (for a
/// loop: any rotation of it).
fn sum_line_holds(grid: &[u8], cells: &[usize], target: i32, looped: bool) -> bool {
    let splits = |values: &[i32]| {
        let mut run = 0;
        values.iter().all(|&x| {
            run += x;
            if run == target {
                run = 0;
            }
            run < target
        }) && run == 0
    };
    let values: Vec<i32> = cells.iter().map(|&c| v(grid, c)).collect();
    if !looped {
        return splits(&values);
    }
    (0..values.len()).any(|start| {
        let rotated: Vec<i32> = values[start..].iter().chain(&values[..start]).copied().collect();
        splits(&rotated)
    })
}
