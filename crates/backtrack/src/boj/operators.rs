//! Inserting operators (14888 연산자 끼워넣기, 15658 연산자 끼워넣기 (2)):
//! N numbers in a fixed order, a supply of `+`, `-`, `×`, `÷`; one operator
//! goes between each two neighbours, the expression is evaluated from left
//! to right, and the largest and the smallest result are wanted. Division
//! truncates toward zero (C++14: -7 ÷ 2 = -3), which is Rust's `/` on
//! integers. 14888 gives exactly N-1 operators; 15658 gives at least N-1.
//!
//! # The search
//!
//! A depth-first walk places the operators one gap at a time. Every number
//! is positive, so each step `v -> v op a` never decreases when `v` grows
//! (truncating division included), and neither does any whole remaining
//! tail of steps: from a larger value the same operators reach a larger or
//! equal result. So, among the visits to one state (the operators used so
//! far, which fix the gap too), only a value above every earlier one can
//! raise the maximum and only a value below every earlier one can lower the
//! minimum; a value inside the range already walked is pruned. The table of
//! ranges holds one entry per state reached, at most `C(N+3, 3)`.
//!
//! Results stay exact: the input is refused when `(A1+1)(A2+1)...(AN+1)`
//! exceeds the range of `i128`, which bounds every value along the way.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::tokens::Tokens;
use crate::ParseError;

/// Most numbers in one expression (the judge's limit is 11).
pub const MAX_N: usize = 40;

/// Largest number (the judge's limit is 100).
pub const MAX_VALUE: i128 = 1_000_000;

/// Most operators of one kind that 15658 accepts (its statement allows up to 4N in all).
pub const MAX_COUNT: usize = 1_000_000;

/// The four operators, in the order the input counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `×`
    Mul,
    /// `÷`, truncating toward zero.
    Div,
}

impl Op {
    /// The operators in input order.
    pub const ALL: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

    /// `value op number`, with the judge's truncating division.
    pub fn apply(self, value: i128, number: i128) -> i128 {
        match self {
            Op::Add => value + number,
            Op::Sub => value - number,
            Op::Mul => value * number,
            Op::Div => value / number,
        }
    }
}

/// One input: the numbers and how many of each operator there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expression {
    /// The numbers, in their fixed order, each in `1..=`[`MAX_VALUE`].
    pub numbers: Vec<i128>,
    /// How many `+`, `-`, `×`, `÷` may be placed, in that order.
    pub counts: [usize; 4],
}

/// The largest and smallest results, and how many nodes the walk visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extremes {
    /// The largest result.
    pub max: i128,
    /// The smallest result.
    pub min: i128,
    /// Nodes of the search tree visited (pruned ones included).
    pub nodes: u64,
}

/// Reads `N`, the N numbers, and the four operator counts: summing to
/// exactly N-1 when `exact` (14888), to at least N-1 otherwise (15658).
pub fn parse_expression(text: &str, exact: bool) -> Result<Expression, ParseError> {
    let mut tokens = Tokens::new(text);
    let n: usize = tokens.number("N", 2, MAX_N)?;
    let mut numbers = Vec::with_capacity(n);
    // The product of (A+1) bounds |value| + 1 at every step (see the module doc).
    let mut bound: i128 = 1;
    for i in 1..=n {
        let (a, token) = tokens.number_at(&format!("A{i}"), 1, MAX_VALUE)?;
        bound = bound
            .checked_mul(a + 1)
            .ok_or_else(|| token.error("the numbers are too large together: the results could pass 128 bits"))?;
        numbers.push(a);
    }
    let mut counts = [0; 4];
    let names = ["the number of +", "the number of -", "the number of ×", "the number of ÷"];
    let cap = if exact { n - 1 } else { MAX_COUNT };
    let mut first = None;
    for (count, name) in counts.iter_mut().zip(names) {
        let (c, token) = tokens.number_at(name, 0, cap)?;
        first.get_or_insert(token);
        *count = c;
    }
    let total: usize = counts.iter().sum();
    let first = first.expect("four counts were read");
    if exact && total != n - 1 {
        return Err(first.error(format!("the four counts must add up to N-1 = {}, found {total}", n - 1)));
    }
    if total < n - 1 {
        return Err(first.error(format!("the four counts must add up to at least N-1 = {}, found {total}", n - 1)));
    }
    tokens.expect_end("the four operator counts")?;
    Ok(Expression { numbers, counts })
}

/// The largest and smallest results over every placement of the operators.
pub fn extremes(expr: &Expression) -> Extremes {
    let mut walk = Walk {
        numbers: &expr.numbers,
        counts: expr.counts,
        seen: HashMap::new(),
        max: i128::MIN,
        min: i128::MAX,
        nodes: 0,
    };
    walk.visit(1, [0; 4], expr.numbers[0]);
    Extremes { max: walk.max, min: walk.min, nodes: walk.nodes }
}

/// The depth-first walk and its table of value ranges per state.
struct Walk<'a> {
    numbers: &'a [i128],
    counts: [usize; 4],
    /// For each state (operators used, packed), the lowest and highest value walked from it.
    seen: HashMap<u32, (i128, i128)>,
    max: i128,
    min: i128,
    nodes: u64,
}

impl Walk<'_> {
    /// The value after the first `next` numbers is `value`, with `used` operators placed.
    fn visit(&mut self, next: usize, mut used: [usize; 4], value: i128) {
        self.nodes += 1;
        if next == self.numbers.len() {
            self.max = self.max.max(value);
            self.min = self.min.min(value);
            return;
        }
        // Each count is below MAX_N here, so 8 bits each pack the state.
        let key = used.iter().fold(0u32, |key, &u| key << 8 | u as u32);
        match self.seen.entry(key) {
            Entry::Vacant(entry) => {
                entry.insert((value, value));
            }
            Entry::Occupied(mut entry) => {
                let (low, high) = *entry.get();
                if low <= value && value <= high {
                    return;
                }
                entry.insert((low.min(value), high.max(value)));
            }
        }
        let number = self.numbers[next];
        for (k, op) in Op::ALL.into_iter().enumerate() {
            if used[k] < self.counts[k] {
                used[k] += 1;
                self.visit(next + 1, used, op.apply(value, number));
                used[k] -= 1;
            }
        }
    }
}

/// The judge's output: the largest result, then the smallest, one per line.
pub fn format_extremes(extremes: &Extremes) -> String {
    format!("{}\n{}\n", extremes.max, extremes.min)
}

/// Judge-exact answer of 14888 (exactly N-1 operators).
pub fn solve_14888(input: &str) -> Result<String, ParseError> {
    Ok(format_extremes(&extremes(&parse_expression(input, true)?)))
}

/// Judge-exact answer of 15658 (at least N-1 operators).
pub fn solve_15658(input: &str) -> Result<String, ParseError> {
    Ok(format_extremes(&extremes(&parse_expression(input, false)?)))
}
