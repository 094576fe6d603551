//! Full-text queries: `match`, `match_phrase`, `multi_match`, analysed with the field's search
//! analyzer (or the query's `analyzer`) through the index's tokenizer manager.

use super::lucene_term::LuceneTermQuery;
use super::{all, boosted, none, Context, Q};
use crate::analysis::tokenizer_name;
use crate::dsl::{
    MatchPhraseQuery, MatchQuery, MultiMatchQuery, MultiMatchType, Operator, ZeroTerms,
};
use crate::error::{Error, Result};
use crate::index::mapping::FieldType;
use crate::metadata::target::glob_match;
use serde_json::Value;
use tantivy::query::{BooleanQuery, BoostQuery, DisjunctionMaxQuery, Occur, PhraseQuery};
use tantivy::schema::Field;
use tantivy::Term;

/// `(position, token)` pairs of `text` under an analyzer.
pub(super) fn analyze(cx: &Context, analyzer: &str, text: &str) -> Result<Vec<(usize, String)>> {
    let name = tokenizer_name(analyzer);
    let mut a = cx.searcher.index().tokenizers().get(name).ok_or_else(|| {
        Error::illegal_argument(format!(
            "analyzer [{analyzer}] has not been configured in mappings"
        ))
    })?;
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push((t.position, t.text.clone()));
    }
    Ok(out)
}

fn zero(z: ZeroTerms) -> Q {
    match z {
        ZeroTerms::None => none(),
        ZeroTerms::All => all(1.0),
    }
}

struct TextParams<'a> {
    field: &'a str,
    query: &'a Value,
    analyzer: Option<&'a str>,
    operator: Operator,
    msm: Option<&'a crate::dsl::MinimumShouldMatch>,
    zero_terms: ZeroTerms,
    lenient: bool,
    /// `match` with `fuzziness`: each term a fuzzy query (edits per term length).
    fuzzy: Option<&'a MatchQuery>,
}

/// The `match` query on one field, before its boost.
fn match_field(cx: &Context, p: &TextParams) -> Result<Q> {
    let Some((f, fm)) = cx.field(p.field) else {
        return Ok(none());
    };
    let text = super::values::text_of(p.query);
    match fm.ty {
        FieldType::Text => {
            let analyzer = p.analyzer.unwrap_or(&fm.search_analyzer);
            let tokens = analyze(cx, analyzer, &text)?;
            terms_query(cx, f, tokens, p)
        }
        FieldType::Keyword => {
            let t = crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text);
            leaf(cx, f, &t, p)
        }
        FieldType::Boolean => match super::values::boolean(cx, p.query) {
            Ok(b) => Ok(Box::new(LuceneTermQuery::new(Term::from_field_bool(f, b)))),
            Err(_) if p.lenient => Ok(none()),
            Err(e) => Err(e),
        },
        _ => match super::values::exact(cx, f, fm, p.query) {
            Ok(Some(q)) => Ok(Box::new(tantivy::query::ConstScoreQuery::new(q, 1.0))),
            Ok(None) => Ok(none()),
            Err(_) if p.lenient => Ok(none()),
            Err(e) => Err(e),
        },
    }
}

/// One term of a `match`: exact, or fuzzy when `fuzziness` is given.
fn leaf(cx: &Context, f: Field, t: &str, p: &TextParams) -> Result<Q> {
    match p.fuzzy {
        Some(m) if m.fuzziness.is_some() => {
            let fz = m.fuzziness.expect("fuzziness");
            let params = super::multi_term::FuzzyParams {
                edits: fz.edits(t.chars().count()),
                prefix_length: m.prefix_length,
                max_expansions: m.max_expansions,
                transpositions: m.fuzzy_transpositions,
            };
            super::multi_term::fuzzy(cx, f, t, &params)
        }
        _ => Ok(Box::new(LuceneTermQuery::new(Term::from_field_text(f, t)))),
    }
}

