//! Bidirectional cycles: X-cycles and Y-cycles (6.5 and up) and cycles
//! through both kinds of link (7.0 and up), as Sudoku Explainer finds them.
//!
//! A *candidate* is a digit `d` in a cell. Two kinds of implication link
//! candidates:
//! - *on to off* (weak): if a candidate is true, the same digit is false in
//!   every peer (box, row, column), and, through the cell (a "Y" link), the
//!   cell's other candidates are false;
//! - *off to on* (strong): if a candidate is false, the digit's only other
//!   place in a unit is true (an "X" link), and, through a cell with two
//!   candidates (a "Y" link), the other candidate is true.
//!
//! A cycle is a closed chain that alternates "on" and "off" and comes back
//! to its start: start on, then off, on, off, ... on at the start again.
//! Read forward it says "if the start is true, each on candidate is true";
//! the same links read backward say "if the start is false, each off
//! candidate is true". So exactly one of every two neighbours along the
//! loop is true, whichever way the start goes, and a candidate `d` outside
//! the loop's cells that sees both an "on" `d` and an "off" `d` of the loop
//! is false: one of the two is `d` in every case.
//!
//! Sudoku Explainer searches three times: with X links only (the X-cycle,
//! one digit, 6.5), with Y links only between two-candidate cells (the
//! Y-cycle, 6.5; on-to-off links then go to the same digit in peers and
//! to the cell's other digit), and with both (7.0). From each candidate
//! assumed on, a breadth-first search spreads on and off layers: an "on"
//! node is expanded once, an "off" node once for each "on" node that
//! reaches it unless it is one of that node's ancestors; a cycle is any
//! return to the start at the fourth layer or later. A cycle's complexity
//! is its number of nodes, its rating the base plus the chain length
//! bonus of [`super::chains::length_bonus`]. The cycle used is the one of
//! lowest rating, then lowest complexity, then X before Y before both,
//! then first found (cells in order, digits increasing); only cycles that
//! remove something count.

use super::cellsets::{cells_of, PEERS, PEER_PARTS};
use super::chains::length_bonus;
use super::{bit, cell_name, count9, eliminations_name, single, units_of, Board, Step, Tables, Technique, Words};
use crate::sudoku::score::Score;

/// A node of the search: candidate `cell * 9 + d - 1`, state, parent index.
#[derive(Clone, Copy)]
struct Node {
    cand: u16,
    on: bool,
    parent: u32,
}

const ROOT: u32 = u32::MAX;

/// The most nodes a cycle can have: its on nodes are distinct candidates,
/// and so are its off nodes.
const LONGEST: usize = 2 * 729 + 1;

/// The search state reused from one start to the next.
struct Search {
    /// The nodes of a search, layer after layer; never shorter than a
    /// search may need (see [`Search::cycles`]).
    nodes: Vec<Node>,
    /// `seen_on[c] == stamp`: candidate `c` is an on node of this search.
    seen_on: [u32; 729],
    /// `claimed_off[c] == stamp`: candidate `c` is an off node of this search.
    claimed_off: [u32; 729],
    /// `closes[c] == stamp`: off candidate `c` turns the start on.
    closes: [u32; 729],
    stamp: u32,
}

/// A cycle found: its ranking and its step.
#[derive(Debug)]
pub struct Ranked {
    /// Rating.
    pub rating: Score,
    /// Number of nodes.
    pub complexity: usize,
    /// Sudoku Explainer's tie-break: 2 for X, 3 for Y, 4 for both kinds of link.
    pub sort_key: u8,
    /// The step.
    pub step: Step,
}

fn parts(cand: u16) -> (usize, u8) {
    (cand as usize / 9, (cand % 9) as u8 + 1)
}

fn cand(cell: usize, d: u8) -> u16 {
    (cell * 9 + d as usize - 1) as u16
}

/// The links of one board for one kind of cycle, as lists per candidate:
/// the nodes an "on" candidate turns off (the cell's other digits for Y
/// links, then the digit in the box, the row and the column) and the
/// nodes an "off" candidate turns on (the other digit of a two-candidate
/// cell for Y links, the only other place of the digit in its box, row and
/// column for X links), in Sudoku Explainer's order.
///
/// Only *linked* candidates, those that turn something on when off, are
/// listed, and only linked candidates are turned off: the search expands
/// no other on node (a start turns something on, and every other on node
/// is turned on), and an off node that turns nothing on is not made (see
/// [`Search::cycles`]). The on links are symmetric: the only two places
/// of a digit in a unit turn each other on, and so do the two candidates
/// of a cell. So the candidates that, off, turn `c` on are those `c`
/// turns on when off.
struct Links {
    /// `off[c]..off[c + 1]` index `off_targets`, `on[c]..on[c + 1]` index
    /// `on_targets`.
    off: [u32; 730],
    on: [u32; 730],
    off_targets: Vec<u16>,
    on_targets: Vec<u16>,
}

