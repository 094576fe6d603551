//! What a query highlights: per field, the terms it looks for, its phrases (only their matching
//! occurrences are highlighted, term by term), and its multi-term patterns (prefix, wildcard,
//! regexp, fuzzy), each pattern counting as one term as Lucene's unified highlighter counts an
//! automaton. Clauses that cannot match a document (`must_not`, a `boosting` negative) are left
//! out, as Lucene's query visitor leaves them out.

use crate::dsl::{self, MultiMatchType, Query as Ast};
use crate::error::Result;
use crate::index::mapping::{FieldMapping, FieldType};
use crate::query::{self, Context};
use regex::Regex;

/// One part of a phrase: a term, or the prefix the last word of a `phrase_prefix` is.
#[derive(Debug, Clone)]
pub enum Part {
    Exact(String),
    Prefix(String),
}

impl Part {
    pub fn accepts(&self, token: &str) -> bool {
        match self {
            Part::Exact(t) => t == token,
            Part::Prefix(p) => token.starts_with(p.as_str()),
        }
    }
}

/// A pattern over a field's terms.
#[derive(Debug, Clone)]
pub enum Pattern {
    Prefix(String),
    Regex(Regex),
    Fuzzy {
        text: Vec<char>,
        edits: u8,
        prefix: usize,
        transpositions: bool,
    },
}

impl Pattern {
    pub fn accepts(&self, token: &str) -> bool {
        self.weight(token).is_some()
    }

    /// The weight of a term the pattern accepts, as Lucene's scoring rewrite boosts it: a fuzzy
    /// pattern's `FuzzyTermsEnum` similarity (1 − edits ÷ the shorter length in code points),
    /// 1 for the others.
    pub fn weight(&self, token: &str) -> Option<f32> {
        match self {
            Pattern::Prefix(p) => token.starts_with(p.as_str()).then_some(1.0),
            Pattern::Regex(re) => re.is_match(token).then_some(1.0),
            Pattern::Fuzzy {
                text,
                edits,
                prefix,
                transpositions,
            } => {
                let t: Vec<char> = token.chars().collect();
                if t.len() < *prefix || text.len() < *prefix || t[..*prefix] != text[..*prefix] {
                    return None;
                }
                let (a, b) = (&text[*prefix..], &t[*prefix..]);
                let d = if *transpositions {
                    crate::search::suggest::osa(a, b)
                } else {
                    crate::search::suggest::levenshtein(a, b)
                };
                (d <= *edits as usize).then(|| {
                    if d == 0 {
                        1.0
                    } else {
                        1.0 - d as f32 / t.len().min(text.len()) as f32
                    }
                })
            }
        }
    }
}

#[derive(Debug, Clone)]
pub enum Matcher {
    Term(String),
    /// Parts at relative positions, matched in order when `slop` is 0, else within `slop` moves.
    Phrase {
        parts: Vec<(usize, Part)>,
        slop: u32,
    },
    /// `label` names the pattern as the one term its matches count as.
    Pattern {
        label: String,
        pattern: Pattern,
    },
}

/// `(field, matcher)` pairs of a query.
pub type Extracted = Vec<(String, Matcher)>;

/// The highlight matchers of a query against one index.
pub fn extract(ast: &Ast, cx: &Context) -> Result<Extracted> {
    let mut out = Vec::new();
    walk(ast, cx, &mut out)?;
    Ok(out)
}

fn analyze(cx: &Context, analyzer: &str, text: &str) -> Vec<(usize, String)> {
    let Some(mut a) = cx
        .searcher
        .index()
        .tokenizers()
        .get(crate::analysis::tokenizer_name(analyzer))
    else {
        return Vec::new();
    };
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push((t.position, t.text.clone()));
    }
    out
}

