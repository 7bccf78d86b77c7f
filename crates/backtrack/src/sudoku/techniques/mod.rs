//! Human solving techniques for 9x9 sudoku, each in its own module, rated
//! on the Sudoku Explainer scale (1.0 to 11+, in tenths here: 12 is 1.2).
//!
//! Every technique works on a [`Board`]: the placed digits and, for each
//! empty cell, the candidates still possible. A finder returns the first
//! [`Step`] it sees (the digits it places and the candidates it removes,
//! with a sentence saying why), or `None`. [`crate::sudoku::rate`] calls
//! the finders from the easiest to the hardest, as Sudoku Explainer does.
//!
//! Every finder also has a `_where` form taking a [`Keep`] filter, which
//! skips the steps the filter refuses: [`find_all`] uses it to list every
//! instance of a technique on a board (what HoDoKu's regression library,
//! read by [`reglib`], expects of a detector).
//!
//! Units are numbered 0..9 for the boxes, 9..18 for the rows and 18..27
//! for the columns; cells 0..81 row by row; a candidate mask has bit `d - 1`
//! for digit `d`.

pub mod aligned;
pub mod als_wings;
pub mod bug;
pub mod bug_types;
pub mod cellsets;
pub mod chains;
pub mod cycles;
pub mod dynamic;
pub mod fish;
pub mod grouped_chains;
pub mod grouped_links;
pub mod intersections;
pub mod reglib;
pub mod singles;
pub mod strong_links;
pub mod subsets;
pub mod unique;
pub mod wings;

use std::fmt;
use std::str::FromStr;

use crate::error::Quoted;

/// Every candidate (digits 1 to 9).
pub const ALL: u16 = 0x1FF;

/// The cells of each unit: boxes 0..9, rows 9..18, columns 18..27.
pub const UNITS: [[usize; 9]; 27] = build_units();

const fn build_units() -> [[usize; 9]; 27] {
    let mut units = [[0usize; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            units[i][k] = (i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3;
            units[9 + i][k] = i * 9 + k;
            units[18 + i][k] = k * 9 + i;
            k += 1;
        }
        i += 1;
    }
    units
}

/// A set of cells: bit `c` for cell `c`.
pub type CellSet = u128;

/// The cells of each unit as a [`CellSet`] (units numbered as in [`UNITS`]).
pub const UNIT_CELLS: [CellSet; 27] = build_unit_cells();

const fn build_unit_cells() -> [CellSet; 27] {
    let mut sets = [0u128; 27];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            sets[u] |= 1 << UNITS[u][k];
            k += 1;
        }
        u += 1;
    }
    sets
}

pub use cellsets::{cells_of, PEERS};

/// Where each digit can go on one board, computed once and shared by the
/// finders (`*_in` functions) that one step of the rater tries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    /// `positions[unit][d - 1]`: bit `k` when the unit's `k`-th cell can hold `d`
    /// (as [`Board::positions`]).
    pub positions: [[u16; 9]; 27],
    /// `cells[d - 1]`: the cells that can hold `d`.
    pub cells: [CellSet; 9],
    /// Empty cells of each unit (as [`Board::empty_count`]).
    pub empty: [u8; 27],
}

