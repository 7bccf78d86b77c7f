//! Reading variant puzzles: ISS's constraint strings, and plain grids.
//!
//! A constraint string is a list of items, each starting with `.`: a type
//! name, then its arguments separated by `~` (`.Cage~15~R1C3~R1C4`); an
//! item with an empty name holds givens (`.~R1C1_5~R2C2_1_3` gives R1C1 the
//! value 5 and R2C2 the candidates 1 and 3). Cells are written `R<row>C<col>`
//! with one symbol each (`1`-`9`, then `a`-`g` for 10-16). Whitespace is
//! ignored. A type this reader does not know, or knows but does not solve,
//! is an error naming it, never skipped.
//!
//! A plain grid is one line of n² symbols (n from 4 to 16): `1`-`9`, then
//! `A`-`G` for 10-16, and `.` or `0` for a blank. [`parse_line`] lists the
//! other formats read.

use crate::error::{ParseError, Quoted};

use super::model::{Constraint, Diagonal, Mask, Puzzle, Shape};
use super::regions;

/// The ISS types this reader knows but does not solve, so that their
/// message says so rather than calling them unknown.
const UNSUPPORTED: &[&str] = &[
    "Or",
    "And",
    "End",
    "Replicate",
    "Container",
    "Regex",
    "NFA",
    "ChaosConstruction",
    "ChaosArrow",
    "ChaosCount",
    "RegionSize",
    "RegionSameValues",
    "Doppelganger",
    "AntiTaxicab",
    "GlobalEntropy",
    "GlobalMod",
    "FullRankTies",
    "DutchFlatmates",
    "ValueIndexing",
    "RellikCage",
    "EqualityCage",
    "Sum",
    "HiddenSkyscraper",
    "NumberedRoom",
    "FullRank",
    "AllDifferent",
    "ContainAtLeast",
    "ContainExact",
    "LookAndSay",
    "ConnectedValues",
    "SameValues",
    "EqualSum",
    "Binary",
    "BinaryX",
    "Pair",
    "PairX",
    "Indexing",
    "CountingCircles",
    "CountDistinct",
    "SearchPriority",
    "Var",
];

/// Whether `line` (without its line break) looks like an ISS constraint
/// string: its first non-blank character is `.` followed by a type name
/// or `~` (a line starting `..` is a classic grid with blanks).
pub fn is_constraint_string(line: &str) -> bool {
    let t = line.trim_start();
    let mut chars = t.chars();
    chars.next() == Some('.') && chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '~')
}

/// Reads one puzzle from one line of text. The format is told from the
/// text, whitespace aside, in this order:
///
/// * f-puzzles JSON (the line starting with `{`, or a whole document
///   spanning several lines), an f-puzzles URL (`...?load=` and the
///   compressed data) or its payload alone (see [`super::fpuzzles`]);
/// * the 81-symbol killer string (`S<J<<O<<KJ^<<^...`: a cage's total in
///   one cell, written `0`-`9`, `A`-`Z` for 10-35, `a`-`j` for 36-45, the
///   cage's other cells pointing towards it with `<`, `>`, `^`, `v` and the
///   diagonals `` ` `` (up left), `'` (up right), `,` (down left), `.` (down right));
/// * SudokuWiki's killer export (`3x3:d:k:3841:7705:...`: 81 numbers, each
///   a cage number plus 256 times its total, maybe a `:` after the last;
///   the kind between the first colons is empty for a plain killer, `d`
///   adds both diagonals);
/// * a jigsaw: a plain grid followed by a layout of as many symbols, one
///   region per symbol;
/// * n³ pencil marks (n from 4 to 9): n symbols per cell, a digit for a
///   candidate kept and `.` for one removed;
/// * a plain grid: n² symbols (see the module's documentation);
/// * an ISS constraint string.
///
/// `line_no` (from 1) goes into the errors.
pub fn parse_line(text: &str, line_no: usize) -> Result<Puzzle, ParseError> {
    let chars = symbols(text);
    match kind(text, &chars) {
        Kind::Killer => parse_killer_string(&chars, line_no),
        Kind::SudokuWiki => parse_sudokuwiki(&chars.iter().map(|&(_, c)| c).collect::<String>(), line_no),
        Kind::Jigsaw(n) => parse_jigsaw(&chars, n, line_no),
        Kind::PencilMarks(n) => parse_pencil_marks(&chars, n, line_no),
        Kind::Constraints => parse_constraints(text, line_no),
        Kind::Grid => parse_grid(&chars, line_no),
        Kind::FPuzzles => super::fpuzzles::parse_fpuzzles(text, line_no),
    }
}

