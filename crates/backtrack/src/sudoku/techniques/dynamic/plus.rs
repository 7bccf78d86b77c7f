//! The plus rules of the dynamic forcing chains "plus": pointing or
//! claiming, hidden pairs, naked pairs and X-wings on a run's working grid,
//! each elimination kept with its reasons.

use super::super::cellsets::cells_of;
use super::super::{col, row, UNIT_CELLS};
use super::run::{Context, Run};
use super::{has, put, ADVANCED, NONE};

impl Run {
    /// Turns candidate `t` off by rule `rule` of [`RULES`](super::RULES) (a plus rule or a
    /// nested chain, `nested` its index in `inner` or `u32::MAX`), its
    /// reasons `range` of `reasons`; `false` when it was already off.
    #[inline]
    pub(super) fn turn_off_by_rule(&mut self, t: usize, range: (u32, u32), rule: usize, nested: u32) -> bool {
        if has(&self.off, t) {
            return false;
        }
        put(&mut self.off, t);
        self.off_list.push(t as u16);
        self.off_parent[t] = ADVANCED;
        self.off_time[t] = NONE;
        self.advanced[t] = range;
        self.rule[t] = rule as u8;
        self.nested[t] = nested;
        true
    }

    /// Runs the plus rules on the working grid: the eliminations of the
    /// first rule with an instance the assumption made. `true` when some
    /// candidate was newly turned off.
    #[inline(never)]
    pub(super) fn plus_rules(&mut self, ctx: &Context) -> bool {
        let mut added = false;
        for rule in 0..4 {
            let mut found = false;
            let mut take = |run: &mut Run, removals: &mut Vec<(usize, u16)>, reasons: &[u16]| {
                if reasons.is_empty() {
                    return;
                }
                found = true;
                hash_order(removals);
                let start = run.reasons.len() as u32;
                run.reasons.extend_from_slice(reasons);
                let range = (start, run.reasons.len() as u32);
                for &(cell, mask) in removals.iter() {
                    let mut m = mask;
                    while m != 0 {
                        let t = cell * 9 + m.trailing_zeros() as usize;
                        m &= m - 1;
                        added |= run.turn_off_by_rule(t, range, rule, u32::MAX);
                    }
                }
            };
            match rule {
                0 => self.locking(ctx, &mut take),
                1 => self.hidden_pairs(ctx, &mut take),
                2 => self.naked_pairs(ctx, &mut take),
                _ => self.x_wings(ctx, &mut take),
            }
            if found {
                return added;
            }
        }
        if ctx.kind.nesting() > 0 {
            let mut slot = ctx.nest.borrow_mut();
            let nest = slot.get_or_insert_with(Box::default);
            // The nested rules in order, as indexes of `RULES`.
            let rules: &[usize] = match ctx.kind.nesting() {
                1 => &[4],
                2 => &[4, 5],
                _ => &[6],
            };
            for &rule in rules {
                match rule {
                    4 => nest.search(&self.grid, &ctx.grid, false),
                    5 => nest.search(&self.grid, &ctx.grid, true),
                    _ => nest.search_dynamic(&self.grid, &ctx.grid),
                }
                for h in &nest.hints {
                    let range = (self.reasons.len() as u32, 0);
                    self.reasons.extend_from_slice(&nest.parents[h.parents.0 as usize..h.parents.1 as usize]);
                    let range = (range.0, self.reasons.len() as u32);
                    let inner = self.inner.len() as u32;
                    self.inner.push((h.fingerprint, h.key.1));
                    for &t in &nest.elims[h.elims.0 as usize..h.elims.1 as usize] {
                        added |= self.turn_off_by_rule(t as usize, range, rule, inner);
                    }
                }
                if !nest.hints.is_empty() {
                    break;
                }
            }
        }
        added
    }

    /// Candidates removed from the working grid (followed off candidates)
    /// among `cells` for digit index `i`, in cell order.
    pub(super) fn removed(&self, ctx: &Context, cells: u128, i: usize, out: &mut Vec<u16>) {
        for x in cells_of(ctx.grid.cells[i] & !self.grid.cells[i] & cells) {
            out.push((x * 9 + i) as u16);
        }
    }

    /// Per digit index, the places removed from the working grid.
    pub(super) fn removed_places(&self, ctx: &Context) -> [u128; 9] {
        std::array::from_fn(|d| ctx.grid.cells[d] & !self.grid.cells[d])
    }