impl Tables {
    /// The tables of `board`.
    pub fn new(board: &Board) -> Tables {
        let mut t = Tables { positions: [[0; 9]; 27], cells: [0; 9], empty: [0; 27] };
        for cell in 0..81 {
            let (r, c) = (row(cell), col(cell));
            let (b, k) = (box_of(cell), r % 3 * 3 + c % 3);
            if board.values[cell] == 0 {
                t.empty[b] += 1;
                t.empty[9 + r] += 1;
                t.empty[18 + c] += 1;
            }
            let mut m = board.cands[cell];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                t.positions[b][d] |= 1 << k;
                t.positions[9 + r][d] |= 1 << c;
                t.positions[18 + c][d] |= 1 << r;
                t.cells[d] |= 1 << cell;
            }
        }
        t
    }

    /// Follows [`Board::apply`]: call with the board before it applies `step`.
    pub fn apply(&mut self, board: &Board, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.remove(cell, d);
        }
        let mut placed = 0u128;
        for &(cell, d) in &step.placements {
            if board.values[cell] != 0 || placed & 1 << cell != 0 {
                continue;
            }
            placed |= 1 << cell;
            for e in 1..=9 {
                self.remove(cell, e);
            }
            let (r, c) = (row(cell), col(cell));
            self.empty[box_of(cell)] -= 1;
            self.empty[9 + r] -= 1;
            self.empty[18 + c] -= 1;
            for peer in cells_of(self.cells[d as usize - 1] & PEERS[cell]) {
                self.remove(peer, d);
            }
        }
    }

    /// Removes candidate `d` of `cell` (if there).
    fn remove(&mut self, cell: usize, d: u8) {
        let i = d as usize - 1;
        if self.cells[i] & 1 << cell == 0 {
            return;
        }
        let (r, c) = (row(cell), col(cell));
        self.positions[box_of(cell)][i] &= !(1 << (r % 3 * 3 + c % 3));
        self.positions[9 + r][i] &= !(1 << c);
        self.positions[18 + c][i] &= !(1 << r);
        self.cells[i] &= !(1 << cell);
    }

    /// The cells of `d` in `unit`.
    pub fn unit_cells(&self, unit: usize, d: u8) -> CellSet {
        self.cells[d as usize - 1] & UNIT_CELLS[unit]
    }
}

/// The finders whose steps for a digit depend on that digit's places
/// alone (see [`on_changed_digits`]), each with its memory.
#[derive(Debug, Clone, Copy)]
pub(crate) enum OneDigit {
    Fish2,
    Fish3,
    Fish4,
    Chain2,
    Chain3,
    EmptyRectangle,
    GroupedLinks,
    GroupedThreeLinks,
}

/// The places of each digit when a one-digit finder last found nothing.
#[derive(Clone, Copy)]
struct Barren {
    cells: [CellSet; 9],
    /// The digits whose entry holds such places.
    known: u16,
}

/// The scratch state of the rater: what its finders remember from one
/// board to the next (the places of the digits where a finder last found
/// nothing, and the like, which let a step of a rating path look only at
/// what the step changed) and the buffers they reuse. What a finder gives never depends on what its
/// [`Rater`] remembers: a fresh one finds the same steps, only slower, so
/// one `Rater` may serve any boards and puzzles in turn. Keep one per
/// thread and pass it to each call; see [`crate::sudoku::rate`] for the
/// ratings.
pub struct Rater {
    /// One [`Barren`] per [`OneDigit`] finder.
    one_digit: [Barren; 8],
    /// For the aligned exclusions.
    pub(crate) aligned: aligned::Memory,
    /// For the forcing chains of [`dynamic`].
    pub(crate) chains: dynamic::Scratch,
}

impl Rater {
    /// A rater remembering nothing.
    pub fn new() -> Rater {
        Rater {
            one_digit: [Barren { cells: [0; 9], known: 0 }; 8],
            aligned: aligned::Memory::default(),
            chains: dynamic::Scratch::default(),
        }
    }
}

impl Default for Rater {
    fn default() -> Rater {
        Rater::new()
    }
}

impl fmt::Debug for Rater {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rater").finish_non_exhaustive()
    }
}

/// Runs the one-digit finder `find` on the digits (a mask of digits, as
/// candidates) it may find something for: every digit but those whose
/// places are the same as when it last found nothing with `rater`. A
/// step of the rating path changes a few digits, so the finders that
/// found nothing before it look at those digits only. Gives what `find`
/// gives, which must be what it gives with every digit when the digits
/// left out have no step.
pub(crate) fn on_changed_digits<T>(
    rater: &mut Rater,
    finder: OneDigit,
    t: &Tables,
    find: impl FnOnce(u16) -> Option<T>,
) -> Option<T> {
    let slot = finder as usize;
    let memory = rater.one_digit[slot];
    let mut digits = ALL;
    for (i, (&now, &then)) in t.cells.iter().zip(&memory.cells).enumerate() {
        if memory.known >> i & 1 != 0 && now == then {
            digits &= !(1 << i);
        }
    }
    let found = if digits == 0 { None } else { find(digits) };
    if found.is_none() {
        rater.one_digit[slot] = Barren { cells: t.cells, known: ALL };
    }
    found
}

