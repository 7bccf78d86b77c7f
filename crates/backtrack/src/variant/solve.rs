//! The variant solver: candidates as bitmasks, propagation per rule, and a
//! depth-first search that picks the cell with the fewest candidates.
//!
//! A [`Solver`] is compiled once per puzzle. It holds:
//!
//! * the **peers** of each cell: the cells that must hold a different value
//!   (rows, columns, boxes, regions, diagonals, windoku boxes, disjoint
//!   sets, knight and king neighbours, cages, renban lines, lunchboxes).
//!   When a cell is down to one value, its peers lose it;
//! * the **houses**: groups of exactly `size` peers, which must hold every
//!   value once; a value with one place left in a house goes there (a
//!   hidden single), a value with none is a contradiction;
//! * the **handlers**, one per rule beyond that, each watching its cells:
//!   binary relations between two cells (whispers, dots, X and V, `>`,
//!   palindromes, modular and entropic lines, anti-consecutive and the
//!   strict negatives) kept as tables of which values of one cell each
//!   value of the other allows; sums (arrows, little killers, zippers,
//!   double and pill arrows, region sum lines) narrowed by bounds; cages
//!   with a sum narrowed by their value combinations (a combination must
//!   fit the cells' candidates; values in every fitting combination with
//!   one place left go there); thermometers by a forward and a backward
//!   pass; renban lines by the windows of consecutive values that fit;
//!   between and lockout lines by their ends; quads by counting places;
//!   and the [line automata](super::line).
//!
//! Propagation runs to a fixpoint: a changed cell queues its watching
//! handlers, a cell fixed to a value clears it from its peers, and hidden
//! singles are looked for when the queues run dry. Every handler is exact
//! once its cells are fixed, so what the search reaches with every cell
//! fixed is a solution.
//!
//! The search copies the candidate array (a fixed-size array on the stack)
//! at each level, so nothing is allocated while it runs; it branches on the
//! cell with the fewest candidates, ties going to the cell whose branches
//! failed most often (a conflict score).

use std::ops::ControlFlow;

use crate::search::Control;

use super::line::{self, LineRule};
use super::model::{full_mask, Constraint, Mask, Puzzle, MAX_CELLS};
use super::regions;

/// Conflicts between two halvings of the conflict scores.
const DECAY_EVERY: u64 = 1 << 14;

/// One rule's propagation.
#[derive(Debug, Clone)]
enum Handler {
    /// `b` may hold `allowed[v]` when `a` holds value `v + 1`, and the converse table.
    Binary { a: u8, b: u8, forward: [Mask; 16], backward: [Mask; 16] },
    /// The sum of `coefs[i] * value(cells[i])` is `target`. The cells come
    /// in groups (`ends[g]` is where group `g` stops) of peers with one
    /// coefficient: a group of peers sums to at least its smallest distinct values.
    Sum { cells: Vec<u8>, coefs: Vec<i32>, ends: Vec<u8>, target: i32 },
    /// Different values forming one of `combos`.
    Combos { cells: Vec<u8>, combos: Vec<Mask> },
    /// Strictly increasing values.
    Thermo { cells: Vec<u8> },
    /// Different, consecutive values.
    Renban { cells: Vec<u8> },
    /// The middle cells strictly between the ends.
    Between { a: u8, b: u8, mids: Vec<u8> },
    /// The middle cells outside the ends' span.
    Lockout { a: u8, b: u8, mids: Vec<u8> },
    /// Each value at least its count of times among the cells.
    Required { cells: Vec<u8>, needs: Vec<(Mask, u8)> },
    /// A line automaton.
    Line(Box<LineRule>),
}

impl Handler {
    fn cells(&self) -> Vec<u8> {
        match self {
            Handler::Binary { a, b, .. } => vec![*a, *b],
            Handler::Between { a, b, mids } | Handler::Lockout { a, b, mids } => {
                let mut v = vec![*a, *b];
                v.extend(mids);
                v
            }
            Handler::Sum { cells, .. }
            | Handler::Combos { cells, .. }
            | Handler::Thermo { cells }
            | Handler::Renban { cells }
            | Handler::Required { cells, .. } => cells.clone(),
            Handler::Line(rule) => rule.cells.clone(),
        }
    }
}

/// A compiled puzzle, ready to answer any number of questions about it.
#[derive(Debug, Clone)]
pub struct Solver {
    size: usize,
    cells: usize,
    start: [Mask; MAX_CELLS],
    /// A rule that no assignment can keep was found while compiling.
    impossible: bool,
    /// Peers of cell `c`: `peers[peer_first[c]..peer_first[c + 1]]`.
    peer_first: Vec<u32>,
    peers: Vec<u8>,
    /// Houses, `size` cells each, one after another.
    houses: Vec<u8>,
    handlers: Vec<Handler>,
    /// Handlers watching cell `c`: `watchers[watch_first[c]..watch_first[c + 1]]`.
    watch_first: Vec<u32>,
    watchers: Vec<u32>,
    // Scratch, reused by every propagation.
    queued: Vec<bool>,
    queue: Vec<u32>,
    singles: Vec<u8>,
    score: Vec<u32>,
    conflicts: u64,
    guesses: u64,
    /// Polled at every guess: once cancelled, the search ends as if its
    /// visitor had said stop.
    control: Option<Control>,
}

