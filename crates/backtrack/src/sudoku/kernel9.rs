//! The fast 9x9 kernel.
//!
//! # Representation
//!
//! The board is kept as 27 *digit bands*: for each digit `d` and each band
//! `b` (three rows of the grid) one 27-bit mask of the cells of that band
//! where `d` may still go. Bit `9 * r + c` stands for row `r` of the band and
//! column `c`, so cell `27 * b + bit` is the row-major cell index. A whole
//! board is a couple of hundred bytes and is copied, not undone, when the
//! search backtracks.
//!
//! # Propagation
//!
//! Each digit band is reduced with two table look-ups: the band's
//! row-by-box *shape* (which of the 3x3 row/box pairs still hold the digit)
//! indexes a table of the pairs that belong to some way of placing the digit
//! once in every row and every box of the band. Masking with it is locked
//! candidates (pointing and claiming) inside the band, finds hidden singles in
//! rows and boxes, and detects bands where the digit no longer fits. A row
//! left with one position solves that cell, which leaves the other digits; a
//! box left with one column gives that column to the box, so the digit's
//! other bands lose it. A band is reduced again only when it differs from
//! the value it had after its last reduction (one SSE2 compare per four
//! bands finds those); a sweep visits just those bands, lowest first, and
//! sweeps repeat until no band differs. After a placement (a guess or a
//! naked single) or claiming, the bands that differ come from the values
//! at hand instead: loading the bands as vectors right after the scalar
//! stores of the placement would wait for those stores, and that compare
//! was a good part of a guess's cost on the easy sets (serg_benchmark 5-6%
//! faster without it).
//!
//! At the band fixpoint, naked singles come from bit-sliced candidate counts
//! over the nine digits, for all three bands at once (a digit's three bands
//! are adjacent, so one SSE2 vector per digit): skipping the bands that did
//! not change would save little work for a branch per band that the
//! processor often mispredicts. When there are none, *claiming* looks at columns: a
//! column whose candidates for a digit all lie in one band holds the digit
//! in that band's box, so the box's other columns lose it. Each reduction
//! records the columns its digit band still uses, laid out so that one
//! vector holds a band's nine digits; the check is then a few vector
//! operations (AVX2) and finds something in about one fixpoint in eight. It
//! also finds columns left without a candidate. On the hardest set it saves
//! a sixth of the guesses. Hidden singles in columns are not looked for:
//! with claiming and the band reasoning they save no guesses on any of the
//! standard sets.
//!
//! Each elimination is sound: it removes only candidates that belong to no
//! solution.
//!
//! # Search
//!
//! The specialised search ([`solve`], [`for_each`]) recurses with a copy of
//! the board per branch. In heuristic order it branches on a cell with two
//! candidates when there is one (else on one with the fewest). Until the
//! search first meets a contradiction it takes a cheap pick among those
//! cells; from then on the puzzle has shown itself hard, and it takes the
//! one that sees the most unsolved cells, which saves a fifth of the
//! guesses on the hardest set. In lexicographic order it branches on the
//! first unsolved cell in row-major order, digits ascending, so solutions
//! come out in increasing order (propagation never
//! removes a candidate that belongs to a solution, so it cannot reorder them).
//!
//! Counting up to two solutions (the uniqueness check), the search looks
//! for the second one in the first before searching on: where a branch on
//! the path still has a digit `q` to try at its cell, the cells of `q` and
//! of the cell's digit that the cell reaches through rows, columns and
//! boxes can trade digits, and when none of them is a given that is another
//! solution. On the multi-solution set it finds three second solutions in
//! four and saves three guesses in five; a puzzle with one solution never
//! has such a swap, and the check then costs a few operations per open
//! branch.
//! The search is compiled three times: portable, for x86-64 processors with
//! AVX2/BMI1/BMI2/POPCNT/LZCNT, and for those that also have AVX-512
//! F/BW/VL; the fastest the processor supports is used, and all walk the
//! same tree. The x86-64-v3 build finds a band's shape with one bit
//! extraction (BMI2 `pext`) instead of three table look-ups, checks
//! claiming with vectors instead of table look-ups, and sorts the givens by
//! digit with byte compares instead of a loop over them. The AVX-512 build
//! is the same code compiled with AVX-512 enabled (the compiler folds logic
//! into three-input operations and copies boards with 64-byte moves); the
//! change detection, the claiming check and the sorting of givens compare
//! into mask registers there, on 256-bit vectors as in the AVX2 build.
//!
//! [`Space9`] exposes the same board, propagation and branching to the
//! generic search core so a hard puzzle can be split across threads; it
//! walks the same tree as [`solve`] (same solutions, same guesses).
//!
//! # Measuring
//!
//! `cargo bench -p backtrack --bench sudoku` times 1000-puzzle slices of the
//! standard sets; `cargo run --release -p backtrack --example sudoku_speed --
//! FILE...` times whole files.

use std::ops::ControlFlow;

#[cfg(target_arch = "x86_64")]
use crate::cpu::{Avx512, X86V3};
use crate::cpu::{Cpu, Portable};
use crate::search::{Mode, Node, Order, Space};

/// 81 cells, row-major; 0 = blank, 1..=9 = given digit.
pub type Cells = [u8; 81];

/// What one solve found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome9 {
    /// Solutions found: for `Count { limit }` min(total, limit); for
    /// `First`/`LexFirst` 0 or 1; for `All` the total.
    pub count: u64,
    /// The first solution found (for `LexFirst`: the lexicographically
    /// smallest, row-major digits).
    pub solution: Option<Cells>,
    /// Guesses: the times the search chose a cell's digit among two or more
    /// candidates, whether that digit held or not.
    pub guesses: u64,
}

/// All 27 cells of a band.
const BAND_ALL: u32 = (1 << 27) - 1;
/// Replicates a 9-bit row pattern into the three rows of a band.
const ROWS3: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row segment: which of its three boxes hold a candidate.
static BOXES_OF_ROW: [u32; 512] = boxes_of_row();

/// For a band shape (bit `3 * r + k`: row `r` has candidates in box `k`):
/// the 27-bit mask of the row/box pairs used by at least one placement of the
/// digit once per row and once per box. Zero when there is none.
static PLACEABLE: [u32; 512] = placeable();

const fn boxes_of_row() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 3 {
            if s & (7 << (3 * k)) != 0 {
                table[s] |= 1 << k;
            }
            k += 1;
        }
        s += 1;
    }
    table
}

const fn placeable() -> [u32; 512] {
    const PERMUTATIONS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut table = [0u32; 512];
    let mut shape = 0;
    while shape < 512 {
        let mut mask = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let mut fits = true;
            let mut r = 0;
            while r < 3 {
                if shape & (1 << (3 * r + perm[r])) == 0 {
                    fits = false;
                }
                r += 1;
            }
            if fits {
                let mut r = 0;
                while r < 3 {
                    mask |= 7 << (9 * r + 3 * perm[r]);
                    r += 1;
                }
            }
            p += 1;
        }
        table[shape] = mask;
        shape += 1;
    }
    table
}

/// For digit band `i`: its band, the digit's bands in the other two bands,
/// and its slot in [`Board::columns`] (a look-up is cheaper than the
/// divisions).
static LINKS: [[u8; 4]; 27] = links();

const fn links() -> [[u8; 4]; 27] {
    let mut table = [[0u8; 4]; 27];
    let mut i = 0;
    while i < 27 {
        let b = i % 3;
        let d0 = i - b;
        table[i] = [b as u8, (d0 + (b + 1) % 3) as u8, (d0 + (b + 2) % 3) as u8, (16 * b + d0 / 3) as u8];
        i += 1;
    }
    table
}

/// The band shape of a digit band (see [`PLACEABLE`]).
#[inline(always)]
fn shape(a: u32) -> usize {
    (BOXES_OF_ROW[(a & 0x1ff) as usize]
        | BOXES_OF_ROW[((a >> 9) & 0x1ff) as usize] << 3
        | BOXES_OF_ROW[(a >> 18) as usize] << 6) as usize
}

/// [`shape`]; on x86-64-v3 processors by one bit extraction (BMI2 `pext`).
#[inline(always)]
fn band_shape<C: Cpu>(cpu: C, a: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(_v3) = cpu.x86_v3() {
        // SAFETY: the token proves the processor has BMI2.
        return unsafe { std::arch::x86_64::_pext_u32(a | a >> 1 | a >> 2, 0o111_111_111) } as usize;
    }
    let _ = cpu;
    shape(a)
}

/// For the columns (9 bits) where a digit band has candidates: those that
/// are the only column left in their box. The digit's one position in that
/// box is in that column, so the other bands lose it.
static LOCKED_COLUMNS: [u32; 512] = locked_columns();

/// [`LOCKED_COLUMNS`] as the cells the digit's other bands keep: every cell
/// outside those columns.
static KEPT_BY_LOCKED_COLUMNS: [u32; 512] = kept_by_locked_columns();

const fn kept_by_locked_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        table[s] = BAND_ALL & !(LOCKED_COLUMNS[s] * ROWS3);
        s += 1;
    }
    table
}

const fn locked_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 3 {
            let in_box = (s >> (3 * k)) & 7;
            if in_box == 1 || in_box == 2 || in_box == 4 {
                table[s] |= (in_box << (3 * k)) as u32;
            }
            k += 1;
        }
        s += 1;
    }
    table
}

/// For the columns (9 bits) of a band that must hold a digit there: the
/// other columns of their boxes, which cannot.
static CLAIMED_BOX_COLUMNS: [u32; 512] = claimed_box_columns();

/// [`CLAIMED_BOX_COLUMNS`] as the cells of the band that lose the digit.
static CLAIMED_BOX_CELLS: [u32; 512] = claimed_box_cells();

const fn claimed_box_cells() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        table[s] = CLAIMED_BOX_COLUMNS[s] * ROWS3;
        s += 1;
    }
    table
}

const fn claimed_box_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 3 {
            let in_box = (s >> (3 * k)) & 7;
            if in_box != 0 {
                table[s] |= ((7 & !in_box) << (3 * k)) as u32;
            }
            k += 1;
        }
        s += 1;
    }
    table
}

