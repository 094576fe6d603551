//! Full-text queries: `match`, `match_phrase`, `multi_match`, analysed with the field's search
//! analyzer (or the query's `analyzer`) through the index's tokenizer manager.

use super::combine::SumQuery;
use super::lucene_term::LuceneTermQuery;
use super::multi_term::Rewrite;
use super::phrase::LucenePhraseQuery;
use super::wrappers::BoostedQuery;
use super::{all, boosted, lenient_none, none, Context, Q};
use crate::analysis::tokenizer_name;
use crate::dsl::{
    MatchPhraseQuery, MatchQuery, MultiMatchQuery, MultiMatchType, Operator, ZeroTerms,
};
use crate::error::{Error, Result};
use crate::index::mapping::FieldType;
use crate::metadata::target::glob_match;
use serde_json::Value;
use tantivy::query::{BooleanQuery, Occur};
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

fn zero(cx: &Context, z: ZeroTerms) -> Q {
    match z {
        ZeroTerms::None => super::label(cx, none(), || {
            "MatchNoDocsQuery(\"Matching no documents because no terms present\")".to_string()
        }),
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
    /// `cutoff_frequency` (`common_terms`).
    cutoff: Option<f32>,
    /// The fuzzy terms' `fuzzy_rewrite`, checked once by the query that builds them.
    rewrite: Option<Rewrite>,
}

/// The `match` query on one field, before its boost.
fn match_field(cx: &Context, p: &TextParams) -> Result<Q> {
    let Some((f, fm)) = cx.field(p.field) else {
        return Ok(none());
    };
    let text = super::values::text_of(p.query);
    let fuzzy = p.fuzzy.is_some_and(|m| m.fuzziness.is_some());
    if fuzzy && !matches!(fm.ty, FieldType::Text | FieldType::Keyword) {
        // OpenSearch asks the field for a fuzzy query, which only terms support (whatever the
        // distance, 0 included).
        if p.lenient {
            return Ok(none());
        }
        return Err(cx.create_failure(Error::illegal_argument(super::terms_only(
            "fuzzy",
            p.field,
            fm.ty.name(),
        ))));
    }
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
            Err(e) if p.lenient => Ok(lenient_none(cx, p.field, &e)),
            Err(e) => Err(e),
        },
        // OpenSearch asks the field for its term query: the same as `term` builds.
        _ => match super::term(cx, p.field, p.query, 1.0, false) {
            Err(e) if p.lenient => Ok(lenient_none(cx, p.field, &e)),
            built => built,
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
                rewrite: p.rewrite,
            };
            super::multi_term::fuzzy(cx, f, t, &params)
        }
        _ => Ok(Box::new(LuceneTermQuery::new(Term::from_field_text(f, t)))),
    }
}

fn terms_query(cx: &Context, f: Field, tokens: Vec<(usize, String)>, p: &TextParams) -> Result<Q> {
    if tokens.is_empty() {
        return Ok(zero(cx, p.zero_terms));
    }
    if let Some(q) = fuzzy_disjunction(cx, f, &tokens, p)? {
        return Ok(q);
    }
    let mut leaves: Vec<Q> = tokens
        .iter()
        .map(|(_, t)| leaf(cx, f, t, p))
        .collect::<Result<Vec<_>>>()?;
    if leaves.len() == 1 {
        return Ok(leaves.pop().expect("one leaf"));
    }
    let fuzzy = p.fuzzy.is_some_and(|m| m.fuzziness.is_some());
    if let Some(cutoff) = p.cutoff.filter(|_| !fuzzy) {
        return common_terms(cx, f, &tokens, leaves, cutoff, p);
    }
    terms_combined(cx, leaves, p)
}

