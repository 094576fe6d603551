//! Index APIs: create, delete, get, exists, mappings, settings, refresh, flush, count, stats.

use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::{AliasMeta, IndexService};
use crate::index::mapping::Mapping;
use crate::metadata::blocks::{self, Level};
use crate::metadata::target::{glob_match, IndicesOptions};
use crate::node::Node;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn body_json(body: Option<&[u8]>) -> Result<Option<Value>> {
    match body {
        None => Ok(None),
        Some(b) if b.iter().all(|c| c.is_ascii_whitespace()) => Ok(None),
        Some(b) => serde_json::from_slice(b)
            .map(Some)
            .map_err(|e| super::bulk::content_to_map_error(&e, b)),
    }
}

pub(crate) fn parse_alias_body(name: &str, v: Option<&Value>) -> Result<AliasMeta> {
    crate::metadata::index_name::validate_alias_name(name)?;
    let mut a = AliasMeta::default();
    let Some(Value::Object(m)) = v else {
        return Ok(a);
    };
    for (k, val) in m {
        match k.as_str() {
            // An empty filter is none (`AliasActions.filter(Map)`).
            "filter" => a.filter = Some(val.clone()).filter(|f| f != &json!({})),
            "routing" => {
                let r = scalar(val);
                a.index_routing = Some(r.clone());
                a.search_routing = Some(r);
            }
            "index_routing" => a.index_routing = Some(scalar(val)),
            "search_routing" => a.search_routing = Some(scalar(val)),
            "is_write_index" => a.is_write_index = val.as_bool(),
            "is_hidden" => a.is_hidden = val.as_bool(),
            other => {
                return Err(Error::new(
                    ErrorKind::XContentParse,
                    format!("[1:2] [alias] unknown field [{other}]"),
                ))
            }
        }
    }
    // A write through the alias takes one routing value (`validateAliasStandalone`).
    if a.index_routing.as_deref().is_some_and(|r| r.contains(',')) {
        return Err(Error::illegal_argument(format!(
            "alias [{name}] has several index routing values associated with it"
        )));
    }
    Ok(a)
}

fn scalar(v: &Value) -> String {
    v.as_str()
        .map(String::from)
        .unwrap_or_else(|| v.to_string())
}

pub fn create(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let name = p.required("index")?;
    let body = body_json(body)?;
    let mut settings = None;
    let mut mappings = None;
    let mut aliases = BTreeMap::new();
    if let Some(Value::Object(m)) = &body {
        for (k, v) in m {
            match k.as_str() {
                "settings" => settings = Some(v),
                "mappings" => mappings = Some(v),
                "aliases" => {
                    let Value::Object(am) = v else {
                        return Err(Error::new(ErrorKind::Parse, "Failed to parse aliases"));
                    };
                    for (alias, def) in am {
                        let mut a = parse_alias_body(alias, Some(def))?;
                        // Index creation reads a filter into a `HashMap` (the aliases APIs
                        // keep its order): that order is what it keeps and prints.
                        a.filter = a.filter.as_ref().map(crate::util::java_hash::hash_ordered);
                        aliases.insert(alias.clone(), a);
                    }
                }
                other => {
                    return Err(Error::new(
                        ErrorKind::Parse,
                        format!("unknown key [{other}] for create index"),
                    ));
                }
            }
        }
    } else if body.is_some() {
        return Err(Error::new(
            ErrorKind::Parse,
            "Failed to parse content to map",
        ));
    }
    // A resize names its target through this action with its source's settings and mappings,
    // which templates must not change (an internal parameter; users cannot pass it).
    let templates = if p.bool("_skip_templates", false)? {
        crate::node::Templates::Skip
    } else {
        crate::node::Templates::Apply
    };
    node.create_index(name, settings, mappings, Some(aliases), templates)?;
    Ok(Response::ok(
        &json!({"acknowledged": true, "shards_acknowledged": true, "index": name}),
    ))
}

