//! Searches across shards and indices through the engine's API: dfs_query_then_fetch against a
//! one-shard twin, shard failures and partial results, timeout, and a page of hits printed byte
//! for byte. A binary of its own, since the nodes it opens run the scheduler, whose process-wide
//! state unit tests check.

use quarry_engine::{execute, Node, NodeConfig, Params};
use serde_json::{json, Value};
use std::sync::Arc;

fn node(dir: &tempfile::TempDir) -> Arc<Node> {
    Node::open(NodeConfig {
        data_path: dir.path().to_path_buf(),
        node_name: "n".into(),
        cluster_name: "c".into(),
        auto_create_index: "true".into(),
        host: "127.0.0.1".into(),
    })
    .unwrap()
}

fn call(node: &Node, action: &str, params: Value, body: Option<Value>) -> (u16, Value) {
    let Value::Object(m) = params else {
        panic!("params")
    };
    let body = body.map(|b| serde_json::to_vec(&b).unwrap());
    match execute(node, action, &Params(m), body.as_deref()) {
        Ok(r) => (r.status, serde_json::from_slice(&r.body).unwrap()),
        Err(e) => (e.status(), e.to_json()),
    }
}

fn create(node: &Node, index: &str, shards: u32, properties: Value) {
    let (status, body) = call(
        node,
        "indices:admin/create",
        json!({"index": index}),
        Some(json!({
            "settings": {"number_of_shards": shards},
            "mappings": {"properties": properties},
        })),
    );
    assert_eq!(status, 200, "{body}");
}

fn put(node: &Node, index: &str, id: &str, routing: &str, doc: Value) {
    let (status, body) = call(
        node,
        "indices:data/write/index",
        json!({"index": index, "id": id, "routing": routing, "refresh": "true"}),
        Some(doc),
    );
    assert!(status < 300, "{body}");
}

fn scores(body: &Value) -> Vec<(String, f64)> {
    body["hits"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["_id"].as_str().unwrap().to_string(),
                h["_score"].as_f64().unwrap(),
            )
        })
        .collect()
}

const TEXTS: [&str; 8] = [
    "quick brown fox",
    "quick quick dog",
    "lazy brown dog jumps",
    "the quick brown fox jumps over the lazy dog",
    "fox",
    "brown brown brown",
    "quick foxes jump",
    "a dog and a fox",
];

/// The same documents in a 1-shard index and spread over a 3-shard one by routing.
fn twin_indices(node: &Node) {
    for (name, shards) in [("one", 1), ("three", 3)] {
        create(
            node,
            name,
            shards,
            json!({"t": {"type": "text"}, "u": {"type": "text"}}),
        );
        for (i, t) in TEXTS.iter().enumerate() {
            put(
                node,
                name,
                &i.to_string(),
                &format!("r{i}"),
                json!({"t": t, "u": TEXTS[(i + 3) % TEXTS.len()]}),
            );
        }
    }
}

fn search(node: &Node, params: Value, body: Value) -> (u16, Value) {
    call(node, "indices:data/read/search", params, Some(body))
}

#[test]
fn dfs_scores_a_sharded_index_as_one_shard() {
    let dir = tempfile::tempdir().unwrap();
    let node = node(&dir);
    twin_indices(&node);
    // Queries whose terms do not depend on the shard (expansions and blends are made per
    // shard, before the statistics are gathered, as OpenSearch rewrites them).
    let queries = [
        json!({"match": {"t": "quick fox"}}),
        json!({"match_phrase": {"t": "brown fox"}}),
        json!({"match_phrase": {"t": {"query": "quick fox", "slop": 3}}}),
        json!({"multi_match": {"query": "lazy dog", "fields": ["t", "u^2"]}}),
        json!({"bool": {"should": [{"term": {"t": "dog"}}, {"match": {"u": "fox"}}]}}),
    ];
    let mut differs = false;
    for q in queries {
        let body = json!({"query": q, "size": 20});
        let (s1, one) = search(&node, json!({"index": "one"}), body.clone());
        let (s3, three) = search(
            &node,
            json!({"index": "three", "search_type": "dfs_query_then_fetch"}),
            body.clone(),
        );
        assert_eq!((s1, s3), (200, 200), "{one} {three}");
        let mut a = scores(&one);
        let mut b = scores(&three);
        a.sort_by(|x, y| x.0.cmp(&y.0));
        b.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(a, b, "{q}");
        let (_, local) = search(&node, json!({"index": "three"}), body);
        let mut c = scores(&local);
        c.sort_by(|x, y| x.0.cmp(&y.0));
        differs |= c != a;
    }
    // Without DFS the shards' own statistics give other scores.
    assert!(differs);
}

