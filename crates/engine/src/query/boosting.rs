//! `boosting` as Lucene's `FunctionScoreQuery.boostByQuery`: the positive scorer's score, times
//! `negative_boost` on documents the negative query matches.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

#[derive(Debug)]
pub struct BoostingQuery {
    pub positive: Box<dyn Query>,
    pub negative: Box<dyn Query>,
    pub negative_boost: f32,
}

impl Clone for BoostingQuery {
    fn clone(&self) -> Self {
        BoostingQuery {
            positive: self.positive.box_clone(),
            negative: self.negative.box_clone(),
            negative_boost: self.negative_boost,
        }
    }
}

impl Query for BoostingQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let negative_scoring = match scoring {
            EnableScoring::Enabled { searcher, .. } => {
                EnableScoring::disabled_from_searcher(searcher)
            }
            other => other,
        };
        Ok(Box::new(BoostingWeight {
            positive: self.positive.weight(scoring)?,
            negative: self.negative.weight(negative_scoring)?,
            negative_boost: self.negative_boost,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.positive.query_terms(visitor);
    }
}

struct BoostingWeight {
    positive: Box<dyn Weight>,
    negative: Box<dyn Weight>,
    negative_boost: f32,
}

impl Weight for BoostingWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(BoostingScorer {
            positive: self.positive.scorer(reader, boost)?,
            negative: self.negative.scorer(reader, 1.0)?,
            negative_boost: self.negative_boost,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = self.scorer(reader, 1.0)?;
        if s.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument("no match".into()));
        }
        Ok(Explanation::new("boosting", s.score()))
    }
}

struct BoostingScorer {
    positive: Box<dyn Scorer>,
    negative: Box<dyn Scorer>,
    negative_boost: f32,
}

impl DocSet for BoostingScorer {
    fn advance(&mut self) -> DocId {
        self.positive.advance()
    }
    fn seek(&mut self, target: DocId) -> DocId {
        self.positive.seek(target)
    }
    fn doc(&self) -> DocId {
        self.positive.doc()
    }
    fn size_hint(&self) -> u32 {
        self.positive.size_hint()
    }
}

impl Scorer for BoostingScorer {
    fn score(&mut self) -> Score {
        let doc = self.positive.doc();
        let s = self.positive.score();
        if doc == TERMINATED {
            return s;
        }
        let n = if self.negative.doc() < doc {
            self.negative.seek(doc)
        } else {
            self.negative.doc()
        };
        if n == doc {
            s * self.negative_boost
        } else {
            s
        }
    }
}
