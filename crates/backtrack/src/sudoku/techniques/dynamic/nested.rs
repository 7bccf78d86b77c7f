//! The simpler chains a nested forcing chain applies to its working grid:
//! forcing X-chains and forcing chains (the "forcing chains" rule, 6.6 and
//! 7.0) and static cell and region forcing chains (the "multiple forcing
//! chains" rule, 8.0), or for the 10.5 level dynamic forcing chains (8.5,
//! see [`dynamic_chains`]).
//!
//! Each search gives every instance the rule finds on the working grid,
//! sorted as Sudoku Explainer sorts them (rating, then complexity, then
//! kind, then as found), with its *rule parents*: the candidates the
//! assumption removed that the instance depends on (the removed candidates
//! of every cell it uses as a naked single, and of every unit it uses as a
//! hidden single, its start included for cell and region chains). An
//! instance without rule parents exists without the assumption and is not
//! used.

use super::super::cellsets::cells_of;
use super::super::chains::length_bonus;
use super::super::{box_of, col, row, UNIT_CELLS};
use super::{has, Context, Grid, Kind, Run, StaticReach, CELL, NONE, SOURCE};

mod dynamic_chains;

/// Where a chain of an instance lies: the run of a candidate assumed on
/// (an index of [`Nest::pool`]), or the run of the assumption off.
#[derive(Clone, Copy)]
enum From {
    On(usize),
    Off,
}

/// One instance found on the working grid.
pub(super) struct Hint {
    /// Rating in tenths, complexity, Sudoku Explainer's sort key, order found.
    pub key: (u16, u16, u8, u32),
    /// The candidates it removes (a range of [`Nest::elims`]).
    pub elims: (u32, u32),
    /// Its rule parents (a range of [`Nest::parents`]).
    pub parents: (u32, u32),
    /// An identity of the instance (its kind, targets and starts).
    pub fingerprint: u64,
}

/// The scratch of the searches, reused from one call to the next.
#[derive(Default)]
pub(super) struct Nest {
    pub hints: Vec<Hint>,
    pub elims: Vec<u16>,
    pub parents: Vec<u16>,
    /// Static runs of the multiple forcing chains, per candidate assumed on.
    pool: Vec<Run>,
    slot: Vec<u16>,
    /// Breadth-first search of the forcing chains.
    on_parent: Vec<u16>,
    off_parent: Vec<u16>,
    on_cause: Vec<u8>,
    /// The nodes reached, per digit: cells on, cells off.
    vis_on: [u128; 9],
    vis_off: [u128; 9],
    layer: Vec<u16>,
    next: Vec<u16>,
    seen: [u64; 23],
    stack: Vec<u16>,
    /// The run of the assumption off, for the dynamic chains inside.
    off_run: Option<Box<Run>>,
    /// The sets of eliminations met, one bit per cell and set of digits.
    taken: Vec<u64>,
    /// The double forcing chains' targets of one candidate: a count and
    /// the targets on, then a count and the targets off.
    doubles: Vec<u16>,
}

