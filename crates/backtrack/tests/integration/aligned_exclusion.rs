//! Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5): on
//! crafted grids, against a plain search written straight from the rule on
//! the boards of rated paths (and damaged copies of them), and on puzzles
//! whose Sudoku Explainer path uses a triplet exclusion.

use std::collections::BTreeMap;

use crate::common::rater::{at, cells_of, check_steps, data, open_board, sorted};
use crate::common::Rng;
use backtrack::sudoku::rate::{explain_cells, rate_cells, Rater};
use backtrack::sudoku::techniques::{aligned, bit, find_all, Board, Technique, Words};

#[test]
fn aligned_pair_exclusion_on_a_crafted_grid() {
    // r1c1 and r1c2 (same row) hold 1, 2 or 3; r1c5 {1,2} and r2c3 {1,3}
    // see both. Giving them 1 and 2 empties r1c5, 1 and 3 empties r2c3, so
    // neither can be 1.
    let mut b = open_board();
    b.cands[at(1, 1)] = bit(1) | bit(2) | bit(3);
    b.cands[at(1, 2)] = bit(1) | bit(2) | bit(3);
    b.cands[at(1, 5)] = bit(1) | bit(2);
    b.cands[at(2, 3)] = bit(1) | bit(3);
    let s = aligned::exclusion(&mut Rater::new(), &b, 2, Words::Write).expect("a pair exclusion");
    assert_eq!((s.technique, s.rating.tenths()), (Technique::AlignedPairExclusion, 62), "{}", s.text);
    assert_eq!(sorted(s.eliminations.clone()), vec![(at(1, 1), 1), (at(1, 2), 1)], "{}", s.text);
    assert_eq!(Some(sorted(s.eliminations)), plain(&b, 2));
    // r1c3 (any digit) with r1c1 or with r1c2: 1 in r1c3 leaves the other
    // cell 2 or 3, which empties one excluder, so r1c3 is not 1 either.
    let all: Vec<Vec<(usize, u8)>> =
        find_all(&b, Technique::AlignedPairExclusion).into_iter().map(|s| sorted(s.eliminations)).collect();
    assert_eq!(all, vec![vec![(at(1, 1), 1), (at(1, 2), 1)], vec![(at(1, 3), 1)], vec![(at(1, 3), 1)]]);
    // With r2c3 {1,4}, 1 and 3 empty no excluder: nothing to remove.
    b.cands[at(2, 3)] = bit(1) | bit(4);
    assert!(aligned::exclusion(&mut Rater::new(), &b, 2, Words::Write).is_none());
}

#[test]
fn aligned_triplet_exclusion_on_a_crafted_grid() {
    // r1c1 {1,4}, r1c4 {2,4}, r1c7 {3,4} in row 1, which also holds
    // r1c2 {1,2,3} and r1c5 {2,4}. Of the ways to give the three cells
    // different digits, 1-2-3 empties r1c2, 1-2-4 and 4-2-3 empty r1c5;
    // only 1-4-3 is left.
    let mut b = open_board();
    b.cands[at(1, 1)] = bit(1) | bit(4);
    b.cands[at(1, 4)] = bit(2) | bit(4);
    b.cands[at(1, 7)] = bit(3) | bit(4);
    b.cands[at(1, 2)] = bit(1) | bit(2) | bit(3);
    b.cands[at(1, 5)] = bit(2) | bit(4);
    let want = vec![(at(1, 1), 4), (at(1, 4), 2), (at(1, 7), 4)];
    let steps = find_all(&b, Technique::AlignedTripletExclusion);
    assert!(steps.iter().all(|s| s.rating.tenths() == 75 && s.placements.is_empty()));
    assert!(steps.iter().any(|s| sorted(s.eliminations.clone()) == want), "{steps:?}");
    // Pairs see only the excluders of two candidates: r1c5 alone is common.
    let pairs = find_all(&b, Technique::AlignedPairExclusion);
    assert!(pairs.iter().all(|s| sorted(s.eliminations.clone()) != want));
    // Every step agrees with the plain search's choice.
    let first = aligned::exclusion(&mut Rater::new(), &b, 3, Words::Write).expect("a triplet exclusion");
    assert_eq!(Some(sorted(first.eliminations)), plain(&b, 3));
}

/// Whether two cells share a row, a column or a box.
fn see(x: usize, y: usize) -> bool {
    x != y && (x / 9 == y / 9 || x % 9 == y % 9 || (x / 27 == y / 27 && x % 9 / 3 == y % 9 / 3))
}

