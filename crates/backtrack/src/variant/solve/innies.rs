//! The sums that houses imply (innies and outies).
//!
//! A house holds every value once, so its cells sum to `1 + 2 + ... + n`,
//! and `k` houses that do not overlap sum to `k` times that. Where the
//! sums of the puzzle (cages with a total, little killers: cells with a
//! known sum and no overlap between them) cover most of such a union, the
//! cells of the union they miss (innies) and the cells of the sums outside
//! it (outies) are tied by one equation:
//!
//! `sum(outies) - sum(innies) = sum(the sums' totals) - k * (1 + ... + n)`.
//!
//! Compiled as sums of their own, these let propagation see what a solver
//! by hand sees first in a killer. What is derived:
//!
//! * the cells of the grid outside every sum, when they are fewer than `n`
//!   (the grid's `n` rows sum to `n` times `1 + ... + n`); they count as
//!   one more sum below;
//! * for each house, the cells outside the cages wholly inside it form a
//!   cage of their own (the rule of 45), and each cage inside a house is
//!   narrowed together with the rest of that house (a combination of the
//!   cage is kept only if the other values fit the house's other cells);
//! * for each house, a sum sticking out of it by one cell ties that cell to
//!   the house's cells outside every sum inside it;
//! * for each house, the sums that cross it, minus the house, have a known
//!   total (gaps in the house filled by other houses wholly inside them);
//! * for unions of the first `k` rows (from the top and from the bottom),
//!   columns (from either side) and boxes, with every sum mostly inside the
//!   union counted in, the innies and outies;
//!
//! Derived sums are kept only while small or tight enough to narrow
//! something: they cost time at every propagation.

use super::super::model::{Constraint, MAX_CELLS};
use super::compile::Builder;

/// A set of cells, one bit per cell.
pub(super) type CellSet = [u64; MAX_CELLS / 64];

/// The set of `cells`.
pub(super) fn set_of(cells: &[usize]) -> CellSet {
    let mut s = [0; MAX_CELLS / 64];
    for &c in cells {
        s[c / 64] |= 1 << (c % 64);
    }
    s
}

fn count(s: &CellSet) -> usize {
    s.iter().map(|w| w.count_ones() as usize).sum()
}

fn and(a: &CellSet, b: &CellSet) -> CellSet {
    std::array::from_fn(|i| a[i] & b[i])
}

fn minus(a: &CellSet, b: &CellSet) -> CellSet {
    std::array::from_fn(|i| a[i] & !b[i])
}

fn or(a: &CellSet, b: &CellSet) -> CellSet {
    std::array::from_fn(|i| a[i] | b[i])
}

