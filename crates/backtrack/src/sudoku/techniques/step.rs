//! One step of a solution path, and how a finder words and filters its steps.

use super::{cell_name, Technique};
use crate::sudoku::score::Score;

/// One step of a solution path: what it places and removes, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Its rating on Sudoku Explainer's scale.
    pub rating: Score,
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

/// Eliminations as text: `r1c2<>5, r3c4<>5`.
pub fn eliminations_name(eliminations: &[(usize, u8)]) -> String {
    eliminations.iter().map(|&(c, d)| format!("{}<>{d}", cell_name(c))).collect::<Vec<_>>().join(", ")
}
