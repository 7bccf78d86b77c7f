//! The words `backtrack sudoku generate` and `rate` take: a symmetry name, a
//! technique name and a rating band `A..B`. Whatever is read must be written
//! back and read again the same; a refusal's message must stay short.
#![no_main]

use backtrack::sudoku::generate::{parse_band, Symmetry};
use backtrack::sudoku::score::Score;
use backtrack::sudoku::techniques::Technique;
use backtrack_fuzz::{check_message, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    match text.parse::<Symmetry>() {
        Ok(symmetry) => assert_eq!(symmetry.name().parse::<Symmetry>(), Ok(symmetry)),
        Err(e) => check_message(&e.to_string()),
    }
    match text.parse::<Technique>() {
        Ok(technique) => {
            assert_eq!(technique.name().parse::<Technique>(), Ok(technique));
            assert_eq!(technique.slug().parse::<Technique>(), Ok(technique));
        }
        Err(e) => check_message(&e.to_string()),
    }
    match parse_band(&text) {
        Ok((lo, hi)) => {
            assert!(lo <= hi && hi <= Score::MAX, "band {lo}..{hi} from {text:?}");
            let written = format!("{lo}..{hi}");
            assert_eq!(parse_band(&written), Ok((lo, hi)), "{written}");
        }
        Err(e) => check_message(&e.to_string()),
    }
});
