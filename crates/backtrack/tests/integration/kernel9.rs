//! The 9x9 kernel against its puzzles and against slow, obviously correct
//! searches written here.

use std::ops::ControlFlow;

use backtrack::search::{par_count, par_for_each, Control, Mode, Order, Search};
use backtrack::sudoku::kernel9::{self, Cells, Space9};

use proptest::prelude::*;

use crate::common::{n_threads, Rng};

fn fixture(name: &str) -> Vec<Cells> {
    let path = format!("{}/benches/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(parse).collect()
}

fn parse(line: &str) -> Cells {
    let bytes = line.trim().as_bytes();
    assert_eq!(bytes.len(), 81, "line {line:?}");
    let mut cells = [0u8; 81];
    for (cell, &ch) in cells.iter_mut().zip(bytes) {
        *cell = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
    }
    cells
}

/// Whether `solution` is a complete valid grid that keeps every given of `puzzle`.
fn is_solution_of(puzzle: &Cells, solution: &Cells) -> bool {
    if (0..81).any(|i| puzzle[i] != 0 && puzzle[i] != solution[i]) {
        return false;
    }
    (0..9).all(|unit| {
        let (mut row, mut col, mut bx) = (0u16, 0u16, 0u16);
        for k in 0..9 {
            row |= 1 << solution[unit * 9 + k];
            col |= 1 << solution[k * 9 + unit];
            bx |= 1 << solution[(unit / 3 * 3 + k / 3) * 9 + unit % 3 * 3 + k % 3];
        }
        row == 0x3fe && col == 0x3fe && bx == 0x3fe
    })
}

/// Whether digit `v` may go at `cell` of a partial grid (plain rule check).
fn allowed(grid: &Cells, cell: usize, v: u8) -> bool {
    let (r, c) = (cell / 9, cell % 9);
    (0..9)
        .all(|k| grid[r * 9 + k] != v && grid[k * 9 + c] != v && grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] != v)
}

/// Plain row-major backtracking, digits ascending: yields solutions in
/// lexicographic order. `visit` returns false to stop.
fn brute(grid: &mut Cells, from: usize, visit: &mut dyn FnMut(&Cells) -> bool) -> bool {
    let Some(cell) = (from..81).find(|&i| grid[i] == 0) else {
        return visit(grid);
    };
    for v in 1..=9 {
        if allowed(grid, cell, v) {
            grid[cell] = v;
            let go_on = brute(grid, cell + 1, visit);
            grid[cell] = 0;
            if !go_on {
                return false;
            }
        }
    }
    true
}

/// Whether the givens alone break a rule.
fn givens_conflict(puzzle: &Cells) -> bool {
    let mut grid = *puzzle;
    (0..81).any(|i| {
        let v = grid[i];
        if v == 0 {
            return false;
        }
        grid[i] = 0;
        let bad = !allowed(&grid, i, v);
        grid[i] = v;
        bad
    })
}

fn brute_lexmin(puzzle: &Cells) -> Option<Cells> {
    if givens_conflict(puzzle) {
        return None;
    }
    let mut found = None;
    brute(&mut puzzle.clone(), 0, &mut |g| {
        found = Some(*g);
        false
    });
    found
}

/// Up to `limit` solutions in lexicographic order.
fn brute_all(puzzle: &Cells, limit: usize) -> Vec<Cells> {
    if givens_conflict(puzzle) {
        return vec![];
    }
    let mut all = Vec::new();
    brute(&mut puzzle.clone(), 0, &mut |g| {
        all.push(*g);
        all.len() < limit
    });
    all
}

/// A random valid full grid: a fixture solution relabelled and with rows,
/// columns, bands and stacks permuted (all validity-preserving).
fn random_grid(rng: &mut Rng, seed_grid: &Cells) -> Cells {
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut digits);
    let perm = |rng: &mut Rng| {
        let mut bands = [0usize, 1, 2];
        rng.shuffle(&mut bands);
        let mut order = [0usize; 9];
        for (bi, &band) in bands.iter().enumerate() {
            let mut inner = [0usize, 1, 2];
            rng.shuffle(&mut inner);
            for k in 0..3 {
                order[bi * 3 + k] = band * 3 + inner[k];
            }
        }
        order
    };
    let rows = perm(rng);
    let cols = perm(rng);
    let transpose = rng.below(2) == 1;
    let mut grid = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose { (cols[c], rows[r]) } else { (rows[r], cols[c]) };
            grid[r * 9 + c] = digits[(seed_grid[sr * 9 + sc] - 1) as usize];
        }
    }
    assert!(is_solution_of(&[0; 81], &grid));
    grid
}

