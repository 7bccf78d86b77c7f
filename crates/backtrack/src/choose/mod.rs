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

use crate::search::{Node, Order, Space};

mod nm;
pub mod parse;
mod write;

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
    shape: Shape,
    repetition: Repetition,
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
            shape,
            repetition,
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
        if self.seq.len() == self.len {
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

    #[inline]
    fn push(&mut self, choice: u32) -> bool {
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

    #[inline]
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

impl<T: Clone> Choose<T> {
    /// Takes the smallest value at every position up to `depth`: the first
    /// prefix of that length that starts with the current one and leads to a
    /// sequence. Returns `false` (the prefix kept as far as it went) when
    /// there is none.
    fn fill_to(&mut self, depth: usize) -> bool {
        while self.seq.len() < depth {
            match self.next_usable(self.start()) {
                Some(i) => {
                    self.push(i);
                }
                None => return false,
            }
        }
        true
    }

    /// Steps from the current prefix of length `depth` to the next one in
    /// lexicographic order that leads to a sequence, and returns the first
    /// position that changed, or `None` after the last. The step is the
    /// walk's own, done in place: give back the values from the end until one
    /// can be replaced by the next usable value, then fill the rest up to
    /// `depth` with the smallest ones.
    fn advance_to(&mut self, depth: usize) -> Option<usize> {
        while let Some(&last) = self.seq.last() {
            self.pop();
            if let Some(i) = self.next_usable(last + 1) {
                let changed = self.seq.len();
                self.push(i);
                // A value the walk would take always leads to a sequence: the
                // usable values and the sorted shapes' copies ahead say so.
                let filled = self.fill_to(depth);
                debug_assert!(filled, "a usable value completes");
                return Some(changed);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::search::Search;

    /// The lines of `space` as the search core's walk gives them, joined by hand.
    fn walked_text<T: Clone + std::fmt::Display>(space: Choose<T>, separator: &str) -> Vec<u8> {
        let mut text = Vec::new();
        Search::new(space).order(Order::Lexicographic).for_each(|seq| {
            let values: Vec<String> = seq.iter().map(T::to_string).collect();
            text.extend_from_slice(values.join(separator).as_bytes());
            text.push(b'\n');
            ControlFlow::Continue(())
        });
        text
    }

    /// The writer's lines are the walk's, byte for byte: every shape and
    /// repetition, sets and multisets, values of one to many digits (and
    /// signs), separators empty, short and longer than a slot, and enough
    /// lines to fill several chunks.
    #[test]
    fn write_all_is_the_walk_byte_for_byte() {
        let pools: [Vec<i64>; 6] = [
            (1..=5).collect(),
            vec![9, 7, 9, 1, 1, 1],
            vec![-3, 1000, 7, 12, 12, -40000],
            (1..=12).collect(),
            vec![5],
            (95..=105).collect(),
        ];
        let long_separator = "<a separator longer than sixteen bytes>";
        for pool in &pools {
            for shape in [Shape::Any, Shape::Increasing, Shape::NonDecreasing] {
                for rep in [Repetition::Once, Repetition::Unlimited] {
                    for len in 0..=4 {
                        for separator in [" ", "", ", ", long_separator] {
                            let space = Choose::new(pool.iter().copied(), len, shape, rep);
                            let mut text = Vec::new();
                            // Chunks of a few lines, to hand over mid-prefix too.
                            let lines = space.clone().write_in_chunks(&mut text, separator.as_bytes(), 64).unwrap();
                            let walked = walked_text(space, separator);
                            let what = format!("{pool:?} {shape:?} {rep:?} len {len} {separator:?}");
                            assert_eq!(String::from_utf8(text).unwrap(), String::from_utf8(walked).unwrap(), "{what}");
                            let expected = if len == 0 {
                                1
                            } else {
                                Choose::new(pool.iter().copied(), len, shape, rep).count().unwrap()
                            };
                            assert_eq!(u128::from(lines), expected, "{what}");
                        }
                    }
                }
            }
        }
        // Many chunks, of the writer's own size and of 4 KiB: 8! lines of 8
        // values, 11^5 lines of two-digit values, and a multiset's arrangements.
        for space in [
            Choose::range(8, 8, Shape::Any, Repetition::Once),
            Choose::new(90..101u64, 5, Shape::Any, Repetition::Unlimited),
            Choose::range(20, 7, Shape::Increasing, Repetition::Once),
            Choose::new([1, 1, 2, 2, 3, 3, 4, 4, 5], 7, Shape::Any, Repetition::Once),
        ] {
            let walked = walked_text(space.clone(), " ");
            assert!(walked.len() > 8 * 4096);
            for chunk in [write::OUT_CHUNK, 4096] {
                let mut text = Vec::new();
                space.clone().write_in_chunks(&mut text, b" ", chunk).unwrap();
                assert!(text == walked);
            }
        }
    }

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
