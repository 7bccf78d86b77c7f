//! The cheapest solutions of a problem whose options have costs (Knuth's DLX5).
//!
//! A solution's cost is the sum of its options' costs. [`best`] finds the
//! `k` cheapest solutions by branch and bound on the
//! [bitset multiple-cover engine](super::mcc_bits), which takes plain exact
//! covers as well as bounded items:
//!
//! * Every item covered an exact number of times pays a *tax*, as in DLX5:
//!   taken item by item, the least cost among the options that hold it,
//!   which is then taken off each of those options' costs. Every solution
//!   pays the same total tax, so the search works on the *net* costs that
//!   remain, which are never negative and are 0 for some option of every
//!   taxed item; options dear in net terms then fall to the bound sooner.
//! * The options are renumbered by increasing net cost (ties in input order),
//!   so that every item's options are tried cheapest first.
//! * Once `k` solutions are known, the `k`-th cost is the bar: a choice
//!   whose cost brings the total to the bar or above is not taken, nor any
//!   later (dearer) option of the same item; a node is given up when its cost
//!   so far plus a lower bound on the cost still needed reaches the bar.
//! * The bound: each option's cost is shared equally among its primary items
//!   (rounded down), and every primary item still needs, for each covering it
//!   lacks, at least the smallest share among its live options. Any
//!   completion pays at least the sum of those shares.
//!
//! So solutions of the bar's cost are not kept once `k` are known: among
//! solutions of equal cost, the ones the search meets first stay, and the
//! search meets them in a fixed order (the engine's: the item with the
//! fewest branches first, its options cheapest first, ties in input order).

use super::mcc_bits::{MccBitsBranch, MccBitsSpace, MAX_OPTIONS};
use super::problem::Problem;
use crate::search::{Control, Node, Order, Space};

/// One solution and its cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Costed {
    /// The sum of the options' costs.
    pub cost: u64,
    /// The options (indices into the problem), in the order they were chosen.
    pub options: Vec<usize>,
}

/// What the cost search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CostStats {
    /// Nodes entered (choices taken).
    pub nodes: u64,
    /// Solutions met that were cheaper than the bar (kept, at least for a while).
    pub improvements: u64,
    /// Nodes given up because their bound reached the bar.
    pub cut: u64,
}

/// Why the cost search could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CostError {
    /// The problem has more options than the cost search takes.
    TooManyOptions(usize),
}

impl std::fmt::Display for CostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CostError::TooManyOptions(n) => {
                write!(f, "the cost search takes at most {MAX_OPTIONS} options, and this problem has {n}")
            }
        }
    }
}

impl std::error::Error for CostError {}

/// Nodes between two looks at the cancellation flag.
const POLL_INTERVAL: u64 = 1 << 12;

/// The `k` cheapest solutions of `problem`, cheapest first (ties in the order
/// the search meets them, see the [module docs](self)), and the search's
/// figures. Fewer when the problem has fewer solutions; the ones found so
/// far when `control` is cancelled.
pub fn best(problem: &Problem, k: usize, control: &Control) -> Result<(Vec<Costed>, CostStats), CostError> {
    let n = problem.n_options();
    if n > MAX_OPTIONS {
        return Err(CostError::TooManyOptions(n));
    }
    let np = problem.n_primary();
    let (net, total_tax) = net_costs(problem);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&o| net[o]);
    let sorted = problem.reordered(&order);
    let Some(space) = MccBitsSpace::new(&sorted) else {
        return Err(CostError::TooManyOptions(n));
    };
    let costs: Vec<u64> = order.iter().map(|&o| net[o]).collect();
    let shares: Vec<u64> = (0..n)
        .map(|o| {
            let primary = sorted.option(o).iter().filter(|e| (e.item as usize) < np).count() as u64;
            costs[o] / primary.max(1)
        })
        .collect();
    // When every option has as many primary items, shares rise with costs and
    // an item's first live option has the smallest share.
    let sizes = |o: usize| sorted.option(o).iter().filter(|e| (e.item as usize) < np).count();
    let uniform = (0..n).all(|o| sizes(o) == sizes(0));
    let mut search =
        CostSearch { space, costs, shares, uniform, k: k.max(1), kept: Vec::new(), stats: CostStats::default() };
    search.run(control);
    let CostSearch { mut kept, stats, .. } = search;
    for found in &mut kept {
        for o in &mut found.options {
            *o = order[*o];
        }
        debug_assert_eq!(found.cost + total_tax, problem.cost_of(&found.options));
        found.cost += total_tax;
    }
    Ok((kept, stats))
}

