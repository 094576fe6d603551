//! `terms_set` as Lucene's `CoveringQuery`: one term query per value (scored as `term` scores
//! it, the query's boost passed down to each), a document matching when at least
//! `max(1, minimum)` of them match, its score their sum in double cast to float. The minimum is
//! the document's `minimum_should_match_field` value (no value: no match) or a constant.

use super::{build, none, Context, Q};
use crate::dsl::terms_set::{MinimumShouldMatch, TermsSetQuery as Ast};
use crate::dsl::Query as Dsl;
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::FieldType;
use tantivy::columnar::Column;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

#[derive(Debug, Clone)]
enum Minimum {
    /// A long column (integer types, dates as millis, doubles truncated as `getLongValues`).
    Field(String, MinColumn),
    Constant(i64),
}

#[derive(Debug, Clone, Copy)]
enum MinColumn {
    I64,
    U64,
    F64,
}

#[derive(Debug)]
pub struct CoveringQuery {
    clauses: Vec<Q>,
    minimum: Minimum,
}

impl Clone for CoveringQuery {
    fn clone(&self) -> Self {
        CoveringQuery {
            clauses: self.clauses.iter().map(|q| q.box_clone()).collect(),
            minimum: self.minimum.clone(),
        }
    }
}

/// Builds `terms_set` for one shard.
pub fn build_terms_set(cx: &Context, ts: &Ast) -> Result<Q> {
    if ts.terms.is_empty() {
        return Ok(none());
    }
    let minimum = match &ts.minimum {
        MinimumShouldMatch::Unset => {
            return Err(cx
                .shard_error("failed to create query: No minimum should match has been specified")
                .caused_by(Error::new(
                    ErrorKind::IllegalState,
                    "No minimum should match has been specified",
                )))
        }
        MinimumShouldMatch::Constant(n) => Minimum::Constant(*n),
        MinimumShouldMatch::Field(f) => {
            let Some(fm) = cx.mapping.field(f) else {
                return Err(
                    cx.shard_error(format!("failed to find minimum_should_match field [{f}]"))
                );
            };
            let column = match fm.ty {
                FieldType::Long
                | FieldType::Integer
                | FieldType::Short
                | FieldType::Byte
                | FieldType::Date => MinColumn::I64,
                FieldType::UnsignedLong => MinColumn::U64,
                FieldType::Double
                | FieldType::Float
                | FieldType::HalfFloat
                | FieldType::ScaledFloat => MinColumn::F64,
                FieldType::Text => {
                    return Err(cx.create_failure(Error::text_fielddata(f)));
                }
                _ => {
                    let e = Error::new(
                        ErrorKind::ClassCast,
                        "class org.opensearch.index.fielddata.plain.SortedSetOrdinalsIndexFieldData cannot be cast to class org.opensearch.index.fielddata.IndexNumericFieldData (org.opensearch.index.fielddata.plain.SortedSetOrdinalsIndexFieldData and org.opensearch.index.fielddata.IndexNumericFieldData are in unnamed module of loader 'app')",
                    );
                    return Err(cx.create_failure(e));
                }
            };
            Minimum::Field(f.clone(), column)
        }
    };
    let clauses = ts
        .terms
        .iter()
        .map(|v| {
            build(
                &Dsl::Term {
                    field: ts.field.clone(),
                    value: v.clone(),
                    boost: ts.boost,
                    case_insensitive: false,
                },
                cx,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Box::new(CoveringQuery { clauses, minimum }))
}

impl Query for CoveringQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(CoveringWeight {
            clauses: self
                .clauses
                .iter()
                .map(|q| q.weight(scoring))
                .collect::<tantivy::Result<Vec<_>>>()?,
            minimum: self.minimum.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        for q in &self.clauses {
            q.query_terms(visitor);
        }
    }
}

struct CoveringWeight {
    clauses: Vec<Box<dyn Weight>>,
    minimum: Minimum,
}

enum MinValues {
    I64(Option<Column<i64>>),
    U64(Option<Column<u64>>),
    F64(Option<Column<f64>>),
    Constant(i64),
}

impl MinValues {
    fn open(m: &Minimum, reader: &SegmentReader) -> MinValues {
        let ff = reader.fast_fields();
        match m {
            Minimum::Constant(n) => MinValues::Constant(*n),
            Minimum::Field(f, MinColumn::I64) => MinValues::I64(ff.column_opt(f).ok().flatten()),
            Minimum::Field(f, MinColumn::U64) => MinValues::U64(ff.column_opt(f).ok().flatten()),
            Minimum::Field(f, MinColumn::F64) => MinValues::F64(ff.column_opt(f).ok().flatten()),
        }
    }

    /// `max(1, value)`, or `None` when the document has no value.
    fn required(&self, doc: DocId) -> Option<i64> {
        let v = match self {
            MinValues::Constant(n) => Some(*n),
            MinValues::I64(c) => c.as_ref().and_then(|c| c.values_for_doc(doc).min()),
            MinValues::U64(c) => c
                .as_ref()
                .and_then(|c| c.values_for_doc(doc).min())
                .map(|v| v as i64),
            MinValues::F64(c) => c
                .as_ref()
                .and_then(|c| c.values_for_doc(doc).min_by(f64::total_cmp))
                .map(|v| v as i64),
        };
        v.map(|v| v.max(1))
    }
}

impl CoveringWeight {
    fn covering_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<CoveringScorer> {
        let mut s = CoveringScorer {
            clauses: self
                .clauses
                .iter()
                .map(|w| w.scorer(reader, boost))
                .collect::<tantivy::Result<Vec<_>>>()?,
            minimum: MinValues::open(&self.minimum, reader),
            doc: 0,
            score: 0.0,
        };
        s.settle(0);
        Ok(s)
    }
}

impl Weight for CoveringWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(self.covering_scorer(reader, boost)?))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let minimum = MinValues::open(&self.minimum, reader);
        let Some(required) = minimum.required(doc) else {
            return Ok(Explanation::new(
                "minimumNumberMatch has no value on the current document",
                0.0,
            ));
        };
        let mut freq = 0;
        let mut score = 0f64;
        let mut details = Vec::new();
        for w in &self.clauses {
            let mut s = w.scorer(reader, 1.0)?;
            if super::reaches(s.as_mut(), doc) {
                let e = w.explain(reader, doc)?;
                freq += 1;
                score += e.value() as f64;
                details.push(e);
            } else {
                details.push(Explanation::new("no matching term", 0.0));
            }
        }
        let (desc, value) = if freq >= required {
            (
                format!("{freq} matches for {required} required matches, sum of:"),
                score as f32,
            )
        } else {
            (
                format!("{freq} matches for {required} required matches"),
                0.0,
            )
        };
        let mut e = Explanation::new_with_string(desc, value);
        for d in details {
            e.add_detail(d);
        }
        Ok(e)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let mut s = self.covering_scorer(reader, 1.0)?;
        let alive = reader.alive_bitset();
        let mut n = 0;
        while s.doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(s.doc)) {
                n += 1;
            }
            s.advance();
        }
        Ok(n)
    }
}

