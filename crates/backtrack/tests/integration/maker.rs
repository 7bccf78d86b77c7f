//! The puzzle maker: generated puzzles checked by the solvers (unique,
//! minimal, symmetric, reproducible), every explanation step checked
//! against the solution, each technique on crafted grids, and agreement
//! with Sudoku Explainer's ratings on the development set.

use backtrack::search::Mode;
use backtrack::sudoku::generate::{self, is_minimal, parse_band, Options, Symmetry, Target};
use backtrack::sudoku::rate::{explain_cells, rate_cells, RateError, Rater};
use backtrack::sudoku::score::Score;
use backtrack::sudoku::techniques::{
    bit, bug, fish, grouped_chains, grouped_links, intersections, singles, strong_links, subsets, unique, wings, Board,
    Tables, Technique, Words, ALL,
};
use backtrack::sudoku::{Puzzle, Solver};

use crate::common::n_threads;
use crate::common::rater::{at, cells_of, check_steps, data, expect, open_board, sorted};

fn puzzle_lines(name: &str) -> Vec<Vec<u8>> {
    data(name).lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(cells_of).collect()
}

/// Solutions counted up to 2 by the general kernel (a second, independent solver).
fn count_general(p: &Puzzle) -> u64 {
    let mut solver = Solver::general(p.box_size());
    let mut scratch = vec![0; p.cells().len()];
    solver.solve(p.cells(), Mode::Count { limit: Some(2) }, &mut scratch).count
}

fn options(seed: u64) -> Options {
    Options { seed, ..Options::new(3) }
}

#[test]
fn generated_9x9_puzzles_are_unique_and_minimal() {
    let puzzles = generate::generate(&options(11), 200, n_threads(2)).unwrap();
    assert_eq!(puzzles.len(), 200);
    let mut solver = Solver::new(3);
    for p in &puzzles {
        assert_eq!(backtrack::sudoku::solve(p, Mode::Count { limit: Some(2) }).count, 1, "{p}");
        assert_eq!(count_general(p), 1, "{p}");
        assert!(is_minimal(&mut solver, p.cells()), "{p}");
    }
    let distinct: std::collections::HashSet<&[u8]> = puzzles.iter().map(|p| p.cells()).collect();
    assert_eq!(distinct.len(), puzzles.len());
}

#[test]
fn generation_stops_once_cancelled_with_the_puzzles_found_so_far() {
    use backtrack::search::Control;
    // A filter no 9x9 puzzle meets: without the control this would make
    // 10^6 hopeless attempts per puzzle asked for.
    let hopeless = Options { max_clues: Some(16), max_attempts: 1_000_000, ..options(3) };
    let control = Control::new();
    let stopper = control.clone();
    let started = std::time::Instant::now();
    let mut seen = 0;
    let found = std::thread::scope(|scope| {
        scope.spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stopper.cancel();
        });
        generate::generate_until(&hopeless, 3, n_threads(2), &control, |_| seen += 1)
    });
    assert_eq!(found.map(|p| p.len()), Ok(0));
    assert_eq!(seen, 0);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    // An untouched control changes nothing: the same puzzles as generate().
    let same = generate::generate_until(&options(11), 5, n_threads(2), &Control::new(), |_| {}).unwrap();
    assert_eq!(same, generate::generate(&options(11), 5, n_threads(1)).unwrap());
}

#[test]
fn every_symmetry_holds_and_minimal_means_minimal() {
    let mut solver = Solver::new(3);
    for symmetry in Symmetry::ALL {
        let opts = Options { symmetry, minimal: true, ..options(5) };
        for p in generate::generate(&opts, 8, n_threads(2)).unwrap() {
            assert!(symmetry.holds(9, p.cells()), "{symmetry}: {p}");
            assert_eq!(count_general(&p), 1, "{symmetry}: {p}");
            assert!(is_minimal(&mut solver, p.cells()), "{symmetry}: {p}");
        }
    }
}

