//! `shingle`: word n-grams of `min_shingle_size`..`max_shingle_size` tokens, typed `shingle`,
//! with the unigrams (optionally), `token_separator` and `filler_token` for removed positions.

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens};

pub struct Shingle {
    pub min: usize,
    pub max: usize,
    pub unigrams: bool,
    pub unigrams_if_no_shingles: bool,
    pub separator: String,
    pub filler: String,
}

impl TokenFilter for Shingle {
    fn apply(&self, t: &mut Tokens) {
        if t.toks.is_empty() {
            return;
        }
        // The stream with fillers standing in for skipped positions.
        let mut seq: Vec<(Tok, bool)> = Vec::new();
        for tok in &t.toks {
            for _ in 1..tok.pos_inc.max(1) {
                let mut f = Tok::new(&self.filler, tok.start, tok.start, "shingle");
                f.pos_inc = 1;
                seq.push((f, true));
            }
            seq.push((tok.clone(), false));
        }
        let mut out = Vec::new();
        let mut any_shingle = false;
        let mut pending_inc = 0u32;
        for i in 0..seq.len() {
            pending_inc += 1;
            let (ref tok, filler) = seq[i];
            let mut first_here = true;
            if self.unigrams && !filler {
                let mut u = tok.clone();
                u.pos_inc = pending_inc;
                pending_inc = 0;
                first_here = false;
                out.push(u);
            }
            for n in self.min.max(2)..=self.max {
                if i + n > seq.len() {
                    break;
                }
                let parts = &seq[i..i + n];
                let mut text = String::new();
                for (k, (p, _)) in parts.iter().enumerate() {
                    if k > 0 {
                        text.push_str(&self.separator);
                    }
                    text.push_str(&p.text);
                }
                let mut s = Tok::new(&text, tok.start, parts[n - 1].0.end, "shingle");
                s.pos_inc = if first_here { pending_inc } else { 0 };
                if first_here {
                    pending_inc = 0;
                }
                first_here = false;
                s.pos_len = if self.unigrams {
                    n as u32
                } else {
                    (n + 1 - self.min.max(2)) as u32
                };
                any_shingle = true;
                out.push(s);
            }
        }
        if !any_shingle && self.unigrams_if_no_shingles && !self.unigrams {
            return;
        }
        t.toks = out;
    }
}
