//! Aliases: `POST /_aliases` actions, `PUT|DELETE /<index>/_alias/<name>`, `GET /_alias`.

use super::indices::{body_json, parse_alias_body};
use super::{Params, Response};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::blocks::Level;
use crate::metadata::target::{glob_match, IndicesOptions};
use crate::node::Node;
use serde_json::{json, Map, Value};

fn names(v: &Map<String, Value>, one: &str, many: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(s) = v.get(one).and_then(Value::as_str) {
        out.push(s.to_string());
    }
    if let Some(a) = v.get(many).and_then(Value::as_array) {
        out.extend(a.iter().filter_map(|x| x.as_str().map(String::from)));
    }
    out
}

/// An alias may not take the name of an index.
fn alias_not_an_index(node: &Node, alias: &str) -> Result<()> {
    match node.service(alias) {
        Some(svc) => Err(Error::new(
            ErrorKind::InvalidAliasName,
            format!(
                "Invalid alias name [{alias}], an index exists with the same name as the alias"
            ),
        )
        .with("index", alias)
        .with("index_uuid", svc.meta().uuid.clone())),
        None => Ok(()),
    }
}

/// `[l:c] [aliases] failed to parse field [actions]`, as OpenSearch wraps an action's failure.
fn actions_error(at: (usize, usize), cause: Error) -> Error {
    Error::new(
        ErrorKind::XContentParse,
        format!(
            "[{}:{}] [aliases] failed to parse field [actions]",
            at.0, at.1
        ),
    )
    .caused_by(cause)
}

/// The `n`th action of `actions` in the raw body, as the DSL's positioned JSON tree sees it.
fn action_node(raw: &[u8], n: usize) -> Option<crate::dsl::json::Node> {
    let root = crate::dsl::json::parse(raw)?;
    match &root.get("actions")?.v {
        crate::dsl::json::J::Arr(items) => items.get(n).cloned(),
        _ => None,
    }
}

/// Where the `n`th action's name and its value start.
fn action_positions(raw: &[u8], n: usize) -> ((usize, usize), (usize, usize)) {
    let found = action_node(raw, n).and_then(|a| {
        a.as_obj().and_then(|o| {
            o.first()
                .map(|(_, kpos, v)| ((kpos.line, kpos.col), (v.pos.line, v.pos.col)))
        })
    });
    found.unwrap_or(((1, 1), (1, 1)))
}

/// Where the token after the `n`th action starts (the parser stands there when it validates).
fn action_end(raw: &[u8], n: usize) -> (usize, usize) {
    action_node(raw, n).map_or((1, 1), |a| (a.end.line, a.end.col + 1))
}

fn missing_aliases(names: &[String]) -> Error {
    Error::new(
        ErrorKind::AliasesNotFound,
        format!("aliases [{}] missing", names.join(",")),
    )
    .with("resource.type", "aliases")
    .with("resource.id", names.join(","))
}

/// One alias action as OpenSearch's parser reads it: its kind, its definition and the indices
/// it names, or what the parser refuses, with its positions.
fn parse_action<'a>(
    raw: &[u8],
    n: usize,
    a: &'a Value,
) -> Result<(&'a String, &'a Map<String, Value>, Vec<String>)> {
    let Value::Object(obj) = a else {
        return Err(Error::illegal_argument("alias action must be an object"));
    };
    let Some((kind, def)) = obj.iter().next() else {
        return Err(Error::illegal_argument("empty alias action"));
    };
    let Value::Object(def) = def else {
        return Err(Error::illegal_argument("alias action must be an object"));
    };
    if !matches!(kind.as_str(), "add" | "remove" | "remove_index") {
        let (key, value) = action_positions(raw, n);
        let cause = Error::new(
            ErrorKind::XContentParse,
            format!(
                "[{}:{}] [alias_action] unknown field [{kind}]",
                key.0, key.1
            ),
        );
        return Err(actions_error(value, cause));
    }
    if kind != "remove_index" && names(def, "alias", "aliases").is_empty() {
        let after = action_end(raw, n);
        return Err(actions_error(
            after,
            Error::illegal_argument("One of [alias] or [aliases] is required"),
        ));
    }
    let indices = names(def, "index", "indices");
    if indices.is_empty() {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: One of [index] or [indices] is required;",
        ));
    }
    Ok((kind, def, indices))
}

