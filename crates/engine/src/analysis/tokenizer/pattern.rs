//! `pattern` (split on a Java regex, or emit one group of each match), `simple_pattern` (emit
//! matches) and `simple_pattern_split` (split on matches). Java's ASCII-only `\w`, `\d`, `\s`
//! classes are translated so the Rust regex engine sees the same sets. Patterns the linear-time
//! `regex` engine refuses (lookaround, backreferences, which Java accepts) run on `fancy-regex`'s
//! backtracking engine.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};
use crate::error::{Error, Result};
use regex::Regex;

pub fn java_regex(pattern: &str, flags: &str) -> Result<JavaRegex> {
    let mut out = String::new();
    for f in flags.split('|').map(str::trim).filter(|f| !f.is_empty()) {
        match f {
            "CASE_INSENSITIVE" => out.push_str("(?i)"),
            "COMMENTS" => out.push_str("(?x)"),
            "DOTALL" => out.push_str("(?s)"),
            "MULTILINE" => out.push_str("(?m)"),
            "UNICODE_CASE" | "UNICODE_CHARACTER_CLASS" | "CANON_EQ" | "LITERAL" | "UNIX_LINES" => {}
            other => {
                return Err(Error::illegal_argument(format!(
                    "Unknown regex flag [{other}]"
                )))
            }
        }
    }
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(n) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let rep = match (n, in_class) {
                    ('w', false) => "[0-9A-Za-z_]",
                    ('W', false) => "[^0-9A-Za-z_]",
                    ('d', false) => "[0-9]",
                    ('D', false) => "[^0-9]",
                    ('s', false) => "[ \\t\\n\\x0B\\f\\r]",
                    ('S', false) => "[^ \\t\\n\\x0B\\f\\r]",
                    ('w', true) => "0-9A-Za-z_",
                    ('d', true) => "0-9",
                    ('s', true) => " \\t\\n\\x0B\\f\\r",
                    _ => {
                        out.push('\\');
                        out.push(n);
                        continue;
                    }
                };
                out.push_str(rep);
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                if chars.peek() == Some(&'^') {
                    out.push(chars.next().unwrap_or('^'));
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                    out.push_str("\\]");
                }
            }
            '[' => out.push_str("\\["),
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    match Regex::new(&out) {
        Ok(re) => Ok(JavaRegex::Linear(re)),
        Err(e) => fancy_regex::Regex::new(&out)
            .map(JavaRegex::Backtracking)
            .map_err(|_| Error::illegal_argument(format!("Invalid regex [{pattern}]: {e}"))),
    }
}

/// A Java pattern compiled for Rust: the `regex` crate's engine when it can run it, else
/// `fancy-regex` (which hands the parts without lookaround or backreferences to `regex`). A
/// backtracking run that hits fancy-regex's step limit ends the matching there.
#[derive(Clone, Debug)]
pub enum JavaRegex {
    Linear(Regex),
    Backtracking(fancy_regex::Regex),
}

/// A match's group spans (byte offsets), `None` for a group that did not take part.
pub type Groups = Vec<Option<(usize, usize)>>;

impl JavaRegex {
    /// The first match's span.
    pub fn find(&self, text: &str) -> Option<(usize, usize)> {
        match self {
            JavaRegex::Linear(re) => re.find(text).map(|m| (m.start(), m.end())),
            JavaRegex::Backtracking(re) => {
                re.find(text).ok().flatten().map(|m| (m.start(), m.end()))
            }
        }
    }

    /// Every non-overlapping match's span, left to right.
    pub fn find_spans(&self, text: &str) -> Vec<(usize, usize)> {
        match self {
            JavaRegex::Linear(re) => re.find_iter(text).map(|m| (m.start(), m.end())).collect(),
            JavaRegex::Backtracking(re) => re
                .find_iter(text)
                .map_while(|m| m.ok())
                .map(|m| (m.start(), m.end()))
                .collect(),
        }
    }