/// The terms' queries under the match's operator and `minimum_should_match`.
fn terms_combined(cx: &Context, leaves: Vec<Q>, p: &TextParams) -> Result<Q> {
    let n = leaves.len();
    Ok(match p.operator {
        Operator::And => Box::new(BooleanQuery::new(
            leaves.into_iter().map(|q| (Occur::Must, q)).collect(),
        )),
        Operator::Or => {
            let msm = super::min_should(cx, p.msm, n)?;
            if msm > n {
                return Ok(none());
            }
            // Lucene's disjunction: summed in double, pruned for top-k (block_max).
            Box::new(SumQuery::with_minimum(leaves, msm.max(1)))
        }
    })
}

/// `cutoff_frequency`, as OpenSearch's `ExtendedCommonTermsQuery` builds it: terms in more
/// docs than the cutoff (a fraction of the shard's docs, deleted ones included, below 1; else a
/// count) only add to the score of docs the rarer terms match, combined under the operator and
/// `minimum_should_match`; when every term is that common, all are required.
fn common_terms(
    cx: &Context,
    f: Field,
    tokens: &[(usize, String)],
    leaves: Vec<Q>,
    cutoff: f32,
    p: &TextParams,
) -> Result<Q> {
    let max_doc: u64 = cx
        .searcher
        .segment_readers()
        .iter()
        .map(|r| u64::from(r.max_doc()))
        .sum();
    let limit = if cutoff >= 1.0 {
        cutoff
    } else {
        (cutoff * max_doc as f32).ceil()
    };
    let (mut low, mut high, mut high_terms) = (Vec::new(), Vec::new(), Vec::new());
    for ((_, t), q) in tokens.iter().zip(leaves) {
        let term = Term::from_field_text(f, t);
        if cx.searcher.doc_freq(&term)? as f32 > limit {
            high.push(q);
            high_terms.push(term);
        } else {
            low.push(q);
        }
    }
    Ok(match (low.is_empty(), high.is_empty()) {
        (true, _) => Box::new(BooleanQuery::new(
            high.into_iter().map(|q| (Occur::Must, q)).collect(),
        )),
        (false, true) => terms_combined(cx, low, p)?,
        (false, false) => {
            let low = match low.len() {
                1 => low.pop().expect("one low term"),
                _ => terms_combined(cx, low, p)?,
            };
            let high: Q = match high.len() {
                1 => high.pop().expect("one high term"),
                _ => Box::new(SumQuery::new(high)),
            };
            // Printed as Lucene rewrites it: the common terms' disjunction merged into the
            // boolean around it (read before the boolean takes the rarer terms' query).
            let schema = cx.searcher.schema();
            let text = cx.label.then(|| {
                let (l, boolean) = super::lucene_string::built(low.as_ref(), schema);
                let required = if boolean {
                    format!("+({l})")
                } else {
                    format!("+{l}")
                };
                std::iter::once(required)
                    .chain(
                        high_terms
                            .iter()
                            .map(|t| super::lucene_string::term_string(schema, t)),
                    )
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            let q: Q = Box::new(BooleanQuery::new(vec![
                (Occur::Must, low),
                (Occur::Should, high),
            ]));
            super::label_boolean(cx, q, || text.unwrap_or_default())
        }
    })
}

/// A fuzzy `match` of several terms under `or` (at most one required), as Lucene rewrites it:
/// the boolean of fuzzy queries flattened into one disjunction of every expansion, a term that
/// several of them expand to once, its boosts summed and scoring with the doc freq of the
/// expansion that boosts it most (its own term's, where it is one). `None` for other matches.
fn fuzzy_disjunction(
    cx: &Context,
    f: Field,
    tokens: &[(usize, String)],
    p: &TextParams,
) -> Result<Option<Q>> {
    let Some(m) = p.fuzzy.filter(|m| m.fuzziness.is_some()) else {
        return Ok(None);
    };
    if tokens.len() < 2 || p.operator != Operator::Or {
        return Ok(None);
    }
    let msm = super::min_should(cx, p.msm, tokens.len())?;
    if msm > 1 {
        return Ok(None);
    }
    let rewrite = p.rewrite;
    // A constant rewrite makes each term's query a constant, which Lucene's boolean does not
    // merge into its clauses.
    if rewrite.is_some_and(super::multi_term::constant_rewrite) {
        return Ok(None);
    }
    let fz = m.fuzziness.expect("fuzziness");
    let edits = |t: &str| fz.edits(t.chars().count());
    // term → (summed boost, best boost, the doc freq that came with the best)
    let mut merged: Vec<(Term, f64, f32, Option<u64>)> = Vec::new();
    for (_, t) in tokens {
        let params = super::multi_term::FuzzyParams {
            edits: edits(t),
            prefix_length: m.prefix_length,
            max_expansions: m.max_expansions,
            transpositions: m.fuzzy_transpositions,
            rewrite,
        };
        for e in super::multi_term::fuzzy_expansions(cx, f, t, &params)? {
            match merged.iter_mut().find(|x| x.0 == e.term) {
                Some(x) => {
                    x.1 += f64::from(e.boost);
                    if e.boost > x.2 {
                        x.2 = e.boost;
                        x.3 = e.doc_freq;
                    }
                }
                None => merged.push((e.term, f64::from(e.boost), e.boost, e.doc_freq)),
            }
        }
    }
    let mut leaves: Vec<Q> = merged
        .into_iter()
        .map(|(term, boost, _, doc_freq)| {
            let e = super::multi_term::Expansion {
                term,
                boost: boost as f32,
                doc_freq,
            };
            e.clause(rewrite)
        })
        .collect();
    let q: Q = match leaves.len() {
        0 => none(),
        1 => leaves.pop().expect("one leaf"),
        _ => Box::new(SumQuery::new(leaves)),
    };
    // Rewritten, the query is its expansions; as parsed, the fuzzy queries print (whether or
    // not they expand to anything).
    if !cx.parsed {
        return Ok(Some(q));
    }
    let field = cx.searcher.schema().get_field_name(f);
    Ok(Some(super::label_boolean(cx, q, || {
        let texts: Vec<String> = tokens
            .iter()
            .map(|(_, t)| format!("{field}:{t}~{}", edits(t)))
            .collect();
        texts.join(" ")
    })))
}

/// `fuzzy_rewrite`, checked as the shard checks it when it builds the query, fuzziness or not.
fn fuzzy_rewrite(cx: &Context, rewrite: Option<&str>) -> Result<Option<Rewrite>> {
    super::multi_term::check_rewrite(cx, rewrite, super::multi_term::runs_rewrite)
}

pub fn match_query(cx: &Context, m: &MatchQuery) -> Result<Q> {
    let rewrite = fuzzy_rewrite(cx, m.fuzzy_rewrite.as_deref())?;
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
            cutoff: m.cutoff_frequency,
            rewrite,
        },
    )?;
    Ok(boosted(q, m.boost))
}

