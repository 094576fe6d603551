//! `_search` and `_count`: targets → shards → the search module, rendered as OpenSearch does.

use super::json_writer::ObjectWriter;
use super::{Params, Response};
use crate::dsl::json;
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::preference::ShardPreference;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::search::{self, SearchRequest, ShardTarget, TrackTotalHits};
use serde_json::{json, Map, Value};
use std::time::Instant;

/// A search body: malformed JSON is Jackson's own error, as OpenSearch's streaming parser
/// meets it.
pub(crate) fn body_node(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    let Some(b) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return Ok(None);
    };
    match serde_json::from_slice::<serde::de::IgnoredAny>(b) {
        Ok(_) => {
            let node = json::parse_checked(b).map_err(|_| {
                Error::new(
                    ErrorKind::StreamConstraints,
                    format!(
                        "Document nesting depth ({}) exceeds the maximum allowed ({}, from `StreamReadConstraints.getMaxNestingDepth()`)",
                        crate::dsl::MAX_NESTING + 1,
                        crate::dsl::MAX_NESTING
                    ),
                )
            })?;
            if node.is_none() {
                // serde read it as JSON: a body the tree parser cannot read must not pass for
                // an empty one.
                return Err(Error::internal("the request body could not be read"));
            }
            // serde keeps the last of repeated keys; Jackson's strict duplicate detection
            // refuses them.
            if node.as_ref().is_some_and(json::Node::has_duplicate_keys) {
                if let Some(syntax) = crate::util::json_syntax::describe(b) {
                    return Err(super::bulk::syntax_error(&syntax));
                }
            }
            Ok(node)
        }
        Err(e) => Err(super::bulk::json_error(&e, b)),
    }
}

/// The phase a search starts with, as OpenSearch names it in a failure: `can_match` when it
/// pre-filters shards (a query_then_fetch whose query could match nothing or whose primary sort
/// is a field, over more shards than `pre_filter_shard_size`, which a field sort lowers to 1).
fn first_phase(req: Option<&SearchRequest>, p: &Params, shards: usize) -> &'static str {
    let Some(req) = req else { return "query" };
    let field_sort = req
        .sort
        .first()
        .is_some_and(|s| !matches!(s.field, crate::search::sort::SortField::Score));
    let may_match_none = !matches!(req.query, crate::dsl::Query::MatchAll { .. });
    let threshold = match p.int("pre_filter_shard_size").ok().flatten() {
        Some(n) => n.max(0) as usize,
        None if field_sort => 1,
        None => 128,
    };
    let dfs = p.str("search_type") == Some("dfs_query_then_fetch");
    if !dfs && (may_match_none || field_sort) && threshold < shards {
        "can_match"
    } else {
        "query"
    }
}

/// The shards a read goes to: every target index's, narrowed by `routing` and `preference`;
/// `req` (absent for `_count`) decides the phase a refusal names.
pub(crate) fn shard_targets(
    node: &Node,
    p: &Params,
    boosts: &[(String, f32)],
    req: Option<&SearchRequest>,
) -> Result<Vec<ShardTarget>> {
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let (services, resolved) = node.resolve_read(p.str("index").unwrap_or("_all"), opts)?;
    let metas: Vec<_> = services.iter().map(|s| s.meta()).collect();
    crate::metadata::blocks::check_first(
        metas.iter().map(|m| m.as_ref()),
        crate::metadata::blocks::Level::Read,
    )?;
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
    let preference = ShardPreference::parse(p.str("preference"), p.str("routing"))?;
    let identity = node.identity();
    let mut out = Vec::new();
    for svc in services {
        let name = svc.meta().name.clone();
        let boost = boost_of
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(1.0, |(_, b)| *b);
        let meta = svc.meta();
        let alias_filter =
            crate::search::alias_filter::of_aliases(&resolved.filtering_aliases(&meta))?
                .map(std::sync::Arc::new);
        let routed = preference.with_routing(resolved.search_routing(&meta, p.str("routing")));
        let shards = svc.shards();
        for n in routed.shards(&name, shards.len() as u32, &identity)? {
            out.push(ShardTarget {
                service: svc.clone(),
                shard: n as usize,
                node_id: node.node_id.clone(),
                searcher: shards[n as usize].searcher(),
                boost,
                alias_filter: alias_filter.clone(),
            });
        }
    }
    // OpenSearch searches (and breaks score ties between) shards in `ShardId` order: shard
    // number, then index name.
    out.sort_by(|a, b| {
        a.shard
            .cmp(&b.shard)
            .then_with(|| a.service.meta().name.cmp(&b.service.meta().name))
    });
    if !out.is_empty() && preference.no_copy_allowed() {
        return Err(ShardPreference::all_shards_failed(first_phase(
            req,
            p,
            out.len(),
        )));
    }
    Ok(out)
}