#[test]
fn symmetry_orbits_partition_the_grid_and_detect_asymmetry() {
    for side in [4, 9, 16, 25] {
        for symmetry in Symmetry::ALL {
            let mut seen = vec![0u32; side * side];
            for orbit in symmetry.orbits(side) {
                for i in orbit {
                    seen[i] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{symmetry} on {side}");
        }
    }
    let mut cells = vec![0u8; 81];
    cells[1] = 1;
    assert!(Symmetry::None.holds(9, &cells));
    for symmetry in &Symmetry::ALL[1..] {
        assert!(!symmetry.holds(9, &cells), "{symmetry}");
    }
    assert_eq!("rot180".parse::<Symmetry>(), Ok(Symmetry::Rot180));
    assert!("spiral".parse::<Symmetry>().is_err());
}

#[test]
fn same_seed_same_puzzles_whatever_the_threads() {
    let opts = Options { symmetry: Symmetry::Rot180, ..options(42) };
    let one = generate::generate(&opts, 30, n_threads(1)).unwrap();
    let two = generate::generate(&opts, 30, n_threads(2)).unwrap();
    let four = generate::generate(&opts, 30, n_threads(4)).unwrap();
    assert_eq!(one, two);
    assert_eq!(one, four);
    let other = generate::generate(&Options { seed: 43, ..opts.clone() }, 30, n_threads(1)).unwrap();
    assert_ne!(one, other);
    // A longer run starts with the shorter one.
    let more = generate::generate(&opts, 40, n_threads(2)).unwrap();
    assert_eq!(one[..], more[..30]);
}

#[test]
fn clue_limit_and_other_sizes() {
    let opts = Options { max_clues: Some(23), ..options(3) };
    for p in generate::generate(&opts, 10, n_threads(2)).unwrap() {
        assert!(p.cells().iter().filter(|&&v| v != 0).count() <= 23, "{p}");
        assert_eq!(count_general(&p), 1);
    }
    let mut solver = Solver::new(2);
    for p in generate::generate(&Options { seed: 9, ..Options::new(2) }, 30, n_threads(2)).unwrap() {
        assert_eq!(count_general(&p), 1, "{p}");
        assert!(is_minimal(&mut solver, p.cells()), "{p}");
    }
    let big = generate::generate(&Options { seed: 1, ..Options::new(4) }, 1, n_threads(2)).unwrap();
    assert_eq!(count_general(&big[0]), 1);
    assert!(is_minimal(&mut Solver::new(4), big[0].cells()));
    let impossible = Options { max_clues: Some(10), max_attempts: 3, ..options(1) };
    assert!(matches!(generate::generate(&impossible, 1, n_threads(1)), Err(generate::GenerateError::Exhausted { .. })));
}

#[test]
fn rating_and_technique_targets_are_met() {
    let opts = Options {
        target: Some(Target { rating: Some((Score::from_tenths(30), Score::from_tenths(39))), technique: None }),
        ..options(8)
    };
    for p in generate::generate(&opts, 3, n_threads(2)).unwrap() {
        let r = rate_cells(p.cells()).unwrap();
        assert!((30..=39).contains(&r.er.tenths()) && !r.beyond, "{p}: {r:?}");
    }
    let opts = Options { target: Some(Target { rating: None, technique: Some(Technique::XWing) }), ..options(8) };
    for p in generate::generate(&opts, 2, n_threads(2)).unwrap() {
        assert_eq!(rate_cells(p.cells()).unwrap().hardest, Some(Technique::XWing), "{p}");
    }
    assert_eq!(parse_band("7.0..8.0"), Ok((Score::from_tenths(70), Score::from_tenths(80))));
    assert_eq!(parse_band("2.3"), Ok((Score::from_tenths(23), Score::from_tenths(23))));
    assert_eq!(parse_band("..4.5"), Ok((Score::from_tenths(0), Score::from_tenths(45))));
    assert!(parse_band("5..4").is_err());
    assert!(parse_band("x..4").is_err());
    let sixteen = Options { target: opts.target.clone(), ..Options::new(4) };
    assert!(matches!(generate::generate(&sixteen, 1, n_threads(1)), Err(generate::GenerateError::Options(_))));
}

#[test]
fn every_step_agrees_with_the_solution() {
    let mut puzzles: Vec<Vec<u8>> =
        generate::generate(&options(2024), 1500, n_threads(2)).unwrap().into_iter().map(|p| p.into_cells()).collect();
    puzzles.extend(dev_set().into_iter().map(|(cells, _)| cells));
    puzzles.extend(puzzle_lines("royle_17_clue_200.txt"));
    // The forum's hardest puzzles take almost all of this test's time (about
    // a second each, the 2,300 above about a millisecond). By default: eight
    // of them, chosen because together they use every technique that any of
    // the 60 uses (the nested chains among them); all 60 with
    // BACKTRACK_LONG_TESTS=1.
    const FORUM_COVER: [usize; 8] = [1, 7, 15, 26, 44, 54, 57, 59];
    let forum = puzzle_lines("forum_hardest_60.txt");
    assert_eq!(forum.len(), 60);
    if crate::effort::long() {
        puzzles.extend(forum);
    } else {
        puzzles.extend(FORUM_COVER.iter().map(|&i| forum[i].clone()));
    }
    let mut used = std::collections::BTreeMap::new();
    let finished = puzzles.iter().filter(|p| check_steps(p, &mut used)).count();
    // Every technique was checked on real paths (direct claiming, BUG, the
    // quad-sized ones and X-cycles, which fish and strong links mostly
    // take first, are rare: the crafted grids cover them).
    for t in Technique::ALL {
        let rare = matches!(
            t,
            Technique::DirectClaiming
                | Technique::Bug
                | Technique::BugType2
                | Technique::BugType3
                | Technique::BugType4
                | Technique::GroupedThreeStrongLinks
                | Technique::HiddenQuad
                | Technique::Jellyfish
                | Technique::NakedQuad
                | Technique::XCycle
                // Checked on rated paths (see aligned_exclusion.rs).
                | Technique::AlignedPairExclusion
                | Technique::AlignedTripletExclusion
                // Checked on Sudoku Explainer's hardest bank puzzles (see forcing_chains.rs).
                | Technique::NishioForcingChain
                | Technique::DynamicForcingChain
                | Technique::DynamicForcingChainPlus
                | Technique::NestedForcingChain
                | Technique::NestedMultipleForcingChain
                // Checked on the forum's hardest puzzles (see nested_chains.rs).
                | Technique::NestedDynamicForcingChain
        );
        assert!(rare || used.get(&t).is_some_and(|&n| n > 0), "{t} never used: {used:?}");
    }
    // The forum puzzles chosen above still reach the nested chains.
    for t in [Technique::DynamicForcingChainPlus, Technique::NestedForcingChain, Technique::NestedMultipleForcingChain]
    {
        assert!(used.contains_key(&t), "{t} never used: {used:?}");
    }
    // Most puzzles are finished by the techniques (the rest stop honestly).
    assert!(finished * 4 >= puzzles.len() * 3, "{finished} of {}", puzzles.len());
}

#[test]
fn rating_refuses_puzzles_without_one_solution() {
    assert_eq!(rate_cells(&[0; 81]), Err(RateError::NotUnique));
    let mut clash = vec![0u8; 81];
    clash[0] = 5;
    clash[1] = 5;
    assert_eq!(rate_cells(&clash), Err(RateError::NoSolution));
    assert_eq!(rate_cells(&[0; 16]), Err(RateError::Size));
}

fn dev_set() -> Vec<(Vec<u8>, u16)> {
    data("se_rated_dev.tsv")
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let er = (fields[2].parse::<f64>().unwrap() * 10.0).round() as u16;
            (cells_of(fields[0]), er)
        })
        .collect()
}