/// `match_bool_prefix`: the analysed terms as `match` would query them, the last one a prefix
/// (constant score, as Lucene's rewritten prefix query scores inside the boolean).
pub fn match_bool_prefix(cx: &Context, m: &MatchQuery) -> Result<Q> {
    let rewrite = fuzzy_rewrite(cx, m.fuzzy_rewrite.as_deref())?;
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
        cutoff: None,
        rewrite,
    };
    let mut leaves: Vec<Q> = rest
        .iter()
        .map(|t| leaf(cx, f, t, &p))
        .collect::<Result<Vec<_>>>()?;
    let prefix = super::prefix(cx, &m.field, last, 1.0, false)?;
    leaves.push(super::label(cx, prefix, || format!("{}:{last}*", m.field)));
    let q: Q = if leaves.len() == 1 {
        leaves.pop().expect("one leaf")
    } else {
        let n = leaves.len();
        match m.operator {
            Operator::And => Box::new(BooleanQuery::new(
                leaves.into_iter().map(|q| (Occur::Must, q)).collect(),
            )),
            Operator::Or => {
                let msm = super::min_should(cx, p.msm, n)?;
                if msm > n {
                    none()
                } else if msm > 1 {
                    let clauses = leaves.into_iter().map(|q| (Occur::Should, q)).collect();
                    Box::new(BooleanQuery::with_minimum_required_clauses(clauses, msm))
                } else {
                    // A disjunction a parent disjunction takes in, as Lucene flattens it.
                    Box::new(SumQuery::new(leaves))
                }
            }
        }
    };
    Ok(boosted(q, m.boost))
}