    #[inline(never)]
    pub(super) fn locking(&mut self, ctx: &Context, take: &mut Take) {
        let mut removals = std::mem::take(&mut self.scratch);
        let mut reasons = Vec::new();
        // (first unit type, second): box-column, box-row, column-box, row-box.
        for (t1, t2) in [(0, 18), (0, 9), (18, 0), (9, 0)] {
            for i in 0..9 {
                // Only instances with reasons count: a place removed in the first unit.
                let gone = ctx.grid.cells[i] & !self.grid.cells[i];
                if gone == 0 {
                    continue;
                }
                for k1 in 0..9 {
                    let u1 = UNIT_CELLS[t1 + k1];
                    let places = self.grid.cells[i] & u1;
                    if places.count_ones() < 2 || gone & u1 == 0 {
                        continue;
                    }
                    for k2 in 0..9 {
                        let u2 = UNIT_CELLS[t2 + k2];
                        if u1 & u2 == 0 || places & !u2 != 0 {
                            continue;
                        }
                        let gone = self.grid.cells[i] & u2 & !u1;
                        if gone == 0 {
                            continue;
                        }
                        removals.clear();
                        removals.extend(cells_of(gone).map(|x| (x, 1u16 << i)));
                        reasons.clear();
                        self.removed(ctx, u1 & !u2, i, &mut reasons);
                        take(self, &mut removals, &reasons);
                    }
                }
            }
        }
        self.scratch = removals;
    }

    #[inline(never)]
    pub(super) fn hidden_pairs(&mut self, ctx: &Context, take: &mut Take) {
        let mut removals = std::mem::take(&mut self.scratch);
        let mut reasons = Vec::new();
        let removed = self.removed_places(ctx);
        for unit in UNIT_ORDER {
            if ctx.empty[unit] <= 4 {
                continue;
            }
            let u = UNIT_CELLS[unit];
            // Only instances with reasons count: a place of one of the digits removed in the unit.
            let mut gone = 0u16;
            for (d, r) in removed.iter().enumerate() {
                if r & u != 0 {
                    gone |= 1 << d;
                }
            }
            if gone == 0 {
                continue;
            }
            // A hidden pair is two digits with the same two places.
            let mut two = 0u16;
            for d in 0..9 {
                if (self.grid.cells[d] & u).count_ones() == 2 {
                    two |= 1 << d;
                }
            }
            for b in 1..9 {
                if two >> b & 1 == 0 {
                    continue;
                }
                for a in 0..b {
                    if two >> a & 1 == 0 || gone & ((1 << a) | (1 << b)) == 0 {
                        continue;
                    }
                    let (pa, pb) = (self.grid.cells[a] & u, self.grid.cells[b] & u);
                    if pa != pb {
                        continue;
                    }
                    let pair = (1u16 << a) | (1 << b);
                    removals.clear();
                    removals
                        .extend(cells_of(pa | pb).map(|x| (x, self.grid.cands[x] & !pair)).filter(|&(_, m)| m != 0));
                    if removals.is_empty() {
                        continue;
                    }
                    reasons.clear();
                    for x in cells_of(u & !(pa | pb)) {
                        for d in [a, b] {
                            if ctx.grid.cands[x] >> d & 1 != 0 {
                                reasons.push((x * 9 + d) as u16);
                            }
                        }
                    }
                    take(self, &mut removals, &reasons);
                }
            }
        }
        self.scratch = removals;
    }

    #[inline(never)]
    pub(super) fn naked_pairs(&mut self, ctx: &Context, take: &mut Take) {
        let mut removals = std::mem::take(&mut self.scratch);
        let mut reasons = Vec::new();
        // The cells that lost candidates: an instance needs one.
        let mut changed = 0u128;
        for cell in 0..81 {
            if ctx.grid.cands[cell] != self.grid.cands[cell] {
                changed |= 1 << cell;
            }
        }
        for unit in UNIT_ORDER {
            if ctx.empty[unit] < 4 || changed & UNIT_CELLS[unit] == 0 {
                continue;
            }
            let cells: Vec<usize> = cells_of(UNIT_CELLS[unit]).collect();
            // A naked pair is two cells with the same two candidates.
            let mut two = 0u16;
            for (k, &x) in cells.iter().enumerate() {
                if self.grid.cands[x].count_ones() == 2 {
                    two |= 1 << k;
                }
            }
            if two.count_ones() < 2 {
                continue;
            }
            for j in 1..9 {
                if two >> j & 1 == 0 {
                    continue;
                }
                for i in 0..j {
                    if two >> i & 1 == 0 {
                        continue;
                    }
                    let (x, y) = (cells[i], cells[j]);
                    let (mx, my) = (self.grid.cands[x], self.grid.cands[y]);
                    // Only instances with reasons count: a candidate removed from one of the cells.
                    if mx != my || (ctx.grid.cands[x] == mx && ctx.grid.cands[y] == my) {
                        continue;
                    }
                    let pair = mx | my;
                    removals.clear();
                    removals.extend(
                        cells
                            .iter()
                            .filter(|&&z| z != x && z != y)
                            .map(|&z| (z, self.grid.cands[z] & pair))
                            .filter(|&(_, m)| m != 0),
                    );
                    if removals.is_empty() {
                        continue;
                    }
                    reasons.clear();
                    for z in [x, y] {
                        let mut m = ctx.grid.cands[z] & !pair;
                        while m != 0 {
                            reasons.push((z * 9 + m.trailing_zeros() as usize) as u16);
                            m &= m - 1;
                        }
                    }
                    take(self, &mut removals, &reasons);
                }
            }
        }
        self.scratch = removals;
    }

