//! `lowercase` and `uppercase` with Java's simple per-code-point case mapping (`İ` → `i`, no
//! final sigma). `lowercase` takes `language: greek | irish | turkish`.

use super::TokenFilter;
use crate::analysis::token::Tokens;
use crate::analysis::unicode::{lowercase_in_place, lowercase_into, to_lower, to_upper};

#[derive(Clone, Copy)]
pub enum Lang {
    Default,
    Greek,
    Irish,
    Turkish,
}

pub struct Lowercase(pub Lang);

impl TokenFilter for Lowercase {
    fn maps_words(&self) -> bool {
        matches!(self.0, Lang::Default)
    }

    #[inline]
    fn map_word(&self, word: &str, out: &mut String) -> bool {
        lowercase_into(word, out);
        true
    }

    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            match self.0 {
                Lang::Default => lowercase_in_place(&mut tok.text),
                Lang::Turkish => {
                    let mut out = String::with_capacity(tok.text.len());
                    let mut chars = tok.text.chars().peekable();
                    while let Some(c) = chars.next() {
                        match c {
                            'I' => {
                                if chars.peek() == Some(&'\u{307}') {
                                    chars.next();
                                    out.push('i');
                                } else {
                                    out.push('ı');
                                }
                            }
                            '\u{130}' => out.push('i'),
                            c => out.push(to_lower(c)),
                        }
                    }
                    tok.text = out;
                }
                Lang::Greek => {
                    tok.text = tok
                        .text
                        .chars()
                        .map(|c| match c {
                            'ς' => 'σ',
                            'ά' | 'Ά' => 'α',
                            'έ' | 'Έ' => 'ε',
                            'ή' | 'Ή' => 'η',
                            'ί' | 'Ί' | 'ϊ' | 'ΐ' | 'Ϊ' => 'ι',
                            'ό' | 'Ό' => 'ο',
                            'ύ' | 'Ύ' | 'ϋ' | 'ΰ' | 'Ϋ' => 'υ',
                            'ώ' | 'Ώ' => 'ω',
                            c => to_lower(c),
                        })
                        .collect();
                }
                Lang::Irish => {
                    let chars: Vec<char> = tok.text.chars().collect();
                    let mut out = String::new();
                    if chars.len() > 1
                        && matches!(chars[0], 'n' | 't')
                        && matches!(
                            chars[1],
                            'A' | 'E' | 'I' | 'O' | 'U' | 'Á' | 'É' | 'Í' | 'Ó' | 'Ú'
                        )
                    {
                        out.push(chars[0]);
                        out.push('-');
                        out.extend(chars[1..].iter().map(|&c| to_lower(c)));
                    } else {
                        out.extend(chars.iter().map(|&c| to_lower(c)));
                    }
                    tok.text = out;
                }
            }
        }
    }
}

pub struct Uppercase;

impl TokenFilter for Uppercase {
    fn apply(&self, t: &mut Tokens) {
        for tok in &mut t.toks {
            if tok.text.is_ascii() {
                tok.text.make_ascii_uppercase();
            } else {
                tok.text = tok.text.chars().map(to_upper).collect();
            }
        }
    }
}
