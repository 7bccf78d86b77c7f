//! The variants of the "N and M" series of judge problems.

use super::{Repetition, Shape};

/// What one problem of the "N and M" series (BOJ 15649-15652, 15654-15657,
/// 15663-15666) enumerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NandMVariant {
    /// The N numbers are given on a second line (otherwise the pool is `1..=N`).
    pub given: bool,
    /// The given numbers may repeat (a multiset).
    pub multiset: bool,
    /// The order inside a sequence.
    pub shape: Shape,
    /// How often one value may be used.
    pub repetition: Repetition,
    /// Largest N: 7 where any sequence with repetition is asked for (15651, 15656, 15665), else 8.
    pub max_n: usize,
}

impl NandMVariant {
    /// The variant of problem `id`, or `None` when `id` is not in the series.
    pub fn of(id: u32) -> Option<NandMVariant> {
        use Repetition::{Once, Unlimited};
        use Shape::{Any, Increasing, NonDecreasing};
        let (given, multiset, shape, repetition) = match id {
            15649 => (false, false, Any, Once),
            15650 => (false, false, Increasing, Once),
            15651 => (false, false, Any, Unlimited),
            15652 => (false, false, NonDecreasing, Unlimited),
            15654 => (true, false, Any, Once),
            15655 => (true, false, Increasing, Once),
            15656 => (true, false, Any, Unlimited),
            15657 => (true, false, NonDecreasing, Unlimited),
            15663 => (true, true, Any, Once),
            15664 => (true, true, NonDecreasing, Once),
            15665 => (true, true, Any, Unlimited),
            15666 => (true, true, NonDecreasing, Unlimited),
            _ => return None,
        };
        // Every sequence with repetition: 8^8 lines would be far too many for the judge's second.
        let max_n = if matches!(id, 15651 | 15656 | 15665) { 7 } else { 8 };
        Some(NandMVariant { given, multiset, shape, repetition, max_n })
    }
}
