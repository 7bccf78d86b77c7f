//! The specialised depth-first search, compiled once per processor level.

use std::ops::ControlFlow;

#[cfg(target_arch = "x86_64")]
use crate::cpu::{Avx512, X86V3};
use crate::cpu::{Cpu, Portable};
use crate::search::Order;

use super::board::{Board, Branch9};
use super::simd::non_blank;
use super::Cells;

/// The specialised depth-first search: a board copy per branch.
pub(super) struct Walk<'a, F> {
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
    pub(super) fn second_by_swap<C: Cpu>(&mut self, cpu: C, board: &Board) -> Option<Board> {
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
        pub(super) $($unsafe)? fn $run<F: FnMut(&Board) -> ControlFlow<()>>(
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
                        // SAFETY: `$run` is compiled for the features this
                        // function is (none, or those its token proves).
                        #[allow(unused_unsafe)]
                        let flow = unsafe { $run(cpu, walk, board) };
                        flow?;
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
                    // SAFETY: as above.
                    #[allow(unused_unsafe)]
                    let flow = unsafe { $run(cpu, walk, &mut next) };
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
        pub(super) $($unsafe)? fn $walk(
            cpu: $cpu,
            cells: &Cells,
            order: Order,
            swap_for_second: bool,
            visit: impl FnMut(&Board) -> ControlFlow<()>,
        ) -> u64 {
            let Some(mut board) = Board::new(cpu, cells) else { return 0 };
            let mut walk =
                Walk { order, guesses: 0, careful: false, visit, cells, swap_for_second, open: [0; 81], open_depth: 0 };
            // SAFETY: as in `$run`.
            #[allow(unused_unsafe)]
            let _ = unsafe { $run(cpu, &mut walk, &mut board) };
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
pub(super) fn walk(
    cells: &Cells,
    order: Order,
    swap_for_second: bool,
    visit: impl FnMut(&Board) -> ControlFlow<()>,
) -> u64 {
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
