//! Stemmers: `porter_stem` (Lucene's Porter), `stemmer` by language, `snowball`, `kstem`, the
//! English possessive and minimal stemmers, and the light stemmers of the Romance languages.
//! Keyword-marked tokens are never stemmed.

use super::kstem;
use super::memo::{self, Key, Memo};
use super::porter;
use super::romance_light;
use super::stop::StopSet;
use super::TokenFilter;
use crate::analysis::token::Tokens;
use crate::analysis::unicode::lowercase_in_place;
use crate::error::{Error, Result};
use rust_stemmers::{Algorithm, Stemmer};

pub enum Kind {
    Porter,
    KStem,
    Snowball(Algorithm),
    PossessiveEnglish,
    MinimalEnglish,
    SpanishLight,
    ItalianLight,
    GermanLight,
    FrenchLight,
    PortugueseLight,
}

pub struct Stem {
    kind: Kind,
    snowball: Option<Stemmer>,
}

impl Stem {
    pub fn new(kind: Kind) -> Stem {
        let snowball = match &kind {
            Kind::Snowball(a) => Some(Stemmer::create(*a)),
            _ => None,
        };
        Stem { kind, snowball }
    }

    /// `stemmer`'s `language` (or `name`) values.
    pub fn for_language(lang: &str) -> Result<Stem> {
        use Algorithm::*;
        let kind = match lang {
            "english" | "porter" => Kind::Porter,
            "porter2" => Kind::Snowball(English),
            "light_english" | "kstem" => Kind::KStem,
            "minimal_english" => Kind::MinimalEnglish,
            "possessive_english" => Kind::PossessiveEnglish,
            "arabic" => Kind::Snowball(Arabic),
            "danish" => Kind::Snowball(Danish),
            "dutch" | "dutch_kp" => Kind::Snowball(Dutch),
            "finnish" | "light_finnish" => Kind::Snowball(Finnish),
            "french" | "minimal_french" => Kind::Snowball(French),
            "light_french" => Kind::FrenchLight,
            "german" | "german2" | "minimal_german" => Kind::Snowball(German),
            "light_german" => Kind::GermanLight,
            "greek" => Kind::Snowball(Greek),
            "hungarian" | "light_hungarian" => Kind::Snowball(Hungarian),
            "italian" => Kind::Snowball(Italian),
            "light_italian" => Kind::ItalianLight,
            "norwegian" | "light_norwegian" | "minimal_norwegian" | "light_nynorsk"
            | "minimal_nynorsk" => Kind::Snowball(Norwegian),
            "portuguese" | "minimal_portuguese" | "portuguese_rslp" => Kind::Snowball(Portuguese),
            "light_portuguese" => Kind::PortugueseLight,
            "romanian" => Kind::Snowball(Romanian),
            "russian" | "light_russian" => Kind::Snowball(Russian),
            "spanish" => Kind::Snowball(Spanish),
            "light_spanish" => Kind::SpanishLight,
            "swedish" | "light_swedish" => Kind::Snowball(Swedish),
            "turkish" => Kind::Snowball(Turkish),
            "tamil" => Kind::Snowball(Tamil),
            other => {
                return Err(Error::illegal_argument(format!(
                    "Unknown stemmer language [{other}]"
                )))
            }
        };
        Ok(Stem::new(kind))
    }

    /// `snowball`'s `language` values (Snowball's own names).
    pub fn for_snowball(lang: &str) -> Result<Stem> {
        use Algorithm::*;
        let kind = match lang {
            "English" => Kind::Snowball(English),
            "Porter" => Kind::Porter,
            "Arabic" => Kind::Snowball(Arabic),
            "Danish" => Kind::Snowball(Danish),
            "Dutch" | "Kp" => Kind::Snowball(Dutch),
            "Finnish" => Kind::Snowball(Finnish),
            "French" => Kind::Snowball(French),
            "German" | "German2" => Kind::Snowball(German),
            "Greek" => Kind::Snowball(Greek),
            "Hungarian" => Kind::Snowball(Hungarian),
            "Italian" => Kind::Snowball(Italian),
            "Norwegian" => Kind::Snowball(Norwegian),
            "Portuguese" => Kind::Snowball(Portuguese),
            "Romanian" => Kind::Snowball(Romanian),
            "Russian" => Kind::Snowball(Russian),
            "Spanish" => Kind::Snowball(Spanish),
            "Swedish" => Kind::Snowball(Swedish),
            "Turkish" => Kind::Snowball(Turkish),
            "Tamil" => Kind::Snowball(Tamil),
            other => {
                return Err(Error::illegal_argument(format!(
                    "Unknown snowball language [{other}]"
                )))
            }
        };
        Ok(Stem::new(kind))
    }

