//! The exact cover encodings of Sudoku and Sudominoku against the dedicated solvers.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use backtrack::search::{Mode, Order, Search};
use backtrack::sudoku::kernel9;
use backtrack::sudominoku::{self, Placement, Puzzle};
use backtrack::xcover::sudoku::{DominoClue, SudokuCover, SudominokuCover};
use proptest::prelude::*;

fn cells(line: &str) -> [u8; 81] {
    let mut cells = [0u8; 81];
    for (c, b) in cells.iter_mut().zip(line.trim().bytes()) {
        *c = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    cells
}

/// Solutions of the exact cover form, up to `limit`, as grids.
fn cover_grids(cells: &[u8; 81], limit: usize) -> Vec<[u8; 81]> {
    let cover = SudokuCover::new(3, cells).unwrap();
    let mut grids = Vec::new();
    Search::new(cover.problem().space()).for_each(|s| {
        grids.push(cover.grid(&s).try_into().unwrap());
        if grids.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    grids
}

/// Solutions of the dedicated kernel, up to `limit`.
fn kernel_grids(cells: &[u8; 81], limit: usize) -> Vec<[u8; 81]> {
    let mut grids = Vec::new();
    kernel9::for_each(cells, Order::Heuristic, |g| {
        grids.push(*g);
        if grids.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    grids
}

#[test]
fn hard_sudokus_agree_with_the_kernel() {
    let text = include_str!("../../benches/data/royle_17_clue.1000.txt");
    for line in text.lines().filter(|l| l.trim().len() == 81).step_by(50) {
        let cells = cells(line);
        let kernel = kernel9::solve(&cells, Mode::Count { limit: Some(2) });
        let mine = cover_grids(&cells, 2);
        assert_eq!(mine.len() as u64, kernel.count, "{line}");
        assert_eq!(mine.first().copied(), kernel.solution, "{line}");
    }
}

const ANTIBRUTE: &str = include_str!("../../../../tests/data/xcover/sudoku-antibrute.txt");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Puzzles made by blanking cells of a solved grid (and sometimes changing one):
    /// the same solutions, up to a limit, as the kernel.
    #[test]
    fn random_sudokus_agree_with_the_kernel(
        blanks in proptest::collection::btree_set(0usize..81, 20..70),
        change in proptest::option::of((0usize..81, 1u8..=9)),
    ) {
        let mut grid = kernel9::solve(&cells(ANTIBRUTE), Mode::First).solution.unwrap();
        for &b in &blanks {
            grid[b] = 0;
        }
        if let Some((cell, d)) = change {
            grid[cell] = d;
        }
        const LIMIT: usize = 40;
        let mine = cover_grids(&grid, LIMIT);
        let theirs = kernel_grids(&grid, LIMIT);
        prop_assert_eq!(mine.len(), theirs.len());
        if mine.len() < LIMIT {
            prop_assert_eq!(mine.into_iter().collect::<BTreeSet<_>>(), theirs.into_iter().collect::<BTreeSet<_>>());
        }
    }
}

fn clue(p: &Placement) -> DominoClue {
    DominoClue {
        first: p.first as usize,
        first_digit: p.first_digit,
        second: p.second as usize,
        second_digit: p.second_digit,
    }
}

/// Distinct grids of the exact cover form, stopping once `limit` are found.
fn cover_grid_count(puzzle: &Puzzle, limit: usize) -> (BTreeSet<[u8; 81]>, bool) {
    let dominoes: Vec<DominoClue> = puzzle.dominoes.iter().map(clue).collect();
    let singles = puzzle.singles.map(usize::from);
    let cover = SudominokuCover::new(&dominoes, &singles).unwrap();
    let mut grids = BTreeSet::new();
    let mut complete = true;
    Search::new(cover.problem().space()).for_each(|s| {
        grids.insert(cover.grid(&s));
        if grids.len() >= limit {
            complete = false;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (grids, complete)
}

#[test]
fn sudominoku_samples_agree_with_the_dedicated_solver() {
    let text = include_str!("../../../../tests/data/sudominoku/sample.in");
    for puzzle in sudominoku::parse(text).unwrap() {
        let puzzle = puzzle.unwrap();
        let theirs = sudominoku::solve(&puzzle).unwrap();
        let (mine, complete) = cover_grid_count(&puzzle, 10);
        assert!(complete);
        assert_eq!(mine, BTreeSet::from([theirs.grid]));
        assert_eq!(sudominoku::count_grids(&puzzle, None), (1, true));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Puzzles made from a solved sample by keeping a random subset of its dominoes:
    /// the same number of distinct grids (up to a limit), and the dedicated
    /// solver's grid among ours.
    #[test]
    fn random_sudominokus_agree_with_the_dedicated_solver(
        keep in proptest::collection::btree_set(0usize..36, 8..20),
        which in 0usize..2,
    ) {
        let text = include_str!("../../../../tests/data/sudominoku/sample.in");
        let sample = sudominoku::parse(text).unwrap().swap_remove(which).unwrap();
        let solved = sudominoku::solve(&sample).unwrap();
        let dominoes: Vec<Placement> = keep.iter().map(|&k| solved.dominoes[k]).collect();
        let puzzle = Puzzle::new(dominoes, sample.singles).unwrap();
        const LIMIT: usize = 8;
        let (mine, complete) = cover_grid_count(&puzzle, LIMIT);
        let (count, their_complete) = sudominoku::count_grids(&puzzle, Some(LIMIT as u64));
        prop_assert_eq!(mine.len() as u64, count);
        prop_assert_eq!(complete, their_complete);
        let first = sudominoku::solve(&puzzle).unwrap();
        prop_assert!(!complete || mine.contains(&first.grid));
    }
}
