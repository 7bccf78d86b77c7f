//! Nested forcing chains (dynamic chains with forcing chains, 9.5,
//! multiple forcing chains, 10.0, or dynamic forcing chains, 10.5, inside)
//! against Sudoku Explainer on the forum's hardest puzzles
//! (`se_forum_nested.tsv`): the first step of one, ER, EP and ED of a few,
//! every step checked against the solution.

use backtrack::sudoku::answer::RatingFields;
use backtrack::sudoku::rate::{explain_cells, next_step, Rater, Rating};
use backtrack::sudoku::score::Score;
use backtrack::sudoku::techniques::dynamic::{forcing_chain, Kind};
use backtrack::sudoku::techniques::{Board, Technique, Words};

use crate::common::rater::{cells_of as sudoku_cells, check_step, explain_checked};

/// A puzzle rated by Sudoku Explainer.
struct Rated {
    puzzle: Vec<u8>,
    /// ER, EP and ED in tenths.
    ratings: (u16, u16, u16),
    /// The nested kind of the hardest step, where it was recorded.
    hardest: Option<Technique>,
}

/// The rated puzzles: `PUZZLE<TAB>ER<TAB>EP<TAB>ED<TAB>HARDEST`.
fn forum() -> Vec<Rated> {
    let path = format!("{}/../../tests/data/sudoku/se_forum_nested.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let tenths = |field: &str| (field.parse::<f64>().unwrap() * 10.0).round() as u16;
    text.lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{line:?}");
            let hardest = match fields[4] {
                "-" => None,
                h if h.ends_with("+MFC") => Some(Technique::NestedMultipleForcingChain),
                h if h.ends_with("+DFC") => Some(Technique::NestedDynamicForcingChain),
                h if h.ends_with("+FC") => Some(Technique::NestedForcingChain),
                h => panic!("unknown step {h:?}"),
            };
            Rated {
                puzzle: sudoku_cells(fields[0]),
                ratings: (tenths(fields[1]), tenths(fields[2]), tenths(fields[3])),
                hardest,
            }
        })
        .collect()
}

#[test]
fn first_step_of_a_forum_puzzle_is_sudoku_explainers() {
    // Sudoku Explainer's first step: a dynamic contradiction forcing chain
    // with multiple forcing chains inside, 11.1, removing 2 from r1c3.
    let step = next_step(&Board::new(&forum()[0].puzzle).unwrap()).unwrap();
    assert_eq!((step.technique, step.rating.tenths()), (Technique::NestedMultipleForcingChain, 111), "{}", step.text);
    assert_eq!(step.eliminations, vec![(2, 2)]);
    assert!(step.text.contains("(multiple forcing chain)"), "{}", step.text);
}

/// Rates a puzzle and compares ER, EP, ED and the hardest kind with Sudoku
/// Explainer's; the ratings here, for the message.
fn agrees(rated: &Rated) -> Result<(), String> {
    let e = explain_checked(&rated.puzzle);
    let r = &e.rating;
    let got = (r.er.tenths(), r.ep.map_or(0, |r| r.tenths()), r.ed.map_or(0, |r| r.tenths()));
    if got != rated.ratings || rated.hardest.is_some_and(|h| r.hardest != Some(h)) {
        return Err(format!("{got:?} {:?} for Sudoku Explainer's {:?} {:?}", r.hardest, rated.ratings, rated.hardest));
    }
    Ok(())
}

#[test]
fn ratings_agree_with_sudoku_explainer_on_forum_puzzles() {
    // A few of the quicker ones: both nested kinds, contradiction and cell
    // chains, ED from 3.4 to 11.1.
    let forum = forum();
    for i in [0, 6, 10, 12] {
        if let Err(e) = agrees(&forum[i]) {
            panic!("puzzle {}: {e}", i + 1);
        }
    }
}

