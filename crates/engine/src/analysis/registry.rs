//! One index's analysis components: the analyzers, normalizers, tokenizers, token filters and
//! char filters its settings define (`index.analysis.*`), on top of the built-in ones.

use crate::analysis::analyzer::Analyzer;
use crate::analysis::char_filter::{self, CharFilter};
use crate::analysis::filter::{self, TokenFilter};
use crate::analysis::params::Def;
use crate::analysis::tokenizer::{self, Tokenizer};
use crate::analysis::{builtin, token::Tokens};
use crate::error::{Error, Result};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

/// A component named in a request or a definition: a name, or an inline definition.
pub enum Component<'a> {
    Name(&'a str),
    Inline(Def),
}

#[derive(Default)]
pub struct Registry {
    pub analyzers: BTreeMap<String, Arc<Analyzer>>,
    pub normalizers: BTreeMap<String, Arc<Analyzer>>,
    tokenizers: BTreeMap<String, Def>,
    filters: BTreeMap<String, Def>,
    char_filters: BTreeMap<String, Def>,
    pub max_ngram_diff: usize,
    pub max_shingle_diff: usize,
    /// Whether this registry is an index's (errors then say "failed to find" without "global").
    pub indexed: bool,
}

/// The built-in analyzers, built once.
pub fn builtins() -> &'static HashMap<&'static str, Arc<Analyzer>> {
    static B: OnceLock<HashMap<&'static str, Arc<Analyzer>>> = OnceLock::new();
    B.get_or_init(|| {
        builtin::NAMES
            .iter()
            .filter_map(|&n| {
                builtin::build(n, n, &Def::default())
                    .ok()
                    .map(|a| (n, Arc::new(a)))
            })
            .collect()
    })
}

/// OpenSearch's built-in `lowercase` normalizer.
fn builtin_lowercase_normalizer() -> Arc<Analyzer> {
    static L: OnceLock<Arc<Analyzer>> = OnceLock::new();
    L.get_or_init(|| {
        let reg = Registry::global();
        let mut a = reg
            .custom(None, &[], &[Component::Name("lowercase")], true)
            .expect("lowercase normalizer");
        a.name = "lowercase".into();
        Arc::new(a)
    })
    .clone()
}

fn group(flat: &BTreeMap<String, Value>, kind: &str) -> BTreeMap<String, Def> {
    let prefix = format!("index.analysis.{kind}.");
    let mut out: BTreeMap<String, Def> = BTreeMap::new();
    for (k, v) in flat {
        let Some(rest) = k.strip_prefix(&prefix) else {
            continue;
        };
        let Some((name, param)) = rest.split_once('.') else {
            continue;
        };
        out.entry(name.to_string())
            .or_default()
            .map
            .insert(param.to_string(), v.clone());
    }
    out
}

impl Registry {
    /// The global registry (no index): built-ins only.
    pub fn global() -> Registry {
        Registry {
            max_ngram_diff: 1,
            max_shingle_diff: 3,
            ..Registry::default()
        }
    }

    pub fn from_settings(flat: &BTreeMap<String, Value>) -> Result<Registry> {
        let int = |k: &str, d: usize| {
            flat.get(k)
                .and_then(Value::as_str)
                .and_then(|s| s.parse().ok())
                .unwrap_or(d)
        };
        let mut reg = Registry {
            tokenizers: group(flat, "tokenizer"),
            filters: group(flat, "filter"),
            char_filters: group(flat, "char_filter"),
            max_ngram_diff: int("index.max_ngram_diff", 1),
            max_shingle_diff: int("index.max_shingle_diff", 3),
            indexed: true,
            ..Registry::default()
        };
        for (name, def) in &reg.tokenizers {
            let kind = def.type_name().ok_or_else(|| {
                Error::illegal_argument(format!("tokenizer [{name}] must specify [type]"))
            })?;
            tokenizer::build(kind, def, reg.max_ngram_diff).map_err(|e| {
                if tokenizer::is_builtin(kind) {
                    e
                } else {
                    Error::illegal_argument(format!("Unknown tokenizer type [{kind}] for [{name}]"))
                }
            })?;
        }
        for (name, def) in &reg.char_filters {
            let kind = def.type_name().ok_or_else(|| {
                Error::illegal_argument(format!("char_filter [{name}] must specify [type]"))
            })?;
            if !char_filter::NAMES.contains(&kind) {
                return Err(Error::illegal_argument(format!(
                    "Unknown char_filter type [{kind}] for [{name}]"
                )));
            }
            char_filter::build(kind, def)?;
        }
        for (name, def) in &reg.filters {
            let kind = def.type_name().ok_or_else(|| {
                Error::illegal_argument(format!("filter [{name}] must specify [type]"))
            })?;
            if !filter::is_builtin(kind) {
                return Err(Error::illegal_argument(format!(
                    "Unknown filter type [{kind}] for [{name}]"
                )));
            }
        }
        for (name, def) in group(flat, "analyzer") {
            let a = reg.analyzer_from_def(&name, &def)?;
            reg.analyzers.insert(name, Arc::new(a));
        }
        for (name, def) in group(flat, "normalizer") {
            let a = reg.normalizer_from_def(&name, &def)?;
            reg.normalizers.insert(name, Arc::new(a));
        }
        Ok(reg)
    }

