//! Each technique detector on HoDoKu's regression library
//! (`tests/data/sudoku/hodoku_reglib_1.4.txt`): every case of a technique
//! we have is loaded as a pencil-mark grid and the detector must find the
//! case's instance, with exactly its eliminations and placements. The
//! table printed at the end gives, per technique code, the cases, how many
//! passed, and how many are out of scope and why.
//!
//! How a case is judged ([`rule`]):
//! - exact: one of the steps [`find_all`] lists for the technique removes
//!   and places exactly what the case says. HoDoKu's library promises that
//!   no other instance of the technique on the digits named disagrees, but
//!   our finders may see more instances (other digits, or patterns HoDoKu
//!   files under another name), so one matching instance is asked for, and
//!   every instance found must agree with the puzzle's solution;
//! - union: HoDoKu counts one locked pair or triple (a naked subset in a
//!   box and a line at once), a dual 2-string kite and a dual empty
//!   rectangle as one step, where our finders give one step per unit or per
//!   pattern; the steps whose removals lie within the case's must together
//!   remove exactly the case's candidates;
//! - chain: our chains are Sudoku Explainer's forcing chains, one candidate
//!   at a time, not HoDoKu's eliminations of a whole loop; every candidate
//!   the case removes must be refuted by a forcing chain (of one digit for
//!   an X-chain, through cells too for the others), and every digit it
//!   places proven;
//! - fail cases (`-x`): the detector finds nothing.

use std::collections::BTreeMap;

use backtrack::search::Mode;
use backtrack::sudoku::techniques::reglib::Case;
use backtrack::sudoku::techniques::{chains, find_all, Step, Technique};
use backtrack::sudoku::Solver;

const LIBRARY: &str = include_str!("../../../../tests/data/sudoku/hodoku_reglib_1.4.txt");

