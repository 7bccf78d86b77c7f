//! Cutting a search into independent subproblems.
//!
//! A subproblem is a *prefix*: the choices made from the root to one node of
//! the search tree. Replaying a prefix on a copy of the root space puts that
//! copy at the node, and searching from there explores exactly the subtree
//! below it. The prefixes returned by [`split`] cover the whole tree without
//! overlap, in the order a sequential walk meets them, so per-prefix counts
//! add up to the total and per-prefix solution lists concatenate to the
//! sequential output.

use super::{Node, Order, Space, Stats};

/// One independent subproblem: the choices leading from the root to it.
pub type Piece<C> = Vec<C>;

/// Prefixes of every live node at `depth` (and of solutions found above it),
/// in walk order. Dead ends above `depth` are dropped: they hold nothing.
pub fn split<S: Space>(space: &mut S, order: Order, depth: usize) -> Vec<Piece<S::Choice>> {
    split_counting(space, order, depth).0
}

/// [`split`], also returning the statistics of the part of the tree above
/// the pieces: the nodes entered on the way down to them, the dead ends met
/// there, and the guesses made at the nodes passed through. Added to the
/// statistics of a walk below each piece, they give exactly the figures of
/// one walk of the whole tree.
pub fn split_counting<S: Space>(space: &mut S, order: Order, depth: usize) -> (Vec<Piece<S::Choice>>, Stats) {
    let mut pieces = Vec::new();
    let mut prefix = Vec::with_capacity(depth);
    let mut stats = Stats::default();
    descend(space, order, depth, &mut prefix, &mut pieces, &mut stats);
    (pieces, stats)
}

/// Splits at increasing depths until there are at least `target` pieces (or
/// the tree has no deeper levels), so callers can ask for "enough work for T
/// threads" without knowing the tree's shape.
pub fn split_into<S: Space>(space: &mut S, order: Order, target: usize) -> Vec<Piece<S::Choice>> {
    split_into_counting(space, order, target).0
}

/// [`split_into`] with the statistics of the tree above the pieces (see
/// [`split_counting`]).
pub fn split_into_counting<S: Space>(space: &mut S, order: Order, target: usize) -> (Vec<Piece<S::Choice>>, Stats) {
    deepen_split(target, |depth| split_counting(space, order, depth))
}

/// [`split_into_counting`] with the split at each depth made by
/// `split_at(depth)`, which must give what [`split_counting`] gives (a
/// space's own faster walk of the same tree, say).
pub fn deepen_split<C>(
    target: usize,
    mut split_at: impl FnMut(usize) -> (Vec<Piece<C>>, Stats),
) -> (Vec<Piece<C>>, Stats) {
    let mut depth = 0;
    let (mut pieces, mut stats) = split_at(depth);
    while pieces.len() < target {
        depth += 1;
        let deeper = split_at(depth);
        if deeper.0.len() <= pieces.len() && deeper.0.iter().all(|p| p.len() < depth) {
            // No node reaches this depth: every piece is already a leaf.
            return deeper;
        }
        (pieces, stats) = deeper;
    }
    (pieces, stats)
}

fn descend<S: Space>(
    space: &mut S,
    order: Order,
    depth: usize,
    prefix: &mut Vec<S::Choice>,
    pieces: &mut Vec<Piece<S::Choice>>,
    stats: &mut Stats,
) {
    match space.expand(order) {
        Node::Dead => {
            // The walk counts a dead end at every node but the root.
            if !prefix.is_empty() {
                stats.dead_ends += 1;
            }
        }
        Node::Solution => pieces.push(prefix.clone()),
        Node::Branch(_) if prefix.len() == depth => pieces.push(prefix.clone()),
        Node::Branch(mut branch) => {
            let mut tried = 0;
            while let Some(choice) = space.next_choice(&mut branch) {
                tried += 1;
                stats.nodes += 1;
                prefix.push(choice);
                if space.push(choice) {
                    descend(space, order, depth, prefix, pieces, stats);
                } else {
                    stats.dead_ends += 1;
                }
                space.pop();
                prefix.pop();
            }
            if tried >= 2 {
                stats.guesses += 1;
            }
        }
    }
}

/// Puts `space` (at its root) at the node `piece` leads to. Returns `false`
/// if a choice no longer applies, which means `piece` came from another space.
/// The replayed choices are not undone: use a copy of the root.
pub fn replay<S: Space>(space: &mut S, order: Order, piece: &[S::Choice]) -> bool {
    for &choice in piece {
        // Expanding first lets spaces that record per-node state in `expand`
        // (e.g. the cell they branch on) see the same sequence as in the walk.
        if !matches!(space.expand(order), Node::Branch(_)) || !space.push(choice) {
            return false;
        }
    }
    true
}
