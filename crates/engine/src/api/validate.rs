//! `GET/POST /<target>/_validate/query`: whether a query parses and builds on every target
//! index, with `explain` the query each index runs, printed as Lucene's `Query.toString`.

use super::{Params, Response};
use crate::dsl::{self, json::J, Query as Ast};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::query::{lucene_string, Context};
use serde_json::{json, Value};

/// The query of the request (`q=`, the body's `query`, else `match_all`), or why it is invalid.
fn request_query(p: &Params, body: Option<&[u8]>) -> std::result::Result<Ast, Error> {
    let node = super::search::leading_body(body)?;
    if let Some(q) = p.str("q") {
        return crate::search::request::url_query(p, q);
    }
    let mut ast = Ast::MatchAll { boost: 1.0 };
    if let Some(node) = node {
        for (k, _, v) in node.as_obj().unwrap_or_default() {
            match k.as_str() {
                "query" if matches!(v.v, J::Obj(_)) => ast = dsl::parse_top_level_query(v)?,
                other => {
                    return Err(Error::new(
                        ErrorKind::Parsing,
                        format!("request does not support [{other}]"),
                    ))
                }
            }
        }
    }
    Ok(ast)
}

pub fn validate(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let explain = p.bool("explain", false)?;
    // A closed index is no error here: its block fails the validation below.
    let opts = p.indices_options(IndicesOptions::lenient_expand_open().allowing_closed())?;
    let (services, resolved) = node.resolve_read(p.str("index").unwrap_or("_all"), opts)?;
    let mut ast = match request_query(p, body) {
        Ok(a) => a,
        Err(e) => {
            let mut out = json!({"valid": false});
            if explain {
                out["error"] = Value::from(e.detailed_message());
            }
            return Ok(Response::ok(&out));
        }
    };
    // A block fails the validation, not the request: OpenSearch answers any failure after the
    // query's rewrite as an invalid query with the failure's message.
    let metas: Vec<_> = services.iter().map(|s| s.meta()).collect();
    if let Err(e) = crate::metadata::blocks::check_with_closed(
        metas.iter().map(|m| m.as_ref()),
        crate::metadata::blocks::Level::Read,
    ) {
        return Ok(Response::ok(&json!({
            "_shards": {"total": 0, "successful": 0, "failed": 0},
            "valid": false,
            "explanations": [{"valid": false, "error": e.reason}],
        })));
    }
    super::terms_lookup::resolve(node, &mut ast)?;
    // `rewrite` and `all_shards` print explanations too; `all_shards` one per shard, in
    // OpenSearch's shard order (number, then index).
    let all_shards = p.bool("all_shards", false)?;
    let rewrite = p.bool("rewrite", false)?;
    let with_explanations = explain || rewrite || all_shards;
    // Each index's query, held to the filter of the aliases it was named through.
    let mut queries = Vec::with_capacity(services.len());
    let mut shards: Vec<(usize, usize)> = Vec::new();
    for (si, svc) in services.iter().enumerate() {
        let meta = svc.meta();
        queries.push(
            match crate::search::alias_filter::of_aliases(&resolved.filtering_aliases(&meta))? {
                Some(f) => crate::search::alias_filter::filtered(&ast, &f),
                None => ast.clone(),
            },
        );
        if all_shards {
            // Every shard the aliases' search routing lets a search reach.
            let routed = crate::metadata::preference::ShardPreference::parse(None, None)?
                .with_routing(resolved.search_routing(&meta, None));
            let numbers = routed.shards(&meta.name, svc.shards().len() as u32, &node.identity())?;
            shards.extend(numbers.into_iter().map(|n| (n as usize, si)));
        } else {
            shards.push((0, si));
        }
    }
    if all_shards {
        shards.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| services[a.1].name().cmp(&services[b.1].name()))
        });
    }
    let mut explanations = Vec::new();
    let mut valid = true;
    for &(shard, si) in &shards {
        let svc = &services[si];
        let meta = svc.meta();
        let searcher = svc.shards()[shard].searcher();
        // `rewrite`: the query as Lucene rewrites it to run (fuzzy queries as their expansions,
        // a dis_max of tie 1 as a sum), else as parsed.
        let cx = if rewrite {
            Context::of(&searcher, &meta).labelling()
        } else {
            Context::of(&searcher, &meta).validating()
        };
        let mut entry = json!({"index": meta.name});
        if all_shards {
            entry["shard"] = json!(shard);
        }
        match lucene_string::render(&queries[si], &cx) {
            Ok((s, _)) => {
                entry["valid"] = json!(true);
                entry["explanation"] = json!(s);
            }
            Err(e) => {
                valid = false;
                entry["valid"] = json!(false);
                entry["error"] = json!(e.detailed_message());
            }
        }
        explanations.push(entry);
    }
    let n = shards.len();
    let mut out = json!({
        "_shards": {"total": n, "successful": n, "failed": 0},
        "valid": valid,
    });
    if with_explanations {
        out["explanations"] = Value::Array(explanations);
    }
    Ok(Response::ok(&out))
}
