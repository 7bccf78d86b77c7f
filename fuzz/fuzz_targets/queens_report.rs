//! What `backtrack merge` reads: shard reports (`queens --shard I/M --json`),
//! one JSON object after another, and shard words `I/M` as `--shard` takes
//! them. Every report read must be written and read back the same; a shard
//! read must exist and be written back the same.
#![no_main]

use backtrack::queens::{Report, Shard};
use backtrack_fuzz::{check_message, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    for report in serde_json::Deserializer::from_str(&text).into_iter::<Report>() {
        let Ok(report) = report else { break };
        let written = serde_json::to_string(&report).expect("a report serializes");
        let again: Report =
            serde_json::from_str(&written).unwrap_or_else(|e| panic!("{written} does not read back: {e}"));
        assert_eq!(serde_json::to_string(&again).unwrap(), written);
        if let Some(shard) = report.shard {
            assert_eq!(again.shard, Some(shard));
        }
    }
    match text.parse::<Shard>() {
        Ok(shard) => {
            assert!(shard.index < shard.count, "{shard:?} from {text:?}");
            assert_eq!(format!("{}/{}", shard.index, shard.count).parse::<Shard>(), Ok(shard));
        }
        Err(e) => check_message(&e.to_string()),
    }
});
