//! Single-document APIs: index, create, get (realtime), exists, `_source`, delete, update, mget.

use super::json_writer::ObjectWriter;
use super::source_filter::SourceFilter;
use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::{DocWrite, IndexService, WriteOutcome};
use crate::index::shard::{DocVersion, OpResult, Preconditions, VersionTypeOpt};
use crate::metadata::blocks::{self, Level};
use crate::node::Node;
use serde_json::{json, Map, Value};
use std::sync::Arc;

pub(super) fn validation(messages: &[String]) -> Error {
    let mut reason = String::from("Validation Failed: ");
    for (i, m) in messages.iter().enumerate() {
        reason.push_str(&format!("{}: {m};", i + 1));
    }
    Error::new(ErrorKind::ActionRequestValidation, reason)
}

pub(super) fn validate_id(id: &str) -> Result<()> {
    if id.len() > 512 {
        return Err(validation(&[format!(
            "id [{id}] is too long, must be no longer than 512 bytes but was: {}",
            id.len()
        )]));
    }
    if id.is_empty() {
        return Err(validation(&[
            "if _id is specified it must not be empty".into()
        ]));
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Refresh {
    None,
    Immediate,
    WaitFor,
}

pub(super) fn refresh_param(v: Option<&str>) -> Result<Refresh> {
    match v {
        None | Some("false") => Ok(Refresh::None),
        Some("") | Some("true") => Ok(Refresh::Immediate),
        Some("wait_for") => Ok(Refresh::WaitFor),
        Some(other) => Err(Error::illegal_argument(format!(
            "Unknown value for refresh: [{other}]."
        ))),
    }
}

/// `version`, `version_type`, `if_seq_no`, `if_primary_term`, `op_type` → preconditions.
const INTERNAL_VERSIONING: &str = "internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead";

pub(super) fn preconditions(
    version: Option<i64>,
    version_type: Option<&str>,
    if_seq_no: Option<i64>,
    if_primary_term: Option<i64>,
    create: bool,
    is_delete: bool,
) -> Result<Preconditions> {
    let vt = match version_type {
        None | Some("internal") => VersionTypeOpt::Internal,
        Some("external") => VersionTypeOpt::External,
        Some("external_gte") => VersionTypeOpt::ExternalGte,
        Some(other) => {
            return Err(Error::illegal_argument(format!(
                "No version type match [{other}]"
            )));
        }
    };
    if let Some(seq) = if_seq_no.filter(|s| *s < 0) {
        return Err(Error::illegal_argument(format!(
            "sequence numbers must be non negative. got [{seq}]."
        )));
    }
    let mut errors = Vec::new();
    if version.is_some() && vt == VersionTypeOpt::Internal {
        errors.push(INTERNAL_VERSIONING.to_string());
    }
    if vt != VersionTypeOpt::Internal {
        // An absent version is Lucene's -3 ("match any"), which external types refuse.
        let v = version.unwrap_or(-3);
        if v < 0 {
            errors.push(format!(
                "illegal version value [{v}] for version type [{}]",
                vt_name(vt)
            ));
        }
    }
    if (if_seq_no.is_some() || if_primary_term.is_some()) && vt != VersionTypeOpt::Internal {
        errors.push("compare and write operations can not use versioning".into());
    }
    match (if_seq_no, if_primary_term) {
        (Some(_), None) => errors.push("ifSeqNo is set, but primary term is [0]".into()),
        (None, Some(term)) => errors.push(format!(
            "ifSeqNo is unassigned, but primary term is [{term}]"
        )),
        _ => {}
    }
    if create && vt != VersionTypeOpt::Internal && !is_delete {
        errors.push("create operations only support internal versioning. use index instead".into());
    }
    if !errors.is_empty() {
        return Err(validation(&errors));
    }
    Ok(Preconditions {
        create,
        if_seq_no,
        if_primary_term,
        version: version.map(|v| (v, vt)),
    })
}

/// Preconditions from a request's query parameters.
fn preconditions_of(p: &Params, create: bool, is_delete: bool) -> Result<Preconditions> {
    preconditions(
        p.i64("version")?,
        p.str("version_type"),
        p.i64("if_seq_no")?,
        p.i64("if_primary_term")?,
        create,
        is_delete,
    )
}

fn vt_name(vt: VersionTypeOpt) -> &'static str {
    match vt {
        VersionTypeOpt::Internal => "INTERNAL",
        VersionTypeOpt::External => "EXTERNAL",
        VersionTypeOpt::ExternalGte => "EXTERNAL_GTE",
    }
}

pub(super) fn shards_header(svc: &IndexService, applied: bool) -> Value {
    if !applied {
        return json!({"total": 0, "successful": 0, "failed": 0});
    }
    json!({"total": 1 + svc.meta().settings.number_of_replicas, "successful": 1, "failed": 0})
}

/// The body of a write response, shared by the single-document APIs and bulk items.
pub(super) fn write_response(
    w: &mut ObjectWriter,
    index: &str,
    svc: &IndexService,
    r: &OpResult,
    forced_refresh: bool,
) {
    w.field("_index", index)
        .field("_id", &r.id)
        .field("_version", &r.version)
        .field("result", r.result);
    if forced_refresh {
        w.field("forced_refresh", &true);
    }
    w.field("_shards", &shards_header(svc, true))
        .field("_seq_no", &r.seq_no)
        .field("_primary_term", &r.primary_term);
}

pub(super) fn after_write(svc: &IndexService, refresh: Refresh) -> Result<()> {
    if refresh != Refresh::None {
        svc.refresh()?;
    }
    Ok(())
}

fn single(outcomes: Vec<WriteOutcome>) -> Result<OpResult> {
    outcomes
        .into_iter()
        .next()
        .expect("one write, one outcome")
        .result
}

pub fn index(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let name = p.required("index")?;
    let body = body
        .filter(|b| !b.is_empty())
        .ok_or_else(|| Error::new(ErrorKind::Parse, "request body is required"))?;
    let op_type = p.str("op_type");
    let create = match op_type {
        None | Some("index") => p.bool("create", false)?,
        Some("create") => true,
        Some(other) => {
            return Err(Error::illegal_argument(format!(
                "opType must be 'create' or 'index', found: [{other}]"
            )));
        }
    };
    let id = match p.str("id") {
        Some(id) => {
            validate_id(id)?;
            id.to_string()
        }
        None if create && op_type.is_none() => {
            return Err(validation(&[
                "an id must be provided if version type or value are set".into(),
            ]))
        }
        None => crate::util::ids::time_based_id(),
    };
    let pre = preconditions_of(p, create, false)?;
    let refresh = refresh_param(p.str("refresh"))?;
    // Bodies must be one JSON object; OpenSearch rejects anything else before routing.
    let doc = parse_source(body)?;
    let svc = node.write_target(name)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    require_routing(&svc, &id, routing.as_deref())?;
    blocks::check([svc.meta().as_ref()], Level::Write)?;
    let r = single(svc.write(vec![DocWrite::Index {
        id,
        routing,
        source: Arc::new(body.to_vec()),
        doc,
        pre,
    }]))?;
    after_write(&svc, refresh)?;
    let mut w = ObjectWriter::new();
    write_response(&mut w, &svc.name(), &svc, &r, refresh == Refresh::Immediate);
    Ok(written(&svc.name(), &r, w.finish()))
}

/// 201 with a `Location` for a new document, else 200.
fn written(index: &str, r: &OpResult, body: Vec<u8>) -> Response {
    if r.result == "created" {
        let mut resp = Response::bytes(201, body);
        resp.location = Some(format!("/{index}/_doc/{}", r.id));
        resp
    } else {
        Response::bytes(200, body)
    }
}

/// Parses a document body as OpenSearch does (one object, no duplicate keys, no metadata
/// fields), once: the result is what gets indexed.
pub(super) fn parse_source(body: &[u8]) -> Result<Value> {
    // OpenSearch detects the content type from the first byte: only `{` is JSON there, so an
    // array or a string is not x-content at all.
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(Error::new(ErrorKind::MapperParsing, "failed to parse")
            .caused_by(Error::new(ErrorKind::NotXContent, "Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes")));
    }
    let parsed: Value = match serde_json::from_slice::<super::strict_json::StrictValue>(body) {
        Ok(v) => v.0,
        Err(e) => {
            let cause = super::bulk::json_error(&e, body);
            return Err(Error::new(ErrorKind::MapperParsing, "failed to parse").caused_by(cause));
        }
    };
    if !parsed.is_object() {
        return Err(Error::new(ErrorKind::MapperParsing, "failed to parse"));
    }
    Ok(parsed)
}

