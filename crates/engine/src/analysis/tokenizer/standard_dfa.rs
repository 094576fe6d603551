//! Lucene's StandardTokenizer grammar (UAX#29 word boundaries as its JFlex rules apply them,
//! Unicode 12.1) compiled into a DFA over the character classes of `word_break.rs`, and the
//! scanner that runs it the way a JFlex scanner does: at each position the longest match of
//! any rule, an earlier rule winning a tie, within a window of `max_token_length` UTF-16 units
//! (Lucene's scanner buffer: a longer token is cut where the window ends).
//!
//! The rules, in priority order (each `X` stands for `X (Extend | Format | ZWJ)*`, WB4):
//! - `<EMOJI>`: TR#51 emoji sequences (presentation, modifier, ZWJ and tag sequences, keycaps,
//!   regional indicator pairs), in place of WB3c, WB15 and WB16;
//! - `<NUM>`: `ExtendNumLet* Numeric ((ExtendNumLet* | MidNum) Numeric)* ExtendNumLet*` (WB8,
//!   WB11, WB12, WB13a, WB13b);
//! - `<HANGUL>`, `<KATAKANA>`: runs of Hangul letters or Katakana (only to type tokens: the word
//!   rule matches them too, and wins when it matches more);
//! - `<ALPHANUM>`: letters, digits, Katakana and their joiners (WB5–WB7c, WB9, WB10, WB13–13b);
//! - `<SOUTHEAST_ASIAN>`: runs of Line_Break=Complex_Context (Thai, Lao, Myanmar, Khmer…);
//! - `<IDEOGRAPHIC>`, `<HIRAGANA>`: one Han or Hiragana character (WB999);
//! - anything else: one character, no token.

use crate::analysis::token::*;
use crate::analysis::word_break as wb;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A set of character classes (`word_break::CLASSES` has at most 128).
type Set = u128;

#[derive(Clone)]
enum Re {
    Chars(Set),
    Seq(Vec<Re>),
    Alt(Vec<Re>),
    Star(Box<Re>),
}

fn seq(parts: impl Into<Vec<Re>>) -> Re {
    Re::Seq(parts.into())
}
fn alt(parts: impl Into<Vec<Re>>) -> Re {
    Re::Alt(parts.into())
}
fn star(r: Re) -> Re {
    Re::Star(Box::new(r))
}
fn plus(r: Re) -> Re {
    seq([r.clone(), star(r)])
}
fn opt(r: Re) -> Re {
    alt([r, seq([])])
}

/// The classes whose (Word_Break, flags) satisfy `test`.
fn chars(test: impl Fn(u8, u16) -> bool) -> Set {
    let mut set = 0;
    for (i, &(w, f)) in wb::CLASSES.iter().enumerate() {
        if test(w, f) {
            set |= 1 << i;
        }
    }
    set
}

/// Token types by rule, in the grammar's priority order; `None` for the catch-all rule.
const RULE_TYPES: [Option<&str>; 9] = [
    Some(EMOJI),
    Some(NUM),
    Some(HANGUL),
    Some(KATAKANA),
    Some(ALPHANUM),
    Some(SOUTHEAST_ASIAN),
    Some(IDEOGRAPHIC),
    Some(HIRAGANA),
    None,
];

