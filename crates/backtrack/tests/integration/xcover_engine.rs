//! The exact cover engines against a brute-force subset search, Knuth's color
//! rule, the builder's and the parser's checks, and the search core's modes.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use backtrack::search::{par_count, par_for_each, split, Control, Order, Search};
use backtrack::xcover::{parse, Engine, Problem, XcoverError};
use proptest::prelude::*;

use crate::common::n_threads;

/// A random instance: `n_primary` + `n_secondary` items, options as (item, color) lists
/// (color 0: none). Every option has at least one primary item.
#[derive(Debug, Clone)]
struct Instance {
    n_primary: usize,
    n_secondary: usize,
    options: Vec<Vec<(usize, u8)>>,
}

fn instance() -> impl Strategy<Value = Instance> {
    (1usize..=5, 0usize..=3).prop_flat_map(|(np, ns)| {
        let n = np + ns;
        let option = (0..np, proptest::collection::btree_map(0..n, 0u8..=2, 0..=3)).prop_map(move |(p, mut rest)| {
            rest.insert(p, 0);
            let mut items: Vec<(usize, u8)> =
                rest.into_iter().map(|(i, c)| if i < np { (i, 0) } else { (i, c) }).collect();
            // Mix the order so that the primary item is not always first.
            let len = items.len();
            items.rotate_left(p % len);
            items
        });
        proptest::collection::vec(option, 0..=12).prop_map(move |options| Instance {
            n_primary: np,
            n_secondary: ns,
            options,
        })
    })
}

/// Every subset of the options that is a solution, by checking all 2^n subsets.
fn brute_force(inst: &Instance) -> BTreeSet<Vec<usize>> {
    let n = inst.options.len();
    let mut found = BTreeSet::new();
    'subsets: for mask in 0u32..1 << n {
        let mut primary = vec![0; inst.n_primary];
        // Per secondary item: None untouched, Some(0) taken uncolored, Some(c) taken with color c.
        let mut secondary: Vec<Option<u8>> = vec![None; inst.n_secondary];
        for (o, option) in inst.options.iter().enumerate() {
            if mask >> o & 1 == 0 {
                continue;
            }
            for &(i, c) in option {
                if i < inst.n_primary {
                    primary[i] += 1;
                } else {
                    let s = &mut secondary[i - inst.n_primary];
                    match *s {
                        None => *s = Some(c),
                        Some(prev) if prev == c && c != 0 => {}
                        Some(_) => continue 'subsets,
                    }
                }
            }
        }
        if primary.iter().all(|&h| h == 1) {
            found.insert((0..n).filter(|&o| mask >> o & 1 == 1).collect());
        }
    }
    found
}

fn build(inst: &Instance) -> Problem {
    let mut b = Problem::builder();
    for i in 0..inst.n_primary {
        b.primary(&format!("p{i}")).unwrap();
    }
    for i in 0..inst.n_secondary {
        b.secondary(&format!("s{i}")).unwrap();
    }
    for option in &inst.options {
        let entries = option.iter().map(|&(i, c)| {
            let name = if i < inst.n_primary { format!("p{i}") } else { format!("s{}", i - inst.n_primary) };
            (name, (c > 0).then(|| char::from(b'A' + c - 1).to_string()))
        });
        b.option_colored(entries).unwrap();
    }
    b.build().unwrap()
}

/// The problem written in Knuth's format.
fn to_text(inst: &Instance) -> String {
    let mut text = String::from("| generated\n");
    let prim: Vec<String> = (0..inst.n_primary).map(|i| format!("p{i}")).collect();
    let sec: Vec<String> = (0..inst.n_secondary).map(|i| format!("s{i}")).collect();
    text.push_str(&prim.join(" "));
    if !sec.is_empty() {
        text.push_str(" | ");
        text.push_str(&sec.join(" "));
    }
    text.push('\n');
    for option in &inst.options {
        let words: Vec<String> = option
            .iter()
            .map(|&(i, c)| {
                if i < inst.n_primary {
                    format!("p{i}")
                } else if c == 0 {
                    format!("s{}", i - inst.n_primary)
                } else {
                    format!("s{}:{}", i - inst.n_primary, char::from(b'A' + c - 1))
                }
            })
            .collect();
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}

fn all_solutions(problem: &Problem, engine: Engine, order: Order) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    Search::new(problem.space_on(engine)).order(order).for_each(|s| {
        all.push(s);
        ControlFlow::Continue(())
    });
    all
}

