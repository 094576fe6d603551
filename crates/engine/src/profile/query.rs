//! A query's profile: its tree in Lucene's words (the class a node is, its `toString`) with
//! timings. Each node of the query is timed on its own over the shard, as built for the search:
//! its weight created, a scorer built per segment, its matches walked and (when the search
//! scores) scored. The search itself runs unwrapped, so profiling never changes its hits or
//! scores; the counts are the node's own matches, where Lucene's profiler counts the calls the
//! combined query made.

use super::Timer;
use crate::dsl::Query as Ast;
use crate::error::Result;
use crate::query::{build, lucene_string, Context};
use serde_json::{json, Map, Value};
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocSet, Searcher, TERMINATED};

/// Lucene's `QueryProfileBreakdown` timings Quarry measures, nanoseconds and calls.
#[derive(Debug, Default, Clone)]
pub struct Breakdown {
    pub create_weight: Timer,
    pub build_scorer: Timer,
    pub next_doc: Timer,
    pub score: Timer,
}

impl Breakdown {
    fn total(&self) -> u64 {
        self.create_weight.nanos + self.build_scorer.nanos + self.next_doc.nanos + self.score.nanos
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        let mut put = |name: &str, t: &Timer| {
            m.insert(name.to_string(), json!(t.nanos));
            m.insert(format!("{name}_count"), json!(t.count));
        };
        put("create_weight", &self.create_weight);
        put("build_scorer", &self.build_scorer);
        put("next_doc", &self.next_doc);
        // Lucene's other steps: no conjunction seeks, two-phase matches or block-max pruning
        // happen where a node is walked on its own.
        let none = Timer::default();
        put("advance", &none);
        put("match", &none);
        put("score", &self.score);
        put("shallow_advance", &none);
        put("compute_max_score", &none);
        put("set_min_competitive_score", &none);
        Value::Object(m)
    }
}

#[derive(Debug, Clone)]
pub struct QueryProfile {
    pub type_name: &'static str,
    pub description: String,
    pub breakdown: Breakdown,
    pub children: Vec<QueryProfile>,
}

impl QueryProfile {
    pub fn to_json(&self, human: bool) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), json!(self.type_name));
        m.insert("description".into(), json!(self.description));
        super::put_time(&mut m, self.breakdown.total(), human);
        m.insert("breakdown".into(), self.breakdown.to_json());
        if !self.children.is_empty() {
            m.insert(
                "children".into(),
                Value::Array(self.children.iter().map(|c| c.to_json(human)).collect()),
            );
        }
        Value::Object(m)
    }
}

/// The sub-queries a node is made of, in the order Lucene holds them (a boolean's clauses as
/// `BoolQueryBuilder` adds them: must, must_not, should, filter), each with whether it scores
/// there (filters, exclusions and a constant score's filter do not).
fn children(ast: &Ast) -> Vec<(&Ast, bool)> {
    fn all(qs: &[Ast], scores: bool) -> Vec<(&Ast, bool)> {
        qs.iter().map(|q| (q, scores)).collect()
    }
    match ast {
        Ast::Bool(b) => [
            all(&b.must, true),
            all(&b.must_not, false),
            all(&b.should, true),
            all(&b.filter, false),
        ]
        .concat(),
        Ast::ConstantScore { filter, .. } => vec![(unscored(filter), false)],
        Ast::DisMax { queries, .. } => all(queries, true),
        Ast::Boosting {
            positive, negative, ..
        } => vec![(positive.as_ref(), true), (negative.as_ref(), true)],
        Ast::FunctionScore(fs) => vec![(&fs.query, true)],
        _ => Vec::new(),
    }
}

/// What Lucene's `ConstantScoreQuery.rewrite` leaves of its query, whose scores it does not
/// need: a boolean of one filter is that filter (a boost or constant score around it is
/// dropped too).
fn unscored(ast: &Ast) -> &Ast {
    match ast {
        Ast::Bool(b)
            if b.must.is_empty()
                && b.should.is_empty()
                && b.must_not.is_empty()
                && b.filter.len() == 1 =>
        {
            unscored(&b.filter[0])
        }
        Ast::ConstantScore { filter, .. } => unscored(filter),
        _ => ast,
    }
}

