//! `pattern_replace` char filter: a Java-style regex replaced everywhere in the text.

use super::{CharFilter, OffsetMap};
use regex::Regex;

pub struct PatternReplace {
    pub regex: Regex,
    pub replacement: String,
}

impl CharFilter for PatternReplace {
    fn filter(&self, text: &str, map: &mut OffsetMap) -> String {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for caps in self.regex.captures_iter(text) {
            let m = caps.get(0).expect("match");
            out.push_str(&text[last..m.start()]);
            let before = out.len();
            caps.expand(&self.replacement, &mut out);
            let delta = m.len() as isize - (out.len() - before) as isize;
            if delta != 0 {
                map.add(out.len(), delta);
            }
            last = m.end();
        }
        out.push_str(&text[last..]);
        out
    }
}
