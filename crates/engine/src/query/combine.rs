//! Lucene's arithmetic for combining clause scores, as tantivy `ScoreCombiner`s under its
//! `BooleanWeight` (tantivy-napi.md §7.2, §7.5): `DisjunctionMaxScorer` keeps the best score as a
//! float and the others' sum as a double, `(float)(max + others * tie)`; `DisjunctionSumScorer`
//! sums in double. tantivy's combiners work in f32, which moves the last bit.

use super::block_max::{self, PruneNode};
use super::lucene_term::LuceneTermQuery;
use super::wrappers::BoostedQuery;
use std::collections::HashMap;
use tantivy::query::{
    BooleanWeight, EmptyScorer, EnableScoring, Explanation, Occur, Query, ScoreCombiner, Scorer,
    Weight,
};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

#[derive(Default, Clone, Copy)]
pub struct DisMaxCombiner {
    max: f32,
    others: f64,
    tie: f32,
}

impl ScoreCombiner for DisMaxCombiner {
    fn update<S: Scorer>(&mut self, scorer: &mut S) {
        let s = scorer.score();
        if s >= self.max {
            self.others += self.max as f64;
            self.max = s;
        } else {
            self.others += s as f64;
        }
    }

    fn clear(&mut self) {
        self.max = 0.0;
        self.others = 0.0;
    }

    fn score(&self) -> Score {
        (self.max as f64 + self.others * self.tie as f64) as f32
    }
}

#[derive(Default, Clone, Copy)]
pub struct SumCombiner {
    sum: f64,
}

impl ScoreCombiner for SumCombiner {
    fn update<S: Scorer>(&mut self, scorer: &mut S) {
        self.sum += scorer.score() as f64;
    }

    fn clear(&mut self) {
        self.sum = 0.0;
    }

    fn score(&self) -> Score {
        self.sum as f32
    }
}

type ShouldWeights = Vec<(Occur, Box<dyn Weight>)>;

/// The clauses of a disjunction: each one a SHOULD clause of tantivy's boolean weight.
#[derive(Debug)]
struct Clauses(Vec<Box<dyn Query>>);

impl Clone for Clauses {
    fn clone(&self) -> Self {
        Clauses(self.0.iter().map(|q| q.box_clone()).collect())
    }
}

impl Clauses {
    /// Each clause's weight as a SHOULD clause of tantivy's boolean weight, and the pruning
    /// trees of all of them when every clause has one.
    fn should_weights(
        &self,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<(ShouldWeights, Option<Vec<PruneNode>>)> {
        let mut weights = Vec::with_capacity(self.0.len());
        let mut nodes = Some(Vec::with_capacity(self.0.len()));
        for q in &self.0 {
            let (w, node) = block_max::weight_and_node(q.as_ref(), scoring)?;
            weights.push((Occur::Should, w));
            nodes = nodes.zip(node).map(|(mut v, n)| {
                v.push(n);
                v
            });
        }
        Ok((weights, nodes))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for q in &self.0 {
            q.query_terms(visitor);
        }
    }
}

/// `dis_max`: a doc matching any clause scores the best clause plus `tie` times the others.
#[derive(Debug, Clone)]
pub struct DisMaxQuery {
    clauses: Clauses,
    tie: f32,
}

impl DisMaxQuery {
    pub fn new(clauses: Vec<Box<dyn Query>>, tie: f32) -> Self {
        DisMaxQuery {
            clauses: Clauses(clauses),
            tie,
        }
    }
}

impl DisMaxQuery {
    pub(crate) fn clauses(&self) -> &[Box<dyn Query>] {
        &self.clauses.0
    }

    pub(crate) fn tie(&self) -> f32 {
        self.tie
    }

