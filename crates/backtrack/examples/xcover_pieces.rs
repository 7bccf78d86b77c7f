//! How evenly a parallel count's pieces share the work.
//!
//! Cuts an exact cover problem into prefix pieces as a parallel count does,
//! times the count of every piece on one thread, and reports the pieces'
//! sizes and the finishing time that handing them out in order to `T`
//! threads would give, against a perfect split of the same total:
//!
//! ```sh
//! cargo run --release --example xcover_pieces -- tests/data/xcover/pentomino-5x12.dlx 128 2
//! ```

use std::time::Instant;

use backtrack::search::{replay, split_into, Control, Order, Threads};
use backtrack::xcover::parse;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, target, threads] = &args[..] else {
        eprintln!("usage: xcover_pieces FILE TARGET_PIECES THREADS");
        std::process::exit(2);
    };
    let target: usize = target.parse().expect("TARGET_PIECES: a number");
    let threads: usize = threads.parse().expect("THREADS: a number");
    let text = std::fs::read_to_string(file).expect("readable file");
    let problem = parse(&text).expect("a problem in Knuth's format").problem;
    let mut root = problem.space();
    let started = Instant::now();
    let whole = root.count_solutions(None, Threads::ONE, &Control::new()).unwrap();
    let whole_s = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let pieces = split_into(&mut root.clone(), Order::Heuristic, target);
    let split_s = started.elapsed().as_secs_f64();
    let mut times = Vec::with_capacity(pieces.len());
    let mut total_count = 0;
    for piece in &pieces {
        let started = Instant::now();
        let mut space = root.clone();
        assert!(replay(&mut space, Order::Heuristic, piece));
        total_count += space.count_solutions(None, Threads::ONE, &Control::new()).unwrap().0;
        times.push(started.elapsed().as_secs_f64());
    }
    assert_eq!(total_count, whole.0, "pieces must add up to the whole count");
    let sum: f64 = times.iter().sum();
    let max = times.iter().cloned().fold(0.0, f64::max);
    // Pieces handed out in order to whichever thread is free first.
    let mut free_at = vec![0.0f64; threads];
    for t in &times {
        let first = free_at.iter_mut().min_by(|a, b| a.total_cmp(b)).expect("a thread");
        *first += t;
    }
    let makespan = free_at.iter().cloned().fold(0.0, f64::max);
    let depths: Vec<usize> = pieces.iter().map(|p| p.len()).collect();
    println!(
        "{} solutions; whole {whole_s:.3} s; split {split_s:.4} s into {} pieces (depth {}..={}); \
         pieces sum {sum:.3} s, largest {max:.4} s; {threads} threads in order: {makespan:.3} s, \
         perfect {:.3} s, speedup bound {:.2}x",
        whole.0,
        pieces.len(),
        depths.iter().min().unwrap_or(&0),
        depths.iter().max().unwrap_or(&0),
        sum / threads as f64,
        whole_s / (makespan + split_s),
    );
}
