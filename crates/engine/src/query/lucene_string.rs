//! Lucene's `Query.toString` of the query an AST builds to, as OpenSearch prints it in
//! `_validate` explanations and in the explanations of constant-score queries: term-level
//! queries in Lucene's own forms (`k:(a b)`, `n:[1 TO 9223372036854775807]`, `_id:([fe 1f])`),
//! the rest from the terms they hold.

use super::constant::{ConstantQuery, Described};
use super::{Context, FieldType};
use crate::dsl::{self, Query as Ast};
use crate::error::Result;
use std::ops::Bound;
use tantivy::Term;

/// A term as Lucene prints it: `field:text`.
pub fn term_string(schema: &tantivy::schema::Schema, t: &tantivy::Term) -> String {
    let field = schema.get_field_name(t.field());
    let v = t.value();
    let text = if let Some(s) = v.as_str() {
        s.to_string()
    } else if let Some(b) = v.as_bool() {
        (if b { "T" } else { "F" }).to_string()
    } else if let Some(n) = v.as_i64() {
        n.to_string()
    } else if let Some(n) = v.as_u64() {
        n.to_string()
    } else if let Some(n) = v.as_f64() {
        n.to_string()
    } else {
        format!("{:?}", t.serialized_value_bytes())
    };
    format!("{field}:{text}")
}

/// A rendered query and whether it is a Lucene `BooleanQuery` (which a boolean parent or a
/// disjunction parenthesises).
pub type Rendered = (String, bool);

/// Lucene's `BoostQuery.toString`, around a query whose boost is not 1.
fn boosted((s, boolean): Rendered, boost: f32) -> Rendered {
    if boost == 1.0 {
        (s, boolean)
    } else {
        (format!("({s})^{boost:?}"), false)
    }
}

/// Lucene's `DisjunctionMaxQuery.toString`. Lucene keeps the disjuncts in a hash multiset, so
/// its order follows Java hash codes; this one keeps the order it is given.
fn disjunction(parts: Vec<Rendered>, tie_breaker: f32) -> Rendered {
    let inner: Vec<String> = parts
        .into_iter()
        .map(|(s, boolean)| if boolean { format!("({s})") } else { s })
        .collect();
    let mut s = format!("({})", inner.join(" | "));
    if tie_breaker != 0.0 {
        s.push_str(&format!("~{tie_breaker:?}"));
    }
    (s, false)
}

/// The terms a `match` on `field` builds to, when it builds Lucene's boolean of plain term
/// queries on that one field (or one term query, or none): not for fuzziness, common terms,
/// phrases or synonyms across positions, or several fields.
fn analysed_terms(cx: &Context, field: &str, m: &dsl::MatchQuery) -> Result<Option<Vec<Term>>> {
    if m.fuzziness.is_some() || m.cutoff_frequency.is_some() {
        return Ok(None);
    }
    let one = dsl::MatchQuery {
        field: field.to_string(),
        boost: 1.0,
        ..m.clone()
    };
    let q = super::build(&Ast::Match(one), cx)?;
    let mut terms = Vec::new();
    let mut fields = std::collections::BTreeSet::new();
    let mut phrase = false;
    q.query_terms(&mut |t, positions| {
        fields.insert(t.field());
        phrase |= positions;
        terms.push(t.clone());
    });
    Ok((fields.len() <= 1 && !phrase).then_some(terms))
}

/// A `match` on one field as Lucene prints the query it builds: its analysed terms, required
/// (`+`) under `operator: and`, or `(…)~n` under `minimum_should_match`. `None` for what
/// builds otherwise (fuzziness, phrases, synonyms), printed from its terms instead.
fn match_string(cx: &Context, field: &str, m: &dsl::MatchQuery) -> Result<Option<Rendered>> {
    // Other fields build the field's term query, which prints as `term`'s does.
    let terms_field = cx.mapping.field(field).is_none_or(|fm| {
        matches!(
            fm.ty,
            FieldType::Text | FieldType::Keyword | FieldType::Boolean
        )
    });
    if !terms_field {
        return Ok(None);
    }
    let schema = cx.searcher.schema();
    let mut terms: Vec<String> = match analysed_terms(cx, field, m)? {
        Some(ts) if !ts.is_empty() => ts.iter().map(|t| term_string(schema, t)).collect(),
        _ => return Ok(None),
    };
    if terms.len() == 1 {
        return Ok(Some((terms.remove(0), false)));
    }
    let and = m.operator == dsl::Operator::And;
    let msm = match (&m.minimum_should_match, and) {
        (Some(spec), false) => spec.resolve(terms.len())?,
        _ => 0,
    };
    Ok(Some(if and {
        (
            terms
                .iter()
                .map(|t| format!("+{t}"))
                .collect::<Vec<_>>()
                .join(" "),
            true,
        )
    } else if msm > 0 {
        (format!("({})~{msm}", terms.join(" ")), true)
    } else if !cx.parsed {
        // Rewritten, a repeated term is one clause boosted by its count.
        let mut counted: Vec<(String, usize)> = Vec::new();
        for t in terms {
            match counted.iter_mut().find(|(u, _)| *u == t) {
                Some((_, n)) => *n += 1,
                None => counted.push((t, 1)),
            }
        }
        let parts: Vec<String> = counted
            .iter()
            .map(|(t, n)| boosted((t.clone(), false), *n as f32).0)
            .collect();
        (parts.join(" "), parts.len() > 1)
    } else {
        (terms.join(" "), true)
    }))
}

/// Lucene's `ConstantScoreQuery` around `filter`: as parsed, or as its rewrite leaves the
/// query inside (`unscored_clause`).
pub fn constant_score(filter: &Ast, cx: &Context) -> Result<String> {
    let inner = match filter {
        _ if cx.parsed => render(filter, cx)?.0,
        // The one place `exists` on a field every doc has prints as its rewrite, `*:*`.
        Ast::Exists { .. } => {
            let (s, _) = render(&filter.unboosted(), cx)?;
            unwrapped(&s).map_or_else(|| s.clone(), str::to_string)
        }
        _ => unscored_clause(filter, cx)?.0,
    };
    Ok(format!("ConstantScore({inner})"))
}

