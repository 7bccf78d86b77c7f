//! Reading f-puzzles puzzles: its JSON, and its URLs (`...?load=` then the
//! JSON compressed by lz-string's `compressToBase64`, or that payload alone).
//!
//! The JSON holds `size`, a `grid` of `size` rows of cells (`value` with
//! `given: true` for a given, `givenPencilMarks` for given candidates,
//! `region` for a cell moved out of its default box), flags such as
//! `antiknight`, and lists of constraints (`killercage`, `thermometer`,
//! ...). Each key is read with f-puzzles' meaning onto the variant model;
//! keys that only draw (titles, colours, free lines, cosmetic cages) are
//! ignored by name ([`COSMETIC`]), and any other key is an error naming
//! it, never skipped. Cells are `R<row>C<col>` from 1; outside clues sit
//! on row or column 0 or `size + 1`.

use serde_json::{Map, Value};

use crate::error::{ParseError, Quoted};

use super::json_path::{line_column, locate, Path};
use super::model::{full_mask, Constraint, Diagonal, Mask, Puzzle, Shape};
use super::regions;

/// Top-level keys read as rules.
pub const READ: &[&str] = &[
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "negative",
    "killercage",
    "littlekillersum",
    "sandwichsum",
    "xsum",
    "skyscraper",
    "arrow",
    "thermometer",
    "palindrome",
    "renban",
    "whispers",
    "betweenline",
    "regionsumline",
    "entropicline",
    "modularline",
    "odd",
    "even",
    "minimum",
    "maximum",
    "difference",
    "ratio",
    "xv",
    "quadruple",
    "extraregion",
];

/// Top-level keys that only draw or describe, ignored.
pub const COSMETIC: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
    "fogofwar",
    "foglight",
    "triggereffect",
];

/// Keys inside a constraint or a cell that only draw, ignored.
const COSMETIC_INNER: &[&str] = &[
    "outlineC",
    "fontC",
    "baseC",
    "width",
    "height",
    "angle",
    "c",
    "highlight",
    "centerPencilMarks",
    "cornerPencilMarks",
    "candidates",
];

/// f-puzzles constraints known but not solved: an error says so.
const UNSUPPORTED: &[&str] = &["clone", "rowindexer", "columnindexer", "boxindexer", "lockout"];

/// Longest compressed payload read. Decompressing lz-string can expand its
/// input quadratically (a 22 KB payload can hold 60 million characters and
/// took 360 MB to read); at this length the quadratic bound gives about
/// 190 MB, while real puzzles' payloads are a few KB.
pub const MAX_PAYLOAD: usize = 16 * 1024;

/// Whether `line` (trimmed) is f-puzzles data: a JSON object, an f-puzzles
/// URL with `load=`, or the bare compressed payload (lz-string's base64 of a
/// JSON object always starts `N4Ig`).
pub fn is_fpuzzles(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('{')
        || t.contains("load=")
        || (t.starts_with("N4Ig") && t.bytes().all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)))
}

/// Whether `line` opens a JSON document that goes on past it: the first
/// line of a file that is one pretty-printed f-puzzles document.
pub fn opens_document(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('{') && serde_json::from_str::<serde::de::IgnoredAny>(t).is_err_and(|e| e.is_eof())
}

/// Reads one f-puzzles puzzle: a JSON document starting on line `line_no`
/// (it may span several lines), or a URL or payload on that line.
pub fn parse_fpuzzles(text: &str, line_no: usize) -> Result<Puzzle, ParseError> {
    if text.trim_start().starts_with('{') {
        let doc = parse_json(text).map_err(|(l, c, m)| ParseError::new(line_no + l - 1, c, m))?;
        return build(&doc).map_err(|f| {
            let (l, c) = locate(text, &f.path).map_or((1, 0), |o| line_column(text, o));
            ParseError::new(line_no + l - 1, c, f.message_at())
        });
    }
    let (lines_before, column, payload) = payload(text);
    let err = |m: String| ParseError::new(line_no + lines_before, column, m);
    if payload.len() > MAX_PAYLOAD {
        return Err(err(format!("f-puzzles data longer than {MAX_PAYLOAD} bytes")));
    }
    let wide = lz_str::decompress_from_base64(&payload)
        .ok_or_else(|| err("not f-puzzles data: the payload does not decompress".into()))?;
    let json = String::from_utf16(&wide)
        .map_err(|_| err("not f-puzzles data: the payload does not decompress to text".into()))?;
    let doc = parse_json(&json)
        .map_err(|(l, c, m)| err(format!("in the f-puzzles data, at line {l}, column {c} of its JSON: {m}")))?;
    build(&doc).map_err(|f| err(format!("in the f-puzzles data, {}", f.message_at())))
}