fn as_set(solutions: &[Vec<usize>]) -> BTreeSet<Vec<usize>> {
    solutions
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.sort_unstable();
            s
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn engines_agree_with_brute_force(inst in instance()) {
        let expected = brute_force(&inst);
        let problem = build(&inst);
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            let space = problem.space_on(engine);
            prop_assert_eq!(space.engine(), engine);
            let all = all_solutions(&problem, engine, Order::Heuristic);
            // No solution twice, and exactly the brute-force set.
            prop_assert_eq!(all.len(), expected.len());
            prop_assert_eq!(&as_set(&all), &expected);
            prop_assert_eq!(Search::new(space.clone()).count(None), expected.len() as u64);
            // A walk stopped early leaves the space ready for the next one.
            let mut search = Search::new(space);
            prop_assert_eq!(search.count(Some(1)), expected.len().min(1) as u64);
            prop_assert_eq!(search.count(None), expected.len() as u64);
            prop_assert_eq!(search.first().is_some(), !expected.is_empty());
            prop_assert_eq!(search.count(None), expected.len() as u64);
        }
    }

    #[test]
    fn counting_walks_match_the_core(inst in instance(), limit in 1u64..4) {
        let problem = build(&inst);
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            let mut space = problem.space_on(engine);
            let control = Control::new();
            let mut search = Search::new(space.clone());
            let full = search.count(None);
            // Same count and same statistics as the core's walk.
            prop_assert_eq!(space.count_solutions(None, n_threads(1), &control).unwrap(), (full, search.stats()));
            let mut limited = Search::new(space.clone());
            let expected = limited.count(Some(limit));
            prop_assert_eq!(space.count_solutions(Some(limit), n_threads(1), &control).unwrap(), (expected, limited.stats()));
            prop_assert_eq!(space.count_solutions(Some(limit), n_threads(2), &control).unwrap().0, expected);
            prop_assert_eq!(space.count_solutions(None, n_threads(2), &control).unwrap().0, full);
            prop_assert_eq!(space.count_solutions(Some(0), n_threads(2), &control).unwrap().0, 0);
            let mut each = Vec::new();
            let stats = space.for_each_solution(n_threads(1), &control, |s| { each.push(s); ControlFlow::Continue(()) }).unwrap();
            prop_assert_eq!(each, all_solutions(&problem, engine, Order::Heuristic));
            prop_assert_eq!(stats, search.stats());
        }
    }

    #[test]
    fn lexicographic_order_is_sorted(inst in instance()) {
        let problem = build(&inst);
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            let all = all_solutions(&problem, engine, Order::Lexicographic);
            prop_assert!(all.windows(2).all(|w| w[0] < w[1]));
            prop_assert_eq!(as_set(&all), brute_force(&inst));
            let first = Search::new(problem.space_on(engine)).lex_first();
            prop_assert_eq!(first.as_ref(), all.first());
        }
    }

    #[test]
    fn parsing_the_text_form_gives_the_same_problem(inst in instance()) {
        let text = to_text(&inst);
        let parsed = parse(&text).unwrap();
        prop_assert_eq!(&parsed.problem, &build(&inst));
        prop_assert_eq!(parsed.option_lines.len(), inst.options.len());
        // Writing the problem back out and reading it again changes nothing.
        prop_assert_eq!(&parse(&parsed.problem.to_string()).unwrap().problem, &parsed.problem);
        for (o, line) in parsed.option_lines.iter().enumerate() {
            let written = parsed.problem.option_text(o);
            prop_assert_eq!(*line, written.as_str());
        }
    }

    #[test]
    fn splitting_and_parallel_runs_match_sequential(inst in instance(), depth in 0usize..3) {
        let problem = build(&inst);
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            let root = problem.space_on(engine);
            let sequential = all_solutions(&problem, engine, Order::Heuristic);
            let (count, _) = par_count(&root, Order::Heuristic, None, n_threads(2), &Control::new()).unwrap();
            prop_assert_eq!(count, sequential.len() as u64);
            let (limited, _) = par_count(&root, Order::Heuristic, Some(1), n_threads(2), &Control::new()).unwrap();
            prop_assert_eq!(limited, sequential.len().min(1) as u64);
            let mut in_parallel = Vec::new();
            par_for_each(&root, Order::Heuristic, n_threads(2), |s| { in_parallel.push(s); ControlFlow::Continue(()) }).unwrap();
            prop_assert_eq!(&in_parallel, &sequential);
            let mut splitter = root.clone();
            let pieces = split(&mut splitter, Order::Heuristic, depth);
            // Splitting leaves the space where it was.
            prop_assert_eq!(Search::new(splitter).count(None), sequential.len() as u64);
            let mut total = 0;
            for piece in &pieces {
                let mut space = root.clone();
                prop_assert!(backtrack::search::replay(&mut space, Order::Heuristic, piece));
                total += Search::new(space).count(None);
            }
            prop_assert_eq!(total, sequential.len() as u64);
        }
    }
}

