//! A thread count: how many threads a caller asks for.

use std::fmt;
use std::num::NonZeroUsize;
use std::str::FromStr;

use crate::error::Quoted;

/// A number of threads, 1 to [`Threads::MAX`]: what every parallel function
/// of this crate takes. [`Threads::available`] is one per available core
/// (the [`Default`]); text parses with [`FromStr`], where `0` stands for
/// one per core, as on the command line (surrounding spaces allowed).
///
/// ```
/// use backtrack::search::Threads;
///
/// assert_eq!("4".parse::<Threads>().unwrap().get(), 4);
/// assert_eq!("0".parse::<Threads>().unwrap(), Threads::available());
/// assert!("1025".parse::<Threads>().is_err());
/// assert!("two".parse::<Threads>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threads(NonZeroUsize);

impl Threads {
    /// Most threads that may be asked for.
    pub const MAX: usize = 1024;

    /// One thread: the work runs on the calling thread.
    pub const ONE: Threads = Threads(NonZeroUsize::MIN);

    /// A count of 1 to [`Threads::MAX`]; `None` outside that.
    pub fn new(threads: usize) -> Option<Threads> {
        NonZeroUsize::new(threads).filter(|n| n.get() <= Self::MAX).map(Threads)
    }

    /// One thread per available core (one where the system cannot tell),
    /// at most [`Threads::MAX`].
    pub fn available() -> Threads {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        Threads::new(cores.min(Self::MAX)).unwrap_or(Threads::ONE)
    }

    /// The count.
    pub fn get(self) -> usize {
        self.0.get()
    }
}

impl Default for Threads {
    /// One per available core.
    fn default() -> Threads {
        Threads::available()
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
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

impl Threads {
    /// A count as front ends take it: 0 for one per core, else 1 to [`Threads::MAX`].
    pub fn from_count(threads: usize) -> Result<Threads, ThreadsError> {
        match threads {
            0 => Ok(Threads::available()),
            n => Threads::new(n).ok_or(ThreadsError::TooMany(n)),
        }
    }
}

impl FromStr for Threads {
    type Err = ThreadsError;

    fn from_str(text: &str) -> Result<Threads, ThreadsError> {
        let n: usize = text.trim().parse().map_err(|_| ThreadsError::NotANumber(text.to_string()))?;
        Threads::from_count(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_one_per_core_and_the_rest_one_to_max() {
        assert_eq!(" 0 ".parse::<Threads>(), Ok(Threads::available()));
        assert_eq!("1".parse::<Threads>(), Ok(Threads::ONE));
        assert_eq!("1024".parse::<Threads>().map(Threads::get), Ok(1024));
        assert_eq!("1025".parse::<Threads>(), Err(ThreadsError::TooMany(1025)));
        assert_eq!("-1".parse::<Threads>(), Err(ThreadsError::NotANumber("-1".into())));
        assert_eq!(Threads::new(0), None);
        assert_eq!(Threads::new(1025), None);
        assert!(Threads::available().get() >= 1);
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
