//! Forcing chains: assume a candidate true (or false) and follow what it
//! forces until the assumption contradicts itself.
//!
//! A node is a candidate (cell, digit) assumed on or off. An "on" node
//! turns off the digit's other places in its box, row and column and, when
//! links through cells are allowed, the cell's other candidates. An "off"
//! node turns on the digit's only other place in a unit (a strong link)
//! and, with links through cells, the other candidate of a two-candidate
//! cell. The search is breadth first from the assumption, so the chain
//! found is a shortest one. If assuming the candidate on forces it off, it
//! is false; if assuming it off forces it on, it is true.
//!
//! Ratings follow Sudoku Explainer: 6.6 for chains that use only strong
//! links of one digit (X-chains), 7.0 when they also go through cells;
//! plus 0.1 for each step of length past 4, 6, 8, 12, 16, 24, ... nodes
//! (the length counted without the two ends). Among all chains the
//! easiest, then the shortest, is used.

use std::collections::VecDeque;

use super::cellsets::{cells_of, PEER_PARTS};
use super::{bit, cell_name, count9, single, units_of, Board, CellSet, Step, Technique, Words, UNIT_CELLS};
use crate::sudoku::score::Score;

const NONE: u16 = u16::MAX;

/// A node: candidate `cell * 9 + digit - 1`, shifted left once, plus 1 when "on".
fn node(cell: usize, d: u8, on: bool) -> u16 {
    (((cell * 9 + d as usize - 1) << 1) | on as usize) as u16
}

fn parts(n: u16) -> (usize, u8, bool) {
    let cand = (n >> 1) as usize;
    (cand / 9, (cand % 9) as u8 + 1, n & 1 == 1)
}

