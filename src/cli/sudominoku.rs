//! `backtrack sudominoku`: sudoku boards tiled by the 36 dominoes, in the judge's input format.

use std::io::Write;
use std::path::PathBuf;

use backtrack::json::{self, Status, SudominokuAnswer};
use backtrack::sudominoku::{self, format_grid};

use super::{diag, read_input, stdout, CliError, CliResult, EXIT_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// Solve sudominoku puzzles: sudokus covered by the 36 dominoes 1-2 .. 8-9, each used once.
///
/// Input (the contest format): for each puzzle a line N, then N lines `U LU V LV` (a placed domino:
/// digit U at location LU, digit V at location LV; locations are a row A-I and a column 1-9), then
/// one line with the locations of the single digits 1..9. A line `0` ends the input.
///
/// Output: `Puzzle i` and the solved board as 9 lines of 9 digits. A puzzle that is malformed or has
/// no solution is reported on standard error and the others are still solved (exit status 2 or 1).
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    backtrack sudominoku puzzles.txt              solve every puzzle in the file\n  \
    backtrack sudominoku --lexmin puzzles.txt     the smallest solution grid (row by row)\n  \
    backtrack sudominoku --count --limit 2 p.txt  check uniqueness: prints 0, 1 or 2+ per puzzle\n  \
    backtrack sudominoku --json < puzzles.txt     one JSON object per puzzle")]
pub struct Args {
    /// Input file ('-' or none: standard input).
    pub file: Option<PathBuf>,
    /// Count distinct solution grids instead of printing one (tilings that spell the same grid count once).
    #[arg(long)]
    pub count: bool,
    /// With --count: stop once this many grids are found (the count is then printed as K+).
    #[arg(long, requires = "count", value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Print the lexicographically smallest solution grid instead of the first one found.
    #[arg(long, conflicts_with = "count")]
    pub lexmin: bool,
    /// One JSON object per puzzle: {"puzzle":i,"status":"solved","solution":"81 digits"} (with --count:
    /// {"puzzle":i,"status":"unique","solutions":n,"complete":bool}); docs/json.md has every status.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> CliResult {
    let input = read_input(args.file.as_ref())?;
    let puzzles = sudominoku::parse(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?;
    let mut out = stdout();
    let mut status = EXIT_OK;
    for (i, parsed) in puzzles.iter().enumerate() {
        let number = i + 1;
        let puzzle = match parsed {
            Ok(p) => p,
            Err(e) => {
                diag!("backtrack: {}: puzzle {number}: {e}", input.name);
                if args.json {
                    write_answer(
                        &mut out,
                        SudominokuAnswer { error: Some(e.to_string()), ..answer(number, Status::Invalid) },
                    )?;
                }
                status = EXIT_INPUT;
                continue;
            }
        };
        if args.count {
            let (grids, complete) = sudominoku::count_grids(puzzle, args.limit);
            if args.json {
                let status = Status::of_count(grids, complete);
                write_answer(
                    &mut out,
                    SudominokuAnswer { solutions: Some(grids), complete: Some(complete), ..answer(number, status) },
                )?;
            } else {
                writeln!(out, "Puzzle {number}: {grids}{}", if complete { "" } else { "+" })?;
            }
            continue;
        }
        let solution = if args.lexmin { sudominoku::lex_first(puzzle) } else { sudominoku::solve(puzzle) };
        match solution {
            Some(s) => {
                if args.json {
                    let digits: String = s.grid.iter().map(|&d| char::from(b'0' + d)).collect();
                    write_answer(
                        &mut out,
                        SudominokuAnswer { solution: Some(digits), ..answer(number, Status::Solved) },
                    )?;
                } else {
                    write!(out, "Puzzle {number}\n{}", format_grid(&s.grid))?;
                }
            }
            None => {
                diag!("backtrack: {}: puzzle {number} has no solution", input.name);
                if args.json {
                    write_answer(&mut out, answer(number, Status::NoSolution))?;
                }
                if status == EXIT_OK {
                    status = EXIT_NO_SOLUTION;
                }
            }
        }
    }
    out.flush()?;
    Ok(status)
}

/// The JSON answer to puzzle `number`, with only its status yet.
fn answer(number: usize, status: Status) -> SudominokuAnswer {
    SudominokuAnswer { puzzle: number, status, solution: None, solutions: None, complete: None, error: None }
}

fn write_answer(out: &mut impl Write, answer: SudominokuAnswer) -> std::io::Result<()> {
    let mut line = Vec::new();
    json::write_line(&mut line, &answer);
    out.write_all(&line)
}
