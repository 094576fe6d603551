//! `GET /<target>/_segments`: each shard's searchable segments from tantivy's segment metas.
//! Quarry commits at every refresh, so every segment a search sees is also committed (OpenSearch
//! shows refreshed-but-unflushed segments as `committed: false`).

use super::{Params, Response};
use crate::error::Result;
use crate::index::shard::SegmentInfo;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{json, Map, Value};

/// The version column: the tantivy release that wrote the index (OpenSearch prints Lucene's).
pub fn engine_version() -> String {
    // "tantivy v0.26.2, index_format v7" → "0.26.2"
    let s = tantivy::version_string();
    s.trim_start_matches("tantivy v")
        .split(',')
        .next()
        .unwrap_or(s)
        .to_string()
}

fn segment_json(s: &SegmentInfo, version: &str) -> Value {
    json!({
        "generation": s.generation,
        "num_docs": s.num_docs,
        "deleted_docs": s.deleted_docs,
        "size_in_bytes": s.size_in_bytes,
        "memory_in_bytes": 0,
        "committed": s.committed,
        "search": true,
        "version": version,
        "compound": false,
        "attributes": {},
    })
}

pub fn segments(node: &Node, p: &Params) -> Result<Response> {
    p.bool("verbose", false)?;
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let services = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&services, crate::metadata::blocks::Level::MetadataRead)?;
    let version = engine_version();
    let (mut total, mut primaries) = (0u32, 0u32);
    let mut indices = Map::new();
    for svc in &services {
        let m = svc.meta();
        primaries += m.settings.number_of_shards;
        total += m.settings.number_of_shards * (1 + m.settings.number_of_replicas);
        let mut shards = Map::new();
        for shard in svc.shards() {
            let segs = shard.segments()?;
            let committed = segs.iter().filter(|s| s.committed).count();
            let by_name: Map<String, Value> = segs
                .iter()
                .map(|s| (s.name.clone(), segment_json(s, &version)))
                .collect();
            shards.insert(
                shard.number.to_string(),
                json!([{
                    "routing": {"state": "STARTED", "primary": true, "node": &*node.node_id},
                    "num_committed_segments": committed,
                    "num_search_segments": segs.len(),
                    "segments": by_name,
                }]),
            );
        }
        indices.insert(m.name.clone(), json!({"shards": shards}));
    }
    Ok(Response::ok(&json!({
        "_shards": {"total": total, "successful": primaries, "failed": 0},
        "indices": indices,
    })))
}
