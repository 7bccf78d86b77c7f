//! Property tests of the variant solver against the plain reading of the
//! rules ([`Puzzle::is_solved_by`]) and a brute force: rules drawn at random
//! from a random solved grid keep that grid among the solutions (every one
//! of its values is a true candidate), and on 4x4 and 6x6 grids the solver's
//! counts equal the brute force's.

use backtrack::variant::{regions, Constraint, Diagonal, Puzzle, Shape, Solver};

use crate::common::Rng;

/// A random solved grid of `shape` with its default boxes, found by a plain
/// randomized backtracking over rows, columns and boxes.
pub fn random_grid(shape: Shape, rng: &mut Rng) -> Vec<u8> {
    let puzzle = Puzzle::new(shape);
    let mut grid = vec![0u8; shape.cells()];
    let houses = puzzle.houses();
    assert!(fill(&mut grid, 0, &houses, shape.size(), rng));
    grid
}

fn fill(grid: &mut [u8], cell: usize, houses: &[Vec<usize>], n: usize, rng: &mut Rng) -> bool {
    if cell == grid.len() {
        return true;
    }
    let mut values: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut values);
    for v in values {
        let clash = houses.iter().filter(|h| h.contains(&cell)).any(|h| h.iter().any(|&c| grid[c] == v));
        if !clash {
            grid[cell] = v;
            if fill(grid, cell + 1, houses, n, rng) {
                return true;
            }
            grid[cell] = 0;
        }
    }
    false
}

