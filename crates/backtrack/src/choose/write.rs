//! Writing every sequence of a [`Choose`] as text, one line each, at the
//! speed of memory.
//!
//! A line is the values' texts joined by a separator, then `\n`. Each value's
//! text and the separator after it are formatted once, into a slot of fixed
//! width ([`Texts`]), so a value is written by one fixed-size copy and the
//! line goes on by its true length (the copy's overhang is overwritten).
//!
//! Most lines differ from the line above only in their last few values, so
//! the lines are made in two levels:
//!
//! * the **prefix**, the first `len - k` values, steps by the walk's own
//!   in-place step ([`Choose::advance_to`]); its bytes are made once;
//! * the **tail**, the last `k` values, runs through a table of index
//!   patterns made once up front ([`Tails`]): every line of a prefix is the
//!   prefix's bytes, copied in 16-byte blocks, then the `k` values the
//!   pattern names. `k` is the least that gives [`MIN_TAIL_LINES`] lines a
//!   prefix, so the prefix's step is paid once for many lines.
//!
//! The table is the same for every prefix when the values left to the tail
//! do not depend on the prefix but through a shift or a renaming:
//!
//! * any order, each value at most once, the values distinct (permutations):
//!   the tail arranges the `r` values the prefix left, in the same patterns
//!   of their ranks for every prefix; each prefix maps ranks to values;
//! * any order without limit: every tail is every `k`-sequence of the values;
//! * sorted shapes (each value once, or without limit): the tails after a
//!   prefix are the table's entries whose first value is at least the first
//!   one the prefix allows, a contiguous end of the table in lexicographic
//!   order.
//!
//! A full permutation's tail arranges every value its prefix left, so its
//! bytes depend on nothing but which values those are: each such set's
//! tails are rendered once ([`TailBlocks`]) and every line after a prefix
//! is then two 16-byte moves, the prefix's bytes and a tail's.
//!
//! Multisets drawn each copy once (in any order or non-decreasing) leave
//! tails that depend on the copies the prefix used; their lines are made one
//! at a time, each from the line above with the walk's step and only its
//! changed suffix rewritten.
//!
//! Lines gather in one buffer handed to the writer in chunks of about
//! [`OUT_CHUNK`] bytes. The tests compare every shape against a plain
//! recursive enumerator, byte for byte.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};

use super::{Choose, Repetition, Shape};
use crate::search::Space;

/// Bytes of output gathered before they are handed to the writer.
pub(super) const OUT_CHUNK: usize = 1 << 20;

/// Fewest lines a prefix should have for its step to be paid off.
const MIN_TAIL_LINES: u128 = 64;

/// Most entries of a tail table (when even the least `k` over
/// [`MIN_TAIL_LINES`] would pass this, `k` is one less).
const MAX_TAIL_LINES: u128 = 1 << 14;

impl<T: Clone + Display> Choose<T> {
    /// Writes every sequence as one line: the values separated by `separator`,
    /// then `\n`. Returns the number of lines written.
    ///
    /// Lines are made in one large buffer that goes to `out` in pieces of
    /// about 1 MiB; only the last values of each line are written afresh
    /// (see the `write` module's source for how). The lines come in the
    /// same order as the search core's walk.
    pub fn write_all<W: Write + ?Sized>(self, out: &mut W, separator: &[u8]) -> io::Result<u64> {
        self.write_in_chunks(out, separator, OUT_CHUNK)
    }

    /// [`Choose::write_all`] with chunks of about `chunk` bytes.
    pub(super) fn write_in_chunks<W: Write + ?Sized>(
        mut self,
        out: &mut W,
        separator: &[u8],
        chunk: usize,
    ) -> io::Result<u64> {
        if self.len == 0 {
            // Exactly one sequence, the empty one: an empty line.
            out.write_all(b"\n")?;
            return Ok(1);
        }
        while !self.seq.is_empty() {
            self.pop();
        }
        if !self.fill_to(self.len) {
            return Ok(0);
        }
        let text = Texts::new(&self.values, separator)?;
        let mut buffer = Buffer::new(&text, self.len, chunk);
        let lines = match Tails::new(&self) {
            Some(tails) => {
                while self.seq.len() > self.len - tails.k {
                    self.pop();
                }
                write_by_tails(&mut self, &tails, &text, &mut buffer, out)?
            }
            None => write_by_steps(&mut self, &text, &mut buffer, out)?,
        };
        out.write_all(&buffer.bytes[..buffer.at])?;
        Ok(lines)
    }
}

