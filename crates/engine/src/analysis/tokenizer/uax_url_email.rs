//! `uax_url_email`: the standard tokenizer, except that URLs and e-mail addresses are kept
//! whole as `<URL>` and `<EMAIL>` tokens. Hosts without a scheme must end in a known top-level
//! domain (IANA's list, as Lucene 9 carries it) and must not run on into a word.

use super::standard::{emit, Standard};
use super::Tokenizer;
use crate::analysis::token::{Tokens, EMAIL, URL};
use regex::Regex;
use std::collections::HashSet;
use std::sync::OnceLock;

static TLDS: &str = include_str!("tlds.txt");

fn tlds() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| {
        TLDS.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect()
    })
}

fn scanner() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let label = r"[A-Za-z0-9](?:[-A-Za-z0-9]*[A-Za-z0-9])?";
        let pattern = format!(
            r"(?P<email>[A-Za-z0-9!#$%&'*+,\-./=?^_`{{|}}~]+@(?:{label}\.)+(?P<etld>[A-Za-z]+))|(?P<url>(?i:https?|ftp|file)://[^\s<>\x22`{{}}|\\^\[\],]+)|(?P<host>(?:{label}\.)+(?P<htld>[A-Za-z]+)\.?(?::[0-9]+)?(?:/[^\s<>\x22`{{}}|\\^\[\],]*)?)"
        );
        Regex::new(&pattern).expect("url/email scanner")
    })
}

pub struct UaxUrlEmail {
    pub max_token_length: usize,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b >= 0x80
}

impl Tokenizer for UaxUrlEmail {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        let std = Standard {
            max_token_length: self.max_token_length,
        };
        let re = scanner();
        let bytes = text.as_bytes();
        let mut done = 0; // text before this is tokenized
        let mut pos = 0;
        while pos < text.len() {
            let Some(c) = re.captures_at(text, pos) else {
                break;
            };
            let m = c.get(0).expect("match");
            let (start, mut end, kind) = if c.name("email").is_some() {
                let tld = c.name("etld").map_or("", |t| t.as_str());
                if !tlds().contains(tld.to_ascii_lowercase().as_str()) {
                    pos = next_char(text, m.start());
                    continue;
                }
                (m.start(), m.end(), EMAIL)
            } else if c.name("url").is_some() {
                (m.start(), m.end(), URL)
            } else {
                let tld = c.name("htld").map_or("", |t| t.as_str());
                let preceded = m.start() > 0 && is_word_byte(bytes[m.start() - 1]);
                let followed = bytes.get(m.end()).is_some_and(|&b| is_word_byte(b));
                let has_path = m.as_str().contains(['/', ':']);
                if preceded
                    || !tlds().contains(tld.to_ascii_lowercase().as_str())
                    || (followed && !has_path)
                {
                    pos = next_char(text, m.start());
                    continue;
                }
                (m.start(), m.end(), URL)
            };
            if kind == URL {
                while end > start
                    && matches!(
                        bytes[end - 1],
                        b'.' | b',' | b';' | b':' | b'!' | b'?' | b')' | b'\''
                    )
                {
                    end -= 1;
                }
            }
            if done < start {
                tokenize_gap(&std, text, done, start, out);
            }
            emit(text, start, end, kind, self.max_token_length, out);
            done = end;
            pos = end.max(next_char(text, start));
        }
        if done < text.len() {
            tokenize_gap(&std, text, done, text.len(), out);
        }
    }
}

fn next_char(text: &str, i: usize) -> usize {
    i + text[i..].chars().next().map_or(1, char::len_utf8)
}

fn tokenize_gap(std: &Standard, text: &str, from: usize, to: usize, out: &mut Tokens) {
    let n = out.toks.len();
    std.tokenize(&text[from..to], out);
    for t in &mut out.toks[n..] {
        t.start += from;
        t.end += from;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_emails() {
        let mut out = Tokens::default();
        UaxUrlEmail {
            max_token_length: 255,
        }
        .tokenize(
            "mail john.doe@example.com or see https://www.debian.org/doc. file.txt",
            &mut out,
        );
        let v: Vec<_> = out.toks.iter().map(|t| (t.text.as_str(), t.kind)).collect();
        assert_eq!(v[1], ("john.doe@example.com", EMAIL));
        assert_eq!(v[4], ("https://www.debian.org/doc", URL));
        assert_eq!(v[5].0, "file.txt");
    }
}
