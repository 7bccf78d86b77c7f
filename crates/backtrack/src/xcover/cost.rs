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
//! * The bound, the larger of two. First, *disjoint items*: primary items no
//!   two of which share an option (taken greedily in input order: the pieces
//!   of a packing, the workers of an assignment). Their coverings are all
//!   different options, so a completion pays at least, for each such item and
//!   each covering it lacks, the cost of its cheapest live option (its first:
//!   options are sorted). Second, *shares*: each option's cost is shared
//!   equally among its primary items (rounded down), and every primary item
//!   still needs, for each covering it lacks, at least the smallest share
//!   among its live options. Either sum is paid by any completion.
//!
//! So solutions of the bar's cost are not kept once `k` are known: among
//! solutions of equal cost, the ones the search meets first stay, and the
//! search meets them in a fixed order (the engine's: the item with the
//! fewest branches first, its options cheapest first, ties in input order).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

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
    let disjoint = disjoint_items(&sorted);
    let mut search = CostSearch {
        space,
        costs,
        shares,
        uniform,
        disjoint,
        k: k.max(1),
        kept: BinaryHeap::new(),
        stats: CostStats::default(),
    };
    search.run(control);
    let CostSearch { kept, stats, .. } = search;
    // Cheapest first; among equal costs, the first met first.
    let mut kept: Vec<Costed> = kept.into_sorted_vec().into_iter().map(|k| k.found).collect();
    for found in &mut kept {
        for o in &mut found.options {
            *o = order[*o];
        }
        debug_assert_eq!(found.cost + total_tax, problem.cost_of(&found.options));
        found.cost += total_tax;
    }
    Ok((kept, stats))
}

/// Primary items no two of which share an option, taken greedily in input
/// order: an item joins unless one of its options holds an item already in.
fn disjoint_items(problem: &Problem) -> Vec<usize> {
    let np = problem.n_primary();
    let mut options_of: Vec<Vec<usize>> = vec![Vec::new(); np];
    for o in 0..problem.n_options() {
        for e in problem.option(o) {
            if let Some(list) = options_of.get_mut(e.item as usize) {
                list.push(o);
            }
        }
    }
    let mut taken = vec![false; np];
    let mut disjoint = Vec::new();
    for p in 0..np {
        let meets_one = options_of[p]
            .iter()
            .any(|&o| problem.option(o).iter().any(|e| (e.item as usize) < np && taken[e.item as usize]));
        if !meets_one {
            taken[p] = true;
            disjoint.push(p);
        }
    }
    disjoint
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

/// A solution kept, ordered by cost, then by when the search met it: the
/// greatest is the first to give way to a cheaper one.
#[derive(Debug)]
struct Kept {
    met: u64,
    found: Costed,
}

impl Ord for Kept {
    fn cmp(&self, other: &Kept) -> Ordering {
        (self.found.cost, self.met).cmp(&(other.found.cost, other.met))
    }
}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Kept) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Kept {
    fn eq(&self, other: &Kept) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Kept {}

struct CostSearch {
    space: MccBitsSpace,
    /// Per (renumbered) option: its cost, and its cost shared among its primary items.
    costs: Vec<u64>,
    shares: Vec<u64>,
    uniform: bool,
    /// Primary items no two of which share an option.
    disjoint: Vec<usize>,
    k: usize,
    /// The best solutions so far (at most `k`), the dearest on top.
    kept: BinaryHeap<Kept>,
    stats: CostStats,
}

impl CostSearch {
    /// The cost a solution must stay below to be kept.
    fn bar(&self) -> u64 {
        match self.kept.peek() {
            Some(dearest) if self.kept.len() >= self.k => dearest.found.cost,
            _ => u64::MAX,
        }
    }

    /// Whether a lower bound on the cost of any completion of the current
    /// node reaches `limit` (the bound over disjoint items, then the one of
    /// shares, each left as soon as it does).
    fn bound_reaches(&self, limit: u64) -> bool {
        let needs = self.space.needs();
        let mut total = 0u64;
        for &p in &self.disjoint {
            let need = needs[p];
            if need == 0 {
                continue;
            }
            let cheapest = self.space.live_options(p).next().map_or(0, |o| self.costs[o]);
            total = total.saturating_add(cheapest.saturating_mul(u64::from(need)));
            if total >= limit {
                return true;
            }
        }
        let mut total = 0u64;
        for (p, &need) in needs.iter().enumerate() {
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
            if total >= limit {
                return true;
            }
        }
        false
    }

    fn keep(&mut self, cost: u64) {
        let options = self.space.chosen().to_vec();
        if self.kept.len() >= self.k {
            self.kept.pop();
        }
        self.kept.push(Kept { met: self.stats.improvements, found: Costed { cost, options } });
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
                let bar = self.bar();
                if cost >= bar || self.bound_reaches(bar - cost) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::parse;

    fn fixture(name: &str) -> Problem {
        let path = format!("{}/../../tests/data/xcover/{name}", env!("CARGO_MANIFEST_DIR"));
        parse(&std::fs::read_to_string(path).unwrap()).unwrap().problem
    }

    /// The workers of an assignment share no option; its jobs each share
    /// one with every worker.
    #[test]
    fn disjoint_items_are_the_workers_of_an_assignment() {
        assert_eq!(disjoint_items(&fixture("assign-4.dlx")), [0, 1, 2, 3]);
        let text = "a b c\na b\nb c\nc\n";
        assert_eq!(disjoint_items(&parse(text).unwrap().problem), [0, 2]);
    }

    /// The bound over disjoint items (each worker still to place pays at
    /// least its cheapest live option) cuts the 9x9 assignment's search to
    /// 21 nodes; the share bound alone takes 31.
    #[test]
    fn the_disjoint_items_bound_prunes_the_assignment() {
        let (best, stats) = best(&fixture("assign-9.dlx"), 1, &Control::new()).unwrap();
        assert_eq!(best[0].cost, 2013);
        assert!(stats.nodes <= 21, "{stats:?}");
    }

    /// Many kept solutions: the `k` cheapest, cheapest first, ties in the
    /// order met, as one sorted list of every solution's cost gives them.
    #[test]
    fn the_k_cheapest_of_many_come_in_order() {
        let problem = fixture("assign-9.dlx");
        let control = Control::new();
        let (all, _) = best(&problem, 400_000, &control).unwrap();
        assert_eq!(all.len(), 362_880, "9! assignments");
        assert!(all.windows(2).all(|w| w[0].cost <= w[1].cost));
        let (some, _) = best(&problem, 5000, &control).unwrap();
        let costs = |list: &[Costed]| list.iter().map(|c| c.cost).collect::<Vec<_>>();
        assert_eq!(costs(&some), costs(&all[..5000]));
        for found in &some {
            assert_eq!(found.cost, problem.cost_of(&found.options));
        }
    }
}