pub fn delete(node: &Node, p: &Params) -> Result<Response> {
    let name = p.required("index")?;
    let id = p.required("id")?;
    validate_id(id)?;
    let pre = preconditions_of(p, false, true)?;
    let refresh = refresh_param(p.str("refresh"))?;
    let svc = resolve_single(node, name, true)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    blocks::check([svc.meta().as_ref()], Level::Write)?;
    let r = single(svc.write(vec![DocWrite::Delete {
        id: id.to_string(),
        routing,
        pre,
    }]))?;
    after_write(&svc, refresh)?;
    let mut w = ObjectWriter::new();
    write_response(&mut w, &svc.name(), &svc, &r, refresh == Refresh::Immediate);
    Ok(Response::bytes(
        if r.result == "not_found" { 404 } else { 200 },
        w.finish(),
    ))
}

/// The routing of a single-document operation on `name` that reached `svc`
/// (`resolveIndexRouting`, `resolveWriteIndexRouting`): an alias's `index_routing` replaces the
/// request's, which may only repeat it.
pub(super) fn alias_routing(
    svc: &IndexService,
    name: &str,
    routing: Option<&str>,
) -> Result<Option<String>> {
    let meta = svc.meta();
    let Some(alias_routing) = meta
        .aliases
        .get(name)
        .and_then(|a| a.index_routing.as_deref())
    else {
        return Ok(routing.map(String::from));
    };
    if alias_routing.contains(',') {
        return Err(Error::illegal_argument(format!(
            "index/alias [{name}] provided with routing value [{alias_routing}] that resolved to several routing values, rejecting operation"
        )));
    }
    if let Some(r) = routing.filter(|r| *r != alias_routing) {
        return Err(Error::illegal_argument(format!(
            "Alias [{name}] has index routing associated with it [{alias_routing}], and was provided with routing value [{r}], rejecting operation"
        )));
    }
    Ok(Some(alias_routing.to_string()))
}

