//! One hit of a page, kept in typed form until the response is written: the fields every hit
//! prints are written straight into the response buffer, and an unfiltered `_source` goes in as
//! its stored bytes. Building each hit as a `Value` map (hashing its keys, cloning its strings,
//! formatting a placeholder for the source and searching the serialized page for it again) cost
//! more than reading the hits from the store.

use super::ScoreWriter;
use serde_json::{Map, Value};
use std::sync::Arc;

/// The `_source` of a hit.
#[derive(Debug, Clone, PartialEq)]
pub enum HitSource {
    /// Not asked for, or not stored: the hit prints no `_source`.
    Absent,
    /// The stored bytes, printed as they are (as OpenSearch and `_doc` print them).
    Stored(Vec<u8>),
    /// What `_source` filtering kept.
    Filtered(Value),
}

/// A hit of the page, its fields in the order OpenSearch prints them.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Shared by the hits of one shard.
    pub index: Arc<str>,
    /// `None` under `stored_fields: _none_`.
    pub id: Option<String>,
    /// `Some` when `version` is asked for: the stored version, if any.
    pub version: Option<Option<i64>>,
    /// `Some` when `seq_no_primary_term` is asked for.
    pub seq_no_primary_term: Option<(Option<i64>, Option<i64>)>,
    /// `None` when the search does not score: `_score` prints `null`.
    pub score: Option<f32>,
    pub routing: Option<String>,
    pub source: HitSource,
    /// What follows `_source`, in order: `matched_queries`, `fields`, `highlight`, `sort` and
    /// explain's `_shard`, `_node` and `_explanation`.
    pub rest: Map<String, Value>,
}

impl Hit {
    /// The hit as a JSON object, appended to `out`: the same bytes as serializing the hit's
    /// `Value` map with its source spliced in.
    pub fn write_json(&self, out: &mut Vec<u8>, scores: &mut ScoreWriter) {
        out.extend_from_slice(b"{\"_index\":");
        write_str(out, &self.index);
        if let Some(id) = &self.id {
            out.extend_from_slice(b",\"_id\":");
            write_str(out, id);
        }
        if let Some(version) = self.version {
            out.extend_from_slice(b",\"_version\":");
            write_opt_i64(out, version);
        }
        if let Some((seq_no, primary_term)) = self.seq_no_primary_term {
            out.extend_from_slice(b",\"_seq_no\":");
            write_opt_i64(out, seq_no);
            out.extend_from_slice(b",\"_primary_term\":");
            write_opt_i64(out, primary_term);
        }
        out.extend_from_slice(b",\"_score\":");
        match self.score {
            Some(s) => scores.write(out, s),
            None => out.extend_from_slice(b"null"),
        }
        if let Some(routing) = &self.routing {
            out.extend_from_slice(b",\"_routing\":");
            write_str(out, routing);
        }
        match &self.source {
            HitSource::Absent => {}
            HitSource::Stored(bytes) => {
                out.extend_from_slice(b",\"_source\":");
                out.extend_from_slice(bytes);
            }
            HitSource::Filtered(v) => {
                out.extend_from_slice(b",\"_source\":");
                write_value(out, v);
            }
        }
        for (key, value) in &self.rest {
            out.push(b',');
            write_str(out, key);
            out.push(b':');
            write_value(out, value);
        }
        out.push(b'}');
    }
}

/// A JSON string, escaped as serde_json escapes it.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(out, s).expect("a string serializes");
}

pub(crate) fn write_value(out: &mut Vec<u8>, v: &Value) {
    serde_json::to_writer(out, v).expect("a JSON value serializes");
}

