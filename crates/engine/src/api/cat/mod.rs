//! `_cat` APIs: aligned text tables (`v`, `h`, `s`), JSON rows (`format=json`) or the columns
//! themselves (`help`). The engine answers from what it holds (indices, shards, segments,
//! templates, its pools); facts only the process knows (heap, load, tasks) come from the TS
//! layer in the request body.

// One column per line reads as the table it is.
#[rustfmt::skip]
mod columns;
mod node_facts;
mod stat_cells;
mod table;

pub use node_facts::{allocation, cluster_manager, nodeattrs, nodes, plugins, tasks, thread_pool};

use super::{Params, Response};
use crate::error::{Error, Result};
use crate::index::date_format::format_iso_millis;
use crate::metadata::blocks::Level;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{Map, Value};
use stat_cells::stat_cell;
pub use table::format_bytes;
use table::{render, row, Cell, Units};

/// `help` on a `cat:*` action: its table's columns, before anything the table would read (so
/// it answers even where the table itself would fail, as OpenSearch's does).
pub fn help(action: &str, p: &Params) -> Option<Result<Response>> {
    let table = action.strip_prefix("cat:")?;
    let asked = p.bool("help", false).and_then(|help| {
        Ok(match (help, table) {
            (false, _) => None,
            (true, "tasks") => Some(node_facts::task_columns(p)?),
            (true, _) => static_columns(table).map(<[table::Column]>::to_vec),
        })
    });
    match asked {
        Ok(columns) => columns.map(|c| Ok(table::help(&c))),
        Err(e) => Some(Err(e)),
    }
}

/// The columns of a `_cat` table that has them whatever the request.
fn static_columns(table: &str) -> Option<&'static [table::Column]> {
    Some(match table {
        "indices" => columns::INDICES,
        "shards" => columns::SHARDS,
        "recovery" => columns::RECOVERY,
        "nodes" => columns::NODES,
        "allocation" => columns::ALLOCATION,
        "cluster_manager" => columns::CLUSTER_MANAGER,
        "plugins" => columns::PLUGINS,
        "nodeattrs" => columns::NODEATTRS,
        "pending_tasks" => columns::PENDING_TASKS,
        "thread_pool" => columns::THREAD_POOL,
        "fielddata" => columns::FIELDDATA,
        "repositories" => columns::REPOSITORIES,
        "snapshots" => columns::SNAPSHOTS,
        "segments" => columns::SEGMENTS,
        "aliases" => columns::ALIASES,
        "templates" => columns::TEMPLATES,
        "count" => columns::COUNT,
        "health" => columns::HEALTH,
        _ => return None,
    })
}

/// `GET /_cat/indices[/<target>]`: one row per index, its statistics summed over its shards
/// (all primaries: Quarry keeps no replicas, so `pri.*` equals the total).
pub fn indices(node: &Node, p: &Params) -> Result<Response> {
    // Open and closed indices by default (`IndicesOptions.strictExpand`), as asked otherwise.
    let wildcards = p.str("expand_wildcards");
    let has = |w: &str| wildcards.is_some_and(|v| v.split(',').any(|x| x == w || x == "all"));
    let opts = IndicesOptions {
        ignore_unavailable: false,
        allow_no_indices: true,
        expand_open: wildcards.is_none() || has("open") || has("hidden") && !has("closed"),
        expand_closed: wildcards.is_none() || has("closed"),
        expand_hidden: has("hidden"),
        forbid_closed: false,
    };
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&svcs, Level::MetadataRead)?;
    let units = Units::of(p);
    let health_filter = p.str("health");
    let mut rows = Vec::new();
    for s in &svcs {
        let m = s.meta();
        let health = if m.settings.number_of_replicas > 0 {
            "yellow"
        } else {
            "green"
        };
        if health_filter.is_some_and(|h| h != health) {
            continue;
        }
        // A closed index has no shard statistics: OpenSearch leaves those cells empty.
        let stats = (!m.is_closed()).then(|| super::indices::index_stats(s));
        let created = m.settings.creation_date();
        rows.push(row(columns::INDICES, |name| match name {
            "health" => Some(health.to_string()),
            "status" => Some(if m.is_closed() { "close" } else { "open" }.to_string()),
            "index" => Some(m.name.clone()),
            "uuid" => Some(m.uuid.clone()),
            "pri" => Some(m.settings.number_of_shards.to_string()),
            "rep" => Some(m.settings.number_of_replicas.to_string()),
            "creation.date" => Some(created.to_string()),
            "creation.date.string" => Some(format_iso_millis(created)),
            "search.throttled" => Some("false".to_string()),
            _ => {
                let stats = stats.as_ref()?;
                stat_cell(stats, name.strip_prefix("pri.").unwrap_or(name), &units).flatten()
            }
        }));
    }
    render(p, columns::INDICES, rows)
}

