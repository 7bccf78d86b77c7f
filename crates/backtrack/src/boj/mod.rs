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
//! judge's output, and an entry in [`PROBLEMS`]; [`answer`] streams any of
//! them to a writer by number.
//!
//! ```
//! use backtrack::boj;
//!
//! assert_eq!(boj::solve_14888("3\n3 4 5\n1 0 1 0\n").unwrap(), "35\n17\n");
//! assert_eq!(boj::problem(1987).unwrap().korean, "알파벳");
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

use std::fmt;
use std::io::{self, Write};

use crate::ParseError;

pub use alphabet::solve_1987;
pub use difference::solve_10819;
pub use inequality::solve_2529;
pub use operators::{solve_14888, solve_15658};
pub use password::solve_1759;
pub use subset_sum::solve_1182;
pub use teams::{solve_14889, solve_15661};
pub use tsp::solve_10971;

/// One judge problem of this module: its number, what it asks, and how to answer it.
#[derive(Debug, Clone, Copy)]
pub struct Problem {
    /// The problem's number on the judge.
    pub id: u32,
    /// What the problem asks, in a few English words.
    pub description: &'static str,
    /// The problem's title on the judge, in Korean.
    pub korean: &'static str,
    /// Reads the judge's input and writes the judge's output.
    write: fn(&str, &mut dyn Write) -> Result<(), AnswerError>,
}

impl Problem {
    /// Reads the judge's `input` and writes the judge's exact output to `out`.
    pub fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        (self.write)(input, out)
    }

    /// The judge's exact output for `input`, as text.
    pub fn solve(&self, input: &str) -> Result<String, ParseError> {
        let mut out = Vec::new();
        match self.answer(input, &mut out) {
            Ok(()) => Ok(String::from_utf8(out).expect("answers are ASCII")),
            Err(AnswerError::Parse(e)) => Err(e),
            Err(AnswerError::Io(e)) => unreachable!("writing to memory failed: {e}"),
        }
    }
}

/// The problems of this module, in the order `backtrack boj` lists them.
pub const PROBLEMS: &[Problem] = &[
    Problem {
        id: 14888,
        description: "insert the given operators: largest and smallest result",
        korean: "연산자 끼워넣기",
        write: operators::write_14888,
    },
    Problem {
        id: 15658,
        description: "insert operators, more than enough given: largest and smallest result",
        korean: "연산자 끼워넣기 (2)",
        write: operators::write_15658,
    },
    Problem {
        id: 14889,
        description: "split into two equal teams of closest strength",
        korean: "스타트와 링크",
        write: teams::write_14889,
    },
    Problem {
        id: 15661,
        description: "split into two teams of any sizes, closest strength",
        korean: "링크와 스타트",
        write: teams::write_15661,
    },
    Problem {
        id: 1182,
        description: "count non-empty subsequences with sum S",
        korean: "부분수열의 합",
        write: subset_sum::write_1182,
    },
    Problem {
        id: 1759,
        description: "every password: increasing letters, a vowel, two consonants",
        korean: "암호 만들기",
        write: password::write_1759,
    },
    Problem {
        id: 2529,
        description: "largest and smallest digits obeying the inequality signs",
        korean: "부등호",
        write: inequality::write_2529,
    },
    Problem {
        id: 10819,
        description: "order the numbers to maximize the sum of neighbour differences",
        korean: "차이를 최대로",
        write: difference::write_10819,
    },
    Problem {
        id: 10971,
        description: "cheapest round trip through every city",
        korean: "외판원 순회 2",
        write: tsp::write_10971,
    },
    Problem {
        id: 1987,
        description: "longest walk on a letter board, no letter twice",
        korean: "알파벳",
        write: alphabet::write_1987,
    },
];

/// The problem numbered `id`, if this module has it.
pub fn problem(id: u32) -> Option<&'static Problem> {
    PROBLEMS.iter().find(|p| p.id == id)
}

/// Answers problem `id`: `None` when this module does not have it.
pub fn answer(id: u32, input: &str, out: &mut dyn Write) -> Option<Result<(), AnswerError>> {
    problem(id).map(|p| p.answer(input, out))
}

/// Why an answer could not be written: the input, or the writer.
#[derive(Debug)]
pub enum AnswerError {
    /// The input is malformed or outside the statement's promises.
    Parse(ParseError),
    /// The writer failed.
    Io(io::Error),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Parse(e) => e.fmt(f),
            AnswerError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnswerError {}

impl From<ParseError> for AnswerError {
    fn from(e: ParseError) -> Self {
        AnswerError::Parse(e)
    }
}

impl From<io::Error> for AnswerError {
    fn from(e: io::Error) -> Self {
        AnswerError::Io(e)
    }
}

/// The text of the one-answer problems: `solve` turns the input into the
/// whole output, which is written at once.
fn write_text(
    solve: fn(&str) -> Result<String, ParseError>,
    input: &str,
    out: &mut dyn Write,
) -> Result<(), AnswerError> {
    out.write_all(solve(input)?.as_bytes())?;
    Ok(())
}

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
