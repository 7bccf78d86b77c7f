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
//!   later (dearer) option of the same item, and below a choice the options
//!   whose cost would bring the total there are out of the subtree (the bar
//!   only falls), so that the engine's count of an item's branches counts
//!   only the options it can still afford, as DLX5's choice of item does. A
//!   node is given up when its cost so far plus a lower bound on the cost
//!   still needed reaches the bar.
//! * The bound, the largest of several. First, per *family* of disjoint
//!   items: primary items no two of which share an option (made greedily in
//!   input order: the workers of an assignment, then its jobs; the pieces of
//!   a packing). A family's coverings are all different options, so a
//!   completion pays at least, for each of its items and each covering the
//!   item lacks, the cost of its cheapest live option (its first: options
//!   are sorted). Last, *shares*: each option's cost is shared equally among
//!   its primary items (rounded down), and every primary item still needs,
//!   for each covering it lacks, at least the smallest share among its live
//!   options. Each sum is paid by any completion.
//!
//! The tree is walked by one of three walks, node for node the same search:
//! popcounts of the live options in registers for problems of at most 256
//! options and 64 primary items; vector popcounts over all the words for
//! larger exact covers on processors with AVX-512 VPOPCNTDQ or AVX2 (the 8x8
//! packing 1.7x or 1.5x faster than on the engine); else the bitset engine
//! itself, which keeps every item's count of live options.
//!
//! So solutions of the bar's cost are not kept once `k` are known: among
//! solutions of equal cost, the ones the search meets first stay, and the
//! search meets them in a fixed order (the engine's: the item with the
//! fewest branches among the options it can afford first, its options
//! cheapest first, ties in input order).

use super::mcc_bits::{MccBitsBranch, MccBitsSpace, MAX_OPTIONS};
use super::popcount_rows::Rows;
use super::problem::Problem;
use crate::search::{Control, Node, Order, Space};

mod keeper;
mod pop;
mod wide;

use keeper::Keeper;

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
pub(super) const POLL_INTERVAL: u64 = 1 << 12;

/// The `k` cheapest solutions of `problem`, cheapest first (ties in the order
/// the search meets them, see the [module docs](self)), and the search's
/// figures. Fewer when the problem has fewer solutions; the ones found so
/// far when `control` is cancelled.
pub fn best(problem: &Problem, k: usize, control: &Control) -> Result<(Vec<Costed>, CostStats), CostError> {
    best_on(problem, k, control, Walks::Any)
}

/// The costs of the `k` cheapest solutions of `problem`, least first, and
/// the search's figures: the costs of [`best`]'s solutions, found by the
/// same search, which keeps no solution's options (less memory, and less
/// time where `k` is large).
pub fn best_costs(problem: &Problem, k: usize, control: &Control) -> Result<(Vec<u64>, CostStats), CostError> {
    let (keeper, stats, _, total_tax) = search(problem, k, control, Walks::Any, false)?;
    Ok((keeper.into_sorted_costs(total_tax), stats))
}

/// Which walks the cost search may take. They are one search, node for
/// node; the tests compare them.
#[derive(Debug, Clone, Copy)]
enum Walks {
    /// The popcount walk where the problem is small enough, else the wide
    /// popcount walk where it is an exact cover, else the bitset engine.
    Any,
    /// The wide popcount walk in the given build where the problem is an
    /// exact cover, else the engine.
    #[cfg(test)]
    Wide(Rows),
    /// The bitset engine.
    #[cfg(test)]
    Engine,
}

/// [`best`], on the walks `walks` allows.
fn best_on(
    problem: &Problem,
    k: usize,
    control: &Control,
    walks: Walks,
) -> Result<(Vec<Costed>, CostStats), CostError> {
    let (keeper, stats, order, total_tax) = search(problem, k, control, walks, true)?;
    // Cheapest first; among equal costs, the first met first.
    let kept = keeper.into_sorted(&order, total_tax);
    debug_assert!(kept.iter().all(|found| found.cost == problem.cost_of(&found.options)));
    Ok((kept, stats))
}