/// For a cell of a band (bit `9 * r + c`): the cells of its row and box,
/// which include its column's cells in the band.
static LINES_IN_BAND: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut bit = 0;
    while bit < 27 {
        let (r, c) = (bit / 9, bit % 9);
        table[bit] = (0x1ff << (9 * r)) | ((7 << (3 * (c / 3))) * ROWS3);
        bit += 1;
    }
    table
};

/// For a cell of a band: its column in a band, in both halves of a `u64`.
static COLUMN_TWICE: [u64; 27] = {
    let mut table = [0u64; 27];
    let mut bit = 0;
    while bit < 27 {
        let column = ((1u32 << (bit % 9)) * ROWS3) as u64;
        table[bit] = column | column << 32;
        bit += 1;
    }
    table
};

/// For a 9-bit row segment: the segment itself when it holds exactly one
/// bit, else 0.
static LONE_BIT: [u16; 512] = lone_bit();

const fn lone_bit() -> [u16; 512] {
    let mut table = [0u16; 512];
    let mut s = 0;
    while s < 512 {
        if s != 0 && s & (s - 1) == 0 {
            table[s] = s as u16;
        }
        s += 1;
    }
    table
}

/// For a band shape of givens (see [`PLACEABLE`]): the cells of the band
/// whose row or box holds one of them.
static GIVEN_FILL: [u32; 512] = given_fill();

const fn given_fill() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut shape = 0;
    while shape < 512 {
        let mut p = 0;
        while p < 9 {
            if shape & (1 << p) != 0 {
                let (r, k) = (p / 3, p % 3);
                table[shape] |= (0x1ff << (9 * r)) | ((7 << (3 * k)) * ROWS3);
            }
            p += 1;
        }
        shape += 1;
    }
    table
}

/// [`Board::claims`], portable version.
#[inline(always)]
fn claims_scalar(columns: &[u16; 48]) -> Option<u32> {
    let (mut digits, mut missing) = (0u32, 0u32);
    for d in 0..9 {
        let c = [0, 16, 32].map(|slot| u32::from(columns[slot + d]));
        missing |= 0x1ff ^ (c[0] | c[1] | c[2]);
        let mut lost = 0;
        for b in 0..3 {
            let confined = c[b] & !(c[(b + 1) % 3] | c[(b + 2) % 3]);
            lost |= CLAIMED_BOX_COLUMNS[confined as usize] & c[b];
        }
        digits |= u32::from(lost != 0) << d;
    }
    (missing == 0).then_some(digits)
}

/// [`Board::columns`] as three vectors, one band's nine digits each (a
/// 16-bit lane per digit), and their union.
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn column_vectors(columns: &[u16; 48]) -> ([std::arch::x86_64::__m256i; 3], std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let p = columns.as_ptr() as *const __m256i;
    // SAFETY (for the loads): 48 u16 are three 32-byte vectors; unaligned
    // loads have no alignment requirement.
    let c = [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)), _mm256_loadu_si256(p.add(2))];
    (c, _mm256_or_si256(c[0], _mm256_or_si256(c[1], c[2])))
}

/// Per digit lane of [`column_vectors`]: the columns some band's box must
/// lose because another of its columns holds the digit nowhere else (zero
/// where claiming finds nothing for the digit).
///
/// # Safety
/// The processor must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn lost_columns(c: &[std::arch::x86_64::__m256i; 3]) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let first_columns = _mm256_set1_epi16(0o111);
    let mut lost = _mm256_setzero_si256();
    for b in 0..3 {
        let confined = _mm256_andnot_si256(_mm256_or_si256(c[(b + 1) % 3], c[(b + 2) % 3]), c[b]);
        // Bit 3k: box k has a confined column; then all three of its columns.
        let boxes = _mm256_and_si256(
            _mm256_or_si256(
                confined,
                _mm256_or_si256(_mm256_srli_epi16::<1>(confined), _mm256_srli_epi16::<2>(confined)),
            ),
            first_columns,
        );
        let claimed =
            _mm256_or_si256(boxes, _mm256_or_si256(_mm256_slli_epi16::<1>(boxes), _mm256_slli_epi16::<2>(boxes)));
        lost = _mm256_or_si256(lost, _mm256_and_si256(_mm256_andnot_si256(confined, claimed), c[b]));
    }
    lost
}

/// [`Board::claims`] with the nine digits of a band in one AVX2 vector:
/// no table look-ups, a box's other columns come from shifts.
///
/// # Safety
/// The processor must support AVX2 and BMI2, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
#[inline]
unsafe fn claims_avx2(_cpu: X86V3, columns: &[u16; 48]) -> Option<u32> {
    use std::arch::x86_64::*;
    let (c, all) = column_vectors(columns);
    // Two mask bits per 16-bit lane; digits are lanes 0..9.
    let full = _mm256_movemask_epi8(_mm256_cmpeq_epi16(all, _mm256_set1_epi16(0x1ff))) as u32;
    if full & 0x3ffff != 0x3ffff {
        return None;
    }
    let lost = lost_columns(&c);
    let none = _mm256_movemask_epi8(_mm256_cmpeq_epi16(lost, _mm256_setzero_si256())) as u32;
    Some(_pext_u32(!none, 0x15555) & 0x1ff)
}

/// [`claims_avx2`] with AVX-512 mask registers: a 16-bit lane compare gives
/// one mask bit per lane, so the digits come out without a byte mask to
/// thin out. 256-bit vectors still (VL), as in the AVX2 build.
///
/// # Safety
/// The processor must support AVX2, AVX-512 F, BW and VL, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
unsafe fn claims_avx512(_cpu: Avx512, columns: &[u16; 48]) -> Option<u32> {
    use std::arch::x86_64::*;
    let (c, all) = column_vectors(columns);
    // Bit d: digit d misses a column somewhere. Lanes 9..16 hold no digit
    // (always 0), so they are masked off.
    let short = _mm256_cmpneq_epi16_mask(all, _mm256_set1_epi16(0x1ff));
    if short & 0x1ff != 0 {
        return None;
    }
    let lost = lost_columns(&c);
    // Bit d: lane d of `lost` is not zero (lanes 9..16 are always zero).
    Some(u32::from(_mm256_test_epi16_mask(lost, lost)) & 0x1ff)
}

/// Per band, the cells of `cells` that hold a digit (not blank).
#[inline(always)]
fn non_blank(cells: &Cells) -> [u32; 3] {
    let filled = super::conflicts::non_blank_81(cells);
    [filled as u32 & BAND_ALL, (filled >> 27) as u32 & BAND_ALL, (filled >> 54) as u32 & BAND_ALL]
}

/// `given[3 * d + b]`: the cells of band `b` that hold digit `d + 1`.
/// `occupied` is [`non_blank`] of `cells`, whose values must be at most 9.
#[inline(always)]
fn given_digit_bands<C: Cpu>(cpu: C, cells: &Cells, occupied: &[u32; 3]) -> [u32; 27] {
    let mut given = [0u32; 27];
    #[cfg(target_arch = "x86_64")]
    if let Some(v4) = cpu.avx512() {
        // SAFETY: the token proves the features the function is compiled for.
        return unsafe { given_digit_bands_avx512(v4, cells) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(_v3) = cpu.x86_v3() {
        use std::arch::x86_64::*;
        // Nine byte compares over three loads (the last one overlaps the
        // second) instead of a loop over the givens: no branch per given.
        // SAFETY: the token proves the processor has AVX2; the loads cover bytes 0..32, 32..64 and
        // 49..81 of the 81, and unaligned loads have no alignment requirement.
        unsafe {
            let p = cells.as_ptr();
            let low = _mm256_loadu_si256(p as *const __m256i);
            let middle = _mm256_loadu_si256(p.add(32) as *const __m256i);
            let high = _mm256_loadu_si256(p.add(49) as *const __m256i);
            for d in 0..9 {
                let digit = _mm256_set1_epi8(d as i8 + 1);
                let first = _mm256_movemask_epi8(_mm256_cmpeq_epi8(low, digit)) as u32 as u64
                    | (_mm256_movemask_epi8(_mm256_cmpeq_epi8(middle, digit)) as u32 as u64) << 32;
                // Cells 64..81 are bytes 15..32 of the last load.
                let last = (_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, digit)) as u32) >> 15;
                given[3 * d] = first as u32 & BAND_ALL;
                given[3 * d + 1] = (first >> 27) as u32 & BAND_ALL;
                given[3 * d + 2] = (first >> 54) as u32 | last << 10;
            }
        }
        return given;
    }
    for b in 0..3 {
        let mut rest = occupied[b];
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let d = cells[27 * b + bit] as usize - 1;
            given[3 * d + b] |= 1 << bit;
        }
    }
    given
}

/// [`given_digit_bands`] with AVX-512 byte compares into mask registers:
/// the last 17 cells come from a masked load (no overlap to shift away),
/// and each compare gives one bit per cell directly.
///
/// # Safety
/// The processor must support AVX2, AVX-512 F, BW and VL, as the token
/// promises; the values of `cells` must be at most 9.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
#[inline]
unsafe fn given_digit_bands_avx512(_cpu: Avx512, cells: &Cells) -> [u32; 27] {
    use std::arch::x86_64::*;
    let mut given = [0u32; 27];
    let p = cells.as_ptr();
    // SAFETY (for the loads): bytes 0..32 and 32..64 are inside the 81;
    // the masked load reads bytes 64..81 only (mask bits 0..17), and the
    // bytes it masks off are neither read nor able to fault; unaligned
    // loads have no alignment requirement.
    let low = _mm256_loadu_si256(p as *const __m256i);
    let middle = _mm256_loadu_si256(p.add(32) as *const __m256i);
    let high = _mm256_maskz_loadu_epi8(0x1_ffff, p.add(64) as *const i8);
    for d in 0..9 {
        let digit = _mm256_set1_epi8(d as i8 + 1);
        let first =
            u64::from(_mm256_cmpeq_epi8_mask(low, digit)) | u64::from(_mm256_cmpeq_epi8_mask(middle, digit)) << 32;
        // Cells 64..81; the masked-off bytes are 0, never a digit.
        let last = _mm256_cmpeq_epi8_mask(high, digit);
        given[3 * d] = first as u32 & BAND_ALL;
        given[3 * d + 1] = (first >> 27) as u32 & BAND_ALL;
        given[3 * d + 2] = (first >> 54) as u32 | last << 10;
    }
    given
}

