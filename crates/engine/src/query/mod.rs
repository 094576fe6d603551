//! Query AST → tantivy queries, using the index's mapping: text fields analysed with the
//! field's search analyzer, keyword exact, numbers/dates/booleans/ips on their tantivy types.
//! Scores follow OpenSearch (tantivy-napi.md §7): term leaves are [`LuceneTermQuery`], numeric,
//! date and ip terms are constant, filters score 0, `match_all` is a constant (never a bare
//! `AllQuery`, which tantivy's boolean weight drops).

pub mod block_max;
pub mod boosting;
pub mod combine;
pub mod constant;
pub mod date_math;
pub mod filtered;
pub mod function_score;
pub mod labelled;
pub mod lucene_regexp;
pub mod lucene_string;
pub mod lucene_term;
pub mod match_no_docs;
pub(crate) mod multi_term;
pub mod no_match;
pub mod phrase;
mod query_string;
pub mod term_union;
pub mod terms_set;
mod text;

pub(crate) use text::expand_fields;
pub(crate) mod values;
pub mod wrappers;

use crate::dsl::{self, Query as Ast};
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::{FieldMapping, FieldType, Mapping};
use crate::index::schema::ID;
use lucene_term::LuceneTermQuery;
use tantivy::query::{AllQuery, BooleanQuery, EmptyQuery, Occur, Query, RegexQuery};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};
use term_union::TermUnionQuery;

pub type Q = Box<dyn Query>;

/// What a query is built against: one shard's searcher and its index's mapping.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub searcher: &'a Searcher,
    pub mapping: &'a Mapping,
    pub index: &'a str,
    pub index_uuid: &'a str,
    /// Constant-score queries carry Lucene's text of what they stand for, for an explanation
    /// (`lucene_string`); searches skip the formatting.
    pub describe: bool,
    /// Queries OpenSearch would print other than by the terms they hold (fuzzy, phrase
    /// prefix, blended terms) carry that text (`labelled`), only where a query is printed or
    /// read (`_validate`, explanation texts, query-string highlighting), never run: the label
    /// hides the query's type from the search planner.
    pub label: bool,
    /// Texts are of the query as parsed (`_validate`), not as Lucene rewrites it for a search
    /// (explanations): the two differ where a rewrite wraps a clause.
    pub parsed: bool,
}

/// `minimum_should_match` of `n` optional clauses (0 without one), a malformed spec refused as
/// OpenSearch refuses it when it creates the query.
pub(crate) fn min_should(
    cx: &Context,
    spec: Option<&dsl::MinimumShouldMatch>,
    n: usize,
) -> Result<usize> {
    spec.map_or(Ok(0), |m| m.resolve(n).map_err(|e| cx.create_failure(e)))
}

impl<'a> Context<'a> {
    /// The context of one of the index's shards.
    pub fn of(searcher: &'a Searcher, meta: &'a crate::index::index_service::IndexMeta) -> Self {
        Context {
            searcher,
            mapping: &meta.mapping,
            index: &meta.name,
            index_uuid: meta.settings.uuid(),
            describe: false,
            label: false,
            parsed: false,
        }
    }

    /// The same context, building constant-score queries with their descriptions.
    pub fn describing(self) -> Self {
        Context {
            describe: true,
            ..self
        }
    }

    /// The same context, building what `_validate` prints: descriptions and labels of the
    /// query as parsed.
    pub fn validating(self) -> Self {
        Context {
            parsed: true,
            ..self.labelling()
        }
    }

    /// The same context, building descriptions and labels (to print a query, not to run it).
    pub fn labelling(self) -> Self {
        Context {
            describe: true,
            label: true,
            ..self
        }
    }

    /// A `query_shard_exception` for this index.
    pub fn shard_error(&self, reason: impl Into<String>) -> Error {
        Error::new(ErrorKind::QueryShard, reason)
            .with("index", self.index)
            .with("index_uuid", self.index_uuid)
    }

    /// How the shard reports `cause` thrown while it builds the query:
    /// `failed to create query: <reason>`, caused by it (a shard's own exception passes as it is,
    /// as `QueryShardContext.toQuery` lets it).
    pub fn create_failure(&self, cause: Error) -> Error {
        if cause.kind == ErrorKind::QueryShard {
            return cause;
        }
        self.shard_error(format!("failed to create query: {}", cause.reason))
            .caused_by(cause)
    }

    /// A mapped, indexed leaf and its tantivy field.
    fn field(&self, name: &str) -> Option<(Field, &FieldMapping)> {
        let fm = self.mapping.field(name)?;
        let f = self.searcher.schema().get_field(name).ok()?;
        Some((f, fm))
    }

    fn id_field(&self) -> Field {
        self.searcher.schema().get_field(ID).expect("_id field")
    }
}

pub fn none() -> Q {
    Box::new(EmptyQuery)
}

