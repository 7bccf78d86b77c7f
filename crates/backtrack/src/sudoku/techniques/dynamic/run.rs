//! The propagation of one assumption (see the [module](super) doc): the
//! working grid, the two queues, and the reasons behind each candidate.

use super::super::cellsets::cells_of;
use super::super::{box_of, cell_name, col, row, Board, UNIT_CELLS};
use super::{has, nested, put, Cands, Kind, ADVANCED, CELL, NONE, RULES, SOURCE};

/// The grid a chain works on: candidates per cell and cells per digit.
#[derive(Clone)]
pub(super) struct Grid {
    pub(super) cands: [u16; 81],
    pub(super) cells: [u128; 9],
    /// `places[i][unit]`: the number of places of digit `i + 1` in the
    /// unit, kept so that a strong link is found without counting bits.
    pub(super) places: [[u8; 27]; 9],
}

impl Grid {
    pub(super) fn new(board: &Board) -> Grid {
        let mut cells = [0u128; 9];
        for (cell, &m) in board.cands.iter().enumerate() {
            for d in super::super::digits(m) {
                cells[d as usize - 1] |= 1 << cell;
            }
        }
        let mut places = [[0u8; 27]; 9];
        for (i, counts) in places.iter_mut().enumerate() {
            for (unit, count) in counts.iter_mut().enumerate() {
                *count = (cells[i] & UNIT_CELLS[unit]).count_ones() as u8;
            }
        }
        Grid { cands: board.cands, cells, places }
    }

    /// A grid with no candidates: a placeholder.
    pub(super) fn empty() -> Grid {
        Grid { cands: [0; 81], cells: [0; 9], places: [[0; 27]; 9] }
    }

    pub(super) fn remove(&mut self, c: usize) {
        let (cell, i) = (c / 9, c % 9);
        if self.cands[cell] >> i & 1 != 0 {
            for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
                self.places[i][unit] -= 1;
            }
        }
        self.cands[cell] &= !(1 << i);
        self.cells[i] &= !(1u128 << cell);
    }
}

/// What the board gives every chain: its grid, the placed digits per
/// digit and the empty cells per unit (for the plus rules).
pub(super) struct Context {
    pub(super) grid: Grid,
    pub(super) placed: [u8; 9],
    pub(super) empty: [u8; 27],
    pub(super) kind: Kind,
    /// The scratch of the rules nested inside chains, reused by every run
    /// (made on first use).
    pub(super) nest: std::cell::RefCell<Option<Box<nested::Nest>>>,
}

impl Context {
    pub(super) fn new(
        grid: Grid,
        placed: [u8; 9],
        empty: [u8; 27],
        kind: Kind,
        nest: Option<Box<nested::Nest>>,
    ) -> Context {
        Context { grid, placed, empty, kind, nest: std::cell::RefCell::new(nest) }
    }
}

/// The propagation of one assumption: which candidates it turns on and off,
/// in order, and why.
pub(super) struct Run {
    pub(super) on: Cands,
    pub(super) off: Cands,
    pub(super) on_list: Vec<u16>,
    pub(super) off_list: Vec<u16>,
    /// The off candidate that turned each on candidate on.
    pub(super) on_parent: Vec<u16>,
    /// Why: `CELL` or the unit, or `SOURCE`.
    pub(super) on_cause: Vec<u8>,
    /// How many off candidates had been followed when it was turned on.
    pub(super) on_time: Vec<u16>,
    /// The on candidate that turned each off candidate off, `NONE` for the
    /// assumption, `ADVANCED` for a plus rule.
    pub(super) off_parent: Vec<u16>,
    /// When each off candidate was followed (`NONE` until then).
    pub(super) off_time: Vec<u16>,
    /// The reasons of the plus rules' off candidates: `advanced[c]` is a
    /// range of `reasons`, and `rule[c]` the rule.
    pub(super) advanced: Vec<(u32, u32)>,
    pub(super) rule: Vec<u8>,
    pub(super) reasons: Vec<u16>,
    /// The chain inside behind each off candidate a nested rule removed
    /// (an index of `inner`, `u32::MAX` for none).
    pub(super) nested: Vec<u32>,
    /// The chains inside: identity and complexity.
    pub(super) inner: Vec<(u64, u16)>,
    /// The candidate found both on and off, if any (the propagation stops there).
    pub(super) conflict: Option<u16>,
    pub(super) processed: u16,
    /// The working grid.
    pub(super) grid: Grid,
    pub(super) scratch: Vec<(usize, u16)>,
}