/// The profiles of a shard's search: its post filter first, then its query, which runs as a
/// constant score where the search does not score (OpenSearch's rewrite for counts and field
/// sorts).
pub fn search_profiles(
    query: &Ast,
    post_filter: Option<&Ast>,
    cx: &Context,
    scoring: bool,
) -> Result<Vec<QueryProfile>> {
    let mut out = Vec::with_capacity(2);
    if let Some(f) = post_filter {
        out.push(node(f, cx, false)?.0);
    }
    let (main, built) = node(query, cx, scoring)?;
    if scoring || main.type_name == "ConstantScoreQuery" {
        out.push(main);
        return Ok(out);
    }
    let q = tantivy::query::ConstScoreQuery::new(built, 1.0);
    out.push(QueryProfile {
        type_name: "ConstantScoreQuery",
        description: format!("ConstantScore({})", main.description),
        breakdown: time(&q, cx.searcher, false)?,
        children: vec![main],
    });
    Ok(out)
}

/// Profiles `ast` on the context's shard (`scoring`: whether the search scores its matches), and
/// the query it built.
fn node(ast: &Ast, cx: &Context, scoring: bool) -> Result<(QueryProfile, crate::query::Q)> {
    // Lucene profiles the query it rewrote (a required `match_all` beside filters is a
    // constant score of them): its clauses are the profile's children.
    if let Ast::Bool(b) = ast {
        if let Some(rewritten) = crate::query::rewritten_bool(b) {
            return node(&rewritten, cx, scoring);
        }
    }
    let printing = cx.labelling();
    let (description, _) = lucene_string::render(ast, &printing)?;
    let subs = children(ast);
    // A boolean Lucene rewrites to its one clause is that clause.
    if let [(only, _)] = subs.as_slice() {
        if matches!(ast, Ast::Bool(_)) && lucene_string::render(only, &printing)?.0 == description {
            return node(only, cx, scoring);
        }
    }
    let q = build(ast, cx)?;
    let breakdown = time(q.as_ref(), cx.searcher, scoring)?;
    let children = subs
        .into_iter()
        .map(|(c, scores)| Ok(node(c, cx, scoring && scores)?.0))
        .collect::<Result<Vec<_>>>()?;
    let profile = QueryProfile {
        type_name: lucene_class(&description),
        description,
        breakdown,
        children,
    };
    Ok((profile, q))
}

fn time(q: &dyn Query, searcher: &Searcher, scoring: bool) -> Result<Breakdown> {
    let mut b = Breakdown::default();
    let enable = if scoring {
        EnableScoring::enabled_from_searcher(searcher)
    } else {
        EnableScoring::disabled_from_searcher(searcher)
    };
    let weight = b.create_weight.time(|| q.weight(enable))?;
    for reader in searcher.segment_readers() {
        let mut scorer = b.build_scorer.time(|| weight.scorer(reader, 1.0))?;
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            if scoring {
                b.score.time(|| scorer.score());
            }
            doc = b.next_doc.time(|| scorer.advance());
        }
    }
    Ok(b)
}