    pub(crate) fn weight_and_node(
        &self,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<(Box<dyn Weight>, Option<PruneNode>)> {
        let tie = self.tie;
        let (weights, nodes) = self.clauses.should_weights(scoring)?;
        let prune = nodes.map(|c| PruneNode::DisMax(c, tie));
        let weight = Wrapped {
            inner: BooleanWeight::new(
                weights,
                scoring.is_scoring_enabled(),
                Box::new(move || DisMaxCombiner {
                    tie,
                    ..Default::default()
                }),
            ),
            prune: prune.clone(),
            dis_max_tie: Some(tie),
        };
        Ok((Box::new(weight), prune))
    }
}

impl Query for DisMaxQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(self.weight_and_node(scoring)?.0)
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.clauses.query_terms(visitor);
    }
}

/// A disjunction summing its clauses' scores in double (Lucene's pure-SHOULD boolean), with
/// at least `minimum` clauses matching.
#[derive(Debug, Clone)]
pub struct SumQuery {
    clauses: Clauses,
    minimum: usize,
}

impl SumQuery {
    pub fn new(clauses: Vec<Box<dyn Query>>) -> Self {
        SumQuery::with_minimum(clauses, 1)
    }

    /// A disjunction of at most one required clause takes in the clauses of any such
    /// disjunction among its own, as Lucene's boolean rewrite flattens them.
    pub fn with_minimum(clauses: Vec<Box<dyn Query>>, minimum: usize) -> Self {
        let clauses = if minimum <= 1 {
            let mut flat = Vec::with_capacity(clauses.len());
            for c in clauses {
                match c.downcast::<SumQuery>() {
                    Ok(inner) if inner.minimum <= 1 => flat.extend(inner.clauses.0),
                    Ok(inner) => flat.push(inner as Box<dyn Query>),
                    Err(c) => flat.push(c),
                }
            }
            flat
        } else {
            clauses
        };
        SumQuery {
            clauses: Clauses(clauses),
            minimum,
        }
    }
}

/// A term query under any boosts, and the boosts' product with its own (in double).
fn boosted_term(mut q: &dyn Query) -> Option<(&LuceneTermQuery, f64)> {
    let mut boost = 1f64;
    while let Some(b) = q.downcast_ref::<BoostedQuery>() {
        boost *= f64::from(b.boost());
        q = b.inner();
    }
    q.downcast_ref::<LuceneTermQuery>()
        .map(|t| (t, boost * f64::from(t.boost())))
}

fn term_of(q: &dyn Query) -> Option<&Term> {
    boosted_term(q).map(|(t, _)| t.term())
}

/// Lucene's boolean rewrite merges equal optional clauses into the first, their boosts summed
/// in double: two term queries on one term score with the first one's statistics (a fuzzy
/// expansion's blended doc freq, say) at the summed boost. `None` where no term repeats.
fn merged_terms(clauses: &[Box<dyn Query>]) -> Option<Vec<Box<dyn Query>>> {
    // Most disjunctions repeat nothing: tell that without allocating.
    if clauses.len() <= 16 {
        let repeats = clauses.iter().enumerate().any(|(i, c)| {
            term_of(c.as_ref())
                .is_some_and(|t| clauses[..i].iter().any(|d| term_of(d.as_ref()) == Some(t)))
        });
        if !repeats {
            return None;
        }
    }
    // Per term: its first clause, the boosts' sum and how many clauses have it.
    let mut first: HashMap<&Term, (usize, f64, usize)> = HashMap::new();
    for (i, c) in clauses.iter().enumerate() {
        if let Some((t, boost)) = boosted_term(c.as_ref()) {
            let e = first.entry(t.term()).or_insert((i, 0.0, 0));
            e.1 += boost;
            e.2 += 1;
        }
    }
    if first.values().all(|&(_, _, n)| n == 1) {
        return None;
    }
    let mut out: Vec<Box<dyn Query>> = Vec::with_capacity(clauses.len());
    for (i, c) in clauses.iter().enumerate() {
        match boosted_term(c.as_ref()) {
            Some((t, _)) => match first[t.term()] {
                (_, _, 1) => out.push(c.box_clone()),
                // The first clause of a repeated term, at the boosts' sum; the others go.
                (at, total, _) if at == i => out.push(Box::new(t.clone().with_boost(total as f32))),
                _ => {}
            },
            None => out.push(c.box_clone()),
        }
    }
    Some(out)
}

