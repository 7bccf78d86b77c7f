//! The spaces a trace follows, and how each describes itself.

use crate::choose::Choose;
use crate::queens::QueensSpace;
use crate::search::{Node, Order, Space};
use crate::sudoku::general::{GeneralSpace, Placement};
use crate::sudoku::symbol;

use super::words::Words;
use super::Traced;
use crate::lang::Lang;

/// N-queens as taught: the next row tries every column from the left, and
/// a column another queen attacks is rejected (naming that queen).
#[derive(Debug, Clone)]
pub struct LectureQueens {
    queens: QueensSpace,
    all: u32,
}

impl LectureQueens {
    /// The empty `n`×`n` board.
    ///
    /// # Panics
    /// If `n` is outside `1..=`[`MAX_QUEENS`](super::MAX_QUEENS).
    pub fn new(n: usize) -> LectureQueens {
        assert!((1..=super::MAX_QUEENS).contains(&n), "board size {n} is out of range");
        LectureQueens { queens: QueensSpace::new(n).expect("checked size"), all: (1u32 << n) - 1 }
    }
}

impl Space for LectureQueens {
    /// Columns still to try in the next row.
    type Branch = u32;
    /// A column for the next row.
    type Choice = u8;
    type Solution = Vec<u8>;

    fn expand(&mut self, _order: Order) -> Node<u32> {
        if self.queens.columns().len() == self.queens.n() {
            Node::Solution
        } else {
            Node::Branch(self.all)
        }
    }

    fn next_choice(&mut self, columns: &mut u32) -> Option<u8> {
        self.queens.next_choice(columns)
    }

    fn push(&mut self, col: u8) -> bool {
        // The queens space places the queen and reports whether it is attacked.
        self.queens.push(col)
    }

    fn pop(&mut self) {
        self.queens.pop();
    }

    fn solution(&self) -> Vec<u8> {
        self.queens.solution()
    }
}

/// Whether a queen at (`row`, `col`) is attacked by one of the queens in
/// `columns[..row]`: the topmost attacker and how.
fn queen_attacker(columns: &[u8], row: usize, col: u8) -> Option<(usize, &'static str)> {
    columns[..row].iter().enumerate().find_map(|(r, &c)| {
        if c == col {
            Some((r, "column"))
        } else if c.abs_diff(col) as usize == row - r {
            Some((r, "diagonal"))
        } else {
            None
        }
    })
}

fn queens_board(queens: &QueensSpace, out: &mut Vec<u8>) {
    let n = queens.n();
    out.resize(n * n, 0);
    for (row, &col) in queens.columns().iter().enumerate() {
        out[row * n + col as usize] = 1;
    }
}

fn queens_rejection(queens: &QueensSpace, col: u8, row: usize, lang: Lang) -> (String, Option<usize>) {
    match queen_attacker(queens.columns(), row, col) {
        Some((r, line)) => {
            let c = queens.columns()[r] as usize;
            (Words::SameLine { line, row: r + 1, col: c + 1 }.say(lang), Some(r * queens.n() + c))
        }
        None => (Words::Attacked.say(lang), None),
    }
}

fn queens_solution(queens: &QueensSpace) -> String {
    let cols: Vec<String> = queens.columns().iter().map(|c| (c + 1).to_string()).collect();
    cols.join(" ")
}

impl Traced for QueensSpace {
    fn board(&self, out: &mut Vec<u8>) {
        queens_board(self, out);
    }
    fn choice_text(&self, col: u8, depth: usize, lang: Lang) -> String {
        Words::RowCol { row: depth + 1, col: col as usize + 1 }.say(lang)
    }
    fn focus(&self, col: u8, depth: usize) -> Option<usize> {
        Some(depth * self.n() + col as usize)
    }
    fn rejection(&self, col: u8, depth: usize, lang: Lang) -> (String, Option<usize>) {
        queens_rejection(self, col, depth, lang)
    }
    fn solution_text(&self, _lang: Lang) -> String {
        queens_solution(self)
    }
}

impl Traced for LectureQueens {
    fn board(&self, out: &mut Vec<u8>) {
        self.queens.board(out);
    }
    fn choice_text(&self, col: u8, depth: usize, lang: Lang) -> String {
        self.queens.choice_text(col, depth, lang)
    }
    fn focus(&self, col: u8, depth: usize) -> Option<usize> {
        self.queens.focus(col, depth)
    }
    fn rejection(&self, col: u8, depth: usize, lang: Lang) -> (String, Option<usize>) {
        self.queens.rejection(col, depth, lang)
    }
    fn solution_text(&self, _lang: Lang) -> String {
        queens_solution(&self.queens)
    }
}

/// Sudoku as first written: fill the first empty cell in row-major order
/// with each digit from the smallest, rejecting a digit its row, column or
/// box already holds (naming that cell). No propagation, no choice of cell.
#[derive(Debug, Clone)]
pub struct NaiveSudoku {
    box_size: usize,
    side: usize,
    cells: Vec<u8>,
    /// The givens repeat a digit in a unit: nothing to search.
    dead: bool,
    /// Per push: the cell filled, or `None` for a rejected push.
    filled: Vec<Option<usize>>,
    /// The cell (and its unit) that made the last push fail.
    conflict: Option<(usize, &'static str)>,
}

/// Where a naive search stands: the cell it fills and the next digit to try.
#[derive(Debug, Clone, Copy)]
pub struct NaiveBranch {
    cell: u16,
    next: u8,
}

impl NaiveSudoku {
    /// The space of `cells` (row-major, 0 blank) on a grid of box size `box_size`.
    ///
    /// # Panics
    /// If `cells` does not have `box_size⁴` cells.
    pub fn new(box_size: usize, cells: &[u8]) -> NaiveSudoku {
        let side = box_size * box_size;
        assert_eq!(cells.len(), side * side, "a {side}x{side} grid");
        let dead = crate::sudoku::find_conflict(box_size, cells).is_some();
        NaiveSudoku { box_size, side, cells: cells.to_vec(), dead, filled: Vec::new(), conflict: None }
    }