/// `GET /_cat/shards[/<target>]`: one row per shard (all primaries, all on this node). With no
/// target, every index is listed, hidden and closed ones too (OpenSearch reads its routing
/// table): a closed index's shards are started but have no statistics. A target expands to
/// open indices, and naming a closed one is refused, as its statistics request refuses it.
pub fn shards(node: &Node, p: &Params) -> Result<Response> {
    let svcs = match p.str("index") {
        Some(expr) => node.resolve(
            expr,
            p.indices_options(IndicesOptions::lenient_expand_open())?,
        )?,
        None => node.resolve(
            "_all",
            IndicesOptions {
                expand_hidden: true,
                ..IndicesOptions::lenient_expand_open()
                    .allowing_closed()
                    .expanding_closed()
            },
        )?,
    };
    super::indices::check_blocks(&svcs, Level::MetadataRead)?;
    let units = Units::of(p);
    let data_path = node.config.data_path.display().to_string();
    let mut rows = Vec::new();
    for svc in &svcs {
        let m = svc.meta();
        let shard_cell = |name: &str, number: u32| match name {
            "index" => Some(m.name.clone()),
            "shard" => Some(number.to_string()),
            "prirep" => Some("p".to_string()),
            "state" => Some("STARTED".to_string()),
            "ip" => Some("127.0.0.1".to_string()),
            "id" => Some(node.node_id.to_string()),
            "node" => Some(node.config.node_name.clone()),
            _ => None,
        };
        if m.is_closed() {
            for number in 0..m.settings.number_of_shards {
                rows.push(row(columns::SHARDS, |name| shard_cell(name, number)));
            }
            continue;
        }
        for shard in svc.shards() {
            let stats = super::indices::shard_stats(shard);
            let seq_no = shard.max_seq_no().to_string();
            rows.push(row(columns::SHARDS, |name| match name {
                // Every shard is on this node, started, recovered from its own store.
                "sync_id"
                | "unassigned.reason"
                | "unassigned.at"
                | "unassigned.for"
                | "unassigned.details"
                | "recoverysource.type" => None,
                "seq_no.max" | "seq_no.local_checkpoint" | "seq_no.global_checkpoint" => {
                    Some(seq_no.clone())
                }
                "path.data" | "path.state" => Some(data_path.clone()),
                _ => shard_cell(name, shard.number)
                    .or_else(|| stat_cell(&stats, name, &units).flatten()),
            }));
        }
    }
    render(p, columns::SHARDS, rows)
}

/// `GET /_cat/recovery[/<target>]`: how each open shard came to be open (`index::recovery`): all
/// done, so `active_only` lists none.
pub fn recovery(node: &Node, p: &Params) -> Result<Response> {
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    p.bool("detailed", false)?;
    if p.bool("active_only", false)? {
        return render(p, columns::RECOVERY, Vec::new());
    }
    let units = Units::of(p);
    let mut rows = Vec::new();
    for svc in &svcs {
        let index = svc.meta().name.clone();
        for shard in svc.shards() {
            let Some(r) = shard.recovery() else { continue };
            // Reused files count as recovered: an existing store is wholly there.
            let percent = if r.existing_store { "100.0%" } else { "0.0%" };
            rows.push(row(columns::RECOVERY, |name| {
                Some(match name {
                    "index" => index.clone(),
                    "shard" => shard.number.to_string(),
                    "start_time" => format_iso_millis(r.start_ms),
                    "start_time_millis" => r.start_ms.to_string(),
                    "stop_time" => format_iso_millis(r.stop_ms),
                    "stop_time_millis" => r.stop_ms.to_string(),
                    "time" => units.millis((r.stop_ms - r.start_ms).max(0) as u64),
                    "type" => r.kind().to_string(),
                    "stage" => "done".to_string(),
                    "source_host" | "source_node" | "repository" | "snapshot" => "n/a".to_string(),
                    "target_host" => "127.0.0.1".to_string(),
                    "target_node" => node.config.node_name.clone(),
                    "files" | "files_recovered" | "bytes" | "bytes_recovered" => "0".to_string(),
                    "files_percent" | "bytes_percent" => percent.to_string(),
                    "files_total" => r.files.len().to_string(),
                    "bytes_total" => r.bytes().to_string(),
                    "translog_ops" | "translog_ops_recovered" => r.translog_ops.to_string(),
                    "translog_ops_percent" => "100.0%".to_string(),
                    _ => return None,
                })
            }));
        }
    }
    render(p, columns::RECOVERY, rows)
}