/// The Lucene class of a query, told from the text Lucene prints for it.
pub fn lucene_class(text: &str) -> &'static str {
    let t = text.trim();
    if t.starts_with("MatchNoDocsQuery(") {
        return "MatchNoDocsQuery";
    }
    if t == "*:*" {
        return "MatchAllDocsQuery";
    }
    for (prefix, class) in [
        ("IndexOrDocValuesQuery(", "IndexOrDocValuesQuery"),
        ("ConstantScore(", "ConstantScoreQuery"),
        ("function score (", "FunctionScoreQuery"),
        ("FieldExistsQuery", "FieldExistsQuery"),
        ("blended(", "BlendedTermQuery"),
        ("CoveringQuery(", "CoveringQuery"),
    ] {
        if t.starts_with(prefix) {
            return class;
        }
    }
    let top = top_level(t);
    if t.starts_with('(') && t.ends_with(')') && top.whole_group && t.contains(" | ") {
        return "DisjunctionMaxQuery";
    }
    if top.boosted_group {
        return "BoostQuery";
    }
    // A group with a minimum (`(a b)~2`) is a boolean too.
    if top.spaces || t.starts_with(['+', '-', '#', '(']) {
        return "BooleanQuery";
    }
    let value = t.split_once(':').map_or(t, |(_, v)| v);
    if value.starts_with('"') {
        return "PhraseQuery";
    }
    if value.starts_with('[') || value.starts_with('{') {
        return if value.contains(" TO ")
            && value
                .chars()
                .nth(1)
                .is_some_and(|c| c.is_ascii_digit() || c == '-')
        {
            "PointRangeQuery"
        } else {
            "TermRangeQuery"
        };
    }
    if value.starts_with('(') {
        return "TermInSetQuery";
    }
    if value.starts_with('/') {
        return "RegexpQuery";
    }
    if value.contains('~') {
        return "FuzzyQuery";
    }
    if value.ends_with('*') && !value[..value.len() - 1].contains(['*', '?']) {
        return "PrefixQuery";
    }
    if value.contains(['*', '?']) {
        return "WildcardQuery";
    }
    "TermQuery"
}

struct TopLevel {
    /// A space outside quotes, parentheses and brackets: clauses side by side.
    spaces: bool,
    /// The whole text is one parenthesised group.
    whole_group: bool,
    /// `(…)^boost`.
    boosted_group: bool,
}

fn top_level(t: &str) -> TopLevel {
    let mut depth = 0i32;
    let mut quoted = false;
    let mut spaces = false;
    let mut first_group_end = None;
    for (i, c) in t.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => {
                depth -= 1;
                if depth == 0 && first_group_end.is_none() && t.starts_with('(') {
                    first_group_end = Some(i);
                }
            }
            ' ' if !quoted && depth == 0 => spaces = true,
            _ => {}
        }
    }
    let whole_group = first_group_end == Some(t.len() - 1);
    let boosted_group = t.starts_with('(')
        && first_group_end.is_some_and(|end| {
            t[end + 1..].starts_with('^') && !spaces && t[end + 2..].parse::<f32>().is_ok()
        });
    TopLevel {
        spaces,
        whole_group,
        boosted_group,
    }
}

#[cfg(test)]
mod tests {
    use super::lucene_class;

    #[test]
    fn classes_told_from_lucene_texts() {
        for (text, class) in [
            ("title:fox", "TermQuery"),
            ("title:quick title:fox", "BooleanQuery"),
            ("+(title:quick title:fox) #tag:t1", "BooleanQuery"),
            ("(tag:t1 | (title:quick)^2.0)", "DisjunctionMaxQuery"),
            ("(title:quick)^2.0", "BoostQuery"),
            ("ConstantScore(tag:t1)", "ConstantScoreQuery"),
            (
                "IndexOrDocValuesQuery(indexQuery=n:[3 TO 3], dvQuery=n:[3 TO 3])",
                "IndexOrDocValuesQuery",
            ),
            ("n:[3 TO 5]", "PointRangeQuery"),
            ("tag:[a TO c]", "TermRangeQuery"),
            ("title:\"quick fox\"", "PhraseQuery"),
            ("tag:(t1 t2)", "TermInSetQuery"),
            ("tag:t*", "PrefixQuery"),
            ("title:qu*k", "WildcardQuery"),
            ("title:/qu.*/", "RegexpQuery"),
            ("title:quikc~1", "FuzzyQuery"),
            ("*:*", "MatchAllDocsQuery"),
            ("MatchNoDocsQuery(\"\")", "MatchNoDocsQuery"),
            ("(title:a title:b)~2", "BooleanQuery"),
        ] {
            assert_eq!(lucene_class(text), class, "{text}");
        }
    }
}
