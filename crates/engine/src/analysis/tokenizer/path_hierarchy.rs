//! `path_hierarchy`: every ancestor path of a delimited path, all at one position.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};

pub struct PathHierarchy {
    pub delimiter: char,
    pub replacement: char,
    pub reverse: bool,
    pub skip: usize,
}

impl Tokenizer for PathHierarchy {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        let replace = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c == self.delimiter {
                        self.replacement
                    } else {
                        c
                    }
                })
                .collect()
        };
        // Byte positions of each delimiter.
        let delims: Vec<usize> = text
            .char_indices()
            .filter(|&(_, c)| c == self.delimiter)
            .map(|(i, _)| i)
            .collect();
        let dlen = self.delimiter.len_utf8();
        let mut first = true;
        if !self.reverse {
            // Component boundaries: the end of each prefix that ends before a delimiter.
            let mut cuts: Vec<usize> = delims.iter().copied().filter(|&d| d > 0).collect();
            if text.is_empty() {
                return;
            }
            if !text.ends_with(self.delimiter) || cuts.last() != Some(&(text.len() - dlen)) {
                cuts.push(text.len());
            }
            // `skip` drops leading components: the start moves past them.
            let mut start = 0;
            let mut skipped = 0;
            let comps_start: Vec<usize> = std::iter::once(0).chain(cuts.iter().copied()).collect();
            while skipped < self.skip && skipped + 1 < comps_start.len() {
                start = comps_start[skipped + 1];
                skipped += 1;
            }
            for &end in &cuts {
                if end <= start {
                    continue;
                }
                let mut t = Tok::new(&replace(&text[start..end]), start, end, WORD);
                t.pos_inc = if first { 1 } else { 0 };
                first = false;
                out.toks.push(t);
            }
        } else {
            let mut starts: Vec<usize> = vec![0];
            starts.extend(delims.iter().map(|&d| d + dlen).filter(|&s| s < text.len()));
            starts.dedup();
            let end = if self.skip > 0 {
                let ends: Vec<usize> = delims.iter().copied().rev().collect();
                ends.get(self.skip - 1).copied().unwrap_or(0)
            } else {
                text.len()
            };
            for &s in &starts {
                if s >= end {
                    continue;
                }
                let mut t = Tok::new(&replace(&text[s..end]), s, end, WORD);
                t.pos_inc = if first { 1 } else { 0 };
                first = false;
                out.toks.push(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes() {
        let p = PathHierarchy {
            delimiter: '/',
            replacement: '/',
            reverse: false,
            skip: 0,
        };
        let mut out = Tokens::default();
        p.tokenize("/usr/share/doc", &mut out);
        let v: Vec<_> = out.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(v, ["/usr", "/usr/share", "/usr/share/doc"]);
    }
}
