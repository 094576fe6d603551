//! Analysis throughput, single core, on the Debian package descriptions: Quarry's `standard`
//! and `english` analyzers (Lucene-exact token stream, through the tantivy tokenizer bridge)
//! against tantivy's own `SimpleTokenizer` + `LowerCaser` in the same run.
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
    let mut baseline = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(LowerCaser)
        .build();
    let run = |name: &str, a: &mut TextAnalyzer| -> f64 {
        let mut best = f64::MAX;
        let mut tokens = 0usize;
        for _ in 0..rounds {
            tokens = 0;
            let t = Instant::now();
            for text in &texts {
                let mut s = a.token_stream(text);
                while s.advance() {
                    tokens += s.token().text.len() & 1;
                }
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        let mbs = bytes as f64 / 1e6 / best;
        println!("{name:<28} {mbs:8.1} MB/s  ({tokens} odd-length tokens)");
        mbs
    };
    let base = run("tantivy simple+lowercase", &mut baseline);
    for name in ["standard", "english"] {
        let mut a = manager.get(name).expect("analyzer");
        let mbs = run(&format!("quarry {name}"), &mut a);
        println!("{:<28} {:8.2}x of baseline", "", mbs / base);
    }
}