    pub fn stem(&self, w: &str) -> Option<String> {
        match &self.kind {
            Kind::Porter => porter::stem(w),
            Kind::KStem => kstem::stem(w),
            Kind::Snowball(_) => {
                let s = self.snowball.as_ref()?.stem(w);
                (s != w).then(|| s.into_owned())
            }
            Kind::PossessiveEnglish => possessive(w),
            Kind::MinimalEnglish => minimal_english(w),
            Kind::SpanishLight => spanish_light(w),
            Kind::ItalianLight => italian_light(w),
            Kind::GermanLight => german_light(w),
            Kind::FrenchLight => romance_light::french_light(w),
            Kind::PortugueseLight => romance_light::portuguese_light(w),
        }
    }
}

impl TokenFilter for Stem {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if tok.keyword {
                continue;
            }
            match self.kind {
                Kind::Porter => {
                    porter::stem_in_place(&mut tok.text);
                    continue;
                }
                Kind::PossessiveEnglish => {
                    if let Some(i) = possessive_cut(&tok.text) {
                        tok.text.truncate(i);
                    }
                    continue;
                }
                _ => {}
            }
            if let Some(s) = self.stem(&tok.text) {
                tok.text = s;
            }
        }
    }
}

/// The `english` analyzer's filters fused into one pass over the tokens: possessive `'s`,
/// lowercase, stop words, Porter. The same tokens as the four filters one after another; each
/// distinct short word goes through them once per thread (`memo`).
pub struct EnglishChain {
    stop: StopSet,
    owner: u32,
}

impl EnglishChain {
    pub fn new(stop: StopSet) -> EnglishChain {
        EnglishChain {
            stop,
            owner: memo::new_owner(),
        }
    }

    /// The four filters on one token; false when it is a stop word.
    #[inline]
    fn run(&self, text: &mut String, keyword: bool) -> bool {
        if !keyword {
            if let Some(i) = possessive_cut(text) {
                text.truncate(i);
            }
        }
        lowercase_in_place(text);
        if self.stop.contains(text) {
            return false;
        }
        if !keyword {
            porter::stem_in_place(text);
        }
        true
    }
}

impl TokenFilter for EnglishChain {
    fn apply(&self, t: &mut Tokens) {
        let mut memo = Memo::take();
        let mut val = String::with_capacity(memo::MAX_LEN);
        t.retain_mut(|tok| {
            let key = match Key::of(&tok.text) {
                Some(key) if !tok.keyword => key,
                _ => return self.run(&mut tok.text, tok.keyword),
            };
            match memo.get(self.owner, key, &mut val) {
                Some(true) => {
                    std::mem::swap(&mut tok.text, &mut val);
                    return true;
                }
                Some(false) => return false,
                None => {}
            }
            let keep = self.run(&mut tok.text, false);
            memo.put(self.owner, key, keep.then_some(tok.text.as_str()));
            keep
        });
    }

    fn maps_words(&self) -> bool {
        true
    }

    /// The chain itself: the memo is the caller's (`memo_owner`).
    #[inline]
    fn map_word(&self, word: &str, out: &mut String) -> bool {
        out.clear();
        out.push_str(word);
        self.run(out, false)
    }

    fn memo_owner(&self) -> Option<u32> {
        Some(self.owner)
    }
}

/// Drops a trailing `'s` (also `’s`, `＇s`, either case of `s`).
pub fn possessive(w: &str) -> Option<String> {
    possessive_cut(w).map(|i| w[..i].to_string())
}

/// Where `possessive` cuts `w`, if it does.
#[inline]
fn possessive_cut(w: &str) -> Option<usize> {
    let b = w.as_bytes();
    let n = b.len();
    if n < 2 || !matches!(b[n - 1], b's' | b'S') {
        return None;
    }
    let rest = &w[..n - 1];
    let prev = rest.chars().next_back()?;
    matches!(prev, '\'' | '\u{2019}' | '\u{FF07}').then(|| n - 1 - prev.len_utf8())
}

