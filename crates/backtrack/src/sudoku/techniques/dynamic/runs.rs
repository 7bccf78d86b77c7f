//! The runs of one search, kept per candidate assumed on and reused from
//! one search to the next, and the static reach that lets the multiple
//! forcing chains skip starts that share nothing.

use super::super::chains::{Closure, Graph};
use super::run::{Context, Grid, Run};
use super::{nested, ADVANCED, NONE};

/// What the forcing chains of a [`Rater`] keep from one search to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    /// For the Nishio forcing chains, per digit: its places and the cells
    /// among them with two candidates or more (the starts), when no
    /// assumption on the digit last met a contradiction.
    pub(super) nishio_barren: [Option<(u128, u128)>; 9],
    /// The scratch of the rules nested inside chains.
    pub(super) nest: Option<Box<nested::Nest>>,
    /// Runs of the last search, reused by the next.
    pub(super) pool: Pool,
}

/// Runs kept for reuse: those assumed on, and the scratch run.
#[derive(Default)]
pub(super) struct Pool {
    pub(super) runs: Vec<Run>,
    pub(super) off: Option<Run>,
}

/// The runs of one search: the propagation of each candidate assumed on
/// (kept, as cell and region chains reuse them) and a scratch run for
/// assumptions off.
pub(super) struct Runs<'a> {
    pub(super) ctx: &'a Context,
    /// Where the runs go back when the search is over.
    pub(super) home: &'a mut Pool,
    /// Runs reused from one search to the next.
    pub(super) pool: Vec<Run>,
    /// The run of each candidate assumed on (index in `pool`), `NONE` if not followed yet.
    pub(super) slot: [u16; 729],
    pub(super) used: usize,
    pub(super) off: Run,
    pub(super) seen: [u64; 23],
    pub(super) stack: Vec<u16>,
    /// The chains inside counted for the step being measured.
    pub(super) step_inner: Vec<u64>,
    /// For the multiple forcing chains: what each assumption reaches.
    pub(super) reach: Option<StaticReach>,
}

/// What each candidate assumed on can lead to, for the multiple forcing
/// chains. Their propagation never changes the grid, so it meets only
/// nodes that the candidate's node reaches in the board's graph of links
/// (all of them, unless a contradiction stops it). Cell and region chains
/// whose starts reach nothing in common are then known to give nothing
/// without following any start, and most are such.
pub(super) struct StaticReach {
    pub(super) graph: Graph,
    pub(super) closure: Closure,
}

impl StaticReach {
    pub(super) fn new(grid: &Grid) -> StaticReach {
        let graph = Graph::of(&grid.cands, true, false);
        let closure = Closure::new(&graph);
        StaticReach { graph, closure }
    }

    /// Whether the propagations of `starts` (each assumed on) may turn
    /// some candidate on in all, or some candidate off in all: `false` only
    /// when they certainly do not.
    pub(super) fn may_share(&self, starts: &[usize]) -> bool {
        let mut common = [!0u64; 23];
        let mut words = 0;
        for &s in starts {
            let Some(v) = self.graph.dense_node(s / 9, (s % 9) as u8 + 1, true) else {
                return true;
            };
            let reach = self.closure.reach(v);
            words = reach.len();
            for (x, y) in common.iter_mut().zip(reach) {
                *x &= y;
            }
        }
        common[..words].iter().any(|&x| x != 0)
    }
}

impl<'a> Runs<'a> {
    /// Runs of `ctx`, reusing those of `home` and leaving them there when dropped.
    pub(super) fn new(ctx: &'a Context, home: &'a mut Pool) -> Runs<'a> {
        let Pool { runs: pool, off } = std::mem::take(home);
        Runs {
            ctx,
            home,
            pool,
            slot: [NONE; 729],
            used: 0,
            off: off.unwrap_or_else(Run::new),
            seen: [0; 23],
            stack: Vec::new(),
            step_inner: Vec::new(),
            reach: None,
        }
    }

    pub(super) fn on(&mut self, c: usize) -> &Run {
        if self.slot[c] == NONE {
            if self.used == self.pool.len() {
                self.pool.push(Run::new());
            }
            self.pool[self.used].follow(self.ctx, c, true);
            self.slot[c] = self.used as u16;
            self.used += 1;
        }
        self.get(c)
    }

    pub(super) fn get(&self, c: usize) -> &Run {
        &self.pool[self.slot[c] as usize]
    }

    /// Starts measuring a step: no chain inside counted yet.
    pub(super) fn begin(&mut self) {
        self.step_inner.clear();
    }

    /// The reasons behind candidate `c` (`on` or off) in the run of
    /// candidate `run` assumed on (or the scratch run), plus the complexity
    /// of the chains inside them not yet counted for this step.
    pub(super) fn count(&mut self, run: Option<usize>, c: usize, on: bool) -> usize {
        let r = match run {
            Some(k) => &self.pool[self.slot[k] as usize],
            None => &self.off,
        };
        let mut count = r.reasons_behind(self.ctx, c, on, &mut self.seen, &mut self.stack);
        if !r.inner.is_empty() {
            for w in 0..23 {
                // Off candidates are the even nodes.
                let mut bits = self.seen[w] & 0x5555_5555_5555_5555;
                while bits != 0 {
                    let x = (w * 64 + bits.trailing_zeros() as usize) / 2;
                    bits &= bits - 1;
                    let k = r.nested[x];
                    if k != u32::MAX && r.off_parent[x] == ADVANCED {
                        let (fingerprint, complexity) = r.inner[k as usize];
                        if !self.step_inner.contains(&fingerprint) {
                            self.step_inner.push(fingerprint);
                            count += complexity as usize;
                        }
                    }
                }
            }
        }
        count
    }
}

impl Drop for Runs<'_> {
    fn drop(&mut self) {
        let pool = std::mem::take(&mut self.pool);
        let off = std::mem::replace(&mut self.off, Run::empty());
        *self.home = Pool { runs: pool, off: Some(off) };
    }
}
