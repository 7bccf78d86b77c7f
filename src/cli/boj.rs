//! `backtrack boj ID`: judge problems with their exact input and output formats.

use std::io::Write;
use std::path::PathBuf;

use super::{read_input, stdout, CliError, CliResult, EXIT_OK};

/// The judge problems `boj` accepts, with a short description each.
pub const PROBLEMS: &[(u32, &str)] = &[
    (2580, "Sudoku, any solution"),
    (2239, "Sudoku, lexicographically smallest solution"),
    (9663, "N-Queen: count placements"),
    (6603, "Lotto: every 6-subset"),
    (4574, "Sudominoku"),
    (15649, "N and M (1): permutations of 1..N"),
    (15650, "N and M (2): combinations of 1..N"),
    (15651, "N and M (3): sequences of 1..N with repetition"),
    (15652, "N and M (4): non-decreasing sequences of 1..N"),
    (15654, "N and M (5): permutations of given numbers"),
    (15655, "N and M (6): combinations of given numbers"),
    (15656, "N and M (7): sequences of given numbers with repetition"),
    (15657, "N and M (8): non-decreasing sequences of given numbers"),
    (15663, "N and M (9): permutations of a multiset"),
    (15664, "N and M (10): combinations of a multiset"),
    (15665, "N and M (11): sequences of a multiset's values with repetition"),
    (15666, "N and M (12): non-decreasing sequences of a multiset's values"),
];

fn problem_list() -> String {
    PROBLEMS.iter().map(|(id, what)| format!("  {id}  {what}")).collect::<Vec<_>>().join("\n")
}

/// Solve a Baekjoon Online Judge problem: judge-exact input on stdin, judge-exact output on stdout.
#[derive(clap::Args)]
#[command(after_help = format!("Problems:\n{}\n\nExamples:\n  echo 8 | backtrack boj 9663\n  \
    printf '4 2\\n' | backtrack boj 15649\n  backtrack boj 2580 board.txt", problem_list()))]
pub struct Args {
    /// Problem number, e.g. 2580.
    pub id: u32,
    /// Read the input from this file instead of standard input.
    pub file: Option<PathBuf>,
}

pub fn run(args: Args) -> CliResult {
    if !PROBLEMS.iter().any(|(id, _)| *id == args.id) {
        return Err(CliError::Input(format!(
            "problem {} is not supported; supported problems:\n{}",
            args.id,
            problem_list()
        )));
    }
    let input = read_input(args.file.as_ref())?;
    let mut out = stdout();
    match args.id {
        2580 | 2239 => super::sudoku::boj(args.id, &input, &mut out)?,
        9663 => super::queens::boj(&input, &mut out)?,
        4574 => super::sudominoku::boj(&input, &mut out)?,
        _ => super::choose::boj(args.id, &input, &mut out)?,
    }
    out.flush()?;
    Ok(EXIT_OK)
}