/// What Lucene's rewrite prints in place of `ast`, where it differs from the query as parsed:
/// a zero boost's constant score, an `exists` on a field every doc has, a boolean of one
/// scoring clause (that clause, the boosts multiplied: a product of 1 no boost at all).
fn rewritten(ast: &Ast, cx: &Context) -> Result<Option<Rendered>> {
    if ast.boost() == 0.0 {
        return Ok(Some(boosted(
            (zero_boosted(&ast.unboosted(), cx)?, false),
            0.0,
        )));
    }
    match ast {
        Ast::Exists { .. } | Ast::Range(_) => exists_rewrite(ast, cx),
        Ast::Bool(b) => {
            // A lone filter is a constant score of 0.
            if let [only] = b.filter.as_slice() {
                let alone = b.must.is_empty() && b.should.is_empty() && b.must_not.is_empty();
                if alone && should_minimum(b)? == 0 {
                    return Ok(Some(boosted((constant_score(only, cx)?, false), 0.0)));
                }
            }
            if let Some(rewritten) = super::rewritten_bool(b) {
                return Ok(Some(render(&rewritten, cx)?));
            }
            match single_scoring_clause(b)? {
                Some(only) => Ok(Some(boosted(
                    render(&only.unboosted(), cx)?,
                    only.boost() * b.boost,
                ))),
                None => Ok(None),
            }
        }
        _ => Ok(None),
    }
}

/// An `exists` (or a range without bounds, which OpenSearch builds as one) as its rewrite
/// prints: `*:*` where every doc has the field.
fn exists_rewrite(ast: &Ast, cx: &Context) -> Result<Option<Rendered>> {
    let q = super::build(ast, cx)?;
    let Some(c) = q.downcast_ref::<ConstantQuery>() else {
        return Ok(None);
    };
    Ok(match c.description() {
        Some(Described::Leaf { scored, unscored })
            if unscored.starts_with("ConstantScore(FieldExistsQuery")
                || unscored.starts_with("ConstantScore(ConstantScore(FieldExistsQuery") =>
        {
            Some(boosted((scored.clone(), false), c.score()))
        }
        _ => None,
    })
}

/// The one clause of a boolean that has nothing else and needs it to match.
fn single_scoring_clause(b: &dsl::BoolQuery) -> Result<Option<&Ast>> {
    if !b.filter.is_empty() || !b.must_not.is_empty() {
        return Ok(None);
    }
    Ok(match (b.must.as_slice(), b.should.as_slice()) {
        ([only], []) if should_minimum(b)? == 0 => Some(only),
        ([], [only]) if should_minimum(b)? <= 1 => Some(only),
        _ => None,
    })
}

/// What Lucene's rewrite makes of `ast` (its own boost 1) under a boost of 0: a constant score.
pub fn zero_boosted(ast: &Ast, cx: &Context) -> Result<String> {
    match ast {
        Ast::ConstantScore { filter, .. } => constant_score(filter, cx),
        _ => constant_score(ast, cx),
    }
}

/// A query where scores are not wanted (a FILTER or MUST_NOT clause, inside constant_score)
/// as Lucene's rewrite leaves it: without its boost or a constant-score wrapper, a boolean's
/// MUST clauses FILTER and its SHOULD clauses gone beside required ones.
pub fn unscored_clause(q: &Ast, cx: &Context) -> Result<Rendered> {
    match q {
        Ast::ConstantScore { filter, .. } => return unscored_clause(filter, cx),
        Ast::Bool(b) => return unscored_boolean(b, cx),
        // Not `*:*` here even where every doc has the field: Lucene drops such a filter and
        // keeps such an exclusion as written, which this text does not model.
        Ast::Exists { field, .. } => {
            let fields = super::exists_fields(cx, field);
            if let [_, _, ..] = fields.as_slice() {
                let clauses = super::exists_any_rewritten(cx, &fields);
                return Ok((clauses.join(" "), clauses.len() > 1));
            }
            let field = fields.first().map_or(field.as_str(), String::as_str);
            return Ok((format!("FieldExistsQuery [field={field}]"), false));
        }
        Ast::Match(m) => {
            if let MatchShape::Boolean(b) = match_shape(cx, m)? {
                return unscored_boolean(&b, cx);
            }
        }
        // Their booleans come from the query text: read off what they build.
        Ast::QueryString(_) | Ast::SimpleQueryString(_)
            if !super::no_match::rewrites_to_none(cx, q) =>
        {
            let built_q = super::build(&q.unboosted(), &cx.labelling())?;
            if !built_q.is::<tantivy::query::EmptyQuery>() {
                return Ok(built_unscored(built_q.as_ref(), cx.searcher.schema()));
            }
        }
        _ => {}
    }
    let (mut s, mut boolean) = render(&q.unboosted(), cx)?;
    // What the query builds to may carry its own wrappers (a fuzzy term's boost, exists'
    // constant score): the rewrite takes those off too.
    while let Some(inner) = unwrapped(&s) {
        s = inner.to_string();
        boolean = false;
    }
    let fuzzy = match q {
        Ast::Fuzzy(_) => true,
        Ast::Match(m) => m.fuzziness.is_some(),
        _ => false,
    };
    if fuzzy && boolean {
        // A fuzzy query's expansions are a boolean of boosted terms, whose boosts
        // `rewriteNoScoring` takes off.
        s = s
            .split(' ')
            .map(|t| unwrapped(t).unwrap_or(t))
            .collect::<Vec<_>>()
            .join(" ");
    }
    Ok((s, boolean))
}

/// The query inside a `ConstantScore(…)` or `(…)^boost` that wraps all of `text`.
fn unwrapped(text: &str) -> Option<&str> {
    let inner = match text.strip_prefix("ConstantScore(") {
        Some(t) => t.strip_suffix(')')?,
        None => {
            let (head, boost) = text.strip_prefix('(')?.rsplit_once(")^")?;
            boost.parse::<f32>().ok()?;
            head
        }
    };
    balanced(inner).then_some(inner)
}

/// Lucene's `BooleanQuery.rewriteNoScoring`, then its one-clause rewrite: each clause as a
/// constant score rewrites it (no boosts, its own booleans unscored in turn), required clauses
/// filters where they stand, optional ones kept only under a minimum or without a required one.
fn unscored_boolean(b: &dsl::BoolQuery, cx: &Context) -> Result<Rendered> {
    let mut msm = should_minimum(b)?;
    let required = !b.must.is_empty() || !b.filter.is_empty();
    // SHOULD clauses that must all match are MUST clauses first.
    let all_required = msm > 0 && msm == b.should.len();
    if all_required {
        msm = 0;
    }
    let keep_should = (msm > 0 || !required) && !all_required;
    let mut parts: Vec<(&str, Rendered)> = Vec::new();
    // OpenSearch's clause order: must, must_not, should, filter.
    for q in &b.must {
        parts.push(("#", unscored_clause(q, cx)?));
    }
    for q in &b.must_not {
        parts.push(("-", unscored_clause(q, cx)?));
    }
    // Equal optional clauses are one (their boosts, summed, count for nothing here).
    let mut seen: Vec<Ast> = Vec::new();
    for q in &b.should {
        if all_required {
            parts.push(("#", unscored_clause(q, cx)?));
        } else if keep_should {
            let plain = q.unboosted();
            if msm > 1 || !seen.contains(&plain) {
                seen.push(plain);
                parts.push(("", unscored_clause(q, cx)?));
            }
        }
    }
    for q in &b.filter {
        parts.push(("#", unscored_clause(q, cx)?));
    }
    if !required && b.should.is_empty() && !parts.is_empty() {
        // OpenSearch gives a purely negative boolean a match_all filter.
        parts.push(("#", ("*:*".to_string(), false)));
    }
    Ok(match parts.as_slice() {
        [] => render(&Ast::Bool(b.clone()), cx)?,
        [("#", _)] if msm == 0 => parts.remove(0).1,
        [("", _)] if msm <= 1 => parts.remove(0).1,
        _ => boolean_text(parts, msm),
    })
}