fn rules() -> Vec<Re> {
    let is = |v: u8| move |w: u8, _: u16| w == v;
    let has = |flag: u16| move |_: u8, f: u16| f & flag != 0;
    let ext = |w: u8| matches!(w, wb::EXTEND | wb::FORMAT | wb::ZWJ);
    let ext_fmt_zwj = star(Re::Chars(chars(|w, _| ext(w))));
    // WB4 after an element, with Extend's two variation selectors left to the emoji rule.
    let ext_sans_sel = star(Re::Chars(chars(|w, f| {
        ext(w) && f & (wb::TEXT_SELECTOR | wb::PRESENTATION_SELECTOR) == 0
    })));
    let ex = |set: Set| seq([Re::Chars(set), ext_fmt_zwj.clone()]);
    let ex_sans_sel = |set: Set| seq([Re::Chars(set), ext_sans_sel.clone()]);

    let zwj = Re::Chars(chars(is(wb::ZWJ)));
    let pres_sel = Re::Chars(chars(has(wb::PRESENTATION_SELECTOR)));
    let rkam = |w: u8, f: u16| {
        w == wb::REGIONAL_INDICATOR
            || f & (wb::KEYCAP_BASE | wb::ACCIDENTAL_EMOJI | wb::EMOJI_MODIFIER) != 0
    };
    let emoji_char =
        chars(|w, f| f & wb::EXTENDED_PICTOGRAPHIC != 0 || (f & wb::EMOJI != 0 && !rkam(w, f)));
    let modifier_base = chars(has(wb::EMOJI_MODIFIER_BASE));
    let modifier = chars(has(wb::EMOJI_MODIFIER));
    let element = alt([
        seq([
            star(zwj.clone()),
            ex_sans_sel(emoji_char),
            opt(pres_sel.clone()),
        ]),
        seq([
            opt(seq([star(zwj.clone()), ex_sans_sel(modifier_base)])),
            ex_sans_sel(modifier),
        ]),
    ]);
    let emoji = alt([
        seq([
            element.clone(),
            alt([
                star(seq([zwj, element])),
                seq([
                    plus(Re::Chars(chars(has(wb::TAG_SPEC)))),
                    Re::Chars(chars(has(wb::TAG_TERM))),
                ]),
            ]),
        ]),
        seq([
            ex_sans_sel(chars(has(wb::KEYCAP_BASE))),
            opt(pres_sel),
            ex_sans_sel(chars(has(wb::KEYCAP))),
        ]),
        seq([
            ex(chars(is(wb::REGIONAL_INDICATOR))),
            ex(chars(is(wb::REGIONAL_INDICATOR))),
        ]),
    ]);

    let numeric = ex(chars(is(wb::NUMERIC)));
    let ext_num_let = star(ex(chars(is(wb::EXTEND_NUM_LET))));
    let mid_num = ex(chars(|w, _| {
        matches!(w, wb::MID_NUM | wb::MID_NUM_LET | wb::SINGLE_QUOTE)
    }));
    let mid_letter = ex(chars(|w, _| {
        matches!(w, wb::MID_LETTER | wb::MID_NUM_LET | wb::SINGLE_QUOTE)
    }));
    let ah_letter = ex(chars(|w, _| matches!(w, wb::ALETTER | wb::HEBREW_LETTER)));
    let hebrew = ex(chars(is(wb::HEBREW_LETTER)));
    let katakana = ex(chars(is(wb::KATAKANA)));
    let number = seq([
        numeric.clone(),
        star(seq([alt([ext_num_let.clone(), mid_num]), numeric.clone()])),
    ]);
    let num = seq([ext_num_let.clone(), number.clone(), ext_num_let.clone()]);
    let hangul = plus(ex(chars(|w, f| {
        f & wb::HANGUL != 0 && matches!(w, wb::ALETTER | wb::HEBREW_LETTER)
    })));

    let part = alt([
        seq([
            katakana.clone(),
            star(seq([ext_num_let.clone(), katakana.clone()])),
        ]),
        plus(alt([
            seq([
                hebrew.clone(),
                alt([
                    ex(chars(is(wb::SINGLE_QUOTE))),
                    seq([ex(chars(is(wb::DOUBLE_QUOTE))), hebrew]),
                ]),
            ]),
            number,
            seq([
                ah_letter.clone(),
                star(seq([alt([ext_num_let.clone(), mid_letter]), ah_letter])),
            ]),
        ])),
    ]);
    let one_num_let = ex(chars(is(wb::EXTEND_NUM_LET)));
    let word = seq([
        ext_num_let.clone(),
        part.clone(),
        star(seq([plus(one_num_let), part])),
        ext_num_let,
    ]);

    vec![
        emoji,
        num,
        hangul,
        plus(katakana),
        word,
        plus(ex(chars(has(wb::COMPLEX_CONTEXT)))),
        ex(chars(has(wb::HAN))),
        ex(chars(has(wb::HIRAGANA))),
        Re::Chars(chars(|_, _| true)),
    ]
}

/// Thompson NFA: epsilon moves and class-set moves per state.
#[derive(Default)]
struct Nfa {
    eps: Vec<Vec<usize>>,
    moves: Vec<Vec<(Set, usize)>>,
    accept: Vec<u8>,
}

impl Nfa {
    fn state(&mut self) -> usize {
        self.eps.push(Vec::new());
        self.moves.push(Vec::new());
        self.accept.push(NO_RULE);
        self.eps.len() - 1
    }

    /// Adds `re` starting at `from`; returns the state it ends in.
    fn add(&mut self, re: &Re, from: usize) -> usize {
        match re {
            Re::Chars(set) => {
                let to = self.state();
                self.moves[from].push((*set, to));
                to
            }
            Re::Seq(parts) => parts.iter().fold(from, |at, r| self.add(r, at)),
            Re::Alt(parts) => {
                let out = self.state();
                for r in parts {
                    let entry = self.state();
                    self.eps[from].push(entry);
                    let exit = self.add(r, entry);
                    self.eps[exit].push(out);
                }
                out
            }
            Re::Star(r) => {
                let hub = self.state();
                self.eps[from].push(hub);
                let entry = self.state();
                self.eps[hub].push(entry);
                let exit = self.add(r, entry);
                self.eps[exit].push(hub);
                hub
            }
        }
    }

    fn closure(&self, states: &mut Vec<usize>) {
        let mut seen = vec![false; self.eps.len()];
        for &s in states.iter() {
            seen[s] = true;
        }
        let mut i = 0;
        while i < states.len() {
            for &t in &self.eps[states[i]] {
                if !seen[t] {
                    seen[t] = true;
                    states.push(t);
                }
            }
            i += 1;
        }
        states.sort_unstable();
    }
}

const NO_RULE: u8 = u8::MAX;
/// The DFA state no input leaves.
const DEAD: u16 = 0;
const START: u16 = 1;

