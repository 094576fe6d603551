//! The JDK's rule-based `BreakIterator`s (sentence and word, the `COMPAT` rules OpenSearch's
//! highlighters see through `java.text.BreakIterator`), over UTF-16 text as Java indexes it.
//! Each computes every boundary in one forward pass; `preceding`/`following` are lookups.

use regex::Regex;
use std::sync::OnceLock;

/// A general category test (`\p{..}`) through the regex crate's Unicode tables.
struct Categories {
    letter: Regex,
    lower: Regex,
    mark_or_format: Regex,
    enclosing: Regex,
    space_sep: Regex,
    start_punct: Regex,
    end_punct: Regex,
    number: Regex,
    dash_or_connector: Regex,
    currency: Regex,
    spacing_mark: Regex,
    format: Regex,
}

fn categories() -> &'static Categories {
    static C: OnceLock<Categories> = OnceLock::new();
    C.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("category regex");
        Categories {
            letter: re(r"^\p{L}$"),
            lower: re(r"^\p{Ll}$"),
            mark_or_format: re(r"^[\p{Mn}\p{Me}\p{Cf}]$"),
            enclosing: re(r"^[\p{Mn}\p{Me}]$"),
            space_sep: re(r"^\p{Zs}$"),
            start_punct: re(r"^[\p{Ps}\p{Pi}]$"),
            end_punct: re(r"^[\p{Pe}\p{Pf}]$"),
            number: re(r"^\p{N}$"),
            dash_or_connector: re(r"^[\p{Pd}\p{Pc}]$"),
            currency: re(r"^\p{Sc}$"),
            spacing_mark: re(r"^\p{Mc}$"),
            format: re(r"^\p{Cf}$"),
        }
    })
}

fn is(re: &Regex, c: char) -> bool {
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf))
}

/// The character at UTF-16 index `i` and its length in units (a lone surrogate stands alone).
pub fn char_at(text: &[u16], i: usize) -> (char, usize) {
    let u = text[i];
    if (0xD800..0xDC00).contains(&u)
        && i + 1 < text.len()
        && (0xDC00..0xE000).contains(&text[i + 1])
    {
        let c = 0x10000 + (((u as u32) - 0xD800) << 10) + ((text[i + 1] as u32) - 0xDC00);
        return (char::from_u32(c).unwrap_or('\u{FFFD}'), 2);
    }
    (char::from_u32(u as u32).unwrap_or('\u{FFFD}'), 1)
}

/// Boundaries of one text, sorted, `0` and the length included.
#[derive(Debug, Clone)]
pub struct Boundaries(Vec<usize>);

