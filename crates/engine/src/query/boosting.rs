//! `boosting` as Lucene's `FunctionScoreQuery.boostByQuery`: the positive scorer's score, times
//! `negative_boost` on documents the negative query matches.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

/// An explanation's value Lucene keeps as a double (`FunctionScoreQuery` multiplies in
/// double), carried in the explanation's context for `api/explain.rs` to print.
pub const DOUBLE_VALUE_CONTEXT: &str = "double value ";

#[derive(Debug)]
pub struct BoostingQuery {
    pub positive: Box<dyn Query>,
    pub negative: Box<dyn Query>,
    pub negative_boost: f32,
    /// The query's own boost (Lucene's weight boost, printed apart in an explanation).
    pub boost: f32,
    /// Lucene's texts of the queries, for an explanation.
    pub texts: Option<BoostingTexts>,
}

/// What a boosting query's explanation prints of its queries.
#[derive(Debug, Clone)]
pub struct BoostingTexts {
    /// The positive query, rewritten (the weight's query is).
    pub positive: String,
    /// The negative query as parsed: the function holding it is not rewritten.
    pub negative: String,
    /// The negative query as the function explains a match on it: rewritten.
    pub matched: String,
}

impl Clone for BoostingQuery {
    fn clone(&self) -> Self {
        BoostingQuery {
            positive: self.positive.box_clone(),
            negative: self.negative.box_clone(),
            negative_boost: self.negative_boost,
            boost: self.boost,
            texts: self.texts.clone(),
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
            boost: self.boost,
            texts: self.texts.clone(),
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
    boost: f32,
    texts: Option<BoostingTexts>,
}

/// An explanation whose value Lucene holds as a double.
fn double_valued(description: String, value: f64) -> Explanation {
    let mut e = Explanation::new_with_string(description, value as f32);
    e.add_context(format!("{DOUBLE_VALUE_CONTEXT}{value:?}"));
    e
}

impl Weight for BoostingWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(BoostingScorer {
            positive: self.positive.scorer(reader, boost * self.boost)?,
            negative: self.negative.scorer(reader, 1.0)?,
            negative_boost: self.negative_boost,
        }))
    }

    /// Lucene's `FunctionScoreQuery.boostByQuery` explanation: the positive query's, times the
    /// negative boost where the negative query matches (in double), under the query's text.
    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut s = self.scorer(reader, 1.0)?;
        if s.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument("no match".into()));
        }
        let Some(texts) = &self.texts else {
            return Ok(Explanation::new("boosting", s.score()));
        };
        let positive = self.positive.explain(reader, doc)?;
        let mut negative = self.negative.scorer(reader, 1.0)?;
        let matched = negative.doc() <= doc && negative.seek(doc) == doc;
        let (value, inner) = if matched {
            let value = f64::from(positive.value()) * f64::from(self.negative_boost);
            let mut product = double_valued("product of:".to_string(), value);
            product.add_detail(positive);
            product.add_detail(Explanation::new_with_string(
                format!("Matched boosting query score({})", texts.matched),
                self.negative_boost,
            ));
            (value, product)
        } else {
            (f64::from(positive.value()), positive)
        };
        let text = format!(
            "FunctionScoreQuery({}, scored by boost(queryboost(score({}))^{:?}))",
            texts.positive, texts.negative, self.negative_boost
        );
        if self.boost == 1.0 {
            let mut top = if matched {
                double_valued(format!("weight({text}), result of:"), value)
            } else {
                Explanation::new_with_string(format!("weight({text}), result of:"), value as f32)
            };
            top.add_detail(inner);
            return Ok(top);
        }
        let mut top = Explanation::new_with_string(
            format!("weight({text}), product of:"),
            (value * f64::from(self.boost)) as f32,
        );
        top.add_const("boost", self.boost);
        top.add_detail(inner);
        Ok(top)
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