impl Links {
    fn new(board: &Board, t: &Tables, y: bool, x: bool) -> Links {
        let mut links = Links {
            off: [0; 730],
            on: [0; 730],
            off_targets: Vec::with_capacity(4096),
            on_targets: Vec::with_capacity(1024),
        };
        // `linked[d - 1]`: the cells where candidate `d` is linked.
        let mut linked = [0u128; 9];
        if y {
            let pairs = (0..81).filter(|&cell| count9(board.cands[cell]) == 2).fold(0u128, |m, cell| m | 1 << cell);
            for (k, set) in linked.iter_mut().enumerate() {
                *set |= pairs & t.cells[k];
            }
        }
        if x {
            for unit in 0..27 {
                for (k, set) in linked.iter_mut().enumerate() {
                    if count9(t.positions[unit][k]) == 2 {
                        *set |= t.unit_cells(unit, k as u8 + 1);
                    }
                }
            }
        }
        let any = linked.iter().fold(0u128, |m, set| m | set);
        for (cell, peers) in PEER_PARTS.iter().enumerate() {
            let base = cell * 9;
            if any >> cell & 1 == 0 {
                let (off, on) = (links.off_targets.len() as u32, links.on_targets.len() as u32);
                links.off[base + 1..base + 10].fill(off);
                links.on[base + 1..base + 10].fill(on);
                continue;
            }
            let cands = board.cands[cell];
            for d in 1..=9u8 {
                let with_d = linked[d as usize - 1];
                if with_d >> cell & 1 != 0 {
                    if y {
                        for e in super::digits(cands & !bit(d)) {
                            if linked[e as usize - 1] >> cell & 1 != 0 {
                                links.off_targets.push(cand(cell, e));
                            }
                        }
                    }
                    for part in peers {
                        links.off_targets.extend(cells_of(part & with_d).map(|peer| cand(peer, d)));
                    }
                    if y && count9(cands) == 2 {
                        let other = cands & !bit(d);
                        links.on_targets.push(cand(cell, other.trailing_zeros() as u8 + 1));
                    }
                    if x {
                        for unit in units_of(cell) {
                            let others = t.unit_cells(unit, d) & !(1u128 << cell);
                            if single(others) {
                                links.on_targets.push(cand(others.trailing_zeros() as usize, d));
                            }
                        }
                    }
                }
                links.off[base + d as usize] = links.off_targets.len() as u32;
                links.on[base + d as usize] = links.on_targets.len() as u32;
            }
        }
        links
    }

    /// The linked candidates on candidate `c` turns off.
    fn turns_off(&self, c: u16) -> &[u16] {
        &self.off_targets[self.off[c as usize] as usize..self.off[c as usize + 1] as usize]
    }

    /// The nodes off candidate `c` turns on, and the candidates that, off,
    /// turn `c` on.
    fn turns_on(&self, c: u16) -> &[u16] {
        &self.on_targets[self.on[c as usize] as usize..self.on[c as usize + 1] as usize]
    }
}

impl Search {
    fn new() -> Search {
        Search { nodes: Vec::new(), seen_on: [0; 729], claimed_off: [0; 729], closes: [0; 729], stamp: 0 }
    }