/// How a phrase is built on each field: `match_phrase(_prefix)` and `multi_match` phrases.
struct PhraseParams<'a> {
    query: &'a Value,
    analyzer: Option<&'a str>,
    slop: u32,
    zero_terms: ZeroTerms,
    /// Phrase prefix: the last position's expansions at most.
    max_expansions: Option<u32>,
    lenient: bool,
}

fn phrase_field(cx: &Context, field: &str, p: &PhraseParams) -> Result<Q> {
    let Some((f, fm)) = cx.field(field) else {
        return Ok(none());
    };
    if fm.ty != FieldType::Text {
        if p.max_expansions.is_some() {
            if p.lenient {
                return Ok(none());
            }
            let reason = format!(
                "Can only use phrase prefix queries on text fields - not on [{field}] which is of type [{}]",
                fm.ty.name()
            );
            return Err(cx.create_failure(Error::illegal_argument(reason)));
        }
        let tp = TextParams {
            field,
            query: p.query,
            analyzer: p.analyzer,
            operator: Operator::Or,
            msm: None,
            zero_terms: p.zero_terms,
            lenient: p.lenient,
            fuzzy: None,
            cutoff: None,
            rewrite: None,
        };
        return match_field(cx, &tp);
    }
    let text = super::values::text_of(p.query);
    let analyzer = p.analyzer.unwrap_or(&fm.search_quote_analyzer);
    let tokens = analyze(cx, analyzer, &text)?;
    let q = match p.max_expansions {
        None => phrase_of(f, &tokens, p.slop),
        Some(max) => phrase_prefix_of(cx, f, &tokens, p.slop, max)?,
    };
    Ok(q.unwrap_or_else(|| zero(cx, p.zero_terms)))
}

/// OpenSearch's MultiPhrasePrefixQuery: the terms of the last position replaced by the index
/// terms they prefix, collected segment by segment in term order until there are
/// `max_expansions` (at least one); a single position becomes the disjunction of its expansions.
pub(super) fn phrase_prefix_of(
    cx: &Context,
    f: Field,
    tokens: &[(usize, String)],
    slop: u32,
    max_expansions: u32,
) -> Result<Option<Q>> {
    let q = expand_phrase_prefix(cx, f, tokens, slop, max_expansions)?;
    Ok(q.map(|q| {
        super::label(cx, q, || {
            // MultiPhrasePrefixQuery.toString: stacked terms in parentheses, the last
            // position's with a `*`.
            let mut slots: Vec<(usize, Vec<&str>)> = Vec::new();
            for (pos, t) in tokens {
                match slots.last_mut() {
                    Some((p, ts)) if p == pos => ts.push(t),
                    _ => slots.push((*pos, vec![t])),
                }
            }
            let texts: Vec<String> = slots
                .iter()
                .map(|(_, ts)| match ts.as_slice() {
                    [one] => one.to_string(),
                    many => format!("({})", many.join(" ")),
                })
                .collect();
            let field = cx.searcher.schema().get_field_name(f);
            let mut s = format!("{field}:\"{}*\"", texts.join(" "));
            if slop != 0 {
                s.push_str(&format!("~{slop}"));
            }
            s
        })
    }))
}