/// The one index a single-document request on `name` (index or alias) addresses.
pub(super) fn resolve_single(
    node: &Node,
    name: &str,
    for_write: bool,
) -> Result<Arc<IndexService>> {
    let svc = find_single(node, name, for_write)?;
    svc.check_open()?;
    Ok(svc)
}

fn find_single(node: &Node, name: &str, for_write: bool) -> Result<Arc<IndexService>> {
    if let Some(s) = node.service(name) {
        return Ok(s);
    }
    if for_write {
        return node.existing_write_target(name);
    }
    let with_alias: Vec<_> = node
        .all_services()
        .into_iter()
        .filter(|s| s.meta().aliases.contains_key(name))
        .collect();
    match with_alias.len() {
        0 => Err(Error::index_expression_not_found(name)),
        1 => Ok(with_alias[0].clone()),
        _ => {
            let names: Vec<String> = with_alias.iter().map(|s| s.name()).collect();
            Err(Error::illegal_argument(format!(
                "alias [{name}] has more than one index associated with it [{}], can't execute a single index op",
                names.join(", ")
            )))
        }
    }
}

pub(super) fn source_filter(p: &Params) -> Result<Option<SourceFilter>> {
    let mut includes = Vec::new();
    let mut excludes = p.list("_source_excludes").unwrap_or_default();
    match p.str("_source") {
        Some("false") => return Ok(None),
        Some("true") | None => {}
        Some(list) => includes = list.split(',').map(|s| s.trim().to_string()).collect(),
    }
    if let Some(inc) = p.list("_source_includes") {
        includes = inc;
    }
    excludes.retain(|e| !e.is_empty());
    Ok(Some(SourceFilter { includes, excludes }))
}

pub(super) fn current_doc(
    svc: &IndexService,
    id: &str,
    routing: Option<&str>,
) -> Result<Option<DocVersion>> {
    lookup_doc(svc, id, routing, true)
}

/// The live document: realtime sees unrefreshed writes; `realtime=false` only what a refresh
/// made searchable.
fn lookup_doc(
    svc: &IndexService,
    id: &str,
    routing: Option<&str>,
    realtime: bool,
) -> Result<Option<DocVersion>> {
    require_routing(svc, id, routing)?;
    let shard = &svc.shards()[svc.shard_of(id, routing) as usize];
    let doc = if realtime {
        shard.current(id)?
    } else {
        shard.lookup_committed(id)?
    };
    Ok(doc.filter(|d| d.source.is_some()))
}

