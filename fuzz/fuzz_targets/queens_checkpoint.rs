//! N-queens checkpoint files, as `backtrack queens --checkpoint` reads them
//! back, for a board and shard picked by the first two bytes. A checkpoint
//! accepted must be written again byte for byte the same; a refusal must say
//! where (inside the text) or why, briefly.
#![no_main]

use std::sync::OnceLock;

use backtrack::plan::Resumable;
use backtrack::queens::{Checkpoint, CheckpointError, Plan, Shard};
use backtrack::ParseError;
use backtrack_fuzz::{check_message, check_position, text};
use libfuzzer_sys::fuzz_target;

/// Plans of boards 1 to 12, made once.
fn plans() -> &'static [Plan] {
    static PLANS: OnceLock<Vec<Plan>> = OnceLock::new();
    PLANS.get_or_init(|| (1..=12).map(|n| Plan::new(n).expect("a board size in range")).collect())
}

fuzz_target!(|data: &[u8]| {
    let [board, shard, rest @ ..] = data else { return };
    let plan = &plans()[usize::from(board % 12)];
    let shard = match shard / 16 {
        0 => None,
        count => Some(Shard { index: u64::from(shard % 16) % u64::from(count), count: count.into() }),
    };
    match Checkpoint::from_json(rest, plan, shard) {
        Ok(checkpoint) => {
            let written = checkpoint.to_json();
            let again = Checkpoint::from_json(&written, plan, shard)
                .unwrap_or_else(|e| panic!("{:?} does not read back: {e}", String::from_utf8_lossy(&written)));
            assert_eq!(again.to_json(), written);
            assert_eq!(again.counts(), checkpoint.counts());
            for i in 0..plan.len() {
                assert_eq!(again.is_done(i), checkpoint.is_done(i));
            }
        }
        Err(CheckpointError::Malformed { line, column, message, .. }) => {
            check_position(&text(rest), &ParseError::new(line, 0, message));
            // The decoder counts columns in bytes.
            let width = rest.split(|&b| b == b'\n').nth(line - 1).map_or(0, <[u8]>::len);
            assert!(column <= width + 1, "column {column} past the end of line {line} ({width} bytes)");
        }
        Err(e) => check_message(&e.to_string()),
    }
});