/// The compressed payload of a URL or bare payload, and where it starts:
/// the lines of `text` before its line, and its column there (from 1).
fn payload(text: &str) -> (usize, usize, String) {
    let start = match text.find("load=") {
        Some(p) => p + "load=".len(),
        None => text.len() - text.trim_start().len(),
    };
    let rest = &text[start..];
    let end = rest.find(|c: char| c == '&' || c == '#' || c.is_whitespace()).unwrap_or(rest.len());
    let raw = &rest[..end];
    let decoded = raw.replace("%2B", "+").replace("%2b", "+").replace("%2F", "/").replace("%2f", "/");
    let decoded = decoded.replace("%3D", "=").replace("%3d", "=");
    let before = &text[..start];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    (before.matches('\n').count(), before[line_start..].chars().count() + 1, decoded)
}

/// Parses JSON, or says where it stops being JSON (line, column in
/// characters, message).
fn parse_json(text: &str) -> Result<Value, (usize, usize, String)> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m);
        let line = e.line().max(1);
        (line, char_column(text, line, e.column()), format!("not f-puzzles JSON: {message}"))
    })
}

/// The column, in characters, of byte column `bytes` (serde's count) of
/// line `line` of `text`.
fn char_column(text: &str, line: usize, bytes: usize) -> usize {
    let Some(row) = text.split('\n').nth(line - 1) else { return bytes };
    let mut end = bytes.min(row.len());
    while !row.is_char_boundary(end) {
        end -= 1;
    }
    row[..end].chars().count()
}

/// What is wrong, and the path to it.
#[derive(Debug)]
struct Fault {
    path: Path,
    message: String,
}

impl Fault {
    fn message_at(&self) -> String {
        if self.path.0.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path, self.message)
        }
    }
}

type Read<T> = Result<T, Fault>;

fn fault<T>(path: &Path, message: impl Into<String>) -> Read<T> {
    Err(Fault { path: path.clone(), message: message.into() })
}

/// The pairs with a kropki dot, gathered before the negative rules that read them.
#[derive(Default)]
struct Marks {
    dotted: Vec<(usize, usize)>,
}

/// Reads the document onto the variant model.
fn build(doc: &Value) -> Read<Puzzle> {
    let root_path = Path::default();
    let root = object(doc, &root_path)?;
    for key in root.keys() {
        if READ.contains(&key.as_str()) || COSMETIC.contains(&key.as_str()) {
            continue;
        }
        let path = root_path.key(key);
        if UNSUPPORTED.contains(&key.as_str()) {
            return fault(&path, format!("unsupported f-puzzles constraint '{key}'"));
        }
        return fault(&path, format!("unknown f-puzzles constraint '{}'", Quoted(key)));
    }
    let size_path = root_path.key("size");
    let size = match root.get("size") {
        Some(v) => number(v, &size_path)?.unwrap_or(0),
        None => return fault(&root_path, "no size"),
    };
    let shape = match usize::try_from(size).ok().and_then(Shape::new) {
        Some(s) => s,
        None => return fault(&size_path, format!("size {size}: grids from 4x4 to 16x16 are read")),
    };
    let reader = Reader { shape, n: shape.size() };
    let mut puzzle = Puzzle::new(shape);
    match root.get("grid") {
        Some(grid) => reader.grid(&mut puzzle, grid, &root_path.key("grid"))?,
        None => return fault(&root_path, "no grid"),
    }
    let mut marks = Marks::default();
    // Dots and marks first: the negative rules read them.
    for key in ["difference", "ratio", "xv"] {
        if let Some(v) = root.get(key) {
            reader.dots(&mut puzzle, &mut marks, key, v, &root_path.key(key))?;
        }
    }
    let mut negative: Vec<String> = Vec::new();
    if let Some(v) = root.get("negative") {
        let path = root_path.key("negative");
        for (i, item) in array(v, &path)?.iter().enumerate() {
            match item.as_str() {
                Some(s @ ("difference" | "ratio" | "xv")) => negative.push(s.to_string()),
                _ => return fault(&path.index(i), "negative lists 'difference', 'ratio' or 'xv'"),
            }
        }
    }
    for (key, value) in root {
        let path = root_path.key(key);
        match key.as_str() {
            "diagonal+" | "diagonal-" | "antiknight" | "antiking" | "disjointgroups" => {
                if flag(value, &path)? {
                    puzzle.constraints.push(match key.as_str() {
                        "diagonal+" => Constraint::Diagonal(Diagonal::Anti),
                        "diagonal-" => Constraint::Diagonal(Diagonal::Main),
                        "antiknight" => Constraint::AntiKnight,
                        "antiking" => Constraint::AntiKing,
                        _ => Constraint::DisjointSets,
                    });
                }
            }
            "nonconsecutive" => {
                if flag(value, &path)? {
                    negative.push("nonconsecutive".into());
                }
            }
            _ => reader.entries(&mut puzzle, key, value, &path)?,
        }
    }
    reader.negative(&mut puzzle, &marks, &negative, &root_path)?;
    Ok(puzzle)
}

