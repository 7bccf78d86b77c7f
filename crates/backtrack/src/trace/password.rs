//! 1759 (making passwords), traced two ways by [`PasswordSearch`].

use crate::boj::password::{is_vowel, Letters};
use crate::lang::Lang;
use crate::search::{Node, Order, Space};

use super::words::Words;
use super::{Strategy, Traced};

/// What both searches keep: the sorted letters and the indexes taken.
#[derive(Debug, Clone)]
struct Taken {
    letters: Vec<u8>,
    len: usize,
    path: Vec<usize>,
    /// `vowels_from[i]`: the vowels among `letters[i..]`.
    vowels_from: Vec<usize>,
}

impl Taken {
    fn new(letters: &Letters) -> Taken {
        let n = letters.letters.len();
        let mut vowels_from = vec![0; n + 1];
        for i in (0..n).rev() {
            vowels_from[i] = vowels_from[i + 1] + usize::from(is_vowel(letters.letters[i]));
        }
        Taken { letters: letters.letters.clone(), len: letters.len, path: Vec::new(), vowels_from }
    }

    fn start(&self) -> usize {
        self.path.last().map_or(0, |&i| i + 1)
    }

    fn word(&self) -> String {
        self.path.iter().map(|&i| self.letters[i] as char).collect()
    }

    fn vowels(&self) -> usize {
        self.path.iter().filter(|&&i| is_vowel(self.letters[i])).count()
    }

    /// The letters taken, 1 for `a` to 26 for `z`, then 0 for the places left.
    fn board(&self, out: &mut Vec<u8>) {
        out.extend(self.path.iter().map(|&i| self.letters[i] - b'a' + 1));
        out.resize(self.len, 0);
    }

    fn choice_text(&self, i: usize) -> String {
        (self.letters[i] as char).to_string()
    }

    fn solution(&self) -> Vec<u8> {
        self.path.iter().map(|&i| self.letters[i]).collect()
    }
}

/// Why a push was rejected.
#[derive(Debug, Clone, Copy)]
enum Short {
    /// A full password without a vowel, or with `consonants` < 2 (naive).
    Full { vowels: usize, consonants: usize },
    /// Too few vowels after the letter (smart).
    Vowels { left: usize, needed: usize },
    /// Too few consonants after the letter (smart).
    Consonants { left: usize, needed: usize },
    /// Too few places for the letters still needed (smart).
    Places { places: usize, needed: usize },
}

/// 1759 (making passwords), traced two ways.
///
/// Both searches pick the letters of a password one place at a time, each
/// after the one before in sorted order, so passwords come out in
/// dictionary order. The naive search is the one a learner writes first:
/// every combination, with the vowel and consonant counts checked once the
/// password is full (a combination that runs out of letters ends in a dead
/// end). The smart one cuts as the library's search does
/// ([`crate::boj::password`]): a letter is not tried when too few letters
/// follow it to fill the password, and is rejected when the vowels or
/// consonants still needed cannot come from the letters after it or cannot
/// fit in the places left. Both find the same passwords.
#[derive(Debug, Clone)]
pub struct PasswordSearch {
    taken: Taken,
    /// Whether letters that cannot complete the counts are cut (the smart search).
    smart: bool,
    /// Why the last push was rejected, if it was.
    short: Option<Short>,
}

impl PasswordSearch {
    /// The search of `letters` that `strategy` names.
    pub fn new(letters: &Letters, strategy: Strategy) -> PasswordSearch {
        PasswordSearch { taken: Taken::new(letters), smart: strategy == Strategy::Smart, short: None }
    }

    /// What the current path lacks: the naive search looks at a full
    /// password only, the smart one at what the letters left can still give.
    fn shortfall(&self) -> Option<Short> {
        let t = &self.taken;
        let taken = t.path.len();
        let vowels = t.vowels();
        let consonants = taken - vowels;
        if !self.smart {
            let full = taken == t.len;
            return (full && (vowels < 1 || consonants < 2)).then_some(Short::Full { vowels, consonants });
        }
        let vowels_needed = 1usize.saturating_sub(vowels);
        let consonants_needed = 2usize.saturating_sub(consonants);
        let places = t.len - taken;
        let next = t.start();
        let vowels_left = t.vowels_from[next];
        let consonants_left = t.letters.len() - next - vowels_left;
        if vowels_left < vowels_needed {
            Some(Short::Vowels { left: vowels_left, needed: vowels_needed })
        } else if consonants_left < consonants_needed {
            Some(Short::Consonants { left: consonants_left, needed: consonants_needed })
        } else if vowels_needed + consonants_needed > places {
            Some(Short::Places { places, needed: vowels_needed + consonants_needed })
        } else {
            None
        }
    }
}

impl Space for PasswordSearch {
    /// The next letter to try.
    type Branch = usize;
    /// A letter, as its index among the sorted letters.
    type Choice = usize;
    /// The password.
    type Solution = Vec<u8>;

    fn expand(&mut self, _order: Order) -> Node<usize> {
        if self.taken.path.len() == self.taken.len {
            Node::Solution
        } else {
            Node::Branch(self.taken.start())
        }
    }

    fn next_choice(&mut self, next: &mut usize) -> Option<usize> {
        // The smart search does not try a letter with fewer letters from it on than places left.
        let places = if self.smart { self.taken.len - self.taken.path.len() } else { 1 };
        let i = *next;
        *next += 1;
        (i + places <= self.taken.letters.len()).then_some(i)
    }

    fn push(&mut self, i: usize) -> bool {
        self.taken.path.push(i);
        self.short = self.shortfall();
        self.short.is_none()
    }

    fn pop(&mut self) {
        self.taken.path.pop();
    }

    fn solution(&self) -> Vec<u8> {
        self.taken.solution()
    }
}

impl Traced for PasswordSearch {
    fn board(&self, out: &mut Vec<u8>) {
        self.taken.board(out);
    }
    fn choice_text(&self, i: usize, _depth: usize, _lang: Lang) -> String {
        self.taken.choice_text(i)
    }
    fn focus(&self, _i: usize, depth: usize) -> Option<usize> {
        Some(depth)
    }
    fn rejection(&self, _i: usize, _depth: usize, lang: Lang) -> (String, Option<usize>) {
        let word = self.taken.word();
        let why = match self.short {
            Some(Short::Full { vowels: 0, .. }) => Words::NoVowel { word: &word },
            Some(Short::Full { consonants, .. }) => Words::FewConsonants { word: &word, consonants },
            Some(Short::Vowels { left, needed }) => Words::TooFewLeft { vowels: true, left, needed },
            Some(Short::Consonants { left, needed }) => Words::TooFewLeft { vowels: false, left, needed },
            Some(Short::Places { places, needed }) => Words::TooFewPlaces { places, needed },
            None => Words::BreaksConstraint,
        };
        (why.say(lang), None)
    }
    fn solution_text(&self, _lang: Lang) -> String {
        self.taken.word()
    }
}