#[test]
fn one_digit_finders_skipping_unchanged_digits_agree_with_full_searches_along_rated_paths() {
    // The `_in` forms of the one-digit finders skip the digits whose places
    // are as when they last found nothing; the `_where` forms look at
    // every digit. Called board after board along rated paths, where each
    // step changes a few digits, both must give the same steps.
    let mut compared = 0;
    // One rater along every path: what it remembers is used.
    let mut rater = Rater::new();
    for (cells, _) in dev_set().into_iter().step_by(4) {
        let explanation = explain_cells(&cells).unwrap();
        let mut board = Board::new(&cells).unwrap();
        for step in &explanation.steps {
            let t = Tables::new(&board);
            for k in 2..=4 {
                assert_eq!(
                    fish::fish_in(&mut rater, &board, &t, k, Words::Write),
                    fish::fish_where(&board, &t, k, Words::Write, &mut |_| true)
                );
            }
            for links in 2..=3 {
                assert_eq!(
                    strong_links::chain_in(&mut rater, &t, links, Words::Write),
                    strong_links::chain_where(&t, links, Words::Write, &mut |_| true)
                );
            }
            assert_eq!(
                strong_links::empty_rectangle_in(&mut rater, &t, Words::Write),
                strong_links::empty_rectangle_where(&t, Words::Write, &mut |_| true)
            );
            let grouped = grouped_links::grouped_or_empty_rectangle(&mut rater, &board, &t, Words::Write);
            let rectangle = strong_links::empty_rectangle_where(&t, Words::Write, &mut |_| true);
            let full = match (grouped_links::grouped_links(&board), rectangle) {
                (Some(g), Some(r)) => Some(if r.eliminations.len() > g.eliminations.len() { r } else { g }),
                (g, r) => g.or(r),
            };
            assert_eq!(grouped, full);
            let three = grouped_chains::grouped_three_links(&mut rater, &t, Words::Write);
            let fresh = grouped_chains::grouped_three_links(&mut Rater::new(), &t, Words::Write);
            assert_eq!(three, fresh);
            compared += 1;
            board.apply(step);
        }
    }
    assert!(compared > 1000, "{compared} boards");
}

