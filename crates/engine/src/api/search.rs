//! `_search` and `_count`: targets → shards → the search module, rendered as OpenSearch does.

use super::{Params, Response};
use crate::dsl::json;
use crate::error::Result;
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
            let node = json::parse(b);
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
    let preference = ShardPreference::parse(p.str("preference"), p.str("routing"))?;
    let identity = node.identity();
    let mut out = Vec::new();
    for svc in services {
        let name = svc.meta().name.clone();
        let boost = boost_of
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(1.0, |(_, b)| *b);
        let shards = svc.shards();
        for n in preference.shards(&name, shards.len() as u32, &identity)? {
            out.push(ShardTarget {
                service: svc.clone(),
                shard: n as usize,
                searcher: shards[n as usize].searcher(),
                boost,
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
    let targets = shard_targets(node, p, &req.indices_boost, Some(&req))?;
    let result = if req.suggest_only {
        search::SearchResult {
            terminated_early: None,
            total: Some((0, "eq")),
            max_score: None,
            hits: Vec::new(),
            shards: targets.len(),
            failures: Vec::new(),
            timed_out: false,
        }
    } else {
        counted(&targets, || search::execute(&req, &targets))?
    };
    let suggest = match &req.suggest {
        Some(list) => Some(suggestions(list, &targets, p.bool("typed_keys", false)?)?),
        None => None,
    };
    let scroll_id = keep_alive.map(|k| super::scroll::open(req.clone(), targets, k));
    Ok(render_with(
        &req,
        result,
        start,
        scroll_id.as_deref(),
        suggest,
    ))
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
            let cx = crate::query::Context {
                searcher: &t.searcher,
                mapping: &meta.mapping,
                index: &meta.name,
                index_uuid: meta.settings.uuid(),
            };
            per_shard.push(
                search::suggest::shard(s, &cx)
                    .map_err(|e| search::all_shards_failed(e, &meta.name, t.shard))?,
            );
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

/// `render` with the `suggest` section after the hits.
fn render_with(
    req: &SearchRequest,
    result: search::SearchResult,
    start: Instant,
    scroll_id: Option<&str>,
    suggest: Option<Value>,
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
    out.insert(
        "_shards".into(),
        search::failures::shards_json(result.shards, &result.failures),
    );
    out.insert("hits".into(), Value::Object(hits));
    if let Some(s) = suggest {
        out.insert("suggest".into(), s);
    }
    Response::ok(&Value::Object(out))
}

/// `_count`, `_explain` and `_validate/query` read the body's first JSON value (what follows is
/// ignored, as OpenSearch's parser stops there); a malformed one is a `parsing_exception`
/// "Failed to parse" at the last token read, caused by the JSON parser's own error.
pub(crate) fn leading_body(body: Option<&[u8]>) -> Result<Option<json::Node>> {
    let Some(b) = body.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
        return Ok(None);
    };
    let mut values = serde_json::Deserializer::from_slice(b).into_iter::<serde::de::IgnoredAny>();
    let first = match values.next() {
        None => return Ok(None),
        Some(Ok(_)) => body_node(Some(&b[..values.byte_offset()])),
        Some(Err(e)) => Err(super::bulk::json_error(&e, b)),
    };
    first.map_err(|cause| {
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
    req.size = 0;
    req.from = 0;
    req.track_total_hits = TrackTotalHits::Exact;
    if let Some(m) = p.f32("min_score")? {
        req.min_score = Some(m);
    }
    let targets = shard_targets(node, p, &[], None)?;
    let result = counted(&targets, || search::execute(&req, &targets))?;
    let count = result.total.map_or(0, |t| t.0);
    Ok(Response::ok(&json!({
        "count": count,
        "_shards": search::failures::shards_json(result.shards, &result.failures),
    })))
}

#[cfg(test)]
mod tests {
    use super::super::{execute, Params};
    use crate::node::{Node, NodeConfig};
    use serde_json::{json, Value};
    use std::sync::Arc;

    fn node(dir: &tempfile::TempDir) -> Arc<Node> {
        Node::open(NodeConfig {
            data_path: dir.path().to_path_buf(),
            node_name: "n".into(),
            cluster_name: "c".into(),
            auto_create_index: "true".into(),
            host: "127.0.0.1".into(),
        })
        .unwrap()
    }

    fn call(node: &Node, action: &str, params: Value, body: Option<Value>) -> (u16, Value) {
        let Value::Object(m) = params else {
            panic!("params")
        };
        let body = body.map(|b| serde_json::to_vec(&b).unwrap());
        match execute(node, action, &Params(m), body.as_deref()) {
            Ok(r) => (r.status, serde_json::from_slice(&r.body).unwrap()),
            Err(e) => (e.status(), e.to_json()),
        }
    }

    fn create(node: &Node, index: &str, shards: u32, properties: Value) {
        let (status, body) = call(
            node,
            "indices:admin/create",
            json!({"index": index}),
            Some(json!({
                "settings": {"number_of_shards": shards},
                "mappings": {"properties": properties},
            })),
        );
        assert_eq!(status, 200, "{body}");
    }

    fn put(node: &Node, index: &str, id: &str, routing: &str, doc: Value) {
        let (status, body) = call(
            node,
            "indices:data/write/index",
            json!({"index": index, "id": id, "routing": routing, "refresh": "true"}),
            Some(doc),
        );
        assert!(status < 300, "{body}");
    }

    fn scores(body: &Value) -> Vec<(String, f64)> {
        body["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                (
                    h["_id"].as_str().unwrap().to_string(),
                    h["_score"].as_f64().unwrap(),
                )
            })
            .collect()
    }

    const TEXTS: [&str; 8] = [
        "quick brown fox",
        "quick quick dog",
        "lazy brown dog jumps",
        "the quick brown fox jumps over the lazy dog",
        "fox",
        "brown brown brown",
        "quick foxes jump",
        "a dog and a fox",
    ];

    /// The same documents in a 1-shard index and spread over a 3-shard one by routing.
    fn twin_indices(node: &Node) {
        for (name, shards) in [("one", 1), ("three", 3)] {
            create(
                node,
                name,
                shards,
                json!({"t": {"type": "text"}, "u": {"type": "text"}}),
            );
            for (i, t) in TEXTS.iter().enumerate() {
                put(
                    node,
                    name,
                    &i.to_string(),
                    &format!("r{i}"),
                    json!({"t": t, "u": TEXTS[(i + 3) % TEXTS.len()]}),
                );
            }
        }
    }

    fn search(node: &Node, params: Value, body: Value) -> (u16, Value) {
        call(node, "indices:data/read/search", params, Some(body))
    }

    #[test]
    fn dfs_scores_a_sharded_index_as_one_shard() {
        let dir = tempfile::tempdir().unwrap();
        let node = node(&dir);
        twin_indices(&node);
        // Queries whose terms do not depend on the shard (expansions and blends are made per
        // shard, before the statistics are gathered, as OpenSearch rewrites them).
        let queries = [
            json!({"match": {"t": "quick fox"}}),
            json!({"match_phrase": {"t": "brown fox"}}),
            json!({"match_phrase": {"t": {"query": "quick fox", "slop": 3}}}),
            json!({"multi_match": {"query": "lazy dog", "fields": ["t", "u^2"]}}),
            json!({"bool": {"should": [{"term": {"t": "dog"}}, {"match": {"u": "fox"}}]}}),
        ];
        let mut differs = false;
        for q in queries {
            let body = json!({"query": q, "size": 20});
            let (s1, one) = search(&node, json!({"index": "one"}), body.clone());
            let (s3, three) = search(
                &node,
                json!({"index": "three", "search_type": "dfs_query_then_fetch"}),
                body.clone(),
            );
            assert_eq!((s1, s3), (200, 200), "{one} {three}");
            let mut a = scores(&one);
            let mut b = scores(&three);
            a.sort_by(|x, y| x.0.cmp(&y.0));
            b.sort_by(|x, y| x.0.cmp(&y.0));
            assert_eq!(a, b, "{q}");
            let (_, local) = search(&node, json!({"index": "three"}), body);
            let mut c = scores(&local);
            c.sort_by(|x, y| x.0.cmp(&y.0));
            differs |= c != a;
        }
        // Without DFS the shards' own statistics give other scores.
        assert!(differs);
    }

    #[test]
    fn dfs_sums_statistics_across_indices_and_explains_them() {
        let dir = tempfile::tempdir().unwrap();
        let node = node(&dir);
        twin_indices(&node);
        let body = json!({"query": {"match": {"t": "fox"}}, "explain": true, "size": 1});
        let (status, r) = search(
            &node,
            json!({"index": "one,three", "search_type": "dfs_query_then_fetch"}),
            body,
        );
        assert_eq!(status, 200, "{r}");
        let idf = &r["hits"]["hits"][0]["_explanation"]["details"][0]["details"][1];
        // "fox" is in 4 of the 8 documents of each index: 8 of 16 over both.
        assert_eq!(idf["details"][0]["value"], json!(8.0), "{idf}");
        assert_eq!(idf["details"][1]["value"], json!(16.0), "{idf}");
    }

    #[test]
    fn shard_failures_leave_the_other_indices_answer() {
        let dir = tempfile::tempdir().unwrap();
        let node = node(&dir);
        create(&node, "kw", 1, json!({"n": {"type": "keyword"}}));
        create(&node, "num", 2, json!({"n": {"type": "long"}}));
        put(&node, "kw", "1", "a", json!({"n": "x"}));
        put(&node, "num", "1", "a", json!({"n": 1}));
        let q = json!({"query": {"term": {"n": "x"}}});
        let (status, r) = search(&node, json!({"index": "kw,num"}), q.clone());
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["_shards"]["total"], 3);
        assert_eq!(r["_shards"]["successful"], 1);
        assert_eq!(r["_shards"]["failed"], 2);
        let failures = r["_shards"]["failures"].as_array().unwrap();
        assert_eq!(failures.len(), 1, "grouped: {r}");
        assert_eq!(failures[0]["index"], "num");
        assert_eq!(failures[0]["shard"], 0);
        assert_eq!(failures[0]["reason"]["type"], "query_shard_exception");
        assert_eq!(r["hits"]["total"]["value"], 1);

        let (status, r) = search(
            &node,
            json!({"index": "kw,num", "allow_partial_search_results": "false"}),
            q.clone(),
        );
        assert_eq!(status, 400, "{r}");
        assert_eq!(r["reason"], "Partial shards failure");
        assert_eq!(r["phase"], "query");

        let (status, r) = search(&node, json!({"index": "num"}), q.clone());
        assert_eq!(status, 400, "{r}");
        assert_eq!(r["reason"], "all shards failed");
        assert_eq!(r["failed_shards"].as_array().unwrap().len(), 1);

        let (status, r) = call(
            &node,
            "indices:data/read/count",
            json!({"index": "kw,num"}),
            Some(q),
        );
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["count"], 1);
        assert_eq!(r["_shards"]["failed"], 2);
    }

    #[test]
    fn timeout_returns_what_was_collected() {
        let dir = tempfile::tempdir().unwrap();
        let node = node(&dir);
        create(&node, "big", 1, json!({"t": {"type": "text"}}));
        let mut lines = String::new();
        for i in 0..5000 {
            lines.push_str(&format!(
                "{{\"index\":{{\"_id\":\"{i}\"}}}}\n{{\"t\":\"w{} common\"}}\n",
                i % 7
            ));
        }
        let r = execute(
            &node,
            "indices:data/write/bulk",
            &Params(
                json!({"index": "big", "refresh": "true"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
            Some(lines.as_bytes()),
        )
        .unwrap();
        assert_eq!(r.status, 200);
        let q = json!({"query": {"match": {"t": "common"}}, "track_total_hits": true});
        let (status, r) = search(&node, json!({"index": "big", "timeout": "1m"}), q.clone());
        assert_eq!(status, 200);
        assert_eq!(r["timed_out"], false);
        assert_eq!(r["hits"]["total"]["value"], 5000);
        // A deadline that has passed before collection starts: nothing is collected.
        let (status, r) = search(
            &node,
            json!({"index": "big", "timeout": "1nanos"}),
            q.clone(),
        );
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["timed_out"], true);
        assert!(r["hits"]["total"]["value"].as_u64().unwrap() < 5000, "{r}");
        assert_eq!(r["_shards"]["failed"], 0);
        let (status, r) = search(
            &node,
            json!({"index": "big", "timeout": "1nanos", "allow_partial_search_results": "false"}),
            q,
        );
        assert_eq!(status, 500, "{r}");
        assert_eq!(r["type"], "search_phase_execution_exception");
        assert_eq!(
            r["failed_shards"][0]["reason"]["type"],
            "query_phase_execution_exception"
        );
        assert_eq!(r["failed_shards"][0]["reason"]["reason"], "Time exceeded");
    }
}