pub fn update(node: &Node, body: Option<&[u8]>) -> Result<Response> {
    let raw = body.unwrap_or_default();
    let parsed = if raw.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        Some(
            serde_json::from_slice::<Value>(raw)
                .map_err(|e| super::bulk::object_parser_error("aliases", raw, &e))?,
        )
    };
    let body = parsed.ok_or_else(|| {
        Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: Must specify at least one alias action;",
        )
    })?;
    let actions = body
        .get("actions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if actions.is_empty() {
        return Err(Error::illegal_argument("No action specified"));
    }
    // OpenSearch reads every action before it acts on any.
    let parsed = actions
        .iter()
        .enumerate()
        .map(|(n, a)| parse_action(raw, n, a))
        .collect::<Result<Vec<_>>>()?;
    let _g = node.admin_lock();
    // It checks the blocks of the indices the actions name as written (a pattern or an alias
    // names no index's blocks) before it resolves them.
    let named: Vec<_> = parsed
        .iter()
        .flat_map(|(_, _, indices)| indices)
        .filter_map(|i| node.service(i))
        .collect();
    super::indices::check_blocks(&named, Level::MetadataWrite)?;
    // Validate every action before applying any, so the request is all-or-nothing.
    let mut plan: Vec<(String, String, Value)> = Vec::new();
    for (kind, def, indices) in parsed {
        let mut resolved = Vec::new();
        for i in &indices {
            for svc in node.resolve(i, IndicesOptions::strict_expand_open().allowing_closed())? {
                resolved.push(svc.name());
            }
        }
        match kind.as_str() {
            "add" | "remove" => {
                let aliases = names(def, "alias", "aliases");
                for idx in &resolved {
                    for al in &aliases {
                        if kind == "add" {
                            alias_not_an_index(node, al)?;
                            let mut d = def.clone();
                            for k in ["index", "indices", "alias", "aliases", "must_exist"] {
                                d.remove(k);
                            }
                            let alias = parse_alias_body(al, Some(&Value::Object(d.clone())))?;
                            if let (Some(f), Some(svc)) = (&alias.filter, node.service(idx)) {
                                crate::search::alias_filter::validate(al, f, &svc)?;
                            }
                            plan.push(("add".into(), format!("{idx}\u{0}{al}"), Value::Object(d)));
                        } else {
                            let svc = node.service(idx).expect("resolved");
                            let matched: Vec<String> = svc
                                .meta()
                                .aliases
                                .keys()
                                .filter(|k| glob_match(al, k))
                                .cloned()
                                .collect();
                            if matched.is_empty()
                                && def.get("must_exist").and_then(Value::as_bool) != Some(false)
                            {
                                return Err(missing_aliases(std::slice::from_ref(al)));
                            }
                            for m in matched {
                                plan.push(("remove".into(), format!("{idx}\u{0}{m}"), Value::Null));
                            }
                        }
                    }
                }
            }
            "remove_index" => {
                for idx in resolved {
                    plan.push(("remove_index".into(), idx, Value::Null));
                }
            }
            other => unreachable!("alias action [{other}] was refused while parsing"),
        }
    }
    drop(_g);
    for (kind, key, def) in plan {
        match kind.as_str() {
            "add" | "remove" => {
                let (idx, al) = key.split_once('\u{0}').expect("key");
                let Some(svc) = node.service(idx) else {
                    continue;
                };
                svc.update_meta(|m| {
                    if kind == "add" {
                        m.aliases
                            .insert(al.to_string(), parse_alias_body(al, Some(&def))?);
                    } else {
                        m.aliases.remove(al);
                    }
                    Ok(())
                })?;
            }
            _ => node.delete_index(&key)?,
        }
    }
    Ok(Response::acknowledged())
}