/// Each option's net cost (its cost less the taxes on its items, see the
/// [module docs](self)) and the tax every solution pays.
fn net_costs(problem: &Problem) -> (Vec<u64>, u64) {
    let n = problem.n_options();
    let mut net: Vec<u64> = (0..n).map(|o| problem.cost(o)).collect();
    let mut by_item: Vec<Vec<usize>> = vec![Vec::new(); problem.n_primary()];
    for o in 0..n {
        for e in problem.option(o) {
            if let Some(list) = by_item.get_mut(e.item as usize) {
                list.push(o);
            }
        }
    }
    let mut total = 0u64;
    for (p, options) in by_item.iter().enumerate() {
        let (lo, hi) = problem.bounds(p);
        if lo != hi {
            continue;
        }
        let tax = options.iter().map(|&o| net[o]).min().unwrap_or(0);
        if tax == 0 {
            continue;
        }
        for &o in options {
            net[o] -= tax;
        }
        total = total.saturating_add(tax.saturating_mul(u64::from(lo)));
    }
    (net, total)
}

struct CostSearch {
    space: MccBitsSpace,
    /// Per (renumbered) option: its cost, and its cost shared among its primary items.
    costs: Vec<u64>,
    shares: Vec<u64>,
    uniform: bool,
    k: usize,
    /// The best solutions so far, cheapest first.
    kept: Vec<Costed>,
    stats: CostStats,
}

impl CostSearch {
    /// The cost a solution must stay below to be kept.
    fn bar(&self) -> u64 {
        if self.kept.len() < self.k {
            u64::MAX
        } else {
            self.kept[self.k - 1].cost
        }
    }

    /// A lower bound on the cost of any completion of the current node.
    fn bound(&self) -> u64 {
        let mut total = 0u64;
        for (p, &need) in self.space.needs().iter().enumerate() {
            if need == 0 {
                continue;
            }
            let mut options = self.space.live_options(p);
            let share = if self.uniform {
                options.next().map_or(0, |o| self.shares[o])
            } else {
                options.map(|o| self.shares[o]).min().unwrap_or(0)
            };
            total = total.saturating_add(share.saturating_mul(u64::from(need)));
        }
        total
    }

    fn keep(&mut self, cost: u64) {
        let options = self.space.chosen().to_vec();
        let at = self.kept.partition_point(|c| c.cost <= cost);
        self.kept.insert(at, Costed { cost, options });
        self.kept.truncate(self.k);
        self.stats.improvements += 1;
    }

    /// Enters the current node: keeps it if it is a solution, or gives back
    /// its branch when it is worth searching below.
    fn enter(&mut self, cost: u64) -> Option<MccBitsBranch> {
        match self.space.expand(Order::Heuristic) {
            Node::Solution => {
                if cost < self.bar() {
                    self.keep(cost);
                }
                None
            }
            Node::Dead => None,
            Node::Branch(branch) => {
                if cost.saturating_add(self.bound()) >= self.bar() {
                    self.stats.cut += 1;
                    return None;
                }
                Some(branch)
            }
        }
    }

    fn run(&mut self, control: &Control) {
        // Per level: the branch, and the cost of the choices above it.
        let mut stack: Vec<(MccBitsBranch, u64)> = Vec::new();
        if let Some(branch) = self.enter(0) {
            stack.push((branch, 0));
        }
        let n_options = self.costs.len();
        while let Some((branch, cost)) = stack.last_mut() {
            let cost = *cost;
            let Some(choice) = self.space.next_choice(branch) else {
                stack.pop();
                if !stack.is_empty() {
                    self.space.pop();
                }
                continue;
            };
            let next = cost.saturating_add(if choice < n_options { self.costs[choice] } else { 0 });
            if choice < n_options && next >= self.bar() {
                // The item's later options cost as much or more.
                branch.skip_options();
                continue;
            }
            self.stats.nodes += 1;
            if self.stats.nodes.is_multiple_of(POLL_INTERVAL) && control.is_cancelled() {
                break;
            }
            self.space.push(choice);
            match self.enter(next) {
                Some(below) => stack.push((below, next)),
                None => self.space.pop(),
            }
        }
    }
}
