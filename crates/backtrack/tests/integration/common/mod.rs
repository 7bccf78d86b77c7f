//! What the library's test modules share: a seeded random generator, so
//! that a failing case reproduces, and brute-force oracles written the slow,
//! obvious way, independently of the solvers under test; the rater's
//! helpers are in [`rater`].

pub mod rater;

/// The library's seeded generator: test cases come from one seed, so a
/// failure reproduces.
pub use backtrack::rng::Rng;

/// Whether `grid` (side `n`, box `b`) has no repeated digit in a unit,
/// checked the slow obvious way.
pub fn no_repeats(b: usize, grid: &[u8]) -> bool {
    let n = b * b;
    let unit_ok = |cells: Vec<usize>| {
        let mut seen = vec![false; n + 1];
        cells.into_iter().all(|i| {
            let v = grid[i] as usize;
            if v == 0 {
                return true;
            }
            !std::mem::replace(&mut seen[v], true)
        })
    };
    (0..n).all(|r| unit_ok((0..n).map(|c| r * n + c).collect()))
        && (0..n).all(|c| unit_ok((0..n).map(|r| r * n + c).collect()))
        && (0..n).all(|k| {
            let (r0, c0) = (k / b * b, k % b * b);
            unit_ok((0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect())
        })
}

/// Plain row-major backtracking: solutions of `grid` in increasing order,
/// at most `limit` of them.
pub fn naive_solutions(b: usize, grid: &mut [u8], limit: usize) -> Vec<Vec<u8>> {
    fn ok(b: usize, grid: &[u8], at: usize, v: u8) -> bool {
        let n = b * b;
        let (r, c) = (at / n, at % n);
        let (r0, c0) = (r / b * b, c / b * b);
        (0..n).all(|k| grid[r * n + k] != v && grid[k * n + c] != v && grid[(r0 + k / b) * n + c0 + k % b] != v)
    }
    fn walk(b: usize, grid: &mut [u8], out: &mut Vec<Vec<u8>>, limit: usize) {
        let Some(at) = grid.iter().position(|&v| v == 0) else {
            out.push(grid.to_vec());
            return;
        };
        for v in 1..=(b * b) as u8 {
            if out.len() >= limit {
                return;
            }
            if ok(b, grid, at, v) {
                grid[at] = v;
                walk(b, grid, out, limit);
                grid[at] = 0;
            }
        }
    }
    let mut out = Vec::new();
    if no_repeats(b, grid) {
        walk(b, grid, &mut out, limit);
    }
    out
}

/// `n` threads, 1 to [`Threads::MAX`](backtrack::search::Threads::MAX).
pub fn n_threads(n: usize) -> backtrack::search::Threads {
    backtrack::search::Threads::new(n).expect("a thread count in range")
}
