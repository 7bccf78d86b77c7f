//! The cost search on small problems, with popcounts: [`super`]'s
//! branch and bound, node for node the same search, on the lean state of
//! the popcount multiple-cover count (see [`super::super::mcc_pop`]).
//!
//! The bitset engine keeps, per level, a copy of the live options and of
//! every primary item's number of live options, and lowers those numbers
//! option by option when a choice, or the options it makes too dear, take
//! options out. With at most [`MAX_OPTIONS`] options the live set is
//! `W <= 4` words, and a node can count an item's live options when it
//! looks at it, `popcount(live & options_of_item)`: a choice is then `W`
//! words of `live & !removed & affordable` and the bounds of its own items,
//! in a plain recursion with the live set in registers.

use std::ops::ControlFlow;

use super::{below, book_node, CostStats, Keeper, Pricing};
use crate::cpu::X86V3;
use crate::search::Control;
use crate::xcover::mcc_bits::MccBitsSpace;
use crate::xcover::mcc_pop::{Small, View, MAX_PRIMARY};

/// The most options this search takes (four words).
const MAX_OPTIONS: usize = 256;

/// Runs the cost search from `space`'s root (its options numbered by
/// increasing cost, as `pricing` prices them), keeping the best solutions
/// in `keeper`; gives `keeper` back untouched when `allowed` is false or
/// the problem is too large for this search.
pub(super) fn best_here(
    space: &MccBitsSpace,
    pricing: &Pricing,
    keeper: Keeper,
    control: &Control,
    allowed: bool,
) -> Result<(Keeper, CostStats), Keeper> {
    let view = space.view();
    if !allowed || view.n_options > MAX_OPTIONS || view.n_primary > MAX_PRIMARY {
        return Err(keeper);
    }
    Ok(match view.words {
        0 | 1 => Walk::<1>::new(&view, pricing, keeper, control).run(&view),
        2 => Walk::<2>::new(&view, pricing, keeper, control).run(&view),
        3 => Walk::<3>::new(&view, pricing, keeper, control).run(&view),
        _ => Walk::<4>::new(&view, pricing, keeper, control).run(&view),
    })
}

/// The search's tables and its running state.
struct Walk<'a, const W: usize> {
    small: Small<W>,
    /// When every primary item is to be covered exactly once: per option,
    /// its primary items (one bit each) and every option it conflicts with
    /// (itself, its secondary items' conflicts, the options of its items).
    exact: Option<Vec<(u64, [u64; W])>>,
    pricing: &'a Pricing,
    /// Per family (see [`Pricing::family`]): its items, one bit each.
    family_items: [u64; MAX_PRIMARY],
    keeper: Keeper,
    stats: CostStats,
    /// The options taken on the way to the node, `chosen[..depth]` (each
    /// at most once, so at most [`MAX_OPTIONS`]).
    chosen: [usize; MAX_OPTIONS],
    depth: usize,
    control: &'a Control,
    /// The token for the build with the popcount instruction, when the
    /// processor has it.
    cpu: Option<X86V3>,
}

impl<'a, const W: usize> Walk<'a, W> {
    fn new(view: &View<'_>, pricing: &'a Pricing, keeper: Keeper, control: &'a Control) -> Self {
        let small = Small::<W>::new(view);
        let np = small.n_primary;
        let once = (0..np).all(|p| view.need[p] == 1 && view.room[p] == 1);
        let exact = once.then(|| {
            (0..view.n_options)
                .map(|o| {
                    let (mut closes, mut takes) = (0u64, small.takes[o]);
                    for &p in small.items_of(o).iter().filter(|&&p| (p as usize) < np) {
                        closes |= 1 << p;
                        for (word, row) in takes.iter_mut().zip(&small.item_rows[p as usize]) {
                            *word |= row;
                        }
                    }
                    (closes, takes)
                })
                .collect()
        });
        let mut family_items = [0u64; MAX_PRIMARY];
        for (p, &f) in pricing.family.iter().enumerate().take(np) {
            // At most one family per item: at most `MAX_PRIMARY` of them.
            family_items[f as usize] |= 1 << p;
        }
        Walk {
            small,
            exact,
            pricing,
            family_items,
            keeper,
            stats: CostStats::default(),
            chosen: [0; MAX_OPTIONS],
            depth: 0,
            control,
            cpu: X86V3::new(),
        }
    }

