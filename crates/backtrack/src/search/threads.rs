//! A thread-count setting: how many threads a caller asks for.

use std::fmt;
use std::str::FromStr;

use crate::error::Quoted;

/// A number of threads: 0 means one per available core, otherwise 1 to
/// [`Threads::MAX`]. Parsed from text with [`FromStr`] (surrounding spaces
/// allowed); the parsed value goes to the parallel functions of this module
/// through [`Threads::get`].
///
/// ```
/// use backtrack::search::Threads;
///
/// assert_eq!("4".parse::<Threads>().unwrap().get(), 4);
/// assert_eq!("0".parse::<Threads>().unwrap(), Threads::ALL_CORES);
/// assert!("1025".parse::<Threads>().is_err());
/// assert!("two".parse::<Threads>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Threads(usize);

impl Threads {
    /// Most threads that may be asked for.
    pub const MAX: usize = 1024;

    /// One thread per available core.
    pub const ALL_CORES: Threads = Threads(0);

    /// A count of 0 (one per core) to [`Threads::MAX`]; `None` above that.
    pub fn new(threads: usize) -> Option<Threads> {
        (threads <= Self::MAX).then_some(Threads(threads))
    }

    /// The count as the parallel functions take it: 0 for one per core.
    pub fn get(self) -> usize {
        self.0
    }
}

/// Why a text is not a [`Threads`] value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadsError {
    /// Not a non-negative whole number (the text as given).
    NotANumber(String),
    /// A number above [`Threads::MAX`].
    TooMany(usize),
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = Threads::MAX;
        match self {
            ThreadsError::NotANumber(text) => {
                write!(f, "'{}' is not a thread count: give 1 to {max}, or 0 for one per core", Quoted(text))
            }
            ThreadsError::TooMany(n) => {
                write!(f, "{n} threads is too many: give 1 to {max}, or 0 for one per core")
            }
        }
    }
}

impl std::error::Error for ThreadsError {}

impl FromStr for Threads {
    type Err = ThreadsError;

    fn from_str(text: &str) -> Result<Threads, ThreadsError> {
        let n: usize = text.trim().parse().map_err(|_| ThreadsError::NotANumber(text.to_string()))?;
        Threads::new(n).ok_or(ThreadsError::TooMany(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_is_zero_to_max() {
        assert_eq!(" 0 ".parse::<Threads>(), Ok(Threads::ALL_CORES));
        assert_eq!("1".parse::<Threads>().map(Threads::get), Ok(1));
        assert_eq!("1024".parse::<Threads>().map(Threads::get), Ok(1024));
        assert_eq!("1025".parse::<Threads>(), Err(ThreadsError::TooMany(1025)));
        assert_eq!("-1".parse::<Threads>(), Err(ThreadsError::NotANumber("-1".into())));
    }

    #[test]
    fn messages_name_the_range() {
        let too_many = "2000".parse::<Threads>().unwrap_err().to_string();
        assert_eq!(too_many, "2000 threads is too many: give 1 to 1024, or 0 for one per core");
        let bad = "x".repeat(100).parse::<Threads>().unwrap_err().to_string();
        assert!(bad.contains("is not a thread count"), "{bad}");
        assert!(bad.len() < 120, "long token quoted whole: {bad}");
    }
}