fn expand_phrase_prefix(
    cx: &Context,
    f: Field,
    tokens: &[(usize, String)],
    slop: u32,
    max_expansions: u32,
) -> Result<Option<Q>> {
    let Some(mut slots) = slots_of(f, tokens) else {
        return Ok(None);
    };
    let (last_pos, prefixes) = slots.pop().expect("a slot");
    let max = max_expansions as usize;
    let mut expanded: Vec<Term> = Vec::new();
    'prefixes: for prefix in &prefixes {
        let Some(prefix) = prefix.value().as_str().map(str::to_string) else {
            continue;
        };
        for reader in cx.searcher.segment_readers() {
            let inv = reader.inverted_index(f)?;
            let mut stream = inv.terms().range().ge(prefix.as_bytes()).into_stream()?;
            while stream.advance() {
                let key = stream.key();
                if !key.starts_with(prefix.as_bytes()) {
                    break;
                }
                let Ok(text) = std::str::from_utf8(key) else {
                    continue;
                };
                let t = Term::from_field_text(f, text);
                if !expanded.contains(&t) {
                    expanded.push(t);
                }
                if expanded.len() >= max {
                    break 'prefixes;
                }
            }
        }
    }
    if expanded.is_empty() {
        return Ok(Some(none()));
    }
    if slots.is_empty() {
        let clauses = expanded
            .into_iter()
            .map(|t| Box::new(LuceneTermQuery::new(t)) as Q)
            .collect();
        return Ok(Some(Box::new(SumQuery::new(clauses))));
    }
    slots.push((last_pos, expanded));
    Ok(Some(Box::new(LucenePhraseQuery::new(f, slots, slop))))
}

/// Tokens grouped by position (stacked tokens share one), positions from the first.
fn slots_of(f: Field, tokens: &[(usize, String)]) -> Option<Vec<(u32, Vec<Term>)>> {
    let base = tokens.first()?.0;
    let mut slots: Vec<(u32, Vec<Term>)> = Vec::new();
    for (pos, t) in tokens {
        let pos = (pos - base) as u32;
        let term = Term::from_field_text(f, t);
        match slots.last_mut() {
            Some((p, terms)) if *p == pos => terms.push(term),
            _ => slots.push((pos, vec![term])),
        }
    }
    Some(slots)
}

/// Analysed tokens as OpenSearch's phrase: nothing without tokens; the term when there is one
/// position (stacked tokens there: their disjunction); else a Lucene phrase, tokens stacked on
/// one position becoming that position's alternatives.
pub(super) fn phrase_of(f: Field, tokens: &[(usize, String)], slop: u32) -> Option<Q> {
    let mut slots = slots_of(f, tokens)?;
    if slots.len() == 1 {
        let (_, mut terms) = slots.pop()?;
        if terms.len() == 1 {
            return Some(Box::new(LuceneTermQuery::new(terms.pop()?)));
        }
        let clauses = terms
            .into_iter()
            .map(|t| (Occur::Should, Box::new(LuceneTermQuery::new(t)) as Q))
            .collect();
        return Some(Box::new(BooleanQuery::new(clauses)));
    }
    Some(Box::new(LucenePhraseQuery::new(f, slots, slop)))
}

pub fn match_phrase(cx: &Context, p: &MatchPhraseQuery) -> Result<Q> {
    let q = phrase_field(
        cx,
        &p.field,
        &PhraseParams {
            query: &p.query,
            analyzer: p.analyzer.as_deref(),
            slop: p.slop,
            zero_terms: p.zero_terms_query,
            max_expansions: p.max_expansions,
            lenient: false,
        },
    )?;
    Ok(boosted(q, p.boost))
}

/// Field patterns → mapped fields with their boosts, in the order OpenSearch builds their
/// queries: `QueryParserHelper.resolveMappingFields` gathers them (from the builder's TreeMap,
/// so in name order) into a `HashMap`, whose iteration order the per-field queries, their
/// blended terms and the first of a disjunction's `MatchNoDocsQuery`s follow.
pub(crate) fn expand_fields(cx: &Context, patterns: &[(String, f32)]) -> Vec<(String, f32)> {
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
    let mut out: Vec<(String, f32)> = out.into_iter().collect();
    crate::util::java_hash::hash_order(&mut out);
    out
}

