//! The largest sum of differences (10819 차이를 최대로): N integers put in
//! the order that makes `|A[0]-A[1]| + |A[1]-A[2]| + ... + |A[N-2]-A[N-1]|`
//! largest; that sum is wanted.
//!
//! # The search
//!
//! A depth-first walk builds the order one number at a time, trying equal
//! numbers only once at each place (they give the same sums). It cuts a
//! branch when the sum so far plus a bound on the rest cannot beat the best
//! order found. The bound: the `r` differences still to come are each a
//! larger number minus a smaller one, drawn from the last number placed and
//! the unplaced ones, each unplaced number in at most two differences; so
//! they add up to at most the `r` largest minus the `r` smallest of that
//! collection (the last number once, every unplaced one twice).

use crate::tokens::Tokens;
use crate::ParseError;

/// Most numbers (the judge's limit is 8).
pub const MAX_N: usize = 12;

/// Largest absolute value of a number (the judge's limit is 100).
pub const MAX_VALUE: i64 = 1_000_000_000;

/// The largest sum, and how many nodes the walk visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Best {
    /// The largest sum of neighbour differences.
    pub sum: u64,
    /// Nodes of the search tree visited.
    pub nodes: u64,
}

/// Reads `N` (`3..=`[`MAX_N`]) and the N numbers.
pub fn parse_numbers(text: &str) -> Result<Vec<i64>, ParseError> {
    let mut tokens = Tokens::new(text);
    let n: usize = tokens.number("N", 3, MAX_N)?;
    let numbers =
        (1..=n).map(|i| tokens.number(&format!("A[{}]", i - 1), -MAX_VALUE, MAX_VALUE)).collect::<Result<_, _>>()?;
    tokens.expect_end("the N numbers")?;
    Ok(numbers)
}

/// The largest sum of neighbour differences over every order of `numbers`.
pub fn largest_sum(numbers: &[i64]) -> Best {
    let mut sorted = numbers.to_vec();
    sorted.sort_unstable();
    let mut walk = Walk { sorted: &sorted, best: 0, nodes: 0, pool: Vec::with_capacity(2 * sorted.len() + 1) };
    let all = (1u32 << sorted.len()) - 1;
    for i in 0..sorted.len() {
        if i == 0 || sorted[i] != sorted[i - 1] {
            walk.visit(all & !(1 << i), sorted[i], 0);
        }
    }
    Best { sum: walk.best, nodes: walk.nodes }
}

/// The walk over orders.
struct Walk<'a> {
    /// The numbers, sorted.
    sorted: &'a [i64],
    best: u64,
    nodes: u64,
    /// Scratch space for the bound.
    pool: Vec<i64>,
}

impl Walk<'_> {
    /// The numbers of the bit set `unplaced` are still to place after `last`; the sum so far is `sum`.
    fn visit(&mut self, unplaced: u32, last: i64, sum: u64) {
        self.nodes += 1;
        if unplaced == 0 {
            self.best = self.best.max(sum);
            return;
        }
        if sum + self.bound(unplaced, last) <= self.best {
            return;
        }
        let mut previous = None;
        for i in 0..self.sorted.len() {
            let value = self.sorted[i];
            if unplaced & 1 << i == 0 || previous == Some(value) {
                continue;
            }
            previous = Some(value);
            self.visit(unplaced & !(1 << i), value, sum + value.abs_diff(last));
        }
    }

    /// At most what the differences after `last` can add (see the module doc).
    fn bound(&mut self, unplaced: u32, last: i64) -> u64 {
        self.pool.clear();
        self.pool.push(last);
        for (i, &value) in self.sorted.iter().enumerate() {
            if unplaced & 1 << i != 0 {
                self.pool.extend([value, value]);
            }
        }
        self.pool.sort_unstable();
        let r = unplaced.count_ones() as usize;
        let low: i64 = self.pool[..r].iter().sum();
        let high: i64 = self.pool[self.pool.len() - r..].iter().sum();
        (high - low) as u64
    }
}

/// Judge-exact answer of 10819.
pub fn solve_10819(input: &str) -> Result<String, ParseError> {
    Ok(format!("{}\n", largest_sum(&parse_numbers(input)?).sum))
}
