//! Ten more judge problems of the backtracking practice set, each with the
//! judge's exact input and output: a parser (errors name the line and
//! column), a solver that searches with pruning, and a writer.
//!
//! | id | problem | module |
//! | --- | --- | --- |
//! | 14888, 15658 | insert operators between numbers: largest and smallest result | [`operators`] |
//! | 14889, 15661 | split people into two teams with the closest strengths | [`teams`] |
//! | 1182 | count the subsequences with a given sum | [`subset_sum`] |
//! | 1759 | every password from given letters | [`password`] |
//! | 2529 | largest and smallest digit strings obeying `<` and `>` signs | [`inequality`] |
//! | 10819 | the order of numbers that maximizes the sum of neighbour differences | [`difference`] |
//! | 10971 | the cheapest round trip through every city | [`tsp`] |
//! | 1987 | the longest walk on a letter board without repeating a letter | [`alphabet`] |
//!
//! Each problem has a `solve_<id>` function from the judge's input to the
//! judge's output; its entry in [`judge::PROBLEMS`](crate::judge::PROBLEMS)
//! answers through it, and makes and checks its test cases.
//!
//! ```
//! use backtrack::boj;
//!
//! assert_eq!(boj::solve_14888("3\n3 4 5\n1 0 1 0\n").unwrap(), "35\n17\n");
//! let err = boj::solve_2529("2\n< x\n").unwrap_err();
//! assert_eq!((err.line, err.column), (2, 3));
//! ```
//!
//! The inputs may go past the judge's limits (the bounds are each module's
//! constants), but never past what keeps the numbers exact and the memory
//! small; input outside the statement's promises (an unreachable tour, a
//! diagonal that is not zero) is refused with a [`ParseError`], as malformed
//! input is.

pub mod alphabet;
pub mod difference;
pub mod inequality;
pub mod operators;
pub mod password;
pub mod subset_sum;
pub mod teams;
pub mod tsp;

#[cfg(test)]
mod tests;

use crate::ParseError;

pub use alphabet::solve_1987;
pub use difference::solve_10819;
pub use inequality::solve_2529;
pub use operators::{solve_14888, solve_15658};
pub use password::solve_1759;
pub use subset_sum::solve_1182;
pub use teams::{solve_14889, solve_15661};
pub use tsp::solve_10971;

/// Reads an `n` x `n` matrix of numbers in `0..=max`, row by row, whose
/// diagonal must be 0 (the statements of 14889, 15661 and 10971 promise it);
/// `what` names an entry in errors, e.g. "S" for `S[2][3]`.
fn parse_square(
    tokens: &mut crate::tokens::Tokens<'_>,
    n: usize,
    what: &str,
    max: u64,
) -> Result<Vec<Vec<u64>>, ParseError> {
    let mut rows = Vec::with_capacity(n);
    for i in 1..=n {
        let mut row = Vec::with_capacity(n);
        for j in 1..=n {
            let (value, token) = tokens.number_at(&format!("{what}[{i}][{j}]"), 0, max)?;
            if i == j && value != 0 {
                return Err(token.error(format!("{what}[{i}][{i}] must be 0, found {value}")));
            }
            row.push(value);
        }
        rows.push(row);
    }
    Ok(rows)
}
