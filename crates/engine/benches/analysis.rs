//! Analysis throughput, single core, on the Debian package descriptions: Quarry's `standard`
//! and `english` analyzers (Lucene-exact token stream, through the tantivy tokenizer bridge)
//! against tantivy's own `SimpleTokenizer` + `LowerCaser` in the same run.
//!
//! Time is the bench thread's CPU time where Linux reports it (`/proc/thread-self/schedstat`),
//! so MB/s are per core and time spent waiting for a core on a busy machine is not counted.
//!
//! cargo bench -p quarry-engine --bench analysis -- [--corpus-dir ../shared/corpus] [--rounds 5]

use flate2::read::GzDecoder;
use quarry_engine::analysis::{register, Registry};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::time::Instant;
use tantivy::tokenizer::{LowerCaser, SimpleTokenizer, TextAnalyzer, TokenizerManager};

fn main() {
    let mut dir = PathBuf::from("../shared/corpus");
    if !dir.exists() {
        dir = PathBuf::from("../../../shared/corpus");
    }
    let mut rounds = 5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--corpus-dir" => dir = args.next().expect("value").into(),
            "--rounds" => rounds = args.next().expect("value").parse().expect("number"),
            _ => {}
        }
    }
    let file = std::fs::File::open(dir.join("debian-packages.ndjson.gz")).expect("corpus");
    let mut texts = Vec::new();
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let v: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
        if let Some(d) = v.get("description").and_then(|d| d.as_str()) {
            texts.push(d.to_string());
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "corpus: {} descriptions, {:.1} MB",
        texts.len(),
        bytes as f64 / 1e6
    );

    let manager = TokenizerManager::default();
    register(&manager, &Registry::global());
    same_as_unfused(&manager, &texts);
    let mut analyzers = vec![(
        "tantivy simple+lowercase".to_string(),
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .build(),
    )];
    for name in ["standard", "english"] {
        let a = manager.get(name).expect("analyzer");
        analyzers.push((format!("quarry {name}"), a));
    }
    // Rounds alternate between the analyzers and each keeps its best, so a burst of load from
    // other processes weighs on all of them alike rather than on whichever ran during it.
    let mut best = vec![f64::MAX; analyzers.len()];
    let mut odd = vec![0usize; analyzers.len()];
    for _ in 0..rounds {
        for (i, (_, a)) in analyzers.iter_mut().enumerate() {
            let mut tokens = 0usize;
            let (wall, cpu) = (Instant::now(), cpu_seconds());
            for text in &texts {
                let mut s = a.token_stream(text);
                while s.advance() {
                    tokens += s.token().text.len() & 1;
                }
            }
            let spent = match (cpu, cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => wall.elapsed().as_secs_f64(),
            };
            best[i] = best[i].min(spent);
            odd[i] = tokens;
        }
    }
    let mbs: Vec<f64> = best.iter().map(|b| bytes as f64 / 1e6 / b).collect();
    for (i, (name, _)) in analyzers.iter().enumerate() {
        println!(
            "{name:<28} {:8.1} MB/s  ({} odd-length tokens)",
            mbs[i], odd[i]
        );
        if i > 0 {
            println!("{:<28} {:8.2}x of baseline", "", mbs[i] / mbs[0]);
        }
    }
}

/// The fused, memoized `english` gives every text the tokens of its four filters run one
/// after another (the chain the compat scenarios check against OpenSearch), so the speed
/// measured is that of exact tokens. This also fills the thread's memo, as a corpus being
/// indexed would.
fn same_as_unfused(manager: &TokenizerManager, texts: &[String]) {
    let settings = serde_json::json!({
        "index.analysis.analyzer.unfused.tokenizer": "standard",
        "index.analysis.analyzer.unfused.filter": ["poss", "lowercase", "stop", "porter_stem"],
        "index.analysis.filter.poss.type": "stemmer",
        "index.analysis.filter.poss.language": "possessive_english",
    });
    let flat = serde_json::from_value(settings).expect("settings");
    let unfused = TokenizerManager::default();
    register(&unfused, &Registry::from_settings(&flat).expect("registry"));
    let run = |mut a: TextAnalyzer, text: &str| {
        let mut s = a.token_stream(text);
        let mut out = Vec::new();
        while s.advance() {
            let t = s.token();
            out.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
        }
        out
    };
    for text in texts {
        let want = run(unfused.get("unfused").expect("unfused"), text);
        let got = run(manager.get("english").expect("english"), text);
        assert_eq!(
            got, want,
            "english differs from its unfused chain on {text:?}"
        );
    }
}

/// This thread's CPU time so far, in seconds.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}
