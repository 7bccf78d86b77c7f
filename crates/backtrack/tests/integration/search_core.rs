//! The search core on a toy space whose answers are known in closed form:
//! subsets of {0..n} of size k, chosen in increasing order, as a tree.

use std::ops::ControlFlow;

use backtrack::search::{par_count, par_for_each, split, Control, End, Mode, Node, Order, Search, Space};
use proptest::prelude::*;

use crate::common::n_threads;

/// k-subsets of 0..n, built one element at a time in increasing order.
#[derive(Clone)]
struct Subsets {
    n: u8,
    k: usize,
    chosen: Vec<u8>,
}

impl Space for Subsets {
    type Branch = u8;
    type Choice = u8;
    type Solution = Vec<u8>;
    fn expand(&mut self, _order: Order) -> Node<u8> {
        if self.chosen.len() == self.k {
            return Node::Solution;
        }
        let next = self.chosen.last().map_or(0, |&x| x + 1);
        if (self.n - next) as usize >= self.k - self.chosen.len() {
            Node::Branch(next)
        } else {
            Node::Dead
        }
    }
    fn next_choice(&mut self, next: &mut u8) -> Option<u8> {
        (*next < self.n).then(|| {
            *next += 1;
            *next - 1
        })
    }
    fn push(&mut self, x: u8) -> bool {
        self.chosen.push(x);
        true
    }
    fn pop(&mut self) {
        self.chosen.pop();
    }
    fn solution(&self) -> Vec<u8> {
        self.chosen.clone()
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Every k-subset of 0..n in lexicographic order, by a plain counter.
fn brute_subsets(n: u8, k: usize) -> Vec<Vec<u8>> {
    (0u32..1 << n)
        .filter(|m| m.count_ones() as usize == k)
        .map(|m| (0..n).filter(|i| m >> i & 1 == 1).collect::<Vec<u8>>())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

proptest! {
    #[test]
    fn modes_agree_with_closed_forms(n in 0u8..12, k in 0usize..6) {
        let space = Subsets { n, k, chosen: vec![] };
        let total = binomial(n as u64, k as u64);
        prop_assert_eq!(Search::new(space.clone()).count(None), total);
        prop_assert_eq!(Search::new(space.clone()).count(Some(3)), total.min(3));
        let mut all = vec![];
        let end = Search::new(space.clone()).for_each(|s| { all.push(s); ControlFlow::Continue(()) });
        prop_assert_eq!(end, End::Exhausted);
        prop_assert_eq!(&all, &brute_subsets(n, k));
        prop_assert_eq!(Search::new(space.clone()).lex_first(), all.first().cloned());
        let (count, _) = Search::new(space).run(Mode::Count { limit: None }, |_| {});
        prop_assert_eq!(count, total);
    }

    #[test]
    fn split_pieces_partition_the_tree(n in 0u8..11, k in 0usize..5, depth in 0usize..4) {
        let mut root = Subsets { n, k, chosen: vec![] };
        let pieces = split(&mut root, Order::Heuristic, depth);
        prop_assert!(root.chosen.is_empty(), "split must leave the root as it found it");
        let mut concatenated = vec![];
        for piece in &pieces {
            let mut space = root.clone();
            prop_assert!(backtrack::search::replay(&mut space, Order::Heuristic, piece));
            Search::new(space).for_each(|s| { concatenated.push(s); ControlFlow::Continue(()) });
        }
        prop_assert_eq!(concatenated, brute_subsets(n, k));
    }
}

#[test]
fn parallel_count_and_ordered_enumeration_match_sequential() {
    for threads in [1, 2, 3] {
        let space = Subsets { n: 16, k: 6, chosen: vec![] };
        let (count, stats) = par_count(&space, Order::Heuristic, None, n_threads(threads), &Control::new()).unwrap();
        assert_eq!(count, binomial(16, 6));
        assert_eq!(stats.solutions, binomial(16, 6));
        let (limited, _) = par_count(&space, Order::Heuristic, Some(10), n_threads(threads), &Control::new()).unwrap();
        assert_eq!(limited, 10);
        let mut all = vec![];
        par_for_each(&space, Order::Heuristic, n_threads(threads), |s| {
            all.push(s);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(all, brute_subsets(16, 6));
    }
}

#[test]
fn stopping_early_restores_the_root_and_counts_stats() {
    let mut search = Search::new(Subsets { n: 10, k: 3, chosen: vec![] });
    assert_eq!(search.first(), Some(vec![0, 1, 2]));
    assert!(search.space().chosen.is_empty());
    assert_eq!(search.stats().solutions, 1);
    assert_eq!(search.count(None), 120);
    assert!(search.stats().nodes > 120);
}

#[test]
fn a_cancelled_control_stops_the_walk() {
    let control = Control::new();
    control.cancel();
    let mut search = Search::new(Subsets { n: 30, k: 15, chosen: vec![] }).control(control);
    let end = search.for_each(|_| ControlFlow::Continue(()));
    assert_eq!(end, End::Cancelled);
    assert!(search.space().chosen.is_empty());
}
