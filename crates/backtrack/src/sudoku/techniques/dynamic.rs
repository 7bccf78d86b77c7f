//! The forcing chains Sudoku Explainer rates from 7.5 up: Nishio forcing
//! chains (7.5), multiple forcing chains (cell and region forcing chains,
//! 8.0), dynamic forcing chains (8.5) and dynamic forcing chains "plus"
//! (9.0), each with the chain length bonus of [`super::chains::length_bonus`].
//!
//! All four follow the same propagation from an assumption (a candidate
//! assumed true, "on", or false, "off"):
//! - an on candidate turns off the digit's other places in its box, row and
//!   column and (except for Nishio chains) the cell's other candidates;
//! - an off candidate turns on the digit's only other place in a box, row
//!   or column and (except for Nishio chains) the other candidate of a cell
//!   left with two.
//!
//! Candidates wait in two queues, on before off, each in the order it was
//! reached. A *dynamic* chain removes each off candidate from its working
//! grid once it has been followed, so later "only place" and "only
//! candidate" links see the grid as the assumption left it; the candidates
//! removed earlier in that cell or unit are then also the reasons of the
//! link. The *plus* chains, once both queues are empty, also look for a
//! pointing or claiming, a hidden pair, a naked pair or an X-wing (the first
//! of these kinds that the assumption made) on the working grid, and go on
//! with what it removes.
//!
//! What a propagation proves:
//! - a contradiction (a candidate both on and off) proves the assumption
//!   false (Nishio and dynamic chains);
//! - a candidate on (or off) both when a candidate is assumed on and when
//!   it is assumed off is on (off): double forcing chains (dynamic, for
//!   cells with three candidates or more);
//! - a candidate on (or off) whichever candidate of a cell is assumed on:
//!   cell forcing chains; whichever place of a digit in a unit is assumed
//!   on: region forcing chains (multiple and dynamic chains).
//!
//! A step's complexity is the number of distinct reasons (candidates on or
//! off, the assumption included) behind each of its chains, summed over
//! its chains; its rating the base plus the length bonus of that number.
//! Of all steps of one kind the one of lowest complexity is used, then the
//! one of lowest order (double forcing 1, cell 5, region 6, contradiction
//! 7), then the first met (cells in order, digits increasing, the
//! assumption on before off, then units box, row, column).

mod nested;

use super::cellsets::cells_of;
use super::chains::{length_bonus, Closure, Graph};
use super::{bit, box_of, cell_name, col, row, unit_name, Board, Rater, Step, Technique, Words, UNIT_CELLS};

const NONE: u16 = u16::MAX;
/// `off_parent` of an off candidate found by one of the plus rules.
const ADVANCED: u16 = u16::MAX - 1;
/// `on_cause` of the other candidate of a two-candidate cell.
const CELL: u8 = 27;
/// `on_cause` of the assumption itself.
const SOURCE: u8 = u8::MAX;

/// A set of candidates (`cell * 9 + digit - 1`).
type Cands = [u64; 12];

fn has(set: &Cands, c: usize) -> bool {
    set[c / 64] >> (c % 64) & 1 != 0
}

fn put(set: &mut Cands, c: usize) {
    set[c / 64] |= 1 << (c % 64);
}

/// The four kinds of chain, in the order Sudoku Explainer tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nishio forcing chains: one digit, dynamic, contradictions only (7.5).
    Nishio,
    /// Multiple forcing chains: cell and region forcing chains, static (8.0).
    Multiple,
    /// Dynamic forcing chains (8.5).
    Dynamic,
    /// Dynamic forcing chains using pointing, claiming, hidden and naked
    /// pairs and X-wings as links too (9.0).
    DynamicPlus,
    /// Dynamic forcing chains plus, using forcing chains (X-chains and
    /// chains through cells) on the working grid as links too (9.5).
    NestedForcing,
    /// Nested forcing chains using static cell and region forcing chains
    /// too (10.0).
    NestedMultiple,
    /// Dynamic forcing chains plus, using dynamic forcing chains (all their
    /// kinds: contradiction, double, cell and region chains) on the
    /// working grid as links too (10.5).
    NestedDynamic,
}

impl Kind {
    /// Every kind, from the easiest.
    pub const ALL: [Kind; 7] = [
        Kind::Nishio,
        Kind::Multiple,
        Kind::Dynamic,
        Kind::DynamicPlus,
        Kind::NestedForcing,
        Kind::NestedMultiple,
        Kind::NestedDynamic,
    ];