pub fn multi_match(cx: &Context, m: &MultiMatchQuery) -> Result<Q> {
    let rewrite = fuzzy_rewrite(cx, m.fuzzy_rewrite.as_deref())?;
    let lenient = m.runs_lenient();
    let fields = expand_fields(cx, &m.fields);
    let fuzzy = m.fuzziness.is_some().then(|| m.as_match(""));
    let mut queries: Vec<Q> = Vec::new();
    if m.ty == MultiMatchType::CrossFields {
        queries = cross_fields(cx, m, &fields, lenient)?;
    }
    for (field, boost) in fields
        .iter()
        .filter(|_| m.ty != MultiMatchType::CrossFields)
    {
        let q = match m.ty {
            MultiMatchType::Phrase | MultiMatchType::PhrasePrefix => phrase_field(
                cx,
                field,
                &PhraseParams {
                    query: &m.query,
                    analyzer: m.analyzer.as_deref(),
                    slop: m.slop,
                    zero_terms: m.zero_terms_query,
                    max_expansions: (m.ty == MultiMatchType::PhrasePrefix)
                        .then_some(m.max_expansions),
                    lenient,
                },
            )?,
            // Each field's `match_bool_prefix`: the last term a prefix.
            MultiMatchType::BoolPrefix => match_bool_prefix(
                cx,
                &MatchQuery {
                    lenient,
                    ..m.as_match(field)
                },
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
                    fuzzy: fuzzy.as_ref(),
                    cutoff: m.cutoff_frequency,
                    rewrite,
                },
            )?,
        };
        queries.push(boosted(q, *boost));
    }
    let q: Q = match queries.len() {
        0 => zero(cx, m.zero_terms_query),
        1 => queries.pop().expect("one query"),
        _ => super::dis_max(cx, queries, m.tie_breaker.unwrap_or(m.ty.default_tie()))?,
    };
    // Always wrapped (as tantivy's BoostQuery was, for the same explanation).
    Ok(Box::new(BoostedQuery::new(q, m.boost)))
}

/// One field of a cross_fields analyzer group.
struct Member<'a> {
    name: &'a str,
    boost: f32,
    f: Field,
    fm: &'a crate::index::mapping::FieldMapping,
}

