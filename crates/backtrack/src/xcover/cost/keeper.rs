//! The best solutions the cost search has met, and the bar a new one must
//! stay below.
//!
//! What is kept is, at every moment, the `k` least solutions met so far in
//! the order (cost, time met). The search offers a solution only when it
//! costs less than the bar, the dearest cost kept once `k` are, and then
//! the last met of that dearest cost gives way.
//!
//! A search offers many more solutions than it keeps (about 40,000 for the
//! 15,000 cheapest assignments of 9 workers), so an offer must cost little.
//! Rather than keep the solutions in order, the keeper writes each one to a
//! log and keeps only a tally of how many kept solutions there are of each
//! cost, which is all the bar needs. Which solutions the tally stands for
//! follows from the order in which they give way: of each cost `c` with
//! `n` kept, they are the first `n` met (later ones of cost `c` were offered
//! only while the bar was above `c`, and each giving way takes the last
//! met). When the log has grown to twice `k`, it is cut back to those, so
//! its memory stays within a constant times `k`'s.
//!
//! When only the costs are wanted, the log keeps no options: the `k` least
//! costs are the same whichever solutions of equal cost stand for them.

use std::collections::BTreeMap;

use super::{CostStats, Costed};
use crate::xcover::mcc_bits::MAX_OPTIONS;

const _: () = assert!(MAX_OPTIONS <= 1 << 16, "option numbers are kept in 16 bits");

/// The dearest cost the tally counts in an array indexed by cost; above,
/// it counts in a map.
const DENSE_MAX: u64 = 1 << 18;

/// A log of solutions offered and a tally of those kept; see the
/// [module docs](self).
pub(super) struct Keeper {
    k: usize,
    /// The solutions offered, in the order met (cut back now and then).
    log: Vec<Logged>,
    /// The options of the logged solutions, one after the other (option
    /// numbers fit 16 bits: the cost search takes at most 8,192 options).
    options: Vec<u16>,
    /// How many kept solutions there are of each cost, once `k` have been met.
    tally: Tally,
    /// The cost a solution must stay below to be kept.
    bar: u64,
    /// Whether the solutions' options are logged (else only their costs).
    with_options: bool,
}

/// One solution of the log: its cost and where its options lie.
#[derive(Debug, Clone, Copy)]
struct Logged {
    cost: u64,
    start: usize,
    len: usize,
}

/// The number of kept solutions of each cost, up to the bar.
enum Tally {
    /// Fewer than `k` solutions met: all are kept, and there is no bar.
    Filling,
    /// Entry `c`: the kept solutions of cost `c` (the bar was at most
    /// [`DENSE_MAX`] when `k` were met, and it only falls).
    Dense(Vec<u32>),
    /// The kept solutions of each cost that has some.
    Sparse(BTreeMap<u64, usize>),
}

impl Tally {
    /// The kept solutions of cost `cost`, taken down by one if there are
    /// some; whether there were.
    fn take_one(&mut self, cost: u64) -> bool {
        match self {
            Tally::Filling => true,
            Tally::Dense(counts) => match counts.get_mut(cost as usize) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            },
            Tally::Sparse(counts) => match counts.get_mut(&cost) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            },
        }
    }

    /// One more kept solution of cost `cost` (at most the bar).
    fn add_one(&mut self, cost: u64) {
        match self {
            Tally::Filling => {}
            Tally::Dense(counts) => counts[cost as usize] += 1,
            Tally::Sparse(counts) => *counts.entry(cost).or_default() += 1,
        }
    }
}

impl Keeper {
    /// Keeps the `k` (at least 1) least solutions offered, with their
    /// options or (`with_options` false) their costs alone.
    pub fn new(k: usize, with_options: bool) -> Keeper {
        Keeper { k: k.max(1), log: Vec::new(), options: Vec::new(), tally: Tally::Filling, bar: u64::MAX, with_options }
    }

    /// The cost a solution must stay below to be kept: the dearest cost
    /// kept once there are `k`, none before.
    #[inline]
    pub fn bar(&self) -> u64 {
        self.bar
    }