#[test]
fn dfs_sums_statistics_across_indices_and_explains_them() {
    let dir = tempfile::tempdir().unwrap();
    let node = node(&dir);
    twin_indices(&node);
    let body = json!({"query": {"match": {"t": "fox"}}, "explain": true, "size": 1});
    let (status, r) = search(
        &node,
        json!({"index": "one,three", "search_type": "dfs_query_then_fetch"}),
        body,
    );
    assert_eq!(status, 200, "{r}");
    let idf = &r["hits"]["hits"][0]["_explanation"]["details"][0]["details"][1];
    // "fox" is in 4 of the 8 documents of each index: 8 of 16 over both (longs, as Lucene
    // gives them).
    assert_eq!(idf["details"][0]["value"], json!(8), "{idf}");
    assert_eq!(idf["details"][1]["value"], json!(16), "{idf}");
}

#[test]
fn shard_failures_leave_the_other_indices_answer() {
    let dir = tempfile::tempdir().unwrap();
    let node = node(&dir);
    create(&node, "kw", 1, json!({"n": {"type": "keyword"}}));
    create(&node, "num", 2, json!({"n": {"type": "long"}}));
    put(&node, "kw", "1", "a", json!({"n": "x"}));
    put(&node, "num", "1", "a", json!({"n": 1}));
    let q = json!({"query": {"term": {"n": "x"}}});
    let (status, r) = search(&node, json!({"index": "kw,num"}), q.clone());
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["_shards"]["total"], 3);
    assert_eq!(r["_shards"]["successful"], 1);
    assert_eq!(r["_shards"]["failed"], 2);
    let failures = r["_shards"]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "grouped: {r}");
    assert_eq!(failures[0]["index"], "num");
    assert_eq!(failures[0]["shard"], 0);
    assert_eq!(failures[0]["reason"]["type"], "query_shard_exception");
    assert_eq!(r["hits"]["total"]["value"], 1);

    let (status, r) = search(
        &node,
        json!({"index": "kw,num", "allow_partial_search_results": "false"}),
        q.clone(),
    );
    assert_eq!(status, 400, "{r}");
    assert_eq!(r["reason"], "Partial shards failure");
    assert_eq!(r["phase"], "query");

    let (status, r) = search(&node, json!({"index": "num"}), q.clone());
    assert_eq!(status, 400, "{r}");
    assert_eq!(r["reason"], "all shards failed");
    assert_eq!(r["failed_shards"].as_array().unwrap().len(), 1);

    let (status, r) = call(
        &node,
        "indices:data/read/count",
        json!({"index": "kw,num"}),
        Some(q),
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["count"], 1);
    assert_eq!(r["_shards"]["failed"], 2);
}

#[test]
fn timeout_returns_what_was_collected() {
    let dir = tempfile::tempdir().unwrap();
    let node = node(&dir);
    create(&node, "big", 1, json!({"t": {"type": "text"}}));
    let mut lines = String::new();
    for i in 0..5000 {
        lines.push_str(&format!(
            "{{\"index\":{{\"_id\":\"{i}\"}}}}\n{{\"t\":\"w{} common\"}}\n",
            i % 7
        ));
    }
    let r = execute(
        &node,
        "indices:data/write/bulk",
        &Params(
            json!({"index": "big", "refresh": "true"})
                .as_object()
                .unwrap()
                .clone(),
        ),
        Some(lines.as_bytes()),
    )
    .unwrap();
    assert_eq!(r.status, 200);
    let q = json!({"query": {"match": {"t": "common"}}, "track_total_hits": true});
    let (status, r) = search(&node, json!({"index": "big", "timeout": "1m"}), q.clone());
    assert_eq!(status, 200);
    assert_eq!(r["timed_out"], false);
    assert_eq!(r["hits"]["total"]["value"], 5000);
    // A deadline that has passed before collection starts: nothing is collected.
    let (status, r) = search(
        &node,
        json!({"index": "big", "timeout": "1nanos"}),
        q.clone(),
    );
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["timed_out"], true);
    assert!(r["hits"]["total"]["value"].as_u64().unwrap() < 5000, "{r}");
    assert_eq!(r["_shards"]["failed"], 0);
    let (status, r) = search(
        &node,
        json!({"index": "big", "timeout": "1nanos", "allow_partial_search_results": "false"}),
        q,
    );
    assert_eq!(status, 500, "{r}");
    assert_eq!(r["type"], "search_phase_execution_exception");
    assert_eq!(
        r["failed_shards"][0]["reason"]["type"],
        "query_phase_execution_exception"
    );
    assert_eq!(r["failed_shards"][0]["reason"]["reason"], "Time exceeded");
}