/// The output buffer: the lines made, a chunk's worth at most before they
/// are handed over, and room past the chunk for one more line with a slot's
/// overhang. Each new line starts as a copy of the last line's first bytes.
struct Buffer {
    bytes: Vec<u8>,
    /// Where the next line starts (the end of the lines made).
    at: usize,
    /// Where the last line made starts.
    line: usize,
    /// Lines are handed over once `at` reaches this.
    chunk: usize,
}

impl Buffer {
    fn new(text: &Texts, len: usize, chunk: usize) -> Buffer {
        let longest = text.longest * len + 1;
        Buffer { bytes: vec![0u8; chunk + longest + 2 * text.width + 64], at: 0, line: 0, chunk }
    }

    /// Starts a new line with the first `keep` bytes of the last one (after
    /// handing the lines made to `out` when a chunk is full) and returns
    /// where the rest of it goes.
    #[inline(always)]
    fn next_line<W: Write + ?Sized>(&mut self, keep: usize, out: &mut W) -> io::Result<usize> {
        if self.at >= self.chunk {
            self.hand_over(keep, out)?;
        } else {
            copy_prefix(&mut self.bytes, self.line, self.at, keep);
            self.line = self.at;
        }
        Ok(self.line + keep)
    }

    /// Hands the lines made to `out` and starts the next line at the front
    /// with the first `keep` bytes of the last one.
    #[cold]
    #[inline(never)]
    fn hand_over<W: Write + ?Sized>(&mut self, keep: usize, out: &mut W) -> io::Result<()> {
        out.write_all(&self.bytes[..self.at])?;
        self.bytes.copy_within(self.line..self.line + keep, 0);
        self.line = 0;
        Ok(())
    }

    /// Ends the line being made at `end` with a newline.
    #[inline]
    fn end_line(&mut self, end: usize) {
        self.bytes[end] = b'\n';
        self.at = end + 1;
    }
}

/// The last `k` positions' patterns (see the module docs).
struct Tails {
    k: usize,
    /// The entries, `k` indices each, in lexicographic order: ranks among
    /// the values left when `ranked`, else indices into the values.
    patterns: Vec<u32>,
    /// Whether the patterns hold ranks among the values the prefix left.
    ranked: bool,
    /// For each entry, the first of its `k` positions that differs from
    /// the entry before it (0 for the first).
    changed: Vec<u32>,
    /// For sorted shapes, `from[s]`: the first entry whose first index is at
    /// least `s`, for every `s` up to the number of values.
    from: Vec<usize>,
}

impl Tails {
    /// The table for `space`, or `None` when its tails depend on the prefix
    /// (multisets drawn each copy once, unsorted or non-decreasing).
    fn new<T>(space: &Choose<T>) -> Option<Tails> {
        let (shape, repetition) = (space.shape, space.repetition);
        let uniform = match (shape, repetition) {
            (Shape::Increasing, _) | (_, Repetition::Unlimited) => true,
            (_, Repetition::Once) => space.copies.iter().all(|&c| c == 1),
        };
        if !uniform {
            return None;
        }
        let n = space.values.len();
        let len = space.len;
        let ranked = shape == Shape::Any && repetition == Repetition::Once;
        // The tail's own space: over the ranks of the values left, or over all the values.
        let table = |k: usize| {
            let r = if ranked { n - (len - k) } else { n };
            Choose::new(0..r as u32, k, shape, repetition)
        };
        let lines = |k: usize| table(k).count().unwrap_or(u128::MAX);
        let mut k = 1;
        while k < len && lines(k) < MIN_TAIL_LINES {
            k += 1;
        }
        if k > 1 && lines(k) > MAX_TAIL_LINES {
            k -= 1;
        }
        let mut walk = table(k);
        let (mut patterns, mut changed) = (Vec::new(), Vec::new());
        if walk.fill_to(k) {
            changed.push(0);
            loop {
                patterns.extend_from_slice(&walk.seq);
                match walk.advance_to(k) {
                    Some(at) => changed.push(at as u32),
                    None => break,
                }
            }
        }
        let mut from = Vec::new();
        if shape != Shape::Any {
            let mut entry = 0;
            for s in 0..=n as u32 {
                while entry * k < patterns.len() && patterns[entry * k] < s {
                    entry += 1;
                }
                from.push(entry);
            }
        }
        Some(Tails { k, patterns, changed, ranked, from })
    }
}