/// `GET /_cat/segments[/<target>]`: one row per searchable segment of every primary.
pub fn segments(node: &Node, p: &Params) -> Result<Response> {
    let opts = p.indices_options(IndicesOptions::strict_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&svcs, Level::MetadataRead)?;
    let units = Units::of(p);
    let version = super::segments::engine_version();
    let mut rows = Vec::new();
    for svc in &svcs {
        let index = &svc.meta().name;
        for shard in svc.shards() {
            for seg in shard.segments()? {
                rows.push(row(columns::SEGMENTS, |name| {
                    Some(match name {
                        "index" => index.clone(),
                        "shard" => shard.number.to_string(),
                        "prirep" => "p".to_string(),
                        "ip" => "127.0.0.1".to_string(),
                        "id" => node.node_id.to_string(),
                        "segment" => seg.name.clone(),
                        "generation" => seg.generation.to_string(),
                        "docs.count" => seg.num_docs.to_string(),
                        "docs.deleted" => seg.deleted_docs.to_string(),
                        "size" => units.bytes(seg.size_in_bytes),
                        "size.memory" => "0".to_string(),
                        "committed" => seg.committed.to_string(),
                        "searchable" => "true".to_string(),
                        "version" => version.clone(),
                        "compound" => "false".to_string(),
                        _ => return None,
                    })
                }));
            }
        }
    }
    render(p, columns::SEGMENTS, rows)
}

/// `GET /_cat/aliases[/<alias>]`: one row per alias of each index.
pub fn aliases(node: &Node, p: &Params) -> Result<Response> {
    // Listing aliases reads every index's metadata.
    let svcs = node.resolve("_all", IndicesOptions::lenient_expand_open())?;
    super::indices::check_blocks(&svcs, Level::MetadataRead)?;
    let mut rows = Vec::new();
    for svc in node.all_services() {
        let m = svc.meta();
        for (alias, a) in &m.aliases {
            rows.push(row(columns::ALIASES, |name| {
                Some(match name {
                    "alias" => alias.clone(),
                    "index" => m.name.clone(),
                    "filter" => if a.filter.is_some() { "*" } else { "-" }.to_string(),
                    "routing.index" => a.index_routing.clone().unwrap_or_else(|| "-".into()),
                    "routing.search" => a.search_routing.clone().unwrap_or_else(|| "-".into()),
                    "is_write_index" => a
                        .is_write_index
                        .map(|b| b.to_string())
                        .unwrap_or_else(|| "-".into()),
                    _ => return None,
                })
            }));
        }
    }
    render(p, columns::ALIASES, rows)
}

/// `GET /_cat/templates[/<name>]`: legacy templates (their `order`), then composable ones (their
/// `priority`, and the components they are composed of), each group in OpenSearch's map order.
pub fn templates(node: &Node, p: &Params) -> Result<Response> {
    let wanted: Option<Vec<String>> = p.list("name");
    let keep = |n: &str| {
        wanted
            .as_ref()
            .is_none_or(|w| w.iter().any(|p| crate::metadata::target::glob_match(p, n)))
    };
    let list = |v: &[String]| format!("[{}]", v.join(", "));
    // One group's rows, in the order of the Java map OpenSearch reads them from.
    fn group<T>(
        all: std::collections::BTreeMap<String, T>,
        keep: impl Fn(&str) -> bool,
        cells: impl Fn(&str, &T) -> [Cell; 4],
    ) -> Vec<(String, Vec<Cell>)> {
        let mut rows: Vec<(String, Vec<Cell>)> = all
            .iter()
            .filter(|(n, _)| keep(n))
            .map(|(n, t)| {
                let [patterns, order, version, composed_of] = cells(n, t);
                let r = row(columns::TEMPLATES, |name| match name {
                    "name" => Some(n.clone()),
                    "index_patterns" => patterns.clone(),
                    "order" => order.clone(),
                    "version" => version.clone(),
                    "composed_of" => composed_of.clone(),
                    _ => None,
                });
                (n.clone(), r)
            })
            .collect();
        crate::util::java_hash::hash_order(&mut rows);
        rows
    }
    let legacy = group(node.index_templates.legacy_templates(), keep, |_, t| {
        [
            Some(list(&t.index_patterns)),
            Some(t.order.to_string()),
            t.version.map(|v| v.to_string()),
            Some(String::new()),
        ]
    });
    let composable = group(node.index_templates.index_templates(), keep, |_, t| {
        [
            Some(list(&t.index_patterns)),
            Some(t.priority.unwrap_or(0).to_string()),
            t.version.map(|v| v.to_string()),
            Some(list(&t.composed_of)),
        ]
    });
    let rows = legacy
        .into_iter()
        .chain(composable)
        .map(|(_, r)| r)
        .collect();
    render(p, columns::TEMPLATES, rows)
}

