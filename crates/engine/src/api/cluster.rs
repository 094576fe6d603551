//! Cluster APIs on a single node: health (OpenSearch's green/yellow/red rules, wait_for_status)
//! and the identity the HTTP layer shows at `GET /`.

use super::{Params, Response};
use crate::error::{Error, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::json;
use std::time::{Duration, Instant};

fn rank(status: &str) -> u8 {
    match status {
        "green" => 0,
        "yellow" => 1,
        _ => 2,
    }
}

pub fn health(node: &Node, p: &Params) -> Result<Response> {
    let wait = match p.str("wait_for_status") {
        None => None,
        Some(s @ ("green" | "yellow" | "red")) => Some(s.to_string()),
        Some(other) => {
            return Err(Error::illegal_argument(format!(
                "unknown cluster health status [{other}]"
            )))
        }
    };
    let timeout = match p.str("timeout") {
        None => Duration::from_secs(30),
        Some(t) => crate::util::units::parse_time_value(t, "timeout")?.unwrap_or(Duration::ZERO),
    };
    let opts = IndicesOptions {
        ignore_unavailable: false,
        allow_no_indices: true,
        expand_open: true,
        expand_hidden: true,
    };
    let start = Instant::now();
    loop {
        let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
        let (mut primaries, mut unassigned, mut status) = (0u32, 0u32, "green");
        for s in &svcs {
            let m = s.meta();
            primaries += m.settings.number_of_shards;
            // One node holds every primary; replicas have nowhere to go.
            unassigned += m.settings.number_of_shards * m.settings.number_of_replicas;
            if m.settings.number_of_replicas > 0 {
                status = "yellow";
            }
        }
        let satisfied = wait
            .as_deref()
            .map(|w| rank(status) <= rank(w))
            .unwrap_or(true);
        let timed_out = !satisfied && start.elapsed() >= timeout;
        if satisfied || timed_out {
            let total = primaries + unassigned;
            let percent = if total == 0 {
                100.0
            } else {
                primaries as f64 * 100.0 / total as f64
            };
            let body = json!({
                "cluster_name": node.config.cluster_name,
                "status": status,
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
            return Ok(Response::json(if timed_out { 408 } else { 200 }, &body));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn node_info(node: &Node) -> Result<Response> {
    Ok(Response::ok(&json!({
        "node_id": node.node_id,
        "cluster_uuid": node.cluster_uuid,
        "node_name": node.config.node_name,
        "cluster_name": node.config.cluster_name,
    })))
}