/// What a lenient query builds on a field it cannot query (`e`, the failure it swallows):
/// Lucene's `MatchNoDocsQuery`, with its reason where the context describes.
fn lenient_none(cx: &Context, field: &str, e: &Error) -> Q {
    if cx.describe {
        Box::new(match_no_docs::MatchNoDocs::new(
            match_no_docs::lenient_failure(field, e),
        ))
    } else {
        none()
    }
}

/// Every document, scoring `boost` (a constant scorer, which boolean weights keep).
pub fn all(boost: f32) -> Q {
    Box::new(constant::ConstantQuery::new(Box::new(AllQuery), boost))
}

pub fn boosted(q: Q, boost: f32) -> Q {
    if boost == 1.0 {
        q
    } else {
        Box::new(wrappers::BoostedQuery::new(q, boost))
    }
}

fn constant(q: Q, boost: f32) -> Q {
    Box::new(constant::ConstantQuery::new(q, boost))
}

/// `q` with Lucene's text of what it stands for, when the context asks for descriptions and
/// `q` is a constant-score query (`match_none` and the like stay as they are).
fn describe(cx: &Context, q: Q, text: impl FnOnce() -> Option<constant::Described>) -> Q {
    if !cx.describe {
        return q;
    }
    match q.downcast::<constant::ConstantQuery>() {
        Ok(c) => match text() {
            Some(d) => Box::new((*c).described(d)),
            None => c,
        },
        Err(q) => q,
    }
}

/// `dis_max` as Lucene rewrites it: with a tie breaker of 1 a plain disjunction (summed, its
/// disjunctions flattened into it), except where `_validate` prints the query as parsed.
pub(crate) fn dis_max(cx: &Context, clauses: Vec<Q>, tie: f32) -> Result<Q> {
    // Lucene's `DisjunctionMaxQuery` refuses other multipliers when the shard builds it.
    if !(0.0..=1.0).contains(&tie) {
        return Err(cx.create_failure(Error::illegal_argument(
            "tieBreakerMultiplier must be in [0, 1]",
        )));
    }
    Ok(if tie == 1.0 && !cx.parsed {
        Box::new(combine::SumQuery::new(clauses))
    } else {
        Box::new(combine::DisMaxQuery::new(clauses, tie))
    })
}

/// `q` labelled with Lucene's text of what OpenSearch builds, when the context asks.
fn label(cx: &Context, q: Q, text: impl FnOnce() -> String) -> Q {
    labelled_as(cx, q, text, false)
}

/// `label` for the text of a Lucene `BooleanQuery`, which a parent parenthesises.
fn label_boolean(cx: &Context, q: Q, text: impl FnOnce() -> String) -> Q {
    labelled_as(cx, q, text, true)
}

fn labelled_as(cx: &Context, q: Q, text: impl FnOnce() -> String, boolean: bool) -> Q {
    if cx.label {
        Box::new(labelled::LabelledQuery::new(q, text(), boolean))
    } else {
        q
    }
}

/// `TermInSetQuery` on `_id`, as OpenSearch builds `ids` and terms on `_id`.
fn ids_description<'v>(ids: impl IntoIterator<Item = &'v str>) -> Option<constant::Described> {
    Some(lucene_string::plain(lucene_string::term_set(
        "_id",
        ids.into_iter().map(lucene_string::encode_id),
    )))
}

/// Lucene's `ConstantScoreQuery` around a query, printed alike scored or not.
fn wrapped(filter: &Ast, cx: &Context) -> Option<constant::Described> {
    let text = lucene_string::constant_score(filter, cx).ok()?;
    Some(lucene_string::plain(text))
}

pub fn build(ast: &Ast, cx: &Context) -> Result<Q> {
    let b = ast.boost();
    if b == 0.0 && b.is_sign_positive() {
        // Lucene's `BoostQuery` rewrites a zero boost to a constant score of 0, with no scores
        // to compute, which explanations print as `ConstantScore(…)^0.0`.
        let plain = ast.unboosted();
        let q = build_unchecked(&plain, cx)?;
        if is_none(&q) {
            return Ok(q);
        }
        return Ok(describe(cx, constant(q, 0.0), || {
            lucene_string::zero_boosted(&plain, cx)
                .ok()
                .map(lucene_string::plain)
        }));
    }
    let q = build_unchecked(ast, cx)?;
    // Lucene's `BoostQuery`, which OpenSearch wraps a built query in when its boost is not 1 (a
    // query that became `MatchNoDocsQuery` stays unwrapped), refuses what is not a finite
    // non-negative float: checked after the query's own clauses are built, so the innermost
    // bad boost is the one reported.
    if b != 1.0 && (!b.is_finite() || b.is_sign_negative()) && !is_none(&q) {
        return Err(cx.create_failure(Error::illegal_argument(format!(
            "boost must be a positive float, got {}",
            function_score::java_float(b)
        ))));
    }
    Ok(q)
}

pub(crate) fn is_none(q: &Q) -> bool {
    match_no_docs::is_match_no_docs(q.as_ref())
}

