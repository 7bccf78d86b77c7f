//! Dynamic forcing chains as the rule nested inside a chain (the "+ Dynamic
//! Forcing Chains" level, 10.5): on the working grid, every instance the
//! dynamic forcing chains rule finds (contradiction and double forcing
//! chains, region and cell forcing chains), as Sudoku Explainer lists them.
//!
//! The instances are sorted by rating, complexity, kind and order found.
//! Of the instances with the same eliminations only the first is listed
//! (Sudoku Explainer keeps one instance per set of eliminations), and it
//! counts only if it has rule parents: a later instance with the same
//! eliminations is not used even when it has rule parents and the first
//! has none.

use super::super::{has, Context, Run};
use super::{mix, From, Grid, Nest};

impl Nest {
    /// The instances of the dynamic forcing chains rule on `work`, the grid
    /// `source` was reduced to, sorted, each set of eliminations once; only
    /// those with rule parents are kept.
    pub fn search_dynamic(&mut self, work: &Grid, source: &Grid) {
        self.ready();
        if self.off_run.is_none() {
            self.off_run = Some(Box::new(Run::new()));
        }
        if self.taken.is_empty() {
            // One bit per cell and set of digits.
            self.taken = vec![0; 81 * 512 / 64];
        }
        self.hints.clear();
        self.elims.clear();
        self.parents.clear();
        self.cell_and_region_chains(work, source, true);
        self.hints.sort_by_key(|h| h.key);
        let mut kept = 0;
        for j in 0..self.hints.len() {
            let bit = self.elims_key(j);
            if self.taken[bit / 64] >> (bit % 64) & 1 != 0 {
                continue;
            }
            self.taken[bit / 64] |= 1 << (bit % 64);
            let h = &self.hints[j];
            if h.parents.0 == h.parents.1 {
                continue;
            }
            self.hints.swap(kept, j);
            kept += 1;
        }
        // Clear the bits for the next search.
        for j in 0..self.hints.len() {
            let bit = self.elims_key(j);
            self.taken[bit / 64] = 0;
        }
        self.hints.truncate(kept);
    }

    /// The set of eliminations of instance `j` (all in one cell) as one
    /// number: the cell times 512 plus the digits' bits.
    fn elims_key(&self, j: usize) -> usize {
        let h = &self.hints[j];
        let e = &self.elims[h.elims.0 as usize..h.elims.1 as usize];
        e[0] as usize / 9 * 512 + e.iter().fold(0, |m, &x| m | 1 << (x % 9))
    }

    /// The contradiction forcing chains of candidate `c` (assumed on: its
    /// run is `k`, then off), and with `doubles` (a cell of three
    /// candidates or more) its double forcing chains, in Sudoku Explainer's
    /// order.
    pub(super) fn binary_chains(&mut self, ctx: &Context, source: &Grid, k: usize, c: usize, doubles: bool) {
        if let Some(x) = self.pool[k].conflict {
            self.binary(ctx, source, [From::On(k), From::On(k)], x as usize, None, (c, true), 7);
        }
        let mut off = self.off_run.take().expect("the run of the assumption off");
        off.follow(ctx, c, false);
        let conflict = off.conflict;
        if doubles {
            // What both assumptions lead to, in the order of the run on.
            for on in [true, false] {
                let a = &self.pool[k];
                let (list, set) = if on { (&a.on_list, &off.on) } else { (&a.off_list, &off.off) };
                self.stack.clear();
                self.stack.extend(list.iter().copied().filter(|&x| has(set, x as usize)));
                self.doubles.push(self.stack.len() as u16);
                let n = self.stack.len();
                self.doubles.extend_from_slice(&self.stack[..n]);
            }
        }
        self.off_run = Some(off);
        if let Some(x) = conflict {
            self.binary(ctx, source, [From::Off, From::Off], x as usize, None, (c, false), 7);
        }
        if doubles {
            let both = std::mem::take(&mut self.doubles);
            let mut j = 0;
            for on in [true, false] {
                let n = both[j] as usize;
                for &x in &both[j + 1..j + 1 + n] {
                    let x = x as usize;
                    if on && ctx.grid.cands[x / 9].count_ones() < 2 {
                        continue;
                    }
                    self.binary(ctx, source, [From::On(k), From::Off], x, Some(on), (c, true), 1);
                }
                j += 1 + n;
            }
            self.doubles = both;
            self.doubles.clear();
        }
    }

    /// A contradiction (`on` `None`: candidate `x` both on and off in the
    /// run) or double forcing chain (`x` `on` or off in both runs) from
    /// the assumption `src` (candidate, state); `sort` its kind's key.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        ctx: &Context,
        source: &Grid,
        runs: [From; 2],
        x: usize,
        on: Option<bool>,
        src: (usize, bool),
        sort: u8,
    ) {
        let start = self.parents.len();
        let (states, target) = match on {
            None => ([true, false], (src.0, !src.1)),
            Some(on) => ([on, on], (x, on)),
        };
        let complexity =
            self.reasons_in(ctx, source, runs[0], x, states[0]) + self.reasons_in(ctx, source, runs[1], x, states[1]);
        let id = mix(mix(mix(sort as u64, (src.0 * 2 + src.1 as usize) as u64), (x * 2) as u64), complexity as u64);
        self.push_hint(ctx, target, complexity, sort, start, id);
    }
}
