//! `mapping`: replaces every occurrence of a key with its value (longest key first).

use super::{CharFilter, OffsetMap};
use crate::error::{Error, Result};
use std::collections::HashMap;

pub struct Mapping {
    rules: HashMap<String, String>,
    max_key: usize,
}

fn unescape(s: &str) -> Result<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let v = u32::from_str_radix(&hex, 16)
                    .map_err(|_| Error::illegal_argument(format!("Invalid escape in [{s}]")))?;
                out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
            }
            Some(o) => out.push(o),
            None => {
                return Err(Error::illegal_argument(format!(
                    "Invalid escaped char in [{s}]"
                )))
            }
        }
    }
    Ok(out)
}

impl Mapping {
    pub fn parse(lines: &[String]) -> Result<Mapping> {
        let mut rules = HashMap::new();
        for line in lines {
            let Some((k, v)) = line.split_once("=>") else {
                return Err(Error::illegal_argument(format!(
                    "Invalid Mapping Rule : [{line}]"
                )));
            };
            let k = unescape(k.trim())?;
            if k.is_empty() {
                return Err(Error::illegal_argument(format!(
                    "Invalid Mapping Rule : [{line}]"
                )));
            }
            rules.insert(k, unescape(v.trim())?);
        }
        let max_key = rules.keys().map(String::len).max().unwrap_or(0);
        Ok(Mapping { rules, max_key })
    }
}

impl CharFilter for Mapping {
    fn filter(&self, text: &str, map: &mut OffsetMap) -> String {
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        'outer: while i < text.len() {
            let mut n = self.max_key.min(text.len() - i);
            while n > 0 {
                if text.is_char_boundary(i + n) {
                    if let Some(v) = self.rules.get(&text[i..i + n]) {
                        out.push_str(v);
                        let delta = n as isize - v.len() as isize;
                        if delta != 0 {
                            map.add(out.len(), delta);
                        }
                        i += n;
                        continue 'outer;
                    }
                }
                n -= 1;
            }
            let ch = text[i..].chars().next().unwrap_or('\u{FFFD}');
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }
}