    fn base(self) -> u16 {
        match self {
            Kind::Nishio => 75,
            Kind::Multiple => 80,
            Kind::Dynamic => 85,
            Kind::DynamicPlus => 90,
            Kind::NestedForcing => 95,
            Kind::NestedMultiple => 100,
            Kind::NestedDynamic => 105,
        }
    }

    /// Links through cells (all but Nishio chains).
    fn cells(self) -> bool {
        self != Kind::Nishio
    }

    fn dynamic(self) -> bool {
        self != Kind::Multiple
    }

    fn plus(self) -> bool {
        matches!(self, Kind::DynamicPlus | Kind::NestedForcing | Kind::NestedMultiple | Kind::NestedDynamic)
    }

    /// The nesting: 0 for no chains inside, 1 for forcing chains, 2 for
    /// multiple forcing chains too, 3 for dynamic forcing chains (which
    /// cover the other two, so they are the only chains inside).
    fn nesting(self) -> u8 {
        match self {
            Kind::NestedForcing => 1,
            Kind::NestedMultiple => 2,
            Kind::NestedDynamic => 3,
            _ => 0,
        }
    }

    /// What the chains' texts add to their names.
    fn suffix(self) -> &'static str {
        match self {
            Kind::DynamicPlus => " (+)",
            Kind::NestedForcing => " (+ Forcing Chains)",
            Kind::NestedMultiple => " (+ Multiple Forcing Chains)",
            Kind::NestedDynamic => " (+ Dynamic Forcing Chains)",
            _ => "",
        }
    }

    /// The technique of this kind's steps; `multiple` for multiple chains
    /// (cell or region forcing chains).
    fn technique(self, multiple: Technique) -> Technique {
        match self {
            Kind::Nishio => Technique::NishioForcingChain,
            Kind::Multiple => multiple,
            Kind::Dynamic => Technique::DynamicForcingChain,
            Kind::DynamicPlus => Technique::DynamicForcingChainPlus,
            Kind::NestedForcing => Technique::NestedForcingChain,
            Kind::NestedMultiple => Technique::NestedMultipleForcingChain,
            Kind::NestedDynamic => Technique::NestedDynamicForcingChain,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Nishio => "Nishio",
            Kind::Multiple => "",
            Kind::Dynamic | Kind::DynamicPlus | Kind::NestedForcing | Kind::NestedMultiple | Kind::NestedDynamic => {
                "Dynamic"
            }
        }
    }
}

/// The grid a chain works on: candidates per cell and cells per digit.
#[derive(Clone)]
struct Grid {
    cands: [u16; 81],
    cells: [u128; 9],
    /// `places[i][unit]`: the number of places of digit `i + 1` in the
    /// unit, kept so that a strong link is found without counting bits.
    places: [[u8; 27]; 9],
}