impl Run {
    /// A run with no room: a placeholder.
    pub(super) fn empty() -> Run {
        Run {
            on: [0; 12],
            off: [0; 12],
            on_list: Vec::new(),
            off_list: Vec::new(),
            on_parent: Vec::new(),
            on_cause: Vec::new(),
            on_time: Vec::new(),
            off_parent: Vec::new(),
            off_time: Vec::new(),
            advanced: Vec::new(),
            rule: Vec::new(),
            reasons: Vec::new(),
            nested: Vec::new(),
            inner: Vec::new(),
            conflict: None,
            processed: 0,
            grid: Grid::empty(),
            scratch: Vec::new(),
        }
    }

    pub(super) fn new() -> Run {
        Run {
            on: [0; 12],
            off: [0; 12],
            on_list: Vec::with_capacity(256),
            off_list: Vec::with_capacity(512),
            on_parent: vec![NONE; 729],
            on_cause: vec![SOURCE; 729],
            on_time: vec![0; 729],
            off_parent: vec![NONE; 729],
            off_time: vec![NONE; 729],
            advanced: vec![(0, 0); 729],
            rule: vec![0; 729],
            reasons: Vec::new(),
            nested: vec![u32::MAX; 729],
            inner: Vec::new(),
            conflict: None,
            processed: 0,
            grid: Grid::empty(),
            scratch: Vec::new(),
        }
    }

    /// Follows the assumption that candidate `c` is `on` (or off).
    pub(super) fn follow(&mut self, ctx: &Context, c: usize, on: bool) {
        self.on = [0; 12];
        self.off = [0; 12];
        self.on_list.clear();
        self.off_list.clear();
        self.reasons.clear();
        self.inner.clear();
        self.conflict = None;
        self.processed = 0;
        self.grid.clone_from(&ctx.grid);
        if on {
            put(&mut self.on, c);
            self.on_list.push(c as u16);
            self.on_parent[c] = NONE;
            self.on_cause[c] = SOURCE;
        } else {
            put(&mut self.off, c);
            self.off_list.push(c as u16);
            self.off_parent[c] = NONE;
            self.off_time[c] = NONE;
        }
        let (mut next_on, mut next_off) = (0, 0);
        loop {
            if next_on < self.on_list.len() {
                let p = self.on_list[next_on] as usize;
                next_on += 1;
                if self.turn_off(ctx, p) {
                    return;
                }
            } else if next_off < self.off_list.len() {
                let p = self.off_list[next_off] as usize;
                next_off += 1;
                if self.turn_on(ctx, p) {
                    return;
                }
            } else if !(ctx.kind.plus() && self.plus_rules(ctx)) {
                return;
            }
        }
    }

    /// The candidates on candidate `p` turns off; `true` at a contradiction.
    pub(super) fn turn_off(&mut self, ctx: &Context, p: usize) -> bool {
        let (cell, i) = (p / 9, p % 9);
        let g = &self.grid;
        let mut targets = [0u16; 32];
        let mut n = 0;
        if ctx.kind.cells() {
            let mut m = g.cands[cell] & !(1 << i);
            while m != 0 {
                targets[n] = (cell * 9 + m.trailing_zeros() as usize) as u16;
                n += 1;
                m &= m - 1;
            }
        }
        let b = UNIT_CELLS[box_of(cell)];
        let others = g.cells[i] & !(1u128 << cell);
        for set in [others & b, others & UNIT_CELLS[9 + row(cell)] & !b, others & UNIT_CELLS[18 + col(cell)] & !b] {
            for x in cells_of(set) {
                targets[n] = (x * 9 + i) as u16;
                n += 1;
            }
        }
        for &t in &targets[..n] {
            let t = t as usize;
            if has(&self.on, t) {
                self.off_parent[t] = p as u16;
                self.conflict = Some(t as u16);
                return true;
            }
            if !has(&self.off, t) {
                put(&mut self.off, t);
                self.off_list.push(t as u16);
                self.off_parent[t] = p as u16;
                self.off_time[t] = NONE;
            }
        }
        false
    }

