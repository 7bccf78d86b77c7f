//! Reading the judge's text format.

use crate::error::Quoted;
use crate::tokens::{Token, Tokens};
use crate::ParseError;

use super::{Placement, Puzzle};

/// The cell a name like `B7` denotes.
pub fn parse_cell(name: &str) -> Option<usize> {
    match name.as_bytes() {
        &[row @ b'A'..=b'I', col @ b'1'..=b'9'] => Some((row - b'A') as usize * 9 + (col - b'1') as usize),
        _ => None,
    }
}

/// Parses the judge's format: puzzles (`N`, N lines `U LU V LV`, a line of
/// nine locations), ended by a line `0` (or by the end of the input).
///
/// The outer `Err` is an error that loses track of the structure (a bad `N`,
/// a truncated puzzle); an inner `Err` is a puzzle whose words were all
/// there but do not make a valid puzzle, and the others can still be solved.
pub fn parse(text: &str) -> Result<Vec<Result<Puzzle, ParseError>>, ParseError> {
    let mut words = Tokens::new(text);
    let mut puzzles = Vec::new();
    loop {
        let Some(count) = words.next_token() else {
            if puzzles.is_empty() {
                let (line, column) = words.end();
                return Err(ParseError::new(line, column, "expected the number of dominoes, found an empty input"));
            }
            // A missing terminating 0 is forgiven: every puzzle before it was complete.
            break;
        };
        let n: usize = match count.text.parse() {
            Ok(0) => {
                if let Some(extra) = words.next_token() {
                    return Err(ParseError::new(
                        extra.line,
                        extra.column,
                        format!("unexpected `{}` after the terminating 0", Quoted(extra.text)),
                    ));
                }
                break;
            }
            Ok(n @ 1..=36) => n,
            _ => {
                return Err(ParseError::new(
                    count.line,
                    count.column,
                    format!("expected the number of dominoes (1 to 36, or 0 to end), found `{}`", Quoted(count.text)),
                ))
            }
        };
        // Words read so far with what each should be, to explain a truncated
        // puzzle by its first misplaced word (a missing word shifts the rest).
        let mut seen: Vec<(Token, bool)> = Vec::with_capacity(4 * n + 9);
        fn take<'a>(
            words: &mut Tokens<'a>,
            what: String,
            digit: bool,
            seen: &mut Vec<(Token<'a>, bool)>,
        ) -> Result<Token<'a>, ParseError> {
            match words.expect(&what) {
                Ok(word) => {
                    seen.push((word, digit));
                    Ok(word)
                }
                Err(end) => Err(first_misplaced(seen).unwrap_or(end)),
            }
        }
        let mut domino_words = Vec::with_capacity(n);
        for i in 1..=n {
            let mut four = [count; 4];
            for (j, slot) in four.iter_mut().enumerate() {
                let what = ["a digit", "a location", "a digit", "a location"][j];
                *slot = take(&mut words, format!("{what} in domino {i} of {n}"), j % 2 == 0, &mut seen)?;
            }
            domino_words.push(four);
        }
        let mut single_words = [count; 9];
        for (d, slot) in single_words.iter_mut().enumerate() {
            *slot = take(&mut words, format!("the location of the digit {}", d + 1), false, &mut seen)?;
        }
        puzzles.push(read_puzzle(&domino_words, &single_words));
    }
    Ok(puzzles)
}

/// The first word that is not the digit or location expected in its place.
fn first_misplaced(seen: &[(Token, bool)]) -> Option<ParseError> {
    seen.iter().find_map(|&(word, digit)| {
        let fits = if digit { matches!(word.text.as_bytes(), [b'1'..=b'9']) } else { parse_cell(word.text).is_some() };
        (!fits).then(|| {
            let what = if digit { "a digit 1-9" } else { "a location A1-I9" };
            ParseError::new(word.line, word.column, format!("expected {what}, found `{}`", Quoted(word.text)))
        })
    })
}

/// Turns one puzzle's words into a [`Puzzle`].
fn read_puzzle(domino_words: &[[Token; 4]], single_words: &[Token; 9]) -> Result<Puzzle, ParseError> {
    let at = |w: &Token, message: String| ParseError::new(w.line, w.column, message);
    let digit = |w: &Token| -> Result<u8, ParseError> {
        match w.text.as_bytes() {
            &[d @ b'1'..=b'9'] => Ok(d - b'0'),
            _ => Err(at(w, format!("expected a digit 1-9, found `{}`", Quoted(w.text)))),
        }
    };
    let location = |w: &Token| -> Result<u8, ParseError> {
        parse_cell(w.text)
            .map(|c| c as u8)
            .ok_or_else(|| at(w, format!("expected a location A1-I9, found `{}`", Quoted(w.text))))
    };
    let mut dominoes = Vec::with_capacity(domino_words.len());
    for [u, lu, v, lv] in domino_words {
        dominoes.push(Placement {
            first_digit: digit(u)?,
            first: location(lu)?,
            second_digit: digit(v)?,
            second: location(lv)?,
        });
    }
    let mut singles = [0u8; 9];
    for (slot, w) in singles.iter_mut().zip(single_words) {
        *slot = location(w)?;
    }
    Puzzle::new(dominoes, singles).map_err(|e| {
        let word = if e.clue < domino_words.len() {
            // Point at the location of the offending half.
            &domino_words[e.clue][2 * e.half + 1]
        } else {
            &single_words[e.clue - domino_words.len()]
        };
        at(word, e.message)
    })
}