    /// Every match's group spans, left to right.
    pub fn captures(&self, text: &str) -> Vec<Groups> {
        match self {
            JavaRegex::Linear(re) => re
                .captures_iter(text)
                .map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
                .collect(),
            JavaRegex::Backtracking(re) => re
                .captures_iter(text)
                .map_while(|c| c.ok())
                .map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
                .collect(),
        }
    }

    /// Calls `f(start, end, replacement)` for each match (or the first), the replacement's
    /// `${n}`/`$name` references expanded.
    pub fn for_each_replacement(
        &self,
        text: &str,
        replacement: &str,
        all: bool,
        mut f: impl FnMut(usize, usize, &str),
    ) {
        let mut buf = String::new();
        match self {
            JavaRegex::Linear(re) => {
                for c in re.captures_iter(text) {
                    let m = c.get(0).expect("group 0");
                    buf.clear();
                    c.expand(replacement, &mut buf);
                    f(m.start(), m.end(), &buf);
                    if !all {
                        break;
                    }
                }
            }
            JavaRegex::Backtracking(re) => {
                for c in re.captures_iter(text).map_while(|c| c.ok()) {
                    let m = c.get(0).expect("group 0");
                    buf.clear();
                    c.expand(replacement, &mut buf);
                    f(m.start(), m.end(), &buf);
                    if !all {
                        break;
                    }
                }
            }
        }
    }

    /// `text` with each match (or the first) replaced; `None` when nothing matched.
    pub fn replace(&self, text: &str, replacement: &str, all: bool) -> Option<String> {
        let mut out = String::new();
        let mut last = 0;
        let mut any = false;
        self.for_each_replacement(text, replacement, all, |start, end, rep| {
            any = true;
            out.push_str(&text[last..start]);
            out.push_str(rep);
            last = end;
        });
        any.then(|| {
            out.push_str(&text[last..]);
            out
        })
    }
}

pub struct Pattern {
    pub regex: JavaRegex,
    /// -1 splits on the pattern; otherwise the group of each match to emit.
    pub group: i64,
}

impl Tokenizer for Pattern {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        if self.group < 0 {
            let mut last = 0;
            for (start, end) in self.regex.find_spans(text) {
                if start > last {
                    out.toks
                        .push(Tok::new(&text[last..start], last, start, WORD));
                }
                last = end;
            }
            if last < text.len() {
                out.toks
                    .push(Tok::new(&text[last..], last, text.len(), WORD));
            }
        } else {
            for groups in self.regex.captures(text) {
                if let Some(Some((start, end))) = groups.get(self.group as usize) {
                    if end > start {
                        out.toks
                            .push(Tok::new(&text[*start..*end], *start, *end, WORD));
                    }
                }
            }
        }
    }
}

pub struct SimplePattern {
    pub regex: Regex,
    pub split: bool,
}

impl Tokenizer for SimplePattern {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        if self.split {
            Pattern {
                regex: JavaRegex::Linear(self.regex.clone()),
                group: -1,
            }
            .tokenize(text, out);
        } else {
            for m in self.regex.find_iter(text) {
                if !m.is_empty() {
                    out.toks
                        .push(Tok::new(m.as_str(), m.start(), m.end(), WORD));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookaround_runs_on_the_backtracking_engine() {
        let re = java_regex("(\\d+)-(?=\\d)", "").unwrap();
        assert!(matches!(re, JavaRegex::Backtracking(_)));
        assert_eq!(
            re.replace("123-456-789", "${1}_", true).as_deref(),
            Some("123_456_789")
        );
        assert!(matches!(
            java_regex("a+", "").unwrap(),
            JavaRegex::Linear(_)
        ));
        assert!(java_regex("a(", "").is_err());
    }

    #[test]
    fn splits_on_ascii_non_word() {
        let p = Pattern {
            regex: java_regex("\\W+", "").unwrap(),
            group: -1,
        };
        let mut out = Tokens::default();
        p.tokenize("héllo, world", &mut out);
        let v: Vec<_> = out.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(v, ["h", "llo", "world"]);
    }
}
