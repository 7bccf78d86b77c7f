//! Sudoku and Sudominoku as exact cover, checked against a plain backtracking
//! sudoku solver (the tests' common one) and against the published samples.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use backtrack::search::Search;
use backtrack::xcover::sudoku::{DominoClue, SudokuCover, SudominokuCover};
use backtrack::xcover::{parse, Engine};
use proptest::prelude::*;

use crate::common::naive_solutions;

fn digits(line: &str) -> Vec<u8> {
    line.trim().bytes().map(|b| if b == b'.' || b == b'0' { 0 } else { b - b'0' }).collect()
}

fn cover_solutions(cover: &SudokuCover, limit: usize) -> Vec<Vec<u8>> {
    let mut grids = Vec::new();
    Search::new(cover.problem().space()).for_each(|s| {
        grids.push(cover.grid(&s));
        if grids.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    grids
}

const ANTIBRUTE: &str = include_str!("../../../../tests/data/xcover/sudoku-antibrute.txt");

#[test]
fn antibrute_has_one_solution_matching_the_dlx_file() {
    let grid = digits(ANTIBRUTE);
    let cover = SudokuCover::new(3, &grid).unwrap();
    assert_eq!(cover.problem().n_items(), 324);
    for engine in [Engine::Small, Engine::Dense, Engine::Links] {
        assert_eq!(Search::new(cover.problem().space_on(engine)).count(None), 1);
    }
    let solved = cover.grid(&cover.problem().first().unwrap());
    assert!(grid.iter().zip(&solved).all(|(&g, &s)| g == 0 || g == s));
    // The same puzzle in Knuth's format (items p<r><c>, r<r><d>, ...) solves to the same grid.
    let parsed = parse(include_str!("../../../../tests/data/xcover/sudoku-antibrute.dlx")).unwrap();
    let solution = parsed.problem.first().unwrap();
    let mut from_file = vec![0u8; 81];
    for &o in &solution {
        let words: Vec<&str> = parsed.option_lines[o].split_whitespace().collect();
        let cell = words[0].as_bytes();
        let row_digit = words[1].as_bytes();
        from_file[(cell[1] - b'0') as usize * 9 + (cell[2] - b'0') as usize] = row_digit[2] - b'0';
    }
    assert_eq!(from_file, solved);
    assert_eq!(parsed.problem.count(None), 1);
}

#[test]
fn all_4x4_grids() {
    let cover = SudokuCover::new(2, &[0; 16]).unwrap();
    let grids: BTreeSet<Vec<u8>> = cover_solutions(&cover, usize::MAX).into_iter().collect();
    let brute = naive_solutions(2, &mut [0; 16], usize::MAX);
    assert_eq!(grids.len(), 288);
    assert_eq!(grids, brute.into_iter().collect());
}

#[test]
fn bad_grids_are_refused() {
    assert!(SudokuCover::new(3, &[0; 80]).is_none());
    let mut grid = [0u8; 81];
    grid[5] = 10;
    assert!(SudokuCover::new(3, &grid).is_none());
    // Clashing givens are a valid problem with no solution.
    grid[5] = 1;
    grid[6] = 1;
    assert_eq!(SudokuCover::new(3, &grid).unwrap().problem().count(None), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Blank random cells of the antibrute solution (and sometimes change a given), then compare
    /// the solutions (up to a limit) with the brute force.
    #[test]
    fn random_puzzles_match_brute_force(
        blanks in proptest::collection::btree_set(0usize..81, 0..60),
        change in proptest::option::of((0usize..81, 1u8..=9)),
    ) {
        let cover = SudokuCover::new(3, &digits(ANTIBRUTE)).unwrap();
        let mut grid = cover.grid(&cover.problem().first().unwrap());
        for &b in &blanks {
            grid[b] = 0;
        }
        if let Some((cell, d)) = change {
            grid[cell] = d;
        }
        const LIMIT: usize = 30;
        let brute = naive_solutions(3, &mut grid.clone(), LIMIT);
        let cover = SudokuCover::new(3, &grid).unwrap();
        let mine = cover_solutions(&cover, LIMIT);
        prop_assert_eq!(mine.len(), brute.len());
        if brute.len() < LIMIT {
            let a: BTreeSet<_> = mine.into_iter().collect();
            let b: BTreeSet<_> = brute.into_iter().collect();
            prop_assert_eq!(a, b);
        }
    }
}

/// The first sample puzzle of the Sudominoku problem, with its published answer.
#[test]
fn sudominoku_sample_solves_to_the_published_grid() {
    let cell = |name: &str| {
        let b = name.as_bytes();
        (b[0] - b'A') as usize * 9 + (b[1] - b'1') as usize
    };
    let dominoes: Vec<DominoClue> = [
        "6 B2 1 B3",
        "2 C4 9 C3",
        "6 D3 8 E3",
        "7 E1 4 F1",
        "8 B7 4 B8",
        "3 F5 2 F6",
        "7 F7 6 F8",
        "5 G4 9 G5",
        "7 I8 8 I9",
        "7 C9 2 B9",
    ]
    .iter()
    .map(|line| {
        let w: Vec<&str> = line.split(' ').collect();
        DominoClue {
            first_digit: w[0].parse().unwrap(),
            first: cell(w[1]),
            second_digit: w[2].parse().unwrap(),
            second: cell(w[3]),
        }
    })
    .collect();
    let singles: Vec<usize> = "C5 A3 D9 I4 A9 E5 A2 C6 I1".split(' ').map(cell).collect();
    let cover = SudominokuCover::new(&dominoes, &singles.try_into().unwrap()).unwrap();
    let mut grids = BTreeSet::new();
    Search::new(cover.problem().space()).for_each(|s| {
        grids.insert(cover.grid(&s));
        ControlFlow::Continue(())
    });
    let expected: Vec<u8> = "872643195361975842549218637126754983738169254495832761284597316657381429913426578"
        .bytes()
        .map(|b| b - b'0')
        .collect();
    assert_eq!(grids.len(), 1);
    assert_eq!(grids.into_iter().next().unwrap().to_vec(), expected);
    // Overlapping givens are refused.
    let clash = DominoClue { first: 0, first_digit: 1, second: 1, second_digit: 2 };
    assert!(SudominokuCover::new(&[clash], &[0, 2, 3, 4, 5, 6, 7, 8, 9]).is_none());
}