/// Whether `line` is in one of the formats only variant puzzles use (any
/// of [`parse_line`]'s but the plain grid, and a plain grid of a size
/// classic grids never have: 6x6, 7x7, 8x8, 10x10 to 15x15, written
/// without spaces), so that a reader can tell a file of variant puzzles
/// from one of classic grids by its first puzzle.
pub fn is_variant_line(line: &str) -> bool {
    let chars = symbols(line);
    match kind(line, &chars) {
        Kind::Grid => {
            // 4x4, 9x9 and 16x16 lines are classic puzzles, and a 5x5 line
            // is a row of a classic 25x25 grid.
            let side = (6..=15).find(|n| n * n == chars.len()).filter(|&n| n != 9);
            side.is_some() && looks_like_grid(&chars) && line.split_whitespace().count() == 1
        }
        _ => true,
    }
}

/// Whether a text of puzzles, one per line, is read as variant puzzles:
/// its first puzzle line (blank lines and `#` comments skipped, a byte
/// order mark dropped) is in a format only variant puzzles use
/// ([`is_variant_line`]). `backtrack sudoku` looks at a file's first
/// bytes this way.
pub fn is_variant_text(text: &str) -> bool {
    puzzle_lines(text).next().is_some_and(|(_, line)| is_variant_line(line))
}

/// The puzzle lines of a text, one puzzle per line: each with its line
/// number (from 1), trimmed; blank lines and `#` comments skipped, a byte
/// order mark dropped.
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(str::trim)
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// The symbols of a line, whitespace dropped, with their columns (from 1).
fn symbols(text: &str) -> Vec<(usize, char)> {
    text.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (i + 1, c)).collect()
}

/// The formats of [`parse_line`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Killer,
    SudokuWiki,
    Jigsaw(usize),
    PencilMarks(usize),
    Constraints,
    Grid,
    FPuzzles,
}

const KILLER_ARROWS: &[char] = &['<', '>', '^', 'v', '`', '\'', ','];

fn kind(text: &str, chars: &[(usize, char)]) -> Kind {
    if super::fpuzzles::is_fpuzzles(text) {
        return Kind::FPuzzles;
    }
    let len = chars.len();
    let squares = |len: usize| (4..=16).find(|n| n * n == len);
    let killer_symbol = |c: char| {
        c.is_ascii_digit()
            || c.is_ascii_uppercase()
            || ('a'..='j').contains(&c)
            || KILLER_ARROWS.contains(&c)
            || c == '.'
    };
    if len == 81
        && chars.iter().any(|&(_, c)| KILLER_ARROWS.contains(&c))
        && chars.iter().all(|&(_, c)| killer_symbol(c))
    {
        return Kind::Killer;
    }
    if chars.iter().take(4).map(|&(_, c)| c).eq("3x3:".chars()) {
        return Kind::SudokuWiki;
    }
    if let Some(n) = squares(len / 2).filter(|_| len.is_multiple_of(2)) {
        let (grid, layout) = chars.split_at(n * n);
        if is_layout(layout, n) && looks_like_grid(grid) {
            return Kind::Jigsaw(n);
        }
    }
    if let Some(n) = (4..=9).find(|n| n * n * n == len) {
        if chars.iter().all(|&(_, c)| c == '.' || c.is_ascii_digit()) {
            return Kind::PencilMarks(n);
        }
    }
    if is_constraint_string(text) && squares(len).is_none_or(|_| !looks_like_grid(chars)) {
        return Kind::Constraints;
    }
    Kind::Grid
}

/// Whether `layout` names `n` regions of `n` cells each.
fn is_layout(layout: &[(usize, char)], n: usize) -> bool {
    let mut names: Vec<char> = layout.iter().map(|&(_, c)| c).collect();
    names.sort_unstable();
    names.dedup();
    names.len() == n && names.iter().all(|&x| layout.iter().filter(|&&(_, c)| c == x).count() == n)
}