    fn analyzer_from_def(&self, name: &str, def: &Def) -> Result<Analyzer> {
        let kind = match def.type_name() {
            Some(k) => k.to_string(),
            None if def.has("tokenizer") => "custom".to_string(),
            None => {
                return Err(Error::illegal_argument(format!(
                    "analyzer [{name}] must specify either an analyzer type, or a tokenizer"
                )))
            }
        };
        if kind != "custom" {
            return builtin::build(name, &kind, def);
        }
        let Some(tok) = def.str("tokenizer") else {
            return Err(Error::illegal_argument(format!(
                "Custom Analyzer [{name}] must be configured with a tokenizer"
            )));
        };
        let names = |key: &str| def.list_split(key).unwrap_or_default();
        let cfs = names("char_filter");
        let fs = names("filter");
        let mut a = self
            .custom(
                Some(Component::Name(tok)),
                &cfs.iter().map(|s| Component::Name(s)).collect::<Vec<_>>(),
                &fs.iter().map(|s| Component::Name(s)).collect::<Vec<_>>(),
                false,
            )
            .map_err(|e| {
                let reason = e.reason.clone();
                if let Some(rest) = reason.strip_prefix("failed to find ") {
                    let rest = rest.replace("global ", "");
                    let (what, under) = rest.split_once(" under ").unwrap_or((&rest, ""));
                    Error::illegal_argument(format!(
                        "Custom Analyzer [{name}] failed to find {what} under name {under}"
                    ))
                } else {
                    e
                }
            })?;
        a.name = name.to_string();
        a.position_increment_gap = def.int("position_increment_gap", 100)?.max(0) as u32;
        Ok(a)
    }

    fn normalizer_from_def(&self, name: &str, def: &Def) -> Result<Analyzer> {
        if let Some(t) = def.type_name() {
            if t != "custom" {
                return Err(Error::illegal_argument(format!(
                    "Unknown normalizer type [{t}] for [{name}]"
                )));
            }
        }
        let names = |key: &str| def.list_split(key).unwrap_or_default();
        let cfs = names("char_filter");
        let fs = names("filter");
        for f in &fs {
            let kind = self.filters.get(f).and_then(Def::type_name).unwrap_or(f);
            if filter::is_builtin(kind) && !filter::NORMALIZER_SAFE.contains(&kind) {
                return Err(Error::illegal_argument(format!(
                    "Custom normalizer [{name}] may not use filter [{f}]"
                )));
            }
        }
        let mut a = self.custom(
            None,
            &cfs.iter().map(|s| Component::Name(s)).collect::<Vec<_>>(),
            &fs.iter().map(|s| Component::Name(s)).collect::<Vec<_>>(),
            true,
        )?;
        a.name = name.to_string();
        Ok(a)
    }

    /// A named normalizer: the index's own, else the built-in `lowercase`.
    pub fn normalizer(&self, name: &str) -> Option<Arc<Analyzer>> {
        if let Some(a) = self.normalizers.get(name) {
            return Some(a.clone());
        }
        (name == "lowercase").then(builtin_lowercase_normalizer)
    }

    /// A named analyzer: the index's own, else a built-in one. `default` is the index's
    /// default analyzer or `standard`. A `normalizer_key` names a normalizer.
    pub fn analyzer(&self, name: &str) -> Option<Arc<Analyzer>> {
        if let Some(a) = self.analyzers.get(name) {
            return Some(a.clone());
        }
        if let Some(n) = name.strip_prefix(crate::analysis::NORMALIZER_PREFIX) {
            return self.normalizer(n);
        }
        match name {
            "default" => builtins().get("standard").cloned(),
            "default_search" => self.analyzer("default"),
            other => builtins().get(other).cloned(),
        }
    }

    fn not_found(&self, what: &str, name: &str) -> Error {
        if self.indexed {
            Error::illegal_argument(format!("failed to find {what} under [{name}]"))
        } else {
            Error::illegal_argument(format!("failed to find global {what} under [{name}]"))
        }
    }

