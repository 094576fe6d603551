//! Engine-alone ingest benchmark: the same `_bulk` bodies `bench/ingest.js` sends over HTTP,
//! executed by `quarry_engine::execute` directly on a fresh node, with the same concurrency.
//!
//! cargo bench -p quarry-engine --bench ingest -- --corpus-dir ../shared/corpus \
//!     --corpus debian-packages --mapping bench/workloads/debian-packages/index.json \
//!     --batch 5000 --clients 2 [--data-dir DIR] [--rounds 1] [--json]
//!
//! Bodies are built before the clock starts, exactly as the JS side does: for every NDJSON line
//! `{"index":{"_id":"<id>"}}\n<line>\n`, `batch` docs per body, `index` given as a parameter (the
//! server's `POST /<index>/_bulk`). Prints one JSON object per round with `--json`.

use flate2::read::GzDecoder;
use quarry_engine::{execute, Node, NodeConfig, Params};
use serde_json::{json, Map, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

struct Args {
    corpus_dir: PathBuf,
    corpus: String,
    mapping: Option<PathBuf>,
    batch: usize,
    clients: usize,
    data_dir: Option<PathBuf>,
    rounds: usize,
    limit: Option<usize>,
    json: bool,
}

fn parse_args() -> Args {
    let mut a = Args {
        corpus_dir: PathBuf::from("../shared/corpus"),
        corpus: "debian-packages".into(),
        mapping: None,
        batch: 5000,
        clients: 2,
        data_dir: None,
        rounds: 1,
        limit: None,
        json: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--corpus-dir" => a.corpus_dir = val().into(),
            "--corpus" => a.corpus = val(),
            "--mapping" => a.mapping = Some(val().into()),
            "--batch" => a.batch = val().parse().expect("--batch"),
            "--clients" => a.clients = val().parse().expect("--clients"),
            "--data-dir" => a.data_dir = Some(val().into()),
            "--rounds" => a.rounds = val().parse().expect("--rounds"),
            "--limit" => a.limit = Some(val().parse().expect("--limit")),
            "--json" => a.json = true,
            // cargo bench passes --bench; ignore harness flags.
            _ => {}
        }
    }
    a
}

struct Corpus {
    bodies: Vec<Vec<u8>>,
    docs: usize,
    raw_bytes: usize,
    body_bytes: usize,
}

fn load(a: &Args) -> Corpus {
    let path = a.corpus_dir.join(format!("{}.ndjson.gz", a.corpus));
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r = BufReader::with_capacity(1 << 20, GzDecoder::new(f));
    let mut bodies = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let (mut n_in_cur, mut docs, mut raw_bytes) = (0usize, 0usize, 0usize);
    for line in r.split(b'\n') {
        let line = line.expect("read corpus");
        if line.is_empty() {
            continue;
        }
        if a.limit.is_some_and(|l| docs >= l) {
            break;
        }
        #[derive(serde::Deserialize)]
        struct IdOnly<'a> {
            #[serde(borrow)]
            id: std::borrow::Cow<'a, str>,
        }
        let doc: IdOnly = serde_json::from_slice(&line).expect("doc with id");
        cur.extend_from_slice(b"{\"index\":{\"_id\":");
        serde_json::to_writer(&mut cur, &doc.id).expect("id");
        cur.extend_from_slice(b"}}\n");
        cur.extend_from_slice(&line);
        cur.push(b'\n');
        raw_bytes += line.len() + 1;
        docs += 1;
        n_in_cur += 1;
        if n_in_cur == a.batch {
            bodies.push(std::mem::take(&mut cur));
            n_in_cur = 0;
        }
    }
    if n_in_cur > 0 {
        bodies.push(cur);
    }
    let body_bytes = bodies.iter().map(Vec::len).sum();
    Corpus {
        bodies,
        docs,
        raw_bytes,
        body_bytes,
    }
}

fn params(pairs: &[(&str, &str)]) -> Params {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert((*k).into(), Value::String((*v).into()));
    }
    Params(m)
}

/// CPU seconds (user + system) from a `/proc/.../stat` line: the process's own (dead threads
/// included) with `self`, the calling thread's with `thread-self`. Linux only; NaN elsewhere.
fn cpu_seconds(which: &str) -> f64 {
    let Ok(s) = std::fs::read_to_string(format!("/proc/{which}/stat")) else {
        return f64::NAN;
    };
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else {
        return f64::NAN;
    };
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks = |i: usize| {
        f.get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    (ticks(11) + ticks(12)) / 100.0
}

/// Resident set size in MB (`VmRSS`; the corpus's bodies, held by the bench, included). Linux
/// only; NaN elsewhere.
fn rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[i.clamp(1, sorted.len()) - 1]
}

