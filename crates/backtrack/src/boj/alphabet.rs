//! The alphabet board (1987 알파벳): R x C cells, each with a capital letter;
//! a piece starts on the top-left cell and moves up, down, left or right,
//! never onto a letter it has already passed. The most cells it can pass,
//! the first one included, is wanted.
//!
//! # The search
//!
//! A depth-first walk from the top-left cell keeps the letters passed as a
//! 26-bit set. It stops everything once a walk has passed every letter on
//! the board, cuts a branch when its letters plus all the board's letters
//! not yet passed cannot beat the best walk, and skips a (cell, letters)
//! state already walked from: what follows depends on nothing else, and the
//! same letters cannot hold the same cell twice on one path, so a repeat is
//! always a finished state. Those states are remembered in a fixed table
//! (a newer state overwrites an older one in its slot), so memory stays
//! small whatever the board.

use crate::error::Quoted;
use crate::tokens::Tokens;
use crate::ParseError;

/// Most rows and most columns (the judge's limit is 20).
pub const MAX_SIDE: usize = 100;

/// Slots of the table of walked states (a power of two).
const SEEN_SLOTS: usize = 1 << 16;

/// One board: its rows of letters, `A` to `Z`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The rows, each of the same length, as letter indexes 0 (A) to 25 (Z).
    pub rows: Vec<Vec<u8>>,
}

/// The longest walk's length, and how many nodes the walk visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Longest {
    /// The most cells a walk passes, the first one included.
    pub cells: u32,
    /// Nodes of the search tree visited.
    pub nodes: u64,
}

/// Reads `R C` (each `1..=`[`MAX_SIDE`]) and R rows of C capital letters.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let mut tokens = Tokens::new(text);
    let r: usize = tokens.number("R", 1, MAX_SIDE)?;
    let c: usize = tokens.number("C", 1, MAX_SIDE)?;
    let mut rows = Vec::with_capacity(r);
    for i in 1..=r {
        let token = tokens.expect(&format!("row {i} of {r}"))?;
        if let Some((at, bad)) = token.text.chars().enumerate().find(|(_, ch)| !ch.is_ascii_uppercase()) {
            return Err(ParseError::new(
                token.line,
                token.column + at,
                format!("expected a capital letter A-Z, found `{bad}`"),
            ));
        }
        if token.text.len() != c {
            return Err(token.error(format!(
                "row {i} must have C = {c} letters, found {} in `{}`",
                token.text.len(),
                Quoted(token.text)
            )));
        }
        rows.push(token.text.bytes().map(|b| b - b'A').collect());
    }
    tokens.expect_end("the R rows")?;
    Ok(Board { rows })
}

/// The most cells a walk from the top-left cell can pass.
pub fn longest_walk(board: &Board) -> Longest {
    let (r, c) = (board.rows.len(), board.rows[0].len());
    let letters: Vec<u8> = board.rows.concat();
    let on_board = letters.iter().fold(0u32, |set, &l| set | 1 << l);
    let mut walk = Walk {
        letters: &letters,
        r,
        c,
        on_board,
        goal: on_board.count_ones(),
        seen: vec![u64::MAX; SEEN_SLOTS],
        best: 0,
        nodes: 0,
    };
    walk.visit(0, 1 << letters[0]);
    Longest { cells: walk.best, nodes: walk.nodes }
}

/// The walk over paths and its table of walked states.
struct Walk<'a> {
    /// The cells' letters, row by row.
    letters: &'a [u8],
    r: usize,
    c: usize,
    /// The set of letters on the board.
    on_board: u32,
    /// How many letters the board has: no walk passes more cells.
    goal: u32,
    /// Walked states, `cell << 26 | letters`, one per slot.
    seen: Vec<u64>,
    best: u32,
    nodes: u64,
}

impl Walk<'_> {
    /// The piece is on `cell` having passed the letters of the set `passed`.
    fn visit(&mut self, cell: usize, passed: u32) {
        self.nodes += 1;
        let cells = passed.count_ones();
        self.best = self.best.max(cells);
        if self.best == self.goal || cells + (self.on_board & !passed).count_ones() <= self.best {
            return;
        }
        let state = (cell as u64) << 26 | u64::from(passed);
        let slot = (state.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as usize % SEEN_SLOTS;
        if self.seen[slot] == state {
            return;
        }
        self.seen[slot] = state;
        let (row, col) = (cell / self.c, cell % self.c);
        let neighbours = [
            (row > 0).then(|| cell - self.c),
            (row + 1 < self.r).then(|| cell + self.c),
            (col > 0).then(|| cell - 1),
            (col + 1 < self.c).then(|| cell + 1),
        ];
        for next in neighbours.into_iter().flatten() {
            let bit = 1 << self.letters[next];
            if passed & bit == 0 {
                self.visit(next, passed | bit);
            }
        }
    }
}

/// Judge-exact answer of 1987.
pub fn solve_1987(input: &str) -> Result<String, ParseError> {
    Ok(format!("{}\n", longest_walk(&parse_board(input)?).cells))
}
