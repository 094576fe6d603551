//! The smallest and largest value in each run of docs of a numeric column, for the sorted
//! column scan of `top_k`: once the page is full, a run whose values all fall short of its
//! worst hit (or lie before the `search_after` values) holds nothing the page can take, and is
//! skipped without reading a value. Lucene's points give OpenSearch the same skip.
//!
//! Segments never change, so the bounds are built once per segment, field and column type (one
//! pass over the column) and cached: 16 bytes per run of [`RUN`] docs.

use crate::util::segment_cache::SegmentCache;
use std::ops::RangeInclusive;
use std::sync::Arc;
use tantivy::columnar::{Column, ColumnType};
use tantivy::index::SegmentId;
use tantivy::SegmentReader;

/// Docs per run. Small in tests, so their small segments have several runs to skip.
pub(super) const RUN: u32 = if cfg!(test) { 16 } else { 1024 };

/// Per run, its smallest and largest value; a run without values is `(u64::MAX, 0)`, which
/// meets no range.
pub(super) struct Bounds(Vec<(u64, u64)>);

impl Bounds {
    pub(super) fn runs(&self) -> usize {
        self.0.len()
    }

    /// Whether run `i` may hold a value in `range`.
    pub(super) fn meets(&self, i: usize, range: &RangeInclusive<u64>) -> bool {
        let (lo, hi) = self.0[i];
        lo <= *range.end() && hi >= *range.start()
    }
}

/// At most this many runs cached (16 bytes each).
static CACHE: SegmentCache<(SegmentId, String, ColumnType), Bounds> = SegmentCache::new(1 << 20);

/// The bounds of `col`, the `ty` column of `field` in `reader`'s segment.
pub(super) fn bounds(
    reader: &SegmentReader,
    field: &str,
    ty: ColumnType,
    col: &Column<u64>,
) -> Arc<Bounds> {
    CACHE.get_or_build(
        (reader.segment_id(), field.to_string(), ty),
        Bounds::runs,
        || build(col, reader.max_doc()),
    )
}

fn build(col: &Column<u64>, max_doc: u32) -> Bounds {
    let mut runs = Vec::with_capacity(max_doc.div_ceil(RUN) as usize);
    let mut buf = vec![0u64; RUN as usize];
    let mut start = 0;
    while start < max_doc {
        let end = (start + RUN).min(max_doc);
        let rows = col.index.docid_range_to_rowids(start..end);
        let (mut lo, mut hi) = (u64::MAX, 0);
        let mut row = rows.start;
        while row < rows.end {
            let n = (rows.end - row).min(RUN) as usize;
            col.values.get_range(row as u64, &mut buf[..n]);
            for &v in &buf[..n] {
                lo = lo.min(v);
                hi = hi.max(v);
            }
            row += n as u32;
        }
        runs.push((lo, hi));
        start = end;
    }
    Bounds(runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::{Schema, FAST, INDEXED};
    use tantivy::{doc, Index};

    #[test]
    fn every_value_lies_within_its_runs_bounds() {
        let mut sb = Schema::builder();
        let f = sb.add_i64_field("n", FAST | INDEXED);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        let mut rng = crate::util::test_support::Rng(7);
        let mut values = Vec::new();
        for _ in 0..500 {
            // Some docs without a value, so rows and docs differ.
            if rng.below(5) == 0 {
                w.add_document(doc!()).unwrap();
                values.push(None);
            } else {
                let v = rng.below(10_000) as i64 - 5_000;
                w.add_document(doc!(f => v)).unwrap();
                values.push(Some(v));
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
        let b = bounds(reader, "n", ColumnType::I64, &col);
        assert_eq!(b.runs(), 500usize.div_ceil(RUN as usize));
        for (run, chunk) in values.chunks(RUN as usize).enumerate() {
            let present: Vec<u64> = chunk
                .iter()
                .flatten()
                .map(|&v| tantivy::i64_to_u64(v))
                .collect();
            let (lo, hi) = b.0[run];
            if present.is_empty() {
                assert_eq!((lo, hi), (u64::MAX, 0));
            } else {
                assert_eq!(lo, *present.iter().min().unwrap(), "run {run}");
                assert_eq!(hi, *present.iter().max().unwrap(), "run {run}");
            }
            assert!(!present.is_empty() || !b.meets(run, &(0..=u64::MAX)));
        }
    }
}
