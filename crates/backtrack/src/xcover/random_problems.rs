//! Random problems for the tests that compare a walk with the search
//! core's, the core's walk they compare with, and the problems of
//! `tests/data/xcover`.

use std::ops::ControlFlow;

use proptest::prelude::*;

use super::Problem;
use crate::search::{Search, Space, Stats};

/// The configuration of the walks' property tests: a hundred random
/// problems drawn from a fixed seed, so that the run costs the same each
/// time; a thousand fresh ones with `BACKTRACK_LONG_TESTS=1`.
pub(crate) fn proptest_config() -> ProptestConfig {
    use proptest::test_runner::RngSeed;
    ProptestConfig {
        rng_seed: if crate::effort::long() { RngSeed::Random } else { RngSeed::Fixed(1) },
        ..ProptestConfig::with_cases(crate::effort::rounds(100, 1000) as u32)
    }
}

/// The problem of `tests/data/xcover/{name}`.
pub(crate) fn fixture(name: &str) -> Problem {
    let path = format!("{}/../../tests/data/xcover/{name}", env!("CARGO_MANIFEST_DIR"));
    super::parse(&std::fs::read_to_string(path).unwrap()).unwrap().problem
}

/// The search core's count of `space`'s subtree and its statistics.
pub(crate) fn core_walk<S: Space>(space: S) -> (u64, Stats) {
    let mut search = Search::new(space);
    let mut n = 0;
    search.walk_counting(|k| {
        n += k;
        ControlFlow::Continue(())
    });
    (n, search.stats())
}

/// A random problem of up to 6 primary items (with random bounds when
/// `bounded`, else each to be covered once), up to 2 secondary items with
/// colors, and up to `most` options.
pub(crate) fn random_problem(bounded: bool, most: usize) -> impl Strategy<Value = Problem> {
    (1usize..=6, 0usize..=2).prop_flat_map(move |(n_primary, n_secondary)| {
        let bounds = proptest::collection::vec((0u32..=1, 1u32..=2), n_primary);
        let entry = proptest::collection::vec(0u8..6, n_primary + n_secondary);
        (bounds, proptest::collection::vec(entry, 0..=most)).prop_map(move |(bounds, rows)| {
            let mut b = Problem::builder();
            for (i, &(lo, hi)) in bounds.iter().enumerate() {
                if bounded {
                    b.primary_bounded(&format!("p{i}"), lo, hi.max(lo)).unwrap();
                } else {
                    b.primary(&format!("p{i}")).unwrap();
                }
            }
            for s in 0..n_secondary {
                b.secondary(&format!("s{s}")).unwrap();
            }
            for row in rows {
                // 0-2: not in the option; 3: in it; 4, 5: in it,
                // colored A or B when secondary.
                let mut entries: Vec<(String, Option<&str>)> = Vec::new();
                for (k, &v) in row.iter().enumerate() {
                    if v < 3 {
                        continue;
                    }
                    if k < n_primary {
                        entries.push((format!("p{k}"), None));
                    } else {
                        let color = [None, Some("A"), Some("B")][v as usize - 3];
                        entries.push((format!("s{}", k - n_primary), color));
                    }
                }
                // Options without a primary item are refused; the rest are kept.
                let _ = b.option_colored(entries);
            }
            b.build().unwrap()
        })
    })
}