pub fn delete(node: &Node, p: &Params) -> Result<Response> {
    let Some(expr) = p.str("index") else {
        return Err(super::document::validation(&[
            "index / indices is missing".into()
        ]));
    };
    node.cluster_settings.check_destructive(expr)?;
    // Wildcards reach closed indices too (`DeleteIndexRequest`'s defaults).
    let opts = p.indices_options(
        IndicesOptions::lenient_expand_open()
            .allowing_closed()
            .expanding_closed(),
    )?;
    // Deleting through an alias is refused, as OpenSearch refuses it.
    for part in expr.split(',') {
        if !part.contains('*')
            && node.service(part).is_none()
            && node
                .all_metas()
                .iter()
                .any(|m| m.aliases.contains_key(part))
        {
            return Err(Error::illegal_argument(format!(
                "The provided expression [{part}] matches an alias, specify the corresponding concrete indices instead."
            )));
        }
    }
    let targets = node.resolve(expr, opts)?;
    let metas: Vec<_> = targets.iter().map(|s| s.meta()).collect();
    blocks::check_delete(metas.iter().map(|m| m.as_ref()))?;
    for svc in targets {
        node.delete_index(&svc.name())?;
    }
    Ok(Response::acknowledged())
}

fn targets(node: &Node, p: &Params, defaults: IndicesOptions) -> Result<Vec<Arc<IndexService>>> {
    let opts = p.indices_options(defaults)?;
    node.resolve(p.str("index").unwrap_or("_all"), opts)
}

/// Refuses an operation at `level` on any of `svcs` a block holds.
pub(super) fn check_blocks(svcs: &[Arc<IndexService>], level: Level) -> Result<()> {
    let metas: Vec<_> = svcs.iter().map(|s| s.meta()).collect();
    blocks::check(metas.iter().map(|m| m.as_ref()), level)
}

fn render_aliases(aliases: &BTreeMap<String, AliasMeta>) -> Value {
    Value::Object(
        aliases
            .iter()
            .map(|(k, a)| (k.clone(), serde_json::to_value(a).expect("json")))
            .collect(),
    )
}

pub fn get(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    let mut out = Map::new();
    let svcs = targets(
        node,
        p,
        IndicesOptions::strict_expand_open().allowing_closed(),
    )?;
    check_blocks(&svcs, Level::MetadataRead)?;
    for svc in svcs {
        let m = svc.meta();
        out.insert(
            m.name.clone(),
            json!({"aliases": render_aliases(&m.aliases), "mappings": m.mapping.render(), "settings": m.settings.render(flat)}),
        );
    }
    Ok(Response::ok(&Value::Object(out)))
}

pub fn exists(node: &Node, p: &Params) -> Result<Response> {
    // A wildcard matching nothing exists (allow_no_indices); a missing concrete name does not.
    match targets(
        node,
        p,
        IndicesOptions::lenient_expand_open().allowing_closed(),
    ) {
        Ok(svcs) => {
            check_blocks(&svcs, Level::MetadataRead)?;
            Ok(Response::empty(200))
        }
        Err(e) if e.kind == ErrorKind::IndexNotFound => Ok(Response::empty(404)),
        Err(e) => Err(e),
    }
}

pub fn get_mapping(node: &Node, p: &Params) -> Result<Response> {
    let mut out = Map::new();
    let svcs = targets(
        node,
        p,
        IndicesOptions::lenient_expand_open().allowing_closed(),
    )?;
    check_blocks(&svcs, Level::MetadataRead)?;
    for svc in svcs {
        let m = svc.meta();
        out.insert(m.name.clone(), json!({"mappings": m.mapping.render()}));
    }
    Ok(Response::ok(&Value::Object(out)))
}

/// `GET /<index>/_mapping/field/<fields>`: the mapping of each matching leaf field.
pub fn get_field_mapping(node: &Node, p: &Params) -> Result<Response> {
    let fields = p.list("fields").unwrap_or_default();
    let mut out = Map::new();
    for svc in targets(
        node,
        p,
        IndicesOptions::lenient_expand_open().allowing_closed(),
    )? {
        let m = svc.meta();
        // Each index answers on its own (its shards do); one a block holds, or a closed one,
        // has no answer to give.
        if m.is_closed() || blocks::check([m.as_ref()], Level::MetadataRead).is_err() {
            continue;
        }
        let mut mappings = Map::new();
        for leaf in m.mapping.leaves() {
            if fields.iter().any(|f| glob_match(f, &leaf.path)) {
                let short = leaf
                    .path
                    .rsplit('.')
                    .next()
                    .unwrap_or(&leaf.path)
                    .to_string();
                let mut mapping = Map::new();
                mapping.insert(short, leaf.field.render());
                mappings.insert(
                    leaf.path.clone(),
                    json!({"full_name": leaf.path, "mapping": mapping}),
                );
            }
        }
        out.insert(m.name.clone(), json!({"mappings": mappings}));
    }
    // Nothing answered (every index blocked): not found, as OpenSearch's REST action says.
    if out.is_empty() {
        return Ok(Response::json(404, &json!({})));
    }
    Ok(Response::ok(&Value::Object(out)))
}

