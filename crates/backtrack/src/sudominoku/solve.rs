//! Solving with restarts, and counting distinct grids.

use std::collections::HashSet;
use std::ops::ControlFlow;

use crate::rng::Rng;
use crate::search::{Node, Order, Search, Space};

use super::space::Branch;
use super::{Grid, Placement, Puzzle, Solution, Sudominoku};

/// The seed of the restarts' shuffles: the same puzzle takes the same path.
const RESTART_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Nodes the first attempt of [`solve`] may visit before it restarts.
const FIRST_BUDGET: u64 = 1 << 12;

/// A solution of `puzzle`, or `None` when it has none.
///
/// Puzzles with few dominoes given have many solutions, and a depth-first
/// search can spend long in a barren subtree after one early wrong turn. So
/// the search runs with a node budget and, when the budget runs out,
/// restarts with the placements of every node shuffled and the budget
/// doubled. An attempt that ends within its budget has explored the whole
/// tree, so `None` is still a proof that there is no solution.
pub fn solve(puzzle: &Puzzle) -> Option<Solution> {
    let mut space = Sudominoku::new(puzzle);
    let mut budget = FIRST_BUDGET;
    let mut restart = 0;
    loop {
        let mut found = None;
        let mut limited = Budgeted { space: &mut space, nodes_left: budget, exhausted: false };
        Search::new(&mut limited).walk(|b| {
            found = Some(b.space.solution());
            ControlFlow::Break(())
        });
        if found.is_some() || !limited.exhausted {
            return found;
        }
        budget = budget.saturating_mul(2);
        restart += 1;
        space.shuffle = Some(Rng::stream(RESTART_SEED, restart));
    }
}

/// [`Sudominoku`] that stops branching after a number of nodes.
struct Budgeted<'a> {
    space: &'a mut Sudominoku,
    nodes_left: u64,
    /// Whether the budget ran out (so the walk did not see the whole tree).
    exhausted: bool,
}

impl Space for &mut Budgeted<'_> {
    type Branch = Branch;
    type Choice = Placement;
    type Solution = Solution;

    fn expand(&mut self, order: Order) -> Node<Branch> {
        self.space.expand(order)
    }
    fn next_choice(&mut self, branch: &mut Branch) -> Option<Placement> {
        if self.nodes_left == 0 {
            // Out of budget: every open node reports no more choices, so the walk unwinds at once.
            self.exhausted = true;
            return None;
        }
        self.nodes_left -= 1;
        self.space.next_choice(branch)
    }
    fn push(&mut self, p: Placement) -> bool {
        self.space.push(p)
    }
    fn pop(&mut self) {
        self.space.pop()
    }
    fn solution(&self) -> Solution {
        self.space.solution()
    }
}

/// Distinct solution grids of `puzzle`, stopping once `limit` are found.
/// Returns the count and whether the search was complete (`false`: stopped at the limit).
pub fn count_grids(puzzle: &Puzzle, limit: Option<u64>) -> (u64, bool) {
    let limit = limit.unwrap_or(u64::MAX);
    if limit == 0 {
        return (0, false);
    }
    let mut grids: HashSet<Grid> = HashSet::new();
    let mut search = Search::new(Sudominoku::new(puzzle));
    let mut complete = true;
    search.walk(|space| {
        grids.insert(space.grid);
        if grids.len() as u64 >= limit {
            complete = false;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    (grids.len() as u64, complete)
}
