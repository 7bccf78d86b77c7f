//! Inputs the fuzz targets (`fuzz/`) found to break a parser, each kept as a
//! test under the name of the target that found it.

use backtrack::error::QUOTE_LIMIT;

/// `message` quotes at most [`QUOTE_LIMIT`] characters of `input`, then `...`.
fn quotes_briefly(message: &str, input: &str) {
    let head: String = input.chars().take(QUOTE_LIMIT).collect();
    let longer: String = input.chars().take(QUOTE_LIMIT + 1).collect();
    assert!(message.contains(&format!("{head}...")), "{message}");
    assert!(!message.contains(&longer), "{message}");
}

/// sudoku_words: an unknown technique, symmetry or rating band was quoted whole.
#[test]
fn sudoku_words_long_names_are_quoted_briefly() {
    use backtrack::sudoku::generate::{parse_band, Symmetry};
    use backtrack::sudoku::techniques::Technique;

    let word = format!("\u{fffd}\r\u{fffd}nnnnnnnn~hiddentriplet{}hdneidtriplet", "P".repeat(200));
    quotes_briefly(&word.parse::<Technique>().unwrap_err().to_string(), &word);
    quotes_briefly(&word.parse::<Symmetry>().unwrap_err().to_string(), &word);
    quotes_briefly(&parse_band(&word).unwrap_err().to_string(), &word);
    let high = "9".repeat(100);
    quotes_briefly(&parse_band(&format!("{high}..")).unwrap_err().to_string(), &high);
    let band = format!("8..7.{}", "0".repeat(100));
    quotes_briefly(&parse_band(&band).unwrap_err().to_string(), &band);
}

/// queens_checkpoint: a JSON string where the checkpoint object belongs came
/// back in the decoder's words ("expected struct CheckpointFile") with the
/// whole string quoted; a long `format` was quoted whole too.
#[test]
fn queens_checkpoint_refusals_are_brief_and_in_own_words() {
    use backtrack::plan::Resumable;
    use backtrack::queens::{Checkpoint, CheckpointError, Plan, Shard};

    let plan = Plan::new(8).unwrap();
    let shard = Some(Shard { index: 4, count: 7 });
    let long = format!("format{}{}", "h".repeat(90), "\u{7f}".repeat(87));
    let text = format!("\"{long}\":\t\u{a3}");
    let Err(CheckpointError::Malformed { line, message, .. }) = Checkpoint::from_json(text.as_bytes(), &plan, shard)
    else {
        panic!("a JSON string is not a checkpoint");
    };
    assert_eq!(line, 1);
    assert!(!message.contains("hhh") && !message.contains("struct"), "{message}");
    let missing = Checkpoint::from_json(b"{\"format\": \"backtrack-queens-checkpoint\"}", &plan, None).unwrap_err();
    assert!(missing.to_string().contains("the field \"plan_version\" is missing"), "{missing}");
    let text = format!(
        "{{\"format\":\"{long}\",\"plan_version\":1,\"n\":8,\"plan_depth\":3,\"plan_subproblems\":47,\
         \"shard\":null,\"done\":[],\"solutions\":0,\"unique\":0}}"
    );
    let refused = Checkpoint::from_json(text.as_bytes(), &plan, None).unwrap_err();
    quotes_briefly(&refused.to_string(), &long);
}

/// queens_report: a shard word `I/M` that is not one was quoted whole.
#[test]
fn queens_report_shard_words_are_quoted_briefly() {
    use backtrack::queens::Shard;

    let word = "7".repeat(100);
    quotes_briefly(&word.parse::<Shard>().unwrap_err().to_string(), &word);
    quotes_briefly(&format!("{word}/4").parse::<Shard>().unwrap_err().to_string(), &word);
    let count = format!("x{word}");
    quotes_briefly(&format!("1/{count}").parse::<Shard>().unwrap_err().to_string(), &count);
}