/// Row of `cell` (0..9).
pub const fn row(cell: usize) -> usize {
    cell / 9
}

/// Column of `cell` (0..9).
pub const fn col(cell: usize) -> usize {
    cell % 9
}

/// Box of `cell` (0..9).
pub const fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// The three units of `cell`: its box, row and column.
pub const fn units_of(cell: usize) -> [usize; 3] {
    [box_of(cell), 9 + row(cell), 18 + col(cell)]
}

/// Whether two different cells share a unit.
pub const fn sees(a: usize, b: usize) -> bool {
    a != b && (row(a) == row(b) || col(a) == col(b) || box_of(a) == box_of(b))
}

/// `cell` as `r3c5` (1-based).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row(cell) + 1, col(cell) + 1)
}

/// Several cells as `r1c2, r3c4`.
pub fn cells_name(cells: &[usize]) -> String {
    cells.iter().map(|&c| cell_name(c)).collect::<Vec<_>>().join(", ")
}

/// `unit` as `box 3`, `row 3` or `column 3` (1-based).
pub fn unit_name(unit: usize) -> String {
    match unit {
        0..=8 => format!("box {}", unit + 1),
        9..=17 => format!("row {}", unit - 8),
        _ => format!("column {}", unit - 17),
    }
}

/// The digits of a mask, increasing.
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    let mut rest = mask & ALL;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let d = rest.trailing_zeros() as u8 + 1;
        rest &= rest - 1;
        Some(d)
    })
}

/// The digits of a mask as `1/5/7`.
pub fn digits_name(mask: u16) -> String {
    digits(mask).map(|d| d.to_string()).collect::<Vec<_>>().join("/")
}