/// Knuth's toy example: the only solution is `q x:A` with `p r x:A y`.
const TOY: &str = "| toy\np q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n";

#[test]
fn toy_colors_has_exactly_the_known_solution() {
    let parsed = parse(TOY).unwrap();
    for engine in [Engine::Small, Engine::Dense, Engine::Links] {
        let all = all_solutions(&parsed.problem, engine, Order::Heuristic);
        assert_eq!(as_set(&all), BTreeSet::from([vec![1, 3]]));
        let lines: BTreeSet<&str> = all[0].iter().map(|&o| parsed.option_lines[o]).collect();
        assert_eq!(lines, BTreeSet::from(["q x:A", "p r x:A y"]));
    }
}

#[test]
fn colors_follow_knuths_rule() {
    // Two options may share secondary item x only when both color it the same.
    let cases = [
        ("a b | x\na x:R\nb x:R\n", 1), // same color: shared
        ("a b | x\na x:R\nb x:G\n", 0), // different colors
        ("a b | x\na x\nb x:R\n", 0),   // one uncolored
        ("a b | x\na x\nb x\n", 0),     // both uncolored
        ("a b | x\na\nb\n", 1),         // x unused: fine
        ("a b c | x\na x:R\nb x:R\nc x:R\n", 1),
        ("a b c | x\na x:R\nb x:R\nc x:G\n", 0),
    ];
    for (text, expected) in cases {
        let problem = parse(text).unwrap().problem;
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            assert_eq!(Search::new(problem.space_on(engine)).count(None), expected, "{text:?} on {engine:?}");
        }
    }
}

#[test]
fn builder_rejects_bad_problems() {
    let mut b = Problem::builder();
    b.primary_items(["a", "b"]).unwrap();
    b.secondary("x").unwrap();
    assert_eq!(b.primary("a"), Err(XcoverError::DuplicateItem("a".into())));
    assert_eq!(b.secondary("b"), Err(XcoverError::DuplicateItem("b".into())));
    assert_eq!(b.primary(""), Err(XcoverError::EmptyName));
    assert_eq!(b.option(["a", "z"]), Err(XcoverError::UnknownItem("z".into())));
    assert_eq!(b.option(["a", "x", "a"]), Err(XcoverError::RepeatedItem("a".into())));
    assert_eq!(b.option(["x"]), Err(XcoverError::NoPrimaryItem));
    assert_eq!(b.option_colored([("a", Some("R"))]), Err(XcoverError::ColorOnPrimary("a".into())));
    assert_eq!(b.option_colored([("a", None), ("x", Some(""))]), Err(XcoverError::EmptyColor("x".into())));
    // Rejected options leave no trace.
    assert_eq!(b.n_options(), 0);
    assert_eq!(b.option(["a", "x"]), Ok(0));
    assert_eq!(b.option(["b"]), Ok(1));
    let problem = b.build().unwrap();
    assert_eq!(problem.n_options(), 2);
    assert_eq!(problem.count(None), 1);
    assert_eq!(Problem::builder().build(), Err(XcoverError::NoPrimaryItems));
}

