//! `backtrack sudoku [FILE...]`: the solver's answers, one per puzzle.

use backtrack::search::Mode;
use backtrack::sudoku::pipeline::{self, solve::Solve, Source};
use backtrack::sudoku::Format;

use super::super::{interrupt_control, stdout, CliResult};
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
