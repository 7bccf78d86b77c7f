//! `backtrack boj` for the operator, team, subset-sum, password, inequality,
//! ordering, tour and letter-walk problems, end to end through the binary:
//! every statement sample byte for byte, the problem list, and malformed or
//! unpromised input refused with its place.

use super::util::{assert_rejected, run};

/// (problem, sample input, the judge's output).
const SAMPLES: &[(&str, &str, &str)] = &[
    ("14888", "2\n5 6\n0 0 1 0\n", "30\n30\n"),
    ("14888", "3\n3 4 5\n1 0 1 0\n", "35\n17\n"),
    ("14888", "6\n1 2 3 4 5 6\n2 1 1 1\n", "54\n-24\n"),
    ("15658", "2\n5 6\n1 1 1 1\n", "30\n-1\n"),
    ("15658", "3\n3 4 5\n2 1 2 1\n", "60\n-5\n"),
    ("15658", "6\n1 2 3 4 5 6\n3 2 1 1\n", "72\n-48\n"),
    ("14889", "4\n0 1 2 3\n4 0 5 6\n7 1 0 2\n3 4 5 0\n", "0\n"),
    ("14889", "6\n0 1 2 3 4 5\n1 0 2 3 4 5\n1 2 0 3 4 5\n1 2 3 0 4 5\n1 2 3 4 0 5\n1 2 3 4 5 0\n", "2\n"),
    (
        "14889",
        "8\n0 5 4 5 4 5 4 5\n4 0 5 1 2 3 4 5\n9 8 0 1 2 3 1 2\n9 9 9 0 9 9 9 9\n1 1 1 1 0 1 1 1\n\
         8 7 6 5 4 0 3 2\n9 1 9 1 9 1 0 9\n6 5 4 3 2 1 9 0\n",
        "1\n",
    ),
    ("15661", "4\n0 1 2 3\n4 0 5 6\n7 1 0 2\n3 4 5 0\n", "0\n"),
    ("15661", "6\n0 1 2 3 4 5\n1 0 2 3 4 5\n1 2 0 3 4 5\n1 2 3 0 4 5\n1 2 3 4 0 5\n1 2 3 4 5 0\n", "2\n"),
    ("15661", "5\n0 3 1 1 1\n3 0 1 1 1\n1 1 0 1 1\n1 1 1 0 1\n1 1 1 1 0\n", "0\n"),
    ("1182", "5 0\n-7 -3 -2 5 8\n", "1\n"),
    (
        "1759",
        "4 6\na t c i s w\n",
        "acis\nacit\naciw\nacst\nacsw\nactw\naist\naisw\naitw\nastw\ncist\ncisw\ncitw\nistw\n",
    ),
    ("2529", "2\n< >\n", "897\n021\n"),
    ("2529", "9\n> < < < > > > < <\n", "9567843012\n1023765489\n"),
    ("10819", "6\n20 1 15 8 4 10\n", "62\n"),
    ("10971", "4\n0 10 15 20\n5 0 9 10\n6 13 0 12\n8 8 9 0\n", "35\n"),
    ("1987", "2 4\nCAAB\nADCB\n", "3\n"),
    ("1987", "3 6\nHFDFFB\nAJHGDH\nDGAGEH\n", "6\n"),
    ("1987", "5 5\nIEFCJ\nFHFKC\nFFALF\nHFGCF\nHMCHH\n", "10\n"),
];

#[test]
fn samples_byte_for_byte() {
    for &(id, input, expected) in SAMPLES {
        let (status, stdout, stderr) = run(&["boj", id], input);
        assert_eq!((status, stdout.as_str()), (0, expected), "{id} {input:?}: {stderr}");
    }
}

#[test]
fn help_lists_the_problems_with_their_korean_titles() {
    let (status, stdout, _) = run(&["boj", "--help"], "");
    assert_eq!(status, 0);
    for needle in ["14888", "연산자 끼워넣기", "15661", "링크와 스타트", "1987", "알파벳", "10971", "외판원 순회 2"]
    {
        assert!(stdout.contains(needle), "--help lacks {needle}: {stdout}");
    }
    // An unknown number lists them too.
    let (status, _, stderr) = run(&["boj", "1"], "");
    assert_eq!(status, 2);
    assert!(stderr.contains("2529") && stderr.contains("부등호"), "{stderr}");
}

#[test]
fn bad_input_is_refused_with_its_place() {
    assert_rejected(&["boj", "14888"], "3\n3 4 5\n1 1 1 0\n", "line 3, column 1");
    assert_rejected(&["boj", "14889"], "5\n", "N must be even");
    assert_rejected(&["boj", "1759"], "3 4\na b b c\n", "line 2, column 5");
    assert_rejected(&["boj", "2529"], "2\n< =\n", "line 2, column 3");
    assert_rejected(&["boj", "1987"], "2 3\nABC\nAbC\n", "line 3, column 2");
    assert_rejected(&["boj", "10971"], "3\n0 1 0\n0 0 1\n0 0 0\n", "no round trip");
    assert_rejected(&["boj", "10819"], "", "expected N");
}