fn blank_out(rng: &mut Rng, grid: &Cells, blanks: usize) -> Cells {
    let mut order: Vec<usize> = (0..81).collect();
    rng.shuffle(&mut order);
    let mut puzzle = *grid;
    for &i in &order[..blanks] {
        puzzle[i] = 0;
    }
    puzzle
}

/// Solutions of `puzzle`, counted up to `limit`, by plain rule checks and
/// no propagation: each node branches on the smallest choice left, either
/// the digits allowed in one blank cell or the cells left for one digit
/// in one row, column or box (an empty choice is a dead end). Branching on
/// places as well as digits keeps the slow cases of cell-only branching
/// (seconds to minutes on some puzzles with 20-30 clues) out of the test.
fn brute_count(puzzle: &Cells, limit: usize) -> usize {
    fn unit_cells(unit: usize) -> [usize; 9] {
        let (kind, k) = (unit / 9, unit % 9);
        std::array::from_fn(|i| match kind {
            0 => k * 9 + i,
            1 => i * 9 + k,
            _ => (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3,
        })
    }
    fn go(grid: &mut Cells, limit: usize, found: &mut usize) {
        // The smallest choice: (cell, digit) assignments, one of which holds.
        let mut best: Option<Vec<(usize, u8)>> = None;
        for cell in (0..81).filter(|&i| grid[i] == 0) {
            let options: Vec<(usize, u8)> = (1..=9).filter(|&v| allowed(grid, cell, v)).map(|v| (cell, v)).collect();
            if best.as_ref().is_none_or(|fewest| options.len() < fewest.len()) {
                best = Some(options);
            }
        }
        let Some(mut best) = best else {
            *found += 1;
            return;
        };
        for unit in 0..27 {
            let cells = unit_cells(unit);
            for v in (1..=9).filter(|v| !cells.iter().any(|&c| grid[c] == *v)) {
                let places: Vec<(usize, u8)> =
                    cells.iter().filter(|&&c| grid[c] == 0 && allowed(grid, c, v)).map(|&c| (c, v)).collect();
                if places.len() < best.len() {
                    best = places;
                }
            }
        }
        for (cell, v) in best {
            grid[cell] = v;
            go(grid, limit, found);
            grid[cell] = 0;
            if *found >= limit {
                return;
            }
        }
    }
    let mut found = 0;
    if !givens_conflict(puzzle) {
        go(&mut puzzle.clone(), limit, &mut found);
    }
    found
}

/// `grid` with only the clues at `cells` kept.
fn keep_only(grid: &Cells, cells: &[usize]) -> Cells {
    let mut puzzle = [0u8; 81];
    for &cell in cells {
        puzzle[cell] = grid[cell];
    }
    puzzle
}

/// The uniqueness check (counting up to two, where the second solution
/// may come from swapping two digits of the first) against brute force,
/// with the plain counting path (a limit of three) and the first solution.
fn check_uniqueness(puzzle: &Cells) -> Result<usize, TestCaseError> {
    let expected = brute_count(puzzle, 2);
    let two = kernel9::solve(puzzle, Mode::Count { limit: Some(2) });
    prop_assert_eq!(two.count, expected as u64, "{:?}", puzzle);
    prop_assert_eq!(kernel9::solve(puzzle, Mode::Count { limit: Some(3) }).count.min(2), expected as u64);
    if let Some(solution) = two.solution {
        prop_assert!(is_solution_of(puzzle, &solution));
        prop_assert_eq!(kernel9::solve(puzzle, Mode::First).solution, Some(solution));
    }
    Ok(expected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Grids with 0 to 40 clues kept at random, from many solutions down
    /// to one.
    #[test]
    fn uniqueness_check_matches_brute_force_on_random_clues(seed in any::<u64>(), clues in 0usize..=40) {
        let mut rng = Rng::new(seed | 1);
        let grid = random_grid(&mut rng, &seed_grid());
        let mut cells: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut cells);
        check_uniqueness(&keep_only(&grid, &cells[..clues]))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Minimal puzzles (exactly one solution: every clue is needed) and
    /// the same less one clue (two solutions or more).
    #[test]
    fn uniqueness_check_matches_brute_force_on_minimal_puzzles(seed in any::<u64>()) {
        let mut rng = Rng::new(seed | 1);
        let grid = random_grid(&mut rng, &seed_grid());
        let mut order: Vec<usize> = (0..81).collect();
        rng.shuffle(&mut order);
        let mut kept: Vec<usize> = order.clone();
        for cell in order {
            let fewer: Vec<usize> = kept.iter().copied().filter(|&c| c != cell).collect();
            if kernel9::solve(&keep_only(&grid, &fewer), Mode::Count { limit: Some(3) }).count == 1 {
                kept = fewer;
            }
        }
        prop_assert_eq!(check_uniqueness(&keep_only(&grid, &kept))?, 1);
        for _ in 0..3 {
            let gone = rng.below(kept.len());
            let fewer: Vec<usize> = kept.iter().copied().filter(|&c| c != kept[gone]).collect();
            prop_assert_eq!(check_uniqueness(&keep_only(&grid, &fewer))?, 2);
        }
    }
}

fn seed_grid() -> Cells {
    let p = fixture("royle_17_clue.1000.txt")[0];
    kernel9::solve(&p, Mode::First).solution.expect("fixture puzzle solves")
}

#[test]
fn unique_sets_have_one_valid_solution_in_every_mode() {
    for name in ["royle_17_clue.1000.txt", "forum_hardest_1905_11plus.1000.txt"] {
        for p in fixture(name).iter().take(400) {
            let count = kernel9::solve(p, Mode::Count { limit: Some(2) });
            assert_eq!(count.count, 1, "{name}: {p:?}");
            let solution = count.solution.expect("a solution with the count");
            assert!(is_solution_of(p, &solution));
            for mode in [Mode::First, Mode::LexFirst, Mode::All, Mode::Count { limit: None }] {
                let out = kernel9::solve(p, mode);
                assert_eq!(out.count, 1, "{name} {mode:?}");
                assert_eq!(out.solution, Some(solution), "{name} {mode:?}");
            }
        }
    }
}

#[test]
fn serg_puzzles_have_several_solutions_and_limits_hold() {
    for p in fixture("serg_benchmark.1000.txt").iter().take(500) {
        let two = kernel9::solve(p, Mode::Count { limit: Some(2) });
        assert_eq!(two.count, 2, "{p:?}");
        assert!(is_solution_of(p, &two.solution.unwrap()));
        assert_eq!(kernel9::solve(p, Mode::Count { limit: Some(1) }).count, 1);
        assert_eq!(kernel9::solve(p, Mode::Count { limit: Some(0) }).count, 0);
        let five = kernel9::solve(p, Mode::Count { limit: Some(5) });
        assert!((2..=5).contains(&five.count));
        let first = kernel9::solve(p, Mode::First);
        assert_eq!(first.count, 1);
        assert!(is_solution_of(p, &first.solution.unwrap()));
    }
}

#[test]
fn lexmin_equals_row_major_search_on_random_boards() {
    let seed = seed_grid();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut multi = 0;
    // 1,000 boards by default, 3,000 with BACKTRACK_LONG_TESTS=1.
    let rounds = crate::effort::rounds(1000, 3000);
    for round in 0..rounds {
        let grid = random_grid(&mut rng, &seed);
        let blanks = 40 + rng.below(17);
        let puzzle = blank_out(&mut rng, &grid, blanks);
        let expected = brute_lexmin(&puzzle).expect("blanked grid is solvable");
        let got = kernel9::solve(&puzzle, Mode::LexFirst);
        assert_eq!(got.count, 1, "round {round}");
        assert_eq!(got.solution, Some(expected), "round {round}: {puzzle:?}");
        if expected != grid {
            multi += 1;
        }
        // The first lexicographic solution streamed is the same one.
        let mut streamed = None;
        kernel9::for_each(&puzzle, Order::Lexicographic, |s| {
            streamed = Some(*s);
            ControlFlow::Break(())
        });
        assert_eq!(streamed, Some(expected));
    }
    // The boards really had several solutions (lexmin differed from the source grid).
    assert!(multi * 3 > rounds, "only {multi} of {rounds} boards with a different lexmin");
}

#[test]
fn enumeration_agrees_with_brute_force_on_boards_with_few_solutions() {
    let seed = seed_grid();
    let mut rng = Rng::new(12345);
    // 150 boards by default, 400 with BACKTRACK_LONG_TESTS=1.
    for round in 0..crate::effort::rounds(150, 400) {
        let grid = random_grid(&mut rng, &seed);
        let blanks = 45 + rng.below(10);
        let puzzle = blank_out(&mut rng, &grid, blanks);
        let expected = brute_all(&puzzle, 2001);
        if expected.len() > 2000 {
            continue;
        }
        let mut lex = Vec::new();
        let out = kernel9::for_each(&puzzle, Order::Lexicographic, |s| {
            lex.push(*s);
            ControlFlow::Continue(())
        });
        assert_eq!(lex, expected, "round {round}");
        assert_eq!(out.count, expected.len() as u64);
        assert!(lex.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");

        let mut heuristic = Vec::new();
        kernel9::for_each(&puzzle, Order::Heuristic, |s| {
            heuristic.push(*s);
            ControlFlow::Continue(())
        });
        heuristic.sort();
        assert_eq!(heuristic, expected, "round {round}");

        let n = expected.len() as u64;
        assert_eq!(kernel9::solve(&puzzle, Mode::All).count, n);
        assert_eq!(kernel9::solve(&puzzle, Mode::Count { limit: None }).count, n);
        for limit in [1, 2, 3, 10] {
            assert_eq!(kernel9::solve(&puzzle, Mode::Count { limit: Some(limit) }).count, n.min(limit));
        }

        // The core driving Space9 walks the same tree.
        let mut search = Search::new(Space9::new(&puzzle));
        assert_eq!(search.count(None), n);
        assert_eq!(search.stats().guesses, kernel9::solve(&puzzle, Mode::All).guesses);
        let mut core_lex = Vec::new();
        Search::new(Space9::new(&puzzle)).order(Order::Lexicographic).for_each(|s| {
            core_lex.push(s);
            ControlFlow::Continue(())
        });
        assert_eq!(core_lex, expected);
        assert_eq!(Search::new(Space9::new(&puzzle)).lex_first(), expected.first().copied());
    }
}

#[test]
fn conflicting_and_unsolvable_boards_give_zero() {
    let mut boards = Vec::new();
    let mut row = [0u8; 81];
    row[0] = 5;
    row[8] = 5;
    boards.push(row);
    let mut col = [0u8; 81];
    col[4] = 7;
    col[76] = 7;
    boards.push(col);
    let mut bx = [0u8; 81];
    bx[0] = 1;
    bx[20] = 1;
    boards.push(bx);
    let mut range = [0u8; 81];
    range[40] = 10;
    boards.push(range);
    let mut high = [0u8; 81];
    high[0] = 255;
    boards.push(high);
    // Cell (0, 8) has no candidate: 1..8 in its row, 9 in its column.
    let mut empty_cell = [0u8; 81];
    for (c, cell) in empty_cell.iter_mut().take(8).enumerate() {
        *cell = c as u8 + 1;
    }
    empty_cell[9 * 5 + 8] = 9;
    boards.push(empty_cell);
    // Digit 1 has no place in row 0: blocked by columns and given cells.
    let mut no_place = [0u8; 81];
    for c in 0..6 {
        no_place[9 * (3 + c % 6) + c] = 1;
    }
    no_place[6] = 2;
    no_place[7] = 3;
    no_place[8] = 4;
    boards.push(no_place);
    for board in &boards {
        for mode in [Mode::First, Mode::LexFirst, Mode::All, Mode::Count { limit: Some(2) }] {
            let out = kernel9::solve(board, mode);
            assert_eq!(out.count, 0, "{board:?} {mode:?}");
            assert_eq!(out.solution, None);
        }
        assert_eq!(kernel9::for_each(board, Order::Lexicographic, |_| ControlFlow::Continue(())).count, 0);
        assert_eq!(Search::new(Space9::new(board)).count(None), 0);
    }
    // Brute force agrees that the last two have no solution.
    assert!(brute_all(&boards[5], 1).is_empty());
    assert!(brute_all(&boards[6], 1).is_empty());
}

#[test]
fn damaged_boards_never_panic_and_agree_with_brute_force() {
    // A solvable board with one or two cells overwritten at random: often
    // conflicting or unsolvable, sometimes still fine.
    let seed = seed_grid();
    let mut rng = Rng::new(777);
    let mut unsolvable = 0;
    for _ in 0..3000 {
        let grid = random_grid(&mut rng, &seed);
        let blanks = 30 + rng.below(16);
        let mut board = blank_out(&mut rng, &grid, blanks);
        for _ in 0..1 + rng.below(2) {
            board[rng.below(81)] = rng.below(10) as u8;
        }
        let expected = brute_all(&board, 2);
        let got = kernel9::solve(&board, Mode::LexFirst);
        assert_eq!(got.solution, expected.first().copied(), "{board:?}");
        let two = kernel9::solve(&board, Mode::Count { limit: Some(2) });
        assert_eq!(two.count, expected.len() as u64, "{board:?}");
        unsolvable += expected.is_empty() as usize;
    }
    assert!(unsolvable > 500, "only {unsolvable} unsolvable boards");
}

#[test]
fn empty_board() {
    let empty = [0u8; 81];
    assert_eq!(kernel9::solve(&empty, Mode::Count { limit: Some(1000) }).count, 1000);
    let first = kernel9::solve(&empty, Mode::First).solution.unwrap();
    assert!(is_solution_of(&empty, &first));
    assert_eq!(kernel9::solve(&empty, Mode::LexFirst).solution, brute_lexmin(&empty));
    let mut previous: Option<Cells> = None;
    let mut seen = 0;
    kernel9::for_each(&empty, Order::Lexicographic, |s| {
        assert!(is_solution_of(&empty, s));
        assert!(previous.is_none_or(|p| p < *s), "increasing");
        previous = Some(*s);
        seen += 1;
        if seen == 500 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(seen, 500);
    assert_eq!(brute_all(&empty, 500).last().copied(), previous);
}

#[test]
fn space9_in_parallel_agrees_with_solve() {
    let seed = seed_grid();
    let mut rng = Rng::new(99);
    for _ in 0..20 {
        let grid = random_grid(&mut rng, &seed);
        let puzzle = blank_out(&mut rng, &grid, 54);
        let total = kernel9::solve(&puzzle, Mode::All).count;
        let (count, _) =
            par_count(&Space9::new(&puzzle), Order::Heuristic, None, n_threads(2), &Control::new()).unwrap();
        assert_eq!(count, total);
        let (limited, _) =
            par_count(&Space9::new(&puzzle), Order::Heuristic, Some(3), n_threads(2), &Control::new()).unwrap();
        assert_eq!(limited, total.min(3));
        let mut sequential = Vec::new();
        kernel9::for_each(&puzzle, Order::Lexicographic, |s| {
            sequential.push(*s);
            ControlFlow::Continue(())
        });
        let mut parallel = Vec::new();
        par_for_each(&Space9::new(&puzzle), Order::Lexicographic, n_threads(2), |s| {
            parallel.push(s);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(parallel, sequential);
    }
    // A near-empty board split across threads, with a limit.
    let mut sparse = [0u8; 81];
    sparse[0] = 1;
    let (count, _) =
        par_count(&Space9::new(&sparse), Order::Heuristic, Some(5000), n_threads(2), &Control::new()).unwrap();
    assert_eq!(count, 5000);
}
