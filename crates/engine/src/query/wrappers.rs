//! Request-level wrappers around the query: `min_score` (hits scoring below it are not hits,
//! nor counted).
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

/// Matches of `inner` whose score is at least `min` (scored even when the caller only counts).
#[derive(Debug)]
pub struct MinScoreQuery {
    pub inner: Box<dyn Query>,
    pub min: f32,
}

impl Clone for MinScoreQuery {
    fn clone(&self) -> Self {
        MinScoreQuery {
            inner: self.inner.box_clone(),
            min: self.min,
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
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct MinScoreWeight {
    inner: Box<dyn Weight>,
    min: f32,
}

impl Weight for MinScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut s = MinScoreScorer {
            inner: self.inner.scorer(reader, boost)?,
            min: self.min,
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
            if s >= self.min {
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