/// The metadata-write blocks of the indices a comma list names as written, as the aliases
/// actions check them.
fn check_named_blocks(node: &Node, list: &str) -> Result<()> {
    let named: Vec<_> = list.split(',').filter_map(|i| node.service(i)).collect();
    super::indices::check_blocks(&named, Level::MetadataWrite)
}

pub fn put(node: &Node, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let index = p.required("index")?;
    let name = p.required("name")?;
    let body = body_json(body)?;
    let alias = parse_alias_body(name, body.as_ref())?;
    alias_not_an_index(node, name)?;
    check_named_blocks(node, index)?;
    let services = node.resolve(
        index,
        IndicesOptions::strict_expand_open().allowing_closed(),
    )?;
    if let Some(f) = &alias.filter {
        for svc in &services {
            crate::search::alias_filter::validate(name, f, svc)?;
        }
    }
    for svc in services {
        svc.update_meta(|m| {
            m.aliases.insert(name.to_string(), alias.clone());
            Ok(())
        })?;
    }
    Ok(Response::acknowledged())
}

pub fn delete(node: &Node, p: &Params) -> Result<Response> {
    let index = p.required("index")?;
    let names = p.list("name").unwrap_or_default();
    let mut removed = false;
    check_named_blocks(node, index)?;
    for svc in node.resolve(
        index,
        IndicesOptions::strict_expand_open().allowing_closed(),
    )? {
        svc.update_meta(|m| {
            let before = m.aliases.len();
            m.aliases
                .retain(|k, _| !names.iter().any(|n| n == "_all" || glob_match(n, k)));
            removed |= m.aliases.len() != before;
            Ok(())
        })?;
    }
    if !removed {
        return Err(missing_aliases(&names));
    }
    Ok(Response::acknowledged())
}

fn matching(node: &Node, p: &Params) -> Result<(Map<String, Value>, Vec<String>)> {
    let names = p.list("name");
    let svcs = node.resolve(
        p.str("index").unwrap_or("_all"),
        // Closed indices' aliases are listed too (`GetAliasesRequest`'s defaults).
        p.indices_options(
            IndicesOptions::lenient_expand_open()
                .allowing_closed()
                .expanding_closed(),
        )?,
    )?;
    super::indices::check_blocks(&svcs, Level::MetadataRead)?;
    let mut out = Map::new();
    let mut found = std::collections::BTreeSet::new();
    for svc in svcs {
        let m = svc.meta();
        let mut aliases = Map::new();
        for (k, a) in &m.aliases {
            let hit = match &names {
                None => true,
                Some(ns) => ns
                    .iter()
                    .any(|n| n == "_all" || n == "*" || glob_match(n, k)),
            };
            if hit {
                found.insert(k.clone());
                aliases.insert(k.clone(), serde_json::to_value(a).expect("json"));
            }
        }
        if names.is_none() || !aliases.is_empty() {
            out.insert(m.name.clone(), json!({"aliases": aliases}));
        }
    }
    let missing: Vec<String> = names
        .unwrap_or_default()
        .into_iter()
        .filter(|n| !n.contains('*') && n != "_all" && !found.contains(n))
        .collect();
    Ok((out, missing))
}

pub fn get(node: &Node, p: &Params) -> Result<Response> {
    let (out, missing) = matching(node, p)?;
    if !missing.is_empty() {
        let msg = if missing.len() == 1 {
            format!("alias [{}] missing", missing[0])
        } else {
            format!("aliases [{}] missing", missing.join(","))
        };
        let mut body = Map::new();
        body.insert("error".into(), Value::from(msg));
        body.insert("status".into(), Value::from(404));
        for (k, v) in out {
            body.insert(k, v);
        }
        return Ok(Response::json(404, &Value::Object(body)));
    }
    Ok(Response::ok(&Value::Object(out)))
}

pub fn exists(node: &Node, p: &Params) -> Result<Response> {
    let (out, missing) = matching(node, p)?;
    Ok(Response::empty(if missing.is_empty() && !out.is_empty() {
        200
    } else {
        404
    }))
}
