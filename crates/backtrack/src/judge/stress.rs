//! Stress testing a program against a reference on any problem: the seed of
//! a generator's command line, and the shrinking of a failing input by
//! delta debugging.
//!
//! A stress test runs the learner's generator with seeds 1, 2, ..., feeds
//! each input to a reference and to the program under test, and stops at
//! the first input where they differ. That input is usually large; the
//! shrinker [`shrink_text`] then looks for a small one that still fails,
//! knowing nothing of the problem: the caller's predicate says whether a
//! text still fails (the reference runs cleanly on it, a validator accepts
//! it, the outputs still differ).
//!
//! The input is seen as lines of whitespace-separated tokens. Three passes
//! take turns until none changes anything: delta debugging over the lines
//! (drop a chunk of lines, chunks halving down to single lines), the same
//! over the tokens, and lowering each integer towards zero (to 0, to half,
//! by one). Every accepted step removes a line or a token or lowers a
//! number's magnitude, so the search ends; when it ends within its budget
//! the result is 1-minimal: dropping any one line or token, or lowering any
//! one number by one, gives an input that no longer fails. Candidates are
//! written with tokens separated by one space and lines ended by `\n`.

use std::collections::HashSet;
use std::time::Instant;

use super::cases::fingerprint;
use super::{Budget, Rejection};

/// The placeholder of the seed in a generator's command line.
pub const SEED: &str = "{seed}";

/// `command` with every `{seed}` replaced by `seed`; a command without one
/// gets the seed as its last argument.
pub fn with_seed(command: &str, seed: u64) -> String {
    if command.contains(SEED) {
        command.replace(SEED, &seed.to_string())
    } else {
        format!("{command} {seed}")
    }
}

impl Rejection {
    /// A rejection with this explanation (a checker's message, for example).
    pub fn new(why: impl Into<String>) -> Rejection {
        Rejection(why.into())
    }
}

/// The result of [`shrink_text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShrunkText {
    /// The smallest failing text found (the original when none was smaller).
    pub text: String,
    /// Moves to a smaller text.
    pub steps: usize,
    /// Calls of the predicate.
    pub tries: usize,
    /// Whether the search ended on its own (`false`: the budget ran out first).
    pub complete: bool,
}

/// An input as lines of tokens.
type Lines = Vec<Vec<String>>;

/// `lines` as text: tokens separated by one space, each line ended by `\n`.
fn render(lines: &Lines) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// The search's state: the smallest failing input so far and the budget.
struct Search<'a, E> {
    lines: Lines,
    fails: &'a mut dyn FnMut(&str) -> Result<bool, E>,
    tried: HashSet<u64>,
    budget: Budget,
    started: Instant,
    steps: usize,
    tries: usize,
    out_of_budget: bool,
}