pub fn put_mapping(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let body = body_json(body)?.ok_or_else(|| {
        Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: mapping source is missing;",
        )
    })?;
    let update = Mapping::parse(&body)?;
    // A closed index takes mapping updates too, and wildcards reach it (`PutMappingRequest`).
    let svcs = targets(
        node,
        p,
        IndicesOptions::strict_expand_open()
            .allowing_closed()
            .expanding_closed(),
    )?;
    check_blocks(&svcs, Level::MetadataWrite)?;
    // Validate against every index first, so a conflict on one changes none.
    for svc in &svcs {
        svc.meta().mapping.merged(&update)?;
    }
    for svc in &svcs {
        svc.merge_mapping(&update)?;
    }
    Ok(Response::acknowledged())
}

pub fn get_settings(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    let names = p.list("name");
    let include_defaults = p.bool("include_defaults", false)?;
    let mut out = Map::new();
    let svcs = targets(
        node,
        p,
        IndicesOptions::lenient_expand_open().allowing_closed(),
    )?;
    check_blocks(&svcs, Level::MetadataRead)?;
    for svc in svcs {
        let m = svc.meta();
        let mut settings = m.settings.flat.clone();
        // OpenSearch adds the readable forms whenever `human` is present, even `human=false`.
        if p.str("human").is_some() {
            let created = crate::index::date_format::format_iso_millis(m.settings.creation_date());
            settings.insert("index.creation_date_string".into(), created.into());
            settings.insert("index.version.created_string".into(), "2.19.1".into());
        }
        let selected = |k: &str| match &names {
            None => true,
            Some(names) => names
                .iter()
                .any(|n| glob_match(n, k) || glob_match(&format!("index.{n}"), k)),
        };
        settings.retain(|k, _| selected(k));
        let mut entry = Map::new();
        entry.insert(
            "settings".into(),
            crate::index::settings::render_map(&settings, flat),
        );
        if include_defaults {
            let defaults: std::collections::BTreeMap<String, Value> =
                crate::index::settings::DEFAULTS
                    .iter()
                    .filter(|(k, _)| !m.settings.flat.contains_key(*k) && selected(k))
                    .map(|(k, v)| (k.to_string(), Value::from(*v)))
                    .collect();
            entry.insert(
                "defaults".into(),
                crate::index::settings::render_map(&defaults, flat),
            );
        } else if settings.is_empty() && names.is_some() {
            continue;
        }
        out.insert(m.name.clone(), Value::Object(entry));
    }
    Ok(Response::ok(&Value::Object(out)))
}

pub fn put_settings(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    if body.is_none_or(|b| b.is_empty()) {
        return Err(Error::new(ErrorKind::Parse, "request body is required"));
    }
    // Settings bodies report the JSON parser's error itself, unlike index creation.
    let raw = body.unwrap_or_default();
    let body: Value = serde_json::from_slice(raw).map_err(|e| super::bulk::json_error(&e, raw))?;
    if body.as_object().is_none_or(|o| o.is_empty()) {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: no settings to update;",
        ));
    }
    let body = match body.get("settings") {
        Some(inner) if body.as_object().map(|o| o.len()) == Some(1) => inner.clone(),
        _ => body,
    };
    // Wildcards reach closed indices too (`UpdateSettingsRequest`), where static settings may
    // change.
    let svcs = targets(
        node,
        p,
        IndicesOptions::strict_expand_open()
            .allowing_closed()
            .expanding_closed(),
    )?;
    // A block may always be lifted (one block setting alone), else blocks refuse the update.
    if !blocks::lifts_block(&crate::index::settings::flatten(&body)?) {
        check_blocks(&svcs, Level::MetadataWrite)?;
    }
    for svc in &svcs {
        let m = svc.meta();
        let settings = m.settings.updated(&body, &m.name, &m.uuid, m.is_closed())?;
        if m.is_closed() {
            // Analysis changes take effect when the index opens; they must build now.
            let mut next = (*m).clone();
            next.settings = settings;
            crate::index::index_service::analysis_for(&next)?;
        }
    }
    for svc in &svcs {
        svc.update_meta(|m| {
            m.settings = m.settings.updated(&body, &m.name, &m.uuid, m.is_closed())?;
            Ok(())
        })?;
    }
    Ok(Response::acknowledged())
}

