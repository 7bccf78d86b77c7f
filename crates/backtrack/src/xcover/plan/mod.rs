//! Cutting an exact-cover count into independent subproblems, for long
//! counts that resume from a checkpoint, spread over machines as shards,
//! and show their progress.
//!
//! A subproblem is a prefix of choices from the root: the options chosen at
//! the first levels of the search, under the engine's own choice of item
//! (see [`crate::search::split_into`]). The root is cut at
//! increasing depths until there are at least [`TARGET_SUBPROBLEMS`] pieces
//! (or the tree is that shallow), so the same problem on the same engine
//! always gives the same list, whatever the threads: an index names the
//! same work in every process. A plan is identified by a hash of the input
//! text, the engine and [`PLAN_VERSION`]; a checkpoint or shard report of
//! another input, engine or version is refused.
//!
//! Multiplicities and colors need nothing of their own: the pieces are
//! choices of the engine that counts them. Costs (`--min-cost`, `--best`)
//! are not counts and are not split.

mod checkpoint;
mod report;
mod run;

pub use crate::plan::{CheckpointError, CheckpointSaving, MAX_CHECKPOINT_BYTES};
pub use checkpoint::Checkpoint;
pub use report::{is_xcover_report, merge_reports, read_reports, Merged, Report};
pub use run::{Run, RunError};

use std::time::{Duration, Instant};

use super::{Engine, Problem, XcoverSpace};
use crate::search::{run_jobs, split_into, Control, Node, Order, Space, ThreadStartError, Threads};

/// Identifies how plans are built: results are only combined (resumed,
/// merged) between runs whose plans carry the same version. Change it
/// whenever the way plans are built changes.
pub const PLAN_VERSION: u32 = 1;

/// The fewest subproblems a plan asks the split for: enough to balance
/// many threads or shards, few enough that each is worth scheduling.
pub const TARGET_SUBPROBLEMS: usize = 4096;

/// The subproblems of one problem on one engine, in a fixed order.
#[derive(Debug, Clone)]
pub struct Plan {
    hash: u64,
    root: XcoverSpace,
    pieces: Vec<Vec<usize>>,
}

/// The 64-bit FNV-1a hash of `bytes`: what names an input in checkpoints
/// and reports (not a defence against forgery, a guard against mix-ups).
pub fn content_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

impl Plan {
    /// The plan of `problem`, read from `text`, on `engine`.
    pub fn new(text: &str, problem: &Problem, engine: Engine) -> Plan {
        Plan::of_space(content_hash(text.as_bytes()), problem.space_on(engine))
    }

    /// The plan of the search below `root`, whose input has the [`content_hash`] `hash`.
    pub fn of_space(hash: u64, mut root: XcoverSpace) -> Plan {
        let pieces = split_into(&mut root, Order::Heuristic, TARGET_SUBPROBLEMS);
        Plan { hash, root, pieces }
    }

    /// The input's [`content_hash`], as 16 hexadecimal digits.
    pub fn problem_hash(&self) -> String {
        format!("{:016x}", self.hash)
    }

    /// The engine that counts (and that cut the plan).
    pub fn engine(&self) -> Engine {
        self.root.engine()
    }

    /// The plan's name in the hello of an MPI worker ([`wire::plan_id`](crate::plan::wire::plan_id)):
    /// the input's hash, the engine, the number of subproblems and [`PLAN_VERSION`].
    pub fn id(&self) -> u128 {
        let description =
            format!("xcover {PLAN_VERSION} {} {} {}", self.problem_hash(), self.engine().name(), self.len());
        crate::plan::wire::plan_id(&description)
    }

    /// Number of subproblems.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether there are no subproblems (a problem without a solution may have none).
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The threads a count of the plan runs on when asked for `threads`: as
    /// for a plain count ([`XcoverSpace::threads_for`]), each one walks a copy.
    pub fn threads_for(&self, threads: Threads) -> Threads {
        self.root.threads_for(threads)
    }

    /// Subproblem `index`: the options chosen from the root, in order.
    pub fn subproblem(&self, index: usize) -> &[usize] {
        &self.pieces[index]
    }

    /// Counts subproblem `index` on one thread; `None` when `control` was
    /// cancelled before it ended.
    pub fn solve(&self, index: usize, control: &Control) -> Option<u64> {
        let mut space = self.root.clone();
        if !crate::search::replay(&mut space, Order::Heuristic, &self.pieces[index]) {
            return Some(0);
        }
        let (count, _) = space.count_solutions(None, Threads::ONE, control).ok()?;
        (!control.is_cancelled()).then_some(count)
    }