/// `cross_fields` (OpenSearch's MultiMatchQuery): fields grouped by the analyzer their query
/// text goes through (the query's `analyzer` puts them all in one group; fields without an
/// analyzer, keyword and the rest, share the keyword analyzer unless normalized). A group of one
/// field is its `match`, boosted; a larger group analyses the text once and blends each term
/// across its fields; the groups are joined by `dis_max(tie_breaker)` by the caller.
fn cross_fields(
    cx: &Context,
    m: &MultiMatchQuery,
    fields: &[(String, f32)],
    lenient: bool,
) -> Result<Vec<Q>> {
    let mut groups: Vec<(String, Vec<Member>)> = Vec::new();
    for (name, boost) in fields {
        let Some((f, fm)) = cx.field(name) else {
            continue;
        };
        let key = match (&m.analyzer, fm.ty, &fm.normalizer) {
            (Some(a), _, _) => format!("analyzer {a}"),
            (None, FieldType::Text, _) => format!("analyzer {}", fm.search_analyzer),
            (None, FieldType::Keyword, Some(n)) => format!("normalizer {n}"),
            _ => "keyword".to_string(),
        };
        let member = Member {
            name,
            boost: *boost,
            f,
            fm,
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(member),
            None => groups.push((key, vec![member])),
        }
    }
    let tie = m.tie_breaker.unwrap_or(m.ty.default_tie());
    let mut out = Vec::new();
    for (_, members) in &groups {
        if let [one] = members.as_slice() {
            let q = match_field(
                cx,
                &TextParams {
                    field: one.name,
                    query: &m.query,
                    analyzer: m.analyzer.as_deref(),
                    operator: m.operator,
                    msm: m.minimum_should_match.as_ref(),
                    zero_terms: m.zero_terms_query,
                    lenient,
                    fuzzy: None,
                    cutoff: m.cutoff_frequency,
                    rewrite: None,
                },
            )?;
            out.push(boosted(q, one.boost));
            continue;
        }
        let text = super::values::text_of(&m.query);
        let first = &members[0];
        // Text groups analyse with their analyzer; the keyword group keeps the text whole.
        let tokens: Vec<(usize, String)> = match (&m.analyzer, first.fm.ty) {
            (Some(a), _) => analyze(cx, a, &text)?,
            (None, FieldType::Text) => analyze(cx, &first.fm.search_analyzer, &text)?,
            _ => vec![(0, text.clone())],
        };
        if tokens.is_empty() {
            out.push(zero(cx, m.zero_terms_query));
            continue;
        }
        let mut positions: Vec<Vec<String>> = Vec::new();
        let mut last = None;
        for (pos, t) in tokens {
            if last == Some(pos) {
                positions.last_mut().expect("a position").push(t);
            } else {
                positions.push(vec![t]);
                last = Some(pos);
            }
        }
        let mut clauses = Vec::with_capacity(positions.len());
        for values in &positions {
            clauses.push(blend_terms(cx, values, members, tie, lenient)?);
        }
        if clauses.len() == 1 {
            out.push(clauses.pop().expect("one clause"));
            continue;
        }
        let n = clauses.len();
        out.push(match m.operator {
            // Every clause, summed in double as Lucene's conjunctions do (tantivy's
            // intersection sums in f32, in an order that follows each segment's postings).
            Operator::And => {
                let text = cx
                    .label
                    .then(|| super::lucene_string::conjunction(&clauses, cx.searcher.schema()));
                let q: Q = Box::new(SumQuery::with_minimum(clauses, n));
                match text {
                    Some(text) => super::label_boolean(cx, q, || text),
                    None => q,
                }
            }
            Operator::Or => {
                let msm = super::min_should(cx, m.minimum_should_match.as_ref(), n)?;
                if msm > n {
                    none()
                } else {
                    let q: Q = Box::new(SumQuery::with_minimum(clauses, msm.max(1)));
                    if msm == 1 && cx.label {
                        let text =
                            super::lucene_string::at_least_one(q.as_ref(), cx.searcher.schema());
                        super::label_boolean(cx, q, || text)
                    } else {
                        q
                    }
                }
            }
        });
    }
    Ok(out)
}

/// OpenSearch's `blendTerms`: every value on every field of the group. Term queries (text,
/// keyword, boolean) become one blended dis_max; other field types' term queries sit beside it
/// in a `dis_max` with the query's tie breaker.
fn blend_terms(
    cx: &Context,
    values: &[String],
    members: &[Member],
    tie: f32,
    lenient: bool,
) -> Result<Q> {
    let mut terms: Vec<(Term, f32)> = Vec::new();
    let mut others: Vec<Q> = Vec::new();
    for mb in members {
        for v in values {
            match mb.fm.ty {
                FieldType::Text => terms.push((Term::from_field_text(mb.f, v), mb.boost)),
                FieldType::Keyword => {
                    let t = crate::analysis::keyword_query_text(cx.searcher.index(), mb.fm, v);
                    terms.push((Term::from_field_text(mb.f, &t), mb.boost));
                }
                FieldType::Boolean => match super::values::boolean(cx, &Value::from(v.as_str())) {
                    Ok(b) => terms.push((Term::from_field_bool(mb.f, b), mb.boost)),
                    Err(e) if lenient => others.push(lenient_none(cx, mb.name, &e)),
                    Err(e) => return Err(e),
                },
                // The field's own term query, as `term` builds it; a boost stays off what
                // matches nothing.
                _ => match super::term(cx, mb.name, &Value::from(v.as_str()), 1.0, false) {
                    Ok(q) if super::is_none(&q) => others.push(q),
                    Ok(q) => others.push(boosted(q, mb.boost)),
                    Err(e) if lenient => others.push(lenient_none(cx, mb.name, &e)),
                    Err(e) => return Err(e),
                },
            }
        }
    }
    if !terms.is_empty() {
        others.push(blended_dis_max(cx, terms, tie)?);
    }
    Ok(match others.len() {
        1 => others.pop().expect("one query"),
        _ => super::dis_max(cx, others, tie)?,
    })
}