/// A tail table in bytes, for [`Stamp`], where it fits: at most 16
/// positions, at most 256 values to name, slots of 16 bytes.
struct Small {
    patterns: Vec<u8>,
    changed: Vec<u8>,
    slots: Box<[[u8; 16]; 256]>,
    lens: Box<[[usize; 2]; 256]>,
}

impl Small {
    fn new(tails: &Tails, names: usize, text: &Texts) -> Option<Small> {
        if tails.k > 16 || names > 256 || text.width != 16 {
            return None;
        }
        Some(Small {
            patterns: tails.patterns.iter().map(|&n| n as u8).collect(),
            changed: tails.changed.iter().map(|&c| c as u8).collect(),
            slots: Box::new([[0; 16]; 256]),
            lens: Box::new([[0; 2]; 256]),
        })
    }

    /// Gives each number the slot of the value it names.
    fn name(&mut self, names: &[u32], text: &Texts) {
        for (number, &i) in names.iter().enumerate() {
            self.slots[number] = text.slot(i).try_into().expect("16-byte slots");
            self.lens[number] = [text.len(i), text.len(i) + text.separator];
        }
    }
}

/// Writes the lines of every prefix of `space` (from its current one, of
/// length `len - tails.k`) with each of its tails, and returns their number.
fn write_by_tails<T: Clone, W: Write + ?Sized>(
    space: &mut Choose<T>,
    tails: &Tails,
    text: &Texts,
    buffer: &mut Buffer,
    out: &mut W,
) -> io::Result<u64> {
    let k = tails.k;
    let len = space.len;
    let depth = len - k;
    // Index of the value named by each entry's number (rank or index).
    let mut names: Vec<u32> = (0..space.values.len() as u32).collect();
    let mut small = Small::new(tails, names.len(), text);
    if let Some(small) = &mut small {
        small.name(&names, text);
    }
    let mut blocks = TailBlocks::new(tails, names.len());
    // `ends[j]`: where the text of position j (with its separator) ends in the line.
    let mut ends = vec![0usize; len];
    let mut lines = 0u64;
    // The first position of the prefix that differs from the line above.
    let mut changed = 0;
    loop {
        if tails.ranked {
            // The values left, increasing: rank `j` names the `j`-th.
            names.clear();
            names.extend((0..space.values.len() as u32).filter(|&i| space.left[i as usize] > 0));
        }
        let first = match space.shape {
            Shape::Any => 0,
            // The first value the prefix allows; the walk made sure one does.
            _ => space.next_usable(space.start()).map_or(tails.patterns.len() / k, |s| tails.from[s as usize]),
        };
        let entries = &tails.patterns[first * k..];
        let count = entries.len() / k;
        if let (true, Some(small)) = (tails.ranked, &mut small) {
            small.name(&names, text);
        }
        let mut e = 0;
        while e < count {
            if e > 0 {
                if let Some(block) = blocks.as_mut().and_then(|b| b.get(&names, tails, text)) {
                    let prefix = if depth == 0 { 0 } else { ends[depth - 1] };
                    block.write(e, prefix, buffer, out)?;
                    break;
                }
            }
            if let (true, Some(small)) = (e > 0, &small) {
                let mut tail_ends = [0usize; 16];
                tail_ends[..k].copy_from_slice(&ends[depth..]);
                let stamp = Stamp {
                    patterns: &small.patterns[first * k..],
                    changed: &small.changed[first..],
                    slots: &small.slots,
                    lens: &small.lens,
                    k,
                    prefix: if depth == 0 { 0 } else { ends[depth - 1] },
                };
                e = stamp.lines(e, buffer, &mut tail_ends);
                ends[depth..].copy_from_slice(&tail_ends[..k]);
                if e == count {
                    break;
                }
            }
            // The first line of a prefix rewrites it from its first change and
            // then the whole tail; the others, the tail from its first change.
            let pattern = &entries[e * k..e * k + k];
            let from = if e == 0 { changed } else { depth + tails.changed[first + e] as usize };
            let keep = if from == 0 { 0 } else { ends[from - 1] };
            let mut at = buffer.next_line(keep, out)?;
            let line = buffer.line;
            let head = from.min(depth);
            at = text.put_all(
                &mut buffer.bytes,
                at,
                line,
                space.seq[head..depth].iter().copied(),
                &mut ends[head..depth],
            );
            let (&last, init) = pattern.split_last().expect("k is at least 1");
            let tail = from.max(depth);
            let values = init[tail - depth..].iter().map(|&n| names[n as usize]);
            at = text.put_all(&mut buffer.bytes, at, line, values, &mut ends[tail..len - 1]);
            let i = names[last as usize];
            text.put(&mut buffer.bytes, at, i);
            buffer.end_line(at + text.len(i));
            e += 1;
        }
        lines += (entries.len() / k) as u64;
        match space.advance_to(depth) {
            Some(at) => changed = at,
            None => return Ok(lines),
        }
    }
}

