//! The cell sets the rules speak of: diagonals, windoku boxes, disjoint
//! sets, knight and king neighbours, the lines outside clues look along,
//! and the stretches of a line inside one region.

use super::model::{Diagonal, Puzzle, Shape};

/// The cells of a diagonal, top row first.
pub fn diagonal(shape: Shape, d: Diagonal) -> Vec<usize> {
    let n = shape.size();
    (0..n)
        .map(|r| match d {
            Diagonal::Main => shape.cell(r, r),
            Diagonal::Anti => shape.cell(r, n - 1 - r),
        })
        .collect()
}

/// The windoku boxes: boxes of the default size, one cell apart from the
/// edges and from each other (four of them on a 9x9 grid).
pub fn windoku(shape: Shape) -> Vec<Vec<usize>> {
    let Some((h, w)) = shape.box_dims() else { return Vec::new() };
    let n = shape.size();
    let mut out = Vec::new();
    let mut col = 1;
    while col + w < n {
        let mut row = 1;
        while row + h < n {
            out.push((0..n).map(|k| shape.cell(row + k % h, col + k / h)).collect());
            row += h + 1;
        }
        col += w + 1;
    }
    out
}

/// The disjoint sets: for each position inside a box, that position's cell in every box.
pub fn disjoint_sets(shape: Shape) -> Vec<Vec<usize>> {
    let boxes = shape.boxes();
    (0..boxes.first().map_or(0, Vec::len)).map(|i| boxes.iter().map(|b| b[i]).collect()).collect()
}

/// Every unordered pair of cells `steps` apart, each pair once.
fn offset_pairs(shape: Shape, steps: &[(isize, isize)]) -> Vec<(usize, usize)> {
    let n = shape.size() as isize;
    let mut out = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for &(dr, dc) in steps {
                let (rr, cc) = (r + dr, c + dc);
                if (0..n).contains(&rr) && (0..n).contains(&cc) {
                    out.push((shape.cell(r as usize, c as usize), shape.cell(rr as usize, cc as usize)));
                }
            }
        }
    }
    out
}

/// Pairs of cells a knight's move apart.
pub fn knight_pairs(shape: Shape) -> Vec<(usize, usize)> {
    offset_pairs(shape, &[(1, 2), (2, 1), (1, -2), (2, -1)])
}

/// Pairs of cells diagonally touching (the orthogonal ones already share a row or column).
pub fn king_pairs(shape: Shape) -> Vec<(usize, usize)> {
    offset_pairs(shape, &[(1, 1), (1, -1)])
}

/// Pairs of orthogonally adjacent cells, the smaller index first.
pub fn orthogonal_pairs(shape: Shape) -> Vec<(usize, usize)> {
    offset_pairs(shape, &[(1, 0), (0, 1)])
}

/// The pairs a dot, an X, a V or a `>` joins: each listed cell with the
/// orthogonally adjacent cells listed after it, in that order.
pub fn adjacent_pairs(shape: Shape, cells: &[usize]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if shape.orthogonal(a, b) && !out.contains(&(a, b)) && !out.contains(&(b, a)) {
                out.push((a, b));
            }
        }
    }
    out
}

/// The diagonal a little killer clue at `start` sums, from `start` inwards,
/// or `None` when no clue sits there. Clues on the left edge look down and
/// right, on the right edge up and left, on the top edge down and left, on
/// the bottom edge up and right; a diagonal is named by its first cell in
/// that order, and one already named is not named again.
pub fn little_killer(shape: Shape, start: usize) -> Option<Vec<usize>> {
    let n = shape.size() as isize;
    let mut seen: Vec<Vec<usize>> = Vec::new();
    let mut starts: Vec<(isize, isize, isize, isize)> = Vec::new();
    starts.extend((0..n - 1).map(|r| (r, 0, 1, 1)));
    starts.extend((1..n - 1).map(|r| (r, n - 1, -1, -1)));
    starts.extend((1..n).map(|c| (0, c, 1, -1)));
    starts.extend((1..n - 1).map(|c| (n - 1, c, -1, 1)));
    for (r0, c0, dr, dc) in starts {
        let (mut r, mut c) = (r0, c0);
        let mut line = Vec::new();
        while (0..n).contains(&r) && (0..n).contains(&c) {
            line.push(shape.cell(r as usize, c as usize));
            r += dr;
            c += dc;
        }
        if line.len() <= 1 {
            continue;
        }
        let mut key = line.clone();
        key.sort_unstable();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        if line[0] == start {
            return Some(line);
        }
    }
    None
}

/// A row (`R3`) or column (`C5`) read forwards (left to right, top to
/// bottom) or backwards; `None` for anything else.
pub fn full_line(shape: Shape, id: &str, forwards: bool) -> Option<Vec<usize>> {
    let mut chars = id.chars();
    let kind = chars.next()?.to_ascii_uppercase();
    let rest = chars.as_str();
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 2 {
        return None;
    }
    let i: usize = rest.parse().ok()?;
    let n = shape.size();
    if i == 0 || i > n {
        return None;
    }
    let mut line: Vec<usize> = match kind {
        'R' => (0..n).map(|c| shape.cell(i - 1, c)).collect(),
        'C' => (0..n).map(|r| shape.cell(r, i - 1)).collect(),
        _ => return None,
    };
    if !forwards {
        line.reverse();
    }
    Some(line)
}

/// The stretches of a line inside one box each (inside one jigsaw region
/// when the grid has no boxes; the whole line as one stretch when it has
/// neither).
pub fn region_segments(puzzle: &Puzzle, cells: &[usize]) -> Vec<Vec<usize>> {
    let regions = if !puzzle.no_boxes && puzzle.shape.box_dims().is_some() {
        puzzle.shape.boxes()
    } else {
        puzzle.regions.clone()
    };
    if regions.is_empty() {
        return vec![cells.to_vec()];
    }
    let region_of = |cell: usize| regions.iter().position(|r| r.contains(&cell));
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut current = None;
    for &cell in cells {
        let r = region_of(cell);
        match out.last_mut() {
            Some(last) if r == current => last.push(cell),
            _ => out.push(vec![cell]),
        }
        current = r;
    }
    out
}
