//! The order OpenSearch's can-match phase puts a search's shards in when the primary sort is
//! a field (`CanMatchPreFilterSearchPhase`): by each shard's least value of the field for an
//! ascending sort, its greatest for a descending one, shards without values last, ties in shard
//! order. Hits that tie on every sort value come from the earlier shard first, so the order
//! shows in which of several equal hits a page holds.
//!
//! The bounds are those of the index structures, deleted documents included, as Lucene's
//! points and terms dictionaries give them: numbers and dates from their columns, keywords from
//! their terms. Other field types have none, as in OpenSearch.

use super::request::SearchRequest;
use super::sort::{Missing, Mode, SortField};
use super::ShardTarget;
use crate::index::mapping::FieldType;
use std::cmp::Ordering;

/// A shard's least and greatest value of the sort field, in an order-preserving form.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Bound {
    /// A numeric column's values as tantivy maps them to order-preserving u64s.
    Number(u64),
    Bytes(Vec<u8>),
}

/// Each target's rank in the merge's tie-break: its position in OpenSearch's shard order.
pub fn ranks(req: &SearchRequest, targets: &[ShardTarget]) -> Vec<usize> {
    let identity: Vec<usize> = (0..targets.len()).collect();
    let Some(first) = req.sort.first() else {
        return identity;
    };
    let SortField::Field(name) = &first.field else {
        return identity;
    };
    // Only where the can_match phase runs: query_then_fetch, more shards than
    // `pre_filter_shard_size` (1 unless given).
    if !req.can_match {
        return identity;
    }
    // A sort OpenSearch builds with its own comparator has a type the can-match phase reads no
    // bounds for (`FieldSortBuilder.getMinMaxOrNull`), so the shards keep their order: a mode
    // other than min or max, or a keyword's `missing` that is a value, not `_first`/`_last`.
    let keyword = targets.first().is_some_and(|t| {
        t.service
            .meta()
            .mapping
            .field(name)
            .is_some_and(|fm| fm.ty == FieldType::Keyword)
    });
    if !matches!(first.effective_mode(), Mode::Min | Mode::Max)
        || (keyword && matches!(first.missing, Missing::Value(_)))
    {
        return identity;
    }
    let bounds: Vec<Option<(Bound, Bound)>> = targets.iter().map(|t| bounds(t, name)).collect();
    let mut order = identity;
    order.sort_by(|&a, &b| {
        match (&bounds[a], &bounds[b]) {
            (Some(x), Some(y)) if first.ascending => x.0.cmp(&y.0),
            (Some(x), Some(y)) => y.1.cmp(&x.1),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
        .then(a.cmp(&b))
    });
    let mut ranks = vec![0; targets.len()];
    for (rank, &target) in order.iter().enumerate() {
        ranks[target] = rank;
    }
    ranks
}

/// The shard's least and greatest value of `field`, if it is a searchable number, date or
/// keyword with any value.
fn bounds(target: &ShardTarget, field: &str) -> Option<(Bound, Bound)> {
    let meta = target.service.meta();
    let fm = meta.mapping.field(field)?;
    if !fm.index {
        return None;
    }
    let readers = target.searcher.segment_readers();
    let mut out: Option<(Bound, Bound)> = None;
    let mut widen = |lo: Bound, hi: Bound| {
        out = Some(match out.take() {
            Some((a, b)) => (a.min(lo), b.max(hi)),
            None => (lo, hi),
        });
    };
    match fm.ty {
        FieldType::Keyword => {
            let f = target.searcher.schema().get_field(field).ok()?;
            for r in readers {
                let inv = r.inverted_index(f).ok()?;
                let dict = inv.terms();
                let n = dict.num_terms() as u64;
                if n == 0 {
                    continue;
                }
                let (mut lo, mut hi) = (Vec::new(), Vec::new());
                if dict.ord_to_term(0, &mut lo).ok()? && dict.ord_to_term(n - 1, &mut hi).ok()? {
                    widen(Bound::Bytes(lo), Bound::Bytes(hi));
                }
            }
        }
        FieldType::Text | FieldType::Boolean | FieldType::Ip => return None,
        _ => {
            for r in readers {
                let Ok(Some((column, _))) = r.fast_fields().u64_lenient_for_type(None, field)
                else {
                    continue;
                };
                if column.num_docs() == 0 || column.values.num_vals() == 0 {
                    continue;
                }
                widen(
                    Bound::Number(column.min_value()),
                    Bound::Number(column.max_value()),
                );
            }
        }
    }
    out
}
