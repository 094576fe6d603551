//! An analysis chain: char filters → tokenizer → token filters, with the name each component
//! has in `_analyze`'s explain output. Runs produce tokens whose offsets point into the
//! original text (bytes), corrected through the char filters.

use crate::analysis::char_filter::{CharFilter, OffsetMap};
use crate::analysis::filter::TokenFilter;
use crate::analysis::token::Tokens;
use crate::analysis::tokenizer::standard::Standard;
use crate::analysis::tokenizer::Tokenizer;
use std::sync::Arc;

pub struct Analyzer {
    pub name: String,
    /// A `custom` chain (explain shows every stage) rather than a built-in analyzer.
    pub custom: bool,
    pub char_filters: Vec<(String, Arc<dyn CharFilter>)>,
    pub tokenizer: (String, Arc<dyn Tokenizer>),
    pub filters: Vec<(String, Arc<dyn TokenFilter>)>,
    pub position_increment_gap: u32,
    pub offset_gap: u32,
    /// Whether tokens carry a keyword flag worth showing in explain.
    pub has_keyword_attr: bool,
}

/// The result of one run: tokens with offsets into the original text, plus the stream's end.
pub struct Analyzed {
    pub tokens: Tokens,
    /// The end of the text in the original's bytes (after char filter correction).
    pub final_offset: usize,
}

impl Analyzer {
    pub fn char_filtered(&self, text: &str) -> (String, Vec<OffsetMap>, Vec<String>) {
        let mut maps = Vec::with_capacity(self.char_filters.len());
        let mut stages = Vec::new();
        let mut cur = text.to_string();
        for (_, cf) in &self.char_filters {
            let mut m = OffsetMap::default();
            cur = cf.filter(&cur, &mut m);
            maps.push(m);
            stages.push(cur.clone());
        }
        (cur, maps, stages)
    }

    pub fn correct(maps: &[OffsetMap], off: usize) -> usize {
        maps.iter().rev().fold(off, |o, m| m.correct(o))
    }

    /// The standard tokenizer and the one filter after it, when that filter maps each word on
    /// its own and no char filter comes first: a chain that can stream ASCII text.
    pub fn word_chain(&self) -> Option<(&Standard, &dyn TokenFilter)> {
        match (&self.char_filters[..], &self.filters[..]) {
            ([], [(_, f)]) if f.maps_words() => Some((self.tokenizer.1.as_standard()?, &**f)),
            _ => None,
        }
    }

    pub fn run(&self, text: &str) -> Analyzed {
        self.run_into(text, Tokens::default())
    }

    /// `run` into a recycled token list (its spare strings are reused).
    pub fn run_into(&self, text: &str, mut tokens: Tokens) -> Analyzed {
        tokens.recycle();
        if self.char_filters.is_empty() {
            self.tokenizer.1.tokenize(text, &mut tokens);
            tokens.text_len = text.len();
            for (_, f) in &self.filters {
                f.apply(&mut tokens);
            }
            return Analyzed {
                tokens,
                final_offset: text.len(),
            };
        }
        let (filtered, maps, _) = self.char_filtered(text);
        self.tokenizer.1.tokenize(&filtered, &mut tokens);
        tokens.text_len = filtered.len();
        for (_, f) in &self.filters {
            f.apply(&mut tokens);
        }
        for t in &mut tokens.toks {
            t.start = Self::correct(&maps, t.start);
            t.end = Self::correct(&maps, t.end);
        }
        Analyzed {
            tokens,
            final_offset: Self::correct(&maps, filtered.len()),
        }
    }
}
