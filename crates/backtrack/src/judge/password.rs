//! Making passwords (BOJ 1759): `L C` and C distinct lowercase letters; the
//! answer lists, in dictionary order, every password of L increasing letters
//! with a vowel and two consonants.
//!
//! The letters come unsorted, as on the judge, and some cases have no
//! password at all (no vowel, or a single consonant): their answer is empty.

use std::io::Write;

use super::problem::foreign;
use super::{AnswerError, Draw, Input, JudgeProblem, Limits, Rng, Title};
use crate::boj::password::{parse_letters, write_passwords};

/// Letters given (`3 <= L <= C <= 15`).
const C: (usize, usize) = (3, 15);

/// BOJ 1759.
#[derive(Debug)]
pub struct Password;

fn input(len: usize, letters: &str) -> Input {
    Input::Letters { len, letters: letters.bytes().collect() }
}

impl JudgeProblem for Password {
    fn id(&self) -> u32 {
        1759
    }

    fn title(&self) -> Title {
        Title { ko: "암호 만들기", en: "every password: increasing letters, a vowel, two consonants" }
    }

    fn limits(&self) -> Limits {
        super::limits(2, 128)
    }

    fn answer(&self, input: &str, out: &mut dyn Write) -> Result<(), AnswerError> {
        write_passwords(&parse_letters(input)?, out)?;
        Ok(())
    }

    fn samples(&self) -> Vec<Input> {
        vec![input(4, "atcisw")]
    }

    fn edges(&self, _: &mut Rng) -> Vec<(&'static str, Input)> {
        vec![
            ("smallest", input(3, "cab")),
            ("no-vowel", input(3, "zbcd")),
            ("one-consonant", input(3, "uoieaz")),
            ("all-letters-one-password", input(15, "zyxwvutsrqponma")),
            ("vowels-last", input(4, "zyxwvuoie")),
        ]
    }

    fn random(&self, rng: &mut Rng) -> Input {
        let c = rng.range(C.0 as u64, C.1 as u64) as usize;
        let len = rng.range(C.0 as u64, c as u64) as usize;
        let mut letters: Vec<u8> = rng.subset(c, b'a' as u64, b'z' as u64).into_iter().map(|b| b as u8).collect();
        rng.shuffle(&mut letters);
        Input::Letters { len, letters }
    }

    fn hard(&self, rng: &mut Rng) -> Vec<(&'static str, Input)> {
        // The most passwords: 15 letters, 5 of them vowels, L = 7 (6,435 sets of letters).
        let mut letters: Vec<u8> = b"aeioubcdfghjklm".to_vec();
        rng.shuffle(&mut letters);
        vec![("most-passwords", Input::Letters { len: 7, letters })]
    }

    fn text(&self, input: &Input) -> String {
        let Input::Letters { len, letters } = input else { foreign(self.id(), input) };
        let words: Vec<String> = letters.iter().map(|&b| (b as char).to_string()).collect();
        format!("{len} {}\n{}\n", letters.len(), words.join(" "))
    }

    /// One letter less, a shorter L, a letter moved to the front of the alphabet.
    fn shrink_input(&self, input: &Input) -> Vec<Input> {
        let Input::Letters { len, letters } = input else { foreign(self.id(), input) };
        let mut out = Vec::new();
        if letters.len() > C.0 {
            for fewer in super::shrink::drop_each(letters) {
                out.push(Input::Letters { len: (*len).min(fewer.len()), letters: fewer });
            }
        }
        if *len > C.0 {
            out.push(Input::Letters { len: len - 1, letters: letters.clone() });
        }
        for i in 0..letters.len() {
            // The smallest letter not given yet, in place of a larger one, keeping vowels vowels.
            let vowel = crate::boj::password::is_vowel(letters[i]);
            let free = (b'a'..letters[i]).find(|b| !letters.contains(b) && crate::boj::password::is_vowel(*b) == vowel);
            if let Some(b) = free {
                let mut lower = letters.clone();
                lower[i] = b;
                out.push(Input::Letters { len: *len, letters: lower });
            }
        }
        out
    }
}
