//! The board size of the judge's N-Queen problem (BOJ 9663), as `backtrack
//! boj 9663` reads it: a size read must be in range and be the one number of
//! the text; an error must point into the text.
#![no_main]

use backtrack::queens::{parse_board_size, MAX_N};
use backtrack_fuzz::{check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    match parse_board_size(&text) {
        Ok(n) => {
            assert!((1..=MAX_N).contains(&n), "board size {n} from {text:?}");
            // A leading byte-order mark is not a word.
            let words: Vec<&str> = backtrack::text::strip_bom(&text).split_whitespace().collect();
            assert_eq!(words.len(), 1, "{text:?}");
            assert_eq!(words[0].parse::<i64>().ok(), Some(n as i64), "{text:?}");
        }
        Err(e) => check_position(&text, &e),
    }
});