/// Whether the symbols could be a plain grid: values and at most one kind of blank.
fn looks_like_grid(chars: &[(usize, char)]) -> bool {
    chars.iter().all(|&(_, c)| c == '.' || c.is_ascii_alphanumeric())
        && !chars.iter().any(|&(_, c)| c.is_ascii_lowercase() && c > 'g')
}

/// The 81-symbol killer string.
fn parse_killer_string(chars: &[(usize, char)], line_no: usize) -> Result<Puzzle, ParseError> {
    let shape = Shape::new(9).expect("9x9");
    let target = |i: usize, c: char| -> Option<isize> {
        let i = i as isize;
        Some(match c {
            '<' => i - 1,
            '>' => i + 1,
            '^' => i - 9,
            'v' => i + 9,
            '`' => i - 10,
            '\'' => i - 8,
            ',' => i + 8,
            '.' => i + 10,
            _ => return None,
        })
    };
    let mut cages: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in 0..81 {
        let mut at = i;
        let mut steps = 0;
        while let Some(next) = target(at, chars[at].1) {
            if !(0..81).contains(&next) {
                return Err(ParseError::new(line_no, chars[at].0, "a killer arrow points off the grid"));
            }
            at = next as usize;
            steps += 1;
            if steps > 9 {
                return Err(ParseError::new(line_no, chars[i].0, "the killer arrows loop"));
            }
        }
        match cages.iter_mut().find(|(root, _)| *root == at) {
            Some((_, cells)) => cells.push(i),
            None => cages.push((at, vec![i])),
        }
    }
    let mut puzzle = Puzzle::new(shape);
    for (root, cells) in cages {
        let c = chars[root].1;
        let sum = match c {
            '0'..='9' => c as i32 - '0' as i32,
            'A'..='Z' => c as i32 - 'A' as i32 + 10,
            'a'..='j' => c as i32 - 'a' as i32 + 36,
            _ => continue,
        };
        puzzle.constraints.push(Constraint::Cage { sum: (sum != 0).then_some(sum), cells });
    }
    Ok(puzzle)
}

/// SudokuWiki's killer export: `3x3:<kind>:k:` then 81 numbers, and
/// maybe a `:` after the last. The kind is empty for a plain killer, `d`
/// for one whose diagonals hold different values too.
fn parse_sudokuwiki(text: &str, line_no: usize) -> Result<Puzzle, ParseError> {
    let mut parts: Vec<&str> = text.split(':').collect();
    if parts.len() == 81 + 4 && parts[81 + 3].is_empty() {
        parts.pop();
    }
    if parts.len() != 81 + 3 || parts[2] != "k" {
        return Err(ParseError::new(line_no, 1, "a SudokuWiki killer is 3x3:<kind>:k: and 81 numbers"));
    }
    if !matches!(parts[1], "" | "d") {
        let message = format!("'{}' is not a SudokuWiki killer's kind (none, or d for diagonals)", Quoted(parts[1]));
        return Err(ParseError::new(line_no, 5, message));
    }
    let mut puzzle = Puzzle::new(Shape::new(9).expect("9x9"));
    let mut cages: Vec<(u32, i32, Vec<usize>)> = Vec::new();
    let mut column = parts[..3].iter().map(|p| p.len() + 1).sum::<usize>() + 1;
    for (cell, part) in parts[3..].iter().enumerate() {
        let value: u32 = part
            .parse()
            .ok()
            .filter(|&v| v < 1 << 20)
            .ok_or_else(|| ParseError::new(line_no, column, format!("'{}' is not a cage number", Quoted(part))))?;
        column += part.len() + 1;
        let (id, sum) = (value % 256, (value / 256) as i32);
        if sum == 0 {
            continue;
        }
        match cages.iter_mut().find(|c| c.0 == id) {
            Some(c) => c.2.push(cell),
            None => cages.push((id, sum, vec![cell])),
        }
    }
    if parts[1] == "d" {
        puzzle.constraints.push(Constraint::Diagonal(Diagonal::Anti));
        puzzle.constraints.push(Constraint::Diagonal(Diagonal::Main));
    }
    for (_, sum, cells) in cages {
        puzzle.constraints.push(Constraint::Cage { sum: Some(sum), cells });
    }
    Ok(puzzle)
}