fn cells_of(s: &CellSet) -> Vec<usize> {
    let mut out = Vec::new();
    for (w, &word) in s.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out.push(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
    out
}

/// Cells whose sum is known, with +1 coefficients.
struct Piece {
    cells: CellSet,
    size: usize,
    sum: i32,
}

/// Derived sums with more cells than this are left out where every cell
/// they hold is already in a sum (they narrow little and cost much).
const MAX_DERIVED: usize = 6;

impl Builder<'_> {
    /// The known sums that do not overlap: cages with a total first, then
    /// little killers, each kept when it shares no cell with one kept before.
    fn pieces(&self) -> Vec<Piece> {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut taken = [0u64; MAX_CELLS / 64];
        let cages = self.puzzle.constraints.iter().filter_map(|c| match c {
            Constraint::Cage { sum: Some(s), cells } => Some((cells, *s)),
            _ => None,
        });
        let killers = self.puzzle.constraints.iter().filter_map(|c| match c {
            Constraint::LittleKiller { sum, cells } => Some((cells, *sum)),
            _ => None,
        });
        for (cells, sum) in cages.chain(killers) {
            let set = set_of(cells);
            let size = count(&set);
            if size == 0 || size != cells.len() || count(&and(&set, &taken)) > 0 {
                continue;
            }
            taken = or(&taken, &set);
            pieces.push(Piece { cells: set, size, sum });
        }
        pieces
    }

    /// Adds the sums that houses imply (see the module's documentation).
    pub(super) fn derive_sums(&mut self) {
        let mut pieces = self.pieces();
        if pieces.is_empty() {
            return;
        }
        let n = self.size;
        let total = (n * (n + 1) / 2) as i32;
        let mut in_sums = pieces.iter().fold([0; MAX_CELLS / 64], |s, p| or(&s, &p.cells));
        // The cells outside every sum, when fewer than n (and the grid's
        // rows are houses), are a sum of their own.
        let all: Vec<usize> = (0..self.puzzle.shape.cells()).collect();
        let gap = minus(&set_of(&all), &in_sums);
        let size = count(&gap);
        if size > 0 && size < n {
            let sum = n as i32 * total - pieces.iter().map(|p| p.sum).sum::<i32>();
            self.derived(cells_of(&gap).into_iter().map(|c| (c, 1)).collect(), sum);
            pieces.push(Piece { cells: gap, size, sum });
            in_sums = or(&in_sums, &gap);
        }
        let houses: Vec<CellSet> = self.houses.iter().map(|h| set_of(h)).collect();

        // Sums tied to one house.
        for house in &houses {
            let crossing: Vec<&Piece> = pieces.iter().filter(|p| count(&and(&p.cells, house)) > 0).collect();
            if crossing.is_empty() {
                continue;
            }
            self.crossing_sum(house, &crossing, &houses, total);
            let inside: Vec<&&Piece> = crossing.iter().filter(|p| count(&minus(&p.cells, house)) == 0).collect();
            let inside_cells = inside.iter().fold([0; MAX_CELLS / 64], |s, p| or(&s, &p.cells));
            let rest = minus(house, &inside_cells);
            let rest_sum = total - inside.iter().map(|p| p.sum).sum::<i32>();
            for p in &crossing {
                let outside = minus(&p.cells, house);
                if count(&outside) != 1 {
                    continue;
                }
                // The rest of the house, less the piece's cells in it,
                // sums to the rest's total less the piece's, less the cell outside.
                let remaining = minus(&rest, &p.cells);
                if count(&remaining) + 1 > MAX_DERIVED {
                    continue;
                }
                let mut terms: Vec<(usize, i32)> = cells_of(&remaining).into_iter().map(|c| (c, 1)).collect();
                terms.extend(cells_of(&outside).into_iter().map(|c| (c, -1)));
                self.derived(terms, rest_sum - p.sum);
            }
            let (k, filled) = (count(&rest), count(&inside_cells));
            if filled >= 2 && k > 0 {
                self.derived(cells_of(&rest).into_iter().map(|c| (c, 1)).collect(), rest_sum);
            }
        }

        // Unions of the first k rows, columns, boxes.
        for order in self.house_orders() {
            let mut union = [0; MAX_CELLS / 64];
            let mut covered = [0; MAX_CELLS / 64];
            let mut used = vec![false; pieces.len()];
            let mut used_sum = 0;
            for (k, region) in order.iter().enumerate().take(n - 1) {
                union = or(&union, &set_of(region));
                for (i, p) in pieces.iter().enumerate() {
                    if !used[i] && 2 * count(&and(&union, &p.cells)) > p.size {
                        used[i] = true;
                        covered = or(&covered, &p.cells);
                        used_sum += p.sum;
                    }
                }
                if k == 0 {
                    // A single house is done above.
                    continue;
                }
                let (innies, outies) = (minus(&union, &covered), minus(&covered, &union));
                let (a, b) = (count(&innies), count(&outies));
                if a + b == 0 || a + b > n || (a > 2 && b > 2) {
                    continue;
                }
                if count(&minus(&innies, &in_sums)) == 0 && count(&minus(&outies, &in_sums)) == 0 && a + b > MAX_DERIVED
                {
                    continue;
                }
                let mut terms: Vec<(usize, i32)> = cells_of(&outies).into_iter().map(|c| (c, 1)).collect();
                terms.extend(cells_of(&innies).into_iter().map(|c| (c, -1)));
                self.derived(terms, used_sum - (k as i32 + 1) * total);
            }
        }
    }

    /// The cells of the sums crossing `house`, less the house, sum to the
    /// sums' totals less the house's. Cells of the house outside every sum
    /// may be made up by other houses that meet the house only there (and
    /// in two cells or more) and share no cell with the sums; houses lying
    /// wholly among the cells left are taken out again.
    fn crossing_sum(&mut self, house: &CellSet, crossing: &[&Piece], houses: &[CellSet], total: i32) {
        let mut cells = crossing.iter().fold([0; MAX_CELLS / 64], |s, p| or(&s, &p.cells));
        let mut sum: i32 = crossing.iter().map(|p| p.sum).sum();
        let mut gap = minus(house, &cells);
        for other in houses {
            if count(&gap) == 0 {
                break;
            }
            let meet = count(&and(other, house));
            if count(&and(other, &cells)) > 0 || meet < 2 || count(&and(other, &gap)) != meet {
                continue;
            }
            cells = or(&cells, other);
            sum += total;
            gap = minus(&gap, &cells);
        }
        if count(&gap) > 0 {
            return;
        }
        cells = minus(&cells, house);
        sum -= total;
        for other in houses {
            if count(&minus(other, &cells)) == 0 {
                cells = minus(&cells, other);
                sum -= total;
            }
        }
        if count(&cells) == 0 {
            return;
        }
        let terms: Vec<(usize, i32)> = cells_of(&cells).into_iter().map(|c| (c, 1)).collect();
        // Only a sum that narrows its cells much is worth its cost.
        let Some((low, high)) = self.bounds(&terms) else {
            self.impossible = true;
            return;
        };
        if sum < low || sum > high {
            self.impossible = true;
            return;
        }
        let (range, slack) = (high - low, (sum - low).min(high - sum));
        if range > 0 && range > 4 * slack {
            self.derived(terms, sum);
        }
    }

    /// Rows from the top and from the bottom, columns from the left and
    /// from the right, boxes (or jigsaw regions) in order.
    fn house_orders(&self) -> Vec<Vec<Vec<usize>>> {
        let shape = self.puzzle.shape;
        let n = self.size;
        let rows: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| shape.cell(r, c)).collect()).collect();
        let columns: Vec<Vec<usize>> = (0..n).map(|c| (0..n).map(|r| shape.cell(r, c)).collect()).collect();
        let mut orders = vec![rows.clone(), rows.into_iter().rev().collect(), columns.clone()];
        orders.push(columns.into_iter().rev().collect());
        if !self.puzzle.no_boxes && !shape.boxes().is_empty() {
            orders.push(shape.boxes());
        }
        if !self.puzzle.regions.is_empty() {
            orders.push(self.puzzle.regions.clone());
        }
        orders
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::parse_line;
    use super::super::handler::Handler;
    use super::super::Solver;

    /// The sums a puzzle's solver holds: sorted cells with coefficients, and the target.
    fn sums(text: &str) -> Vec<(Vec<(usize, i32)>, i32)> {
        let solver = Solver::new(&parse_line(text, 1).unwrap()).unwrap();
        let mut found = Vec::new();
        for h in &solver.handlers {
            match h {
                Handler::Sum { cells, coefs, target, .. } => {
                    let mut terms: Vec<(usize, i32)> =
                        cells.iter().map(|&c| c as usize).zip(coefs.iter().copied()).collect();
                    terms.sort_unstable();
                    found.push((terms, *target));
                }
                Handler::Combos { cells, combos, .. } if combos.len() == 1 => {
                    let mut terms: Vec<(usize, i32)> = cells.iter().map(|&c| (c as usize, 1)).collect();
                    terms.sort_unstable();
                    let total = (0..16).filter(|v| combos[0] & (1 << v) != 0).map(|v| v + 1).sum();
                    found.push((terms, total));
                }
                _ => {}
            }
        }
        found
    }

    /// The grid the cages below are read off.
    const GRID: &str = "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

    // Read off GRID.
    const TWO_ROWS: &str = ".Cage~5~R1C1~R2C1.Cage~7~R1C2~R2C2.Cage~9~R1C3~R2C3.Cage~11~R1C4~R2C4\
        .Cage~13~R1C5~R2C5.Cage~15~R1C6~R2C6.Cage~8~R1C7~R2C7.Cage~24~R1C8~R1C9~R2C8~R3C8";

    #[test]
    fn the_first_two_rows_tie_their_innie_to_their_outie() {
        // The cages lying mostly in rows 1 and 2 total 92, the rows 90: the
        // outie R3C8 is 2 more than the innie R2C9.
        assert!(sums(TWO_ROWS).contains(&(vec![(17, 1), (25, -1)], -2)));
    }

    #[test]
    fn the_cells_outside_every_cage_sum_to_the_rest() {
        // Vertical dominoes in rows 1 to 8, horizontal ones in row 9, R1C1
        // and R9C9 in no cage (R2C1 alone): those two make 405 less the cages.
        let grid: Vec<u32> = GRID.chars().map(|c| c.to_digit(10).unwrap()).collect();
        let mut text = String::new();
        let mut cage = |cells: &[(usize, usize)]| {
            let sum: u32 = cells.iter().map(|&(r, c)| grid[r * 9 + c]).sum();
            text.push_str(&format!(".Cage~{sum}"));
            for &(r, c) in cells {
                text.push_str(&format!("~R{}C{}", r + 1, c + 1));
            }
        };
        for c in 0..9 {
            for r in (0..8).step_by(2) {
                if (r, c) == (0, 0) {
                    cage(&[(1, 0)]);
                } else {
                    cage(&[(r, c), (r + 1, c)]);
                }
            }
        }
        for c in (0..8).step_by(2) {
            cage(&[(8, c), (8, c + 1)]);
        }
        assert!(sums(&text).contains(&(vec![(0, 1), (80, 1)], 3)));
    }
}