/// The tails of full permutations rendered once per set of values left:
/// after a prefix, every line is the prefix's bytes and then the bytes of
/// one tail, which arranges all the values the prefix left; those bytes
/// depend only on which values they are (their ranks run through the same
/// patterns), so each set's tails are made once and then copied in 16-byte
/// blocks, a few moves a line.
struct TailBlocks {
    /// By the set of values left (bit `i` for value `i`).
    blocks: HashMap<u128, Block, BuildHasherDefault<SetHasher>>,
    /// Bytes held by `blocks`; no new set is rendered past [`MAX_BLOCK_BYTES`].
    bytes: usize,
}

/// Hashes a set of values (a `u128` of bits) with one multiply: the keys
/// come from this program, not from its input's attacker, and the lookup
/// runs once a prefix.
#[derive(Default)]
struct SetHasher(u64);

impl Hasher for SetHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = (n as u64 ^ (n >> 64) as u64 ^ self.0).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Most bytes of rendered tails kept.
const MAX_BLOCK_BYTES: usize = 32 << 20;

/// One set's tails: each `len` bytes (all the same, the values being the
/// same), its last byte the newline, one after another, then 16 bytes of
/// padding for the last block move.
struct Block {
    len: usize,
    count: usize,
    bytes: Vec<u8>,
}

impl TailBlocks {
    /// Blocks for `tails` over `n` values, when they are permutations'
    /// tails (ranked) of at most 128 values.
    fn new(tails: &Tails, n: usize) -> Option<TailBlocks> {
        (tails.ranked && n <= 128).then(|| TailBlocks { blocks: HashMap::default(), bytes: 0 })
    }

    /// The tails after a prefix that left the values `names` (increasing),
    /// made on first use; `None` when the tails do not use every value
    /// left (their lengths would differ) or the memory for them is spent.
    fn get(&mut self, names: &[u32], tails: &Tails, text: &Texts) -> Option<&Block> {
        if names.len() != tails.k {
            return None;
        }
        let key = names.iter().fold(0u128, |set, &i| set | 1 << i);
        let spare = MAX_BLOCK_BYTES.saturating_sub(self.bytes);
        match self.blocks.entry(key) {
            Entry::Occupied(found) => Some(found.into_mut()),
            Entry::Vacant(place) => {
                let block = Block::render(names, tails, text, spare)?;
                self.bytes += block.bytes.len();
                Some(place.insert(block))
            }
        }
    }
}

