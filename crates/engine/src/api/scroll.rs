//! Scrolls: `?scroll=` on `_search` opens a context holding every shard's `Searcher` (the point
//! in time the pages are read from), `POST /_search/scroll` reads the next page, `DELETE
//! /_search/scroll` frees contexts. A context lives `keep_alive` past its last use; the node's
//! scheduler frees expired contexts (and with them the segments their searchers pin) within a
//! tick, and a lookup never finds one past its keep-alive.

use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::node::Node;
use crate::search::{self, Cursor, SearchRequest, ShardTarget};
use base64::Engine as _;
use parking_lot::Mutex;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

struct Context {
    req: SearchRequest,
    targets: Vec<ShardTarget>,
    /// Per shard, the last hit returned from it.
    cursors: Vec<Option<Cursor>>,
    keep_alive: Duration,
    expires: Instant,
    /// One id per shard, as OpenSearch numbers its shard contexts.
    shard_ids: Vec<u64>,
    /// A page read ahead for a bulk-by-scroll batch, freed with the context if never taken.
    parked: Option<search::SearchResult>,
}

type Table = Mutex<HashMap<u64, Arc<Mutex<Context>>>>;

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(Default::default)
}

static NEXT: AtomicU64 = AtomicU64::new(1);

/// Frees the contexts past their keep-alive.
fn sweep(t: &mut HashMap<u64, Arc<Mutex<Context>>>) {
    let now = Instant::now();
    t.retain(|_, c| c.try_lock().is_none_or(|c| c.expires > now));
}

const PREFIX: &str = "quarry-scroll;";

fn encode(id: u64, shard_ids: &[u64]) -> String {
    let shards: Vec<String> = shard_ids.iter().map(u64::to_string).collect();
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(format!("{PREFIX}{id};{}", shards.join(",")))
}

fn decode(s: &str) -> Result<(u64, Vec<u64>)> {
    let bad = || Error::illegal_argument("Cannot parse scroll id");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(s.trim_end_matches('='))
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let rest = text.strip_prefix(PREFIX).ok_or_else(bad)?;
    let (id, shards) = rest.split_once(';').ok_or_else(bad)?;
    let id = id.parse().map_err(|_| bad())?;
    let shards = shards
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| bad()))
        .collect::<Result<Vec<u64>>>()?;
    Ok((id, shards))
}

/// Frees every context past its keep-alive (the node's scheduler calls this).
pub fn free_expired() {
    let mut t = table().lock();
    if !t.is_empty() {
        sweep(&mut t);
    }
}

/// Frees the contexts that read `index` (it is closing): their next page finds no context, as
/// OpenSearch's does once the shards it read are closed.
pub fn free_of(index: &Arc<crate::index::index_service::IndexService>) {
    table().lock().retain(|_, c| {
        let c = c.lock();
        !c.targets.iter().any(|t| Arc::ptr_eq(&t.service, index))
    });
}

/// Opens a context after a search's first page; returns its scroll id.
pub fn open(
    req: SearchRequest,
    targets: Vec<ShardTarget>,
    cursors: Vec<Option<Cursor>>,
    keep_alive: Duration,
) -> String {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let shard_ids: Vec<u64> = targets
        .iter()
        .map(|_| NEXT.fetch_add(1, Ordering::Relaxed))
        .collect();
    let scroll_id = encode(id, &shard_ids);
    let ctx = Context {
        cursors,
        req,
        targets,
        keep_alive,
        expires: Instant::now() + keep_alive,
        shard_ids,
        parked: None,
    };
    let mut t = table().lock();
    sweep(&mut t);
    t.insert(id, Arc::new(Mutex::new(ctx)));
    scroll_id
}

/// The scroll id and keep-alive of a scroll or clear request: URL first, then the body.
fn body_values(body: Option<&[u8]>) -> Result<Option<serde_json::Map<String, Value>>> {
    match super::indices::body_json(body)? {
        Some(Value::Object(m)) => Ok(Some(m)),
        _ => Ok(None),
    }
}

fn missing_context(shard_ids: &[u64]) -> Error {
    let causes: Vec<Error> = shard_ids
        .iter()
        .map(|id| {
            Error::new(
                ErrorKind::SearchContextMissing,
                format!("No search context found for id [{id}]"),
            )
        })
        .collect();
    let mut e = Error::new(ErrorKind::SearchPhaseExecution, "all shards failed")
        .with(
            "root_cause",
            Value::Array(causes.iter().map(|c| c.to_json()).collect()),
        )
        .with("phase", "query")
        .with("grouped", true)
        .with(
            "failed_shards",
            Value::Array(
                causes
                    .iter()
                    .map(|c| json!({"shard": -1, "index": null, "reason": c.to_json()}))
                    .collect(),
            ),
        )
        .with_status(404);
    if let Some(last) = causes.last() {
        e = e.caused_by(last.clone());
    }
    e
}

