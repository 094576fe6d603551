//! OpenSearch's built-in analyzers as chains, with their parameters: `standard`, `simple`,
//! `whitespace`, `stop`, `keyword`, `pattern`, `fingerprint` and the language analyzers.

use crate::analysis::analyzer::Analyzer;
use crate::analysis::filter::{self, case, simple, stemmer, stop, TokenFilter};
use crate::analysis::params::Def;
use crate::analysis::tokenizer::{self, Tokenizer};
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::sync::Arc;

pub const NAMES: &[&str] = &[
    "standard",
    "simple",
    "whitespace",
    "stop",
    "keyword",
    "pattern",
    "fingerprint",
    "english",
    "french",
    "german",
    "spanish",
    "italian",
    "portuguese",
    "dutch",
    "russian",
    "danish",
    "finnish",
    "hungarian",
    "norwegian",
    "swedish",
];

pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&name)
}

fn stopwords(def: &Def, default: &str) -> Result<stop::StopSet> {
    let items = def
        .list_split("stopwords")
        .unwrap_or_else(|| vec![default.to_string()]);
    stop::StopSet::parse(&items, false)
}

fn stop_filter(set: stop::StopSet) -> (String, Arc<dyn TokenFilter>) {
    (
        "stop".into(),
        Arc::new(stop::Stop {
            set,
            remove_trailing: true,
        }),
    )
}

fn lower() -> (String, Arc<dyn TokenFilter>) {
    (
        "lowercase".into(),
        Arc::new(case::Lowercase(case::Lang::Default)),
    )
}

fn chain(
    name: &str,
    tok: (&str, Arc<dyn Tokenizer>),
    filters: Vec<(String, Arc<dyn TokenFilter>)>,
) -> Analyzer {
    let has_keyword_attr = filters
        .iter()
        .any(|(n, _)| n == "keyword_marker" || n.ends_with("stem") || n == "stemmer");
    Analyzer {
        name: name.to_string(),
        custom: false,
        char_filters: Vec::new(),
        tokenizer: (tok.0.to_string(), tok.1),
        filters,
        position_increment_gap: 0,
        offset_gap: 1,
        has_keyword_attr,
    }
}

fn standard_tok(def: &Def) -> Result<Arc<dyn Tokenizer>> {
    tokenizer::build("standard", def, 1)
}

fn exclusion(def: &Def) -> Option<(String, Arc<dyn TokenFilter>)> {
    let words: HashSet<String> = def.list_split("stem_exclusion")?.into_iter().collect();
    if words.is_empty() {
        return None;
    }
    Some((
        "keyword_marker".into(),
        Arc::new(simple::KeywordMarker {
            words,
            pattern: None,
            ignore_case: false,
        }),
    ))
}

/// A built-in analyzer of type `kind`, named `name`, configured by `def`.
pub fn build(name: &str, kind: &str, def: &Def) -> Result<Analyzer> {
    let no_params = Def::default();
    Ok(match kind {
        "standard" => {
            let mut f = vec![lower()];
            let set = stopwords(def, "_none_")?;
            if !set.is_empty() {
                f.push(stop_filter(set));
            }
            chain(name, ("standard", standard_tok(def)?), f)
        }
        "simple" => chain(
            name,
            ("lowercase", tokenizer::build("lowercase", &no_params, 1)?),
            vec![],
        ),
        "whitespace" => chain(
            name,
            ("whitespace", tokenizer::build("whitespace", def, 1)?),
            vec![],
        ),
        "keyword" => chain(
            name,
            ("keyword", tokenizer::build("keyword", &no_params, 1)?),
            vec![],
        ),
        "stop" => chain(
            name,
            ("lowercase", tokenizer::build("lowercase", &no_params, 1)?),
            vec![stop_filter(stopwords(def, "_english_")?)],
        ),
        "pattern" => {
            let mut d = Def::default();
            for k in ["pattern", "flags"] {
                if let Some(v) = def.map.get(k) {
                    d.map.insert(k.into(), v.clone());
                }
            }
            let mut f = Vec::new();
            if def.bool("lowercase", true)? {
                f.push(lower());
            }
            let set = stopwords(def, "_none_")?;
            if !set.is_empty() {
                f.push(stop_filter(set));
            }
            chain(name, ("pattern", tokenizer::build("pattern", &d, 1)?), f)
        }
        "fingerprint" => {
            let mut f = vec![
                lower(),
                (
                    "asciifolding".into(),
                    Arc::new(simple::AsciiFolding {
                        preserve_original: false,
                    }) as Arc<dyn TokenFilter>,
                ),
            ];
            let set = stopwords(def, "_none_")?;
            if !set.is_empty() {
                f.push(stop_filter(set));
            }
            f.push((
                "fingerprint".into(),
                Arc::new(filter::fingerprint::Fingerprint {
                    separator: def.text("separator").unwrap_or_else(|| " ".into()),
                    max_output_size: def.usize("max_output_size", 255)?,
                }),
            ));
            chain(name, ("standard", standard_tok(&no_params)?), f)
        }
        "english" if exclusion(def).is_none() => {
            // One fused pass; explain shows built-in analyzers' final tokens only.
            let f: Vec<(String, Arc<dyn TokenFilter>)> = vec![(
                "english_stem".into(),
                Arc::new(stemmer::EnglishChain::new(stopwords(def, "_english_")?)),
            )];
            chain(name, ("standard", standard_tok(&no_params)?), f)
        }
        "english" => {
            let mut f: Vec<(String, Arc<dyn TokenFilter>)> = vec![(
                "possessive".into(),
                Arc::new(stemmer::Stem::new(stemmer::Kind::PossessiveEnglish)),
            )];
            f.push(lower());
            let set = stopwords(def, "_english_")?;
            if !set.is_empty() {
                f.push(stop_filter(set));
            }
            f.extend(exclusion(def));
            f.push((
                "porter_stem".into(),
                Arc::new(stemmer::Stem::new(stemmer::Kind::Porter)),
            ));
            chain(name, ("standard", standard_tok(&no_params)?), f)
        }
        lang @ ("french" | "german" | "spanish" | "italian" | "portuguese" | "dutch"
        | "russian" | "danish" | "finnish" | "hungarian" | "norwegian" | "swedish") => {
            let mut f: Vec<(String, Arc<dyn TokenFilter>)> = Vec::new();
            let articles: Option<&[&str]> = match lang {
                "french" => Some(simple::FRENCH_ARTICLES),
                "italian" => Some(simple::ITALIAN_ARTICLES),
                _ => None,
            };
            if let Some(a) = articles {
                f.push((
                    "elision".into(),
                    Arc::new(simple::Elision {
                        articles: a.iter().map(|s| s.to_string()).collect(),
                        ignore_case: true,
                    }),
                ));
            }
            f.push(lower());
            let set = stopwords(def, &format!("_{lang}_"))?;
            if !set.is_empty() {
                f.push(stop_filter(set));
            }
            f.extend(exclusion(def));
            let stem = match lang {
                "spanish" => "light_spanish",
                "italian" => "light_italian",
                "german" => "light_german",
                "french" => "light_french",
                "portuguese" => "light_portuguese",
                other => other,
            };
            f.push((
                "stemmer".into(),
                Arc::new(stemmer::Stem::for_language(stem)?),
            ));
            chain(name, ("standard", standard_tok(&no_params)?), f)
        }
        other => {
            return Err(Error::illegal_argument(format!(
                "Unknown analyzer type [{other}] for [{name}]"
            )))
        }
    })
}
