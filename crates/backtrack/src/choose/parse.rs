//! Reading the enumeration problems' inputs: a list of numbers, the "N and
//! M" series (`N M`, then the N numbers where the problem gives them), and
//! Lotto (sets `k S1 .. Sk` until a lone `0`).

use std::collections::HashSet;

use crate::error::Quoted;
use crate::tokens::Tokens;
use crate::ParseError;

/// Largest N of the "N and M" problems and largest k of Lotto: far past the
/// judges' limits, small enough to keep in memory.
pub const MAX_N: u64 = 1_000_000;

/// Largest number in the pools of the judge problems (the judges' limit is
/// 10,000 or 49).
pub const MAX_VALUE: u64 = 1_000_000_000;

/// Whitespace-separated integers, any number of them.
pub fn parse_values(text: &str) -> Result<Vec<i64>, ParseError> {
    let mut tokens = Tokens::new(text);
    let mut values = Vec::new();
    while let Some(token) = tokens.next_token() {
        let value = token
            .text
            .parse()
            .map_err(|_| token.error(format!("expected an integer, found `{}`", Quoted(token.text))))?;
        values.push(value);
    }
    Ok(values)
}

/// One "N and M" input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NAndM {
    /// Size of the pool.
    pub n: u64,
    /// Length of the sequences, `1 <= m <= n`.
    pub m: usize,
    /// The N numbers, when the input gives them (empty otherwise: the pool is `1..=n`).
    pub values: Vec<u64>,
}

/// Reads `N M` (`1 <= M <= N <= `[`MAX_N`]), then the N numbers (each
/// `1..=`[`MAX_VALUE`]) when `given`, and nothing after them.
pub fn parse_n_and_m(text: &str, given: bool) -> Result<NAndM, ParseError> {
    let mut tokens = Tokens::new(text);
    let n: u64 = tokens.number("N", 1, MAX_N)?;
    let m: u64 = tokens.number("M", 1, n)?;
    let mut values = Vec::new();
    if given {
        for i in 1..=n {
            values.push(tokens.number(&format!("number {i} of {n}"), 1, MAX_VALUE)?);
        }
    }
    tokens.expect_end(if given { "the N numbers" } else { "N and M" })?;
    Ok(NAndM { n, m: m as usize, values })
}

/// Reads Lotto test cases `k S1 .. Sk` (`6 <= k <= `[`MAX_N`], distinct
/// numbers `1..=`[`MAX_VALUE`]) until a lone `0` or the end of the input.
pub fn parse_lotto(text: &str) -> Result<Vec<Vec<u64>>, ParseError> {
    let mut tokens = Tokens::new(text);
    let mut cases = Vec::new();
    loop {
        let Some(token) = tokens.next_token() else {
            // A missing terminating 0 is forgiven: every case before it was complete.
            if cases.is_empty() {
                return Err(tokens.error_at_end("expected a test case or 0, found an empty input"));
            }
            break;
        };
        let k: u64 =
            token.text.parse().map_err(|_| token.error(format!("expected k, found `{}`", Quoted(token.text))))?;
        if k == 0 {
            tokens.expect_end("the terminating 0")?;
            break;
        }
        if !(6..=MAX_N).contains(&k) {
            return Err(token.error(format!("k must be 0 (end) or between 6 and {MAX_N}, found {k}")));
        }
        let mut set: Vec<u64> = Vec::with_capacity(k as usize);
        let mut seen = HashSet::with_capacity(k as usize);
        for i in 1..=k {
            let (value, at) = tokens.number_at(&format!("number {i} of {k}"), 1, MAX_VALUE)?;
            if !seen.insert(value) {
                return Err(at.error(format!("{value} appears twice in one set")));
            }
            set.push(value);
        }
        cases.push(set);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lotto_cases_end_at_zero() {
        let cases = parse_lotto("7 1 2 3 4 5 6 7\n6 9 8 7 6 5 4\n0\n").unwrap();
        assert_eq!(cases, [vec![1, 2, 3, 4, 5, 6, 7], vec![9, 8, 7, 6, 5, 4]]);
        let err = parse_lotto("6 1 2 3 4 5 5\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 13));
        assert!(parse_lotto("6 1 2 3 4 5 6\n0\n7\n").is_err());
    }

    #[test]
    fn n_and_m_checks_its_ranges() {
        assert_eq!(parse_n_and_m("4 2\n", false).unwrap(), NAndM { n: 4, m: 2, values: vec![] });
        assert_eq!(parse_n_and_m("2 1\n5 3\n", true).unwrap().values, [5, 3]);
        let err = parse_n_and_m("2 3\n", false).unwrap_err();
        assert_eq!(err.message, "M must be between 1 and 2, found 3");
        assert_eq!(parse_values("3 -1\n 4").unwrap(), [3, -1, 4]);
    }
}