/// The mask of digit `d`.
pub const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The number of bits of each nine-bit mask.
const NINE_BIT_COUNTS: [u8; 512] = {
    let mut counts = [0u8; 512];
    let mut m = 1;
    while m < 512 {
        counts[m] = counts[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    counts
};

/// The number of bits set in a nine-bit mask (a digit mask, or the
/// positions of a digit in a unit), read from a table: quicker than
/// `count_ones` on CPUs without a popcount instruction.
pub const fn count9(mask: u16) -> u32 {
    NINE_BIT_COUNTS[mask as usize] as u32
}

/// Whether a set has exactly one member.
pub const fn single(set: u128) -> bool {
    set != 0 && set & (set - 1) == 0
}

/// Whether a set has two members or more.
pub const fn several(set: u128) -> bool {
    set & set.wrapping_sub(1) != 0
}

/// Whether a set has exactly two members.
pub const fn pair(set: u128) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Placed digits and the candidates of empty cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Placed digit of each cell, 0 when empty.
    pub values: [u8; 81],
    /// Candidates of each empty cell (0 for placed cells).
    pub cands: [u16; 81],
}

impl Board {
    /// The board of a 9x9 grid (0 for a blank): candidates are the digits no
    /// peer holds. `None` when two givens clash.
    pub fn new(cells: &[u8]) -> Option<Board> {
        assert_eq!(cells.len(), 81, "a 9x9 grid has 81 cells");
        let mut board = Board { values: [0; 81], cands: [ALL; 81] };
        for (cell, &d) in cells.iter().enumerate() {
            if d != 0 {
                if board.cands[cell] & bit(d) == 0 {
                    return None;
                }
                board.place(cell, d);
            }
        }
        Some(board)
    }

    /// Places `d` in `cell` and removes `d` from the candidates of its peers.
    pub fn place(&mut self, cell: usize, d: u8) {
        self.values[cell] = d;
        self.cands[cell] = 0;
        for unit in units_of(cell) {
            for &peer in &UNITS[unit] {
                self.cands[peer] &= !bit(d);
            }
        }
    }

    /// Applies a step: its eliminations, then its placements.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.cands[cell] &= !bit(d);
        }
        for &(cell, d) in &step.placements {
            if self.values[cell] == 0 {
                self.place(cell, d);
            }
        }
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Where `d` can go in `unit`: bit `k` for the unit's `k`-th cell.
    pub fn positions(&self, unit: usize, d: u8) -> u16 {
        let mut mask = 0;
        for (k, &cell) in UNITS[unit].iter().enumerate() {
            if self.cands[cell] & bit(d) != 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Empty cells of `unit`.
    pub fn empty_count(&self, unit: usize) -> u32 {
        UNITS[unit].iter().filter(|&&c| self.values[c] == 0).count() as u32
    }

    /// Whether `d` is a candidate of `cell`.
    pub fn has(&self, cell: usize, d: u8) -> bool {
        self.cands[cell] & bit(d) != 0
    }

    /// The cells of `d` in `unit`.
    pub fn cells_with(&self, unit: usize, d: u8) -> Vec<usize> {
        UNITS[unit].iter().copied().filter(|&c| self.has(c, d)).collect()
    }

    /// The eliminations of `d` from every cell that sees all of `cells`
    /// (and is not one of them).
    pub fn seen_by_all(&self, cells: &[usize], d: u8) -> Vec<(usize, u8)> {
        let seen = cells.iter().fold(!0u128, |m, &c| m & PEERS[c]);
        cells_of(seen & cellsets::GRID).filter(|&x| self.has(x, d)).map(|x| (x, d)).collect()
    }
}

/// A solving technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Technique {
    HiddenSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    Skyscraper,
    TwoStringKite,
    TurbotFish,
    EmptyRectangle,
    GroupedSkyscraper,
    GroupedTwoStringKite,
    XYWing,
    XYZWing,
    UniqueRectangle,
    UniqueLoop,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeStrongLinks,
    GroupedThreeStrongLinks,
    WXYZWing,
    Bug,
    BugType2,
    BugType3,
    BugType4,
    VWXYZWing,
    AlignedPairExclusion,
    XCycle,
    YCycle,
    ForcingXChain,
    Cycle,
    ForcingChain,
    AlignedTripletExclusion,
    NishioForcingChain,
    CellForcingChain,
    RegionForcingChain,
    DynamicForcingChain,
    DynamicForcingChainPlus,
    NestedForcingChain,
    NestedMultipleForcingChain,
    NestedDynamicForcingChain,
}

impl Technique {
    /// Every technique, from the easiest.
    pub const ALL: [Technique; 50] = [
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriplet,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriplet,
        Technique::Swordfish,
        Technique::HiddenTriplet,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::EmptyRectangle,
        Technique::GroupedSkyscraper,
        Technique::GroupedTwoStringKite,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::UniqueRectangle,
        Technique::UniqueLoop,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::GroupedThreeStrongLinks,
        Technique::WXYZWing,
        Technique::Bug,
        Technique::BugType2,
        Technique::BugType3,
        Technique::BugType4,
        Technique::VWXYZWing,
        Technique::AlignedPairExclusion,
        Technique::XCycle,
        Technique::YCycle,
        Technique::ForcingXChain,
        Technique::Cycle,
        Technique::ForcingChain,
        Technique::AlignedTripletExclusion,
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
        Technique::NestedMultipleForcingChain,
        Technique::NestedDynamicForcingChain,
    ];

    /// The technique's name, as Sudoku Explainer writes it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "Hidden Single",
            Technique::DirectPointing => "Direct Pointing",
            Technique::DirectClaiming => "Direct Claiming",
            Technique::DirectHiddenPair => "Direct Hidden Pair",
            Technique::NakedSingle => "Naked Single",
            Technique::DirectHiddenTriplet => "Direct Hidden Triplet",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked Pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "Hidden Pair",
            Technique::NakedTriplet => "Naked Triplet",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriplet => "Hidden Triplet",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::TurbotFish => "Turbot Fish",
            Technique::EmptyRectangle => "Empty Rectangle",
            Technique::GroupedSkyscraper => "Grouped Skyscraper",
            Technique::GroupedTwoStringKite => "Grouped 2-String Kite",
            Technique::XYWing => "XY-Wing",
            Technique::XYZWing => "XYZ-Wing",
            Technique::UniqueRectangle => "Unique Rectangle",
            Technique::UniqueLoop => "Unique Loop",
            Technique::NakedQuad => "Naked Quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::ThreeStrongLinks => "Three Strong Links",
            Technique::GroupedThreeStrongLinks => "Grouped Three Strong Links",
            Technique::WXYZWing => "WXYZ-Wing",
            Technique::Bug => "Bivalue Universal Grave",
            Technique::BugType2 => "Bivalue Universal Grave Type 2",
            Technique::BugType3 => "Bivalue Universal Grave Type 3",
            Technique::BugType4 => "Bivalue Universal Grave Type 4",
            Technique::VWXYZWing => "VWXYZ-Wing",
            Technique::AlignedPairExclusion => "Aligned Pair Exclusion",
            Technique::XCycle => "Bidirectional X-Cycle",
            Technique::YCycle => "Bidirectional Y-Cycle",
            Technique::ForcingXChain => "Forcing X-Chain",
            Technique::Cycle => "Bidirectional Cycle",
            Technique::ForcingChain => "Forcing Chain",
            Technique::AlignedTripletExclusion => "Aligned Triplet Exclusion",
            Technique::NishioForcingChain => "Nishio Forcing Chain",
            Technique::CellForcingChain => "Cell Forcing Chain",
            Technique::RegionForcingChain => "Region Forcing Chain",
            Technique::DynamicForcingChain => "Dynamic Forcing Chain",
            Technique::DynamicForcingChainPlus => "Dynamic Forcing Chain Plus",
            Technique::NestedForcingChain => "Dynamic Forcing Chain (+ Forcing Chains)",
            Technique::NestedMultipleForcingChain => "Dynamic Forcing Chain (+ Multiple Forcing Chains)",
            Technique::NestedDynamicForcingChain => "Dynamic Forcing Chain (+ Dynamic Forcing Chains)",
        }
    }

    /// The name as a command-line word: lower case, its words (runs of
    /// letters and digits) joined by `-`, so "Dynamic Forcing Chain (+
    /// Forcing Chains)" is `dynamic-forcing-chain-forcing-chains`.
    pub fn slug(self) -> String {
        let lower = self.name().to_ascii_lowercase();
        let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
        words.join("-")
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no technique's; the message names the techniques whose
/// names hold the word given, if any, and otherwise a few examples (the whole
/// list is too long for one message: see [`Technique::ALL`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTechnique(String);

crate::error::message_error!(UnknownTechnique);

impl FromStr for Technique {
    type Err = UnknownTechnique;

    /// Reads a name in any case, with spaces, `-` or `_` between words or none.
    fn from_str(s: &str) -> Result<Technique, UnknownTechnique> {
        let squash = |t: &str| t.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        let wanted = squash(s);
        Technique::ALL
            .into_iter()
            .find(|t| squash(t.name()) == wanted || (wanted == "bug" && *t == Technique::Bug))
            .ok_or_else(|| {
                let near: Vec<String> = Technique::ALL
                    .iter()
                    .filter(|t| !wanted.is_empty() && squash(t.name()).contains(&wanted))
                    .take(6)
                    .map(|t| t.slug())
                    .collect();
                let hint = if near.is_empty() {
                    "names are like x-wing, xy-wing, forcing-chain; --help lists them all".to_string()
                } else {
                    format!("did you mean {}?", near.join(", "))
                };
                UnknownTechnique(format!("unknown technique '{}' ({hint})", Quoted(s)))
            })
    }
}

/// One step of a solution path: what it places and removes, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Its rating in tenths (Sudoku Explainer's scale: 23 is 2.3).
    pub rating: u16,
    /// Digits placed: (cell, digit).
    pub placements: Vec<(usize, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(usize, u8)>,
    /// The reasoning in words.
    pub text: String,
}

/// Whether a finder writes the text of its steps. [`Words::Skip`] leaves
/// [`Step::text`] empty (and spends nothing on it), for callers that only
/// need the ratings, placements and eliminations, as
/// [`Rater::rate`](crate::sudoku::rate::Rater::rate) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Words {
    /// Steps carry their text.
    #[default]
    Write,
    /// Steps carry an empty text.
    Skip,
}

