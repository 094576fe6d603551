//! One-token-at-a-time filters: `length`, `truncate`, `trim`, `unique`, `reverse`, `apostrophe`,
//! `decimal_digit`, `limit`, `classic`, `elision`, `keyword_marker`, `pattern_replace`,
//! `asciifolding`, `cjk_width`.

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens};
use crate::analysis::tokenizer::pattern::JavaRegex;
use crate::analysis::unicode::{lowercase_in_place, utf16_len};
use std::cell::RefCell;
use std::collections::HashSet;
use tantivy::tokenizer::{AsciiFoldingFilter, RawTokenizer, TextAnalyzer};

pub struct Length {
    pub min: usize,
    pub max: usize,
}
impl TokenFilter for Length {
    fn apply(&self, t: &mut Tokens) {
        t.retain(|tok| {
            let n = utf16_len(&tok.text);
            n >= self.min && n <= self.max
        });
    }
}

pub struct Truncate(pub usize);
impl TokenFilter for Truncate {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if let Some((i, _)) = tok.text.char_indices().nth(self.0) {
                tok.text.truncate(i);
            }
        }
    }
}

pub struct Trim;
impl TokenFilter for Trim {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            let s = tok.text.trim_matches(|c: char| c as u32 <= 0x20);
            if s.len() != tok.text.len() {
                tok.text = s.to_string();
            }
        }
    }
}

pub struct Unique {
    pub only_on_same_position: bool,
}
impl TokenFilter for Unique {
    fn apply(&self, t: &mut Tokens) {
        let mut seen: HashSet<String> = HashSet::new();
        let same = self.only_on_same_position;
        // Removed tokens leave no position gap.
        t.toks.retain(|tok| {
            if same && tok.pos_inc > 0 {
                seen.clear();
            }
            seen.insert(tok.text.clone())
        });
    }
}

pub struct Reverse;
impl TokenFilter for Reverse {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            tok.text = tok.text.chars().rev().collect();
        }
    }
}

pub struct Apostrophe;
impl TokenFilter for Apostrophe {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if let Some(i) = tok.text.find(['\'', '\u{2019}']) {
                tok.text.truncate(i);
            }
        }
    }
}

const DIGIT_ZEROS: &[u32] = &[
    0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
    0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x11066, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6,
];

pub struct DecimalDigit;
impl TokenFilter for DecimalDigit {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if tok.text.is_ascii() {
                continue;
            }
            tok.text = tok
                .text
                .chars()
                .map(|c| {
                    let u = c as u32;
                    for &z in DIGIT_ZEROS {
                        if u >= z && u < z + 10 {
                            return char::from(b'0' + (u - z) as u8);
                        }
                    }
                    c
                })
                .collect();
        }
    }
}

pub struct Limit {
    pub max: usize,
}
impl TokenFilter for Limit {
    fn apply(&self, t: &mut Tokens) {
        if t.toks.len() > self.max {
            t.toks.truncate(self.max);
            t.end_inc = 0;
        }
    }
}

/// `classic`: drops `'s` from `<APOSTROPHE>` tokens and the dots of `<ACRONYM>` tokens.
pub struct ClassicFilter;
impl TokenFilter for ClassicFilter {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if tok.kind == "<APOSTROPHE>" && (tok.text.ends_with("'s") || tok.text.ends_with("'S"))
            {
                let n = tok.text.len() - 2;
                tok.text.truncate(n);
            } else if tok.kind == "<ACRONYM>" {
                tok.text.retain(|c| c != '.');
            }
        }
    }
}

pub struct Elision {
    pub articles: HashSet<String>,
    pub ignore_case: bool,
}
impl TokenFilter for Elision {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if let Some(i) = tok.text.find(['\'', '\u{2019}']) {
                let mut prefix = tok.text[..i].to_string();
                if self.ignore_case {
                    lowercase_in_place(&mut prefix);
                }
                if self.articles.contains(&prefix) {
                    let rest = tok.text[i..].chars().skip(1).collect::<String>();
                    tok.text = rest;
                }
            }
        }
    }
}

pub const FRENCH_ARTICLES: &[&str] = &[
    "l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu",
];
pub const ITALIAN_ARTICLES: &[&str] = &[
    "c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl", "degl",
    "negl", "sugl", "un", "m", "t", "s", "v", "d",
];

pub struct KeywordMarker {
    pub words: HashSet<String>,
    pub pattern: Option<JavaRegex>,
    pub ignore_case: bool,
}
impl TokenFilter for KeywordMarker {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            let hit = match &self.pattern {
                Some(re) => re
                    .find(&tok.text)
                    .is_some_and(|(start, end)| start == 0 && end == tok.text.len()),
                None if self.ignore_case => {
                    let mut l = tok.text.clone();
                    lowercase_in_place(&mut l);
                    self.words.contains(&l)
                }
                None => self.words.contains(&tok.text),
            };
            if hit {
                tok.keyword = true;
            }
        }
    }
}

pub struct PatternReplace {
    pub regex: JavaRegex,
    pub replacement: String,
    pub all: bool,
}
impl TokenFilter for PatternReplace {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if let Some(s) = self.regex.replace(&tok.text, &self.replacement, self.all) {
                tok.text = s;
            }
        }
    }
}

/// Java's `$1` group references as the regex crate writes them (`${1}`).
pub fn java_replacement(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    if n == '$' {
                        out.push_str("$$");
                    } else {
                        out.push(n);
                    }
                }
            }
            '$' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                out.push_str(&format!("${{{digits}}}"));
            }
            c => out.push(c),
        }
    }
    out
}

thread_local! {
    static FOLDER: RefCell<TextAnalyzer> = RefCell::new(
        TextAnalyzer::builder(RawTokenizer::default()).filter(AsciiFoldingFilter).build()
    );
}

pub fn fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    FOLDER.with(|f| {
        let mut a = f.borrow_mut();
        let mut st = a.token_stream(s);
        if st.advance() {
            st.token().text.clone()
        } else {
            s.to_string()
        }
    })
}

pub struct AsciiFolding {
    pub preserve_original: bool,
}
impl TokenFilter for AsciiFolding {
    fn apply(&self, t: &mut Tokens) {
        if !self.preserve_original {
            for tok in &mut t.toks {
                if !tok.text.is_ascii() {
                    tok.text = fold(&tok.text);
                }
            }
            return;
        }
        let mut out = Vec::with_capacity(t.toks.len());
        for tok in t.toks.drain(..) {
            if tok.text.is_ascii() {
                out.push(tok);
                continue;
            }
            let folded = fold(&tok.text);
            if folded == tok.text {
                out.push(tok);
            } else {
                let mut orig: Tok = tok.clone();
                let mut f = tok;
                f.text = folded;
                orig.pos_inc = 0;
                out.push(f);
                out.push(orig);
            }
        }
        t.toks = out;
    }
}

pub struct CjkWidth;
impl TokenFilter for CjkWidth {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if tok.text.is_ascii() {
                continue;
            }
            tok.text = tok
                .text
                .chars()
                .map(|c| match c as u32 {
                    0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                    _ => c,
                })
                .collect();
        }
    }
}