    pub fn tokenizer(&self, c: &Component) -> Result<(String, Arc<dyn Tokenizer>)> {
        match c {
            Component::Name(n) => {
                if let Some(def) = self.tokenizers.get(*n) {
                    let kind = def.type_name().unwrap_or("");
                    return Ok((
                        n.to_string(),
                        tokenizer::build(kind, def, self.max_ngram_diff)?,
                    ));
                }
                if !tokenizer::is_builtin(n) {
                    return Err(self.not_found("tokenizer", n));
                }
                Ok((
                    n.to_string(),
                    tokenizer::build(n, &Def::default(), self.max_ngram_diff)?,
                ))
            }
            Component::Inline(def) => {
                let kind = def.type_name().ok_or_else(|| {
                    Error::illegal_argument(format!(
                        "Missing [type] setting for anonymous tokenizer: {}",
                        def.raw.as_deref().unwrap_or("{}")
                    ))
                })?;
                Ok((
                    format!("__anonymous__{kind}"),
                    tokenizer::build(kind, def, self.max_ngram_diff)?,
                ))
            }
        }
    }

    pub fn char_filter(&self, c: &Component) -> Result<(String, Arc<dyn CharFilter>)> {
        match c {
            Component::Name(n) => {
                if let Some(def) = self.char_filters.get(*n) {
                    return Ok((
                        n.to_string(),
                        char_filter::build(def.type_name().unwrap_or(""), def)?,
                    ));
                }
                if !char_filter::NAMES.contains(n) {
                    return Err(self.not_found("char_filter", n));
                }
                Ok((n.to_string(), char_filter::build(n, &Def::default())?))
            }
            Component::Inline(def) => {
                let kind = def.type_name().ok_or_else(|| {
                    Error::illegal_argument(format!(
                        "Missing [type] setting for anonymous char filter: {}",
                        def.raw.as_deref().unwrap_or("{}")
                    ))
                })?;
                Ok((
                    format!("__anonymous__{kind}"),
                    char_filter::build(kind, def)?,
                ))
            }
        }
    }

    fn filter(
        &self,
        c: &Component,
        before: &Analyzer,
    ) -> Result<(String, Arc<dyn TokenFilter>, String)> {
        let analyze = |phrase: &str| -> Result<Vec<String>> {
            let a = before.run(phrase);
            Ok(a.tokens.toks.into_iter().map(|t| t.text).collect())
        };
        let ctx = filter::Ctx {
            max_ngram_diff: self.max_ngram_diff,
            max_shingle_diff: self.max_shingle_diff,
            analyze: &analyze,
        };
        match c {
            Component::Name(n) => {
                if let Some(def) = self.filters.get(*n) {
                    let kind = def.type_name().unwrap_or("");
                    return Ok((
                        n.to_string(),
                        filter::build(kind, def, &ctx)?,
                        kind.to_string(),
                    ));
                }
                if !filter::is_builtin(n) {
                    return Err(self.not_found("filter", n));
                }
                Ok((
                    n.to_string(),
                    filter::build(n, &Def::default(), &ctx)?,
                    n.to_string(),
                ))
            }
            Component::Inline(def) => {
                let kind = def.type_name().ok_or_else(|| {
                    Error::illegal_argument(format!(
                        "Missing [type] setting for anonymous filter: {}",
                        def.raw.as_deref().unwrap_or("{}")
                    ))
                })?;
                Ok((
                    format!("__anonymous__{kind}"),
                    filter::build(kind, def, &ctx)?,
                    kind.to_string(),
                ))
            }
        }
    }

    /// A custom chain from components; without a tokenizer, the keyword tokenizer (the
    /// normalizer case, where only normalizing filters run).
    pub fn custom(
        &self,
        tokenizer: Option<Component>,
        char_filters: &[Component],
        filters: &[Component],
        normalize: bool,
    ) -> Result<Analyzer> {
        let mut cfs = Vec::new();
        for c in char_filters {
            cfs.push(self.char_filter(c)?);
        }
        let tok = match &tokenizer {
            Some(t) => self.tokenizer(t)?,
            None => (
                "keyword".to_string(),
                Arc::new(tokenizer::keyword::Keyword) as Arc<dyn Tokenizer>,
            ),
        };
        let mut a = Analyzer {
            name: String::new(),
            custom: true,
            char_filters: cfs,
            tokenizer: tok,
            filters: Vec::new(),
            position_increment_gap: 0,
            offset_gap: 1,
            has_keyword_attr: false,
        };
        for f in filters {
            let (name, built, kind) = self.filter(f, &a)?;
            if normalize && !filter::NORMALIZER_SAFE.contains(&kind.as_str()) {
                continue;
            }
            if matches!(
                kind.as_str(),
                "keyword_marker"
                    | "stemmer"
                    | "porter_stem"
                    | "kstem"
                    | "snowball"
                    | "word_delimiter_graph"
                    | "word_delimiter"
            ) {
                a.has_keyword_attr = true;
            }
            a.filters.push((name, built));
        }
        Ok(a)
    }

    /// Runs an analyzer over one value (used by tests and the bench).
    pub fn tokens(a: &Analyzer, text: &str) -> Tokens {
        a.run(text).tokens
    }
}
