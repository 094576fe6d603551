//! The docs holding any of a set of terms of one field, without scores: `terms` on text, keyword
//! and boolean fields, `ids`, and `term` on `_id`.
//!
//! tantivy's `TermSetQuery` builds an FST of its terms for every query, and the FST builder
//! zeroes a registry of thousands of cells: 0.2 ms of the 0.28 ms the flights `terms` query
//! (five keywords, 20k docs) took in the engine. Here each term is looked up in the term
//! dictionary on its own, as Lucene's `TermInSetQuery` seeks them, and its postings are read a
//! block at a time into a bitset of the segment's docs.

use super::constant::BitDocs;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, Score, SegmentReader, Term};

#[derive(Clone, Debug)]
pub struct TermUnionQuery {
    /// Sorted, without repeats.
    terms: Vec<Term>,
}

impl TermUnionQuery {
    /// `terms` are all of one field.
    pub fn new(terms: impl IntoIterator<Item = Term>) -> TermUnionQuery {
        let mut terms: Vec<Term> = terms.into_iter().collect();
        terms.sort_unstable();
        terms.dedup();
        debug_assert!(terms.windows(2).all(|w| w[0].field() == w[1].field()));
        TermUnionQuery { terms }
    }
}

impl Query for TermUnionQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(TermUnionWeight {
            terms: self.terms.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for t in &self.terms {
            visitor(t, false);
        }
    }
}

struct TermUnionWeight {
    terms: Vec<Term>,
}

impl Weight for TermUnionWeight {
    fn scorer(&self, reader: &SegmentReader, _boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(BitDocs::new(BitDocs::of_postings(
            reader,
            &self.terms,
        )?)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        super::positioned_on(
            Some(BitDocs::new(BitDocs::of_postings(reader, &self.terms)?)),
            doc,
        )?;
        Ok(Explanation::new("TermUnion", 1.0))
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        let words = BitDocs::of_postings(reader, &self.terms)?;
        Ok(BitDocs::count_alive_in(&words, reader))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::test_support::Rng;
    use tantivy::query::TermSetQuery;
    use tantivy::schema::{Schema, STRING};
    use tantivy::{Index, TantivyDocument, TERMINATED};

    #[test]
    fn matches_the_term_set_query() {
        let mut sb = Schema::builder();
        let id = sb.add_text_field("id", STRING);
        let k = sb.add_text_field("k", STRING);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut rng = Rng(99);
        let mut n = 0;
        // Segments past one postings block (128 docs) per term, and docs with several terms.
        for _ in 0..3 {
            for _ in 0..(500 + rng.below(900)) {
                let mut d = TantivyDocument::default();
                d.add_text(id, n.to_string());
                for _ in 0..rng.below(3) {
                    d.add_text(k, format!("v{}", rng.below(12)));
                }
                w.add_document(d).unwrap();
                n += 1;
            }
            w.commit().unwrap();
        }
        for _ in 0..150 {
            w.delete_term(Term::from_field_text(id, &rng.below(n).to_string()));
        }
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let sets: [&[&str]; 5] = [
            &["v1"],
            &["v2", "v5", "v2", "v11"],
            &["absent"],
            &[],
            &["v0", "absent", "v3"],
        ];
        for set in sets {
            let terms = || set.iter().map(|v| Term::from_field_text(k, v));
            let want = TermSetQuery::new(terms());
            let got = TermUnionQuery::new(terms());
            let scoring = EnableScoring::enabled_from_searcher(&searcher);
            let (want, got) = (want.weight(scoring).unwrap(), got.weight(scoring).unwrap());
            for r in searcher.segment_readers() {
                let (mut a, mut b) = (want.scorer(r, 1.0).unwrap(), got.scorer(r, 1.0).unwrap());
                loop {
                    assert_eq!(a.doc(), b.doc(), "{set:?}");
                    if a.doc() == TERMINATED {
                        break;
                    }
                    a.advance();
                    b.advance();
                }
                assert_eq!(got.count(r).unwrap(), want.count(r).unwrap(), "{set:?}");
            }
        }
    }
}
