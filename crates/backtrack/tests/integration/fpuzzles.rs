//! f-puzzles JSON and URLs: each key read gives the same model as the ISS
//! string that says the same thing, the negative rules agree with a brute
//! force, a puzzle reads the same as JSON, URL and ISS string, and every
//! error names its place.

use backtrack::variant::{parse_line, Line, Puzzle, Solver};

use crate::variant_props::brute_force;

/// An f-puzzles document: a `size` grid with `givens` (row, column, value
/// from 1) and the keys `rest` (JSON members, without braces).
fn doc(size: usize, givens: &[(usize, usize, u8)], rest: &str) -> String {
    doc_cells(size, rest, |r, c| match givens.iter().find(|g| (g.0, g.1) == (r, c)) {
        Some(g) => format!("{{\"value\":{},\"given\":true}}", g.2),
        None => "{}".into(),
    })
}

/// An f-puzzles document whose cell at row `r`, column `c` (from 1) is `cell(r, c)`.
fn doc_cells(size: usize, rest: &str, cell: impl Fn(usize, usize) -> String) -> String {
    let rows: Vec<String> =
        (1..=size).map(|r| format!("[{}]", (1..=size).map(|c| cell(r, c)).collect::<Vec<_>>().join(","))).collect();
    let sep = if rest.is_empty() { "" } else { "," };
    format!("{{\"size\":{size},\"title\":\"t\",\"grid\":[{}]{sep}{rest}}}", rows.join(","))
}

