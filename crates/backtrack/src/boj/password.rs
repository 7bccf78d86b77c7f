//! Making passwords (1759 암호 만들기): of C distinct lowercase letters,
//! every password of L letters in increasing order with at least one vowel
//! (a, e, i, o, u) and at least two consonants, in dictionary order.
//!
//! # The search
//!
//! The letters are sorted and a depth-first walk decides, letter by letter,
//! to take it or not; taking letters in sorted order makes each password
//! increasing and the passwords come out in dictionary order. A branch is
//! cut when the letters left are too few to fill the password, or when the
//! vowels or consonants still needed cannot come from the letters left or
//! cannot fit in the places left.

use std::io::{self, Write};

use crate::error::Quoted;
use crate::tokens::Tokens;
use crate::ParseError;

/// One input: the password length and the letters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Letters {
    /// The length of every password, `3..=C`.
    pub len: usize,
    /// The letters, distinct, sorted.
    pub letters: Vec<u8>,
}

/// Whether `letter` is one of a, e, i, o, u.
pub fn is_vowel(letter: u8) -> bool {
    matches!(letter, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Reads `L C` (`3 <= L <= C <= 26`; the judge's C is at most 15) and the C
/// distinct lowercase letters, each its own word.
pub fn parse_letters(text: &str) -> Result<Letters, ParseError> {
    let mut tokens = Tokens::new(text);
    let len: usize = tokens.number("L", 3, 26)?;
    let c: usize = tokens.number("C", len, 26)?;
    let mut letters = Vec::with_capacity(c);
    for i in 1..=c {
        let token = tokens.expect(&format!("letter {i} of {c}"))?;
        let &[letter] = token.text.as_bytes() else {
            return Err(token.error(format!("expected one lowercase letter, found `{}`", Quoted(token.text))));
        };
        if !letter.is_ascii_lowercase() {
            return Err(token.error(format!("expected one lowercase letter, found `{}`", Quoted(token.text))));
        }
        if letters.contains(&letter) {
            return Err(token.error(format!("the letter {} is given twice", letter as char)));
        }
        letters.push(letter);
    }
    tokens.expect_end("the C letters")?;
    letters.sort_unstable();
    Ok(Letters { len, letters })
}

/// Writes every password, one per line, in dictionary order; returns how many.
pub fn write_passwords(letters: &Letters, out: &mut dyn Write) -> io::Result<u64> {
    let n = letters.letters.len();
    // vowels_from[i]: the vowels among letters[i..].
    let mut vowels_from = vec![0; n + 1];
    for i in (0..n).rev() {
        vowels_from[i] = vowels_from[i + 1] + usize::from(is_vowel(letters.letters[i]));
    }
    let mut walk = Walk {
        letters: &letters.letters,
        vowels_from: &vowels_from,
        len: letters.len,
        line: Vec::with_capacity(letters.len + 1),
        out: io::BufWriter::with_capacity(1 << 16, out),
        count: 0,
    };
    walk.visit(0, 0)?;
    walk.out.flush()?;
    Ok(walk.count)
}

/// The walk over which letters to take.
struct Walk<'a, W: Write> {
    letters: &'a [u8],
    vowels_from: &'a [usize],
    len: usize,
    /// The letters taken so far.
    line: Vec<u8>,
    out: W,
    count: u64,
}

impl<W: Write> Walk<'_, W> {
    /// Letter `next` is to be decided; `vowels` of the letters taken are vowels.
    fn visit(&mut self, next: usize, vowels: usize) -> io::Result<()> {
        let taken = self.line.len();
        let consonants = taken - vowels;
        let vowels_needed = 1usize.saturating_sub(vowels);
        let consonants_needed = 2usize.saturating_sub(consonants);
        if taken == self.len {
            if vowels_needed == 0 && consonants_needed == 0 {
                self.line.push(b'\n');
                self.out.write_all(&self.line)?;
                self.line.pop();
                self.count += 1;
            }
            return Ok(());
        }
        let places = self.len - taken;
        let rest = self.letters.len() - next;
        let (vowels_left, consonants_left) = (self.vowels_from[next], rest - self.vowels_from[next]);
        if rest < places
            || vowels_left < vowels_needed
            || consonants_left < consonants_needed
            || vowels_needed + consonants_needed > places
        {
            return Ok(());
        }
        let letter = self.letters[next];
        self.line.push(letter);
        self.visit(next + 1, vowels + usize::from(is_vowel(letter)))?;
        self.line.pop();
        self.visit(next + 1, vowels)
    }
}

/// Judge-exact answer of 1759.
pub fn solve_1759(input: &str) -> Result<String, ParseError> {
    let letters = parse_letters(input)?;
    let mut out = Vec::new();
    write_passwords(&letters, &mut out).expect("writing to memory cannot fail");
    Ok(String::from_utf8(out).expect("passwords are ASCII"))
}