/// A plain grid of n² symbols then a layout of n² symbols (n regions of n cells).
fn parse_jigsaw(chars: &[(usize, char)], n: usize, line_no: usize) -> Result<Puzzle, ParseError> {
    let (grid, layout) = chars.split_at(n * n);
    let mut names: Vec<char> = layout.iter().map(|&(_, c)| c).collect();
    names.sort_unstable();
    names.dedup();
    let mut puzzle = parse_grid(grid, line_no)?;
    puzzle.no_boxes = true;
    for name in names {
        puzzle.regions.push((0..n * n).filter(|&i| layout[i].1 == name).collect());
    }
    Ok(puzzle)
}

/// n³ pencil marks: for each cell, n symbols, a digit for a value kept.
fn parse_pencil_marks(chars: &[(usize, char)], n: usize, line_no: usize) -> Result<Puzzle, ParseError> {
    let mut puzzle = Puzzle::new(Shape::new(n).expect("4..=9"));
    for (cell, marks) in chars.chunks(n).enumerate() {
        let mut mask: Mask = 0;
        for &(column, c) in marks {
            if c == '.' {
                continue;
            }
            let v = c as usize - '0' as usize;
            if v == 0 || v > n {
                return Err(ParseError::new(line_no, column, format!("'{c}' is not a value of a {n}x{n} grid")));
            }
            mask |= 1 << (v - 1);
        }
        puzzle.candidates[cell] = mask;
    }
    Ok(puzzle)
}

/// A piece of the input and the column (from 1) it starts at.
#[derive(Debug, Clone)]
struct Token {
    text: String,
    column: usize,
}

/// Reads a plain grid: n² symbols. Sides past 9 write 10, 11, ... as
/// `A`, `B`, ... after the digits `1`-`9`; a grid with no digit at all is
/// read as ISS writes them instead, `A` for 1, `B` for 2, ...
fn parse_grid(symbols: &[(usize, char)], line_no: usize) -> Result<Puzzle, ParseError> {
    let count = symbols.len();
    let size = (4..=16).find(|n| n * n == count).ok_or_else(|| {
        ParseError::new(
            line_no,
            0,
            format!("not a puzzle: neither a constraint string (starting with '.') nor a grid of n*n symbols (n from 4 to 16), but {count} symbols"),
        )
    })?;
    let shape = Shape::new(size).expect("4..=16");
    let letters_from_one = size > 9 && !symbols.iter().any(|&(_, c)| ('1'..='9').contains(&c));
    let mut puzzle = Puzzle::new(shape);
    for (cell, &(column, c)) in symbols.iter().enumerate() {
        let upper = c.to_ascii_uppercase();
        let value = match upper {
            '.' | '0' => continue,
            '1'..='9' => c as usize - '0' as usize,
            'A'..='Z' if letters_from_one => upper as usize - 'A' as usize + 1,
            'A'..='Z' => upper as usize - 'A' as usize + 10,
            _ => 0,
        };
        if value == 0 || value > size {
            return Err(ParseError::new(line_no, column, format!("'{c}' is not a value of a {size}x{size} grid")));
        }
        puzzle.candidates[cell] = 1 << (value - 1);
    }
    Ok(puzzle)
}

/// Splits `text` into items (after each `.`), each a list of `~`-separated
/// tokens, whitespace dropped and columns kept.
fn items(text: &str, line_no: usize) -> Result<Vec<Vec<Token>>, ParseError> {
    let chars: Vec<(usize, char)> =
        text.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (i + 1, c)).collect();
    if chars.first().map(|&(_, c)| c) != Some('.') {
        return Err(ParseError::new(line_no, 1, "a constraint string starts with '.'"));
    }
    let mut out: Vec<Vec<Token>> = Vec::new();
    for &(column, c) in &chars {
        match c {
            '.' => out.push(vec![Token { text: String::new(), column: column + 1 }]),
            '~' => out.last_mut().expect("starts with '.'").push(Token { text: String::new(), column: column + 1 }),
            _ => {
                let item = out.last_mut().expect("starts with '.'");
                let token = item.last_mut().expect("an item has a token");
                if token.text.len() > 4096 {
                    return Err(ParseError::new(line_no, token.column, "argument too long"));
                }
                token.text.push(c);
            }
        }
    }
    Ok(out)
}

