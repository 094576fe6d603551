//! Why a document does not match: the explanation Lucene's weights give for a miss, which
//! `_explain` returns beside `matched: false`.
//!
//! A boolean miss names the clauses that decided it ("no match on required clause (…)",
//! "match on prohibited clause (…)", each with Lucene's `toString` of the clause) beside the
//! explanations of the clauses that did match. tantivy's weights only say that a document does
//! not match, so the miss is built here from the query as parsed: Lucene's boolean rewrites,
//! the texts its weights give, and the built clauses' own explanations where they match.

use super::combine::{DisMaxQuery, SumQuery};
use super::constant::{ConstantQuery, Described};
use super::function_score::java_float;
use super::lucene_string::{self, MatchShape};
use super::match_no_docs::MatchNoDocs;
use super::phrase::LucenePhraseQuery;
use super::wrappers::BoostedQuery;
use super::{boosted, build, min_should, Context};
use crate::dsl::{self, Query as Ast};
use crate::error::Result;
use tantivy::query::{BooleanQuery, EnableScoring, Explanation, Query};
use tantivy::{DocId, SegmentReader};

/// The document being explained.
pub struct Doc<'r> {
    pub reader: &'r SegmentReader,
    pub doc: DocId,
    /// Lucene's id for it, which a constant-score weight's miss prints.
    pub lucene: u32,
}

/// The explanation of `ast` missing `d`, where scores are wanted (the top of `_explain`).
pub fn explain(ast: &Ast, cx: &Context, d: &Doc) -> Result<Explanation> {
    Miss { cx, d }.scored(ast, 1.0)
}

struct Miss<'a, 'c, 'r> {
    cx: &'a Context<'c>,
    d: &'a Doc<'r>,
}

/// How a boolean clause takes part, in OpenSearch's order of them.
#[derive(Clone, Copy, PartialEq)]
enum Occur {
    Must,
    MustNot,
    Should,
    Filter,
}

/// The reason of OpenSearch's `match_none`, which also stands for what it rewrites away.
pub(crate) const MATCH_NONE: &str = "User requested \"match_none\" query.";

/// Whether OpenSearch rewrites `ast` to `match_none` before the shard builds it.
pub(crate) fn rewrites_to_none(cx: &Context, ast: &Ast) -> bool {
    match ast {
        Ast::MatchNone { .. } => true,
        Ast::Ids { values, .. } => values.is_empty(),
        Ast::ConstantScore { filter, .. } => rewrites_to_none(cx, filter),
        // `FunctionScoreQueryBuilder.doRewrite`: its functions are never built then.
        Ast::FunctionScore(f) => rewrites_to_none(cx, &f.query),
        Ast::Bool(b) => {
            !b.lucene
                && b.must
                    .iter()
                    .chain(&b.filter)
                    .any(|q| rewrites_to_none(cx, q))
        }
        Ast::Exists { field, .. } => field != "_id" && super::exists_fields(cx, field).is_empty(),
        _ => rewritten_unmapped(ast).is_some_and(|f| cx.mapping.field(f).is_none()),
    }
}

/// The field of a term-level query that OpenSearch rewrites to `match_none` where the field
/// is not mapped.
pub(crate) fn rewritten_unmapped(ast: &Ast) -> Option<&str> {
    match ast {
        Ast::Term { field, .. }
        | Ast::Terms { field, .. }
        | Ast::Prefix { field, .. }
        | Ast::Exists { field, .. } => Some(field),
        Ast::Range(r) => Some(&r.field),
        Ast::Wildcard(w) => Some(&w.field),
        Ast::Fuzzy(f) => Some(&f.field),
        _ => None,
    }
}

/// The reason of the `MatchNoDocsQuery` a boolean without clauses rewrites to.
const EMPTY_BOOLEAN: &str = "empty BooleanQuery";

/// Whether a built query is Lucene's `MatchNoDocsQuery` (under any boost).
fn matches_nothing(mut q: &dyn Query) -> bool {
    while let Some(b) = q.downcast_ref::<BoostedQuery>() {
        q = b.inner();
    }
    super::match_no_docs::is_match_no_docs(q)
}