struct CoveringScorer {
    clauses: Vec<Box<dyn Scorer>>,
    minimum: MinValues,
    doc: DocId,
    score: f32,
}

impl CoveringScorer {
    /// Moves to the first document at or after `target` that enough clauses match.
    fn settle(&mut self, target: DocId) -> DocId {
        let mut target = target;
        loop {
            let mut next = TERMINATED;
            for c in &mut self.clauses {
                if c.doc() < target {
                    c.seek(target);
                }
                next = next.min(c.doc());
            }
            if next == TERMINATED {
                self.doc = TERMINATED;
                return TERMINATED;
            }
            let mut freq = 0i64;
            let mut sum = 0f64;
            for c in &mut self.clauses {
                if c.doc() == next {
                    freq += 1;
                    sum += c.score() as f64;
                }
            }
            if self.minimum.required(next).is_some_and(|r| freq >= r) {
                self.doc = next;
                self.score = sum as f32;
                return next;
            }
            target = next + 1;
        }
    }
}

impl DocSet for CoveringScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.settle(self.doc + 1)
    }
    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        self.settle(target)
    }
    fn doc(&self) -> DocId {
        self.doc
    }
    fn size_hint(&self) -> u32 {
        self.clauses
            .iter()
            .map(|c| c.size_hint())
            .max()
            .unwrap_or(0)
    }
}

impl Scorer for CoveringScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}