struct Reader {
    shape: Shape,
    n: usize,
}

fn object<'a>(v: &'a Value, path: &Path) -> Read<&'a Map<String, Value>> {
    v.as_object().map_or_else(|| fault(path, "expected a JSON object"), Ok)
}

fn array<'a>(v: &'a Value, path: &Path) -> Read<&'a Vec<Value>> {
    v.as_array().map_or_else(|| fault(path, "expected a JSON array"), Ok)
}

fn flag(v: &Value, path: &Path) -> Read<bool> {
    v.as_bool().map_or_else(|| fault(path, "expected true or false"), Ok)
}

/// A number written as a JSON number or a string; `None` when empty or null.
fn number(v: &Value, path: &Path) -> Read<Option<i32>> {
    let parsed = match v {
        Value::Null => return Ok(None),
        Value::Number(x) => x.as_i64(),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    match parsed.filter(|x| x.abs() <= 1_000_000) {
        Some(x) => Ok(Some(x as i32)),
        None => fault(path, format!("'{}' is not a number", Quoted(&shown(v)))),
    }
}

/// A JSON value as a message quotes it: a string without its quotes.
fn shown(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Checks that `entry` has only the keys `known` and cosmetic ones.
fn known_keys<'a>(entry: &'a Value, known: &[&str], what: &str, path: &Path) -> Read<&'a Map<String, Value>> {
    let map = object(entry, path)?;
    for key in map.keys() {
        if !known.contains(&key.as_str()) && !COSMETIC_INNER.contains(&key.as_str()) {
            return fault(&path.key(key), format!("unknown key '{}' in {what}", Quoted(key)));
        }
    }
    Ok(map)
}

fn required<'a>(map: &'a Map<String, Value>, key: &str, path: &Path) -> Read<&'a Value> {
    map.get(key).map_or_else(|| fault(path, format!("no '{key}'")), Ok)
}

impl Reader {
    /// `R<row>C<col>` with rows and columns from `lo` to `hi`, both from 1.
    fn row_col(&self, v: &Value, path: &Path, lo: usize, hi: usize) -> Read<(usize, usize)> {
        let bad = || fault(path, format!("'{}' is not a cell of a {n}x{n} grid", Quoted(&shown(v)), n = self.n));
        let Some(s) = v.as_str() else { return bad() };
        let upper = s.to_ascii_uppercase();
        let Some((r, c)) = upper.strip_prefix('R').and_then(|rest| rest.split_once('C')) else { return bad() };
        let digits = |t: &str| (1..=2).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(r) || !digits(c) {
            return bad();
        }
        let (r, c): (usize, usize) = (r.parse().unwrap_or(0), c.parse().unwrap_or(0));
        if !(lo..=hi).contains(&r) || !(lo..=hi).contains(&c) {
            return bad();
        }
        Ok((r, c))
    }

    fn cell(&self, v: &Value, path: &Path) -> Read<usize> {
        let (r, c) = self.row_col(v, path, 1, self.n)?;
        Ok(self.shape.cell(r - 1, c - 1))
    }

