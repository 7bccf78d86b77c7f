//! Enumerating sequences drawn from a pool of values: permutations,
//! combinations, with or without repetition, of sets and multisets.
//!
//! One enumerator, [`Choose`], covers the whole family. It is configured by
//!
//! * the pool: any values with a total order, given in any order and possibly
//!   with repeats (a multiset); the pool is sorted and equal values are merged
//!   into one value with a number of copies;
//! * the length `len` of the sequences;
//! * a [`Shape`]: any order, strictly increasing, or non-decreasing;
//! * a [`Repetition`]: each given copy at most once, or values without limit.
//!
//! Sequences come out in increasing lexicographic order (values compared by
//! their own `Ord`), each distinct sequence exactly once even when the pool
//! has repeats: equal values are one choice at each position, never two.
//! Nothing is collected: the enumerator is a [`Space`] for the
//! [search core](crate::search), so sequences stream to a callback, and
//! [`Choose::write_all`] streams them as text at memory speed.
//!
//! | shape | repetition | on `1..=n` | on a multiset |
//! | --- | --- | --- | --- |
//! | [`Shape::Any`] | [`Repetition::Once`] | permutations | distinct arrangements |
//! | [`Shape::Any`] | [`Repetition::Unlimited`] | all sequences (`n^len`) | sequences of its distinct values |
//! | [`Shape::Increasing`] | either | combinations | combinations of its distinct values |
//! | [`Shape::NonDecreasing`] | [`Repetition::Once`] | combinations | sub-multisets of size `len` |
//! | [`Shape::NonDecreasing`] | [`Repetition::Unlimited`] | multisets of size `len` | multisets of its distinct values |
//!
//! ```
//! use backtrack::choose::{Choose, Repetition, Shape};
//! use backtrack::search::Search;
//!
//! // Every distinct arrangement of two of the numbers 9 7 9 1.
//! let space = Choose::new([9, 7, 9, 1], 2, Shape::Any, Repetition::Once);
//! assert_eq!(space.count(), Ok(7));
//! let mut lines = Vec::new();
//! Search::new(space).for_each(|seq| {
//!     lines.push(seq);
//!     std::ops::ControlFlow::Continue(())
//! });
//! assert_eq!(lines, [[1, 7], [1, 9], [7, 1], [7, 9], [9, 1], [9, 7], [9, 9]]);
//!
//! // The same as text, one sequence a line.
//! let mut text = Vec::new();
//! let space = Choose::new([9, 7, 9, 1], 2, Shape::NonDecreasing, Repetition::Once);
//! space.clone().write_all(&mut text, b" ").unwrap();
//! assert_eq!(String::from_utf8(text).unwrap(), "1 7\n1 9\n7 9\n9 9\n");
//! ```

use std::cell::Cell;
use std::fmt::Display;
use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::search::{Node, Order, Search, Space};

mod nm;
pub mod parse;

pub use nm::NandMVariant;
pub use parse::{parse_lotto, parse_n_and_m, parse_values, NAndM};

/// The order of the values inside one sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Any order: permutations, or all sequences with repetition.
    Any,
    /// Strictly increasing: each distinct value at most once (combinations).
    Increasing,
    /// Non-decreasing: a value may follow itself as far as its copies allow.
    NonDecreasing,
}

/// How often one value of the pool may be used in one sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Each given copy at most once: a value given `c` times appears at most `c` times.
    Once,
    /// Any value any number of times.
    Unlimited,
}

/// Why [`Choose::count`] has no exact answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountError {
    /// The count is 2^128 or more.
    Overflow,
    /// Counting would need a table too large for memory (a value repeated
    /// thousands of times in sequences thousands long).
    TooLarge,
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CountError::Overflow => "the count is 2^128 or more",
            CountError::TooLarge => "the count is too expensive to compute exactly",
        })
    }
}

impl std::error::Error for CountError {}

