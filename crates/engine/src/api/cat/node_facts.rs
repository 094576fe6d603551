//! `_cat` tables about the node itself: `nodes`, `allocation`, `cluster_manager`, `nodeattrs`,
//! `plugins`, `tasks` and `thread_pool`. What the process knows (heap, memory, load, disk,
//! addresses, its tasks) the TS layer sends as the request body, one object of facts keyed by
//! column name (see `Units::fact`); the engine adds what it holds: index statistics summed over
//! the node, shard counts, its thread pools.

use super::table::{render, row, Cell, Column, Units, HIDDEN, LEFT, SHOWN};
use super::{columns, stat_cell};
use crate::api::{Params, Response};
use crate::error::{Error, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{Map, Value};

/// The request body: `{"node": {...}, "attributes": {...}, "plugins": [...], "tasks": [...]}`.
struct Facts {
    node: Map<String, Value>,
    body: Value,
}

impl Facts {
    fn of(body: Option<&[u8]>) -> Result<Facts> {
        let body: Value = match body {
            Some(b) if !b.is_empty() => serde_json::from_slice(b)
                .map_err(|e| Error::internal(format!("node facts: {e}")))?,
            _ => Value::Null,
        };
        let node = body
            .get("node")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        Ok(Facts { node, body })
    }

    fn list(&self, key: &str) -> Vec<Map<String, Value>> {
        self.body
            .get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|v| v.as_object().cloned()).collect())
            .unwrap_or_default()
    }

    /// A fact of the node, or a column of the node every table shares.
    fn node_cell(&self, node: &Node, name: &str, units: &Units, full_id: bool) -> Option<Cell> {
        match name {
            "id" | "node_id" | "nodeId" => Some(Some(node_id(node, full_id))),
            "node" | "name" | "node_name" if !self.node.contains_key(name) => {
                Some(Some(node.config.node_name.clone()))
            }
            _ => self.node.get(name).map(|v| units.fact(Some(v))),
        }
    }
}

/// A node id as `_cat` tables print it: its first four characters unless `full_id`.
fn node_id(node: &Node, full: bool) -> String {
    let id = node.node_id.to_string();
    if full {
        id
    } else {
        id.chars().take(4).collect()
    }
}

/// Whether a `node_id` list names this node (by id, name, `_local`, `_all`, a pattern...).
fn selects(node: &Node, ids: Option<&str>) -> bool {
    let Some(ids) = ids else { return true };
    let id = node.node_id.to_string();
    ids.split(',').any(|n| {
        matches!(n, "_all" | "_local" | "_master" | "_cluster_manager")
            || crate::metadata::target::glob_match(n, &id)
            || crate::metadata::target::glob_match(n, &node.config.node_name)
    })
}

/// Statistics of every open index on the node, summed.
fn node_stats(node: &Node) -> Result<Value> {
    let mut total = Value::Object(Map::new());
    for svc in node.resolve("_all", IndicesOptions::lenient_expand_open())? {
        crate::api::indices::add_stats(&mut total, &crate::api::indices::index_stats(&svc));
    }
    Ok(total)
}

/// `GET /_cat/nodes`: this node, its process facts and its indices' statistics.
pub fn nodes(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let facts = Facts::of(body)?;
    let units = Units::of(p);
    let full_id = p.bool("full_id", false)?;
    let stats = node_stats(node)?;
    let r = row(columns::NODES, |name| {
        facts
            .node_cell(node, name, &units, full_id)
            .or_else(|| stat_cell(&stats, name, &units))
            .flatten()
    });
    render(p, columns::NODES, vec![r])
}

/// `GET /_cat/allocation[/<node_id>]`: the node's shards and disk.
pub fn allocation(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let facts = Facts::of(body)?;
    if !selects(node, p.str("node_id")) {
        return render(p, columns::ALLOCATION, Vec::new());
    }
    let units = Units::of(p);
    let svcs = node.resolve("_all", IndicesOptions::lenient_expand_open())?;
    let shards: usize = svcs.iter().map(|s| s.shards().len()).sum();
    let store: u64 = svcs
        .iter()
        .flat_map(|s| s.shards().iter().map(|x| x.store_size()))
        .sum();
    let r = row(columns::ALLOCATION, |name| match name {
        "shards" => Some(shards.to_string()),
        "disk.indices" => Some(units.bytes(store)),
        _ => facts.node_cell(node, name, &units, false).flatten(),
    });
    render(p, columns::ALLOCATION, vec![r])
}

