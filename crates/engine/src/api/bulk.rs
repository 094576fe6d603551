//! `_bulk`: NDJSON action/source pairs, executed in order, batched per index, each item with its
//! own status and error.

use super::document::UpdateRequest;
use super::document::{
    after_write, parse_update, preconditions, refresh_param, resolve_single, run_update,
    update_response, validate_id, write_response, Refresh,
};
use super::json_writer::ObjectWriter;
use super::source_filter::SourceFilter;
use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::{DocWrite, IndexService};
use crate::index::shard::OpResult;
use crate::index::source_tree::Json;
use crate::metadata::blocks::{self, Level};
use crate::node::Node;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// A body that is not JSON, as Jackson reports it: end-of-input or a parse error.
pub(super) fn json_error(e: &serde_json::Error, body: &[u8]) -> Error {
    match crate::util::json_syntax::describe(body) {
        Some(syntax) => syntax_error(&syntax),
        // serde refused something that is well-formed JSON (e.g. a number out of range).
        None => Error::new(ErrorKind::JsonParse, e.to_string()),
    }
}

pub(super) fn syntax_error(syntax: &crate::util::json_syntax::SyntaxError) -> Error {
    let kind = if syntax.eof {
        ErrorKind::JsonEof
    } else {
        ErrorKind::JsonParse
    };
    Error::new(kind, syntax.message.clone())
}

/// A malformed body of an API parsed by one of OpenSearch's object parsers (`_aliases`,
/// `_update`): `[line:col] [parser] failed to parse field [f]` caused by the parser's error.
pub(super) fn object_parser_error(parser: &str, body: &[u8], e: &serde_json::Error) -> Error {
    let Some(syntax) = crate::util::json_syntax::describe(body) else {
        return json_error(e, body);
    };
    let cause = syntax_error(&syntax);
    match &syntax.top_field {
        Some(field) => {
            let (line, col) = syntax.last_token;
            Error::new(
                ErrorKind::XContentParse,
                format!("[{line}:{col}] [{parser}] failed to parse field [{field}]"),
            )
            .caused_by(cause)
        }
        None => cause,
    }
}

/// Request bodies that must be a JSON object (index create, mappings, settings).
pub(super) fn content_to_map_error(e: &serde_json::Error, body: &[u8]) -> Error {
    Error::new(ErrorKind::Parse, "Failed to parse content to map").caused_by(json_error(e, body))
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Index,
    Create,
    Update,
    Delete,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Index => "index",
            Kind::Create => "create",
            Kind::Update => "update",
            Kind::Delete => "delete",
        }
    }
}

/// One action of a bulk: from a line pair of the body, or built by a bulk-by-scroll batch.
pub(super) struct Item {
    pub(super) kind: Kind,
    pub(super) index: String,
    pub(super) id: Option<String>,
    pub(super) routing: Option<String>,
    pub(super) meta: Map<String, Value>,
    /// The source line, copied out of the body once and shared from then on.
    pub(super) source: Option<Arc<Vec<u8>>>,
    /// An update item's body, parsed while the request is validated.
    pub(super) update: Option<UpdateRequest>,
}

/// One item's outcome, rendered only where `_bulk` answers (a bulk-by-scroll batch counts them).
pub(super) enum Outcome {
    /// An index, create or delete the shard applied.
    Written(Arc<IndexService>, OpResult),
    /// An update's rendered answer.
    Updated(Vec<u8>),
    /// Refused: the index and id the item reports, and why.
    Failed(String, Option<String>, Error),
}

