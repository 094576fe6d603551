//! `synonym` and `synonym_graph` with inline Solr-format rules (`a, b, c` and `a, b => c`).
//! Each side of a rule is analysed by the chain before the filter; matching is greedy,
//! longest first; synonyms share the matched position and are typed `SYNONYM`.

use super::TokenFilter;
use crate::analysis::token::{Tok, Tokens};
use crate::error::{Error, Result};
use std::collections::HashMap;

pub struct Synonym {
    /// Input phrase → output phrases (the original included when it maps to itself).
    rules: HashMap<Vec<String>, Vec<Vec<String>>>,
    max_len: usize,
    graph: bool,
}

impl Synonym {
    /// `analyze` turns one side's phrase into terms with the preceding chain.
    pub fn parse(
        lines: &[String],
        expand: bool,
        lenient: bool,
        graph: bool,
        analyze: &dyn Fn(&str) -> Result<Vec<String>>,
    ) -> Result<Synonym> {
        let mut rules: HashMap<Vec<String>, Vec<Vec<String>>> = HashMap::new();
        let mut add = |from: Vec<String>, to: Vec<String>| {
            let e = rules.entry(from).or_default();
            if !e.contains(&to) {
                e.push(to);
            }
        };
        for line in lines {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parse_side = |side: &str| -> Result<Vec<Vec<String>>> {
                let mut out = Vec::new();
                for phrase in split_unescaped(side, ',') {
                    let terms = analyze(phrase.trim())?;
                    if terms.is_empty() {
                        if lenient {
                            continue;
                        }
                        return Err(Error::illegal_argument(format!(
                            "term: {} was completely eliminated by analyzer",
                            phrase.trim()
                        )));
                    }
                    out.push(terms);
                }
                Ok(out)
            };
            if let Some((lhs, rhs)) = line.split_once("=>") {
                let ins = parse_side(lhs)?;
                let outs = parse_side(rhs)?;
                for i in &ins {
                    for o in &outs {
                        add(i.clone(), o.clone());
                    }
                }
            } else {
                let all = parse_side(line)?;
                if expand {
                    for i in &all {
                        for o in &all {
                            add(i.clone(), o.clone());
                        }
                    }
                } else if let Some(first) = all.first() {
                    for i in &all {
                        add(i.clone(), first.clone());
                    }
                }
            }
        }
        let max_len = rules.keys().map(Vec::len).max().unwrap_or(0);
        Ok(Synonym {
            rules,
            max_len,
            graph,
        })
    }
}

fn split_unescaped(s: &str, sep: char) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.last_mut().expect("one part").push(n);
            }
        } else if c == sep {
            out.push(String::new());
        } else {
            out.last_mut().expect("one part").push(c);
        }
    }
    out
}

impl TokenFilter for Synonym {
    fn apply(&self, t: &mut Tokens) {
        if self.rules.is_empty() {
            return;
        }
        let toks = std::mem::take(&mut t.toks);
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let mut matched = None;
            for n in (1..=self.max_len.min(toks.len() - i)).rev() {
                // Only consecutive positions form a phrase.
                if toks[i + 1..i + n].iter().any(|x| x.pos_inc != 1) {
                    continue;
                }
                let key: Vec<String> = toks[i..i + n].iter().map(|x| x.text.clone()).collect();
                if let Some(outs) = self.rules.get(&key) {
                    matched = Some((n, key, outs));
                    break;
                }
            }
            let Some((n, key, outs)) = matched else {
                out.push(toks[i].clone());
                i += 1;
                continue;
            };
            let first = &toks[i];
            let last = &toks[i + n - 1];
            let keep_orig = outs.contains(&key);
            let span = outs
                .iter()
                .map(Vec::len)
                .chain(std::iter::once(if keep_orig { n } else { 0 }))
                .max()
                .unwrap_or(1);
            // First tokens of every path, then the rest of the multi-token paths.
            let mut paths: Vec<(Vec<String>, bool)> = Vec::new();
            // The graph filter puts the synonyms first; the legacy one the original.
            if keep_orig && !self.graph {
                paths.push((key.clone(), true));
            }
            for o in outs.iter() {
                if *o != key {
                    paths.push((o.clone(), false));
                }
            }
            if keep_orig && self.graph {
                paths.push((key.clone(), true));
            }
            let mut emitted_first = false;
            for (words, orig) in &paths {
                let len = words.len();
                let mut tok = if *orig {
                    first.clone()
                } else {
                    Tok::new(
                        &words[0],
                        first.start,
                        if len == 1 { last.end } else { first.end },
                        "SYNONYM",
                    )
                };
                if *orig && n > 1 {
                    tok.end = first.end;
                }
                tok.pos_inc = if emitted_first { 0 } else { first.pos_inc };
                tok.pos_len = if len == 1 { span as u32 } else { 1 };
                if !*orig && len == 1 {
                    tok.end = last.end;
                }
                if *orig {
                    tok.pos_len = if self.graph && n == 1 { span as u32 } else { 1 };
                }
                emitted_first = true;
                out.push(tok);
            }
            for k in 1..span {
                let mut first_at_k = true;
                for (words, orig) in &paths {
                    if let Some(w) = words.get(k) {
                        let src = if *orig {
                            &toks[i + k]
                        } else {
                            &toks[(i + k).min(i + n - 1)]
                        };
                        let mut tok = if *orig {
                            src.clone()
                        } else {
                            Tok::new(w, src.start, src.end, "SYNONYM")
                        };
                        tok.pos_inc = if first_at_k { 1 } else { 0 };
                        tok.pos_len = 1;
                        first_at_k = false;
                        out.push(tok);
                    }
                }
            }
            i += n;
        }
        t.toks = out;
    }
}
