//! `GET [/<target>]/_recovery`: how each open shard of the target came to be open
//! (`index::recovery`), in OpenSearch's shape: every recovery here is done, from an empty store
//! or the shard's own files, never from a peer or a snapshot.

use super::{Params, Response};
use crate::error::Result;
use crate::index::date_format::format_iso_millis;
use crate::index::recovery::Recovery;
use crate::metadata::target::IndicesOptions;
use crate::node::Node;
use crate::profile::human_time;
use serde_json::{json, Map, Value};

fn percent(done: bool) -> &'static str {
    if done {
        "100.0%"
    } else {
        "0.0%"
    }
}

/// Adds `<key>_in_millis` (and, under `human`, `<key>` as a time value) to `out`.
fn millis(out: &mut Map<String, Value>, key: &str, ms: i64, human: bool, human_text: String) {
    if human {
        out.insert(key.to_string(), Value::String(human_text));
    }
    out.insert(format!("{key}_in_millis"), json!(ms));
}

fn time(out: &mut Map<String, Value>, key: &str, ms: i64, human: bool) {
    millis(
        out,
        key,
        ms,
        human,
        human_time(ms.max(0) as u64 * 1_000_000),
    );
}

fn bytes(out: &mut Map<String, Value>, key: &str, n: u64, human: bool) {
    if human {
        out.insert(key.to_string(), json!(super::cat::format_bytes(n)));
    }
    out.insert(format!("{key}_in_bytes"), json!(n));
}

fn date(out: &mut Map<String, Value>, key: &str, ms: i64, human: bool) {
    millis(out, key, ms, human, format_iso_millis(ms));
}

fn shard_json(node: &Node, number: u32, r: &Recovery, human: bool, detailed: bool) -> Value {
    let mut shard = Map::new();
    shard.insert("id".into(), json!(number));
    shard.insert("type".into(), json!(r.kind().to_uppercase()));
    shard.insert("stage".into(), json!("DONE"));
    shard.insert("primary".into(), json!(true));
    date(&mut shard, "start_time", r.start_ms, human);
    date(&mut shard, "stop_time", r.stop_ms, human);
    time(&mut shard, "total_time", r.stop_ms - r.start_ms, human);
    shard.insert(
        "source".into(),
        if r.existing_store {
            json!({"bootstrap_new_history_uuid": false})
        } else {
            json!({})
        },
    );
    shard.insert(
        "target".into(),
        json!({
            "id": node.node_id.to_string(),
            "host": "127.0.0.1",
            "transport_address": "127.0.0.1:9300",
            "ip": "127.0.0.1",
            "name": node.config.node_name,
        }),
    );
    let total = r.bytes();
    let mut size = Map::new();
    bytes(&mut size, "total", total, human);
    bytes(&mut size, "reused", total, human);
    bytes(&mut size, "recovered", 0, human);
    size.insert("percent".into(), json!(percent(r.existing_store)));
    let mut files = Map::new();
    files.insert("total".into(), json!(r.files.len()));
    files.insert("reused".into(), json!(r.files.len()));
    files.insert("recovered".into(), json!(0));
    files.insert("percent".into(), json!(percent(r.existing_store)));
    if detailed {
        let details: Vec<Value> = r
            .files
            .iter()
            .map(|(name, len)| {
                let mut f = Map::new();
                f.insert("name".into(), json!(name));
                bytes(&mut f, "length", *len, human);
                f.insert("reused".into(), json!(true));
                bytes(&mut f, "recovered", 0, human);
                Value::Object(f)
            })
            .collect();
        files.insert("details".into(), Value::Array(details));
    }
    let mut index = Map::new();
    index.insert("size".into(), Value::Object(size));
    index.insert("files".into(), Value::Object(files));
    time(&mut index, "total_time", r.index_ms, human);
    // No throttling: as OpenSearch prints an unthrottled phase (`-1` as a time value).
    for key in ["source_throttle_time", "target_throttle_time"] {
        millis(&mut index, key, 0, human, "-1".into());
    }
    let mut translog = Map::new();
    translog.insert("recovered".into(), json!(r.translog_ops));
    translog.insert("total".into(), json!(r.translog_ops));
    translog.insert("percent".into(), json!("100.0%"));
    translog.insert("total_on_start".into(), json!(r.translog_ops));
    time(&mut translog, "total_time", r.translog_ms, human);
    let mut verify = Map::new();
    time(&mut verify, "check_index_time", 0, human);
    time(&mut verify, "total_time", 0, human);
    shard.insert("index".into(), Value::Object(index));
    shard.insert("translog".into(), Value::Object(translog));
    shard.insert("verify_index".into(), Value::Object(verify));
    Value::Object(shard)
}

pub fn recovery(node: &Node, p: &Params) -> Result<Response> {
    let opts = p.indices_options(IndicesOptions::lenient_expand_open())?;
    let svcs = node.resolve(p.str("index").unwrap_or("_all"), opts)?;
    let human = p.bool("human", false)?;
    let detailed = p.bool("detailed", false)?;
    // Every recovery here is done: none is active.
    let active_only = p.bool("active_only", false)?;
    let mut out: Vec<(String, Value)> = Vec::new();
    if !active_only {
        for svc in &svcs {
            let shards: Vec<Value> = svc
                .shards()
                .iter()
                .filter_map(|s| {
                    s.recovery()
                        .map(|r| shard_json(node, s.number, r, human, detailed))
                })
                .collect();
            if !shards.is_empty() {
                out.push((svc.meta().name.clone(), json!({ "shards": shards })));
            }
        }
    }
    // OpenSearch keys the indices in a hash map: its iteration order is the answer's.
    crate::util::java_hash::hash_order(&mut out);
    Ok(Response::ok(&Value::Object(out.into_iter().collect())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_store_reuses_every_file() {
        let r = Recovery {
            existing_store: true,
            start_ms: 1_000,
            stop_ms: 1_021,
            files: vec![("a".into(), 442), ("meta.json".into(), 3_016)],
            index_ms: 3,
            translog_ms: 18,
            translog_ops: 2,
        };
        let mut size = Map::new();
        bytes(&mut size, "total", r.bytes(), true);
        assert_eq!(size["total"], json!("3.3kb"));
        assert_eq!(size["total_in_bytes"], json!(3_458));
        let mut t = Map::new();
        time(&mut t, "total_time", r.stop_ms - r.start_ms, true);
        assert_eq!(t["total_time"], json!("21ms"));
        assert_eq!(r.kind().to_uppercase(), "EXISTING_STORE");
    }
}