fn main() {
    let a = parse_args();
    let t_load = Instant::now();
    let corpus = Arc::new(load(&a));
    let load_ms = t_load.elapsed().as_secs_f64() * 1e3;
    let mapping: Option<Vec<u8>> = a
        .mapping
        .as_ref()
        .map(|p| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())));
    let index = a.corpus.clone();
    for round in 0..a.rounds {
        let tmp;
        let data_path = match &a.data_dir {
            Some(d) => {
                let d = d.join(format!("round-{round}"));
                let _ = std::fs::remove_dir_all(&d);
                d
            }
            None => {
                tmp = tempfile::tempdir().expect("tempdir");
                tmp.path().to_path_buf()
            }
        };
        let node = Node::open(NodeConfig {
            data_path: data_path.clone(),
            node_name: "bench".into(),
            cluster_name: "bench".into(),
            auto_create_index: "true".into(),
            host: "127.0.0.1".into(),
        })
        .expect("open node");
        if let Some(m) = &mapping {
            let r = execute(
                &node,
                "indices:admin/create",
                &params(&[("index", &index)]),
                Some(m),
            )
            .expect("create index");
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        }
        let next = Arc::new(AtomicUsize::new(0));
        let errors = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let cpu_start = cpu_seconds("self");
        let client_cpu = std::sync::Mutex::new(0.0f64);
        let lat: Vec<f64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..a.clients.max(1))
                .map(|_| {
                    let (node, corpus, next, errors, index, client_cpu) =
                        (&node, &corpus, &next, &errors, &index, &client_cpu);
                    s.spawn(move || {
                        let cpu0 = cpu_seconds("thread-self");
                        let p = params(&[("index", index)]);
                        let mut lat = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(body) = corpus.bodies.get(i) else {
                                break;
                            };
                            let t = Instant::now();
                            let r = execute(node, "indices:data/write/bulk", &p, Some(body))
                                .expect("bulk");
                            lat.push(t.elapsed().as_secs_f64() * 1e3);
                            if r.status != 200
                                || r.body.windows(13).any(|w| w == b"\"errors\":true")
                            {
                                errors.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        *client_cpu.lock().unwrap() += cpu_seconds("thread-self") - cpu0;
                        lat
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let bulk_s = start.elapsed().as_secs_f64();
        // CPU spent while the bulks ran: by the requests themselves (the client threads run
        // `execute`, as the write pool does in the server) and by the engine's own threads
        // (tantivy's indexing workers, the doc store compressor, commits, merges).
        let cpu_s = cpu_seconds("self") - cpu_start;
        let client_cpu_s = client_cpu.into_inner().unwrap();
        let t_refresh = Instant::now();
        execute(
            &node,
            "indices:admin/refresh",
            &params(&[("index", &index)]),
            None,
        )
        .expect("refresh");
        let refresh_ms = t_refresh.elapsed().as_secs_f64() * 1e3;
        let cpu_incl_refresh_s = cpu_seconds("self") - cpu_start;
        let rss_after_mb = rss_mb();
        // What stays resident once the node has been idle a while (freed buffers handed back).
        std::thread::sleep(std::time::Duration::from_secs(2));
        let rss_idle_mb = rss_mb();
        let total_s = start.elapsed().as_secs_f64();
        let count = execute(
            &node,
            "indices:data/read/count",
            &params(&[("index", &index)]),
            None,
        )
        .expect("count");
        let count: Value = serde_json::from_slice(&count.body).expect("count json");
        let count = count["count"].as_u64().unwrap_or(0);
        let mut sorted = lat.clone();
        sorted.sort_by(|x, y| x.partial_cmp(y).unwrap());
        let disk = dir_size(&data_path);
        let out = json!({
            "side": "engine",
            "corpus": a.corpus,
            "round": round,
            "docs": corpus.docs,
            "count_after_refresh": count,
            "bulk_requests": corpus.bodies.len(),
            "batch": a.batch,
            "clients": a.clients,
            "raw_bytes": corpus.raw_bytes,
            "body_bytes": corpus.body_bytes,
            "load_ms": load_ms,
            "bulk_seconds": bulk_s,
            "refresh_ms": refresh_ms,
            "total_seconds": total_s,
            "docs_per_s": corpus.docs as f64 / bulk_s,
            "docs_per_s_incl_refresh": corpus.docs as f64 / total_s,
            "mb_per_s": corpus.raw_bytes as f64 / 1e6 / bulk_s,
            "cpu_seconds": cpu_s,
            "request_cpu_seconds": client_cpu_s,
            "cpu_us_per_doc": cpu_s * 1e6 / corpus.docs as f64,
            "cpu_seconds_incl_refresh": cpu_incl_refresh_s,
            "bulk_ms_p50": percentile(&sorted, 50.0),
            "bulk_ms_p90": percentile(&sorted, 90.0),
            "bulk_ms_max": sorted.last().copied().unwrap_or(0.0),
            "failed_bulks": errors.load(Ordering::Relaxed),
            "index_bytes": disk,
            "rss_mb_after_refresh": rss_after_mb,
            "rss_mb_idle": rss_idle_mb,
        });
        if a.json {
            println!("{out}");
        } else {
            println!(
                "engine {} round {round}: {} docs in {:.2}s = {:.0} docs/s, {:.1} MB/s, CPU {:.2}s = {:.1} us/doc ({:.1} in requests; {:.1} with the refresh) (refresh {:.0} ms, count {count}, failed bulks {}, RSS {:.0} MB after the refresh, {:.0} MB 2 s later)",
                a.corpus,
                corpus.docs,
                bulk_s,
                corpus.docs as f64 / bulk_s,
                corpus.raw_bytes as f64 / 1e6 / bulk_s,
                cpu_s,
                cpu_s * 1e6 / corpus.docs as f64,
                client_cpu_s * 1e6 / corpus.docs as f64,
                cpu_incl_refresh_s * 1e6 / corpus.docs as f64,
                refresh_ms,
                errors.load(Ordering::Relaxed),
                rss_after_mb,
                rss_idle_mb
            );
        }
        node.close().expect("close node");
        drop(node);
    }
}

fn dir_size(p: &std::path::Path) -> u64 {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            match e.metadata() {
                Ok(m) if m.is_dir() => n += dir_size(&e.path()),
                Ok(m) => n += m.len(),
                _ => {}
            }
        }
    }
    n
}