/// Clauses as a Lucene boolean prints them: each after its occur's prefix (`#`, `-`, `+` or
/// none), parenthesised if a boolean itself, and the minimum of optional ones after.
fn boolean_text(parts: Vec<(&str, Rendered)>, minimum: usize) -> Rendered {
    let joined = parts
        .into_iter()
        .map(|(prefix, (s, boolean))| {
            if boolean {
                format!("{prefix}({s})")
            } else {
                format!("{prefix}{s}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if minimum > 0 {
        (format!("({joined})~{minimum}"), true)
    } else {
        (joined, true)
    }
}

/// What a `match` on one field builds in Lucene's terms.
pub enum MatchShape {
    /// Its text analyses to no terms.
    NoTerms,
    /// One term: a term query.
    Term,
    /// A boolean of term queries (its boost 1).
    Boolean(dsl::BoolQuery),
    /// Fuzzy terms, phrases, synonyms, several fields: not a plain boolean of terms.
    Other,
}

pub fn match_shape(cx: &Context, m: &dsl::MatchQuery) -> Result<MatchShape> {
    let analysed = cx
        .mapping
        .field(&m.field)
        .is_some_and(|fm| matches!(fm.ty, FieldType::Text | FieldType::Keyword));
    let terms = match analysed_terms(cx, &m.field, m)? {
        Some(ts) if analysed => ts,
        _ => return Ok(MatchShape::Other),
    };
    if terms.is_empty() {
        return Ok(MatchShape::NoTerms);
    }
    let texts: Option<Vec<String>> = terms
        .iter()
        .map(|t| t.value().as_str().map(str::to_string))
        .collect();
    let Some(texts) = texts else {
        return Ok(MatchShape::Other);
    };
    if texts.len() == 1 {
        return Ok(MatchShape::Term);
    }
    let clauses = texts
        .into_iter()
        .map(|t| Ast::Term {
            field: m.field.clone(),
            value: serde_json::Value::String(t),
            boost: 1.0,
            case_insensitive: false,
        })
        .collect();
    let mut b = dsl::BoolQuery {
        must: Vec::new(),
        should: Vec::new(),
        filter: Vec::new(),
        must_not: Vec::new(),
        minimum_should_match: None,
        boost: 1.0,
        lucene: false,
    };
    if m.operator == dsl::Operator::And {
        b.must = clauses;
    } else {
        b.should = clauses;
        b.minimum_should_match = m.minimum_should_match.clone();
    }
    Ok(MatchShape::Boolean(b))
}

/// Whether `text`'s parentheses pair up, so that one wrapper around it encloses all of it
/// (`ConstantScore(a) ConstantScore(b)` is two).
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// `match_none`'s query as Lucene prints it.
fn match_none() -> String {
    format!("MatchNoDocsQuery(\"{}\")", super::no_match::MATCH_NONE)
}

/// Lucene's `toString` of the query an AST builds to.
pub fn render(ast: &Ast, cx: &Context) -> Result<Rendered> {
    // OpenSearch rewrites these to `match_none` on a shard without the field.
    if super::no_match::rewrites_to_none(cx, ast) {
        return Ok((match_none(), false));
    }
    if !cx.parsed {
        if let Some(r) = rewritten(ast, cx)? {
            return Ok(r);
        }
    }
    Ok(match ast {
        Ast::MatchAll { boost } => boosted(("*:*".to_string(), false), *boost),
        // Rewritten, Lucene's `FieldExistsQuery` is `*:*` where every doc has the field: the
        // text its explanation prints.
        // (A range without bounds is OpenSearch's `exists`.)

        // Rewritten, a boolean of one scoring clause is that clause, the boosts multiplied (and
        // a product of 1 no boost at all).
        Ast::Bool(b) => {
            let mut msm = should_minimum(b)?;
            // Rewritten, as Lucene's `BooleanQuery.rewrite` does: SHOULD clauses that must all
            // match become MUST, and with at most one required, a SHOULD clause that is itself
            // a pure disjunction gives its clauses to this one.
            let rewritten = !cx.parsed;
            let flatten = rewritten && msm <= 1;
            // Flattening comes first: a disjunction absorbed brings more optional clauses.
            let mut absorbs = false;
            if flatten && msm == 1 {
                for q in &b.should {
                    absorbs |= absorbed(q, cx)?.is_some();
                }
            }
            let all_required = rewritten && msm > 0 && msm == b.should.len() && !absorbs;
            let should = if all_required { "+" } else { "" };
            if all_required {
                msm = 0;
            }
            let mut parts = Vec::new();
            let groups: [(&str, &Vec<Ast>); 4] = [
                ("+", &b.must),
                ("-", &b.must_not),
                (should, &b.should),
                ("#", &b.filter),
            ];
            for (prefix, list) in groups {
                let shoulds = std::ptr::eq(list, &b.should);
                for q in list {
                    if flatten && shoulds {
                        if let Some(clauses) = absorbed(q, cx)? {
                            parts.push(clauses);
                            continue;
                        }
                    }
                    let unscored = matches!(prefix, "-" | "#");
                    let (s, boolean) = if rewritten && unscored {
                        unscored_clause(q, cx)?
                    } else {
                        render(q, cx)?
                    };
                    let s = if boolean { format!("({s})") } else { s };
                    parts.push(format!("{prefix}{s}"));
                }
            }
            if b.must.is_empty() && b.should.is_empty() && b.filter.is_empty() && !parts.is_empty()
            {
                // OpenSearch gives a purely negative boolean a match_all filter.
                parts.push("#*:*".to_string());
            }
            let joined = parts.join(" ");
            let text = if msm > 0 {
                format!("({joined})~{msm}")
            } else {
                joined
            };
            boosted((text, true), b.boost)
        }
        Ast::DisMax {
            queries,
            tie_breaker,
            boost,
        } => {
            let parts = queries
                .iter()
                .map(|q| render(q, cx))
                .collect::<Result<Vec<_>>>()?;
            boosted(disjunction(parts, *tie_breaker), *boost)
        }
        Ast::Term { boost, .. } if *boost != 1.0 => {
            let plain = match ast {
                Ast::Term {
                    field,
                    value,
                    case_insensitive,
                    ..
                } => Ast::Term {
                    field: field.clone(),
                    value: value.clone(),
                    boost: 1.0,
                    case_insensitive: *case_insensitive,
                },
                _ => unreachable!("matched a term"),
            };
            boosted(render(&plain, cx)?, *boost)
        }
        Ast::ConstantScore { filter, boost } => {
            boosted((constant_score(filter, cx)?, false), *boost)
        }
        Ast::Match(m) => match match_string(cx, &m.field, m)? {
            Some(r) => boosted(r, m.boost),
            None => terms_string(ast, cx)?,
        },
        Ast::MultiMatch(mm)
            if matches!(
                mm.ty,
                dsl::MultiMatchType::BestFields | dsl::MultiMatchType::MostFields
            ) =>
        {
            let as_match = mm.as_match("");
            let mut parts = Vec::new();
            for (field, boost) in super::expand_fields(cx, &mm.fields) {
                match match_string(cx, &field, &as_match)? {
                    Some(r) => parts.push(boosted(r, boost)),
                    None => return terms_string(ast, cx),
                }
            }
            let inner = match parts.len() {
                0 => return terms_string(ast, cx),
                1 => parts.remove(0),
                _ => disjunction(parts, mm.tie_breaker.unwrap_or(mm.ty.default_tie())),
            };
            boosted(inner, mm.boost)
        }
        // Built, for its functions are refused where they are (a field they cannot read), then
        // printed by its label.
        Ast::FunctionScore(_) => built(
            super::build(ast, &cx.labelling())?.as_ref(),
            cx.searcher.schema(),
        ),
        // Lucene's FunctionScoreQuery.boostByQuery, as OpenSearch builds `boosting`.
        Ast::Boosting {
            positive,
            negative,
            negative_boost,
            boost,
        } => boosted(
            (
                {
                    let (positive, negative) = boosting_texts(positive, negative, cx)?;
                    format!(
                        "FunctionScoreQuery({positive}, scored by boost(queryboost(score({negative}))^{negative_boost:?}))"
                    )
                },
                false,
            ),
            *boost,
        ),
        other => terms_string(other, cx)?,
    })
}

/// A `function_score` as Lucene prints it, its boost outside (OpenSearch wraps the
/// `FunctionScoreQuery` in a `BoostQuery`): the label a labelling build gives it.
pub(crate) fn function_score(
    fs: &dsl::function_score::FunctionScoreQuery,
    cx: &Context,
) -> Result<Rendered> {
    let (sub, _) = render(&fs.query, cx)?;
    Ok(boosted(
        (super::function_score::lucene_text(fs, &sub), false),
        fs.boost,
    ))
}

/// A boosting query's positive and negative queries as its `FunctionScoreQuery` prints them:
/// Lucene's rewrite reaches the positive query, not the function holding the negative one,
/// which prints as parsed.
pub fn boosting_texts(positive: &Ast, negative: &Ast, cx: &Context) -> Result<(String, String)> {
    Ok((
        render(positive, cx)?.0,
        render(negative, &cx.validating())?.0,
    ))
}

/// When `ast`, rewritten, is a Lucene boolean of SHOULD clauses only with at most one
/// required (`BooleanQuery.isPureDisjunction`), which a disjunctive parent absorbs: its clauses
/// as the parent prints them, rendered from the one build that told. That is a `bool` of
/// `should` clauses alone, an OR `match` on several terms (on one field, as a `multi_match` too),
/// or a query string of plain terms.
fn absorbed(ast: &Ast, cx: &Context) -> Result<Option<String>> {
    Ok(match ast {
        Ast::Bool(b) => {
            // One required of one is a required clause, not a disjunction.
            let msm = should_minimum(b)?;
            let pure = b.must.is_empty()
                && b.must_not.is_empty()
                && b.filter.is_empty()
                && b.boost == 1.0
                && msm <= 1
                && msm < b.should.len();
            if !pure {
                return Ok(None);
            }
            // Without the minimum of one it may print.
            let plain = dsl::BoolQuery {
                minimum_should_match: None,
                ..b.clone()
            };
            Some(render(&Ast::Bool(plain), cx)?.0)
        }
        Ast::Match(m) => pure_match(cx, &m.field, m)?,
        // On one field, best_fields and most_fields are that field's `match`.
        Ast::MultiMatch(mm)
            if matches!(
                mm.ty,
                dsl::MultiMatchType::BestFields | dsl::MultiMatchType::MostFields
            ) && mm.boost == 1.0 =>
        {
            match super::expand_fields(cx, &mm.fields).as_slice() {
                [(field, boost)] if *boost == 1.0 => pure_match(cx, field, &mm.as_match(field))?,
                _ => None,
            }
        }
        // Built: should clauses alone (an unlabelled sum or boolean, as a query string on one
        // field builds its plain terms).
        Ast::QueryString(_) | Ast::SimpleQueryString(_) => {
            let q = super::build(ast, &cx.labelling())?;
            let sum = q
                .downcast_ref::<super::combine::SumQuery>()
                .is_some_and(|s| s.minimum() <= 1 && s.clauses().len() > 1);
            let boolean = q
                .downcast_ref::<tantivy::query::BooleanQuery>()
                .is_some_and(|b| {
                    b.get_minimum_number_should_match() <= 1
                        && b.clauses().len() > 1
                        && b.clauses()
                            .iter()
                            .all(|(o, _)| *o == tantivy::query::Occur::Should)
                });
            (sum || boolean).then(|| built(q.as_ref(), cx.searcher.schema()).0)
        }
        _ => None,
    })
}

/// How many of a `bool`'s should clauses must match (0 without should clauses).
fn should_minimum(b: &dsl::BoolQuery) -> Result<usize> {
    // Beside required clauses a minimum holds without optional ones (and then matches
    // nothing); a purely negative boolean drops it.
    let required = !b.must.is_empty() || !b.filter.is_empty();
    Ok(match &b.minimum_should_match {
        Some(spec) if !b.should.is_empty() || required => spec.resolve(b.should.len())?,
        _ => 0,
    })
}

/// A `match` on `field` that prints as a disjunction of its terms with nothing required: its
/// terms as printed (what `render` prints for it at boost 1).
fn pure_match(cx: &Context, field: &str, m: &dsl::MatchQuery) -> Result<Option<String>> {
    if m.operator != dsl::Operator::Or
        || m.minimum_should_match.is_some()
        || m.fuzziness.is_some()
        || m.boost != 1.0
    {
        return Ok(None);
    }
    Ok(match match_string(cx, field, m)? {
        Some((s, true)) => Some(s),
        _ => None,
    })
}

/// A query printed from what it builds to (`built`), the reason of a `MatchNoDocsQuery` from
/// the AST.
fn terms_string(ast: &Ast, cx: &Context) -> Result<Rendered> {
    let q = super::build(ast, &cx.labelling())?;
    if q.is::<tantivy::query::EmptyQuery>() {
        return Ok((
            format!("MatchNoDocsQuery(\"{}\")", no_match_reason(ast, cx)),
            false,
        ));
    }
    Ok(built(q.as_ref(), cx.searcher.schema()))
}

/// `built` where nothing is scored (a filter, a constant score): a boolean as Lucene's
/// `rewriteNoScoring` leaves it (required clauses filters, optional ones beside them dropped
/// unless a minimum keeps them, no boosts on its filters and exclusions), one clause left
/// being that clause.
fn built_unscored(q: &dyn tantivy::query::Query, schema: &tantivy::schema::Schema) -> Rendered {
    use super::labelled::LabelledQuery;
    use super::wrappers::BoostedQuery;
    use tantivy::query::{BooleanQuery, Occur};
    if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        return built_unscored(b.inner(), schema);
    }
    let labelled = q
        .downcast_ref::<LabelledQuery>()
        .and_then(|l| Some((l, l.inner().downcast_ref::<BooleanQuery>()?)));
    let (b, n) = match (q.downcast_ref::<BooleanQuery>(), labelled) {
        (Some(b), _) => (b, b.get_minimum_number_should_match()),
        // The minimum of one that a labelled disjunction prints and its boolean does not tell.
        (_, Some((l, b))) if l.text() == at_least_one(b, schema) => (b, 1),
        _ => {
            let (mut s, mut boolean) = built(q, schema);
            while let Some(inner) = unwrapped(&s) {
                s = inner.to_string();
                boolean = false;
            }
            return (s, boolean);
        }
    };
    let shoulds = b
        .clauses()
        .iter()
        .filter(|(o, _)| *o == Occur::Should)
        .count();
    // tantivy's own default (1 for a pure disjunction) is not a minimum Lucene prints.
    let n = if n > 1 || (n == 1 && (labelled.is_some() || shoulds < b.clauses().len())) {
        n
    } else {
        0
    };
    // Optional clauses that must all match are required ones first.
    let promote = n > 0 && n == shoulds;
    let n = if promote { 0 } else { n };
    let required = promote || b.clauses().iter().any(|(o, _)| *o == Occur::Must);
    let keep_should = n > 0 || !required;
    let unscored = |c: &dyn tantivy::query::Query| {
        let inner = c
            .downcast_ref::<ConstantQuery>()
            .filter(|k| k.score() == 0.0 && k.description().is_none())
            .map_or(c, ConstantQuery::inner);
        built_unscored(inner, schema)
    };
    let kept: Vec<(Occur, &dyn tantivy::query::Query)> = b
        .clauses()
        .iter()
        .filter(|(o, _)| *o != Occur::Should || keep_should || promote)
        .map(|(o, c)| match o {
            Occur::Should if promote => (Occur::Must, c.as_ref()),
            o => (*o, c.as_ref()),
        })
        .collect();
    if let [(occur, only)] = kept.as_slice() {
        if *occur == Occur::Must || (*occur == Occur::Should && n <= 1) {
            return unscored(*only);
        }
    }
    let parts = kept
        .iter()
        .map(|(occur, c)| {
            let prefix = match occur {
                Occur::Must => "#",
                Occur::MustNot => "-",
                Occur::Should => "",
            };
            (prefix, unscored(*c))
        })
        .collect();
    boolean_text(parts, n)
}

/// A conjunction as Lucene prints it: every clause required.
pub fn conjunction(
    clauses: &[Box<dyn tantivy::query::Query>],
    schema: &tantivy::schema::Schema,
) -> String {
    clauses
        .iter()
        .map(|c| match built(c.as_ref(), schema) {
            (s, true) => format!("+({s})"),
            (s, false) => format!("+{s}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A disjunction with an explicit minimum of one, which `built` cannot tell from tantivy's
/// default.
pub fn at_least_one(q: &dyn tantivy::query::Query, schema: &tantivy::schema::Schema) -> String {
    format!("({})~1", built(q, schema).0)
}

/// Lucene's `toString` of a built query, from its structure: booleans, disjunctions, boosts,
/// terms and phrases as Lucene prints them, labelled and described queries by their text, any
/// other by the terms it holds.
pub fn built(q: &dyn tantivy::query::Query, schema: &tantivy::schema::Schema) -> Rendered {
    use super::combine::{DisMaxQuery, SumQuery};
    use super::labelled::LabelledQuery;
    use super::lucene_term::LuceneTermQuery;
    use super::match_no_docs::disjunct;
    use super::phrase::LucenePhraseQuery;
    use super::wrappers::BoostedQuery;
    use tantivy::query::{AllQuery, BooleanQuery, EmptyQuery, Occur};
    let clause = |q: &dyn tantivy::query::Query| {
        let (s, boolean) = built(q, schema);
        if boolean {
            format!("({s})")
        } else {
            s
        }
    };
    let minimum = |s: String, n: usize| -> Rendered {
        if n > 0 {
            (format!("({s})~{n}"), true)
        } else {
            (s, true)
        }
    };
    if let Some(l) = q.downcast_ref::<LabelledQuery>() {
        return (l.text().to_string(), l.is_boolean());
    }
    if let Some(t) = q.downcast_ref::<LuceneTermQuery>() {
        // A zero boost rewrites to a constant score (a fuzzy expansion at the edit limit).
        if t.boost() == 0.0 {
            return (
                format!("(ConstantScore({}))^0.0", term_string(schema, t.term())),
                false,
            );
        }
        return boosted((term_string(schema, t.term()), false), t.boost());
    }
    if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        return boosted(built(b.inner(), schema), b.boost());
    }
    if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
        let parts = d
            .clauses()
            .iter()
            .map(|c| built(disjunct(d.clauses(), c.as_ref()), schema))
            .collect();
        return disjunction(parts, d.tie());
    }
    if let Some(sum) = q.downcast_ref::<SumQuery>() {
        let parts: Vec<String> = sum.clauses().iter().map(|c| clause(c.as_ref())).collect();
        let n = if sum.minimum() > 1 { sum.minimum() } else { 0 };
        return minimum(parts.join(" "), n);
    }
    if let Some(b) = q.downcast_ref::<BooleanQuery>() {
        let parts: Vec<String> = b
            .clauses()
            .iter()
            .map(|(occur, c)| {
                // A filter clause is a required constant scoring 0.
                let filter = c.downcast_ref::<ConstantQuery>().filter(|k| {
                    *occur == Occur::Must && k.score() == 0.0 && k.description().is_none()
                });
                if let Some(f) = filter {
                    return format!("#{}", clause(f.inner()));
                }
                let prefix = match occur {
                    Occur::Must => "+",
                    Occur::MustNot => "-",
                    Occur::Should => "",
                };
                format!("{prefix}{}", clause(c.as_ref()))
            })
            .collect();
        // tantivy's own default (1 for a pure disjunction) is not a minimum Lucene prints.
        let n = b.get_minimum_number_should_match();
        let required = b.clauses().iter().any(|(o, _)| *o != Occur::Should);
        let n = if n > 1 || (n == 1 && required) { n } else { 0 };
        return minimum(parts.join(" "), n);
    }
    if let Some(p) = q.downcast_ref::<LucenePhraseQuery>() {
        let text = p.describe(schema.get_field_name(p.field()));
        return boosted((text, false), p.boost());
    }
    if let Some(r) = described_text(q) {
        return r;
    }
    if let Some(c) = q.downcast_ref::<ConstantQuery>() {
        if c.inner().is::<AllQuery>() {
            return boosted(("*:*".to_string(), false), c.score());
        }
        return built(c.inner(), schema);
    }
    if q.is::<EmptyQuery>() {
        return ("MatchNoDocsQuery(\"\")".to_string(), false);
    }
    if let Some(m) = q.downcast_ref::<super::match_no_docs::MatchNoDocs>() {
        return (format!("MatchNoDocsQuery(\"{}\")", m.reason()), false);
    }
    let mut terms = Vec::new();
    q.query_terms(&mut |t, _| terms.push(term_string(schema, t)));
    match terms.len() {
        0 => ("MatchNoDocsQuery(\"\")".to_string(), false),
        1 => (terms.remove(0), false),
        _ => (terms.join(" "), true),
    }
}

/// Why a query that matches nothing does, as OpenSearch's `MatchNoDocsQuery` says it: a
/// term-level query on an unmapped field is rewritten to `match_none`; a full-text one names
/// the unmapped field; a lenient one the failure it swallowed (`Queries.newLenientFieldQuery`,
/// which prints the field query's own exception, not the shard's wrapper).
pub(crate) fn no_match_reason(ast: &Ast, cx: &Context) -> String {
    let unmapped = |f: &str| cx.mapping.field(f).is_none();
    let lenient_failure = |field: &str, strict: Ast| match super::build(&strict, cx) {
        Err(e) => super::match_no_docs::lenient_failure(field, &e),
        Ok(_) => String::new(),
    };
    match ast {
        _ if super::no_match::rewrites_to_none(cx, ast) => super::no_match::MATCH_NONE.to_string(),
        Ast::Match(m) | Ast::MatchBoolPrefix(m) if unmapped(&m.field) => {
            format!("unmapped fields [{}]", m.field)
        }
        Ast::Match(m) if m.lenient => lenient_failure(
            &m.field,
            Ast::Match(dsl::MatchQuery {
                lenient: false,
                ..m.clone()
            }),
        ),
        _ => String::new(),
    }
}

/// Lucene's `Term.toString(BytesRef)`: the bytes as UTF-8 text, or as `BytesRef` prints them
/// (`[fe 1f]`, lowercase hex without padding) when they are not valid UTF-8.
pub fn bytes_text(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => s.to_string(),
        Err(_) => hex_bytes(b),
    }
}

/// Lucene's `NumericUtils.doubleToSortableLong`: how a double's doc values print.
fn double_to_sortable_long(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((bits >> 63) & i64::MAX)
}

/// `BytesRef.toString`: lowercase hex without padding, always.
fn hex_bytes(b: &[u8]) -> String {
    let hex: Vec<String> = b.iter().map(|x| format!("{x:x}")).collect();
    format!("[{}]", hex.join(" "))
}

/// `TermInSetQuery.toString`: `field:(a b)`, the terms' bytes sorted and distinct.
pub fn term_set(field: &str, terms: impl IntoIterator<Item = Vec<u8>>) -> String {
    let set: std::collections::BTreeSet<Vec<u8>> = terms.into_iter().collect();
    let texts: Vec<String> = set.iter().map(|b| bytes_text(b)).collect();
    format!("{field}:({})", texts.join(" "))
}

/// The bytes OpenSearch indexes an `_id` as (`Uid.encodeId`): digits packed two to a byte
/// after 0xfe, URL-safe base64 without padding decoded (0xfd before a first byte of 0xfd or
/// more), anything else as UTF-8 after 0xff.
pub fn encode_id(id: &str) -> Vec<u8> {
    if !id.is_empty() && id.bytes().all(|c| c.is_ascii_digit()) {
        let digits = id.as_bytes();
        let mut out = vec![0xfe];
        for pair in digits.chunks(2) {
            let hi = pair[0] - b'0';
            let lo = pair.get(1).map_or(0x0f, |d| d - b'0');
            out.push((hi << 4) | lo);
        }
        return out;
    }
    if let Some(mut b) = url_base64_without_padding(id) {
        if b.first().is_some_and(|&x| x >= 0xfd) {
            b.insert(0, 0xfd);
        }
        return b;
    }
    let mut out = vec![0xff];
    out.extend_from_slice(id.as_bytes());
    out
}

/// `id` decoded as URL-safe base64 without padding, if it is exactly that (`Uid`'s test: the
/// unused low bits of the last symbol must be zero, so no two ids decode alike).
fn url_base64_without_padding(id: &str) -> Option<Vec<u8>> {
    let sextet = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        } as u32)
    };
    let bytes = id.as_bytes();
    let last = sextet(*bytes.last()?)?;
    match bytes.len() % 4 {
        1 => return None,
        2 if last & 0x0f != 0 => return None,
        3 if last & 0x03 != 0 => return None,
        _ => {}
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in bytes {
        acc = (acc << 6) | sextet(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Lucene's texts of the points query OpenSearch builds for a range (or an exact value) on a
/// field of this type, and of its doc-values twin: inclusive bounds, open ends at the type's
/// extremes (infinities for doubles), ips as their 16 bytes. They differ for doubles, which the
/// points query prints as Java does and the doc-values query as their sortable longs. `None`
/// for the types printed otherwise.
pub fn point_range(
    field: &str,
    ty: FieldType,
    lo: &Bound<Term>,
    hi: &Bound<Term>,
) -> Option<(String, String)> {
    use FieldType::*;
    let side = |b: &Bound<Term>, upper: bool| -> Option<(String, String)> {
        let step: i64 = match b {
            Bound::Included(_) => 0,
            Bound::Excluded(_) if upper => -1,
            Bound::Excluded(_) => 1,
            Bound::Unbounded => 0,
        };
        let value = match b {
            Bound::Included(t) | Bound::Excluded(t) => Some(t.value()),
            Bound::Unbounded => None,
        };
        let same = |s: String| Some((s.clone(), s));
        match ty {
            Long | Integer | Short | Byte | Date => {
                let x = match (value, ty) {
                    (Some(v), Date) => v.as_date()?.into_timestamp_millis() + step,
                    (Some(v), _) => v.as_i64()? + step,
                    (None, Integer | Short | Byte) if upper => i32::MAX as i64,
                    (None, Integer | Short | Byte) => i32::MIN as i64,
                    (None, _) if upper => i64::MAX,
                    (None, _) => i64::MIN,
                };
                same(x.to_string())
            }
            Double => {
                let x = match value {
                    Some(v) => v.as_f64()?,
                    None if upper => f64::INFINITY,
                    None => f64::NEG_INFINITY,
                };
                let x = match step {
                    1 => x.next_up(),
                    -1 => x.next_down(),
                    _ => x,
                };
                Some((
                    super::function_score::java_double(x),
                    double_to_sortable_long(x).to_string(),
                ))
            }
            Ip => {
                let x = match value {
                    Some(v) => u128::from_be_bytes(v.as_ip_addr()?.octets()),
                    None if upper => u128::MAX,
                    None => 0,
                };
                let x = match step {
                    1 => x.saturating_add(1),
                    -1 => x.saturating_sub(1),
                    _ => x,
                };
                let octets = x.to_be_bytes();
                Some((java_host_address(&octets), hex_bytes(&octets)))
            }
            _ => None,
        }
    };
    let ((lo_index, lo_dv), (hi_index, hi_dv)) = (side(lo, false)?, side(hi, true)?);
    Some((
        format!("{field}:[{lo_index} TO {hi_index}]"),
        format!("{field}:[{lo_dv} TO {hi_dv}]"),
    ))
}

/// `InetAddress.getHostAddress` of an ip as OpenSearch decodes it: an IPv4-mapped address as
/// IPv4, any other as eight hex groups, uncompressed.
fn java_host_address(octets: &[u8; 16]) -> String {
    let v6 = std::net::Ipv6Addr::from(*octets);
    match v6.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => v6
            .segments()
            .iter()
            .map(|s| format!("{s:x}"))
            .collect::<Vec<_>>()
            .join(":"),
    }
}

/// OpenSearch's `LongHashSet.toString` (the doc-values half of a numeric `terms`): the
/// distinct values in the order of its open-addressing table, sized to the next power of two
/// past 1.5 per value and slotted by `Long.hashCode`.
pub fn long_hash_set(values: &[i64]) -> String {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let missing = sorted.first() == Some(&i64::MIN);
    let wanted = (values.len() as u64 * 3 / 2).max(1);
    let size = 1usize << (64 - wanted.leading_zeros());
    let mask = size - 1;
    let mut table: Vec<Option<i64>> = vec![None; size];
    for &v in sorted.iter().filter(|&&v| v != i64::MIN) {
        let hash = (v ^ ((v as u64) >> 32) as i64) as i32;
        let mut i = (hash as u32 as usize) & mask;
        while table[i].is_some() {
            i = (i + 1) & mask;
        }
        table[i] = Some(v);
    }
    let mut out: Vec<String> = Vec::with_capacity(sorted.len());
    if missing {
        out.push(i64::MIN.to_string());
    }
    out.extend(table.into_iter().flatten().map(|v| v.to_string()));
    format!("[{}]", out.join(", "))
}

/// Lucene's texts of a numeric or ip `terms` query as OpenSearch builds it: a points set
/// query (values sorted) and its doc-values twin. `None` for the types built otherwise.
pub fn point_set(field: &str, ty: FieldType, terms: &[Term]) -> Option<(String, String)> {
    use FieldType::*;
    match ty {
        Long | Integer | Short | Byte => {
            let mut v: Vec<i64> = terms.iter().filter_map(|t| t.value().as_i64()).collect();
            let dv = long_hash_set(&v);
            v.sort_unstable();
            v.dedup();
            let index: Vec<String> = v.iter().map(i64::to_string).collect();
            Some((
                format!("{field}:{{{}}}", index.join(" ")),
                format!("{field}: {dv}"),
            ))
        }
        Double => {
            let mut v: Vec<f64> = terms.iter().filter_map(|t| t.value().as_f64()).collect();
            v.sort_by(f64::total_cmp);
            v.dedup();
            let sortable: Vec<i64> = v.iter().map(|x| double_to_sortable_long(*x)).collect();
            let index: Vec<String> = v
                .iter()
                .map(|x| super::function_score::java_double(*x))
                .collect();
            Some((
                format!("{field}:{{{}}}", index.join(" ")),
                format!("{field}: {}", long_hash_set(&sortable)),
            ))
        }
        Ip => {
            let mut v: Vec<[u8; 16]> = terms
                .iter()
                .filter_map(|t| Some(t.value().as_ip_addr()?.octets()))
                .collect();
            v.sort_unstable();
            v.dedup();
            let index: Vec<String> = v.iter().map(java_host_address).collect();
            let dv: Vec<String> = v.iter().map(|o| hex_bytes(o)).collect();
            Some((
                format!("{field}:{{{}}}", index.join(" ")),
                format!("{field}:({})", dv.join(" ")),
            ))
        }
        _ => None,
    }
}

/// A `terms` query on a date field as OpenSearch builds it: a constant-score disjunction of
/// each value's (rounded) range, in the order given.
pub fn date_set(
    field: &str,
    spans: &[(Bound<Term>, Bound<Term>)],
    doc_values: bool,
) -> Option<String> {
    let mut parts = Vec::with_capacity(spans.len());
    for (lo, hi) in spans {
        match points(point_range(field, FieldType::Date, lo, hi)?, doc_values) {
            Described::Leaf { unscored, .. } => parts.push(unscored),
            Described::FilterClause(_) => return None,
        }
    }
    Some(format!("ConstantScore({})", parts.join(" ")))
}

/// `TermRangeQuery.toString` of a keyword or text range: `*` for an open end.
pub fn term_range(field: &str, lo: &Bound<Term>, hi: &Bound<Term>) -> String {
    let text = |b: &Bound<Term>| match b {
        Bound::Included(t) | Bound::Excluded(t) => bytes_text(t.serialized_value_bytes()),
        Bound::Unbounded => "*".to_string(),
    };
    let open = if matches!(lo, Bound::Excluded(_)) {
        '{'
    } else {
        '['
    };
    let close = if matches!(hi, Bound::Excluded(_)) {
        '}'
    } else {
        ']'
    };
    format!("{field}:{open}{} TO {}{close}", text(lo), text(hi))
}

/// A points query as OpenSearch builds it on a field with doc values: Lucene's
/// `IndexOrDocValuesQuery`, printed whole where nothing is scored; a scored search runs (and
/// an explanation prints) its doc-values query.
pub fn points((index, dv): (String, String), doc_values: bool) -> Described {
    if !doc_values {
        return plain(index);
    }
    Described::Leaf {
        unscored: format!("IndexOrDocValuesQuery(indexQuery={index}, dvQuery={dv})"),
        scored: dv,
    }
}

/// A term-level query printed alike scored or not.
pub fn plain(text: String) -> Described {
    Described::Leaf {
        scored: text.clone(),
        unscored: text,
    }
}

/// What a built query says of itself: the unscored text of a described constant-score query,
/// with its boost as `BoostQuery` prints it.
fn described_text(q: &dyn tantivy::query::Query) -> Option<Rendered> {
    let c = q.downcast_ref::<ConstantQuery>()?;
    match c.description()? {
        Described::Leaf { unscored, .. } => Some(boosted((unscored.clone(), false), c.score())),
        Described::FilterClause(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::Schema;

    #[test]
    fn ids_encode_as_opensearch_indexes_them() {
        let hex = |id: &str| bytes_text(&encode_id(id));
        // Digits, two to a byte, 0xf closing an odd count.
        assert_eq!(hex("1"), "[fe 1f]");
        assert_eq!(hex("12"), "[fe 12]");
        assert_eq!(hex("123"), "[fe 12 3f]");
        // URL-safe base64 without padding, decoded; an escape before a first byte of 0xfd up.
        assert_eq!(hex("abc"), "[69 b7]");
        assert_eq!(hex("_w"), "[fd ff]");
        // Decoded bytes that are UTF-8 print as text, as Lucene's Term.toString does.
        assert_eq!(hex("aGk"), "hi");
        // Not base64: a last symbol with its unused bits set, a length of 4n+1, other chars.
        assert_eq!(hex("ab"), "[ff 61 62]");
        assert_eq!(hex("abcde"), "[ff 61 62 63 64 65]");
        assert_eq!(hex("x y"), "[ff 78 20 79]");
    }

    #[test]
    fn long_hash_sets_print_in_table_order() {
        // OpenSearch 2.19's answer for `terms: {n: [6, 5, 100, -1, 3000000000, 17, 1024]}`:
        // 16 slots, 1024 and 3000000000 probing past the -1 and 17 in theirs.
        assert_eq!(
            long_hash_set(&[6, 5, 100, -1, 3_000_000_000, 17, 1024]),
            "[-1, 17, 1024, 3000000000, 100, 5, 6]"
        );
        assert_eq!(long_hash_set(&[5, 5, 6]), "[5, 6]");
        // Long.MIN_VALUE is the table's empty marker: OpenSearch lists it first.
        assert_eq!(long_hash_set(&[3, i64::MIN]), format!("[{}, 3]", i64::MIN));
    }

    #[test]
    fn ips_print_as_java_host_addresses() {
        let v4 = std::net::Ipv4Addr::new(10, 0, 0, 1)
            .to_ipv6_mapped()
            .octets();
        assert_eq!(java_host_address(&v4), "10.0.0.1");
        let v6: std::net::Ipv6Addr = "2001:db8::ff".parse().unwrap();
        assert_eq!(java_host_address(&v6.octets()), "2001:db8:0:0:0:0:0:ff");
        assert_eq!(hex_bytes(&[0, 2, 0xfe]), "[0 2 fe]");
    }

    #[test]
    fn term_ranges_print_open_ends_and_exclusions() {
        let mut sb = Schema::builder();
        let k = sb.add_text_field("k", tantivy::schema::STRING);
        let _ = sb.build();
        let t = |s: &str| Term::from_field_text(k, s);
        assert_eq!(
            term_range("k", &Bound::Included(t("a")), &Bound::Excluded(t("m"))),
            "k:[a TO m}"
        );
        assert_eq!(
            term_range("k", &Bound::Excluded(t("a")), &Bound::Unbounded),
            "k:{a TO *]"
        );
    }

    #[test]
    fn term_sets_print_sorted_and_distinct() {
        let set = term_set("k", ["b", "a", "b"].map(|s| s.as_bytes().to_vec()));
        assert_eq!(set, "k:(a b)");
    }

    #[test]
    fn point_ranges_print_lucenes_bounds() {
        let mut sb = Schema::builder();
        let n = sb.add_i64_field("n", tantivy::schema::INDEXED);
        let f = sb.add_f64_field("f", tantivy::schema::INDEXED);
        let d = sb.add_date_field("d", tantivy::schema::INDEXED);
        let _ = sb.build();
        let long = |x| Term::from_field_i64(n, x);
        assert_eq!(
            point_range(
                "n",
                FieldType::Long,
                &Bound::Excluded(long(1)),
                &Bound::Unbounded
            ),
            Some((
                "n:[2 TO 9223372036854775807]".into(),
                "n:[2 TO 9223372036854775807]".into()
            ))
        );
        assert_eq!(
            point_range(
                "n",
                FieldType::Integer,
                &Bound::Unbounded,
                &Bound::Excluded(long(10))
            )
            .map(|p| p.0),
            Some("n:[-2147483648 TO 9]".into())
        );
        let double = |x| Term::from_field_f64(f, x);
        assert_eq!(
            point_range(
                "f",
                FieldType::Double,
                &Bound::Excluded(double(1.0)),
                &Bound::Included(double(2.0))
            ),
            Some((
                "f:[1.0000000000000002 TO 2.0]".into(),
                "f:[4607182418800017409 TO 4611686018427387904]".into()
            ))
        );
        assert_eq!(
            point_range("f", FieldType::Double, &Bound::Unbounded, &Bound::Unbounded),
            Some((
                "f:[-Infinity TO Infinity]".into(),
                "f:[-9218868437227405313 TO 9218868437227405312]".into()
            ))
        );
        let day = |ms| Term::from_field_date(d, tantivy::DateTime::from_timestamp_millis(ms));
        assert_eq!(
            point_range(
                "d",
                FieldType::Date,
                &Bound::Included(day(1577923200000)),
                &Bound::Excluded(day(1578009600000))
            )
            .map(|p| p.0),
            Some("d:[1577923200000 TO 1578009599999]".into())
        );
        assert_eq!(
            point_range(
                "k",
                FieldType::Keyword,
                &Bound::Unbounded,
                &Bound::Unbounded
            ),
            None
        );
    }
}
