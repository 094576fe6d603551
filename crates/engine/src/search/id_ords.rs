//! The `_id` field uninverted per segment, for sorting on `_id` (OpenSearch 2.x loads `_id`
//! field data for it, and orders ids as strings).
//!
//! `_id` is indexed, not a column: each segment's ids are read once from its term dictionary
//! (byte order, which is the ids' string order) and their postings, into each doc's ordinal
//! there. An updated doc's old, deleted version shares its id's ordinal, and matches nothing.

use super::term_strings::TermStrings;
use crate::index::schema;
use crate::util::segment_cache::SegmentCache;
use std::sync::Arc;
use tantivy::columnar::TermOrdHit;
use tantivy::index::SegmentId;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, SegmentReader, TERMINATED};

/// One segment's ids: each doc's ordinal among them, and the ids in ordinal order.
pub(crate) struct IdOrds {
    /// `NONE` for a doc without an id (none has one, short of a damaged segment).
    ords: Vec<u32>,
    ids: TermStrings,
}

const NONE: u32 = u32::MAX;

/// At most this many bytes cached (about 4 per doc plus the ids).
static CACHE: SegmentCache<SegmentId, IdOrds> = SegmentCache::new(64 << 20);

impl IdOrds {
    pub(crate) fn ord(&self, doc: DocId) -> Option<u64> {
        match self.ords.get(doc as usize) {
            Some(&o) if o != NONE => Some(o as u64),
            _ => None,
        }
    }

    /// The id of ordinal `ord`.
    pub(crate) fn id(&self, ord: u64) -> Option<&str> {
        self.ids.get(ord)
    }

    /// `id`'s ordinal, or the next greater id's (the id count past the last).
    pub(crate) fn ord_or_next(&self, id: &str) -> TermOrdHit {
        self.ids.ord_or_next(id.as_bytes())
    }

    fn size(&self) -> usize {
        4 * self.ords.len() + self.ids.size()
    }

    fn read(reader: &SegmentReader) -> tantivy::Result<IdOrds> {
        let field = reader.schema().get_field(schema::ID)?;
        let inverted = reader.inverted_index(field)?;
        let mut out = IdOrds {
            ords: vec![NONE; reader.max_doc() as usize],
            ids: TermStrings::default(),
        };
        let mut terms = inverted.terms().stream()?;
        let mut ord = 0u32;
        while terms.advance() {
            let mut postings =
                inverted.read_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)?;
            let mut doc = postings.doc();
            while doc != TERMINATED {
                out.ords[doc as usize] = ord;
                doc = postings.advance();
            }
            out.ids.push(terms.key());
            ord += 1;
        }
        Ok(out)
    }
}

/// `reader`'s ids, read once per segment.
pub(crate) fn id_ords(reader: &SegmentReader) -> tantivy::Result<Arc<IdOrds>> {
    let mut failed = None;
    let ids = CACHE.get_or_build(reader.segment_id(), IdOrds::size, || {
        IdOrds::read(reader).unwrap_or_else(|e| {
            failed = Some(e);
            IdOrds {
                ords: Vec::new(),
                ids: TermStrings::default(),
            }
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    // A read that failed earlier left no ordinals (a segment without docs has none to hold).
    if ids.ords.len() != reader.max_doc() as usize {
        return Err(tantivy::TantivyError::InternalError(
            "the segment's _id terms could not be read".into(),
        ));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::{Index, TantivyDocument, Term};

    #[test]
    fn orders_ids_as_strings_and_keeps_a_deleted_version_on_its_id() {
        let schema = schema::base_schema();
        let id = schema.get_field(schema::ID).unwrap();
        let index = Index::create_in_ram(schema);
        let mut w = crate::util::test_support::segment_writer(&index);
        for s in ["10", "9", "hé", "abc", "AAAA", "abc"] {
            let mut d = TantivyDocument::default();
            d.add_text(id, s);
            w.add_document(d).unwrap();
        }
        w.commit().unwrap();
        w.delete_term(Term::from_field_text(id, "9"));
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let reader = searcher.segment_reader(0);
        let ids = id_ords(reader).unwrap();
        let of = |doc| ids.ord(doc).and_then(|o| ids.id(o)).unwrap();
        assert_eq!(
            (0..6).map(of).collect::<Vec<_>>(),
            ["10", "9", "hé", "abc", "AAAA", "abc"]
        );
        assert!(ids.ord(3) == ids.ord(5) && ids.ord(0) < ids.ord(4) && ids.ord(4) < ids.ord(3));
        assert!(ids.ord(0) < ids.ord(1) && ids.ord(3) < ids.ord(2));
        assert_eq!(
            ids.ord_or_next("abc"),
            TermOrdHit::Exact(ids.ord(3).unwrap())
        );
        assert_eq!(ids.ord_or_next("ab"), TermOrdHit::Next(ids.ord(3).unwrap()));
        assert_eq!(ids.ord_or_next("zz"), TermOrdHit::Next(5));
    }
}
