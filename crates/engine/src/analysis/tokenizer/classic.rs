//! `classic`: Lucene's pre-UAX#29 grammar: words, numbers, acronyms (`U.S.A.`), companies
//! (`AT&T`), e-mail addresses, host names and apostrophe words, each with its type. Tokens
//! longer than `max_token_length` are skipped, leaving a position gap.

use super::Tokenizer;
use crate::analysis::token::{Tok, Tokens, ALPHANUM, NUM};
use crate::analysis::unicode::{is_han, is_hiragana, is_katakana, utf16_len};

pub struct Classic {
    pub max_token_length: usize,
}

fn is_cj(c: char) -> bool {
    is_han(c)
        || is_hiragana(c)
        || is_katakana(c)
        || matches!(c as u32, 0x3100..=0x312F | 0x3300..=0x337F | 0xFF65..=0xFF9F)
}

fn is_alnum(c: char) -> bool {
    (c.is_alphanumeric() && !is_cj(c) && (c as u32) < 0x10000)
        || matches!(c as u32, 0x0E00..=0x0E59)
}

fn is_conn(c: char) -> bool {
    matches!(c, '.' | '\'' | '&' | '@' | '-' | '_' | '/' | ',')
}

/// Types one run of alphanumerics and connectors (trimmed of connectors at both ends except a
/// trailing dot) into tokens.
fn classify(run: &str, base: usize, out: &mut Vec<(usize, usize, &'static str, bool)>) {
    let trailing_dot = run.ends_with('.');
    let core = if trailing_dot {
        &run[..run.len() - 1]
    } else {
        run
    };
    let segs: Vec<&str> = core.split(is_conn).collect();
    let conns: Vec<char> = core.chars().filter(|&c| is_conn(c)).collect();
    let all_letters = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphabetic());
    let has_digit = |s: &str| s.chars().any(|c| c.is_numeric());
    let empty_seg = segs.iter().any(|s| s.is_empty());
    if conns.is_empty() {
        out.push((base, base + core.len(), ALPHANUM, false));
        return;
    }
    if !empty_seg {
        if conns.iter().all(|&c| c == '.')
            && segs
                .iter()
                .all(|s| s.chars().count() == 1 && all_letters(s))
            && trailing_dot
        {
            out.push((base, base + run.len(), "<ACRONYM>", false));
            return;
        }
        if conns.iter().all(|&c| c == '\'') && segs.iter().all(|s| all_letters(s)) {
            out.push((base, base + core.len(), "<APOSTROPHE>", false));
            return;
        }
        if conns.len() == 1 && matches!(conns[0], '&' | '@') && segs.iter().all(|s| all_letters(s))
        {
            out.push((base, base + core.len(), "<COMPANY>", false));
            return;
        }
        if conns.iter().filter(|&&c| c == '@').count() == 1
            && !conns.iter().any(|&c| matches!(c, '\'' | '&' | '/' | ','))
        {
            let at = core.find('@').unwrap_or(0);
            if core[at + 1..].contains('.') && !core[at + 1..].contains('_') {
                out.push((base, base + core.len(), "<EMAIL>", false));
                return;
            }
        }
        if conns.iter().all(|&c| c == '.') {
            // ACRONYM_DEP: the trailing dot stays in the offsets only.
            out.push((base, base + core.len(), "<HOST>", trailing_dot));
            return;
        }
        if conns
            .iter()
            .all(|&c| matches!(c, '_' | '-' | '/' | '.' | ','))
            && segs.iter().any(|s| has_digit(s))
        {
            out.push((base, base + core.len(), NUM, false));
            return;
        }
    }
    // Otherwise the longest prefix that is one typed token, then the rest.
    let bounds: Vec<usize> = core
        .char_indices()
        .filter(|&(_, c)| is_conn(c))
        .map(|(i, _)| i)
        .collect();
    for &b in bounds.iter().rev() {
        let mut tmp = Vec::new();
        classify(&core[..b], base, &mut tmp);
        if tmp.len() == 1 && tmp[0].2 != ALPHANUM {
            out.extend(tmp);
            let rest = core[b + 1..].trim_start_matches(is_conn);
            let skip = core.len() - rest.len();
            if !rest.is_empty() {
                classify(rest, base + skip, out);
            }
            return;
        }
    }
    // Otherwise split at the connectors.
    let mut off = base;
    for s in core.split(is_conn) {
        if !s.is_empty() {
            out.push((off, off + s.len(), ALPHANUM, false));
        }
        off += s.len() + 1;
    }
}

impl Tokenizer for Classic {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        let cps: Vec<(usize, char)> = text.char_indices().collect();
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < cps.len() {
            let c = cps[i].1;
            if is_cj(c) {
                let e = cps.get(i + 1).map_or(text.len(), |x| x.0);
                pieces.push((cps[i].0, e, "<CJ>", false));
                i += 1;
                continue;
            }
            if !is_alnum(c) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < cps.len()
                && (is_alnum(cps[j].1)
                    || (is_conn(cps[j].1) && cps.get(j + 1).is_some_and(|n| is_alnum(n.1))))
            {
                j += 1;
            }
            let mut end = cps.get(j).map_or(text.len(), |x| x.0);
            if cps.get(j).is_some_and(|x| x.1 == '.') {
                end += 1;
                j += 1;
            }
            let run = &text[cps[i].0..end];
            let start = cps[i].0;
            // A trailing dot only counts for acronyms/hosts.
            let mut local = Vec::new();
            classify(run, start, &mut local);
            if run.ends_with('.') && local.iter().all(|p| p.2 == ALPHANUM) {
                local.clear();
                classify(&run[..run.len() - 1], start, &mut local);
            }
            pieces.extend(local);
            i = j;
        }
        let mut gap = 0;
        for (s, e, kind, dep) in pieces {
            let text_end = e;
            let tok_end = if dep { e + 1 } else { e };
            if utf16_len(&text[s..text_end]) > self.max_token_length {
                gap += 1;
                continue;
            }
            let mut t = Tok::new(&text[s..text_end], s, tok_end, kind);
            t.pos_inc += gap;
            gap = 0;
            out.toks.push(t);
        }
        out.end_inc += gap;
    }
}
