//! How the bitset engines' step tables hold a primary item's number: in a
//! byte when the problem has fewer than 256 primary items, else in 32 bits.
//! The step reads one entry per item of every option it removes, in no
//! order the cache can foresee; a byte table is a quarter of the memory,
//! which on a packing of a few thousand options stays in the first-level
//! cache.

/// A primary item's number as a step table holds it.
pub(super) trait ItemIndex: Copy {
    /// The number.
    fn index(self) -> usize;
}

impl ItemIndex for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl ItemIndex for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// The byte copy of a table of primary items numbered below `n_primary`
/// (the padding `n_primary` included), or an empty table when the numbers
/// do not all fit a byte.
pub(super) fn bytes_of(items: &[u32], n_primary: usize) -> Vec<u8> {
    if n_primary < 256 {
        items.iter().map(|&p| p as u8).collect()
    } else {
        Vec::new()
    }
}
