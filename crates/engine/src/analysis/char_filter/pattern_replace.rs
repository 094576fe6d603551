//! `pattern_replace` char filter: a Java-style regex replaced everywhere in the text.

use super::{CharFilter, OffsetMap};
use crate::analysis::tokenizer::pattern::JavaRegex;

pub struct PatternReplace {
    pub regex: JavaRegex,
    pub replacement: String,
}

impl CharFilter for PatternReplace {
    fn filter(&self, text: &str, map: &mut OffsetMap) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        self.regex
            .for_each_replacement(text, &self.replacement, true, |start, end, rep| {
                out.push_str(&text[last..start]);
                out.push_str(rep);
                let delta = (end - start) as isize - rep.len() as isize;
                if delta != 0 {
                    map.add(out.len(), delta);
                }
                last = end;
            });
        out.push_str(&text[last..]);
        out
    }
}
