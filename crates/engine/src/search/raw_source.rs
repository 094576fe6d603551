//! Stored `_source` bytes go into a search response as they are, as OpenSearch writes them, and
//! as `_doc` already does: parsing every hit's source into a `Value` only to serialize it again
//! was the largest CPU cost of a page of hits. A hit holds a placeholder string in its place;
//! the rendered response has each placeholder replaced by its bytes.

use serde_json::Value;
use std::sync::OnceLock;

/// A per-process random tag: no stored text can name a placeholder it has never seen.
fn tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| {
        let bytes: [u8; 16] = rand::random();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("quarry-raw-source:{hex}:")
    })
}

/// The value standing for the `index`-th raw source of a response.
pub fn placeholder(index: usize) -> Value {
    Value::String(format!("{}{index}", tag()))
}

/// Which raw source `v` stands for, if it is a placeholder.
pub fn index_of(v: &Value) -> Option<usize> {
    v.as_str()?.strip_prefix(tag())?.parse().ok()
}

/// `body` (a serialized response) with every placeholder replaced by its source's bytes.
pub fn splice(body: Vec<u8>, sources: &[Vec<u8>]) -> Vec<u8> {
    if sources.is_empty() {
        return body;
    }
    let finder = marker();
    let marker = finder.needle();
    let mut out = Vec::with_capacity(body.len() + sources.iter().map(Vec::len).sum::<usize>());
    let mut at = 0;
    while let Some(found) = finder.find(&body[at..]) {
        let start = at + found;
        let digits = start + marker.len();
        let end = digits
            + body[digits..]
                .iter()
                .position(|&b| b == b'"')
                .expect("a placeholder ends with a quote");
        let index: usize = std::str::from_utf8(&body[digits..end])
            .ok()
            .and_then(|s| s.parse().ok())
            .expect("a placeholder carries its index");
        out.extend_from_slice(&body[at..start]);
        out.extend_from_slice(&sources[index]);
        at = end + 1;
    }
    out.extend_from_slice(&body[at..]);
    out
}

/// A placeholder's opening quote and tag, searched with memchr's two-way finder: a comparison
/// at every offset was most of a 100-hit page's splice. Built once: building it per search
/// (`memmem::find` does) cost as much as the searching.
fn marker() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    FINDER
        .get_or_init(|| memchr::memmem::Finder::new(format!("\"{}", tag()).as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_become_the_stored_bytes() {
        let sources = vec![br#"{"b": 1, "a" : [2]}"#.to_vec(), b"{}".to_vec()];
        let response = json!({"hits": [
            {"_id": "1", "_source": placeholder(0)},
            {"_id": "2", "_source": placeholder(1), "x": "quarry-raw-source:"},
        ]});
        let out = splice(serde_json::to_vec(&response).unwrap(), &sources);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"hits":[{"_id":"1","_source":{"b": 1, "a" : [2]}},{"_id":"2","_source":{},"x":"quarry-raw-source:"}]}"#
        );
    }

    #[test]
    fn a_placeholder_names_its_source_and_nothing_else_does() {
        assert_eq!(index_of(&placeholder(7)), Some(7));
        assert_eq!(index_of(&json!("quarry-raw-source:7")), None);
        assert_eq!(index_of(&json!({"a": 1})), None);
    }
}