/// `GET /_cat/cluster_manager` (and `/_cat/master`): this node, the only one.
pub fn cluster_manager(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let facts = Facts::of(body)?;
    let units = Units::of(p);
    let r = row(columns::CLUSTER_MANAGER, |name| {
        facts.node_cell(node, name, &units, true).flatten()
    });
    render(p, columns::CLUSTER_MANAGER, vec![r])
}

/// `GET /_cat/nodeattrs`: one row per attribute of the node.
pub fn nodeattrs(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let facts = Facts::of(body)?;
    let units = Units::of(p);
    let attributes = facts
        .body
        .get("attributes")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let rows = attributes
        .iter()
        .map(|(attr, value)| {
            row(columns::NODEATTRS, |name| match name {
                "attr" => Some(attr.clone()),
                "value" => units.fact(Some(value)),
                _ => facts.node_cell(node, name, &units, false).flatten(),
            })
        })
        .collect();
    render(p, columns::NODEATTRS, rows)
}

/// Rows the TS layer lists in full (`plugins`, `tasks`), each keyed by column name; the node's
/// own columns filled in where a row leaves them out.
fn listed(
    node: &Node,
    p: &Params,
    body: Option<&[u8]>,
    key: &str,
    columns: &[Column],
    full_id: bool,
) -> Result<Response> {
    let facts = Facts::of(body)?;
    let units = Units::of(p);
    let rows = facts
        .list(key)
        .iter()
        .map(|item| {
            row(columns, |name| match item.get(name) {
                Some(v) => units.fact(Some(v)),
                None => facts.node_cell(node, name, &units, full_id).flatten(),
            })
        })
        .collect();
    render(p, columns, rows)
}

/// `GET /_cat/plugins`.
pub fn plugins(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    listed(node, p, body, "plugins", columns::PLUGINS, true)
}

/// `GET /_cat/tasks`: the node's running tasks, as the TS task manager lists them; `detailed`
/// adds their descriptions (and OpenSearch's resource statistics, which Quarry does not keep).
pub fn tasks(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    listed(node, p, body, "tasks", &task_columns(p)?, false)
}

/// The `_cat/tasks` columns: `detailed` adds the description (and OpenSearch's resource
/// statistics, which Quarry does not keep).
pub(super) fn task_columns(p: &Params) -> Result<Vec<Column>> {
    let mut columns = columns::TASKS.to_vec();
    if p.bool("detailed", false)? {
        columns.extend([
            Column::new("description", "desc", "task action", LEFT, SHOWN),
            Column::new(
                "resource_stats",
                "",
                "resource consumption info of the task",
                LEFT,
                HIDDEN,
            ),
        ]);
    }
    Ok(columns)
}

/// `GET /_cat/thread_pool[/<thread_pools>]`: the engine's pools (`search` runs searches and
/// reads, `write` runs writes and admin work), fixed-size, queues unbounded.
pub fn thread_pool(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let facts = Facts::of(body)?;
    let units = Units::of(p);
    let wanted = p.list("thread_pool_patterns");
    let pools = [("search", node.search_pool()), ("write", node.write_pool())];
    let rows = pools
        .iter()
        .filter(|(name, _)| {
            wanted.as_ref().is_none_or(|w| {
                w.iter()
                    .any(|pat| crate::metadata::target::glob_match(pat, name))
            })
        })
        .map(|(pool_name, pool)| {
            let s = pool.status();
            row(columns::THREAD_POOL, |name| match name {
                "name" => Some(pool_name.to_string()),
                "type" => Some("fixed".to_string()),
                "active" => Some(s.active.to_string()),
                "pool_size" | "size" | "largest" => Some(s.size.to_string()),
                "queue" => Some(s.queued.to_string()),
                "queue_size" => Some("-1".to_string()),
                "rejected" => Some("0".to_string()),
                "completed" => Some(s.completed.to_string()),
                "total_wait_time" => Some("-1".to_string()),
                "core" | "max" | "keep_alive" => None,
                "node_name" => Some(node.config.node_name.clone()),
                _ => facts.node_cell(node, name, &units, true).flatten(),
            })
        })
        .collect();
    render(p, columns::THREAD_POOL, rows)
}
