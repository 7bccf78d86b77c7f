//! The enumeration inputs, as `backtrack boj` and `backtrack choose` read
//! them: Lotto (BOJ 6603), the "N and M" family (BOJ 15649-15666, without and
//! with the N numbers) and `--values-from` lists, picked by the first byte.
//! What is read must be in range, and written back it must read the same.
#![no_main]

use backtrack::choose::parse::{parse_lotto, parse_n_and_m, parse_values, MAX_N, MAX_VALUE};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fn join<T: ToString>(values: &[T]) -> String {
    values.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = text(rest);
    let error = match pick % 4 {
        0 => match parse_lotto(&text) {
            Ok(cases) => {
                let mut written = String::new();
                for set in &cases {
                    assert!((6..=MAX_N).contains(&(set.len() as u64)), "a set of {}", set.len());
                    assert!(set.iter().all(|v| (1..=MAX_VALUE).contains(v)));
                    let mut sorted = set.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), set.len(), "repeated number in {set:?}");
                    written.push_str(&format!("{} {}\n", set.len(), join(set)));
                }
                written.push_str("0\n");
                assert_eq!(parse_lotto(&written).as_ref(), Ok(&cases));
                return;
            }
            Err(e) => e,
        },
        1 | 2 => {
            let given = pick % 4 == 2;
            match parse_n_and_m(&text, given) {
                Ok(input) => {
                    assert!(1 <= input.m && input.m as u64 <= input.n && input.n <= MAX_N);
                    assert_eq!(input.values.len() as u64, if given { input.n } else { 0 });
                    assert!(input.values.iter().all(|v| (1..=MAX_VALUE).contains(v)));
                    let written = format!("{} {}\n{}\n", input.n, input.m, join(&input.values));
                    assert_eq!(parse_n_and_m(&written, given).as_ref(), Ok(&input));
                    return;
                }
                Err(e) => e,
            }
        }
        _ => match parse_values(&text) {
            Ok(values) => {
                // A leading byte-order mark is not a value.
                assert_eq!(values.len(), backtrack::text::strip_bom(&text).split_whitespace().count());
                assert_eq!(parse_values(&join(&values)).as_ref(), Ok(&values));
                return;
            }
            Err(e) => e,
        },
    };
    check_position(&text, &error);
});