#[test]
fn ratings_agree_with_sudoku_explainer_on_the_development_set() {
    // (band low, band high, share rated exactly as SE at least, in percent)
    let bands: [(u16, u16, usize); 8] = [
        (10, 15, 100),
        (16, 25, 100),
        (26, 39, 100),
        (40, 49, 98),
        (50, 59, 100),
        (60, 69, 100),
        (70, 79, 100),
        (80, 89, 100),
    ];
    let mut per_band = [(0usize, 0usize); 8];
    let mut all = (0usize, 0usize, 0usize);
    let mut above = 0usize;
    for (cells, er) in dev_set() {
        let ours = rate_cells(&cells).unwrap();
        let exact = !ours.beyond && ours.er.tenths() == er;
        all.0 += 1;
        all.1 += exact as usize;
        all.2 += (!ours.beyond && ours.er.tenths().abs_diff(er) <= 2) as usize;
        if let Some(i) = bands.iter().position(|&(lo, hi, _)| (lo..=hi).contains(&er)) {
            per_band[i].0 += 1;
            per_band[i].1 += exact as usize;
        }
        // A number far above SE's means SE found an easier technique that
        // this rater lacks.
        if !ours.beyond && ours.er.tenths() > er + 2 {
            above += 1;
        }
    }
    assert!(above * 100 <= all.0, "{above} ratings above SE's by more than 0.2");
    for (&(lo, hi, want), &(n, exact)) in bands.iter().zip(&per_band) {
        assert!(exact * 100 >= n * want, "SE {lo}..{hi}: {exact} of {n} exact, want {want}%");
    }
    assert!(all.1 * 1000 >= all.0 * 995, "{} of {} exact", all.1, all.0);
    assert!(all.2 * 1000 >= all.0 * 996, "{} of {} within 0.2", all.2, all.0);
}

#[test]
fn singles_on_crafted_grids() {
    let mut b = open_board();
    for c in 2..=9 {
        b.cands[at(4, c)] &= !bit(7);
    }
    let s = expect(singles::hidden_single(&b), Technique::HiddenSingle, 15);
    assert_eq!(s.placements, vec![(at(4, 1), 7)]);
    // In a box first.
    for i in [1, 2, 10, 11, 18, 19, 20, 9] {
        b.cands[i] &= !bit(3);
    }
    let s = expect(singles::hidden_single(&b), Technique::HiddenSingle, 12);
    assert_eq!(s.placements, vec![(0, 3)]);
    assert!(s.text.contains("r1c1"), "{}", s.text);
    let mut b = open_board();
    b.cands[at(5, 5)] = bit(4);
    let s = expect(singles::naked_single(&b), Technique::NakedSingle, 23);
    assert_eq!(s.placements, vec![(at(5, 5), 4)]);
}