impl Grid {
    fn new(board: &Board) -> Grid {
        let mut cells = [0u128; 9];
        for (cell, &m) in board.cands.iter().enumerate() {
            for d in super::digits(m) {
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
    fn empty() -> Grid {
        Grid { cands: [0; 81], cells: [0; 9], places: [[0; 27]; 9] }
    }

    fn remove(&mut self, c: usize) {
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
struct Context {
    grid: Grid,
    placed: [u8; 9],
    empty: [u8; 27],
    kind: Kind,
    /// The scratch of the rules nested inside chains, reused by every run
    /// (made on first use).
    nest: std::cell::RefCell<Option<Box<nested::Nest>>>,
}

impl Context {
    fn new(grid: Grid, placed: [u8; 9], empty: [u8; 27], kind: Kind, nest: Option<Box<nested::Nest>>) -> Context {
        Context { grid, placed, empty, kind, nest: std::cell::RefCell::new(nest) }
    }
}

/// What the forcing chains of a [`Rater`] keep from one search to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    /// For the Nishio forcing chains, per digit: its places and the cells
    /// among them with two candidates or more (the starts), when no
    /// assumption on the digit last met a contradiction.
    nishio_barren: [Option<(u128, u128)>; 9],
    /// The scratch of the rules nested inside chains.
    nest: Option<Box<nested::Nest>>,
    /// Runs of the last search, reused by the next.
    pool: Pool,
}

/// Runs kept for reuse: those assumed on, and the scratch run.
#[derive(Default)]
struct Pool {
    runs: Vec<Run>,
    off: Option<Run>,
}

/// The propagation of one assumption: which candidates it turns on and off,
/// in order, and why.
struct Run {
    on: Cands,
    off: Cands,
    on_list: Vec<u16>,
    off_list: Vec<u16>,
    /// The off candidate that turned each on candidate on.
    on_parent: Vec<u16>,
    /// Why: `CELL` or the unit, or `SOURCE`.
    on_cause: Vec<u8>,
    /// How many off candidates had been followed when it was turned on.
    on_time: Vec<u16>,
    /// The on candidate that turned each off candidate off, `NONE` for the
    /// assumption, `ADVANCED` for a plus rule.
    off_parent: Vec<u16>,
    /// When each off candidate was followed (`NONE` until then).
    off_time: Vec<u16>,
    /// The reasons of the plus rules' off candidates: `advanced[c]` is a
    /// range of `reasons`, and `rule[c]` the rule.
    advanced: Vec<(u32, u32)>,
    rule: Vec<u8>,
    reasons: Vec<u16>,
    /// The chain inside behind each off candidate a nested rule removed
    /// (an index of `inner`, `u32::MAX` for none).
    nested: Vec<u32>,
    /// The chains inside: identity and complexity.
    inner: Vec<(u64, u16)>,
    /// The candidate found both on and off, if any (the propagation stops there).
    conflict: Option<u16>,
    processed: u16,
    /// The working grid.
    grid: Grid,
    scratch: Vec<(usize, u16)>,
}

impl Run {
    /// A run with no room: a placeholder.
    fn empty() -> Run {
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

    fn new() -> Run {
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
    fn follow(&mut self, ctx: &Context, c: usize, on: bool) {
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
    fn turn_off(&mut self, ctx: &Context, p: usize) -> bool {
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
    fn turn_on(&mut self, ctx: &Context, p: usize) -> bool {
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
    fn reasons_behind(&self, ctx: &Context, c: usize, on: bool, seen: &mut [u64; 23], stack: &mut Vec<u16>) -> usize {
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
    fn path(&self, c: usize, on: bool) -> String {
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

    /// Turns candidate `t` off by rule `rule` of [`RULES`] (a plus rule or a
    /// nested chain, `nested` its index in `inner` or `u32::MAX`), its
    /// reasons `range` of `reasons`; `false` when it was already off.
    #[inline]
    fn turn_off_by_rule(&mut self, t: usize, range: (u32, u32), rule: usize, nested: u32) -> bool {
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
    fn plus_rules(&mut self, ctx: &Context) -> bool {
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
    fn removed(&self, ctx: &Context, cells: u128, i: usize, out: &mut Vec<u16>) {
        for x in cells_of(ctx.grid.cells[i] & !self.grid.cells[i] & cells) {
            out.push((x * 9 + i) as u16);
        }
    }

    /// Per digit index, the places removed from the working grid.
    fn removed_places(&self, ctx: &Context) -> [u128; 9] {
        std::array::from_fn(|d| ctx.grid.cells[d] & !self.grid.cells[d])
    }

    #[inline(never)]
    fn locking(&mut self, ctx: &Context, take: &mut Take) {
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
    fn hidden_pairs(&mut self, ctx: &Context, take: &mut Take) {
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
    fn naked_pairs(&mut self, ctx: &Context, take: &mut Take) {
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
    fn x_wings(&mut self, ctx: &Context, take: &mut Take) {
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

type Take<'a> = dyn FnMut(&mut Run, &mut Vec<(usize, u16)>, &[u16]) + 'a;

/// The plus rules, in the order they are tried.
const RULES: [&str; 7] = [
    "pointing or claiming",
    "hidden pair",
    "naked pair",
    "X-wing",
    "forcing chain",
    "multiple forcing chain",
    "dynamic forcing chain",
];

/// Boxes, then columns, then rows.
const UNIT_ORDER: [usize; 27] = {
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
fn hash_order(removals: &mut [(usize, u16)]) {
    let mut size = 16;
    while removals.len() * 4 > size * 3 {
        size *= 2;
    }
    removals.sort_by_key(|&(cell, _)| cell & (size - 1));
}

/// The best step found so far: (complexity, order) and the step.
struct Best {
    rank: Option<(usize, u8)>,
    step: Option<Step>,
}

impl Best {
    /// Whether a step of this rank would replace the best.
    fn beats(&self, complexity: usize, order: u8) -> bool {
        self.rank.is_none_or(|r| (complexity, order) < r)
    }

    /// The most complexity a step of order `order` may have to be used.
    fn limit(&self, order: u8) -> usize {
        match self.rank {
            None => usize::MAX,
            Some((c, o)) => {
                if order < o {
                    c
                } else {
                    c.saturating_sub(1)
                }
            }
        }
    }
}

/// The runs of one search: the propagation of each candidate assumed on
/// (kept, as cell and region chains reuse them) and a scratch run for
/// assumptions off.
struct Runs<'a> {
    ctx: &'a Context,
    /// Where the runs go back when the search is over.
    home: &'a mut Pool,
    /// Runs reused from one search to the next.
    pool: Vec<Run>,
    /// The run of each candidate assumed on (index in `pool`), `NONE` if not followed yet.
    slot: [u16; 729],
    used: usize,
    off: Run,
    seen: [u64; 23],
    stack: Vec<u16>,
    /// The chains inside counted for the step being measured.
    step_inner: Vec<u64>,
    /// For the multiple forcing chains: what each assumption reaches.
    reach: Option<StaticReach>,
}

/// What each candidate assumed on can lead to, for the multiple forcing
/// chains. Their propagation never changes the grid, so it meets only
/// nodes that the candidate's node reaches in the board's graph of links
/// (all of them, unless a contradiction stops it). Cell and region chains
/// whose starts reach nothing in common are then known to give nothing
/// without following any start, and most are such.
struct StaticReach {
    graph: Graph,
    closure: Closure,
}

impl StaticReach {
    fn new(grid: &Grid) -> StaticReach {
        let graph = Graph::of(&grid.cands, true, false);
        let closure = Closure::new(&graph);
        StaticReach { graph, closure }
    }

    /// Whether the propagations of `starts` (each assumed on) may turn
    /// some candidate on in all, or some candidate off in all: `false` only
    /// when they certainly do not.
    fn may_share(&self, starts: &[usize]) -> bool {
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
    fn new(ctx: &'a Context, home: &'a mut Pool) -> Runs<'a> {
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

    fn on(&mut self, c: usize) -> &Run {
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

    fn get(&self, c: usize) -> &Run {
        &self.pool[self.slot[c] as usize]
    }

    /// Starts measuring a step: no chain inside counted yet.
    fn begin(&mut self) {
        self.step_inner.clear();
    }

    /// The reasons behind candidate `c` (`on` or off) in the run of
    /// candidate `run` assumed on (or the scratch run), plus the complexity
    /// of the chains inside them not yet counted for this step.
    fn count(&mut self, run: Option<usize>, c: usize, on: bool) -> usize {
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

fn target_text(c: usize, on: bool) -> String {
    format!("{}{}{}", cell_name(c / 9), if on { "=" } else { "<>" }, c % 9 + 1)
}

/// The step that sets candidate `c` on (place it) or off (remove it).
/// Placements and eliminations.
type Verdict = (Vec<(usize, u8)>, Vec<(usize, u8)>);

fn verdict(board: &Board, c: usize, on: bool) -> Verdict {
    let (cell, d) = (c / 9, (c % 9) as u8 + 1);
    if on {
        let others = super::digits(board.cands[cell] & !bit(d)).map(|e| (cell, e)).collect();
        (vec![(cell, d)], others)
    } else {
        (vec![], vec![(cell, d)])
    }
}

/// The easiest step of forcing chains of `kind` on `board`, as Sudoku
/// Explainer chooses it.
pub fn forcing_chain(rater: &mut Rater, board: &Board, kind: Kind, words: Words) -> Option<Step> {
    let scratch = &mut rater.chains;
    let mut placed = [0u8; 9];
    for &v in &board.values {
        if v != 0 {
            placed[v as usize - 1] += 1;
        }
    }
    let mut empty = [0u8; 27];
    for (u, cells) in UNIT_CELLS.iter().enumerate() {
        empty[u] = cells_of(*cells).filter(|&x| board.values[x] == 0).count() as u8;
    }
    let ctx = Context::new(Grid::new(board), placed, empty, kind, scratch.nest.take());
    let mut runs = Runs::new(&ctx, &mut scratch.pool);
    if kind == Kind::Multiple {
        runs.reach = Some(StaticReach::new(&ctx.grid));
    }
    let technique = kind.technique(Technique::CellForcingChain);
    let rating = |complexity: usize| kind.base() + length_bonus(complexity);
    let mut best = Best { rank: None, step: None };
    let prefix = kind.name();
    let suffix = kind.suffix();
    // A Nishio chain follows one digit's links only, so what it finds from
    // the places of a digit depends on those places alone: the digits
    // where no assumption met a contradiction last time, with the same
    // places and starts, have none now either.
    let nishio = kind == Kind::Nishio;
    let mut places = [(0u128, 0u128); 9];
    let mut known = [None; 9];
    let mut contradicted = 0u16;
    if nishio {
        let starts = (0..81).filter(|&x| board.cands[x].count_ones() >= 2).fold(0u128, |m, x| m | 1 << x);
        for (i, p) in places.iter_mut().enumerate() {
            *p = (ctx.grid.cells[i], ctx.grid.cells[i] & starts);
        }
        known = scratch.nishio_barren;
    }
    for cell in 0..81 {
        let n = board.cands[cell].count_ones();
        if n < 2 || (n == 2 && !kind.dynamic()) {
            continue;
        }
        let contradictions = kind.dynamic();
        let doubles = n >= 3 && kind.dynamic() && kind != Kind::Nishio;
        for d in super::digits(board.cands[cell]) {
            let c = cell * 9 + d as usize - 1;
            let i = d as usize - 1;
            if nishio && known[i] == Some(places[i]) {
                continue;
            }
            if runs.reach.is_none() {
                runs.on(c);
            }
            if contradictions {
                // The assumption on, then off, leading to a contradiction.
                let conflict = runs.get(c).conflict;
                if let Some(x) = conflict {
                    contradicted |= 1 << i;
                    let x = x as usize;
                    runs.begin();
                    let complexity = runs.count(Some(c), x, true) + runs.count(Some(c), x, false);
                    if best.beats(complexity, 7) {
                        let run = runs.get(c);
                        let (placements, eliminations) = verdict(board, c, false);
                        let text = words.make(|| {
                            format!(
                                "{prefix} Contradiction Forcing Chain{suffix}: if {} then {} and {}; so {}",
                                target_text(c, true),
                                run.path(x, true),
                                run.path(x, false),
                                target_text(c, false)
                            )
                        });
                        best.rank = Some((complexity, 7));
                        best.step =
                            Some(Step { technique, rating: rating(complexity), placements, eliminations, text });
                    }
                }
                runs.off.follow(&ctx, c, false);
                let conflict = runs.off.conflict;
                if let Some(x) = conflict {
                    contradicted |= 1 << i;
                    let x = x as usize;
                    runs.begin();
                    let complexity = runs.count(None, x, true) + runs.count(None, x, false);
                    if best.beats(complexity, 7) {
                        let run = &runs.off;
                        let (placements, eliminations) = verdict(board, c, true);
                        let text = words.make(|| {
                            format!(
                                "{prefix} Contradiction Forcing Chain{suffix}: if {} then {} and {}; so {}",
                                target_text(c, false),
                                run.path(x, true),
                                run.path(x, false),
                                target_text(c, true)
                            )
                        });
                        best.rank = Some((complexity, 7));
                        best.step =
                            Some(Step { technique, rating: rating(complexity), placements, eliminations, text });
                    }
                }
            }
            if doubles {
                // Candidates on (off) both when `c` is on and when it is off.
                for on in [true, false] {
                    let a = runs.get(c);
                    let (sa, sb) = if on { (&a.on, &runs.off.on) } else { (&a.off, &runs.off.off) };
                    let both: Vec<u16> = (if on { &a.on_list } else { &a.off_list })
                        .iter()
                        .copied()
                        .filter(|&x| has(sa, x as usize) && has(sb, x as usize))
                        .collect();
                    for x in both {
                        let x = x as usize;
                        if on && board.cands[x / 9].count_ones() < 2 {
                            continue;
                        }
                        let limit = best.limit(1);
                        runs.begin();
                        let first = runs.count(Some(c), x, on);
                        if first > limit {
                            continue;
                        }
                        let complexity = first + runs.count(None, x, on);
                        if !best.beats(complexity, 1) {
                            continue;
                        }
                        let a = runs.get(c);
                        let (placements, eliminations) = verdict(board, x, on);
                        let text = words.make(|| {
                            format!(
                                "{prefix} Double Forcing Chain{suffix}: if {} then {}; if {} then {}; so {}",
                                target_text(c, true),
                                a.path(x, on),
                                target_text(c, false),
                                runs.off.path(x, on),
                                target_text(x, on)
                            )
                        });
                        best.rank = Some((complexity, 1));
                        best.step =
                            Some(Step { technique, rating: rating(complexity), placements, eliminations, text });
                    }
                }
            }
            if kind != Kind::Nishio {
                region_chains(board, &mut runs, &mut best, cell, d, kind, words);
            }
        }
        if kind != Kind::Nishio {
            cell_chains(board, &mut runs, &mut best, cell, kind, words);
        }
    }
    if nishio {
        for (i, k) in known.iter_mut().enumerate() {
            *k = (contradicted >> i & 1 == 0).then_some(places[i]);
        }
        scratch.nishio_barren = known;
    }
    drop(runs);
    scratch.nest = ctx.nest.into_inner();
    best.step
}

/// Region forcing chains from the places of digit `d` in the units of
/// `cell`, when `cell` is the first of them.
fn region_chains(board: &Board, runs: &mut Runs, best: &mut Best, cell: usize, d: u8, kind: Kind, words: Words) {
    let i = d as usize - 1;
    let technique = kind.technique(Technique::RegionForcingChain);
    let suffix = kind.suffix();
    let prefix = if kind == Kind::Multiple { String::new() } else { format!("{} ", kind.name()) };
    for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
        let places = runs.ctx.grid.cells[i] & UNIT_CELLS[unit];
        if places.count_ones() < 2 || places.trailing_zeros() as usize != cell {
            continue;
        }
        let starts: Vec<usize> = cells_of(places).map(|x| x * 9 + i).collect();
        if runs.reach.as_ref().is_some_and(|reach| !reach.may_share(&starts)) {
            continue;
        }
        for &s in &starts {
            runs.on(s);
        }
        for on in [true, false] {
            let mut common = if on { runs.get(starts[0]).on } else { runs.get(starts[0]).off };
            for &s in &starts[1..] {
                let r = runs.get(s);
                let set = if on { &r.on } else { &r.off };
                for (x, y) in common.iter_mut().zip(set) {
                    *x &= y;
                }
            }
            if common.iter().all(|&w| w == 0) {
                continue;
            }
            let first = runs.get(starts[0]);
            let list: Vec<u16> = (if on { &first.on_list } else { &first.off_list })
                .iter()
                .copied()
                .filter(|&x| has(&common, x as usize))
                .collect();
            for x in list {
                let x = x as usize;
                if on && board.cands[x / 9].count_ones() < 2 {
                    continue;
                }
                let limit = best.limit(6);
                let mut complexity = 0;
                runs.begin();
                for &s in &starts {
                    complexity += runs.count(Some(s), x, on);
                    if complexity > limit {
                        break;
                    }
                }
                if !best.beats(complexity, 6) {
                    continue;
                }
                let (placements, eliminations) = verdict(board, x, on);
                let text = words.make(|| {
                    let chains: Vec<String> = starts.iter().map(|&s| runs.get(s).path(x, on)).collect();
                    format!(
                        "{prefix}Region Forcing Chain{suffix}: {d} goes in one of {} places in {}: {}; so {}",
                        starts.len(),
                        unit_name(unit),
                        chains.join("; "),
                        target_text(x, on)
                    )
                });
                best.rank = Some((complexity, 6));
                best.step = Some(Step {
                    technique,
                    rating: kind.base() + length_bonus(complexity),
                    placements,
                    eliminations,
                    text,
                });
            }
        }
    }
}

/// Cell forcing chains: what every candidate of `cell` leads to.
fn cell_chains(board: &Board, runs: &mut Runs, best: &mut Best, cell: usize, kind: Kind, words: Words) {
    let technique = kind.technique(Technique::CellForcingChain);
    let suffix = kind.suffix();
    let prefix = if kind == Kind::Multiple { String::new() } else { format!("{} ", kind.name()) };
    let starts: Vec<usize> = super::digits(board.cands[cell]).map(|d| cell * 9 + d as usize - 1).collect();
    if runs.reach.as_ref().is_some_and(|reach| !reach.may_share(&starts)) {
        return;
    }
    for &s in &starts {
        runs.on(s);
    }
    for on in [true, false] {
        let mut common = [!0u64; 12];
        for &s in &starts {
            let r = runs.get(s);
            let set = if on { &r.on } else { &r.off };
            for (x, y) in common.iter_mut().zip(set) {
                *x &= y;
            }
        }
        if common.iter().all(|&w| w == 0) {
            continue;
        }
        let first = runs.get(starts[0]);
        let list: Vec<u16> = (if on { &first.on_list } else { &first.off_list })
            .iter()
            .copied()
            .filter(|&x| has(&common, x as usize))
            .collect();
        for x in list {
            let x = x as usize;
            if on && board.cands[x / 9].count_ones() < 2 {
                continue;
            }
            let limit = best.limit(5);
            let mut complexity = 0;
            runs.begin();
            for &s in &starts {
                complexity += runs.count(Some(s), x, on);
                if complexity > limit {
                    break;
                }
            }
            if !best.beats(complexity, 5) {
                continue;
            }
            let (placements, eliminations) = verdict(board, x, on);
            let text = words.make(|| {
                let chains: Vec<String> = starts.iter().map(|&s| runs.get(s).path(x, on)).collect();
                format!(
                    "{prefix}Cell Forcing Chain{suffix}: {} holds one of {}: {}; so {}",
                    cell_name(cell),
                    super::digits_name(board.cands[cell]),
                    chains.join("; "),
                    target_text(x, on)
                )
            });
            best.rank = Some((complexity, 5));
            best.step = Some(Step {
                technique,
                rating: kind.base() + length_bonus(complexity),
                placements,
                eliminations,
                text,
            });
        }
    }
}

/// The first kind of forcing chain (from Nishio chains to dynamic chains
/// plus) that gives a step, and its easiest step.
pub fn any_forcing_chain(rater: &mut Rater, board: &Board, words: Words) -> Option<Step> {
    Kind::ALL.into_iter().find_map(|kind| forcing_chain(rater, board, kind, words))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the propagations of `starts` share an on or an off candidate.
    fn share(runs: &mut Runs, starts: &[usize]) -> bool {
        let (mut on, mut off) = ([!0u64; 12], [!0u64; 12]);
        for &s in starts {
            let r = runs.on(s);
            for k in 0..12 {
                on[k] &= r.on[k];
                off[k] &= r.off[k];
            }
        }
        on.iter().chain(&off).any(|&w| w != 0)
    }

    #[test]
    fn nishio_chains_remembering_barren_digits_find_what_they_find_afresh() {
        let (mut found, mut none) = (0, 0);
        let mut rater = Rater::new();
        for board in super::super::hard_boards() {
            // Along the path, what the last boards left in memory is used.
            let remembered = forcing_chain(&mut rater, &board, Kind::Nishio, Words::Write);
            let afresh = forcing_chain(&mut Rater::new(), &board, Kind::Nishio, Words::Write);
            assert_eq!(remembered.as_ref().map(|s| &s.text), afresh.as_ref().map(|s| &s.text));
            assert_eq!(remembered.as_ref().map(|s| &s.eliminations), afresh.as_ref().map(|s| &s.eliminations));
            *(if afresh.is_some() { &mut found } else { &mut none }) += 1;
        }
        assert!(found > 100 && none > 100, "{found} found, {none} none");
    }

    #[test]
    fn starts_said_to_share_nothing_share_nothing() {
        let (mut skipped, mut kept) = (0, 0);
        for board in super::super::hard_boards().iter().step_by(3) {
            let ctx = Context::new(Grid::new(board), [0; 9], [0; 27], Kind::Multiple, None);
            let reach = StaticReach::new(&ctx.grid);
            let mut pool = Pool::default();
            let mut runs = Runs::new(&ctx, &mut pool);
            let mut sets: Vec<Vec<usize>> = Vec::new();
            for cell in 0..81 {
                if board.cands[cell].count_ones() >= 2 {
                    sets.push(super::super::digits(board.cands[cell]).map(|d| cell * 9 + d as usize - 1).collect());
                }
            }
            for i in 0..9 {
                for unit in UNIT_CELLS {
                    let places = ctx.grid.cells[i] & unit;
                    if places.count_ones() >= 2 {
                        sets.push(cells_of(places).map(|x| x * 9 + i).collect());
                    }
                }
            }
            for starts in &sets {
                if reach.may_share(starts) {
                    kept += 1;
                } else {
                    assert!(!share(&mut runs, starts), "{starts:?}");
                    skipped += 1;
                }
            }
        }
        assert!(skipped > 1000 && kept > 100, "{skipped} skipped, {kept} kept");
    }
}