fn text_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The prefixes, wildcards and regexps of a built query string, from the Lucene text their
/// labels carry (`title:qu*`, `title:q?ick`, `title:/qu.*/`).
fn labelled_patterns(q: &dyn tantivy::query::Query, out: &mut Extracted) {
    use crate::query::combine::{DisMaxQuery, SumQuery};
    use crate::query::labelled::LabelledQuery;
    use crate::query::wrappers::BoostedQuery;
    if let Some(l) = q.downcast_ref::<LabelledQuery>() {
        let Some((field, text)) = l.text().split_once(':') else {
            return;
        };
        let m = if let Some(re) = text.strip_prefix('/').and_then(|t| t.strip_suffix('/')) {
            crate::query::lucene_regexp::translate(re, crate::query::lucene_regexp::ALL)
                .ok()
                .flatten()
                .and_then(|lucene| regex_pattern(field, text, &lucene))
        } else if let Some(p) = text.strip_suffix('*').filter(|p| !p.contains(['*', '?'])) {
            Some(Matcher::Pattern {
                label: format!("{field}:{text}"),
                pattern: Pattern::Prefix(p.to_string()),
            })
        } else if text.contains(['*', '?']) {
            regex_pattern(field, text, &crate::query::multi_term::wildcard_regex(text))
        } else {
            None
        };
        out.extend(m.map(|m| (field.to_string(), m)));
        return;
    }
    let children: Vec<&dyn tantivy::query::Query> = if let Some(s) = q.downcast_ref::<SumQuery>() {
        s.clauses().iter().map(|c| c.as_ref()).collect()
    } else if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
        d.clauses().iter().map(|c| c.as_ref()).collect()
    } else if let Some(b) = q.downcast_ref::<tantivy::query::BooleanQuery>() {
        b.clauses()
            .iter()
            .filter(|(o, _)| *o != tantivy::query::Occur::MustNot)
            .map(|(_, c)| c.as_ref())
            .collect()
    } else if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        vec![b.inner()]
    } else {
        Vec::new()
    };
    for c in children {
        labelled_patterns(c, out);
    }
}

fn regex_pattern(field: &str, label: &str, re: &str) -> Option<Matcher> {
    let re = Regex::new(&format!("^(?:{re})$")).ok()?;
    Some(Matcher::Pattern {
        label: format!("{field}:{label}"),
        pattern: Pattern::Regex(re),
    })
}

/// The field's analysed tokens of a full-text value (text fields), or the normalized value
/// (keyword fields); other types highlight nothing.
fn value_tokens(
    cx: &Context,
    fm: &FieldMapping,
    analyzer: Option<&str>,
    value: &serde_json::Value,
) -> Vec<(usize, String)> {
    let text = text_of(value);
    match fm.ty {
        FieldType::Text => analyze(cx, analyzer.unwrap_or(&fm.search_analyzer), &text),
        FieldType::Keyword => vec![(
            0,
            crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text).into_owned(),
        )],
        _ => Vec::new(),
    }
}

fn fuzzy_matcher(field: &str, t: &str, edits: u8, prefix: usize, transpositions: bool) -> Matcher {
    if edits == 0 {
        return Matcher::Term(t.to_string());
    }
    Matcher::Pattern {
        label: format!("{field}:{t}~{edits}"),
        pattern: Pattern::Fuzzy {
            text: t.chars().collect(),
            edits,
            prefix,
            transpositions,
        },
    }
}

fn match_terms(cx: &Context, m: &dsl::MatchQuery, field: &str, out: &mut Extracted) {
    let Some(fm) = cx.mapping.field(field) else {
        return;
    };
    for (_, t) in value_tokens(cx, fm, m.analyzer.as_deref(), &m.query) {
        let matcher = match m.fuzziness {
            Some(fz) => fuzzy_matcher(
                field,
                &t,
                fz.edits(t.chars().count()),
                m.prefix_length,
                m.fuzzy_transpositions,
            ),
            None => Matcher::Term(t),
        };
        out.push((field.to_string(), matcher));
    }
}

fn phrase(
    cx: &Context,
    field: &str,
    query: &serde_json::Value,
    analyzer: Option<&str>,
    slop: u32,
    last_prefix: bool,
    out: &mut Extracted,
) {
    let Some(fm) = cx.mapping.field(field) else {
        return;
    };
    let tokens = value_tokens(cx, fm, analyzer, query);
    let n = tokens.len();
    if n == 1 && !last_prefix {
        let (_, t) = tokens.into_iter().next().expect("one token");
        out.push((field.to_string(), Matcher::Term(t)));
        return;
    }
    if n == 0 {
        return;
    }
    let first = tokens[0].0;
    let parts = tokens
        .into_iter()
        .enumerate()
        .map(|(i, (p, t))| {
            let part = if last_prefix && i + 1 == n {
                Part::Prefix(t)
            } else {
                Part::Exact(t)
            };
            (p - first, part)
        })
        .collect();
    out.push((field.to_string(), Matcher::Phrase { parts, slop }));
}

