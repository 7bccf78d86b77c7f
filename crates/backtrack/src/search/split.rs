//! Cutting a search into independent subproblems.
//!
//! A subproblem is a *prefix*: the choices made from the root to one node of
//! the search tree. Replaying a prefix on a copy of the root space puts that
//! copy at the node, and searching from there explores exactly the subtree
//! below it. The prefixes returned by [`split`] cover the whole tree without
//! overlap, in the order a sequential walk meets them, so per-prefix counts
//! add up to the total and per-prefix solution lists concatenate to the
//! sequential output.

use super::{Node, Order, Space};

/// One independent subproblem: the choices leading from the root to it.
pub type Piece<C> = Vec<C>;

/// Prefixes of every live node at `depth` (and of solutions found above it),
/// in walk order. Dead ends above `depth` are dropped: they hold nothing.
pub fn split<S: Space>(space: &mut S, order: Order, depth: usize) -> Vec<Piece<S::Choice>> {
    let mut pieces = Vec::new();
    let mut prefix = Vec::with_capacity(depth);
    descend(space, order, depth, &mut prefix, &mut pieces);
    pieces
}

/// Splits at increasing depths until there are at least `target` pieces (or
/// the tree has no deeper levels), so callers can ask for "enough work for T
/// threads" without knowing the tree's shape.
pub fn split_into<S: Space>(space: &mut S, order: Order, target: usize) -> Vec<Piece<S::Choice>> {
    let mut depth = 0;
    let mut pieces = split(space, order, depth);
    while pieces.len() < target {
        depth += 1;
        let deeper = split(space, order, depth);
        if deeper.len() <= pieces.len() && deeper.iter().all(|p| p.len() < depth) {
            // No node reaches this depth: every piece is already a leaf.
            return deeper;
        }
        pieces = deeper;
    }
    pieces
}

fn descend<S: Space>(
    space: &mut S,
    order: Order,
    depth: usize,
    prefix: &mut Vec<S::Choice>,
    pieces: &mut Vec<Piece<S::Choice>>,
) {
    match space.expand(order) {
        Node::Dead => {}
        Node::Solution => pieces.push(prefix.clone()),
        Node::Branch(_) if prefix.len() == depth => pieces.push(prefix.clone()),
        Node::Branch(mut branch) => {
            while let Some(choice) = space.next_choice(&mut branch) {
                prefix.push(choice);
                if space.push(choice) {
                    descend(space, order, depth, prefix, pieces);
                }
                space.pop();
                prefix.pop();
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
