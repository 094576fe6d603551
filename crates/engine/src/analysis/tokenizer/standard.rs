//! `standard`: Lucene's StandardTokenizer: Unicode 12.1 word boundaries (UAX#29) with its
//! tailorings (one token per Han ideograph and Hiragana character, Southeast Asian runs kept
//! whole, emoji sequences as `<EMOJI>`, nothing for punctuation), the types its grammar gives, and
//! tokens longer than `max_token_length` cut as its scanner's window cuts them. ASCII text takes
//! a shortcut where the grammar reduces to a few rules; the rest runs `standard_dfa`.

use super::standard_dfa::Dfa;
use super::Tokenizer;
use crate::analysis::token::*;
use crate::analysis::unicode::*;

pub struct Standard {
    pub max_token_length: usize,
}

impl Default for Standard {
    fn default() -> Self {
        Standard {
            max_token_length: 255,
        }
    }
}

/// The type of `piece` when the grammar reads it as one token.
fn classify(piece: &str) -> Option<&'static str> {
    match Dfa::get().next_token(piece, 0, usize::MAX) {
        (end, kind) if end == piece.len() => kind,
        _ => None,
    }
}

/// Byte index where a piece of at most `max` UTF-16 units ends (a surrogate pair is never split).
pub fn chop_at(s: &str, max: usize) -> usize {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        let n = c.len_utf16();
        if units + n > max {
            return i;
        }
        units += n;
    }
    s.len()
}

/// Adds a token found by another grammar (`uax_url_email`'s URLs and e-mail addresses), cut
/// into pieces of at most `max` UTF-16 units.
pub fn emit(
    text: &str,
    start: usize,
    end: usize,
    kind: &'static str,
    max: usize,
    out: &mut Tokens,
) {
    let seg = &text[start..end];
    if seg.len() <= max || utf16_len(seg) <= max {
        out.push(seg, start, end, kind);
        return;
    }
    let mut s = start;
    while s < end {
        let cut = s + chop_at(&text[s..end], max)
            .max(text[s..end].chars().next().map_or(1, char::len_utf8));
        let piece = &text[s..cut];
        let kind = classify(piece).unwrap_or(kind);
        out.toks.push(Tok::new(piece, s, cut, kind));
        s = cut;
    }
}

/// What an ASCII byte is to the word-break rules, as bits: a word is a run of `WORD` bytes
/// with single `MID_*` bytes inside where both neighbours allow them.
const LETTER: u8 = 1;
const DIGIT: u8 = 2;
/// `_` (ExtendNumLet): joins anything, makes no token alone.
const UNDER: u8 = 4;
const WORD: u8 = LETTER | DIGIT | UNDER;
/// `:` (MidLetter): joins two letters.
const MID_LETTER: u8 = 8;
/// `.` and `'` (MidNumLet, Single_Quote): join two letters or two digits.
const MID_NUM_LET: u8 = 16;
/// `,` and `;` (MidNum): join two digits.
const MID_NUM: u8 = 32;

const fn ascii_class_of(b: u8) -> u8 {
    match b {
        b'a'..=b'z' | b'A'..=b'Z' => LETTER,
        b'0'..=b'9' => DIGIT,
        b'_' => UNDER,
        b':' => MID_LETTER,
        b'.' | b'\'' => MID_NUM_LET,
        b',' | b';' => MID_NUM,
        _ => 0,
    }
}

/// Indexed by any byte, so lookups need no masking (the scanner only sees ASCII).
static ASCII_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = ascii_class_of(b as u8);
        b += 1;
    }
    t
};

#[inline(always)]
fn ascii_class(b: u8) -> u8 {
    ASCII_CLASS[b as usize]
}

/// Whether the byte of class `mid` joins the word bytes of classes `prev` and `next`.
#[inline]
fn joins(prev: u8, mid: u8, next: u8) -> bool {
    match (prev, next) {
        (LETTER, LETTER) => mid & (MID_LETTER | MID_NUM_LET) != 0,
        (DIGIT, DIGIT) => mid & (MID_NUM | MID_NUM_LET) != 0,
        _ => false,
    }
}

