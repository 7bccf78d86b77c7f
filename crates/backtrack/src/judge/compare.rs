//! Comparing outputs the way the judge does, and showing where they differ.
//!
//! The judge ignores spaces and tabs (and a carriage return) at the end of a
//! line and blank lines at the end of the output; every other byte counts,
//! blank lines between test cases included.

use crate::lang::{Lang, Message};

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
    short_diff_in(Lang::En, expected, got)
}

/// [`short_diff`], its words in `lang`.
pub fn short_diff_in(lang: Lang, expected: &str, got: &str) -> String {
    let want = judge_lines(expected);
    let have = judge_lines(got);
    let Some(first) = (0..want.len().max(have.len())).find(|&i| want.get(i) != have.get(i)) else {
        return String::new();
    };
    let counts = (want.len() != have.len()).then_some((want.len(), have.len()));
    let mut text = lang.say(Message::FirstDifference { line: first + 1, counts });
    text.push('\n');
    let clip = |line: &str| if line.is_empty() { lang.say(Message::BlankLine) } else { visible(line, WIDTH) };
    for line in &want[first.saturating_sub(CONTEXT)..first] {
        text.push_str(&format!("  {}\n", clip(line)));
    }
    let side = |text: &mut String, lines: &[&str], mark: char| {
        let end = lines.len().min(first + SHOWN);
        for line in lines.get(first..end).unwrap_or_default() {
            text.push_str(&format!("{mark} {}\n", clip(line)));
        }
        if first >= lines.len() {
            text.push_str(&format!("{mark} {}\n", lang.say(Message::EndOfOutput)));
        } else if end < lines.len() {
            text.push_str(&format!("{mark} {}\n", lang.say(Message::LinesAfter(lines.len() - end))));
        }
    };
    side(&mut text, &want, '-');
    side(&mut text, &have, '+');
    text
}

/// One line of a program's output as it can be shown on a terminal: control
/// characters escaped (`\0`, `\t`, `\r`, `\x1b`...), and cut after
/// `width` characters with `... (N more characters)`.
pub fn visible(line: &str, width: usize) -> String {
    let mut out = String::with_capacity(line.len().min(width + 32));
    for (shown, (at, c)) in line.char_indices().enumerate() {
        if shown >= width {
            let rest = line[at..].chars().count();
            let unit = if rest == 1 { "character" } else { "characters" };
            out.push_str(&format!("... ({rest} more {unit})"));
            break;
        }
        match c {
            '\0' => out.push_str("\\0"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
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
        let one_more = short_diff("1\n2\n3\n4\n", "5\n2\n3\n4\n");
        assert!(one_more.contains("- ... 1 more line\n") && !one_more.contains("lines\n"), "{one_more}");
    }

    #[test]
    fn visible_escapes_control_characters_and_cuts_long_lines() {
        assert_eq!(visible("a\0b\tc\rd\x1b[31me\u{85}", 100), "a\\0b\\tc\\rd\\x1b[31me\\u{85}");
        assert_eq!(visible("abcdef", 4), "abcd... (2 more characters)");
        assert_eq!(visible("abcde", 4), "abcd... (1 more character)");
        assert_eq!(visible("abcd", 4), "abcd");
        let zeros = "\0".repeat(1 << 20);
        let shown = visible(&zeros, 60);
        assert!(shown.len() < 200 && shown.ends_with("... (1048516 more characters)"), "{shown}");
    }
}
