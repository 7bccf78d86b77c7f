//! 1987 (alphabet), traced two ways by [`AlphabetSearch`].

use std::collections::HashSet;

use crate::boj::alphabet::Board;
use crate::lang::Lang;
use crate::search::{Node, Order, Space};

use super::words::Words;
use super::{Answer, Strategy, Traced};

/// What both searches keep: the board, the walk, the letters passed.
#[derive(Debug, Clone)]
struct Walked {
    letters: Vec<u8>,
    cols: usize,
    rows: usize,
    /// The cells of the walk, the top-left one first.
    path: Vec<u16>,
    /// The letters passed, one bit each.
    passed: u32,
    /// The longest walk so far, in cells.
    best: u32,
}

impl Walked {
    fn new(board: &Board) -> Walked {
        let letters = board.rows.concat();
        let passed = 1 << letters[0];
        Walked { cols: board.rows[0].len(), rows: board.rows.len(), path: vec![0], passed, letters, best: 0 }
    }

    /// The neighbours of the walk's last cell on the board: up, down, left, right.
    fn neighbours(&self) -> impl Iterator<Item = u16> {
        let cell = *self.path.last().expect("the first cell") as usize;
        let (row, col, cols) = (cell / self.cols, cell % self.cols, self.cols);
        [
            (row > 0).then(|| cell - cols),
            (row + 1 < self.rows).then(|| cell + cols),
            (col > 0).then(|| cell - 1),
            (col + 1 < cols).then(|| cell + 1),
        ]
        .into_iter()
        .flatten()
        .map(|c| c as u16)
    }

    fn is_new(&self, cell: u16) -> bool {
        self.passed & 1 << self.letters[cell as usize] == 0
    }

    /// Whether the walk can go on: a neighbour with a new letter.
    fn can_go_on(&self) -> bool {
        self.neighbours().any(|c| self.is_new(c))
    }

    /// Steps onto `cell`; returns whether its letter was new.
    fn step(&mut self, cell: u16) -> bool {
        let new = self.is_new(cell);
        self.path.push(cell);
        self.passed |= 1 << self.letters[cell as usize];
        new
    }

    /// Takes the last step back (`new`: whether that step passed a new letter).
    fn step_back(&mut self, new: bool) {
        let cell = self.path.pop().expect("a step to take back");
        if new {
            self.passed &= !(1 << self.letters[cell as usize]);
        }
    }

    fn letter(&self, cell: u16) -> char {
        (b'A' + self.letters[cell as usize]) as char
    }

    fn cell_name(&self, cell: u16) -> String {
        let cell = cell as usize;
        format!("r{}c{}", cell / self.cols + 1, cell % self.cols + 1)
    }

    /// Each cell's letter, 1 for `A` to 26 for `Z`, plus 26 on the walk.
    fn board(&self, out: &mut Vec<u8>) {
        out.extend(self.letters.iter().map(|&l| l + 1));
        for &cell in &self.path {
            out[cell as usize] += 26;
        }
    }

    fn choice_text(&self, cell: u16) -> String {
        format!("{}={}", self.cell_name(cell), self.letter(cell))
    }

    /// A walk that cannot go on: counts it.
    fn reached(&mut self) {
        self.best = self.best.max(self.path.len() as u32);
    }

    fn solution_text(&self, lang: Lang) -> String {
        let letters: String = self.path.iter().map(|&c| self.letter(c)).collect();
        Words::Walk { letters: &letters, best: self.best }.say(lang)
    }

    fn answer(&self) -> Option<Answer> {
        Some(Answer::Longest { cells: self.best })
    }
}

/// The neighbours of a node still to try: up to four cells, as a small stack.
#[derive(Debug, Clone, Copy)]
pub struct Neighbours {
    cells: [u16; 4],
    len: u8,
    next: u8,
}

impl Neighbours {
    fn of(cells: impl Iterator<Item = u16>) -> Neighbours {
        let mut n = Neighbours { cells: [0; 4], len: 0, next: 0 };
        for cell in cells {
            n.cells[n.len as usize] = cell;
            n.len += 1;
        }
        n
    }

    fn next(&mut self) -> Option<u16> {
        (self.next < self.len).then(|| {
            self.next += 1;
            self.cells[self.next as usize - 1]
        })
    }
}

/// Why a step was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Its letter was passed before (naive).
    Passed,
    /// The walk cannot beat the best one (smart).
    Bound,
    /// The same state was walked from before (smart).
    Walked,
}