/// The tokens of ASCII text, where UAX#29 word boundaries reduce to a few rules: letters,
/// digits and `_` join; `:` joins two letters, `.`/`'` two letters or two digits, `,`/`;` two
/// digits. A token longer than the window hands the rest of the text to the grammar's DFA.
pub struct AsciiScan<'a> {
    text: &'a str,
    at: usize,
    max: usize,
    dfa: bool,
}

const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight bytes of ASCII text, little-endian.
#[inline(always)]
fn load8(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The high bit of each byte of `w` (all below 0x80) that is a letter, a digit, a word byte
/// (letter, digit or `_`): adding `0x80 - lo` sets a byte's high bit when it is at least
/// `lo`, with no carry into the next byte.
#[inline(always)]
fn word_bits(w: u64) -> (u64, u64, u64) {
    let l = w | 0x2020_2020_2020_2020;
    let letter = (l + 0x1F1F_1F1F_1F1F_1F1F) & !(l + 0x0505_0505_0505_0505) & HIGH;
    let digit = (w + 0x5050_5050_5050_5050) & !(w + 0x4646_4646_4646_4646) & HIGH;
    let under = !((w ^ 0x5F5F_5F5F_5F5F_5F5F) + 0x7F7F_7F7F_7F7F_7F7F) & HIGH;
    (letter, digit, letter | digit | under)
}

impl Iterator for AsciiScan<'_> {
    /// Byte offsets and type.
    type Item = (usize, usize, &'static str);

    /// Eight bytes at a time where eight are left (`word_bits`), else byte by byte.
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.dfa {
            return self.next_dfa();
        }
        let b = self.text.as_bytes();
        let n = b.len();
        let mut i = self.at;
        loop {
            while i + 8 <= n {
                let (_, _, word) = word_bits(load8(b, i));
                if word != 0 {
                    i += (word.trailing_zeros() / 8) as usize;
                    break;
                }
                i += 8;
            }
            while i < n && ascii_class(b[i]) & WORD == 0 {
                i += 1;
            }
            if i == n {
                self.at = n;
                return None;
            }
            let start = i;
            let mut seen = 0;
            loop {
                while i + 8 <= n {
                    let (letter, digit, word) = word_bits(load8(b, i));
                    let run = ((!word & HIGH).trailing_zeros() / 8) as usize;
                    let in_run = if run == 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * run)) - 1
                    };
                    if letter & in_run != 0 {
                        seen |= LETTER;
                    }
                    if digit & in_run != 0 {
                        seen |= DIGIT;
                    }
                    i += run;
                    if run < 8 {
                        break;
                    }
                }
                while i < n {
                    let c = ascii_class(b[i]);
                    if c & WORD == 0 {
                        break;
                    }
                    seen |= c;
                    i += 1;
                }
                // A word byte precedes `i`; one joining byte and a word byte may follow.
                if i + 1 < n
                    && joins(
                        ascii_class(b[i - 1]),
                        ascii_class(b[i]),
                        ascii_class(b[i + 1]),
                    )
                {
                    i += 1;
                    continue;
                }
                break;
            }
            if seen & (LETTER | DIGIT) == 0 {
                continue;
            }
            if i - start > self.max {
                // The scanner's window cuts it where a shorter match ends, and rescans the rest.
                self.dfa = true;
                self.at = start;
                return self.next_dfa();
            }
            self.at = i;
            return Some((start, i, if seen & LETTER != 0 { ALPHANUM } else { NUM }));
        }
    }
}

impl AsciiScan<'_> {
    fn next_dfa(&mut self) -> Option<(usize, usize, &'static str)> {
        let dfa = Dfa::get();
        while self.at < self.text.len() {
            let start = self.at;
            let (end, kind) = dfa.next_token(self.text, start, self.max);
            self.at = end;
            if let Some(kind) = kind {
                return Some((start, end, kind));
            }
        }
        None
    }
}