#[test]
fn intersections_on_crafted_grids() {
    // Digit 6 of box 1 only in row 1: pointing removes it from r1c4..r1c9.
    let mut b = open_board();
    for r in 2..=3 {
        for c in 1..=3 {
            b.cands[at(r, c)] &= !bit(6);
        }
    }
    let s = expect(intersections::locking(&b), Technique::Pointing, 26);
    assert_eq!(sorted(s.eliminations), (4..=9).map(|c| (at(1, c), 6)).collect::<Vec<_>>());
    // If box 2's 6 could then only go in r2c5, that is a direct pointing.
    for (r, c) in [(2, 4), (2, 6), (3, 4), (3, 5), (3, 6)] {
        b.cands[at(r, c)] &= !bit(6);
    }
    let s = expect(intersections::direct(&b), Technique::DirectPointing, 17);
    assert_eq!(s.placements, vec![(at(2, 5), 6)]);
    // Claiming: digit 2 of row 5 only in box 4.
    let mut b = open_board();
    for c in 4..=9 {
        b.cands[at(5, c)] &= !bit(2);
    }
    let s = expect(intersections::locking(&b), Technique::Claiming, 28);
    assert_eq!(
        sorted(s.eliminations),
        vec![(at(4, 1), 2), (at(4, 2), 2), (at(4, 3), 2), (at(6, 1), 2), (at(6, 2), 2), (at(6, 3), 2)]
    );
}

#[test]
fn subsets_on_crafted_grids() {
    let mut b = open_board();
    b.cands[at(1, 1)] = bit(1) | bit(2);
    b.cands[at(1, 5)] = bit(1) | bit(2);
    let s = expect(subsets::naked(&b, 2), Technique::NakedPair, 30);
    assert_eq!(s.eliminations.len(), 14, "{}", s.text);
    assert!(s.eliminations.iter().all(|&(c, d)| c / 9 == 0 && (d == 1 || d == 2)));
    let mut b = open_board();
    for c in 3..=9 {
        b.cands[at(9, c)] &= !(bit(8) | bit(9));
    }
    let s = expect(subsets::hidden(&b, 2), Technique::HiddenPair, 34);
    assert_eq!(
        sorted(s.eliminations),
        (1..=7u8).flat_map(|d| [(at(9, 1), d), (at(9, 2), d)]).collect::<Vec<_>>().into_iter().fold(
            Vec::new(),
            |mut v, x| {
                v.push(x);
                v.sort_unstable();
                v
            }
        )
    );
    let mut b = open_board();
    for (r, c) in [(2, 2), (2, 7), (2, 9)] {
        b.cands[at(r, c)] = bit(3) | bit(5) | bit(7);
    }
    let s = expect(subsets::naked(&b, 3), Technique::NakedTriplet, 36);
    assert_eq!(s.eliminations.len(), 6 * 3);
}

#[test]
fn fish_on_crafted_grids() {
    let mut b = open_board();
    for r in [2, 6] {
        for c in 1..=9 {
            if c != 3 && c != 8 {
                b.cands[at(r, c)] &= !bit(5);
            }
        }
    }
    let s = expect(fish::fish(&b, 2), Technique::XWing, 32);
    assert_eq!(s.eliminations.len(), 14);
    assert!(s.eliminations.iter().all(|&(c, d)| d == 5 && (c % 9 == 2 || c % 9 == 7) && c / 9 != 1 && c / 9 != 5));
    let mut b = open_board();
    for (r, keep) in [(1, [1, 4]), (4, [4, 7]), (7, [1, 7])] {
        for c in 1..=9 {
            if !keep.contains(&c) {
                b.cands[at(r, c)] &= !bit(9);
            }
        }
    }
    let s = expect(fish::fish(&b, 3), Technique::Swordfish, 38);
    assert_eq!(s.eliminations.len(), 18);
}