impl Block {
    /// The tails of `tails` over the values `names`, or `None` past
    /// `spare` bytes.
    fn render(names: &[u32], tails: &Tails, text: &Texts, spare: usize) -> Option<Block> {
        let k = tails.k;
        let count = tails.patterns.len() / k;
        let len: usize = names.iter().map(|&i| text.len(i)).sum::<usize>() + (k - 1) * text.separator + 1;
        if count * len + 16 > spare {
            return None;
        }
        let mut bytes = Vec::with_capacity(count * len + 16);
        for pattern in tails.patterns.chunks_exact(k) {
            for (j, &rank) in pattern.iter().enumerate() {
                let i = names[rank as usize];
                let slot = text.slot(i);
                let end = if j + 1 < k { text.len(i) + text.separator } else { text.len(i) };
                bytes.extend_from_slice(&slot[..end]);
            }
            bytes.push(b'\n');
        }
        bytes.resize(count * len + 16, 0);
        Some(Block { len, count, bytes })
    }
}

impl Block {
    /// Writes the lines of tails `from..` after the last line made, each a
    /// copy of its first `prefix` bytes (the prefix) and then the tail.
    ///
    /// A hot loop: two or three 16-byte moves a line, the buffer's room
    /// checked once a call.
    fn write<W: Write + ?Sized>(&self, from: usize, prefix: usize, buffer: &mut Buffer, out: &mut W) -> io::Result<()> {
        let len = self.len;
        assert!(self.bytes.len() >= self.count * len + 16, "tails padded for the last move");
        // Room past the chunk for one line and a block's overhang.
        assert!(buffer.bytes.len() - buffer.chunk >= prefix + len + 32);
        for e in from..self.count {
            let start = if buffer.at >= buffer.chunk {
                buffer.hand_over(prefix, out)?;
                0
            } else {
                buffer.at
            };
            let (line, to) = (buffer.line, start + prefix);
            let bytes = buffer.bytes.as_mut_ptr();
            if prefix <= 16 && len <= 16 {
                // SAFETY: as below, with one block each for the prefix and the tail.
                unsafe {
                    let block = std::ptr::read_unaligned(bytes.add(line) as *const [u8; 16]);
                    std::ptr::write_unaligned(bytes.add(start) as *mut [u8; 16], block);
                    let tail = std::ptr::read_unaligned(self.bytes.as_ptr().add(e * len) as *const [u8; 16]);
                    std::ptr::write_unaligned(bytes.add(to) as *mut [u8; 16], tail);
                }
                buffer.line = start;
                buffer.at = to + len;
                continue;
            }
            // SAFETY: `start` is at most the chunk, so the line made here
            // (`prefix + len` bytes) and the 16-byte overhang of its last
            // block lie in the room asserted above. The prefix is read from
            // the line above (below `start`, or the copy `hand_over` left at
            // the front when `start` is 0, then read in place), and the tail
            // from `self.bytes`, whose padding covers the last block.
            unsafe {
                if start != 0 {
                    let mut b = 0;
                    while b < prefix {
                        let block = std::ptr::read_unaligned(bytes.add(line + b) as *const [u8; 16]);
                        std::ptr::write_unaligned(bytes.add(start + b) as *mut [u8; 16], block);
                        b += 16;
                    }
                }
                let tail = self.bytes.as_ptr().add(e * len);
                let mut b = 0;
                while b < len {
                    let block = std::ptr::read_unaligned(tail.add(b) as *const [u8; 16]);
                    std::ptr::write_unaligned(bytes.add(to + b) as *mut [u8; 16], block);
                    b += 16;
                }
            }
            buffer.line = start;
            buffer.at = to + len;
        }
        Ok(())
    }
}

/// One prefix's tails, for [`Stamp::lines`]: entries of at most 16
/// numbers below 256, each naming a value in a 16-byte slot.
struct Stamp<'a> {
    /// The prefix's entries, `k` numbers each.
    patterns: &'a [u8],
    /// For each entry, its first position that differs from the entry before.
    changed: &'a [u8],
    /// The text and separator of the value each number names.
    slots: &'a [[u8; 16]; 256],
    /// The length of each number's text, without and with the separator.
    lens: &'a [[usize; 2]; 256],
    k: usize,
    /// Bytes of the prefix's values and separators, at the front of every line.
    prefix: usize,
}