/// The eliminations of the first aligned exclusion of `size` cells, found
/// the slow, obvious way from the rule and Sudoku Explainer's order.
fn plain(b: &Board, size: usize) -> Option<Vec<(usize, u8)>> {
    let count = |c: usize| b.cands[c].count_ones() as usize;
    let digits = |c: usize| (1..=9u8).filter(move |&d| b.cands[c] & bit(d) != 0).collect::<Vec<_>>();
    let mut bases: Vec<usize> = Vec::new();
    let mut excluders: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for cell in 0..81 {
        let peers: Vec<usize> = (0..81).filter(|&p| see(cell, p)).collect();
        let list: Vec<usize> = peers.iter().copied().filter(|&p| (2..=size).contains(&count(p))).collect();
        if count(cell) >= 2 && peers.iter().all(|&p| count(p) != 1) && !list.is_empty() {
            bases.push(cell);
            excluders.insert(cell, list);
        }
    }
    for j in 1..bases.len() {
        for i in 0..j {
            let (x, y) = (bases[i], bases[j]);
            let mut sets: Vec<Vec<usize>> = Vec::new();
            if size == 2 {
                sets.push(vec![x, y]);
            } else {
                let mut tails: Vec<usize> = Vec::new();
                for &t in excluders[&x].iter().chain(&excluders[&y]) {
                    if t != x && t != y && bases.contains(&t) && !tails.contains(&t) {
                        tails.push(t);
                    }
                }
                sets.extend(tails.into_iter().map(|t| vec![x, y, t]));
            }
            for cells in sets {
                let common: Vec<usize> = excluders[&cells[0]]
                    .iter()
                    .copied()
                    .filter(|e| cells.iter().all(|c| excluders[c].contains(e)))
                    .collect();
                if common.len() < 2 {
                    continue;
                }
                // Every way of filling the cells, one digit each.
                let mut ways: Vec<Vec<u8>> = vec![vec![]];
                for &c in &cells {
                    ways = ways
                        .into_iter()
                        .flat_map(|w| digits(c).into_iter().map(move |d| [&w[..], &[d]].concat()))
                        .collect();
                }
                let mut used = vec![0u16; cells.len()];
                for way in ways {
                    let clash = (0..cells.len()).any(|p| (0..p).any(|q| way[p] == way[q] && see(cells[p], cells[q])));
                    let emptied = common.iter().any(|&e| digits(e).iter().all(|d| way.contains(d)));
                    if !clash && !emptied {
                        for (u, &d) in used.iter_mut().zip(&way) {
                            *u |= bit(d);
                        }
                    }
                }
                let mut gone = Vec::new();
                for (k, &c) in cells.iter().enumerate() {
                    gone.extend(digits(c).into_iter().filter(|&d| used[k] & bit(d) == 0).map(|d| (c, d)));
                }
                if !gone.is_empty() {
                    gone.sort_unstable();
                    return Some(gone);
                }
            }
        }
    }
    None
}

/// Puzzles of the Sudoku Exchange bank and of the forum's hardest whose
/// Sudoku Explainer path has an aligned triplet exclusion, with its rating
/// (ER/EP/ED, in tenths), checked against Sudoku Explainer's own path.
const TRIPLETS_ON_PATHS: [(&str, [u16; 3]); 9] = [
    ("......2...42..5.133..82..75..7..6...13.....68...3..1..29..78..157.9..82...1......", [83, 12, 12]),
    ("..1.2.4.....4.9...7..6.8..5.748.139.1.......6.357.214.2..1.7..4...5.6.....7.8.6..", [75, 12, 12]),
    ("..2....9.89...157..3..9...6.7..1......54.67......5..1.4...2..5..539...81.8....6..", [83, 12, 12]),
    ("..28..3..89......23..2.7.....8....164...8..7...5....245..7.6...94......5..34..1..", [84, 12, 12]),
    ("..79.68...56...91.....8....7...5...2.8.2.1.9.6..7.3..8.6.....7...98.53......2....", [89, 12, 12]),
    (".27...61.1..6....56....3..9..3.2..7....1.8....6..4.2..3..7....25....2..7.82...93.", [75, 12, 12]),
    (".8.....2.5.6...9.4..7...3....3...5..9...1...7...243......4.6....419.587.6...7...3", [75, 12, 12]),
    ("6...8...7...264......7.9...91.....427.8...9.13.2...5.6..7.9.2..5...2...82..8.7..5", [83, 12, 12]),
    ("7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4", [89, 12, 12]),
];