    #[inline(never)]
    pub(super) fn x_wings(&mut self, ctx: &Context, take: &mut Take) {
        let mut removals = std::mem::take(&mut self.scratch);
        let mut reasons = Vec::new();
        let removed = self.removed_places(ctx);
        // Base columns and cover rows, then base rows and cover columns.
        for (base, cover) in [(18, 9), (9, 18)] {
            // Per digit, the base lines with a removed place (only instances
            // with reasons count) and those with two places or more; none
            // for a digit placed more than five times.
            let (mut gone_lines, mut full_lines) = ([0u16; 9], [0u16; 9]);
            for d in 0..9 {
                if ctx.placed[d] + 4 > 9 {
                    continue;
                }
                for k in 0..9 {
                    let line = UNIT_CELLS[base + k];
                    gone_lines[d] |= u16::from(removed[d] & line != 0) << k;
                    full_lines[d] |= u16::from((self.grid.cells[d] & line).count_ones() >= 2) << k;
                }
            }
            for j in 1..9 {
                for i0 in 0..j {
                    let lines = (1u16 << i0) | (1 << j);
                    for d in 0..9 {
                        if gone_lines[d] & lines == 0 || full_lines[d] & lines != lines {
                            continue;
                        }
                        let line = |k: usize| self.grid.cells[d] & UNIT_CELLS[base + k];
                        let (a, b) = (line(i0), line(j));
                        // The cover lines the two base lines' places lie in.
                        let mut covers = 0u16;
                        for x in cells_of(a | b) {
                            covers |= 1 << if cover == 9 { row(x) } else { col(x) };
                        }
                        if covers.count_ones() != 2 {
                            continue;
                        }
                        let bases = UNIT_CELLS[base + i0] | UNIT_CELLS[base + j];
                        let mut cover_cells = 0u128;
                        for k in 0..9 {
                            if covers >> k & 1 != 0 {
                                cover_cells |= UNIT_CELLS[cover + k];
                            }
                        }
                        removals.clear();
                        for k in 0..9 {
                            if covers >> k & 1 != 0 {
                                let gone = self.grid.cells[d] & UNIT_CELLS[cover + k] & !bases;
                                removals.extend(cells_of(gone).map(|x| (x, 1u16 << d)));
                            }
                        }
                        if removals.is_empty() {
                            continue;
                        }
                        reasons.clear();
                        for k in [i0, j] {
                            self.removed(ctx, UNIT_CELLS[base + k] & !cover_cells, d, &mut reasons);
                        }
                        take(self, &mut removals, &reasons);
                    }
                }
            }
        }
        self.scratch = removals;
    }
}

pub(super) type Take<'a> = dyn FnMut(&mut Run, &mut Vec<(usize, u16)>, &[u16]) + 'a;

/// Boxes, then columns, then rows.
pub(super) const UNIT_ORDER: [usize; 27] = {
    let mut order = [0usize; 27];
    let mut k = 0;
    while k < 9 {
        order[k] = k;
        order[9 + k] = 18 + k;
        order[18 + k] = 9 + k;
        k += 1;
    }
    order
};

/// Puts a rule's eliminations (cell, digits) in the order Sudoku Explainer
/// meets them: by cell number modulo its table size (16 for up to 12
/// cells, doubling), then as found.
pub(super) fn hash_order(removals: &mut [(usize, u16)]) {
    let mut size = 16;
    while removals.len() * 4 > size * 3 {
        size *= 2;
    }
    removals.sort_by_key(|&(cell, _)| cell & (size - 1));
}