    /// The cycles through `start` (on) of at most `max_len` nodes, in the
    /// order of a breadth-first search that spreads on and off layers: an
    /// on node is expanded once, an off node once for each on node that
    /// reaches it unless it is one of that node's ancestors. Each cycle is
    /// passed to `found` as the nodes made and the index of its last off
    /// node (the one that turns the start on again), until `found` returns
    /// `true`.
    ///
    /// Only the off nodes that can matter are made: the first of each
    /// candidate that turns something on (it reaches every on node the
    /// candidate can reach; it is no ancestor, as ancestors come first;
    /// [`Links`] lists no other candidate to turn off)
    /// and, from the fourth layer on, a repeat of a candidate that turns
    /// the start on (it closes a cycle). Repeats reach no new on node, so
    /// the cycles come in the same order as when every off node is made.
    /// The start reached again is not made a node either; so each layer's
    /// nodes follow one another, and the on nodes are distinct candidates
    /// expanded once each: at most 729 on nodes and one off node for each
    /// of their links.
    fn cycles(&mut self, links: &Links, start: u16, max_len: usize, mut found: impl FnMut(&[Node], u32) -> bool) {
        let Search { nodes, seen_on, claimed_off, closes, stamp } = self;
        let most = 729 + links.off_targets.len();
        if nodes.len() < most {
            nodes.resize(most, Node { cand: 0, on: false, parent: ROOT });
        }
        *stamp += 1;
        let stamp = *stamp;
        seen_on[start as usize] = stamp;
        for &c in links.turns_on(start) {
            closes[c as usize] = stamp;
        }
        nodes[0] = Node { cand: start, on: true, parent: ROOT };
        let mut made = 1;
        // The on nodes to expand.
        let mut layer = 0..1;
        let mut length = 0;
        // Cycles closing in this round have `length + 2` nodes.
        while !layer.is_empty() && length + 2 <= max_len {
            // On layer: every on node turns candidates off.
            length += 1;
            let first = made;
            for i in layer {
                for &c in links.turns_off(nodes[i].cand) {
                    let keep = if claimed_off[c as usize] != stamp {
                        claimed_off[c as usize] = stamp;
                        true
                    } else {
                        length + 1 >= 4 && closes[c as usize] == stamp && !is_ancestor(nodes, i, c, false)
                    };
                    if keep {
                        nodes[made] = Node { cand: c, on: false, parent: i as u32 };
                        made += 1;
                    }
                }
            }
            // Off layer: every off node turns candidates on.
            length += 1;
            let offs = first..made;
            let first = made;
            for i in offs {
                for &c in links.turns_on(nodes[i].cand) {
                    if length >= 4 && c == start && found(&nodes[..made], i as u32) {
                        return;
                    }
                    if seen_on[c as usize] != stamp {
                        seen_on[c as usize] = stamp;
                        nodes[made] = Node { cand: c, on: true, parent: i as u32 };
                        made += 1;
                    }
                }
            }
            layer = first..made;
        }
    }
}

/// Whether `(c, on)` is an ancestor of node `i` (not `i` itself).
fn is_ancestor(nodes: &[Node], i: usize, c: u16, on: bool) -> bool {
    let mut p = nodes[i].parent;
    while p != ROOT {
        let n = nodes[p as usize];
        if n.cand == c && n.on == on {
            return true;
        }
        p = n.parent;
    }
    false
}

/// The cycle whose last off node is `last`, from the start reached again
/// back to the first off node, into `path`.
fn path_of_into(nodes: &[Node], start: u16, last: u32, path: &mut Vec<Node>) {
    path.clear();
    path.push(Node { cand: start, on: true, parent: last });
    let mut p = last;
    while nodes[p as usize].parent != ROOT {
        path.push(nodes[p as usize]);
        p = nodes[p as usize].parent;
    }
}

/// The candidates the cycle whose last off node is `last` removes: digit
/// `d` outside the loop's cells that sees both an on `d` and an off `d` of
/// the loop (`t`: the board's tables). Read off the nodes in one pass, with
/// no path made.
fn removals(t: &Tables, nodes: &[Node], start: u16, last: u32) -> Vec<(usize, u8)> {
    let (cell, d) = parts(start);
    let mut cells = 1u128 << cell;
    // `sees[d - 1][on]`: the cells an on (off) `d` of the loop sees.
    let mut sees = [[0u128; 2]; 9];
    sees[d as usize - 1][1] = PEERS[cell];
    let mut p = last;
    while nodes[p as usize].parent != ROOT {
        let n = nodes[p as usize];
        let (cell, d) = parts(n.cand);
        cells |= 1u128 << cell;
        sees[d as usize - 1][n.on as usize] |= PEERS[cell];
        p = n.parent;
    }
    let mut out = Vec::new();
    for (k, s) in sees.iter().enumerate() {
        let gone = s[0] & s[1] & !cells & t.cells[k];
        if gone != 0 {
            out.extend(cells_of(gone).map(|c| (c, k as u8 + 1)));
        }
    }
    out.sort_unstable();
    out
}

/// The best bidirectional cycle, ranked as Sudoku Explainer ranks it.
pub fn best_cycle(board: &Board) -> Option<Ranked> {
    best_cycle_within(board, None, Words::Write)
}

