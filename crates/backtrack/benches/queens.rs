//! N-queens counting speed, N = 12..14: the whole count on one thread (with
//! the default kernel, the eight-lane AVX2 walk where the processor has it,
//! and with the scalar kernel) and on every core, plus the plain search-core
//! walk as a baseline.
//!
//! `cargo bench -p backtrack --bench queens`. Larger boards are timed with the
//! binary instead: `backtrack queens 17 --threads 2 --json` prints `seconds`.

use std::hint::black_box;

use backtrack::queens::{self, Counts, Plan, QueensSpace};
use backtrack::search::{Search, Threads};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn counting(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens");
    group.sample_size(10);
    for n in 12..=14 {
        group.bench_with_input(BenchmarkId::new("one_thread", n), &n, |b, &n| {
            b.iter(|| {
                let plan = Plan::new(black_box(n)).unwrap();
                let counts: Counts = (0..plan.len()).map(|i| plan.solve(i)).sum();
                counts
            })
        });
        // The same count with the scalar kernel (one search at a time).
        group.bench_with_input(BenchmarkId::new("one_thread_scalar", n), &n, |b, &n| {
            b.iter(|| {
                let plan = Plan::new(black_box(n)).unwrap();
                let counts: Counts = (0..plan.len()).map(|i| plan.solve_scalar(i, None).unwrap()).sum();
                counts
            })
        });
        group.bench_with_input(BenchmarkId::new("all_cores", n), &n, |b, &n| {
            b.iter(|| queens::count(black_box(n), Threads::available()).unwrap())
        });
    }
    // The generic core on the plain space: no symmetry, one node per call.
    group.bench_function("search_core_walk/12", |b| {
        b.iter(|| Search::new(QueensSpace::new(black_box(12)).unwrap()).count(None))
    });
    group.finish();
}

fn listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("queens_all");
    group.sample_size(10);
    group.bench_function("write_all/12", |b| {
        b.iter(|| {
            let mut sink = std::io::sink();
            queens::par_write_solutions(black_box(12), Threads::ONE, &mut sink).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, counting, listing);
criterion_main!(benches);