#[test]
fn aligned_triplets_on_rated_paths() {
    for (line, [er, ep, ed]) in TRIPLETS_ON_PATHS {
        let cells = cells_of(line);
        let mut used = BTreeMap::new();
        assert!(check_steps(&cells, &mut used), "{line}: not finished");
        assert!(used.contains_key(&Technique::AlignedTripletExclusion), "{line}: {used:?}");
        let e = explain_cells(&cells).unwrap();
        assert_eq!(
            (e.rating.er.tenths(), e.rating.ep.map(|r| r.tenths()), e.rating.ed.map(|r| r.tenths())),
            (er, Some(ep), Some(ed)),
            "{line}"
        );
    }
}

/// Puzzles made by `backtrack sudoku generate --technique
/// aligned-pair-exclusion` whose Sudoku Explainer path has an aligned pair
/// exclusion on the same cells, with its rating (ER/EP/ED, in tenths).
const PAIRS_ON_PATHS: [(&str, [u16; 3]); 5] = [
    ("245.1......8...1.........7....48......4....35617..9........52.8.9.7...46......7..", [62, 12, 12]),
    ("...13...6..8..4..9....9..3.6......8..9362...7.1.......3........26...5.4....2..5.8", [62, 12, 12]),
    (".....1...2...9...3.3..4.2..6..823..7..15....29.....8..79....36.........5..6.....8", [62, 12, 12]),
    ("..5.4.7....6...9.8..9.6.....58...1..3..7...9.4...56...1.49276.....4..........5...", [62, 12, 12]),
    ("...27.6...2.4..7..6.......3.5.6...1.7.....9..8.15..4.7.3......8..8..93....7.2....", [62, 12, 12]),
];

#[test]
fn aligned_pairs_on_rated_paths() {
    for (line, [er, ep, ed]) in PAIRS_ON_PATHS {
        let cells = cells_of(line);
        let mut used = BTreeMap::new();
        assert!(check_steps(&cells, &mut used), "{line}: not finished");
        let e = explain_cells(&cells).unwrap();
        assert_eq!(
            (e.rating.er.tenths(), e.rating.ep.map(|r| r.tenths()), e.rating.ed.map(|r| r.tenths())),
            (er, Some(ep), Some(ed)),
            "{line}"
        );
        assert_eq!(e.rating.hardest, Some(Technique::AlignedPairExclusion), "{line}");
    }
}

#[test]
fn bank_puzzles_rated_7_5_to_7_9_agree_with_sudoku_explainer() {
    // Two of these fifteen need an aligned triplet exclusion where the
    // forcing chains alone would give 8.3.
    let mut n = 0;
    for line in data("se_bank_chains.tsv").lines() {
        let (puzzle, er) = line.split_once('\t').unwrap();
        let er = (er.parse::<f64>().unwrap() * 10.0).round() as u16;
        if (75..=79).contains(&er) {
            n += 1;
            assert_eq!(rate_cells(&cells_of(puzzle)).unwrap().er.tenths(), er, "{puzzle}");
        }
    }
    assert_eq!(n, 15);
}

#[test]
fn aligned_exclusions_agree_with_a_plain_search() {
    // The boards met on rated paths, and copies with candidates taken away
    // at random (more cells of two or three candidates, more excluders).
    let mut rng = Rng::new(0x0a11_9ed5);
    let (mut boards, mut found) = (0usize, [0usize; 2]);
    // One rater throughout: each search skips what the last one, on
    // another board, found nothing in.
    let mut rater = Rater::new();
    for (line, _) in TRIPLETS_ON_PATHS.iter().take(5) {
        let e = explain_cells(&cells_of(line)).unwrap();
        let mut board = Board::new(&cells_of(line)).unwrap();
        for (n, step) in e.steps.iter().enumerate() {
            if n % 3 == 0 {
                let mut damaged = board.clone();
                for _ in 0..12 {
                    let c = rng.below(81);
                    let m = damaged.cands[c];
                    if m.count_ones() >= 3 {
                        damaged.cands[c] = m & (m - 1);
                    }
                }
                for b in [&board, &damaged] {
                    boards += 1;
                    for (k, size) in [2, 3].into_iter().enumerate() {
                        let ours =
                            aligned::exclusion(&mut rater, b, size, Words::Write).map(|s| sorted(s.eliminations));
                        assert_eq!(ours, plain(b, size), "size {size} on {:?}", b.cands);
                        found[k] += ours.is_some() as usize;
                    }
                }
            }
            board.apply(step);
        }
    }
    assert!(boards > 100 && found[0] >= 5 && found[1] >= 20, "{boards} boards, {found:?} found");
}
