//! The judge's six verdicts (`AC`, `WA`, ...), a vocabulary of their own:
//! the judge ([`crate::judge`]) gives them and the words of each language
//! ([`crate::lang`]) name them, so the words need not build on the judge.

use std::fmt;

/// What the judge says about one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Time limit exceeded.
    TimeLimit,
    /// Memory limit exceeded.
    MemoryLimit,
    /// Runtime error: a signal or a non-zero exit status.
    RuntimeError,
    /// Output limit exceeded: far more output than the answer needs.
    OutputLimit,
}

impl Verdict {
    /// Every verdict, accepted first.
    pub const ALL: [Verdict; 6] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::OutputLimit,
    ];

    /// The usual two-letter code: `AC`, `WA`, `TLE`, `MLE`, `RE`, `OLE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::RuntimeError => "RE",
            Verdict::OutputLimit => "OLE",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