/// A random walk of up to `len` distinct cells, each touching the last
/// (orthogonally or diagonally).
fn walk(shape: Shape, len: usize, rng: &mut Rng) -> Vec<usize> {
    let n = shape.size() as isize;
    let mut cells = vec![rng.below(shape.cells())];
    for _ in 1..len {
        let (r, c) = shape.row_col(*cells.last().unwrap());
        let mut next = Vec::new();
        for dr in -1..=1isize {
            for dc in -1..=1isize {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if (0..n).contains(&rr) && (0..n).contains(&cc) {
                    let cell = shape.cell(rr as usize, cc as usize);
                    if !cells.contains(&cell) {
                        next.push(cell);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        cells.push(next[rng.below(next.len())]);
    }
    cells
}

/// An orthogonal walk (for dots, X, V and `>`: pairs must touch by a side).
fn orthogonal_walk(shape: Shape, len: usize, rng: &mut Rng) -> Vec<usize> {
    let mut cells = vec![rng.below(shape.cells())];
    for _ in 1..len {
        let last = *cells.last().unwrap();
        let next: Vec<usize> =
            (0..shape.cells()).filter(|&c| shape.orthogonal(last, c) && !cells.contains(&c)).collect();
        if next.is_empty() {
            break;
        }
        cells.push(next[rng.below(next.len())]);
    }
    cells
}

fn sum(grid: &[u8], cells: &[usize]) -> i32 {
    cells.iter().map(|&c| grid[c] as i32).sum()
}

/// A rule of a random type whose clue is read off `grid` (so that, most of
/// the time, `grid` keeps it; the caller keeps only those it does).
pub fn propose(shape: Shape, grid: &[u8], rng: &mut Rng) -> Constraint {
    let n = shape.size();
    let line = |rng: &mut Rng| {
        let id = format!("{}{}", if rng.below(2) == 0 { 'R' } else { 'C' }, 1 + rng.below(n));
        regions::full_line(shape, &id, rng.below(2) == 0).unwrap()
    };
    match rng.below(32) {
        0 => Constraint::Diagonal(if rng.below(2) == 0 { Diagonal::Main } else { Diagonal::Anti }),
        1 => Constraint::Windoku,
        2 => Constraint::DisjointSets,
        3 => Constraint::AntiKnight,
        4 => Constraint::AntiKing,
        5 => Constraint::AntiConsecutive,
        6 => {
            let cells = walk(shape, 1 + rng.below(4), rng);
            Constraint::Cage { sum: (rng.below(3) > 0).then(|| sum(grid, &cells)), cells }
        }
        7 => {
            let mut cells = walk(shape, 2 + rng.below(4), rng);
            cells.sort_by_key(|&c| grid[c]);
            Constraint::Thermo(cells)
        }
        8 => {
            let cells = walk(shape, 2 + rng.below(3), rng);
            let mut arrow = cells.clone();
            // Put the cell holding the total first when there is one.
            if let Some(i) = cells.iter().position(|&c| grid[c] as i32 == sum(grid, &cells) - grid[c] as i32) {
                arrow.swap(0, i);
            }
            Constraint::Arrow(arrow)
        }
        9 => {
            let cells = walk(shape, 2 + rng.below(4), rng);
            let least = cells.windows(2).map(|w| (grid[w[0]] as i32 - grid[w[1]] as i32).abs()).min().unwrap();
            Constraint::Whisper { difference: 1 + rng.below(least.max(1) as usize) as i32, cells }
        }
        10 => Constraint::Renban(walk(shape, 2 + rng.below(3), rng)),
        11 => Constraint::X(orthogonal_walk(shape, 2, rng)),
        12 => Constraint::V(orthogonal_walk(shape, 2, rng)),
        13 => Constraint::BlackDot(orthogonal_walk(shape, 2, rng)),
        14 => Constraint::WhiteDot(orthogonal_walk(shape, 2 + rng.below(2), rng)),
        15 => {
            let mut cells = orthogonal_walk(shape, 2 + rng.below(2), rng);
            if rng.below(2) == 0 {
                cells.sort_by_key(|&c| std::cmp::Reverse(grid[c]));
            }
            Constraint::GreaterThan(cells)
        }
        16 => {
            let start = rng.below(shape.cells());
            match regions::little_killer(shape, start) {
                Some(cells) => Constraint::LittleKiller { sum: sum(grid, &cells), cells },
                None => Constraint::AntiKing,
            }
        }
        17 => {
            let cells = line(rng);
            let at = |v: u8| cells.iter().position(|&c| grid[c] == v).unwrap();
            let (i, j) = (at(1).min(at(n as u8)), at(1).max(at(n as u8)));
            Constraint::Sandwich { sum: sum(grid, &cells[i + 1..j]), cells }
        }
        18 => Constraint::Palindrome(walk(shape, 2 + rng.below(2), rng)),
        19 => Constraint::Between(walk(shape, 3 + rng.below(2), rng)),
        20 => {
            let (r, c) = (rng.below(n - 1), rng.below(n - 1));
            let tl = shape.cell(r, c);
            let cells = [tl, tl + 1, tl + n, tl + n + 1];
            let k = 1 + rng.below(4);
            Constraint::Quad { cells, values: cells[..k].iter().map(|&c| grid[c]).collect() }
        }
        21 => {
            let cells = line(rng);
            let x = grid[cells[0]] as usize;
            Constraint::XSum { sum: sum(grid, &cells[..x]), cells }
        }
        22 => {
            let cells = line(rng);
            let mut top = 0;
            let count = cells.iter().filter(|&&c| (grid[c] > top).then(|| top = grid[c]).is_some()).count();
            Constraint::Skyscraper { count: count as i32, cells }
        }
        23 => {
            let (r, c) = (rng.below(n), rng.below(n - 1));
            let pill = [shape.cell(r, c), shape.cell(r, c + 1)];
            let mut cells = pill.to_vec();
            cells.extend(walk(shape, 2 + rng.below(4), rng).into_iter().filter(|c| !pill.contains(c)));
            Constraint::PillArrow { pill: 2, cells }
        }
        24 => Constraint::DoubleArrow(walk(shape, 3 + rng.below(3), rng)),
        25 => Constraint::RegionSumLine(walk(shape, 2 + rng.below(5), rng)),
        26 => {
            let cells = walk(shape, 2 + rng.below(5), rng);
            let looped = rng.below(2) == 0;
            let total = sum(grid, &cells);
            let target = if rng.below(2) == 0 { total } else { grid[cells[0]] as i32 + grid[cells[1]] as i32 };
            Constraint::SumLine { sum: target, looped, cells }
        }
        27 => {
            let (r, c) = (rng.below(n), rng.below(n - 2));
            let len = 3 + rng.below(n - c - 2);
            let cells: Vec<usize> = (c..c + len).map(|cc| shape.cell(r, cc)).collect();
            let lo = cells.iter().position(|&x| grid[x] == cells.iter().map(|&y| grid[y]).min().unwrap()).unwrap();
            let hi = cells.iter().position(|&x| grid[x] == cells.iter().map(|&y| grid[y]).max().unwrap()).unwrap();
            let (i, j) = (lo.min(hi), lo.max(hi));
            Constraint::Lunchbox { sum: sum(grid, &cells[i + 1..j]), cells }
        }
        28 => {
            let cells = walk(shape, 2 + rng.below(4), rng);
            let d = (grid[cells[0]] as i32 - grid[*cells.last().unwrap()] as i32).abs();
            Constraint::Lockout { difference: 1 + rng.below(d.max(1) as usize) as i32, cells }
        }
        29 => Constraint::Zipper(walk(shape, 3 + rng.below(3), rng)),
        30 => Constraint::Modular { modulus: 2 + rng.below(2) as i32, cells: walk(shape, 2 + rng.below(4), rng) },
        _ if n == 9 => Constraint::Entropic(walk(shape, 2 + rng.below(4), rng)),
        _ => Constraint::StrictXV,
    }
}

/// Rules that `grid` keeps, drawn until `count` are found (or tries run out).
pub fn rules_of(shape: Shape, grid: &[u8], count: usize, rng: &mut Rng) -> Vec<Constraint> {
    let mut out = Vec::new();
    for _ in 0..count * 50 {
        if out.len() == count {
            break;
        }
        let c = propose(shape, grid, rng);
        let mut alone = Puzzle::new(shape);
        alone.constraints.push(c.clone());
        if alone.is_solved_by(grid) && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// Every solution of `puzzle`, by brute force: a plain backtracking over
/// rows, columns, boxes and regions, each full grid then checked against
/// every rule.
pub fn brute_force(puzzle: &Puzzle) -> Vec<Vec<u8>> {
    let houses = puzzle.houses();
    let mut grid = vec![0u8; puzzle.shape.cells()];
    let mut out = Vec::new();
    enumerate(puzzle, &houses, &mut grid, 0, &mut out);
    out
}

fn enumerate(puzzle: &Puzzle, houses: &[Vec<usize>], grid: &mut [u8], cell: usize, out: &mut Vec<Vec<u8>>) {
    if cell == grid.len() {
        if puzzle.is_solved_by(grid) {
            out.push(grid.to_vec());
        }
        return;
    }
    for v in 1..=puzzle.shape.size() as u8 {
        if puzzle.candidates[cell] & (1 << (v - 1)) == 0 {
            continue;
        }
        if houses.iter().filter(|h| h.contains(&cell)).any(|h| h.iter().any(|&c| c < cell && grid[c] == v)) {
            continue;
        }
        grid[cell] = v;
        enumerate(puzzle, houses, grid, cell + 1, out);
    }
    grid[cell] = 0;
}

/// A puzzle of random rules read off a random grid, with `givens` of its values given.
fn random_puzzle(size: usize, rules: usize, givens: usize, rng: &mut Rng) -> (Puzzle, Vec<u8>) {
    let shape = Shape::new(size).unwrap();
    let grid = random_grid(shape, rng);
    let mut puzzle = Puzzle::new(shape);
    puzzle.constraints = rules_of(shape, &grid, rules, rng);
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut cells);
    for &c in &cells[..givens] {
        puzzle.candidates[c] = 1 << (grid[c] - 1);
    }
    (puzzle, grid)
}

#[test]
fn random_rules_keep_their_grid_among_the_solutions() {
    let mut rng = Rng::new(0x5eed_0001);
    for (size, cases) in [(4, 150), (6, 100), (8, 20), (9, 60)] {
        for case in 0..cases {
            // Enough givens that proving a value impossible stays a small search.
            let givens =
                if size <= 6 { rng.below(size * size / 3) } else { size * size / 2 + rng.below(size * size / 4) };
            let (puzzle, grid) = random_puzzle(size, 1 + rng.below(6), givens, &mut rng);
            let mut solver = Solver::new(&puzzle).unwrap();
            let found = solver.candidates(2);
            for (cell, (&mask, &v)) in found.masks.iter().zip(&grid).enumerate() {
                assert!(
                    mask & (1 << (v - 1)) != 0,
                    "{size}x{size} case {case}: cell {cell} lost {v}; rules {:?}",
                    puzzle.constraints
                );
            }
            let first = solver.first().expect("the grid is a solution");
            assert!(puzzle.is_solved_by(&first), "{size}x{size} case {case}: {:?}", puzzle.constraints);
        }
    }
}

#[test]
fn counts_equal_a_brute_force_on_4x4() {
    let mut rng = Rng::new(0x5eed_0002);
    for case in 0..300 {
        let (puzzle, _) = random_puzzle(4, 1 + rng.below(4), rng.below(4), &mut rng);
        let expected = brute_force(&puzzle);
        let mut solver = Solver::new(&puzzle).unwrap();
        let mut seen = Vec::new();
        solver.for_each(|s| {
            seen.push(s.to_vec());
            std::ops::ControlFlow::Continue(())
        });
        seen.sort();
        assert_eq!(seen, expected, "case {case}: rules {:?}", puzzle.constraints);
        let candidates = solver.candidates(u64::MAX);
        let union: Vec<u16> = (0..16).map(|c| expected.iter().fold(0, |m, s| m | 1 << (s[c] - 1))).collect();
        assert_eq!(candidates.masks, union, "case {case}");
        assert_eq!(candidates.solutions, expected.len() as u64, "case {case}");
    }
}

#[test]
fn counts_equal_a_brute_force_on_6x6() {
    let mut rng = Rng::new(0x5eed_0003);
    for case in 0..60 {
        let (puzzle, _) = random_puzzle(6, 1 + rng.below(5), 10 + rng.below(6), &mut rng);
        let expected = brute_force(&puzzle);
        let mut solver = Solver::new(&puzzle).unwrap();
        let count = solver.count(None);
        assert_eq!(count.solutions, expected.len() as u64, "case {case}: rules {:?}", puzzle.constraints);
        assert!(count.complete);
    }
}

/// A random killer read off a random grid: cages of up to five touching
/// cells with different values cover most of the grid (a few cells left
/// out, a few cages without their total), with a few little killers and
/// `givens` givens. Dense cages are where the solver derives sums from
/// houses (innies and outies), so they are drawn here on purpose.
fn random_killer(size: usize, givens: usize, rng: &mut Rng) -> (Puzzle, Vec<u8>) {
    let shape = Shape::new(size).unwrap();
    let grid = random_grid(shape, rng);
    let mut puzzle = Puzzle::new(shape);
    let mut taken = vec![false; shape.cells()];
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    for &first in &order {
        if taken[first] || rng.below(12) == 0 {
            continue;
        }
        let mut cells = vec![first];
        taken[first] = true;
        for _ in 1..1 + rng.below(5) {
            let next: Vec<usize> = (0..shape.cells())
                .filter(|&c| !taken[c] && cells.iter().any(|&o| shape.orthogonal(o, c)))
                .filter(|&c| cells.iter().all(|&o| grid[o] != grid[c]))
                .collect();
            if next.is_empty() {
                break;
            }
            let c = next[rng.below(next.len())];
            taken[c] = true;
            cells.push(c);
        }
        let sum = (rng.below(10) > 0).then(|| sum(&grid, &cells));
        puzzle.constraints.push(Constraint::Cage { sum, cells });
    }
    for _ in 0..rng.below(3) {
        if let Some(cells) = regions::little_killer(shape, rng.below(shape.cells())) {
            puzzle.constraints.push(Constraint::LittleKiller { sum: sum(&grid, &cells), cells });
        }
    }
    rng.shuffle(&mut order);
    for &c in &order[..givens] {
        puzzle.candidates[c] = 1 << (grid[c] - 1);
    }
    (puzzle, grid)
}

#[test]
fn random_killers_keep_their_grid_and_count_as_a_brute_force() {
    let mut rng = Rng::new(0x5eed_0004);
    for case in 0..200 {
        let (puzzle, _) = random_killer(4, rng.below(3), &mut rng);
        let expected = brute_force(&puzzle);
        let count = Solver::new(&puzzle).unwrap().count(None);
        assert_eq!(count.solutions, expected.len() as u64, "4x4 case {case}: {:?}", puzzle.constraints);
    }
    for (size, cases) in [(6, 60), (8, 10), (9, 30)] {
        for case in 0..cases {
            let (puzzle, grid) = random_killer(size, rng.below(size), &mut rng);
            let mut solver = Solver::new(&puzzle).unwrap();
            let found = solver.candidates(2);
            for (cell, (&mask, &v)) in found.masks.iter().zip(&grid).enumerate() {
                assert!(mask & (1 << (v - 1)) != 0, "{size}x{size} case {case}: cell {cell} lost {v}; {:?}", puzzle);
            }
        }
    }
}
