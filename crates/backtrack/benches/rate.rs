//! Criterion benchmark of the Sudoku Explainer-scale rater on the
//! 600-puzzle development set (`tests/data/sudoku/se_rated_dev.tsv`), one
//! thread: one iteration rates every puzzle of a band.
//!
//! ```text
//! cargo bench -p backtrack --bench rate
//! ```

use std::hint::black_box;

use backtrack::sudoku::rate::{explain_cells, rate_cells};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// The development set's puzzles with Sudoku Explainer's ER in tenths.
fn dev_set() -> Vec<(Vec<u8>, u16)> {
    let path = format!("{}/../../tests/data/sudoku/se_rated_dev.tsv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let grid = fields.next()?;
            let er: f64 = fields.nth(1)?.parse().ok()?;
            let cells = grid.bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect();
            Some((cells, (er * 10.0).round() as u16))
        })
        .collect()
}

fn rate_dev_set(c: &mut Criterion) {
    let all = dev_set();
    let bands: [(&str, std::ops::Range<u16>); 4] =
        [("all", 0..1000), ("se_1_4", 0..50), ("se_5_6", 50..70), ("se_7_up", 70..1000)];
    let mut group = c.benchmark_group("rate/dev");
    group.sample_size(10);
    for (name, band) in bands {
        let puzzles: Vec<&[u8]> = all.iter().filter(|(_, er)| band.contains(er)).map(|(p, _)| p.as_slice()).collect();
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                puzzles.iter().map(|p| rate_cells(black_box(p)).map_or(0, |r| u64::from(r.er.tenths()))).sum::<u64>()
            })
        });
    }
    let puzzles: Vec<&[u8]> = all.iter().map(|(p, _)| p.as_slice()).collect();
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.bench_function("explain_all", |b| {
        b.iter(|| puzzles.iter().map(|p| explain_cells(black_box(p)).map_or(0, |e| e.steps.len())).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, rate_dev_set);
criterion_main!(benches);