    fn cell_list(&self, v: &Value, path: &Path) -> Read<Vec<usize>> {
        let items = array(v, path)?;
        if items.is_empty() {
            return fault(path, "no cells");
        }
        items.iter().enumerate().map(|(i, c)| self.cell(c, &path.index(i))).collect()
    }

    /// A clue outside the grid: (row, column) with 0 or `n + 1` for the outside.
    fn outside(&self, v: &Value, path: &Path) -> Read<(usize, usize)> {
        let (r, c) = self.row_col(v, path, 0, self.n + 1)?;
        let inside = |x: usize| (1..=self.n).contains(&x);
        if inside(r) && inside(c) {
            return fault(path, format!("{} is inside the grid, not an outside clue", Quoted(&shown(v))));
        }
        Ok((r, c))
    }

    /// The row or column an outside clue looks along, from the clue inwards.
    fn clue_line(&self, v: &Value, path: &Path) -> Read<Vec<usize>> {
        let (r, c) = self.outside(v, path)?;
        let n = self.n;
        let line: Vec<usize> = match (r, c) {
            (0, c) if (1..=n).contains(&c) => (0..n).map(|i| self.shape.cell(i, c - 1)).collect(),
            (r, c) if r == n + 1 && (1..=n).contains(&c) => (0..n).rev().map(|i| self.shape.cell(i, c - 1)).collect(),
            (r, 0) if (1..=n).contains(&r) => (0..n).map(|i| self.shape.cell(r - 1, i)).collect(),
            (r, c) if c == n + 1 && (1..=n).contains(&r) => (0..n).rev().map(|i| self.shape.cell(r - 1, i)).collect(),
            _ => return fault(path, "a corner clue looks along no row or column"),
        };
        Ok(line)
    }

    fn grid(&self, puzzle: &mut Puzzle, grid: &Value, path: &Path) -> Read<()> {
        let n = self.n;
        let rows = array(grid, path)?;
        if rows.len() != n {
            return fault(path, format!("{} rows, not {n}", rows.len()));
        }
        let default_region = |r: usize, c: usize| match self.shape.box_dims() {
            Some((h, w)) => (r / h) * (n / w) + c / w,
            None => r,
        };
        let mut region_of = vec![0usize; n * n];
        let mut moved = false;
        for (r, row) in rows.iter().enumerate() {
            let row_path = path.index(r);
            let cells = array(row, &row_path)?;
            if cells.len() != n {
                return fault(&row_path, format!("{} cells, not {n}", cells.len()));
            }
            for (c, entry) in cells.iter().enumerate() {
                let cell_path = row_path.index(c);
                let map = known_keys(entry, &["value", "given", "region", "givenPencilMarks"], "a cell", &cell_path)?;
                let cell = self.shape.cell(r, c);
                let given = match map.get("given") {
                    Some(g) => flag(g, &cell_path.key("given"))?,
                    None => false,
                };
                // A value without `given` is a solver's entry, not part of the puzzle.
                if let (Some(v), true) = (map.get("value"), given) {
                    let value_path = cell_path.key("value");
                    puzzle.candidates[cell] &= self.value_mask(v, &value_path)?;
                }
                if let Some(marks) = map.get("givenPencilMarks") {
                    let marks_path = cell_path.key("givenPencilMarks");
                    let mut mask: Mask = 0;
                    for (i, m) in array(marks, &marks_path)?.iter().enumerate() {
                        mask |= self.value_mask(m, &marks_path.index(i))?;
                    }
                    if mask != 0 {
                        puzzle.candidates[cell] &= mask;
                    }
                }
                region_of[cell] = match map.get("region") {
                    None => default_region(r, c),
                    Some(v) => {
                        let region_path = cell_path.key("region");
                        match number(v, &region_path)? {
                            Some(x) if (0..n as i32).contains(&x) => x as usize,
                            Some(x) => return fault(&region_path, format!("region {x}: regions are 0 to {}", n - 1)),
                            None => return fault(&region_path, "cells outside every region are not read"),
                        }
                    }
                };
                moved |= region_of[cell] != default_region(r, c);
            }
        }
        if moved {
            puzzle.no_boxes = true;
            for region in 0..n {
                let cells: Vec<usize> = (0..n * n).filter(|&c| region_of[c] == region).collect();
                if cells.len() != n {
                    return fault(path, format!("region {region} has {} cells, not {n}", cells.len()));
                }
                puzzle.regions.push(cells);
            }
        }
        Ok(())
    }