impl<E> Search<'_, E> {
    /// Whether `candidate` fails; if it does, it becomes the current input.
    /// A text tried before is not tried again (it did not fail then).
    fn try_lines(&mut self, candidate: Lines) -> Result<bool, E> {
        if self.out_of_budget {
            return Ok(false);
        }
        let text = render(&candidate);
        if !self.tried.insert(fingerprint(&text)) {
            return Ok(false);
        }
        if self.tries >= self.budget.runs || self.started.elapsed() >= self.budget.time {
            self.out_of_budget = true;
            return Ok(false);
        }
        self.tries += 1;
        if (self.fails)(&text)? {
            self.lines = candidate;
            self.steps += 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// Delta debugging over the items that `split` lists and `join` puts
    /// back: drops chunks of `n` parts, `n` doubling up to single items.
    fn ddmin<T: Clone>(
        &mut self,
        split: fn(&Lines) -> Vec<T>,
        join: fn(&Lines, &[T]) -> Lines,
        holds: fn(&[T], usize) -> bool,
    ) -> Result<bool, E> {
        let mut changed = false;
        let mut n = 1;
        loop {
            let items = split(&self.lines);
            if items.is_empty() {
                return Ok(changed);
            }
            n = n.min(items.len());
            let size = items.len().div_ceil(n);
            let mut dropped = false;
            for start in (0..items.len()).step_by(size) {
                let kept: Vec<T> =
                    items[..start].iter().chain(&items[(start + size).min(items.len())..]).cloned().collect();
                if self.try_dropping(&kept, items.len() - kept.len(), join, holds)? {
                    dropped = true;
                    changed = true;
                    break;
                }
            }
            if self.out_of_budget {
                return Ok(changed);
            }
            if dropped {
                n = n.saturating_sub(1).max(1);
            } else if n >= items.len() {
                return Ok(changed);
            } else {
                n = (2 * n).min(items.len());
            }
        }
    }

    /// Whether the input of only the `kept` items still fails; if not, the
    /// same with one integer of the first line (a count, often) lowered by
    /// the `dropped` number of items, where that first-line token is kept
    /// (`holds` says whether the kept items hold the first line's token at
    /// a column).
    fn try_dropping<T>(
        &mut self,
        kept: &[T],
        dropped: usize,
        join: fn(&Lines, &[T]) -> Lines,
        holds: fn(&[T], usize) -> bool,
    ) -> Result<bool, E> {
        let candidate = join(&self.lines, kept);
        if self.try_lines(candidate)? {
            return Ok(true);
        }
        let header = self.lines.first().map_or(0, Vec::len).min(HEADER_TOKENS);
        for col in 0..header {
            let Ok(count) = self.lines[0][col].parse::<i128>() else { continue };
            if count < dropped as i128 || !holds(kept, col) {
                continue;
            }
            let mut lowered = self.lines.clone();
            lowered[0][col] = (count - dropped as i128).to_string();
            let candidate = join(&lowered, kept);
            if self.try_lines(candidate)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Lowers each integer token towards zero: to 0, to half, by one.
    fn lower_numbers(&mut self) -> Result<bool, E> {
        let mut changed = false;
        for row in 0..self.lines.len() {
            for col in 0..self.lines[row].len() {
                while let Ok(value) = self.lines[row][col].parse::<i128>() {
                    let toward = if value > 0 { -1 } else { 1 };
                    let mut lowered = false;
                    for smaller in [0, value / 2, value + toward] {
                        if smaller == value || (value != 0 && smaller.abs() >= value.abs()) {
                            continue;
                        }
                        let mut candidate = self.lines.clone();
                        candidate[row][col] = smaller.to_string();
                        if self.try_lines(candidate)? {
                            lowered = true;
                            changed = true;
                            break;
                        }
                    }
                    if !lowered {
                        break;
                    }
                }
            }
        }
        Ok(changed)
    }
}

/// Tokens of the first line tried as a count of what follows.
const HEADER_TOKENS: usize = 4;

/// The lines' indices.
fn line_items(lines: &Lines) -> Vec<usize> {
    (0..lines.len()).collect()
}

/// Only the lines whose indices are kept.
fn keep_lines(lines: &Lines, kept: &[usize]) -> Lines {
    kept.iter().map(|&i| lines[i].clone()).collect()
}

/// Whether the kept lines hold the first line.
fn holds_first_line(kept: &[usize], _col: usize) -> bool {
    kept.first() == Some(&0)
}

/// Whether the kept tokens hold the first line's token at `col`.
fn holds_first_token(kept: &[(usize, usize)], col: usize) -> bool {
    kept.contains(&(0, col))
}

/// The tokens' positions, line by line.
fn token_items(lines: &Lines) -> Vec<(usize, usize)> {
    lines.iter().enumerate().flat_map(|(i, line)| (0..line.len()).map(move |j| (i, j))).collect()
}

/// Every line, holding only the tokens whose positions are kept.
fn keep_tokens(lines: &Lines, kept: &[(usize, usize)]) -> Lines {
    let mut out: Lines = vec![Vec::new(); lines.len()];
    for &(i, j) in kept {
        out[i].push(lines[i][j].clone());
    }
    out
}

/// Shrinks `text`, which `fails`, to a smaller text that still fails:
/// lines dropped, tokens dropped, integers lowered, as the module says,
/// within `budget` (its `runs` bound the calls of `fails`). An error of
/// `fails` ends the search and is returned.
pub fn shrink_text<E>(
    text: &str,
    budget: Budget,
    mut fails: impl FnMut(&str) -> Result<bool, E>,
) -> Result<ShrunkText, E> {
    let lines: Lines = text.lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
    let mut search = Search {
        lines,
        fails: &mut fails,
        tried: HashSet::new(),
        budget,
        started: Instant::now(),
        steps: 0,
        tries: 0,
        out_of_budget: false,
    };
    // The original text in its written form may not fail (its spacing may matter).
    let original = text.to_string();
    let written = render(&search.lines);
    search.tried.insert(fingerprint(&written));
    if written != original {
        search.tries += 1;
        if !(search.fails)(&written)? {
            return Ok(ShrunkText { text: original, steps: 0, tries: 1, complete: true });
        }
    }
    loop {
        let lines = search.ddmin(line_items, keep_lines, holds_first_line)?;
        let tokens = search.ddmin(token_items, keep_tokens, holds_first_token)?;
        let numbers = search.lower_numbers()?;
        if search.out_of_budget || !(lines || tokens || numbers) {
            break;
        }
    }
    Ok(ShrunkText {
        text: if search.steps == 0 { original } else { render(&search.lines) },
        steps: search.steps,
        tries: search.tries,
        complete: !search.out_of_budget,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;
    use std::time::Duration;

    const PLENTY: Budget = Budget { runs: 100_000, time: Duration::from_secs(60) };

    fn shrink(text: &str, fails: impl Fn(&str) -> bool) -> ShrunkText {
        let shrunk = shrink_text::<Infallible>(text, PLENTY, |t| Ok(fails(t))).unwrap();
        assert!(fails(&shrunk.text), "the result must fail: {:?}", shrunk.text);
        assert!(shrunk.complete);
        assert_one_minimal(&shrunk.text, &fails);
        shrunk
    }

    /// No single line or token dropped, and no integer lowered by one, still fails.
    fn assert_one_minimal(text: &str, fails: &impl Fn(&str) -> bool) {
        let lines: Lines = text.lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
        for i in 0..lines.len() {
            let mut fewer = lines.clone();
            fewer.remove(i);
            assert!(!fails(&render(&fewer)), "dropping line {i} of {text:?} still fails");
            for j in 0..lines[i].len() {
                let mut fewer = lines.clone();
                fewer[i].remove(j);
                assert!(!fails(&render(&fewer)), "dropping token {j} of line {i} of {text:?} still fails");
                if let Ok(v) = lines[i][j].parse::<i128>() {
                    if v != 0 {
                        let mut lower = lines.clone();
                        lower[i][j] = (v - v.signum()).to_string();
                        assert!(!fails(&render(&lower)), "lowering {v} in {text:?} still fails");
                    }
                }
            }
        }
    }

    fn numbers(text: &str) -> Vec<i64> {
        text.split_whitespace().filter_map(|t| t.parse().ok()).collect()
    }

    fn big_input() -> String {
        let mut text = String::from("40\n");
        for i in 0..40 {
            text.push_str(&format!("{} {} {}\n", i * 7 % 31, i * 13 % 17 + 50, 1000 - i));
        }
        text
    }

    #[test]
    fn one_bad_value_shrinks_to_a_line_holding_only_it() {
        let shrunk = shrink(&big_input(), |t| numbers(t).contains(&63));
        assert_eq!(shrunk.text, "63\n");
    }

    #[test]
    fn a_pair_of_tokens_shrinks_to_the_pair() {
        let fails = |t: &str| {
            let n = numbers(t);
            n.contains(&3) && n.contains(&5)
        };
        let shrunk = shrink("9 9 3 9 9\n1 2 4\n8 5 8\n", fails);
        let mut pair = numbers(&shrunk.text);
        pair.sort_unstable();
        assert_eq!(pair, vec![3, 5], "{:?}", shrunk.text);
    }

    #[test]
    fn numbers_are_lowered_to_the_threshold() {
        let shrunk = shrink(&big_input(), |t| numbers(t).iter().any(|&v| v >= 500));
        assert_eq!(shrunk.text, "500\n");
        let negative = shrink("-90000 4\n", |t| numbers(t).iter().any(|&v| v <= -37));
        assert_eq!(negative.text, "-37\n");
    }

    #[test]
    fn a_count_that_must_match_the_lines_keeps_its_lines() {
        // Fails when the first number counts the lines after it and some line sums past 100.
        let fails = |t: &str| {
            let lines: Vec<Vec<i64>> = t.lines().map(numbers).collect();
            let Some(&[n]) = lines.first().map(Vec::as_slice) else { return false };
            n as usize == lines.len() - 1 && lines[1..].iter().any(|l| l.len() == 2 && l[0] + l[1] > 100)
        };
        let shrunk = shrink(&big_input(), fails);
        assert_eq!(shrunk.text.lines().count(), 2, "{:?}", shrunk.text);
        assert!(shrunk.text.starts_with("1\n"), "{:?}", shrunk.text);
        let pair = numbers(shrunk.text.lines().nth(1).unwrap());
        assert_eq!(pair[0] + pair[1], 101, "{:?}", shrunk.text);
    }

    #[test]
    fn a_text_that_fails_only_as_written_is_kept() {
        let text = "1  2\n";
        let shrunk = shrink_text::<Infallible>(text, PLENTY, |t| Ok(t == text)).unwrap();
        assert_eq!(shrunk, ShrunkText { text: text.into(), steps: 0, tries: 1, complete: true });
    }

    #[test]
    fn the_budget_bounds_the_tries_and_errors_end_the_search() {
        let budget = Budget { runs: 5, time: Duration::from_secs(60) };
        let mut calls = 0;
        let shrunk = shrink_text::<Infallible>(&big_input(), budget, |t| {
            calls += 1;
            Ok(numbers(t).contains(&63))
        })
        .unwrap();
        assert_eq!((calls, shrunk.tries, shrunk.complete), (5, 5, false));
        let failed = shrink_text(&big_input(), PLENTY, |_| Err("stop"));
        assert_eq!(failed, Err("stop"));
    }

    #[test]
    fn the_seed_fills_its_placeholder_or_comes_last() {
        assert_eq!(with_seed("python3 gen.py {seed} --n {seed}", 7), "python3 gen.py 7 --n 7");
        assert_eq!(with_seed("./gen", 12), "./gen 12");
    }
}
