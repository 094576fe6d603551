//! Tokenizers by their OpenSearch names and parameters.

pub mod char_tokenizer;
pub mod classic;
pub mod keyword;
pub mod ngram;
pub mod path_hierarchy;
pub mod pattern;
pub mod standard;
pub mod standard_dfa;
pub mod uax_url_email;

use crate::analysis::params::Def;
use crate::analysis::token::Tokens;
use crate::error::{Error, Result};
use std::sync::Arc;

pub trait Tokenizer: Send + Sync {
    /// Appends the tokens of `text` (byte offsets into it) to `out`.
    fn tokenize(&self, text: &str, out: &mut Tokens);

    /// The standard tokenizer, for chains that stream its ASCII tokens straight through a
    /// filter (`ChainTokenizer`).
    fn as_standard(&self) -> Option<&standard::Standard> {
        None
    }
}

pub const NAMES: &[&str] = &[
    "standard",
    "letter",
    "lowercase",
    "whitespace",
    "keyword",
    "pattern",
    "simple_pattern",
    "simple_pattern_split",
    "char_group",
    "ngram",
    "edge_ngram",
    "uax_url_email",
    "path_hierarchy",
    "classic",
];

/// Accepted spellings that name the same tokenizer.
fn canonical(name: &str) -> &str {
    match name {
        "nGram" => "ngram",
        "edgeNGram" => "edge_ngram",
        "PathHierarchy" => "path_hierarchy",
        other => other,
    }
}

pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&canonical(name))
}

fn max_token_length(def: &Def, default: usize) -> Result<usize> {
    let n = def.int("max_token_length", default as i64)?;
    if !(1..=1_048_576).contains(&n) {
        return Err(Error::illegal_argument(format!(
            "maxTokenLength must be greater than 0 and less than 1048576 passed: {n}"
        )));
    }
    Ok(n as usize)
}

/// Builds a tokenizer of OpenSearch type `kind` from its parameters. `max_ngram_diff` is the
/// index's `index.max_ngram_diff`.
pub fn build(kind: &str, def: &Def, max_ngram_diff: usize) -> Result<Arc<dyn Tokenizer>> {
    use char_tokenizer::{CharGroup, CharTokenizer, Class};
    Ok(match canonical(kind) {
        "standard" => Arc::new(standard::Standard {
            max_token_length: max_token_length(def, 255)?,
        }),
        "uax_url_email" => Arc::new(uax_url_email::UaxUrlEmail {
            max_token_length: max_token_length(def, 255)?,
        }),
        "classic" => Arc::new(classic::Classic {
            max_token_length: max_token_length(def, 255)?,
        }),
        "letter" => Arc::new(CharTokenizer {
            class: Class::Letter,
            lowercase: false,
            max: 255,
        }),
        "lowercase" => Arc::new(CharTokenizer {
            class: Class::Letter,
            lowercase: true,
            max: 255,
        }),
        "whitespace" => Arc::new(CharTokenizer {
            class: Class::NotWhitespace,
            lowercase: false,
            max: max_token_length(def, 255)?,
        }),
        "char_group" => {
            let mut g = CharGroup {
                whitespace: false,
                letter: false,
                digit: false,
                punctuation: false,
                symbol: false,
                chars: Vec::new(),
            };
            for item in def.list("tokenize_on_chars").unwrap_or_default() {
                match item.as_str() {
                    "whitespace" => g.whitespace = true,
                    "letter" => g.letter = true,
                    "digit" => g.digit = true,
                    "punctuation" => g.punctuation = true,
                    "symbol" => g.symbol = true,
                    s if s.chars().count() == 1 => g.chars.extend(s.chars()),
                    s if s.starts_with('\\') => g.chars.push(match s {
                        "\\n" => '\n',
                        "\\t" => '\t',
                        "\\r" => '\r',
                        "\\f" => '\u{c}',
                        _ => s.chars().nth(1).unwrap_or('\\'),
                    }),
                    s => {
                        return Err(Error::illegal_argument(format!(
                            "Invalid escaped char in [{s}]"
                        )))
                    }
                }
            }
            Arc::new(CharTokenizer {
                class: Class::Group(g),
                lowercase: false,
                max: max_token_length(def, 255)?,
            })
        }
        "keyword" => Arc::new(keyword::Keyword),
        "pattern" => {
            let regex = pattern::java_regex(
                def.str("pattern").unwrap_or("\\W+"),
                def.str("flags").unwrap_or(""),
            )?;
            Arc::new(pattern::Pattern {
                regex,
                group: def.int("group", -1)?,
            })
        }
        k @ ("simple_pattern" | "simple_pattern_split") => {
            let regex = regex::Regex::new(def.str("pattern").unwrap_or(""))
                .map_err(|e| Error::illegal_argument(e.to_string()))?;
            Arc::new(pattern::SimplePattern {
                regex,
                split: k == "simple_pattern_split",
            })
        }
        k @ ("ngram" | "edge_ngram") => {
            let min = def.usize("min_gram", 1)?;
            let max = def.usize("max_gram", 2)?;
            if k == "ngram" && max.saturating_sub(min) > max_ngram_diff {
                return Err(Error::illegal_argument(format!(
                    "The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [{max_ngram_diff}] but was [{}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.",
                    max - min
                )));
            }
            let chars = ngram::TokenChars::parse(
                &def.list_split("token_chars").unwrap_or_default(),
                def.str("custom_token_chars").unwrap_or(""),
            )?;
            Arc::new(ngram::NGram {
                min,
                max,
                edge: k == "edge_ngram",
                chars,
            })
        }
        "path_hierarchy" => {
            let one = |key: &str, default: char| -> Result<char> {
                match def.text(key) {
                    None => Ok(default),
                    Some(s) if s.chars().count() == 1 => Ok(s.chars().next().unwrap_or(default)),
                    Some(_) => Err(Error::illegal_argument(format!(
                        "{key} must be a one char value"
                    ))),
                }
            };
            let delimiter = one("delimiter", '/')?;
            Arc::new(path_hierarchy::PathHierarchy {
                delimiter,
                replacement: one("replacement", delimiter)?,
                reverse: def.bool("reverse", false)?,
                skip: def.usize("skip", 0)?,
            })
        }
        _ => {
            return Err(Error::illegal_argument(format!(
                "failed to find global tokenizer under [{kind}]"
            )))
        }
    })
}