impl Stamp<'_> {
    /// Writes the lines of entries `e..` (`e` at least 1), each after the
    /// last line made and a copy of it up to the first position its entry
    /// changed, until the entries run out or a chunk is full (the line that
    /// fills it is made). `ends[j]` is where the tail's position `j` ends in
    /// the last line. Returns the entry reached.
    ///
    /// The hot loop of [`Choose::write_all`]: a few 16-byte moves a line, the
    /// buffer's room checked once a call.
    #[inline(never)]
    fn lines(&self, mut e: usize, buffer: &mut Buffer, ends: &mut [usize; 16]) -> usize {
        let k = self.k;
        assert!((1..=16).contains(&k));
        let count = (self.patterns.len() / k).min(self.changed.len());
        // Room past the chunk for one line of the longest values and two blocks' overhang.
        let longest = self.lens.iter().map(|l| l[1]).max().unwrap_or(0);
        assert!(buffer.bytes.len() - buffer.chunk >= self.prefix + longest * k + 1 + 32);
        let bytes = buffer.bytes.as_mut_ptr();
        while e < count && buffer.at < buffer.chunk {
            let pattern = &self.patterns[e * k..e * k + k];
            let c = self.changed[e] as usize % k;
            let (line, mut at) = (buffer.line, buffer.at);
            let keep = if c == 0 { self.prefix } else { ends[(c - 1) % 16] }.min(at - line);
            // SAFETY: the line above lies between `line` and `at`, which is
            // below the chunk, and `keep` is at most its length: the blocks
            // read lie below `at` plus 16, and those written below `at` plus
            // the line's length plus 16, in the room asserted above.
            unsafe {
                let mut b = 0;
                while b < keep {
                    let block = std::ptr::read_unaligned(bytes.add(line + b) as *const [u8; 16]);
                    std::ptr::write_unaligned(bytes.add(at + b) as *mut [u8; 16], block);
                    b += 16;
                }
            }
            let new_line = at;
            at += keep;
            for j in c..k - 1 {
                let i = pattern[j] as usize;
                // SAFETY: `at` is inside this line, whose prefix and values
                // with separators end at most `prefix + longest * k` past
                // `new_line`; a slot's 16 bytes fit in the room asserted above.
                unsafe { std::ptr::write_unaligned(bytes.add(at) as *mut [u8; 16], self.slots[i]) };
                at += self.lens[i][1];
                ends[j % 16] = at - new_line;
            }
            let i = pattern[k - 1] as usize;
            // SAFETY: as for the values before it; the newline is the line's last byte.
            unsafe {
                std::ptr::write_unaligned(bytes.add(at) as *mut [u8; 16], self.slots[i]);
                at += self.lens[i][0];
                *bytes.add(at) = b'\n';
            }
            buffer.line = new_line;
            buffer.at = at + 1;
            e += 1;
        }
        e
    }
}

/// Writes the line of `space`'s current sequence and of each one after it,
/// one step of the walk at a time, and returns their number. Each line is
/// the line above with its bytes from the first changed position on
/// rewritten.
fn write_by_steps<T: Clone, W: Write + ?Sized>(
    space: &mut Choose<T>,
    text: &Texts,
    buffer: &mut Buffer,
    out: &mut W,
) -> io::Result<u64> {
    let len = space.len;
    // `ends[k]`: where the text of position k (with its separator) ends in the line.
    let mut ends = vec![0usize; len];
    let last = len - 1;
    let mut changed = 0;
    let mut lines = 0u64;
    loop {
        // Positions before `changed` kept their bytes, copied from the line above.
        let keep = if changed == 0 { 0 } else { ends[changed - 1] };
        let mut at = buffer.next_line(keep, out)?;
        at = text.put_all(
            &mut buffer.bytes,
            at,
            buffer.line,
            space.seq[changed..last].iter().copied(),
            &mut ends[changed..last],
        );
        let i = space.seq[last];
        text.put(&mut buffer.bytes, at, i);
        buffer.end_line(at + text.len(i));
        lines += 1;
        let Some(next) = space.advance_to(len) else {
            return Ok(lines);
        };
        changed = next;
    }
}