/// For a set of digits (bit `d` for digit `d + 1`): their digit bands in
/// band 0 (bit `3 * d`).
static DIGIT_BANDS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut d = 0;
        while d < 9 {
            if s & (1 << d) != 0 {
                table[s] |= 1 << (3 * d);
            }
            d += 1;
        }
        s += 1;
    }
    table
};

/// The rows of `a` that hold exactly one bit, as those bits.
#[inline(always)]
fn single_rows(a: u32) -> u32 {
    LONE_BIT[(a & 0x1ff) as usize] as u32
        | (LONE_BIT[((a >> 9) & 0x1ff) as usize] as u32) << 9
        | (LONE_BIT[(a >> 18) as usize] as u32) << 18
}

/// The columns (9 bits) where a band mask has a bit.
#[inline(always)]
fn columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1ff
}

/// The board state: candidate positions per digit band plus bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
struct Board {
    /// `bands[3 * d + b]`: cells of band `b` where digit `d + 1` may go.
    /// Entry 27 is padding (always 0) so the array is seven 4-lane vectors.
    bands: [u32; 28],
    /// The value of each digit band when it was last reduced: a band is
    /// reduced again only when it differs. Entry 27 is padding (always 0).
    seen: [u32; 28],
    /// Per band, the cells not yet known to be solved.
    unsolved: [u32; 3],
    /// `columns[16 * b + d]`: the columns (9 bits) where digit `d + 1` has
    /// candidates in band `b`, as of that digit band's last reduction, so
    /// current wherever the band equals `seen`. Sixteen slots per band so
    /// that one vector holds a band's nine digits; the rest stay 0.
    columns: [u16; 48],
}

/// A cell to branch on and its candidate digits (bit `d` = digit `d + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch9 {
    cell: u8,
    digits: u16,
}

/// Bit `i` set where `bands[i] != seen[i]`, portable version.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn changed_scalar(bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    let mut mask = 0;
    for i in 0..28 {
        mask |= ((bands[i] != seen[i]) as u32) << i;
    }
    mask
}

/// Bit `i` set where `bands[i] != seen[i]`: seven SSE2 compares (SSE2 is
/// part of every x86-64 processor).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn changed_sse2(bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_ps};
    let mut equal = 0u32;
    for k in 0..7 {
        // SAFETY: 4 * k + 3 < 28, so both loads stay inside the arrays;
        // unaligned loads have no alignment requirement.
        let lanes = unsafe {
            let a = _mm_loadu_si128(bands.as_ptr().add(4 * k) as *const __m128i);
            let b = _mm_loadu_si128(seen.as_ptr().add(4 * k) as *const __m128i);
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b)))
        };
        equal |= (lanes as u32) << (4 * k);
    }
    !equal & 0x0fff_ffff
}

/// Bit `i` set where `bands[i] != seen[i]`: four AVX-512 compares (three
/// of eight lanes, one of four) straight into mask registers.
///
/// # Safety
/// The processor must support AVX-512 F and VL, as the token promises.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn changed_avx512(_cpu: Avx512, bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    use std::arch::x86_64::*;
    let (a, b) = (bands.as_ptr(), seen.as_ptr());
    let mut mask = 0u32;
    for k in 0..3 {
        // SAFETY: 8 * k + 7 < 24, so both loads stay inside the arrays;
        // unaligned loads have no alignment requirement.
        let x = _mm256_loadu_si256(a.add(8 * k) as *const __m256i);
        let y = _mm256_loadu_si256(b.add(8 * k) as *const __m256i);
        mask |= u32::from(_mm256_cmpneq_epi32_mask(x, y)) << (8 * k);
    }
    // SAFETY: entries 24..28, the last four of both arrays.
    let x = _mm_loadu_si128(a.add(24) as *const __m128i);
    let y = _mm_loadu_si128(b.add(24) as *const __m128i);
    mask | u32::from(_mm_cmpneq_epi32_mask(x, y)) << 24
}

#[inline(always)]
fn changed<C: Cpu>(cpu: C, bands: &[u32; 28], seen: &[u32; 28]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(v4) = cpu.avx512() {
            // SAFETY: the token proves AVX-512 F and VL.
            return unsafe { changed_avx512(v4, bands, seen) };
        }
        changed_sse2(bands, seen)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = cpu;
        changed_scalar(bands, seen)
    }
}

impl Board {
    /// The board with `cells` given, propagated; `None` when a value is
    /// out of range or propagation finds a contradiction.
    ///
    /// Built without a branch per cell (on the easy sets the setup is a good
    /// part of the time): the givens are sorted by digit (a loop over the
    /// non-blank cells, or byte compares per digit in the x86-64-v3 build)
    /// and each band is then built in one go.
    ///
    /// Givens that conflict are not looked for here: the first propagation
    /// finds them. A given is the only candidate of its cell, so two equal
    /// givens in a row are two naked singles of which the first placed
    /// empties the other; in a box they leave no placement of the digit in
    /// the band; in a column the first one reduced locks the column, which
    /// empties the other. Nor could a conflict slip through to a
    /// "solution": at a fixpoint with every cell solved, each digit band
    /// holds one cell per row and box, the columns of a digit differ from
    /// band to band, and a given still holds its digit (had it lost it, its
    /// row would be empty).
    #[inline(always)]
    fn new<C: Cpu>(cpu: C, cells: &Cells) -> Option<Board> {
        let bands = Board::given_bands(cpu, cells)?;
        // Every band differs from `seen`, so the first propagation reduces all.
        let mut board = Board { bands, seen: [u32::MAX; 28], unsolved: [BAND_ALL; 3], columns: [0; 48] };
        board.seen[27] = 0;
        board.propagate(cpu, (1 << 27) - 1).then_some(board)
    }

    /// The digit bands of `cells` before propagation: every given in place,
    /// its row, column and box cleared of its digit, the given cells of the
    /// other digits. `None` when a value is out of range. Givens that
    /// conflict stay in place, for propagation to find (see [`Board::new`]).
    #[inline(always)]
    fn given_bands<C: Cpu>(cpu: C, cells: &Cells) -> Option<[u32; 28]> {
        if cells.iter().fold(0u8, |acc, &v| acc | (v > 9) as u8) != 0 {
            return None;
        }
        let occupied = non_blank(cells);
        let given = given_digit_bands(cpu, cells, &occupied);
        let mut bands = [0u32; 28];
        for d in 0..9 {
            let g = [given[3 * d], given[3 * d + 1], given[3 * d + 2]];
            let all_cols = (columns(g[0]) | columns(g[1]) | columns(g[2])) * ROWS3;
            for b in 0..3 {
                let fill = GIVEN_FILL[band_shape(cpu, g[b])];
                bands[3 * d + b] = (BAND_ALL & !occupied[b] & !(fill | all_cols)) | g[b];
            }
        }
        Some(bands)
    }

    /// Places digit `d` (0-based) in `cell`, which must still allow it:
    /// removes it from the cell's row, box and column and the cell from the
    /// other digits. Propagation does the rest. `digits` are the cell's
    /// candidates (see [`Board::digits_of`]). Returns the digit bands it
    /// changed (bit `3 * d + b`), computed from values at hand: after
    /// scalar stores, loading the bands as vectors to compare them would
    /// have to wait for the stores.
    #[inline(always)]
    fn assign(&mut self, cell: usize, d: usize, digits: u16) -> u32 {
        let b = cell / 27;
        let bit = cell % 27;
        let (r, c) = (bit / 9, bit % 9);
        let me = 1u32 << bit;
        let column = (1u32 << c) * ROWS3;
        let peers = (0x1ffu32 << (9 * r)) | ((7u32 << (3 * (c / 3))) * ROWS3) | column;
        let own = 3 * d + b;
        let before = self.bands[own];
        let kept = (before & !peers) | me;
        let (other1, other2) = (3 * d + (b + 1) % 3, 3 * d + (b + 2) % 3);
        // The cell's other digits lose it; its own digit band changes when
        // a peer loses the digit, and so do the digit's other bands.
        let changed = (DIGIT_BANDS[usize::from(digits & !(1 << d))] << b)
            | u32::from(before != kept) << own
            | u32::from(self.bands[other1] & column != 0) << other1
            | u32::from(self.bands[other2] & column != 0) << other2;
        for e in 0..9 {
            self.bands[3 * e + b] &= !me;
        }
        self.bands[own] = kept;
        self.bands[other1] &= !column;
        self.bands[other2] &= !column;
        changed
    }

    /// Reduces digit band `i` (see the module docs). `false` on contradiction.
    #[inline(always)]
    fn reduce<C: Cpu>(&mut self, cpu: C, i: usize) -> bool {
        let a = self.bands[i] & PLACEABLE[band_shape(cpu, self.bands[i])];
        if a == 0 {
            return false;
        }
        self.seen[i] = a;
        let [b, other1, other2, slot] = LINKS[i].map(usize::from);
        let columns = columns(a);
        self.columns[slot] = columns as u16;
        let solved = single_rows(a) & self.unsolved[b];
        // Unconditional: cheaper than a hard-to-predict branch.
        self.unsolved[b] &= !solved;
        for e in 0..9 {
            self.bands[3 * e + b] &= !solved;
        }
        // Written once, after the loop (which also clears this band): one
        // store fewer for the change detection to wait on.
        self.bands[i] = a;
        let cells = KEPT_BY_LOCKED_COLUMNS[columns as usize];
        self.bands[other1] &= cells;
        self.bands[other2] &= cells;
        true
    }