/// The response body of a search as its bytes, `took` zeroed.
fn search_text(node: &Node, index: &str, body: Value) -> String {
    let Value::Object(params) = json!({"index": index}) else {
        panic!("params")
    };
    let body = serde_json::to_vec(&body).unwrap();
    let r = execute(
        node,
        "indices:data/read/search",
        &Params(params),
        Some(&body),
    )
    .unwrap();
    let text = String::from_utf8(r.body).unwrap();
    let took = text.find(",\"timed_out\"").unwrap();
    format!("{{\"took\":0{}", &text[took..])
}

#[test]
fn hits_print_stored_sources_as_sent_and_each_section_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let node = node(&dir);
    create(
        &node,
        "r",
        1,
        json!({"t": {"type": "text"}, "k": {"type": "keyword"}, "n": {"type": "long"}}),
    );
    // Sources sent as text: their spacing, escapes and key order are what a hit prints.
    let sources = [
        (
            "a\"1",
            Some("x"),
            r#"{ "t" : "quick \"brown\" fox \u00e9", "n" : 7, "k":"\u00e9\n" }"#,
        ),
        ("b", None, "{\"n\":[1, 2],\"t\":\"lazy fox\"}"),
    ];
    for (id, routing, source) in sources {
        let mut params = json!({"index": "r", "id": id, "refresh": "true"});
        if let Some(r) = routing {
            params["routing"] = json!(r);
        }
        let Value::Object(params) = params else {
            panic!("params")
        };
        let r = execute(
            &node,
            "indices:data/write/index",
            &Params(params),
            Some(source.as_bytes()),
        )
        .unwrap();
        assert!(r.status < 300);
    }
    let plain = search_text(&node, "r", json!({"query": {"match": {"t": "fox"}}}));
    assert_eq!(plain, PLAIN);
    let sections = search_text(
        &node,
        "r",
        json!({
            "query": {"match": {"t": {"query": "fox", "_name": "q"}}},
            "version": true,
            "seq_no_primary_term": true,
            "_source": ["t"],
            "docvalue_fields": ["k", "_id", "_index"],
            "fields": ["n"],
            "highlight": {"fields": {"t": {}}},
            "sort": ["_score", {"n": "asc"}],
            "track_scores": true,
        }),
    );
    assert_eq!(sections, SECTIONS);
    let explained = search_text(
        &node,
        "r",
        json!({"query": {"match": {"t": "lazy"}}, "explain": true, "stored_fields": "_none_"}),
    );
    let after_source = explained.find(r#""_score":"#).unwrap();
    let order: Vec<usize> = [r#""_shard":"[r][0]""#, r#""_node":"#, r#""_explanation":{"#]
        .iter()
        .map(|key| after_source + explained[after_source..].find(key).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{explained}");
    assert!(!explained.contains(r#""_id""#), "{explained}");
}

const PLAIN: &str = r#"{"took":0,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":2,"relation":"eq"},"max_score":0.21110919,"hits":[{"_index":"r","_id":"b","_score":0.21110919,"_source":{"n":[1, 2],"t":"lazy fox"}},{"_index":"r","_id":"a\"1","_score":0.160443,"_routing":"x","_source":{ "t" : "quick \"brown\" fox \u00e9", "n" : 7, "k":"\u00e9\n" }}]}}"#;

const SECTIONS: &str = r#"{"took":0,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":2,"relation":"eq"},"max_score":0.21110919,"hits":[{"_index":"r","_id":"b","_version":1,"_seq_no":1,"_primary_term":1,"_score":0.21110919,"_source":{"t":"lazy fox"},"matched_queries":["q"],"fields":{"n":[1,2],"_id":["b"],"_index":["r"]},"highlight":{"t":["lazy <em>fox</em>"]},"sort":[0.21110919,1]},{"_index":"r","_id":"a\"1","_version":1,"_seq_no":0,"_primary_term":1,"_score":0.160443,"_routing":"x","_source":{"t":"quick \"brown\" fox é"},"matched_queries":["q"],"fields":{"n":[7],"k":["é\n"],"_id":["a\"1"],"_index":["r"]},"highlight":{"t":["quick \"brown\" <em>fox</em> é"]},"sort":[0.160443,7]}]}}"#;