impl Words {
    /// A step's text, made by `text`; empty (and never made) for [`Words::Skip`].
    pub fn make(self, text: impl FnOnce() -> String) -> String {
        match self {
            Words::Write => text(),
            Words::Skip => String::new(),
        }
    }
}

/// A filter over a finder's steps: the finder skips a step the filter
/// returns `false` for and looks on.
pub type Keep<'a> = &'a mut dyn FnMut(&Step) -> bool;

/// The first step of `technique` on `board` that `keep` accepts (for the
/// ALS wings and the forcing chains, only the instance their finder
/// chooses, if `keep` accepts it).
pub fn find_where(board: &Board, technique: Technique, keep: Keep) -> Option<Step> {
    use Technique as T;
    let t = &Tables::new(board);
    let rater = &mut Rater::new();
    let mut only = |step: &Step| step.technique == technique && keep(step);
    let only: Keep = &mut only;
    match technique {
        T::HiddenSingle => singles::hidden_single_where(t, Words::Write, only),
        T::NakedSingle => singles::naked_single_where(board, Words::Write, only),
        T::DirectPointing | T::DirectClaiming => intersections::direct_where(board, t, Words::Write, only),
        T::Pointing | T::Claiming => intersections::locking_where(board, t, Words::Write, only),
        T::DirectHiddenPair => subsets::direct_hidden_where(board, t, 2, Words::Write, only),
        T::DirectHiddenTriplet => subsets::direct_hidden_where(board, t, 3, Words::Write, only),
        T::NakedPair => subsets::naked_where(board, 2, Words::Write, only),
        T::NakedTriplet => subsets::naked_where(board, 3, Words::Write, only),
        T::NakedQuad => subsets::naked_where(board, 4, Words::Write, only),
        T::HiddenPair => subsets::hidden_where(board, t, 2, Words::Write, only),
        T::HiddenTriplet => subsets::hidden_where(board, t, 3, Words::Write, only),
        T::HiddenQuad => subsets::hidden_where(board, t, 4, Words::Write, only),
        T::XWing => fish::fish_where(board, t, 2, Words::Write, only),
        T::Swordfish => fish::fish_where(board, t, 3, Words::Write, only),
        T::Jellyfish => fish::fish_where(board, t, 4, Words::Write, only),
        T::Skyscraper | T::TwoStringKite | T::TurbotFish => strong_links::chain_where(t, 2, Words::Write, only),
        T::ThreeStrongLinks => strong_links::chain_where(t, 3, Words::Write, only),
        T::EmptyRectangle => strong_links::empty_rectangle_where(t, Words::Write, only),
        T::XYWing => wings::wing_where(board, false, Words::Write, only),
        T::XYZWing => wings::wing_where(board, true, Words::Write, only),
        T::UniqueRectangle | T::UniqueLoop => unique::unique_loop_where(board, Words::Write, only),
        T::Bug => bug::bug_where(board, Words::Write, only)
            .or_else(|| bug_types::bug_types(board, t, Words::Write).filter(|step| only(step))),
        T::BugType2 | T::BugType3 | T::BugType4 => {
            bug_types::bug_types(board, t, Words::Write).filter(|step| only(step))
        }
        T::AlignedPairExclusion => aligned::exclusion_where(rater, board, 2, Words::Write, only),
        T::AlignedTripletExclusion => aligned::exclusion_where(rater, board, 3, Words::Write, only),
        // These finders choose among their instances themselves: the chosen one only.
        T::WXYZWing => als_wings::wing(board, 3, Words::Write).filter(|step| only(step)),
        T::VWXYZWing => als_wings::wing(board, 4, Words::Write).filter(|step| only(step)),
        T::GroupedThreeStrongLinks => {
            grouped_chains::grouped_three_links(rater, t, Words::Write).filter(|step| only(step))
        }
        T::GroupedSkyscraper | T::GroupedTwoStringKite => grouped_links::grouped_links(board).filter(|step| only(step)),
        T::XCycle | T::YCycle | T::Cycle => {
            cycles::best_cycle(board).map(|ranked| ranked.step).filter(|step| only(step))
        }
        T::ForcingXChain | T::ForcingChain => chains::forcing_chain(board).filter(|step| only(step)),
        T::NishioForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::Nishio, Words::Write).filter(|step| only(step))
        }
        T::CellForcingChain | T::RegionForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::Multiple, Words::Write).filter(|step| only(step))
        }
        T::DynamicForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::Dynamic, Words::Write).filter(|step| only(step))
        }
        T::DynamicForcingChainPlus => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::DynamicPlus, Words::Write).filter(|step| only(step))
        }
        T::NestedForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::NestedForcing, Words::Write).filter(|step| only(step))
        }
        T::NestedMultipleForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::NestedMultiple, Words::Write).filter(|step| only(step))
        }
        T::NestedDynamicForcingChain => {
            dynamic::forcing_chain(rater, board, dynamic::Kind::NestedDynamic, Words::Write).filter(|step| only(step))
        }
    }
}