    /// Keeps a solution of cost `cost`, which is below the bar, with
    /// options `options`; the last met of the dearest cost gives way when
    /// `k` are kept.
    pub fn keep(&mut self, cost: u64, options: &[usize], stats: &mut CostStats) {
        debug_assert!(cost < self.bar);
        stats.improvements += 1;
        if self.with_options {
            self.log.push(Logged { cost, start: self.options.len(), len: options.len() });
            self.options.extend(options.iter().map(|&o| o as u16));
        } else if let Tally::Filling = self.tally {
            // Costs alone: the log serves only until the tally starts,
            // which then holds every kept cost.
            self.log.push(Logged { cost, start: 0, len: 0 });
        }
        match &mut self.tally {
            Tally::Filling if self.log.len() == self.k => {
                self.start_tally();
                if !self.with_options {
                    self.log = Vec::new();
                }
            }
            Tally::Filling => {}
            Tally::Dense(counts) => {
                counts[cost as usize] += 1;
                let mut bar = self.bar as usize;
                counts[bar] -= 1;
                // A count below the bar is the new solution's.
                while counts[bar] == 0 {
                    bar -= 1;
                }
                self.bar = bar as u64;
            }
            Tally::Sparse(counts) => {
                *counts.entry(cost).or_default() += 1;
                let mut dearest = counts.last_entry().expect("the bar's cost is tallied");
                *dearest.get_mut() -= 1;
                if *dearest.get() == 0 {
                    dearest.remove();
                }
                self.bar = counts.last_key_value().map_or(u64::MAX, |(&c, _)| c);
            }
        }
        if self.log.len() >= 2 * self.k + 64 {
            self.cut_back();
        }
    }

    /// Tallies the `k` solutions met, all kept, and sets the bar at the
    /// dearest of them.
    fn start_tally(&mut self) {
        let dearest = self.log.iter().map(|l| l.cost).max().unwrap_or(0);
        self.tally = if dearest <= DENSE_MAX && self.k <= u32::MAX as usize {
            Tally::Dense(vec![0; dearest as usize + 1])
        } else {
            Tally::Sparse(BTreeMap::new())
        };
        for logged in &self.log {
            self.tally.add_one(logged.cost);
        }
        self.bar = dearest;
    }

