//! Every solution as text, in lexicographic order, at close to the speed of
//! the output: lines are formatted in place while the search descends (each
//! row's column text is written once per node, not once per solution) and
//! copied into large byte buffers, with no allocation per line.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::search::{split, Order, ThreadStartError, Threads};

use super::kernel::{full_mask, MAX_N};
use super::{QueensSpace, SizeError};

/// Bytes gathered before a buffer is handed on.
const CHUNK: usize = 1 << 20;

/// Longest time solutions wait in a buffer before it is handed on anyway,
/// so that sparse solutions (tens per second on big boards) reach the
/// reader at once. The clock is read once every [`CLOCK_EVERY`] solutions.
const LONGEST_WAIT: std::time::Duration = std::time::Duration::from_millis(100);
const CLOCK_EVERY: u64 = 16;

/// Buffers a piece may have in flight before its worker waits for the writer.
const CHUNKS_IN_FLIGHT: usize = 4;

/// The lexicographically ordered prefixes of length `depth` (fewer rows where
/// the board is smaller) of every placement that is still free of attacks,
/// from the search core's splitter on [`QueensSpace`]. Writing each prefix's
/// solutions in this order gives the whole list in lexicographic order.
pub fn lex_prefixes(n: usize, depth: usize) -> Result<Vec<Vec<u8>>, SizeError> {
    let mut space = QueensSpace::new(n)?;
    Ok(split(&mut space, Order::Lexicographic, depth))
}

/// Appends to `buf`, in lexicographic order, every solution of the `n`-queens
/// board whose first rows hold `prefix` (0-based columns): one line each,
/// 1-based columns separated by single spaces. Whenever `buf` holds about a
/// megabyte or has waited a tenth of a second (checked every few
/// solutions), and once at the end, `emit` is called to take the buffered
/// lines (it should drain `buf`; an error stops the walk and is returned).
/// Returns the number of solutions written. An invalid prefix has none.
pub fn write_solutions(
    n: usize,
    prefix: &[u8],
    buf: &mut Vec<u8>,
    emit: &mut dyn FnMut(&mut Vec<u8>) -> io::Result<()>,
) -> Result<u64, WriteError> {
    if !(1..=MAX_N).contains(&n) {
        return Err(SizeError(n).into());
    }
    let count = walk(n, prefix, buf, emit)?;
    emit(buf)?;
    Ok(count)
}

/// Why writing solutions stopped.
#[derive(Debug)]
pub enum WriteError {
    /// The board size is out of range.
    Size(SizeError),
    /// Writing failed.
    Io(io::Error),
    /// The threads to search on could not start.
    Threads(ThreadStartError),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Size(e) => e.fmt(f),
            WriteError::Io(e) => e.fmt(f),
            WriteError::Threads(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Size(e) => Some(e),
            WriteError::Io(e) => Some(e),
            WriteError::Threads(e) => Some(e),
        }
    }
}

impl From<SizeError> for WriteError {
    fn from(e: SizeError) -> Self {
        WriteError::Size(e)
    }
}