fn build_unchecked(ast: &Ast, cx: &Context) -> Result<Q> {
    Ok(match ast {
        // Described, so a boost from above folds into its text (`*:*^2.0`) as Lucene's does.
        Ast::MatchAll { boost } => describe(cx, all(*boost), || {
            Some(lucene_string::plain("*:*".to_string()))
        }),
        Ast::MatchNone { .. } => none(),
        Ast::Term {
            field,
            value,
            boost,
            case_insensitive,
        } => term(cx, field, value, *boost, *case_insensitive)?,
        Ast::Terms {
            field,
            values,
            lookup: None,
            boost,
        } => terms(cx, field, values, *boost)?,
        // A lookup is resolved before the query is built (`api::terms_lookup`); `_explain`
        // runs none, as OpenSearch's does not.
        Ast::Terms {
            lookup: Some(_), ..
        } => {
            return Err(cx.create_failure(Error::new(
                ErrorKind::IllegalState,
                "async actions are left after rewrite",
            )))
        }
        Ast::Range(r) => values::range(cx, r)?,
        Ast::Exists { field, boost } => exists(cx, field, *boost),
        Ast::Ids { values, boost } => {
            if values.iter().any(String::is_empty) {
                // `Uid.encodeId`, as the shard turns the ids into terms.
                return Err(cx.create_failure(Error::illegal_argument("Ids can't be empty")));
            }
            let f = cx.id_field();
            let q = constant(
                Box::new(TermUnionQuery::new(
                    values.iter().map(|v| Term::from_field_text(f, v)),
                )),
                *boost,
            );
            describe(cx, q, || ids_description(values.iter().map(String::as_str)))
        }
        Ast::Prefix {
            field,
            value,
            boost,
            case_insensitive,
            rewrite,
        } => match multi_term::scoring(multi_term::check_rewrite(
            cx,
            rewrite.as_deref(),
            multi_term::runs_rewrite,
        )?) {
            Some(r) => {
                let re = prefix_regex(value, *case_insensitive);
                let text =
                    (!*case_insensitive && field != "_id").then(|| format!("{field}:{value}*"));
                scored_multi_term(cx, "prefix", field, &re, r, *boost, text)?
            }
            None => prefix(cx, field, value, *boost, *case_insensitive)?,
        },
        Ast::Bool(b) => bool_query(cx, b)?,
        Ast::Match(m) => text::match_query(cx, m)?,
        Ast::MatchBoolPrefix(m) => text::match_bool_prefix(cx, m)?,
        Ast::MatchPhrase(p) => text::match_phrase(cx, p)?,
        Ast::MultiMatch(m) => text::multi_match(cx, m)?,
        Ast::Wildcard(w) => {
            let rewrite =
                multi_term::check_rewrite(cx, w.rewrite.as_deref(), multi_term::runs_rewrite)?;
            let re = multi_term::wildcard_regex(&w.value);
            let text = || format!("{}:{}", w.field, w.value);
            let (ci, boost) = (w.case_insensitive, w.boost);
            pattern_query(cx, "wildcard", &w.field, &re, ci, rewrite, boost, text)?
        }
        Ast::Regexp(r) => {
            let rewrite =
                multi_term::check_rewrite(cx, r.rewrite.as_deref(), multi_term::runs_rewrite)?;
            // A numeric field refuses before the pattern is read; an unmapped one reads it.
            multi_term_field(cx, "regexp", &r.field)?;
            match lucene_regexp::translate(&r.value, r.flags) {
                Ok(Some(re)) => {
                    let text = || format!("{}:/{}/", r.field, r.value);
                    let (ci, boost) = (r.case_insensitive, r.boost);
                    pattern_query(cx, "regexp", &r.field, &re, ci, rewrite, boost, text)?
                }
                Ok(None) => none(),
                Err(refusal) => return Err(cx.create_failure(refusal.error())),
            }
        }
        Ast::Fuzzy(fz) => fuzzy(cx, fz)?,
        Ast::Boosting {
            positive,
            negative,
            negative_boost,
            boost,
        } => {
            let texts = if cx.describe {
                let (positive, negative_text) =
                    lucene_string::boosting_texts(positive, negative, cx)?;
                Some(boosting::BoostingTexts {
                    positive,
                    negative: negative_text,
                    matched: lucene_string::render(negative, cx)?.0,
                })
            } else {
                None
            };
            Box::new(boosting::BoostingQuery {
                positive: build(positive, cx)?,
                negative: build(negative, cx)?,
                negative_boost: *negative_boost,
                boost: *boost,
                texts,
            })
        }
        Ast::QueryString(q) => query_string::query_string(cx, q)?,
        Ast::SimpleQueryString(q) => query_string::simple_query_string(cx, q)?,
        Ast::FunctionScore(f) if no_match::rewrites_to_none(cx, &f.query) => none(),
        Ast::FunctionScore(f) => function_score::build_function_score(cx, f)?,
        Ast::TermsSet(t) => terms_set::build_terms_set(cx, t)?,
        Ast::ConstantScore { filter, boost } => {
            let q = constant(build(filter, cx)?, *boost);
            describe(cx, q, || wrapped(filter, cx))
        }
        Ast::DisMax {
            queries,
            tie_breaker,
            boost,
        } => {
            let qs = queries
                .iter()
                .map(|q| build(q, cx))
                .collect::<Result<Vec<_>>>()?;
            boosted(dis_max(cx, qs, *tie_breaker)?, *boost)
        }
    })
}

