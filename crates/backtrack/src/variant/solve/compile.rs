//! Compiling a puzzle: its rules as peers, houses and handlers.

use super::super::line::{self, LineRule};
use super::super::model::{full_mask, Constraint, Mask, Puzzle, MAX_CELLS};
use super::super::regions;
use super::handler::Handler;
use super::{largest, range_mask, smallest, Solver};
use std::collections::HashSet;

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

/// Collects a puzzle's peers, houses and handlers.
pub(super) struct Builder<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) size: usize,
    pub(super) peers: Vec<[u64; 4]>,
    pub(super) houses: Vec<Vec<usize>>,
    pub(super) handlers: Vec<Handler>,
    pub(super) start: Vec<Mask>,
    pub(super) impossible: bool,
    /// The value sets of `k` values summing to `s`: `combos[k][s]` (filled on first use).
    combos: Vec<Vec<Vec<Mask>>>,
    /// The derived sums added so far (their terms, sorted, and target).
    derived: HashSet<(Vec<(usize, i32)>, i32)>,
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
        self.handlers.push(Handler::Sum { cells, coefs, ends: Vec::new(), target, stated: true });
    }

    /// Different values in `cells` summing to `sum`, by their combinations.
    fn combos(&mut self, cells: &[usize], sum: i32) {
        if self.combos.is_empty() {
            let n = self.size;
            let total = n * (n + 1) / 2;
            self.combos = vec![vec![Vec::new(); total + 1]; n + 1];
            for m in 1..=full_mask(n) {
                let s: usize = (0..n).filter(|v| m & (1 << v) != 0).map(|v| v + 1).sum();
                self.combos[m.count_ones() as usize][s].push(m);
            }
        }
        let combos = match (self.combos.get(cells.len()), usize::try_from(sum)) {
            (Some(by_sum), Ok(s)) => by_sum.get(s).cloned().unwrap_or_default(),
            _ => Vec::new(),
        };
        if combos.is_empty() {
            self.impossible = true;
        }
        let cells = cells.iter().map(|&c| c as u8).collect();
        self.handlers.push(Handler::Combos { cells, combos, rest: Vec::new() });
    }

    fn is_peer(&self, a: usize, b: usize) -> bool {
        self.peers[a][b / 64] & (1 << (b % 64)) != 0
    }

    /// Splits a sum's cells into groups of mutual peers sharing a
    /// coefficient (greedily, in order): the cells, their coefficients,
    /// and where each group ends.
    fn groups(&self, terms: &[(usize, i32)]) -> (Vec<u8>, Vec<i32>, Vec<u8>) {
        let mut groups: Vec<(i32, Vec<usize>)> = Vec::new();
        for &(c, k) in terms {
            match groups.iter_mut().find(|g| g.0 == k && g.1.iter().all(|&o| self.is_peer(c, o))) {
                Some(g) => g.1.push(c),
                None => groups.push((k, vec![c])),
            }
        }
        let (mut cells, mut coefs, mut ends) = (Vec::new(), Vec::new(), Vec::new());
        for (k, g) in groups {
            coefs.extend(std::iter::repeat_n(k, g.len()));
            cells.extend(g.iter().map(|&c| c as u8));
            ends.push(cells.len() as u8);
        }
        (cells, coefs, ends)
    }

    /// Groups each sum's cells (see [`Self::groups`]), now that every peer is known.
    fn group_sums(&mut self) {
        for i in 0..self.handlers.len() {
            let Handler::Sum { cells, coefs, .. } = &self.handlers[i] else { continue };
            let terms: Vec<(usize, i32)> = cells.iter().zip(coefs).map(|(&c, &k)| (c as usize, k)).collect();
            let (cells, coefs, ends) = self.groups(&terms);
            let Handler::Sum { cells: c, coefs: k, ends: e, .. } = &mut self.handlers[i] else { continue };
            (*c, *k, *e) = (cells, coefs, ends);
        }
    }

    /// The least and the greatest total of `terms` (cells and coefficients)
    /// from the starting candidates, peers taking different values;
    /// `None` when some group of peers has too few values.
    pub(super) fn bounds(&self, terms: &[(usize, i32)]) -> Option<(i32, i32)> {
        let (cells, coefs, ends) = self.groups(terms);
        let (mut low, mut high, mut start) = (0, 0, 0);
        for &end in &ends {
            let group = &cells[start..end as usize];
            let union = group.iter().fold(0, |u, &c| u | self.start[c as usize]);
            let (a, b) = (smallest(union, group.len())?, largest(union, group.len())?);
            let k = coefs[start];
            let (a, b) = if k >= 0 { (k * a, k * b) } else { (k * b, k * a) };
            low += a;
            high += b;
            start = end as usize;
        }
        Some((low, high))
    }

    /// A sum implied by the puzzle's rules: a cage when its cells are peers
    /// with coefficient 1, a weighted sum otherwise; the same sum twice is
    /// added once.
    pub(super) fn derived(&mut self, mut terms: Vec<(usize, i32)>, mut target: i32) {
        terms.sort_unstable();
        // One sign for the same equation: most coefficients positive, or
        // the first cell's on a tie.
        let balance: i32 = terms.iter().map(|t| t.1.signum()).sum();
        if balance < 0 || (balance == 0 && terms.first().is_some_and(|t| t.1 < 0)) {
            terms.iter_mut().for_each(|t| t.1 = -t.1);
            target = -target;
        }
        if terms.is_empty() || !self.derived.insert((terms.clone(), target)) {
            self.impossible |= terms.is_empty() && target != 0;
            return;
        }
        let peers = terms.iter().all(|&(a, _)| terms.iter().all(|&(b, _)| a == b || self.is_peer(a, b)));
        if peers && terms.iter().all(|t| t.1 == 1) {
            self.combos(&terms.iter().map(|t| t.0).collect::<Vec<usize>>(), target);
        } else {
            let (cells, coefs, ends) = self.groups(&terms);
            self.handlers.push(Handler::Sum { cells, coefs, ends, target, stated: false });
        }
    }

    /// Gives each cage lying in a house the rest of that house: the values
    /// the cage leaves are the rest's.
    fn attach_complements(&mut self) {
        for h in &mut self.handlers {
            let Handler::Combos { cells, rest, .. } = h else { continue };
            let Some(house) = self
                .houses
                .iter()
                .find(|house| house.len() > cells.len() && cells.iter().all(|&c| house.contains(&(c as usize))))
            else {
                continue;
            };
            *rest = house.iter().filter(|&&c| !cells.contains(&(c as u8))).map(|&c| c as u8).collect();
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
                    let mut terms: Vec<(usize, i32)> = cells.iter().map(|&c| (c, 1)).collect();
                    terms.sort_unstable();
                    self.derived.insert((terms, sum));
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

/// Houses that meet in two cells or more, each pair as the cells of one
/// outside the other. The shared cells hold the same values for both, so
/// the rest of one holds exactly the values the rest of the other holds
/// (pointing and claiming: a value confined to the shared cells in one
/// house is gone from the rest of the other).
fn crossings(houses: &[Vec<usize>]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for (i, a) in houses.iter().enumerate() {
        for b in &houses[..i] {
            let shared = a.iter().filter(|c| b.contains(c)).count();
            if shared >= 2 {
                let only = |x: &[usize], y: &[usize]| x.iter().filter(|c| !y.contains(c)).map(|&c| c as u8).collect();
                out.push((only(a, b), only(b, a)));
            }
        }
    }
    out
}

/// Whether the houses and peers are those of a classic 9x9 grid, cells
/// row by row: its rows, columns and 3x3 boxes, nothing else.
fn is_classic9(size: usize, houses: &[Vec<usize>], peers: &[[u64; 4]]) -> bool {
    if size != 9 || houses.len() != 27 {
        return false;
    }
    let mut classic: Vec<Vec<usize>> = Vec::new();
    for i in 0..9 {
        classic.push((0..9).map(|j| 9 * i + j).collect());
        classic.push((0..9).map(|j| 9 * j + i).collect());
        classic.push((0..9).map(|j| 9 * (3 * (i / 3) + j / 3) + 3 * (i % 3) + j % 3).collect());
    }
    let sorted = |hs: &mut Vec<Vec<usize>>| {
        hs.iter_mut().for_each(|h| h.sort_unstable());
        hs.sort();
    };
    let mut ours = houses.to_vec();
    sorted(&mut ours);
    sorted(&mut classic);
    // Twenty peers each: no pair beyond the houses' (no anti-knight, no cage).
    ours == classic && peers.iter().all(|p| p.iter().map(|w| w.count_ones()).sum::<u32>() == 20)
}

/// The conflict scores the search starts from: each house and each
/// handler adds its weight to its cells, so that before any branch has
/// failed the search still prefers cells under many rules (sums weigh
/// more the fewer cells they have).
fn priorities(size: usize, cells: usize, houses: &[Vec<usize>], handlers: &[Handler]) -> Vec<u32> {
    let mut score = vec![0u32; cells];
    for house in houses {
        house.iter().for_each(|&c| score[c] += size as u32);
    }
    for h in handlers {
        let on = h.cells();
        let weight = match h {
            Handler::Sum { .. } | Handler::Combos { .. } => (2 * size).saturating_sub(on.len()).max(size),
            _ => on.len(),
        };
        on.iter().for_each(|&c| score[c as usize] += weight as u32);
    }
    score
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
            combos: Vec::new(),
            derived: HashSet::new(),
        };
        for house in puzzle.houses() {
            b.distinct(&house);
        }
        for c in &puzzle.constraints {
            b.constraint(c)?;
        }
        b.group_sums();
        b.derive_sums();
        b.attach_complements();
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
        let crossings = crossings(&b.houses);
        let score = priorities(size, cells, &b.houses, &b.handlers);
        let handlers_len = b.handlers.len();
        let classic = b.handlers.is_empty() && is_classic9(size, &b.houses, &b.peers);
        Ok(Solver {
            size,
            cells,
            start,
            impossible: b.impossible,
            classic,
            peer_first,
            peers,
            crossings,
            peer_sets: b.peers,
            houses: b.houses.iter().flatten().map(|&c| c as u8).collect(),
            handlers: b.handlers,
            watch_first,
            watchers,
            queued: vec![false; handlers_len],
            queue: Vec::with_capacity(handlers_len),
            singles: Vec::with_capacity(cells),
            score,
            value_score: [0; 16],
            conflicts: 0,
            guesses: 0,
            control: None,
        })
    }
}
