//! OpenSearch's shard request cache, for searches without hits (`size: 0`, its default): a
//! shard's count and aggregations kept per point-in-time reader, so the same request against an
//! unchanged shard is answered without running again. The key holds the reader's segments and
//! their deletes: a refresh or a merge makes the old entries unreachable, and they go when the
//! cache, past its size (counted in entries and aggregation buckets), starts over. An answer of
//! more than 65,536 buckets is not kept. Not cached, as OpenSearch does not cache them: requests
//! with `request_cache=false`, scrolls, results a timeout cut short, and queries whose answer
//! depends on when they run (`now` in date math) or on chance (`random_score`).

use super::request::SearchRequest;
use super::ShardTarget;
use crate::aggs::ShardAggs;
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};

/// What a shard answered: its count, whether `terminate_after` cut it, its aggregations.
#[derive(Debug, Clone)]
pub(crate) struct Cached {
    pub count: u64,
    pub terminated_early: bool,
    pub aggs: Option<ShardAggs>,
}

/// What the entries may add up to (a unit per entry and per aggregation bucket) before the
/// cache starts over; a larger answer is not kept.
const MAX_UNITS: usize = 1 << 20;
const MAX_ENTRY_UNITS: usize = 1 << 16;

type Entries = Mutex<(FxHashMap<String, Arc<Cached>>, usize)>;

impl Cached {
    fn units(&self) -> usize {
        1 + self.aggs.as_ref().map_or(0, ShardAggs::buckets)
    }
}

fn entries() -> &'static Entries {
    static ENTRIES: OnceLock<Entries> = OnceLock::new();
    ENTRIES.get_or_init(Default::default)
}

/// The request's key on this shard's reader, or `None` when its answer may not be cached.
pub(crate) fn key(req: &SearchRequest, t: &ShardTarget) -> Option<String> {
    if req.scroll || req.request_cache == Some(false) {
        return None;
    }
    // Everything a shard's count and aggregations depend on (the same request through an
    // alias with a filter is another one).
    let what = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        req.query,
        t.alias_filter,
        req.post_filter,
        req.min_score,
        req.terminate_after,
        req.track_total_hits,
        req.aggs
    );
    if what.contains("now") || what.contains("RandomScore") {
        return None;
    }
    let meta = t.service.meta();
    // The reader's segments and their deletes (its generation id restarts with each reader a
    // shard opens).
    Some(format!(
        "{}|{}|{:?}|{what}",
        meta.settings.uuid(),
        t.shard,
        t.searcher.generation().segments()
    ))
}

pub(crate) fn get(key: &str) -> Option<Arc<Cached>> {
    entries().lock().0.get(key).cloned()
}

pub(crate) fn put(key: String, value: Cached) {
    let units = value.units();
    if units > MAX_ENTRY_UNITS {
        return;
    }
    let mut e = entries().lock();
    if e.1 + units > MAX_UNITS {
        e.0.clear();
        e.1 = 0;
    }
    if let Some(old) = e.0.insert(key, Arc::new(value)) {
        e.1 -= old.units();
    }
    e.1 += units;
}