fn write_opt_i64(out: &mut Vec<u8>, n: Option<i64>) {
    match n {
        Some(n) => serde_json::to_writer(out, &n).expect("an integer serializes"),
        None => out.extend_from_slice(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn plain() -> Hit {
        Hit {
            index: "logs".into(),
            id: Some("1".into()),
            version: None,
            seq_no_primary_term: None,
            score: Some(0.287_682_1),
            routing: None,
            source: HitSource::Stored(br#"{"b": 1, "a" : [2]}"#.to_vec()),
            rest: Map::new(),
        }
    }

    /// The bytes the hit printed as before: its `Value` map serialized, the stored source in
    /// place of its placeholder.
    fn as_value_map(hit: &Hit) -> Vec<u8> {
        let mut m = Map::new();
        m.insert("_index".into(), json!(&*hit.index));
        if let Some(id) = &hit.id {
            m.insert("_id".into(), json!(id));
        }
        if let Some(v) = hit.version {
            m.insert("_version".into(), json!(v));
        }
        if let Some((s, t)) = hit.seq_no_primary_term {
            m.insert("_seq_no".into(), json!(s));
            m.insert("_primary_term".into(), json!(t));
        }
        m.insert(
            "_score".into(),
            hit.score.map_or(Value::Null, crate::search::score_json),
        );
        if let Some(r) = &hit.routing {
            m.insert("_routing".into(), json!(r));
        }
        let marker = "\u{1}source\u{1}";
        let stored = match &hit.source {
            HitSource::Absent => None,
            HitSource::Stored(b) => {
                m.insert("_source".into(), json!(marker));
                Some(b)
            }
            HitSource::Filtered(v) => {
                m.insert("_source".into(), v.clone());
                None
            }
        };
        m.extend(hit.rest.clone());
        let text = serde_json::to_string(&Value::Object(m)).unwrap();
        let quoted = serde_json::to_string(marker).unwrap();
        match stored {
            Some(b) => text
                .replace(&quoted, std::str::from_utf8(b).unwrap())
                .into_bytes(),
            None => text.into_bytes(),
        }
    }

    fn written(hit: &Hit) -> String {
        let mut out = Vec::new();
        hit.write_json(&mut out, &mut ScoreWriter::default());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_plain_hit_prints_its_stored_source_verbatim() {
        let hit = plain();
        assert_eq!(
            written(&hit),
            r#"{"_index":"logs","_id":"1","_score":0.2876821,"_source":{"b": 1, "a" : [2]}}"#
        );
        assert_eq!(written(&hit).into_bytes(), as_value_map(&hit));
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let hit = Hit {
            index: "in\"dex".into(),
            id: Some("a\\b\u{7}\n\u{e9}\u{2028}".into()),
            routing: Some("r\t\"".into()),
            ..plain()
        };
        assert_eq!(
            written(&hit),
            "{\"_index\":\"in\\\"dex\",\"_id\":\"a\\\\b\\u0007\\n\u{e9}\u{2028}\",\"_score\":0.2876821,\"_routing\":\"r\\t\\\"\",\"_source\":{\"b\": 1, \"a\" : [2]}}"
        );
        assert_eq!(written(&hit).into_bytes(), as_value_map(&hit));
    }

    #[test]
    fn every_optional_field_prints_where_the_value_map_had_it() {
        let mut rest = Map::new();
        rest.insert("matched_queries".into(), json!(["q1"]));
        rest.insert("fields".into(), json!({"n": [1.5]}));
        rest.insert("highlight".into(), json!({"t": ["<em>a</em>"]}));
        rest.insert("sort".into(), json!([3, "x"]));
        rest.insert("_shard".into(), json!("[logs][0]"));
        rest.insert("_node".into(), json!("n1"));
        rest.insert("_explanation".into(), json!({"value": 1.0}));
        let hit = Hit {
            id: None,
            version: Some(Some(3)),
            seq_no_primary_term: Some((Some(7), None)),
            score: None,
            routing: Some("r".into()),
            source: HitSource::Filtered(json!({"a": {"b": null}})),
            rest,
            ..plain()
        };
        assert_eq!(
            written(&hit),
            r#"{"_index":"logs","_version":3,"_seq_no":7,"_primary_term":null,"_score":null,"_routing":"r","_source":{"a":{"b":null}},"matched_queries":["q1"],"fields":{"n":[1.5]},"highlight":{"t":["<em>a</em>"]},"sort":[3,"x"],"_shard":"[logs][0]","_node":"n1","_explanation":{"value":1.0}}"#
        );
        assert_eq!(written(&hit).into_bytes(), as_value_map(&hit));
    }

    #[test]
    fn no_source_prints_none_and_an_unscorable_score_prints_null() {
        for score in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let hit = Hit {
                score: Some(score),
                source: HitSource::Absent,
                ..plain()
            };
            assert_eq!(
                written(&hit),
                r#"{"_index":"logs","_id":"1","_score":null}"#
            );
            assert_eq!(written(&hit).into_bytes(), as_value_map(&hit));
        }
    }
}
