//! `_search` and `_count`: targets → shards → the search module, rendered as OpenSearch does.

use super::{Params, Response};
use crate::dsl::json;
use crate::error::Result;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::search::{self, SearchRequest, ShardTarget, TrackTotalHits};
use serde_json::{json, Map, Value};
use std::time::Instant;

pub(crate) fn body_node(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    match super::indices::body_json(body)? {
        None => Ok(None),
        Some(_) => Ok(json::parse(body.unwrap_or_default())),
    }
}

pub(crate) fn shard_targets(
    node: &Node,
    p: &Params,
    boosts: &[(String, f32)],
) -> Result<Vec<ShardTarget>> {
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let services = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    // `indices_boost`: each expression resolved (a missing concrete name is an error), the
    // first one naming an index wins.
    let mut boost_of: Vec<(String, f32)> = Vec::new();
    for (expr, boost) in boosts {
        for svc in node.resolve(expr, IndicesOptions::lenient_expand_open())? {
            let name = svc.meta().name.clone();
            if !boost_of.iter().any(|(n, _)| *n == name) {
                boost_of.push((name, *boost));
            }
        }
        if !expr.contains('*')
            && node
                .resolve(expr, IndicesOptions::lenient_expand_open())?
                .is_empty()
        {
            return Err(crate::error::Error::index_not_found(expr));
        }
    }
    let mut out = Vec::new();
    for svc in services {
        let name = svc.meta().name.clone();
        let boost = boost_of
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(1.0, |(_, b)| *b);
        for (n, shard) in svc.shards().iter().enumerate() {
            out.push(ShardTarget {
                service: svc.clone(),
                shard: n,
                searcher: shard.searcher(),
                boost,
            });
        }
    }
    Ok(out)
}

/// Runs a search, counting it in its shards' search statistics (`_stats`).
fn counted(
    targets: &[ShardTarget],
    run: impl FnOnce() -> Result<search::SearchResult>,
) -> Result<search::SearchResult> {
    let names: Vec<String> = targets.iter().map(|t| t.service.name()).collect();
    let shards: Vec<_> = targets
        .iter()
        .zip(&names)
        .map(|(t, n)| (&t.service.shards()[t.shard], n.as_str()))
        .collect();
    crate::index::shard_stats::record_search(&shards, run, |r| {
        r.hits
            .iter()
            .filter_map(|h| h["_index"].as_str().map(String::from))
            .collect()
    })
}

fn shards_json(n: usize) -> Value {
    json!({"total": n, "successful": n, "skipped": 0, "failed": 0})
}

pub fn search(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let body = body_node(body)?;
    let mut req = SearchRequest::parse(p, body.as_ref(), false)?;
    let keep_alive = match p.str("scroll") {
        Some(v) => Some(
            crate::util::units::parse_time_value(v, "scroll")?.unwrap_or(std::time::Duration::ZERO),
        ),
        None => None,
    };
    req.scroll = keep_alive.is_some();
    let targets = shard_targets(node, p, &req.indices_boost)?;
    let result = counted(&targets, || search::execute(&req, &targets))?;
    let scroll_id = keep_alive.map(|k| super::scroll::open(req.clone(), targets, k));
    Ok(render(&req, result, start, scroll_id.as_deref()))
}

/// A search response as OpenSearch prints it (`_scroll_id` first when a scroll is open).
pub(crate) fn render(
    req: &SearchRequest,
    result: search::SearchResult,
    start: Instant,
    scroll_id: Option<&str>,
) -> Response {
    let mut hits = Map::new();
    if let Some((value, relation)) = result.total {
        if req.rest_total_hits_as_int {
            hits.insert("total".into(), Value::from(value));
        } else {
            hits.insert(
                "total".into(),
                json!({"value": value, "relation": relation}),
            );
        }
    }
    hits.insert(
        "max_score".into(),
        result.max_score.map_or(Value::Null, search::score_json),
    );
    hits.insert("hits".into(), Value::Array(result.hits));
    let mut out = Map::new();
    if let Some(id) = scroll_id {
        out.insert("_scroll_id".into(), json!(id));
    }
    out.insert("took".into(), json!(start.elapsed().as_millis() as u64));
    out.insert("timed_out".into(), json!(result.timed_out));
    if let Some(t) = result.terminated_early {
        out.insert("terminated_early".into(), json!(t));
    }
    out.insert("_shards".into(), shards_json(result.shards));
    out.insert("hits".into(), Value::Object(hits));
    Response::ok(&Value::Object(out))
}

/// `_count` reads the body's first JSON value (what follows is ignored, as OpenSearch's parser
/// stops there); a malformed one is a `parsing_exception` "Failed to parse" at the last token
/// read, caused by the JSON parser's own error.
fn count_body(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    let Some(b) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return Ok(None);
    };
    let mut values = serde_json::Deserializer::from_slice(b).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        Some(Ok(_)) => {
            let end = values.byte_offset();
            body_node(Some(&b[..end]))
        }
        Some(Err(e)) => {
            let cause = super::bulk::json_error(&e, b);
            let at = crate::util::json_syntax::describe(b).map_or((1, 1), |s| s.last_token);
            Err(crate::dsl::parsing(
                "Failed to parse",
                json::Pos {
                    line: at.0,
                    col: at.1,
                },
            )
            .caused_by(cause))
        }
        None => Ok(None),
    }
}

pub fn count(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let body = count_body(body)?;
    let mut req = SearchRequest::parse(p, body.as_ref(), true)?;
    req.size = 0;
    req.from = 0;
    req.track_total_hits = TrackTotalHits::Exact;
    let targets = shard_targets(node, p, &[])?;
    let result = counted(&targets, || search::execute(&req, &targets))?;
    let count = result.total.map_or(0, |t| t.0);
    Ok(Response::ok(
        &json!({"count": count, "_shards": shards_json(result.shards)}),
    ))
}
