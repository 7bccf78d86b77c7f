//! How much work each subproblem of a [`Plan`] is, estimated before any is
//! counted, so that progress can be shown from the start.
//!
//! The estimate is Knuth's: walk down from the subproblem's prefix, taking
//! one random free column per row, and multiply the numbers of free columns
//! met on the way; the product is an unbiased estimate of the number of
//! nodes below the prefix (of the plain N-queens tree, without the symmetry
//! restrictions, which only scale the work). A few such probes per
//! subproblem take well under a second for the biggest boards, and their
//! mean ranks subproblems well enough for a progress bar.

use super::Plan;
use crate::rng::Rng;

/// Random walks per subproblem.
const PROBES: usize = 8;

/// The estimated work (nodes below the prefix) of every subproblem of
/// `plan`, in plan order. Deterministic: the same plan gives the same
/// weights.
pub fn weights(plan: &Plan) -> Vec<f64> {
    let n = plan.n();
    let mask: u64 = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    plan.subproblems()
        .iter()
        .map(|sub| {
            let (mut left, mut down, mut right) = (0u64, 0u64, 0u64);
            for &col in sub.columns() {
                let bit = 1u64 << col;
                left = ((left | bit) << 1) & mask;
                down |= bit;
                right = (right | bit) >> 1;
            }
            let rows = n - sub.columns().len();
            let mut total = 0.0;
            for _ in 0..PROBES {
                let (mut l, mut d, mut r) = (left, down, right);
                let (mut product, mut nodes) = (1.0f64, 1.0f64);
                for _ in 0..rows {
                    let free = mask & !(l | d | r);
                    if free == 0 {
                        break;
                    }
                    let choices = free.count_ones();
                    product *= choices as f64;
                    nodes += product;
                    // A repeatable choice of one free column.
                    let mut pick = rng.below(choices as usize);
                    let mut rest = free;
                    while pick > 0 {
                        rest &= rest - 1;
                        pick -= 1;
                    }
                    let bit = rest & rest.wrapping_neg();
                    l = ((l | bit) << 1) & mask;
                    d |= bit;
                    r = (r | bit) >> 1;
                }
                total += nodes;
            }
            total / PROBES as f64
        })
        .collect()
}

/// The board [`calibrate`] counts: big enough that per-subproblem costs
/// do not dominate, small enough to take a few hundredths of a second.
const CALIBRATION_N: usize = 14;

/// How fast this machine counts, in [`weights`] units per second on one
/// thread: counts a small board (on one thread, as a run's threads do) and
/// divides its plan's summed weights by the time taken. The ratio of
/// weight to time barely changes with the board size (the weights count
/// nodes, and each node costs about the same), so it carries over to the
/// big boards whose counts take hours. Fails where the thread to count on
/// cannot start.
pub fn calibrate() -> Result<f64, crate::search::ThreadStartError> {
    let plan = Plan::new(CALIBRATION_N).expect("a valid size");
    let work: f64 = weights(&plan).iter().sum();
    let started = std::time::Instant::now();
    let mut runs = 0u32;
    // At least two runs and 50 ms, so that one hiccup does not decide.
    while runs < 2 || started.elapsed() < std::time::Duration::from_millis(50) {
        super::count_with(&plan, crate::search::Threads::ONE, |_| false, None, |_, _| {})?;
        runs += 1;
    }
    Ok(work * f64::from(runs) / started.elapsed().as_secs_f64().max(1e-9))
}

pub use crate::plan::Forecast;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_measures_a_positive_rate() {
        let rate = calibrate().unwrap();
        assert!(rate.is_finite() && rate > 0.0, "{rate}");
    }

    #[test]
    fn weights_rank_subproblems_like_their_true_sizes() {
        // Larger estimated subproblems have more solutions on the whole: the
        // estimates of the top half add up to more than those of the bottom half.
        let plan = Plan::new(12).unwrap();
        let w = weights(&plan);
        assert_eq!(w.len(), plan.len());
        assert!(w.iter().all(|&x| x >= 1.0));
        let mut by_weight: Vec<usize> = (0..plan.len()).collect();
        by_weight.sort_by(|&a, &b| w[a].total_cmp(&w[b]));
        let half = plan.len() / 2;
        let count = |ids: &[usize]| ids.iter().map(|&i| plan.solve(i).total).sum::<u128>();
        assert!(count(&by_weight[half..]) > count(&by_weight[..half]));
        assert_eq!(weights(&plan), w, "deterministic");
    }
}
