//! `pattern` (split on a Java regex, or emit one group of each match), `simple_pattern` (emit
//! matches) and `simple_pattern_split` (split on matches). Java's ASCII-only `\w`, `\d`, `\s`
//! classes are translated so the Rust regex engine sees the same sets.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, WORD};
use crate::error::{Error, Result};
use regex::Regex;

pub fn java_regex(pattern: &str, flags: &str) -> Result<Regex> {
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
    Regex::new(&out).map_err(|e| Error::illegal_argument(format!("Invalid regex [{pattern}]: {e}")))
}

pub struct Pattern {
    pub regex: Regex,
    /// -1 splits on the pattern; otherwise the group of each match to emit.
    pub group: i64,
}

impl Tokenizer for Pattern {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        if self.group < 0 {
            let mut last = 0;
            for m in self.regex.find_iter(text) {
                if m.start() > last {
                    out.toks
                        .push(Tok::new(&text[last..m.start()], last, m.start(), WORD));
                }
                last = m.end();
            }
            if last < text.len() {
                out.toks
                    .push(Tok::new(&text[last..], last, text.len(), WORD));
            }
        } else {
            for caps in self.regex.captures_iter(text) {
                if let Some(g) = caps.get(self.group as usize) {
                    if !g.is_empty() {
                        out.toks
                            .push(Tok::new(g.as_str(), g.start(), g.end(), WORD));
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
                regex: self.regex.clone(),
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