    /// Counts the subproblems for which `skip` is false on `threads`
    /// threads, calling `done` on the calling thread with each finished
    /// one's index and count, in completion order. After `control` is
    /// cancelled, running subproblems stop early and are not reported.
    pub fn count_with(
        &self,
        threads: Threads,
        skip: impl Fn(usize) -> bool + Sync,
        control: &Control,
        mut done: impl FnMut(usize, u64),
    ) -> Result<(), ThreadStartError> {
        run_jobs(
            threads,
            &self.pieces,
            |i| skip(i) || control.is_cancelled(),
            |i, _| self.solve(i, control),
            |i, result| {
                if let Some(count) = result {
                    done(i, count);
                }
            },
        )
    }

    /// The estimated work of each subproblem, in plan order: the mean of
    /// Knuth's random-probe estimates of the nodes below it. A probe walks
    /// down from the subproblem, taking one random choice at each node, and
    /// adds up the products of the numbers of choices met on the way: an
    /// unbiased estimate of the size of the tree below. Deterministic: the
    /// same plan gives the same weights.
    pub fn weights(&self, probes: usize) -> Vec<f64> {
        let mut rng = crate::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut space = self.root.clone();
        let mut choices = Vec::new();
        self.pieces
            .iter()
            .map(|piece| {
                let mut total = 0.0;
                for _ in 0..probes.max(1) {
                    let mut pushed = 0;
                    let mut arrived = true;
                    for &choice in piece {
                        if !matches!(space.expand(Order::Heuristic), Node::Branch(_)) {
                            arrived = false;
                            break;
                        }
                        pushed += 1;
                        if !space.push(choice) {
                            arrived = false;
                            break;
                        }
                    }
                    let (mut product, mut nodes) = (1.0f64, 1.0f64);
                    while arrived {
                        let Node::Branch(mut branch) = space.expand(Order::Heuristic) else { break };
                        choices.clear();
                        while let Some(choice) = space.next_choice(&mut branch) {
                            choices.push(choice);
                        }
                        if choices.is_empty() {
                            break;
                        }
                        product *= choices.len() as f64;
                        nodes += product;
                        let choice = choices[rng.below(choices.len())];
                        pushed += 1;
                        arrived = space.push(choice);
                    }
                    for _ in 0..pushed {
                        space.pop();
                    }
                    total += nodes;
                }
                total / probes.max(1) as f64
            })
            .collect()
    }

    /// How fast this machine counts this problem, in [`weights`](Self::weights)
    /// units per second on one thread: counts subproblems taken all over
    /// the plan (in a fixed shuffled order, so that they are like the whole),
    /// on one thread, for about a tenth of a second (stopping any
    /// subproblem that takes longer), and divides their weight by the time.
    /// `None` when not one subproblem ended in that time.
    pub fn calibrate(&self, weights: &[f64]) -> Option<f64> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by_key(|&i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let budget = Duration::from_millis(100);
        let started = Instant::now();
        let control = Control::new();
        let (mut work, mut spent) = (0.0, Duration::ZERO);
        std::thread::scope(|scope| {
            let stop = scope.spawn(|| {
                std::thread::park_timeout(budget);
                control.cancel();
            });
            for &i in &order {
                let t = Instant::now();
                if started.elapsed() >= budget || self.solve(i, &control).is_none() {
                    break;
                }
                work += weights[i];
                spent += t.elapsed();
            }
            stop.thread().unpark();
        });
        (work > 0.0).then(|| work / spent.as_secs_f64().max(1e-6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xcover::parse;

    const TOY: &str = "a b c d | x\na b\nc d\na c x:1\nb d x:1\na d\nb c\na\nb\nc\nd\n";

    #[test]
    fn subproblems_add_up_to_the_count_and_weights_follow_the_plan() {
        let problem = parse(TOY).unwrap().problem;
        let plan = Plan::new(TOY, &problem, Engine::Auto);
        assert!(!plan.is_empty());
        let control = Control::new();
        let sum: u64 = (0..plan.len()).map(|i| plan.solve(i, &control).unwrap()).sum();
        assert_eq!(sum, problem.count(None));
        assert_eq!(plan.weights(4).len(), plan.len());
        assert_eq!(plan.weights(4), plan.weights(4), "deterministic");
        assert_ne!(Plan::new("other", &problem, Engine::Auto).problem_hash(), plan.problem_hash());
        assert_ne!(Plan::new("other", &problem, Engine::Auto).id(), plan.id());
        assert_ne!(Plan::new(TOY, &problem, Engine::Links).id(), plan.id());
    }

    /// Workers taking turns over the wire's messages count the whole
    /// problem, as one process does.
    #[test]
    fn a_master_and_workers_count_the_plan() {
        let problem = parse(TOY).unwrap().problem;
        let plan = Plan::new(TOY, &problem, Engine::Auto);
        let solve = |i| u128::from(plan.solve(i, &Control::new()).unwrap());
        let counted = crate::plan::wire::count_in_turns(plan.id(), plan.len(), 2, solve);
        assert_eq!(counted, Ok(u128::from(problem.count(None))));
    }
}
