//! Criterion benchmarks of the 9x9 kernel on 1000-puzzle slices of the
//! standard sets (benches/data): one iteration solves the whole slice.
//!
//! ```text
//! cargo bench -p backtrack --bench sudoku
//! ```
//!
//! For full-set figures use the `sudoku_speed` example.

use std::hint::black_box;

use backtrack::search::Mode;
use backtrack::sudoku::kernel9::{self, Cells};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn slice(name: &str) -> Vec<Cells> {
    let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .map(|l| {
            let mut cells = [0u8; 81];
            for (cell, ch) in cells.iter_mut().zip(l.bytes()) {
                *cell = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
            }
            cells
        })
        .collect()
}

fn kernel9_sets(c: &mut Criterion) {
    let sets = [
        ("royle_17", "royle_17_clue.1000.txt"),
        ("forum_hardest", "forum_hardest_1905_11plus.1000.txt"),
        ("serg", "serg_benchmark.1000.txt"),
    ];
    let modes = [("limit2", Mode::Count { limit: Some(2) }), ("first", Mode::First), ("lexmin", Mode::LexFirst)];
    for (set, file) in sets {
        let puzzles = slice(file);
        let mut group = c.benchmark_group(format!("kernel9/{set}"));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        for (mode_name, mode) in modes {
            group.bench_function(mode_name, |b| {
                b.iter(|| {
                    let mut solved = 0u64;
                    for p in &puzzles {
                        solved += kernel9::solve(black_box(p), mode).count;
                    }
                    solved
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, kernel9_sets);
criterion_main!(benches);