    /// Propagates to a fixpoint of the band reasoning, naked singles and
    /// claiming. `pending`: the digit bands that differ from `seen`, exactly
    /// (as [`Board::assign`] returns them). `false` on contradiction.
    #[inline(always)]
    fn propagate<C: Cpu>(&mut self, cpu: C, mut pending: u32) -> bool {
        loop {
            // The unit tests check every mask handed on against a plain compare.
            #[cfg(test)]
            assert_eq!(pending, changed_scalar(&self.bands, &self.seen), "{self:?}");
            if pending != 0 {
                // Only the set bits are visited: a test per band would be a
                // branch per band, mispredicted about as often as taken.
                let mut rest = pending;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    if !self.reduce(cpu, i) {
                        return false;
                    }
                }
                pending = changed(cpu, &self.bands, &self.seen);
                continue;
            }
            // Naked singles, in all three bands at once: skipping the bands
            // that did not change would cost a branch per band that is hard
            // to predict, which is dearer than counting them.
            let [one, two] = self.at_least::<2>();
            let mut empty = 0;
            let mut singles = [0u32; 3];
            for b in 0..3 {
                empty |= self.unsolved[b] & !one[b];
                singles[b] = self.unsolved[b] & !two[b];
            }
            if empty != 0 {
                return false;
            }
            if (singles[0] | singles[1] | singles[2]) != 0 {
                for (b, mut cells) in singles.into_iter().enumerate() {
                    while cells != 0 {
                        let bit = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        // A placement just made may have taken the digit
                        // away: the cell is then empty, which the next
                        // round finds.
                        let digits = self.digits_of(27 * b + bit);
                        if digits != 0 {
                            pending |= self.assign(27 * b + bit, digits.trailing_zeros() as usize, digits);
                        }
                    }
                }
                continue;
            }
            if self.is_solved() {
                return true;
            }
            match self.claims(cpu) {
                None => return false,
                Some(0) => return true,
                Some(digits) => pending = self.apply_claims(digits),
            }
        }
    }

    /// Claiming, the check: the digits (bit `d` for digit `d + 1`) with a
    /// column whose candidates all lie in one band while the box of that
    /// column in that band has the digit in another column too, which the
    /// box must then lose. `None` when a digit has a column with no
    /// candidates. Read from [`Board::columns`], so only at the band fixpoint.
    #[inline(always)]
    fn claims<C: Cpu>(&self, cpu: C) -> Option<u32> {
        #[cfg(target_arch = "x86_64")]
        if let Some(v4) = cpu.avx512() {
            // SAFETY: the token proves the processor has AVX2 and AVX-512 F, BW, VL.
            return unsafe { claims_avx512(v4, &self.columns) };
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = cpu.x86_v3() {
            // SAFETY: the token proves the processor has AVX2 and BMI2.
            return unsafe { claims_avx2(v3, &self.columns) };
        }
        let _ = cpu;
        claims_scalar(&self.columns)
    }

    /// Claiming, the change: for each digit in `digits`, every box removes
    /// the digit from its columns outside a column confined to it. Returns
    /// the digit bands changed.
    #[inline(always)]
    fn apply_claims(&mut self, mut digits: u32) -> u32 {
        let mut changed = 0;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let c = [0, 16, 32].map(|slot| u32::from(self.columns[slot + d]));
            for b in 0..3 {
                let confined = c[b] & !(c[(b + 1) % 3] | c[(b + 2) % 3]);
                let lost = self.bands[3 * d + b] & CLAIMED_BOX_CELLS[confined as usize];
                changed |= u32::from(lost != 0) << (3 * d + b);
                self.bands[3 * d + b] &= !lost;
            }
        }
        changed
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// Candidate digits of `cell` (bit `d` = digit `d + 1`).
    #[inline(always)]
    fn digits_of(&self, cell: usize) -> u16 {
        let (b, bit) = (cell / 27, cell % 27);
        // Highest digit first, shifting: written this way the compiler keeps
        // it scalar, which is faster here than the vector code it makes of
        // the obvious loop.
        let mut digits = 0u32;
        for d in (0..9).rev() {
            digits = digits << 1 | ((self.bands[3 * d + b] >> bit) & 1);
        }
        digits as u16
    }

    /// Where to branch on an unsolved, propagated board. `careful` (once
    /// the search has met a contradiction) picks the heuristic cell with
    /// [`Board::most_connected_pair`] instead of the cheaper
    /// [`Board::fewest_candidates_cell`].
    #[inline(always)]
    fn branch(&self, order: Order, careful: bool) -> Branch9 {
        let cell = match order {
            Order::Lexicographic => {
                let b = (0..3).find(|&b| self.unsolved[b] != 0).unwrap_or(0);
                27 * b + self.unsolved[b].trailing_zeros() as usize
            }
            Order::Heuristic if careful => self.most_connected_pair().unwrap_or_else(|| self.fewest_candidates_cell()),
            Order::Heuristic => self.fewest_candidates_cell(),
        };
        Branch9 { cell: cell as u8, digits: self.digits_of(cell) }
    }

    /// Of the cells with exactly two candidates, the one that sees the most
    /// unsolved cells (itself, its row, column and box; the first cell in
    /// row-major order on a tie); `None` when there is no such cell.
    ///
    /// Placing a digit there removes it from the most open cells, so
    /// propagation goes further. On the hardest set it saves a fifth of the
    /// guesses, but scoring every pair costs about as much as a
    /// propagation, which the easy sets (where the first guesses nearly
    /// always hold) do not earn back; hence only once the search has met a
    /// contradiction.
    #[inline(always)]
    fn most_connected_pair(&self) -> Option<usize> {
        let [.., three] = self.at_least::<3>();
        // The highest key wins: the score, then the lowest cell.
        let mut best = 0u32;
        for (b, three) in three.into_iter().enumerate() {
            let unsolved = self.unsolved[b];
            // Propagated: no unsolved cell has fewer than two candidates.
            let mut pairs = unsolved & !three;
            // The other bands' unsolved cells, side by side, against the
            // cell's column twice over: one count for both.
            let others = u64::from(self.unsolved[(b + 1) % 3]) | u64::from(self.unsolved[(b + 2) % 3]) << 32;
            let key_base = 127 - 27 * b as u32;
            while pairs != 0 {
                let bit = pairs.trailing_zeros() as usize;
                pairs &= pairs - 1;
                let seen = (unsolved & LINES_IN_BAND[bit]).count_ones() + (others & COLUMN_TWICE[bit]).count_ones();
                best = best.max(seen << 7 | (key_base - bit as u32));
            }
        }
        (best != 0).then(|| 127 - (best & 127) as usize)
    }

    /// Bit-sliced candidate counts: entry `k`, per band, holds the cells
    /// with at least `k + 1` candidates.
    #[inline(always)]
    fn at_least<const K: usize>(&self) -> [[u32; 3]; K] {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // Bands 3d..3d+3 of a digit are adjacent, so one SSE2 vector
            // (SSE2 is part of every x86-64 processor) counts all three; the
            // fourth lane is ignored.
            let mut out = [[0u32; 4]; K];
            // SAFETY: SSE2 is present; 3 * 8 + 4 = 28, so every load stays
            // inside `bands`; unaligned loads and stores have no alignment
            // requirement.
            unsafe {
                let mut layers = [_mm_setzero_si128(); K];
                for d in 0..9 {
                    let x = _mm_loadu_si128(self.bands.as_ptr().add(3 * d) as *const __m128i);
                    for k in (1..K).rev() {
                        layers[k] = _mm_or_si128(layers[k], _mm_and_si128(layers[k - 1], x));
                    }
                    layers[0] = _mm_or_si128(layers[0], x);
                }
                for (slot, layer) in out.iter_mut().zip(layers) {
                    _mm_storeu_si128(slot.as_mut_ptr() as *mut __m128i, layer);
                }
            }
            out.map(|[a, b, c, _]| [a, b, c])
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.at_least_scalar::<K>()
        }
    }

    /// [`Board::at_least`], portable version.
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    #[inline(always)]
    fn at_least_scalar<const K: usize>(&self) -> [[u32; 3]; K] {
        let per_band = [0, 1, 2].map(|b| {
            let mut layers = [0u32; K];
            for d in 0..9 {
                let x = self.bands[3 * d + b];
                for k in (1..K).rev() {
                    layers[k] |= layers[k - 1] & x;
                }
                layers[0] |= x;
            }
            layers
        });
        std::array::from_fn(|k| per_band.map(|layers| layers[k]))
    }

    /// A cell with two candidates if any, else one with the fewest (cells
    /// with five or more count alike). Bands are searched from the one with
    /// the most unsolved cells down, and in the first band with a pair the
    /// box with the most unsolved cells wins: a guess there reaches further,
    /// and fewer guesses follow.
    #[inline(always)]
    fn fewest_candidates_cell(&self) -> usize {
        // Best cells found so far with exactly 3, 4 and 5+ candidates.
        let mut fallback = [usize::MAX; 3];
        // Band indices by unsolved count, descending; ties keep band order.
        let n = self.unsolved.map(u32::count_ones);
        let mut by_size = [0usize, 1, 2];
        if n[1] > n[0] {
            by_size.swap(0, 1);
        }
        if n[2] > n[by_size[1]] {
            by_size[2] = by_size[1];
            by_size[1] = 2;
            if n[2] > n[by_size[0]] {
                by_size.swap(0, 1);
            }
        }
        for b in by_size {
            let unsolved = self.unsolved[b];
            if unsolved == 0 {
                continue;
            }
            // Bit-sliced counts: cells with at least 1, 2, 3, 4, 5 candidates.
            let (mut one, mut two, mut three, mut four, mut five) = (0u32, 0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.bands[3 * d + b];
                five |= four & x;
                four |= three & x;
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = unsolved & !three;
            if pairs != 0 {
                // Of the band's boxes holding a pair, the one with the most
                // unsolved cells (the first of those on a tie): on the hard
                // sets that choice needs markedly fewer guesses.
                let mut best = (0u32, 0u32);
                for k in 0..3 {
                    let in_box = (7u32 << (3 * k)) * ROWS3;
                    let score = (unsolved & in_box).count_ones() + 1;
                    if pairs & in_box != 0 && score > best.0 {
                        best = (score, pairs & in_box);
                    }
                }
                return 27 * b + best.1.trailing_zeros() as usize;
            }
            for (slot, cells) in fallback.iter_mut().zip([three & !four, four & !five, unsolved]) {
                let cells = cells & unsolved;
                if *slot == usize::MAX && cells != 0 {
                    *slot = 27 * b + cells.trailing_zeros() as usize;
                }
            }
        }
        fallback.into_iter().find(|&cell| cell != usize::MAX).unwrap_or(0)
    }

    /// For a solved board: the board with digit `q` and the digit of `cell`
    /// swapped over the cells of those two digits that `cell` reaches
    /// through rows, columns and boxes, when none of them is in `given`
    /// (per band, the given cells). That board is another solution: each
    /// row, column and box the swapped cells meet holds both digits among
    /// them, so it only trades their places, and no given moves. `None`
    /// when a given is reached (or `q` is the digit of `cell`).
    #[inline(always)]
    fn swapped<C: Cpu>(&self, cpu: C, given: &[u32; 3], cell: usize, q: usize) -> Option<Board> {
        let (b, bit) = (cell / 27, cell % 27);
        let p = self.digits_of(cell).trailing_zeros() as usize;
        if p == q {
            return None;
        }
        let both = [0, 1, 2].map(|k| self.bands[3 * p + k] | self.bands[3 * q + k]);
        let mut reached = [0u32; 3];
        reached[b] = 1 << bit;
        loop {
            let lines = columns(reached[0] | reached[1] | reached[2]) * ROWS3;
            let next = [0, 1, 2].map(|k| both[k] & (GIVEN_FILL[band_shape(cpu, reached[k])] | lines));
            if (next[0] & given[0]) | (next[1] & given[1]) | (next[2] & given[2]) != 0 {
                return None;
            }
            if next == reached {
                break;
            }
            reached = next;
        }
        let mut other = *self;
        for (k, reached) in reached.into_iter().enumerate() {
            let (a, z) = (self.bands[3 * p + k], self.bands[3 * q + k]);
            other.bands[3 * p + k] = (a & !reached) | (z & reached);
            other.bands[3 * q + k] = (z & !reached) | (a & reached);
        }
        Some(other)
    }

    /// The grid of a solved board.
    #[inline(always)]
    fn cells(&self) -> Cells {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                // One position per row of the band: three bits.
                let mut m = self.bands[3 * d + b];
                for _ in 0..3 {
                    let bit = (m.trailing_zeros() as usize).min(26);
                    m &= m.wrapping_sub(1);
                    cells[27 * b + bit] = d as u8 + 1;
                }
            }
        }
        cells
    }
}

