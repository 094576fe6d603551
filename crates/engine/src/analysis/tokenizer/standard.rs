//! `standard`: Unicode word boundaries (UAX#29) with Lucene's tailorings: one token per Han
//! ideograph and Hiragana character, Southeast Asian runs kept whole, emoji sequences kept as
//! `<EMOJI>`, punctuation-only segments dropped, the token type Lucene's grammar assigns, and
//! tokens longer than `max_token_length` chopped into pieces.

use super::Tokenizer;
use crate::analysis::token::*;
use crate::analysis::unicode::*;
use crate::analysis::word_break as wb;
use unicode_segmentation::UnicodeSegmentation;

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

/// The type Lucene's standard grammar gives a UAX#29 segment, or `None` when it emits nothing.
pub fn classify(seg: &str) -> Option<&'static str> {
    let bytes = seg.as_bytes();
    if seg.is_ascii() {
        let mut letter = false;
        let mut digit = false;
        for &b in bytes {
            letter |= b.is_ascii_alphabetic();
            digit |= b.is_ascii_digit();
        }
        return if letter {
            Some(ALPHANUM)
        } else if digit {
            Some(NUM)
        } else {
            None
        };
    }
    let first = seg.chars().next()?;
    if is_pictographic(first)
        || is_regional_indicator(first)
        || (seg.contains('\u{20E3}') && matches!(first, '0'..='9' | '#' | '*'))
    {
        return Some(EMOJI);
    }
    // Typed by Unicode 12.1's classes as Lucene's grammar is: a segment without a letter,
    // digit or ideograph (`²`, `½`, `①` are Word_Break Other) yields no token.
    match word_class(first) {
        wb::SOUTHEAST_ASIAN => return Some(SOUTHEAST_ASIAN),
        wb::HAN => return Some(IDEOGRAPHIC),
        wb::HIRAGANA => return Some(HIRAGANA),
        _ => {}
    }
    let (mut letter, mut digit, mut other) = (false, false, false);
    let (mut all_hangul, mut all_kata) = (true, true);
    for c in seg.chars() {
        match word_class(c) {
            wb::EXTEND => {}
            wb::HANGUL => {
                letter = true;
                all_kata = false;
            }
            wb::KATAKANA => {
                letter = true;
                all_hangul = false;
            }
            wb::LETTER | wb::HEBREW => {
                letter = true;
                all_hangul = false;
                all_kata = false;
            }
            wb::NUMERIC => digit = true,
            _ => other = true,
        }
    }
    if letter {
        if all_hangul && !digit && !other {
            Some(HANGUL)
        } else if all_kata && !digit && !other {
            Some(KATAKANA)
        } else {
            Some(ALPHANUM)
        }
    } else if digit {
        Some(NUM)
    } else {
        None
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

#[derive(Clone, Copy, PartialEq)]
enum Ascii {
    Letter,
    Digit,
    Under,
    /// `:` (MidLetter): joins letters.
    MidLetter,
    /// `.` and `'` (MidNumLet, Single_Quote): join letters, or digits.
    MidNumLet,
    /// `,` and `;` (MidNum): join digits.
    MidNum,
    Other,
}

#[inline]
fn ascii_class(b: u8) -> Ascii {
    match b {
        b'a'..=b'z' | b'A'..=b'Z' => Ascii::Letter,
        b'0'..=b'9' => Ascii::Digit,
        b'_' => Ascii::Under,
        b':' => Ascii::MidLetter,
        b'.' | b'\'' => Ascii::MidNumLet,
        b',' | b';' => Ascii::MidNum,
        _ => Ascii::Other,
    }
}

impl Standard {
    /// UAX#29 word boundaries restricted to ASCII, where they reduce to a few rules: letters,
    /// digits and `_` join; `:` joins two letters, `.`/`'` two letters or two digits, `,`/`;`
    /// two digits.
    fn tokenize_ascii(&self, text: &str, out: &mut Tokens) {
        let b = text.as_bytes();
        let n = b.len();
        let mut i = 0;
        while i < n {
            let c = ascii_class(b[i]);
            if !matches!(c, Ascii::Letter | Ascii::Digit | Ascii::Under) {
                i += 1;
                continue;
            }
            let start = i;
            let (mut letter, mut digit) = (c == Ascii::Letter, c == Ascii::Digit);
            let mut prev = c;
            i += 1;
            while i < n {
                let k = ascii_class(b[i]);
                match k {
                    Ascii::Letter | Ascii::Digit | Ascii::Under => {
                        letter |= k == Ascii::Letter;
                        digit |= k == Ascii::Digit;
                        prev = k;
                        i += 1;
                    }
                    Ascii::MidLetter | Ascii::MidNumLet | Ascii::MidNum if i + 1 < n => {
                        let next = ascii_class(b[i + 1]);
                        let joins = match (prev, next) {
                            (Ascii::Letter, Ascii::Letter) => k != Ascii::MidNum,
                            (Ascii::Digit, Ascii::Digit) => k != Ascii::MidLetter,
                            _ => false,
                        };
                        if !joins {
                            break;
                        }
                        i += 1;
                    }
                    _ => break,
                }
            }
            if !letter && !digit {
                continue;
            }
            let kind = if letter { ALPHANUM } else { NUM };
            if i - start <= self.max_token_length {
                out.push(&text[start..i], start, i, kind);
            } else {
                emit(text, start, i, kind, self.max_token_length, out);
            }
        }
    }
}

impl Tokenizer for Standard {
    fn tokenize(&self, text: &str, out: &mut Tokens) {
        if text.is_ascii() {
            return self.tokenize_ascii(text, out);
        }
        let mut segs = text.split_word_bound_indices().peekable();
        while let Some((start, seg)) = segs.next() {
            let Some(kind) = classify(seg) else { continue };
            let mut end = start + seg.len();
            if kind == SOUTHEAST_ASIAN {
                while let Some(&(s2, next)) = segs.peek() {
                    if s2 == end && next.chars().next().is_some_and(is_southeast_asian) {
                        end += next.len();
                        segs.next();
                    } else {
                        break;
                    }
                }
            }
            emit(text, start, end, kind, self.max_token_length, out);
        }
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
    fn ascii_rules_match_unicode_segmentation() {
        let text = "A:B A::B 1.2 A.B 1..2 1,2 1,,2 1,.2 A.:B A:B_A:B 1.2_1.2 a_a.:1 _x_ __ x_ \
                    can't O'Reilly's 216.239.63.104 3.14! ab;cd 12;34 a'1 1'2 foo@bar.com";
        let mut fast = Tokens::default();
        Standard::default().tokenize_ascii(text, &mut fast);
        let mut slow = Tokens::default();
        Standard::default().tokenize(&format!("{text} é"), &mut slow);
        slow.toks.pop();
        assert_eq!(fast.toks, slow.toks);
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
