//! Traces of the search: events against the search core's own counters,
//! known solution counts, the naive order, and boards replayed from events.

use std::ops::ControlFlow;

use backtrack::queens::QueensSpace;
use backtrack::search::Search;
use backtrack::sudoku::GeneralSpace;
use backtrack::trace::{self, Event, Kind, LectureQueens, NaiveSudoku, Problem, Strategy};

/// OEIS A000170, N = 1..=8.
const QUEENS: [u64; 8] = [1, 0, 0, 2, 10, 4, 40, 92];

const NEWSPAPER: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const HARD: &str = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

fn events(problem: &Problem, strategy: Strategy) -> Vec<Event> {
    let mut all = Vec::new();
    let outcome = trace::run(problem, strategy, 0, u64::MAX, |e| all.push(e.clone()));
    assert!(outcome.complete);
    assert_eq!(outcome.events, all.len() as u64);
    all
}

fn sudoku(text: &str) -> Problem {
    Problem::from_words(&format!("sudoku {text}")).unwrap()
}

fn count(events: &[Event], kind: Kind) -> u64 {
    events.iter().filter(|e| e.kind == kind).count() as u64
}

fn walk_stats<S: backtrack::search::Space>(space: S) -> backtrack::search::Stats {
    let mut search = Search::new(space);
    search.walk(|_| ControlFlow::Continue(()));
    search.stats()
}

/// Tries and rejections are the core's nodes; solutions its solutions;
/// every accepted try is undone once.
fn check_counts(events: &[Event], stats: backtrack::search::Stats) {
    assert_eq!(count(events, Kind::Try) + count(events, Kind::Reject), stats.nodes);
    assert_eq!(count(events, Kind::Solution), stats.solutions);
    assert_eq!(count(events, Kind::Try), count(events, Kind::Undo));
    let last = events.last().unwrap();
    assert_eq!((last.nodes, last.solutions), (stats.nodes, stats.solutions));
}

#[test]
fn queens_events_match_the_core_and_known_counts() {
    for n in 1..=8 {
        let problem = Problem::Queens { n };
        let naive = events(&problem, Strategy::Naive);
        let smart = events(&problem, Strategy::Smart);
        check_counts(&naive, walk_stats(LectureQueens::new(n)));
        check_counts(&smart, walk_stats(QueensSpace::new(n).unwrap()));
        assert_eq!(count(&naive, Kind::Solution), QUEENS[n - 1], "n = {n}");
        assert_eq!(count(&smart, Kind::Solution), QUEENS[n - 1], "n = {n}");
        // The textbook search tries all n columns of every row it reaches.
        assert_eq!(count(&smart, Kind::Reject), 0);
        let summary = trace::summary(&problem);
        assert_eq!(summary.solutions, QUEENS[n - 1]);
        assert_eq!(summary.naive_nodes, Some(count(&naive, Kind::Try) + count(&naive, Kind::Reject)));
        assert!(summary.complete && !summary.stopped);
        assert!(summary.to_string().starts_with(&format!("summary: {} solution", QUEENS[n - 1])));
    }
}

/// A summary whose smart search was stopped gives its count as a lower
/// bound, in its text as in its fields, for every kind of problem.
#[test]
fn a_stopped_summary_says_its_count_is_a_lower_bound() {
    // Each search walks 20 million nodes. By default queens (a naive and a
    // smart search, both stopped) and permutations (one search): under a
    // second. The empty sudoku's two searches take about eight seconds more:
    // in the long version (BACKTRACK_LONG_TESTS=1).
    let mut problems = vec![Problem::Queens { n: 14 }, Problem::Choose { combinations: false, n: 12, m: 12 }];
    if crate::effort::long() {
        problems.push(sudoku(&".".repeat(81)));
    }
    let mut queens_found = None;
    for problem in problems {
        let summary = trace::summary(&problem);
        if let Problem::Queens { .. } = problem {
            queens_found = Some(summary.solutions);
        }
        assert!(!summary.complete && summary.stopped, "{problem:?}");
        assert_eq!(summary.nodes, trace::SUMMARY_NODES);
        let text = summary.to_string();
        let expected =
            format!("summary: stopped after 20000000 nodes: at least {} solutions; nodes: ", summary.solutions);
        assert!(text.starts_with(&expected), "{text}");
    }
    // 14 queens have 365,596 solutions; the stopped search found fewer.
    assert!(queens_found.is_some_and(|found| found < 365_596));
}