/// `BooleanWeight`'s words for a miss, from what its clauses did.
fn failure(
    details: Vec<Explanation>,
    fail: bool,
    matching: usize,
    should_matching: usize,
    minimum: usize,
) -> Explanation {
    let description = if fail {
        "Failure to meet condition(s) of required/prohibited clause(s)".to_string()
    } else if matching == 0 {
        "No matching clauses".to_string()
    } else if should_matching < minimum {
        format!("Failure to match minimum number of optional clauses: {minimum}")
    } else {
        // Every clause agrees; what missed is beyond this model (a nested rewrite).
        return no_match("no matching term");
    };
    let mut e = no_match(description);
    for d in details {
        e.add_detail(d);
    }
    e
}

fn no_match(description: impl Into<String>) -> Explanation {
    Explanation::new_with_string(description.into(), 0.0)
}

fn no_match_of(description: impl Into<String>, detail: Explanation) -> Explanation {
    let mut e = no_match(description);
    e.add_detail(detail);
    e
}

impl Miss<'_, '_, '_> {
    fn scoring(&self) -> EnableScoring<'_> {
        EnableScoring::enabled_from_searcher(self.cx.searcher)
    }

    fn matches(&self, ast: &Ast) -> Result<bool> {
        self.hits(build(ast, self.cx)?.as_ref())
    }

    /// A matching clause's explanation under the boost of the queries above it.
    fn matched(&self, ast: &Ast, boost: f32) -> Result<Explanation> {
        let q = boosted(build(ast, self.cx)?, boost);
        Ok(q.weight(self.scoring())?
            .explain(self.d.reader, self.d.doc)?)
    }

    fn unscored_text(&self, ast: &Ast) -> Result<String> {
        Ok(lucene_string::unscored_clause(ast, self.cx)?.0)
    }

    /// The text of the weight an unscored clause explains with: a `function_score` without
    /// `min_score` makes no weight of its own where nothing is scored, but its query's.
    fn unscored_weight_text(&self, mut ast: &Ast) -> Result<String> {
        while let Ast::FunctionScore(fs) = ast {
            if fs.min_score.is_some() {
                break;
            }
            ast = &fs.query;
        }
        self.unscored_text(ast)
    }

    /// Whether `ast` is Lucene's `MatchNoDocsQuery` by the time a boolean rewrites.
    fn no_docs(&self, ast: &Ast) -> bool {
        rewrites_to_none(self.cx, ast)
            || build(ast, self.cx).is_ok_and(|q| matches_nothing(q.as_ref()))
    }

    /// A miss where scores are not wanted: Lucene caches those weights, and a cached weight
    /// answers as a constant-score one.
    fn unscored(&self, text: &str) -> Explanation {
        no_match(format!("{text} doesn't match id {}", self.d.lucene))
    }

    /// A miss where scores are wanted, under the boost of the queries above.
    fn scored(&self, ast: &Ast, boost: f32) -> Result<Explanation> {
        if rewrites_to_none(self.cx, ast) {
            return Ok(no_match(MATCH_NONE));
        }
        if ast.boost() == 0.0 {
            // A zero boost is a constant score of 0 (`query::build`).
            let text = lucene_string::zero_boosted(&ast.unboosted(), self.cx)?;
            return Ok(self.unscored(&text));
        }
        match ast {
            Ast::Bool(b) => match super::rewritten_bool(b) {
                Some(rewritten) => self.scored(&rewritten, boost),
                None => self.boolean(b, boost),
            },
            Ast::DisMax {
                queries,
                tie_breaker,
                boost: own,
            } => self.disjunction(queries, *tie_breaker, boost * own),
            // Both explain their inner query's miss as it is.
            Ast::FunctionScore(fs) if !self.matches(&fs.query)? => {
                self.scored(&fs.query, boost * fs.boost)
            }
            Ast::FunctionScore(fs) if fs.min_score.is_some() => {
                let min = fs.min_score.unwrap_or_default();
                let scored =
                    Ast::FunctionScore(Box::new(dsl::function_score::FunctionScoreQuery {
                        min_score: None,
                        ..(**fs).clone()
                    }));
                let e = self.matched(&scored, boost)?;
                Ok(no_match_of(
                    format!(
                        "Score value is too low, expected at least {} but got {}",
                        java_float(min),
                        java_float(e.value())
                    ),
                    e,
                ))
            }
            Ast::Boosting {
                positive,
                boost: own,
                ..
            } => self.scored(positive, boost * own),
            // Lucene's regexp query on a field the shard lacks, constant score.
            Ast::Regexp(r) if self.cx.mapping.field(&r.field).is_none() => {
                Ok(self.unscored(&format!("{}:/{}/", r.field, r.value)))
            }
            Ast::Match(m) => self.text(ast, m, boost),
            Ast::MultiMatch(mm) => self.fields(ast, mm, boost),
            Ast::Fuzzy(_) => {
                // Its expansions are the index's terms within reach: an exact term (no edits
                // allowed) counts only where the index has it.
                let q = build(ast, self.cx)?;
                let mut terms = Vec::new();
                q.query_terms(&mut |t, _| terms.push(t.clone()));
                let mut expansions = 0;
                for t in &terms {
                    if self.cx.searcher.doc_freq(t)? > 0 {
                        expansions += 1;
                    }
                }
                Ok(no_match(match expansions {
                    0 => EMPTY_BOOLEAN,
                    1 => "no matching term",
                    _ => "No matching clauses",
                }))
            }
            _ => self.leaf(ast),
        }
    }

    /// A `match` on one field is Lucene's boolean of its analysed terms (one term alone a
    /// term query), which misses as that boolean does.
    fn text(&self, ast: &Ast, m: &dsl::MatchQuery, boost: f32) -> Result<Explanation> {
        match lucene_string::match_shape(self.cx, m)? {
            MatchShape::NoTerms if m.zero_terms_query == dsl::ZeroTerms::None => {
                Ok(no_match("Matching no documents because no terms present"))
            }
            MatchShape::Term => Ok(no_match("no matching term")),
            MatchShape::Boolean(b) => self.boolean(
                &dsl::BoolQuery {
                    boost: m.boost,
                    ..b
                },
                boost,
            ),
            _ => self.leaf(ast),
        }
    }

    /// `best_fields` and `phrase` are a `dis_max` of a query per field.
    fn fields(&self, ast: &Ast, mm: &dsl::MultiMatchQuery, boost: f32) -> Result<Explanation> {
        use dsl::MultiMatchType as Type;
        let lenient = mm.runs_lenient();
        // A lenient phrase's failing fields are read off what it builds (a phrase query has no
        // leniency of its own to walk).
        if !matches!(mm.ty, Type::BestFields | Type::Phrase)
            || mm.fuzziness.is_some()
            || (lenient && mm.ty == Type::Phrase)
        {
            return self.leaf(ast);
        }
        let per_field: Vec<Ast> = super::text::expand_fields(self.cx, &mm.fields)
            .into_iter()
            .map(|(field, field_boost)| match mm.ty {
                Type::Phrase => Ast::MatchPhrase(dsl::MatchPhraseQuery {
                    field,
                    query: mm.query.clone(),
                    slop: mm.slop,
                    analyzer: mm.analyzer.clone(),
                    zero_terms_query: mm.zero_terms_query,
                    boost: field_boost,
                    max_expansions: None,
                }),
                _ => Ast::Match(dsl::MatchQuery {
                    lenient,
                    boost: field_boost,
                    ..mm.as_match(&field)
                }),
            })
            .collect();
        if per_field.is_empty() {
            return self.leaf(ast);
        }
        let tie = mm.tie_breaker.unwrap_or(mm.ty.default_tie());
        self.disjunction(&per_field, tie, boost * mm.boost)
    }

    /// Lucene's `DisjunctionMaxWeight.explain` of a miss: each clause's. One clause alone is
    /// that clause, and a tie breaker of 1 a boolean disjunction, as Lucene rewrites them.
    fn disjunction(&self, queries: &[Ast], tie: f32, boost: f32) -> Result<Explanation> {
        if let [one] = queries {
            return self.scored(one, boost);
        }
        if tie == 1.0 {
            // A boolean disjunction, whose rewrite drops the clauses that match nothing.
            if queries.iter().all(|q| self.no_docs(q)) {
                return Ok(no_match(EMPTY_BOOLEAN));
            }
            return Ok(no_match("No matching clauses"));
        }
        let mut e = no_match("No matching clause");
        // Lucene's multiset of disjuncts holds one `MatchNoDocsQuery` for all of them.
        let first_none = queries.iter().find(|q| self.no_docs(q));
        for q in queries {
            let q = match first_none {
                Some(first) if self.no_docs(q) => first,
                _ => q,
            };
            e.add_detail(self.scored(q, boost)?);
        }
        Ok(e)
    }

    /// Lucene's `BooleanWeight.explain` of a miss, on the boolean OpenSearch builds and
    /// Lucene rewrites.
    fn boolean(&self, b: &dsl::BoolQuery, boost: f32) -> Result<Explanation> {
        if b.minimum_should_match.is_none() && b.should.iter().any(|q| self.no_docs(q)) {
            // Lucene's rewrite drops optional clauses that match nothing.
            let kept = dsl::BoolQuery {
                should: b
                    .should
                    .iter()
                    .filter(|q| !self.no_docs(q))
                    .cloned()
                    .collect(),
                ..b.clone()
            };
            if kept.should.is_empty() && kept.must.is_empty() && kept.filter.is_empty() {
                return Ok(no_match("No matching clauses"));
            }
            return self.boolean(&kept, boost);
        }
        let boost = boost * b.boost;
        let required = !b.must.is_empty() || !b.filter.is_empty();
        // OpenSearch sets no minimum where scores are wanted: Lucene's disjunction needs one
        // clause anyway.
        let mut msm = min_should(self.cx, b.minimum_should_match.as_ref(), b.should.len())?;
        if !required && b.should.is_empty() {
            // A pure negative drops its minimum (`Queries.fixNegativeQueryIfNeeded`).
            msm = 0;
        }
        // Without optional clauses, Lucene's weight reports the minimum its clauses miss.
        if msm > b.should.len() && !b.should.is_empty() {
            return Ok(no_match(
                "SHOULD clause count less than minimumNumberShouldMatch",
            ));
        }
        // Lucene's: a required clause that is a `MatchNoDocsQuery` is the whole boolean.
        for q in b.must.iter().chain(&b.filter) {
            if self.no_docs(q) {
                return self.leaf(q);
            }
        }
        let count = b.must.len() + b.should.len() + b.filter.len() + b.must_not.len();
        if count == 1 && msm == 0 {
            if let [filter] = b.filter.as_slice() {
                let (inner, _) = lucene_string::render(filter, self.cx)?;
                return Ok(self.unscored(&format!("ConstantScore({inner})")));
            }
            if let [only] = b.must.as_slice() {
                return self.scored(only, boost);
            }
            if let [only] = b.should.as_slice() {
                return self.scored(only, boost);
            }
        }
        // Lucene compares FILTER and MUST_NOT clauses without their boosts and constant-score
        // wrappers (scores are not wanted there).
        let bare = |q: &Ast| {
            let mut q = q.unboosted();
            while let Ast::ConstantScore { filter, .. } = q {
                q = filter.unboosted();
            }
            q
        };
        let filters: Vec<Ast> = b.filter.iter().map(bare).collect();
        if b.must_not
            .iter()
            .map(bare)
            .any(|q| b.must.contains(&q) || filters.contains(&q))
        {
            return Ok(no_match("FILTER or MUST clause also in MUST_NOT"));
        }
        // SHOULD clauses that must all match are rewritten to MUST.
        let should = if msm > 0 && msm == b.should.len() {
            msm = 0;
            Occur::Must
        } else {
            Occur::Should
        };
        let all = dsl::Query::MatchAll { boost: 1.0 };
        let mut clauses: Vec<(Occur, &Ast)> = Vec::with_capacity(count + 1);
        clauses.extend(b.must.iter().map(|q| (Occur::Must, q)));
        clauses.extend(b.must_not.iter().map(|q| (Occur::MustNot, q)));
        clauses.extend(b.should.iter().map(|q| (should, q)));
        clauses.extend(b.filter.iter().map(|q| (Occur::Filter, q)));
        if !required && b.should.is_empty() {
            // OpenSearch gives a purely negative boolean a match_all filter.
            clauses.push((Occur::Filter, &all));
        }
        let mut details = Vec::new();
        let (mut fail, mut matching, mut should_matching) = (false, 0, 0);
        for (occur, q) in clauses {
            let hit = self.matches(q)?;
            match occur {
                Occur::Must | Occur::Should if hit => {
                    details.push(self.matched(q, boost)?);
                }
                Occur::Must => {
                    let (text, _) = lucene_string::render(q, self.cx)?;
                    details.push(no_match_of(
                        format!("no match on required clause ({text})"),
                        self.scored(q, boost)?,
                    ));
                    fail = true;
                }
                Occur::Should => {}
                Occur::Filter if hit => {
                    let mut e = Explanation::new("match on required clause, product of:", 0.0);
                    e.add_const("# clause", 0.0);
                    e.add_detail(Explanation::new_with_string(
                        self.unscored_weight_text(q)?,
                        1.0,
                    ));
                    details.push(e);
                }
                Occur::Filter => {
                    let text = self.unscored_text(q)?;
                    details.push(no_match_of(
                        format!("no match on required clause ({text})"),
                        self.unscored(&self.unscored_weight_text(q)?),
                    ));
                    fail = true;
                }
                Occur::MustNot if hit => {
                    details.push(no_match_of(
                        format!("match on prohibited clause ({})", self.unscored_text(q)?),
                        Explanation::new_with_string(self.unscored_weight_text(q)?, 1.0),
                    ));
                    fail = true;
                }
                Occur::MustNot => {}
            }
            if hit && occur != Occur::MustNot {
                matching += 1;
                should_matching += usize::from(occur == Occur::Should);
            }
        }
        Ok(failure(details, fail, matching, should_matching, msm))
    }

    /// A query the walk above does not model (`query_string`, `simple_query_string`, the
    /// leaves): its miss read off the query it builds, by what Lucene's weight for that shape
    /// says.
    fn leaf(&self, ast: &Ast) -> Result<Explanation> {
        let built = build(ast, self.cx)?;
        if matches_nothing(built.as_ref()) {
            // Lucene's `MatchNoDocsQuery`, which says why it matches nothing.
            let reason = lucene_string::no_match_reason(ast, self.cx);
            if !reason.is_empty() {
                return Ok(no_match(reason));
            }
            // Fuzzy terms without an expansion: Lucene's rewrite of an empty boolean.
            let fuzzy = match ast {
                Ast::Fuzzy(_) => true,
                Ast::Match(m) => m.fuzziness.is_some(),
                _ => false,
            };
            if fuzzy {
                return Ok(no_match(EMPTY_BOOLEAN));
            }
        }
        self.built(built.as_ref(), 1.0)
    }

    fn hits(&self, q: &dyn Query) -> Result<bool> {
        let mut s = q.weight(self.scoring())?.scorer(self.d.reader, 1.0)?;
        Ok(super::reaches(s.as_mut(), self.d.doc))
    }

    fn built(&self, q: &dyn Query, boost: f32) -> Result<Explanation> {
        if let Some(b) = q.downcast_ref::<BoostedQuery>() {
            return self.built(b.inner(), boost * b.boost());
        }
        if let Some(m) = q.downcast_ref::<MatchNoDocs>() {
            return Ok(no_match(m.reason()));
        }
        match q
            .downcast_ref::<ConstantQuery>()
            .and_then(ConstantQuery::description)
        {
            Some(Described::Leaf { scored: text, .. } | Described::FilterClause(text)) => {
                return Ok(self.unscored(text));
            }
            None => {}
        }
        if let Some(p) = q.downcast_ref::<LucenePhraseQuery>() {
            // Lucene's phrase weight tells a doc without every term from one without the phrase.
            return Ok(no_match(if p.has_terms(self.d.reader, self.d.doc)? {
                "no matching phrase"
            } else {
                "no matching terms"
            }));
        }
        if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
            let mut e = no_match("No matching clause");
            for c in d.clauses() {
                let c = super::match_no_docs::disjunct(d.clauses(), c.as_ref());
                e.add_detail(self.built(c, boost)?);
            }
            return Ok(e);
        }
        let clauses: Vec<(Occur, &dyn Query)>;
        let minimum;
        if let Some(sum) = q.downcast_ref::<SumQuery>() {
            clauses = sum
                .clauses()
                .iter()
                .map(|c| (Occur::Should, c.as_ref()))
                .collect();
            minimum = sum.minimum();
        } else if let Some(b) = q.downcast_ref::<BooleanQuery>() {
            clauses = b
                .clauses()
                .iter()
                .map(|(o, c)| {
                    let occur = match o {
                        tantivy::query::Occur::Must => Occur::Must,
                        tantivy::query::Occur::MustNot => Occur::MustNot,
                        tantivy::query::Occur::Should => Occur::Should,
                    };
                    (occur, c.as_ref())
                })
                .collect();
            minimum = b.get_minimum_number_should_match();
        } else {
            return Ok(no_match("no matching term"));
        }
        // Lucene's rewrite: a required clause that matches nothing is the whole miss, optional
        // (without a minimum past one) and prohibited ones go, and nothing left is an empty
        // boolean.
        if let Some(&(_, none)) = clauses
            .iter()
            .find(|(o, q)| matches!(o, Occur::Must | Occur::Filter) && matches_nothing(*q))
        {
            return self.built(none, boost);
        }
        let clauses: Vec<(Occur, &dyn Query)> = clauses
            .into_iter()
            .filter(|&(o, q)| !matches_nothing(q) || (o == Occur::Should && minimum > 1))
            .collect();
        if clauses.is_empty() {
            return Ok(no_match(EMPTY_BOOLEAN));
        }
        self.built_boolean(&clauses, minimum, boost)
    }

    /// `BooleanWeight.explain` of a miss on a built boolean (clauses in their built order).
    fn built_boolean(
        &self,
        clauses: &[(Occur, &dyn Query)],
        minimum: usize,
        boost: f32,
    ) -> Result<Explanation> {
        let schema = self.cx.searcher.schema();
        let text = |q: &dyn Query| lucene_string::built(q, schema).0;
        let mut details = Vec::new();
        let (mut fail, mut matching, mut should_matching) = (false, 0, 0);
        for &(occur, q) in clauses {
            let hit = self.hits(q)?;
            match occur {
                Occur::Must | Occur::Should | Occur::Filter if hit => {
                    let q = boosted(q.box_clone(), boost);
                    details.push(
                        q.weight(self.scoring())?
                            .explain(self.d.reader, self.d.doc)?,
                    );
                    matching += 1;
                    should_matching += usize::from(occur == Occur::Should);
                }
                Occur::Must | Occur::Filter => {
                    details.push(no_match_of(
                        format!("no match on required clause ({})", text(q)),
                        self.built(q, boost)?,
                    ));
                    fail = true;
                }
                Occur::MustNot if hit => {
                    let t = text(q);
                    details.push(no_match_of(
                        format!("match on prohibited clause ({t})"),
                        Explanation::new_with_string(t, 1.0),
                    ));
                    fail = true;
                }
                Occur::Should | Occur::MustNot => {}
            }
        }
        Ok(failure(
            details,
            fail,
            matching,
            should_matching,
            minimum.max(1),
        ))
    }
}