impl Standard {
    /// The tokens of `text`, which must be ASCII.
    pub fn ascii_scan<'a>(&self, text: &'a str) -> AsciiScan<'a> {
        debug_assert!(text.is_ascii());
        AsciiScan {
            text,
            at: 0,
            max: self.max_token_length,
            dfa: false,
        }
    }

    fn tokenize_ascii(&self, text: &str, out: &mut Tokens) {
        for (start, end, kind) in self.ascii_scan(text) {
            out.push(&text[start..end], start, end, kind);
        }
    }

    /// The grammar's tokens from byte `from` on.
    fn tokenize_from(&self, text: &str, from: usize, out: &mut Tokens) {
        let dfa = Dfa::get();
        let mut at = from;
        while at < text.len() {
            let (end, kind) = dfa.next_token(text, at, self.max_token_length);
            if let Some(kind) = kind {
                out.push(&text[at..end], at, end, kind);
            }
            at = end;
        }
    }
}

impl Tokenizer for Standard {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        if text.is_ascii() {
            return self.tokenize_ascii(text, out);
        }
        self.tokenize_from(text, 0, out);
    }

    fn as_standard(&self) -> Option<&Standard> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Vec<(String, &'static str)> {
        let mut out = Tokens::default();
        Standard::default().tokenize(text, &mut out);
        out.toks.into_iter().map(|t| (t.text, t.kind)).collect()
    }

    #[test]
    fn lucene_cases() {
        assert_eq!(
            run("David has 5000 bones"),
            vec![
                ("David".into(), ALPHANUM),
                ("has".into(), ALPHANUM),
                ("5000".into(), NUM),
                ("bones".into(), ALPHANUM)
            ]
        );
        let t: Vec<_> = run("我是 カタカナ 훈민정음 ひら 💩 21.35")
            .into_iter()
            .map(|x| x.1)
            .collect();
        assert_eq!(
            t,
            vec![
                IDEOGRAPHIC,
                IDEOGRAPHIC,
                KATAKANA,
                HANGUL,
                HIRAGANA,
                HIRAGANA,
                EMOJI,
                NUM
            ]
        );
        assert_eq!(run("O'Reilly's ac/dc")[0].0, "O'Reilly's");
        assert_eq!(run("การที่ได้ต้อง แล้ว").len(), 2);
    }

    #[test]
    fn ascii_rules_match_the_grammar() {
        let text = "A:B A::B 1.2 A.B 1..2 1,2 1,,2 1,.2 A.:B A:B_A:B 1.2_1.2 a_a.:1 _x_ __ x_ \
                    can't O'Reilly's 216.239.63.104 3.14! ab;cd 12;34 a'1 1'2 foo@bar.com";
        let mut fast = Tokens::default();
        Standard::default().tokenize_ascii(text, &mut fast);
        assert!(fast.toks.len() > 30);
        let mut slow = Tokens::default();
        Standard::default().tokenize_from(text, 0, &mut slow);
        assert_eq!(fast.toks, slow.toks);
    }

    /// The eight-bytes-at-a-time scan against the grammar, on random text made of the bytes
    /// the rules tell apart (and runs long enough to cross word boundaries inside a load).
    #[test]
    fn ascii_scan_matches_the_grammar_on_random_text() {
        use rand::{Rng, SeedableRng};
        let alphabet = b"aZq09_:.',; -\t@x";
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        for _ in 0..20_000 {
            let len = rng.gen_range(0..48);
            let text: String = (0..len)
                .map(|_| {
                    let c = alphabet[rng.gen_range(0..alphabet.len())];
                    if rng.gen_bool(0.5) {
                        'e'
                    } else {
                        c as char
                    }
                })
                .collect();
            let mut fast = Tokens::default();
            Standard::default().tokenize_ascii(&text, &mut fast);
            let mut slow = Tokens::default();
            Standard::default().tokenize_from(&text, 0, &mut slow);
            assert_eq!(fast.toks, slow.toks, "{text:?}");
        }
    }

    #[test]
    fn chops_long_tokens() {
        let mut out = Tokens::default();
        Standard {
            max_token_length: 5,
        }
        .tokenize("ab cd toolong xy z", &mut out);
        let t: Vec<_> = out.toks.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(t, ["ab", "cd", "toolo", "ng", "xy", "z"]);
    }
}