#[test]
fn sudoku_events_match_the_core() {
    for text in [NEWSPAPER, HARD] {
        let problem = sudoku(text);
        let Problem::Sudoku { box_size, cells } = &problem else { unreachable!() };
        let smart = events(&problem, Strategy::Smart);
        check_counts(&smart, walk_stats(GeneralSpace::new(*box_size, cells)));
        assert_eq!(count(&smart, Kind::Solution), 1);
        if text == NEWSPAPER {
            let naive = events(&problem, Strategy::Naive);
            check_counts(&naive, walk_stats(NaiveSudoku::new(*box_size, cells)));
            assert_eq!(
                naive.iter().rev().find(|e| e.kind == Kind::Solution).unwrap().detail,
                smart.iter().find(|e| e.kind == Kind::Solution).unwrap().detail
            );
        }
    }
}

#[test]
fn naive_sudoku_fills_row_major_smallest_digit_first() {
    let problem = sudoku(HARD);
    let Problem::Sudoku { cells, .. } = &problem else { unreachable!() };
    let blanks: Vec<usize> = (0..81).filter(|&i| cells[i] == 0).collect();
    let mut last_digit = vec![0u8; blanks.len() + 1];
    let mut seen = 0;
    trace::run(&problem, Strategy::Naive, 0, 200_000, |e| {
        if matches!(e.kind, Kind::Try | Kind::Reject) {
            // The choice below depth d fills the d-th blank, row-major.
            assert_eq!(e.focus, Some(blanks[e.depth]), "{e}");
            let digit = e.choice.rsplit('=').next().unwrap().parse::<u8>().unwrap();
            // Digits come one by one from 1 at each node.
            assert_eq!(digit, last_digit[e.depth] + 1, "{e}");
            last_digit[e.depth] = digit;
            last_digit[e.depth + 1] = 0;
            seen += 1;
        }
    });
    assert!(seen > 100_000);
}

#[test]
fn boards_replay_from_the_changes() {
    for (problem, strategy) in [
        (Problem::Queens { n: 6 }, Strategy::Naive),
        (sudoku(HARD), Strategy::Smart),
        (Problem::Choose { combinations: false, n: 4, m: 3 }, Strategy::Smart),
    ] {
        let start = trace::start_board(&problem, strategy);
        let mut board = start.clone();
        for e in events(&problem, strategy) {
            for change in &e.changes {
                assert_eq!(board[change.cell], change.before, "{e}");
                board[change.cell] = change.after;
            }
            match e.kind {
                Kind::Try => assert_ne!(board[e.focus.unwrap()], 0, "{e}"),
                Kind::Reject | Kind::Dead | Kind::Solution => assert!(e.changes.is_empty(), "{e}"),
                Kind::Undo => assert!(!e.changes.is_empty(), "{e}"),
            }
        }
        assert_eq!(board, start, "the search ends where it began");
    }
}

#[test]
fn pieces_of_a_trace_join_into_the_whole() {
    let problem = Problem::Queens { n: 6 };
    let whole: Vec<String> = events(&problem, Strategy::Naive).iter().map(Event::to_string).collect();
    let mut joined = Vec::new();
    let mut piece = 1;
    loop {
        let before = joined.len();
        let outcome = trace::run(&problem, Strategy::Naive, before as u64, piece, |e| joined.push(e.to_string()));
        assert_eq!(outcome.events as usize, joined.len() - before);
        if outcome.complete {
            break;
        }
        piece = piece * 3 + 1;
    }
    assert_eq!(joined, whole);
}

#[test]
fn problems_out_of_range_are_refused() {
    assert!(Problem::from_words("queens 21").is_err());
    assert!(Problem::from_words("queens x").is_err());
    assert!(Problem::from_words("choose perm 3 4").is_err());
    assert!(Problem::from_words("sudoku 123").is_err());
    assert_eq!(Problem::from_words("choose comb 5 2"), Ok(Problem::Choose { combinations: true, n: 5, m: 2 }));
}

