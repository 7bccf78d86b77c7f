//! Where a value sits in a JSON text: the line and column of the value (or
//! key) that a path of keys and indices leads to, so that a reader working
//! on a parsed [`serde_json::Value`] can still point its errors at the text.

use std::fmt;

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A key of an object.
    Key(String),
    /// An index into an array.
    Index(usize),
}

/// A path from the document's root, written `killercage[2].cells[1]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Path(pub Vec<Step>);

impl Path {
    /// This path, one key further.
    pub fn key(&self, key: &str) -> Path {
        let mut steps = self.0.clone();
        steps.push(Step::Key(key.to_string()));
        Path(steps)
    }

    /// This path, one index further.
    pub fn index(&self, i: usize) -> Path {
        let mut steps = self.0.clone();
        steps.push(Step::Index(i));
        Path(steps)
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Key(k) if i == 0 => write!(f, "{}", crate::error::Quoted(k))?,
                Step::Key(k) => write!(f, ".{}", crate::error::Quoted(k))?,
                Step::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// The byte offset in `text` (a valid JSON document) of what `path` leads
/// to: the key itself when the last step is a key, else the value; `None`
/// when the path leads nowhere.
pub fn locate(text: &str, path: &Path) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = skip_ws(b, 0);
    for (k, step) in path.0.iter().enumerate() {
        let last = k + 1 == path.0.len();
        match step {
            Step::Key(name) => {
                if b.get(i) != Some(&b'{') {
                    return None;
                }
                i += 1;
                loop {
                    i = skip_ws(b, i);
                    if b.get(i) != Some(&b'"') {
                        return None;
                    }
                    let key_start = i;
                    let key_end = skip_value(b, i)?;
                    let key: String = serde_json::from_str(&text[key_start..key_end]).ok()?;
                    i = skip_ws(b, key_end);
                    if b.get(i) != Some(&b':') {
                        return None;
                    }
                    i = skip_ws(b, i + 1);
                    if key == *name {
                        if last {
                            return Some(key_start);
                        }
                        break;
                    }
                    i = skip_ws(b, skip_value(b, i)?);
                    match b.get(i) {
                        Some(b',') => i += 1,
                        _ => return None,
                    }
                }
            }
            Step::Index(n) => {
                if b.get(i) != Some(&b'[') {
                    return None;
                }
                i += 1;
                for _ in 0..*n {
                    i = skip_ws(b, skip_value(b, skip_ws(b, i))?);
                    if b.get(i) != Some(&b',') {
                        return None;
                    }
                    i += 1;
                }
                i = skip_ws(b, i);
            }
        }
    }
    Some(i)
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, before[start..].chars().count() + 1)
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The offset just past the value starting at `i`.
fn skip_value(b: &[u8], mut i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => {
            i += 1;
            while i < b.len() {
                match b[i] {
                    b'\\' => i += 2,
                    b'"' => return Some(i + 1),
                    _ => i += 1,
                }
            }
            None
        }
        b'{' | b'[' => {
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'"' => {
                        i = skip_value(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']') && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_keys_and_values() {
        let text = "{\"a\": 1,\n \"b\": [10, {\"c\": \"x\\\"]\"}, [1, 2]],\n \"d\": true}";
        let path = Path::default().key("b").index(1).key("c");
        assert_eq!(line_column(text, locate(text, &path).unwrap()), (2, 13));
        let path = Path::default().key("b").index(2).index(1);
        assert_eq!(&text[locate(text, &path).unwrap()..][..1], "2");
        assert_eq!(line_column(text, locate(text, &Path::default().key("d")).unwrap()), (3, 2));
        assert_eq!(locate(text, &Path::default().key("e")), None);
        assert_eq!(locate(text, &Path::default().key("b").index(3)), None);
        assert_eq!(Path::default().key("b").index(1).key("c").to_string(), "b[1].c");
    }
}
