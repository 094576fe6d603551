//! Engine-alone search benchmark: the query mix of bench/workloads run by
//! `quarry_engine::execute` directly, on the index a Quarry server built (its `path.data`, opened
//! after the server stopped), exactly as the server runs them minus HTTP and JS.
//!
//! cargo bench -p quarry-engine --bench search -- --data-dir DIR --ops ops.json \
//!     [--warmup-ms 200] [--duration-ms 1000] [--json] [--raw-dir DIR]
//!
//! ops.json: `[{"name", "action", "params": {"index": ...}, "body": {...}}]`, action being
//! `indices:data/read/search` or `indices:data/read/count`. One client, closed loop: for each op
//! a warm-up, then as many calls as fit in the duration. Prints one JSON line per op with the
//! service-time percentiles (ms) and the first response (for the correctness gate). With
//! `--raw-dir`, each op's first response body is also written there as it came, byte for byte
//! (`<op name with '/' as '_'>.json`): the printed one is re-serialized, which hides a change in
//! number text or in a stored `_source`'s spacing.

use quarry_engine::{execute, Node, NodeConfig, Params};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[i.clamp(1, sorted.len()) - 1]
}

fn main() {
    let (mut data_dir, mut ops_file, mut warmup_ms, mut duration_ms, mut as_json) =
        (None::<PathBuf>, None::<PathBuf>, 200u64, 1000u64, false);
    let mut raw_dir = None::<PathBuf>;
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--data-dir" => data_dir = Some(val().into()),
            "--ops" => ops_file = Some(val().into()),
            "--warmup-ms" => warmup_ms = val().parse().expect("--warmup-ms"),
            "--duration-ms" => duration_ms = val().parse().expect("--duration-ms"),
            "--json" => as_json = true,
            "--raw-dir" => raw_dir = Some(val().into()),
            _ => {}
        }
    }
    let data_dir = data_dir.expect("--data-dir");
    let ops: Vec<Value> =
        serde_json::from_slice(&std::fs::read(ops_file.expect("--ops")).expect("read --ops"))
            .expect("ops json");
    let t_open = Instant::now();
    let node = Node::open(NodeConfig {
        data_path: data_dir,
        node_name: "bench".into(),
        cluster_name: "bench".into(),
        auto_create_index: "true".into(),
        host: "127.0.0.1".into(),
    })
    .expect("open node");
    let open_ms = t_open.elapsed().as_secs_f64() * 1e3;
    for op in &ops {
        let name = op["name"].as_str().unwrap_or("?");
        let action = op["action"].as_str().expect("action");
        let params = Params(op["params"].as_object().cloned().unwrap_or_default());
        let body = serde_json::to_vec(&op["body"]).expect("body");
        let first = execute(&node, action, &params, Some(&body));
        if let (Some(dir), Ok(r)) = (&raw_dir, &first) {
            let file = dir.join(format!("{}.json", name.replace('/', "_")));
            std::fs::write(file, &r.body).expect("write --raw-dir");
        }
        let (status, response) = match &first {
            Ok(r) => (
                r.status,
                serde_json::from_slice::<Value>(&r.body).unwrap_or(Value::Null),
            ),
            Err(e) => (0, json!({ "error": e.to_string() })),
        };
        let mut lat = Vec::new();
        if (200..300).contains(&status) {
            let w = Instant::now();
            while w.elapsed() < Duration::from_millis(warmup_ms) {
                let _ = execute(&node, action, &params, Some(&body));
            }
            let m = Instant::now();
            while m.elapsed() < Duration::from_millis(duration_ms) {
                let t = Instant::now();
                let r = execute(&node, action, &params, Some(&body));
                lat.push(t.elapsed().as_secs_f64() * 1e3);
                std::hint::black_box(r.ok());
            }
        }
        let n = lat.len();
        let mean = if n > 0 {
            lat.iter().sum::<f64>() / n as f64
        } else {
            0.0
        };
        lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let out = json!({
            "name": name,
            "status": status,
            "open_ms": open_ms,
            "service_ms": {
                "n": n, "mean": mean,
                "p50": percentile(&lat, 50.0), "p90": percentile(&lat, 90.0),
                "p99": percentile(&lat, 99.0), "max": lat.last().copied().unwrap_or(0.0),
            },
            "rps": if mean > 0.0 { 1e3 / mean } else { 0.0 },
            "response": response,
        });
        if as_json {
            println!("{out}");
        } else {
            println!(
                "{name}: status {status}, p50 {:.3} ms, p99 {:.3} ms ({n} calls)",
                percentile(&lat, 50.0),
                percentile(&lat, 99.0)
            );
        }
    }
    node.close().expect("close node");
}