#[test]
fn parse_errors_name_line_column_and_item() {
    let cases: [(&str, usize, usize, &str); 12] = [
        ("a b\na c\n", 2, 3, "unknown item 'c'"),
        ("a b a\n", 1, 5, "duplicate item 'a'"),
        ("a b | a\n", 1, 7, "duplicate item 'a'"),
        ("| c\n\na b\nb a b\n", 4, 5, "item 'b' repeated"),
        ("a | x\nx\n", 2, 0, "no primary item"),
        ("a123456789 b\na\n", 1, 1, "'a123456789' is too long"),
        ("a b\nb a123456789\n", 2, 3, "'a123456789' is too long"),
        ("a | x\na:R x\n", 2, 1, "color on primary item 'a'"),
        ("| only comments\n", 2, 0, "no item list"),
        ("", 1, 0, "no item list"),
        ("  | x y\n", 0, 0, "no item list"),
        ("a | x\na x:\n", 2, 5, "empty color"),
    ];
    for (text, line, column, needle) in cases {
        let err = parse(text).unwrap_err();
        if line > 0 {
            assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
        }
        assert!(err.message.contains(needle), "{text:?}: {err}");
    }
    // More checks: a second bar, a colon in a header name, no primary items in the header.
    assert!(parse("a | x | y\n").unwrap_err().message.contains("second '|'"));
    assert!(parse("a x:R\n").unwrap_err().message.contains("':' in item name"));
    assert!(parse(" | x\n").is_err());
    assert!(parse("a\nb|c\n").unwrap_err().message.contains("'|' in item name"));
}

#[test]
fn comments_blank_lines_and_long_names() {
    let text = "| header comment\n\nabcdefgh b | x\n| an option comment\n   \nabcdefgh x:1\n  b  \n";
    let parsed = parse(text).unwrap();
    assert_eq!(parsed.option_line_numbers, vec![6, 7]);
    assert_eq!(parsed.option_lines, vec!["abcdefgh x:1", "b"]);
    assert_eq!(parsed.problem.count(None), 1);
}

#[test]
fn queens_8_counts_92_on_both_engines() {
    let text = include_str!("../../../../tests/data/xcover/queens-8.dlx");
    let problem = parse(text).unwrap().problem;
    for engine in [Engine::Small, Engine::Dense, Engine::Links] {
        let mut search = Search::new(problem.space_on(engine));
        assert_eq!(search.count(None), 92);
        assert_eq!(search.stats().solutions, 92);
        let all = all_solutions(&problem, engine, Order::Heuristic);
        assert!(all.iter().all(|s| problem.is_solution(s)));
    }
}