fn term(cx: &Context, field: &str, value: &serde_json::Value, boost: f32, ci: bool) -> Result<Q> {
    if field == ID || field == "_id" {
        let text = values::text_of(value);
        let f = cx.id_field();
        let q = constant(
            Box::new(TermUnionQuery::new([Term::from_field_text(f, &text)])),
            boost,
        );
        return Ok(describe(cx, q, || ids_description([text.as_str()])));
    }
    let Some((f, fm)) = cx.field(field) else {
        return Ok(none());
    };
    match fm.ty {
        FieldType::Text | FieldType::Keyword => {
            let text = values::text_of(value);
            let text = crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text);
            if ci {
                let re = format!("(?i){}", regex_escape(&text));
                return Ok(constant(Box::new(RegexQuery::from_pattern(&re, f)?), boost));
            }
            Ok(Box::new(
                LuceneTermQuery::new(Term::from_field_text(f, &text)).with_boost(boost),
            ))
        }
        FieldType::Boolean => {
            let b = values::boolean(cx, value)?;
            Ok(Box::new(
                LuceneTermQuery::new(Term::from_field_bool(f, b)).with_boost(boost),
            ))
        }
        _ => Ok(
            match values::exact_bounds(cx, f, fm, value, values::StringsAs::Bytes)? {
                Some((lo, hi)) => {
                    let q = constant(values::exact_query(lo.clone(), hi.clone()), boost);
                    describe(cx, q, || {
                        values::describe_points(cx, field, f, fm, &lo, &hi)
                    })
                }
                None => none(),
            },
        ),
    }
}

fn terms(cx: &Context, field: &str, vals: &[serde_json::Value], boost: f32) -> Result<Q> {
    if field == "_id" {
        let f = cx.id_field();
        let ids: Vec<String> = vals.iter().map(values::text_of).collect();
        let q = constant(
            Box::new(TermUnionQuery::new(
                ids.iter().map(|v| Term::from_field_text(f, v)),
            )),
            boost,
        );
        return Ok(describe(cx, q, || {
            ids_description(ids.iter().map(String::as_str))
        }));
    }
    let Some((f, fm)) = cx.field(field) else {
        return Ok(none());
    };
    let set: Q = match fm.ty {
        FieldType::Text | FieldType::Keyword => {
            let texts: Vec<String> = vals
                .iter()
                .map(|v| {
                    let text = values::text_of(v);
                    crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text).into_owned()
                })
                .collect();
            let q = constant(
                Box::new(TermUnionQuery::new(
                    texts.iter().map(|t| Term::from_field_text(f, t)),
                )),
                boost,
            );
            return Ok(describe(cx, q, || {
                Some(lucene_string::plain(lucene_string::term_set(
                    field,
                    texts.iter().map(|t| t.as_bytes().to_vec()),
                )))
            }));
        }
        FieldType::Boolean => {
            // OpenSearch's boolean `termsQuery`: one value is that value's scored term, both
            // are an exists query (Lucene's FieldExistsQuery, no ConstantScore around it).
            let mut bs = vals
                .iter()
                .map(|v| values::boolean(cx, v))
                .collect::<Result<Vec<_>>>()?;
            bs.sort_unstable();
            bs.dedup();
            match bs.as_slice() {
                [b] => {
                    return Ok(Box::new(
                        LuceneTermQuery::new(Term::from_field_bool(f, *b)).with_boost(boost),
                    ))
                }
                [_, _] => {
                    let q = exists(cx, field, boost);
                    return Ok(describe(cx, q, || {
                        Some(exists_description(cx, field, false))
                    }));
                }
                _ => Box::new(TermUnionQuery::new(Vec::<Term>::new())),
            }
        }
        _ => {
            let mut clauses = Vec::new();
            let mut spans = Vec::new();
            for v in vals {
                if let Some((lo, hi)) =
                    values::exact_bounds(cx, f, fm, v, values::StringsAs::Bytes)?
                {
                    if cx.describe {
                        spans.push((lo.clone(), hi.clone()));
                    }
                    clauses.push((Occur::Should, values::exact_query(lo, hi)));
                }
            }
            let q = constant(Box::new(BooleanQuery::new(clauses)), boost);
            return Ok(describe(cx, q, || {
                let doc_values = cx.searcher.schema().get_field_entry(f).is_fast();
                if fm.ty == FieldType::Date {
                    return lucene_string::date_set(field, &spans, doc_values)
                        .map(lucene_string::plain);
                }
                let points: Vec<Term> = spans
                    .into_iter()
                    .filter_map(|(lo, _)| match lo {
                        std::ops::Bound::Included(t) => Some(t),
                        _ => None,
                    })
                    .collect();
                lucene_string::point_set(field, fm.ty, &points)
                    .map(|texts| lucene_string::points(texts, doc_values))
            }));
        }
    };
    Ok(constant(set, boost))
}

