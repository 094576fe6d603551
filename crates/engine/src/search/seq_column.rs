//! The `_seq_no` column of a segment, opened once per segment reader instead of once per query.
//!
//! Every top-k breaks score ties on `_seq_no`, so every query opened the column in every
//! segment: a lookup in the segment's columnar directory and, for a blockwise-linear column,
//! decoding every block's header. On an index of eight segments that was 7-10% of a term or
//! match query's time. The open column is kept here by segment id, with a weak handle on
//! something its segment reader owns (the `_id` inverted index reader, which the segment reader
//! caches for its life): when that reader is gone (a refresh opened new ones, a merge retired
//! the segment) the entry is stale. Stale entries are dropped at the next miss and after every
//! reader reload, so a retired segment's files are not held open past it.

use crate::index::schema;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock, Weak};
use tantivy::columnar::ColumnValues;
use tantivy::index::SegmentId;
use tantivy::{InvertedIndexReader, SegmentReader};

type SeqColumn = Arc<dyn ColumnValues<i64>>;

struct Entry {
    owner: Weak<InvertedIndexReader>,
    column: Option<SeqColumn>,
}

fn entries() -> &'static Mutex<FxHashMap<SegmentId, Entry>> {
    static ENTRIES: OnceLock<Mutex<FxHashMap<SegmentId, Entry>>> = OnceLock::new();
    ENTRIES.get_or_init(Default::default)
}

/// What ties the entry to `reader`: its `_id` inverted index, which it keeps while it lives.
fn owner(reader: &SegmentReader) -> Option<Arc<InvertedIndexReader>> {
    let id = reader.schema().get_field(schema::ID).ok()?;
    reader.inverted_index(id).ok()
}

/// The segment's `_seq_no` column (`None` in indices from before it was a fast field, where the
/// doc id stands in).
pub fn seq_column(reader: &SegmentReader) -> Option<SeqColumn> {
    let open = || {
        reader
            .fast_fields()
            .i64(schema::SEQ_NO)
            .ok()
            .map(|c| c.first_or_default_col(0))
    };
    let Some(owner) = owner(reader) else {
        return open();
    };
    let id = reader.segment_id();
    if let Some(e) = entries().lock().get(&id) {
        if e.owner.as_ptr() == Arc::as_ptr(&owner) {
            return e.column.clone();
        }
    }
    let column = open();
    let mut map = entries().lock();
    map.retain(|_, e| e.owner.strong_count() > 0);
    map.insert(
        id,
        Entry {
            owner: Arc::downgrade(&owner),
            column: column.clone(),
        },
    );
    column
}

/// Drops the entries whose segment reader is gone (called after a reader reload).
pub fn sweep() {
    entries().lock().retain(|_, e| e.owner.strong_count() > 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::schema::{self, Fields};
    use tantivy::{Index, TantivyDocument};

    fn index_with(seqs: &[i64]) -> Index {
        let index = Index::create_in_ram(schema::base_schema());
        let f = Fields::new(&index.schema());
        let mut w = crate::util::test_support::segment_writer(&index);
        for (i, s) in seqs.iter().enumerate() {
            let mut d = TantivyDocument::default();
            d.add_text(f.id, format!("d{i}"));
            d.add_i64(f.seq_no, *s);
            w.add_document(d).unwrap();
        }
        w.commit().unwrap();
        index
    }

    #[test]
    fn opens_once_per_segment_reader_and_forgets_it_when_the_reader_goes() {
        let index = index_with(&[7, 3, 9]);
        let reader = index.reader().unwrap();
        let searcher = reader.searcher();
        let seg = &searcher.segment_readers()[0];
        let a = seq_column(seg).unwrap();
        assert_eq!((a.get_val(0), a.get_val(1), a.get_val(2)), (7, 3, 9));
        let b = seq_column(seg).unwrap();
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second call reuses the open column"
        );
        let id = seg.segment_id();

        // A reader opened afresh on the same segment gets its own column; the first one's
        // entry dies with its reader.
        let other = index.reader().unwrap();
        let fresh = other.searcher();
        let c = seq_column(&fresh.segment_readers()[0]).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(c.get_val(2), 9);
        drop((searcher, reader, other, fresh, a, b, c));
        sweep();
        assert!(!entries().lock().contains_key(&id));
    }
}