#[test]
#[ignore = "takes about 30 s; run with --ignored for the agreement on all the rated forum puzzles"]
fn ratings_agree_with_sudoku_explainer_on_all_rated_forum_puzzles() {
    let forum = forum();
    let mut exact = 0;
    for (i, rated) in forum.iter().enumerate() {
        match agrees(rated) {
            Ok(()) => exact += 1,
            Err(e) => {
                eprintln!("puzzle {}: {e}", i + 1);
                let er = explain_cells(&rated.puzzle).unwrap().rating.er.tenths();
                assert!(er.abs_diff(rated.ratings.0) <= 1, "puzzle {}: ER off by more than 0.1", i + 1);
            }
        }
    }
    eprintln!("{exact} of {} exact", forum.len());
    assert!(exact + 1 >= forum.len(), "{exact} of {} exact", forum.len());
}

#[test]
fn nested_chains_are_sound_on_forum_boards() {
    // On the boards after the first steps of 9.5 and up of a puzzle, both
    // nested kinds prove only true things.
    let mut found = [0usize; 2];
    let puzzle = &forum()[6].puzzle;
    let e = explain_cells(puzzle).unwrap();
    let mut board = Board::new(puzzle).unwrap();
    let mut boards = 0;
    for step in &e.steps {
        board.apply(step);
        if step.rating.tenths() >= 95 && !board.is_solved() && boards < 3 {
            boards += 1;
            for (k, kind) in [Kind::NestedForcing, Kind::NestedMultiple].into_iter().enumerate() {
                if let Some(s) = forcing_chain(&mut Rater::new(), &board, kind, Words::Write) {
                    check_step(&board, &s, &e.solution);
                    assert!(s.rating.tenths() >= [95, 100][k], "{}", s.text);
                    found[k] += 1;
                }
            }
        }
    }
    assert!(found.iter().all(|&n| n > 0), "{found:?}");
}

#[test]
fn dynamic_forcing_chains_nested_inside_rate_as_sudoku_explainer() {
    // Line 47,901 of the forum's list: after its first three steps (10.0,
    // 10.7, 10.9, as Sudoku Explainer's), no chain of the 10.0 level or
    // below applies; Sudoku Explainer's next level does: a dynamic cell
    // forcing chain with dynamic region forcing chains nested inside, 11.4
    // (base 10.5, complexity 72 with the nested chains' for +0.9).
    let puzzle = "98.76.5..7......9...5..9..885...7.6...4.3.8...........49...5.8....2..9.4......1..";
    let rated = forum().into_iter().find(|r| r.puzzle == sudoku_cells(puzzle)).expect("line 47,901 is rated");
    if let Err(e) = agrees(&rated) {
        panic!("line 47,901: {e}");
    }
    let e = explain_cells(&rated.puzzle).unwrap();
    let ratings: Vec<u16> = e.steps.iter().take(4).map(|s| s.rating.tenths()).collect();
    assert_eq!(ratings, [100, 107, 109, 114]);
    let step = &e.steps[3];
    assert_eq!(step.technique, Technique::NestedDynamicForcingChain, "{}", step.text);
    assert!(step.text.starts_with("Dynamic Cell Forcing Chain (+ Dynamic Forcing Chains): "), "{}", step.text);
    assert!(step.text.contains("(dynamic forcing chain)"), "{}", step.text);
    // Only when every easier kind fails: none of them applies there.
    let mut board = Board::new(&rated.puzzle).unwrap();
    for s in &e.steps[..3] {
        board.apply(s);
    }
    for kind in &Kind::ALL[..Kind::ALL.len() - 1] {
        assert!(forcing_chain(&mut Rater::new(), &board, *kind, Words::Write).is_none(), "{kind:?}");
    }
}

#[test]
fn a_rating_beyond_this_rater_says_so() {
    // A path that stops (no technique applies) gives no ER number: the
    // text and the JSON say `beyond` and keep the hardest step reached.
    let r = Rating {
        er: Score::from_tenths(109),
        ep: None,
        ed: Some(Score::from_tenths(100)),
        hardest: Some(Technique::NestedMultipleForcingChain),
        beyond: true,
    };
    assert_eq!(r.text(), "beyond/-/10.0");
    let json = serde_json::to_string(&RatingFields::from(&r)).unwrap();
    assert_eq!(json, "{\"er\":null,\"ep\":null,\"ed\":10.0,\"hardest\":\"Dynamic Forcing Chain (+ Multiple Forcing Chains)\",\"beyond\":true,\"reached\":10.9}");
}
