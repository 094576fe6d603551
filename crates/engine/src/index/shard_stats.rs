//! A shard's activity counters for `_stats` and `_nodes/stats`: what OpenSearch's IndexShard
//! keeps (indexing, search, refresh, flush, merges, translog), as atomics bumped where the work
//! happens. Times are kept in nanoseconds and reported in milliseconds, as OpenSearch sums them.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

#[derive(Default)]
pub struct ShardStats {
    pub index_total: AtomicU64,
    pub index_nanos: AtomicU64,
    pub index_current: AtomicU64,
    pub index_failed: AtomicU64,
    pub delete_total: AtomicU64,
    pub delete_nanos: AtomicU64,
    pub delete_current: AtomicU64,

    pub query_total: AtomicU64,
    pub query_nanos: AtomicU64,
    pub query_current: AtomicU64,
    pub fetch_total: AtomicU64,
    pub fetch_nanos: AtomicU64,
    pub fetch_current: AtomicU64,

    pub refresh_total: AtomicU64,
    pub refresh_nanos: AtomicU64,
    pub flush_total: AtomicU64,
    pub flush_nanos: AtomicU64,

    pub merge_total: AtomicU64,
    pub merge_nanos: AtomicU64,
    pub merge_docs: AtomicU64,
    pub merge_bytes: AtomicU64,
    pub merge_current: AtomicU64,
    pub merge_current_docs: AtomicU64,
    pub merge_current_bytes: AtomicU64,

    /// Operations and bytes in the translog since the last commit (Quarry trims at each commit,
    /// so these are also the uncommitted ones).
    pub translog_ops: AtomicU64,
    pub translog_bytes: AtomicU64,
    pub translog_modified_ms: AtomicI64,
}

/// Adds the time since `start` to a nanosecond counter.
pub fn add_elapsed(counter: &AtomicU64, elapsed: Duration) {
    counter.fetch_add(elapsed.as_nanos() as u64, Relaxed);
}

fn ms(n: &AtomicU64) -> u64 {
    n.load(Relaxed) / 1_000_000
}

fn get(n: &AtomicU64) -> u64 {
    n.load(Relaxed)
}

/// Facts the counters do not hold, read from the shard when stats are asked for.
pub struct Snapshot {
    pub segment_count: u64,
    pub version_map_bytes: u64,
    pub now_ms: i64,
}

impl ShardStats {
    pub fn merge_started(&self, docs: u64, bytes: u64) {
        self.merge_current.fetch_add(1, Relaxed);
        self.merge_current_docs.fetch_add(docs, Relaxed);
        self.merge_current_bytes.fetch_add(bytes, Relaxed);
    }

    pub fn merge_ended(&self, docs: u64, bytes: u64, took: Duration, completed: bool) {
        self.merge_current.fetch_sub(1, Relaxed);
        self.merge_current_docs.fetch_sub(docs, Relaxed);
        self.merge_current_bytes.fetch_sub(bytes, Relaxed);
        if completed {
            self.merge_total.fetch_add(1, Relaxed);
            self.merge_docs.fetch_add(docs, Relaxed);
            self.merge_bytes.fetch_add(bytes, Relaxed);
            add_elapsed(&self.merge_nanos, took);
        }
    }

    pub fn indexing(&self) -> Value {
        json!({
            "index_total": get(&self.index_total),
            "index_time_in_millis": ms(&self.index_nanos),
            "index_current": get(&self.index_current),
            "index_failed": get(&self.index_failed),
            "delete_total": get(&self.delete_total),
            "delete_time_in_millis": ms(&self.delete_nanos),
            "delete_current": get(&self.delete_current),
            "noop_update_total": 0,
            "is_throttled": false,
            "throttle_time_in_millis": 0,
            "doc_status": {},
        })
    }

    pub fn search(&self) -> Value {
        json!({
            "open_contexts": 0,
            "query_total": get(&self.query_total),
            "query_time_in_millis": ms(&self.query_nanos),
            "query_current": get(&self.query_current),
            "concurrent_query_total": 0,
            "concurrent_query_time_in_millis": 0,
            "concurrent_query_current": 0,
            "concurrent_avg_slice_count": 0.0,
            "fetch_total": get(&self.fetch_total),
            "fetch_time_in_millis": ms(&self.fetch_nanos),
            "fetch_current": get(&self.fetch_current),
            "scroll_total": 0,
            "scroll_time_in_millis": 0,
            "scroll_current": 0,
            "point_in_time_total": 0,
            "point_in_time_time_in_millis": 0,
            "point_in_time_current": 0,
            "suggest_total": 0,
            "suggest_time_in_millis": 0,
            "suggest_current": 0,
            "search_idle_reactivate_count_total": 0,
        })
    }

