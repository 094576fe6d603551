//! A bucket's own docs, for the aggregations nested in it: each bucket of a shard's part is
//! named by an id the coordinating reduce finds again (`id_of_*`), and described by the query
//! that selects its docs, which the search module builds and intersects with the search's.

use super::collect::{next, Key, Part, ShardAggs};
use super::request::Aggs;
use super::request::{Agg, AggKind};
use crate::dsl::Query as Ast;
use rustc_hash::FxHashMap;
use serde_json::{json, Value};

/// What selects a bucket's docs.
pub(crate) enum BucketFilter<'a> {
    /// A query in the DSL, as JSON text.
    Json(String),
    /// A query of the request (a `filter` or one of `filters`).
    Query(&'a Ast),
    /// The docs none of these queries match (`filters`' other bucket).
    NoneOf(Vec<&'a Ast>),
    /// Every doc of the scope (`global`'s bucket).
    All,
}

pub(crate) fn id_of_key(k: &Key) -> String {
    format!("{k:?}")
}

pub(crate) fn id_of_index(i: usize) -> String {
    i.to_string()
}

fn range(field: &str, gte: Option<Value>, lt: Option<Value>, epoch_millis: bool) -> String {
    let mut bounds = serde_json::Map::new();
    if let Some(v) = gte {
        bounds.insert("gte".into(), v);
    }
    if let Some(v) = lt {
        bounds.insert("lt".into(), v);
    }
    if epoch_millis {
        bounds.insert("format".into(), json!("epoch_millis"));
    }
    json!({ "range": { field: bounds } }).to_string()
}

/// The buckets of a shard's part whose nested aggregations are computed: a terms aggregation's
/// top `shard_size` (the only ones the reduce can keep), every bucket of the others.
fn buckets<'a>(agg: &'a Agg, part: &Part) -> Vec<(String, BucketFilter<'a>)> {
    match (&agg.kind, part) {
        (
            AggKind::Terms {
                field,
                size,
                shard_size,
                ..
            },
            Part::Terms(list),
        ) => {
            let mut list: Vec<&super::collect::Bucket> = list.iter().collect();
            list.sort_by(|a, b| super::reduce::order(a, b));
            let window = shard_size.unwrap_or(size + size / 2 + 10).max(*size);
            list.into_iter()
                .take(window)
                .map(|(k, _, _)| {
                    let filter = match k {
                        Key::Str(s) => json!({ "term": { field: s } }).to_string(),
                        Key::Long(v) => json!({ "term": { field: v } }).to_string(),
                        Key::Unsigned(v) => json!({ "term": { field: v } }).to_string(),
                        Key::Double(v) => json!({ "term": { field: v } }).to_string(),
                        Key::Bool(v) => json!({ "term": { field: v } }).to_string(),
                        Key::Date(ms) => range(field, Some(json!(ms)), Some(json!(ms + 1)), true),
                    };
                    (id_of_key(k), BucketFilter::Json(filter))
                })
                .collect()
        }
        (
            AggKind::DateHistogram {
                field, interval, ..
            },
            Part::Histogram(h),
        ) => h
            .keys()
            .map(|&k| {
                let f = range(field, Some(json!(k)), Some(json!(next(k, *interval))), true);
                (k.to_string(), BucketFilter::Json(f))
            })
            .collect(),
        (
            AggKind::Histogram {
                field, interval, ..
            },
            Part::NumHistogram(h),
        ) => h
            .keys()
            .map(|&bits| {
                let k = tantivy::u64_to_f64(bits);
                let f = range(field, Some(json!(k)), Some(json!(k + interval)), false);
                (bits.to_string(), BucketFilter::Json(f))
            })
            .collect(),
        (AggKind::Range { field, .. }, Part::Range(_, resolved)) => resolved
            .iter()
            .enumerate()
            .map(|(i, r)| {
                // Date bounds are epoch millis.
                let bound =
                    |v: Option<f64>| v.map(|v| if r.dates { json!(v as i64) } else { json!(v) });
                let f = range(field, bound(r.from), bound(r.to), r.dates);
                (id_of_index(i), BucketFilter::Json(f))
            })
            .collect(),
        (AggKind::Missing { field }, _) => {
            let f = json!({ "bool": { "must_not": { "exists": { "field": field } } } });
            vec![(id_of_index(0), BucketFilter::Json(f.to_string()))]
        }
        (AggKind::Filter { query }, _) => vec![(id_of_index(0), BucketFilter::Query(query))],
        (AggKind::Global, _) => vec![(id_of_index(0), BucketFilter::All)],
        (AggKind::Filters { filters, other }, _) => {
            let mut out: Vec<(String, BucketFilter)> = filters
                .iter()
                .enumerate()
                .map(|(i, (_, q))| (id_of_index(i), BucketFilter::Query(q)))
                .collect();
            if other.is_some() {
                let all = filters.iter().map(|(_, q)| q).collect();
                out.push((id_of_index(filters.len()), BucketFilter::NoneOf(all)));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// For each aggregation with nested ones, its buckets on this shard: the aggregation's index, and
/// each bucket's id and filter.
pub(crate) fn nested_buckets<'a>(
    aggs: &'a Aggs,
    shard: &ShardAggs,
) -> Vec<(usize, Vec<(String, BucketFilter<'a>)>)> {
    aggs.0
        .iter()
        .zip(&shard.0)
        .enumerate()
        .filter(|(_, (agg, _))| !agg.nested.is_empty())
        .map(|(i, (agg, part))| (i, buckets(agg, part)))
        .collect()
}

/// Records what the nested aggregations of aggregation `i` found in each of its buckets.
pub(crate) fn set_nested(shard: &mut ShardAggs, i: usize, found: FxHashMap<String, ShardAggs>) {
    if shard.1.len() <= i {
        shard.1.resize_with(i + 1, FxHashMap::default);
    }
    shard.1[i] = found;
}
