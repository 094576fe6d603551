//! `bool` with one scoring `must` clause and only `filter` / `must_not` clauses beside it: the
//! same weight as tantivy's boolean over those clauses (its scorer, counts and explanation),
//! whose top-k walk is the scoring clause's block-max pruned walk with the filters as a gate.
//!
//! Filters score 0 and a `must_not` clause nothing, so a match's score is its scoring clause's
//! (the boolean's f32 sum adds zeros); the pruned walk therefore bounds and scores the scoring
//! clause alone and asks the filters only about docs that would enter the top k.

use super::block_max::{self, PruneNode};
use super::constant::{unwrap_constant, ColumnRangeDocs};
use super::Q;
use std::sync::Arc;
use tantivy::query::{
    BooleanWeight, EnableScoring, Explanation, Occur, Query, Scorer, SumCombiner, Weight,
};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term};

#[derive(Debug)]
pub struct FilteredQuery {
    scoring: Q,
    filters: Vec<Q>,
    excluded: Vec<Q>,
}

impl Clone for FilteredQuery {
    fn clone(&self) -> Self {
        FilteredQuery {
            scoring: self.scoring.box_clone(),
            filters: self.filters.iter().map(|q| q.box_clone()).collect(),
            excluded: self.excluded.iter().map(|q| q.box_clone()).collect(),
        }
    }
}

impl FilteredQuery {
    /// `filters` already constant (score 0); the boolean's clauses are `scoring`, then the
    /// filters as `must`, then `excluded` as `must_not`, as `query::bool_query` orders them.
    pub fn new(scoring: Q, filters: Vec<Q>, excluded: Vec<Q>) -> Self {
        FilteredQuery {
            scoring,
            filters,
            excluded,
        }
    }

    pub(crate) fn scoring(&self) -> &dyn Query {
        self.scoring.as_ref()
    }
}

impl Query for FilteredQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let (main, node) = block_max::weight_and_node(self.scoring.as_ref(), scoring)?;
        let main: Arc<dyn Weight> = Arc::from(main);
        let build = |qs: &[Q]| -> tantivy::Result<Vec<Arc<dyn Weight>>> {
            qs.iter()
                .map(|q| Ok(Arc::from(q.weight(scoring)?)))
                .collect()
        };
        let filters = build(&self.filters)?;
        let excluded = build(&self.excluded)?;
        let mut clauses: Vec<(Occur, Box<dyn Weight>)> = vec![(Occur::Must, shared(&main))];
        clauses.extend(filters.iter().map(|w| (Occur::Must, shared(w))));
        clauses.extend(excluded.iter().map(|w| (Occur::MustNot, shared(w))));
        let boolean = BooleanWeight::with_minimum_number_should_match(
            clauses,
            0,
            scoring.is_scoring_enabled(),
            Box::new(SumCombiner::default),
        );
        Ok(Box::new(FilteredWeight {
            boolean,
            node: node.filter(|_| scoring.is_scoring_enabled()),
            filters,
            excluded,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.scoring.query_terms(visitor);
        for q in self.filters.iter().chain(&self.excluded) {
            q.query_terms(visitor);
        }
    }
}

fn shared(w: &Arc<dyn Weight>) -> Box<dyn Weight> {
    Box::new(Shared(w.clone()))
}

/// One weight in two places: the boolean's clause and the gate or pruning walk beside it.
struct Shared(Arc<dyn Weight>);

impl Weight for Shared {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.0.scorer(reader, boost)
    }
    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.0.explain(reader, doc)
    }
    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        self.0.count(reader)
    }
    fn for_each(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score),
    ) -> tantivy::Result<()> {
        self.0.for_each(reader, callback)
    }
    fn for_each_no_score(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(&[DocId]),
    ) -> tantivy::Result<()> {
        self.0.for_each_no_score(reader, callback)
    }
    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        self.0.for_each_pruning(threshold, reader, callback)
    }
}

struct FilteredWeight {
    boolean: BooleanWeight<SumCombiner>,
    node: Option<PruneNode>,
    filters: Vec<Arc<dyn Weight>>,
    excluded: Vec<Arc<dyn Weight>>,
}