/// Sudoku Explainer's length bonus for a chain of `nodes` nodes: a tenth
/// for each of the lengths 4, 6, 8, 12, 16, 24, ... that its length (its
/// nodes less two) passes.
pub fn length_bonus(nodes: usize) -> Score {
    let length = nodes.saturating_sub(2);
    let mut ceil = 4usize;
    let mut odd = false;
    let mut added = 0;
    while length > ceil {
        added += 1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    Score::from_tenths(added)
}

/// The nodes an "on" node turns off: with `cells_too` the cell's other
/// candidates, then the digit's other places in the box, the row outside
/// the box and the column outside the box (cells increasing in each).
/// `with` is the set of cells holding `d`.
fn on_to_off(cands: &[u16; 81], with: CellSet, cell: usize, d: u8, cells_too: bool, out: &mut Vec<u16>) {
    out.clear();
    if cells_too {
        for e in super::digits(cands[cell] & !bit(d)) {
            out.push(node(cell, e, false));
        }
    }
    for part in PEER_PARTS[cell] {
        out.extend(cells_of(part & with).map(|peer| node(peer, d, false)));
    }
}

/// The nodes an "off" node turns on: with `cells_too` the other candidate
/// of a two-candidate cell, then the digit's only other place in the box,
/// the row and the column. `with` is the set of cells holding `d`.
fn off_to_on(cands: &[u16; 81], with: CellSet, cell: usize, d: u8, cells_too: bool, out: &mut Vec<u16>) {
    out.clear();
    if cells_too && count9(cands[cell]) == 2 {
        let other = cands[cell] & !bit(d);
        out.push(node(cell, other.trailing_zeros() as u8 + 1, true));
    }
    for unit in units_of(cell) {
        let others = with & UNIT_CELLS[unit] & !(1u128 << cell);
        if single(others) {
            out.push(node(others.trailing_zeros() as usize, d, true));
        }
    }
}

/// The implications between the candidates of one board, the nodes
/// numbered densely, digit by digit (the `i`-th candidate off is `2 i`, on
/// is `2 i + 1`): as lists in the order [`on_to_off`] and [`off_to_on`]
/// give them, and as bitset rows for the breadth-first search.
pub(super) struct Graph {
    /// The sparse node ([`node`]) of each dense one.
    sparse: Vec<u16>,
    /// The dense node of each sparse one (`NONE` when not a candidate).
    dense: Vec<u16>,
    /// The words of the rows that digit `d`'s nodes use (`blocks[d - 1]`).
    blocks: [std::ops::Range<usize>; 9],
    start: Vec<u32>,
    targets: Vec<u16>,
    /// `words` 64-bit words per node: bit `q` when the node implies `q`.
    rows: Vec<u64>,
    words: usize,
}

impl Graph {
    pub(super) fn new(board: &Board, cells_too: bool) -> Graph {
        Graph::of(&board.cands, cells_too, true)
    }

    /// The graph of the candidates `cands` (a digit `d` is bit `d - 1`),
    /// with its bitset rows when `with_rows` is set (none otherwise).
    pub(super) fn of(cands: &[u16; 81], cells_too: bool, with_rows: bool) -> Graph {
        let mut dense = vec![NONE; NODES];
        let mut sparse = Vec::new();
        let mut blocks: [std::ops::Range<usize>; 9] = Default::default();
        let mut with = [0 as CellSet; 9];
        for (cell, &cands) in cands.iter().enumerate() {
            for d in super::digits(cands) {
                with[d as usize - 1] |= 1 << cell;
            }
        }
        for d in 1..=9u8 {
            let first = sparse.len();
            for cell in cells_of(with[d as usize - 1]) {
                for on in [false, true] {
                    dense[node(cell, d, on) as usize] = sparse.len() as u16;
                    sparse.push(node(cell, d, on));
                }
            }
            blocks[d as usize - 1] = first / 64..sparse.len().div_ceil(64);
        }
        let n = sparse.len();
        let words = n.div_ceil(64).max(1);
        let mut rows = vec![0u64; if with_rows { n * words } else { 0 }];
        let mut start = Vec::with_capacity(n + 1);
        let mut targets = Vec::new();
        let mut next = Vec::new();
        for (i, &sp) in sparse.iter().enumerate() {
            start.push(targets.len() as u32);
            let (cell, d, on) = parts(sp);
            let with = with[d as usize - 1];
            if on {
                on_to_off(cands, with, cell, d, cells_too, &mut next);
            } else {
                off_to_on(cands, with, cell, d, cells_too, &mut next);
            }
            for &q in &next {
                let q = dense[q as usize];
                targets.push(q);
                if with_rows {
                    rows[i * words + q as usize / 64] |= 1 << (q % 64);
                }
            }
        }
        start.push(targets.len() as u32);
        Graph { sparse, dense, blocks, start, targets, rows, words }
    }

    /// The dense node of candidate `d` in `cell`, `on` or off (`None` when
    /// it is not a candidate).
    pub(super) fn dense_node(&self, cell: usize, d: u8, on: bool) -> Option<usize> {
        let n = self.dense[node(cell, d, on) as usize];
        (n != NONE).then_some(n as usize)
    }

    fn next(&self, n: u16) -> &[u16] {
        &self.targets[self.start[n as usize] as usize..self.start[n as usize + 1] as usize]
    }

    /// The words `span` of node `n`'s row.
    fn row(&self, n: usize, span: &std::ops::Range<usize>) -> &[u64] {
        &self.rows[n * self.words + span.start..n * self.words + span.end]
    }

    fn len(&self) -> usize {
        self.sparse.len()
    }
}

const NODES: usize = 81 * 9 * 2;

/// An assumption to follow: the dense node of a candidate on or off, and
/// the words of the rows its search may need (every node it can
/// reach lies there).
struct Source {
    node: u16,
    span: std::ops::Range<usize>,
}

/// Word-parallel breadth-first searches from every source together, one
/// level at a time: the first source (in order) whose contradiction comes
/// soonest, if one within `max_nodes` nodes exists, and the number of
/// nodes of that chain. The same source and length as searching each
/// source alone, in order, and keeping the first shortest.
fn shortest_contradiction(graph: &Graph, sources: &[Source], max_nodes: usize) -> Option<(usize, usize)> {
    let w = graph.words;
    let mut seen = vec![0u64; sources.len() * w];
    let mut frontier = vec![0u64; sources.len() * w];
    let mut next = vec![0u64; w];
    for (i, source) in sources.iter().enumerate() {
        let n = source.node as usize;
        seen[i * w + n / 64] |= 1 << (n % 64);
        frontier[i * w + n / 64] |= 1 << (n % 64);
    }
    let mut active: Vec<usize> = (0..sources.len()).collect();
    // Nodes found at this level end chains of `nodes` nodes.
    let mut nodes = 1;
    while !active.is_empty() {
        nodes += 1;
        if nodes > max_nodes {
            return None;
        }
        let mut kept = 0;
        for k in 0..active.len() {
            let i = active[k];
            let span = &sources[i].span;
            let next = &mut next[span.clone()];
            let frontier = &mut frontier[i * w + span.start..i * w + span.end];
            let seen = &mut seen[i * w + span.start..i * w + span.end];
            next.fill(0);
            for (j, &bits) in frontier.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let p = (span.start + j) * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    for (x, &y) in next.iter_mut().zip(graph.row(p, span)) {
                        *x |= y;
                    }
                }
            }
            let goal = (sources[i].node ^ 1) as usize;
            if next[goal / 64 - span.start] & 1 << (goal % 64) != 0 {
                return Some((i, nodes));
            }
            let mut any = 0;
            for ((f, x), s) in frontier.iter_mut().zip(next.iter()).zip(seen.iter_mut()) {
                *f = x & !*s;
                *s |= *f;
                any |= *f;
            }
            if any != 0 {
                active[kept] = i;
                kept += 1;
            }
        }
        active.truncate(kept);
    }
    None
}

