//! What is wrong with a JSON text that does not decode into a checkpoint or
//! a shard report, sorted into the few cases a message words differently:
//! the decoder's own message names its types and quotes whole strings of
//! the input, so neither file's errors pass it on.

use serde_json::error::Category;

/// Where a JSON text stopped decoding, and why.
pub(crate) struct JsonProblem {
    /// 1-based line where the decoder stopped.
    pub line: usize,
    /// 1-based column (in bytes) where the decoder stopped.
    pub column: usize,
    /// What went wrong there.
    pub kind: JsonProblemKind,
}

/// The cases of [`JsonProblem`].
pub(crate) enum JsonProblemKind {
    /// Reading failed.
    Unreadable,
    /// The text ends in the middle of a value.
    Truncated,
    /// The text is not JSON.
    NotJson,
    /// An object lacks this field.
    MissingField(String),
    /// Not an object.
    NotAnObject,
    /// An object with a field the type does not have.
    WrongShape,
    /// A field has a value of the wrong kind.
    WrongValue,
}

impl JsonProblem {
    /// Sorts the decoder's error `e`.
    pub fn of(e: &serde_json::Error) -> JsonProblem {
        let kind = match e.classify() {
            Category::Io => JsonProblemKind::Unreadable,
            Category::Eof => JsonProblemKind::Truncated,
            Category::Syntax => JsonProblemKind::NotJson,
            Category::Data => {
                let message = e.to_string();
                if let Some(field) = message.strip_prefix("missing field `").and_then(|m| m.split('`').next()) {
                    JsonProblemKind::MissingField(field.to_string())
                } else if message.contains("expected struct") {
                    JsonProblemKind::NotAnObject
                } else if message.starts_with("unknown field") {
                    JsonProblemKind::WrongShape
                } else {
                    JsonProblemKind::WrongValue
                }
            }
        };
        // An empty input ends before column 1; the first column is 1.
        JsonProblem { line: e.line(), column: e.column().max(1), kind }
    }
}

/// A shard report (of a `kind` count: `queens`, `xcover`) that cannot be
/// read from decoder error `e`, in words about reports, with the line and
/// column where reading stopped.
pub(crate) fn report_problem(kind: &str, e: &serde_json::Error) -> String {
    let problem = JsonProblem::of(e);
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u', 'x']) { "an" } else { "a" };
    let what = match problem.kind {
        JsonProblemKind::Unreadable => "cannot be read".to_string(),
        JsonProblemKind::Truncated => "ends in the middle of a report".to_string(),
        JsonProblemKind::NotJson => "not JSON: a shard report is one JSON object per shard".to_string(),
        // Not an object: no report of any kind.
        JsonProblemKind::NotAnObject => {
            "not a shard report: a report is a JSON object with the fields --shard I/M --json writes".to_string()
        }
        JsonProblemKind::MissingField(field) => {
            format!("not {article} {kind} shard report: the field \"{}\" is missing", crate::error::Quoted(&field))
        }
        JsonProblemKind::WrongShape => {
            format!("not {article} {kind} shard report: a report is a JSON object with the fields --shard I/M --json writes")
        }
        JsonProblemKind::WrongValue => format!(
            "not {article} {kind} shard report: a field has a value of the wrong kind (counts are whole numbers from 0 \
             to 2^128 - 1)"
        ),
    };
    format!("line {}, column {}: {what}", problem.line, problem.column)
}

/// The error for an input `name` with no report in it at all (empty, or
/// blanks only): in words about shard reports of any kind, since nothing
/// in it says what it was meant to count.
pub(crate) fn no_report(name: &str) -> String {
    format!("{name}: no shard report in it (merge reads what queens or xcover --shard I/M --json writes)")
}
