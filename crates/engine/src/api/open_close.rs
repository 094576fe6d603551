//! `POST /<target>/_close` and `POST /<target>/_open`: an index's state changes (its shards
//! released or opened again), answered as OpenSearch's close and open responses.

use super::{Params, Response};
use crate::error::Result;
use crate::metadata::blocks::Level;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{json, Map, Value};

/// The target expression both APIs require (`index is missing` when the path has none).
fn target(p: &Params) -> Result<&str> {
    p.str("index")
        .ok_or_else(|| super::document::validation(&["index is missing".into()]))
}

/// `POST /<target>/_close`: wildcards reach open indices (`CloseIndexRequest`'s defaults); an
/// index already closed is acknowledged but not listed, and when none was closed,
/// `shards_acknowledged` is false, as OpenSearch answers.
pub fn close(node: &Node, p: &Params) -> Result<Response> {
    let expr = target(p)?;
    node.cluster_settings.check_destructive(expr)?;
    node.cluster_settings.check_close_enabled()?;
    let opts = p.indices_options(IndicesOptions::lenient_expand_open().allowing_closed())?;
    let svcs = node.resolve(expr, opts)?;
    super::indices::check_blocks(&svcs, Level::MetadataWrite)?;
    let mut closed: Vec<(String, ())> = Vec::new();
    for svc in &svcs {
        let name = svc.name();
        if node.close_index(&name)? {
            closed.push((name, ()));
        }
    }
    // OpenSearch keys them by index in a hash map: any order is its order.
    crate::util::java_hash::hash_order(&mut closed);
    let indices: Map<String, Value> = closed
        .into_iter()
        .map(|(name, _)| (name, json!({"closed": true})))
        .collect();
    Ok(Response::ok(&json!({
        "acknowledged": true,
        "shards_acknowledged": !indices.is_empty(),
        "indices": indices,
    })))
}

/// `POST /<target>/_open`: wildcards reach closed indices only (`OpenIndexRequest`'s
/// defaults); opening an open index is a no-op.
pub fn open(node: &Node, p: &Params) -> Result<Response> {
    let expr = target(p)?;
    node.cluster_settings.check_destructive(expr)?;
    let defaults = IndicesOptions {
        expand_open: false,
        ..IndicesOptions::lenient_expand_open()
            .allowing_closed()
            .expanding_closed()
    };
    let opts = p.indices_options(defaults)?;
    let svcs = node.resolve(expr, opts)?;
    super::indices::check_blocks(&svcs, Level::MetadataWrite)?;
    for svc in &svcs {
        node.open_index(&svc.name())?;
    }
    Ok(Response::ok(
        &json!({"acknowledged": true, "shards_acknowledged": true}),
    ))
}