/// Runs a search, counting it in its shards' search statistics (`_stats`).
fn counted(
    targets: &[ShardTarget],
    run: impl FnOnce() -> Result<search::SearchResult>,
) -> Result<search::SearchResult> {
    let metas: Vec<_> = targets.iter().map(|t| t.service.meta()).collect();
    let shards: Vec<_> = targets
        .iter()
        .zip(&metas)
        .map(|(t, m)| (&t.service.shards()[t.shard], m.name.as_str()))
        .collect();
    crate::index::shard_stats::record_search(&shards, run, |r, index| {
        r.hits.iter().any(|h| &*h.index == index)
    })
}

/// What the request leaves out, from the cluster settings: `search.default_allow_partial_results`
/// and `search.default_search_timeout`.
fn cluster_defaults(node: &Node, p: &Params, req: &mut SearchRequest) {
    let d = node.cluster_settings.search_defaults();
    if p.str("allow_partial_search_results").is_none() {
        req.allow_partial = d.allow_partial_results;
    }
    if req.timeout.is_none() {
        req.timeout = d.timeout;
    }
}

pub fn search(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let req = parse(p, body)?;
    run(node, p, req, start)
}

/// What OpenSearch's REST layer reads before a search runs: its parameters and body.
pub(crate) fn parse(p: &Params, body: Option<&[u8]>) -> Result<SearchRequest> {
    let body = body_node(body)?;
    SearchRequest::parse(p, body.as_ref(), false)
}

/// Runs a parsed search, `start` its clock.
pub(crate) fn run(node: &Node, p: &Params, req: SearchRequest, start: Instant) -> Result<Response> {
    let ran = query(node, p, req)?;
    Ok(render_with(
        &ran.req,
        ran.result,
        start,
        ran.scroll_id.as_deref(),
        ran.suggest,
    ))
}

/// A search that ran, before it is rendered.
pub(crate) struct Ran {
    pub req: SearchRequest,
    pub result: search::SearchResult,
    pub suggest: Option<Value>,
    /// The scroll opened by `?scroll=`.
    pub scroll_id: Option<String>,
}

/// Runs a parsed search (opening its scroll, if it asks for one).
pub(crate) fn query(node: &Node, p: &Params, mut req: SearchRequest) -> Result<Ran> {
    super::terms_lookup::resolve_request(node, &mut req)?;
    cluster_defaults(node, p, &mut req);
    let keep_alive = match p.str("scroll") {
        Some(v) => Some(
            crate::util::units::parse_time_value(v, "scroll")?.unwrap_or(std::time::Duration::ZERO),
        ),
        None => None,
    };
    req.scroll = keep_alive.is_some();
    if req.scroll {
        check_scroll(p, &mut req)?;
    }
    let targets = shard_targets(node, p, &req.indices_boost, Some(&req))?;
    req.can_match = first_phase(Some(&req), p, targets.len()) == "can_match";
    let mut cursors = vec![None; targets.len()];
    let result = if req.suggest_only {
        search::SearchResult {
            terminated_early: None,
            total: Some((0, "eq")),
            max_score: None,
            hits: Vec::new(),
            shards: targets.len(),
            failures: Vec::new(),
            timed_out: false,
            phase_took: search::PhaseTook::default(),
            aggs: Vec::new(),
            profiles: Vec::new(),
        }
    } else if req.scroll {
        counted(&targets, || {
            search::execute_scroll(&req, &targets, &mut cursors)
        })?
    } else {
        counted(&targets, || search::execute(&req, &targets))?
    };
    let suggest = match &req.suggest {
        Some(list) => Some(suggestions(list, &targets, p.bool("typed_keys", false)?)?),
        None => None,
    };
    // The scroll's later pages carry hits only: OpenSearch aggregates on the first.
    let scroll_id = keep_alive.map(|k| {
        let pages = SearchRequest {
            aggs: None,
            ..req.clone()
        };
        super::scroll::open(pages, targets, cursors, k)
    });
    Ok(Ran {
        req,
        result,
        suggest,
        scroll_id,
    })
}

