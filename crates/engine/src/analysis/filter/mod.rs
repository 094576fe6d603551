//! Token filters by their OpenSearch names and parameters.

pub mod case;
pub mod cjk_bigram;
pub mod fingerprint;
pub mod kstem;
pub mod memo;
pub mod ngram;
pub mod porter;
pub mod romance_light;
pub mod shingle;
pub mod simple;
pub mod stemmer;
pub mod stop;
pub mod synonym;
pub mod word_delimiter;

use crate::analysis::params::Def;
use crate::analysis::token::Tokens;
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::sync::Arc;

pub trait TokenFilter: Send + Sync {
    fn apply(&self, t: &mut Tokens);

    /// Whether the filter looks at each token's text alone (not its neighbours, position,
    /// type or keyword flag), so that `map_word` can stand in for `apply`.
    fn maps_words(&self) -> bool {
        false
    }

    /// What the filter makes of one token's text, written to `out`; false when it drops the
    /// token. Only called when `maps_words`.
    fn map_word(&self, word: &str, out: &mut String) -> bool {
        out.clear();
        out.push_str(word);
        true
    }

    /// For a word-mapping filter whose outcome for an ASCII word depends only on the word
    /// lowercased: the tag its outcomes carry in the thread's `memo`, where a caller may
    /// look words up before calling `map_word` (and remember what it made of them).
    fn memo_owner(&self) -> Option<u32> {
        None
    }
}

pub const NAMES: &[&str] = &[
    "lowercase",
    "uppercase",
    "asciifolding",
    "stop",
    "stemmer",
    "porter_stem",
    "snowball",
    "kstem",
    "synonym",
    "synonym_graph",
    "length",
    "truncate",
    "trim",
    "unique",
    "reverse",
    "shingle",
    "ngram",
    "edge_ngram",
    "word_delimiter",
    "word_delimiter_graph",
    "elision",
    "apostrophe",
    "decimal_digit",
    "keyword_marker",
    "pattern_replace",
    "limit",
    "classic",
    "cjk_width",
    "cjk_bigram",
    "fingerprint",
];

/// Filters a normalizer may use (they work on whole values, one token in, one out).
pub const NORMALIZER_SAFE: &[&str] = &[
    "lowercase",
    "uppercase",
    "asciifolding",
    "cjk_width",
    "decimal_digit",
    "elision",
    "trim",
    "pattern_replace",
    "apostrophe",
    "classic",
];

fn canonical(name: &str) -> &str {
    match name {
        "nGram" => "ngram",
        "edgeNGram" => "edge_ngram",
        "delimited_payload_filter" => "delimited_payload",
        other => other,
    }
}

pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&canonical(name))
}

/// What a filter may need from the index and the chain it sits in.
pub struct Ctx<'a> {
    pub max_ngram_diff: usize,
    pub max_shingle_diff: usize,
    /// Analyses a synonym rule's phrase with the chain before the filter.
    pub analyze: &'a dyn Fn(&str) -> Result<Vec<String>>,
}