/// Copies the first `len` bytes of the line at `from` to `to` (after it), in
/// 16-byte blocks: the block that passes `len` writes bytes the new line's
/// rest overwrites, and every byte below `len` is read before `to`, so from
/// the line above.
#[inline]
fn copy_prefix(buffer: &mut [u8], from: usize, to: usize, len: usize) {
    let mut k = 0;
    while k < len {
        let block: [u8; 16] = buffer[from + k..from + k + 16].try_into().expect("16 bytes");
        buffer[to + k..to + k + 16].copy_from_slice(&block);
        k += 16;
    }
}

/// Every distinct value's text followed by the separator, in slots of one
/// width (a multiple of 16), so a value is written with one fixed-size copy.
struct Texts {
    slots: Vec<u8>,
    lens: Vec<usize>,
    /// Bytes per slot.
    width: usize,
    /// The longest text plus the separator.
    longest: usize,
    /// Bytes in the separator.
    separator: usize,
}

impl Texts {
    fn new<T: Display>(values: &[T], separator: &[u8]) -> io::Result<Texts> {
        let mut texts = Vec::with_capacity(values.len());
        for value in values {
            let mut text = Vec::new();
            write!(text, "{value}")?;
            texts.push(text);
        }
        let longest = texts.iter().map(Vec::len).max().unwrap_or(0) + separator.len();
        let width = longest.max(1).div_ceil(16) * 16;
        let mut slots = vec![0u8; width * texts.len()];
        let mut lens = Vec::with_capacity(texts.len());
        for (slot, text) in slots.chunks_exact_mut(width).zip(&texts) {
            slot[..text.len()].copy_from_slice(text);
            slot[text.len()..text.len() + separator.len()].copy_from_slice(separator);
            lens.push(text.len());
        }
        Ok(Texts { slots, lens, width, longest, separator: separator.len() })
    }

    #[inline]
    fn slot(&self, i: u32) -> &[u8] {
        let at = i as usize * self.width;
        &self.slots[at..at + self.width]
    }

    /// Writes the slot of value `i` at `at`: one 16-byte move for the usual width.
    #[inline]
    fn put(&self, buffer: &mut [u8], at: usize, i: u32) {
        if self.width == 16 {
            let slot: [u8; 16] = self.slot(i).try_into().expect("16 bytes");
            buffer[at..at + 16].copy_from_slice(&slot);
        } else {
            buffer[at..at + self.width].copy_from_slice(self.slot(i));
        }
    }

    /// Writes values `values` with their separators from `at`, in the line
    /// that starts at `line`, and sets `ends` to where each ends in the
    /// line. Returns where the next value goes.
    #[inline]
    fn put_all(
        &self,
        buffer: &mut [u8],
        mut at: usize,
        line: usize,
        values: impl IntoIterator<Item = u32>,
        ends: &mut [usize],
    ) -> usize {
        for (i, end) in values.into_iter().zip(ends) {
            self.put(buffer, at, i);
            at += self.len(i) + self.separator;
            *end = at - line;
        }
        at
    }