/// `_routing: {required: true}` in the mapping makes a routing value mandatory.
pub(super) fn require_routing(svc: &IndexService, id: &str, routing: Option<&str>) -> Result<()> {
    let meta = svc.meta();
    let required = meta
        .mapping
        .root_params
        .get("_routing")
        .and_then(|r| r.get("required"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if required && routing.is_none() {
        return Err(Error::new(
            ErrorKind::RoutingMissing,
            format!("routing is required for [{}]/[{id}]", meta.name),
        )
        .with("index", meta.name.clone())
        // Raised before the index is resolved in OpenSearch, hence no uuid.
        .with("index_uuid", "_na_"));
    }
    Ok(())
}

/// A GET response body (also an mget item).
fn get_body(
    index: &str,
    id: &str,
    doc: Option<&DocVersion>,
    filter: &Option<SourceFilter>,
    p_version: bool,
) -> Result<Vec<u8>> {
    let _ = p_version;
    let mut w = ObjectWriter::new();
    w.field("_index", index).field("_id", id);
    match doc {
        None => {
            w.field("found", &false);
        }
        Some(d) => {
            w.field("_version", &d.version)
                .field("_seq_no", &d.seq_no)
                .field("_primary_term", &d.primary_term);
            if let Some(r) = &d.routing {
                w.field("_routing", r);
            }
            w.field("found", &true);
            if let Some(f) = filter {
                let src = d.source.as_ref().expect("live doc has source");
                if f.is_noop() {
                    w.raw("_source", src);
                } else {
                    let v: Value =
                        serde_json::from_slice(src).map_err(|e| Error::internal(e.to_string()))?;
                    w.field("_source", &f.apply(&v));
                }
            }
        }
    }
    Ok(w.finish())
}

pub fn get(node: &Node, p: &Params) -> Result<Response> {
    let name = p.required("index")?;
    let id = p.required("id")?;
    let svc = resolve_single(node, name, false)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    let routing = routing.as_deref();
    blocks::check([svc.meta().as_ref()], Level::Read)?;
    if p.bool("refresh", false)? {
        svc.refresh()?;
    }
    let doc = lookup_doc(&svc, id, routing, p.bool("realtime", true)?)?;
    if let (Some(v), Some(d)) = (p.i64("version")?, &doc) {
        if d.version != v {
            let meta = svc.meta();
            return Err(Error::new(
                ErrorKind::VersionConflict,
                format!("[{id}]: version conflict, current version [{}] is different than the one provided [{v}]", d.version),
            )
            .on_shard(&meta.name, &meta.uuid, svc.shard_of(id, routing)));
        }
    }
    // Asking for stored fields means no _source unless it is asked for too.
    let filter = if p.str("stored_fields").is_some() && p.str("_source").is_none() {
        None
    } else {
        source_filter(p)?
    };
    let body = get_body(&svc.name(), id, doc.as_ref(), &filter, true)?;
    Ok(Response::bytes(if doc.is_some() { 200 } else { 404 }, body))
}

pub fn exists(node: &Node, p: &Params) -> Result<Response> {
    let name = p.required("index")?;
    let id = p.required("id")?;
    let svc = resolve_single(node, name, false)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    blocks::check([svc.meta().as_ref()], Level::Read)?;
    let doc = current_doc(&svc, id, routing.as_deref())?;
    Ok(Response::empty(if doc.is_some() { 200 } else { 404 }))
}

pub fn get_source(node: &Node, p: &Params) -> Result<Response> {
    let name = p.required("index")?;
    let id = p.required("id")?;
    let svc = resolve_single(node, name, false)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    blocks::check([svc.meta().as_ref()], Level::Read)?;
    let Some(doc) = current_doc(&svc, id, routing.as_deref())? else {
        return Err(Error::new(
            ErrorKind::ResourceNotFound,
            format!("Document not found [{}]/[{id}]", svc.name()),
        ));
    };
    let src = doc.source.expect("live doc");
    match source_filter(p)? {
        Some(f) if !f.is_noop() => {
            let v: Value =
                serde_json::from_slice(&src).map_err(|e| Error::internal(e.to_string()))?;
            Ok(Response::ok(&f.apply(&v)))
        }
        _ => Ok(Response::bytes(200, src.to_vec())),
    }
}

/// One `_mget` item: index, id, routing and its own `_source` option.
type MgetSpec = (Option<String>, String, Option<String>, Option<Value>);

const MGET_DOC_KEYS: &[&str] = &[
    "_index",
    "_id",
    "routing",
    "_routing",
    "_source",
    "stored_fields",
    "version",
    "version_type",
];

pub fn mget(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let body = body.filter(|b| !b.is_empty()).ok_or_else(|| {
        Error::new(
            ErrorKind::Parse,
            "request body or source parameter is required",
        )
    })?;
    let v: Value = serde_json::from_slice(body).map_err(|e| super::bulk::json_error(&e, body))?;
    let default_index = p.str("index");
    let realtime = p.bool("realtime", true)?;
    let mut specs: Vec<MgetSpec> = Vec::new();
    let Value::Object(top) = &v else {
        return Err(validation(&["no documents to get".into()]));
    };
    for (key, value) in top {
        match (key.as_str(), value) {
            ("docs", Value::Array(docs)) => {
                for (i, d) in docs.iter().enumerate() {
                    let Value::Object(d) = d else {
                        return Err(Error::new(
                            ErrorKind::Parse,
                            "failed to parse multi get request. expected an object",
                        ));
                    };
                    if let Some(k) = d.keys().find(|k| !MGET_DOC_KEYS.contains(&k.as_str())) {
                        return Err(Error::new(
                            ErrorKind::Parse,
                            format!("failed to parse multi get request. unknown field [{k}]"),
                        ));
                    }
                    let id = match d.get("_id") {
                        Some(Value::String(s)) => s.clone(),
                        Some(Value::Number(n)) => n.to_string(),
                        _ => return Err(validation(&[format!("id is missing for doc {i}")])),
                    };
                    let index = d
                        .get("_index")
                        .and_then(Value::as_str)
                        .or(default_index)
                        .map(String::from);
                    let routing = d.get("routing").and_then(Value::as_str).map(String::from);
                    specs.push((index, id, routing, d.get("_source").cloned()));
                }
            }
            ("ids", Value::Array(ids)) => {
                for id in ids {
                    let id = id
                        .as_str()
                        .map(String::from)
                        .unwrap_or_else(|| id.to_string());
                    specs.push((default_index.map(String::from), id, None, None));
                }
            }
            (other, value) => {
                let token = match value {
                    Value::Array(_) => "START_ARRAY",
                    Value::Object(_) => "START_OBJECT",
                    _ => "VALUE",
                };
                let (line, col) = crate::util::json_syntax::value_location(body, other);
                return Err(Error::new(
                    ErrorKind::Parsing,
                    format!("unknown key [{other}] for a {token}, expected [docs] or [ids]"),
                )
                .with("line", line)
                .with("col", col));
            }
        }
    }
    if specs.is_empty() {
        return Err(validation(&["no documents to get".into()]));
    }
    let mut out = Vec::with_capacity(specs.len());
    for (i, (index, id, routing, src)) in specs.into_iter().enumerate() {
        let Some(index) = index else {
            return Err(validation(&[format!("index is missing for doc {i}")]));
        };
        let filter = match &src {
            Some(v) => SourceFilter::from_value(v),
            None => source_filter(p)?,
        };
        let found = resolve_single(node, &index, false).and_then(|svc| {
            let routing = alias_routing(&svc, &index, routing.as_deref().or(p.str("routing")))?;
            blocks::check([svc.meta().as_ref()], Level::Read)?;
            Ok((svc, routing))
        });
        let item = match found {
            Ok((svc, routing)) => {
                let doc = lookup_doc(&svc, &id, routing.as_deref(), realtime)?;
                get_body(&svc.name(), &id, doc.as_ref(), &filter, true)?
            }
            Err(e) => {
                let mut w = ObjectWriter::new();
                w.field("_index", &index)
                    .field("_id", &id)
                    .field("error", &e.to_envelope());
                w.finish()
            }
        };
        out.push(item);
    }
    let mut body = b"{\"docs\":[".to_vec();
    for (i, item) in out.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(item);
    }
    body.extend_from_slice(b"]}");
    Ok(Response::bytes(200, body))
}

/// Merges `update` into `target` as OpenSearch's partial update does: objects recursively,
/// everything else replaced. Returns whether anything changed.
pub(super) fn deep_merge(target: &mut Map<String, Value>, update: &Map<String, Value>) -> bool {
    let mut changed = false;
    for (k, v) in update {
        match (target.get_mut(k), v) {
            (Some(Value::Object(t)), Value::Object(u)) => changed |= deep_merge(t, u),
            (Some(existing), _) if existing == v => {}
            _ => {
                target.insert(k.clone(), v.clone());
                changed = true;
            }
        }
    }
    changed
}

pub struct UpdateRequest {
    /// The body's `_source`: what the response's `get` shows (`Some(None)`: nothing).
    pub source: Option<Option<SourceFilter>>,
    pub doc: Option<Map<String, Value>>,
    pub upsert: Option<Map<String, Value>>,
    pub doc_as_upsert: bool,
    pub detect_noop: bool,
}

/// `body` is the request's raw bytes, for the error positions OpenSearch reports.
pub(super) fn parse_update(v: &Value, body: &[u8]) -> Result<UpdateRequest> {
    let Value::Object(m) = v else {
        return Err(Error::new(
            ErrorKind::XContentParse,
            "[1:1] [UpdateRequest] failed to parse object",
        ));
    };
    let mut req = UpdateRequest {
        doc: None,
        upsert: None,
        doc_as_upsert: false,
        detect_noop: true,
        source: None,
    };
    for (k, val) in m {
        match k.as_str() {
            "doc" => req.doc = Some(object_of(val, "doc", body)?),
            "upsert" => req.upsert = Some(object_of(val, "upsert", body)?),
            "doc_as_upsert" => req.doc_as_upsert = val.as_bool().unwrap_or(false),
            "detect_noop" => req.detect_noop = val.as_bool().unwrap_or(true),
            "script" | "scripted_upsert" => return Err(Error::illegal_argument(
                "scripted updates are not supported by Quarry yet; send a partial [doc] instead",
            )),
            "_source" => req.source = Some(SourceFilter::from_value(val)),
            other => {
                let (line, col) = crate::util::json_syntax::key_location(body, other);
                return Err(Error::new(
                    ErrorKind::XContentParse,
                    format!("[{line}:{col}] [UpdateRequest] unknown field [{other}]"),
                ));
            }
        }
    }
    // Without a script (not supported yet) a partial `doc` is what an update is made of.
    if req.doc.is_none() {
        return Err(validation(&["script or doc is missing".into()]));
    }
    Ok(req)
}

fn object_of(v: &Value, what: &str, body: &[u8]) -> Result<Map<String, Value>> {
    let token = match v {
        Value::Object(m) => return Ok(m.clone()),
        Value::Number(_) => "VALUE_NUMBER",
        Value::String(_) => "VALUE_STRING",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Null => "VALUE_NULL",
        Value::Array(_) => "START_ARRAY",
    };
    let (line, col) = crate::util::json_syntax::value_location(body, what);
    Err(Error::new(
        ErrorKind::XContentParse,
        format!("[{line}:{col}] [UpdateRequest] {what} doesn't support values of type: {token}"),
    ))
}

/// Runs one partial update with retries on conflict: the result and the document as it now is.
pub(super) fn run_update(
    svc: &IndexService,
    id: &str,
    routing: Option<&str>,
    req: &UpdateRequest,
    retries: i64,
    pre: &Preconditions,
) -> Result<(OpResult, Value)> {
    let meta = svc.meta();
    let mut attempt = 0;
    loop {
        let current = current_doc(svc, id, routing)?;
        let (source, expected) = match &current {
            None => {
                let doc = if let Some(u) = &req.upsert {
                    u.clone()
                } else if req.doc_as_upsert {
                    req.doc.clone().unwrap_or_default()
                } else {
                    let shard = svc.shard_of(id, routing);
                    return Err(Error::new(
                        ErrorKind::DocumentMissing,
                        format!("[{id}]: document missing"),
                    )
                    .on_shard(&meta.name, &meta.uuid, shard));
                };
                (doc, None)
            }
            Some(d) => {
                let mut existing: Map<String, Value> =
                    serde_json::from_slice(d.source.as_ref().expect("live"))
                        .map_err(|e| Error::internal(e.to_string()))?;
                let changed = deep_merge(&mut existing, req.doc.as_ref().unwrap_or(&Map::new()));
                if !changed && req.detect_noop {
                    let noop = OpResult {
                        id: id.to_string(),
                        seq_no: d.seq_no,
                        primary_term: d.primary_term,
                        version: d.version,
                        result: "noop",
                    };
                    return Ok((noop, Value::Object(existing)));
                }
                (existing, Some(d.clone()))
            }
        };
        let mut pre = pre.clone();
        match &expected {
            Some(d) if pre.if_seq_no.is_none() => {
                pre.if_seq_no = Some(d.seq_no);
                pre.if_primary_term = Some(d.primary_term);
            }
            None if pre.if_seq_no.is_none() => pre.create = true,
            _ => {}
        }
        let doc = Value::Object(source);
        let bytes = serde_json::to_vec(&doc).expect("json");
        let out = svc.write(vec![DocWrite::Index {
            id: id.to_string(),
            routing: routing.map(String::from),
            source: Arc::new(bytes),
            doc: doc.clone(),
            pre,
        }]);
        match single(out) {
            Err(e) if e.kind == ErrorKind::VersionConflict && attempt < retries => attempt += 1,
            other => return other.map(|r| (r, doc)),
        }
    }
}

pub fn update(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let name = p.required("index")?;
    let id = p.required("id")?;
    validate_id(id)?;
    if p.i64("version")?.is_some() {
        return Err(validation(&[INTERNAL_VERSIONING.into()]));
    }
    let Some(body) = body.filter(|b| !b.is_empty()) else {
        return Err(validation(&["script or doc is missing".into()]));
    };
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| super::bulk::object_parser_error("UpdateRequest", body, &e))?;
    let req = parse_update(&v, body)?;
    let refresh = refresh_param(p.str("refresh"))?;
    let retries = p.int("retry_on_conflict")?.unwrap_or(0);
    let pre = preconditions(
        None,
        None,
        p.i64("if_seq_no")?,
        p.i64("if_primary_term")?,
        false,
        false,
    )?;
    // As OpenSearch does, an update auto-creates a missing index even when it then finds no document.
    let svc = node.write_target(name)?;
    let routing = alias_routing(&svc, name, p.str("routing"))?;
    blocks::check([svc.meta().as_ref()], Level::Write)?;
    let (r, doc) = run_update(&svc, id, routing.as_deref(), &req, retries, &pre)?;
    let applied = r.result != "noop";
    if applied {
        after_write(&svc, refresh)?;
    }
    // `_source` in the URL or the body asks for the updated document back, as `get`.
    let asked = ["_source", "_source_includes", "_source_excludes"]
        .iter()
        .any(|k| p.str(k).is_some());
    let filter = if asked {
        Some(source_filter(p)?)
    } else {
        req.source.clone()
    };
    let body = update_response(&svc, &r, &doc, filter.flatten(), refresh, None);
    Ok(written(&svc.name(), &r, body))
}

/// The answer to one update (also a bulk item, with its `status`): a write response, or `noop`
/// with no shards touched, then `get` when the updated source was asked for.
pub(super) fn update_response(
    svc: &IndexService,
    r: &OpResult,
    doc: &Value,
    source: Option<SourceFilter>,
    refresh: Refresh,
    status: Option<u16>,
) -> Vec<u8> {
    let name = svc.name();
    let mut w = ObjectWriter::new();
    if r.result == "noop" {
        w.field("_index", &name)
            .field("_id", &r.id)
            .field("_version", &r.version)
            .field("result", "noop");
        w.field("_shards", &shards_header(svc, false))
            .field("_seq_no", &r.seq_no)
            .field("_primary_term", &r.primary_term);
    } else {
        write_response(&mut w, &name, svc, r, refresh == Refresh::Immediate);
    }
    if let Some(status) = status {
        w.field("status", &status);
    }
    if let Some(f) = source {
        let source = if f.is_noop() {
            doc.clone()
        } else {
            f.apply(doc)
        };
        w.field("get", &json!({"_seq_no": r.seq_no, "_primary_term": r.primary_term, "found": true, "_source": source}));
    }
    w.finish()
}