/// The fields an `exists` query looks at (OpenSearch's `getMappedField`): a pattern's mapped
/// fields, an object's fields under it, else the field itself if mapped; in the order of the
/// `HashSet` OpenSearch gathers a pattern's fields into.
pub(crate) fn exists_fields(cx: &Context, field: &str) -> Vec<String> {
    if !field.contains('*') && cx.mapping.field(field).is_some() {
        return vec![field.to_string()];
    }
    let pattern = if field.contains('*') {
        field.to_string()
    } else {
        format!("{field}.*")
    };
    let mut out: Vec<(String, ())> = cx
        .mapping
        .leaves()
        .into_iter()
        .filter(|l| crate::metadata::target::glob_match(&pattern, &l.path))
        .map(|l| (l.path, ()))
        .collect();
    out.sort();
    crate::util::java_hash::hash_order(&mut out);
    out.into_iter().map(|(f, _)| f).collect()
}

fn exists(cx: &Context, field: &str, boost: f32) -> Q {
    if field == "_id" {
        return all(boost);
    }
    let fields = exists_fields(cx, field);
    match fields.as_slice() {
        [] => return none(),
        [one] if one != field => return exists(cx, one, boost),
        [_] => {}
        many => {
            // A constant score over a disjunction of each field's `exists`.
            let clauses = many
                .iter()
                .map(|f| (Occur::Should, exists(cx, f, 1.0)))
                .collect();
            let q = constant(Box::new(BooleanQuery::new(clauses)), boost);
            let object = !field.contains('*');
            return describe(cx, q, || Some(exists_any_description(cx, many, object)));
        }
    }
    let Some((f, _)) = cx.field(field) else {
        return none();
    };
    let entry = cx.searcher.schema().get_field_entry(f);
    let q = if entry.is_fast() {
        constant(
            Box::new(constant::ColumnExistsQuery::new(field.to_string())),
            boost,
        )
    } else {
        match RegexQuery::from_pattern(".*", f) {
            Ok(q) => constant(Box::new(q), boost),
            Err(_) => none(),
        }
    };
    describe(cx, q, || Some(exists_description(cx, field, true)))
}

/// Lucene's FieldExistsQuery on `field`, inside OpenSearch's ConstantScoreQuery when `wrapped`
/// (the `exists` query); a scored search rewrites it to `*:*` when every doc of the shard has
/// the field.
fn exists_description(cx: &Context, field: &str, wrapped: bool) -> constant::Described {
    let wrap = |s: String| {
        if wrapped {
            format!("ConstantScore({s})")
        } else {
            s
        }
    };
    let unscored = wrap(format!("FieldExistsQuery [field={field}]"));
    constant::Described::Leaf {
        scored: if in_every_doc(cx, field) {
            wrap("*:*".to_string())
        } else {
            unscored.clone()
        },
        unscored,
    }
}

/// Whether every doc of the shard has a value for the mapped field `name`.
pub(crate) fn in_every_doc(cx: &Context, name: &str) -> bool {
    cx.field(name).is_some_and(|(f, _)| {
        let fast = cx.searcher.schema().get_field_entry(f).is_fast();
        values::in_every_doc(cx, f, fast)
    })
}

/// `exists` on several fields: its text as parsed, and as a scored search's rewrite leaves it
/// (the disjunction's clauses unwrapped). A pattern's fields are each in a constant score,
/// an object's are not (`newObjectFieldExistsQuery`).
fn exists_any_description(cx: &Context, fields: &[String], object: bool) -> constant::Described {
    let clauses: Vec<String> = fields
        .iter()
        .map(|f| {
            if object {
                format!("FieldExistsQuery [field={f}]")
            } else {
                format!("ConstantScore(FieldExistsQuery [field={f}])")
            }
        })
        .collect();
    constant::Described::Leaf {
        scored: format!(
            "ConstantScore({})",
            exists_any_rewritten(cx, fields).join(" ")
        ),
        unscored: format!("ConstantScore({})", clauses.join(" ")),
    }
}

/// The clauses Lucene's rewrite leaves of `exists` on several fields, where scores are not
/// wanted: each field's `FieldExistsQuery`, a field every doc has as `*:*` (once: the boolean
/// rewrite merges equal optional clauses).
pub(crate) fn exists_any_rewritten(cx: &Context, fields: &[String]) -> Vec<String> {
    let mut clauses: Vec<String> = Vec::new();
    for f in fields {
        let text = if in_every_doc(cx, f) {
            "*:*".to_string()
        } else {
            format!("FieldExistsQuery [field={f}]")
        };
        if !clauses.contains(&text) {
            clauses.push(text);
        }
    }
    clauses
}

