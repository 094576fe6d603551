//! `keyword`: the whole input as one token of type `word`.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};

pub struct Keyword;

impl Tokenizer for Keyword {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        out.toks.push(Tok::new(text, 0, text.len(), WORD));
    }
}