pub fn build(kind: &str, def: &Def, ctx: &Ctx) -> Result<Arc<dyn TokenFilter>> {
    use simple::*;
    Ok(match canonical(kind) {
        "lowercase" => Arc::new(case::Lowercase(match def.str("language") {
            None => case::Lang::Default,
            Some("greek") => case::Lang::Greek,
            Some("irish") => case::Lang::Irish,
            Some("turkish") => case::Lang::Turkish,
            Some(other) => {
                return Err(Error::illegal_argument(format!(
                    "language [{other}] not support for lower case"
                )))
            }
        })),
        "uppercase" => Arc::new(case::Uppercase),
        "asciifolding" => Arc::new(AsciiFolding {
            preserve_original: def.bool("preserve_original", false)?,
        }),
        "stop" => {
            let ignore_case = def.bool("ignore_case", false)?;
            let set = match def.list_split("stopwords") {
                Some(items) => stop::StopSet::parse(&items, ignore_case)?,
                None => stop::StopSet::parse(&["_english_".to_string()], ignore_case)?,
            };
            Arc::new(stop::Stop {
                set,
                remove_trailing: def.bool("remove_trailing", true)?,
            })
        }
        "stemmer" => {
            let lang = def.str("language").or(def.str("name")).unwrap_or("english");
            Arc::new(stemmer::Stem::for_language(lang)?)
        }
        "porter_stem" => Arc::new(stemmer::Stem::new(stemmer::Kind::Porter)),
        "kstem" => Arc::new(stemmer::Stem::for_language("kstem")?),
        "snowball" => Arc::new(stemmer::Stem::for_snowball(
            def.str("language").unwrap_or("English"),
        )?),
        k @ ("synonym" | "synonym_graph") => {
            let lines = def.list("synonyms").unwrap_or_default();
            if def.has("synonyms_path") && lines.is_empty() {
                return Err(Error::illegal_argument(
                    "synonyms_path is not supported by Quarry yet; give the rules inline in [synonyms]",
                ));
            }
            if def.str("format").is_some_and(|f| f != "solr") {
                return Err(Error::illegal_argument(
                    "only the solr synonym format is supported",
                ));
            }
            Arc::new(synonym::Synonym::parse(
                &lines,
                def.bool("expand", true)?,
                def.bool("lenient", false)?,
                k == "synonym_graph",
                ctx.analyze,
            )?)
        }
        "length" => Arc::new(Length {
            min: def.usize("min", 0)?,
            max: def.usize("max", i32::MAX as usize)?,
        }),
        "truncate" => Arc::new(Truncate(def.usize("length", 10)?)),
        "trim" => Arc::new(Trim),
        "unique" => Arc::new(Unique {
            only_on_same_position: def.bool("only_on_same_position", false)?,
        }),
        "reverse" => Arc::new(Reverse),
        "shingle" => {
            let min = def.usize("min_shingle_size", 2)?;
            let max = def.usize("max_shingle_size", 2)?;
            if max.saturating_sub(min) > ctx.max_shingle_diff {
                return Err(Error::illegal_argument(format!(
                    "In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [{}] but was [{}]. This limit can be set by changing the [index.max_shingle_diff] index level setting.",
                    ctx.max_shingle_diff,
                    max - min + 1
                )));
            }
            Arc::new(shingle::Shingle {
                min,
                max,
                unigrams: def.bool("output_unigrams", true)?,
                unigrams_if_no_shingles: def.bool("output_unigrams_if_no_shingles", false)?,
                separator: def.text("token_separator").unwrap_or_else(|| " ".into()),
                filler: def.text("filler_token").unwrap_or_else(|| "_".into()),
            })
        }
        k @ ("ngram" | "edge_ngram") => {
            let min = def.usize("min_gram", 1)?;
            let max = def.usize("max_gram", 2)?;
            if k == "ngram" && max.saturating_sub(min) > ctx.max_ngram_diff {
                return Err(Error::illegal_argument(format!(
                    "The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [{}] but was [{}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.",
                    ctx.max_ngram_diff,
                    max - min
                )));
            }
            Arc::new(ngram::NGramFilter {
                min,
                max,
                edge: k == "edge_ngram",
                back: def.str("side") == Some("back"),
                preserve_original: def.bool("preserve_original", false)?,
            })
        }
        k @ ("word_delimiter" | "word_delimiter_graph") => {
            Arc::new(word_delimiter::WordDelimiter {
                generate_word_parts: def.bool("generate_word_parts", true)?,
                generate_number_parts: def.bool("generate_number_parts", true)?,
                catenate_words: def.bool("catenate_words", false)?,
                catenate_numbers: def.bool("catenate_numbers", false)?,
                catenate_all: def.bool("catenate_all", false)?,
                split_on_case_change: def.bool("split_on_case_change", true)?,
                split_on_numerics: def.bool("split_on_numerics", true)?,
                preserve_original: def.bool("preserve_original", false)?,
                stem_english_possessive: def.bool("stem_english_possessive", true)?,
                graph: k == "word_delimiter_graph",
                protected: def
                    .list("protected_words")
                    .unwrap_or_default()
                    .into_iter()
                    .collect(),
            })
        }
        "elision" => {
            let ignore_case = def.bool("articles_case", false)?;
            let articles: HashSet<String> = match def.list("articles") {
                Some(a) => a,
                None => FRENCH_ARTICLES.iter().map(|s| s.to_string()).collect(),
            }
            .into_iter()
            .map(|mut s| {
                if ignore_case {
                    crate::analysis::unicode::lowercase_in_place(&mut s);
                }
                s
            })
            .collect();
            Arc::new(Elision {
                articles,
                ignore_case,
            })
        }
        "apostrophe" => Arc::new(Apostrophe),
        "decimal_digit" => Arc::new(DecimalDigit),
        "keyword_marker" => {
            let ignore_case = def.bool("ignore_case", false)?;
            let pattern = match def.str("keywords_pattern") {
                Some(p) => {
                    if def.has("keywords") {
                        return Err(Error::illegal_argument(
                            "cannot specify both `keywords_pattern` and `keywords` or `keywords_path`",
                        ));
                    }
                    Some(crate::analysis::tokenizer::pattern::java_regex(p, "")?)
                }
                None => None,
            };
            let words: HashSet<String> = def
                .list("keywords")
                .unwrap_or_default()
                .into_iter()
                .map(|mut s| {
                    if ignore_case {
                        crate::analysis::unicode::lowercase_in_place(&mut s);
                    }
                    s
                })
                .collect();
            if pattern.is_none() && !def.has("keywords") {
                return Err(Error::illegal_argument(
                    "keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured",
                ));
            }
            Arc::new(KeywordMarker {
                words,
                pattern,
                ignore_case,
            })
        }
        "pattern_replace" => {
            let Some(p) = def.str("pattern") else {
                return Err(Error::illegal_argument(
                    "pattern is missing for [pattern_replace] token filter",
                ));
            };
            Arc::new(PatternReplace {
                regex: crate::analysis::tokenizer::pattern::java_regex(
                    p,
                    def.str("flags").unwrap_or(""),
                )?,
                replacement: java_replacement(def.str("replacement").unwrap_or("")),
                all: def.bool("all", true)?,
            })
        }
        "limit" => Arc::new(Limit {
            max: def.usize("max_token_count", 1)?,
        }),
        "classic" => Arc::new(ClassicFilter),
        "cjk_width" => Arc::new(CjkWidth),
        "cjk_bigram" => {
            let ignored = def.list("ignored_scripts").unwrap_or_default();
            let has = |s: &str| !ignored.iter().any(|x| x == s);
            Arc::new(cjk_bigram::CjkBigram {
                han: has("han"),
                hiragana: has("hiragana"),
                katakana: has("katakana"),
                hangul: has("hangul"),
                unigrams: def.bool("output_unigrams", false)?,
            })
        }
        "fingerprint" => Arc::new(fingerprint::Fingerprint {
            separator: def.text("separator").unwrap_or_else(|| " ".into()),
            max_output_size: def.usize("max_output_size", 255)?,
        }),
        _ => {
            return Err(Error::illegal_argument(format!(
                "failed to find global filter under [{kind}]"
            )))
        }
    })
}