    /// The mask of one value of the grid.
    fn value_mask(&self, v: &Value, path: &Path) -> Read<Mask> {
        match number(v, path)? {
            Some(x) if (1..=self.n as i32).contains(&x) => Ok(1 << (x - 1)),
            _ => fault(path, format!("'{}' is not a value of a {n}x{n} grid", Quoted(&shown(v)), n = self.n)),
        }
    }

    /// Kropki dots and XV marks: `{cells: [a, b], value}`.
    fn dots(&self, puzzle: &mut Puzzle, marks: &mut Marks, key: &str, v: &Value, path: &Path) -> Read<()> {
        for (i, entry) in array(v, path)?.iter().enumerate() {
            let entry_path = path.index(i);
            let map = known_keys(entry, &["cells", "value"], key, &entry_path)?;
            let cells_path = entry_path.key("cells");
            let cells = self.cell_list(required(map, "cells", &entry_path)?, &cells_path)?;
            let [a, b] = cells[..] else { return fault(&cells_path, "a dot joins two cells") };
            if !self.shape.orthogonal(a, b) {
                return fault(&cells_path, "a dot joins two orthogonally adjacent cells");
            }
            let value_path = entry_path.key("value");
            let value = map.get("value");
            let constraint = match key {
                "xv" => match value.and_then(Value::as_str).map(str::to_ascii_uppercase).as_deref() {
                    Some("X") => Constraint::X(vec![a, b]),
                    Some("V") => Constraint::V(vec![a, b]),
                    _ => return fault(&value_path, "an xv mark is 'X' or 'V'"),
                },
                _ => {
                    let number = match value {
                        Some(v) => number(v, &value_path)?,
                        None => None,
                    };
                    marks.dotted.push((a.min(b), a.max(b)));
                    match (key, number) {
                        ("difference", None | Some(1)) => Constraint::WhiteDot(vec![a, b]),
                        ("difference", Some(x)) => {
                            return fault(&value_path, format!("unsupported: difference dots of {x} (1 is read)"))
                        }
                        (_, None | Some(2)) => Constraint::BlackDot(vec![a, b]),
                        (_, Some(x)) => {
                            return fault(&value_path, format!("unsupported: ratio dots of {x} (2 is read)"))
                        }
                    }
                }
            };
            puzzle.constraints.push(constraint);
        }
        Ok(())
    }

    /// The negative rules: every orthogonal pair without a dot (or mark) is
    /// not consecutive (`difference`, or `nonconsecutive`, which f-puzzles
    /// also lifts on dotted pairs), not in ratio 2 (`ratio`), and does not
    /// sum to 5 or 10 (`xv`).
    fn negative(&self, puzzle: &mut Puzzle, marks: &Marks, negative: &[String], path: &Path) -> Read<()> {
        let has = |k: &str| negative.iter().any(|x| x == k);
        let no_consecutive = has("difference") || has("nonconsecutive");
        if has("xv") {
            puzzle.constraints.push(Constraint::StrictXV);
        }
        match (no_consecutive, has("ratio")) {
            (true, true) => puzzle.constraints.push(Constraint::StrictKropki),
            (true, false) if marks.dotted.is_empty() => puzzle.constraints.push(Constraint::AntiConsecutive),
            (true, false) => {
                for (a, b) in regions::orthogonal_pairs(self.shape) {
                    if !marks.dotted.contains(&(a.min(b), a.max(b))) {
                        // Two cells of a row or column at least 2 apart: not consecutive.
                        puzzle.constraints.push(Constraint::Whisper { difference: 2, cells: vec![a, b] });
                    }
                }
            }
            (false, true) => {
                return fault(
                    &path.key("negative"),
                    "unsupported: a negative ratio rule without the negative difference one",
                )
            }
            (false, false) => {}
        }
        Ok(())
    }

