//! Our solver against ISS's answers on its collections
//! (`tests/data/variant/*.tsv`: each puzzle with ISS's solution, recorded
//! by the collection or printed by ISS; the files' headers say which).
//!
//! What this covers: every fixture row is checked to be well formed (a
//! puzzle and an 81-digit solution), and for the puzzles listed in
//! [`COVERED`], the ones our solver proves unique in under 15,000 guesses
//! today, that it finds exactly one solution and that it is ISS's. The
//! other puzzles are left out only because they take the solver seconds to
//! minutes (or, for the SudokuWiki killer strings of HS_KILLERS and
//! EXTREME_KILLERS, because the reader does not take them yet); widen
//! [`COVERED`] as the solver gets faster.

use backtrack::variant::{parse_line, Solver};

/// Fixture file and the indices (from 0, comment lines not counted) of
/// the puzzles checked against ISS's solutions.
const COVERED: &[(&str, &[usize])] = &[
    ("tarek_all.tsv", &[23, 25, 27]),
    ("mathemagic_killers.tsv", &[]),
    ("hs_killers.tsv", &[]),
    ("extreme_killers.tsv", &[]),
    ("hard_thermos.tsv", &[]),
    ("hard_renban.tsv", &[]),
    ("little_killer_snipes.tsv", &[4, 6]),
    ("hard_pencilmarks.tsv", &[]),
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
    assert_eq!(checked, 5);
}