impl From<ThreadStartError> for WriteError {
    fn from(e: ThreadStartError) -> Self {
        WriteError::Threads(e)
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// Hands `buf` to `emit` when it is full or has waited [`LONGEST_WAIT`].
#[cold]
#[inline(never)]
fn hand_on(
    buf: &mut Vec<u8>,
    last_emit: &mut std::time::Instant,
    emit: &mut dyn FnMut(&mut Vec<u8>) -> io::Result<()>,
) -> io::Result<()> {
    if buf.len() >= CHUNK || last_emit.elapsed() >= LONGEST_WAIT {
        emit(buf)?;
        *last_emit = std::time::Instant::now();
    }
    Ok(())
}

/// Text of each column (0-based index) as written after a row separator: a
/// space and the 1-based number, padded to 3 bytes, with its true length.
const TOKENS: [([u8; 3], usize); MAX_N] = {
    let mut table = [([0u8; 3], 0usize); MAX_N];
    let mut col = 0;
    while col < MAX_N {
        let v = col as u8 + 1;
        table[col] = if v < 10 { ([b' ', b'0' + v, 0], 2) } else { ([b' ', b'0' + v / 10, b'0' + v % 10], 3) };
        col += 1;
    }
    table
};

#[inline(always)]
fn token(col: usize) -> ([u8; 3], usize) {
    TOKENS[col & (MAX_N - 1)]
}

fn walk(
    n: usize,
    prefix: &[u8],
    buf: &mut Vec<u8>,
    emit: &mut dyn FnMut(&mut Vec<u8>) -> io::Result<()>,
) -> io::Result<u64> {
    let mask = full_mask(n);
    // The column of each row's queen; lines are formatted only at leaves
    // (a few dozen nodes per solution), from the token table.
    let mut cols = [0u8; MAX_N];
    let (mut left, mut down, mut right) = (0u32, 0u32, 0u32);
    for (row, &col) in prefix.iter().enumerate() {
        let bit = 1u32.checked_shl(col as u32).unwrap_or(0);
        if row >= n || bit & mask & !(left | down | right) == 0 {
            return Ok(0);
        }
        cols[row] = col;
        left = (left | bit) << 1;
        down |= bit;
        right = (right | bit) >> 1;
    }
    let start = prefix.len();
    let mut found = 0u64;
    let mut last_emit = std::time::Instant::now();
    let mut finish_line = |cols: &[u8], buf: &mut Vec<u8>| -> io::Result<()> {
        let mut line = [0u8; 3 * MAX_N + 1];
        let mut len = 0;
        for &col in cols {
            let (text, width) = token(col as usize);
            line[len..len + 3].copy_from_slice(&text);
            len += width;
        }
        // Every token starts with a separator: drop the first, end the line.
        line[len] = b'\n';
        buf.extend_from_slice(&line[1..=len]);
        found += 1;
        if buf.len() >= CHUNK || found & (CLOCK_EVERY - 1) == 1 {
            hand_on(buf, &mut last_emit, emit)?;
        }
        Ok(())
    };
    if start == n {
        finish_line(&cols[..n], buf)?;
        return Ok(found);
    }
    let mut lefts = [0u32; MAX_N];
    let mut downs = [0u32; MAX_N];
    let mut rights = [0u32; MAX_N];
    let mut avails = [0u32; MAX_N];
    let mut row = start;
    lefts[row] = left;
    downs[row] = down;
    rights[row] = right;
    avails[row] = mask & !(left | down | right);
    let last = n - 1;
    loop {
        let avail = avails[row];
        if avail == 0 {
            if row == start {
                break;
            }
            row -= 1;
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        avails[row] = avail ^ bit;
        cols[row] = bit.trailing_zeros() as u8;
        if row == last {
            finish_line(&cols[..n], buf)?;
            continue;
        }
        let l = (lefts[row] | bit) << 1;
        let d = downs[row] | bit;
        let r = (rights[row] | bit) >> 1;
        row += 1;
        lefts[row] = l;
        downs[row] = d;
        rights[row] = r;
        avails[row] = mask & !(l | d | r);
    }
    Ok(found)
}

/// Writes every solution of the `n`-queens board to `out` in lexicographic
/// order, in the format of [`write_solutions`], searching on `threads`
/// threads. The board is cut into prefixes that workers take
/// in order; each worker passes its buffers to the calling thread, which
/// writes them piece by piece, so the output is the sequential one while
/// memory stays bounded (a few buffers per worker). Returns the number of
/// solutions written.
pub fn par_write_solutions(n: usize, threads: Threads, out: &mut dyn Write) -> Result<u128, WriteError> {
    if threads == Threads::ONE || n < 8 {
        let mut buf = Vec::with_capacity(CHUNK + 128);
        let mut emit = |b: &mut Vec<u8>| -> io::Result<()> {
            out.write_all(b)?;
            b.clear();
            Ok(())
        };
        return write_solutions(n, &[], &mut buf, &mut emit).map(u128::from);
    }
    let pieces = lex_prefixes(n, if n < 12 { 2 } else { 3 })?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (senders, receivers): (Vec<_>, Vec<_>) =
        (0..pieces.len()).map(|_| mpsc::sync_channel::<Vec<u8>>(CHUNKS_IN_FLIGHT)).unzip();
    let senders: Vec<_> = senders.into_iter().map(|s| std::sync::Mutex::new(Some(s))).collect();
    let result = std::thread::scope(|scope| {
        crate::search::spawn_all(scope, threads.get(), threads, |_| {
            || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= pieces.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let Some(tx) = senders[i].lock().ok().and_then(|mut s| s.take()) else { break };
                let mut buf = Vec::with_capacity(CHUNK + 128);
                let mut emit = |b: &mut Vec<u8>| -> io::Result<()> {
                    if b.is_empty() {
                        return Ok(());
                    }
                    let full = std::mem::replace(b, Vec::with_capacity(CHUNK + 128));
                    // A send fails only when the writer has given up.
                    tx.send(full).map_err(|_| io::Error::other("output closed"))
                };
                if write_solutions(n, &pieces[i], &mut buf, &mut emit).is_err() {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        })?;
        // The receivers live in this closure: returning early drops them,
        // which makes every blocked worker's send fail, so the scope can end.
        let receivers = receivers;
        let mut written = 0u128;
        for rx in &receivers {
            for chunk in rx.iter() {
                written += chunk.iter().filter(|&&b| b == b'\n').count() as u128;
                if let Err(e) = out.write_all(&chunk) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e.into());
                }
            }
        }
        Ok(written)
    });
    result
}