/// The enumerator: a [`Space`] whose solutions are the sequences, in
/// increasing lexicographic order. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct Choose<T> {
    /// Distinct values of the pool, increasing.
    values: Vec<T>,
    /// Copies of each value a sequence may use (capped at `len`).
    copies: Vec<u32>,
    /// `suffix_copies[i]`: sum of `copies[i..]`, capped at `len`; for pruning.
    suffix_copies: Vec<u32>,
    /// Copies still unused at the current node.
    left: Vec<u32>,
    /// Bit `i` set when `left[i] > 0`: finds the next usable value a word at a time.
    usable: Vec<u64>,
    /// The current prefix, as indices into `values`.
    seq: Vec<u32>,
    len: usize,
    /// Depth at which `expand` reports a solution: `len`, except inside
    /// [`Choose::write_all`], which walks prefixes and fills the last position itself.
    stop: usize,
    shape: Shape,
    repetition: Repetition,
    /// Smallest depth changed since the text of the last solution was built
    /// (a `Cell` because the writer sees the space only by shared reference).
    dirty: Cell<usize>,
}

impl<T: Ord> Choose<T> {
    /// Sequences of length `len` drawn from `pool` (any order, repeats allowed).
    pub fn new(pool: impl IntoIterator<Item = T>, len: usize, shape: Shape, repetition: Repetition) -> Self {
        let mut all: Vec<T> = pool.into_iter().collect();
        all.sort();
        let mut values: Vec<T> = Vec::with_capacity(all.len());
        let mut given: Vec<usize> = Vec::with_capacity(all.len());
        for value in all {
            match values.last() {
                Some(last) if *last == value => *given.last_mut().expect("parallel vectors") += 1,
                _ => {
                    values.push(value);
                    given.push(1);
                }
            }
        }
        let cap = len.min(u32::MAX as usize) as u32;
        let copies: Vec<u32> = given
            .iter()
            .map(|&g| match (shape, repetition) {
                (Shape::Increasing, _) => 1.min(cap),
                (_, Repetition::Unlimited) => cap,
                (_, Repetition::Once) => g.min(cap as usize) as u32,
            })
            .collect();
        let mut suffix_copies = vec![0u32; copies.len() + 1];
        for i in (0..copies.len()).rev() {
            suffix_copies[i] = suffix_copies[i + 1].saturating_add(copies[i]).min(cap);
        }
        Choose {
            values,
            left: copies.clone(),
            usable: usable_bits(&copies),
            copies,
            suffix_copies,
            seq: Vec::with_capacity(len),
            len,
            stop: len,
            shape,
            repetition,
            dirty: Cell::new(0),
        }
    }
}

impl Choose<u64> {
    /// Sequences of length `len` drawn from `1..=n`.
    pub fn range(n: u64, len: usize, shape: Shape, repetition: Repetition) -> Self {
        Choose::new(1..=n, len, shape, repetition)
    }
}

impl<T> Choose<T> {
    /// The distinct values of the pool, increasing.
    pub fn values(&self) -> &[T] {
        &self.values
    }
    /// Length of the sequences.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the sequences are empty (`len == 0`: exactly one, empty, sequence).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The shape of the sequences.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// The repetition rule.
    pub fn repetition(&self) -> Repetition {
        self.repetition
    }
    /// The current prefix as indices into [`values`](Choose::values).
    pub fn indices(&self) -> &[u32] {
        &self.seq
    }

    /// Number of sequences, exactly, without enumerating them.
    pub fn count(&self) -> Result<u128, CountError> {
        let len = self.len;
        let k = self.values.len();
        match (self.shape, self.repetition) {
            (Shape::Any, Repetition::Unlimited) => {
                let len = u32::try_from(len).map_err(|_| CountError::Overflow)?;
                (k as u128).checked_pow(len).ok_or(CountError::Overflow)
            }
            (Shape::Any, Repetition::Once) => count_arrangements(&self.copies, len),
            // Sorted sequences are sub-multisets: choose how many copies of each value.
            (Shape::Increasing | Shape::NonDecreasing, _) => count_multisets(&self.copies, len),
        }
    }

    /// The first index from `from` on that can extend the current prefix.
    #[inline]
    fn next_usable(&self, from: u32) -> Option<u32> {
        let from = from as usize;
        let mut word = from / 64;
        let mut bits = *self.usable.get(word)? & (u64::MAX << (from % 64));
        while bits == 0 {
            word += 1;
            bits = *self.usable.get(word)?;
        }
        let i = word * 64 + bits.trailing_zeros() as usize;
        if self.shape != Shape::Any {
            let needed = (self.len - self.seq.len()) as u32;
            if self.left[i].saturating_add(self.suffix_copies[i + 1]) < needed {
                // Fewer copies ahead than places to fill, and it only gets worse further on.
                return None;
            }
        }
        Some(i as u32)
    }

