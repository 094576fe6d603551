//! `ngram` and `edge_ngram` tokenizers: words are runs of `token_chars` (all characters when
//! empty); each word yields its grams, one position each, type `word`.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};
use crate::analysis::unicode::{is_java_whitespace, is_letter};
use crate::error::{Error, Result};

#[derive(Default)]
pub struct TokenChars {
    pub any: bool,
    pub letter: bool,
    pub digit: bool,
    pub whitespace: bool,
    pub punctuation: bool,
    pub symbol: bool,
    pub custom: Vec<char>,
}

impl TokenChars {
    pub fn parse(list: &[String], custom: &str) -> Result<TokenChars> {
        let mut t = TokenChars {
            any: list.is_empty(),
            ..TokenChars::default()
        };
        for name in list {
            match name.as_str() {
                "letter" => t.letter = true,
                "digit" => t.digit = true,
                "whitespace" => t.whitespace = true,
                "punctuation" => t.punctuation = true,
                "symbol" => t.symbol = true,
                "custom" => t.custom = custom.chars().collect(),
                other => {
                    return Err(Error::illegal_argument(format!(
                        "Unknown token type: '{other}', must be one of [symbol, custom, whitespace, letter, punctuation, digit]"
                    )))
                }
            }
        }
        Ok(t)
    }

    fn accepts(&self, c: char) -> bool {
        self.any
            || (self.letter && is_letter(c))
            || (self.digit && c.is_numeric())
            || (self.whitespace && is_java_whitespace(c))
            || (self.punctuation
                && c.is_ascii_punctuation()
                && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~'))
            || (self.symbol && matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~'))
            || self.custom.contains(&c)
    }
}

pub struct NGram {
    pub min: usize,
    pub max: usize,
    pub edge: bool,
    pub chars: TokenChars,
}

impl Tokenizer for NGram {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        let cps: Vec<(usize, char)> = text.char_indices().collect();
        let mut i = 0;
        while i < cps.len() {
            if !self.chars.accepts(cps[i].1) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < cps.len() && self.chars.accepts(cps[j].1) {
                j += 1;
            }
            // Lucene caps a word at 1024 code points.
            let word = &cps[i..j.min(i + 1024)];
            let byte_end = |k: usize| {
                word.get(k)
                    .map_or_else(|| cps.get(i + k).map_or(text.len(), |x| x.0), |x| x.0)
            };
            let starts = if self.edge { 1 } else { word.len() };
            for s in 0..starts {
                for n in self.min..=self.max {
                    if s + n > word.len() {
                        break;
                    }
                    let (bs, be) = (word[s].0, byte_end(s + n));
                    out.toks.push(Tok::new(&text[bs..be], bs, be, WORD));
                }
            }
            i = j;
        }
    }
}