/// Every step of `technique` on `board`, each instance once, in the order
/// its finder meets them. The ALS wings and the forcing chains give only
/// the instance their finder chooses (see [`chains::refute`] for a chain
/// about one candidate).
///
/// ```
/// use backtrack::sudoku::techniques::{find_all, Board, Technique};
///
/// // Two empty cells in row 1, each with one candidate left.
/// let mut cells = [0u8; 81];
/// cells[2..9].copy_from_slice(&[3, 4, 5, 6, 7, 8, 9]);
/// (cells[27], cells[28]) = (2, 1); // r4c1 and r4c2
/// let board = Board::new(&cells).unwrap();
/// let singles = find_all(&board, Technique::NakedSingle);
/// assert_eq!(singles.iter().map(|s| s.placements[0]).collect::<Vec<_>>(), vec![(0, 1), (1, 2)]);
/// ```
pub fn find_all(board: &Board, technique: Technique) -> Vec<Step> {
    let mut found: Vec<Step> = Vec::new();
    while let Some(step) = find_where(board, technique, &mut |step| !found.contains(step)) {
        found.push(step);
    }
    found
}

/// Eliminations as text: `r1c2<>5, r3c4<>5`.
pub fn eliminations_name(eliminations: &[(usize, u8)]) -> String {
    eliminations.iter().map(|&(c, d)| format!("{}<>{d}", cell_name(c))).collect::<Vec<_>>().join(", ")
}