/// The "S-stemmer": plural to singular for `-ies`, `-es` and `-s`.
pub fn minimal_english(w: &str) -> Option<String> {
    let c: Vec<char> = w.chars().collect();
    let n = c.len();
    if n < 3 || c[n - 1] != 's' {
        return None;
    }
    let keep = |len: usize| -> Option<String> { Some(c[..len].iter().collect()) };
    match c[n - 2] {
        'u' | 's' => None,
        'e' => {
            if n > 3 && c[n - 3] == 'i' && c[n - 4] != 'a' && c[n - 4] != 'e' {
                let mut s: String = c[..n - 3].iter().collect();
                s.push('y');
                return Some(s);
            }
            if matches!(c[n - 3], 'i' | 'a' | 'o' | 'e') {
                return None;
            }
            keep(n - 1)
        }
        _ => keep(n - 1),
    }
}

fn fold_accents(c: &mut [char]) {
    for ch in c.iter_mut() {
        *ch = match *ch {
            'à' | 'á' | 'â' | 'ä' => 'a',
            'ò' | 'ó' | 'ô' | 'ö' => 'o',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            other => other,
        }
    }
}

fn from(c: &[char], len: usize, w: &str) -> Option<String> {
    let s: String = c[..len].iter().collect();
    (s != w).then_some(s)
}

pub fn spanish_light(w: &str) -> Option<String> {
    let mut c: Vec<char> = w.chars().collect();
    let n = c.len();
    if n < 5 {
        return None;
    }
    fold_accents(&mut c);
    let len = match c[n - 1] {
        'o' | 'a' | 'e' => n - 1,
        's' => {
            if c[n - 2] == 'e' && c[n - 3] == 's' && c[n - 4] == 'e' {
                n - 2
            } else if c[n - 2] == 'e' && c[n - 3] == 'c' {
                c[n - 3] = 'z';
                n - 2
            } else if matches!(c[n - 2], 'o' | 'a' | 'e') {
                n - 2
            } else {
                n
            }
        }
        _ => n,
    };
    from(&c, len, w)
}

pub fn italian_light(w: &str) -> Option<String> {
    let mut c: Vec<char> = w.chars().collect();
    let n = c.len();
    if n < 6 {
        return None;
    }
    fold_accents(&mut c);
    let len = match c[n - 1] {
        'e' => {
            if matches!(c[n - 2], 'i' | 'h') {
                n - 2
            } else {
                n - 1
            }
        }
        'i' => {
            if matches!(c[n - 2], 'h' | 'i') {
                n - 2
            } else {
                n - 1
            }
        }
        'a' => {
            if c[n - 2] == 'i' {
                n - 2
            } else {
                n - 1
            }
        }
        'o' => {
            if c[n - 2] == 'i' {
                n - 2
            } else {
                n - 1
            }
        }
        _ => n,
    };
    from(&c, len, w)
}

pub fn german_light(w: &str) -> Option<String> {
    let mut c: Vec<char> = w.replace('ß', "ss").chars().collect();
    for ch in c.iter_mut() {
        *ch = match *ch {
            'ä' | 'à' | 'á' | 'â' => 'a',
            'ö' | 'ò' | 'ó' | 'ô' => 'o',
            'ï' | 'ì' | 'í' | 'î' => 'i',
            'ü' | 'ù' | 'ú' | 'û' => 'u',
            other => other,
        }
    }
    let st_ending = |ch: char| {
        matches!(
            ch,
            'b' | 'd' | 'f' | 'g' | 'h' | 'k' | 'l' | 'm' | 'n' | 't'
        )
    };
    let mut n = c.len();
    // step 1
    if n > 5 && c[n - 3] == 'e' && c[n - 2] == 'r' && c[n - 1] == 'n' {
        n -= 3;
    } else if n > 4 && c[n - 2] == 'e' && matches!(c[n - 1], 'm' | 'n' | 'r' | 's') {
        n -= 2;
    } else if n > 3 && (c[n - 1] == 'e' || (c[n - 1] == 's' && st_ending(c[n - 2]))) {
        n -= 1;
    }
    // step 2
    if n > 5 && c[n - 3] == 'e' && c[n - 2] == 's' && c[n - 1] == 't' {
        n -= 3;
    } else if n > 4
        && ((c[n - 2] == 'e' && matches!(c[n - 1], 'r' | 'n'))
            || (c[n - 2] == 's' && c[n - 1] == 't' && st_ending(c[n - 3])))
    {
        n -= 2;
    }
    from(&c, n, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possessive_and_minimal() {
        assert_eq!(possessive("steven’s").as_deref(), Some("steven"));
        assert_eq!(possessive("don't"), None);
        assert_eq!(minimal_english("queries").as_deref(), Some("query"));
        assert_eq!(minimal_english("dogs").as_deref(), Some("dog"));
        assert_eq!(minimal_english("bus"), None);
    }
}
