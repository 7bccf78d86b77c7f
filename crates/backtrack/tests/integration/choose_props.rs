//! The enumerator against a naive generator written here: every index tuple
//! of the pool, filtered the way Python's itertools would (permutations,
//! combinations, product, combinations_with_replacement), mapped to values,
//! de-duplicated and sorted.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use backtrack::choose::{Choose, Repetition, Shape};
use backtrack::search::Search;
use proptest::prelude::*;

/// Which index tuples a shape and repetition rule allow.
fn allowed(indices: &[usize], shape: Shape, repetition: Repetition) -> bool {
    let pairs = || indices.windows(2);
    match (shape, repetition) {
        (Shape::Any, Repetition::Once) => {
            let set: BTreeSet<_> = indices.iter().collect();
            set.len() == indices.len()
        }
        (Shape::Any, Repetition::Unlimited) => true,
        (Shape::Increasing, _) | (Shape::NonDecreasing, Repetition::Once) => pairs().all(|w| w[0] < w[1]),
        (Shape::NonDecreasing, Repetition::Unlimited) => pairs().all(|w| w[0] <= w[1]),
    }
}

/// The naive answer over the sorted pool (deduplicated first for strictly increasing sequences).
fn naive(pool: &[i64], len: usize, shape: Shape, repetition: Repetition) -> Vec<Vec<i64>> {
    let mut pool = pool.to_vec();
    pool.sort();
    if shape == Shape::Increasing {
        pool.dedup();
    }
    let mut found = BTreeSet::new();
    let n = pool.len();
    let total = n.pow(len as u32);
    for code in 0..total {
        let mut indices = Vec::with_capacity(len);
        let mut rest = code;
        for _ in 0..len {
            indices.push(rest % n);
            rest /= n;
        }
        indices.reverse();
        if allowed(&indices, shape, repetition) {
            found.insert(indices.iter().map(|&i| pool[i]).collect::<Vec<_>>());
        }
    }
    if len == 0 {
        found.insert(Vec::new());
    }
    found.into_iter().collect()
}

fn shapes() -> impl Strategy<Value = (Shape, Repetition)> {
    (
        prop_oneof![Just(Shape::Any), Just(Shape::Increasing), Just(Shape::NonDecreasing)],
        prop_oneof![Just(Repetition::Once), Just(Repetition::Unlimited)],
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn walks_counts_and_text_match_the_naive_generator(
        pool in prop::collection::vec(-3i64..12, 0..7),
        len in 0usize..5,
        (shape, repetition) in shapes(),
    ) {
        let expected = naive(&pool, len, shape, repetition);
        let space = Choose::new(pool.clone(), len, shape, repetition);

        let mut walked = Vec::new();
        Search::new(space.clone()).for_each(|s| {
            walked.push(s);
            ControlFlow::Continue(())
        });
        prop_assert_eq!(&walked, &expected);
        prop_assert_eq!(space.count(), Ok(expected.len() as u128));
        prop_assert_eq!(Search::new(space.clone()).count(None), expected.len() as u64);

        let mut text = Vec::new();
        let lines = space.write_all(&mut text, b",").unwrap();
        let want: String = expected
            .iter()
            .map(|s| s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(",") + "\n")
            .collect();
        prop_assert_eq!(String::from_utf8(text).unwrap(), want);
        prop_assert_eq!(lines, expected.len() as u64);
    }

    /// Counting by formula agrees with walking on pools too large for the naive generator.
    #[test]
    fn counts_match_walks_on_larger_pools(
        pool in prop::collection::vec(0u32..9, 0..14),
        len in 0usize..7,
        (shape, repetition) in shapes(),
    ) {
        let space = Choose::new(pool, len, shape, repetition);
        prop_assert_eq!(space.count(), Ok(Search::new(space.clone()).count(None) as u128));
    }
}

#[test]
fn values_are_compared_as_numbers() {
    let mut text = Vec::new();
    Choose::new([10u32, 9, 100], 1, Shape::Any, Repetition::Once).write_all(&mut text, b" ").unwrap();
    assert_eq!(String::from_utf8(text).unwrap(), "9\n10\n100\n");
}

#[test]
fn a_broken_writer_stops_the_walk() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "closed"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let err = Choose::range(9, 9, Shape::Any, Repetition::Once).write_all(&mut Full, b" ").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);
}