impl SumQuery {
    pub(crate) fn clauses(&self) -> &[Box<dyn Query>] {
        &self.clauses.0
    }

    pub(crate) fn minimum(&self) -> usize {
        self.minimum
    }

    pub(crate) fn weight_and_node(
        &self,
        scoring: EnableScoring<'_>,
    ) -> tantivy::Result<(Box<dyn Weight>, Option<PruneNode>)> {
        if self.minimum <= 1 {
            // Merged where the weights are made: `_validate` prints the clauses as parsed.
            if let Some(mut merged) = merged_terms(&self.clauses.0) {
                if merged.len() == 1 {
                    // One clause left: Lucene's rewrite makes it the query.
                    let only = merged.pop().expect("one clause");
                    return block_max::weight_and_node(only.as_ref(), scoring);
                }
                return SumQuery::with_minimum(merged, self.minimum).weight_and_node(scoring);
            }
        }
        let (weights, nodes) = self.clauses.should_weights(scoring)?;
        if self.minimum > 1 {
            let weight = MinShouldMatchWeight {
                clauses: weights.into_iter().map(|(_, w)| w).collect(),
                minimum: self.minimum,
                scoring: scoring.is_scoring_enabled(),
            };
            return Ok((Box::new(weight), None));
        }
        let prune = nodes.map(PruneNode::Sum);
        let weight = Wrapped {
            inner: BooleanWeight::with_minimum_number_should_match(
                weights,
                self.minimum,
                scoring.is_scoring_enabled(),
                Box::new(SumCombiner::default),
            ),
            prune: prune.clone(),
            dis_max_tie: None,
        };
        Ok((Box::new(weight), prune))
    }
}

impl Query for SumQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(self.weight_and_node(scoring)?.0)
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.clauses.query_terms(visitor);
    }
}

/// At least `minimum` (2 or more) clauses on a doc, their scores summed in double in clause
/// order. Not tantivy's boolean: where exactly `minimum` clauses have postings in a segment it
/// turns them into an intersection summing in f32, so a doc's score depended on how its shard
/// was cut into segments (one ulp, now and then). Lucene's WANDScorer / MinShouldMatchSumScorer
/// sum the clauses' floats in double; a double sum of a few floats is exact in any order.
struct MinShouldMatchWeight {
    clauses: Vec<Box<dyn Weight>>,
    minimum: usize,
    scoring: bool,
}

impl Weight for MinShouldMatchWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorers = Vec::with_capacity(self.clauses.len());
        for w in &self.clauses {
            let s = w.scorer(reader, boost)?;
            if s.doc() != TERMINATED {
                scorers.push(s);
            }
        }
        if scorers.len() < self.minimum {
            return Ok(Box::new(EmptyScorer));
        }
        let mut s = MinShouldMatchScorer {
            positions: Vec::with_capacity(scorers.len()),
            scorers,
            minimum: self.minimum,
            scoring: self.scoring,
            doc: 0,
            score: 0.0,
        };
        s.settle();
        Ok(Box::new(s))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = super::positioned_on(Some(self.scorer(reader, 1.0)?), doc)?;
        let mut e = Explanation::new("BooleanClause. sum of ...", scorer.score());
        for w in &self.clauses {
            if let Ok(c) = w.explain(reader, doc) {
                e.add_detail(c);
            }
        }
        Ok(e)
    }
}

struct MinShouldMatchScorer {
    scorers: Vec<Box<dyn Scorer>>,
    /// Scratch: the clauses' positions, sorted.
    positions: Vec<DocId>,
    minimum: usize,
    scoring: bool,
    doc: DocId,
    score: Score,
}