/// OpenSearch validates every item before running any: a bad one fails the whole request.
pub(super) fn validate(items: &mut [Item]) -> Result<()> {
    let mut errors = Vec::new();
    for item in items.iter_mut() {
        match &item.id {
            None if matches!(item.kind, Kind::Delete | Kind::Update) => {
                errors.push("id is missing".to_string())
            }
            Some(id) if id.len() > 512 => errors.push(format!(
                "id [{id}] is too long, must be no longer than 512 bytes but was: {}",
                id.len()
            )),
            _ => {}
        }
        if item.kind == Kind::Update {
            let src = item
                .source
                .as_deref()
                .map(Vec::as_slice)
                .unwrap_or_default();
            let v: Value = serde_json::from_slice(src).map_err(|e| json_error(&e, src))?;
            item.update = Some(parse_update(&v, src)?);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(super::document::validation(&errors))
    }
}

fn lines(body: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut n = 0;
    for (i, &b) in body.iter().enumerate() {
        if b == b'\n' {
            n += 1;
            out.push((n, &body[start..i]));
            start = i + 1;
        }
    }
    if start < body.len() {
        n += 1;
        out.push((n, &body[start..]));
    }
    out
}

fn parse(body: &[u8], default_index: Option<&str>, p: &Params) -> Result<Vec<Item>> {
    if body.last() != Some(&b'\n') {
        return Err(Error::illegal_argument(
            "The bulk request must be terminated by a newline [\\n]",
        ));
    }
    let mut items = Vec::new();
    let mut it = lines(body)
        .into_iter()
        .filter(|(_, l)| !l.iter().all(|b| b.is_ascii_whitespace()));
    while let Some((line_no, line)) = it.next() {
        let action: Value = serde_json::from_slice(line).map_err(|e| json_error(&e, line))?;
        let Value::Object(obj) = action else {
            let found = if action.is_array() {
                "START_ARRAY"
            } else {
                "VALUE_STRING"
            };
            return Err(Error::illegal_argument(format!(
                "Malformed action/metadata line [{line_no}], expected START_OBJECT but found [{found}]"
            )));
        };
        let Some((name, meta)) = obj.into_iter().next() else {
            return Err(Error::illegal_argument(format!("Malformed action/metadata line [{line_no}], expected FIELD_NAME but found [END_OBJECT]")));
        };
        let kind = match name.as_str() {
            "index" => Kind::Index,
            "create" => Kind::Create,
            "update" => Kind::Update,
            "delete" => Kind::Delete,
            other => {
                return Err(Error::illegal_argument(format!(
                    "Malformed action/metadata line [{line_no}], expected one of [create, delete, index, update] but found [{other}]"
                )))
            }
        };
        let Value::Object(meta) = meta else {
            return Err(Error::illegal_argument(format!("Malformed action/metadata line [{line_no}], expected START_OBJECT but found [VALUE_STRING]")));
        };
        for k in meta.keys() {
            const KNOWN: &[&str] = &[
                "_index",
                "_id",
                "routing",
                "_routing",
                "version",
                "version_type",
                "if_seq_no",
                "if_primary_term",
                "retry_on_conflict",
                "pipeline",
                "require_alias",
                "_source",
                "op_type",
                "_type",
            ];
            if !KNOWN.contains(&k.as_str()) {
                return Err(Error::illegal_argument(format!(
                    "Action/metadata line [{line_no}] contains an unknown parameter [{k}]"
                )));
            }
        }
        let index = match meta.get("_index").and_then(Value::as_str).or(default_index) {
            Some(i) => i.to_string(),
            None => return Err(super::document::validation(&["index is missing".into()])),
        };
        let id = match meta.get("_id") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let routing = meta
            .get("routing")
            .or(meta.get("_routing"))
            .and_then(Value::as_str)
            .map(String::from)
            .or(p.str("routing").map(String::from));
        let source = if kind == Kind::Delete {
            None
        } else {
            match it.next() {
                Some((_, l)) => Some(Arc::new(l.to_vec())),
                // OpenSearch drops a trailing action that has no source line.
                None => break,
            }
        };
        items.push(Item {
            kind,
            index,
            id,
            routing,
            meta,
            source,
            update: None,
        });
    }
    validate(&mut items)?;
    if items.is_empty() {
        return Err(super::document::validation(&["no requests added".into()]));
    }
    Ok(items)
}

struct Pending<'a> {
    svc: Arc<IndexService>,
    positions: Vec<usize>,
    writes: Vec<DocWrite<'a>>,
}