    pub fn merges(&self) -> Value {
        json!({
            "current": get(&self.merge_current),
            "current_docs": get(&self.merge_current_docs),
            "current_size_in_bytes": get(&self.merge_current_bytes),
            "total": get(&self.merge_total),
            "total_time_in_millis": ms(&self.merge_nanos),
            "total_docs": get(&self.merge_docs),
            "total_size_in_bytes": get(&self.merge_bytes),
            "total_stopped_time_in_millis": 0,
            "total_throttled_time_in_millis": 0,
            // Lucene's auto-throttle rate; tantivy merges unthrottled.
            "total_auto_throttle_in_bytes": 0,
            "unreferenced_file_cleanups_performed": 0,
        })
    }

    /// Every commit is what OpenSearch calls a refresh (it opens the new reader), and each one
    /// is asked for from outside the engine (API, schedule, `refresh=true`): total = external.
    pub fn refresh(&self) -> Value {
        json!({
            "total": get(&self.refresh_total),
            "total_time_in_millis": ms(&self.refresh_nanos),
            "external_total": get(&self.refresh_total),
            "external_total_time_in_millis": ms(&self.refresh_nanos),
            "listeners": 0,
        })
    }

    pub fn flush(&self) -> Value {
        json!({
            "total": get(&self.flush_total),
            "periodic": 0,
            "total_time_in_millis": ms(&self.flush_nanos),
        })
    }

    /// tantivy keeps segments memory-mapped, as Lucene 9 keeps its terms and points off-heap
    /// (OpenSearch reports 0 for them too); the version map is Quarry's live map of writes not
    /// yet refreshed.
    pub fn segments(&self, s: &Snapshot) -> Value {
        json!({
            "count": s.segment_count,
            "memory_in_bytes": 0,
            "terms_memory_in_bytes": 0,
            "stored_fields_memory_in_bytes": 0,
            "term_vectors_memory_in_bytes": 0,
            "norms_memory_in_bytes": 0,
            "points_memory_in_bytes": 0,
            "doc_values_memory_in_bytes": 0,
            "index_writer_memory_in_bytes": 0,
            "version_map_memory_in_bytes": s.version_map_bytes,
            "fixed_bit_set_memory_in_bytes": 0,
            "max_unsafe_auto_id_timestamp": -1,
            "file_sizes": {},
        })
    }

    pub fn translog(&self, s: &Snapshot) -> Value {
        let ops = get(&self.translog_ops);
        let bytes = get(&self.translog_bytes);
        let modified = self.translog_modified_ms.load(Relaxed);
        json!({
            "operations": ops,
            "size_in_bytes": bytes,
            "uncommitted_operations": ops,
            "uncommitted_size_in_bytes": bytes,
            "earliest_last_modified_age": (s.now_ms - modified).max(0),
        })
    }
}

/// Counts one search over `shards`: each shard's query phase (its time is the request's, split
/// evenly: Quarry searches and fetches in one pass) and a fetch phase where OpenSearch runs one:
/// always on a lone shard (query-and-fetch), else on the shards of the indices hits came from
/// (`fetched_from`: whether the result has a hit from the index named).
pub fn record_search<T>(
    shards: &[(&std::sync::Arc<crate::index::shard::Shard>, &str)],
    run: impl FnOnce() -> crate::error::Result<T>,
    fetched_from: impl Fn(&T, &str) -> bool,
) -> crate::error::Result<T> {
    for (s, _) in shards {
        s.stats.query_current.fetch_add(1, Relaxed);
    }
    let started = std::time::Instant::now();
    let result = run();
    let each = started.elapsed() / shards.len().max(1) as u32;
    for (s, _) in shards {
        s.stats.query_current.fetch_sub(1, Relaxed);
        s.stats.query_total.fetch_add(1, Relaxed);
        add_elapsed(&s.stats.query_nanos, each);
    }
    if let Ok(r) = &result {
        for (s, index) in shards {
            if shards.len() == 1 || fetched_from(r, index) {
                s.stats.fetch_total.fetch_add(1, Relaxed);
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_move_from_current_to_total() {
        let s = ShardStats::default();
        s.merge_started(10, 1000);
        assert_eq!(s.merges()["current"], 1);
        assert_eq!(s.merges()["current_docs"], 10);
        s.merge_ended(10, 1000, Duration::from_millis(5), true);
        let m = s.merges();
        assert_eq!(m["current"], 0);
        assert_eq!(m["total"], 1);
        assert_eq!(m["total_docs"], 10);
        assert_eq!(m["total_size_in_bytes"], 1000);
        assert_eq!(m["total_time_in_millis"], 5);
        s.merge_started(3, 30);
        s.merge_ended(3, 30, Duration::from_millis(5), false);
        assert_eq!(s.merges()["total"], 1);
    }
}