/// The judge problems a trace follows: their samples, then random inputs
/// small enough for the naive searches.
fn judge_inputs() -> Vec<(u32, String)> {
    let mut inputs: Vec<(u32, String)> = [
        (14888, "2\n5 6\n0 0 1 0\n"),
        (14888, "3\n3 4 5\n1 0 1 0\n"),
        (14888, "6\n1 2 3 4 5 6\n2 1 1 1\n"),
        (1759, "4 6\na t c i s w\n"),
        (1759, "3 4\nb c d a\n"),
        (1759, "3 3\na e b\n"),
        (1987, "2 4\nCAAB\nADCB\n"),
        (1987, "3 6\nHFDFFB\nAJHGDH\nDGAGEH\n"),
        (1987, "5 5\nIEFCJ\nFHFKC\nFFALF\nHFGCF\nHMCHH\n"),
        (1987, "1 1\nA\n"),
    ]
    .iter()
    .map(|&(id, text)| (id, text.to_string()))
    .collect();
    let mut rng = crate::common::Rng::new(0x1987_1759_1488);
    for _ in 0..30 {
        let n = 2 + rng.below(6);
        let numbers: Vec<String> = (0..n)
            .map(|_| {
                let most = if rng.below(2) == 0 { 9 } else { 100 };
                (1 + rng.below(most)).to_string()
            })
            .collect();
        let mut counts = [0; 4];
        for _ in 1..n {
            counts[rng.below(4)] += 1;
        }
        let counts = counts.map(|c| c.to_string()).join(" ");
        inputs.push((14888, format!("{n}\n{}\n{counts}\n", numbers.join(" "))));

        let c = 3 + rng.below(8);
        let mut letters: Vec<char> = ('a'..='z').collect();
        rng.shuffle(&mut letters);
        let letters: Vec<String> = letters[..c].iter().map(char::to_string).collect();
        let l = 3 + rng.below(c - 2);
        inputs.push((1759, format!("{l} {c}\n{}\n", letters.join(" "))));

        let (r, cols) = (1 + rng.below(4), 1 + rng.below(4));
        let kinds = 2 + rng.below(8);
        let rows: Vec<String> =
            (0..r).map(|_| (0..cols).map(|_| (b'A' + rng.below(kinds) as u8) as char).collect()).collect();
        inputs.push((1987, format!("{r} {cols}\n{}\n", rows.join("\n"))));
    }
    inputs
}

/// Each traced judge problem, both ways: events that match the core's
/// counters, the judge's own answer from both searches, fewer nodes for the
/// pruned one, and (14888) the library's node count.
#[test]
fn judge_problems_traced_both_ways_give_the_judges_answer() {
    use backtrack::boj;
    use backtrack::trace::{AlphabetSearch, Answer, OperatorsSearch, PasswordSearch};
    for (id, input) in judge_inputs() {
        let problem = Problem::from_boj(id, &input).unwrap().unwrap();
        let naive = events(&problem, Strategy::Naive);
        let smart = events(&problem, Strategy::Smart);
        let expected = match &problem {
            Problem::Operators(expr) => {
                check_counts(&naive, walk_stats(OperatorsSearch::new(expr, Strategy::Naive)));
                check_counts(&smart, walk_stats(OperatorsSearch::new(expr, Strategy::Smart)));
                let library = boj::operators::extremes(expr);
                // The library counts the root as a node too.
                assert_eq!(smart.last().unwrap().nodes + 1, library.nodes, "{input}");
                Some(Answer::Extremes { max: library.max, min: library.min })
            }
            Problem::Password(letters) => {
                check_counts(&naive, walk_stats(PasswordSearch::new(letters, Strategy::Naive)));
                check_counts(&smart, walk_stats(PasswordSearch::new(letters, Strategy::Smart)));
                let judge = boj::solve_1759(&input).unwrap();
                for side in [&naive, &smart] {
                    let found: String =
                        side.iter().filter(|e| e.kind == Kind::Solution).map(|e| format!("{}\n", e.detail)).collect();
                    assert_eq!(found, judge, "{input}");
                }
                None
            }
            Problem::Alphabet(board) => {
                check_counts(&naive, walk_stats(AlphabetSearch::new(board, Strategy::Naive)));
                check_counts(&smart, walk_stats(AlphabetSearch::new(board, Strategy::Smart)));
                let cells = boj::solve_1987(&input).unwrap().trim().parse().unwrap();
                Some(Answer::Longest { cells })
            }
            other => unreachable!("{other:?}"),
        };
        assert_eq!(trace::answer(&problem, Strategy::Naive), expected, "{input}");
        assert_eq!(trace::answer(&problem, Strategy::Smart), expected, "{input}");
        let summary = trace::summary(&problem);
        assert_eq!(summary.answer, expected);
        assert!(summary.nodes <= summary.naive_nodes.unwrap(), "{input}: {summary}");
        if id == 14888 {
            let judge = boj::solve_14888(&input).unwrap();
            assert!(
                summary.to_string().ends_with(&format!(
                    "; answer: max {}, min {}",
                    judge.lines().next().unwrap(),
                    judge.lines().nth(1).unwrap()
                )),
                "{summary}"
            );
        }
    }
}