pub fn bulk(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let start = Instant::now();
    let body = body
        .filter(|b| !b.is_empty())
        .ok_or_else(|| Error::new(ErrorKind::Parse, "request body is required"))?;
    let refresh = refresh_param(p.str("refresh"))?;
    let items = parse(body, p.str("index"), p)?;
    let outcomes = execute(node, &items, refresh)?;
    let errors = outcomes.iter().any(|o| matches!(o, Outcome::Failed(..)));
    let took = start.elapsed().as_millis() as u64;
    let mut out = Vec::with_capacity(64 + outcomes.len() * 160);
    out.extend_from_slice(format!("{{\"took\":{took},\"errors\":{errors},\"items\":[").as_bytes());
    for (i, (o, item)) in outcomes.into_iter().zip(&items).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&match o {
            Outcome::Written(svc, r) => {
                let status = match r.result {
                    "created" => 201,
                    "not_found" => 404,
                    _ => 200,
                };
                let mut w = ObjectWriter::new();
                write_response(&mut w, &svc.name(), &svc, &r, refresh == Refresh::Immediate);
                w.field("status", &status);
                item_wrap(item.kind, w.finish())
            }
            Outcome::Updated(body) => item_wrap(Kind::Update, body),
            Outcome::Failed(index, id, e) => error_item(item.kind, &index, id.as_deref(), &e),
        });
    }
    out.extend_from_slice(b"]}");
    Ok(Response::bytes(200, out))
}