impl Boundaries {
    /// The last boundary before `offset` (Java's `preceding`), `None` for `DONE`.
    pub fn preceding(&self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|&b| b < offset);
        i.checked_sub(1).map(|i| self.0[i])
    }

    /// The first boundary after `offset` (Java's `following`), `None` for `DONE`.
    pub fn following(&self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|&b| b <= offset);
        self.0.get(i).copied()
    }

    fn from_ends(mut ends: Vec<usize>, len: usize) -> Boundaries {
        ends.insert(0, 0);
        if *ends.last().unwrap_or(&0) != len {
            ends.push(len);
        }
        ends.dedup();
        Boundaries(ends)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum S {
    Ignore,
    Letter {
        lower: bool,
    },
    Space,
    /// A quote: starting and ending punctuation at once.
    Quote,
    Start,
    End,
    Digit,
    Term,
    Period,
    Comma,
    Paragraph,
    Danda,
    /// Anything else (`<sent-start>`).
    Other,
}

fn sentence_class(c: char) -> S {
    match c {
        '"' | '\'' => return S::Quote,
        '!' | '?' | '\u{3002}' | '\u{ff01}' | '\u{ff1f}' => return S::Term,
        '.' | '\u{ff0e}' => return S::Period,
        ',' => return S::Comma,
        '\u{2029}' => return S::Paragraph,
        '\u{0964}' | '\u{0965}' => return S::Danda,
        '\t' | '\r' | '\n' | '\u{0C}' | '\u{2028}' | ' ' => return S::Space,
        _ => {}
    }
    if c.is_ascii_alphabetic() {
        return S::Letter {
            lower: c.is_ascii_lowercase(),
        };
    }
    if c.is_ascii_digit() {
        return S::Digit;
    }
    if c.is_ascii() {
        return match c {
            '(' | '[' | '{' => S::Start,
            ')' | ']' | '}' => S::End,
            c if c.is_ascii_control() && c != '\u{0}' => S::Other,
            _ => S::Other,
        };
    }
    let k = categories();
    if is(&k.mark_or_format, c) {
        S::Ignore
    } else if is(&k.letter, c) {
        S::Letter {
            lower: is(&k.lower, c),
        }
    } else if is(&k.space_sep, c) {
        S::Space
    } else if is(&k.start_punct, c) {
        S::Start
    } else if is(&k.end_punct, c) {
        S::End
    } else if is(&k.number, c) {
        S::Digit
    } else {
        S::Other
    }
}

/// Sentence boundaries (`BreakIterator.getSentenceInstance`): after a paragraph separator; after
/// `!`/`?` (with following terminators, periods, closing punctuation and spaces); after a period
/// (and closing punctuation) when a space and a letter that is not lower case follow, or two
/// spaces and any letter, or opening punctuation or a symbol and then a letter. Marks and
/// format characters are transparent. Checked against OpenSearch's fragments.
pub fn sentences(text: &[u16]) -> Boundaries {
    // Classes per unit, with the transparent characters dropped (their indexes kept).
    let mut cls: Vec<(usize, S)> = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let (c, n) = char_at(text, i);
        let s = sentence_class(c);
        if s != S::Ignore {
            cls.push((i, s));
        }
        i += n;
    }
    let at = |k: usize| cls.get(k).map(|x| x.1);
    let pos = |k: usize| cls.get(k).map_or(text.len(), |x| x.0);
    let mut ends = Vec::new();
    let mut k = 0;
    while k < cls.len() {
        match cls[k].1 {
            S::Paragraph => {
                ends.push(pos(k + 1));
                k += 1;
            }
            S::Danda => {
                let mut j = k + 1;
                while at(j) == Some(S::Space) {
                    j += 1;
                }
                ends.push(pos(j));
                k = j;
            }
            S::Term => {
                let mut j = k + 1;
                while matches!(at(j), Some(S::Term | S::Period | S::End | S::Quote)) {
                    j += 1;
                }
                while at(j) == Some(S::Space) {
                    j += 1;
                }
                if at(j) == Some(S::Paragraph) {
                    j += 1;
                }
                ends.push(pos(j));
                k = j;
            }
            S::Period => {
                let mut j = k + 1;
                while matches!(at(j), Some(S::Period | S::End | S::Quote)) {
                    j += 1;
                }
                let spaces_from = j;
                while at(j) == Some(S::Space) {
                    j += 1;
                }
                // One space before a letter that is not lower case; two or more spaces before
                // any letter (what the JDK's compiled rules do, beyond their source's text).
                let upper_next = match at(j) {
                    Some(S::Letter { lower }) => j - spaces_from >= if lower { 2 } else { 1 },
                    _ => false,
                };
                let opener_then_letter = {
                    let mut m = j;
                    while matches!(at(m), Some(S::Start | S::Quote | S::Other)) {
                        m += 1;
                    }
                    m > j && matches!(at(m), Some(S::Letter { .. }))
                };
                if upper_next || opener_then_letter {
                    ends.push(pos(j));
                    k = j;
                } else {
                    k += 1;
                }
            }
            _ => k += 1,
        }
    }
    Boundaries::from_ends(ends, text.len())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum W {
    Letter,
    Digit,
    /// Punctuation allowed inside words only (`-`, `_`).
    MidWord,
    /// `.`, `'`, `"`: inside words and numbers, and `.` before a number.
    MidBoth,
    /// `,`: inside numbers.
    MidNum,
    PreNum,
    PostNum,
    LineSep,
    Cr,
    Space,
    Enclosing,
    Kanji,
    Kata,
    Hira,
    CjkDiacritic,
    Danda,
    Other,
}

fn word_class(c: char) -> W {
    match c {
        '.' => return W::MidBoth,
        '\'' | '"' => return W::MidBoth,
        ',' | '\u{066b}' => return W::MidNum,
        '-' | '_' | '\u{00ad}' | '\u{2027}' => return W::MidWord,
        '#' | '$' => return W::PreNum,
        '%' | '&' | '\u{00a2}' | '\u{066a}' | '\u{2030}' | '\u{2031}' => return W::PostNum,
        '\n' | '\u{0C}' | '\u{2028}' | '\u{2029}' => return W::LineSep,
        '\r' => return W::Cr,
        '\t' | ' ' => return W::Space,
        '\u{0964}' | '\u{0965}' => return W::Danda,
        '\u{3005}' | '\u{4e00}'..='\u{9fa5}' | '\u{f900}'..='\u{fa2d}' => return W::Kanji,
        '\u{30a1}'..='\u{30fa}' | '\u{30fd}' | '\u{30fe}' => return W::Kata,
        '\u{3041}'..='\u{3094}' | '\u{309d}' | '\u{309e}' => return W::Hira,
        '\u{3099}'..='\u{309c}' | '\u{30fb}' | '\u{30fc}' => return W::CjkDiacritic,
        _ => {}
    }
    if c.is_ascii_alphabetic() {
        return W::Letter;
    }
    if c.is_ascii_digit() {
        return W::Digit;
    }
    if c.is_ascii() {
        return W::Other;
    }
    let k = categories();
    if is(&k.letter, c) || is(&k.spacing_mark, c) {
        W::Letter
    } else if is(&k.number, c) {
        W::Digit
    } else if is(&k.enclosing, c) {
        W::Enclosing
    } else if is(&k.dash_or_connector, c) {
        W::MidWord
    } else if is(&k.currency, c) {
        W::PreNum
    } else if is(&k.space_sep, c) {
        W::Space
    } else {
        W::Other
    }
}

/// Word boundaries (`BreakIterator.getWordInstance`): runs of letters and digits (joined by
/// single inner punctuation), numbers with a currency or `#` before and `%` after, runs of spaces
/// with one trailing line separator, runs of kana or kanji; anything else alone.
pub fn words(text: &[u16]) -> Boundaries {
    let mut cls: Vec<(usize, W)> = Vec::with_capacity(text.len());
    let mut i = 0;
    let k = categories();
    while i < text.len() {
        let (c, n) = char_at(text, i);
        if c as u32 >= 0x80 && is(&k.format, c) {
            i += n;
            continue;
        }
        cls.push((i, word_class(c)));
        i += n;
    }
    let at = |j: usize| cls.get(j).map(|x| x.1);
    let pos = |j: usize| cls.get(j).map_or(text.len(), |x| x.0);
    let skip_enclosing = |mut j: usize| {
        while at(j) == Some(W::Enclosing) {
            j += 1;
        }
        j
    };
    // One run of letters (`let`) joined by single inner punctuation; returns its end.
    let word = |mut j: usize| {
        while at(j) == Some(W::Letter) {
            j = skip_enclosing(j + 1);
        }
        while matches!(at(j), Some(W::MidWord | W::MidBoth)) && at(j + 1) == Some(W::Letter) {
            j += 1;
            while at(j) == Some(W::Letter) {
                j = skip_enclosing(j + 1);
            }
        }
        if at(j) == Some(W::Danda) {
            j += 1;
        }
        j
    };
    let number = |mut j: usize| {
        while at(j) == Some(W::Digit) {
            j = skip_enclosing(j + 1);
        }
        while matches!(at(j), Some(W::MidNum | W::MidBoth)) && at(j + 1) == Some(W::Digit) {
            j += 1;
            while at(j) == Some(W::Digit) {
                j = skip_enclosing(j + 1);
            }
        }
        j
    };
    // Words and numbers alternating; a number may end with a suffix.
    let alternation = |mut j: usize| loop {
        match at(j) {
            Some(W::Letter) => j = word(j),
            Some(W::Digit) => {
                j = number(j);
                if at(j) == Some(W::PostNum) {
                    return j + 1;
                }
            }
            _ => return j,
        }
    };
    let mut ends = Vec::new();
    let mut j = 0;
    while j < cls.len() {
        let next = match cls[j].1 {
            W::Letter | W::Digit => alternation(j),
            W::PreNum | W::MidBoth if cls[j].1 == W::PreNum || text[cls[j].0] == b'.' as u16 => {
                if at(j + 1) == Some(W::Digit) {
                    alternation(j + 1)
                } else {
                    j + 1
                }
            }
            W::Space | W::Cr | W::LineSep => {
                let mut m = j;
                while at(m) == Some(W::Space) {
                    m = skip_enclosing(m + 1);
                }
                if at(m) == Some(W::Cr) {
                    m += 1;
                }
                if at(m) == Some(W::LineSep) {
                    m += 1;
                }
                m.max(j + 1)
            }
            W::Kata | W::Hira | W::Kanji | W::CjkDiacritic => {
                let first = cls[j].1;
                let mut m = j;
                while let Some(c) = at(m) {
                    let same = match first {
                        W::Kanji => c == W::Kanji,
                        W::Kata => c == W::Kata || c == W::CjkDiacritic,
                        W::Hira => c == W::Hira || c == W::CjkDiacritic,
                        _ => c == W::CjkDiacritic || c == W::Kata,
                    };
                    if !same {
                        break;
                    }
                    m += 1;
                }
                m.max(j + 1)
            }
            _ => skip_enclosing(j + 1),
        };
        ends.push(pos(next));
        j = next;
    }
    Boundaries::from_ends(ends, text.len())
}

/// Boundaries right after each `sep` (Lucene's `CustomSeparatorBreakIterator`).
pub fn separators(text: &[u16], sep: u16) -> Boundaries {
    let ends = text
        .iter()
        .enumerate()
        .filter(|(_, &u)| u == sep)
        .map(|(i, _)| i + 1)
        .collect();
    Boundaries::from_ends(ends, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(b: &Boundaries, s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        b.0.windows(2)
            .map(|w| String::from_utf16_lossy(&u[w[0]..w[1]]))
            .collect()
    }

    fn sents(s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        split(&sentences(&u), s)
    }

    fn ws(s: &str) -> Vec<String> {
        let u: Vec<u16> = s.encode_utf16().collect();
        split(&words(&u), s)
    }

    #[test]
    fn sentence_rules() {
        assert_eq!(
            sents("Lots of gems. angrydd is. Who knows? me"),
            ["Lots of gems. angrydd is. ", "Who knows? ", "me"]
        );
        assert_eq!(
            sents("0 A.D. (pronounced x) y"),
            ["0 A.D. ", "(pronounced x) y"]
        );
        assert_eq!(sents("task.\n\nComputer"), ["task.\n\n", "Computer"]);
        assert_eq!(
            sents("version 1.0 is out. 2 more"),
            ["version 1.0 is out. 2 more"]
        );
        assert_eq!(sents("a zz.  bb. \nc.  9"), ["a zz.  ", "bb. \n", "c.  9"]);
    }

    #[test]
    fn word_rules() {
        assert_eq!(ws("state-of-the-art 3D"), ["state-of-the-art", " ", "3D"]);
        assert_eq!(ws("e.g. $5, 10%"), ["e.g", ".", " ", "$5", ",", " ", "10%"]);
        assert_eq!(ws("a \n\nb"), ["a", " \n", "\n", "b"]);
    }
}
