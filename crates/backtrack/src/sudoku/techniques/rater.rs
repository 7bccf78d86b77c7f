//! The rater's scratch state and the memory of its one-digit finders.

use std::fmt;

use super::{aligned, dynamic, CellSet, Tables, ALL};

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