/// Runs validated items in order, batched per index, each to its own outcome; then refreshes
/// the indices written as `refresh` asks.
pub(super) fn execute(node: &Node, items: &[Item], refresh: Refresh) -> Result<Vec<Outcome>> {
    let mut results: Vec<Option<Outcome>> = (0..items.len()).map(|_| None).collect();
    let mut pending: HashMap<String, Pending> = HashMap::new();
    let mut touched: HashMap<String, Arc<IndexService>> = HashMap::new();

    let flush = |pending: &mut HashMap<String, Pending>,
                 index: Option<&str>,
                 results: &mut Vec<Option<Outcome>>| {
        let keys: Vec<String> = match index {
            Some(i) => vec![i.to_string()],
            None => pending.keys().cloned().collect(),
        };
        for k in keys {
            let Some(batch) = pending.remove(&k) else {
                continue;
            };
            let outcomes = batch.svc.write(batch.writes);
            for (pos, o) in batch.positions.into_iter().zip(outcomes) {
                results[pos] = Some(match o.result {
                    Ok(r) => Outcome::Written(batch.svc.clone(), r),
                    Err(e) => Outcome::Failed(batch.svc.name(), items[pos].id.clone(), e),
                });
            }
        }
    };

    for (pos, item) in items.iter().enumerate() {
        let prepared: Result<()> = (|| {
            if let Some(id) = &item.id {
                validate_id(id)?;
            }
            let svc = match item.kind {
                // Bulk auto-creates indices for every item but deletes, as OpenSearch does.
                Kind::Delete => resolve_single(node, &item.index, true)?,
                _ => node.write_target(&item.index)?,
            };
            let name = svc.name();
            let routing =
                match super::document::alias_routing(&svc, &item.index, item.routing.as_deref()) {
                    Ok(r) => r,
                    // Refused once the alias is resolved: the item names its index.
                    Err(e) => {
                        results[pos] = Some(Outcome::Failed(name, item.id.clone(), e));
                        return Ok(());
                    }
                };
            // A block refuses the item on its shard, after its id was generated.
            if let Err(e) = blocks::check([svc.meta().as_ref()], Level::Write) {
                let id = match (&item.id, item.kind) {
                    (None, Kind::Index | Kind::Create) => Some(crate::util::ids::time_based_id()),
                    (id, _) => id.clone(),
                };
                results[pos] = Some(Outcome::Failed(name, id, e));
                return Ok(());
            }
            touched.insert(name.clone(), svc.clone());
            let m = &item.meta;
            let num = |k: &str| {
                m.get(k).and_then(|v| {
                    v.as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
                })
            };
            let vt = m.get("version_type").and_then(Value::as_str);
            match item.kind {
                Kind::Update => {
                    let Some(id) = &item.id else {
                        return Err(super::document::validation(&["id is missing".into()]));
                    };
                    flush(&mut pending, Some(&name), &mut results);
                    let req = item
                        .update
                        .as_ref()
                        .expect("update items are parsed by validate");
                    let pre = preconditions(
                        None,
                        None,
                        num("if_seq_no"),
                        num("if_primary_term"),
                        false,
                        false,
                    )?;
                    let (r, doc) = run_update(
                        &svc,
                        id,
                        routing.as_deref(),
                        req,
                        num("retry_on_conflict").unwrap_or(0),
                        &pre,
                    )?;
                    let status = if r.result == "created" { 201 } else { 200 };
                    // `_source` in the item's body, or on its action line.
                    let source = match (&req.source, m.get("_source")) {
                        (Some(f), _) => f.clone(),
                        (None, Some(v)) => SourceFilter::from_value(v),
                        (None, None) => None,
                    };
                    let body = update_response(&svc, &r, &doc, source, refresh, Some(status));
                    results[pos] = Some(Outcome::Updated(body));
                }
                Kind::Delete | Kind::Index | Kind::Create => {
                    let create = item.kind == Kind::Create
                        || m.get("op_type").and_then(Value::as_str) == Some("create");
                    let is_delete = item.kind == Kind::Delete;
                    let pre = preconditions(
                        num("version"),
                        vt,
                        num("if_seq_no"),
                        num("if_primary_term"),
                        create && !is_delete,
                        is_delete,
                    )?;
                    let write = if is_delete {
                        let Some(id) = &item.id else {
                            return Err(super::document::validation(&["id is missing".into()]));
                        };
                        DocWrite::Delete {
                            id: id.clone(),
                            routing: routing.clone(),
                            pre,
                        }
                    } else {
                        let src = item.source.clone().unwrap_or_default();
                        // The tree borrows the item's bytes, which outlive the request's writes.
                        let bytes = item.source.as_deref().map_or(&[][..], Vec::as_slice);
                        let tree = match Json::parse_object(bytes) {
                            Some(tree) => tree,
                            // Not one strict JSON object: the single-document parse says why,
                            // in OpenSearch's words.
                            None => Json::from(super::document::parse_source(&src)?),
                        };
                        let id = item
                            .id
                            .clone()
                            .unwrap_or_else(crate::util::ids::time_based_id);
                        DocWrite::IndexTree {
                            id,
                            routing: routing.clone(),
                            source: src,
                            tree,
                            pre,
                        }
                    };
                    let entry = pending.entry(name.clone()).or_insert_with(|| Pending {
                        svc: svc.clone(),
                        positions: vec![],
                        writes: vec![],
                    });
                    entry.positions.push(pos);
                    entry.writes.push(write);
                }
            }
            Ok(())
        })();
        if let Err(e) = prepared {
            results[pos] = Some(Outcome::Failed(item.index.clone(), item.id.clone(), e));
        }
    }
    flush(&mut pending, None, &mut results);
    for svc in touched.values() {
        after_write(svc, refresh)?;
    }
    Ok(results
        .into_iter()
        .map(|r| r.expect("every item has a result"))
        .collect())
}

fn item_wrap(kind: Kind, inner: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(inner.len() + 12);
    out.extend_from_slice(b"{\"");
    out.extend_from_slice(kind.name().as_bytes());
    out.extend_from_slice(b"\":");
    out.extend_from_slice(&inner);
    out.push(b'}');
    out
}

fn error_item(kind: Kind, index: &str, id: Option<&str>, e: &Error) -> Vec<u8> {
    let mut w = ObjectWriter::new();
    w.field("_index", index);
    if let Some(id) = id {
        w.field("_id", id);
    } else {
        w.field("_id", &Value::Null);
    }
    w.field("status", &e.status()).field("error", &e.to_json());
    item_wrap(kind, w.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines() {
        assert_eq!(lines(b"a\nb\n").len(), 2);
        assert!(parse(b"{\"index\":{}}\n{}", Some("x"), &Params::default()).is_err());
        let e = parse(b"{\"foo\":{}}\n", Some("x"), &Params::default())
            .err()
            .unwrap();
        assert!(e
            .reason
            .contains("expected one of [create, delete, index, update] but found [foo]"));
    }
}