/// What every node of a [`Graph`] reaches, itself included: one set of
/// dense nodes per strongly connected component (Tarjan's algorithm), each
/// made from the sets of the components it points to, which are complete
/// before it.
pub(super) struct Closure {
    component: Vec<u32>,
    /// `words` 64-bit words per component.
    reach: Vec<u64>,
    words: usize,
}

impl Closure {
    pub(super) fn new(graph: &Graph) -> Closure {
        const UNSEEN: u32 = u32::MAX;
        let (n, w) = (graph.len(), graph.words);
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut component = vec![UNSEEN; n];
        let mut stack: Vec<u16> = Vec::with_capacity(n);
        // The depth-first path: each node with the position of its next target.
        let mut path: Vec<(u16, u32)> = Vec::new();
        let mut reach: Vec<u64> = Vec::new();
        let mut count = 0u32;
        let mut components = 0usize;
        for root in 0..n {
            if index[root] != UNSEEN {
                continue;
            }
            index[root] = count;
            low[root] = count;
            count += 1;
            stack.push(root as u16);
            path.push((root as u16, graph.start[root]));
            while let Some(&(v, e)) = path.last() {
                let v = v as usize;
                if e < graph.start[v + 1] {
                    path.last_mut().expect("a node on the path").1 += 1;
                    let q = graph.targets[e as usize] as usize;
                    if index[q] == UNSEEN {
                        index[q] = count;
                        low[q] = count;
                        count += 1;
                        stack.push(q as u16);
                        path.push((q as u16, graph.start[q]));
                    } else if component[q] == UNSEEN {
                        low[v] = low[v].min(index[q]);
                    }
                    continue;
                }
                path.pop();
                if let Some(&(p, _)) = path.last() {
                    low[p as usize] = low[p as usize].min(low[v]);
                }
                if low[v] != index[v] {
                    continue;
                }
                // `v` roots a component: the nodes above it on the stack.
                let c = components;
                components += 1;
                reach.resize(components * w, 0);
                let first = stack.iter().rposition(|&x| x as usize == v).expect("the root is on the stack");
                for &x in &stack[first..] {
                    component[x as usize] = c as u32;
                }
                for &x in &stack[first..] {
                    let x = x as usize;
                    reach[c * w + x / 64] |= 1 << (x % 64);
                    for &q in graph.next(x as u16) {
                        let d = component[q as usize] as usize;
                        if d != c {
                            for j in 0..w {
                                reach[c * w + j] |= reach[d * w + j];
                            }
                        }
                    }
                }
                stack.truncate(first);
            }
        }
        Closure { component, reach, words: w }
    }

