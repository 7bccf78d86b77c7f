//! The forcing chains above 7.0 (Nishio, cell and region, dynamic, dynamic
//! plus) against Sudoku Explainer: step by step on known puzzles, and
//! ratings on a sample of its 7.5+ puzzles, every step checked against the
//! solution.

use backtrack::sudoku::rate::{explain_cells, next_step, Rater};
use backtrack::sudoku::techniques::dynamic::{forcing_chain, Kind};
use backtrack::sudoku::techniques::{Board, Technique, Words};

use crate::common::rater::{cells_of as cells, check_step, explain_checked};

/// The sample: `PUZZLE<TAB>ER` (tenths).
fn bank() -> Vec<(Vec<u8>, u16)> {
    let path = format!("{}/../../tests/data/sudoku/se_bank_chains.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let (puzzle, er) = line.split_once('\t').expect("two fields");
            (cells(puzzle), (er.parse::<f64>().unwrap() * 10.0).round() as u16)
        })
        .collect()
}

/// The ratings of the steps rated 7.5 and up, in order, as Sudoku Explainer
/// 1.15.10 gives them (`serate --after=%r`), and the hardest technique.
const PATHS: [(&str, &[u16], Technique); 4] = [
    (
        "6..9.3..1.31...69.4.......5...........9.7.2....46325..9...1...4.28.9.35..........",
        &[78],
        Technique::NishioForcingChain,
    ),
    (
        "..6...2..9.......4243...896...591.....2.8.3..4..2.3..13.......7...9.7....1.4.8.2.",
        &[82],
        Technique::RegionForcingChain,
    ),
    (
        "7.....81..4...82.....2.6..3...32.9..2..8.4..7..3.67...8..6.2.....95...8..51.....2",
        &[83],
        Technique::CellForcingChain,
    ),
    (
        // Sudoku Explainer's path leaves this one after its 11th chain (a
        // grouped strong link technique this rater lacks): the first 11.
        "..64.15..3..5.9..1....3....2.5...7.3.3..4..2.67.....58.6.9.7.8.....5......23.49..",
        &[82, 85, 88, 89, 89, 90, 91, 91, 91, 91, 91],
        Technique::DynamicForcingChain,
    ),
];

#[test]
fn chain_steps_follow_sudoku_explainer_step_by_step() {
    for (puzzle, want, hardest) in PATHS {
        let e = explain_cells(&cells(puzzle)).unwrap();
        let got: Vec<u16> = e.steps.iter().map(|s| s.rating.tenths()).filter(|&r| r >= 75).collect();
        assert!(got.len() >= want.len() && got[..want.len()] == *want, "{puzzle}: {got:?}");
        let top = e.steps.iter().max_by_key(|s| s.rating).unwrap();
        assert_eq!(top.technique, hardest, "{puzzle}: {}", top.text);
    }
}

#[test]
fn dynamic_contradiction_after_sudoku_explainers_first_nested_step() {
    // A forum 11+ puzzle: Sudoku Explainer's first step (a nested chain)
    // removes 2 from r1c3; its second is a dynamic contradiction (9.4)
    // removing 4 from r7c3.
    let mut board =
        Board::new(&cells("98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"))
            .unwrap();
    board.cands[2] &= !(1 << 1);
    let step = next_step(&board).unwrap();
    assert_eq!((step.technique, step.rating.tenths()), (Technique::DynamicForcingChain, 94), "{}", step.text);
    assert_eq!(step.eliminations, vec![(6 * 9 + 2, 4)]);
    assert!(step.text.starts_with("Dynamic Contradiction Forcing Chain: if r7c3=4 then"), "{}", step.text);
}

#[test]
fn ratings_agree_with_sudoku_explainer_on_its_hardest_bank_puzzles() {
    // (band low, band high, share exact at least, share within 0.2 at least, in percent)
    let bands: [(u16, u16, usize, usize); 4] = [(75, 79, 85, 85), (80, 84, 98, 99), (85, 89, 95, 95), (90, 94, 80, 80)];
    let mut per_band = [(0usize, 0usize, 0usize); 4];
    let mut used = std::collections::BTreeSet::new();
    for (puzzle, er) in bank() {
        let e = explain_checked(&puzzle);
        used.extend(e.steps.iter().map(|s| s.technique));
        let band = bands.iter().position(|&(lo, hi, _, _)| (lo..=hi).contains(&er)).expect("a band");
        per_band[band].0 += 1;
        per_band[band].1 += (e.rating.er.tenths() == er) as usize;
        per_band[band].2 += (e.rating.er.tenths().abs_diff(er) <= 2) as usize;
    }
    for (&(lo, hi, exact, within), &(n, e, w)) in bands.iter().zip(&per_band) {
        assert!(n > 0 && e * 100 >= n * exact, "SE {lo}..{hi}: {e} of {n} exact, want {exact}%");
        assert!(w * 100 >= n * within, "SE {lo}..{hi}: {w} of {n} within 0.2, want {within}%");
    }
    for t in [
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
    ] {
        assert!(used.contains(&t), "{t} never used");
    }
}

#[test]
fn every_kind_of_chain_is_sound_where_chains_are_needed() {
    // On the board before each step of 7.5 and up of some sample puzzles,
    // every kind of forcing chain (the plus chains included, which Sudoku
    // Explainer's path rarely reaches) proves only true things.
    let mut found = [0usize; 4];
    for (puzzle, _) in bank().into_iter().step_by(8) {
        let e = explain_cells(&puzzle).unwrap();
        let mut board = Board::new(&puzzle).unwrap();
        for step in &e.steps {
            if step.rating.tenths() >= 75 {
                // The chains up to dynamic plus (the nested ones: nested_chains.rs).
                for (k, kind) in Kind::ALL[..4].iter().copied().enumerate() {
                    if let Some(s) = forcing_chain(&mut Rater::new(), &board, kind, Words::Write) {
                        check_step(&board, &s, &e.solution);
                        assert!(s.rating.tenths() >= [75, 80, 85, 90][k], "{}", s.text);
                        found[k] += 1;
                    }
                }
            }
            board.apply(step);
        }
    }
    assert!(found.iter().all(|&n| n > 0), "{found:?}");
}
