//! Wrappers around a query: `min_score` (hits scoring below it are not hits, nor counted) and
//! boosts.
use super::block_max::{self, PruneNode};
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

/// Matches of `inner` whose score is at least `min` (scored even when the caller only counts).
#[derive(Debug)]
pub struct MinScoreQuery {
    pub inner: Box<dyn Query>,
    pub min: f32,
    /// What the collector multiplies scores by (the index's `indices_boost`): `min` holds for
    /// the score a hit shows, as OpenSearch boosts the query before its minimum-score collector.
    pub scale: f32,
}

impl Clone for MinScoreQuery {
    fn clone(&self) -> Self {
        MinScoreQuery {
            inner: self.inner.box_clone(),
            min: self.min,
            scale: self.scale,
        }
    }
}

impl Query for MinScoreQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let scoring = match scoring {
            EnableScoring::Disabled {
                searcher_opt: Some(s),
                ..
            } => EnableScoring::enabled_from_searcher(s),
            other => other,
        };
        Ok(Box::new(MinScoreWeight {
            inner: self.inner.weight(scoring)?,
            min: self.min,
            scale: self.scale,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct MinScoreWeight {
    inner: Box<dyn Weight>,
    min: f32,
    scale: f32,
}

impl Weight for MinScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut s = MinScoreScorer {
            inner: self.inner.scorer(reader, boost)?,
            min: self.min,
            scale: self.scale,
            score: 0.0,
        };
        s.settle();
        Ok(Box::new(s))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}

struct MinScoreScorer {
    inner: Box<dyn Scorer>,
    min: f32,
    scale: f32,
    score: f32,
}

impl MinScoreScorer {
    /// Moves to the first doc at or after the current one that scores enough.
    fn settle(&mut self) -> DocId {
        loop {
            let d = self.inner.doc();
            if d == TERMINATED {
                return d;
            }
            let s = self.inner.score();
            if s * self.scale >= self.min {
                self.score = s;
                return d;
            }
            self.inner.advance();
        }
    }
}

impl DocSet for MinScoreScorer {
    fn advance(&mut self) -> DocId {
        self.inner.advance();
        self.settle()
    }
    fn seek(&mut self, target: DocId) -> DocId {
        self.inner.seek(target);
        self.settle()
    }
    fn doc(&self) -> DocId {
        self.inner.doc()
    }
    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }
}

impl Scorer for MinScoreScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

thread_local! {
    /// The boosts above the weight being explained: Lucene passes a boost down into the
    /// weights below it, so their explanations print it inside each term's `boost` and no node
    /// of its own. 1 outside an explanation; scorers multiply it in, explanations print it.
    static EXPLAIN_BOOST: std::cell::Cell<f32> = const { std::cell::Cell::new(1.0) };
}

/// The boost an enclosing `BoostedQuery` passes down to the explanation being built.
pub fn explain_boost() -> f32 {
    EXPLAIN_BOOST.with(|b| b.get())
}

/// Runs `f` with `boost` passed down to the explanations (and their scorers) it builds.
fn with_explain_boost<R>(boost: f32, f: impl FnOnce() -> R) -> R {
    let outer = EXPLAIN_BOOST.with(|b| b.replace(b.get() * boost));
    let r = f();
    EXPLAIN_BOOST.with(|b| b.set(outer));
    r
}

/// Whether every weight under `q` takes a passed-down boost into its explanation (BM25 terms
/// and phrases, under disjunctions, booleans and boosts); others print a boost node instead.
fn explains_boosts(q: &dyn Query) -> bool {
    use super::combine::{DisMaxQuery, SumQuery};
    // `MatchNoDocsQuery` (what a lenient query_string builds on a field it cannot parse a
    // term for) scores nothing, so no boost shows.
    if q.is::<super::lucene_term::LuceneTermQuery>()
        || q.is::<super::phrase::LucenePhraseQuery>()
        || super::match_no_docs::is_match_no_docs(q)
    {
        return true;
    }
    if let Some(s) = q.downcast_ref::<SumQuery>() {
        return s.clauses().iter().all(|c| explains_boosts(c.as_ref()));
    }
    if let Some(d) = q.downcast_ref::<DisMaxQuery>() {
        return d.clauses().iter().all(|c| explains_boosts(c.as_ref()));
    }
    if let Some(b) = q.downcast_ref::<tantivy::query::BooleanQuery>() {
        return b.clauses().iter().all(|(_, c)| explains_boosts(c.as_ref()));
    }
    if let Some(b) = q.downcast_ref::<BoostedQuery>() {
        return explains_boosts(b.inner());
    }
    // Lucene passes the boost to its query, not to its functions.
    if let Some(f) = q.downcast_ref::<super::function_score::FunctionScoreQuery>() {
        return explains_boosts(f.sub());
    }
    // A described constant prints its text with the boost (`title:spa*^3.0`).
    if let Some(c) = q.downcast_ref::<super::constant::ConstantQuery>() {
        return c.description().is_some();
    }
    false
}

/// A boost around a query, as tantivy's `BoostQuery` (the boost passed down to the leaves'
/// scorers), whose weight keeps the inner query's top-k pruning.
#[derive(Debug)]
pub struct BoostedQuery {
    inner: Box<dyn Query>,
    boost: f32,
    /// Whether the explanation folds the boost into the terms' (`explains_boosts`).
    folds: bool,
}

impl Clone for BoostedQuery {
    fn clone(&self) -> Self {
        BoostedQuery {
            inner: self.inner.box_clone(),
            boost: self.boost,
            folds: self.folds,
        }
    }
}

impl BoostedQuery {
    pub fn new(inner: Box<dyn Query>, boost: f32) -> Self {
        let folds = explains_boosts(inner.as_ref());
        BoostedQuery {
            inner,
            boost,
            folds,
        }
    }

    pub(crate) fn inner(&self) -> &dyn Query {
        self.inner.as_ref()
    }

    pub(crate) fn boost(&self) -> f32 {
        self.boost
    }

    pub(crate) fn weight_and_node(
        &self,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<(Box<dyn Weight>, Option<PruneNode>)> {
        let (inner, node) = block_max::weight_and_node(self.inner.as_ref(), scoring)?;
        if !scoring.is_scoring_enabled() {
            // A boost changes no match: the inner tree counts as it is.
            return Ok((inner, node));
        }
        let prune = node.map(|n| PruneNode::Boost(Box::new(n), self.boost));
        let weight = BoostedWeight {
            inner,
            boost: self.boost,
            folds: self.folds,
            prune: prune.clone(),
        };
        Ok((Box::new(weight), prune))
    }
}

impl Query for BoostedQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(self.weight_and_node(scoring)?.0)
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct BoostedWeight {
    inner: Box<dyn Weight>,
    boost: f32,
    folds: bool,
    prune: Option<PruneNode>,
}

impl Weight for BoostedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.inner.scorer(reader, boost * self.boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        if self.folds {
            return with_explain_boost(self.boost, || self.inner.explain(reader, doc));
        }
        let inner = self.inner.explain(reader, doc)?;
        // Lucene prints no node for a boost of 1 (multi_match wraps every query in one).
        if self.boost == 1.0 {
            return Ok(inner);
        }
        let mut e = Explanation::new_with_string(
            format!("Boost x{} of ...", self.boost),
            inner.value() * self.boost,
        );
        e.add_detail(inner);
        Ok(e)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        self.inner.count(reader)
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        block_max::for_each_pruning(
            self.prune.as_ref(),
            || self.scorer(reader, 1.0),
            reader,
            threshold,
            callback,
        )
    }
}
