//! `GET /_cluster/state[/<metrics>[/<indices>]]`: the parts of OpenSearch's cluster state a
//! single node holds — index blocks, index metadata (settings, mappings, aliases, state), stored
//! scripts and the routing of each shard — under the metrics asked for. The HTTP layer adds the
//! node's own facts (`nodes`, `master_node`) and puts the sections in OpenSearch's order.
//!
//! Quarry keeps no cluster-state version on disk: `version` counts the changes this process has
//! seen in what the state shows (a new `state_uuid` with each), starting at 1 when it starts.

use super::params::Params;
use super::Response;
use crate::error::Result;
use crate::index::index_service::IndexMeta;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::util::ids::random_uuid;
use crate::util::murmur3::{murmur3_x86_32, routing_num_shards};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use parking_lot::Mutex;
use serde_json::{json, Map, Value};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// The metrics `ClusterState.Metric` knows; others are ignored, as OpenSearch ignores them.
const METRICS: [&str; 8] = [
    "version",
    "master_node",
    "cluster_manager_node",
    "blocks",
    "nodes",
    "metadata",
    "routing_table",
    "routing_nodes",
];

/// The state version this process has reached, and what it was computed over.
#[derive(Default)]
pub struct StateVersion {
    inner: Mutex<(u64, u64, String)>,
}

impl StateVersion {
    /// The version and state uuid of a state whose content hashes to `fingerprint`: the same as
    /// last time if nothing changed, else the next version with a new uuid.
    fn of(&self, fingerprint: u64) -> (u64, String) {
        let mut g = self.inner.lock();
        if g.1 == 0 || g.0 != fingerprint {
            *g = (fingerprint, g.1 + 1, random_uuid());
        }
        (g.1, g.2.clone())
    }
}

fn wanted(p: &Params) -> Vec<&'static str> {
    match p.list("metric") {
        None => METRICS.to_vec(),
        Some(list) if list.iter().any(|m| m == "_all") => METRICS.to_vec(),
        Some(list) => METRICS
            .into_iter()
            .filter(|m| list.iter().any(|w| w == m))
            .collect(),
    }
}

/// A shard copy's allocation id: stable for the index and shard, in OpenSearch's uuid shape.
fn allocation_id(meta: &IndexMeta, shard: u32) -> String {
    let mut bytes = [0u8; 16];
    for (i, chunk) in bytes.chunks_mut(4).enumerate() {
        let seed = murmur3_x86_32(meta.uuid.as_bytes(), shard.wrapping_mul(4) + i as u32);
        chunk.copy_from_slice(&seed.to_le_bytes());
    }
    URL_SAFE_NO_PAD.encode(bytes)
}

fn index_metadata(meta: &IndexMeta, flat: bool) -> Value {
    let shards = meta.settings.number_of_shards;
    let mappings = match meta.mapping.render() {
        Value::Object(m) if m.is_empty() => json!({}),
        rendered => json!({ "_doc": rendered }),
    };
    let primary_terms: Map<String, Value> =
        (0..shards).map(|s| (s.to_string(), json!(1))).collect();
    let in_sync: Map<String, Value> = (0..shards)
        .map(|s| (s.to_string(), json!([allocation_id(meta, s)])))
        .collect();
    json!({
        "routing_num_shards": routing_num_shards(shards),
        "state": if meta.is_closed() { "close" } else { "open" },
        "settings": meta.settings.render(flat),
        "mappings": mappings,
        "aliases": meta.aliases.keys().collect::<Vec<_>>(),
        "primary_terms": primary_terms,
        "in_sync_allocations": in_sync,
        "rollover_info": {},
        "system": false,
    })
}

/// Each shard's copies as the routing table lists them: the primary started on this node, and
/// each replica unassigned since the index was created (one node holds no replica).
fn shard_copies(meta: &IndexMeta, node_id: &str, shard: u32) -> Vec<Value> {
    let mut copies = vec![json!({
        "state": "STARTED", "primary": true, "node": node_id, "relocating_node": null,
        "shard": shard, "index": meta.name, "allocation_id": {"id": allocation_id(meta, shard)},
    })];
    let created = crate::index::date_format::format_iso_millis(meta.settings.creation_date());
    for _ in 0..meta.settings.number_of_replicas {
        copies.push(json!({
            "state": "UNASSIGNED", "primary": false, "node": null, "relocating_node": null,
            "shard": shard, "index": meta.name, "recovery_source": {"type": "PEER"},
            "unassigned_info": {
                "reason": "INDEX_CREATED", "at": created, "delayed": false,
                "allocation_status": "no_attempt",
            },
        }));
    }
    copies
}