fn prefix(cx: &Context, field: &str, value: &str, boost: f32, ci: bool) -> Result<Q> {
    let Some(f) = multi_term_field(cx, "prefix", field)? else {
        return Ok(none());
    };
    let doc_values = cx.field(field).is_some_and(|(_, fm)| {
        fm.ty == FieldType::Keyword && fm.index && fm.doc_values && field != "_id"
    });
    let re = prefix_regex(value, ci);
    let q = if doc_values && !ci {
        constant(
            Box::new(constant::KeywordPrefixQuery::new(field, value, f, re)),
            boost,
        )
    } else {
        constant(Box::new(RegexQuery::from_pattern(&re, f)?), boost)
    };
    Ok(describe(cx, q, || {
        (!ci && field != "_id").then(|| lucene_string::plain(format!("{field}:{value}*")))
    }))
}

fn prefix_regex(value: &str, ci: bool) -> String {
    case_folded(&format!("{}.*", regex_escape(value)), ci)
}

fn case_folded(re: &str, ci: bool) -> String {
    if ci {
        format!("(?i){re}")
    } else {
        re.to_string()
    }
}

/// OpenSearch's refusal of a `kind` query (prefix, wildcard, fuzzy…) on a field of type `ty`,
/// which indexes no terms.
pub(crate) fn terms_only(kind: &str, field: &str, ty: &str) -> String {
    format!(
        "Can only use {kind} queries on keyword and text fields - not on [{field}] which is of type [{ty}]"
    )
}

/// The field a prefix, wildcard or regexp runs on: `_id`, or a mapped keyword or text field
/// (`None` when unmapped: the query matches nothing).
fn multi_term_field(cx: &Context, kind: &str, field: &str) -> Result<Option<Field>> {
    if field == "_id" {
        return Ok(Some(cx.id_field()));
    }
    match cx.field(field) {
        Some((f, fm)) if matches!(fm.ty, FieldType::Text | FieldType::Keyword) => Ok(Some(f)),
        Some((_, fm)) => Err(cx.shard_error(terms_only(kind, field, fm.ty.name()))),
        None => Ok(None),
    }
}

/// A prefix, wildcard or regexp under a rewrite that scores its terms
/// (`multi_term::scoring_rewrite`), labelled with the query's own Lucene text.
fn scored_multi_term(
    cx: &Context,
    kind: &str,
    field: &str,
    re: &str,
    rewrite: multi_term::Rewrite,
    boost: f32,
    text: Option<String>,
) -> Result<Q> {
    let Some(f) = multi_term_field(cx, kind, field)? else {
        return Ok(none());
    };
    let q = multi_term::scoring_rewrite(cx, f, re, rewrite)?;
    let q = match text {
        Some(t) if cx.parsed => label(cx, q, || t),
        _ => q,
    };
    Ok(boosted(q, boost))
}

/// A wildcard or regexp (already a tantivy regex): its terms scored under a scoring rewrite,
/// else a constant. `text` is its Lucene string, which a case-insensitive one does not print.
#[allow(clippy::too_many_arguments)]
fn pattern_query(
    cx: &Context,
    kind: &str,
    field: &str,
    re: &str,
    ci: bool,
    rewrite: Option<multi_term::Rewrite>,
    boost: f32,
    text: impl FnOnce() -> String,
) -> Result<Q> {
    if let Some(r) = multi_term::scoring(rewrite) {
        let re = case_folded(re, ci);
        return scored_multi_term(cx, kind, field, &re, r, boost, (!ci).then(text));
    }
    let q = multi_term_leaf(cx, kind, field, re, ci, boost)?;
    Ok(describe(cx, q, || {
        (!ci).then(|| lucene_string::plain(text()))
    }))
}

/// A wildcard or regexp (already a tantivy regex) on a keyword or text field, constant score.
fn multi_term_leaf(
    cx: &Context,
    kind: &str,
    field: &str,
    re: &str,
    ci: bool,
    boost: f32,
) -> Result<Q> {
    let Some(f) = multi_term_field(cx, kind, field)? else {
        return Ok(none());
    };
    multi_term::regex_query(f, &case_folded(re, ci), boost)
}

fn fuzzy(cx: &Context, q: &dsl::term_level::FuzzyQuery) -> Result<Q> {
    let Some((f, fm)) = cx.field(&q.field) else {
        return Ok(none());
    };
    if !matches!(fm.ty, FieldType::Text | FieldType::Keyword) {
        return Err(cx.create_failure(Error::illegal_argument(terms_only(
            "fuzzy",
            &q.field,
            fm.ty.name(),
        ))));
    }
    let refused = if q.prefix_length < 0 {
        Some("prefixLength cannot be negative.")
    } else if q.max_expansions <= 0 {
        Some("maxExpansions must be positive.")
    } else {
        None
    };
    if let Some(reason) = refused {
        return Err(cx.create_failure(Error::illegal_argument(reason)));
    }
    let rewrite = multi_term::check_rewrite(cx, q.rewrite.as_deref(), multi_term::runs_rewrite)?;
    let text = values::text_of(&q.value);
    let p = multi_term::FuzzyParams {
        edits: q.fuzziness.edits(text.chars().count()),
        prefix_length: q.prefix_length as usize,
        max_expansions: q.max_expansions as usize,
        transpositions: q.transpositions,
        rewrite,
    };
    Ok(boosted(multi_term::fuzzy(cx, f, &text, &p)?, q.boost))
}

