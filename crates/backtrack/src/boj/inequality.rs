//! Inequality signs (2529 부등호): k signs `<` and `>`; k+1 distinct digits
//! placed around them so that every sign holds, read as one number (a
//! leading 0 allowed). The largest and the smallest such number are wanted,
//! printed with all k+1 digits.
//!
//! # The search
//!
//! A depth-first walk places the digits left to right, trying 9 down to 0
//! for the largest and 0 up to 9 for the smallest, so the first complete
//! placement is the answer. A digit is cut when the run of equal signs that
//! follows it needs more unused digits above it (a run of `<`) or below it
//! (a run of `>`) than are left.

use crate::error::Quoted;
use crate::tokens::Tokens;
use crate::ParseError;

/// Most signs: k+1 distinct digits must exist (the judge's k is 2 to 9).
pub const MAX_K: usize = 9;

/// One sign between two digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// The digit before is smaller than the digit after.
    Less,
    /// The digit before is larger than the digit after.
    Greater,
}

impl Sign {
    fn holds(self, before: u8, after: u8) -> bool {
        match self {
            Sign::Less => before < after,
            Sign::Greater => before > after,
        }
    }
}

/// Reads `k` (`1..=`[`MAX_K`]) and the k signs, each its own word.
pub fn parse_signs(text: &str) -> Result<Vec<Sign>, ParseError> {
    let mut tokens = Tokens::new(text);
    let k: usize = tokens.number("k", 1, MAX_K)?;
    let mut signs = Vec::with_capacity(k);
    for i in 1..=k {
        let token = tokens.expect(&format!("sign {i} of {k}"))?;
        signs.push(match token.text {
            "<" => Sign::Less,
            ">" => Sign::Greater,
            other => return Err(token.error(format!("expected `<` or `>`, found `{}`", Quoted(other)))),
        });
    }
    tokens.expect_end("the k signs")?;
    Ok(signs)
}

/// The largest and the smallest numbers, as their k+1 digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// The largest number's digits.
    pub largest: Vec<u8>,
    /// The smallest number's digits.
    pub smallest: Vec<u8>,
}

/// The largest and smallest digit strings that obey `signs` (one always exists).
pub fn bounds(signs: &[Sign]) -> Bounds {
    let first = |order: &[u8]| {
        let mut digits = Vec::with_capacity(signs.len() + 1);
        let found = place(signs, order, &mut digits, 0);
        assert!(found, "0, 1, ..., k in a suitable order obey any k <= 9 signs");
        digits
    };
    let down: Vec<u8> = (0..=9).rev().collect();
    let up: Vec<u8> = (0..=9).collect();
    Bounds { largest: first(&down), smallest: first(&up) }
}

/// Extends `digits` (using the digits of the bit set `used`) trying digits in
/// `order`; true when a complete placement was found (left in `digits`).
fn place(signs: &[Sign], order: &[u8], digits: &mut Vec<u8>, used: u16) -> bool {
    let at = digits.len();
    if at == signs.len() + 1 {
        return true;
    }
    for &d in order {
        if used & 1 << d != 0 || at > 0 && !signs[at - 1].holds(digits[at - 1], d) {
            continue;
        }
        // The run of equal signs after position `at` needs that many free digits on its side.
        let run = signs[at..].iter().take_while(|&&s| Some(&s) == signs.get(at)).count();
        let free = (0..=9u8).filter(|&e| used & 1 << e == 0 && e != d);
        let room = match signs.get(at) {
            Some(Sign::Less) => free.filter(|&e| e > d).count(),
            Some(Sign::Greater) => free.filter(|&e| e < d).count(),
            None => run,
        };
        if room < run {
            continue;
        }
        digits.push(d);
        if place(signs, order, digits, used | 1 << d) {
            return true;
        }
        digits.pop();
    }
    false
}

/// Judge-exact answer of 2529: the largest, then the smallest, one per line.
pub fn solve_2529(input: &str) -> Result<String, ParseError> {
    let b = bounds(&parse_signs(input)?);
    let text = |digits: &[u8]| digits.iter().map(|d| char::from(b'0' + d)).collect::<String>();
    Ok(format!("{}\n{}\n", text(&b.largest), text(&b.smallest)))
}