/// The `epoch` and `timestamp` cells of a table answered now.
fn clock(name: &str, now: &chrono::DateTime<chrono::Utc>) -> Option<Cell> {
    match name {
        "epoch" => Some(Some(now.timestamp().to_string())),
        "timestamp" => Some(Some(now.format("%H:%M:%S").to_string())),
        _ => None,
    }
}

/// `GET /_cat/count[/<target>]`: the searchable documents of the target (all indices by default),
/// with the time of the count.
pub fn count(node: &Node, p: &Params) -> Result<Response> {
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&svcs, Level::Read)?;
    let count: u64 = svcs.iter().map(|s| s.doc_count()).sum();
    let now = chrono::Utc::now();
    let r = row(columns::COUNT, |name| {
        clock(name, &now).unwrap_or_else(|| (name == "count").then(|| count.to_string()))
    });
    render(p, columns::COUNT, vec![r])
}

/// `GET /_cat/health`: the cluster health (as `_cluster/health` answers it now) as one row;
/// `ts=false` leaves out the time columns.
pub fn health(node: &Node, p: &Params) -> Result<Response> {
    let with_time = p.bool("ts", true)?;
    let time_columns = ["epoch", "timestamp"];
    let columns: Vec<table::Column> = columns::HEALTH
        .iter()
        .filter(|c| with_time || !time_columns.contains(&c.name))
        .copied()
        .collect();
    // Without the time columns, asking for one of them shows nothing (not an empty column).
    let time_names = ["epoch", "t", "time", "timestamp", "ts", "hms", "hhmmss"];
    let mut shown = p.clone();
    if let (false, Some(h)) = (with_time, p.list("h")) {
        let kept: Vec<String> = h
            .into_iter()
            .filter(|c| !time_names.contains(&c.as_str()))
            .collect();
        shown.0.insert("h".into(), Value::String(kept.join(",")));
    }
    let p = &shown;
    let mut now = Map::new();
    now.insert("timeout".into(), Value::String("0s".into()));
    let answer = super::cluster::health(node, &Params(now))?;
    let h: Value =
        serde_json::from_slice(&answer.body).map_err(|e| Error::internal(e.to_string()))?;
    let text = |k: &str| match &h[k] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let now = chrono::Utc::now();
    let r = row(&columns, |name| {
        if let Some(c) = clock(name, &now) {
            return c;
        }
        Some(match name {
            "cluster" => text("cluster_name"),
            "status" => text("status"),
            "node.total" => text("number_of_nodes"),
            "node.data" => text("number_of_data_nodes"),
            "discovered_cluster_manager" => text("discovered_cluster_manager"),
            "shards" => h["active_shards"].as_u64().unwrap_or(0).to_string(),
            "pri" => text("active_primary_shards"),
            "relo" => text("relocating_shards"),
            "init" => text("initializing_shards"),
            "unassign" => text("unassigned_shards"),
            "pending_tasks" => text("number_of_pending_tasks"),
            "max_task_wait_time" => "-".to_string(),
            "active_shards_percent" => format!(
                "{:.1}%",
                h["active_shards_percent_as_number"].as_f64().unwrap_or(0.0)
            ),
            _ => return None,
        })
    });
    render(p, &columns, vec![r])
}

/// Tables of things Quarry never has: cluster tasks waiting on a cluster manager, fielddata
/// (text fields are not aggregated on), snapshot repositories. Their columns, no rows.
pub fn empty(p: &Params, table: &'static [table::Column]) -> Result<Response> {
    render(p, table, Vec::new())
}

pub use columns::{FIELDDATA, PENDING_TASKS, REPOSITORIES};