pub fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The boolean Lucene's rewrite reshapes, as it reshapes it (explanations show the new shape;
/// scores are the same): a filter that is also a required or an optional clause, or one
/// scoring clause that is a required `match_all` beside filters.
pub(crate) fn rewritten_bool(b: &dsl::BoolQuery) -> Option<Ast> {
    filter_also_required(b)
        .or_else(|| filter_also_optional(b))
        .or_else(|| constant_over_filters(b))
}

/// A filter that is also a required clause is gone.
fn filter_also_required(b: &dsl::BoolQuery) -> Option<Ast> {
    let also_required = |f: &Ast| b.must.contains(&f.unboosted());
    if !b.filter.iter().any(also_required) {
        return None;
    }
    Some(Ast::Bool(dsl::BoolQuery {
        filter: b
            .filter
            .iter()
            .filter(|f| !also_required(f))
            .cloned()
            .collect(),
        ..b.clone()
    }))
}

/// An optional clause that is also a filter is required instead, the filter gone and the
/// minimum one less.
fn filter_also_optional(b: &dsl::BoolQuery) -> Option<Ast> {
    let also_filter = |q: &Ast| b.filter.iter().any(|f| f.unboosted() == *q);
    if !b.should.iter().any(also_filter) {
        return None;
    }
    let msm = match &b.minimum_should_match {
        Some(m) => m.resolve(b.should.len()).ok()?,
        None => 0,
    };
    let (required, should): (Vec<Ast>, Vec<Ast>) =
        b.should.iter().cloned().partition(|q| also_filter(q));
    let msm = msm.saturating_sub(required.len());
    Some(Ast::Bool(dsl::BoolQuery {
        must: b.must.iter().cloned().chain(required).collect(),
        filter: b
            .filter
            .iter()
            .filter(|f| !b.should.contains(&f.unboosted()))
            .cloned()
            .collect(),
        should,
        must_not: b.must_not.clone(),
        minimum_should_match: (msm > 0).then(|| dsl::MinimumShouldMatch(msm.to_string())),
        boost: b.boost,
        lucene: b.lucene,
    }))
}

/// A boolean whose one scoring clause is a required `match_all` beside filters is a constant
/// score of the filters and exclusions at that clause's boost, required beside the optional
/// clauses if any.
fn constant_over_filters(b: &dsl::BoolQuery) -> Option<Ast> {
    let [Ast::MatchAll { boost }] = b.must.as_slice() else {
        return None;
    };
    // Filters matching everything go first; a filter also excluded is another of the
    // rewrite's cases.
    let filter: Vec<Ast> = b
        .filter
        .iter()
        .filter(|f| !matches!(f, Ast::MatchAll { .. }))
        .cloned()
        .collect();
    let clash = |f: &Ast| {
        let f = f.unboosted();
        b.must_not.iter().any(|n| n.unboosted() == f)
    };
    if *boost == 0.0 || filter.is_empty() || filter.iter().any(clash) {
        return None;
    }
    let filters = Ast::Bool(dsl::BoolQuery {
        must: Vec::new(),
        should: Vec::new(),
        filter,
        must_not: b.must_not.clone(),
        minimum_should_match: None,
        boost: 1.0,
        lucene: false,
    });
    let constant = |boost: f32| Ast::ConstantScore {
        filter: Box::new(filters),
        boost,
    };
    Some(if b.should.is_empty() {
        constant(boost * b.boost)
    } else {
        Ast::Bool(dsl::BoolQuery {
            must: vec![constant(*boost)],
            should: b.should.clone(),
            filter: Vec::new(),
            must_not: Vec::new(),
            minimum_should_match: b.minimum_should_match.clone(),
            boost: b.boost,
            lucene: b.lucene,
        })
    })
}

