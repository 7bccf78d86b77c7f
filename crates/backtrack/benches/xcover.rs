//! Counting all solutions of the bundled exact cover instances, on each engine that takes them,
//! and the cost search's cheapest solutions of the bundled costed ones.
//!
//! `cargo bench -p backtrack --bench xcover` (add a filter such as `langford` or `cost` to pick some).

use std::hint::black_box;

use backtrack::search::{Control, Search, Threads};
use backtrack::xcover::{parse, Engine};
use criterion::{criterion_group, criterion_main, Criterion};

fn instance(name: &str) -> backtrack::xcover::Problem {
    let path = format!("{}/../../tests/data/xcover/{name}.dlx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap().problem
}

fn count_all(c: &mut Criterion) {
    let mut group = c.benchmark_group("xcover_count");
    group.sample_size(10);
    let control = Control::new();
    for name in ["queens-12", "queens-13", "langford-11", "langford-12", "pentomino-5x12", "pentomino-6x10"] {
        let problem = instance(name);
        for (engine, label) in [(Engine::Small, "small"), (Engine::Dense, "dense"), (Engine::Links, "links")] {
            if problem.space_on(engine).engine() != engine {
                // Too large for this engine.
                continue;
            }
            // What `backtrack xcover` runs: each engine's own counting loop.
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| black_box(problem.space_on(engine)).count_solutions(None, Threads::ONE, &control).unwrap().0)
            });
        }
        // The search core's generic walk over the automatically chosen engine, for comparison.
        group.bench_function(format!("{name}/core-walk"), |b| {
            b.iter(|| Search::new(black_box(problem.space())).count(None))
        });
    }
    group.finish();
}

/// `backtrack xcover --best K` and `--min-cost`: the `K` cheapest solutions
/// (Knuth's DLX5 `kK`).
fn cheapest(c: &mut Criterion) {
    let mut group = c.benchmark_group("xcover_cost");
    group.sample_size(10);
    let control = Control::new();
    for (name, k) in
        [("assign-9", 15_000), ("assign-12", 15_000), ("pentomino-8x8-costs", 1), ("pentomino-8x8-costs-999", 1)]
    {
        let problem = instance(name);
        // The solutions (`--all`), and the costs alone (what the CLI prints by default).
        group.bench_function(format!("{name}/best-{k}"), |b| {
            b.iter(|| backtrack::xcover::cost::best(black_box(&problem), k, &control).unwrap().0.len())
        });
        group.bench_function(format!("{name}/best-{k}-costs"), |b| {
            b.iter(|| backtrack::xcover::cost::best_costs(black_box(&problem), k, &control).unwrap().0.len())
        });
    }
    group.finish();
}

criterion_group!(benches, count_all, cheapest);
criterion_main!(benches);
