//! Comparing outputs the way the judge does, and showing where they differ.
//!
//! The judge ignores spaces and tabs (and a carriage return) at the end of a
//! line and blank lines at the end of the output; every other byte counts,
//! blank lines between test cases included.

/// The lines of `text` as the judge sees them: trailing blanks of each line
/// and trailing empty lines removed.
pub fn judge_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches([' ', '\t', '\r'])).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether the judge would take `got` for `expected`.
pub fn same(expected: &str, got: &str) -> bool {
    // Fast path for the usual case: identical bytes.
    expected == got || judge_lines(expected) == judge_lines(got)
}

/// Lines shown before the first difference.
const CONTEXT: usize = 2;
/// Lines shown from each side after the first difference.
const SHOWN: usize = 3;
/// Characters of one line shown before an ellipsis.
const WIDTH: usize = 60;

/// A short diff from the first line where the judge sees a difference:
/// a line naming it, a little context (`  `), then a few expected lines
/// (`-`) and received lines (`+`); empty when the outputs are the same.
pub fn short_diff(expected: &str, got: &str) -> String {
    let want = judge_lines(expected);
    let have = judge_lines(got);
    let Some(first) = (0..want.len().max(have.len())).find(|&i| want.get(i) != have.get(i)) else {
        return String::new();
    };
    let mut text = format!("first difference at line {}", first + 1);
    if want.len() != have.len() {
        text.push_str(&format!(" (expected {} lines, received {})", want.len(), have.len()));
    }
    text.push('\n');
    for line in &want[first.saturating_sub(CONTEXT)..first] {
        text.push_str(&format!("  {}\n", clip(line)));
    }
    let side = |text: &mut String, lines: &[&str], mark: char| {
        let end = lines.len().min(first + SHOWN);
        for line in lines.get(first..end).unwrap_or_default() {
            text.push_str(&format!("{mark} {}\n", clip(line)));
        }
        if first >= lines.len() {
            text.push_str(&format!("{mark} (end of output)\n"));
        } else if end < lines.len() {
            text.push_str(&format!("{mark} ... {} more lines\n", lines.len() - end));
        }
    };
    side(&mut text, &want, '-');
    side(&mut text, &have, '+');
    text
}

/// `line`, cut to [`WIDTH`] characters with an ellipsis; an empty line shows as `(blank line)`.
fn clip(line: &str) -> String {
    if line.is_empty() {
        return "(blank line)".into();
    }
    match line.char_indices().nth(WIDTH) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_blanks_and_final_newlines_are_ignored() {
        assert!(same("1 2\n3 4\n", "1 2  \n3 4"));
        assert!(same("92\n", "92\n\n\n"));
        assert!(same("a\n\n", "a\n"));
        assert!(same("a\r\n", "a\n"));
    }

    #[test]
    fn inner_blank_lines_and_leading_spaces_count() {
        assert!(!same("a\n\nb\n", "a\nb\n"));
        assert!(!same("1 2\n", " 1 2\n"));
        assert!(!same("1 2\n", "1  2\n"));
        assert!(!same("92\n", ""));
    }

    #[test]
    fn the_diff_names_the_first_differing_line() {
        let diff = short_diff("1\n2\n3\n4\n", "1\n2\n5\n4\n");
        assert!(diff.starts_with("first difference at line 3\n"), "{diff}");
        assert!(diff.contains("- 3\n") && diff.contains("+ 5\n"), "{diff}");
        assert!(short_diff("a\n", "a").is_empty());
        let short = short_diff("a\nb\n", "a\n");
        assert!(short.contains("(expected 2 lines, received 1)") && short.contains("+ (end of output)"), "{short}");
    }
}
