//! `stop`: removes stop words (named lists such as `_english_`, or given words), optionally
//! ignoring case; with `remove_trailing: false` a last token not followed by anything is kept.
//! Removed positions are carried onto the next token.

use super::TokenFilter;
use crate::analysis::token::Tokens;
use crate::analysis::unicode::lowercase_in_place;
use crate::error::{Error, Result};
use parking_lot::Mutex;
use tantivy::tokenizer::{Language, RawTokenizer, StopWordFilter, TextAnalyzer};

pub const ENGLISH: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// A language's Snowball stop list, asked of tantivy's filter.
struct LangList(Mutex<TextAnalyzer>);

impl LangList {
    fn new(lang: Language) -> Option<LangList> {
        let f = StopWordFilter::new(lang)?;
        Some(LangList(Mutex::new(
            TextAnalyzer::builder(RawTokenizer::default())
                .filter(f)
                .build(),
        )))
    }
    fn contains(&self, w: &str) -> bool {
        let mut a = self.0.lock();
        let mut s = a.token_stream(w);
        !s.advance()
    }
}

pub fn language(name: &str) -> Option<Language> {
    Some(match name {
        "danish" => Language::Danish,
        "dutch" => Language::Dutch,
        "english" => Language::English,
        "finnish" => Language::Finnish,
        "french" => Language::French,
        "german" => Language::German,
        "hungarian" => Language::Hungarian,
        "italian" => Language::Italian,
        "norwegian" => Language::Norwegian,
        "portuguese" => Language::Portuguese,
        "russian" => Language::Russian,
        "spanish" => Language::Spanish,
        "swedish" => Language::Swedish,
        _ => return None,
    })
}

/// Words grouped by byte length, each group sorted: a lookup rejects every token whose length
/// no stop word has, and otherwise binary-searches a handful of words (no hashing). Words of up
/// to 8 bytes are compared as one integer.
#[derive(Default)]
struct Words {
    short: [Vec<u64>; 9],
    long: Vec<Vec<Box<[u8]>>>,
}

#[inline]
fn key(b: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    k[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(k)
}

impl Words {
    fn insert(&mut self, w: &str) {
        let n = w.len();
        if n <= 8 {
            let group = &mut self.short[n];
            let k = key(w.as_bytes());
            if let Err(i) = group.binary_search(&k) {
                group.insert(i, k);
            }
            return;
        }
        if self.long.len() <= n {
            self.long.resize_with(n + 1, Vec::new);
        }
        let group = &mut self.long[n];
        if let Err(i) = group.binary_search_by(|x| x[..].cmp(w.as_bytes())) {
            group.insert(i, w.as_bytes().into());
        }
    }

    #[inline]
    fn contains(&self, w: &str) -> bool {
        let b = w.as_bytes();
        if let Some(group) = self.short.get(b.len()) {
            return !group.is_empty() && group.binary_search(&key(b)).is_ok();
        }
        match self.long.get(b.len()) {
            Some(group) => group.binary_search_by(|x| x[..].cmp(b)).is_ok(),
            None => false,
        }
    }

    fn is_empty(&self) -> bool {
        self.short.iter().all(Vec::is_empty) && self.long.iter().all(Vec::is_empty)
    }
}

#[derive(Default)]
pub struct StopSet {
    words: Words,
    lists: Vec<LangList>,
    ignore_case: bool,
}

impl StopSet {
    /// Parses OpenSearch's `stopwords` value: names like `_english_` and `_none_` mixed with words.
    pub fn parse(items: &[String], ignore_case: bool) -> Result<StopSet> {
        let mut set = StopSet {
            ignore_case,
            ..StopSet::default()
        };
        for item in items {
            if item.len() > 2 && item.starts_with('_') && item.ends_with('_') {
                let name = &item[1..item.len() - 1];
                match name {
                    "none" => {}
                    "english" => ENGLISH.iter().for_each(|w| set.words.insert(w)),
                    other => match language(other).and_then(LangList::new) {
                        Some(l) => set.lists.push(l),
                        None => {
                            return Err(Error::illegal_argument(format!(
                                "Unsupported stop word list [{item}]"
                            )))
                        }
                    },
                }
            } else {
                let mut w = item.clone();
                if ignore_case {
                    lowercase_in_place(&mut w);
                }
                set.words.insert(&w);
            }
        }
        Ok(set)
    }

    pub fn english() -> StopSet {
        let mut set = StopSet::default();
        ENGLISH.iter().for_each(|w| set.words.insert(w));
        set
    }

    #[inline]
    pub fn contains(&self, w: &str) -> bool {
        if self.ignore_case {
            let mut l = w.to_string();
            lowercase_in_place(&mut l);
            self.words.contains(&l) || self.lists.iter().any(|x| x.contains(&l))
        } else {
            self.words.contains(w)
                || (!self.lists.is_empty() && self.lists.iter().any(|x| x.contains(w)))
        }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.lists.is_empty()
    }
}

pub struct Stop {
    pub set: StopSet,
    pub remove_trailing: bool,
}

impl TokenFilter for Stop {
    fn apply(&self, t: &mut Tokens) {
        if self.set.is_empty() {
            return;
        }
        let n = t.toks.len();
        let mut i = 0;
        let keep_last = !self.remove_trailing;
        t.retain(|tok| {
            i += 1;
            if keep_last && i == n && !tok.keyword {
                return true;
            }
            !self.set.contains(&tok.text)
        });
    }
}
