//! `_cat` APIs: aligned text tables (`v`, `h`, `s`) or JSON rows (`format=json`).

use super::{Params, Response};
use crate::error::{Error, Result};
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use serde_json::{Map, Value};

struct Column {
    name: &'static str,
    aliases: &'static [&'static str],
    right: bool,
    default: bool,
}

/// OpenSearch's `1.2kb` style for `store.size` and friends.
pub fn format_bytes(n: u64) -> String {
    const UNITS: [(&str, u64); 5] = [
        ("pb", 1 << 50),
        ("tb", 1 << 40),
        ("gb", 1 << 30),
        ("mb", 1 << 20),
        ("kb", 1 << 10),
    ];
    for (suffix, size) in UNITS {
        if n >= size {
            let v = n as f64 / size as f64;
            let rounded = (v * 10.0).round() / 10.0;
            return if rounded.fract() == 0.0 {
                format!("{}{suffix}", rounded as u64)
            } else {
                format!("{rounded:.1}{suffix}")
            };
        }
    }
    format!("{n}b")
}

/// A table cell; `None` is OpenSearch's null cell (empty in text, `null` in JSON, first in a
/// sort).
type Cell = Option<String>;

/// Rows whose every cell has a value.
fn full(rows: Vec<Vec<String>>) -> Vec<Vec<Cell>> {
    rows.into_iter()
        .map(|r| r.into_iter().map(Some).collect())
        .collect()
}

