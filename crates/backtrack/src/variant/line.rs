//! Rules read along a line, as small automata: sandwiches and lunchboxes,
//! X-sums, skyscrapers and sum lines.
//!
//! Each rule is a nondeterministic automaton whose letters are values: a
//! state remembers what the rule needs of the cells read so far (a running
//! sum, the tallest value seen, ...). Propagation runs it forwards (the
//! states reachable after each cell, given the candidates) and backwards
//! (those from which an accepting state stays reachable); a value survives
//! in a cell when some transition on it joins two such states. This keeps
//! exactly the values that appear in some assignment of the line that
//! keeps the rule, the line taken alone.

use std::collections::HashMap;
use std::hash::Hash;

use super::model::Mask;

/// Most states one line's automaton may have.
pub const MAX_STATES: usize = 1 << 16;

/// A line rule's automaton, with its scratch space.
#[derive(Debug, Clone)]
pub struct LineRule {
    /// The cells, in reading order.
    pub cells: Vec<u8>,
    words: usize,
    starts: Vec<u64>,
    accept: Vec<u64>,
    /// Transitions of state `s`: `edges[first[s]..first[s + 1]]`, as (value index, target).
    first: Vec<u32>,
    edges: Vec<(u8, u32)>,
    /// The states alive before each cell, and after the last (`cells.len() + 1` rows).
    reach: Vec<u64>,
}

/// What stopped an automaton from being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl LineRule {
    /// Builds the automaton whose states are the keys reachable from
    /// `starts` by `step` (a key and a value 1..=`size` to the next key, or
    /// `None`), accepting the keys where `accept` holds.
    pub fn build<K: Hash + Eq + Clone>(
        cells: &[usize],
        size: usize,
        starts: Vec<K>,
        step: impl Fn(&K, u8) -> Option<K>,
        accept: impl Fn(&K) -> bool,
    ) -> Result<LineRule, TooLarge> {
        let mut index: HashMap<K, u32> = HashMap::new();
        let mut keys: Vec<K> = Vec::new();
        for k in &starts {
            if !index.contains_key(k) {
                index.insert(k.clone(), keys.len() as u32);
                keys.push(k.clone());
            }
        }
        let mut first = vec![0u32];
        let mut edges = Vec::new();
        let mut s = 0;
        while s < keys.len() {
            for v in 1..=size as u8 {
                if let Some(next) = step(&keys[s], v) {
                    let t = match index.get(&next) {
                        Some(&t) => t,
                        None => {
                            if keys.len() >= MAX_STATES {
                                return Err(TooLarge);
                            }
                            index.insert(next.clone(), keys.len() as u32);
                            keys.push(next);
                            keys.len() as u32 - 1
                        }
                    };
                    edges.push((v - 1, t));
                }
            }
            first.push(edges.len() as u32);
            s += 1;
        }
        let words = keys.len().div_ceil(64);
        let mut start_set = vec![0u64; words];
        for k in &starts {
            let i = index[k] as usize;
            start_set[i / 64] |= 1 << (i % 64);
        }
        let mut accept_set = vec![0u64; words];
        for (i, k) in keys.iter().enumerate() {
            if accept(k) {
                accept_set[i / 64] |= 1 << (i % 64);
            }
        }
        Ok(LineRule {
            cells: cells.iter().map(|&c| c as u8).collect(),
            words,
            starts: start_set,
            accept: accept_set,
            first,
            edges,
            reach: vec![0; words * (cells.len() + 1)],
        })
    }

    /// Narrows the candidates of the line's cells to the values some
    /// accepted reading uses; `false` when none is left. `restrict` applies
    /// a mask to a cell and says whether the cell keeps a value.
    pub fn propagate(&mut self, grid: &[Mask], mut restrict: impl FnMut(usize, Mask) -> bool) -> bool {
        let w = self.words;
        let len = self.cells.len();
        self.reach[..w].copy_from_slice(&self.starts);
        for i in 0..len {
            let cand = grid[self.cells[i] as usize];
            let (before, after) = self.reach.split_at_mut((i + 1) * w);
            let (now, next) = (&before[i * w..], &mut after[..w]);
            next.fill(0);
            let mut any = false;
            for_each_bit(now, |s| {
                for &(v, t) in &self.edges[self.first[s] as usize..self.first[s + 1] as usize] {
                    if cand & (1 << v) != 0 {
                        next[t as usize / 64] |= 1 << (t % 64);
                        any = true;
                    }
                }
            });
            if !any {
                return false;
            }
        }
        // Keep the accepting states after the last cell, then walk back.
        let last = &mut self.reach[len * w..];
        let mut any = false;
        for (r, a) in last.iter_mut().zip(&self.accept) {
            *r &= a;
            any |= *r != 0;
        }
        if !any {
            return false;
        }
        for i in (0..len).rev() {
            let cell = self.cells[i] as usize;
            let cand = grid[cell];
            let (before, after) = self.reach.split_at_mut((i + 1) * w);
            let (now, good) = (&mut before[i * w..], &after[..w]);
            let mut support: Mask = 0;
            for (k, word) in now.iter_mut().enumerate() {
                let mut bits = *word;
                let mut kept = 0u64;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let s = k * 64 + b;
                    let mut alive = false;
                    for &(v, t) in &self.edges[self.first[s] as usize..self.first[s + 1] as usize] {
                        if cand & (1 << v) != 0 && good[t as usize / 64] & (1 << (t % 64)) != 0 {
                            support |= 1 << v;
                            alive = true;
                        }
                    }
                    if alive {
                        kept |= 1 << b;
                    }
                }
                *word = kept;
            }
            if !restrict(cell, support) {
                return false;
            }
        }
        true
    }
}