/// Adds to `parents` the candidates removed from `source` (leaving `work`)
/// that a link through `cause` (a cell or a unit) to candidate `c` being on
/// depends on.
fn rule_parents(parents: &mut Vec<u16>, work: &Grid, source: &Grid, c: usize, cause: u8) {
    let (cell, i) = (c / 9, c % 9);
    if cause == CELL {
        let mut m = source.cands[cell] & !work.cands[cell];
        while m != 0 {
            parents.push((cell * 9 + m.trailing_zeros() as usize) as u16);
            m &= m - 1;
        }
    } else if (cause as usize) < 27 {
        for x in cells_of(source.cells[i] & !work.cells[i] & UNIT_CELLS[cause as usize]) {
            parents.push((x * 9 + i) as u16);
        }
    }
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

impl Nest {
    fn ready(&mut self) {
        if self.slot.is_empty() {
            self.slot = vec![NONE; 729];
            self.on_parent = vec![NONE; 729];
            self.off_parent = vec![NONE; 729];
            self.on_cause = vec![SOURCE; 729];
        }
    }

    /// The instances of the forcing chains rule (`multiple` false) or of
    /// the multiple forcing chains rule on `work`, the grid `source` was
    /// reduced to, sorted; only those with rule parents are kept.
    pub fn search(&mut self, work: &Grid, source: &Grid, multiple: bool) {
        self.ready();
        self.hints.clear();
        self.elims.clear();
        self.parents.clear();
        if multiple {
            self.cell_and_region_chains(work, source, false);
        } else {
            self.forcing(work, source, false);
            self.forcing(work, source, true);
        }
        self.hints.sort_by_key(|h| h.key);
    }

    /// The removed candidates a link through `cause` (a cell or a unit)
    /// to candidate `c` being on depends on.
    fn rule_parents(&mut self, work: &Grid, source: &Grid, c: usize, cause: u8) {
        rule_parents(&mut self.parents, work, source, c, cause);
    }

    /// Sorts and dedups the rule parents from `start`; `false` when there are none.
    fn close_parents(&mut self, start: usize) -> bool {
        let tail = &mut self.parents[start..];
        tail.sort_unstable();
        let mut n = 0;
        for k in 0..tail.len() {
            if k == 0 || tail[k] != tail[n - 1] {
                tail[n] = tail[k];
                n += 1;
            }
        }
        self.parents.truncate(start + n);
        n > 0
    }

    /// Forcing chains (X links only, or through cells too with `xy`): from
    /// each candidate assumed on (off), a breadth-first search for the
    /// candidate off (on).
    fn forcing(&mut self, work: &Grid, source: &Grid, xy: bool) {
        let base = if xy { 70 } else { 66 };
        let sort = if xy { 4 } else { 2 };
        // A chain has rule parents only if it goes through a strong link
        // the removals made (its unit or cell lost candidates): from one of
        // its ends assumed on, the chain's start assumed off is reached
        // (links read backward with the states flipped are links).
        self.vis_on = [0; 9];
        self.vis_off = [0; 9];
        self.layer.clear();
        for d in 0..9 {
            for &u in &UNIT_CELLS {
                let places = work.cells[d] & u;
                if places.count_ones() == 2 && source.cells[d] & u != places {
                    for x in cells_of(places) {
                        let e = x * 9 + d;
                        if self.vis_on[d] >> x & 1 == 0 {
                            self.vis_on[d] |= 1 << x;
                            self.layer.push(e as u16);
                        }
                    }
                }
            }
        }
        if xy {
            for cell in 0..81 {
                if work.cands[cell].count_ones() == 2 && source.cands[cell] != work.cands[cell] {
                    let mut m = work.cands[cell];
                    while m != 0 {
                        let e = cell * 9 + m.trailing_zeros() as usize;
                        m &= m - 1;
                        if self.vis_on[e % 9] >> cell & 1 == 0 {
                            self.vis_on[e % 9] |= 1 << cell;
                            self.layer.push(e as u16);
                        }
                    }
                }
            }
        }
        if self.layer.is_empty() {
            return;
        }
        self.bfs(work, usize::MAX, true, xy);
        let (reach_on, reach_off) = (self.vis_on, self.vis_off);
        // The candidates known to reach no opposite of themselves, assumed
        // on and assumed off. A search from a candidate that fails has met
        // every node that the nodes it met can reach, so each node it met
        // whose opposite it did not meet fails as well; skipping those
        // searches changes nothing, as a failed search leaves no trace.
        let mut fails_on = [0u128; 9];
        let mut fails_off = [0u128; 9];
        for cell in 0..81 {
            if work.cands[cell].count_ones() < 2 {
                continue;
            }
            let mut m = work.cands[cell];
            while m != 0 {
                let c = cell * 9 + m.trailing_zeros() as usize;
                m &= m - 1;
                for start_on in [true, false] {
                    if (if start_on { reach_off[c % 9] } else { reach_on[c % 9] }) >> cell & 1 == 0 {
                        continue;
                    }
                    if (if start_on { fails_on[c % 9] } else { fails_off[c % 9] }) >> cell & 1 != 0 {
                        continue;
                    }
                    let Some(length) = self.chain(work, c, start_on, xy) else {
                        for d in 0..9 {
                            fails_on[d] |= self.vis_on[d] & !self.vis_off[d];
                            fails_off[d] |= self.vis_off[d] & !self.vis_on[d];
                        }
                        continue;
                    };
                    // The chain's nodes, from the target back to the start.
                    let start = self.parents.len();
                    let (mut x, mut on) = (c, !start_on);
                    let mut guard = 0;
                    loop {
                        guard += 1;
                        if on {
                            if x == c && on == start_on || guard > 1500 {
                                break;
                            }
                            let cause = self.on_cause[x];
                            self.rule_parents(work, source, x, cause);
                            x = self.on_parent[x] as usize;
                            on = false;
                        } else {
                            if x == c && on == start_on || guard > 1500 {
                                break;
                            }
                            x = self.off_parent[x] as usize;
                            on = true;
                        }
                    }
                    if !self.close_parents(start) {
                        continue;
                    }
                    let e0 = self.elims.len();
                    if start_on {
                        self.elims.push(c as u16);
                    } else {
                        let mut o = work.cands[cell] & !(1 << (c % 9));
                        while o != 0 {
                            self.elims.push((cell * 9 + o.trailing_zeros() as usize) as u16);
                            o &= o - 1;
                        }
                        if self.elims.len() == e0 {
                            self.parents.truncate(start);
                            continue;
                        }
                    }
                    let seq = self.hints.len() as u32;
                    self.hints.push(Hint {
                        key: (base + length_bonus(length).tenths(), length as u16, sort, seq),
                        elims: (e0 as u32, self.elims.len() as u32),
                        parents: (start as u32, self.parents.len() as u32),
                        fingerprint: mix(mix(sort as u64, c as u64 * 2 + start_on as u64), length as u64),
                    });
                }
            }
        }
    }

    /// The length (nodes) of the first chain from candidate `c` assumed
    /// `start_on` to its opposite, breadth first, with the parents filled.
    fn chain(&mut self, work: &Grid, c: usize, start_on: bool, xy: bool) -> Option<usize> {
        self.vis_on = [0; 9];
        self.vis_off = [0; 9];
        self.layer.clear();
        if start_on {
            self.vis_on[c % 9] |= 1 << (c / 9);
        } else {
            self.vis_off[c % 9] |= 1 << (c / 9);
        }
        self.layer.push(c as u16);
        self.bfs(work, c, start_on, xy)
    }

    /// The breadth-first search from the nodes of `layer` (all on, or all
    /// off, and marked) until candidate `c` is reached in the state
    /// opposite to `start_on` (never for `usize::MAX`): the depth then.
    fn bfs(&mut self, work: &Grid, c: usize, start_on: bool, xy: bool) -> Option<usize> {
        self.next.clear();
        // Layers alternate: a layer of on nodes, then one of off nodes.
        let mut on_layer = start_on;
        let mut depth = 1;
        while !self.layer.is_empty() {
            self.next.clear();
            depth += 1;
            for k in 0..self.layer.len() {
                let p = self.layer[k] as usize;
                let (cell, i) = (p / 9, p % 9);
                if on_layer {
                    // On to off: the cell's other candidates, the digit's other places.
                    if xy {
                        let mut m = work.cands[cell] & !(1 << i);
                        while m != 0 {
                            let d = m.trailing_zeros() as usize;
                            m &= m - 1;
                            if self.vis_off[d] >> cell & 1 == 0 {
                                self.vis_off[d] |= 1 << cell;
                                let t = cell * 9 + d;
                                self.off_parent[t] = p as u16;
                                if t == c {
                                    return Some(depth);
                                }
                                self.next.push(t as u16);
                            }
                        }
                    }
                    let b = UNIT_CELLS[box_of(cell)];
                    let others = work.cells[i] & !(1u128 << cell) & !self.vis_off[i];
                    if others == 0 {
                        continue;
                    }
                    for set in
                        [others & b, others & UNIT_CELLS[9 + row(cell)] & !b, others & UNIT_CELLS[18 + col(cell)] & !b]
                    {
                        for x in cells_of(set) {
                            self.vis_off[i] |= 1 << x;
                            let t = x * 9 + i;
                            self.off_parent[t] = p as u16;
                            if t == c {
                                return Some(depth);
                            }
                            self.next.push(t as u16);
                        }
                    }
                } else {
                    if xy && work.cands[cell].count_ones() == 2 {
                        let d = (work.cands[cell] & !(1 << i)).trailing_zeros() as usize;
                        if self.vis_on[d] >> cell & 1 == 0 {
                            self.vis_on[d] |= 1 << cell;
                            let t = cell * 9 + d;
                            self.on_parent[t] = p as u16;
                            self.on_cause[t] = CELL;
                            if t == c {
                                return Some(depth);
                            }
                            self.next.push(t as u16);
                        }
                    }
                    // The unit has one other place when it has two with `p`'s own.
                    let two = 1 + (work.cells[i] >> cell & 1) as u8;
                    for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
                        if work.places[i][unit] != two {
                            continue;
                        }
                        let others = work.cells[i] & UNIT_CELLS[unit] & !(1u128 << cell);
                        if self.vis_on[i] & others == 0 {
                            self.vis_on[i] |= others;
                            let t = others.trailing_zeros() as usize * 9 + i;
                            self.on_parent[t] = p as u16;
                            self.on_cause[t] = unit as u8;
                            if t == c {
                                return Some(depth);
                            }
                            self.next.push(t as u16);
                        }
                    }
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
            on_layer = !on_layer;
        }
        None
    }

    /// The static run of candidate `c` assumed on.
    fn run(&mut self, ctx: &Context, c: usize, used: &mut usize) -> usize {
        if self.slot[c] == NONE {
            if *used == self.pool.len() {
                self.pool.push(Run::new());
            }
            self.pool[*used].follow(ctx, c, true);
            self.slot[c] = *used as u16;
            *used += 1;
        }
        self.slot[c] as usize
    }

    /// The reasons behind candidate `x` (`on` or off) in a run: their
    /// number, with the rule parents of the on candidates among them added.
    fn reasons_in(&mut self, ctx: &Context, source: &Grid, from: From, x: usize, on: bool) -> usize {
        let run: &Run = match from {
            From::On(k) => &self.pool[k],
            From::Off => self.off_run.as_deref().expect("the run of the assumption off"),
        };
        let count = run.reasons_behind(ctx, x, on, &mut self.seen, &mut self.stack);
        // The on candidates met (their nodes are odd and marked in `seen`).
        for w in 0..23 {
            let mut bits = self.seen[w] & 0xAAAA_AAAA_AAAA_AAAA;
            while bits != 0 {
                let node = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = node / 2;
                let cause = run.on_cause[c];
                if cause != SOURCE {
                    rule_parents(&mut self.parents, &ctx.grid, source, c, cause);
                }
            }
        }
        count
    }

    /// Cell and region forcing chains in Sudoku Explainer's order: static
    /// ones (the multiple forcing chains rule), or dynamic ones with the
    /// contradiction and double forcing chains of each candidate too (the
    /// dynamic forcing chains rule, which also takes cells of two
    /// candidates).
    fn cell_and_region_chains(&mut self, work: &Grid, source: &Grid, dynamic: bool) {
        let kind = if dynamic { Kind::Dynamic } else { Kind::Multiple };
        let ctx = Context::new(work.clone(), [0; 9], [0; 27], kind, None);
        // Static starts are followed only when they may reach something in
        // common (dynamic runs are all needed, for the contradiction and
        // double forcing chains).
        let reach = (!dynamic).then(|| StaticReach::new(work));
        let may_share = |starts: &[usize]| reach.as_ref().is_none_or(|r| r.may_share(starts));
        self.slot.iter_mut().for_each(|s| *s = NONE);
        let mut used = 0;
        let mut starts = Vec::with_capacity(9);
        for cell in 0..81 {
            let n = work.cands[cell].count_ones();
            if n < if dynamic { 2 } else { 3 } {
                continue;
            }
            let mut m = work.cands[cell];
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                if dynamic {
                    let k = self.run(&ctx, cell * 9 + i, &mut used);
                    self.binary_chains(&ctx, source, k, cell * 9 + i, n >= 3);
                }
                // Region chains from the units whose first place of the digit is this cell.
                for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
                    let places = work.cells[i] & UNIT_CELLS[unit];
                    if places.count_ones() < 2 || places.trailing_zeros() as usize != cell {
                        continue;
                    }
                    starts.clear();
                    starts.extend(cells_of(places).map(|x| x * 9 + i));
                    if may_share(&starts) {
                        for &s in &starts {
                            self.run(&ctx, s, &mut used);
                        }
                        self.common(&ctx, source, &starts, Some(unit));
                    }
                }
            }
            starts.clear();
            let mut m = work.cands[cell];
            while m != 0 {
                starts.push(cell * 9 + m.trailing_zeros() as usize);
                m &= m - 1;
            }
            if may_share(&starts) {
                for &s in &starts {
                    self.run(&ctx, s, &mut used);
                }
                self.common(&ctx, source, &starts, None);
            }
        }
    }

    /// The instances from what every start (each assumed on) leads to:
    /// region chains (`region` the unit) or cell chains.
    fn common(&mut self, ctx: &Context, source: &Grid, starts: &[usize], region: Option<usize>) {
        let sort = if region.is_some() { 6 } else { 5 };
        for on in [true, false] {
            let mut common = [!0u64; 12];
            for &s in starts {
                let r = &self.pool[self.slot[s] as usize];
                let set = if on { &r.on } else { &r.off };
                for (x, y) in common.iter_mut().zip(set) {
                    *x &= y;
                }
            }
            if common.iter().all(|&w| w == 0) {
                continue;
            }
            let first = self.slot[starts[0]] as usize;
            let count = if on { self.pool[first].on_list.len() } else { self.pool[first].off_list.len() };
            for j in 0..count {
                let r = &self.pool[first];
                let x = if on { r.on_list[j] } else { r.off_list[j] } as usize;
                if !has(&common, x) {
                    continue;
                }
                if on && ctx.grid.cands[x / 9].count_ones() < 2 {
                    continue;
                }
                let start = self.parents.len();
                rule_parents(&mut self.parents, &ctx.grid, source, starts[0], region.map_or(CELL, |u| u as u8));
                let mut complexity = 0;
                let mut fingerprint = mix(sort as u64, x as u64 * 2 + on as u64);
                for &s in starts {
                    let k = self.slot[s] as usize;
                    complexity += self.reasons_in(ctx, source, From::On(k), x, on);
                    fingerprint = mix(fingerprint, s as u64);
                }
                self.push_hint(ctx, (x, on), complexity, sort, start, mix(fingerprint, complexity as u64));
            }
        }
    }

    /// Adds an instance of the rule of `ctx`'s kind that sets `target`
    /// (candidate, state), with its complexity, sort key, rule parents
    /// (from `start` of `parents`) and identity. Static chains without rule
    /// parents are dropped at once; dynamic ones are kept until the first
    /// instance of each set of eliminations is known.
    fn push_hint(&mut self, ctx: &Context, target: (usize, bool), complexity: usize, sort: u8, start: usize, id: u64) {
        let has_parents = self.close_parents(start);
        let dynamic = ctx.kind == Kind::Dynamic;
        if !has_parents && !dynamic {
            return;
        }
        let (x, on) = target;
        let e0 = self.elims.len();
        if on {
            let mut o = ctx.grid.cands[x / 9] & !(1 << (x % 9));
            while o != 0 {
                self.elims.push(((x / 9) * 9 + o.trailing_zeros() as usize) as u16);
                o &= o - 1;
            }
        } else {
            self.elims.push(x as u16);
        }
        if self.elims.len() == e0 {
            self.parents.truncate(start);
            return;
        }
        let base = ctx.kind.base();
        let seq = self.hints.len() as u32;
        self.hints.push(Hint {
            key: (base + length_bonus(complexity).tenths(), complexity as u16, sort, seq),
            elims: (e0 as u32, self.elims.len() as u32),
            parents: (start as u32, self.parents.len() as u32),
            fingerprint: id,
        });
    }
}
