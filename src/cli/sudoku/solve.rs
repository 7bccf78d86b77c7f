//! `backtrack sudoku [FILE...]`: the solver's answers, one per puzzle.

use std::io::Write;

use backtrack::search::Mode;
use backtrack::sudoku::pipeline::{self, solve::Solve, Source};
use backtrack::sudoku::{self, Format, Layout};

use super::super::{interrupt_control, stdout, CliError, CliResult, Input};
use super::{finish, report, Args};

/// Runs `backtrack sudoku` on its files: every solution streamed on one
/// thread with `--all`, else the answers of a window of puzzles at a time
/// on `--threads`.
pub fn run(args: Args) -> CliResult {
    let mode = if args.lexmin {
        Mode::LexFirst
    } else if args.count {
        Mode::Count { limit: args.limit }
    } else if args.all {
        Mode::All
    } else {
        Mode::First
    };
    let solve = Solve { mode, json: args.json, format: args.format.map(Format::from) };
    let sources = Source::paths(&args.files);
    let control = interrupt_control();
    let mut out = stdout();
    let result = if mode == Mode::All {
        let mut wrote_any = false;
        pipeline::each_in_turn(
            sources,
            args.strict,
            &control,
            &mut out,
            &mut report,
            |part, end, tally, out, report| solve.list_all(part, end, tally, &mut wrote_any, out, report),
        )
    } else {
        let threads = args.threads.unwrap_or_default();
        pipeline::answer_in_order(sources, threads, args.strict, &control, &solve, &mut out, &mut report)
    };
    finish(result, &mut out)
}

/// Judge-exact solution of BOJ problem `id`: 2580 (spaced grid, any
/// solution) or 2239 (unspaced grid, the smallest solution).
pub fn boj(id: u32, input: &Input, out: &mut dyn Write) -> Result<(), CliError> {
    let (format, mode) = match id {
        2580 => (Format::Spaced, Mode::First),
        2239 => (Format::Grid, Mode::LexFirst),
        _ => return Err(CliError::Failure(format!("problem {id} is not a sudoku problem"))),
    };
    let puzzle = sudoku::parse_as(&input.text, Layout { format, box_size: 3 })
        .map_err(|e| CliError::bad_input(&input.name, &e))?;
    let outcome = sudoku::solve(&puzzle, mode);
    let Some(solution) = outcome.solution else {
        // The problem promises a solvable puzzle: one without is input out of its range.
        return Err(CliError::Input(format!("{}: the puzzle has no solution (the problem promises one)", input.name)));
    };
    let mut text = Vec::with_capacity(200);
    sudoku::write_cells(&mut text, 3, &solution, format);
    out.write_all(&text)?;
    Ok(())
}
