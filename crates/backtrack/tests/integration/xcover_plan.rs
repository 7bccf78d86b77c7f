//! Planned exact-cover counts: the subproblems add up to the plain count,
//! and Knuth's random-probe estimate of the tree is near its true size.

use backtrack::search::{Control, Threads};
use backtrack::xcover::plan::Plan;
use backtrack::xcover::{parse, Engine};

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("../../tests/data/xcover/{name}")).unwrap()
}

#[test]
fn plans_add_up_to_the_plain_count_on_xcc_and_mcc_instances() {
    for (name, engine) in
        [("langford-11.dlx", Engine::Auto), ("two-per-line-5.dlx", Engine::Auto), ("queens-8.dlx", Engine::Links)]
    {
        let text = data(name);
        let problem = parse(&text).unwrap().problem;
        let plan = Plan::new(&text, &problem, engine);
        let mut total = 0u128;
        plan.count_with(Threads::new(2).unwrap(), |_| false, &Control::new(), |_, n| total += u128::from(n)).unwrap();
        let (plain, _) = problem.space_on(engine).count_solutions(None, Threads::ONE, &Control::new()).unwrap();
        assert_eq!(total, u128::from(plain), "{name}");
        assert_eq!(Plan::new(&text, &problem, engine).len(), plan.len(), "{name}: the plan is deterministic");
    }
}

/// The n x n 0/1 matrices with two 1s in every row and column (OEIS A001499), as an MCC problem.
fn two_per_line(n: usize) -> String {
    let items: Vec<String> = (1..=n).map(|i| format!("2|r{i}")).chain((1..=n).map(|j| format!("2|c{j}"))).collect();
    let mut text = items.join(" ") + "\n";
    for i in 1..=n {
        for j in 1..=n {
            text += &format!("r{i} c{j}\n");
        }
    }
    text
}

#[test]
fn the_random_probe_estimate_is_near_the_tree_size() {
    // Trees much larger than the plan, so that nearly all of them lies below the subproblems.
    for name in ["langford-11.dlx", "two-per-line-7", "queens-12.dlx"] {
        let text = if name == "two-per-line-7" { two_per_line(7) } else { data(name) };
        let problem = parse(&text).unwrap().problem;
        let plan = Plan::new(&text, &problem, Engine::Auto);
        let estimate: f64 = plan.weights(8).iter().sum();
        let (_, stats) = problem.space().count_solutions(None, Threads::ONE, &Control::new()).unwrap();
        let ratio = estimate / stats.nodes as f64;
        eprintln!("{name}: estimate {estimate:.0}, nodes {}, ratio {ratio:.3}", stats.nodes);
        assert!((0.5..2.0).contains(&ratio), "{name}: estimate {estimate:.0}, nodes {}", stats.nodes);
    }
}