    /// The dense nodes that dense node `v` reaches, itself included.
    pub(super) fn reach(&self, v: usize) -> &[u64] {
        let c = self.component[v] as usize;
        &self.reach[c * self.words..(c + 1) * self.words]
    }
}

/// For each node of `graph`, whether it reaches its negation (the same
/// candidate in the other state): whether a search from it meets a
/// contradiction at some length.
fn reaches_negation(graph: &Graph) -> Vec<bool> {
    let closure = Closure::new(graph);
    (0..graph.len())
        .map(|v| {
            let goal = v ^ 1;
            closure.reach(v)[goal / 64] >> (goal % 64) & 1 != 0
        })
        .collect()
}

/// Breadth-first search from `source`; the chain (source first) to its
/// contradiction, if one of at most `max_nodes` nodes exists.
fn contradiction(
    graph: &Graph,
    source: u16,
    max_nodes: usize,
    parent: &mut [u16],
    seen: &mut [bool],
) -> Option<Vec<u16>> {
    parent.fill(NONE);
    seen.fill(false);
    let goal = source ^ 1;
    seen[source as usize] = true;
    // Queues of "off" (0) and "on" (1) nodes; phases alternate, "on" first.
    let mut pending: [VecDeque<u16>; 2] = [VecDeque::new(), VecDeque::new()];
    pending[(source & 1) as usize].push_back(source);
    let path = |parent: &[u16], from: u16, last: u16| {
        let mut chain = vec![last];
        let mut p = from;
        while p != NONE {
            chain.push(p);
            p = parent[p as usize];
        }
        chain.reverse();
        chain
    };
    // Nodes generated in the current phase end chains of `nodes` nodes.
    let mut nodes = 1;
    let mut phase = 1;
    while !pending[0].is_empty() || !pending[1].is_empty() {
        if !pending[phase].is_empty() {
            nodes += 1;
            if nodes > max_nodes {
                return None;
            }
        }
        while let Some(p) = pending[phase].pop_front() {
            for &q in graph.next(p) {
                if q == goal {
                    return Some(path(parent, p, q));
                }
                if !seen[q as usize] {
                    seen[q as usize] = true;
                    parent[q as usize] = p;
                    pending[1 - phase].push_back(q);
                }
            }
        }
        phase = 1 - phase;
    }
    None
}