pub fn scroll(_node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let b = body_values(body)?;
    let from_body = |k: &str| {
        b.as_ref()
            .and_then(|m| m.get(k))
            .and_then(|v| v.as_str().map(String::from))
    };
    let scroll_id = p
        .str("scroll_id")
        .map(String::from)
        .or_else(|| from_body("scroll_id"));
    let keep = p
        .str("scroll")
        .map(String::from)
        .or_else(|| from_body("scroll"));
    let Some(scroll_id) = scroll_id.filter(|s| !s.is_empty()) else {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: scrollId is missing;",
        ));
    };
    let keep_alive = match &keep {
        Some(v) => {
            Some(crate::util::units::parse_time_value(v, "scroll")?.unwrap_or(Duration::ZERO))
        }
        None => None,
    };
    let (req, result, canonical) = next_page(&scroll_id, keep_alive, |req| {
        req.rest_total_hits_as_int =
            p.bool("rest_total_hits_as_int", req.rest_total_hits_as_int)?;
        Ok(())
    })?;
    let id_out = keep_alive.map(|_| canonical);
    Ok(super::search::render(
        &req,
        result,
        start,
        id_out.as_deref(),
    ))
}

/// The context of `scroll_id`, or the error of a scroll whose context is gone.
fn context(scroll_id: &str) -> Result<Arc<Mutex<Context>>> {
    let (id, shard_ids) = decode(scroll_id)?;
    let mut t = table().lock();
    sweep(&mut t);
    t.get(&id)
        .cloned()
        .ok_or_else(|| missing_context(&shard_ids))
}

/// Reads the next page of `scroll_id` (its keep-alive renewed, and changed to `keep_alive`
/// when given) with the context's request as `adjust` leaves it; answers that request (what the
/// hits are rendered by) and the scroll id as this node writes it.
pub(super) fn next_page(
    scroll_id: &str,
    keep_alive: Option<Duration>,
    adjust: impl FnOnce(&mut SearchRequest) -> Result<()>,
) -> Result<(SearchRequest, search::SearchResult, String)> {
    let ctx = context(scroll_id)?;
    let mut c = ctx.lock();
    if let Some(k) = keep_alive {
        c.keep_alive = k;
    }
    let mut req = c.req.clone();
    adjust(&mut req)?;
    let c = &mut *c;
    let result = search::execute_scroll(&req, &c.targets, &mut c.cursors)?;
    c.expires = Instant::now() + c.keep_alive;
    let (id, _) = decode(scroll_id)?;
    Ok((req, result, encode(id, &c.shard_ids)))
}

/// Keeps `page` in the context of `scroll_id` until [`take_parked`] takes it.
pub(super) fn park(scroll_id: &str, page: search::SearchResult) -> Result<()> {
    context(scroll_id)?.lock().parked = Some(page);
    Ok(())
}

/// The page parked in the context of `scroll_id`, if any.
pub(super) fn take_parked(scroll_id: &str) -> Result<Option<search::SearchResult>> {
    let ctx = context(scroll_id)?;
    let mut c = ctx.lock();
    c.expires = Instant::now() + c.keep_alive;
    Ok(c.parked.take())
}

pub fn clear(_node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let mut ids: Vec<String> = p.list("scroll_id").unwrap_or_default();
    if let Some(m) = body_values(body)? {
        match m.get("scroll_id") {
            Some(Value::String(s)) => ids.push(s.clone()),
            Some(Value::Array(a)) => {
                ids.extend(a.iter().filter_map(|v| v.as_str().map(String::from)))
            }
            _ => {}
        }
    }
    if ids.is_empty() {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: no scroll ids specified;",
        ));
    }
    let mut t = table().lock();
    sweep(&mut t);
    if ids.iter().any(|s| s == "_all") {
        // One acknowledgement per node, as OpenSearch counts a clear-all.
        t.clear();
        return Ok(Response::ok(&json!({"succeeded": true, "num_freed": 1})));
    }
    let decoded = ids.iter().map(|s| decode(s)).collect::<Result<Vec<_>>>()?;
    let mut freed = 0usize;
    for (id, _) in decoded {
        if let Some(c) = t.remove(&id) {
            freed += c.lock().shard_ids.len();
        }
    }
    let status = if freed == 0 { 404 } else { 200 };
    Ok(Response::json(
        status,
        &json!({"succeeded": true, "num_freed": freed}),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        let s = encode(7, &[8, 9]);
        assert_eq!(decode(&s).unwrap(), (7, vec![8, 9]));
        assert_eq!(
            decode("garbage").unwrap_err().reason,
            "Cannot parse scroll id"
        );
        let e = missing_context(&[3, 4]);
        assert_eq!(e.status(), 404);
    }

    #[test]
    fn expired_contexts_are_freed_without_being_touched() {
        let req = SearchRequest::parse(&Params::default(), None, false).unwrap();
        let long = decode(&open(req.clone(), vec![], vec![], Duration::from_secs(60)))
            .unwrap()
            .0;
        let short = decode(&open(req, vec![], vec![], Duration::ZERO))
            .unwrap()
            .0;
        assert!(table().lock().contains_key(&short));
        std::thread::sleep(Duration::from_millis(2));
        free_expired();
        let t = table().lock();
        assert!(!t.contains_key(&short));
        assert!(t.contains_key(&long));
    }
}
