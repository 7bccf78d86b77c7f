//! Knuth's exact-cover format, as `backtrack xcover` reads it. A problem read
//! must be written back and read again unchanged; small ones are solved on
//! every engine, which must agree on the count, and each solution found must
//! be an exact cover.
#![no_main]

use backtrack::search::{Control, Threads};
use backtrack::xcover::{self, Engine};
use backtrack_fuzz::{check_bom_ignored, check_position, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = text(data);
    // A parsed problem borrows its text: compared as text inside the closure.
    check_bom_ignored(&text, |t| format!("{:?}", xcover::parse(t)));
    let parsed = match xcover::parse(&text) {
        Ok(parsed) => parsed,
        Err(e) => return check_position(&text, &e),
    };
    let problem = &parsed.problem;
    assert_eq!(parsed.option_lines.len(), problem.n_options());
    assert_eq!(parsed.option_line_numbers.len(), problem.n_options());
    // The library's writer, bounds included.
    let written = problem.to_string();
    let again = xcover::parse(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    assert_eq!(&again.problem, problem, "{written:?}");
    if problem.n_options() > 24 {
        return;
    }
    let limit = Some(1000);
    let counts: Vec<u64> = [Engine::Small, Engine::Dense, Engine::Links]
        .into_iter()
        .map(|engine| problem.space_on(engine).count_solutions(limit, Threads::ONE, &Control::new()).unwrap().0)
        .collect();
    assert!(counts.iter().all(|&c| c == counts[0]), "engines disagree: {counts:?} on {written:?}");
    if let Some(solution) = problem.first() {
        assert!(problem.is_solution(&solution), "{solution:?} is not a cover of {written:?}");
    } else {
        assert_eq!(counts[0], 0);
    }
});
