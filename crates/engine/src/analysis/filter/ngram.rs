//! `ngram` and `edge_ngram` token filters: grams of each token at the token's position and
//! offsets, optionally keeping the original when it is outside the gram sizes.

use super::TokenFilter;
use crate::analysis::token::Tokens;

pub struct NGramFilter {
    pub min: usize,
    pub max: usize,
    pub edge: bool,
    pub back: bool,
    pub preserve_original: bool,
}

impl TokenFilter for NGramFilter {
    fn apply(&self, t: &mut Tokens) {
        let mut out = Vec::new();
        let mut carry = 0;
        for tok in t.toks.drain(..) {
            let cps: Vec<char> = tok.text.chars().collect();
            let n = cps.len();
            let mut first = true;
            let mut push = |text: String, out: &mut Vec<_>| {
                let mut g = tok.clone();
                g.text = text;
                g.pos_inc = if first { tok.pos_inc + carry } else { 0 };
                first = false;
                out.push(g);
            };
            if self.edge {
                for len in self.min..=self.max.min(n) {
                    let s: String = if self.back {
                        cps[n - len..].iter().collect()
                    } else {
                        cps[..len].iter().collect()
                    };
                    push(s, &mut out);
                }
            } else {
                for start in 0..n {
                    for len in self.min..=self.max {
                        if start + len > n {
                            break;
                        }
                        push(cps[start..start + len].iter().collect(), &mut out);
                    }
                }
            }
            if self.preserve_original && (n < self.min || n > self.max) {
                push(tok.text.clone(), &mut out);
            }
            if first {
                carry += tok.pos_inc;
            } else {
                carry = 0;
            }
        }
        t.end_inc += carry;
        t.toks = out;
    }
}