/// `PUT /<index>/_block/<block>`: sets the block's setting on the target indices that do not
/// have it yet, and names those (OpenSearch lists them in an order that follows their UUIDs;
/// Quarry in the `HashMap` order of their names).
pub fn add_block(node: &Node, p: &Params) -> Result<Response> {
    let block = blocks::Block::from_api_name(p.required("block")?)?;
    node.cluster_settings
        .check_destructive(p.str("index").unwrap_or("_all"))?;
    // A pattern matching nothing blocks nothing (`IndicesOptions.strictExpandOpen`).
    let svcs = targets(
        node,
        p,
        IndicesOptions::lenient_expand_open().allowing_closed(),
    )?;
    // A block that itself holds metadata changes may be added whatever holds them already.
    if !block.refuses(Level::MetadataWrite) {
        check_blocks(&svcs, Level::MetadataWrite)?;
    }
    let change = json!({ block.setting(): true });
    let mut blocked: Vec<(String, ())> = Vec::new();
    for svc in &svcs {
        if svc.meta().settings.blocks.has(block) {
            continue;
        }
        svc.update_meta(|m| {
            m.settings = m
                .settings
                .updated(&change, &m.name, &m.uuid, m.is_closed())?;
            Ok(())
        })?;
        blocked.push((svc.name(), ()));
    }
    crate::util::java_hash::hash_order(&mut blocked);
    let indices: Vec<Value> = blocked
        .into_iter()
        .map(|(name, _)| json!({"name": name, "blocked": true}))
        .collect();
    Ok(Response::ok(&json!({
        "acknowledged": true,
        "shards_acknowledged": !indices.is_empty(),
        "indices": indices,
    })))
}

fn shard_totals(svcs: &[Arc<IndexService>]) -> (u32, u32) {
    let mut total = 0;
    let mut primaries = 0;
    for s in svcs {
        let m = s.meta();
        primaries += m.settings.number_of_shards;
        total += m.settings.number_of_shards * (1 + m.settings.number_of_replicas);
    }
    (total, primaries)
}

pub fn refresh(node: &Node, p: &Params) -> Result<Response> {
    let svcs = targets(node, p, IndicesOptions::lenient_expand_open())?;
    for s in &svcs {
        s.refresh()?;
    }
    crate::util::memory::release_now(chrono::Utc::now().timestamp_millis());
    let (total, ok) = shard_totals(&svcs);
    Ok(Response::ok(
        &json!({"_shards": {"total": total, "successful": ok, "failed": 0}}),
    ))
}

pub fn flush(node: &Node, p: &Params) -> Result<Response> {
    p.bool("force", false)?;
    p.bool("wait_if_ongoing", true)?;
    let svcs = targets(node, p, IndicesOptions::lenient_expand_open())?;
    for s in &svcs {
        for shard in s.shards() {
            shard.flush()?;
        }
    }
    let (total, ok) = shard_totals(&svcs);
    Ok(Response::ok(
        &json!({"_shards": {"total": total, "successful": ok, "failed": 0}}),
    ))
}