/// One filter or exclusion of a segment: a numeric range is asked about a doc by reading its
/// value, anything else by seeking its docs.
enum Check {
    Column(Box<ColumnRangeDocs>),
    Docs(Box<dyn Scorer>),
}

impl Check {
    fn new(s: Box<dyn Scorer>) -> Check {
        match unwrap_constant(s).downcast::<ColumnRangeDocs>() {
            Ok(c) => Check::Column(c),
            Err(s) => Check::Docs(s),
        }
    }

    /// Whether `doc` matches; docs are asked about in increasing order.
    fn on(&mut self, doc: DocId) -> bool {
        match self {
            Check::Column(c) => c.contains(doc),
            Check::Docs(s) => {
                if s.doc() < doc {
                    s.seek(doc);
                }
                s.doc() == doc
            }
        }
    }

    /// Checks by column read go after the postings, which are cheaper to ask.
    fn rank(&self) -> (bool, u32) {
        match self {
            Check::Column(_) => (true, 0),
            Check::Docs(s) => (false, s.size_hint()),
        }
    }
}

/// The filters and exclusions of one segment, asked about docs in increasing order.
struct Gate {
    filters: Vec<Check>,
    excluded: Vec<Check>,
}

impl Gate {
    fn new(w: &FilteredWeight, reader: &SegmentReader) -> tantivy::Result<Gate> {
        let open = |ws: &[Arc<dyn Weight>]| -> tantivy::Result<Vec<Check>> {
            ws.iter()
                .map(|w| Ok(Check::new(w.scorer(reader, 1.0)?)))
                .collect()
        };
        let mut filters = open(&w.filters)?;
        // The sparsest postings first: they turn most docs away.
        filters.sort_by_key(Check::rank);
        Ok(Gate {
            filters,
            excluded: open(&w.excluded)?,
        })
    }

    fn admits(&mut self, doc: DocId) -> bool {
        self.filters.iter_mut().all(|c| c.on(doc)) && !self.excluded.iter_mut().any(|c| c.on(doc))
    }
}