/// What a scroll refuses, as `SearchRequest.validate()` words it; its pages count every hit.
fn check_scroll(p: &Params, req: &mut SearchRequest) -> Result<()> {
    let mut refused = Vec::new();
    if req.track_total_hits_given && req.track_total_hits != TrackTotalHits::Exact {
        refused.push("disabling [track_total_hits] is not allowed in a scroll context".to_string());
    }
    if req.from > 0 {
        refused.push("using [from] is not allowed in a scroll context".to_string());
    }
    if req.size == 0 {
        refused.push("[size] cannot be [0] in a scroll context".to_string());
    }
    if p.bool("request_cache", false)? {
        refused.push("[request_cache] cannot be used in a scroll context".to_string());
    }
    if !refused.is_empty() {
        return Err(super::document::validation(&refused));
    }
    req.track_total_hits = TrackTotalHits::Exact;
    Ok(())
}

/// Every term suggestion run on every shard and merged.
fn suggestions(
    list: &[search::suggest::TermSuggestion],
    targets: &[ShardTarget],
    typed_keys: bool,
) -> Result<Value> {
    let mut results = Vec::new();
    for s in list {
        let mut per_shard = Vec::new();
        for t in targets {
            let meta = t.service.meta();
            let cx = crate::query::Context::of(&t.searcher, &meta);
            per_shard
                .push(search::suggest::shard(s, &cx).map_err(|e| search::all_shards_failed(e, t))?);
        }
        results.push((s, search::suggest::merge(s, per_shard)));
    }
    Ok(search::suggest::render(results, typed_keys))
}

/// A search response as OpenSearch prints it (`_scroll_id` first when a scroll is open).
pub(crate) fn render(
    req: &SearchRequest,
    result: search::SearchResult,
    start: Instant,
    scroll_id: Option<&str>,
) -> Response {
    render_with(req, result, start, scroll_id, None)
}

/// `render` with the `suggest` section after the hits. Written straight into the response
/// buffer, field by field in OpenSearch's order: the hits with their stored sources as they
/// are, the sections that are values (aggregations, suggest, profile) serialized in place.
fn render_with(
    req: &SearchRequest,
    result: search::SearchResult,
    start: Instant,
    scroll_id: Option<&str>,
    suggest: Option<Value>,
) -> Response {
    let sources: usize = result
        .hits
        .iter()
        .map(|h| match &h.source {
            search::HitSource::Stored(b) => b.len(),
            _ => 0,
        })
        .sum();
    let mut out = ObjectWriter::with_capacity(256 + sources + 128 * result.hits.len());
    if let Some(id) = scroll_id {
        out.field("_scroll_id", id);
    }
    out.field("took", &(start.elapsed().as_millis() as u64));
    if req.phase_took {
        out.field("phase_took", &result.phase_took.to_json());
    }
    out.field("timed_out", &result.timed_out);
    if let Some(t) = result.terminated_early {
        out.field("terminated_early", &t);
    }
    out.raw_with("_shards", |buf| {
        search::failures::write_shards(buf, result.shards, &result.failures)
    });
    out.raw_with("hits", |buf| write_hits(buf, req, &result));
    if let Some(aggs) = &req.aggs {
        out.field(
            "aggregations",
            &crate::aggs::reduce(aggs, result.aggs, req.typed_keys),
        );
    }
    if let Some(s) = suggest {
        out.field("suggest", &s);
    }
    if req.profile {
        let shards: Vec<Value> = result
            .profiles
            .iter()
            .map(|p| p.to_json(req.human))
            .collect();
        out.field("profile", &json!({ "shards": shards }));
    }
    Response::bytes(200, out.finish())
}