/// The search of [`best_on`], with the solutions' options kept or not:
/// what it kept, its figures, the renumbering of the options (entry `o`:
/// the input number of option `o` of the search) and the taxes paid.
fn search(
    problem: &Problem,
    k: usize,
    control: &Control,
    walks: Walks,
    with_options: bool,
) -> Result<(Keeper, CostStats, Vec<usize>, u64), CostError> {
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
    // Each option's number of primary items, and its cost shared among them.
    let sizes: Vec<u64> =
        (0..n).map(|o| sorted.option(o).iter().filter(|e| (e.item as usize) < np).count() as u64).collect();
    let shares: Vec<u64> = costs.iter().zip(&sizes).map(|(&cost, &size)| cost / size.max(1)).collect();
    // When every option has as many primary items, shares rise with costs and
    // an item's first live option has the smallest share.
    let uniform = sizes.windows(2).all(|pair| pair[0] == pair[1]);
    let options_of = options_of_primaries(&sorted);
    let family = disjoint_families(&sorted, &options_of);
    let by_share = if uniform { Vec::new() } else { options_by_share(options_of, &shares) };
    let n_families = family.iter().max().map_or(0, |&f| f as usize + 1);
    // When every option has `s` primary items, an item's share is its first
    // live option's cost over `s`, so the sum of shares is the sum of the
    // families' bounds over `s`: at most the largest of them when there are
    // no more than `s` families (an assignment's two).
    let size = sizes.first().copied().unwrap_or(0);
    let shares_count = !(uniform && n_families as u64 <= size);
    let pricing = Pricing {
        cheaper_than: cheaper_than(&costs),
        costs,
        shares,
        uniform,
        shares_count,
        family,
        n_families,
        by_share,
    };
    let keeper = Keeper::new(k, with_options);
    let pop = pop::best_here(&space, &pricing, keeper, control, matches!(walks, Walks::Any));
    let rows = match walks {
        Walks::Any => Rows::best(),
        #[cfg(test)]
        Walks::Wide(rows) => Some(rows),
        #[cfg(test)]
        Walks::Engine => None,
    };
    let wide = pop.or_else(|keeper| wide::best_here(&space, &pricing, keeper, control, rows));
    let (keeper, stats) = match wide {
        Ok(done) => done,
        Err(keeper) => {
            let totals = vec![0; pricing.n_families];
            let mut search = CostSearch { space, pricing, totals, keeper, stats: CostStats::default() };
            search.run(control);
            (search.keeper, search.stats)
        }
    };
    Ok((keeper, stats, order, total_tax))
}

/// Each primary item's family: families of items no two of which share an
/// option, made item by item in input order, each item joining the first
/// family none of whose items shares an option with it (the workers of an
/// assignment, then its jobs; the pieces of a packing). `options_of` is
/// [`options_of_primaries`] of `problem`.
fn disjoint_families(problem: &Problem, options_of: &[Vec<usize>]) -> Vec<u32> {
    let np = problem.n_primary();
    let mut family = vec![u32::MAX; np];
    // Per family: the last item that met one of its items in an option.
    let mut met_by = vec![usize::MAX; np];
    for p in 0..np {
        for &o in &options_of[p] {
            for e in problem.option(o) {
                if let Some(&f) = family.get(e.item as usize).filter(|&&f| f != u32::MAX) {
                    met_by[f as usize] = p;
                }
            }
        }
        // There are at most `p` families so far, so one of the first `p + 1` is free.
        family[p] = (0..=p).find(|&f| met_by[f] != p).unwrap_or(p) as u32;
    }
    family
}

