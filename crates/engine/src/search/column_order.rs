//! The docs of a segment in the order of a single-valued numeric column: a `match_all` sorted
//! on that column walks them from its first value on and stops past the page's worst hit, so
//! a page costs about its own size, however deep it starts (`from`, `search_after`). Lucene
//! walks its points the same way.
//!
//! Segments never change, so the order is built once per segment, field and column type (one
//! sort of the column) and cached: 4 bytes per doc with a value.

use crate::util::segment_cache::SegmentCache;
use std::sync::Arc;
use tantivy::columnar::{Cardinality, Column, ColumnType};
use tantivy::index::SegmentId;
use tantivy::{DocId, SegmentReader};

/// The docs with a value, by value then doc id.
pub(crate) struct ValueOrder {
    docs: Vec<DocId>,
}

impl ValueOrder {
    pub(crate) fn len(&self) -> usize {
        self.docs.len()
    }

    pub(crate) fn doc(&self, i: usize) -> DocId {
        self.docs[i]
    }

    /// How many docs have a value below `v` (`or_equal`: at most `v`).
    pub(crate) fn rank(&self, col: &Column<u64>, v: u64, or_equal: bool) -> usize {
        self.docs.partition_point(|&d| {
            let x = value(col, d);
            x < v || (or_equal && x == v)
        })
    }
}

/// The value of a doc the order holds (it has one).
pub(super) fn value(col: &Column<u64>, doc: DocId) -> u64 {
    col.first(doc).unwrap_or_default()
}

/// At most this many docs cached (4 bytes each).
static CACHE: SegmentCache<(SegmentId, String, ColumnType), ValueOrder> =
    SegmentCache::new(16 << 20);

/// The order of `col`, the single-valued `ty` column of `field` in `reader`'s segment.
pub(crate) fn value_order(
    reader: &SegmentReader,
    field: &str,
    ty: ColumnType,
    col: &Column<u64>,
) -> Arc<ValueOrder> {
    CACHE.get_or_build(
        (reader.segment_id(), field.to_string(), ty),
        ValueOrder::len,
        || build(col, reader.max_doc()),
    )
}

fn build(col: &Column<u64>, max_doc: u32) -> ValueOrder {
    let mut pairs: Vec<(u64, DocId)> = Vec::with_capacity(col.values.num_vals() as usize);
    if col.get_cardinality() == Cardinality::Full {
        // Every doc has its one value, at its own row.
        const BATCH: u32 = 4096;
        let mut buf = vec![0u64; BATCH as usize];
        let mut start = 0;
        while start < max_doc {
            let n = BATCH.min(max_doc - start);
            col.values.get_range(start as u64, &mut buf[..n as usize]);
            pairs.extend(buf[..n as usize].iter().zip(start..).map(|(&v, d)| (v, d)));
            start += n;
        }
    } else {
        pairs.extend((0..max_doc).filter_map(|d| col.first(d).map(|v| (v, d))));
    }
    pairs.sort_unstable();
    ValueOrder {
        docs: pairs.into_iter().map(|(_, d)| d).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::{Schema, FAST};
    use tantivy::{doc, Index};

    #[test]
    fn docs_come_by_value_and_ranks_count_below() {
        for sparse in [false, true] {
            let mut sb = Schema::builder();
            let f = sb.add_i64_field("n", FAST);
            let index = Index::create_in_ram(sb.build());
            let mut w = crate::util::test_support::segment_writer(&index);
            let mut rng = crate::util::test_support::Rng(11);
            let mut values = Vec::new();
            for _ in 0..700 {
                if sparse && rng.below(4) == 0 {
                    w.add_document(doc!()).unwrap();
                    values.push(None);
                } else {
                    let v = rng.below(50) as i64 - 25;
                    w.add_document(doc!(f => v)).unwrap();
                    values.push(Some(tantivy::i64_to_u64(v)));
                }
            }
            w.commit().unwrap();
            let searcher = index.reader().unwrap().searcher();
            let reader = searcher.segment_reader(0);
            let col = reader
                .fast_fields()
                .column_opt::<i64>("n")
                .unwrap()
                .unwrap();
            let col = col.to_u64_monotonic();
            let o = value_order(reader, "n", ColumnType::I64, &col);
            let mut want: Vec<(u64, DocId)> = values
                .iter()
                .enumerate()
                .filter_map(|(d, v)| v.map(|v| (v, d as DocId)))
                .collect();
            want.sort_unstable();
            let got: Vec<(u64, DocId)> = (0..o.len())
                .map(|i| (value(&col, o.doc(i)), o.doc(i)))
                .collect();
            assert_eq!(got, want, "sparse {sparse}");
            for v in [
                0,
                tantivy::i64_to_u64(-3),
                tantivy::i64_to_u64(24),
                u64::MAX,
            ] {
                for or_equal in [false, true] {
                    let below = want
                        .iter()
                        .filter(|(x, _)| *x < v || (or_equal && *x == v))
                        .count();
                    assert_eq!(o.rank(&col, v, or_equal), below);
                }
            }
        }
    }
}