pub fn state(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    // OpenSearch's `lenientExpandOpen`: a missing index is skipped, not an error.
    let opts = p.indices_options(
        IndicesOptions {
            ignore_unavailable: true,
            ..IndicesOptions::lenient_expand_open()
        }
        .allowing_closed(),
    )?;
    let metrics = wanted(p);
    let filtered = p.str("index").is_some_and(|i| !i.is_empty() && i != "_all");
    let all: Vec<Arc<IndexMeta>> = node.all_metas();
    let metas: Vec<Arc<IndexMeta>> = if filtered {
        node.resolve(p.str("index").unwrap_or("_all"), opts)?
            .iter()
            .map(|s| s.meta())
            .collect()
    } else {
        all.clone()
    };
    let scripts = node.stored_scripts.all();

    // The version follows everything the state shows, whatever this request filters.
    let mut h = DefaultHasher::new();
    for m in &all {
        index_metadata(m, true).to_string().hash(&mut h);
    }
    for (id, s) in &scripts {
        (id, super::scripts::script_json(s).to_string()).hash(&mut h);
    }
    node.index_graveyard.render().to_string().hash(&mut h);
    format!(
        "{:?}{:?}{:?}",
        node.index_templates.index_templates(),
        node.index_templates.component_templates(),
        node.index_templates.legacy_templates()
    )
    .hash(&mut h);
    let (version, state_uuid) = node.state_version.of(h.finish());

    let mut out = Map::new();
    out.insert("version".into(), json!(version));
    out.insert("state_uuid".into(), json!(state_uuid));
    if metrics.contains(&"blocks") {
        let mut indices = Map::new();
        // Blocks are cluster-wide: an index filter does not narrow them.
        for m in &all {
            let mut blocks: Map<String, Value> = Map::new();
            if m.is_closed() {
                // `MetadataIndexStateService.INDEX_CLOSED_BLOCK`.
                blocks.insert(
                    "4".into(),
                    json!({"description": "index closed", "retryable": false, "levels": ["read", "write"]}),
                );
            }
            blocks.extend(m.settings.blocks.all().map(|b| b.state_entry()));
            if !blocks.is_empty() {
                indices.insert(m.name.clone(), Value::Object(blocks));
            }
        }
        let blocks = if indices.is_empty() {
            json!({})
        } else {
            json!({ "indices": indices })
        };
        out.insert("blocks".into(), blocks);
    }
    if metrics.contains(&"metadata") {
        let mut md = Map::new();
        md.insert("cluster_uuid".into(), json!(node.cluster_uuid));
        // A state cut down to some indices is a new, uncommitted metadata in OpenSearch.
        md.insert("cluster_uuid_committed".into(), json!(!filtered));
        // One node, elected once: it alone is the voting configuration.
        md.insert(
            "cluster_coordination".into(),
            json!({"term": 1, "last_committed_config": [&*node.node_id],
                   "last_accepted_config": [&*node.node_id], "voting_config_exclusions": []}),
        );
        let legacy: Map<String, Value> = if filtered {
            Map::new()
        } else {
            let mut l: Vec<(String, Value)> = node
                .index_templates
                .legacy_templates()
                .iter()
                .map(|(n, t)| (n.clone(), super::legacy_templates::render(t, flat, true)))
                .collect();
            crate::util::java_hash::hash_order(&mut l);
            l.into_iter().collect()
        };
        md.insert("templates".into(), Value::Object(legacy));
        let indices: Map<String, Value> = metas
            .iter()
            .map(|m| (m.name.clone(), index_metadata(m, flat)))
            .collect();
        md.insert("indices".into(), Value::Object(indices));
        // A state cut down to some indices starts an empty graveyard, as OpenSearch's does.
        let graveyard = if filtered {
            json!({"tombstones": []})
        } else {
            node.index_graveyard.render()
        };
        md.insert("index-graveyard".into(), graveyard);
        if !filtered {
            let (index_templates, component_templates) = (
                node.index_templates.index_templates(),
                node.index_templates.component_templates(),
            );
            if !index_templates.is_empty() {
                let t: Map<String, Value> = index_templates
                    .iter()
                    .map(|(n, t)| {
                        (
                            n.clone(),
                            super::index_templates::render_index_template(t, flat),
                        )
                    })
                    .collect();
                md.insert("index_template".into(), json!({ "index_template": t }));
            }
            if !component_templates.is_empty() {
                let t: Map<String, Value> = component_templates
                    .iter()
                    .map(|(n, t)| {
                        (
                            n.clone(),
                            super::index_templates::render_component_template(t, flat),
                        )
                    })
                    .collect();
                md.insert(
                    "component_template".into(),
                    json!({ "component_template": t }),
                );
            }
        }
        if !filtered && !scripts.is_empty() {
            // OpenSearch keeps them in a Java `HashMap`, and lists them in its order.
            let mut stored: Vec<(String, Value)> = scripts
                .iter()
                .map(|(id, s)| (id.clone(), super::scripts::script_json(s)))
                .collect();
            crate::util::java_hash::hash_order(&mut stored);
            let stored: Map<String, Value> = stored.into_iter().collect();
            md.insert("stored_scripts".into(), Value::Object(stored));
        }
        out.insert("metadata".into(), Value::Object(md));
    }
    let node_id: &str = &node.node_id;
    if metrics.contains(&"routing_table") {
        let indices: Map<String, Value> = metas
            .iter()
            .map(|m| {
                let shards: Map<String, Value> = (0..m.settings.number_of_shards)
                    .map(|s| (s.to_string(), Value::Array(shard_copies(m, node_id, s))))
                    .collect();
                (m.name.clone(), json!({ "shards": shards }))
            })
            .collect();
        out.insert("routing_table".into(), json!({ "indices": indices }));
    }
    if metrics.contains(&"routing_nodes") {
        let (mut started, mut unassigned) = (Vec::new(), Vec::new());
        for m in &metas {
            for s in 0..m.settings.number_of_shards {
                for copy in shard_copies(m, node_id, s) {
                    if copy["state"] == "STARTED" {
                        started.push(copy);
                    } else {
                        unassigned.push(copy);
                    }
                }
            }
        }
        out.insert(
            "routing_nodes".into(),
            json!({"unassigned": unassigned, "nodes": { node_id: started }}),
        );
    }
    out.insert(
        "metrics".into(),
        Value::Array(metrics.iter().map(|m| json!(m)).collect()),
    );
    Ok(Response::ok(&Value::Object(out)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_moves_only_when_the_state_does() {
        let v = StateVersion::default();
        let (v1, u1) = v.of(7);
        assert_eq!(v.of(7), (v1, u1.clone()));
        let (v2, u2) = v.of(8);
        assert_eq!(v2, v1 + 1);
        assert_ne!(u1, u2);
        assert_eq!(u2.len(), 22);
    }
}