#[test]
fn both_engines_walk_the_same_tree() {
    // Same MRV rule, same tie-break, same option order: same nodes and same solution order.
    for name in ["queens-8", "langford-11"] {
        let text =
            std::fs::read_to_string(format!("{}/../../tests/data/xcover/{name}.dlx", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let problem = parse(&text).unwrap().problem;
        let mut links = Search::new(problem.space_on(Engine::Links));
        let mut b = Vec::new();
        links.for_each(|s| {
            b.push(s);
            ControlFlow::Continue(())
        });
        for engine in [Engine::Small, Engine::Dense] {
            let mut search = Search::new(problem.space_on(engine));
            let mut a = Vec::new();
            search.for_each(|s| {
                a.push(s);
                ControlFlow::Continue(())
            });
            assert_eq!(a, b, "{name} on {engine:?}");
            assert_eq!(search.stats(), links.stats(), "{name} on {engine:?}");
        }
    }
}

#[test]
fn cancelled_counts_stop() {
    let text = include_str!("../../../../tests/data/xcover/langford-11.dlx");
    let mut space = parse(text).unwrap().problem.space();
    assert_eq!(space.engine(), Engine::Small);
    let control = Control::new();
    control.cancel();
    for threads in [1, 2] {
        let (count, _) = space.count_solutions(None, n_threads(threads), &control).unwrap();
        assert!(count < 35_584, "{threads} threads: {count}");
    }
}

#[test]
fn all_engines_count_the_bundled_instances_alike() {
    // Every word count of the popcount engine (queens-8: 1 word; langford-11 and
    // queens-12: 3; langford-12: 4) and a problem with 64 primary items.
    let mut sixty_four = String::new();
    let items: Vec<String> = (0..64).map(|i| format!("i{i}")).collect();
    sixty_four.push_str(&items.join(" "));
    sixty_four.push('\n');
    // Each block of 8 items is covered by its 8 singletons or by one option: 2^8 covers.
    for i in 0..64 {
        sixty_four.push_str(&format!("i{i}\n"));
    }
    for block in items.chunks(8) {
        sixty_four.push_str(&block.join(" "));
        sixty_four.push('\n');
    }
    let mut cases = vec![(sixty_four, 256u64)];
    for (name, expected) in [("queens-8", 92), ("queens-12", 14_200), ("langford-11", 35_584)] {
        let path = format!("{}/../../tests/data/xcover/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
        cases.push((std::fs::read_to_string(path).unwrap(), expected));
    }
    for (text, expected) in cases {
        let problem = parse(&text).unwrap().problem;
        assert_eq!(problem.space().engine(), Engine::Small);
        let control = Control::new();
        let results: Vec<_> = [Engine::Small, Engine::Dense, Engine::Links]
            .into_iter()
            .map(|engine| problem.space_on(engine).count_solutions(None, n_threads(1), &control).unwrap())
            .collect();
        assert_eq!(results[0].0, expected);
        // One tree, so the same statistics on every engine.
        assert!(results.iter().all(|r| *r == results[0]), "{results:?}");
        for engine in [Engine::Small, Engine::Dense] {
            let mut search = Search::new(problem.space_on(engine));
            assert_eq!(search.count(None), expected);
            assert_eq!(search.stats(), results[0].1);
            assert_eq!(problem.space_on(engine).count_solutions(None, n_threads(2), &control).unwrap().0, expected);
            assert_eq!(problem.space_on(engine).count_solutions(Some(7), n_threads(2), &control).unwrap().0, 7);
        }
    }
}

#[test]
fn auto_picks_the_engine_by_size() {
    let tiny = parse(include_str!("../../../../tests/data/xcover/queens-8.dlx")).unwrap().problem;
    assert_eq!(tiny.space().engine(), Engine::Small);
    let small = parse(include_str!("../../../../tests/data/xcover/pentomino-5x12.dlx")).unwrap().problem;
    assert_eq!(small.space().engine(), Engine::Dense);
    assert_eq!(small.space_on(Engine::Small).engine(), Engine::Dense);
    let large = backtrack::xcover::sudoku::SudokuCover::new(4, &[0; 256]).unwrap();
    assert_eq!(large.problem().space().engine(), Engine::Links);
    assert_eq!(large.problem().space_on(Engine::Dense).engine(), Engine::Dense);
    // Both engines agree on the first solutions of the large one.
    for engine in [Engine::Small, Engine::Dense, Engine::Links] {
        assert_eq!(Search::new(large.problem().space_on(engine)).count(Some(50)), 50);
    }
}

/// A bundled instance of `tests/data/xcover`.
fn bundled(name: &str) -> Problem {
    let path = format!("{}/../../tests/data/xcover/{name}", env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(path).unwrap()).unwrap().problem
}

#[test]
fn bundled_instances_count_as_published_on_every_engine_and_thread_count() {
    let control = Control::new();
    for (name, expected) in
        [("toy-colors.dlx", 1), ("queens-8.dlx", 92), ("langford-11.dlx", 35_584), ("sudoku-antibrute.dlx", 1)]
    {
        let problem = bundled(name);
        for engine in [Engine::Small, Engine::Dense, Engine::Links] {
            let mut space = problem.space_on(engine);
            let (count, stats) = space.count_solutions(None, n_threads(1), &control).unwrap();
            assert_eq!(count, expected, "{name} on {engine:?}");
            assert!(stats.nodes > 0, "{name} on {engine:?}");
            // More threads split the same tree: the same count and statistics.
            for threads in [2, 3] {
                let more = space.count_solutions(None, n_threads(threads), &control).unwrap();
                assert_eq!(more, (count, stats), "{name} on {engine:?}, {threads} threads");
            }
            // Every solution, in the same order on two threads as on one.
            if expected <= 100 {
                let listed = |threads| {
                    let mut all = Vec::new();
                    space
                        .for_each_solution(n_threads(threads), &control, |s| {
                            all.push(s);
                            ControlFlow::Continue(())
                        })
                        .unwrap();
                    all
                };
                let (one, two) = (listed(1), listed(2));
                assert_eq!(one.len() as u64, expected, "{name} on {engine:?}");
                assert_eq!(one, two, "{name} on {engine:?}");
            }
        }
    }
}
