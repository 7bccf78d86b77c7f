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
    quotes_briefly(&word.parse::<Technique>().unwrap_err(), &word);
    quotes_briefly(&word.parse::<Symmetry>().unwrap_err(), &word);
    quotes_briefly(&parse_band(&word).unwrap_err(), &word);
    let high = "9".repeat(100);
    quotes_briefly(&parse_band(&format!("{high}..")).unwrap_err(), &high);
    let band = format!("8..7.{}", "0".repeat(100));
    quotes_briefly(&parse_band(&band).unwrap_err(), &band);
}
