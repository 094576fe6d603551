//! The statistics columns `_cat/indices`, `_cat/shards` and `_cat/nodes` share
//! (`search.query_total`, `merges.total_size`, ...), read from the `_stats` sections of an index,
//! a shard or the node: a column names its section and field, sizes add `_in_bytes` and times
//! `_in_millis`, as OpenSearch's own stats name them.

use super::table::{Cell, Units};
use serde_json::Value;

/// What a column's field holds.
enum Kind {
    Count,
    Bytes,
    Millis,
}

/// The stats path of a column and what it holds; `None` for a column that is not a statistic.
fn field(name: &str) -> Option<(String, Kind)> {
    let renamed = match name {
        "store.size" | "store" => Some(("store.size_in_bytes", Kind::Bytes)),
        "docs" => Some(("docs.count", Kind::Count)),
        "refresh.time" => Some(("refresh.total_time_in_millis", Kind::Millis)),
        "refresh.external_time" => Some(("refresh.external_total_time_in_millis", Kind::Millis)),
        "segments.fixed_bitset_memory" => {
            Some(("segments.fixed_bit_set_memory_in_bytes", Kind::Bytes))
        }
        "suggest.current" => Some(("search.suggest_current", Kind::Count)),
        "suggest.total" => Some(("search.suggest_total", Kind::Count)),
        "suggest.time" => Some(("search.suggest_time_in_millis", Kind::Millis)),
        _ => None,
    };
    if let Some((path, kind)) = renamed {
        return Some((path.to_string(), kind));
    }
    let (section, key) = name.split_once('.')?;
    const SECTIONS: &[&str] = &[
        "docs",
        "completion",
        "fielddata",
        "query_cache",
        "request_cache",
        "flush",
        "get",
        "indexing",
        "merges",
        "refresh",
        "search",
        "segments",
        "warmer",
        "script",
    ];
    if !SECTIONS.contains(&section) {
        return None;
    }
    if key == "time" || key.ends_with("_time") {
        Some((format!("{name}_in_millis"), Kind::Millis))
    } else if key == "memory" || key.ends_with("_memory") || key == "size" || key.ends_with("_size")
    {
        Some((format!("{name}_in_bytes"), Kind::Bytes))
    } else {
        Some((name.to_string(), Kind::Count))
    }
}

fn at<'a>(stats: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(stats, |v, k| v.get(k))
}

/// The cell of statistics column `name` from `stats` (a `_stats` object: `docs`, `search`, ...);
/// `None` when `name` is not a statistics column. A statistic `stats` lacks is an empty cell.
pub fn stat_cell(stats: &Value, name: &str, units: &Units) -> Option<Cell> {
    if name == "memory.total" {
        // What OpenSearch sums as an index's memory: segments, caches and completion.
        let total = [
            "segments.memory_in_bytes",
            "fielddata.memory_size_in_bytes",
            "query_cache.memory_size_in_bytes",
            "completion.size_in_bytes",
        ]
        .iter()
        .filter_map(|p| at(stats, p).and_then(Value::as_u64))
        .sum();
        return Some(Some(units.bytes(total)));
    }
    let (path, kind) = field(name)?;
    let v = at(stats, &path);
    Some(v.and_then(|v| match kind {
        Kind::Bytes => v.as_u64().map(|n| units.bytes(n)),
        Kind::Millis => v.as_u64().map(|n| units.millis(n)),
        Kind::Count => match v {
            Value::Number(_) | Value::Bool(_) => Some(v.to_string()),
            Value::String(s) => Some(s.clone()),
            _ => None,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Params;
    use serde_json::json;

    #[test]
    fn columns_find_their_stats_fields() {
        let stats = json!({
            "docs": {"count": 3},
            "store": {"size_in_bytes": 11_972},
            "search": {"query_total": 12, "query_time_in_millis": 88, "suggest_total": 1,
                       "concurrent_avg_slice_count": 0.0},
            "refresh": {"total_time_in_millis": 119, "external_total_time_in_millis": 121},
            "merges": {"total_size_in_bytes": 0},
            "segments": {"memory_in_bytes": 0, "fixed_bit_set_memory_in_bytes": 5},
        });
        let u = Units::of(&Params::default());
        let cell = |n: &str| stat_cell(&stats, n, &u);
        assert_eq!(cell("docs.count"), Some(Some("3".into())));
        assert_eq!(cell("store.size"), Some(Some("11.6kb".into())));
        assert_eq!(cell("search.query_total"), Some(Some("12".into())));
        assert_eq!(cell("search.query_time"), Some(Some("88ms".into())));
        assert_eq!(cell("refresh.time"), Some(Some("119ms".into())));
        assert_eq!(cell("refresh.external_time"), Some(Some("121ms".into())));
        assert_eq!(cell("suggest.total"), Some(Some("1".into())));
        assert_eq!(cell("merges.total_size"), Some(Some("0b".into())));
        assert_eq!(
            cell("segments.fixed_bitset_memory"),
            Some(Some("5b".into()))
        );
        assert_eq!(
            cell("search.concurrent_avg_slice_count"),
            Some(Some("0.0".into()))
        );
        assert_eq!(cell("memory.total"), Some(Some("0b".into())));
        // A statistic the stats lack is an empty cell; other columns are not statistics.
        assert_eq!(cell("warmer.total"), Some(None));
        assert_eq!(cell("health"), None);
    }
}