    fn run(mut self, view: &View<'_>) -> (Keeper, CostStats) {
        let mut live = [0u64; W];
        live[..view.words].copy_from_slice(&view.live[..view.words]);
        let _ = self.visit(live, 0);
        (self.keeper, self.stats)
    }

    /// The node with live options `live` and cost so far `cost`: a solution,
    /// a dead end, a node the bound cuts, or a branch whose children are
    /// visited in turn. Breaks when the search is cancelled.
    fn visit(&mut self, live: [u64; W], cost: u64) -> ControlFlow<()> {
        match (self.cpu, self.exact.is_some()) {
            // SAFETY: the token proves the features `visit_v3` is compiled with.
            (Some(_), true) => unsafe { self.visit_v3::<true>(live, cost) },
            // SAFETY: as above.
            (Some(_), false) => unsafe { self.visit_v3::<false>(live, cost) },
            (None, true) => self.visit_portable::<true>(live, cost),
            (None, false) => self.visit_portable::<false>(live, cost),
        }
    }

    /// [`visit`](Self::visit) compiled with the popcount instruction.
    ///
    /// # Safety
    /// The processor must have POPCNT; `self.cpu` holds the token.
    #[cfg_attr(target_arch = "x86_64", target_feature(enable = "popcnt"))]
    unsafe fn visit_v3<const EXACT: bool>(&mut self, live: [u64; W], cost: u64) -> ControlFlow<()> {
        self.visit_with::<true, EXACT>(live, cost)
    }

    fn visit_portable<const EXACT: bool>(&mut self, live: [u64; W], cost: u64) -> ControlFlow<()> {
        self.visit_with::<false, EXACT>(live, cost)
    }

    /// A child of the node: the same build as the node's.
    #[inline(always)]
    fn child<const V3: bool, const EXACT: bool>(&mut self, live: [u64; W], cost: u64) -> ControlFlow<()> {
        if V3 {
            // SAFETY: `visit_with::<true, _>` runs only inside `visit_v3`,
            // which runs only where the token was had.
            unsafe { self.visit_v3::<EXACT>(live, cost) }
        } else {
            self.visit_portable::<EXACT>(live, cost)
        }
    }