fn describe(chain: &[u16]) -> String {
    chain
        .iter()
        .map(|&n| {
            let (cell, d, on) = parts(n);
            format!("{}{}{d}", cell_name(cell), if on { "=" } else { "<>" })
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// The base ratings of a forcing X-chain (one digit's strong links) and of
/// a forcing chain (through cells too).
const X_CHAIN: Score = Score::from_tenths(66);
const CHAIN: Score = Score::from_tenths(70);

/// The longest chain, in nodes, that a pass with base rating `base` may
/// still use to beat `best` (rating, then length); below 2: none.
fn max_nodes(best: &Option<(Score, usize, Step)>, base: Score) -> usize {
    match best {
        None => usize::MAX,
        Some((r, n, _)) => {
            (2..*n.max(&2) + 1000).take_while(|&k| (base + length_bonus(k), k) < (*r, *n)).last().unwrap_or(0)
        }
    }
}

/// The step a contradiction proves: the chain's first node is false.
fn verdict(board: &Board, chain: &[u16], technique: Technique, rating: Score, words: Words) -> Step {
    let (cell, d, on) = parts(chain[0]);
    let (placements, eliminations, verdict) = if on {
        (vec![], vec![(cell, d)], format!("so {} is not {d}", cell_name(cell)))
    } else {
        let others: Vec<(usize, u8)> = super::digits(board.cands[cell] & !bit(d)).map(|e| (cell, e)).collect();
        (vec![(cell, d)], others, format!("so {}={d}", cell_name(cell)))
    };
    let text = words.make(|| {
        format!(
            "{}: assuming {} {d} leads to a contradiction: {}; {verdict}",
            technique.name(),
            if on { format!("{} is", cell_name(cell)) } else { format!("{} is not", cell_name(cell)) },
            describe(chain)
        )
    });
    Step { technique, rating, placements, eliminations, text }
}

/// The shortest forcing chain about one candidate: with `on`, one showing
/// that `d` in `cell` is false (assuming it true leads to a contradiction);
/// without, one showing it true (assuming it false does). Only strong links
/// of one digit (a forcing X-chain) unless `cells_too`, which also links
/// through cells. Rated as [`forcing_chain`] rates it.
pub fn refute(board: &Board, cell: usize, d: u8, on: bool, cells_too: bool) -> Option<Step> {
    if !board.has(cell, d) {
        return None;
    }
    let graph = Graph::new(board, cells_too);
    let (mut parent, mut seen) = (vec![NONE; graph.len()], vec![false; graph.len()]);
    let start = graph.dense[node(cell, d, on) as usize];
    let chain: Vec<u16> = contradiction(&graph, start, usize::MAX, &mut parent, &mut seen)?
        .into_iter()
        .map(|q| graph.sparse[q as usize])
        .collect();
    let (technique, base) =
        if cells_too { (Technique::ForcingChain, CHAIN) } else { (Technique::ForcingXChain, X_CHAIN) };
    Some(verdict(board, &chain, technique, base + length_bonus(chain.len()), Words::Write))
}

/// The easiest, then shortest, forcing chain (X-chains first, then chains through cells).
pub fn forcing_chain(board: &Board) -> Option<Step> {
    ranked_forcing_chain(board, Words::Write).map(|(_, _, step)| step)
}

/// [`forcing_chain`] with its rating and its number of nodes.
pub fn ranked_forcing_chain(board: &Board, words: Words) -> Option<(Score, usize, Step)> {
    let mut best: Option<(Score, usize, Step)> = None;
    let passes = [(false, X_CHAIN, Technique::ForcingXChain), (true, CHAIN, Technique::ForcingChain)];
    for (cells_too, base, technique) in passes {
        // Only chains easier, or as easy and shorter, than the best so far.
        let limit = max_nodes(&best, base);
        if limit < 2 {
            continue;
        }
        let graph = Graph::new(board, cells_too);
        let mut sources = Vec::new();
        for cell in 0..81 {
            if board.cands[cell].count_ones() < 2 {
                continue;
            }
            for d in super::digits(board.cands[cell]) {
                // X-chains stay with their digit.
                let span = if cells_too { 0..graph.words } else { graph.blocks[d as usize - 1].clone() };
                for on in [true, false] {
                    let node = graph.dense[node(cell, d, on) as usize];
                    sources.push(Source { node, span: span.clone() });
                }
            }
        }
        // Only the sources that meet a contradiction at some length can win.
        let contradicting = reaches_negation(&graph);
        sources.retain(|source| contradicting[source.node as usize]);
        let Some((i, len)) = shortest_contradiction(&graph, &sources, limit) else {
            continue;
        };
        let start = sources[i].node;
        let rating = base + length_bonus(len);
        let (mut parent, mut seen) = (vec![NONE; graph.len()], vec![false; graph.len()]);
        let chain: Vec<u16> = contradiction(&graph, start, limit, &mut parent, &mut seen)
            .expect("the word-parallel search found a chain")
            .into_iter()
            .map(|q| graph.sparse[q as usize])
            .collect();
        debug_assert_eq!(chain.len(), len);
        best = Some((rating, len, verdict(board, &chain, technique, rating, words)));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaching_the_negation_is_meeting_a_contradiction() {
        let (mut contradicting, mut not) = (0, 0);
        for board in crate::sudoku::rate::hard_boards().iter().step_by(7) {
            for cells_too in [false, true] {
                let graph = Graph::new(board, cells_too);
                let (mut parent, mut seen) = (vec![NONE; graph.len()], vec![false; graph.len()]);
                let reaches = reaches_negation(&graph);
                for (v, &reached) in reaches.iter().enumerate() {
                    let found = contradiction(&graph, v as u16, usize::MAX, &mut parent, &mut seen).is_some();
                    assert_eq!(reached, found, "node {v}");
                    *(if found { &mut contradicting } else { &mut not }) += 1;
                }
            }
        }
        assert!(contradicting > 100 && not > 100, "{contradicting} {not}");
    }
}
