//! `fingerprint`: the sorted, de-duplicated terms joined into one token (none when longer
//! than `max_output_size`).

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens};
use crate::analysis::unicode::utf16_len;

pub struct Fingerprint {
    pub separator: String,
    pub max_output_size: usize,
}

impl TokenFilter for Fingerprint {
    fn apply(&self, t: &mut Tokens) {
        if t.toks.is_empty() {
            return;
        }
        let mut words: Vec<&str> = t.toks.iter().map(|x| x.text.as_str()).collect();
        words.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        words.dedup();
        let joined = words.join(&self.separator);
        let (start, end) = (0, t.text_len);
        if utf16_len(&joined) > self.max_output_size {
            t.toks.clear();
            return;
        }
        let mut tok = Tok::new(&joined, start, end, "fingerprint");
        tok.pos_inc = 1;
        t.toks = vec![tok];
    }
}