    /// The first cell of the row, column and box of `cell` (in that order)
    /// that already holds `digit`, with the unit's name.
    fn holder(&self, cell: usize, digit: u8) -> Option<(usize, &'static str)> {
        let (side, b) = (self.side, self.box_size);
        let (row, col) = (cell / side, cell % side);
        let in_row = (0..side).map(|c| row * side + c).find(|&other| self.cells[other] == digit);
        let in_col = || (0..side).map(|r| r * side + col).find(|&other| self.cells[other] == digit);
        let (r0, c0) = (row / b * b, col / b * b);
        let in_box = || (0..side).map(|k| (r0 + k / b) * side + c0 + k % b).find(|&other| self.cells[other] == digit);
        in_row
            .map(|other| (other, "row"))
            .or_else(|| in_col().map(|other| (other, "column")))
            .or_else(|| in_box().map(|other| (other, "box")))
    }
}

/// `r3c7` for a cell of a grid `side` wide.
fn cell_name(cell: usize, side: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

fn placement_text(choice: Placement, side: usize) -> String {
    format!("{}={}", cell_name(choice.cell as usize, side), symbol(choice.digit) as char)
}

fn grid_text(cells: &[u8]) -> String {
    cells.iter().map(|&v| symbol(v) as char).collect()
}

impl Space for NaiveSudoku {
    type Branch = NaiveBranch;
    type Choice = Placement;
    type Solution = Vec<u8>;

    fn expand(&mut self, _order: Order) -> Node<NaiveBranch> {
        if self.dead {
            return Node::Dead;
        }
        match self.cells.iter().position(|&v| v == 0) {
            Some(cell) => Node::Branch(NaiveBranch { cell: cell as u16, next: 1 }),
            None => Node::Solution,
        }
    }

    fn next_choice(&mut self, branch: &mut NaiveBranch) -> Option<Placement> {
        if branch.next as usize > self.side {
            return None;
        }
        let digit = branch.next;
        branch.next += 1;
        Some(Placement { cell: branch.cell, digit })
    }

    fn push(&mut self, choice: Placement) -> bool {
        let cell = choice.cell as usize;
        self.conflict = self.holder(cell, choice.digit);
        if self.conflict.is_some() {
            self.filled.push(None);
            return false;
        }
        self.cells[cell] = choice.digit;
        self.filled.push(Some(cell));
        true
    }

    fn pop(&mut self) {
        if let Some(cell) = self.filled.pop().expect("pop matches a push") {
            self.cells[cell] = 0;
        }
    }

    fn solution(&self) -> Vec<u8> {
        self.cells.clone()
    }
}

impl Traced for NaiveSudoku {
    fn board(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.cells);
    }
    fn choice_text(&self, choice: Placement, _depth: usize, _lang: Lang) -> String {
        placement_text(choice, self.side)
    }
    fn focus(&self, choice: Placement, _depth: usize) -> Option<usize> {
        Some(choice.cell as usize)
    }
    fn rejection(&self, choice: Placement, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        match self.conflict {
            Some((other, unit)) => {
                let at = cell_name(other, self.side);
                let digit = symbol(choice.digit) as char;
                (Words::AlreadyInUnit { digit, unit, at: &at }.say(lang), Some(other))
            }
            None => (Words::BreaksConstraint.say(lang), None),
        }
    }
    fn solution_text(&self, _lang: Lang) -> String {
        grid_text(&self.cells)
    }
}

impl Traced for GeneralSpace {
    fn board(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.values());
    }
    fn choice_text(&self, choice: Placement, _depth: usize, _lang: Lang) -> String {
        placement_text(choice, self.box_size() * self.box_size())
    }
    fn focus(&self, choice: Placement, _depth: usize) -> Option<usize> {
        Some(choice.cell as usize)
    }
    fn rejection(&self, _choice: Placement, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        (Words::Contradiction.say(lang), None)
    }
    fn solution_text(&self, _lang: Lang) -> String {
        grid_text(self.values())
    }
}

impl Traced for Choose<u64> {
    fn board(&self, out: &mut Vec<u8>) {
        let chosen = self.indices().iter().map(|&i| self.values()[i as usize].min(255) as u8);
        out.extend(chosen);
        out.resize(self.len(), 0);
    }
    fn choice_text(&self, choice: u32, _depth: usize, _lang: Lang) -> String {
        self.values()[choice as usize].to_string()
    }
    fn focus(&self, _choice: u32, depth: usize) -> Option<usize> {
        Some(depth)
    }
    fn rejection(&self, _choice: u32, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        (Words::NoCopyLeft.say(lang), None)
    }
    fn solution_text(&self, _lang: Lang) -> String {
        let values: Vec<String> = self.indices().iter().map(|&i| self.values()[i as usize].to_string()).collect();
        values.join(" ")
    }
}