/// How a count ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// Whether that is every solution (not cut short by the limit).
    pub complete: bool,
    /// The first solution found.
    pub first: Option<Vec<u8>>,
}

/// True candidates: the values each cell holds in at least one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrueCandidates {
    /// Per cell, the values it holds in some solution (0: no solution at all).
    pub masks: Vec<Mask>,
    /// Solutions counted, at most the limit.
    pub solutions: u64,
    /// Whether `solutions` is every solution.
    pub complete: bool,
}

impl TrueCandidates {
    /// Per cell, row by row, its values, smallest first (none when the
    /// puzzle has no solution).
    pub fn values(&self) -> Vec<Vec<u8>> {
        self.masks.iter().map(|&m| (1..=16u8).filter(|v| m & (1 << (v - 1)) != 0).collect()).collect()
    }
}

/// Builds a relation table: `forward[a - 1]` is the values `b` may take
/// when the first cell holds `a`.
fn table(size: usize, rel: impl Fn(i32, i32) -> bool) -> ([Mask; 16], [Mask; 16]) {
    let (mut f, mut b) = ([0; 16], [0; 16]);
    for x in 1..=size as i32 {
        for y in 1..=size as i32 {
            if rel(x, y) {
                f[x as usize - 1] |= 1 << (y - 1);
                b[y as usize - 1] |= 1 << (x - 1);
            }
        }
    }
    (f, b)
}

/// Values `lo..=hi` (clamped to 1..=16) as a mask.
fn range_mask(lo: i32, hi: i32) -> Mask {
    let (lo, hi) = (lo.max(1), hi.min(16));
    if lo > hi {
        return 0;
    }
    ((((1u32 << (hi - lo + 1)) - 1) << (lo - 1)) & 0xffff) as Mask
}

/// The sum of the `count` smallest values of `m`, or `None` when it has fewer.
fn smallest(mut m: Mask, count: usize) -> Option<i32> {
    let mut total = 0;
    for _ in 0..count {
        if m == 0 {
            return None;
        }
        total += m.trailing_zeros() as i32 + 1;
        m &= m - 1;
    }
    Some(total)
}

/// The sum of the `count` largest values of `m`, or `None` when it has fewer.
fn largest(mut m: Mask, count: usize) -> Option<i32> {
    let mut total = 0;
    for _ in 0..count {
        if m == 0 {
            return None;
        }
        let top = 15 - m.leading_zeros() as i32;
        total += top + 1;
        m &= !(1 << top);
    }
    Some(total)
}

fn min_value(m: Mask) -> i32 {
    m.trailing_zeros() as i32 + 1
}

fn max_value(m: Mask) -> i32 {
    16 - m.leading_zeros() as i32
}

/// Collects a puzzle's peers, houses and handlers.
struct Builder<'a> {
    puzzle: &'a Puzzle,
    size: usize,
    peers: Vec<[u64; 4]>,
    houses: Vec<Vec<usize>>,
    handlers: Vec<Handler>,
    start: Vec<Mask>,
    impossible: bool,
}