/// Each option's net cost (its cost less the taxes on its items, see the
/// [module docs](self)) and the tax every solution pays.
fn net_costs(problem: &Problem) -> (Vec<u64>, u64) {
    let n = problem.n_options();
    let mut net: Vec<u64> = (0..n).map(|o| problem.cost(o)).collect();
    let mut total = 0u64;
    for (p, options) in options_of_primaries(problem).iter().enumerate() {
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

/// What the bound reads: the options' costs and shares, and the items' families.
pub(super) struct Pricing {
    /// Per (renumbered) option: its cost (increasing), and its cost shared among its primary items.
    pub costs: Vec<u64>,
    pub shares: Vec<u64>,
    /// Whether every option has as many primary items (then shares rise with costs).
    pub uniform: bool,
    /// Whether the bound of shares can reach above the families' (see
    /// [`best_on`]); when it cannot, it is not summed.
    pub shares_count: bool,
    /// Per primary item: its family (items no two of which share an option).
    pub family: Vec<u32>,
    /// How many families there are.
    pub n_families: usize,
    /// Per primary item, when options differ in size: its options, the
    /// smallest share first, so that the least share among the live ones
    /// is the first live one met (empty when `uniform`).
    pub by_share: Vec<Vec<usize>>,
    /// Entry `b`: the options that cost less than `b`, for `b` up to the
    /// dearest option's cost when that is small (a look-up where a binary
    /// search over `costs` would cost a node more than its other work).
    pub cheaper_than: Vec<u32>,
}

/// Per primary item of `problem`: the options that hold it, in option order.
fn options_of_primaries(problem: &Problem) -> Vec<Vec<usize>> {
    let mut lists = vec![Vec::new(); problem.n_primary()];
    for o in 0..problem.n_options() {
        for e in problem.option(o) {
            if let Some(list) = lists.get_mut(e.item as usize) {
                list.push(o);
            }
        }
    }
    lists
}

/// Each primary item's options (`options_of`) in increasing `shares`, the
/// first of equal shares first.
fn options_by_share(mut options_of: Vec<Vec<usize>>, shares: &[u64]) -> Vec<Vec<usize>> {
    for list in &mut options_of {
        list.sort_by_key(|&o| shares[o]);
    }
    options_of
}

/// The largest cost up to which [`Pricing::cheaper_than`] is made.
const CHEAPER_THAN_MAX: u64 = 1 << 16;

/// Entry `b`: how many of `costs` (increasing) are less than `b`, for every
/// `b` up to the last cost; empty when that is above [`CHEAPER_THAN_MAX`].
fn cheaper_than(costs: &[u64]) -> Vec<u32> {
    match costs.last() {
        Some(&dearest) if dearest <= CHEAPER_THAN_MAX => {
            (0..=dearest).map(|b| costs.partition_point(|&c| c < b) as u32).collect()
        }
        _ => Vec::new(),
    }
}

impl Pricing {
    /// The options the cost search may still take below a node of cost
    /// `cost` under bar `bar`: those before the returned index.
    #[inline]
    pub fn affordable(&self, bar: u64, cost: u64) -> usize {
        let budget = bar.saturating_sub(cost);
        match self.cheaper_than.get(budget as usize) {
            Some(&count) => count as usize,
            None if budget > self.costs.last().copied().unwrap_or(0) => self.costs.len(),
            None => self.costs.partition_point(|&c| c < budget),
        }
    }

    /// Whether a lower bound on the cost of any completion of a node reaches
    /// `limit`: the bound of a family of disjoint items, or the one of
    /// shares (where it can count), each left as soon as it does. `needs` gives the primary items
    /// that still need coverings and how many, `first_live(p)` item `p`'s
    /// first live option, `least_live_share(p)` the least share among its
    /// live options (asked only when options differ in size); `totals` is
    /// scratch, one slot per family.
    #[inline(always)]
    pub fn bound_reaches(
        &self,
        limit: u64,
        totals: &mut [u64],
        needs: impl Iterator<Item = (usize, u32)>,
        first_live: impl Fn(usize) -> Option<usize>,
        least_live_share: impl Fn(usize) -> u64,
    ) -> bool {
        totals.fill(0);
        let mut shared = 0u64;
        for (p, need) in needs {
            let Some(first) = first_live(p) else {
                // The item cannot be covered.
                return true;
            };
            let need = u64::from(need);
            let total = &mut totals[self.family[p] as usize];
            *total = total.saturating_add(self.costs[first].saturating_mul(need));
            if self.shares_count {
                let share = if self.uniform { self.shares[first] } else { least_live_share(p) };
                shared = shared.saturating_add(share.saturating_mul(need));
            }
            if *total >= limit || shared >= limit {
                return true;
            }
        }
        false
    }
}

/// Word `k` of the options before `limit`.
#[inline(always)]
fn below(limit: usize, k: usize) -> u64 {
    let first = k * 64;
    if limit >= first + 64 {
        !0
    } else if limit <= first {
        0
    } else {
        (1u64 << (limit - first)) - 1
    }
}

/// Books a child about to be visited by a recursive walk and looks at the
/// cancellation flag now and then.
#[inline(always)]
fn book_node(stats: &mut CostStats, control: &Control) -> std::ops::ControlFlow<()> {
    stats.nodes += 1;
    if stats.nodes.is_multiple_of(POLL_INTERVAL) && control.is_cancelled() {
        return std::ops::ControlFlow::Break(());
    }
    std::ops::ControlFlow::Continue(())
}

struct CostSearch {
    space: MccBitsSpace,
    pricing: Pricing,
    /// Scratch, per family: the bound over its items.
    totals: Vec<u64>,
    keeper: Keeper,
    stats: CostStats,
}

impl CostSearch {
    fn bar(&self) -> u64 {
        self.keeper.bar()
    }

    fn bound_reaches(&mut self, limit: u64) -> bool {
        let CostSearch { space, pricing, totals, .. } = self;
        let needs = space.needs().iter().enumerate().filter(|(_, &n)| n > 0).map(|(p, &n)| (p, n));
        pricing.bound_reaches(
            limit,
            totals,
            needs,
            |p| space.first_live(p),
            // The first live option in share order: the scan of every live
            // option it replaces cost more than the rest of a node on
            // packings with pieces of two sizes.
            |p| {
                let first = pricing.by_share[p].iter().find(|&&o| space.is_live(o));
                first.map_or(0, |&o| pricing.shares[o])
            },
        )
    }

    fn keep(&mut self, cost: u64) {
        self.keeper.keep(cost, self.space.chosen(), &mut self.stats);
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
        let n_options = self.pricing.costs.len();
        while let Some((branch, cost)) = stack.last_mut() {
            let cost = *cost;
            let Some(choice) = self.space.next_choice(branch) else {
                stack.pop();
                if !stack.is_empty() {
                    self.space.pop();
                }
                continue;
            };
            let next = cost.saturating_add(if choice < n_options { self.pricing.costs[choice] } else { 0 });
            if choice < n_options && next >= self.bar() {
                // The item's later options cost as much or more.
                branch.skip_options();
                continue;
            }
            self.stats.nodes += 1;
            if self.stats.nodes.is_multiple_of(POLL_INTERVAL) && control.is_cancelled() {
                break;
            }
            // Options as dear as what is left below the bar cannot be taken
            // below this choice, whatever the bar becomes (it only falls).
            let limit = self.pricing.affordable(self.bar(), next);
            self.space.push_below(choice, limit);
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
    use crate::xcover::random_problems::fixture;

    /// The look-up gives what the binary search does, below, at and past
    /// the dearest cost.
    #[test]
    fn cheaper_than_counts_the_options_below_a_budget() {
        let costs = [0, 0, 2, 5, 5, 9];
        let table = cheaper_than(&costs);
        assert_eq!(table.len(), 10);
        let pricing = Pricing {
            cheaper_than: table,
            costs: costs.to_vec(),
            shares: vec![],
            uniform: true,
            shares_count: true,
            family: vec![],
            n_families: 0,
            by_share: vec![],
        };
        for bar in 0..14u64 {
            for cost in [0, 1, 3] {
                let expected = costs.iter().filter(|&&c| c < bar.saturating_sub(cost)).count();
                assert_eq!(pricing.affordable(bar, cost), expected, "bar {bar}, cost {cost}");
            }
        }
        assert_eq!(pricing.affordable(u64::MAX, 5), 6);
        assert!(cheaper_than(&[1, CHEAPER_THAN_MAX + 1]).is_empty());
    }

    /// The workers of an assignment share no option, nor do its jobs; an
    /// item that meets the first family in an option starts the second.
    #[test]
    fn disjoint_families_are_the_workers_then_the_jobs_of_an_assignment() {
        let families = |problem: &Problem| disjoint_families(problem, &options_of_primaries(problem));
        assert_eq!(families(&fixture("assign-4.dlx")), [0, 0, 0, 0, 1, 1, 1, 1]);
        let text = "a b c\na b\nb c\nc\n";
        assert_eq!(families(&parse(text).unwrap().problem), [0, 1, 0]);
    }

    /// The bound over families (each worker, or each job, still to place
    /// pays at least its cheapest live option) and the options too dear left
    /// out below each choice cut the 12x12 assignment's search for the 100
    /// cheapest to 6,000 nodes or fewer (the workers' bound alone, with
    /// every live option counted, takes over 11,000).
    #[test]
    fn the_family_bound_and_affordable_options_prune_the_assignment() {
        let (best, stats) = best(&fixture("assign-12.dlx"), 100, &Control::new()).unwrap();
        assert_eq!(best[0].cost, 1773);
        assert!(stats.nodes <= 6000, "{stats:?}");
    }

    /// A random problem of up to 5 primary items with bounds (or each to be
    /// covered once), a secondary
    /// item with colors, up to 150 options (up to three words), and costs.
    fn random_costed() -> impl proptest::strategy::Strategy<Value = Problem> {
        use proptest::prelude::*;
        (1usize..=5, proptest::bool::ANY).prop_flat_map(|(np, once)| {
            // Half of them exact covers (every item once).
            let bounds = proptest::collection::vec(if once { (1u32..=1, 1u32..=1) } else { (0u32..=1, 1u32..=2) }, np);
            let row = (proptest::collection::vec(0u8..6, np + 1), 0u64..8);
            (bounds, proptest::collection::vec(row, 0..=150)).prop_map(move |(bounds, rows)| {
                let mut text = String::new();
                for (i, &(lo, hi)) in bounds.iter().enumerate() {
                    text.push_str(&format!("{lo}:{}|p{i} ", hi.max(lo)));
                }
                text.push_str("| s\n");
                for (row, cost) in rows {
                    let mut line: Vec<String> = (0..np).filter(|&k| row[k] >= 3).map(|k| format!("p{k}")).collect();
                    if line.is_empty() {
                        continue;
                    }
                    match row[np] {
                        3 => line.push("s".into()),
                        4 => line.push("s:A".into()),
                        5 => line.push("s:B".into()),
                        _ => {}
                    }
                    text.push_str(&format!("{} |{cost}\n", line.join(" ")));
                }
                parse(&text).unwrap().problem
            })
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// The popcount searches are the bitset engine's, node for node: the
        /// same solutions kept, in the same order, and the same figures
        /// (the wide one on the exact covers, half of the problems).
        #[test]
        fn the_popcount_search_is_the_engine_s(problem in random_costed(), k in 1usize..6) {
            let control = Control::new();
            let small = best_on(&problem, k, &control, Walks::Any).unwrap();
            let engine = best_on(&problem, k, &control, Walks::Engine).unwrap();
            proptest::prop_assert_eq!(&small, &engine, "{}", problem);
            for rows in Rows::all() {
                let wide = best_on(&problem, k, &control, Walks::Wide(rows)).unwrap();
                proptest::prop_assert_eq!(&wide, &engine, "{:?}\n{}", rows, problem);
            }
            // The costs alone: the same, from the same search.
            let (costs, stats) = best_costs(&problem, k, &control).unwrap();
            proptest::prop_assert_eq!(costs, small.0.iter().map(|c| c.cost).collect::<Vec<_>>());
            proptest::prop_assert_eq!(stats, small.1);
        }
    }

    /// The 12x12 assignment runs on the popcount search, the same search
    /// as the engine's.
    #[test]
    fn the_assignment_s_popcount_search_is_the_engine_s() {
        let problem = fixture("assign-12.dlx");
        let control = Control::new();
        let engine = best_on(&problem, 300, &control, Walks::Engine).unwrap();
        assert_eq!(best_on(&problem, 300, &control, Walks::Any).unwrap(), engine);
        for rows in Rows::all() {
            assert_eq!(best_on(&problem, 300, &control, Walks::Wide(rows)).unwrap(), engine, "{rows:?}");
        }
    }

    /// The 8x8 packing with costs, an exact cover of 2,359 options, runs on
    /// the wide popcount walk in each build this processor has, the same
    /// search as the engine's.
    #[test]
    fn the_packing_s_wide_search_is_the_engine_s() {
        crate::xcover::popcount_rows::say_which_builds_cannot_run("the_packing_s_wide_search_is_the_engine_s");
        let problem = fixture("pentomino-8x8-costs.dlx");
        let control = Control::new();
        let engine = best_on(&problem, 2, &control, Walks::Engine).unwrap();
        assert_eq!(engine.0[0].cost, 45);
        assert_eq!(best_on(&problem, 2, &control, Walks::Any).unwrap(), engine);
        for rows in Rows::all() {
            assert_eq!(best_on(&problem, 2, &control, Walks::Wide(rows)).unwrap(), engine, "{rows:?}");
        }
    }

    /// A chain of `n` items, each alone at cost 2 and each even one with
    /// its neighbour at cost 3: the cheapest cover takes the pairs (3 for
    /// every two items), and each of the next cheapest parts one pair into
    /// its two items (one more). Both tables of the engine's step: items
    /// numbered in bytes (200 items) and in 32 bits (300).
    #[test]
    fn a_long_chain_pairs_its_items_on_either_table() {
        for n in [200usize, 300] {
            let items: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
            let mut text = format!("{}\n", items.join(" "));
            for i in 0..n {
                text.push_str(&format!("i{i} |2\n"));
                if i % 2 == 0 {
                    text.push_str(&format!("i{i} i{} |3\n", i + 1));
                }
            }
            let problem = parse(&text).unwrap().problem;
            let pairs = n as u64 / 2;
            let (costs, _) = best_costs(&problem, 3, &Control::new()).unwrap();
            assert_eq!(costs, [3 * pairs, 3 * pairs + 1, 3 * pairs + 1], "n = {n}");
            let (found, stats) = best_on(&problem, 2, &Control::new(), Walks::Engine).unwrap();
            assert_eq!(found[0].options.len(), n / 2, "n = {n}");
            // An exact cover of over 256 options: the wide walk's.
            assert_eq!(best_on(&problem, 2, &Control::new(), Walks::Any).unwrap(), (found, stats), "n = {n}");
        }
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
        assert_eq!(best_costs(&problem, 5000, &control).unwrap().0, costs(&all[..5000]));
        assert_eq!(best_costs(&problem, 400_000, &control).unwrap().0, costs(&all));
        for found in &some {
            assert_eq!(found.cost, problem.cost_of(&found.options));
        }
    }
}