/// The fields a `multi_match` names (patterns against the mapping; none means every field).
fn expand_fields(cx: &Context, fields: &[(String, f32)]) -> Vec<String> {
    let patterns: Vec<&str> = if fields.is_empty() {
        vec!["*"]
    } else {
        fields.iter().map(|(f, _)| f.as_str()).collect()
    };
    let mut out: Vec<String> = Vec::new();
    for p in patterns {
        if p.contains('*') {
            for leaf in cx.mapping.leaves() {
                if matches!(leaf.field.ty, FieldType::Text | FieldType::Keyword)
                    && crate::metadata::target::glob_match(p, &leaf.path)
                    && !out.contains(&leaf.path)
                {
                    out.push(leaf.path.clone());
                }
            }
        } else if !out.iter().any(|f| f == p) {
            out.push(p.to_string());
        }
    }
    out
}

fn walk(ast: &Ast, cx: &Context, out: &mut Extracted) -> Result<()> {
    match ast {
        Ast::Term {
            field,
            value,
            case_insensitive,
            ..
        } => {
            let Some(fm) = cx.mapping.field(field) else {
                return Ok(());
            };
            if !matches!(fm.ty, FieldType::Text | FieldType::Keyword) {
                return Ok(());
            }
            let text = text_of(value);
            let text = crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text);
            if *case_insensitive {
                if let Some(m) =
                    regex_pattern(field, &text, &format!("(?i){}", regex::escape(&text)))
                {
                    out.push((field.clone(), m));
                }
            } else {
                out.push((field.clone(), Matcher::Term(text.into_owned())));
            }
        }
        Ast::Terms { field, values, .. }
        | Ast::TermsSet(crate::dsl::terms_set::TermsSetQuery {
            field,
            terms: values,
            ..
        }) => {
            let Some(fm) = cx.mapping.field(field) else {
                return Ok(());
            };
            if matches!(fm.ty, FieldType::Text | FieldType::Keyword) {
                for v in values {
                    let t = text_of(v);
                    let t = crate::analysis::keyword_query_text(cx.searcher.index(), fm, &t);
                    out.push((field.clone(), Matcher::Term(t.into_owned())));
                }
            }
        }
        Ast::Prefix {
            field,
            value,
            case_insensitive,
            ..
        } => {
            let m = if *case_insensitive {
                regex_pattern(field, value, &format!("(?i){}.*", regex::escape(value)))
            } else {
                Some(Matcher::Pattern {
                    label: format!("{field}:{value}*"),
                    pattern: Pattern::Prefix(value.clone()),
                })
            };
            out.extend(m.map(|m| (field.clone(), m)));
        }
        Ast::Wildcard(w) => {
            let mut re = crate::query::multi_term::wildcard_regex(&w.value);
            if w.case_insensitive {
                re = format!("(?i){re}");
            }
            out.extend(regex_pattern(&w.field, &w.value, &re).map(|m| (w.field.clone(), m)));
        }
        Ast::Regexp(r) => {
            // Lucene's regexp syntax, translated as the query itself translates it.
            if let Ok(Some(lucene)) = crate::query::lucene_regexp::translate(&r.value, r.flags) {
                let re = if r.case_insensitive {
                    format!("(?i){lucene}")
                } else {
                    lucene
                };
                out.extend(regex_pattern(&r.field, &r.value, &re).map(|m| (r.field.clone(), m)));
            }
        }
        Ast::Fuzzy(fz) => {
            let t = text_of(&fz.value);
            let edits = fz.fuzziness.edits(t.chars().count());
            out.push((
                fz.field.clone(),
                fuzzy_matcher(
                    &fz.field,
                    &t,
                    edits,
                    fz.prefix_length.max(0) as usize,
                    fz.transpositions,
                ),
            ));
        }
        Ast::Bool(b) => {
            for q in b.must.iter().chain(&b.should).chain(&b.filter) {
                walk(q, cx, out)?;
            }
        }
        Ast::Match(m) => match_terms(cx, m, &m.field, out),
        Ast::MatchBoolPrefix(m) => {
            let mut terms = Vec::new();
            match_terms(cx, m, &m.field, &mut terms);
            if let Some((f, Matcher::Term(last))) = terms.pop() {
                terms.push((
                    f,
                    Matcher::Pattern {
                        label: format!("{}:{last}*", m.field),
                        pattern: Pattern::Prefix(last),
                    },
                ));
            }
            out.extend(terms);
        }
        Ast::MatchPhrase(p) => phrase(
            cx,
            &p.field,
            &p.query,
            p.analyzer.as_deref(),
            p.slop,
            false,
            out,
        ),
        Ast::MultiMatch(m) => {
            for field in expand_fields(cx, &m.fields) {
                match m.ty {
                    MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => phrase(
                        cx,
                        &field,
                        &m.query,
                        m.analyzer.as_deref(),
                        m.slop,
                        m.ty == MultiMatchType::PhrasePrefix,
                        out,
                    ),
                    _ => {
                        let mq = dsl::MatchQuery {
                            minimum_should_match: None,
                            ..m.as_match(&field)
                        };
                        let mut terms = Vec::new();
                        match_terms(cx, &mq, &field, &mut terms);
                        if m.ty == MultiMatchType::BoolPrefix {
                            if let Some((f, Matcher::Term(last))) = terms.pop() {
                                terms.push((
                                    f,
                                    Matcher::Pattern {
                                        label: format!("{field}:{last}*"),
                                        pattern: Pattern::Prefix(last),
                                    },
                                ));
                            }
                        }
                        out.extend(terms);
                    }
                }
            }
        }
        Ast::ConstantScore { filter, .. } => walk(filter, cx, out)?,
        Ast::DisMax { queries, .. } => {
            for q in queries {
                walk(q, cx, out)?;
            }
        }
        Ast::Boosting { positive, .. } => walk(positive, cx, out)?,
        // The scored query; the functions' filters only weigh the score.
        Ast::FunctionScore(fs) => walk(&fs.query, cx, out)?,
        Ast::QueryString(_) | Ast::SimpleQueryString(_) => {
            // The parsed Lucene syntax lives in the built query, which shows its terms only:
            // those a phrase needs positions for arrive together, in phrase order. Built with
            // labels, its prefixes, wildcards and regexps say what they match.
            let Ok(q) = query::build(ast, &cx.labelling()) else {
                return Ok(());
            };
            labelled_patterns(q.as_ref(), out);
            let slop = match ast {
                Ast::QueryString(qs) => qs.phrase_slop,
                _ => 0,
            };
            let schema = cx.searcher.schema();
            let mut run: Vec<(String, String)> = Vec::new();
            let flush = |run: &mut Vec<(String, String)>, out: &mut Extracted| {
                if run.len() == 1 {
                    let (f, t) = run.pop().expect("one");
                    out.push((f, Matcher::Term(t)));
                } else if let Some((f, _)) = run.first() {
                    let f = f.clone();
                    let parts = run
                        .drain(..)
                        .enumerate()
                        .map(|(i, (_, t))| (i, Part::Exact(t)))
                        .collect();
                    out.push((f, Matcher::Phrase { parts, slop }));
                }
            };
            q.query_terms(&mut |term, positions| {
                let name = schema.get_field_name(term.field()).to_string();
                let Some(text) = term.value().as_str().map(String::from) else {
                    return;
                };
                if !positions || run.first().is_some_and(|(f, _)| *f != name) {
                    flush(&mut run, out);
                }
                if positions {
                    run.push((name, text));
                } else {
                    out.push((name, Matcher::Term(text)));
                }
            });
            flush(&mut run, out);
        }
        // No terms: match_all/none, ranges, exists, ids; and queries added after this walk.
        _ => {}
    }
    Ok(())
}
