//! Counting all solutions of the bundled exact cover instances, on each engine.
//!
//! `cargo bench -p backtrack --bench xcover` (add a filter such as `langford` to pick some).

use std::hint::black_box;

use backtrack::search::Search;
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
    for name in ["queens-12", "queens-13", "langford-11", "langford-12", "pentomino-5x12", "pentomino-6x10"] {
        let problem = instance(name);
        for (engine, label) in [(Engine::Dense, "dense"), (Engine::Links, "links")] {
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| Search::new(black_box(problem.space_on(engine))).count(None))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, count_all);
criterion_main!(benches);
