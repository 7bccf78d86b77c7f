//! Splitting people into two teams (14889 스타트와 링크: two teams of N/2;
//! 15661 링크와 스타트: two teams of any sizes, each of at least one person).
//! People i and j in the same team add `S[i][j] + S[j][i]` to its strength;
//! the smallest difference between the two strengths is wanted.
//!
//! # The search
//!
//! Let `T[i]` be person i's row sum plus column sum. Summing `T` over team A
//! counts each pair inside A twice and each pair across once, so
//! `strength(A) - strength(B) = (ΣA T - ΣB T) / 2`: the problem is to split
//! the numbers `T` into two parts of the closest sums. The walk takes the
//! people by decreasing `T`, puts the first in team A (the teams' names do
//! not matter) and each next one in either team, and prunes
//!
//! * when the difference so far exceeds all that is left to place by at
//!   least the best difference found: no completion can do better;
//! * when a team is full (14889): the rest go to the other team at once;
//!
//! and stops as soon as the best difference reaches the floor that the
//! numbers allow: every difference is `ΣT` minus twice a sum of `T`s, so it
//! is congruent to `ΣT` modulo twice the `T`s' greatest common divisor.

use crate::tokens::Tokens;
use crate::ParseError;

/// Most people (the judge's limit is 20).
pub const MAX_N: usize = 32;

/// Largest `S[i][j]` (the judge's limit is 100).
pub const MAX_S: u64 = 1_000_000;

/// One input: the matrix `S`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Teams {
    /// `s[i][j]`: what i and j add to their team's strength together with `s[j][i]`.
    pub s: Vec<Vec<u64>>,
}

/// The team sizes a split may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizes {
    /// N/2 and N/2 (14889).
    Equal,
    /// Any sizes, each at least 1 (15661).
    Any,
}

/// The smallest difference found, and how many nodes the walk visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The smallest difference between the two teams' strengths.
    pub difference: u64,
    /// Nodes of the search tree visited.
    pub nodes: u64,
}

/// Reads `N` (`4..=`[`MAX_N`], even for [`Sizes::Equal`]) and the N x N
/// matrix `S` (entries `0..=`[`MAX_S`], the diagonal 0).
pub fn parse_teams(text: &str, sizes: Sizes) -> Result<Teams, ParseError> {
    let mut tokens = Tokens::new(text);
    let (n, token) = tokens.number_at::<usize>("N", 4, MAX_N)?;
    if sizes == Sizes::Equal && n % 2 == 1 {
        return Err(token.error(format!("N must be even, found {n}")));
    }
    let s = super::parse_square(&mut tokens, n, "S", MAX_S)?;
    tokens.expect_end("the matrix S")?;
    Ok(Teams { s })
}

/// The smallest difference of strengths over the splits of `sizes`.
pub fn closest_split(teams: &Teams, sizes: Sizes) -> Split {
    let n = teams.s.len();
    let mut weights: Vec<u64> = (0..n).map(|i| (0..n).map(|j| teams.s[i][j] + teams.s[j][i]).sum()).collect();
    weights.sort_unstable_by(|a, b| b.cmp(a));
    let mut left = vec![0; n + 1];
    for i in (0..n).rev() {
        left[i] = left[i + 1] + weights[i];
    }
    let total = left[0];
    let gcd = weights.iter().fold(0, |g, &w| gcd(g, w));
    let floor = if gcd == 0 {
        0
    } else {
        let r = total % (2 * gcd);
        r.min(2 * gcd - r)
    };
    let cap = match sizes {
        Sizes::Equal => n / 2,
        Sizes::Any => n - 1,
    };
    let mut walk = Walk { weights: &weights, left: &left, cap, sizes, floor, best: u64::MAX, nodes: 0 };
    // Person 0 is in team A: difference ΣA - ΣB so far, and the sizes.
    walk.visit(1, weights[0] as i64, 1, 0);
    Split { difference: walk.best / 2, nodes: walk.nodes }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The walk over who goes where, by decreasing weight.
struct Walk<'a> {
    /// `T`, decreasing.
    weights: &'a [u64],
    /// `left[i]`: the sum of `weights[i..]`.
    left: &'a [u64],
    /// Most people in one team.
    cap: usize,
    sizes: Sizes,
    /// No split has a difference below this.
    floor: u64,
    /// The smallest `|ΣA - ΣB|` found.
    best: u64,
    nodes: u64,
}

impl Walk<'_> {
    /// Person `next` is to be placed; the difference so far is `diff`, the teams have `a` and `b` people.
    fn visit(&mut self, next: usize, diff: i64, a: usize, b: usize) {
        self.nodes += 1;
        if self.best <= self.floor {
            return;
        }
        let left = self.left[next] as i64;
        if next == self.weights.len() || a == self.cap || b == self.cap {
            // Whoever is left joins the team that is not full.
            let last = if a == self.cap { diff - left } else { diff + left };
            let b_final = if a == self.cap { b + self.weights.len() - next } else { b };
            if self.sizes == Sizes::Any && b_final == 0 {
                return;
            }
            self.best = self.best.min(last.unsigned_abs());
            return;
        }
        if diff.unsigned_abs() >= self.best.saturating_add(left as u64) {
            return;
        }
        let w = self.weights[next] as i64;
        // The lighter team first: the difference shrinks toward 0 sooner.
        if diff <= 0 {
            self.visit(next + 1, diff + w, a + 1, b);
            self.visit(next + 1, diff - w, a, b + 1);
        } else {
            self.visit(next + 1, diff - w, a, b + 1);
            self.visit(next + 1, diff + w, a + 1, b);
        }
    }
}

/// Judge-exact answer of 14889 (two teams of N/2).
pub fn solve_14889(input: &str) -> Result<String, ParseError> {
    Ok(format!("{}\n", closest_split(&parse_teams(input, Sizes::Equal)?, Sizes::Equal).difference))
}

/// Judge-exact answer of 15661 (two teams of any sizes).
pub fn solve_15661(input: &str) -> Result<String, ParseError> {
    Ok(format!("{}\n", closest_split(&parse_teams(input, Sizes::Any)?, Sizes::Any).difference))
}