/// The specialised depth-first search: a board copy per branch.
struct Walk<'a, F> {
    order: Order,
    guesses: u64,
    /// Set by the first contradiction: from then on the guess cell is
    /// chosen with more care (see [`Board::branch`]).
    careful: bool,
    visit: F,
    /// The puzzle, for its givens.
    cells: &'a Cells,
    /// Whether, at the first solution, to look for a second one by
    /// swapping two digits (see [`Board::swapped`]) before searching on:
    /// only when the walk ends at the second solution, which the search
    /// could otherwise find again.
    swap_for_second: bool,
    /// The branches on the path to the current board that have digits left
    /// to try, deepest last: `cell << 9 | digits`. Entries `..open_depth`
    /// are current.
    open: [u16; 81],
    open_depth: usize,
}

impl<F: FnMut(&Board) -> ControlFlow<()>> Walk<'_, F> {
    /// At the first solution `board` (when asked for): another solution
    /// made by swapping the digit of an open branch's cell with one of the
    /// digits that branch has left, deepest branch first. Where the search
    /// still has digits to try, the grid is not forced there, and such a
    /// swap is often free of givens; with no open branch the solution is
    /// the only one.
    #[inline(always)]
    fn second_by_swap<C: Cpu>(&mut self, cpu: C, board: &Board) -> Option<Board> {
        if !std::mem::take(&mut self.swap_for_second) || self.open_depth == 0 {
            return None;
        }
        let given = non_blank(self.cells);
        for &open in self.open[..self.open_depth].iter().rev() {
            let (cell, mut digits) = (usize::from(open >> 9), open & 0x1ff);
            while digits != 0 {
                let q = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if let Some(other) = board.swapped(cpu, &given, cell, q) {
                    return Some(other);
                }
            }
        }
        None
    }
}