    /// The candidates off candidate `p` turns on; `true` at a contradiction.
    pub(super) fn turn_on(&mut self, ctx: &Context, p: usize) -> bool {
        let (cell, i) = (p / 9, p % 9);
        let g = &self.grid;
        let mut targets = [(0u16, 0u8); 4];
        let mut n = 0;
        if ctx.kind.cells() && g.cands[cell].count_ones() == 2 {
            let other = g.cands[cell] & !(1 << i);
            if other.count_ones() == 1 {
                targets[n] = ((cell * 9 + other.trailing_zeros() as usize) as u16, CELL);
                n += 1;
            }
        }
        // The unit has one other place when it has two with `p`'s own.
        let two = 1 + (g.cells[i] >> cell & 1) as u8;
        for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
            if g.places[i][unit] == two {
                let others = g.cells[i] & UNIT_CELLS[unit] & !(1u128 << cell);
                targets[n] = ((others.trailing_zeros() as usize * 9 + i) as u16, unit as u8);
                n += 1;
            }
        }
        let time = self.processed;
        if ctx.kind.dynamic() {
            self.grid.remove(p);
            self.off_time[p] = time;
            self.processed += 1;
        }
        for &(t, cause) in &targets[..n] {
            let t = t as usize;
            if has(&self.off, t) {
                (self.on_parent[t], self.on_cause[t], self.on_time[t]) = (p as u16, cause, time);
                self.conflict = Some(t as u16);
                return true;
            }
            if !has(&self.on, t) {
                put(&mut self.on, t);
                self.on_list.push(t as u16);
                (self.on_parent[t], self.on_cause[t], self.on_time[t]) = (p as u16, cause, time);
            }
        }
        false
    }

    /// The number of distinct reasons behind candidate `c` being `on` (or
    /// off), itself and the assumption included.
    pub(super) fn reasons_behind(
        &self,
        ctx: &Context,
        c: usize,
        on: bool,
        seen: &mut [u64; 23],
        stack: &mut Vec<u16>,
    ) -> usize {
        *seen = [0; 23];
        stack.clear();
        let mut count = 0;
        let mut visit = |node: usize, stack: &mut Vec<u16>| {
            if seen[node / 64] >> (node % 64) & 1 == 0 {
                seen[node / 64] |= 1 << (node % 64);
                stack.push(node as u16);
            }
        };
        visit(c * 2 + on as usize, stack);
        while let Some(node) = stack.pop() {
            count += 1;
            let (c, on) = (node as usize / 2, node & 1 == 1);
            if on {
                let cause = self.on_cause[c];
                if cause == SOURCE {
                    continue;
                }
                visit(self.on_parent[c] as usize * 2, stack);
                if ctx.kind.dynamic() {
                    // The candidates removed earlier from the cell or the unit.
                    let time = self.on_time[c];
                    let (cell, i) = (c / 9, c % 9);
                    let mut add = |x: usize, stack: &mut Vec<u16>| {
                        if has(&self.off, x) && self.off_time[x] < time {
                            visit(x * 2, stack);
                        }
                    };
                    if cause == CELL {
                        let mut m = ctx.grid.cands[cell];
                        while m != 0 {
                            add(cell * 9 + m.trailing_zeros() as usize, stack);
                            m &= m - 1;
                        }
                    } else {
                        for x in cells_of(ctx.grid.cells[i] & UNIT_CELLS[cause as usize]) {
                            add(x * 9 + i, stack);
                        }
                    }
                }
            } else {
                match self.off_parent[c] {
                    NONE => {}
                    ADVANCED => {
                        let (a, b) = self.advanced[c];
                        for &r in &self.reasons[a as usize..b as usize] {
                            visit(r as usize * 2, stack);
                        }
                    }
                    p => visit(p as usize * 2 + 1, stack),
                }
            }
        }
        count
    }

    /// The chain to candidate `c` (`on` or off) following the first reason
    /// of each link, as text.
    pub(super) fn path(&self, c: usize, on: bool) -> String {
        let mut nodes = vec![(c, on)];
        let (mut c, mut on) = (c, on);
        loop {
            // The first reason: an off candidate for an on one or for an
            // off one a plus rule removed, an on candidate otherwise.
            let (next, next_on) = if on {
                if self.on_cause[c] == SOURCE {
                    break;
                }
                (self.on_parent[c], false)
            } else {
                match self.off_parent[c] {
                    NONE => break,
                    ADVANCED => (self.reasons[self.advanced[c].0 as usize], false),
                    p => (p, true),
                }
            };
            if nodes.len() > 1458 {
                break;
            }
            (c, on) = (next as usize, next_on);
            nodes.push((c, on));
        }
        nodes.reverse();
        let mut text = String::new();
        for (k, &(c, on)) in nodes.iter().enumerate() {
            if k > 0 {
                text.push_str(" -> ");
            }
            text.push_str(&format!("{}{}{}", cell_name(c / 9), if on { "=" } else { "<>" }, c % 9 + 1));
            if !on && self.off_parent[c] == ADVANCED {
                text.push_str(&format!(" ({})", RULES[self.rule[c] as usize]));
            }
        }
        text
    }
}
