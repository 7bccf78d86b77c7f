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

/// A loop over options' primary items, compiled once per table type and
/// common option size by [`with_stride`]: `run` gets the table and, as the
/// constant `PER`, the number of item slots per option (0 for sizes other
/// than 2 to 6, which it then reads at run time).
pub(super) trait StrideBody {
    /// What the loop gives back.
    type Output;
    /// The loop over `items`, `PER` slots per option.
    fn run<const PER: usize, I: ItemIndex>(self, items: &[I]) -> Self::Output;
}

/// Runs `body` on the byte table `bytes` when there is one, else on
/// `wide`, with `stride` (the slots per option) a constant for the common
/// sizes: the compiler then lowers each removed option's items without a
/// loop (a third fewer instructions on a pentomino packing).
#[inline(always)]
pub(super) fn with_stride<B: StrideBody>(wide: &[u32], bytes: &[u8], stride: usize, body: B) -> B::Output {
    if bytes.is_empty() {
        by_stride(wide, stride, body)
    } else {
        by_stride(bytes, stride, body)
    }
}

/// [`with_stride`] on one table.
#[inline(always)]
fn by_stride<I: ItemIndex, B: StrideBody>(items: &[I], stride: usize, body: B) -> B::Output {
    match stride {
        2 => body.run::<2, I>(items),
        3 => body.run::<3, I>(items),
        4 => body.run::<4, I>(items),
        5 => body.run::<5, I>(items),
        6 => body.run::<6, I>(items),
        _ => body.run::<0, I>(items),
    }
}