fn terms_query(cx: &Context, f: Field, tokens: Vec<(usize, String)>, p: &TextParams) -> Result<Q> {
    if tokens.is_empty() {
        return Ok(zero(p.zero_terms));
    }
    let mut leaves: Vec<Q> = tokens
        .iter()
        .map(|(_, t)| leaf(cx, f, t, p))
        .collect::<Result<Vec<_>>>()?;
    if leaves.len() == 1 {
        return Ok(leaves.pop().expect("one leaf"));
    }
    let n = leaves.len();
    Ok(match p.operator {
        Operator::And => Box::new(BooleanQuery::new(
            leaves.into_iter().map(|q| (Occur::Must, q)).collect(),
        )),
        Operator::Or => {
            let msm = p
                .msm
                .map(|m| m.resolve(n))
                .transpose()
                .unwrap_or(None)
                .unwrap_or(0);
            let clauses = leaves.into_iter().map(|q| (Occur::Should, q)).collect();
            if msm > 1 {
                Box::new(BooleanQuery::with_minimum_required_clauses(clauses, msm))
            } else {
                Box::new(BooleanQuery::new(clauses))
            }
        }
    })
}

pub fn match_query(cx: &Context, m: &MatchQuery) -> Result<Q> {
    let q = match_field(
        cx,
        &TextParams {
            field: &m.field,
            query: &m.query,
            analyzer: m.analyzer.as_deref(),
            operator: m.operator,
            msm: m.minimum_should_match.as_ref(),
            zero_terms: m.zero_terms_query,
            lenient: m.lenient,
            fuzzy: Some(m),
        },
    )?;
    Ok(boosted(q, m.boost))
}

/// `match_bool_prefix`: the analysed terms as `match` would query them, the last one a prefix
/// (constant score, as Lucene's rewritten prefix query scores inside the boolean).
pub fn match_bool_prefix(cx: &Context, m: &MatchQuery) -> Result<Q> {
    let Some((f, fm)) = cx.field(&m.field) else {
        return Ok(none());
    };
    let text = super::values::text_of(&m.query);
    let tokens: Vec<String> = match fm.ty {
        FieldType::Text => {
            let analyzer = m.analyzer.as_deref().unwrap_or(&fm.search_analyzer);
            analyze(cx, analyzer, &text)?
                .into_iter()
                .map(|(_, t)| t)
                .collect()
        }
        FieldType::Keyword => {
            vec![crate::analysis::keyword_query_text(cx.searcher.index(), fm, &text).into_owned()]
        }
        _ => return match_query(cx, m),
    };
    let Some((last, rest)) = tokens.split_last() else {
        return Ok(none());
    };
    let p = TextParams {
        field: &m.field,
        query: &m.query,
        analyzer: m.analyzer.as_deref(),
        operator: m.operator,
        msm: m.minimum_should_match.as_ref(),
        zero_terms: ZeroTerms::None,
        lenient: false,
        fuzzy: Some(m),
    };
    let mut leaves: Vec<Q> = rest
        .iter()
        .map(|t| leaf(cx, f, t, &p))
        .collect::<Result<Vec<_>>>()?;
    leaves.push(super::prefix(cx, &m.field, last, 1.0, false)?);
    let q: Q = if leaves.len() == 1 {
        leaves.pop().expect("one leaf")
    } else {
        let n = leaves.len();
        match m.operator {
            Operator::And => Box::new(BooleanQuery::new(
                leaves.into_iter().map(|q| (Occur::Must, q)).collect(),
            )),
            Operator::Or => {
                let msm = p.msm.map(|x| x.resolve(n)).transpose()?.unwrap_or(0);
                let clauses = leaves.into_iter().map(|q| (Occur::Should, q)).collect();
                if msm > 1 {
                    Box::new(BooleanQuery::with_minimum_required_clauses(clauses, msm))
                } else {
                    Box::new(BooleanQuery::new(clauses))
                }
            }
        }
    };
    Ok(boosted(q, m.boost))
}

