//! The board: digit bands, their propagation to the band fixpoint, naked
//! singles, claiming, the choice of the branch cell and the second solution
//! by a swap.

use crate::cpu::Cpu;
use crate::search::Order;

use super::simd::*;
use super::tables::*;
use super::Cells;

/// The board state: candidate positions per digit band plus bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub(super) struct Board {
    /// `bands[3 * d + b]`: cells of band `b` where digit `d + 1` may go.
    /// Entry 27 is padding (always 0) so the array is seven 4-lane vectors.
    pub(super) bands: [u32; 28],
    /// The value of each digit band when it was last reduced: a band is
    /// reduced again only when it differs. Entry 27 is padding (always 0).
    pub(super) seen: [u32; 28],
    /// Per band, the cells not yet known to be solved.
    pub(super) unsolved: [u32; 3],
    /// `columns[16 * b + d]`: the columns (9 bits) where digit `d + 1` has
    /// candidates in band `b`, as of that digit band's last reduction, so
    /// current wherever the band equals `seen`. Sixteen slots per band so
    /// that one vector holds a band's nine digits; the rest stay 0.
    pub(super) columns: [u16; 48],
}

/// A cell to branch on and its candidate digits (bit `d` = digit `d + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch9 {
    pub(super) cell: u8,
    pub(super) digits: u16,
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
    pub(super) fn new<C: Cpu>(cpu: C, cells: &Cells) -> Option<Board> {
        Board::propagated(cpu, Board::given_bands(cpu, cells)?)
    }

    /// The board of `bands`, every band reduced; `None` on a contradiction.
    #[inline(always)]
    fn propagated<C: Cpu>(cpu: C, bands: [u32; 28]) -> Option<Board> {
        // Every band differs from `seen`, so the first propagation reduces all.
        let mut board = Board { bands, seen: [u32::MAX; 28], unsolved: [BAND_ALL; 3], columns: [0; 48] };
        board.seen[27] = 0;
        board.propagate(cpu, (1 << 27) - 1).then_some(board)
    }

    /// The board whose cells keep the digits of `masks` (bit `d` = digit
    /// `d + 1`, row-major), propagated; `None` on a contradiction. A cell
    /// with one digit left is a given in all but name: propagation places it.
    pub(super) fn from_masks<C: Cpu>(cpu: C, masks: &[u16; 81]) -> Option<Board> {
        let mut bands = [0u32; 28];
        for (cell, &m) in masks.iter().enumerate() {
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    bands[3 * d + cell / 27] |= 1 << (cell % 27);
                }
            }
        }
        Board::propagated(cpu, bands)
    }

    /// The digit bands of `cells` before propagation: every given in place,
    /// its row, column and box cleared of its digit, the given cells of the
    /// other digits. `None` when a value is out of range. Givens that
    /// conflict stay in place, for propagation to find (see [`Board::new`]).
    #[inline(always)]
    pub(super) fn given_bands<C: Cpu>(cpu: C, cells: &Cells) -> Option<[u32; 28]> {
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
    pub(super) fn assign(&mut self, cell: usize, d: usize, digits: u16) -> u32 {
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
    pub(super) fn reduce<C: Cpu>(&mut self, cpu: C, i: usize) -> bool {
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
    pub(super) fn propagate<C: Cpu>(&mut self, cpu: C, mut pending: u32) -> bool {
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
    pub(super) fn claims<C: Cpu>(&self, cpu: C) -> Option<u32> {
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
    pub(super) fn apply_claims(&mut self, mut digits: u32) -> u32 {
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
    pub(super) fn is_solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// Candidate digits of `cell` (bit `d` = digit `d + 1`).
    #[inline(always)]
    pub(super) fn digits_of(&self, cell: usize) -> u16 {
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
    pub(super) fn branch(&self, order: Order, careful: bool) -> Branch9 {
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
    pub(super) fn most_connected_pair(&self) -> Option<usize> {
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
    pub(super) fn at_least<const K: usize>(&self) -> [[u32; 3]; K] {
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
    pub(super) fn at_least_scalar<const K: usize>(&self) -> [[u32; 3]; K] {
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
    pub(super) fn fewest_candidates_cell(&self) -> usize {
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
    pub(super) fn swapped<C: Cpu>(&self, cpu: C, given: &[u32; 3], cell: usize, q: usize) -> Option<Board> {
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
    pub(super) fn cells(&self) -> Cells {
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
