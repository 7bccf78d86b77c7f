//! `backtrack choose`: permutations, combinations and sequences, with or
//! without repetition, of `1..N` or of given numbers (multisets included),
//! streamed in lexicographic order without duplicates; and the judge
//! problems built on them (Lotto, the "N and M" series).

use std::io::Write;
use std::path::PathBuf;

use backtrack::choose::{self, Choose, CountError, Repetition, Shape};

use super::{diag, read_input, stdout, CliError, CliResult, EXIT_NO_SOLUTION, EXIT_OK};

/// Largest N accepted for the pool `1..N` (each value is kept in memory with its text).
const MAX_RANGE: u64 = 10_000_000;

/// What to enumerate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Arrangements in any order: permutations; with --repeat, every sequence (N^M of them).
    #[value(alias = "permutations", alias = "p")]
    Perm,
    /// Sorted selections: combinations; with --repeat, combinations with repetition (multisets).
    #[value(alias = "combinations", alias = "c")]
    Comb,
}

/// Enumerate permutations, combinations and sequences in lexicographic order, without duplicates.
///
/// Sequences of length M are drawn from the pool 1..N, or from the numbers given with --values or
/// --values-from. The pool may hold repeated numbers (a multiset): a number given c times may appear
/// up to c times in a sequence, and equal numbers never produce the same sequence twice. Output: one
/// sequence per line, numbers separated by single spaces, in increasing lexicographic order (numbers
/// compared as numbers).
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    backtrack choose perm 4 2                      permutations of 2 out of 1..4 (12 lines)\n  \
    backtrack choose comb 5 3                      3-subsets of 1..5, each increasing (10 lines)\n  \
    backtrack choose perm 3 2 --repeat             all sequences of 2 over 1..3 (9 lines)\n  \
    backtrack choose comb 3 2 --repeat             non-decreasing sequences: 1 1, 1 2, 1 3, 2 2, ...\n  \
    backtrack choose perm 2 --values 9 7 9 1       distinct arrangements of the multiset: 1 7 ... 9 9\n  \
    backtrack choose comb 2 --values 9,7,9,1       sorted selections: 1 7, 1 9, 7 9, 9 9\n  \
    backtrack choose comb 2 --values 9 7 9 1 --distinct   drop repeats first: 1 7, 1 9, 7 9\n  \
    backtrack choose comb 6 --values-from set.txt  6-subsets of the numbers in a file ('-': stdin)\n  \
    backtrack choose perm 12 12 --count            how many lines, without writing them (479001600)")]
pub struct Args {
    /// perm: any order (permutations); comb: increasing order (combinations).
    #[arg(value_enum)]
    pub kind: Kind,
    /// `N M`: sequences of length M from 1..N. With --values or --values-from give only M (or N
    /// equal to the number of values given).
    #[arg(value_name = "N M", num_args = 1..=2, required = true)]
    pub sizes: Vec<u64>,
    /// Allow each value any number of times (perm: all sequences; comb: non-decreasing sequences).
    #[arg(short, long)]
    pub repeat: bool,
    /// Draw from these numbers instead of 1..N (repeats allowed: a multiset). Separate them by
    /// spaces or commas; put M before this option. A comma list starting with a negative number
    /// needs `=`: --values=-3,5.
    #[arg(short, long, num_args = 1.., value_delimiter = ',', allow_negative_numbers = true,
          conflicts_with = "values_from", value_name = "V")]
    pub values: Vec<i64>,
    /// Read the numbers to draw from a file ('-': standard input), separated by whitespace.
    #[arg(long, value_name = "FILE")]
    pub values_from: Option<PathBuf>,
    /// Use each distinct number once, however often it is given (comb: strictly increasing sequences).
    #[arg(short, long)]
    pub distinct: bool,
    /// Print only how many sequences there are.
    #[arg(long)]
    pub count: bool,
    /// Text between the numbers of one line.
    #[arg(long, default_value = " ", value_name = "TEXT")]
    pub separator: String,
}

fn shape_of(kind: Kind, repeat: bool) -> (Shape, Repetition) {
    let repetition = if repeat { Repetition::Unlimited } else { Repetition::Once };
    match kind {
        Kind::Perm => (Shape::Any, repetition),
        // Sorted selections of a multiset keep equal values side by side: non-decreasing,
        // with each given copy used at most once; on distinct values that is increasing.
        Kind::Comb => (Shape::NonDecreasing, repetition),
    }
}

/// Writes the count, or explains why there is none; the exit status is 1
/// for a count of 0, as for an empty enumeration.
fn write_count(count: Result<u128, CountError>, out: &mut dyn Write) -> CliResult {
    match count {
        Ok(n) => {
            writeln!(out, "{n}")?;
            out.flush()?;
            Ok(if n == 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
        }
        // Too big to print is a request out of range, too costly a lack of memory.
        Err(e @ CountError::Overflow) => Err(CliError::Input(format!("cannot count: {e}"))),
        Err(e @ CountError::TooLarge) => Err(CliError::Failure(format!("cannot count: {e}"))),
    }
}

pub fn run(args: Args) -> CliResult {
    let (n, m) = match args.sizes[..] {
        [n, m] => (Some(n), m),
        [m] => (None, m),
        _ => unreachable!("clap takes one or two sizes"),
    };
    let given = if let Some(file) = &args.values_from {
        let input = read_input(Some(file))?;
        Some(choose::parse_values(&input.text).map_err(|e| CliError::bad_input(&input.name, &e))?)
    } else if !args.values.is_empty() {
        Some(args.values.clone())
    } else {
        None
    };
    let len = usize::try_from(m).map_err(|_| CliError::Input(format!("M = {m} is too large")))?;
    let (shape, repetition) = shape_of(args.kind, args.repeat);
    let mut out = stdout();
    let separator = args.separator.as_bytes();
    let lines = match given {
        None => {
            let Some(n) = n else {
                return Err(CliError::Input("give N and M (pool 1..N), or M with --values or --values-from".into()));
            };
            if n > MAX_RANGE {
                return Err(CliError::Input(format!("N = {n} is too large (at most {MAX_RANGE})")));
            }
            let space = Choose::range(n, len, shape, repetition);
            if args.count {
                return write_count(space.count(), &mut out);
            }
            space.write_all(&mut out, separator)?
        }
        Some(mut values) => {
            if let Some(n) = n {
                if n != values.len() as u64 {
                    return Err(CliError::Input(format!(
                        "N = {n} but {} numbers were given (give only M with --values)",
                        values.len()
                    )));
                }
            }
            if args.distinct {
                values.sort_unstable();
                values.dedup();
            }
            let space = Choose::new(values, len, shape, repetition);
            if args.count {
                return write_count(space.count(), &mut out);
            }
            space.write_all(&mut out, separator)?
        }
    };
    out.flush()?;
    if lines == 0 {
        diag!("backtrack: no sequences of length {m} can be drawn from this pool");
        return Ok(EXIT_NO_SOLUTION);
    }
    Ok(EXIT_OK)
}