impl Builder<'_> {
    /// Cells that must all differ; a group of `size` is also a house.
    fn distinct(&mut self, cells: &[usize]) {
        for &a in cells {
            for &b in cells {
                if a != b {
                    self.peers[a][b / 64] |= 1 << (b % 64);
                }
            }
        }
        if cells.len() > self.size {
            self.impossible = true;
        }
        if cells.len() == self.size {
            let mut sorted = cells.to_vec();
            sorted.sort_unstable();
            if !self.houses.contains(&sorted) {
                self.houses.push(sorted);
            }
        }
    }

    fn binary(&mut self, a: usize, b: usize, rel: impl Fn(i32, i32) -> bool) {
        let (forward, backward) = table(self.size, rel);
        if a == b {
            // A cell related to itself keeps the values related to themselves.
            let own = (0..self.size).filter(|&v| forward[v] & (1 << v) != 0).fold(0, |m, v| m | 1 << v);
            self.start[a] &= own;
            return;
        }
        self.handlers.push(Handler::Binary { a: a as u8, b: b as u8, forward, backward });
    }

    fn sum(&mut self, terms: &[(usize, i32)], target: i32) {
        let cells = terms.iter().map(|&(c, _)| c as u8).collect();
        let coefs = terms.iter().map(|&(_, k)| k).collect();
        // Grouped once every peer is known (see `group_sums`).
        self.handlers.push(Handler::Sum { cells, coefs, ends: Vec::new(), target });
    }

    /// The rule of 45: a house holds every value once, so the cells of a
    /// house outside the cages with a sum that lie wholly inside it sum to
    /// the rest. Those cells are peers, so their sum is a cage of its own.
    fn complement_cages(&mut self) {
        let n = self.size;
        let total = (n * (n + 1) / 2) as i32;
        let cages: Vec<(&Vec<usize>, i32)> = self
            .puzzle
            .constraints
            .iter()
            .filter_map(|c| match c {
                Constraint::Cage { sum: Some(s), cells } => Some((cells, *s)),
                _ => None,
            })
            .collect();
        let mut extra = Vec::new();
        for house in &self.houses {
            let mut covered = vec![false; MAX_CELLS];
            let mut sum = 0;
            let mut overlap = false;
            for (cells, s) in &cages {
                if cells.iter().all(|c| house.contains(c)) {
                    overlap |= cells.iter().any(|&c| covered[c]);
                    cells.iter().for_each(|&c| covered[c] = true);
                    sum += s;
                }
            }
            let rest: Vec<usize> = house.iter().copied().filter(|&c| !covered[c]).collect();
            if !overlap && !rest.is_empty() && rest.len() < n && sum > 0 {
                extra.push((rest, total - sum));
            }
        }
        for (cells, sum) in extra {
            self.combos(&cells, sum);
        }
    }

    /// Different values in `cells` summing to `sum`, by their combinations.
    fn combos(&mut self, cells: &[usize], sum: i32) {
        let k = cells.len() as u32;
        let combos: Vec<Mask> = (0..=full_mask(self.size))
            .filter(|&m| m.count_ones() == k)
            .filter(|&m| (0..16).filter(|v| m & (1 << v) != 0).map(|v| v + 1).sum::<i32>() == sum)
            .collect();
        if combos.is_empty() {
            self.impossible = true;
        }
        self.handlers.push(Handler::Combos { cells: cells.iter().map(|&c| c as u8).collect(), combos });
    }

    /// Splits each sum's cells into groups of mutual peers sharing a
    /// coefficient (greedily, in order), now that every peer is known.
    fn group_sums(&mut self) {
        for h in &mut self.handlers {
            let Handler::Sum { cells, coefs, ends, .. } = h else { continue };
            let mut groups: Vec<(i32, Vec<u8>)> = Vec::new();
            for (&c, &k) in cells.iter().zip(coefs.iter()) {
                let peers = &self.peers[c as usize];
                let fits =
                    |g: &(i32, Vec<u8>)| g.0 == k && g.1.iter().all(|&o| peers[o as usize / 64] & (1 << (o % 64)) != 0);
                match groups.iter_mut().find(|g| fits(g)) {
                    Some(g) => g.1.push(c),
                    None => groups.push((k, vec![c])),
                }
            }
            cells.clear();
            coefs.clear();
            ends.clear();
            for (k, g) in groups {
                coefs.extend(std::iter::repeat_n(k, g.len()));
                cells.extend(g);
                ends.push(cells.len() as u8);
            }
        }
    }

    fn line(&mut self, rule: Result<LineRule, line::TooLarge>) -> Result<(), String> {
        let rule = rule.map_err(|_| "a line rule too large to solve".to_string())?;
        self.handlers.push(Handler::Line(Box::new(rule)));
        Ok(())
    }

    fn constraint(&mut self, c: &Constraint) -> Result<(), String> {
        let shape = self.puzzle.shape;
        match c {
            Constraint::Diagonal(d) => self.distinct(&regions::diagonal(shape, *d)),
            Constraint::Windoku => regions::windoku(shape).iter().for_each(|r| self.distinct(r)),
            Constraint::DisjointSets => regions::disjoint_sets(shape).iter().for_each(|r| self.distinct(r)),
            Constraint::AntiKnight => regions::knight_pairs(shape).iter().for_each(|&(a, b)| self.distinct(&[a, b])),
            Constraint::AntiKing => regions::king_pairs(shape).iter().for_each(|&(a, b)| self.distinct(&[a, b])),
            Constraint::AntiConsecutive => {
                for (a, b) in regions::orthogonal_pairs(shape) {
                    self.binary(a, b, |x, y| (x - y).abs() != 1);
                }
            }
            Constraint::StrictKropki | Constraint::StrictXV => {
                let strict_kropki = matches!(c, Constraint::StrictKropki);
                let mut marked = Vec::new();
                for other in &self.puzzle.constraints {
                    match (other, strict_kropki) {
                        (Constraint::BlackDot(cells) | Constraint::WhiteDot(cells), true)
                        | (Constraint::X(cells) | Constraint::V(cells), false) => {
                            marked.extend(regions::adjacent_pairs(shape, cells))
                        }
                        _ => {}
                    }
                }
                for (a, b) in regions::orthogonal_pairs(shape) {
                    if marked.contains(&(a, b)) || marked.contains(&(b, a)) {
                        continue;
                    }
                    if strict_kropki {
                        self.binary(a, b, |x, y| (x - y).abs() != 1 && x != 2 * y && y != 2 * x);
                    } else {
                        self.binary(a, b, |x, y| x + y != 5 && x + y != 10);
                    }
                }
            }
            Constraint::Cage { sum, cells } => {
                self.distinct(cells);
                if let Some(sum) = *sum {
                    self.combos(cells, sum);
                }
            }
            Constraint::Thermo(cells) => {
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != cells.len() {
                    // A cell would have to be smaller than itself.
                    self.impossible = true;
                }
                self.handlers.push(Handler::Thermo { cells: cells.iter().map(|&c| c as u8).collect() });
            }
            Constraint::Arrow(cells) => {
                let mut terms = vec![(cells[0], -1)];
                terms.extend(cells[1..].iter().map(|&c| (c, 1)));
                self.sum(&terms, 0);
            }
            Constraint::Whisper { difference, cells } => {
                let d = *difference;
                for w in cells.windows(2) {
                    self.binary(w[0], w[1], |x, y| (x - y).abs() >= d);
                }
            }
            Constraint::Renban(cells) => {
                self.distinct(cells);
                self.handlers.push(Handler::Renban { cells: cells.iter().map(|&c| c as u8).collect() });
            }
            Constraint::X(cells) | Constraint::V(cells) => {
                let total = if matches!(c, Constraint::X(_)) { 10 } else { 5 };
                for (a, b) in regions::adjacent_pairs(shape, cells) {
                    self.binary(a, b, |x, y| x + y == total);
                }
            }
            Constraint::BlackDot(cells) => {
                for (a, b) in regions::adjacent_pairs(shape, cells) {
                    self.binary(a, b, |x, y| x == 2 * y || y == 2 * x);
                }
            }
            Constraint::WhiteDot(cells) => {
                for (a, b) in regions::adjacent_pairs(shape, cells) {
                    self.binary(a, b, |x, y| (x - y).abs() == 1);
                }
            }
            Constraint::GreaterThan(cells) => {
                for (a, b) in regions::adjacent_pairs(shape, cells) {
                    self.binary(a, b, |x, y| x > y);
                }
            }
            Constraint::LittleKiller { sum, cells } => {
                let terms: Vec<(usize, i32)> = cells.iter().map(|&c| (c, 1)).collect();
                self.sum(&terms, *sum);
            }
            Constraint::Sandwich { sum, cells } | Constraint::Lunchbox { sum, cells } => {
                self.distinct(cells);
                self.line(line::lunchbox(cells, self.size, *sum))?;
            }
            Constraint::Palindrome(cells) => {
                let k = cells.len();
                for i in 0..k / 2 {
                    self.binary(cells[i], cells[k - 1 - i], |x, y| x == y);
                }
            }
            Constraint::Between(cells) => {
                let (a, b) = (cells[0], cells[cells.len() - 1]);
                let mids: Vec<u8> = cells[1..cells.len() - 1].iter().map(|&c| c as u8).collect();
                if !mids.is_empty() {
                    self.binary(a, b, |x, y| (x - y).abs() >= 2);
                    self.handlers.push(Handler::Between { a: a as u8, b: b as u8, mids });
                }
            }
            Constraint::Lockout { difference, cells } => {
                let (a, b) = (cells[0], cells[cells.len() - 1]);
                let d = *difference;
                self.binary(a, b, |x, y| (x - y).abs() >= d);
                let mids: Vec<u8> = cells[1..cells.len() - 1].iter().map(|&c| c as u8).collect();
                self.handlers.push(Handler::Lockout { a: a as u8, b: b as u8, mids });
            }
            Constraint::Quad { cells, values } => {
                let mut needs: Vec<(Mask, u8)> = Vec::new();
                for &v in values {
                    match needs.iter_mut().find(|(m, _)| *m == 1 << (v - 1)) {
                        Some((_, k)) => *k += 1,
                        None => needs.push((1 << (v - 1), 1)),
                    }
                }
                self.handlers.push(Handler::Required { cells: cells.iter().map(|&c| c as u8).collect(), needs });
            }
            Constraint::XSum { sum, cells } => self.line(line::x_sum(cells, self.size, *sum))?,
            Constraint::Skyscraper { count, cells } => self.line(line::skyscraper(cells, self.size, *count))?,
            Constraint::PillArrow { pill, cells } => {
                let mut pill_cells = cells[..*pill].to_vec();
                pill_cells.sort_unstable();
                let mut terms: Vec<(usize, i32)> =
                    pill_cells.iter().enumerate().map(|(i, &c)| (c, -(10i32.pow((*pill - 1 - i) as u32)))).collect();
                terms.extend(cells[*pill..].iter().map(|&c| (c, 1)));
                for &c in &pill_cells[1..] {
                    self.start[c] &= range_mask(1, 9);
                }
                self.sum(&terms, 0);
            }
            Constraint::DoubleArrow(cells) => {
                let last = cells.len() - 1;
                let terms: Vec<(usize, i32)> =
                    cells.iter().enumerate().map(|(i, &c)| (c, if i == 0 || i == last { -1 } else { 1 })).collect();
                self.sum(&terms, 0);
            }
            Constraint::RegionSumLine(cells) => {
                let segments = regions::region_segments(self.puzzle, cells);
                for s in &segments[1..] {
                    let mut terms: Vec<(usize, i32)> = segments[0].iter().map(|&c| (c, -1)).collect();
                    terms.extend(s.iter().map(|&c| (c, 1)));
                    self.sum(&terms, 0);
                }
            }
            Constraint::SumLine { sum, looped, cells } => self.line(line::sum_line(cells, self.size, *sum, *looped))?,
            Constraint::Zipper(cells) => {
                let k = cells.len();
                let pairs: Vec<(usize, usize)> = (0..k / 2).map(|i| (cells[i], cells[k - 1 - i])).collect();
                for (i, &(x, y)) in pairs.iter().enumerate() {
                    if k % 2 == 1 {
                        self.sum(&[(cells[k / 2], -1), (x, 1), (y, 1)], 0);
                    } else if i > 0 {
                        let (p, q) = pairs[0];
                        self.sum(&[(p, -1), (q, -1), (x, 1), (y, 1)], 0);
                    }
                }
            }
            Constraint::Modular { modulus, cells } => {
                let m = *modulus;
                let first = &cells[..cells.len().min(m as usize)];
                for (i, &a) in first.iter().enumerate() {
                    for &b in &first[i + 1..] {
                        self.binary(a, b, |x, y| x % m != y % m);
                    }
                }
                for i in m as usize..cells.len() {
                    self.binary(cells[i - m as usize], cells[i], |x, y| x % m == y % m);
                }
            }
            Constraint::Entropic(cells) => {
                let group = |x: i32| (x - 1) / 3;
                for i in 0..cells.len() {
                    for j in i + 1..cells.len().min(i + 3) {
                        self.binary(cells[i], cells[j], |x, y| group(x) != group(y));
                    }
                }
            }
        }
        Ok(())
    }
}

