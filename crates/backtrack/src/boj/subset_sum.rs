//! Counting subsequences by their sum (1182 부분수열의 합): of N integers,
//! how many non-empty subsequences (choices of positions) add up to S.
//!
//! # The search
//!
//! The numbers are split into two halves. A depth-first walk lists the
//! subset sums of each half (2^⌈N/2⌉ of them at most, each step adding or
//! skipping one number); the sums of the second half are sorted, and each
//! sum `x` of the first half counts the second-half sums equal to `S - x`.
//! The empty choice of both halves is the one pair that is not a
//! subsequence: it is taken off when `S = 0`. The work is about
//! `2^(N/2) log 2^(N/2)`, against `2^N` for trying every subsequence.

use crate::tokens::Tokens;
use crate::ParseError;

/// Most numbers (the judge's limit is 20).
pub const MAX_N: usize = 40;

/// Largest absolute value of a number (the judge's limit is 100,000).
pub const MAX_VALUE: i64 = 1_000_000_000;

/// Largest absolute value of S (the judge's limit is 1,000,000).
pub const MAX_S: i64 = 1_000_000_000_000_000;

/// One input: the numbers and the wanted sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubsetSum {
    /// The numbers, each within ±[`MAX_VALUE`].
    pub numbers: Vec<i64>,
    /// The wanted sum, within ±[`MAX_S`].
    pub target: i64,
}

/// Reads `N S` and the N numbers.
pub fn parse_subset_sum(text: &str) -> Result<SubsetSum, ParseError> {
    let mut tokens = Tokens::new(text);
    let n: usize = tokens.number("N", 1, MAX_N)?;
    let target = tokens.number("S", -MAX_S, MAX_S)?;
    let numbers = (1..=n)
        .map(|i| tokens.number(&format!("number {i} of {n}"), -MAX_VALUE, MAX_VALUE))
        .collect::<Result<_, _>>()?;
    tokens.expect_end("the N numbers")?;
    Ok(SubsetSum { numbers, target })
}

/// Every subset sum of `numbers`, the empty one included, in walk order.
fn subset_sums(numbers: &[i64]) -> Vec<i64> {
    fn walk(numbers: &[i64], sum: i64, out: &mut Vec<i64>) {
        match numbers.split_first() {
            None => out.push(sum),
            Some((&first, rest)) => {
                walk(rest, sum, out);
                walk(rest, sum + first, out);
            }
        }
    }
    let mut out = Vec::with_capacity(1 << numbers.len());
    walk(numbers, 0, &mut out);
    out
}

/// How many non-empty subsequences add up to the target.
pub fn count_subsequences(input: &SubsetSum) -> u64 {
    let (first, second) = input.numbers.split_at(input.numbers.len() / 2);
    let mut right = subset_sums(second);
    right.sort_unstable();
    let mut count = 0u64;
    for x in subset_sums(first) {
        let want = input.target - x;
        let from = right.partition_point(|&y| y < want);
        let to = right.partition_point(|&y| y <= want);
        count += (to - from) as u64;
    }
    if input.target == 0 {
        count -= 1;
    }
    count
}

/// Judge-exact answer of 1182.
pub fn solve_1182(input: &str) -> Result<String, ParseError> {
    Ok(format!("{}\n", count_subsequences(&parse_subset_sum(input)?)))
}