fn phrase_field(
    cx: &Context,
    field: &str,
    query: &Value,
    analyzer: Option<&str>,
    slop: u32,
    zero_terms: ZeroTerms,
) -> Result<Q> {
    let Some((f, fm)) = cx.field(field) else {
        return Ok(none());
    };
    if fm.ty != FieldType::Text {
        let p = TextParams {
            field,
            query,
            analyzer,
            operator: Operator::Or,
            msm: None,
            zero_terms,
            lenient: false,
            fuzzy: None,
        };
        return match_field(cx, &p);
    }
    let text = super::values::text_of(query);
    let analyzer = analyzer.unwrap_or(&fm.search_quote_analyzer);
    let tokens = analyze(cx, analyzer, &text)?;
    Ok(match tokens.len() {
        0 => zero(zero_terms),
        1 => Box::new(LuceneTermQuery::new(Term::from_field_text(f, &tokens[0].1))),
        _ => {
            let base = tokens[0].0;
            Box::new(PhraseQuery::new_with_offset_and_slop(
                tokens
                    .into_iter()
                    .map(|(pos, t)| (pos - base, Term::from_field_text(f, &t)))
                    .collect(),
                slop,
            ))
        }
    })
}

pub fn match_phrase(cx: &Context, p: &MatchPhraseQuery) -> Result<Q> {
    let q = phrase_field(
        cx,
        &p.field,
        &p.query,
        p.analyzer.as_deref(),
        p.slop,
        p.zero_terms_query,
    )?;
    Ok(boosted(q, p.boost))
}

/// Field patterns → mapped fields with their boosts, in field-name order (OpenSearch's TreeMap).
fn expand_fields(cx: &Context, patterns: &[(String, f32)]) -> Vec<(String, f32)> {
    let patterns: Vec<(String, f32)> = if patterns.is_empty() {
        vec![("*".to_string(), 1.0)]
    } else {
        patterns.to_vec()
    };
    let mut out: std::collections::BTreeMap<String, f32> = Default::default();
    for (pat, boost) in &patterns {
        if pat.contains('*') {
            for leaf in cx.mapping.leaves() {
                let searchable =
                    matches!(leaf.field.ty, FieldType::Text | FieldType::Keyword) || pat != "*";
                if searchable && glob_match(pat, &leaf.path) && leaf.field.index {
                    let e = out.entry(leaf.path.clone()).or_insert(1.0);
                    *e *= boost;
                }
            }
        } else if cx.mapping.field(pat).is_some() {
            let e = out.entry(pat.clone()).or_insert(1.0);
            *e *= boost;
        }
    }
    out.into_iter().collect()
}

pub fn multi_match(cx: &Context, m: &MultiMatchQuery) -> Result<Q> {
    let lenient = m.lenient || m.fields.is_empty() || m.fields.iter().any(|(f, _)| f.contains('*'));
    let fields = expand_fields(cx, &m.fields);
    let mut queries: Vec<Q> = Vec::new();
    for (field, boost) in &fields {
        let q = match m.ty {
            MultiMatchType::Phrase => phrase_field(
                cx,
                field,
                &m.query,
                m.analyzer.as_deref(),
                m.slop,
                m.zero_terms_query,
            )?,
            _ => match_field(
                cx,
                &TextParams {
                    field,
                    query: &m.query,
                    analyzer: m.analyzer.as_deref(),
                    operator: m.operator,
                    msm: m.minimum_should_match.as_ref(),
                    zero_terms: m.zero_terms_query,
                    lenient,
                    fuzzy: None,
                },
            )?,
        };
        queries.push(boosted(q, *boost));
    }
    let q: Q = match queries.len() {
        0 => zero(m.zero_terms_query),
        1 => queries.pop().expect("one query"),
        _ => Box::new(DisjunctionMaxQuery::with_tie_breaker(
            queries,
            m.tie_breaker.unwrap_or(m.ty.default_tie()),
        )),
    };
    // Always wrapped: keeps dis_max off tantivy 0.26's summing Block-WAND path (§7.4 #16).
    Ok(Box::new(BoostQuery::new(q, m.boost)))
}
