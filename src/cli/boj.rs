//! `backtrack boj ID`: judge problems with their exact input and output formats.

use std::io::Write;
use std::path::PathBuf;

use backtrack::judge::{self, AnswerError, JudgeProblem, Title};
use backtrack::lang::{Lang, Message};

use super::{read_input, stdout, CliError, CliResult, EXIT_OK};

/// Every problem `boj` answers, one per line: its number and title, in `lang`.
fn problem_list(lang: Lang) -> String {
    let line = |p: &&dyn JudgeProblem| {
        let Title { ko, en } = p.title();
        match lang {
            Lang::Ko => format!("  {:<5}  {ko}", p.id()),
            // The Korean title where it says more than the English one.
            Lang::En if en.contains(ko) => format!("  {:<5}  {en}", p.id()),
            Lang::En => format!("  {:<5}  {en} ({ko})", p.id()),
        }
    };
    judge::PROBLEMS.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// Solve a Baekjoon Online Judge problem: judge-exact input on stdin, judge-exact output on stdout.
#[derive(clap::Args)]
#[command(after_help = format!("Problems:\n{}\n\nExamples:\n  echo 8 | backtrack boj 9663\n  \
    printf '4 2\\n' | backtrack boj 15649\n  \
    printf '2\\n< >\\n' | backtrack boj 2529\n  backtrack boj 2580 board.txt", problem_list(Lang::En)))]
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
    let Some(problem) = judge::PROBLEMS.iter().find(|p| p.id() == args.id) else {
        return Err(CliError::Input(lang.say(Message::BojUnsupported { id: args.id, list: &problem_list(lang) })));
    };
    let input = read_input(args.file.as_ref())?;
    let mut out = stdout();
    match problem.answer(&input.text, &mut out) {
        Ok(()) => {}
        Err(AnswerError::Parse(e)) => return Err(CliError::bad_input(&input.name, &e)),
        Err(AnswerError::Unsolvable(why)) => return Err(CliError::Input(format!("{}: {why}", input.name))),
        Err(AnswerError::Io(e)) => return Err(e.into()),
    }
    out.flush()?;
    Ok(EXIT_OK)
}
