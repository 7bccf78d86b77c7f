//! Unit tests of the text formats and the conflict scans.

use super::conflicts::{givens_conflict_9, non_blank_81, scan_conflict};
#[cfg(target_arch = "x86_64")]
use super::read::read_nine_sse2;
use super::read::read_symbols;
use super::*;
use crate::rng::Rng;

#[test]
fn givens_check_agrees_with_the_full_scan() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut seen = [0usize; 2];
    for _ in 0..20_000 {
        // 5 to 40 givens at random cells: some grids clash, some do not.
        let mut cells = [0u8; 81];
        let givens = 5 + rng.next_u64() % 36;
        for _ in 0..givens {
            let r = rng.next_u64();
            cells[(r % 81) as usize] = 1 + (r >> 8) as u8 % 9;
        }
        let clash = givens_conflict_9(&cells);
        assert_eq!(clash, scan_conflict::<3, 9>(&cells).is_some(), "{cells:?}");
        assert_eq!(find_conflict(3, &cells).is_some(), clash);
        seen[usize::from(clash)] += 1;
    }
    assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
    // Values past 9 go to the full scan, which does not panic on them.
    let mut cells = [0u8; 81];
    cells[3] = 12;
    assert!(givens_conflict_9(&cells));
    assert_eq!(non_blank_81(&cells), 1 << 3);
}

#[test]
fn nine_by_nine_lines_read_alike_both_ways() {
    let mut rng = Rng::new(0x0f0f_1234_abcd_9876);
    let alphabet = b".0123456789x:/ A";
    for k in 0..20_000u32 {
        let mut line = [b'.'; 81];
        for b in line.iter_mut() {
            let r = rng.next_u64();
            // Mostly digits and dots; now and then one bad byte.
            *b = if k.is_multiple_of(4) && r.is_multiple_of(97) {
                alphabet[(r >> 8) as usize % 16]
            } else {
                alphabet[(r >> 8) as usize % 11]
            };
        }
        let mut slow = [0u8; 81];
        let expected: Option<[u8; 81]> = line
            .iter()
            .zip(slow.iter_mut())
            .all(|(&b, cell)| match b {
                b'.' => true,
                b'0'..=b'9' => {
                    *cell = b - b'0';
                    true
                }
                _ => false,
            })
            .then_some(slow);
        let mut cells = [0u8; 81];
        let read = read_symbols(1, &line, 9, &mut cells, "cells");
        assert_eq!(read.is_ok(), expected.is_some(), "{:?}", std::str::from_utf8(&line));
        if let Some(expected) = expected {
            assert_eq!(cells, expected);
        }
        #[cfg(target_arch = "x86_64")]
        {
            let mut fast = [0u8; 81];
            assert_eq!(read_nine_sse2(&line, &mut fast), expected.is_some());
            if let Some(expected) = expected {
                assert_eq!(fast, expected);
            }
        }
    }
}

const SAMPLE: &str = "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n\
                      8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n";

#[test]
fn detects_formats() {
    assert_eq!(detect(SAMPLE).unwrap(), Layout { format: Format::Spaced, box_size: 3 });
    assert_eq!(detect("# c\n\n103000509\n").unwrap(), Layout { format: Format::Grid, box_size: 3 });
    assert_eq!(detect(&".".repeat(81)).unwrap(), Layout { format: Format::Line, box_size: 3 });
    assert_eq!(detect(&".".repeat(256)).unwrap(), Layout { format: Format::Line, box_size: 4 });
    assert_eq!(detect("1..4............\n").unwrap(), Layout { format: Format::Line, box_size: 2 });
    assert_eq!(detect("1..4..........G.\n").unwrap(), Layout { format: Format::Grid, box_size: 4 });
    assert!(detect("\n# only a comment\n").is_err());
}

#[test]
fn spaced_round_trip() {
    let p = parse(SAMPLE).unwrap();
    assert_eq!(p.to_text(Format::Spaced), SAMPLE);
    assert_eq!(parse(&p.to_text(Format::Grid)).unwrap(), p);
    assert_eq!(parse(&p.to_text(Format::Line)).unwrap(), p);
}

#[test]
fn conflict_names_both_cells() {
    let mut line = ".".repeat(81).into_bytes();
    line[2] = b'5';
    line[20] = b'5';
    let err = parse(std::str::from_utf8(&line).unwrap()).unwrap_err();
    assert_eq!((err.line, err.column), (1, 21));
    assert!(err.message.contains("row 3, column 3") && err.message.contains("row 1, column 3"), "{err}");
    assert!(err.message.contains("same column"), "{err}");
}
