//! Criterion benchmark of the variant solver: a uniqueness check (count to
//! 2, one thread, the solver compiled afresh each time) on a few puzzles
//! of ISS's collections and examples, one rule family each. The puzzles
//! are ones the solver answers in well under a second, so a run takes
//! less than a minute; `backtrack bench sudoku` times whole collections.
//!
//! ```text
//! cargo bench -p backtrack --bench variant
//! ```

use std::hint::black_box;
use std::time::Duration;

use backtrack::variant::{parse_line, Puzzle, Solver};
use criterion::{criterion_group, criterion_main, Criterion};

/// The puzzle (second column) of entry `index` (from 0) of the fixture
/// `tests/data/variant/{file}`, a collection of ISS's.
fn fixture(file: &str, index: usize) -> String {
    let path = format!("{}/../../tests/data/variant/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let line = text.lines().filter(|l| !l.starts_with('#')).nth(index).unwrap_or_else(|| panic!("{path}: {index}"));
    line.split('\t').nth(1).expect("a puzzle column").to_string()
}

/// ISS's "Strict XV" example (X and V sums, their strict negative, two givens).
const STRICT_XV: &str = ".~R2C5_1~R8C5_2.X~R1C3~R2C3~R2C1~R3C1~R1C8~R1C9~R3C9~R3C8~R5C6~R5C5~R6C3~R6C4~R8C4~R9C4~R7C8~R8C8.X~R6C2~R7C2~R7C4~R7C5~R7C9~R8C9~R3C7~R3C6.X~R7C3~R8C3.V~R7C3~R7C4~R4C1~R5C1~R2C8~R2C9~R5C7~R5C8.StrictXV";

fn count_to_two(c: &mut Criterion) {
    let examples = std::fs::read_to_string(format!("{}/../../examples/variant.txt", env!("CARGO_MANIFEST_DIR")))
        .expect("examples/variant.txt");
    // ISS's "Thermo" example, the first puzzle of examples/variant.txt.
    let thermo = examples
        .lines()
        .find(|l| l.starts_with('.') && l.contains(".Thermo~"))
        .expect("a thermometer puzzle")
        .to_string();
    let puzzles: [(&str, String); 4] = [
        ("killer/tarek_28", fixture("tarek_all.tsv", 27)),
        ("thermo/iss_example", thermo),
        ("little_killer/snipes_7", fixture("little_killer_snipes.tsv", 6)),
        ("mixed/strict_xv", STRICT_XV.to_string()),
    ];
    let mut group = c.benchmark_group("variant/count_to_2");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    for (name, text) in puzzles {
        let puzzle: Puzzle = parse_line(&text, 1).unwrap_or_else(|e| panic!("{name}: {e}"));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut solver = Solver::new(black_box(&puzzle)).expect("compiles");
                let count = solver.count(Some(2));
                assert_eq!(count.solutions, 1, "{name}");
                count.solutions
            })
        });
    }
    group.finish();
}

criterion_group!(benches, count_to_two);
criterion_main!(benches);
