//! `backtrack boj ID`: judge problems with their exact input and output formats.

use std::io::Write;
use std::path::PathBuf;

use backtrack::boj::{self, AnswerError};
use backtrack::lang::{Lang, Message};

use super::{read_input, stdout, CliError, CliResult, EXIT_OK};

/// The judge problems `boj` answers through the other commands' modules, with a short description
/// each; the library's `boj` module lists the rest.
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

/// Every problem `boj` answers: number, description (and the Korean title where the library has one).
fn problem_list() -> String {
    let older = PROBLEMS.iter().map(|(id, what)| format!("  {id}  {what}"));
    let newer = boj::PROBLEMS.iter().map(|p| format!("  {}  {} ({})", p.id, p.description, p.korean));
    older.chain(newer).collect::<Vec<_>>().join("\n")
}

/// Solve a Baekjoon Online Judge problem: judge-exact input on stdin, judge-exact output on stdout.
#[derive(clap::Args)]
#[command(after_help = format!("Problems:\n{}\n\nExamples:\n  echo 8 | backtrack boj 9663\n  \
    printf '4 2\\n' | backtrack boj 15649\n  \
    printf '2\\n< >\\n' | backtrack boj 2529\n  backtrack boj 2580 board.txt", problem_list()))]
pub struct Args {
    /// Problem number, e.g. 2580.
    pub id: u32,
    /// Read the input from this file instead of standard input.
    pub file: Option<PathBuf>,
    #[arg(long, value_name = "LANG", value_parser = super::parse_lang, help = super::lang_help!())]
    pub lang: Option<Lang>,
}

/// Runs `backtrack boj`, speaking `lang`.
pub fn run(args: Args, lang: Lang) -> CliResult {
    if !PROBLEMS.iter().any(|(id, _)| *id == args.id) && boj::problem(args.id).is_none() {
        return Err(CliError::Input(lang.say(Message::BojUnsupported { id: args.id, list: &problem_list() })));
    }
    let input = read_input(args.file.as_ref())?;
    let mut out = stdout();
    match args.id {
        2580 | 2239 => super::sudoku::boj(args.id, &input, &mut out)?,
        9663 => super::queens::boj(&input, &mut out)?,
        4574 => super::sudominoku::boj(&input, &mut out)?,
        id => match boj::answer(id, &input.text, &mut out) {
            Some(Err(AnswerError::Parse(e))) => return Err(CliError::bad_input(&input.name, &e)),
            Some(Err(AnswerError::Io(e))) => return Err(e.into()),
            Some(Ok(())) => {}
            None => super::choose::boj(id, &input, &mut out)?,
        },
    }
    out.flush()?;
    Ok(EXIT_OK)
}
