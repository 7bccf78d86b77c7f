//! Human solving techniques for 9x9 sudoku, each in its own module, rated
//! on the Sudoku Explainer scale (1.0 to 11+, a [`Score`](crate::sudoku::score::Score) each).
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

mod board;
mod geometry;
mod rater;
mod step;
mod tables;
mod technique;

pub use board::Board;
pub use cellsets::{cells_of, PEERS};
pub use geometry::*;
pub use rater::Rater;
pub(crate) use rater::{on_changed_digits, OneDigit};
pub use step::{eliminations_name, Keep, Step, Words};
pub use tables::Tables;
pub use technique::{Technique, UnknownTechnique};

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