fn render(p: &Params, columns: &[Column], rows: Vec<Vec<Cell>>) -> Result<Response> {
    // Selected columns by index; an unknown header selects nothing and prints empty cells, as
    // OpenSearch's tables do.
    let selected: Vec<(Option<usize>, String)> = match p.list("h") {
        Some(hs) => {
            let mut sel = Vec::new();
            for h in hs {
                let idx = columns
                    .iter()
                    .position(|c| c.name == h || c.aliases.contains(&h.as_str()));
                match idx {
                    // Shown under the name asked for, alias or not, as OpenSearch does.
                    Some(i) => sel.push((Some(i), h)),
                    None if h.contains('*') => {
                        for (i, c) in columns.iter().enumerate() {
                            if crate::metadata::target::glob_match(&h, c.name) {
                                sel.push((Some(i), c.name.to_string()));
                            }
                        }
                    }
                    None => sel.push((None, h)),
                }
            }
            sel
        }
        None => (0..columns.len())
            .filter(|&i| columns[i].default)
            .map(|i| (Some(i), columns[i].name.to_string()))
            .collect(),
    };
    let cell = |r: &[Cell], i: Option<usize>| -> String {
        i.and_then(|i| r[i].clone()).unwrap_or_default()
    };
    let right = |i: Option<usize>| i.is_some_and(|i| columns[i].right);
    let mut rows = rows;
    if let Some(sorts) = p.list("s") {
        let mut keys = Vec::new();
        for s in sorts {
            let (name, desc) = match s.split_once(':') {
                Some((n, d)) => (n.to_string(), d == "desc"),
                None => (s.clone(), false),
            };
            let Some(i) = columns
                .iter()
                .position(|c| c.name == name || c.aliases.contains(&name.as_str()))
            else {
                return Err(Error::new(
                    crate::error::ErrorKind::UnsupportedOperation,
                    format!("Unable to sort by unknown sort key `{name}`"),
                ));
            };
            keys.push((i, desc));
        }
        rows.sort_by(|a, b| {
            for &(i, desc) in &keys {
                let ord = match (&a[i], &b[i]) {
                    (Some(a), Some(b)) => match (a.parse::<f64>(), b.parse::<f64>()) {
                        (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
                        _ => a.cmp(b),
                    },
                    (a, b) => a.is_some().cmp(&b.is_some()),
                };
                let ord = if desc { ord.reverse() } else { ord };
                if ord != std::cmp::Ordering::Equal {
                    return ord;
                }
            }
            std::cmp::Ordering::Equal
        });
    }
    match p.str("format") {
        Some("json") => {
            let arr: Vec<Value> = rows
                .iter()
                .map(|r| {
                    Value::Object(
                        selected
                            .iter()
                            .map(|(i, name)| {
                                (
                                    name.clone(),
                                    i.and_then(|i| r[i].clone())
                                        .map_or(Value::Null, Value::from),
                                )
                            })
                            .collect::<Map<_, _>>(),
                    )
                })
                .collect();
            Ok(Response::ok(&Value::Array(arr)))
        }
        None | Some("text") | Some("txt") => {
            let verbose = p.bool("v", false)?;
            let mut widths: Vec<usize> = selected
                .iter()
                .map(|(_, name)| if verbose { name.len() } else { 0 })
                .collect();
            for r in &rows {
                for (w, (i, _)) in widths.iter_mut().zip(&selected) {
                    *w = (*w).max(cell(r, *i).chars().count());
                }
            }
            let mut out = String::new();
            // OpenSearch's `RestTable.pad`: a right-aligned cell is padded before its value, a
            // left-aligned one after it but for the last column's; one space between columns.
            // So a line ends in spaces when its last cells are empty right-aligned ones.
            let mut line = |cells: Vec<(String, bool)>| {
                let last = cells.len().saturating_sub(1);
                for (j, (cell, right)) in cells.iter().enumerate() {
                    let pad = widths[j].saturating_sub(cell.chars().count());
                    if *right && pad > 0 {
                        out.push_str(&" ".repeat(pad));
                        out.push_str(cell);
                    } else {
                        out.push_str(cell);
                        if j != last {
                            out.push_str(&" ".repeat(pad));
                        }
                    }
                    if j != last {
                        out.push(' ');
                    }
                }
                out.push('\n');
            };
            // A header is aligned as its column's cells are.
            if verbose {
                line(
                    selected
                        .iter()
                        .map(|(i, name)| (name.clone(), right(*i)))
                        .collect(),
                );
            }
            for r in &rows {
                line(
                    selected
                        .iter()
                        .map(|(i, _)| (cell(r, *i), right(*i)))
                        .collect(),
                );
            }
            Ok(Response::bytes(200, out.into_bytes()))
        }
        Some(other) => Err(Error::illegal_argument(format!(
            "Unsupported format [{other}]"
        ))),
    }
}

pub fn indices(node: &Node, p: &Params) -> Result<Response> {
    let columns = [
        Column {
            name: "health",
            aliases: &["h"],
            right: false,
            default: true,
        },
        Column {
            name: "status",
            aliases: &["s"],
            right: false,
            default: true,
        },
        Column {
            name: "index",
            aliases: &["i", "idx"],
            right: false,
            default: true,
        },
        Column {
            name: "uuid",
            aliases: &["id"],
            right: false,
            default: true,
        },
        Column {
            name: "pri",
            aliases: &["p", "shards.primary"],
            right: true,
            default: true,
        },
        Column {
            name: "rep",
            aliases: &["r", "shards.replica"],
            right: true,
            default: true,
        },
        Column {
            name: "docs.count",
            aliases: &["dc", "docsCount"],
            right: true,
            default: true,
        },
        Column {
            name: "docs.deleted",
            aliases: &["dd", "docsDeleted"],
            right: true,
            default: true,
        },
        Column {
            name: "store.size",
            aliases: &["ss", "storeSize"],
            right: true,
            default: true,
        },
        Column {
            name: "pri.store.size",
            aliases: &[],
            right: true,
            default: true,
        },
        Column {
            name: "creation.date",
            aliases: &["cd"],
            right: true,
            default: false,
        },
        Column {
            name: "segments.count",
            aliases: &["sc"],
            right: true,
            default: false,
        },
    ];
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
    super::indices::check_blocks(&svcs, crate::metadata::blocks::Level::MetadataRead)?;
    let bytes = p.str("bytes");
    let size = |n: u64| match bytes {
        Some("b") => n.to_string(),
        Some("kb") => (n >> 10).to_string(),
        Some("mb") => (n >> 20).to_string(),
        _ => format_bytes(n),
    };
    let mut rows: Vec<Vec<Cell>> = svcs
        .iter()
        .map(|s| {
            let m = s.meta();
            let docs: u64 = s.shards().iter().map(|x| x.doc_count()).sum();
            let deleted: u64 = s.shards().iter().map(|x| x.deleted_count()).sum();
            let store: u64 = s.shards().iter().map(|x| x.store_size()).sum();
            let segments: usize = s.shards().iter().map(|x| x.segment_count()).sum();
            // A closed index has no shard statistics: OpenSearch leaves those cells empty.
            let open = |v: String| (!m.is_closed()).then_some(v);
            vec![
                Some(
                    if m.settings.number_of_replicas > 0 {
                        "yellow"
                    } else {
                        "green"
                    }
                    .to_string(),
                ),
                Some(if m.is_closed() { "close" } else { "open" }.to_string()),
                Some(m.name.clone()),
                Some(m.uuid.clone()),
                Some(m.settings.number_of_shards.to_string()),
                Some(m.settings.number_of_replicas.to_string()),
                open(docs.to_string()),
                open(deleted.to_string()),
                open(size(store)),
                open(size(store)),
                Some(m.settings.creation_date().to_string()),
                open(segments.to_string()),
            ]
        })
        .collect();
    if let Some(health) = p.str("health") {
        rows.retain(|r| r[0].as_deref() == Some(health));
    }
    render(p, &columns, rows)
}

fn column(name: &'static str, aliases: &'static [&'static str], right: bool) -> Column {
    Column {
        name,
        aliases,
        right,
        default: true,
    }
}

/// `GET /_cat/segments[/<target>]`: one row per searchable segment of every primary.
pub fn segments(node: &Node, p: &Params) -> Result<Response> {
    let mut columns = vec![
        column("index", &["i", "idx"], false),
        column("shard", &["s", "sh"], false),
        column("prirep", &["p", "pr", "primaryOrReplica"], false),
        column("ip", &[], false),
        column("id", &[], false),
        column("segment", &["seg"], false),
        column("generation", &["g", "gen"], true),
        column("docs.count", &["dc", "docsCount"], true),
        column("docs.deleted", &["dd", "docsDeleted"], true),
        column("size", &["si"], true),
        column("size.memory", &["sm", "sizeMemory"], true),
        column("committed", &["ic", "isCommitted"], false),
        column("searchable", &["is", "isSearchable"], false),
        column("version", &["v", "ver"], false),
        column("compound", &["ico", "isCompound"], false),
    ];
    columns[4].default = false;
    let opts = p.indices_options(IndicesOptions::strict_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&svcs, crate::metadata::blocks::Level::MetadataRead)?;
    let bytes = p.str("bytes");
    let size = |n: u64| match bytes {
        Some("b") => n.to_string(),
        Some("kb") => (n >> 10).to_string(),
        Some("mb") => (n >> 20).to_string(),
        _ => format_bytes(n),
    };
    let version = super::segments::engine_version();
    let mut rows = Vec::new();
    for svc in &svcs {
        let name = svc.meta().name.clone();
        for shard in svc.shards() {
            for seg in shard.segments()? {
                rows.push(vec![
                    name.clone(),
                    shard.number.to_string(),
                    "p".to_string(),
                    "127.0.0.1".to_string(),
                    node.node_id.to_string(),
                    seg.name,
                    seg.generation.to_string(),
                    seg.num_docs.to_string(),
                    seg.deleted_docs.to_string(),
                    size(seg.size_in_bytes),
                    "0".to_string(),
                    seg.committed.to_string(),
                    "true".to_string(),
                    version.clone(),
                    "false".to_string(),
                ]);
            }
        }
    }
    render(p, &columns, full(rows))
}

pub fn aliases(node: &Node, p: &Params) -> Result<Response> {
    let columns = [
        Column {
            name: "alias",
            aliases: &["a"],
            right: false,
            default: true,
        },
        Column {
            name: "index",
            aliases: &["i", "idx"],
            right: false,
            default: true,
        },
        Column {
            name: "filter",
            aliases: &["f", "fi"],
            right: false,
            default: true,
        },
        Column {
            name: "routing.index",
            aliases: &["ri", "routingIndex"],
            right: false,
            default: true,
        },
        Column {
            name: "routing.search",
            aliases: &["rs", "routingSearch"],
            right: false,
            default: true,
        },
        Column {
            name: "is_write_index",
            aliases: &["w", "isWriteIndex"],
            right: false,
            default: true,
        },
    ];
    // Listing aliases reads every index's metadata.
    let svcs = node.resolve("_all", IndicesOptions::lenient_expand_open())?;
    super::indices::check_blocks(&svcs, crate::metadata::blocks::Level::MetadataRead)?;
    let mut rows = Vec::new();
    for svc in node.all_services() {
        let m = svc.meta();
        for (name, a) in &m.aliases {
            rows.push(vec![
                name.clone(),
                m.name.clone(),
                if a.filter.is_some() { "*" } else { "-" }.to_string(),
                a.index_routing.clone().unwrap_or_else(|| "-".into()),
                a.search_routing.clone().unwrap_or_else(|| "-".into()),
                a.is_write_index
                    .map(|b| b.to_string())
                    .unwrap_or_else(|| "-".into()),
            ]);
        }
    }
    render(p, &columns, full(rows))
}

/// `GET /_cat/templates[/<name>]`: legacy templates (their `order`), then composable ones (their
/// `priority`, and the components they are composed of), each group in OpenSearch's map order.
pub fn templates(node: &Node, p: &Params) -> Result<Response> {
    let columns = [
        column("name", &["n"], false),
        column("index_patterns", &["t"], false),
        column("order", &["o", "p"], false),
        column("version", &["v"], false),
        column("composed_of", &["c"], false),
    ];
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
        row: impl Fn(&str, &T) -> Vec<Cell>,
    ) -> Vec<(String, Vec<Cell>)> {
        let mut rows: Vec<(String, Vec<Cell>)> = all
            .iter()
            .filter(|(n, _)| keep(n))
            .map(|(n, t)| (n.clone(), row(n, t)))
            .collect();
        crate::util::java_hash::hash_order(&mut rows);
        rows
    }
    let legacy = group(node.index_templates.legacy_templates(), keep, |n, t| {
        vec![
            Some(n.to_string()),
            Some(list(&t.index_patterns)),
            Some(t.order.to_string()),
            t.version.map(|v| v.to_string()),
            Some(String::new()),
        ]
    });
    let composable = group(node.index_templates.index_templates(), keep, |n, t| {
        vec![
            Some(n.to_string()),
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
    render(p, &columns, rows)
}

/// `GET /_cat/count[/<target>]`: the searchable documents of the target (all indices by default),
/// with the time of the count.
pub fn count(node: &Node, p: &Params) -> Result<Response> {
    let columns = [
        column("epoch", &["t", "time"], false),
        column("timestamp", &["ts", "hms", "hhmmss"], false),
        column("count", &["dc", "docs.count", "docsCount"], false),
    ];
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    super::indices::check_blocks(&svcs, crate::metadata::blocks::Level::Read)?;
    let count: u64 = svcs.iter().map(|s| s.doc_count()).sum();
    let now = chrono::Utc::now();
    let rows = vec![vec![
        now.timestamp().to_string(),
        now.format("%H:%M:%S").to_string(),
        count.to_string(),
    ]];
    render(p, &columns, full(rows))
}

/// `GET /_cat/health`: the cluster health (as `_cluster/health` answers it now) as one row;
/// `ts=false` leaves out the time columns.
pub fn health(node: &Node, p: &Params) -> Result<Response> {
    let with_time = p.bool("ts", true)?;
    let mut columns = Vec::new();
    if with_time {
        columns.push(column("epoch", &["t", "time"], false));
        columns.push(column("timestamp", &["ts", "hms", "hhmmss"], false));
    }
    columns.extend([
        column("cluster", &["cl"], false),
        column("status", &["st"], false),
        column("node.total", &["nt", "nodeTotal"], true),
        column("node.data", &["nd", "nodeData"], true),
        Column {
            default: false,
            ..column("discovered_master", &["dm"], true)
        },
        column("discovered_cluster_manager", &["dcm"], true),
        column("shards", &["t", "sh", "shards.total", "shardsTotal"], true),
        column("pri", &["p", "shards.primary", "shardsPrimary"], true),
        column(
            "relo",
            &["r", "shards.relocating", "shardsRelocating"],
            true,
        ),
        column(
            "init",
            &["i", "shards.initializing", "shardsInitializing"],
            true,
        ),
        column(
            "unassign",
            &["u", "shards.unassigned", "shardsUnassigned"],
            true,
        ),
        column("pending_tasks", &["pt", "pendingTasks"], true),
        column("max_task_wait_time", &["mtwt", "maxTaskWaitTime"], true),
        column(
            "active_shards_percent",
            &["asp", "activeShardsPercent"],
            true,
        ),
    ]);
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
    let mut row = Vec::new();
    if with_time {
        row.push(now.timestamp().to_string());
        row.push(now.format("%H:%M:%S").to_string());
    }
    let active = h["active_shards"].as_u64().unwrap_or(0);
    row.extend([
        text("cluster_name"),
        text("status"),
        text("number_of_nodes"),
        text("number_of_data_nodes"),
        text("discovered_master"),
        text("discovered_cluster_manager"),
        active.to_string(),
        text("active_primary_shards"),
        text("relocating_shards"),
        text("initializing_shards"),
        text("unassigned_shards"),
        text("number_of_pending_tasks"),
        "-".to_string(),
        format!(
            "{:.1}%",
            h["active_shards_percent_as_number"].as_f64().unwrap_or(0.0)
        ),
    ]);
    render(p, &columns, full(vec![row]))
}

#[cfg(test)]
mod tests {
    use super::format_bytes;

    #[test]
    fn bytes() {
        assert_eq!(format_bytes(208), "208b");
        assert_eq!(format_bytes(5325), "5.2kb");
        assert_eq!(format_bytes(1 << 20), "1mb");
    }
}