/// One shard's `_stats` sections, in OpenSearch's order. Sections for caches Quarry does not
/// have (query, request, fielddata, completion), warmers and recoveries are zeros: that is
/// what they hold here.
pub(crate) fn shard_stats(shard: &crate::index::shard::Shard) -> Value {
    let st = &shard.stats;
    let snap = shard.stats_snapshot();
    json!({
        "docs": {"count": shard.doc_count(), "deleted": shard.deleted_count()},
        "store": {"size_in_bytes": shard.store_size(), "reserved_in_bytes": 0},
        "indexing": st.indexing(),
        "get": {
            "total": 0, "getTime": "0s", "time_in_millis": 0, "exists_total": 0,
            "exists_time_in_millis": 0, "missing_total": 0, "missing_time_in_millis": 0,
            "current": 0,
        },
        "search": st.search(),
        "merges": st.merges(),
        "refresh": st.refresh(),
        "flush": st.flush(),
        "warmer": {"current": 0, "total": 0, "total_time_in_millis": 0},
        "query_cache": {
            "memory_size_in_bytes": 0, "total_count": 0, "hit_count": 0, "miss_count": 0,
            "cache_size": 0, "cache_count": 0, "evictions": 0,
        },
        "fielddata": {"memory_size_in_bytes": 0, "evictions": 0},
        "completion": {"size_in_bytes": 0},
        "segments": st.segments(&snap),
        "translog": st.translog(&snap),
        "request_cache": {"memory_size_in_bytes": 0, "evictions": 0, "hit_count": 0, "miss_count": 0},
        "recovery": {"current_as_source": 0, "current_as_target": 0, "throttle_time_in_millis": 0},
    })
}

pub(crate) fn index_stats(svc: &IndexService) -> Value {
    let mut total = json!({});
    for shard in svc.shards() {
        add_stats(&mut total, &shard_stats(shard));
    }
    total
}

pub(crate) fn add_stats(total: &mut Value, part: &Value) {
    match (total, part) {
        (Value::Object(t), Value::Object(p)) => {
            for (k, v) in p {
                match t.get_mut(k) {
                    Some(existing) => add_stats(existing, v),
                    None => {
                        t.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (t @ Value::Number(_), Value::Number(p)) => {
            *t = match (t.as_i64(), p.as_i64()) {
                (Some(a), Some(b)) => Value::from(a + b),
                _ => Value::from(t.as_f64().unwrap_or(0.0) + p.as_f64().unwrap_or(0.0)),
            };
        }
        _ => {}
    }
}

/// The metrics `/_stats/<metric>` accepts (OpenSearch's CommonStatsFlags).
const STATS_METRICS: &[&str] = &[
    "_all",
    "docs",
    "store",
    "indexing",
    "get",
    "search",
    "merge",
    "refresh",
    "flush",
    "warmer",
    "query_cache",
    "fielddata",
    "completion",
    "segments",
    "translog",
    "suggest",
    "request_cache",
    "recovery",
];

pub fn stats(node: &Node, p: &Params) -> Result<Response> {
    let metrics = p.list("metric").unwrap_or_default();
    let unknown: Vec<&String> = metrics
        .iter()
        .filter(|m| !STATS_METRICS.contains(&m.as_str()))
        .collect();
    if !unknown.is_empty() {
        let path = match p.str("index") {
            Some(i) => format!("/{i}/_stats/{}", p.str("metric").unwrap_or_default()),
            None => format!("/_stats/{}", p.str("metric").unwrap_or_default()),
        };
        let list: Vec<String> = unknown.iter().map(|m| format!("[{m}]")).collect();
        let noun = if unknown.len() == 1 {
            "metric"
        } else {
            "metrics"
        };
        return Err(Error::illegal_argument(format!(
            "request [{path}] contains unrecognized {noun}: {}",
            list.join(", ")
        )));
    }
    // The metric `merge` selects the section `merges`.
    let wanted = |section: &str| {
        metrics.is_empty()
            || metrics
                .iter()
                .any(|m| m == "_all" || m == section || (m == "merge" && section == "merges"))
    };
    // `forbid_closed_indices=false` lists a closed index too; it has no shard to report on.
    let mut defaults = IndicesOptions::lenient_expand_open();
    if !p.bool("forbid_closed_indices", true)? {
        defaults = defaults.allowing_closed();
    }
    let svcs = targets(node, p, defaults)?;
    check_blocks(&svcs, Level::MetadataRead)?;
    let (total, ok) = shard_totals(&svcs);
    let mut all = json!({});
    let mut indices = Map::new();
    for s in &svcs {
        let mut st = index_stats(s);
        if let Value::Object(sections) = &mut st {
            sections.retain(|k, _| wanted(k));
        }
        add_stats(&mut all, &st);
        let m = s.meta();
        indices.insert(
            m.name.clone(),
            json!({"uuid": m.uuid, "primaries": st, "total": st}),
        );
    }
    Ok(Response::ok(&json!({
        "_shards": {"total": total, "successful": ok, "failed": 0},
        "_all": {"primaries": all, "total": all},
        "indices": indices,
    })))
}
