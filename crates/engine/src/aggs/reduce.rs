//! The shards' parts merged into OpenSearch's `aggregations` object: terms as the coordinating
//! node reduces them (each shard's top `shard_size`, summed, the error bound and the other
//! docs' count from what the shards left out), histograms with their empty buckets between the
//! first and the last, metrics from their merged count, sum, min and max.

use super::collect::{bits, next, type_name, Bucket, Key, Part, ShardAggs, Stats};
use super::request::{Agg, AggKind, Aggs, Metric};
use crate::index::date_format::format_iso_millis;
use rustc_hash::FxHashMap;
use serde_json::{json, Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The `aggregations` object of the response; `typed_keys` prefixes each name with its type.
pub fn reduce(aggs: &Aggs, shards: Vec<ShardAggs>, typed_keys: bool) -> Value {
    let mut out = entries(&aggs.0, shards, typed_keys);
    // OpenSearch keeps the aggregations by name in a Java `HashMap`.
    crate::util::java_hash::hash_order(&mut out);
    Value::Object(out.into_iter().map(|(_, entry)| entry).collect())
}

/// What each shard's nested aggregations found, by bucket id.
type Nested = [FxHashMap<String, ShardAggs>];

/// The reduced aggregations as (name, (response key, body)), in the request's order.
fn entries(
    aggs: &[Agg],
    shards: Vec<ShardAggs>,
    typed_keys: bool,
) -> Vec<(String, (String, Value))> {
    let mut out: Vec<(String, (String, Value))> = Vec::new();
    let count = shards.len();
    let mut columns: Vec<Vec<Part>> = aggs.iter().map(|_| Vec::new()).collect();
    let mut nested_columns: Vec<Vec<FxHashMap<String, ShardAggs>>> =
        aggs.iter().map(|_| Vec::new()).collect();
    for s in shards {
        for (i, part) in s.0.into_iter().enumerate() {
            if let Some(c) = columns.get_mut(i) {
                c.push(part);
            }
        }
        for (i, found) in s.1.into_iter().enumerate() {
            if let Some(c) = nested_columns.get_mut(i) {
                c.push(found);
            }
        }
    }
    for ((agg, parts), nested) in aggs.iter().zip(columns).zip(nested_columns) {
        let nested: &Nested = &nested;
        let (prefix, body) = match &agg.kind {
            AggKind::Terms {
                size,
                shard_size,
                min_doc_count,
                ..
            } => terms(
                agg,
                parts,
                (*size, *shard_size, *min_doc_count),
                count,
                typed_keys,
                nested,
            ),
            AggKind::DateHistogram {
                interval,
                min_doc_count,
                ..
            } => {
                let mut merged: BTreeMap<i64, (u64, Vec<Stats>)> = BTreeMap::new();
                for p in parts {
                    if let Part::Histogram(h) = p {
                        merge_buckets(&mut merged, h);
                    }
                }
                // With a minimum of 0, the empty buckets between the first and the last too.
                let mut keys: Vec<i64> = merged.keys().copied().collect();
                if let (0, Some(&first), Some(&last)) = (*min_doc_count, keys.first(), keys.last())
                {
                    keys.clear();
                    let mut k = first;
                    while k <= last {
                        keys.push(k);
                        let after = next(k, *interval);
                        if after <= k {
                            break;
                        }
                        k = after;
                    }
                }
                let empty = (0, Vec::new());
                let buckets: Vec<Value> = keys
                    .into_iter()
                    .map(|k| (k, merged.get(&k).unwrap_or(&empty)))
                    .filter(|(_, (n, _))| *n >= *min_doc_count)
                    .map(|(k, (n, stats))| {
                        let mut b = Map::new();
                        b.insert("key_as_string".into(), Value::from(format_iso_millis(k)));
                        b.insert("key".into(), Value::from(k));
                        b.insert("doc_count".into(), Value::from(*n));
                        bucket_metrics(&mut b, agg, stats, typed_keys, (nested, &k.to_string()));
                        Value::Object(b)
                    })
                    .collect();
                ("date_histogram", json!({ "buckets": buckets }))
            }
            AggKind::Histogram {
                interval,
                offset,
                min_doc_count,
                keyed,
                ..
            } => (
                "histogram",
                histogram(
                    agg,
                    parts,
                    (*interval, *offset, *min_doc_count, *keyed),
                    typed_keys,
                    nested,
                ),
            ),
            AggKind::Missing { .. } | AggKind::Filter { .. } | AggKind::Global => {
                let mut count = 0;
                let mut stats = Vec::new();
                let mut empty_meta = None;
                for p in parts {
                    if let Part::Single(n, s, none) = p {
                        count += n;
                        merge_stats(&mut stats, s);
                        empty_meta.get_or_insert(none);
                    }
                }
                let mut b = Map::new();
                // As the first shard's aggregation has it.
                if empty_meta == Some(true) {
                    b.insert("meta".into(), json!({}));
                }
                b.insert("doc_count".into(), Value::from(count));
                bucket_metrics(&mut b, agg, &stats, typed_keys, (nested, "0"));
                (type_name(&agg.kind), Value::Object(b))
            }
            AggKind::Filters { filters, other } => {
                let mut merged: Vec<(u64, Vec<Stats>)> = Vec::new();
                let mut empty_meta = None;
                for p in parts {
                    if let Part::Multi(list, none) = p {
                        empty_meta.get_or_insert(none);
                        if merged.is_empty() {
                            merged = list
                                .into_iter()
                                .map(|(n, stats)| {
                                    (n, stats.into_iter().map(Stats::reducing).collect())
                                })
                                .collect();
                            continue;
                        }
                        for (into, (n, stats)) in merged.iter_mut().zip(list) {
                            into.0 += n;
                            merge_stats(&mut into.1, stats);
                        }
                    }
                }
                let keys = filters
                    .iter()
                    .map(|(k, _)| k.clone())
                    .chain(other.iter().map(|o| Some(o.clone())));
                let buckets = keys.zip(merged).enumerate().map(|(i, (k, (n, stats)))| {
                    let mut b = Map::new();
                    b.insert("doc_count".into(), Value::from(n));
                    bucket_metrics(&mut b, agg, &stats, typed_keys, (nested, &i.to_string()));
                    (k, Value::Object(b))
                });
                // Named filters answer an object of buckets, anonymous ones a list.
                let body = if filters.first().is_some_and(|(k, _)| k.is_some()) {
                    Value::Object(buckets.map(|(k, b)| (k.unwrap_or_default(), b)).collect())
                } else {
                    Value::Array(buckets.map(|(_, b)| b).collect())
                };
                let mut out = Map::new();
                if empty_meta == Some(true) {
                    out.insert("meta".into(), json!({}));
                }
                out.insert("buckets".into(), body);
                ("filters", Value::Object(out))
            }
            AggKind::Cardinality { .. } => {
                let mut terms = rustc_hash::FxHashSet::default();
                let mut raws = rustc_hash::FxHashSet::default();
                for p in parts {
                    if let Part::Distinct { terms: t, raws: r } = p {
                        terms.extend(t);
                        raws.extend(r);
                    }
                }
                ("cardinality", json!({ "value": terms.len() + raws.len() }))
            }
            AggKind::Range { ranges, keyed, .. } => (
                type_name(&agg.kind),
                range(agg, ranges, parts, *keyed, typed_keys, nested),
            ),
            AggKind::Metric { metric, .. } => {
                let mut s: Option<Stats> = None;
                for p in parts {
                    if let Part::Metric(m) = p {
                        match &mut s {
                            Some(t) => t.merge(&m),
                            None => s = Some(m.reducing()),
                        }
                    }
                }
                (type_name(&agg.kind), metric_body(*metric, s))
            }
        };
        out.push((
            agg.name.clone(),
            (typed(prefix, &agg.name, typed_keys), with_meta(agg, body)),
        ));
    }
    out
}

/// The aggregation's answer with its `meta` first, where the request gave one.
fn with_meta(agg: &Agg, body: Value) -> Value {
    match (&agg.meta, body) {
        (Some(meta), Value::Object(mut m)) => {
            m.shift_insert(0, "meta".into(), meta.clone());
            Value::Object(m)
        }
        (_, body) => body,
    }
}

/// A numeric histogram merged over the shards: with a minimum of 0, the empty buckets between
/// the first and the last too, each key the next as OpenSearch's `InternalHistogram` steps
/// (`round(key + 1.5 * interval)`, in doubles); keyed by `Double.toString` of the key if asked.
fn histogram(
    agg: &super::request::Agg,
    parts: Vec<Part>,
    (interval, offset, min_doc_count, keyed): (f64, f64, u64, bool),
    typed_keys: bool,
    nested: &Nested,
) -> Value {
    let mut merged: BTreeMap<u64, (u64, Vec<Stats>)> = BTreeMap::new();
    for p in parts {
        if let Part::NumHistogram(h) = p {
            merge_buckets(&mut merged, h);
        }
    }
    let mut keys: Vec<f64> = merged.keys().map(|k| tantivy::u64_to_f64(*k)).collect();
    if let (0, Some(&first), Some(&last)) = (min_doc_count, keys.first(), keys.last()) {
        keys.clear();
        let mut k = first;
        while k <= last {
            keys.push(k);
            let after =
                super::collect::histogram_key(k + interval + interval / 2.0, interval, offset);
            if after <= k {
                break;
            }
            k = after;
        }
    }
    let empty = (0, Vec::new());
    let buckets = keys
        .into_iter()
        .map(|k| (k, merged.get(&tantivy::f64_to_u64(k)).unwrap_or(&empty)))
        .filter(|(_, (n, _))| *n >= min_doc_count)
        .map(|(k, (n, stats))| {
            let mut b = Map::new();
            b.insert("key".into(), json!(k));
            b.insert("doc_count".into(), Value::from(*n));
            let id = tantivy::f64_to_u64(k).to_string();
            bucket_metrics(&mut b, agg, stats, typed_keys, (nested, &id));
            (k, Value::Object(b))
        });
    if keyed {
        let map: Map<String, Value> = buckets
            .map(|(k, b)| (crate::query::function_score::java_double(k), b))
            .collect();
        return json!({ "buckets": map });
    }
    json!({ "buckets": buckets.map(|(_, b)| b).collect::<Vec<_>>() })
}

/// A range aggregation merged over the shards: each range's bucket in the sorted order, with
/// `key`, `from`, `to` (where bounded) and `doc_count`; keyed by key if asked. An unmapped
/// field still lists its ranges, empty.
fn range(
    agg: &super::request::Agg,
    ranges: &[super::request::RangeSpec],
    parts: Vec<Part>,
    keyed: bool,
    typed_keys: bool,
    nested: &Nested,
) -> Value {
    // The ranges as the first shard read them (they read the same, or there is nothing to
    // reduce).
    let mut resolved = None;
    let mut merged: Vec<(u64, Vec<Stats>)> = ranges.iter().map(|_| (0, Vec::new())).collect();
    for p in parts {
        if let Part::Range(list, read) = p {
            resolved.get_or_insert(read);
            for (into, (n, stats)) in merged.iter_mut().zip(list) {
                into.0 += n;
                merge_stats(&mut into.1, stats);
            }
        }
    }
    let resolved = resolved.unwrap_or_default();
    let buckets = resolved
        .iter()
        .zip(&merged)
        .enumerate()
        .map(|(i, (r, (n, stats)))| {
            let mut b = Map::new();
            if !keyed {
                b.insert("key".into(), json!(r.key));
            }
            for (name, bound) in [("from", r.from), ("to", r.to)] {
                if let Some(v) = bound {
                    b.insert(name.into(), json!(v));
                    if r.dates {
                        b.insert(
                            format!("{name}_as_string"),
                            json!(format_iso_millis(v as i64)),
                        );
                    }
                }
            }
            b.insert("doc_count".into(), Value::from(*n));
            bucket_metrics(&mut b, agg, stats, typed_keys, (nested, &i.to_string()));
            (r.key.clone(), Value::Object(b))
        });
    if keyed {
        return json!({ "buckets": buckets.collect::<Map<String, Value>>() });
    }
    json!({ "buckets": buckets.map(|(_, b)| b).collect::<Vec<_>>() })
}

fn typed(prefix: &str, name: &str, typed_keys: bool) -> String {
    if typed_keys {
        format!("{prefix}#{name}")
    } else {
        name.to_string()
    }
}

/// Adds one shard's histogram buckets to the merged ones: counts summed, metrics merged.
fn merge_buckets<K: Ord>(
    into: &mut BTreeMap<K, (u64, Vec<Stats>)>,
    from: BTreeMap<K, (u64, Vec<Stats>)>,
) {
    for (k, (n, stats)) in from {
        let e = into.entry(k).or_insert_with(|| (0, Vec::new()));
        e.0 += n;
        merge_stats(&mut e.1, stats);
    }
}

/// Adds a bucket's metrics from another part of the same bucket (a bucket a part never saw
/// has none yet).
fn merge_stats(into: &mut Vec<Stats>, from: Vec<Stats>) {
    if into.is_empty() {
        *into = from.into_iter().map(Stats::reducing).collect();
        return;
    }
    for (a, b) in into.iter_mut().zip(&from) {
        a.merge(b);
    }
}

/// A bucket's metrics after its `doc_count`, named in Java `HashMap` order as the top level.
fn bucket_metrics(
    b: &mut Map<String, Value>,
    agg: &super::request::Agg,
    stats: &[Stats],
    typed_keys: bool,
    (nested, id): (&Nested, &str),
) {
    let mut subs: Vec<(String, (String, Value))> = Vec::new();
    if !agg.nested.is_empty() {
        // What each shard's nested aggregations found in this bucket (none for a bucket the
        // shard did not have, or an empty one the reduce filled in).
        let found: Vec<ShardAggs> = nested.iter().filter_map(|m| m.get(id).cloned()).collect();
        subs.extend(entries(&agg.nested, found, typed_keys));
    }
    for (i, sub) in agg.subs.iter().enumerate() {
        let AggKind::Metric { metric, .. } = &sub.kind else {
            continue;
        };
        let s = stats.get(i).copied();
        subs.push((
            sub.name.clone(),
            (
                typed(type_name(&sub.kind), &sub.name, typed_keys),
                with_meta(sub, metric_body(*metric, s)),
            ),
        ));
    }
    crate::util::java_hash::hash_order(&mut subs);
    for (_, (name, body)) in subs {
        b.insert(name, body);
    }
}

/// OpenSearch's terms order: count descending, then key ascending.
pub(crate) fn order(a: &Bucket, b: &Bucket) -> Ordering {
    b.1.cmp(&a.1).then_with(|| match (&a.0, &b.0) {
        (Key::Str(x), Key::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Key::Long(x), Key::Long(y)) | (Key::Date(x), Key::Date(y)) => x.cmp(y),
        (Key::Unsigned(x), Key::Unsigned(y)) => x.cmp(y),
        (Key::Double(x), Key::Double(y)) => x.total_cmp(y),
        (Key::Bool(x), Key::Bool(y)) => x.cmp(y),
        _ => Ordering::Equal,
    })
}

fn terms(
    agg: &super::request::Agg,
    parts: Vec<Part>,
    (size, shard_size, min_doc_count): (usize, Option<usize>, u64),
    shards: usize,
    typed_keys: bool,
    nested: &Nested,
) -> (&'static str, Value) {
    // `BucketUtils.suggestShardSideQueueSize`: one shard returns what is asked.
    let shard_size = shard_size
        .unwrap_or(if shards == 1 {
            size
        } else {
            size + size / 2 + 10
        })
        .max(size);
    let mut prefix = "sterms";
    let mut merged: FxHashMap<super::collect::KeyBits, Bucket> = FxHashMap::default();
    let (mut other, mut error) = (0u64, 0u64);
    for p in parts {
        let Part::Terms(mut list) = p else { continue };
        list.sort_by(order);
        if let Some((k, _, _)) = list.first() {
            prefix = match k {
                Key::Str(_) => "sterms",
                Key::Double(_) => "dterms",
                _ => "lterms",
            };
        }
        // A shard that returned a full `shard_size` of buckets may have left out docs of a
        // term as frequent as its last one (`getDocCountError`); one shard's top is exact.
        if list.len() >= shard_size && shards > 1 {
            error += list[shard_size - 1].1;
        }
        if list.len() > shard_size {
            other += list[shard_size..].iter().map(|(_, n, _)| n).sum::<u64>();
            list.truncate(shard_size);
        }
        for (k, n, stats) in list {
            let e = merged.entry(bits(&k)).or_insert_with(|| (k, 0, Vec::new()));
            e.1 += n;
            merge_stats(&mut e.2, stats);
        }
    }
    let mut list: Vec<Bucket> = merged.into_values().collect();
    list.sort_by(order);
    list.retain(|(_, n, _)| *n >= min_doc_count.max(1));
    if list.len() > size {
        other += list[size..].iter().map(|(_, n, _)| n).sum::<u64>();
        list.truncate(size);
    }
    let buckets: Vec<Value> = list
        .into_iter()
        .map(|(k, n, stats)| {
            let mut b = Map::new();
            let id = super::bucket_filter::id_of_key(&k);
            match k {
                Key::Str(s) => b.insert("key".into(), Value::from(s)),
                Key::Long(v) => b.insert("key".into(), Value::from(v)),
                Key::Unsigned(v) => b.insert("key".into(), Value::from(v)),
                Key::Double(v) => b.insert("key".into(), Value::from(v)),
                Key::Bool(v) => {
                    b.insert("key".into(), Value::from(u8::from(v)));
                    b.insert("key_as_string".into(), Value::from(v.to_string()))
                }
                Key::Date(ms) => {
                    b.insert("key".into(), Value::from(ms));
                    b.insert("key_as_string".into(), Value::from(format_iso_millis(ms)))
                }
            };
            b.insert("doc_count".into(), Value::from(n));
            bucket_metrics(&mut b, agg, &stats, typed_keys, (nested, &id));
            Value::Object(b)
        })
        .collect();
    (
        prefix,
        json!({
            "doc_count_error_upper_bound": error,
            "sum_other_doc_count": other,
            "buckets": buckets,
        }),
    )
}

/// A double as Jackson writes it: a number, or the text of one JSON has no word for.
fn double(v: f64) -> Value {
    if v.is_finite() {
        Value::from(v)
    } else {
        Value::from(crate::query::function_score::java_double(v))
    }
}

const BOUNDS: [&str; 6] = [
    "upper",
    "lower",
    "upper_population",
    "lower_population",
    "upper_sampling",
    "lower_sampling",
];

/// `extended_stats`' own fields, computed as OpenSearch's `InternalExtendedStats` does
/// (population variance clamped at 0; the sampling one divides by `count - 1`, `NaN` for one
/// value); all `null` without values.
fn extended(m: &mut Map<String, Value>, s: Option<Stats>, sigma: f64) {
    let Some(s) = s else {
        for k in [
            "sum_of_squares",
            "variance",
            "variance_population",
            "variance_sampling",
            "std_deviation",
            "std_deviation_population",
            "std_deviation_sampling",
        ] {
            m.insert(k.into(), Value::Null);
        }
        let bounds: Map<String, Value> = BOUNDS
            .iter()
            .map(|k| (k.to_string(), Value::Null))
            .collect();
        m.insert("std_deviation_bounds".into(), Value::Object(bounds));
        return;
    };
    let n = s.count as f64;
    let avg = s.sum / n;
    let spread = s.sum_of_squares - (s.sum * s.sum) / n;
    let variance = (spread / n).max(0.0);
    let sampling = spread / (n - 1.0);
    let sampling = if sampling < 0.0 { 0.0 } else { sampling };
    let (std, std_sampling) = (variance.sqrt(), sampling.sqrt());
    for (k, v) in [
        ("sum_of_squares", s.sum_of_squares),
        ("variance", variance),
        ("variance_population", variance),
        ("variance_sampling", sampling),
        ("std_deviation", std),
        ("std_deviation_population", std),
        ("std_deviation_sampling", std_sampling),
    ] {
        m.insert(k.into(), double(v));
    }
    let values = [
        avg + sigma * std,
        avg - sigma * std,
        avg + sigma * std,
        avg - sigma * std,
        avg + sigma * std_sampling,
        avg - sigma * std_sampling,
    ];
    let bounds: Map<String, Value> = BOUNDS
        .iter()
        .zip(values)
        .map(|(k, v)| (k.to_string(), double(v)))
        .collect();
    m.insert("std_deviation_bounds".into(), Value::Object(bounds));
}

fn metric_body(metric: Metric, s: Option<Stats>) -> Value {
    let s = s.filter(|s| s.count > 0);
    let date = s.is_some_and(|s| s.date);
    let num = |v: f64| Value::from(v);
    let min = s.map(|s| s.min);
    let max = s.map(|s| s.max);
    let avg = s.map(|s| s.sum / s.count as f64);
    let sum = s.map_or(0.0, |s| s.sum);
    let count = s.map_or(0, |s| s.count);
    let opt = |v: Option<f64>| v.map_or(Value::Null, num);
    let as_string = |v: f64| Value::from(format_iso_millis(v as i64));
    let mut m = Map::new();
    match metric {
        Metric::Stats => {
            m.insert("count".into(), Value::from(count));
            m.insert("min".into(), opt(min));
            m.insert("max".into(), opt(max));
            m.insert("avg".into(), opt(avg));
            m.insert("sum".into(), num(sum));
            if date {
                for (k, v) in [("min", min), ("max", max), ("avg", avg), ("sum", Some(sum))] {
                    if let Some(v) = v {
                        m.insert(format!("{k}_as_string"), as_string(v));
                    }
                }
            }
        }
        Metric::ValueCount => {
            m.insert("value".into(), Value::from(count));
        }
        Metric::ExtendedStats(sigma) => {
            m.insert("count".into(), Value::from(count));
            m.insert("min".into(), opt(min));
            m.insert("max".into(), opt(max));
            m.insert("avg".into(), opt(avg));
            m.insert("sum".into(), num(sum));
            extended(&mut m, s, sigma);
        }
        Metric::Sum => {
            m.insert("value".into(), num(sum));
        }
        Metric::Min | Metric::Max | Metric::Avg => {
            let v = match metric {
                Metric::Min => min,
                Metric::Max => max,
                _ => avg,
            };
            m.insert("value".into(), opt(v));
            if let (true, Some(v)) = (date, v) {
                m.insert("value_as_string".into(), as_string(v));
            }
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aggs(s: &str) -> Aggs {
        crate::aggs::parse(&crate::dsl::json::parse(s.as_bytes()).unwrap()).unwrap()
    }

    fn stats(values: &[f64]) -> Stats {
        let mut s = Stats::new(false, false);
        for v in values {
            s.add(*v);
        }
        s
    }

    #[test]
    fn global_sums_its_shards_with_meta_first() {
        let a =
            aggs(r#"{"all":{"meta":{"k":"v"},"global":{},"aggs":{"p":{"avg":{"field":"n"}}}}}"#);
        let shard = |n: u64, values: &[f64]| {
            ShardAggs(
                vec![Part::Single(n, vec![stats(values)], false)],
                Vec::new(),
            )
        };
        let out = reduce(&a, vec![shard(3, &[1.0, 2.0]), shard(2, &[6.0])], true);
        assert_eq!(
            out.to_string(),
            r#"{"global#all":{"meta":{"k":"v"},"doc_count":5,"avg#p":{"value":3.0}}}"#
        );
        // A shard with no docs still answers its bucket, empty.
        let out = reduce(&a, vec![shard(0, &[])], false);
        assert_eq!(
            out.to_string(),
            r#"{"all":{"meta":{"k":"v"},"doc_count":0,"p":{"value":null}}}"#
        );
    }

    #[test]
    fn global_reduces_its_nested_aggregations_over_the_shards() {
        let a = aggs(r#"{"all":{"global":{},"aggs":{"c":{"cardinality":{"field":"k"}}}}}"#);
        let shard = |n: u64, terms: &[&str]| {
            let part = Part::Distinct {
                terms: terms.iter().map(|t| t.as_bytes().to_vec()).collect(),
                raws: Default::default(),
            };
            let mut found = FxHashMap::default();
            found.insert(
                super::super::bucket_filter::id_of_index(0),
                ShardAggs(vec![part], Vec::new()),
            );
            ShardAggs(vec![Part::Single(n, Vec::new(), false)], vec![found])
        };
        let out = reduce(
            &a,
            vec![shard(2, &["a", "b"]), shard(3, &["b", "c"])],
            false,
        );
        assert_eq!(
            out.to_string(),
            r#"{"all":{"doc_count":5,"c":{"value":3}}}"#
        );
    }
}