/// [`best_cycle`] if it ranks (rating, complexity, sort key) at most
/// `bound`; `None` when it ranks above. Cycles that cannot rank below both
/// the best so far and `bound` are not searched for.
fn best_cycle_within(board: &Board, bound: Option<(Score, usize, u8)>, words: Words) -> Option<Ranked> {
    let mut search = Search::new();
    // (rating, complexity, sort key, loop, removals)
    type Found = (Score, usize, u8, Vec<Node>, Vec<(usize, u8)>);
    let mut best: Option<Found> = None;
    // The most nodes a cycle may have and still be used: ranks grow with length.
    let max_len = |best: &Option<Found>, base: Score, key: u8| {
        let fits = |c: usize| {
            let rank = (base + length_bonus(c), c, key);
            best.as_ref().is_none_or(|b| rank < (b.0, b.1, b.2)) && bound.is_none_or(|b| rank <= b)
        };
        if best.is_none() && bound.is_none() {
            return usize::MAX;
        }
        // No cycle is longer than `LONGEST`: past it, no need to look.
        (4..=LONGEST + 1).take_while(|&c| fits(c)).last().unwrap_or(0)
    };
    let tables = Tables::new(board);
    let mut path = Vec::new();
    // (Y links, X links, base rating, sort key)
    let (single, both) = (Score::from_tenths(65), Score::from_tenths(70));
    for (y, x, base, key) in [(false, true, single, 2), (true, false, single, 3), (true, true, both, 4)] {
        let mut limit = max_len(&best, base, key);
        let mut best_changed = false;
        if limit < 4 {
            continue;
        }
        let links = Links::new(board, &tables, y, x);
        for cell in 0..81 {
            let n = count9(board.cands[cell]);
            if n < 2 || (!x && n > 2) {
                continue;
            }
            for d in super::digits(board.cands[cell]) {
                if best_changed {
                    limit = max_len(&best, base, key);
                    best_changed = false;
                }
                if limit < 4 {
                    continue;
                }
                let start = cand(cell, d);
                // A cycle comes back through a candidate that turns the start
                // on (each such candidate is one the start turns off).
                if links.turns_on(start).is_empty() {
                    continue;
                }
                search.cycles(&links, start, limit, |nodes, last| {
                    // Cycles come shortest first and all within `limit`: the
                    // first that removes something is this start's best.
                    let eliminations = removals(&tables, nodes, start, last);
                    if eliminations.is_empty() {
                        return false;
                    }
                    path_of_into(nodes, start, last, &mut path);
                    let complexity = path.len();
                    let rating = base + length_bonus(complexity);
                    best = Some((rating, complexity, key, std::mem::take(&mut path), eliminations));
                    best_changed = true;
                    true
                });
            }
        }
    }
    let (rating, complexity, sort_key, mut path, eliminations) = best?;
    let technique = match sort_key {
        2 => Technique::XCycle,
        3 => Technique::YCycle,
        _ => Technique::Cycle,
    };
    path.reverse();
    let text = words.make(|| {
        let (start, d0) = parts(path[path.len() - 1].cand);
        let mut loop_text = format!("{}={d0}", cell_name(start));
        for n in &path {
            let (cell, d) = parts(n.cand);
            loop_text.push_str(&format!(" -> {}{}{d}", cell_name(cell), if n.on { "=" } else { "<>" }));
        }
        format!(
            "{}: {loop_text} closes a loop, so along it one of every two linked candidates is true \
             either way; a digit seeing an on and an off candidate of the loop goes: {}",
            technique.name(),
            eliminations_name(&eliminations)
        )
    });
    let step = Step { technique, rating, placements: vec![], eliminations, text };
    Some(Ranked { rating, complexity, sort_key, step })
}

/// The step of Sudoku Explainer's unary chaining: the best of the
/// bidirectional cycles and the forcing chains of [`super::chains`], by
/// rating, then number of nodes, then kind (X before Y before both); a
/// cycle before a chain when all are equal.
pub fn cycle_or_forcing_chain(board: &Board, words: Words) -> Option<Step> {
    let chain = super::chains::ranked_forcing_chain(board, words);
    // Only a cycle ranking at most the chain can be used.
    let bound = chain
        .as_ref()
        .map(|(rating, nodes, step)| (*rating, *nodes, if step.technique == Technique::ForcingXChain { 2 } else { 4 }));
    let cycle = best_cycle_within(board, bound, words);
    match (cycle, chain) {
        (Some(c), Some((rating, nodes, step))) => {
            let key = if step.technique == Technique::ForcingXChain { 2 } else { 4 };
            if (c.rating, c.complexity, c.sort_key) <= (rating, nodes, key) {
                Some(c.step)
            } else {
                Some(step)
            }
        }
        (Some(c), None) => Some(c.step),
        (None, chain) => chain.map(|(_, _, step)| step),
    }
}