    /// The lists of constraints.
    fn entries(&self, puzzle: &mut Puzzle, key: &str, v: &Value, path: &Path) -> Read<()> {
        if ["size", "grid", "negative", "difference", "ratio", "xv"].contains(&key) || COSMETIC.contains(&key) {
            return Ok(());
        }
        for (i, entry) in array(v, path)?.iter().enumerate() {
            let at = path.index(i);
            self.entry(puzzle, key, entry, &at)?;
        }
        Ok(())
    }

    fn entry(&self, puzzle: &mut Puzzle, key: &str, entry: &Value, at: &Path) -> Read<()> {
        let n = self.n;
        let cs = &mut puzzle.constraints;
        match key {
            "killercage" | "extraregion" => {
                let map = known_keys(entry, &["cells", "value"], key, at)?;
                let cells_path = at.key("cells");
                let cells = self.cell_list(required(map, "cells", at)?, &cells_path)?;
                for (i, c) in cells.iter().enumerate() {
                    if cells[..i].contains(c) {
                        return fault(&cells_path.index(i), "a cell listed twice");
                    }
                }
                let sum = match (key, map.get("value")) {
                    ("killercage", Some(v)) => number(v, &at.key("value"))?,
                    _ => None,
                };
                cs.push(Constraint::Cage { sum: sum.filter(|&s| s != 0), cells });
            }
            "littlekillersum" => {
                let map = known_keys(entry, &["cell", "cells", "direction", "value"], key, at)?;
                let Some(sum) = map.get("value").map(|v| number(v, &at.key("value"))).transpose()?.flatten() else {
                    return Ok(());
                };
                let (r, c) = self.outside(required(map, "cell", at)?, &at.key("cell"))?;
                let (dr, dc): (isize, isize) = match required(map, "direction", at)?.as_str() {
                    Some("UL") => (-1, -1),
                    Some("UR") => (-1, 1),
                    Some("DL") => (1, -1),
                    Some("DR") => (1, 1),
                    _ => return fault(&at.key("direction"), "a direction is UL, UR, DL or DR"),
                };
                let mut cells = Vec::new();
                let (mut r, mut c) = (r as isize + dr, c as isize + dc);
                while (1..=n as isize).contains(&r) && (1..=n as isize).contains(&c) {
                    cells.push(self.shape.cell(r as usize - 1, c as usize - 1));
                    r += dr;
                    c += dc;
                }
                if cells.is_empty() {
                    return fault(&at.key("direction"), "the arrow points at no cell");
                }
                cs.push(Constraint::LittleKiller { sum, cells });
            }
            "sandwichsum" | "xsum" | "skyscraper" => {
                let map = known_keys(entry, &["cell", "value"], key, at)?;
                let Some(value) = map.get("value").map(|v| number(v, &at.key("value"))).transpose()?.flatten() else {
                    return Ok(());
                };
                let cells = self.clue_line(required(map, "cell", at)?, &at.key("cell"))?;
                cs.push(match key {
                    "sandwichsum" => Constraint::Sandwich { sum: value, cells },
                    "xsum" => Constraint::XSum { sum: value, cells },
                    _ => Constraint::Skyscraper { count: value, cells },
                });
            }
            "arrow" => {
                let map = known_keys(entry, &["cells", "lines"], key, at)?;
                let bulb_path = at.key("cells");
                let mut bulb = self.cell_list(required(map, "cells", at)?, &bulb_path)?;
                bulb.sort_unstable();
                bulb.dedup();
                if bulb.len() > 3 || !bulb.windows(2).all(|w| self.reads_on(w[0], w[1], bulb[1] - bulb[0])) {
                    return fault(&bulb_path, "a bulb is one cell, or a pill of 2 or 3 cells in a row or column");
                }
                for (k, line) in self.lines(map, at)?.into_iter().enumerate() {
                    let shaft: Vec<usize> = line.into_iter().skip_while(|c| bulb.contains(c)).collect();
                    if shaft.is_empty() {
                        return fault(&at.key("lines").index(k), "an arrow with no cells past its bulb");
                    }
                    let cells: Vec<usize> = bulb.iter().copied().chain(shaft).collect();
                    cs.push(match bulb.len() {
                        1 => Constraint::Arrow(cells),
                        pill => Constraint::PillArrow { pill, cells },
                    });
                }
            }
            "thermometer" | "palindrome" | "renban" | "whispers" | "betweenline" | "regionsumline" | "entropicline"
            | "modularline" => {
                let map = known_keys(entry, &["lines", "value"], key, at)?;
                let value = match map.get("value") {
                    Some(v) if key == "whispers" => number(v, &at.key("value"))?,
                    Some(_) => return fault(&at.key("value"), format!("{key} takes no value")),
                    None => None,
                };
                if key == "entropicline" && n != 9 {
                    return fault(at, "entropic lines need values 1 to 9");
                }
                for (k, cells) in self.lines(map, at)?.into_iter().enumerate() {
                    let line_path = at.key("lines").index(k);
                    let needs_two = matches!(key, "betweenline" | "whispers");
                    if needs_two && cells.len() < 2 {
                        return fault(&line_path, format!("a {key} line needs two cells"));
                    }
                    if key == "renban" && (1..cells.len()).any(|i| cells[..i].contains(&cells[i])) {
                        return fault(&line_path, "a renban line crosses itself");
                    }
                    cs.push(match key {
                        "thermometer" => Constraint::Thermo(cells),
                        "palindrome" => Constraint::Palindrome(cells),
                        "renban" => Constraint::Renban(cells),
                        "whispers" => Constraint::Whisper { difference: value.unwrap_or(5), cells },
                        "betweenline" => Constraint::Between(cells),
                        "regionsumline" => Constraint::RegionSumLine(cells),
                        "entropicline" => Constraint::Entropic(cells),
                        _ => Constraint::Modular { modulus: 3, cells },
                    });
                }
            }
            "odd" | "even" => {
                let map = known_keys(entry, &["cell"], key, at)?;
                let cell = self.cell(required(map, "cell", at)?, &at.key("cell"))?;
                let odd: Mask = (0..n).step_by(2).fold(0, |m, i| m | 1 << i);
                puzzle.candidates[cell] &= if key == "odd" { odd } else { full_mask(n) & !odd };
            }
            "minimum" | "maximum" => {
                let map = known_keys(entry, &["cell"], key, at)?;
                let cell = self.cell(required(map, "cell", at)?, &at.key("cell"))?;
                for other in (0..n * n).filter(|&o| self.shape.orthogonal(cell, o)) {
                    cs.push(Constraint::GreaterThan(if key == "maximum" {
                        vec![cell, other]
                    } else {
                        vec![other, cell]
                    }));
                }
            }
            "quadruple" => {
                let map = known_keys(entry, &["cells", "values"], key, at)?;
                let cells_path = at.key("cells");
                let mut cells = self.cell_list(required(map, "cells", at)?, &cells_path)?;
                cells.sort_unstable();
                let square = cells.len() == 4
                    && cells[1] == cells[0] + 1
                    && cells[2] == cells[0] + n
                    && cells[3] == cells[0] + n + 1
                    && self.shape.row_col(cells[0]).1 + 1 < n;
                if !square {
                    return fault(&cells_path, "a quadruple sits on a 2x2 square");
                }
                let values_path = at.key("values");
                let mut values = Vec::new();
                for (i, v) in array(required(map, "values", at)?, &values_path)?.iter().enumerate() {
                    values.push(self.value_mask(v, &values_path.index(i))?.trailing_zeros() as u8 + 1);
                }
                if values.len() > 4 {
                    return fault(&values_path, "a quadruple holds at most four values");
                }
                cs.push(Constraint::Quad { cells: [cells[0], cells[1], cells[2], cells[3]], values });
            }
            _ => return fault(at, format!("unknown f-puzzles constraint '{}'", Quoted(key))),
        }
        Ok(())
    }

    /// Whether `b` follows `a` one step along a row (`step` 1) or a column (`step` n).
    fn reads_on(&self, a: usize, b: usize, step: usize) -> bool {
        (step == 1 || step == self.n) && b == a + step && self.shape.orthogonal(a, b)
    }

    /// The `lines` of an entry, each a non-empty list of cells.
    fn lines(&self, map: &Map<String, Value>, at: &Path) -> Read<Vec<Vec<usize>>> {
        let path = at.key("lines");
        let lines = array(required(map, "lines", at)?, &path)?;
        lines.iter().enumerate().map(|(k, l)| self.cell_list(l, &path.index(k))).collect()
    }
}