/// Defines a recursive walk over a propagated board and its entry point for
/// one processor level. Instantiated three times: portable, compiled for
/// x86-64-v3 processors and compiled for AVX-512 ones (each chosen at run
/// time by its token), with the board code inlined into each.
macro_rules! define_walk {
    ($run:ident, $walk:ident, $cpu:ty, [$($unsafe:tt)?], $(#[$feature:meta])*) => {
        /// Explores the subtree of a propagated `board`; `Break` once `visit`
        /// says stop. The board is used up: the last branch works on it in
        /// place instead of on a copy.
        $(#[$feature])*
        $($unsafe)? fn $run<F: FnMut(&Board) -> ControlFlow<()>>(
            cpu: $cpu,
            walk: &mut Walk<'_, F>,
            board: &mut Board,
        ) -> ControlFlow<()> {
            if board.is_solved() {
                (walk.visit)(board)?;
                if let Some(other) = walk.second_by_swap(cpu, board) {
                    return (walk.visit)(&other);
                }
                return ControlFlow::Continue(());
            }
            let Branch9 { cell, mut digits } = board.branch(walk.order, walk.careful);
            let (cell, candidates) = (cell as usize, digits);
            // Propagated: the branch cell has two candidates or more, so
            // choosing its digit is a guess, whatever becomes of it.
            walk.guesses += 1;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if digits == 0 {
                    let pending = board.assign(cell, d, candidates);
                    if board.propagate(cpu, pending) {
                        $run(cpu, walk, board)?;
                    } else {
                        walk.careful = true;
                    }
                    break;
                }
                let mut next = *board;
                let pending = next.assign(cell, d, candidates);
                if next.propagate(cpu, pending) {
                    walk.open[walk.open_depth] = (cell as u16) << 9 | digits;
                    walk.open_depth += 1;
                    let flow = $run(cpu, walk, &mut next);
                    walk.open_depth -= 1;
                    flow?;
                } else {
                    walk.careful = true;
                }
            }
            ControlFlow::Continue(())
        }

        /// Walks every solution of `cells` in `order`, handing each solved
        /// board to `visit`; returns the guesses made. With
        /// `swap_for_second`, the second solution may come from swapping
        /// digits of the first (see [`Walk::second_by_swap`]): only for a
        /// `visit` that stops there.
        $(#[$feature])*
        $($unsafe)? fn $walk(
            cpu: $cpu,
            cells: &Cells,
            order: Order,
            swap_for_second: bool,
            visit: impl FnMut(&Board) -> ControlFlow<()>,
        ) -> u64 {
            let Some(mut board) = Board::new(cpu, cells) else { return 0 };
            let mut walk =
                Walk { order, guesses: 0, careful: false, visit, cells, swap_for_second, open: [0; 81], open_depth: 0 };
            let _ = $run(cpu, &mut walk, &mut board);
            walk.guesses
        }
    };
}

define_walk!(run_portable, walk_portable, Portable, [],);
// Safety of both: the processor must have every feature enabled here, as an
// `X86V3` token promises.
#[cfg(target_arch = "x86_64")]
define_walk!(run_x86_v3, walk_x86_v3, X86V3, [unsafe], #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]);
// Safety of both: the processor must have every feature enabled here, as an
// `Avx512` token promises. The same code as above; the compiler may use
// AVX-512 instructions anywhere, and the helpers that take the token do.
#[cfg(target_arch = "x86_64")]
define_walk!(
    run_avx512,
    walk_avx512,
    Avx512,
    [unsafe],
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl")]
);

/// Walks every solution of `cells` in `order` on the fastest build this
/// processor supports, handing each solved board to `visit`; returns the
/// guesses made. `swap_for_second`: see the walks.
fn walk(cells: &Cells, order: Order, swap_for_second: bool, visit: impl FnMut(&Board) -> ControlFlow<()>) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = Avx512::new() {
        // SAFETY: the token proves every feature the walk is compiled with.
        return unsafe { walk_avx512(cpu, cells, order, swap_for_second, visit) };
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = X86V3::new() {
        // SAFETY: the token proves every feature the walk is compiled with.
        return unsafe { walk_x86_v3(cpu, cells, order, swap_for_second, visit) };
    }
    walk_portable(Portable, cells, order, swap_for_second, visit)
}

/// Solves one puzzle in `mode`. Givens that conflict, or values outside
/// 0..=9, give count 0 (never panic).
pub fn solve(cells: &Cells, mode: Mode) -> Outcome9 {
    let mut solution = [0; 81];
    let solved = solve_into(cells, mode, &mut solution);
    Outcome9 { count: solved.count, solution: (solved.count > 0).then_some(solution), guesses: solved.guesses }
}

/// [`solve`], writing the first solution found into `solution` (untouched
/// when there is none) instead of returning it: a batch solver then copies
/// no grid on the way.
pub fn solve_into(cells: &Cells, mode: Mode, solution: &mut Cells) -> super::Solved {
    let (order, limit) = mode.order_and_limit();
    if limit == 0 {
        return super::Solved::default();
    }
    let mut count = 0u64;
    // Counting up to two: the second solution ends the walk, so it may
    // come from swapping digits of the first.
    let guesses = walk(cells, order, limit == 2, |board| {
        if count == 0 {
            *solution = board.cells();
        }
        count += 1;
        if count >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    super::Solved { count, guesses }
}

/// Streams every solution to `visit` (in increasing lexicographic order when
/// `order` is [`Order::Lexicographic`]) until it returns `Break`. The outcome
/// counts the solutions visited and holds the first one.
pub fn for_each(cells: &Cells, order: Order, mut visit: impl FnMut(&Cells) -> ControlFlow<()>) -> Outcome9 {
    let (mut count, mut solution) = (0u64, None);
    let guesses = walk(cells, order, false, |board| {
        let grid = board.cells();
        if count == 0 {
            solution = Some(grid);
        }
        count += 1;
        visit(&grid)
    });
    Outcome9 { count, solution, guesses }
}

/// The kernel as a search-core [`Space`]: same board, propagation and
/// branching as [`solve`], so a depth-first walk by the core walks the same
/// tree; used to split one hard puzzle across threads with
/// [`crate::search::par_count`] / [`crate::search::par_for_each`]. (A piece
/// split off takes along whether the search had met a contradiction yet,
/// which steers the guess choice, so split pieces may guess differently
/// from one walk; the solutions are the same.)
#[derive(Clone, Debug)]
pub struct Space9 {
    /// `None`: the givens conflict, so there is nothing to search.
    board: Option<Board>,
    /// Boards saved by `push`, restored by `pop`.
    saved: Vec<Option<Board>>,
    /// Set by the first propagation that fails, and kept (see [`Board::branch`]).
    careful: bool,
}

impl Space9 {
    /// The space of the puzzle `cells`; conflicting givens make a space with no solutions.
    pub fn new(cells: &Cells) -> Space9 {
        Space9 { board: Board::new(Portable, cells), saved: Vec::with_capacity(81), careful: false }
    }
}

impl Space for Space9 {
    type Branch = Branch9;
    /// `(cell, digit)` with the digit 1..=9.
    type Choice = (u8, u8);
    type Solution = Cells;

    fn expand(&mut self, order: Order) -> Node<Branch9> {
        match &self.board {
            None => Node::Dead,
            Some(board) if board.is_solved() => Node::Solution,
            Some(board) => Node::Branch(board.branch(order, self.careful)),
        }
    }

    fn next_choice(&mut self, branch: &mut Branch9) -> Option<(u8, u8)> {
        if branch.digits == 0 {
            return None;
        }
        let d = branch.digits.trailing_zeros() as u8;
        branch.digits &= branch.digits - 1;
        Some((branch.cell, d + 1))
    }

    fn push(&mut self, (cell, digit): (u8, u8)) -> bool {
        self.saved.push(self.board);
        let Some(board) = &mut self.board else { return false };
        let (cell, d) = (cell as usize, digit as usize - 1);
        if cell >= 81 || d >= 9 || board.bands[3 * d + cell / 27] & (1 << (cell % 27)) == 0 {
            self.board = None;
            return false;
        }
        let pending = board.assign(cell, d, board.digits_of(cell));
        if board.propagate(Portable, pending) {
            true
        } else {
            self.board = None;
            self.careful = true;
            false
        }
    }

    fn pop(&mut self) {
        if let Some(board) = self.saved.pop() {
            self.board = board;
        }
    }

    fn solution(&self) -> Cells {
        self.board.as_ref().map_or([0; 81], Board::cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator for the randomized tests: small, reproducible.
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    /// Random digit bands and their `seen` values, about half of them
    /// equal, for the change detection.
    fn random_bands_and_seen(random: &mut impl FnMut() -> u64) -> ([u32; 28], [u32; 28]) {
        let mut bands = [0u32; 28];
        let mut seen = [0u32; 28];
        for i in 0..27 {
            let state = random();
            bands[i] = state as u32 & BAND_ALL;
            seen[i] = if state >> 40 & 1 == 0 { bands[i] } else { (state >> 20) as u32 & BAND_ALL };
        }
        (bands, seen)
    }

    /// Random [`Board::columns`]: for each digit and column, the bands
    /// where the digit may go there. A third of the boards are loose
    /// (nearly every entry all three bands), so that boards with no claim
    /// at all occur; the others are mostly all or one band, sometimes two,
    /// rarely none, so that confined columns, claims and empty columns
    /// occur.
    fn random_columns(random: &mut impl FnMut() -> u64) -> [u16; 48] {
        let mut columns = [0u16; 48];
        let loose = random().is_multiple_of(3);
        for d in 0..9 {
            for c in 0..9 {
                let r = random() % 64;
                let bands = match r {
                    // Loose: all bands or two (which confine nothing), and
                    // one band once in 64 entries per digit and column.
                    _ if loose && r.is_multiple_of(2) => 7,
                    _ if loose && r != 1 => 7 & !(1 << (r % 3)),
                    _ if loose => 1 << (random() % 3),
                    0 => 0,
                    1..=20 => 7,
                    21..=44 => 1 << (r % 3),
                    _ => 7 & !(1 << (r % 3)),
                };
                for b in 0..3 {
                    if bands & (1 << b) != 0 {
                        columns[16 * b + d] |= 1 << c;
                    }
                }
            }
        }
        columns
    }

    #[test]
    fn placeable_table_basics() {
        // Every pair present: all placements possible.
        assert_eq!(PLACEABLE[0x1ff], BAND_ALL);
        // A row with no candidates: nothing fits.
        assert_eq!(PLACEABLE[0x1ff & !0x7], 0);
        // Diagonal only: exactly the diagonal.
        assert_eq!(PLACEABLE[0b100_010_001], 7 | 7 << 12 | 7 << 24);
    }

    #[test]
    fn locked_column_tables() {
        // Box 0 has three columns, box 1 two, box 2 only its first (column 6).
        let columns = 0b001_011_111;
        assert_eq!(LOCKED_COLUMNS[columns], 1 << 6);
        assert_eq!(KEPT_BY_LOCKED_COLUMNS[columns], BAND_ALL & !((1 << 6) * ROWS3));
        assert_eq!(KEPT_BY_LOCKED_COLUMNS[0x1ff], BAND_ALL);
    }

    #[test]
    fn candidate_counts_agree_with_the_portable_version_and_a_cell_by_cell_count() {
        let mut random = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..2000 {
            let mut board = Board { bands: [0; 28], seen: [0; 28], unsolved: [BAND_ALL; 3], columns: [0; 48] };
            for band in &mut board.bands[..27] {
                let state = random();
                // Sparse and dense bands, so that every count from 0 to 9 occurs.
                *band = (state as u32 | (state >> 32) as u32 & (state >> 16) as u32) & BAND_ALL;
                if state >> 60 < 6 {
                    *band &= (state >> 27) as u32;
                }
            }
            let [one, two, three] = board.at_least::<3>();
            assert_eq!([one, two, three], board.at_least_scalar::<3>());
            assert_eq!(board.at_least::<2>(), [one, two]);
            for cell in 0..81 {
                let n = board.digits_of(cell).count_ones();
                let (b, bit) = (cell / 27, cell % 27);
                let counted = [one, two, three].map(|layer| layer[b] >> bit & 1 == 1);
                assert_eq!(counted, [n >= 1, n >= 2, n >= 3], "cell {cell}: {n} candidates");
            }
        }
    }

    #[test]
    fn change_detection_agrees_with_the_portable_version() {
        let mut random = xorshift(0x1234_5678_9abc_def0);
        for _ in 0..2000 {
            let (bands, seen) = random_bands_and_seen(&mut random);
            let expected = changed_scalar(&bands, &seen);
            assert_eq!(changed(Portable, &bands, &seen), expected);
            #[cfg(target_arch = "x86_64")]
            assert_eq!(changed_sse2(&bands, &seen), expected);
        }
    }

    /// One walk, with a visitor that stops after `n` solutions: the
    /// guesses and the solutions in the order found.
    fn first_n(n: usize, walker: impl FnOnce(&mut dyn FnMut(&Board) -> ControlFlow<()>) -> u64) -> (u64, Vec<Cells>) {
        let mut found = Vec::new();
        let mut visit = |board: &Board| {
            found.push(board.cells());
            if found.len() < n {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        };
        let guesses = walker(&mut visit);
        (guesses, found)
    }

    /// Every build of the walk this processor can run gives the same
    /// outcome as the portable one (same tree, so same guesses too): up to
    /// three solutions, and up to two with the second from a swap where
    /// one is found.
    #[test]
    fn builds_agree() {
        for name in ["royle_17_clue.1000.txt", "forum_hardest_1905_11plus.1000.txt", "serg_benchmark.1000.txt"] {
            for cells in bench_slice(name).into_iter().take(150) {
                for (order, swap) in
                    [Order::Heuristic, Order::Lexicographic].into_iter().flat_map(|o| [(o, false), (o, true)])
                {
                    let n = if swap { 2 } else { 3 };
                    let run = |portable: bool| {
                        first_n(n, |visit| {
                            if portable {
                                walk_portable(Portable, &cells, order, swap, visit)
                            } else {
                                walk(&cells, order, swap, visit)
                            }
                        })
                    };
                    let portable = run(true);
                    assert!(!portable.1.is_empty());
                    assert_eq!(run(false), portable, "{name}: {cells:?}");
                }
            }
        }
    }

    /// With `swap_for_second`, the second solution handed over is a valid
    /// grid that keeps the givens and differs from the first, whether it
    /// came from a swap or from the search; on the multi-solution slice
    /// many visibly come from a swap (another grid than the search's second,
    /// or found with fewer guesses: 309 of 1,000, where a swap that spares
    /// only a second digit at a branch already entered leaves neither mark),
    /// and on the unique sets none is ever made up.
    #[test]
    fn a_second_solution_by_swap_is_another_solution() {
        let (mut puzzles, mut by_swap) = (0, 0);
        for cells in bench_slice("serg_benchmark.1000.txt") {
            let (guesses, found) = first_n(2, |visit| walk(&cells, Order::Heuristic, true, visit));
            let (searched, by_search) = first_n(2, |visit| walk(&cells, Order::Heuristic, false, visit));
            assert_eq!(found.len(), 2, "{cells:?}");
            assert_eq!(found[0], by_search[0]);
            assert_ne!(found[0], found[1]);
            for grid in &found {
                assert!(super::super::is_solution(3, &cells, grid), "{cells:?}: {grid:?}");
            }
            assert!(guesses <= searched);
            by_swap += usize::from(found[1] != by_search[1] || guesses < searched);
            puzzles += 1;
        }
        assert!(puzzles == 1000 && by_swap > 250, "{by_swap} of {puzzles}");
        for name in ["royle_17_clue.1000.txt", "forum_hardest_1905_11plus.1000.txt"] {
            for cells in bench_slice(name).into_iter().take(300) {
                let found = first_n(2, |visit| walk(&cells, Order::Heuristic, true, visit));
                assert_eq!(found, first_n(2, |visit| walk(&cells, Order::Heuristic, false, visit)), "{cells:?}");
                assert_eq!(found.1.len(), 1);
            }
        }
    }

    /// A random solved grid: a pattern grid with its digits relabelled and
    /// its rows within bands, bands, columns within stacks and stacks
    /// shuffled (each keeps it valid).
    fn random_grid(random: &mut impl FnMut() -> u64) -> Cells {
        let mut shuffled = |n: usize| {
            let mut items: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                items.swap(i, (random() % (i as u64 + 1)) as usize);
            }
            items
        };
        let digits = shuffled(9);
        let mut lines = || {
            let (outer, inner) = (shuffled(3), [shuffled(3), shuffled(3), shuffled(3)]);
            (0..9).map(|i| 3 * outer[i / 3] + inner[i / 3][i % 3]).collect::<Vec<_>>()
        };
        let (rows, cols) = (lines(), lines());
        let mut grid = [0u8; 81];
        for (i, cell) in grid.iter_mut().enumerate() {
            let (r, c) = (rows[i / 9], cols[i % 9]);
            *cell = digits[(r % 3 * 3 + r / 3 + c) % 9] as u8 + 1;
        }
        assert!(super::super::is_solution(3, &[0; 81], &grid));
        grid
    }

    /// The swap for the second solution against the plain search (which
    /// enumerates), on random puzzles of every kind the uniqueness check
    /// meets: few clues kept at random (many solutions), minimal puzzles
    /// (exactly one: no clue can go), and minimal puzzles less one clue (at
    /// least two, often exactly two that differ by more than two digits).
    /// In both orders: the same count up to two, the same first solution,
    /// and a second one that is valid, differs from the first and is the
    /// other solution where there are exactly two.
    #[test]
    fn swap_for_second_agrees_with_the_search_on_random_puzzles() {
        let mut random = xorshift(0x2545_f491_4f6c_dd1d);
        // Puzzles with one solution, with exactly two, with more; second
        // solutions that came from a swap.
        let mut tally = [0usize; 4];
        let check = |cells: &Cells, tally: &mut [usize; 4]| {
            for order in [Order::Heuristic, Order::Lexicographic] {
                let (searched, plain) = first_n(3, |visit| walk(cells, order, false, visit));
                let (guesses, found) = first_n(2, |visit| walk(cells, order, true, visit));
                assert_eq!(found.len(), plain.len().min(2), "{order:?} {cells:?}");
                assert_eq!(found[0], plain[0], "{order:?} {cells:?}");
                assert!(guesses <= searched);
                if found.len() == 2 {
                    assert_ne!(found[0], found[1], "{order:?} {cells:?}");
                    assert!(super::super::is_solution(3, cells, &found[1]), "{cells:?}: {:?}", found[1]);
                    if plain.len() == 2 {
                        assert_eq!(found[1], plain[1], "{order:?} {cells:?}");
                    }
                    tally[3] += usize::from(found[1] != plain[1] || guesses < searched);
                }
                tally[plain.len() - 1] += usize::from(order == Order::Heuristic);
            }
        };
        let count = |cells: &Cells| first_n(2, |visit| walk(cells, Order::Heuristic, false, visit)).1.len();
        for round in 0..300 {
            let grid = random_grid(&mut random);
            // Few clues kept at random, 0 to 35 of them.
            let mut sparse = [0u8; 81];
            for _ in 0..round % 36 {
                let cell = (random() % 81) as usize;
                sparse[cell] = grid[cell];
            }
            check(&sparse, &mut tally);
            // A minimal puzzle: clues taken away in random order while one
            // solution remains.
            let mut minimal = grid;
            for _ in 0..200 {
                let cell = (random() % 81) as usize;
                let kept = std::mem::take(&mut minimal[cell]);
                if kept != 0 && count(&minimal) != 1 {
                    minimal[cell] = kept;
                }
            }
            for cell in 0..81 {
                let kept = std::mem::take(&mut minimal[cell]);
                if kept != 0 && count(&minimal) != 1 {
                    minimal[cell] = kept;
                }
            }
            check(&minimal, &mut tally);
            // Less any one clue, it has two solutions or more.
            let clues: Vec<usize> = (0..81).filter(|&cell| minimal[cell] != 0).collect();
            for &cell in clues.iter().take(4) {
                let mut loose = minimal;
                loose[cell] = 0;
                check(&loose, &mut tally);
                // Then clues of `grid` put back where they rule out one
                // other solution and keep another, down to exactly two.
                loop {
                    let (_, found) = first_n(3, |visit| walk(&loose, Order::Heuristic, false, visit));
                    let others: Vec<&Cells> = found.iter().filter(|&other| *other != grid).collect();
                    if found.len() < 3 || others.len() < 2 {
                        break;
                    }
                    let (a, b) = (others[0], others[1]);
                    let Some(cell) = (0..81).find(|&c| a[c] != grid[c] && b[c] == grid[c]) else { break };
                    loose[cell] = grid[cell];
                }
                check(&loose, &mut tally);
            }
        }
        let [unique, two, more, by_swap] = tally;
        assert!(unique >= 300 && two > 250 && more > 1500 && by_swap > 3000, "{tally:?}");
    }

    /// The AVX-512 token, or `None` after saying why the test that asked is
    /// skipped (see `tests/support/skip.rs`: visibly, and as a failure under
    /// `CI=true` when `/proc/cpuinfo` lists the features detection missed).
    #[cfg(target_arch = "x86_64")]
    fn avx512_or_skip(test: &str) -> Option<Avx512> {
        let cpu = Avx512::new();
        if cpu.is_none() {
            let listed = crate::test_support::cpuinfo_has(&[
                "avx512f", "avx512bw", "avx512vl", "avx2", "bmi1", "bmi2", "popcnt", "abm",
            ]);
            crate::test_support::skip(
                test,
                "this processor lacks AVX-512 F/BW/VL (or AVX2/BMI1/BMI2/POPCNT/LZCNT)",
                crate::test_support::under_ci() && listed == Some(true),
            );
        }
        cpu
    }

    /// The puzzles of a benchmark slice in `benches/data`.
    fn bench_slice(name: &str) -> Vec<Cells> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/");
        let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap();
        let puzzles: Vec<Cells> = text
            .lines()
            .map(|line| {
                let mut cells = [0u8; 81];
                for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
                    *cell = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
                }
                cells
            })
            .collect();
        assert!(puzzles.len() >= 1000, "{name}: {} puzzles", puzzles.len());
        puzzles
    }

    /// The AVX-512 build walks the same tree as the portable and the
    /// x86-64-v3 builds on the benchmark slices: same guesses, same
    /// solutions in the same order (up to three per puzzle), both orders.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_build_agrees_with_the_portable_and_x86_v3_builds() {
        let Some(v4) = avx512_or_skip("avx512_build_agrees_with_the_portable_and_x86_v3_builds") else { return };
        let v3 = v4.x86_v3().expect("AVX-512 includes x86-64-v3");
        let mut puzzles = 0;
        for name in ["royle_17_clue.1000.txt", "forum_hardest_1905_11plus.1000.txt", "serg_benchmark.1000.txt"] {
            for cells in bench_slice(name) {
                for (order, swap) in
                    [Order::Heuristic, Order::Lexicographic].into_iter().flat_map(|o| [(o, false), (o, true)])
                {
                    let n = if swap { 2 } else { 3 };
                    let run = |build: usize| {
                        first_n(n, |visit| match build {
                            0 => walk_portable(Portable, &cells, order, swap, visit),
                            // SAFETY: the token proves the features of the build.
                            1 => unsafe { walk_x86_v3(v3, &cells, order, swap, visit) },
                            // SAFETY: the token proves the features of the build.
                            _ => unsafe { walk_avx512(v4, &cells, order, swap, visit) },
                        })
                    };
                    let portable = run(0);
                    assert!(!portable.1.is_empty(), "{name}: no solution");
                    assert_eq!(run(1), portable, "{name}: x86-64-v3 build, {cells:?}");
                    assert_eq!(run(2), portable, "{name}: AVX-512 build, {cells:?}");
                }
                puzzles += 1;
            }
        }
        assert!(puzzles >= 3000);
    }

    /// The helpers with AVX-512 intrinsics against their portable versions,
    /// on the same random inputs as the AVX2 ones, and on the boards the
    /// benchmark slices start from.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_helpers_agree_with_the_portable_versions() {
        let Some(v4) = avx512_or_skip("avx512_helpers_agree_with_the_portable_versions") else { return };
        let mut random = xorshift(0x1234_5678_9abc_def0);
        for _ in 0..20_000 {
            let (bands, seen) = random_bands_and_seen(&mut random);
            // SAFETY: the token proves AVX-512 F and VL.
            assert_eq!(unsafe { changed_avx512(v4, &bands, &seen) }, changed_scalar(&bands, &seen));
            assert_eq!(changed(v4, &bands, &seen), changed_scalar(&bands, &seen));
        }
        let mut found = [0u32; 3];
        for _ in 0..20_000 {
            let columns = random_columns(&mut random);
            let portable = claims_scalar(&columns);
            found[portable.map_or(0, |d| 1 + usize::from(d != 0))] += 1;
            // SAFETY: the token proves AVX2 and AVX-512 F, BW, VL.
            assert_eq!(unsafe { claims_avx512(v4, &columns) }, portable, "{columns:?}");
        }
        assert!(found.iter().all(|&n| n > 100), "{found:?}");
        for name in ["royle_17_clue.1000.txt", "forum_hardest_1905_11plus.1000.txt", "serg_benchmark.1000.txt"] {
            for cells in bench_slice(name) {
                let occupied = non_blank(&cells);
                let expected = given_digit_bands(Portable, &cells, &occupied);
                assert_eq!(given_digit_bands(v4, &cells, &occupied), expected, "{cells:?}");
                assert_eq!(Board::given_bands(v4, &cells), Board::given_bands(Portable, &cells), "{cells:?}");
            }
        }
    }

    /// [`Board::most_connected_pair`] the obvious way, cell by cell.
    fn most_connected_pair_slowly(board: &Board) -> Option<usize> {
        let unsolved = |cell: usize| board.unsolved[cell / 27] & (1 << (cell % 27)) != 0;
        let mut best: Option<(usize, usize)> = None;
        for cell in (0..81).filter(|&cell| unsolved(cell) && board.digits_of(cell).count_ones() == 2) {
            let (r, c) = (cell / 9, cell % 9);
            let seen = (0..81)
                .filter(|&other| {
                    let (r2, c2) = (other / 9, other % 9);
                    unsolved(other) && (r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3))
                })
                .count();
            if best.is_none_or(|(most, _)| seen > most) {
                best = Some((seen, cell));
            }
        }
        best.map(|(_, cell)| cell)
    }

    #[test]
    fn most_connected_pair_agrees_with_the_obvious_version() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/");
        let text = std::fs::read_to_string(format!("{dir}forum_hardest_1905_11plus.1000.txt")).unwrap();
        let (mut boards, mut with_pairs) = (0, 0);
        for line in text.lines().take(60) {
            let mut cells = [0u8; 81];
            for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
                *cell = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
            }
            // Every board the search meets down the first branches, some
            // with pairs, some (rarely) without.
            let mut board = Board::new(Portable, &cells).expect("a valid puzzle");
            while !board.is_solved() {
                let expected = most_connected_pair_slowly(&board);
                assert_eq!(board.most_connected_pair(), expected, "{line}");
                boards += 1;
                with_pairs += usize::from(expected.is_some());
                let Branch9 { cell, digits } = board.branch(Order::Heuristic, true);
                let mut next = board;
                let pending = next.assign(cell as usize, digits.trailing_zeros() as usize, digits);
                if !next.propagate(Portable, pending) {
                    break;
                }
                board = next;
            }
        }
        assert!(boards > 200 && with_pairs > 100, "{boards} boards, {with_pairs} with pairs");
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn given_bands_x86_v3(cpu: X86V3, cells: &Cells) -> Option<[u32; 28]> {
        Board::given_bands(cpu, cells)
    }

    /// [`Board::given_bands`] the obvious way: one given at a time.
    fn given_bands_one_by_one(cells: &Cells) -> Option<[u32; 28]> {
        let mut bands = [0u32; 28];
        for band in &mut bands[..27] {
            *band = BAND_ALL;
        }
        for (cell, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            if v > 9 {
                return None;
            }
            let d = v as usize - 1;
            let (r, c) = (cell / 9, cell % 9);
            if bands[3 * d + r / 3] & (1 << (cell % 27)) == 0 {
                return None;
            }
            for other in 0..81 {
                let (r2, c2) = (other / 9, other % 9);
                let peer = r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3);
                if peer && other != cell {
                    bands[3 * d + r2 / 3] &= !(1 << (other % 27));
                }
            }
            for e in 0..9 {
                if e != d {
                    bands[3 * e + r / 3] &= !(1 << (cell % 27));
                }
            }
        }
        Some(bands)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn new_x86_v3(cpu: X86V3, cells: &Cells) -> Option<Board> {
        Board::new(cpu, cells)
    }

    /// Givens are placed as one by one would place them, and conflicting
    /// givens (which [`Board::given_bands`] leaves in place) never get past
    /// the first propagation.
    #[test]
    fn given_bands_agree_with_placing_givens_one_by_one() {
        let mut random = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut next = move |n: u64| random() % n;
        let (mut conflicts, mut fine, mut out_of_range) = (0, 0, 0);
        for round in 0..20_000 {
            let mut cells = [0u8; 81];
            // From a few givens (conflicts are rare) to many (they are common).
            for _ in 0..1 + round % 30 {
                cells[next(81) as usize] = 1 + next(9) as u8;
            }
            if round % 97 == 0 {
                cells[next(81) as usize] = 10 + next(246) as u8;
            }
            let expected = given_bands_one_by_one(&cells);
            if expected.is_some() || cells.iter().any(|&v| v > 9) {
                assert_eq!(Board::given_bands(Portable, &cells), expected, "{cells:?}");
                #[cfg(target_arch = "x86_64")]
                if let Some(cpu) = X86V3::new() {
                    // SAFETY: the token proves the features the function is compiled for.
                    assert_eq!(unsafe { given_bands_x86_v3(cpu, &cells) }, expected, "{cells:?}");
                }
                if expected.is_some() {
                    fine += 1;
                } else {
                    out_of_range += 1;
                }
                continue;
            }
            conflicts += 1;
            assert_eq!(Board::new(Portable, &cells), None, "{cells:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = X86V3::new() {
                // SAFETY: the token proves the features the function is compiled for.
                assert_eq!(unsafe { new_x86_v3(cpu, &cells) }, None, "{cells:?}");
            }
            assert_eq!(solve(&cells, Mode::Count { limit: None }).count, 0, "{cells:?}");
        }
        assert!(conflicts > 2000 && fine > 2000 && out_of_range > 100, "{conflicts} {fine} {out_of_range}");
    }

    /// One conflict planted in a puzzle that is otherwise a real solution
    /// with cells blanked: the root propagation finds it, in both builds.
    #[test]
    fn a_conflict_planted_among_consistent_givens_is_found_at_the_root() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/");
        let text = std::fs::read_to_string(format!("{dir}royle_17_clue.1000.txt")).unwrap();
        let mut random = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = move |n: u64| random() % n;
        let mut kinds = [0; 3];
        for line in text.lines().take(300) {
            let mut cells = [0u8; 81];
            for (cell, ch) in cells.iter_mut().zip(line.bytes()) {
                *cell = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
            }
            let mut grid = solve(&cells, Mode::First).solution.expect("a valid puzzle");
            // Keep about half the cells, then copy one kept digit onto a
            // peer in its row, column or box.
            for cell in grid.iter_mut() {
                if next(2) == 0 {
                    *cell = 0;
                }
            }
            let from = (0..81).cycle().skip(next(81) as usize).find(|&i| grid[i] != 0).unwrap();
            let (r, c) = (from / 9, from % 9);
            let kind = next(3) as usize;
            let to = match kind {
                0 => 9 * r + (c + 1 + next(8) as usize) % 9,
                1 => 9 * ((r + 1 + next(8) as usize) % 9) + c,
                _ => loop {
                    let k = next(9) as usize;
                    let peer = 9 * (r / 3 * 3 + k / 3) + c / 3 * 3 + k % 3;
                    if peer != from {
                        break peer;
                    }
                },
            };
            grid[to] = grid[from];
            kinds[kind] += 1;
            assert_eq!(Board::new(Portable, &grid), None, "{grid:?}");
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = X86V3::new() {
                // SAFETY: the token proves the features the function is compiled for.
                assert_eq!(unsafe { new_x86_v3(cpu, &grid) }, None, "{grid:?}");
            }
        }
        assert!(kinds.iter().all(|&n| n > 50), "{kinds:?}");
    }

    #[test]
    fn non_blank_agrees_with_the_portable_version() {
        fn non_blank_scalar(cells: &Cells) -> [u32; 3] {
            let mut out = [0u32; 3];
            for (b, band) in out.iter_mut().enumerate() {
                for k in 0..27 {
                    *band |= ((cells[27 * b + k] != 0) as u32) << k;
                }
            }
            out
        }
        let mut cells = [0u8; 81];
        for i in 0..81 {
            cells[i] = ((i * 7 + i / 5) % 3 == 0) as u8 * (1 + (i % 9) as u8);
            assert_eq!(non_blank(&cells), non_blank_scalar(&cells));
        }
        cells[80] = 4;
        assert_eq!(non_blank(&cells), non_blank_scalar(&cells));
    }

    #[test]
    fn band_shape_by_bit_extraction_agrees_with_the_tables() {
        if let Some(cpu) = crate::cpu::X86V3::new() {
            let mut random = xorshift(0x2545_f491_4f6c_dd1d);
            for k in 0..20_000u32 {
                let state = random();
                // Sparse masks too, where most row/box pairs are empty.
                let a = (state as u32 & (state >> 32) as u32 & if k % 2 == 0 { u32::MAX } else { state as u32 >> 5 })
                    & BAND_ALL;
                assert_eq!(band_shape(cpu, a), shape(a), "{a:#x}");
            }
        }
        assert_eq!(band_shape(Portable, 1 << 26 | 1), 1 << 8 | 1);
    }

    #[test]
    fn claims_by_vectors_agree_with_the_portable_version() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut found = [0u32; 2];
        for _ in 0..20_000 {
            let columns = random_columns(&mut next);
            let portable = claims_scalar(&columns);
            found[usize::from(portable.is_some_and(|d| d != 0))] += 1;
            #[cfg(target_arch = "x86_64")]
            if let Some(cpu) = X86V3::new() {
                // SAFETY: the token proves AVX2 and BMI2.
                assert_eq!(unsafe { claims_avx2(cpu, &columns) }, portable, "{columns:?}");
            }
        }
        // Both outcomes were exercised.
        assert!(found[0] > 100 && found[1] > 100, "{found:?}");
    }

    #[test]
    fn claiming_removes_the_box_columns_outside_a_confined_column() {
        // Digit 1 in band 0 may go in columns 0..3 of box 0; in the other
        // bands only in columns 1..9: column 0 is confined to band 0, so
        // box 0 of band 0 loses columns 1 and 2.
        let mut columns = [0x1ffu16; 48];
        columns[0] = 0b111;
        columns[16] = 0x1fe;
        columns[32] = 0x1fe;
        assert_eq!(claims_scalar(&columns), Some(1));
        columns[16] = 0x1fe & !1;
        // No candidate left in column 0 outside band 0 and none in band 0 either.
        columns[0] = 0b110;
        assert_eq!(claims_scalar(&columns), None);
    }

    #[test]
    fn single_rows_finds_lone_bits() {
        assert_eq!(single_rows(0b11 | 1 << 12 | 1 << 20), 1 << 12 | 1 << 20);
    }
}
