//! Our solver against ISS's answers on its collections
//! (`tests/data/variant/*.tsv`: each puzzle with ISS's solution, recorded
//! by the collection or printed by ISS; the files' headers say which).
//!
//! What this covers: every fixture row is checked to be well formed (a
//! puzzle and an 81-digit solution), and for the puzzles listed in
//! [`COVERED`], the ones our solver proves unique in about a second or
//! less (release build), that it finds exactly one solution and that it is
//! ISS's. The other puzzles are left out only because they take the solver
//! seconds to minutes; widen [`COVERED`] as the solver gets faster.

use backtrack::variant::{parse_line, Solver};

/// Fixture file and the indices (from 0, comment lines not counted) of
/// the puzzles checked against ISS's solutions.
const COVERED: &[(&str, &[usize])] = &[
    (
        "tarek_all.tsv",
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
            29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
        ],
    ),
    ("mathemagic_killers.tsv", &[]),
    ("hs_killers.tsv", &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
    ("extreme_killers.tsv", &[0, 1, 2, 3]),
    ("hard_thermos.tsv", &[0, 1, 2]),
    ("hard_renban.tsv", &[2]),
    ("little_killer_snipes.tsv", &[0, 1, 2, 3, 4, 5, 6, 7, 8, 14]),
    ("hard_pencilmarks.tsv", &[0, 1, 2, 3, 4]),
];

/// A fixture's rows: name, puzzle and ISS's solution.
fn rows(file: &str) -> Vec<(String, String, String)> {
    let path = format!("{}/../../tests/data/variant/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(text.starts_with("# ISS's "), "{path}: the header says where the puzzles come from");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            assert_eq!(fields.len(), 3, "{path}: {l}");
            (fields[0].to_string(), fields[1].to_string(), fields[2].to_string())
        })
        .collect()
}

#[test]
fn iss_fixtures_are_well_formed() {
    let sizes = [42, 14, 9, 4, 3, 3, 15, 7];
    for (&(file, _), size) in COVERED.iter().zip(sizes) {
        let rows = rows(file);
        assert_eq!(rows.len(), size, "{file}");
        for (name, puzzle, solution) in rows {
            assert!(!puzzle.is_empty(), "{file}: {name}");
            assert!(solution.len() == 81 && solution.bytes().all(|b| (b'1'..=b'9').contains(&b)), "{file}: {name}");
        }
    }
}

#[test]
fn unique_solutions_agree_with_iss_on_the_covered_puzzles() {
    let mut checked = 0;
    for &(file, covered) in COVERED {
        let rows = rows(file);
        for &k in covered {
            let (name, text, iss) = &rows[k];
            let puzzle = parse_line(text, 1).unwrap_or_else(|e| panic!("{file} #{k} {name}: {e}"));
            let count = Solver::new(&puzzle).expect("compiles").count(Some(2));
            assert_eq!((count.solutions, count.complete), (1, true), "{file} #{k} {name}");
            let ours: String = count.first.expect("a solution").iter().map(|&v| char::from(b'0' + v)).collect();
            assert_eq!(&ours, iss, "{file} #{k} {name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 74);
}