/// 1987 (alphabet), traced two ways.
///
/// Both searches walk the piece from the top-left cell, trying the cells
/// above, below, left and right in that order; a walk that cannot go on is a
/// solution, and the longest one is the answer. The naive search is the one
/// a learner writes first: every neighbour on the board is tried and
/// rejected when its letter was passed (the line names the cell where). The
/// smart one is the library's ([`crate::boj::alphabet`]): the letters passed
/// are a 26-bit set, so only neighbours with a new letter are tried; a step
/// is cut when the cells walked plus the board's letters not yet passed
/// cannot beat the best walk (which also stops the search once a walk has
/// passed every letter), and when it reaches a state already walked from
/// (the same cell with the same letters passed: what follows depends on
/// nothing else). Both find the same longest walk.
#[derive(Debug, Clone)]
pub struct AlphabetSearch {
    walked: Walked,
    /// Whether only new letters are tried and hopeless or repeated states cut (the smart search).
    smart: bool,
    /// The set of letters on the board.
    on_board: u32,
    /// The states walked from, `cell << 26 | letters passed`.
    seen: HashSet<u64>,
    /// Whether each step passed a new letter.
    new: Vec<bool>,
    /// Why the last push was rejected, if it was.
    cut: Option<Cut>,
}

impl AlphabetSearch {
    /// The search of `board` that `strategy` names.
    pub fn new(board: &Board, strategy: Strategy) -> AlphabetSearch {
        let walked = Walked::new(board);
        let on_board = walked.letters.iter().fold(0u32, |set, &l| set | 1 << l);
        let seen = HashSet::from([u64::from(walked.passed)]);
        AlphabetSearch { walked, smart: strategy == Strategy::Smart, on_board, seen, new: Vec::new(), cut: None }
    }

    /// The cells walked and the board's letters not yet passed.
    fn reach(&self) -> (u32, u32) {
        (self.walked.path.len() as u32, (self.on_board & !self.walked.passed).count_ones())
    }

    /// Why the step just made onto `cell` (a new letter `new`) is rejected, if it is.
    fn cut(&mut self, cell: u16, new: bool) -> Option<Cut> {
        if !new {
            return Some(Cut::Passed);
        }
        if !self.smart {
            return None;
        }
        let (cells, left) = self.reach();
        if cells + left <= self.walked.best {
            return Some(Cut::Bound);
        }
        let state = u64::from(cell) << 26 | u64::from(self.walked.passed);
        (!self.seen.insert(state)).then_some(Cut::Walked)
    }
}

impl Space for AlphabetSearch {
    type Branch = Neighbours;
    /// A cell, row-major.
    type Choice = u16;
    /// The walk's length.
    type Solution = u32;

    fn expand(&mut self, _order: Order) -> Node<Neighbours> {
        if !self.walked.can_go_on() {
            self.walked.reached();
            return Node::Solution;
        }
        let w = &self.walked;
        Node::Branch(Neighbours::of(w.neighbours().filter(|&c| !self.smart || w.is_new(c))))
    }

    fn next_choice(&mut self, branch: &mut Neighbours) -> Option<u16> {
        branch.next()
    }

    fn push(&mut self, cell: u16) -> bool {
        let new = self.walked.step(cell);
        self.new.push(new);
        self.cut = self.cut(cell, new);
        self.cut.is_none()
    }

    fn pop(&mut self) {
        let new = self.new.pop().expect("pop matches a push");
        self.walked.step_back(new);
    }

    fn solution(&self) -> u32 {
        self.walked.path.len() as u32
    }
}

impl Traced for AlphabetSearch {
    fn board(&self, out: &mut Vec<u8>) {
        self.walked.board(out);
    }
    fn choice_text(&self, cell: u16, _depth: usize, _lang: Lang) -> String {
        self.walked.choice_text(cell)
    }
    fn focus(&self, cell: u16, _depth: usize) -> Option<usize> {
        Some(cell as usize)
    }
    fn rejection(&self, cell: u16, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        let w = &self.walked;
        match self.cut {
            Some(Cut::Passed) => {
                // The rejected step is the walk's last cell: the earlier cell with its letter made it fail.
                let path = &w.path[..w.path.len() - 1];
                let at = *path.iter().find(|&&c| w.letters[c as usize] == w.letters[cell as usize]).expect("passed");
                let at_name = w.cell_name(at);
                (Words::LetterPassed { letter: w.letter(cell), at: &at_name }.say(lang), Some(at as usize))
            }
            Some(Cut::Walked) => {
                let letters: String =
                    (0..26u8).filter(|l| w.passed & 1 << l != 0).map(|l| (b'A' + l) as char).collect();
                (Words::StateWalked { at: &w.cell_name(cell), letters: &letters }.say(lang), None)
            }
            Some(Cut::Bound) | None => {
                let (cells, left) = self.reach();
                (Words::CannotBeat { cells, left, best: w.best }.say(lang), None)
            }
        }
    }
    fn solution_text(&self, lang: Lang) -> String {
        self.walked.solution_text(lang)
    }
    fn answer(&self) -> Option<Answer> {
        self.walked.answer()
    }
}