/// OpenSearch's `BlendedTermQuery.dismaxBlendedQuery`: each field's term scored with a blended
/// doc freq (the largest, capped by the documents and the smallest token count of the fields
/// having the term, plus one per step down in the fields' own doc freqs, at most the field's
/// doc count), then `dis_max(tie)`.
fn blended_dis_max(cx: &Context, terms: Vec<(Term, f32)>, tie: f32) -> Result<Q> {
    let described = if cx.parsed { terms.clone() } else { Vec::new() };
    let searcher = cx.searcher;
    let mut dfs = Vec::with_capacity(terms.len());
    let mut doc_counts = Vec::with_capacity(terms.len());
    let mut min_sum_ttf = u64::MAX;
    for (t, _) in &terms {
        let df = searcher.doc_freq(t)?;
        let fs = super::lucene_term::field_stats(searcher, t.field())?;
        if df > 0 {
            min_sum_ttf = min_sum_ttf.min(fs.sum_ttf);
        }
        dfs.push(df);
        doc_counts.push(fs.doc_count);
    }
    let mut max_doc: u64 = searcher
        .segment_readers()
        .iter()
        .map(|r| r.max_doc() as u64)
        .sum();
    max_doc = max_doc.min(min_sum_ttf);
    let mut blended = dfs.clone();
    let max = dfs.iter().copied().max().unwrap_or(0);
    if terms.len() > 1 && max > 0 {
        let mut order: Vec<usize> = (0..dfs.len()).collect();
        order.sort_by(|&a, &b| dfs[b].cmp(&dfs[a]));
        let mut prev = dfs[order[0]];
        let mut actual = max_doc.min(max);
        for &i in &order {
            if dfs[i] == 0 {
                break;
            }
            if prev > dfs[i] {
                actual += 1;
            }
            // OpenSearch never lets a field's blended doc freq pass its own doc count (seen on
            // the oracle: a sparse field's idf stays that of a term in all of its docs).
            blended[i] = max_doc.min(actual).min(doc_counts[i]);
            prev = dfs[i];
        }
    }
    let mut leaves: Vec<Q> = terms
        .into_iter()
        .zip(blended)
        .map(|((t, boost), df)| {
            let leaf = LuceneTermQuery::new(t).with_boost(boost);
            Box::new(if df > 0 { leaf.with_doc_freq(df) } else { leaf }) as Q
        })
        .collect();
    let q: Q = if leaves.len() == 1 {
        leaves.pop().expect("one leaf")
    } else {
        super::dis_max(cx, leaves, tie)?
    };
    if !cx.parsed {
        // Rewritten (`_validate?rewrite`), the blend is the dis_max of its terms it runs as.
        return Ok(q);
    }
    Ok(super::label(cx, q, || {
        let texts: Vec<String> = described
            .iter()
            .map(|(t, boost)| {
                let mut s = super::lucene_string::term_string(cx.searcher.schema(), t);
                if *boost != 1.0 {
                    s.push_str(&format!("^{boost:?}"));
                }
                s
            })
            .collect();
        format!("blended(terms:[{}])", texts.join(", "))
    }))
}