    /// First index worth trying at the current node.
    fn start(&self) -> u32 {
        match (self.shape, self.seq.last()) {
            (_, None) | (Shape::Any, _) => 0,
            (Shape::Increasing, Some(&last)) => last + 1,
            (Shape::NonDecreasing, Some(&last)) => last,
        }
    }
}

/// The bitset of indices with at least one copy.
fn usable_bits(copies: &[u32]) -> Vec<u64> {
    let mut bits = vec![0u64; copies.len().div_ceil(64)];
    for (i, &c) in copies.iter().enumerate() {
        if c > 0 {
            bits[i / 64] |= 1 << (i % 64);
        }
    }
    bits
}

/// Saturating "sum of counts" where `None` means 2^128 or more.
fn add_sat(a: Option<u128>, b: Option<u128>) -> Option<u128> {
    a?.checked_add(b?)
}

/// Number of ways to pick `len` items as a sub-multiset: `copies[i]` copies of value `i`.
fn count_multisets(copies: &[u32], len: usize) -> Result<u128, CountError> {
    // ways[m]: sub-multisets of size m of the values seen so far (None: overflow).
    let mut ways: Vec<Option<u128>> = vec![Some(0); len + 1];
    ways[0] = Some(1);
    let mut next = ways.clone();
    for &c in copies {
        // next[m] = sum of ways[m - j] for j in 0..=c: a sliding window sum.
        let c = c as usize;
        let mut window: Option<u128> = Some(0);
        for m in 0..=len {
            window = add_sat(window, ways[m]);
            if m > c {
                // Leaving the window: exact subtraction is only possible when
                // both sides are exact; otherwise recompute the window directly.
                window = match (window, ways[m - c - 1]) {
                    (Some(w), Some(out)) => Some(w - out),
                    _ => ways[m - c..=m].iter().try_fold(0u128, |acc, &x| acc.checked_add(x?)),
                };
            }
            next[m] = window;
        }
        std::mem::swap(&mut ways, &mut next);
    }
    ways[len].ok_or(CountError::Overflow)
}

/// Largest binomial table [`count_arrangements`] builds, in entries.
const MAX_BINOMIAL_ENTRIES: usize = 1 << 22;

/// Number of distinct sequences of length `len` with value `i` used at most `copies[i]` times.
fn count_arrangements(copies: &[u32], len: usize) -> Result<u128, CountError> {
    if copies.iter().all(|&c| c == 1) {
        // Distinct values: the falling factorial k (k-1) ... (k-len+1).
        let k = copies.len();
        if len > k {
            return Ok(0);
        }
        let mut product: u128 = 1;
        for i in 0..len {
            product = product.checked_mul((k - i) as u128).ok_or(CountError::Overflow)?;
        }
        return Ok(product);
    }
    // ways[m]: sequences of length m over the values seen so far. Adding a
    // value used j times means choosing its j positions among m: C(m, j).
    let widest = copies.iter().map(|&c| c as usize).max().unwrap_or(0).min(len);
    if (len + 1).saturating_mul(widest + 1) > MAX_BINOMIAL_ENTRIES {
        return Err(CountError::TooLarge);
    }
    // binomial[m * (widest + 1) + j] = C(m, j), None when 2^128 or more.
    let row = widest + 1;
    let mut binomial: Vec<Option<u128>> = vec![Some(0); (len + 1) * row];
    for m in 0..=len {
        binomial[m * row] = Some(1);
        for j in 1..=widest.min(m) {
            binomial[m * row + j] = add_sat(binomial[(m - 1) * row + j - 1], binomial[(m - 1) * row + j]);
        }
    }
    let mut ways: Vec<Option<u128>> = vec![Some(0); len + 1];
    ways[0] = Some(1);
    let mut next = ways.clone();
    for &c in copies {
        for m in 0..=len {
            let mut total = Some(0u128);
            for j in 0..=(c as usize).min(m) {
                let term = match ways[m - j] {
                    Some(0) => Some(0),
                    Some(w) => binomial[m * row + j].and_then(|b| b.checked_mul(w)),
                    None => None,
                };
                total = add_sat(total, term);
            }
            next[m] = total;
        }
        std::mem::swap(&mut ways, &mut next);
    }
    ways[len].ok_or(CountError::Overflow)
}

impl<T: Clone> Space for Choose<T> {
    /// The next index into the distinct values to try.
    type Branch = u32;
    /// An index into the distinct values.
    type Choice = u32;
    /// The sequence of values.
    type Solution = Vec<T>;

