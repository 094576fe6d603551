//! `word_delimiter_graph` (and `word_delimiter`): splits tokens at non-alphanumerics, case
//! changes and letter/digit transitions, with catenation, `preserve_original` and English
//! possessive removal.

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens};

pub struct WordDelimiter {
    pub generate_word_parts: bool,
    pub generate_number_parts: bool,
    pub catenate_words: bool,
    pub catenate_numbers: bool,
    pub catenate_all: bool,
    pub split_on_case_change: bool,
    pub split_on_numerics: bool,
    pub preserve_original: bool,
    pub stem_english_possessive: bool,
    pub graph: bool,
    pub protected: std::collections::HashSet<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Cls {
    Lower,
    Upper,
    Digit,
    Delim,
}

fn cls(c: char) -> Cls {
    if c.is_lowercase() || (c.is_alphabetic() && !c.is_uppercase()) {
        Cls::Lower
    } else if c.is_uppercase() {
        Cls::Upper
    } else if c.is_numeric() {
        Cls::Digit
    } else {
        Cls::Delim
    }
}

impl WordDelimiter {
    /// Sub-word byte ranges of `s`, each flagged numeric or not.
    fn parts(&self, s: &str) -> Vec<(usize, usize, bool)> {
        let mut s_end = s.len();
        if self.stem_english_possessive && (s.ends_with("'s") || s.ends_with("'S")) {
            s_end -= 2;
        }
        let chars: Vec<(usize, char)> = s[..s_end].char_indices().collect();
        let mut out = Vec::new();
        let mut start: Option<usize> = None;
        let mut prev = Cls::Delim;
        for &(i, c) in chars.iter() {
            let k = cls(c);
            if k == Cls::Delim {
                if let Some(st) = start.take() {
                    out.push((st, i, prev == Cls::Digit));
                }
                prev = k;
                continue;
            }
            if let Some(st) = start {
                let split = (self.split_on_case_change && prev == Cls::Lower && k == Cls::Upper)
                    || (self.split_on_numerics && (prev == Cls::Digit) != (k == Cls::Digit));
                if split {
                    out.push((st, i, prev == Cls::Digit));
                    start = Some(i);
                }
            } else {
                start = Some(i);
            }
            prev = k;
        }
        if let Some(st) = start {
            out.push((st, s_end, prev == Cls::Digit));
        }
        out
    }
}

impl TokenFilter for WordDelimiter {
    fn apply(&self, t: &mut Tokens) {
        let mut out = Vec::with_capacity(t.toks.len());
        let mut carry = 0;
        for tok in t.toks.drain(..) {
            if self.protected.contains(&tok.text) {
                let mut k = tok;
                k.pos_inc += carry;
                carry = 0;
                out.push(k);
                continue;
            }
            let parts = self.parts(&tok.text);
            let whole = parts.len() == 1 && parts[0].0 == 0 && parts[0].1 == tok.text.len();
            if whole || parts.is_empty() && self.preserve_original {
                let mut k = tok;
                k.pos_inc += carry;
                carry = 0;
                out.push(k);
                continue;
            }
            let mut emitted: Vec<Tok> = Vec::new();
            let sub = |a: usize, b: usize| -> Tok {
                let mut x = tok.clone();
                x.text = tok.text[a..b].to_string();
                x.start = tok.start + a;
                x.end = (tok.start + b).min(tok.end);
                if x.end - x.start != b - a {
                    x.start = tok.start;
                    x.end = tok.end;
                }
                x
            };
            let kept: Vec<(usize, usize, bool)> = parts
                .iter()
                .copied()
                .filter(|&(_, _, num)| {
                    if num {
                        self.generate_number_parts
                    } else {
                        self.generate_word_parts
                    }
                })
                .collect();
            let all_catenated = self.catenate_all && parts.len() > 1;
            let mut first = true;
            if self.preserve_original {
                let mut o = tok.clone();
                o.pos_len = if self.graph {
                    kept.len().max(1) as u32
                } else {
                    1
                };
                o.pos_inc = tok.pos_inc + carry;
                first = false;
                emitted.push(o);
            }
            if all_catenated {
                let text: String = parts.iter().map(|&(a, b, _)| &tok.text[a..b]).collect();
                let mut c = sub(parts[0].0, parts[parts.len() - 1].1);
                c.text = text;
                c.pos_inc = if first { tok.pos_inc + carry } else { 0 };
                c.pos_len = if self.graph {
                    kept.len().max(1) as u32
                } else {
                    1
                };
                first = false;
                emitted.push(c);
            }
            for (n, &(a, b, _)) in kept.iter().enumerate() {
                let mut p = sub(a, b);
                p.pos_inc = if first {
                    tok.pos_inc + carry
                } else if n == 0 {
                    0
                } else {
                    1
                };
                first = false;
                emitted.push(p);
            }
            if emitted.is_empty() {
                carry += tok.pos_inc;
                continue;
            }
            carry = 0;
            out.extend(emitted);
        }
        t.end_inc += carry;
        t.toks = out;
    }
}
