//! Costs (Knuth's DLX5): the branch-and-bound search against a brute-force
//! oracle on random problems, DLX5's answers on two assignment problems and
//! two packings, and the parser's cost tokens.

use std::collections::BTreeSet;

use backtrack::search::{Control, Search};
use backtrack::xcover::cost::best;
use backtrack::xcover::{parse, MccSpace, Problem};
use proptest::prelude::*;

use super::xcover_mcc::{brute_force, random_problem};

/// `problem` with option `o` costing `costs[o % costs.len()]`, through its text.
fn with_costs(problem: &Problem, costs: &[u64]) -> Problem {
    let text = problem.to_string();
    let mut lines = text.lines();
    let mut costed = format!("{}\n", lines.next().unwrap());
    for (o, line) in lines.enumerate() {
        costed.push_str(&format!("{line} |{}\n", costs[o % costs.len()]));
    }
    parse(&costed).unwrap().problem
}

/// The costs of the `k` cheapest solutions found by `best`, after checking
/// that each is a distinct solution of the cost it claims and that the
/// search for the costs alone gives the same.
fn best_costs(problem: &Problem, k: usize) -> Vec<u64> {
    let (found, _) = best(problem, k, &Control::new()).unwrap();
    let mut sets = BTreeSet::new();
    for c in &found {
        assert!(problem.is_solution(&c.options), "{:?} is no solution of\n{problem}", c.options);
        assert_eq!(problem.cost_of(&c.options), c.cost);
        let mut set = c.options.clone();
        set.sort_unstable();
        assert!(sets.insert(set), "{:?} found twice", c.options);
    }
    let costs: Vec<u64> = found.iter().map(|c| c.cost).collect();
    let (alone, _) = backtrack::xcover::cost::best_costs(problem, k, &Control::new()).unwrap();
    assert_eq!(alone, costs, "the costs alone\n{problem}");
    costs
}

#[test]
fn assignment_problems_give_dlx5_s_k_best_costs() {
    // What Knuth's DLX5 prints for `k5` on these files.
    let data = |name: &str| std::fs::read_to_string(format!("../../tests/data/xcover/{name}")).unwrap();
    for (name, expected) in
        [("assign-4.dlx", [637, 724, 862, 890, 974]), ("assign-9.dlx", [2013, 2035, 2041, 2056, 2084])]
    {
        let problem = parse(&data(name)).unwrap().problem;
        assert!(problem.has_costs());
        assert_eq!(best_costs(&problem, 5), expected, "{name}");
        assert_eq!(best_costs(&problem, 1), expected[..1], "{name}");
    }
}

#[test]
fn packings_give_dlx5_s_k_best_costs() {
    // What Knuth's DLX5 prints for `k10` and `k3` on these exact covers of
    // 2,359 options (the wide popcount walk's, where the processor has it).
    let data = |name: &str| std::fs::read_to_string(format!("../../tests/data/xcover/{name}")).unwrap();
    let cases: [(&str, &[u64]); 2] = [
        ("pentomino-8x8-costs.dlx", &[45, 45, 47, 48, 48, 49, 50, 50, 50, 50]),
        ("pentomino-8x8-costs-999.dlx", &[2789, 2825, 2852]),
    ];
    for (name, expected) in cases {
        let problem = parse(&data(name)).unwrap().problem;
        assert_eq!(best_costs(&problem, expected.len()), expected, "{name}");
    }
}

#[test]
fn dlx5_s_ten_solutions_example_keeps_the_k_smallest_costs() {
    // DLX5's documentation: ten solutions of costs 0, 0, 1, 1, ..., 4, 4 (here
    // one item, ten options), of which the k best costs are the k smallest.
    let mut text = String::from("a\n");
    for cost in [3, 1, 4, 1, 2, 3, 2, 4, 0, 0] {
        text.push_str(&format!("a |{cost}\n"));
    }
    let problem = parse(&text).unwrap().problem;
    assert_eq!(best_costs(&problem, 1), [0]);
    assert_eq!(best_costs(&problem, 3), [0, 0, 1]);
    assert_eq!(best_costs(&problem, 5), [0, 0, 1, 1, 2]);
    assert_eq!(best_costs(&problem, 20), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    // Among equal costs the first met stays: the option given first.
    let (found, _) = best(&problem, 1, &Control::new()).unwrap();
    assert_eq!(found[0].options, [8]);
}

#[test]
fn cost_tokens_add_up_and_bad_ones_are_located() {
    let parsed = parse("a b\na |3 b |4\nb\n").unwrap();
    assert_eq!((parsed.problem.cost(0), parsed.problem.cost(1)), (7, 0));
    assert_eq!(parsed.problem.option_text(0), "a b |7");
    assert!(!parse("a\na |0\n").unwrap().problem.has_costs());
    for (text, column, words) in [
        ("a\na |x\n", 3, "bad option cost '|x'"),
        ("a\na |\n", 3, "bad option cost '|'"),
        ("a\na |3|4\n", 3, "bad option cost"),
        ("a\na |99999999999999999999\n", 3, "too large"),
        ("a\na |18446744073709551615 |1\n", 25, "add up to more than"),
    ] {
        let e = parse(text).unwrap_err();
        assert_eq!((e.line, e.column), (2, column), "{text:?}: {e}");
        assert!(e.message.contains(words), "{text:?}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn best_agrees_with_brute_force(
        problem in random_problem(),
        costs in proptest::collection::vec(0u64..6, 1..12),
        k in 1usize..6,
    ) {
        let problem = with_costs(&problem, &costs);
        let mut all: Vec<u64> = brute_force(&problem).iter().map(|s| problem.cost_of(s)).collect();
        all.sort_unstable();
        all.truncate(k);
        prop_assert_eq!(best_costs(&problem, k), all, "{}", problem);
    }

    #[test]
    fn the_list_engine_agrees_with_brute_force(problem in random_problem()) {
        // Problems too large for the bitset engine run on the list engine: the same counts.
        let count = Search::new(MccSpace::new(&problem)).count(None);
        prop_assert_eq!(count, brute_force(&problem).len() as u64, "{}", problem);
    }
}