fn for_each_bit(words: &[u64], mut f: impl FnMut(usize)) {
    for (k, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(k * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// The lunchbox automaton (a sandwich is a lunchbox on a whole row or
/// column): the smallest and largest values, `lo` and `hi`, are guessed at
/// the start; every cell lies strictly between them except the two that
/// hold them, and the cells between those two sum to `sum`.
pub fn lunchbox(cells: &[usize], size: usize, sum: i32) -> Result<LineRule, TooLarge> {
    // State: (lo, hi, phase, which end came first, running sum); phase 0
    // before the first end, 1 between, 2 after the second.
    type Key = (u8, u8, u8, u8, i32);
    let k = cells.len();
    let mut starts = Vec::new();
    for lo in 1..=size as u8 {
        for hi in lo + 1..=size as u8 {
            if (hi - lo) as usize + 1 >= k {
                starts.push((lo, hi, 0, 0, 0));
            }
        }
    }
    let step = move |&(lo, hi, phase, end, run): &Key, v: u8| -> Option<Key> {
        let inside = lo < v && v < hi;
        match phase {
            0 if inside => Some((lo, hi, 0, 0, 0)),
            0 if v == lo || v == hi => Some((lo, hi, 1, v, 0)),
            1 if inside && run + v as i32 <= sum => Some((lo, hi, 1, end, run + v as i32)),
            1 if (v == lo || v == hi) && v != end && run == sum => Some((lo, hi, 2, 0, 0)),
            2 if inside => Some((lo, hi, 2, 0, 0)),
            _ => None,
        }
    };
    LineRule::build(cells, size, starts, step, |&(_, _, phase, _, _)| phase == 2)
}

/// The X-sum automaton: the first X cells sum to `sum`, X the first cell's value.
pub fn x_sum(cells: &[usize], size: usize, sum: i32) -> Result<LineRule, TooLarge> {
    // State: None before the first cell; Some((cells still to add, running sum)), (0, 0) once done.
    type Key = Option<(u8, i32)>;
    let len = cells.len() as u8;
    let step = move |key: &Key, v: u8| -> Option<Key> {
        let (left, run) = match *key {
            None if v > len => return None,
            None => (v, 0),
            Some((0, _)) => return Some(Some((0, 0))),
            Some(k) => k,
        };
        let run = run + v as i32;
        match left - 1 {
            0 if run == sum => Some(Some((0, 0))),
            0 => None,
            more if run < sum => Some(Some((more, run))),
            _ => None,
        }
    };
    LineRule::build(cells, size, vec![None], step, |k| *k == Some((0, 0)))
}

/// The skyscraper automaton: `count` values taller than every one before them.
pub fn skyscraper(cells: &[usize], size: usize, count: i32) -> Result<LineRule, TooLarge> {
    // State: (tallest so far, values seen).
    let step = move |&(top, seen): &(u8, i32), v: u8| -> Option<(u8, i32)> {
        if v > top {
            (seen < count).then_some((v, seen + 1))
        } else {
            Some((top, seen))
        }
    };
    LineRule::build(cells, size, vec![(0, 0)], step, |&(_, seen)| seen == count)
}

/// The sum line automaton: stretches summing to `sum` each; on a loop the
/// stretch across the join is split between the end and the start.
pub fn sum_line(cells: &[usize], size: usize, sum: i32, looped: bool) -> Result<LineRule, TooLarge> {
    // State: (the part of the stretch across the join that the line's end
    // must make up, the running sum of the current stretch).
    let starts: Vec<(i32, i32)> = if looped { (0..sum).map(|c| (c, c)).collect() } else { vec![(0, 0)] };
    let step = move |&(carry, run): &(i32, i32), v: u8| -> Option<(i32, i32)> {
        let run = run + v as i32;
        match run.cmp(&sum) {
            std::cmp::Ordering::Less => Some((carry, run)),
            std::cmp::Ordering::Equal => Some((carry, 0)),
            std::cmp::Ordering::Greater => None,
        }
    };
    LineRule::build(cells, size, starts, step, |&(carry, run)| run == carry)
}
