//! The token record every analysis component reads and writes: term text, byte offsets into the
//! text the tokenizer saw, position increment and length, Lucene's type string and the keyword
//! flag. Offsets are mapped back through char filters and into UTF-16 units only where
//! OpenSearch shows them (`_analyze`).

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    pub text: String,
    /// Byte offsets into the (char-filtered) text.
    pub start: usize,
    pub end: usize,
    pub pos_inc: u32,
    pub pos_len: u32,
    pub kind: &'static str,
    pub keyword: bool,
}

impl Tok {
    pub fn new(text: &str, start: usize, end: usize, kind: &'static str) -> Tok {
        Tok {
            text: text.to_string(),
            start,
            end,
            pos_inc: 1,
            pos_len: 1,
            kind,
            keyword: false,
        }
    }
}

/// A token list plus what a stream reports at its end: the position increment of tokens removed
/// after the last one kept.
#[derive(Default, Debug, Clone)]
pub struct Tokens {
    pub toks: Vec<Tok>,
    pub end_inc: u32,
    /// The length of the text the tokenizer saw (its final offset).
    pub text_len: usize,
    /// Strings of earlier runs, reused by `push`.
    pub spare: Vec<String>,
}

impl Tokens {
    /// Appends a token, reusing a spare string's allocation.
    #[inline]
    pub fn push(&mut self, text: &str, start: usize, end: usize, kind: &'static str) {
        let mut s = self.spare.pop().unwrap_or_default();
        s.clear();
        s.push_str(text);
        self.toks.push(Tok {
            text: s,
            start,
            end,
            pos_inc: 1,
            pos_len: 1,
            kind,
            keyword: false,
        });
    }

    /// Empties the list, keeping the token strings' allocations for the next run.
    pub fn recycle(&mut self) {
        for t in self.toks.drain(..) {
            self.spare.push(t.text);
        }
        self.end_inc = 0;
        self.text_len = 0;
    }

    /// Keeps the tokens `keep` accepts; a removed token's increment moves to the next kept one
    /// (or to the end of the stream), as Lucene's FilteringTokenFilter does.
    pub fn retain(&mut self, mut keep: impl FnMut(&Tok) -> bool) {
        self.retain_mut(|t| keep(t))
    }

    /// `retain` whose callback may also change the tokens it keeps.
    #[inline]
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut Tok) -> bool) {
        let mut carry = 0u32;
        let mut out = 0usize;
        for i in 0..self.toks.len() {
            if keep(&mut self.toks[i]) {
                self.toks[i].pos_inc += carry;
                carry = 0;
                self.toks.swap(out, i);
                out += 1;
            } else {
                carry += self.toks[i].pos_inc;
            }
        }
        // Removed tokens' strings are kept for the next run's `push`.
        for t in self.toks.drain(out..) {
            self.spare.push(t.text);
        }
        self.end_inc += carry;
    }
}

pub const ALPHANUM: &str = "<ALPHANUM>";
pub const NUM: &str = "<NUM>";
pub const SOUTHEAST_ASIAN: &str = "<SOUTHEAST_ASIAN>";
pub const IDEOGRAPHIC: &str = "<IDEOGRAPHIC>";
pub const HIRAGANA: &str = "<HIRAGANA>";
pub const KATAKANA: &str = "<KATAKANA>";
pub const HANGUL: &str = "<HANGUL>";
pub const EMOJI: &str = "<EMOJI>";
pub const URL: &str = "<URL>";
pub const EMAIL: &str = "<EMAIL>";
pub const WORD: &str = "word";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_carries_increments() {
        let mut t = Tokens {
            toks: vec![
                Tok::new("the", 0, 3, WORD),
                Tok::new("fox", 4, 7, WORD),
                Tok::new("a", 8, 9, WORD),
            ],
            end_inc: 0,
            text_len: 9,
            spare: Vec::new(),
        };
        t.retain(|t| t.text.len() > 1 && t.text != "the");
        assert_eq!(t.toks.len(), 1);
        assert_eq!(t.toks[0].pos_inc, 2);
        assert_eq!(t.end_inc, 1);
    }
}
