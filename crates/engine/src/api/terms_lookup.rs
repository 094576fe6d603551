//! `terms` lookups, resolved before a query runs, as OpenSearch's coordinating rewrite does: the
//! values at the lookup's `path` in the `_source` of the document it names (read in real time,
//! so an unrefreshed write counts), or `match_none` where there are none.

use super::document::{current_doc, resolve_single};
use crate::dsl::{terms::TermsLookup, Query};
use crate::error::{Error, Result};
use crate::node::Node;
use crate::search::request::SearchRequest;
use serde_json::Value;
use std::collections::HashMap;

/// Replaces every `terms` lookup in `q` with the values it reads.
pub fn resolve(node: &Node, q: &mut Query) -> Result<()> {
    Lookups::new(node).resolve(q)
}

/// Every lookup of a search request: its query, post filter, named queries and highlight
/// queries (a named query repeats its lookups: each document is read once).
pub fn resolve_request(node: &Node, req: &mut SearchRequest) -> Result<()> {
    let mut lookups = Lookups::new(node);
    lookups.resolve(&mut req.query)?;
    if let Some(q) = &mut req.post_filter {
        lookups.resolve(q)?;
    }
    for (_, q) in &mut req.named {
        lookups.resolve(q)?;
    }
    if let Some(h) = &mut req.highlight {
        let h = std::sync::Arc::make_mut(h);
        for o in std::iter::once(&mut h.global).chain(h.fields.iter_mut().map(|(_, o)| o)) {
            if let Some(q) = &mut o.highlight_query {
                lookups.resolve(q)?;
            }
        }
    }
    Ok(())
}

/// One request's lookups, each read once.
struct Lookups<'a> {
    node: &'a Node,
    read: HashMap<TermsLookup, Vec<Value>>,
}

impl<'a> Lookups<'a> {
    fn new(node: &'a Node) -> Self {
        Lookups {
            node,
            read: HashMap::new(),
        }
    }

    fn resolve(&mut self, q: &mut Query) -> Result<()> {
        q.for_each_mut(&mut |q| {
            let Query::Terms {
                values,
                lookup,
                boost,
                ..
            } = q
            else {
                return Ok(());
            };
            let Some(l) = lookup.take() else {
                return Ok(());
            };
            *values = match self.read.get(l.as_ref()) {
                Some(v) => v.clone(),
                None => {
                    let v = fetch(self.node, &l)?;
                    self.read.insert(*l, v.clone());
                    v
                }
            };
            if values.is_empty() {
                // `TermsQueryBuilder.doRewrite`: no terms match nothing.
                *q = Query::MatchNone { boost: *boost };
            }
            Ok(())
        })
    }
}

/// The lookup's values: none where the document or the path is missing.
fn fetch(node: &Node, l: &TermsLookup) -> Result<Vec<Value>> {
    let svc = resolve_single(node, &l.index, false)?;
    let Some(doc) = current_doc(&svc, &l.id, l.routing.as_deref())? else {
        return Ok(Vec::new());
    };
    let source = doc.source.expect("a live document has a source");
    let source: Value =
        serde_json::from_slice(&source).map_err(|e| Error::internal(e.to_string()))?;
    let parts: Vec<&str> = l.path.split('.').collect();
    let mut out = Vec::new();
    extract(&source, &parts, &mut out);
    Ok(out)
}

/// `XContentMapValues.extractRawValues`: the values under `path` through objects and arrays
/// (a key may itself hold dots), arrays at the end flattened; objects are not values.
fn extract(v: &Value, path: &[&str], out: &mut Vec<Value>) {
    match v {
        Value::Array(items) => {
            for it in items {
                extract(it, path, out);
            }
        }
        Value::Object(map) if !path.is_empty() => {
            for n in 1..=path.len() {
                if let Some(inner) = map.get(&path[..n].join(".")) {
                    extract(inner, &path[n..], out);
                }
            }
        }
        Value::Object(_) | Value::Null => {}
        scalar if path.is_empty() => out.push(scalar.clone()),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values(source: Value, path: &str) -> Vec<Value> {
        let parts: Vec<&str> = path.split('.').collect();
        let mut out = Vec::new();
        extract(&source, &parts, &mut out);
        out
    }

    #[test]
    fn reads_values_through_objects_and_arrays() {
        let doc = json!({
            "ids": ["a", "b", null, ["c"]],
            "objs": [{"k": "x"}, {"k": ["y", 1]}, {"j": "z"}],
            "a.b": 7,
            "o": {"v": {"w": 1}},
        });
        assert_eq!(
            values(doc.clone(), "ids"),
            [json!("a"), json!("b"), json!("c")]
        );
        assert_eq!(
            values(doc.clone(), "objs.k"),
            [json!("x"), json!("y"), json!(1)]
        );
        assert_eq!(values(doc.clone(), "a.b"), [json!(7)]);
        assert!(values(doc.clone(), "o").is_empty());
        assert!(values(doc.clone(), "o.v").is_empty());
        assert!(values(doc, "missing").is_empty());
    }
}