fn bool_query(cx: &Context, b: &dsl::BoolQuery) -> Result<Q> {
    // `BoolQueryBuilder.doRewrite`: a required clause rewritten to match_none is the whole
    // query's, before anything else of it is built (or refused).
    if !b.lucene
        && b.must
            .iter()
            .chain(&b.filter)
            .any(|q| no_match::rewrites_to_none(cx, q))
    {
        return Ok(none());
    }
    if cx.describe && !cx.parsed {
        if let Some(rewritten) = rewritten_bool(b) {
            return build(&rewritten, cx);
        }
    }
    // Lucene rewrites a boolean of one scoring clause to that clause (which its explanation
    // shows: no "sum of" around it).
    if let ([only], []) | ([], [only]) = (b.must.as_slice(), b.should.as_slice()) {
        if b.filter.is_empty() && b.must_not.is_empty() {
            let q = build(only, cx)?;
            if min_should(cx, b.minimum_should_match.as_ref(), b.should.len())? <= b.should.len() {
                return Ok(boosted(q, b.boost));
            }
            return Ok(none());
        }
    }
    let mut clauses: Vec<(Occur, Q)> = Vec::new();
    for q in &b.must {
        clauses.push((Occur::Must, build(q, cx)?));
    }
    if b.filter.len() == 1
        && b.must.is_empty()
        && b.should.is_empty()
        && b.must_not.is_empty()
        && min_should(cx, b.minimum_should_match.as_ref(), 0)? == 0
    {
        // Lucene rewrites a lone filter to a constant score of 0 (and prints it so), whatever
        // the boolean's boost (a boost of 0 times it).
        let filter = &b.filter[0];
        let q = constant(build(filter, cx)?, 0.0);
        return Ok(describe(cx, q, || wrapped(filter, cx)));
    }
    // OpenSearch's clause order (filters after the scoring clauses), which explanations show.
    for q in &b.should {
        clauses.push((Occur::Should, build(q, cx)?));
    }
    for q in &b.filter {
        let c = constant(build(q, cx)?, 0.0);
        let c = describe(cx, c, || {
            lucene_string::unscored_clause(q, cx)
                .ok()
                .map(|(text, _)| constant::Described::FilterClause(text))
        });
        clauses.push((Occur::Must, c));
    }
    for q in &b.must_not {
        clauses.push((Occur::MustNot, build(q, cx)?));
    }
    if clauses.is_empty() {
        return Ok(all(b.boost));
    }
    let required = !b.must.is_empty() || !b.filter.is_empty();
    let msm = match &b.minimum_should_match {
        // A pure negative is rebuilt around its match_all without the minimum
        // (`Queries.fixNegativeQueryIfNeeded`), which is still read.
        Some(m) if !required && b.should.is_empty() => min_should(cx, Some(m), 0).map(|_| 0)?,
        Some(m) => min_should(cx, Some(m), b.should.len())?,
        None if !required && !b.should.is_empty() => 1,
        None => 0,
    };
    if msm > b.should.len() {
        return Ok(none());
    }
    if !required && b.should.is_empty() {
        // Pure negative: OpenSearch adds match_all as a filter, so matches score 0.
        let all = constant(Box::new(AllQuery), 0.0);
        let all = describe(cx, all, || {
            Some(constant::Described::FilterClause("*:*".to_string()))
        });
        clauses.push((Occur::Must, all));
    }
    if b.must.len() == 1 && b.should.is_empty() && clauses.len() > 1 && b.boost == 1.0 {
        // One scoring clause beside filters and exclusions: its pruned top-k, gated.
        if block_max::prunable(clauses[0].1.as_ref()) {
            let mut it = clauses.into_iter().map(|(_, q)| q);
            let scoring = it.next().expect("the must clause");
            let filters = it.by_ref().take(b.filter.len()).collect();
            return Ok(Box::new(filtered::FilteredQuery::new(
                scoring,
                filters,
                it.collect(),
            )));
        }
    }
    if !required && b.must_not.is_empty() && msm <= 1 {
        // Should clauses alone: Lucene's disjunction, summed in double and pruned for top-k.
        let should = clauses.into_iter().map(|(_, q)| q).collect();
        return Ok(boosted(Box::new(combine::SumQuery::new(should)), b.boost));
    }
    let q = if msm > 0 {
        BooleanQuery::with_minimum_required_clauses(clauses, msm)
    } else {
        let mut q = BooleanQuery::new(clauses);
        q.set_minimum_number_should_match(0);
        q
    };
    Ok(boosted(Box::new(q), b.boost))
}

/// Whether a fresh `docs` holds `doc`, leaving it there if so. tantivy leaves a seek behind
/// the current doc undefined (its match-all scorer goes back), and a fresh scorer already
/// stands on its first doc, past the excluded ones.
pub(crate) fn reaches<S: tantivy::DocSet + ?Sized>(docs: &mut S, doc: tantivy::DocId) -> bool {
    let at = docs.doc();
    at == doc || (at < doc && docs.seek(doc) == doc)
}

/// A leaf's scorer on `doc` for its explanation. A miss is an error, as tantivy's own leaves
/// answer it: enclosing boolean weights then leave the clause out, as Lucene leaves out a
/// no-match explanation, and a top-level miss prints "no matching term".
pub(crate) fn positioned_on<S: tantivy::DocSet>(
    scorer: Option<S>,
    doc: tantivy::DocId,
) -> tantivy::Result<S> {
    if let Some(mut s) = scorer {
        if reaches(&mut s, doc) {
            return Ok(s);
        }
    }
    Err(tantivy::TantivyError::InvalidArgument(format!(
        "Document #({doc}) does not match"
    )))
}
