//! Cluster APIs on a single node: health (OpenSearch's green/yellow/red rules, wait_for_status,
//! levels) and the identity the HTTP layer shows at `GET /`.

use super::{Params, Response};
use crate::error::{Error, Result};
use crate::index::index_service::IndexService;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Green,
    Yellow,
    Red,
}

impl Status {
    fn parse(s: &str) -> Result<Status> {
        match s {
            "green" => Ok(Status::Green),
            "yellow" => Ok(Status::Yellow),
            "red" => Ok(Status::Red),
            other => Err(Error::illegal_argument(format!(
                "No enum constant org.opensearch.cluster.health.ClusterHealthStatus.{}",
                other.to_uppercase()
            ))),
        }
    }
    fn name(self) -> &'static str {
        match self {
            Status::Green => "green",
            Status::Yellow => "yellow",
            Status::Red => "red",
        }
    }
}

/// One node holds every primary; replicas have nowhere to go, so they stay unassigned.
fn index_status(svc: &IndexService) -> Status {
    if svc.meta().settings.number_of_replicas > 0 {
        Status::Yellow
    } else {
        Status::Green
    }
}

/// The targets' indices, and whether a concrete name in the expression does not exist yet
/// (OpenSearch reports that as red, waiting for the index to appear, not as an error).
fn targets(node: &Node, expr: &str) -> Result<(Vec<Arc<IndexService>>, bool)> {
    // Closed indices keep their shards' health (OpenSearch replicates closed indices).
    let opts = IndicesOptions {
        ignore_unavailable: true,
        allow_no_indices: true,
        expand_open: true,
        expand_closed: true,
        expand_hidden: true,
        forbid_closed: false,
    };
    let svcs = node.resolve(expr, opts)?;
    let metas = node.all_metas();
    let missing = expr.split(',').map(str::trim).any(|part| {
        !part.is_empty()
            && part != "_all"
            && !part.contains('*')
            && !part.starts_with('-')
            && !metas
                .iter()
                .any(|m| m.name == part || m.aliases.contains_key(part))
    });
    Ok((svcs, missing))
}

fn index_health(svc: &IndexService, shards: bool) -> Value {
    let meta = svc.meta();
    let (n, r) = (
        meta.settings.number_of_shards,
        meta.settings.number_of_replicas,
    );
    let status = index_status(svc).name();
    let mut m = Map::new();
    m.insert("status".into(), status.into());
    m.insert("number_of_shards".into(), n.into());
    m.insert("number_of_replicas".into(), r.into());
    m.insert("active_primary_shards".into(), n.into());
    m.insert("active_shards".into(), n.into());
    m.insert("relocating_shards".into(), 0.into());
    m.insert("initializing_shards".into(), 0.into());
    m.insert("unassigned_shards".into(), (n * r).into());
    if shards {
        let per: Map<String, Value> = (0..n)
            .map(|s| {
                let v = json!({"status": status, "primary_active": true, "active_shards": 1,
                    "relocating_shards": 0, "initializing_shards": 0, "unassigned_shards": r});
                (s.to_string(), v)
            })
            .collect();
        m.insert("shards".into(), Value::Object(per));
    }
    Value::Object(m)
}

pub fn health(node: &Node, p: &Params) -> Result<Response> {
    let wait = p.str("wait_for_status").map(Status::parse).transpose()?;
    // OpenSearch reads an unknown level as `cluster`.
    let level = p.str("level").unwrap_or("cluster");
    let timeout = match p.str("timeout") {
        None => Duration::from_secs(30),
        Some(t) => crate::util::units::parse_time_value(t, "timeout")?.unwrap_or(Duration::ZERO),
    };
    let expr = p.str("index").unwrap_or("_all");
    let start = Instant::now();
    loop {
        let (svcs, missing) = targets(node, expr)?;
        let mut status = if missing { Status::Red } else { Status::Green };
        let (mut primaries, mut unassigned) = (0u32, 0u32);
        for s in &svcs {
            let m = s.meta();
            primaries += m.settings.number_of_shards;
            unassigned += m.settings.number_of_shards * m.settings.number_of_replicas;
            status = status.max(index_status(s));
        }
        // A missing index is waited for, like an unmet status.
        let satisfied = !missing && wait.is_none_or(|w| status <= w);
        let timed_out = !satisfied && start.elapsed() >= timeout;
        if satisfied || timed_out {
            // As OpenSearch computes it: 100 when the targets are green, otherwise over every
            // shard of the cluster, whatever the targets.
            let (mut active, mut total) = (0u32, 0u32);
            for m in node.all_metas() {
                active += m.settings.number_of_shards;
                total += m.settings.number_of_shards * (1 + m.settings.number_of_replicas);
            }
            let percent = if status == Status::Green || total == 0 {
                100.0
            } else {
                (active as f64 / total as f64) * 100.0
            };
            let mut body = json!({
                "cluster_name": node.config.cluster_name,
                "status": status.name(),
                "timed_out": timed_out,
                "number_of_nodes": 1,
                "number_of_data_nodes": 1,
                "discovered_master": true,
                "discovered_cluster_manager": true,
                "active_primary_shards": primaries,
                "active_shards": primaries,
                "relocating_shards": 0,
                "initializing_shards": 0,
                "unassigned_shards": unassigned,
                "delayed_unassigned_shards": 0,
                "number_of_pending_tasks": 0,
                "number_of_in_flight_fetch": 0,
                "task_max_waiting_in_queue_millis": 0,
                "active_shards_percent_as_number": percent,
            });
            if level == "indices" || level == "shards" {
                let indices: Map<String, Value> = svcs
                    .iter()
                    .map(|s| (s.name(), index_health(s, level == "shards")))
                    .collect();
                body["indices"] = Value::Object(indices);
            }
            return Ok(Response::json(if timed_out { 408 } else { 200 }, &body));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn node_info(node: &Node) -> Result<Response> {
    Ok(Response::ok(&json!({
        "node_id": &*node.node_id,
        "cluster_uuid": node.cluster_uuid,
        "node_name": node.config.node_name,
        "cluster_name": node.config.cluster_name,
    })))
}

/// `GET /_cluster/settings` (`flat_settings`, `include_defaults`: the defaults of the settings
/// Quarry acts on).
pub fn get_settings(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    let defaults = p.bool("include_defaults", false)?;
    Ok(Response::ok(&node.cluster_settings.get(flat, defaults)))
}

/// `PUT /_cluster/settings`: `persistent` and `transient` values, `null` resetting one.
pub fn put_settings(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    let raw = body.unwrap_or_default();
    if raw.iter().all(|c| c.is_ascii_whitespace()) {
        return Err(Error::new(
            crate::error::ErrorKind::Parse,
            "request body is required",
        ));
    }
    let body: Value = serde_json::from_slice(raw).map_err(|e| super::bulk::json_error(&e, raw))?;
    Ok(Response::ok(&node.cluster_settings.update(&body, flat)?))
}