impl MinShouldMatchScorer {
    /// From the clauses' current positions to the first doc at least `minimum` of them are on.
    /// No doc before the `minimum`-th smallest position can have enough clauses, so the clauses
    /// behind it seek there (a leapfrog when every clause is required).
    fn settle(&mut self) -> DocId {
        loop {
            self.positions.clear();
            self.positions.extend(self.scorers.iter().map(|s| s.doc()));
            self.positions.sort_unstable();
            let target = self.positions[self.minimum - 1];
            if target == TERMINATED {
                self.doc = TERMINATED;
                return TERMINATED;
            }
            let mut on = 0;
            for s in self.scorers.iter_mut() {
                if s.doc() < target {
                    s.seek(target);
                }
                if s.doc() == target {
                    on += 1;
                }
            }
            if on >= self.minimum {
                self.doc = target;
                if self.scoring {
                    let mut sum = 0f64;
                    for s in self.scorers.iter_mut().filter(|s| s.doc() == target) {
                        sum += s.score() as f64;
                    }
                    self.score = sum as f32;
                }
                return target;
            }
        }
    }
}

impl DocSet for MinShouldMatchScorer {
    fn advance(&mut self) -> DocId {
        let doc = self.doc;
        for s in self.scorers.iter_mut().filter(|s| s.doc() == doc) {
            s.advance();
        }
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        for s in self.scorers.iter_mut().filter(|s| s.doc() < target) {
            s.seek(target);
        }
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.scorers
            .iter()
            .map(|s| s.size_hint())
            .max()
            .unwrap_or(0)
    }
}

impl Scorer for MinShouldMatchScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

/// The context a dis_max's explanation carries, followed by its tie.
pub const DIS_MAX_CONTEXT: &str = "dis_max tie ";

/// The boolean weight, behind a weight of its own: tantivy 0.26 sends a boolean of plain term
/// scorers to Block-WAND, which sums whatever the combiner (§7.4 #16); here top-k pruning is
/// `block_max`'s, over the clauses' pruning trees when they all have one.
struct Wrapped<C: ScoreCombiner> {
    inner: BooleanWeight<C>,
    prune: Option<PruneNode>,
    /// A dis_max's tie: its explanation carries it as context, for Lucene's wording
    /// (`api::explain` prints "max of:" or "max plus <tie> times others of:").
    dis_max_tie: Option<f32>,
}

impl<C: ScoreCombiner + Sync> Weight for Wrapped<C> {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.inner.scorer(reader, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut e = self.inner.explain(reader, doc)?;
        if let Some(tie) = self.dis_max_tie {
            e.add_context(format!("{DIS_MAX_CONTEXT}{tie}"));
        }
        Ok(e)
    }