/// How the cases of one technique code are judged.
enum Rule {
    /// One step of one of these techniques matches the case exactly.
    Exact(&'static [Technique]),
    /// The technique's steps within the case's removals add up to them.
    Union(Technique),
    /// Each removal and placement has a forcing chain (through cells when `true`).
    Chain(bool),
    /// Out of scope, and why.
    Excluded(&'static str),
}

use Technique as T;

const NOT_IMPLEMENTED: &str = "technique not implemented";

/// The rule for a technique code and variant (see the module's comment).
fn rule(code: &str, variant: Option<u8>) -> Rule {
    match (code, variant) {
        ("0000" | "0002", _) => Rule::Exact(&[T::HiddenSingle]),
        ("0003", _) => Rule::Exact(&[T::NakedSingle]),
        ("0100", _) => Rule::Exact(&[T::Pointing]),
        ("0101", _) => Rule::Exact(&[T::Claiming]),
        ("0110", _) => Rule::Union(T::NakedPair),
        ("0111", _) => Rule::Union(T::NakedTriplet),
        ("0200", _) => Rule::Exact(&[T::NakedPair]),
        ("0201", _) => Rule::Exact(&[T::NakedTriplet]),
        ("0202", _) => Rule::Exact(&[T::NakedQuad]),
        // In a unit with at most 2k empty cells, Sudoku Explainer (and our
        // finder) sees a hidden k-subset as the naked subset of the unit's
        // other cells, which removes the same candidates.
        ("0210", _) => Rule::Exact(&[T::HiddenPair, T::NakedSingle, T::NakedPair]),
        ("0211", _) => Rule::Exact(&[T::HiddenTriplet, T::NakedSingle, T::NakedPair, T::NakedTriplet]),
        ("0212", _) => Rule::Exact(&[T::HiddenQuad, T::NakedSingle, T::NakedPair, T::NakedTriplet, T::NakedQuad]),
        ("0300", _) => Rule::Exact(&[T::XWing]),
        ("0301", _) => Rule::Exact(&[T::Swordfish]),
        ("0302", _) => Rule::Exact(&[T::Jellyfish]),
        ("0400", _) => Rule::Exact(&[T::Skyscraper]),
        ("0401", _) => Rule::Exact(&[T::TwoStringKite]),
        // HoDoKu's turbot fish is any X-chain of two strong links.
        ("0403", _) => Rule::Exact(&[T::Skyscraper, T::TwoStringKite, T::TurbotFish]),
        ("0402", _) => Rule::Exact(&[T::EmptyRectangle]),
        ("0404", _) => Rule::Union(T::TwoStringKite),
        ("0405", _) => Rule::Union(T::EmptyRectangle),
        ("0600" | "0601" | "0603", Some(1)) => Rule::Exact(&[T::UniqueRectangle]),
        // HoDoKu removes a type 3's subset from both units the two cells
        // share at once, where Sudoku Explainer (and our finder) takes one
        // unit a step.
        ("0602", Some(1)) => Rule::Union(T::UniqueRectangle),
        ("0600" | "0601" | "0602" | "0603", _) => {
            Rule::Excluded("unique rectangles with a corner's candidate already gone (HoDoKu's variant 2)")
        }
        ("0610", _) => Rule::Exact(&[T::Bug]),
        ("0701", _) => Rule::Chain(false),
        ("0702" | "0703" | "0706" | "0707" | "0708", _) => Rule::Chain(true),
        // Without group nodes no forcing chain of ours refutes any of these
        // cases' eliminations (checked: all 96 fail under the chain rule).
        ("0709" | "0710" | "0711", _) => Rule::Excluded("grouped nodes (a digit's cells in a box as one node)"),
        ("0800", _) => Rule::Exact(&[T::XYWing]),
        ("0801", _) => Rule::Exact(&[T::XYZWing]),
        _ => Rule::Excluded(NOT_IMPLEMENTED),
    }
}

fn sorted(mut list: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    list.sort_unstable();
    list.dedup();
    list
}

/// The solution of the case's real givens, when they have exactly one.
fn solution(case: &Case) -> Option<Vec<u8>> {
    let mut solution = vec![0; 81];
    let solved = Solver::new(3).solve(&case.givens, Mode::Count { limit: Some(2) }, &mut solution);
    (solved.count == 1).then_some(solution)
}

/// Why `step` contradicts the solution, if it does.
fn unsound(step: &Step, solution: &[u8]) -> Option<String> {
    let wrong_place = step.placements.iter().find(|&&(c, d)| solution[c] != d);
    let wrong_removal = step.eliminations.iter().find(|&&(c, d)| solution[c] == d);
    (wrong_place.is_some() || wrong_removal.is_some()).then(|| format!("unsound step: {}", step.text))
}

/// Judges one case under `rule`: `Ok` or why it failed.
fn judge(case: &Case, rule: &Rule) -> Result<(), String> {
    let expected = (sorted(case.eliminations.clone()), sorted(case.placements.clone()));
    let solution = solution(case);
    let check_sound = |steps: &[Step]| -> Result<(), String> {
        match &solution {
            Some(s) => steps.iter().find_map(|step| unsound(step, s)).map_or(Ok(()), Err),
            None => Ok(()),
        }
    };
    match rule {
        Rule::Exact(techniques) => {
            let steps: Vec<Step> = techniques.iter().flat_map(|&t| find_all(&case.board, t)).collect();
            check_sound(&steps)?;
            if case.fail {
                return match steps.first() {
                    None => Ok(()),
                    Some(step) => Err(format!("found in a fail case: {}", step.text)),
                };
            }
            // HoDoKu writes a BUG+1 as the removal of the cell's other
            // candidates, where our step places the digit.
            let as_removals = |s: &Step| -> Vec<(usize, u8)> {
                let others = s.placements.iter().flat_map(|&(c, d)| {
                    (1..=9u8).filter(move |&e| e != d && case.board.cands[c] & 1 << (e - 1) != 0).map(move |e| (c, e))
                });
                sorted(s.eliminations.iter().copied().chain(others).collect())
            };
            let same = |s: &Step| {
                (sorted(s.eliminations.clone()), sorted(s.placements.clone())) == expected
                    || (expected.1.is_empty() && as_removals(s) == expected.0)
            };
            if steps.iter().any(same) {
                Ok(())
            } else {
                let seen: Vec<&str> = steps.iter().map(|s| s.text.as_str()).collect();
                Err(format!("no step matches; found {}: {seen:#?}", steps.len()))
            }
        }
        Rule::Union(technique) => {
            let steps = find_all(&case.board, *technique);
            check_sound(&steps)?;
            let within = |s: &&Step| s.placements.is_empty() && s.eliminations.iter().all(|e| expected.0.contains(e));
            let union = sorted(steps.iter().filter(within).flat_map(|s| s.eliminations.clone()).collect());
            if union == expected.0 && expected.1.is_empty() {
                Ok(())
            } else {
                Err(format!("steps within the case remove {union:?}"))
            }
        }
        Rule::Chain(cells_too) => {
            let claims =
                expected.0.iter().map(|&(c, d)| (c, d, true)).chain(expected.1.iter().map(|&(c, d)| (c, d, false)));
            for (cell, d, on) in claims {
                let Some(step) = chains::refute(&case.board, cell, d, on, *cells_too) else {
                    return Err(format!(
                        "no forcing chain {} r{}c{}={d}",
                        if on { "refutes" } else { "proves" },
                        cell / 9 + 1,
                        cell % 9 + 1
                    ));
                };
                check_sound(std::slice::from_ref(&step))?;
            }
            Ok(())
        }
        Rule::Excluded(_) => Ok(()),
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    passed: usize,
    excluded: usize,
    why: &'static str,
}

#[test]
fn detectors_agree_with_hodokus_regression_library() {
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (n, line) in LIBRARY.lines().enumerate() {
        let case = match Case::parse(line) {
            Ok(Some(case)) => case,
            Ok(None) => continue,
            Err(e) => panic!("line {}: {e}", n + 1),
        };
        let key = match (case.fail, case.variant) {
            (true, _) => format!("{}-x", case.code),
            (false, Some(v)) => format!("{}-{v}", case.code),
            (false, None) => case.code.clone(),
        };
        let rule = rule(&case.code, case.variant);
        let entry = tally.entry(key).or_default();
        entry.cases += 1;
        if let Rule::Excluded(why) = rule {
            entry.excluded += 1;
            entry.why = why;
            continue;
        }
        match judge(&case, &rule) {
            Ok(()) => entry.passed += 1,
            Err(why) => failures.push(format!("line {}: {line}\n  {why}", n + 1)),
        }
    }
    let total = |f: fn(&Tally) -> usize| tally.values().map(f).sum::<usize>();
    println!("code     cases  passed  excluded");
    for (code, t) in &tally {
        println!("{code:<8} {:>5}  {:>6}  {:>8}  {}", t.cases, t.passed, t.excluded, t.why);
    }
    println!("all      {:>5}  {:>6}  {:>8}", total(|t| t.cases), total(|t| t.passed), total(|t| t.excluded));
    assert!(total(|t| t.passed) > 500, "too few cases ran");
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn malformed_library_lines_are_refused() {
    assert_eq!(Case::parse("# a comment"), Ok(None));
    assert_eq!(Case::parse("   "), Ok(None));
    let dots = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    for bad in [
        ":0003:8:6...5".to_string(),
        format!(":0003:8:{}:::829:", ".".repeat(80)),
        format!(":0003:8:{}:::829:", ".".repeat(82)),
        format!(":00a3:8:{dots}:::829:"),
        format!(":0003:8:{dots}:::8x9:"),
        format!(":0003:8:{dots}:::80:"),
        format!(":0003:8:{clash}:::829:"),
        format!(":0003-y:8:{dots}:::829:"),
    ] {
        assert!(Case::parse(&bad).is_err(), "{bad}");
    }
    let fail = Case::parse(&format!(":0610-x::{dots}:::")).unwrap();
    assert!(fail.is_some_and(|c| c.fail && c.code == "0610" && c.variant.is_none()));
}