    fn expand(&mut self, _order: Order) -> Node<u32> {
        // Lexicographic order is the natural order here, so both orders branch alike.
        if self.seq.len() == self.stop {
            return Node::Solution;
        }
        let needed = (self.len - self.seq.len()) as u32;
        let start = self.start();
        // Sorted shapes only move forward: enough copies must lie ahead.
        let ahead = match self.shape {
            // Any order may use every copy left; `suffix_copies[0]` is the
            // total, capped at `len`, which is all a sequence could need.
            Shape::Any => self.suffix_copies[0] - self.seq.len() as u32,
            _ => self.left.get(start as usize).map_or(0, |&l| l.saturating_add(self.suffix_copies[start as usize + 1])),
        };
        if (start as usize) >= self.values.len() || ahead < needed {
            return Node::Dead;
        }
        Node::Branch(start)
    }

    fn next_choice(&mut self, next: &mut u32) -> Option<u32> {
        match self.next_usable(*next) {
            Some(i) => {
                *next = i + 1;
                Some(i)
            }
            None => {
                *next = self.values.len() as u32;
                None
            }
        }
    }

    fn push(&mut self, choice: u32) -> bool {
        self.dirty.set(self.dirty.get().min(self.seq.len()));
        self.seq.push(choice);
        let i = choice as usize;
        self.left[i] -= 1;
        if self.left[i] == 0 {
            self.usable[i / 64] &= !(1 << (i % 64));
        }
        // With `Shape::Any` and `Repetition::Once` the pool may run dry; the
        // next `expand` sees no usable value and the branch yields nothing.
        true
    }

    fn pop(&mut self) {
        if let Some(choice) = self.seq.pop() {
            let i = choice as usize;
            self.left[i] += 1;
            self.usable[i / 64] |= 1 << (i % 64);
        }
    }

    fn solution(&self) -> Vec<T> {
        self.seq.iter().map(|&i| self.values[i as usize].clone()).collect()
    }
}

/// Bytes of output gathered before they are handed to the writer.
const OUT_CHUNK: usize = 1 << 16;