    /// The matches without their scores (tantivy's boolean counts through its scoring union,
    /// and its children score even under `for_each_no_score`).
    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if let Some(node) = &self.prune {
            return node.count(reader);
        }
        let alive = reader.alive_bitset();
        let mut n = 0u32;
        self.inner.for_each_no_score(reader, &mut |docs| {
            n += match alive {
                Some(a) => docs.iter().filter(|&&d| a.is_alive(d)).count() as u32,
                None => docs.len() as u32,
            };
        })?;
        Ok(n)
    }

    fn for_each(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score),
    ) -> tantivy::Result<()> {
        self.inner.for_each(reader, callback)
    }

    fn for_each_no_score(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(&[DocId]),
    ) -> tantivy::Result<()> {
        self.inner.for_each_no_score(reader, callback)
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        // Without a tree, not tantivy's boolean pruning (see above): every doc, filtered by the
        // threshold.
        block_max::for_each_pruning(
            self.prune.as_ref(),
            || self.inner.scorer(reader, 1.0),
            reader,
            threshold,
            callback,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(f32);

    impl DocSet for Fixed {
        fn advance(&mut self) -> DocId {
            tantivy::TERMINATED
        }
        fn doc(&self) -> DocId {
            0
        }
        fn size_hint(&self) -> u32 {
            1
        }
    }

    impl Scorer for Fixed {
        fn score(&mut self) -> Score {
            self.0
        }
    }

    /// Equal term clauses are one clause at the summed boost, with the first one's doc freq.
    #[test]
    fn equal_terms_merge_into_the_first() {
        use tantivy::schema::{Schema, TEXT};
        let mut sb = Schema::builder();
        let body = sb.add_text_field("body", TEXT);
        let term = |w: &str| Term::from_field_text(body, w);
        let q = |w: &str| LuceneTermQuery::new(term(w));
        let clauses: Vec<Box<dyn Query>> = vec![
            Box::new(q("a").with_doc_freq(7)),
            Box::new(q("b")),
            Box::new(BoostedQuery::new(Box::new(q("a").with_boost(0.5)), 3.0)),
            Box::new(q("a")),
        ];
        let merged = merged_terms(&clauses).expect("a repeats");
        assert_eq!(merged.len(), 2);
        let a = merged[0].downcast_ref::<LuceneTermQuery>().expect("a term");
        assert_eq!((a.term(), a.boost()), (&term("a"), 3.5));
        assert_eq!(
            format!("{a:?}"),
            format!("{:?}", q("a").with_doc_freq(7).with_boost(3.5))
        );
        assert!(merged[1].downcast_ref::<LuceneTermQuery>().is_some());
        assert!(merged_terms(&clauses[..2]).is_none());
    }

    #[test]
    fn dis_max_keeps_others_in_double() {
        let mut c = DisMaxCombiner {
            tie: 0.3,
            ..Default::default()
        };
        for s in [1.1f32, 2.7, 0.9] {
            c.update(&mut Fixed(s));
        }
        let want = (2.7f32 as f64 + (1.1f32 as f64 + 0.9f32 as f64) * 0.3f32 as f64) as f32;
        assert_eq!(c.score(), want);
    }

    /// A minimum-should-match sum is the double sum of its clauses' scores in every segment,
    /// also where exactly `minimum` clauses have postings (tantivy's boolean sums those in f32).
    #[test]
    fn minimum_should_match_sums_in_double_whatever_the_segments() {
        use super::super::lucene_term::LuceneTermQuery;

        use tantivy::schema::{Schema, TEXT};
        use tantivy::{doc, Index};
        let mut sb = Schema::builder();
        let body = sb.add_text_field("body", TEXT);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        // The second segment never has `d`: there, exactly three clauses have postings.
        for words in [&["a", "b", "c", "d", "e"][..], &["a", "b", "c", "e"][..]] {
            for _ in 0..400 {
                let text: Vec<&str> = (0..1 + next(30))
                    .map(|_| words[next(words.len() as u64) as usize])
                    .collect();
                w.add_document(doc!(body => text.join(" "))).unwrap();
            }
            w.commit().unwrap();
        }
        let searcher = index.reader().unwrap().searcher();
        let term = |t: &str| -> Box<dyn Query> {
            Box::new(LuceneTermQuery::new(Term::from_field_text(body, t)))
        };
        let scoring = EnableScoring::enabled_from_searcher(&searcher);
        let clauses: Vec<Box<dyn Weight>> = ["a", "b", "c", "d"]
            .iter()
            .map(|t| term(t).weight(scoring).unwrap())
            .collect();
        let q = SumQuery::with_minimum(["a", "b", "c", "d"].into_iter().map(term).collect(), 3);
        let weight = q.weight(scoring).unwrap();
        let mut checked = 0;
        for r in searcher.segment_readers() {
            weight
                .for_each(r, &mut |doc, score| {
                    let mut sum = 0f64;
                    let mut on = 0;
                    for c in &clauses {
                        let mut s = c.scorer(r, 1.0).unwrap();
                        // A fresh scorer may already stand past `doc`; seeking back is not allowed.
                        if s.doc() <= doc && s.seek(doc) == doc {
                            sum += s.score() as f64;
                            on += 1;
                        }
                    }
                    assert!(on >= 3);
                    assert_eq!(score, sum as f32, "doc {doc}");
                    checked += 1;
                })
                .unwrap();
        }
        assert!(checked > 300);
        // Every doc with three of the clauses, none missed by the seeks.
        let mut expected = 0;
        for r in searcher.segment_readers() {
            for doc in 0..r.max_doc() {
                let on = clauses
                    .iter()
                    .filter(|c| {
                        let mut s = c.scorer(r, 1.0).unwrap();
                        s.doc() <= doc && s.seek(doc) == doc
                    })
                    .count();
                expected += (on >= 3) as usize;
            }
        }
        assert_eq!(checked, expected);
    }
}
