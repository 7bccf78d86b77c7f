//! A rating on Sudoku Explainer's scale (1.0 to 11 and a little more), held
//! in tenths so that ratings compare and add exactly: a [`Score`] shows and
//! parses as `8.3` and goes to JSON as the number `8.3`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Quoted;

/// One rating in tenths: `Score::from_tenths(83)` is 8.3.
///
/// ```
/// use backtrack::sudoku::score::Score;
///
/// let hard: Score = "8.3".parse().unwrap();
/// assert_eq!(hard, Score::from_tenths(83));
/// assert_eq!(hard.to_string(), "8.3");
/// assert!(hard > Score::from_tenths(72));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(u16);

impl Score {
    /// The highest score [`Score::from_str`] reads: 20.0.
    pub const MAX: Score = Score(200);

    /// The score of `tenths` tenths (72 is 7.2).
    pub const fn from_tenths(tenths: u16) -> Score {
        Score(tenths)
    }

    /// The score in tenths (7.2 is 72).
    pub const fn tenths(self) -> u16 {
        self.0
    }

    /// The score as a number (72 tenths is 7.2).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

/// Two scores added: a base rating and a bonus (Sudoku Explainer's length
/// bonus of a chain, say).
impl std::ops::Add for Score {
    type Output = Score;

    fn add(self, bonus: Score) -> Score {
        Score(self.0 + bonus.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// Text that is no score: not a number, or a number outside 0..20.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreError(String);

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScoreError {}

impl Score {
    /// The score nearest `value` (rounded to tenths), if it lies in 0..20.
    fn from_value(value: f64) -> Option<Score> {
        (0.0..=Score::MAX.value()).contains(&value).then(|| Score((value * 10.0).round() as u16))
    }
}

impl FromStr for Score {
    type Err = ScoreError;

    /// Reads a number from 0 to 20 (`7.2`, `7`, `7.25` rounded to `7.3`),
    /// spaces around it allowed.
    fn from_str(text: &str) -> Result<Score, ScoreError> {
        let s = text.trim();
        let value: f64 = s.parse().map_err(|_| ScoreError(format!("'{}' is not a rating (e.g. 7.2)", Quoted(s))))?;
        Score::from_value(value).ok_or_else(|| ScoreError(format!("rating {} is outside 0..20", Quoted(s))))
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.value())
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Score, D::Error> {
        let value = f64::deserialize(deserializer)?;
        Score::from_value(value).ok_or_else(|| serde::de::Error::custom(format!("rating {value} is outside 0..20")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_round_trip() {
        for tenths in 0..=200 {
            let score = Score::from_tenths(tenths);
            let text = score.to_string();
            assert_eq!(text.parse::<Score>(), Ok(score), "{text}");
        }
        assert_eq!(Score::from_tenths(83).to_string(), "8.3");
        assert_eq!(Score::from_tenths(110).to_string(), "11.0");
        assert_eq!(" 7 ".parse::<Score>(), Ok(Score::from_tenths(70)));
        assert_eq!("7.25".parse::<Score>(), Ok(Score::from_tenths(73)));
    }

    #[test]
    fn parse_refuses_what_is_no_score() {
        assert_eq!("x".parse::<Score>().unwrap_err().to_string(), "'x' is not a rating (e.g. 7.2)");
        assert_eq!("20.1".parse::<Score>().unwrap_err().to_string(), "rating 20.1 is outside 0..20");
        assert!("-1".parse::<Score>().is_err());
        assert!("".parse::<Score>().is_err());
    }

    #[test]
    fn scores_order_by_value() {
        let mut scores: Vec<Score> = ["8.3", "1.2", "11.0", "7.2"].iter().map(|s| s.parse().unwrap()).collect();
        scores.sort();
        assert_eq!(scores.iter().map(Score::to_string).collect::<Vec<_>>(), ["1.2", "7.2", "8.3", "11.0"]);
        assert!(Score::from_tenths(99) < Score::from_tenths(100));
    }

    #[test]
    fn serde_writes_and_reads_the_number() {
        assert_eq!(serde_json::to_string(&Score::from_tenths(83)).unwrap(), "8.3");
        assert_eq!(serde_json::to_string(&Score::from_tenths(110)).unwrap(), "11.0");
        assert_eq!(serde_json::to_string(&Some(Score::from_tenths(12))).unwrap(), "1.2");
        assert_eq!(serde_json::from_str::<Score>("8.3").unwrap(), Score::from_tenths(83));
        assert!(serde_json::from_str::<Score>("21").is_err());
    }
}