impl Solver {
    /// Compiles `puzzle`; `Err` names a rule too large to solve (a line
    /// automaton past [`line::MAX_STATES`] states).
    pub fn new(puzzle: &Puzzle) -> Result<Solver, String> {
        let size = puzzle.shape.size();
        let cells = puzzle.shape.cells();
        let mut b = Builder {
            puzzle,
            size,
            peers: vec![[0; 4]; cells],
            houses: Vec::new(),
            handlers: Vec::new(),
            start: puzzle.candidates.clone(),
            impossible: false,
        };
        for house in puzzle.houses() {
            b.distinct(&house);
        }
        for c in &puzzle.constraints {
            b.constraint(c)?;
        }
        b.group_sums();
        b.complement_cages();
        let mut peer_first = vec![0u32];
        let mut peers = Vec::new();
        for p in &b.peers {
            for (w, &word) in p.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    peers.push((w * 64 + bits.trailing_zeros() as usize) as u8);
                    bits &= bits - 1;
                }
            }
            peer_first.push(peers.len() as u32);
        }
        let mut watch: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (i, h) in b.handlers.iter().enumerate() {
            for c in h.cells() {
                if !watch[c as usize].contains(&(i as u32)) {
                    watch[c as usize].push(i as u32);
                }
            }
        }
        let mut watch_first = vec![0u32];
        let mut watchers = Vec::new();
        for w in &watch {
            watchers.extend(w);
            watch_first.push(watchers.len() as u32);
        }
        let mut start = [0; MAX_CELLS];
        start[..cells].copy_from_slice(&b.start);
        let handlers_len = b.handlers.len();
        Ok(Solver {
            size,
            cells,
            start,
            impossible: b.impossible,
            peer_first,
            peers,
            houses: b.houses.iter().flatten().map(|&c| c as u8).collect(),
            handlers: b.handlers,
            watch_first,
            watchers,
            queued: vec![false; handlers_len],
            queue: Vec::with_capacity(handlers_len),
            singles: Vec::with_capacity(cells),
            score: vec![0; cells],
            conflicts: 0,
            guesses: 0,
            control: None,
        })
    }

    /// Makes every later search stop soon after `control` is cancelled
    /// (by another thread, a Ctrl-C handler): it then ends as if its
    /// visitor had said stop, so what it returns (a count, the candidates)
    /// is partial and should be dropped.
    pub fn set_control(&mut self, control: Control) {
        self.control = Some(control);
    }

    /// Whether the control, if any, was cancelled.
    fn cancelled(&self) -> bool {
        self.control.as_ref().is_some_and(Control::is_cancelled)
    }

    /// The grid's side: values run from 1 to this.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Guesses made so far: the times the search chose a value for a cell
    /// among two or more candidates.
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// Notes that `cell` changed: queues its watchers, and the cell itself
    /// when it is down to one value.
    fn touched(&mut self, grid: &[Mask; MAX_CELLS], cell: usize) {
        for i in self.watch_first[cell]..self.watch_first[cell + 1] {
            let h = self.watchers[i as usize];
            if !self.queued[h as usize] {
                self.queued[h as usize] = true;
                self.queue.push(h);
            }
        }
        if grid[cell].count_ones() == 1 {
            self.singles.push(cell as u8);
        }
    }

    /// Narrows `cell` to `mask`; `false` when nothing is left.
    fn restrict(&mut self, grid: &mut [Mask; MAX_CELLS], cell: usize, mask: Mask) -> bool {
        let old = grid[cell];
        let new = old & mask;
        if new != old {
            grid[cell] = new;
            if new == 0 {
                return false;
            }
            self.touched(grid, cell);
        }
        true
    }

    fn clear_queues(&mut self) {
        for &h in &self.queue {
            self.queued[h as usize] = false;
        }
        self.queue.clear();
        self.singles.clear();
    }

    /// Propagates to a fixpoint; `false` on a contradiction (the queues are
    /// left empty either way).
    fn propagate(&mut self, grid: &mut [Mask; MAX_CELLS]) -> bool {
        let ok = self.propagate_inner(grid);
        if !ok {
            self.clear_queues();
        }
        ok
    }

    fn propagate_inner(&mut self, grid: &mut [Mask; MAX_CELLS]) -> bool {
        loop {
            while let Some(cell) = self.singles.pop() {
                let cell = cell as usize;
                let value = grid[cell];
                for i in self.peer_first[cell]..self.peer_first[cell + 1] {
                    let p = self.peers[i as usize] as usize;
                    if grid[p] & value != 0 && !self.restrict(grid, p, !value) {
                        return false;
                    }
                }
            }
            if let Some(h) = self.queue.pop() {
                self.queued[h as usize] = false;
                if !self.run_handler(h as usize, grid) {
                    return false;
                }
                continue;
            }
            match self.hidden_singles(grid) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Places values with one place left in a house; `None` when a value
    /// has no place, `Some(placed any)` otherwise.
    fn hidden_singles(&mut self, grid: &mut [Mask; MAX_CELLS]) -> Option<bool> {
        let n = self.size;
        let full = full_mask(n);
        let mut placed = false;
        for h in 0..self.houses.len() / n {
            let (mut once, mut more, mut fixed) = (0 as Mask, 0 as Mask, 0 as Mask);
            for i in 0..n {
                let m = grid[self.houses[h * n + i] as usize];
                more |= once & m;
                once |= m;
                if m.count_ones() == 1 {
                    fixed |= m;
                }
            }
            if once != full {
                return None;
            }
            let mut lone = once & !more & !fixed;
            while lone != 0 {
                let bit = lone & lone.wrapping_neg();
                lone &= lone - 1;
                for i in 0..n {
                    let c = self.houses[h * n + i] as usize;
                    if grid[c] & bit != 0 {
                        if !self.restrict(grid, c, bit) {
                            return None;
                        }
                        placed = true;
                        break;
                    }
                }
            }
        }
        Some(placed)
    }

    fn run_handler(&mut self, h: usize, grid: &mut [Mask; MAX_CELLS]) -> bool {
        // The handler is taken out while it runs so that it can borrow its
        // scratch while `restrict` borrows the queues.
        let mut handler = std::mem::replace(&mut self.handlers[h], Handler::Thermo { cells: Vec::new() });
        let ok = self.apply(&mut handler, grid);
        self.handlers[h] = handler;
        ok
    }

    fn apply(&mut self, handler: &mut Handler, grid: &mut [Mask; MAX_CELLS]) -> bool {
        match handler {
            Handler::Binary { a, b, forward, backward } => {
                let (a, b) = (*a as usize, *b as usize);
                let mut allowed_b = 0;
                let mut m = grid[a];
                while m != 0 {
                    allowed_b |= forward[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                if !self.restrict(grid, b, allowed_b) {
                    return false;
                }
                let mut allowed_a = 0;
                let mut m = grid[b];
                while m != 0 {
                    allowed_a |= backward[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                self.restrict(grid, a, allowed_a)
            }
            Handler::Sum { cells, coefs, ends, target } => self.sum(grid, cells, coefs, ends, *target),
            Handler::Combos { cells, combos } => {
                let union = cells.iter().fold(0, |u, &c| u | grid[c as usize]);
                let (mut allowed, mut required) = (0 as Mask, Mask::MAX);
                for &combo in combos.iter() {
                    if combo & !union == 0 && cells.iter().all(|&c| grid[c as usize] & combo != 0) {
                        allowed |= combo;
                        required &= combo;
                    }
                }
                if allowed == 0 {
                    return false;
                }
                for &c in cells.iter() {
                    if !self.restrict(grid, c as usize, allowed) {
                        return false;
                    }
                }
                self.place_required(grid, cells, required)
            }
            Handler::Thermo { cells } => {
                if cells.is_empty() {
                    return true;
                }
                let mut floor = min_value(grid[cells[0] as usize]);
                for &c in &cells[1..] {
                    if !self.restrict(grid, c as usize, range_mask(floor + 1, 16)) {
                        return false;
                    }
                    floor = min_value(grid[c as usize]);
                }
                let mut ceiling = max_value(grid[cells[cells.len() - 1] as usize]);
                for &c in cells[..cells.len() - 1].iter().rev() {
                    if !self.restrict(grid, c as usize, range_mask(1, ceiling - 1)) {
                        return false;
                    }
                    ceiling = max_value(grid[c as usize]);
                }
                true
            }
            Handler::Renban { cells } => {
                let k = cells.len() as i32;
                let (mut allowed, mut required) = (0, Mask::MAX);
                for lo in 1..=self.size as i32 - k + 1 {
                    let window = range_mask(lo, lo + k - 1);
                    let mut covered = 0;
                    let fits = cells.iter().all(|&c| {
                        covered |= grid[c as usize] & window;
                        grid[c as usize] & window != 0
                    });
                    if fits && covered == window {
                        allowed |= window;
                        required &= window;
                    }
                }
                if allowed == 0 || !cells.iter().all(|&c| self.restrict(grid, c as usize, allowed)) {
                    return false;
                }
                self.place_required(grid, cells, required)
            }
            Handler::Between { a, b, mids } => {
                let ends = grid[*a as usize] | grid[*b as usize];
                let inside = range_mask(min_value(ends) + 1, max_value(ends) - 1);
                let mut fixed = 0;
                for &c in mids.iter() {
                    if !self.restrict(grid, c as usize, inside) {
                        return false;
                    }
                    if grid[c as usize].count_ones() == 1 {
                        fixed |= grid[c as usize];
                    }
                }
                if fixed != 0 {
                    let span = !range_mask(min_value(fixed), max_value(fixed));
                    return self.restrict(grid, *a as usize, span) && self.restrict(grid, *b as usize, span);
                }
                true
            }
            Handler::Lockout { a, b, mids } => {
                let (ea, eb) = (grid[*a as usize], grid[*b as usize]);
                let (small, large) = if min_value(ea) >= max_value(eb) {
                    (eb, ea)
                } else if min_value(eb) >= max_value(ea) {
                    (ea, eb)
                } else {
                    return true;
                };
                let outside = range_mask(1, max_value(small) - 1) | range_mask(min_value(large) + 1, 16);
                mids.iter().all(|&c| self.restrict(grid, c as usize, outside))
            }
            Handler::Required { cells, needs } => {
                for &(bit, count) in needs.iter() {
                    let places = cells.iter().filter(|&&c| grid[c as usize] & bit != 0).count();
                    if places < count as usize {
                        return false;
                    }
                    if places == count as usize {
                        for &c in cells.iter() {
                            if grid[c as usize] & bit != 0 && !self.restrict(grid, c as usize, bit) {
                                return false;
                            }
                        }
                    }
                }
                true
            }
            Handler::Line(rule) => {
                let snapshot = *grid;
                let mut ok = true;
                let mut narrowed: [Mask; 16 * 16] = [Mask::MAX; MAX_CELLS];
                let keeps = rule.propagate(&snapshot[..], |cell, mask| {
                    narrowed[cell] &= mask;
                    snapshot[cell] & mask != 0
                });
                if !keeps {
                    return false;
                }
                for &c in rule.cells.iter() {
                    ok &= self.restrict(grid, c as usize, narrowed[c as usize]);
                    if !ok {
                        break;
                    }
                }
                ok
            }
        }
    }

    /// Each value of `required` must appear among `cells`: one with no
    /// place is a contradiction, one with a single place goes there.
    fn place_required(&mut self, grid: &mut [Mask; MAX_CELLS], cells: &[u8], required: Mask) -> bool {
        let mut need = required;
        while need != 0 {
            let bit = need & need.wrapping_neg();
            need &= need - 1;
            let mut places = cells.iter().filter(|&&c| grid[c as usize] & bit != 0);
            match (places.next(), places.next()) {
                (None, _) => return false,
                (Some(&c), None) if !self.restrict(grid, c as usize, bit) => return false,
                _ => {}
            }
        }
        true
    }

    /// Bounds propagation of a weighted sum, group by group: `k` peers
    /// hold `k` different values, so their total lies between the sums of
    /// the `k` smallest and the `k` largest values they can take.
    fn sum(&mut self, grid: &mut [Mask; MAX_CELLS], cells: &[u8], coefs: &[i32], ends: &[u8], target: i32) -> bool {
        // The range of k * (the sum of `count` different values of `union`).
        let span = |union: Mask, count: usize, k: i32| -> Option<(i32, i32)> {
            let (low, high) = (smallest(union, count)?, largest(union, count)?);
            Some(if k >= 0 { (k * low, k * high) } else { (k * high, k * low) })
        };
        let (mut lo, mut hi) = (0, 0);
        let mut start = 0;
        for &end in ends {
            let group = &cells[start..end as usize];
            let union = group.iter().fold(0, |u, &c| u | grid[c as usize]);
            let Some((a, b)) = span(union, group.len(), coefs[start]) else { return false };
            lo += a;
            hi += b;
            start = end as usize;
        }
        if target < lo || target > hi {
            return false;
        }
        let mut start = 0;
        for &end in ends {
            let (s, e) = (start, end as usize);
            start = e;
            let k = coefs[s];
            let union = cells[s..e].iter().fold(0, |u, &c| u | grid[c as usize]);
            let Some((a, b)) = span(union, e - s, k) else { return false };
            // The other groups leave this one the range [need_lo, need_hi].
            let (need_lo, need_hi) = (target - (hi - b), target - (lo - a));
            if need_lo <= a && need_hi >= b {
                continue;
            }
            for &c in &cells[s..e] {
                let c = c as usize;
                let mut keep = 0;
                let mut m = grid[c];
                while m != 0 {
                    let bit = m & m.wrapping_neg();
                    m &= m - 1;
                    let v = bit.trailing_zeros() as i32 + 1;
                    if let Some((x, y)) = span(union & !bit, e - s - 1, k) {
                        let (x, y) = (x + k * v, y + k * v);
                        if x <= need_hi && y >= need_lo {
                            keep |= bit;
                        }
                    }
                }
                if !self.restrict(grid, c, keep) {
                    return false;
                }
            }
        }
        true
    }

    /// The starting grid after propagation, or `None` when the puzzle has no solution.
    fn root(&mut self) -> Option<[Mask; MAX_CELLS]> {
        if self.impossible {
            return None;
        }
        let mut grid = self.start;
        if grid[..self.cells].contains(&0) {
            return None;
        }
        self.clear_queues();
        for h in 0..self.handlers.len() {
            self.queued[h] = true;
            self.queue.push(h as u32);
        }
        for (c, m) in grid[..self.cells].iter().enumerate() {
            if m.count_ones() == 1 {
                self.singles.push(c as u8);
            }
        }
        self.propagate(&mut grid).then_some(grid)
    }

    /// The unfixed cell with the highest conflict score per candidate (the
    /// fewest candidates while no branch has failed yet).
    fn choose(&self, grid: &[Mask; MAX_CELLS]) -> Option<usize> {
        // Best so far: (conflict score, candidates, cell).
        let mut best: Option<(u32, u32, usize)> = None;
        for (c, m) in grid[..self.cells].iter().enumerate() {
            let k = m.count_ones();
            if k < 2 {
                continue;
            }
            let s = self.score[c];
            let better = match best {
                None => true,
                // s / k > bs / bk, or equal scores and fewer candidates.
                Some((bs, bk, _)) => {
                    let (l, r) = (s as u64 * bk as u64, bs as u64 * k as u64);
                    l > r || (l == r && k < bk)
                }
            };
            if better {
                best = Some((s, k, c));
            }
        }
        best.map(|(_, _, c)| c)
    }

    /// Notes a failed branch on `cell`; every so often all scores are
    /// halved, so that the search follows where the conflicts are now.
    fn conflict(&mut self, cell: usize) {
        self.score[cell] = self.score[cell].saturating_add(1);
        self.conflicts += 1;
        if self.conflicts.is_multiple_of(DECAY_EVERY) {
            self.score.iter_mut().for_each(|s| *s >>= 1);
        }
    }

    /// Visits every solution below `grid` (already propagated). Branches
    /// two ways: the chosen cell holds its smallest value, or it does not
    /// (and that is propagated before the next branch).
    fn walk(
        &mut self,
        grid: &mut [Mask; MAX_CELLS],
        visit: &mut dyn FnMut(&[Mask]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        loop {
            let Some(cell) = self.choose(grid) else {
                return visit(&grid[..self.cells]);
            };
            if self.cancelled() {
                return ControlFlow::Break(());
            }
            let bit = grid[cell] & grid[cell].wrapping_neg();
            self.guesses += 1;
            let mut next = *grid;
            next[cell] = bit;
            self.touched(&next, cell);
            if self.propagate(&mut next) {
                self.walk(&mut next, visit)?;
            } else {
                self.conflict(cell);
            }
            if !self.restrict(grid, cell, !bit) || !self.propagate(grid) {
                return ControlFlow::Continue(());
            }
        }
    }

    /// Calls `visit` with every solution (one value per cell, 1 to size)
    /// until it breaks; returns the number of solutions visited.
    pub fn for_each(&mut self, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> u64 {
        let Some(mut grid) = self.root() else { return 0 };
        let mut count = 0;
        let mut values = vec![0u8; self.cells];
        let _ = self.walk(&mut grid, &mut |g| {
            count += 1;
            for (v, &m) in values.iter_mut().zip(g) {
                *v = m.trailing_zeros() as u8 + 1;
            }
            visit(&values)
        });
        count
    }

    /// The first solution found, if any.
    pub fn first(&mut self) -> Option<Vec<u8>> {
        let mut found = None;
        self.for_each(|s| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        });
        found
    }

    /// Counts solutions, stopping at `limit` (`None`: all of them).
    pub fn count(&mut self, limit: Option<u64>) -> Count {
        let limit = limit.unwrap_or(u64::MAX);
        let mut first = None;
        let mut solutions = 0;
        let mut complete = true;
        if limit > 0 {
            self.for_each(|s| {
                if first.is_none() {
                    first = Some(s.to_vec());
                }
                solutions += 1;
                if solutions >= limit {
                    complete = false;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        }
        // Stopping at the limit exactly leaves open whether more exist.
        Count { solutions, complete, first }
    }

    /// The true candidates of every cell (the values it holds in at least
    /// one solution), and the solutions counted up to `limit`.
    ///
    /// For each cell and each value not yet seen in a solution, one search
    /// asks for a solution with that value there; each solution found marks
    /// all its values at once, so most questions are answered before they
    /// are asked.
    pub fn candidates(&mut self, limit: u64) -> TrueCandidates {
        let counted = self.count(Some(limit.max(1)));
        let mut masks = vec![0 as Mask; self.cells];
        let Some(first) = counted.first else {
            return TrueCandidates { masks, solutions: 0, complete: true };
        };
        let mark = |masks: &mut [Mask], s: &[u8]| {
            for (m, &v) in masks.iter_mut().zip(s) {
                *m |= 1 << (v - 1);
            }
        };
        mark(&mut masks, &first);
        let Some(root) = self.root() else {
            return TrueCandidates { masks, solutions: counted.solutions, complete: counted.complete };
        };
        for cell in 0..self.cells {
            let mut open = root[cell] & !masks[cell];
            while open != 0 && !self.cancelled() {
                let bit = open & open.wrapping_neg();
                open &= open - 1;
                if masks[cell] & bit != 0 {
                    continue;
                }
                let mut grid = root;
                grid[cell] = bit;
                self.touched(&grid, cell);
                if !self.propagate(&mut grid) {
                    continue;
                }
                let mut found = None;
                let cells = self.cells;
                let _ = self.walk(&mut grid, &mut |g| {
                    found = Some(g[..cells].iter().map(|m| m.trailing_zeros() as u8 + 1).collect::<Vec<u8>>());
                    ControlFlow::Break(())
                });
                if let Some(s) = found {
                    mark(&mut masks, &s);
                }
            }
        }
        TrueCandidates { masks, solutions: counted.solutions, complete: counted.complete }
    }
}