/// The pruned searches cut where the plain ones walk on: the naive search
/// needs more nodes, and the lines say why.
#[test]
fn judge_problem_traces_show_the_cuts() {
    let cases = [
        (14888, "6\n1 2 3 4 5 6\n2 1 1 1\n", (325, 112), "already walked with the same operators used"),
        (1759, "4 6\na t c i s w\n", (56, 32), "left after it"),
        (1987, "5 5\nIEFCJ\nFHFKC\nFFALF\nHFGCF\nHMCHH\n", (149, 45), "was walked from before"),
        (1987, "2 3\nABC\nDEF\n", (31, 7), "cannot beat 6"),
    ];
    for (id, input, (naive_nodes, smart_nodes), cut) in cases {
        let problem = Problem::from_boj(id, input).unwrap().unwrap();
        let summary = trace::summary(&problem);
        assert_eq!((summary.naive_nodes, summary.nodes), (Some(naive_nodes), smart_nodes), "{id}");
        let smart = events(&problem, Strategy::Smart);
        assert!(smart.iter().any(|e| e.kind == Kind::Reject && e.detail.contains(cut)), "{id}");
    }
}

#[test]
fn judge_problem_boards_replay_from_the_changes() {
    for (id, input) in judge_inputs().into_iter().take(10) {
        let problem = Problem::from_boj(id, &input).unwrap().unwrap();
        for strategy in [Strategy::Naive, Strategy::Smart] {
            let start = trace::start_board(&problem, strategy);
            assert_eq!(start.len(), problem.board_len());
            let mut board = start.clone();
            for e in events(&problem, strategy) {
                for change in &e.changes {
                    assert_eq!(board[change.cell], change.before, "{e}");
                    board[change.cell] = change.after;
                }
            }
            assert_eq!(board, start, "{id}: the search ends where it began");
        }
    }
}

#[test]
fn judge_problems_out_of_range_are_refused() {
    assert!(Problem::from_boj(9663, "8").is_none());
    assert!(Problem::from_boj(14888, "2\n5 x\n").unwrap().is_err());
    let twelve = "12\n1 2 3 4 5 6 7 8 9 10 11 12\n11 0 0 0\n";
    assert!(Problem::from_boj(14888, twelve).unwrap().unwrap().check().is_err());
    assert!(Problem::from_words(&format!("boj 14888 {twelve}")).is_err());
    assert!(Problem::from_words("boj 9663 8").unwrap_err().to_string().contains("14888, 1759, 1987"));
    let board = format!("21 1\n{}", "A\n".repeat(21));
    assert!(Problem::from_words(&format!("boj 1987 {board}")).is_err());
    assert!(matches!(Problem::from_words("boj 1759 3 4 a b c d"), Ok(Problem::Password(_))));
}