#[test]
fn wings_links_and_uniqueness_on_crafted_grids() {
    let mut b = open_board();
    b.cands[at(1, 1)] = bit(1) | bit(2);
    b.cands[at(1, 5)] = bit(1) | bit(3);
    b.cands[at(5, 1)] = bit(2) | bit(3);
    let s = expect(wings::wing(&b, false), Technique::XYWing, 42);
    assert_eq!(s.eliminations, vec![(at(5, 5), 3)]);
    b.cands[at(1, 1)] = bit(1) | bit(2) | bit(3);
    b.cands[at(5, 1)] = bit(2) | bit(3);
    b.cands[at(2, 2)] = bit(2) | bit(3);
    b.cands[at(5, 1)] = ALL;
    let s = expect(wings::wing(&b, true), Technique::XYZWing, 44);
    assert_eq!(s.eliminations, vec![(at(1, 2), 3), (at(1, 3), 3)]);
    // Skyscraper on 4: rows 1 and 5 each have two places, sharing column 2.
    let mut b = open_board();
    for (r, keep) in [(1, [2, 5]), (5, [2, 6])] {
        for c in 1..=9 {
            if !keep.contains(&c) {
                b.cands[at(r, c)] &= !bit(4);
            }
        }
    }
    let s = expect(strong_links::chain(&b, 2), Technique::Skyscraper, 40);
    assert_eq!(sorted(s.eliminations), vec![(at(2, 6), 4), (at(3, 6), 4), (at(4, 5), 4), (at(6, 5), 4)], "{}", s.text);
    // Unique rectangle type 1 on r1c1, r1c4, r2c1, r2c4.
    let mut b = open_board();
    for (r, c) in [(1, 1), (1, 4), (2, 1)] {
        b.cands[at(r, c)] = bit(6) | bit(8);
    }
    let s = expect(unique::unique_loop(&b), Technique::UniqueRectangle, 45);
    assert_eq!(sorted(s.eliminations), vec![(at(2, 4), 6), (at(2, 4), 8)]);
}

#[test]
fn bug_on_a_crafted_grid() {
    // A solved grid with eight cells opened as pairs and one as a triple.
    let solution = cells_of("534678912672195348198342567859761423426853791713924856961537284287419635345286179");
    let mut b = Board::new(&solution).unwrap();
    assert!(bug::bug(&b).is_none(), "a solved grid has no BUG");
    b.values[0] = 0;
    b.cands[0] = bit(5) | bit(3) | bit(6);
    assert!(bug::bug(&b).is_none(), "one open cell with three candidates is no BUG pattern");
}

#[test]
fn names_read_back() {
    for t in Technique::ALL {
        assert_eq!(t.slug().parse::<Technique>(), Ok(t));
        assert_eq!(t.name().parse::<Technique>(), Ok(t));
    }
    assert_eq!("xwing".parse::<Technique>(), Ok(Technique::XWing));
    assert!("nishio".parse::<Technique>().is_err());
    assert_eq!(Score::from_tenths(72).to_string(), "7.2");
    for t in Technique::ALL {
        let slug = t.slug();
        assert!(slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{slug}");
        assert!(!slug.starts_with('-') && !slug.ends_with('-') && !slug.contains("--"), "{slug}");
    }
    // Unknown names: a short message, with the names that hold the word.
    let near = "nishio".parse::<Technique>().unwrap_err().to_string();
    assert!(near.contains("did you mean nishio-forcing-chain?"), "{near}");
    let far = "x".repeat(5000).parse::<Technique>().unwrap_err().to_string();
    assert!(far.contains("--help") && far.len() < 200, "{far}");
    let many = "chain".parse::<Technique>().unwrap_err().to_string();
    assert!(many.len() < 300 && many.contains("forcing-chain"), "{many}");
}

#[test]
fn chain_length_bonus_follows_the_se_steps() {
    use backtrack::sudoku::techniques::chains::length_bonus;
    let bonus: Vec<u16> = (2..=27).map(|nodes| length_bonus(nodes).tenths()).collect();
    // nodes:      2..=6 | 7,8 | 9,10 | 11..=14 | 15..=18 | 19..=26 | 27
    let want: Vec<u16> = [vec![0; 5], vec![1; 2], vec![2; 2], vec![3; 4], vec![4; 4], vec![5; 8], vec![6]].concat();
    assert_eq!(bonus, want);
}