/// Reads an ISS constraint string.
fn parse_constraints(text: &str, line_no: usize) -> Result<Puzzle, ParseError> {
    let items = items(text, line_no)?;
    let err = |t: &Token, message: String| ParseError::new(line_no, t.column, message);
    // The shape comes first: cells are read against it.
    let mut shape: Option<(Shape, Token)> = None;
    for item in items.iter().filter(|i| i[0].text == "Shape") {
        let found = parse_shape(&item[1..]).map_err(|m| err(item.first().expect("named"), m))?;
        match &shape {
            Some((s, _)) if *s != found => return Err(err(&item[0], "inconsistent Shape constraints".into())),
            _ => shape = Some((found, item[0].clone())),
        }
    }
    let shape = shape.map_or_else(|| Shape::new(9).expect("9x9"), |(s, _)| s);
    let mut puzzle = Puzzle::new(shape);
    let mut reader = Reader { shape, line_no };
    for item in &items {
        let (name, args) = (&item[0], &item[1..]);
        reader.item(&mut puzzle, name, args)?;
    }
    Ok(puzzle)
}

/// Reads `NxN`, `NxN~N` or `NxN~1-N` for N from 4 to 16.
fn parse_shape(args: &[Token]) -> Result<Shape, String> {
    let spec: Vec<&str> = args.iter().map(|t| t.text.as_str()).collect();
    let spec = spec.join("~");
    let unsupported = || format!("unsupported shape '{}' (square grids 4x4 to 16x16, values 1 to N)", Quoted(&spec));
    let mut parts = spec.split('~');
    let dims = parts.next().unwrap_or("");
    let (r, c) = dims.split_once('x').ok_or_else(unsupported)?;
    let (r, c): (usize, usize) = (r.parse().map_err(|_| unsupported())?, c.parse().map_err(|_| unsupported())?);
    if r != c {
        return Err(unsupported());
    }
    let shape = Shape::new(r).ok_or_else(unsupported)?;
    match (parts.next(), parts.next()) {
        (None, _) => {}
        (Some(range), None) if range == r.to_string() || range == format!("1-{r}") => {}
        _ => return Err(unsupported()),
    }
    Ok(shape)
}

/// Reads items against one shape.
struct Reader {
    shape: Shape,
    line_no: usize,
}

impl Reader {
    fn err(&self, t: &Token, message: impl Into<String>) -> ParseError {
        ParseError::new(self.line_no, t.column, message)
    }

    /// A cell written `R<row>C<col>`, one symbol each.
    fn cell(&self, t: &Token) -> Result<usize, ParseError> {
        let b = t.text.as_bytes();
        let digit = |c: u8| match c {
            b'1'..=b'9' => Some((c - b'1') as usize),
            b'a'..=b'g' | b'A'..=b'G' => Some((c.to_ascii_lowercase() - b'a') as usize + 9),
            _ => None,
        };
        let n = self.shape.size();
        if b.len() == 4 && b[0].eq_ignore_ascii_case(&b'R') && b[2].eq_ignore_ascii_case(&b'C') {
            if let (Some(r), Some(c)) = (digit(b[1]), digit(b[3])) {
                if r < n && c < n {
                    return Ok(self.shape.cell(r, c));
                }
            }
        }
        Err(self.err(t, format!("'{}' is not a cell of a {n}x{n} grid", Quoted(&t.text))))
    }

    fn cells(&self, name: &Token, args: &[Token]) -> Result<Vec<usize>, ParseError> {
        if args.is_empty() {
            return Err(self.err(name, format!("{} needs cells", name.text)));
        }
        args.iter().map(|t| self.cell(t)).collect()
    }

    /// Cells that must all differ: a cell listed twice is an error.
    fn distinct_cells(&self, name: &Token, args: &[Token]) -> Result<Vec<usize>, ParseError> {
        let cells = self.cells(name, args)?;
        for (i, c) in cells.iter().enumerate() {
            if cells[..i].contains(c) {
                return Err(self.err(&args[i], format!("{} lists cell {} twice", name.text, args[i].text)));
            }
        }
        Ok(cells)
    }

