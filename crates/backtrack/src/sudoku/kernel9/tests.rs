use crate::cpu::Cpu;
#[cfg(target_arch = "x86_64")]
use crate::cpu::{Avx512, X86V3};

use super::board::*;
use super::simd::*;
use super::tables::*;
use super::walk::*;
use super::*;

/// The library's generator as a closure, for the randomized tests: reproducible.
fn random_bits(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = crate::rng::Rng::new(seed);
    move || rng.next_u64()
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
    let mut random = random_bits(0x2545_f491_4f6c_dd1d);
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
    let mut random = random_bits(0x1234_5678_9abc_def0);
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
    let mut random = random_bits(0x2545_f491_4f6c_dd1d);
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
    let mut random = random_bits(0x1234_5678_9abc_def0);
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

/// [`Board::given_bands`] compiled for the features `cpu` checked.
///
/// # Safety
///
/// None beyond holding `cpu`: the token proves the CPU has every feature
/// enabled here.
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

/// [`Board::new`] compiled for the features `cpu` checked.
///
/// # Safety
///
/// None beyond holding `cpu`: the token proves the CPU has every feature
/// enabled here.
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
    let mut random = random_bits(0x9e37_79b9_7f4a_7c15);
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
    let mut random = random_bits(0x2545_f491_4f6c_dd1d);
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
        let mut random = random_bits(0x2545_f491_4f6c_dd1d);
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
    let mut next = random_bits(0x9e37_79b9_7f4a_7c15);
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