impl Weight for FilteredWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.boolean.scorer(reader, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.boolean.explain(reader, doc)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let Some(node) = &self.node else {
            return self.boolean.count(reader);
        };
        // The scoring clause's matches from its postings (no scorer), then the gate.
        let words = node.docs(reader)?;
        let mut gate = Gate::new(self, reader)?;
        let alive = reader.alive_bitset();
        let mut n = 0;
        for (i, &w) in words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let d = i as u32 * 64 + w.trailing_zeros();
                w &= w - 1;
                if alive.is_none_or(|a| a.is_alive(d)) && gate.admits(d) {
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        let Some(node) = &self.node else {
            return block_max::for_each_above(self.scorer(reader, 1.0)?, threshold, callback);
        };
        let mut gate = Gate::new(self, reader)?;
        block_max::for_each_pruning_gated(node, reader, threshold, callback, |doc| gate.admits(doc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::combine::SumQuery;
    use crate::query::constant::ConstantQuery;
    use crate::query::lucene_term::LuceneTermQuery;
    use std::ops::Bound;

    use tantivy::query::{BooleanQuery, RangeQuery};
    use tantivy::schema::{Schema, FAST, INDEXED, STRING, TEXT};
    use tantivy::{doc, Index, Searcher};

    use crate::util::test_support::{exhaustive, Hits, Rng};

    /// Segments of random text, a keyword and a number, some docs deleted.
    fn index(seed: u64) -> Searcher {
        let mut sb = Schema::builder();
        let body = sb.add_text_field("body", TEXT);
        let kind = sb.add_text_field("kind", STRING);
        let size = sb.add_i64_field("size", FAST | INDEXED);
        let id = sb.add_text_field("id", STRING);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut rng = Rng(seed | 1);
        let mut n = 0;
        for _ in 0..3 {
            for _ in 0..(1500 + rng.below(1500)) {
                let text = (0..1 + rng.below(30))
                    .map(|_| format!("w{}", rng.skewed(40)))
                    .collect::<Vec<_>>()
                    .join(" ");
                let k = format!("k{}", rng.below(4));
                let s = rng.below(1000) as i64;
                w.add_document(doc!(body => text, kind => k, size => s, id => n.to_string()))
                    .unwrap();
                n += 1;
            }
            w.commit().unwrap();
        }
        for _ in 0..200 {
            w.delete_term(Term::from_field_text(id, &rng.below(n).to_string()));
        }
        w.commit().unwrap();
        index.reader().unwrap().searcher()
    }

    /// The same through `count` and `for_each_pruning`, the threshold raised as top-k does.
    fn pruned(searcher: &Searcher, q: &dyn Query, k: usize) -> (Hits, u32) {
        assert!(block_max::prunable(q));
        let w = q
            .weight(EnableScoring::enabled_from_searcher(searcher))
            .unwrap();
        let mut kept: Hits = Vec::new();
        let mut count = 0;
        for (s, r) in searcher.segment_readers().iter().enumerate() {
            count += w.count(r).unwrap();
            w.for_each_pruning(f32::NEG_INFINITY, r, &mut |d, score| {
                if r.alive_bitset().is_none_or(|a| a.is_alive(d)) {
                    kept.push((score, s as u32, d));
                    kept.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
                    kept.truncate(k);
                }
                if kept.len() == k {
                    kept[k - 1].0.next_down()
                } else {
                    f32::NEG_INFINITY
                }
            })
            .unwrap();
        }
        (kept, count)
    }

    #[test]
    fn gated_top_k_equals_the_boolean() {
        for seed in [3, 1999, 65_537] {
            let s = index(seed);
            let f = |name: &str| s.schema().get_field(name).unwrap();
            let mut rng = Rng(seed * 7 + 1);
            for _ in 0..5 {
                let words: Vec<String> = (0..1 + rng.below(3))
                    .map(|_| format!("w{}", rng.skewed(40)))
                    .collect();
                let scoring = || -> Q {
                    let terms: Vec<Q> = words
                        .iter()
                        .map(|w| -> Q {
                            Box::new(LuceneTermQuery::new(Term::from_field_text(f("body"), w)))
                        })
                        .collect();
                    if terms.len() == 1 {
                        terms.into_iter().next().unwrap()
                    } else {
                        Box::new(SumQuery::new(terms))
                    }
                };
                let kind = format!("k{}", rng.below(4));
                let hi = 100 + rng.below(900) as i64;
                let filters = || -> Vec<Q> {
                    vec![
                        Box::new(ConstantQuery::new(
                            Box::new(LuceneTermQuery::new(Term::from_field_text(
                                f("kind"),
                                &kind,
                            ))),
                            0.0,
                        )),
                        Box::new(ConstantQuery::new(
                            Box::new(RangeQuery::new(
                                Bound::Unbounded,
                                Bound::Excluded(Term::from_field_i64(f("size"), hi)),
                            )),
                            0.0,
                        )),
                    ]
                };
                let other = ["w1", "w2", "w3", "w4"]
                    .into_iter()
                    .find(|w| !words.iter().any(|x| x == w))
                    .expect("a word not searched");
                let excluded = || -> Vec<Q> {
                    vec![Box::new(LuceneTermQuery::new(Term::from_field_text(
                        f("body"),
                        other,
                    )))]
                };
                for (filters, excluded) in [
                    (filters(), Vec::new()),
                    (filters(), excluded()),
                    (Vec::new(), excluded()),
                ] {
                    let mut clauses: Vec<(Occur, Q)> = vec![(Occur::Must, scoring())];
                    clauses.extend(filters.iter().map(|q| (Occur::Must, q.box_clone())));
                    clauses.extend(excluded.iter().map(|q| (Occur::MustNot, q.box_clone())));
                    let mut boolean = BooleanQuery::new(clauses);
                    boolean.set_minimum_number_should_match(0);
                    let gated = FilteredQuery::new(scoring(), filters, excluded);
                    for k in [1, 10, 100] {
                        let want = exhaustive(&s, &boolean, k);
                        assert!(!want.0.is_empty(), "{words:?} matches nothing");
                        assert_eq!(pruned(&s, &gated, k), want, "{words:?} k {k}");
                        assert_eq!(exhaustive(&s, &gated, k), want, "{words:?} k {k}");
                    }
                }
            }
        }
    }
}