    fn int(&self, t: &Token) -> Result<i32, ParseError> {
        t.text
            .parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= 1_000_000)
            .ok_or_else(|| self.err(t, format!("'{}' is not an integer", Quoted(&t.text))))
    }

    /// The first argument as a number, then the cells.
    fn int_and_cells(&self, name: &Token, args: &[Token]) -> Result<(i32, Vec<usize>), ParseError> {
        let first = args.first().ok_or_else(|| self.err(name, format!("{} needs a number and cells", name.text)))?;
        Ok((self.int(first)?, self.cells(name, &args[1..])?))
    }

    fn no_args(&self, name: &Token, args: &[Token]) -> Result<(), ParseError> {
        match args.first() {
            Some(t) => Err(self.err(t, format!("{} takes no arguments", name.text))),
            None => Ok(()),
        }
    }

    /// Cells of a constraint that joins adjacent pairs: at least one pair.
    fn paired_cells(&self, name: &Token, args: &[Token]) -> Result<Vec<usize>, ParseError> {
        let cells = self.cells(name, args)?;
        if regions::adjacent_pairs(self.shape, &cells).is_empty() {
            return Err(self.err(name, format!("{} joins no orthogonally adjacent cells", name.text)));
        }
        Ok(cells)
    }

    fn item(&mut self, puzzle: &mut Puzzle, name: &Token, args: &[Token]) -> Result<(), ParseError> {
        let n = self.shape.size();
        let constraint = match name.text.as_str() {
            "" => return self.givens(puzzle, args),
            "Shape" => return Ok(()),
            "NoBoxes" => {
                self.no_args(name, args)?;
                puzzle.no_boxes = true;
                return Ok(());
            }
            "Jigsaw" => return self.jigsaw(puzzle, name, args),
            "Diagonal" => match args.iter().map(|t| t.text.as_str()).collect::<Vec<_>>()[..] {
                ["1"] => Constraint::Diagonal(Diagonal::Anti),
                ["-1"] => Constraint::Diagonal(Diagonal::Main),
                _ => return Err(self.err(name, "Diagonal takes 1 (╱) or -1 (╲)")),
            },
            "Windoku" | "DisjointSets" | "AntiKnight" | "AntiKing" | "AntiConsecutive" | "StrictKropki"
            | "StrictXV" => {
                self.no_args(name, args)?;
                match name.text.as_str() {
                    "Windoku" => Constraint::Windoku,
                    "DisjointSets" => Constraint::DisjointSets,
                    "AntiKnight" => Constraint::AntiKnight,
                    "AntiKing" => Constraint::AntiKing,
                    "AntiConsecutive" => Constraint::AntiConsecutive,
                    "StrictKropki" => Constraint::StrictKropki,
                    _ => Constraint::StrictXV,
                }
            }
            "Cage" => {
                let first = args.first().ok_or_else(|| self.err(name, "Cage needs a sum and cells"))?;
                let sum = if first.text.is_empty() { 0 } else { self.int(first)? };
                let cells = self.distinct_cells(name, &args[1..])?;
                Constraint::Cage { sum: (sum != 0).then_some(sum), cells }
            }
            "Thermo" => Constraint::Thermo(self.cells(name, args)?),
            "Arrow" => Constraint::Arrow(self.cells(name, args)?),
            "Whisper" => {
                let first = args.first().ok_or_else(|| self.err(name, "Whisper needs cells"))?;
                if self.cell(first).is_ok() {
                    Constraint::Whisper { difference: 5, cells: self.cells(name, args)? }
                } else {
                    let (difference, cells) = self.int_and_cells(name, args)?;
                    Constraint::Whisper { difference, cells }
                }
            }
            "Renban" => Constraint::Renban(self.distinct_cells(name, args)?),
            "X" => Constraint::X(self.paired_cells(name, args)?),
            "V" => Constraint::V(self.paired_cells(name, args)?),
            "BlackDot" => Constraint::BlackDot(self.paired_cells(name, args)?),
            "WhiteDot" => Constraint::WhiteDot(self.paired_cells(name, args)?),
            "GreaterThan" => Constraint::GreaterThan(self.paired_cells(name, args)?),
            "LittleKiller" => {
                let [sum, start] = args else {
                    return Err(self.err(name, "LittleKiller takes a sum and a starting cell"));
                };
                let sum = self.int(sum)?;
                let from = self.cell(start)?;
                let cells = regions::little_killer(self.shape, from)
                    .ok_or_else(|| self.err(start, format!("no little killer diagonal starts at {}", start.text)))?;
                Constraint::LittleKiller { sum, cells }
            }
            "Sandwich" => {
                let [sum, line] = args else {
                    return Err(self.err(name, "Sandwich takes a sum and a row or column"));
                };
                let sum = self.int(sum)?;
                let cells = regions::full_line(self.shape, &line.text, true)
                    .ok_or_else(|| self.err(line, format!("'{}' is not a row or column", Quoted(&line.text))))?;
                Constraint::Sandwich { sum, cells }
            }
            "XSum" | "Skyscraper" => return self.double_line(puzzle, name, args),
            "Palindrome" => Constraint::Palindrome(self.cells(name, args)?),
            "Between" => Constraint::Between(self.ends_and_line(name, args, 2)?),
            "Lockout" => {
                let (difference, cells) = self.int_and_cells(name, args)?;
                if cells.len() < 2 {
                    return Err(self.err(name, "Lockout needs at least two cells"));
                }
                Constraint::Lockout { difference, cells }
            }
            "Quad" => {
                let first = args.first().ok_or_else(|| self.err(name, "Quad needs a cell and values"))?;
                let top_left = self.cell(first)?;
                let (r, c) = self.shape.row_col(top_left);
                if r + 1 >= n || c + 1 >= n {
                    return Err(self.err(first, format!("no 2x2 square starts at {}", first.text)));
                }
                let cells = [top_left, top_left + 1, top_left + n, top_left + n + 1];
                let values = args[1..].iter().map(|t| self.value(t)).collect::<Result<Vec<u8>, _>>()?;
                if values.len() > 4 {
                    return Err(self.err(name, "a Quad holds at most four values"));
                }
                Constraint::Quad { cells, values }
            }
            "PillArrow" => {
                let (pill, cells) = self.int_and_cells(name, args)?;
                if pill != 2 && pill != 3 {
                    return Err(self.err(&args[0], "the pill holds 2 or 3 digits"));
                }
                let pill = pill as usize;
                if cells.len() <= pill {
                    return Err(self.err(name, "a PillArrow has more cells than its pill"));
                }
                let mut pill_cells = cells[..pill].to_vec();
                pill_cells.sort_unstable();
                let readable = pill_cells.windows(2).all(|w| {
                    let ((r0, c0), (r1, c1)) = (self.shape.row_col(w[0]), self.shape.row_col(w[1]));
                    (r1 == r0 && c1 == c0 + 1) || (c1 == c0 && r1 == r0 + 1) || (r1 == r0 + 1 && c1 == c0 + 1)
                });
                if !readable {
                    return Err(self.err(name, "pill cells must touch, in reading order"));
                }
                Constraint::PillArrow { pill, cells }
            }
            "DoubleArrow" => Constraint::DoubleArrow(self.ends_and_line(name, args, 3)?),
            "RegionSumLine" => Constraint::RegionSumLine(self.cells(name, args)?),
            "SumLine" => {
                let mut args = args;
                let looped = args.last().is_some_and(|t| t.text == "LOOP");
                if looped {
                    args = &args[..args.len() - 1];
                }
                let (sum, cells) = self.int_and_cells(name, args)?;
                if !(1..=120).contains(&sum) {
                    return Err(self.err(&args[0], "a SumLine's sum is from 1 to 120"));
                }
                Constraint::SumLine { sum, looped, cells }
            }
            "Lunchbox" => {
                let first = args.first().ok_or_else(|| self.err(name, "Lunchbox needs a sum and cells"))?;
                let sum = self.int(first)?;
                if sum < 0 {
                    return Err(self.err(first, "a Lunchbox sum is at least 0"));
                }
                Constraint::Lunchbox { sum, cells: self.distinct_cells(name, &args[1..])? }
            }
            "Zipper" => Constraint::Zipper(self.cells(name, args)?),
            "Modular" => {
                let (modulus, cells) = self.int_and_cells(name, args)?;
                if modulus < 1 {
                    return Err(self.err(&args[0], "Modular needs a modulus of at least 1"));
                }
                Constraint::Modular { modulus, cells }
            }
            "Entropic" => {
                if n != 9 {
                    return Err(self.err(name, "Entropic lines need values 1 to 9"));
                }
                Constraint::Entropic(self.cells(name, args)?)
            }
            other if UNSUPPORTED.contains(&other) => {
                return Err(self.err(name, format!("unsupported constraint type '{other}'")));
            }
            other => return Err(self.err(name, format!("unknown constraint type '{}'", Quoted(other)))),
        };
        puzzle.constraints.push(constraint);
        Ok(())
    }

    /// A line with two ends and at least `least` cells.
    fn ends_and_line(&self, name: &Token, args: &[Token], least: usize) -> Result<Vec<usize>, ParseError> {
        let cells = self.cells(name, args)?;
        if cells.len() < least {
            return Err(self.err(name, format!("{} needs at least {least} cells", name.text)));
        }
        Ok(cells)
    }

    fn value(&self, t: &Token) -> Result<u8, ParseError> {
        let n = self.shape.size();
        t.text
            .parse::<u8>()
            .ok()
            .filter(|v| (1..=n as u8).contains(v) && t.text == v.to_string())
            .ok_or_else(|| self.err(t, format!("'{}' is not a value of a {n}x{n} grid", Quoted(&t.text))))
    }

    /// `R1C1_5` (a given) or `R1C1_1_3` (candidates); several givens for
    /// one cell keep the values common to all.
    fn givens(&self, puzzle: &mut Puzzle, args: &[Token]) -> Result<(), ParseError> {
        for t in args {
            let mut parts = t.text.split('_');
            let cell_text = parts.next().unwrap_or("");
            let cell = self.cell(&Token { text: cell_text.into(), column: t.column })?;
            let mut mask: Mask = 0;
            let mut column = t.column + cell_text.chars().count() + 1;
            for part in parts {
                mask |= 1 << (self.value(&Token { text: part.into(), column })? - 1);
                column += part.chars().count() + 1;
            }
            puzzle.candidates[cell] &= mask;
        }
        Ok(())
    }

    /// `.Jigsaw~<layout>` (or ISS's older `.Jigsaw~<shape>~<layout>`): one
    /// symbol per cell, cells with the same symbol forming one region.
    fn jigsaw(&self, puzzle: &mut Puzzle, name: &Token, args: &[Token]) -> Result<(), ParseError> {
        let layout = match args {
            [layout] | [_, layout] => layout,
            _ => return Err(self.err(name, "Jigsaw takes one layout")),
        };
        let n = self.shape.size();
        let symbols: Vec<char> = layout.text.chars().collect();
        if symbols.len() != self.shape.cells() {
            return Err(
                self.err(layout, format!("a jigsaw layout has {} symbols, not {}", self.shape.cells(), symbols.len()))
            );
        }
        let mut names: Vec<char> = symbols.clone();
        names.sort_unstable();
        names.dedup();
        if names.len() == 1 {
            return Ok(());
        }
        for name_char in names {
            let region: Vec<usize> = (0..symbols.len()).filter(|&i| symbols[i] == name_char).collect();
            if region.len() != n {
                return Err(
                    self.err(layout, format!("jigsaw region '{name_char}' has {} cells, not {n}", region.len()))
                );
            }
            if !puzzle.regions.contains(&region) {
                puzzle.regions.push(region);
            }
        }
        Ok(())
    }

    /// `.XSum~R1~<from the left>~<from the right>` and the same for
    /// skyscrapers; an empty clue is no clue.
    fn double_line(&self, puzzle: &mut Puzzle, name: &Token, args: &[Token]) -> Result<(), ParseError> {
        let (id, clues) = match args {
            [id, rest @ ..] if !rest.is_empty() && rest.len() <= 2 => (id, rest),
            _ => return Err(self.err(name, format!("{} takes a row or column and one or two clues", name.text))),
        };
        for (k, clue) in clues.iter().enumerate() {
            if clue.text.is_empty() {
                continue;
            }
            let value = self.int(clue)?;
            if value == 0 {
                return Err(self.err(clue, "a clue cannot be 0"));
            }
            let cells = regions::full_line(self.shape, &id.text, k == 0)
                .ok_or_else(|| self.err(id, format!("'{}' is not a row or column", Quoted(&id.text))))?;
            puzzle.constraints.push(if name.text == "XSum" {
                Constraint::XSum { sum: value, cells }
            } else {
                Constraint::Skyscraper { count: value, cells }
            });
        }
        Ok(())
    }
}