pub struct Dfa {
    classes: usize,
    /// `next[state * classes + class]`.
    next: Vec<u16>,
    /// The rule a state accepts (the earliest of its NFA states'), or `NO_RULE`.
    accept: Vec<u8>,
    /// Class of each BMP code point.
    bmp: Vec<u8>,
}

impl Dfa {
    fn build() -> Dfa {
        let mut nfa = Nfa::default();
        let root = nfa.state();
        for (i, rule) in rules().iter().enumerate() {
            let entry = nfa.state();
            nfa.eps[root].push(entry);
            let exit = nfa.add(rule, entry);
            nfa.accept[exit] = nfa.accept[exit].min(i as u8);
        }
        let classes = wb::CLASSES.len();
        let mut ids: HashMap<Vec<usize>, u16> = HashMap::new();
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        ids.insert(Vec::new(), DEAD);
        let mut start = vec![root];
        nfa.closure(&mut start);
        ids.insert(start.clone(), START);
        sets.push(start);
        let mut next = vec![DEAD; classes];
        let mut i = 1;
        while i < sets.len() {
            for c in 0..classes {
                let bit: Set = 1 << c;
                let mut to: Vec<usize> = Vec::new();
                for &s in &sets[i] {
                    for &(set, t) in &nfa.moves[s] {
                        if set & bit != 0 && !to.contains(&t) {
                            to.push(t);
                        }
                    }
                }
                nfa.closure(&mut to);
                let id = match ids.get(&to) {
                    Some(&id) => id,
                    None => {
                        let id = u16::try_from(sets.len()).expect("DFA states fit u16");
                        ids.insert(to.clone(), id);
                        sets.push(to);
                        id
                    }
                };
                next.push(id);
            }
            i += 1;
        }
        let accept = sets
            .iter()
            .map(|s| s.iter().map(|&n| nfa.accept[n]).min().unwrap_or(NO_RULE))
            .collect();
        let mut bmp = vec![0u8; 0x10000];
        for &(first, last, class) in wb::RANGES {
            if first > 0xFFFF {
                break;
            }
            bmp[first as usize..=last.min(0xFFFF) as usize].fill(class);
        }
        Dfa {
            classes,
            next,
            accept,
            bmp,
        }
    }

    pub fn get() -> &'static Dfa {
        static DFA: OnceLock<Dfa> = OnceLock::new();
        DFA.get_or_init(Dfa::build)
    }

    #[inline]
    fn class(&self, c: char) -> usize {
        let u = c as u32;
        if u < 0x10000 {
            return self.bmp[u as usize] as usize;
        }
        let i = wb::RANGES.partition_point(|&(_, last, _)| last < u);
        match wb::RANGES.get(i) {
            Some(&(first, _, class)) if first <= u => class as usize,
            _ => 0,
        }
    }

    /// The token at byte `from` of `text`: where it ends and its type (`None`: one character
    /// that makes no token). At most `max` UTF-16 units are looked at.
    #[inline]
    pub fn next_token(&self, text: &str, from: usize, max: usize) -> (usize, Option<&'static str>) {
        let mut state = START;
        let mut units = 0;
        let mut best = (from, NO_RULE);
        for (i, c) in text[from..].char_indices() {
            units += c.len_utf16();
            if units > max {
                break;
            }
            state = self.next[state as usize * self.classes + self.class(c)];
            if state == DEAD {
                break;
            }
            let rule = self.accept[state as usize];
            if rule != NO_RULE {
                best = (from + i + c.len_utf8(), rule);
            }
        }
        if best.1 == NO_RULE {
            // A one-unit window cannot hold a surrogate pair: Lucene's scanner takes that for
            // the end of the input.
            return (text.len(), None);
        }
        (best.0, RULE_TYPES[best.1 as usize])
    }

    pub fn states(&self) -> usize {
        self.accept.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Vec<(&str, &'static str)> {
        let dfa = Dfa::get();
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let (end, kind) = dfa.next_token(text, at, 255);
            if let Some(kind) = kind {
                out.push((&text[at..end], kind));
            }
            at = end;
        }
        out
    }

    #[test]
    fn grammar_rules() {
        assert!(Dfa::get().states() > 10);
        assert_eq!(
            scan("Ⓜ Ⓜa 1\u{20E3} 🇩🇪 🇩 ©"),
            [
                ("Ⓜ", EMOJI),
                ("Ⓜa", ALPHANUM),
                ("1\u{20E3}", EMOJI),
                ("🇩🇪", EMOJI),
                ("©", EMOJI)
            ]
        );
        assert_eq!(
            scan("カタカナ カ_カ 한국 한국a 3.14 a_1"),
            [
                ("カタカナ", KATAKANA),
                ("カ_カ", ALPHANUM),
                ("한국", HANGUL),
                ("한국a", ALPHANUM),
                ("3.14", NUM),
                ("a_1", ALPHANUM)
            ]
        );
        assert_eq!(
            scan("👩\u{200D}💻 👍🏽 ไทยภาษา"),
            [
                ("👩\u{200D}💻", EMOJI),
                ("👍🏽", EMOJI),
                ("ไทยภาษา", SOUTHEAST_ASIAN)
            ]
        );
    }
}