/// The `hits` section: `total` (as an integer, -1 when not counted, under
/// `rest_total_hits_as_int`), `max_score` and the page.
fn write_hits(buf: &mut Vec<u8>, req: &SearchRequest, result: &search::SearchResult) {
    let mut hits = ObjectWriter::within(buf);
    match result.total {
        Some((value, _)) if req.rest_total_hits_as_int => {
            hits.field("total", &value);
        }
        Some((value, relation)) => {
            hits.raw_with("total", |buf| {
                buf.extend_from_slice(b"{\"value\":");
                serde_json::to_writer(&mut *buf, &value).expect("an integer serializes");
                buf.extend_from_slice(b",\"relation\":");
                serde_json::to_writer(&mut *buf, relation).expect("a string serializes");
                buf.push(b'}');
            });
        }
        None if req.rest_total_hits_as_int => {
            hits.field("total", &-1);
        }
        None => {}
    }
    // The top hit's score is usually the max_score.
    let mut scores = search::ScoreWriter::default();
    hits.raw_with("max_score", |buf| match result.max_score {
        Some(s) => scores.write(buf, s),
        None => buf.extend_from_slice(b"null"),
    });
    hits.raw_with("hits", |buf| {
        buf.push(b'[');
        for (i, hit) in result.hits.iter().enumerate() {
            if i > 0 {
                buf.push(b',');
            }
            hit.write_json(buf, &mut scores);
        }
        buf.push(b']');
    });
    hits.close();
}

/// A body's first JSON value (what follows it is never read), Jackson's error if it is
/// malformed.
pub(crate) fn first_value(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    let Some(b) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return Ok(None);
    };
    let mut values = serde_json::Deserializer::from_slice(b).into_iter::<serde::de::IgnoredAny>();
    match values.next() {
        None => Ok(None),
        Some(Ok(_)) => body_node(Some(&b[..values.byte_offset()])),
        Some(Err(e)) => Err(super::bulk::json_error(&e, b)),
    }
}

/// `_count`, `_explain` and `_validate/query` read the body's first JSON value (what follows is
/// ignored, as OpenSearch's parser stops there); a malformed one is a `parsing_exception`
/// "Failed to parse" at the last token read, caused by the JSON parser's own error.
pub(crate) fn leading_body(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    first_value(body).map_err(|cause| {
        let b = body.unwrap_or_default();
        let at = crate::util::json_syntax::describe(b).map_or((1, 1), |s| s.last_token);
        crate::dsl::parsing(
            "Failed to parse",
            json::Pos {
                line: at.0,
                col: at.1,
            },
        )
        .caused_by(cause)
    })
}

pub fn count(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let body = leading_body(body)?;
    let mut req = SearchRequest::parse(p, body.as_ref(), true)?;
    super::terms_lookup::resolve_request(node, &mut req)?;
    cluster_defaults(node, p, &mut req);
    req.size = 0;
    req.from = 0;
    req.track_total_hits = TrackTotalHits::Exact;
    if let Some(m) = p.f32("min_score")? {
        req.min_score = Some(m);
    }
    let targets = shard_targets(node, p, &[], None)?;
    let result = counted(&targets, || search::execute(&req, &targets))?;
    let count = result.total.map_or(0, |t| t.0);
    let mut out = Map::new();
    // With `terminate_after`, whether a shard stopped at it, as `_search` says.
    if let Some(t) = result.terminated_early {
        out.insert("terminated_early".into(), json!(t));
    }
    out.insert("count".into(), json!(count));
    out.insert(
        "_shards".into(),
        search::failures::shards_json(result.shards, &result.failures),
    );
    Ok(Response::ok(&Value::Object(out)))
}