/// Calls `visit` with every `k`-subset of `items` (as indexes, increasing)
/// until it returns `Some`.
pub fn subsets<T>(n: usize, k: usize, mut visit: impl FnMut(&[usize]) -> Option<T>) -> Option<T> {
    if k > n {
        return None;
    }
    let mut small = [0usize; 16];
    let mut large = Vec::new();
    let idx: &mut [usize] = if k <= small.len() {
        &mut small[..k]
    } else {
        large.resize(k, 0);
        &mut large
    };
    for (i, x) in idx.iter_mut().enumerate() {
        *x = i;
    }
    loop {
        if let Some(found) = visit(idx) {
            return Some(found);
        }
        // Advance to the next combination.
        let mut i = k;
        loop {
            if i == 0 {
                return None;
            }
            i -= 1;
            if idx[i] < n - k + i {
                break;
            }
            if i == 0 {
                return None;
            }
        }
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// For tests, the boards the rater meets at its hardest steps: every
/// step's board on the rated paths of the development set's puzzles rated
/// 7.0 and up (boards where static chains still meet contradictions among
/// them).
#[cfg(test)]
pub(crate) fn hard_boards() -> Vec<Board> {
    let data = include_str!("../../../../../tests/data/sudoku/se_rated_dev.tsv");
    let mut boards = Vec::new();
    for line in data.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields[2].parse::<f64>().unwrap() < 7.0 {
            continue;
        }
        let cells: Vec<u8> = fields[0].bytes().map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 }).collect();
        let explanation = crate::sudoku::rate::explain_cells(&cells).unwrap();
        let mut board = Board::new(&cells).unwrap();
        for step in &explanation.steps {
            boards.push(board.clone());
            board.apply(step);
        }
    }
    boards
}