impl<T: Clone + Display> Choose<T> {
    /// Writes every sequence as one line: the values separated by `separator`,
    /// then `\n`. Returns the number of lines written.
    ///
    /// Each distinct value is formatted once up front; a line is rebuilt only
    /// from the first position that changed since the previous line, so the
    /// cost per line is little more than copying its bytes.
    pub fn write_all<W: Write + ?Sized>(self, out: &mut W, separator: &[u8]) -> io::Result<u64> {
        // Text of every distinct value, back to back; value i is texts[starts[i]..starts[i + 1]].
        let mut texts = Vec::new();
        let mut starts = Vec::with_capacity(self.values.len() + 1);
        for value in &self.values {
            starts.push(texts.len());
            write!(texts, "{value}")?;
        }
        starts.push(texts.len());

        let mut buffer: Vec<u8> = Vec::with_capacity(OUT_CHUNK + 4096);
        if self.len == 0 {
            // Exactly one sequence, the empty one: an empty line.
            out.write_all(b"\n")?;
            return Ok(1);
        }
        // The text of the current prefix (every position but the last one or
        // two), each value followed by the separator, and where each
        // position's text ends.
        let mut prefix: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = vec![0; self.len];
        let mut lines = 0u64;
        let mut failure: Option<io::Error> = None;
        let mut space = self;
        space.dirty.set(0);
        // Walk the prefixes; the last one or two positions are tight loops
        // over the usable values, which saves the walk most of its nodes.
        let tail = space.len.min(2);
        space.stop = space.len - tail;

        let text = |i: u32| &texts[starts[i as usize]..starts[i as usize + 1]];
        let mut search = Search::new(space).order(Order::Lexicographic);
        search.walk(|space| {
            let from = space.dirty.get().min(space.stop);
            space.dirty.set(space.stop);
            prefix.truncate(if from == 0 { 0 } else { ends[from - 1] });
            for (depth, &i) in space.seq.iter().enumerate().skip(from) {
                prefix.extend_from_slice(text(i));
                prefix.extend_from_slice(separator);
                ends[depth] = prefix.len();
            }
            // Appends one line; hands the buffer to `out` when it is full.
            macro_rules! emit {
                ($($part:expr),*) => {
                    buffer.extend_from_slice(&prefix);
                    $(buffer.extend_from_slice($part);)*
                    buffer.push(b'\n');
                    lines += 1;
                    if buffer.len() >= OUT_CHUNK {
                        if let Err(e) = out.write_all(&buffer) {
                            failure = Some(e);
                            return ControlFlow::Break(());
                        }
                        buffer.clear();
                    }
                };
            }
            let mut next = space.start();
            while let Some(i) = space.next_usable(next) {
                next = i + 1;
                if tail == 1 {
                    emit!(text(i));
                    continue;
                }
                // The last position after `i`: the values usable once `i` is taken.
                let last_from = match space.shape {
                    Shape::Any => 0,
                    Shape::Increasing => i as usize + 1,
                    Shape::NonDecreasing => i as usize,
                };
                let (taken_word, taken_bit) = (i as usize / 64, 1u64 << (i % 64));
                let used_up = space.left[i as usize] == 1;
                for word in last_from / 64..space.usable.len() {
                    let mut bits = space.usable[word];
                    if word == last_from / 64 {
                        bits &= u64::MAX << (last_from % 64);
                    }
                    if used_up && word == taken_word {
                        bits &= !taken_bit;
                    }
                    while bits != 0 {
                        let j = (word * 64) as u32 + bits.trailing_zeros();
                        bits &= bits - 1;
                        emit!(text(i), separator, text(j));
                    }
                }
            }
            ControlFlow::Continue(())
        });
        if let Some(e) = failure {
            return Err(e);
        }
        out.write_all(&buffer)?;
        Ok(lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all<T: Clone + Ord>(space: Choose<T>) -> Vec<Vec<T>> {
        let mut found = Vec::new();
        Search::new(space).for_each(|s| {
            found.push(s);
            ControlFlow::Continue(())
        });
        found
    }

    #[test]
    fn permutations_of_a_multiset() {
        let got = all(Choose::new([9, 7, 9, 1], 2, Shape::Any, Repetition::Once));
        assert_eq!(got, vec![vec![1, 7], vec![1, 9], vec![7, 1], vec![7, 9], vec![9, 1], vec![9, 7], vec![9, 9]]);
    }

    #[test]
    fn non_decreasing_with_repetition() {
        let got = all(Choose::new([1, 1, 2, 2], 4, Shape::NonDecreasing, Repetition::Unlimited));
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], vec![1, 1, 1, 1]);
        assert_eq!(got[4], vec![2, 2, 2, 2]);
    }

    #[test]
    fn counts_agree_with_walks() {
        for shape in [Shape::Any, Shape::Increasing, Shape::NonDecreasing] {
            for rep in [Repetition::Once, Repetition::Unlimited] {
                for len in 0..5 {
                    let space = Choose::new([3, 1, 3, 3, 2, 5], len, shape, rep);
                    let walked = Search::new(space.clone()).count(None) as u128;
                    assert_eq!(space.count(), Ok(walked), "{shape:?} {rep:?} len {len}");
                }
            }
        }
    }

    #[test]
    fn empty_pool_and_zero_length() {
        assert_eq!(all(Choose::<u64>::range(0, 0, Shape::Any, Repetition::Once)), vec![Vec::<u64>::new()]);
        assert_eq!(all(Choose::<u64>::range(0, 2, Shape::Any, Repetition::Unlimited)), Vec::<Vec<u64>>::new());
        assert_eq!(Choose::<u64>::range(0, 2, Shape::Any, Repetition::Unlimited).count(), Ok(0));
        assert_eq!(Choose::<u64>::range(3, 4, Shape::Increasing, Repetition::Once).count(), Ok(0));
    }

    #[test]
    fn counts_too_costly_to_tabulate_say_so() {
        // One value repeated thousands of times in sequences thousands long.
        let pool = std::iter::repeat_n(1u32, 5000).chain([2]);
        let space = Choose::new(pool, 5000, Shape::Any, Repetition::Once);
        assert_eq!(space.count(), Err(CountError::TooLarge));
    }

    #[test]
    fn huge_counts_overflow_cleanly() {
        assert_eq!(Choose::range(40, 40, Shape::Any, Repetition::Once).count(), Err(CountError::Overflow));
        assert_eq!(Choose::range(10, 39, Shape::Any, Repetition::Unlimited).count(), Err(CountError::Overflow));
        assert_eq!(Choose::range(34, 34, Shape::Any, Repetition::Once).count(), Ok((1..=34u128).product()));
    }
}
