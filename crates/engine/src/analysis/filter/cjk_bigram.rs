//! `cjk_bigram`: adjacent CJK tokens (Han, Hiragana, Katakana, Hangul by default) become
//! overlapping bigrams typed `<DOUBLE>`; a lone one stays as `<SINGLE>`; `output_unigrams`
//! keeps the single characters too.

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens, HANGUL, HIRAGANA, IDEOGRAPHIC, KATAKANA};

pub struct CjkBigram {
    pub han: bool,
    pub hiragana: bool,
    pub katakana: bool,
    pub hangul: bool,
    pub unigrams: bool,
}

impl CjkBigram {
    fn is_cjk(&self, kind: &str) -> bool {
        (self.han && kind == IDEOGRAPHIC)
            || (self.hiragana && kind == HIRAGANA)
            || (self.katakana && kind == KATAKANA)
            || (self.hangul && kind == HANGUL)
    }
}

impl TokenFilter for CjkBigram {
    fn apply(&self, t: &mut Tokens) {
        let toks = std::mem::take(&mut t.toks);
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            if !self.is_cjk(toks[i].kind) {
                out.push(toks[i].clone());
                i += 1;
                continue;
            }
            // A run of CJK tokens adjacent in the text. Katakana and Hangul runs are split
            // into characters first.
            let mut chars: Vec<Tok> = Vec::new();
            let mut j = i;
            while j < toks.len()
                && self.is_cjk(toks[j].kind)
                && (j == i || toks[j].start == toks[j - 1].end)
            {
                let tk = &toks[j];
                let mut off = tk.start;
                for c in tk.text.chars() {
                    let e = (off + c.len_utf8()).min(tk.end);
                    chars.push(Tok::new(&c.to_string(), off, e, tk.kind));
                    off = e;
                }
                j += 1;
            }
            let first_inc = toks[i].pos_inc;
            if chars.len() == 1 {
                let mut s = chars[0].clone();
                s.kind = "<SINGLE>";
                s.pos_inc = first_inc;
                out.push(s);
            } else {
                for k in 0..chars.len() {
                    if self.unigrams {
                        let mut u = chars[k].clone();
                        u.kind = "<SINGLE>";
                        u.pos_inc = if k == 0 { first_inc } else { 1 };
                        out.push(u);
                    }
                    if k + 1 < chars.len() {
                        let mut b = Tok::new(
                            &format!("{}{}", chars[k].text, chars[k + 1].text),
                            chars[k].start,
                            chars[k + 1].end,
                            "<DOUBLE>",
                        );
                        b.pos_inc = if self.unigrams {
                            0
                        } else if k == 0 {
                            first_inc
                        } else {
                            1
                        };
                        if self.unigrams {
                            b.pos_len = 2;
                        }
                        out.push(b);
                    }
                }
            }
            i = j;
        }
        t.toks = out;
    }
}
