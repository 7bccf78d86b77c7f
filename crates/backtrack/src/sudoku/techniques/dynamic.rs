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
mod plus;
mod run;
mod runs;

use super::cellsets::cells_of;
use super::chains::length_bonus;
use super::{bit, box_of, cell_name, col, row, unit_name, Board, Rater, Step, Technique, Words, UNIT_CELLS};
use crate::sudoku::score::Score;
use run::{Context, Grid, Run};
pub(crate) use runs::Scratch;
use runs::{Runs, StaticReach};

const NONE: u16 = u16::MAX;
/// `off_parent` of an off candidate found by one of the plus rules.
const ADVANCED: u16 = u16::MAX - 1;
/// `on_cause` of the other candidate of a two-candidate cell.
const CELL: u8 = 27;
/// `on_cause` of the assumption itself.
const SOURCE: u8 = u8::MAX;

/// The plus rules (`plus.rs`), in the order they are tried: the rule
/// index an advanced elimination keeps (`run.rs`) names one of them.
const RULES: [&str; 7] = [
    "pointing or claiming",
    "hidden pair",
    "naked pair",
    "X-wing",
    "forcing chain",
    "multiple forcing chain",
    "dynamic forcing chain",
];

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
    let rating = |complexity: usize| Score::from_tenths(kind.base()) + length_bonus(complexity);
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
                region_chains(board, &mut runs, &mut best, cell, d, words);
            }
        }
        if kind != Kind::Nishio {
            cell_chains(board, &mut runs, &mut best, cell, words);
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
fn region_chains(board: &Board, runs: &mut Runs, best: &mut Best, cell: usize, d: u8, words: Words) {
    let i = d as usize - 1;
    for unit in [box_of(cell), 9 + row(cell), 18 + col(cell)] {
        let places = runs.ctx.grid.cells[i] & UNIT_CELLS[unit];
        if places.count_ones() < 2 || places.trailing_zeros() as usize != cell {
            continue;
        }
        let starts: Vec<usize> = cells_of(places).map(|x| x * 9 + i).collect();
        shared_by_all(board, runs, best, &starts, REGION_ORDER, words, |runs, x, on| {
            let kind = runs.ctx.kind;
            let chains: Vec<String> = starts.iter().map(|&s| runs.get(s).path(x, on)).collect();
            format!(
                "{}Region Forcing Chain{}: {d} goes in one of {} places in {}: {}; so {}",
                multiple_prefix(kind),
                kind.suffix(),
                starts.len(),
                unit_name(unit),
                chains.join("; "),
                target_text(x, on)
            )
        });
    }
}

/// Cell forcing chains: what every candidate of `cell` leads to.
fn cell_chains(board: &Board, runs: &mut Runs, best: &mut Best, cell: usize, words: Words) {
    let starts: Vec<usize> = super::digits(board.cands[cell]).map(|d| cell * 9 + d as usize - 1).collect();
    shared_by_all(board, runs, best, &starts, CELL_ORDER, words, |runs, x, on| {
        let kind = runs.ctx.kind;
        let chains: Vec<String> = starts.iter().map(|&s| runs.get(s).path(x, on)).collect();
        format!(
            "{}Cell Forcing Chain{}: {} holds one of {}: {}; so {}",
            multiple_prefix(kind),
            kind.suffix(),
            cell_name(cell),
            super::digits_name(board.cands[cell]),
            chains.join("; "),
            target_text(x, on)
        )
    });
}

/// The order of cell forcing chains among the steps of one rating.
const CELL_ORDER: u8 = 5;
/// The order of region forcing chains among the steps of one rating.
const REGION_ORDER: u8 = 6;

/// How the cell and region chains of `kind` name it: nothing for the
/// multiple forcing chains, the kind's name and a space otherwise.
fn multiple_prefix(kind: Kind) -> String {
    if kind == Kind::Multiple {
        String::new()
    } else {
        format!("{} ", kind.name())
    }
}

/// The cell or region chains (`order` [`CELL_ORDER`] or [`REGION_ORDER`]) from
/// `starts`, one of which holds: each candidate on (or off) whichever
/// start is assumed on is a step, kept in `best` when it beats it, with
/// the text `text` writes (from the runs, the candidate and whether it is
/// on) as `words` says.
fn shared_by_all(
    board: &Board,
    runs: &mut Runs,
    best: &mut Best,
    starts: &[usize],
    order: u8,
    words: Words,
    text: impl Fn(&Runs, usize, bool) -> String,
) {
    if runs.reach.as_ref().is_some_and(|reach| !reach.may_share(starts)) {
        return;
    }
    let kind = runs.ctx.kind;
    let multiple = if order == REGION_ORDER { Technique::RegionForcingChain } else { Technique::CellForcingChain };
    let technique = kind.technique(multiple);
    for &s in starts {
        runs.on(s);
    }
    for on in [true, false] {
        let mut common = [!0u64; 12];
        for &s in starts {
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
            let limit = best.limit(order);
            let mut complexity = 0;
            runs.begin();
            for &s in starts {
                complexity += runs.count(Some(s), x, on);
                if complexity > limit {
                    break;
                }
            }
            if !best.beats(complexity, order) {
                continue;
            }
            let (placements, eliminations) = verdict(board, x, on);
            let text = words.make(|| text(runs, x, on));
            best.rank = Some((complexity, order));
            best.step = Some(Step {
                technique,
                rating: Score::from_tenths(kind.base()) + length_bonus(complexity),
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
    use super::runs::Pool;
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
        for board in crate::sudoku::rate::hard_boards() {
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
        for board in crate::sudoku::rate::hard_boards().iter().step_by(3) {
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