fn read(s: &str) -> Puzzle {
    parse_line(s, 1).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Asserts that the f-puzzles members `rest` on a `size` grid read as the ISS string `iss`.
fn same(size: usize, rest: &str, iss: &str) {
    let shape = if iss.contains(".Shape") { String::new() } else { format!(".Shape~{size}x{size}") };
    assert_eq!(read(&doc(size, &[], rest)), read(&format!("{shape}{iss}")), "{rest}");
}

fn error(s: &str) -> String {
    parse_line(s, 7).expect_err(s).to_string()
}

#[test]
fn flags() {
    same(4, r#""diagonal+":true"#, ".Diagonal~1");
    same(4, r#""diagonal-":true"#, ".Diagonal~-1");
    same(4, r#""diagonal-":false"#, "");
    same(4, r#""antiknight":true"#, ".AntiKnight");
    same(4, r#""antiking":true"#, ".AntiKing");
    same(4, r#""disjointgroups":true"#, ".DisjointSets");
    same(4, r#""nonconsecutive":true"#, ".AntiConsecutive");
}

#[test]
fn givens_pencil_marks_odd_even() {
    let puzzle = read(&doc(4, &[(1, 1, 3), (4, 4, 2)], ""));
    assert_eq!(puzzle, read(".Shape~4x4.~R1C1_3~R4C4_2"));
    // A value without "given" is a solver's entry, not part of the puzzle.
    let entered = doc(4, &[], "").replacen("{}", r#"{"value":3,"cornerPencilMarks":[1]}"#, 1);
    assert_eq!(read(&entered), read(".Shape~4x4"));
    let marks = doc(4, &[], "").replacen("{}", r#"{"givenPencilMarks":[1,"4"]}"#, 1);
    assert_eq!(read(&marks), read(".Shape~4x4.~R1C1_1_4"));
    same(4, r#""odd":[{"cell":"R1C1"}],"even":[{"cell":"R2C2"}]"#, ".~R1C1_1_3~R2C2_2_4");
}

#[test]
fn regions_from_the_size_and_overrides() {
    // Every size's default boxes are f-puzzles' (6x6: 2 rows of 3; 12x12: 3 rows of 4; 7x7: none).
    for size in [4, 6, 7, 8, 9, 10, 12, 16] {
        assert_eq!(read(&doc(size, &[], "")), read(&format!(".Shape~{size}x{size}")), "{size}");
    }
    // Writing the default region numbers out changes nothing.
    let explicit = doc_cells(6, "", |r, c| format!("{{\"region\":{}}}", (r - 1) / 2 * 2 + (c - 1) / 3));
    assert_eq!(read(&explicit), read(".Shape~6x6"));
    // A jigsaw: regions moved out of their boxes.
    let layout = "0001201122312333";
    let jigsaw = doc_cells(4, "", |r, c| format!("{{\"region\":{}}}", &layout[(r - 1) * 4 + c - 1..][..1]));
    assert_eq!(read(&jigsaw), read(&format!(".Shape~4x4.NoBoxes.Jigsaw~{layout}")));
    let uneven = jigsaw.replacen("{\"region\":0}", "{\"region\":1}", 1);
    assert!(error(&uneven).contains("grid: region 0 has 3 cells, not 4"), "{}", error(&uneven));
}

#[test]
fn cages_and_outside_clues() {
    same(4, r#""killercage":[{"cells":["R1C2","R1C3"],"value":"7","outlineC":"red"}]"#, ".Cage~7~R1C2~R1C3");
    same(4, r#""killercage":[{"cells":["R1C2","R1C3"],"value":7},{"cells":["R2C2"]}]"#, ".Cage~7~R1C2~R1C3.Cage~~R2C2");
    same(4, r#""extraregion":[{"cells":["R1C1","R2C2","R3C3"]}]"#, ".Cage~~R1C1~R2C2~R3C3");
    // A clue right of row 4 pointing up and left: the same diagonal ISS starts at R3C4.
    same(4, r#""littlekillersum":[{"cell":"R4C5","direction":"UL","value":"9"}]"#, ".LittleKiller~9~R3C4");
    same(4, r#""littlekillersum":[{"cell":"R0C0","direction":"DR","value":10}]"#, ".LittleKiller~10~R1C1");
    same(4, r#""littlekillersum":[{"cell":"R0C0","direction":"DR","value":""}]"#, "");
    same(4, r#""sandwichsum":[{"cell":"R0C2","value":"5"},{"cell":"R3C0","value":0}]"#, ".Sandwich~5~C2.Sandwich~0~R3");
    same(4, r#""xsum":[{"cell":"R0C1","value":"6"},{"cell":"R5C1","value":"7"}]"#, ".XSum~C1~6.XSum~C1~~7");
    same(
        4,
        r#""skyscraper":[{"cell":"R2C5","value":"3"},{"cell":"R2C0","value":"2"}]"#,
        ".Skyscraper~R2~~3.Skyscraper~R2~2",
    );
}

#[test]
fn lines() {
    same(
        9,
        r#""arrow":[{"cells":["R1C1"],"lines":[["R1C1","R1C2","R1C3"],["R1C1","R2C1"]]}]"#,
        ".Arrow~R1C1~R1C2~R1C3.Arrow~R1C1~R2C1",
    );
    same(
        9,
        r#""arrow":[{"cells":["R1C2","R1C1"],"lines":[["R1C2","R2C3","R3C4"]]}]"#,
        ".PillArrow~2~R1C1~R1C2~R2C3~R3C4",
    );
    same(4, r#""thermometer":[{"lines":[["R1C1","R1C2","R2C3"]]}]"#, ".Thermo~R1C1~R1C2~R2C3");
    same(4, r#""palindrome":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".Palindrome~R1C1~R2C2~R3C3");
    same(4, r#""renban":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".Renban~R1C1~R2C2~R3C3");
    same(
        9,
        r#""whispers":[{"lines":[["R1C1","R2C2"]]},{"lines":[["R3C3","R3C4"]],"value":3}]"#,
        ".Whisper~R1C1~R2C2.Whisper~3~R3C3~R3C4",
    );
    same(4, r#""betweenline":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".Between~R1C1~R2C2~R3C3");
    same(4, r#""regionsumline":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".RegionSumLine~R1C1~R2C2~R3C3");
    same(9, r#""entropicline":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".Entropic~R1C1~R2C2~R3C3");
    same(4, r#""modularline":[{"lines":[["R1C1","R2C2","R3C3"]]}]"#, ".Modular~3~R1C1~R2C2~R3C3");
}

#[test]
fn dots_marks_and_extremes() {
    same(
        4,
        r#""difference":[{"cells":["R1C1","R1C2"]}],"ratio":[{"cells":["R2C1","R2C2"],"value":"2"}]"#,
        ".WhiteDot~R1C1~R1C2.BlackDot~R2C1~R2C2",
    );
    same(
        4,
        r#""xv":[{"cells":["R1C1","R1C2"],"value":"X"},{"cells":["R2C1","R2C2"],"value":"V"}]"#,
        ".X~R1C1~R1C2.V~R2C1~R2C2",
    );
    same(
        4,
        r#""difference":[{"cells":["R1C1","R1C2"]}],"negative":["ratio","difference"]"#,
        ".WhiteDot~R1C1~R1C2.StrictKropki",
    );
    same(4, r#""nonconsecutive":true,"negative":["ratio"]"#, ".StrictKropki");
    same(4, r#""xv":[{"cells":["R1C1","R1C2"],"value":"x"}],"negative":["xv"]"#, ".X~R1C1~R1C2.StrictXV");
    same(4, r#""negative":["difference"]"#, ".AntiConsecutive");
    same(
        4,
        r#""minimum":[{"cell":"R2C2"}]"#,
        ".GreaterThan~R1C2~R2C2.GreaterThan~R2C1~R2C2.GreaterThan~R2C3~R2C2.GreaterThan~R3C2~R2C2",
    );
    same(4, r#""maximum":[{"cell":"R1C1"}]"#, ".GreaterThan~R1C1~R1C2.GreaterThan~R1C1~R2C1");
    same(4, r#""quadruple":[{"cells":["R2C3","R1C2","R1C3","R2C2"],"values":[1,"2"]}]"#, ".Quad~R1C2~1~2");
}

/// Negative difference beside dots: the pairs without a dot are not
/// consecutive, the dotted ones are free (f-puzzles' meaning), checked
/// against the brute force of the dots alone, filtered by hand.
#[test]
fn negative_difference_spares_the_dotted_pairs() {
    // The dots of the grid 1324/4231/2413/3142's consecutive pairs, and one black dot.
    let white =
        [("R1C2", "R1C3"), ("R1C2", "R2C2"), ("R1C3", "R2C3"), ("R2C2", "R2C3"), ("R3C1", "R4C1"), ("R3C4", "R4C4")];
    let white: Vec<String> = white.iter().map(|(a, b)| format!("{{\"cells\":[\"{a}\",\"{b}\"]}}")).collect();
    let dots = format!("\"difference\":[{}],\"ratio\":[{{\"cells\":[\"R3C1\",\"R3C2\"]}}]", white.join(","));
    let dotted = [(1, 2), (1, 5), (2, 6), (5, 6), (8, 12), (11, 15), (8, 9)];
    for flag in [r#""negative":["difference"]"#, r#""nonconsecutive":true"#] {
        let strict = read(&doc(4, &[], &format!("{dots},{flag}")));
        let loose = read(&doc(4, &[], &dots));
        let expected = brute_force(&loose)
            .into_iter()
            .filter(|g| {
                (0..16).all(|a| {
                    [a + 1, a + 4]
                        .into_iter()
                        .filter(|&b| b < 16 && (b == a + 4 || b % 4 != 0))
                        .all(|b| dotted.contains(&(a, b)) || g[a].abs_diff(g[b]) != 1)
                })
            })
            .count() as u64;
        assert!(expected > 0);
        assert_eq!(Solver::new(&strict).unwrap().count(None).solutions, expected, "{flag}");
        assert_eq!(brute_force(&strict).len() as u64, expected, "{flag}");
    }
}

/// ISS's "Thermo" example, as its constraint string and as f-puzzles JSON.
#[test]
fn a_puzzle_reads_the_same_as_iss_string_json_and_url() {
    let iss = ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9.Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6.Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9~R7C8~R8C7~R9C6~R8C5~R7C4";
    let givens = [(1, 2, 4), (1, 8, 1), (2, 1, 2), (2, 9, 6), (8, 1, 9), (8, 9, 2), (9, 2, 1), (9, 8, 9)];
    let thermos = r#""thermometer":[{"lines":[["R9C4","R8C3","R7C2","R6C1","R5C2","R4C3"]]},{"lines":[["R4C1","R3C2","R2C3","R1C4","R2C5","R3C6"]]},{"lines":[["R1C6","R2C7","R3C8","R4C9","R5C8","R6C7"]]},{"lines":[["R6C9","R7C8","R8C7","R9C6","R8C5","R7C4"]]}]"#;
    let json = doc(9, &givens, thermos);
    let solve = |p: &Puzzle| {
        let got = Solver::new(p).unwrap().count(Some(2));
        assert_eq!(got.solutions, 1);
        Line(&got.first.unwrap()).to_string()
    };
    let expected = "847632519295471386631598247129743865486259173753816924368924751974185632512367498";
    assert_eq!(solve(&read(iss)), expected);
    assert_eq!(solve(&read(&json)), expected);
    // A whole document over several lines reads the same.
    let pretty = json.replace(",\"", ",\n  \"");
    assert_eq!(read(&pretty), read(&json));
    let payload = lz_str::compress_to_base64(json.as_str());
    assert!(payload.starts_with("N4Ig"), "{payload}");
    assert_eq!(read(&format!("https://www.f-puzzles.com/?load={payload}")), read(&json));
    assert_eq!(read(&payload), read(&json));
    let escaped = payload.replace('+', "%2B").replace('/', "%2F").replace('=', "%3D");
    assert_eq!(read(&format!("f-puzzles.com/?load={escaped}&x=1")), read(&json));
}

#[test]
fn errors_name_the_place() {
    let json = doc(4, &[], r#""clone":[{"cells":["R1C1"],"cloneCells":["R2C2"]}]"#);
    let column = json.find("\"clone\"").unwrap() + 1;
    assert_eq!(error(&json), format!("line 7, column {column}: clone: unsupported f-puzzles constraint 'clone'"));
    let json = doc(4, &[], r#""whisper":[]"#);
    assert!(error(&json).ends_with("whisper: unknown f-puzzles constraint 'whisper'"), "{}", error(&json));
    let json = doc(4, &[], r#""killercage":[{"cells":["R1C1","R5C1"],"value":3}]"#);
    let column = json.find("\"R5C1\"").unwrap() + 1;
    assert_eq!(
        error(&json),
        format!("line 7, column {column}: killercage[0].cells[1]: 'R5C1' is not a cell of a 4x4 grid")
    );
    // Over several lines, the line within the document counts.
    let pretty = doc(4, &[], r#""thermometer":[{"lines":[["R1C1"]],"style":1}]"#).replace(",\"", ",\n \"");
    assert_eq!(error(&pretty), "line 11, column 2: thermometer[0].style: unknown key 'style' in thermometer");
    assert_eq!(error("{\"size\":4,\n\"grid\":[}"), "line 8, column 9: not f-puzzles JSON: expected value");
    assert!(error(&doc(3, &[], "")).contains("size: size 3: grids from 4x4 to 16x16 are read"));
    let e = error(&doc(4, &[], r#""difference":[{"cells":["R1C1","R1C2"],"value":2}]"#));
    assert!(e.contains("difference[0].value: unsupported: difference dots of 2"), "{e}");
    let e = error(&doc(4, &[], r#""negative":["ratio"]"#));
    assert!(e.contains("negative: unsupported: a negative ratio rule"), "{e}");
    let e = error(&doc(4, &[], r#""difference":[{"cells":["R1C1","R2C2"]}]"#));
    assert!(e.contains("difference[0].cells: a dot joins two orthogonally adjacent cells"), "{e}");
    let e = error(&doc(4, &[], r#""sandwichsum":[{"cell":"R2C2","value":3}]"#));
    assert!(e.contains("sandwichsum[0].cell: R2C2 is inside the grid"), "{e}");
    // URLs: the payload's column, and the place inside the data.
    let payload = lz_str::compress_to_base64(doc(4, &[], r#""antiknight":1"#).as_str());
    assert_eq!(
        error(&format!("https://f-puzzles.com/?load={payload}")),
        "line 7, column 29: in the f-puzzles data, antiknight: expected true or false"
    );
    assert_eq!(
        error("https://f-puzzles.com/?load=N4Ig!!"),
        "line 7, column 29: not f-puzzles data: the payload does not decompress"
    );
    let long = format!("N4Ig{}", "A".repeat(20_000));
    assert!(error(&long).contains("f-puzzles data longer than 16384 bytes"));
    // A payload after a line break is placed on its own line, not past the
    // end of the first (a fuzzer's find: "\n" alone).
    let e = backtrack::variant::fpuzzles::parse_fpuzzles("\n", 1).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    let e = backtrack::variant::fpuzzles::parse_fpuzzles("\n  N4Ig!!", 4).unwrap_err();
    assert_eq!((e.line, e.column), (5, 3), "{e}");
    // JSON's columns count characters, not bytes.
    let e = backtrack::variant::fpuzzles::parse_fpuzzles("{\n\"\u{fffd}\u{fffd}\u{fffd}\"27", 1).unwrap_err();
    assert_eq!((e.line, e.column), (2, 6), "{e}");
}
