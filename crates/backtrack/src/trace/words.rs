//! Every word a trace prints, in each [`Lang`]: the event lines, the
//! summary, and what each space says about its choices, rejections and
//! solutions. Choices written in a notation (`r1c4=7`, `+ 3`, a letter)
//! read the same in every language.

use crate::lang::Lang;

/// One piece of a trace's text, as data; [`Words::say`] gives the words.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Words<'a> {
    /// An accepted choice (`forced`: further cells it placed).
    Try { choice: &'a str, forced: usize },
    /// A choice that broke a constraint, and why.
    Reject { choice: &'a str, why: &'a str },
    /// A choice taken back.
    Undo { choice: &'a str },
    /// A node with nothing that passed.
    DeadEnd,
    /// The `count`-th solution and its text.
    Solution { count: u64, text: &'a str },
    /// A queen's square, counted from 1.
    RowCol { row: usize, col: usize },
    /// A queen at (`row`, `col`) attacks along `line` ("column" or "diagonal").
    SameLine { line: &'static str, row: usize, col: usize },
    /// A queen attacked, by no queen named.
    Attacked,
    /// A sudoku digit already held by `unit` ("row", "column", "box") at cell `at`.
    AlreadyInUnit { digit: char, unit: &'static str, at: &'a str },
    /// A sudoku push that broke a constraint, no cell named.
    BreaksConstraint,
    /// The smart sudoku's propagation failed.
    Contradiction,
    /// A value of a multiset with every copy used.
    NoCopyLeft,
    /// 14888: the value after a push lies inside the range already walked from the same state.
    RangeWalked { value: i128, low: i128, high: i128 },
    /// 14888: a complete expression, its value, and the extremes so far.
    Expression { expression: &'a str, value: i128, max: i128, min: i128 },
    /// 14888's answer.
    Extremes { max: i128, min: i128 },
    /// 1759: a complete password without a vowel.
    NoVowel { word: &'a str },
    /// 1759: a complete password with fewer than two consonants.
    FewConsonants { word: &'a str, consonants: usize },
    /// 1759: after a letter, fewer vowels or consonants are left than still needed.
    TooFewLeft { vowels: bool, left: usize, needed: usize },
    /// 1759: fewer places are left than the vowels and consonants still needed.
    TooFewPlaces { places: usize, needed: usize },
    /// 1987: a letter passed before, on the cell `at`.
    LetterPassed { letter: char, at: &'a str },
    /// 1987: the cells so far plus the letters not yet passed cannot beat the best walk.
    CannotBeat { cells: u32, left: u32, best: u32 },
    /// 1987: a state (a cell, the letters passed) already walked from.
    StateWalked { at: &'a str, letters: &'a str },
    /// 1987: a walk that cannot go on, its letters, and the best so far.
    Walk { letters: &'a str, best: u32 },
    /// 1987's answer.
    Longest { cells: u32 },
    /// The summary's opening.
    Summary,
    /// The summary of a search stopped after `nodes` nodes.
    StoppedAfter { nodes: u64 },
    /// A number of solutions.
    Solutions { count: u64 },
    /// The nodes of both searches (already written as numbers or bounds).
    NodesBoth { naive: &'a str, smart: &'a str },
    /// The nodes of the only search.
    NodesOne { nodes: &'a str },
    /// More than `nodes` nodes.
    MoreThan { nodes: u64 },
    /// The answer, after the nodes.
    Answer { answer: &'a str },
}

impl Words<'_> {
    /// These words in `lang`.
    pub(crate) fn say(self, lang: Lang) -> String {
        match lang {
            Lang::En => self.english(),
            Lang::Ko => self.korean(),
        }
    }

    fn english(self) -> String {
        use Words::*;
        match self {
            Try { choice, forced: 0 } => format!("try {choice}"),
            Try { choice, forced } => format!("try {choice} (+{forced} forced)"),
            Reject { choice, why } => format!("reject {choice}: {why}"),
            Undo { choice } => format!("undo {choice}"),
            DeadEnd => "dead end".into(),
            Solution { count, text } => format!("solution {count}: {text}"),
            RowCol { row, col } => format!("row {row} col {col}"),
            SameLine { line, row, col } => format!("same {line} as row {row} col {col}"),
            Attacked => "attacked".into(),
            AlreadyInUnit { digit, unit, at } => format!("{digit} already in its {unit} at {at}"),
            BreaksConstraint => "breaks a constraint".into(),
            Contradiction => "propagation runs into a contradiction".into(),
            NoCopyLeft => "no copy left".into(),
            RangeWalked { value, low, high } => {
                format!("{value} lies in {low}..{high}, already walked with the same operators used")
            }
            Expression { expression, value, max, min } => format!("{expression} = {value} (max {max}, min {min})"),
            Extremes { max, min } => format!("max {max}, min {min}"),
            NoVowel { word } => format!("{word} has no vowel"),
            FewConsonants { word, consonants } => {
                format!("{word} has {consonants} consonant{}, 2 needed", if consonants == 1 { "" } else { "s" })
            }
            TooFewLeft { vowels, left, needed } => {
                let what = if vowels { "vowel" } else { "consonant" };
                format!("{left} {what}{} left after it, {needed} needed", if left == 1 { "" } else { "s" })
            }
            TooFewPlaces { places, needed } => {
                format!("{places} place{} left for {needed} letters still needed", if places == 1 { "" } else { "s" })
            }
            LetterPassed { letter, at } => format!("{letter} already passed at {at}"),
            CannotBeat { cells, left, best } => {
                format!("{cells} cells + {left} letters not passed cannot beat {best}")
            }
            StateWalked { at, letters } => format!("{at} with {letters} passed was walked from before"),
            Walk { letters, best } => format!("{} cells {letters} (best {best})", letters.len()),
            Longest { cells } => format!("the longest walk passes {cells} cells"),
            Summary => "summary: ".into(),
            StoppedAfter { nodes } => format!("stopped after {nodes} nodes: at least "),
            Solutions { count } => format!("{count} solution{}", if count == 1 { "" } else { "s" }),
            NodesBoth { naive, smart } => format!("; nodes: naive {naive}, smart {smart}"),
            NodesOne { nodes } => format!("; nodes: {nodes}"),
            MoreThan { nodes } => format!("more than {nodes}"),
            Answer { answer } => format!("; answer: {answer}"),
        }
    }

    fn korean(self) -> String {
        use Words::*;
        let unit = |unit: &str| {
            match unit {
                "row" => "행",
                "column" => "열",
                "box" => "상자",
                "diagonal" => "대각선",
                other => other,
            }
            .to_string()
        };
        match self {
            Try { choice, forced: 0 } => format!("시도 {choice}"),
            Try { choice, forced } => format!("시도 {choice} (+{forced}칸 강제)"),
            Reject { choice, why } => format!("거절 {choice}: {why}"),
            Undo { choice } => format!("되돌림 {choice}"),
            DeadEnd => "막다른 길".into(),
            Solution { count, text } => format!("해 {count}: {text}"),
            RowCol { row, col } => format!("{row}행 {col}열"),
            SameLine { line, row, col } => format!("{row}행 {col}열과 같은 {}", unit(line)),
            Attacked => "공격받는 자리".into(),
            AlreadyInUnit { digit, unit: u, at } => format!("{digit}은(는) 이미 같은 {}의 {at}에 있음", unit(u)),
            BreaksConstraint => "제약을 어김".into(),
            Contradiction => "전파하다 모순에 부딪힘".into(),
            NoCopyLeft => "남은 개수가 없음".into(),
            RangeWalked { value, low, high } => {
                format!("{value}은(는) 같은 연산자를 쓴 뒤 이미 탐색한 범위 {low}..{high} 안")
            }
            Expression { expression, value, max, min } => {
                format!("{expression} = {value} (최댓값 {max}, 최솟값 {min})")
            }
            Extremes { max, min } => format!("최댓값 {max}, 최솟값 {min}"),
            NoVowel { word } => format!("{word}에 모음이 없음"),
            FewConsonants { word, consonants } => format!("{word}의 자음은 {consonants}개, 2개 필요"),
            TooFewLeft { vowels, left, needed } => {
                let what = if vowels { "모음" } else { "자음" };
                format!("그 뒤에 남은 {what} {left}개, {needed}개 필요")
            }
            TooFewPlaces { places, needed } => format!("남은 자리 {places}개에 필요한 글자 {needed}개"),
            LetterPassed { letter, at } => format!("{letter}은(는) 이미 {at}에서 지나감"),
            CannotBeat { cells, left, best } => {
                format!("지나온 {cells}칸 + 아직 안 지난 글자 {left}개로는 {best}칸을 넘을 수 없음")
            }
            StateWalked { at, letters } => format!("{letters}을(를) 지나 {at}에 온 상태는 이미 탐색함"),
            Walk { letters, best } => format!("{}칸 {letters} (최고 {best}칸)", letters.len()),
            Longest { cells } => format!("가장 긴 길은 {cells}칸"),
            Summary => "요약: ".into(),
            StoppedAfter { nodes } => format!("노드 {nodes}개에서 멈춤: 최소 "),
            Solutions { count } => format!("해 {count}개"),
            NodesBoth { naive, smart } => format!("; 노드: naive {naive}, smart {smart}"),
            NodesOne { nodes } => format!("; 노드: {nodes}"),
            MoreThan { nodes } => format!("{nodes}개 초과"),
            Answer { answer } => format!("; 답: {answer}"),
        }
    }
}