    /// `EXACT`: every primary item is to be covered once (then
    /// `self.exact` is set), so that taking an option closes its items.
    #[inline(always)]
    fn visit_with<const V3: bool, const EXACT: bool>(&mut self, live: [u64; W], cost: u64) -> ControlFlow<()> {
        // The item with the least slack (live options less coverings still
        // needed), ties to the first; a negative slack is a dead end, and
        // no item with a live option left means a solution. The same pass
        // sums the bounds of `Pricing::bound_reaches` (whose early exits
        // change nothing but the time it takes).
        // Family by family, so that each family's sum stays in a register.
        let (mut best, mut negative) = (u32::MAX, 0u32);
        let (mut shared, mut bound) = (0u64, 0u64);
        let pricing = self.pricing;
        let (n_families, shares_count) = (pricing.n_families, pricing.shares_count);
        let open = self.small.open;
        for &members in &self.family_items[..n_families] {
            let mut items = open & members;
            let mut total = 0u64;
            while items != 0 {
                let p = items.trailing_zeros() as usize;
                items &= items - 1;
                let row = &self.small.item_rows[p];
                let (mut n, mut first) = (0u32, 0usize);
                for k in (0..W).rev() {
                    let bits = live[k] & row[k];
                    n += bits.count_ones();
                    if bits != 0 {
                        first = k * 64 + bits.trailing_zeros() as usize;
                    }
                }
                if EXACT && n == 0 {
                    // An item of an exact cover with no live option: a dead
                    // end, whatever the other items hold.
                    return ControlFlow::Continue(());
                }
                let need = self.small.need[p];
                let slack = n.wrapping_sub(need);
                negative |= slack;
                let key = if n == 0 { u32::MAX } else { slack << 8 | p as u32 };
                best = best.min(key);
                if need > 0 && n > 0 {
                    let need = u64::from(need);
                    // An exact cover's items need one covering each.
                    let times = |c: u64| if EXACT { c } else { c.saturating_mul(need) };
                    total = total.saturating_add(times(pricing.costs[first]));
                    if shares_count {
                        let share = if pricing.uniform {
                            pricing.shares[first]
                        } else {
                            let mut least = u64::MAX;
                            for k in 0..W {
                                let mut bits = live[k] & row[k];
                                while bits != 0 {
                                    least = least.min(pricing.shares[k * 64 + bits.trailing_zeros() as usize]);
                                    bits &= bits - 1;
                                }
                            }
                            least
                        };
                        shared = shared.saturating_add(times(share));
                    }
                }
            }
            bound = bound.max(total);
        }
        if negative & (1 << 31) != 0 {
            return ControlFlow::Continue(());
        }
        if best == u32::MAX {
            if cost < self.keeper.bar() {
                self.keeper.keep(cost, &self.chosen[..self.depth], &mut self.stats);
            }
            return ControlFlow::Continue(());
        }
        let bar = self.keeper.bar();
        let bound = bound.max(shared);
        if cost >= bar || bound >= bar - cost {
            self.stats.cut += 1;
            return ControlFlow::Continue(());
        }
        let (item, slack) = ((best & 0xff) as usize, best >> 8);
        let stop = self.small.need[item] == 0;
        let mut options_left = if stop { slack } else { slack + 1 };
        let row = self.small.item_rows[item];
        // The item's options already offered, taken out of the later branches.
        let mut before = [0u64; W];
        'options: for k in 0..W {
            let mut bits = live[k] & row[k];
            while bits != 0 && options_left > 0 {
                let bit = bits & bits.wrapping_neg();
                bits ^= bit;
                options_left -= 1;
                let o = k * 64 + bit.trailing_zeros() as usize;
                let next = cost.saturating_add(self.pricing.costs[o]);
                let bar = self.keeper.bar();
                if next >= bar {
                    // The item's later options cost as much or more.
                    break 'options;
                }
                book_node(&mut self.stats, self.control)?;
                if EXACT {
                    // Closing the option's items takes out every option
                    // that meets it, the node item's earlier ones among
                    // them: one row.
                    let Some(exact) = &self.exact else { unreachable!() };
                    let (closes, takes) = exact[o];
                    self.chosen[self.depth] = o;
                    if self.small.open & !closes == 0 {
                        // The child covers every item: a solution, below the bar.
                        self.keeper.keep(next, &self.chosen[..self.depth + 1], &mut self.stats);
                        continue;
                    }
                    let limit = self.pricing.affordable(bar, next);
                    let mut child = live;
                    for j in 0..W {
                        child[j] &= !takes[j] & below(limit, j);
                    }
                    self.small.open &= !closes;
                    self.depth += 1;
                    let flow = self.child::<V3, EXACT>(child, next);
                    self.depth -= 1;
                    self.small.open |= closes;
                    flow?;
                    continue;
                }
                let mut out = self.small.takes[o];
                for (j, word) in out.iter_mut().enumerate() {
                    *word |= before[j];
                }
                out[k] |= (bit - 1) & row[k];
                self.small.take(o, &mut out);
                let limit = self.pricing.affordable(bar, next);
                let mut child = live;
                for j in 0..W {
                    child[j] &= !out[j] & below(limit, j);
                }
                self.chosen[self.depth] = o;
                self.depth += 1;
                let flow = self.child::<V3, EXACT>(child, next);
                self.depth -= 1;
                self.small.give_back(o);
                flow?;
            }
            before[k] = live[k] & row[k];
        }
        if stop {
            // No further option of the item is in the set.
            book_node(&mut self.stats, self.control)?;
            let limit = self.pricing.affordable(self.keeper.bar(), cost);
            let mut child = live;
            for j in 0..W {
                child[j] &= !row[j] & below(limit, j);
            }
            self.child::<V3, EXACT>(child, cost)?;
        }
        ControlFlow::Continue(())
    }
}
