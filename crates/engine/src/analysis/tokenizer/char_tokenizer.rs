//! Lucene's CharTokenizer family: a token is a maximal run of code points a predicate accepts,
//! chopped every `max` UTF-16 units, type `word`. `letter`, `lowercase`, `whitespace`,
//! `char_group`.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};
use crate::analysis::unicode::{is_java_whitespace, is_letter, to_lower};

pub enum Class {
    Letter,
    NotWhitespace,
    Group(CharGroup),
}

pub struct CharGroup {
    pub whitespace: bool,
    pub letter: bool,
    pub digit: bool,
    pub punctuation: bool,
    pub symbol: bool,
    pub chars: Vec<char>,
}

impl CharGroup {
    /// Whether `c` splits tokens.
    fn splits(&self, c: char) -> bool {
        (self.whitespace && is_java_whitespace(c))
            || (self.letter && is_letter(c))
            || (self.digit && c.is_numeric())
            || (self.punctuation
                && (c.is_ascii_punctuation() && !is_ascii_symbol(c)
                    || !c.is_ascii() && is_unicode_punct(c)))
            || (self.symbol && (is_ascii_symbol(c) || !c.is_ascii() && is_unicode_symbol(c)))
            || self.chars.contains(&c)
    }
}

fn is_ascii_symbol(c: char) -> bool {
    matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
}
fn is_unicode_punct(c: char) -> bool {
    matches!(c as u32, 0x2010..=0x2027 | 0x2030..=0x205E | 0x3001..=0x3003 | 0x3008..=0x3011 | 0xA1 | 0xA7 | 0xAB | 0xB6..=0xB7 | 0xBB | 0xBF)
}
fn is_unicode_symbol(c: char) -> bool {
    matches!(c as u32, 0xA2..=0xA6 | 0xA8..=0xA9 | 0xAC | 0xAE..=0xB1 | 0xB4 | 0xB8 | 0xD7 | 0xF7 | 0x20A0..=0x20CF | 0x2100..=0x214F | 0x2190..=0x23FF | 0x2500..=0x27BF | 0x1F300..=0x1FAFF)
}

pub struct CharTokenizer {
    pub class: Class,
    pub lowercase: bool,
    pub max: usize,
}

impl CharTokenizer {
    #[inline]
    fn is_token_char(&self, c: char) -> bool {
        match &self.class {
            Class::Letter => is_letter(c),
            Class::NotWhitespace => !is_java_whitespace(c),
            Class::Group(g) => !g.splits(c),
        }
    }
}

impl Tokenizer for CharTokenizer {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        let mut start: Option<usize> = None;
        let mut units = 0usize;
        let mut buf = String::new();
        let flush = |s: usize, e: usize, buf: &mut String, out: &mut Tokens| {
            let mut t = Tok::new("", s, e, WORD);
            std::mem::swap(&mut t.text, buf);
            out.toks.push(t);
        };
        for (i, c) in text.char_indices() {
            if self.is_token_char(c) {
                if start.is_none() {
                    start = Some(i);
                    units = 0;
                    buf.clear();
                }
                buf.push(if self.lowercase { to_lower(c) } else { c });
                units += c.len_utf16();
                if units >= self.max {
                    flush(start.take().unwrap_or(i), i + c.len_utf8(), &mut buf, out);
                }
            } else if let Some(s) = start.take() {
                flush(s, i, &mut buf, out);
            }
        }
        if let Some(s) = start {
            flush(s, text.len(), &mut buf, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_and_whitespace() {
        let t = CharTokenizer {
            class: Class::Letter,
            lowercase: true,
            max: 255,
        };
        let mut out = Tokens::default();
        t.tokenize("Don't GO-2day", &mut out);
        let v: Vec<_> = out.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(v, ["don", "t", "go", "day"]);
    }
}