    /// Leaves in the log only the solutions kept, in the order met: of
    /// each cost, as many as the tally counts, the first met.
    fn retain_kept(&mut self) {
        let Keeper { log, tally, .. } = self;
        if let Tally::Dense(counts) = tally {
            // The common case, without a match per solution.
            log.retain(|l| match counts.get_mut(l.cost as usize) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    true
                }
                _ => false,
            });
            for l in log.iter() {
                counts[l.cost as usize] += 1;
            }
            return;
        }
        log.retain(|l| tally.take_one(l.cost));
        for logged in log.iter() {
            tally.add_one(logged.cost);
        }
    }

    /// Cuts the log back to the solutions kept, in place: each kept
    /// solution's options move down to follow the last one's.
    fn cut_back(&mut self) {
        self.retain_kept();
        let mut end = 0;
        for l in &mut self.log {
            self.options.copy_within(l.start..l.start + l.len, end);
            l.start = end;
            end += l.len;
        }
        self.options.truncate(end);
    }

    /// The solutions kept, cheapest first, those of one cost in the order
    /// met; each option `o` given as `number[o]`, and `extra` added to each
    /// cost (the search's numbering and taxes undone in the same pass, while
    /// each solution's memory is fresh).
    pub fn into_sorted(mut self, number: &[usize], extra: u64) -> Vec<Costed> {
        self.retain_kept();
        let options =
            |l: &Logged| self.options[l.start..l.start + l.len].iter().map(|&o| number[usize::from(o)]).collect();
        if let Tally::Dense(counts) = &self.tally {
            // Placed by cost, each cost's in the order met: where each
            // cost's solutions begin is the sum of the counts below it.
            let mut next: Vec<u32> = counts
                .iter()
                .scan(0u32, |start, &n| {
                    let here = *start;
                    *start += n;
                    Some(here)
                })
                .collect();
            let mut sorted: Vec<Costed> = self.log.iter().map(|_| Costed { cost: 0, options: Vec::new() }).collect();
            for l in &self.log {
                let at = &mut next[l.cost as usize];
                sorted[*at as usize] = Costed { cost: l.cost + extra, options: options(l) };
                *at += 1;
            }
            sorted
        } else {
            // Stable: the order met stays among equal costs.
            let mut log = std::mem::take(&mut self.log);
            log.sort_by_key(|l| l.cost);
            log.iter().map(|l| Costed { cost: l.cost + extra, options: options(l) }).collect()
        }
    }

    /// The costs of the solutions kept, least first, each with `extra`
    /// added (the search's taxes undone).
    pub fn into_sorted_costs(self, extra: u64) -> Vec<u64> {
        // Once started, the tally counts the kept solutions of each cost
        // (the log may be gone): read in order.
        match &self.tally {
            Tally::Filling => {
                let mut costs: Vec<u64> = self.log.iter().map(|l| l.cost + extra).collect();
                costs.sort_unstable();
                costs
            }
            Tally::Dense(counts) => {
                let repeated = |(cost, &n): (usize, &u32)| std::iter::repeat_n(cost as u64 + extra, n as usize);
                counts.iter().enumerate().flat_map(repeated).collect()
            }
            Tally::Sparse(counts) => {
                counts.iter().flat_map(|(&cost, &n)| std::iter::repeat_n(cost + extra, n)).collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solution as the tests see it: its cost and when it was offered.
    type Seen = (u64, usize);

    /// What the keeper kept of `offers`, and the `k` least of them by
    /// (cost, order met), offered as the search does: only below the bar,
    /// the bar taken from the keeper.
    fn run(k: usize, offers: &[u64]) -> (Vec<Seen>, Vec<Seen>) {
        let mut keeper = Keeper::new(k, true);
        let mut stats = CostStats::default();
        let mut offered = Vec::new();
        for (i, &cost) in offers.iter().enumerate() {
            if cost < keeper.bar() {
                keeper.keep(cost, &[i], &mut stats);
                offered.push((cost, i));
                // The bar is the k-th least cost offered so far.
                let mut costs: Vec<u64> = offered.iter().map(|&(c, _)| c).collect();
                costs.sort_unstable();
                let expected = if costs.len() >= k.max(1) { costs[k.max(1) - 1] } else { u64::MAX };
                assert_eq!(keeper.bar(), expected, "offer {i}");
            }
        }
        let identity: Vec<usize> = (0..offers.len()).collect();
        let got = keeper.into_sorted(&identity, 0).into_iter().map(|c| (c.cost, c.options[0])).collect();
        offered.sort();
        offered.truncate(k.max(1));
        (got, offered)
    }

    /// Offers `offers` to `keeper` as [`run`] does (only below the bar);
    /// the bars it set on the way.
    fn offer_all(keeper: &mut Keeper, offers: &[u64]) -> Vec<u64> {
        let mut stats = CostStats::default();
        let mut bars = Vec::new();
        for (i, &cost) in offers.iter().enumerate() {
            if cost < keeper.bar() {
                keeper.keep(cost, &[i], &mut stats);
                bars.push(keeper.bar());
            }
        }
        bars
    }

    /// The costs a keeper of costs alone keeps of `offers`, each with 10
    /// added, and the bars it set on the way.
    fn run_costs(k: usize, offers: &[u64]) -> (Vec<u64>, Vec<u64>) {
        let mut keeper = Keeper::new(k, false);
        let bars = offer_all(&mut keeper, offers);
        (keeper.into_sorted_costs(10), bars)
    }

    #[test]
    fn keeps_the_least_by_cost_then_order_met() {
        let (got, expected) = run(3, &[5, 5, 7, 5, 2, 5, 2, 9, 1]);
        assert_eq!(got, vec![(1, 8), (2, 4), (2, 6)]);
        assert_eq!(got, expected);
    }

    #[test]
    fn keeps_ties_at_the_bar_first_met_first() {
        let (got, expected) = run(4, &[3, 3, 3, 3, 3, 1, 3, 1, 2]);
        assert_eq!(got, vec![(1, 5), (1, 7), (2, 8), (3, 0)]);
        assert_eq!(got, expected);
    }

    #[test]
    fn counts_dear_costs_in_a_map() {
        let big = DENSE_MAX * 4;
        let (got, expected) = run(2, &[big + 9, big + 3, big + 7, 4, big + 3, big + 1]);
        assert_eq!(got, vec![(4, 3), (big + 1, 5)]);
        assert_eq!(got, expected);
    }

    proptest::proptest! {
        #[test]
        fn equals_a_sort_of_everything_offered(
            k in 1usize..40,
            offers in proptest::collection::vec(0u64..60, 0..600),
            dear in proptest::bool::ANY,
        ) {
            // Dear costs go through the map, cheap ones through the array;
            // long runs cut the log back many times.
            let offers: Vec<u64> = offers.iter().map(|&c| if dear { c + DENSE_MAX } else { c }).collect();
            let (got, expected) = run(k, &offers);
            proptest::prop_assert_eq!(got, expected);
        }

        /// Kept without options, the costs are the same `k` least, taken
        /// from the tally (the array, the map, or the log while fewer than
        /// `k` were met), and the bar falls the same way.
        #[test]
        fn costs_alone_are_the_same_least_costs(
            k in 1usize..40,
            offers in proptest::collection::vec(0u64..60, 0..600),
            dear in proptest::bool::ANY,
        ) {
            let offers: Vec<u64> = offers.iter().map(|&c| if dear { c + DENSE_MAX } else { c }).collect();
            let (costs, bars) = run_costs(k, &offers);
            let (_, expected) = run(k, &offers);
            let expected: Vec<u64> = expected.iter().map(|&(c, _)| c + 10).collect();
            proptest::prop_assert_eq!(costs, expected);
            proptest::prop_assert_eq!(bars, offer_all(&mut Keeper::new(k, true), &offers));
        }
    }
}