    /// The length of value `i`'s text, without the separator.
    #[inline]
    fn len(&self, i: u32) -> usize {
        self.lens[i as usize]
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every sequence of length `len` over `pool` by plain recursion: at each
    /// position every distinct value in increasing order, kept when the shape
    /// and the copies allow it. Written without the enumerator's machinery.
    fn plain_lines(pool: &[i64], len: usize, shape: Shape, repetition: Repetition, separator: &str) -> String {
        let mut values = pool.to_vec();
        values.sort();
        values.dedup();
        let given: Vec<usize> = values.iter().map(|v| pool.iter().filter(|p| *p == v).count()).collect();
        let mut lines = String::new();
        let mut seq = Vec::new();
        #[allow(clippy::too_many_arguments)]
        fn extend(
            values: &[i64],
            given: &[usize],
            len: usize,
            shape: Shape,
            repetition: Repetition,
            separator: &str,
            seq: &mut Vec<usize>,
            lines: &mut String,
        ) {
            if seq.len() == len {
                let texts: Vec<String> = seq.iter().map(|&i| values[i].to_string()).collect();
                lines.push_str(&texts.join(separator));
                lines.push('\n');
                return;
            }
            for i in 0..values.len() {
                let used = seq.iter().filter(|&&j| j == i).count();
                let allowed = match (shape, repetition) {
                    (Shape::Increasing, _) => 1,
                    (_, Repetition::Unlimited) => usize::MAX,
                    (_, Repetition::Once) => given[i],
                };
                let in_order = match (shape, seq.last()) {
                    (Shape::Any, _) | (_, None) => true,
                    (Shape::Increasing, Some(&last)) => i > last,
                    (Shape::NonDecreasing, Some(&last)) => i >= last,
                };
                if used < allowed && in_order {
                    seq.push(i);
                    extend(values, given, len, shape, repetition, separator, seq, lines);
                    seq.pop();
                }
            }
        }
        extend(&values, &given, len, shape, repetition, separator, &mut seq, &mut lines);
        lines
    }

    fn written(
        pool: &[i64],
        len: usize,
        shape: Shape,
        repetition: Repetition,
        separator: &str,
        chunk: usize,
    ) -> String {
        let mut text = Vec::new();
        let lines = Choose::new(pool.iter().copied(), len, shape, repetition).write_in_chunks(
            &mut text,
            separator.as_bytes(),
            chunk,
        );
        let text = String::from_utf8(text).unwrap();
        assert_eq!(lines.unwrap() as usize, text.matches('\n').count());
        text
    }

    const SHAPES: [(Shape, Repetition); 6] = [
        (Shape::Any, Repetition::Once),
        (Shape::Any, Repetition::Unlimited),
        (Shape::Increasing, Repetition::Once),
        (Shape::Increasing, Repetition::Unlimited),
        (Shape::NonDecreasing, Repetition::Once),
        (Shape::NonDecreasing, Repetition::Unlimited),
    ];

    /// Every pool `1..=n` and every length up to 7, every shape, against the
    /// plain enumerator (lines past a length of 7 are only longer, not new).
    #[test]
    fn every_small_range_is_the_plain_enumeration() {
        for n in 0..=7i64 {
            for len in 0..=7 {
                let pool: Vec<i64> = (1..=n).collect();
                for (shape, repetition) in SHAPES {
                    if shape == Shape::Any && repetition == Repetition::Unlimited && len > 6 {
                        continue; // 7^7 lines: the same patterns as 7^6, a million more
                    }
                    let plain = plain_lines(&pool, len, shape, repetition, " ");
                    for chunk in [OUT_CHUNK, 100] {
                        let got = written(&pool, len, shape, repetition, " ", chunk);
                        assert!(got == plain, "1..={n} len {len} {shape:?} {repetition:?} chunk {chunk}");
                    }
                }
            }
        }
    }

    proptest! {
        /// Any pool (repeats, negative and many-digit values), any length,
        /// shape, separator and chunk: the plain enumerator's bytes.
        #[test]
        fn any_pool_is_the_plain_enumeration(
            pool in proptest::collection::vec(prop_oneof![0i64..6, -1000i64..100_000], 0..9),
            len in 0usize..6,
            shape_at in 0usize..6,
            separator in prop_oneof![Just(" "), Just(""), Just(", "), Just("<<a separator longer than 16>>")],
            chunk in prop_oneof![Just(OUT_CHUNK), 1usize..300],
        ) {
            let (shape, repetition) = SHAPES[shape_at];
            let plain = plain_lines(&pool, len, shape, repetition, separator);
            let got = written(&pool, len, shape, repetition, separator, chunk);
            prop_assert!(got == plain, "{:?} len {} {:?} {:?}", pool, len, shape, repetition);
        }
    }
}
