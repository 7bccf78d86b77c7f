//! The look-up tables of the band reasoning (see the [module](super) doc),
//! built at compile time, and the bit helpers that read them.

use crate::cpu::Cpu;

/// All 27 cells of a band.
pub(super) const BAND_ALL: u32 = (1 << 27) - 1;
/// Replicates a 9-bit row pattern into the three rows of a band.
pub(super) const ROWS3: u32 = 1 | 1 << 9 | 1 << 18;

/// For a 9-bit row segment: which of its three boxes hold a candidate.
pub(super) static BOXES_OF_ROW: [u32; 512] = boxes_of_row();

/// For a band shape (bit `3 * r + k`: row `r` has candidates in box `k`):
/// the 27-bit mask of the row/box pairs used by at least one placement of the
/// digit once per row and once per box. Zero when there is none.
pub(super) static PLACEABLE: [u32; 512] = placeable();

pub(super) const fn boxes_of_row() -> [u32; 512] {
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

pub(super) const fn placeable() -> [u32; 512] {
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
pub(super) static LINKS: [[u8; 4]; 27] = links();

pub(super) const fn links() -> [[u8; 4]; 27] {
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
pub(super) fn shape(a: u32) -> usize {
    (BOXES_OF_ROW[(a & 0x1ff) as usize]
        | BOXES_OF_ROW[((a >> 9) & 0x1ff) as usize] << 3
        | BOXES_OF_ROW[(a >> 18) as usize] << 6) as usize
}

/// [`shape`]; on x86-64-v3 processors by one bit extraction (BMI2 `pext`).
#[inline(always)]
pub(super) fn band_shape<C: Cpu>(cpu: C, a: u32) -> usize {
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
pub(super) static LOCKED_COLUMNS: [u32; 512] = locked_columns();

/// [`LOCKED_COLUMNS`] as the cells the digit's other bands keep: every cell
/// outside those columns.
pub(super) static KEPT_BY_LOCKED_COLUMNS: [u32; 512] = kept_by_locked_columns();

pub(super) const fn kept_by_locked_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        table[s] = BAND_ALL & !(LOCKED_COLUMNS[s] * ROWS3);
        s += 1;
    }
    table
}

pub(super) const fn locked_columns() -> [u32; 512] {
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
pub(super) static CLAIMED_BOX_COLUMNS: [u32; 512] = claimed_box_columns();

/// [`CLAIMED_BOX_COLUMNS`] as the cells of the band that lose the digit.
pub(super) static CLAIMED_BOX_CELLS: [u32; 512] = claimed_box_cells();

pub(super) const fn claimed_box_cells() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        table[s] = CLAIMED_BOX_COLUMNS[s] * ROWS3;
        s += 1;
    }
    table
}

pub(super) const fn claimed_box_columns() -> [u32; 512] {
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
pub(super) static LINES_IN_BAND: [u32; 27] = {
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
pub(super) static COLUMN_TWICE: [u64; 27] = {
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
pub(super) static LONE_BIT: [u16; 512] = lone_bit();

pub(super) const fn lone_bit() -> [u16; 512] {
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
pub(super) static GIVEN_FILL: [u32; 512] = given_fill();

pub(super) const fn given_fill() -> [u32; 512] {
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

/// For a set of digits (bit `d` for digit `d + 1`): their digit bands in
/// band 0 (bit `3 * d`).
pub(super) static DIGIT_BANDS: [u32; 512] = {
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
pub(super) fn single_rows(a: u32) -> u32 {
    LONE_BIT[(a & 0x1ff) as usize] as u32
        | (LONE_BIT[((a >> 9) & 0x1ff) as usize] as u32) << 9
        | (LONE_BIT[(a >> 18) as usize] as u32) << 18
}

/// The columns (9 bits) where a band mask has a bit.
#[inline(always)]
pub(super) fn columns(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 0x1ff
}
