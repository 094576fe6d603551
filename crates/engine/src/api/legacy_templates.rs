//! Legacy index templates (`_template`): put, get, exists, delete, in OpenSearch's answers and
//! refusals. They apply, lowest `order` first, to a new index no composable template matches
//! (`metadata/index_templates.rs`).

use super::index_templates::validate_name;
use super::params::Params;
use super::Response;
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::Mapping;
use crate::index::settings::{flatten, render_map, IndexSettings};
use crate::metadata::index_templates::{LegacyTemplate, Template};
use crate::node::Node;
use serde_json::{json, Map, Value};

fn unknown_key(key: &str) -> Error {
    Error::new(
        ErrorKind::Parse,
        format!("unknown key [{key}] in the template "),
    )
}

fn patterns(v: &Value) -> Result<Vec<String>> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Ok(s.clone()),
                other => Ok(other.to_string()),
            })
            .collect(),
        _ => Err(Error::illegal_argument(
            "Malformed [index_patterns] value, should be a string or a list of strings",
        )),
    }
}

fn number(key: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
    .ok_or_else(|| Error::illegal_argument(format!("Malformed [{key}] value [{v}]")))
}

fn parse(name: &str, p: &Params, body: &Value) -> Result<LegacyTemplate> {
    let Value::Object(fields) = body else {
        return Err(Error::new(
            ErrorKind::Parse,
            "Failed to parse content to map",
        ));
    };
    let mut t = LegacyTemplate {
        order: 0,
        version: None,
        index_patterns: Vec::new(),
        template: Template::default(),
    };
    if let Some(order) = p.str("order") {
        t.order = number("order", &Value::String(order.to_string()))?;
    }
    for (key, v) in fields {
        match key.as_str() {
            "index_patterns" => t.index_patterns = patterns(v)?,
            "order" => t.order = number(key, v)?,
            "version" => t.version = Some(number(key, v)?),
            "settings" => t.template.settings = Some(flatten(v)?),
            "mappings" => {
                let Value::Object(m) = v else {
                    return Err(unknown_key(key));
                };
                crate::index::mapping::reject_type_wrapper(m)?;
                if !m.is_empty() {
                    t.template.mappings = Some(v.clone());
                }
            }
            "aliases" => {
                let Value::Object(a) = v else {
                    return Err(unknown_key(key));
                };
                for (alias, def) in a {
                    super::indices::parse_alias_body(alias, Some(def))?;
                }
                t.template.aliases = Some(a.clone());
            }
            other => return Err(unknown_key(other)),
        }
    }
    let problems = validate_name(name);
    if !problems.is_empty() {
        return Err(super::index_templates::invalid_listing(name, &problems));
    }
    if t.index_patterns.is_empty() {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: index patterns are missing;",
        ));
    }
    if let Some(s) = &t.template.settings {
        let settings = Value::Object(s.clone().into_iter().collect());
        IndexSettings::for_new_index(Some(&settings), "validate-template", "_na_", 0)?;
    }
    if let Some(m) = &t.template.mappings {
        Mapping::parse(m).map_err(|e| {
            Error::new(
                ErrorKind::MapperParsing,
                format!("Failed to parse mapping [_doc]: {}", e.reason),
            )
            .caused_by(e)
        })?;
    }
    Ok(t)
}

pub fn put(node: &Node, p: &Params, raw: Option<&[u8]>) -> Result<Response> {
    let name = p.required("name")?;
    let create = p.bool("create", false)?;
    let Some(body) = super::indices::body_json(raw)? else {
        return Err(Error::new(ErrorKind::Parse, "request body is required"));
    };
    let t = parse(name, p, &body)?;
    node.index_templates.put_legacy_template(name, t, create)?;
    Ok(Response::acknowledged())
}

/// A template as `GET /_template` shows it; the cluster state (`typed`) wraps its mappings in
/// `_doc`, as OpenSearch keeps them.
pub(crate) fn render(t: &LegacyTemplate, flat: bool, typed: bool) -> Value {
    let mut out = Map::new();
    out.insert("order".into(), json!(t.order));
    if let Some(v) = t.version {
        out.insert("version".into(), json!(v));
    }
    out.insert("index_patterns".into(), json!(t.index_patterns));
    let settings = t.template.settings.clone().unwrap_or_default();
    out.insert("settings".into(), render_map(&settings, flat));
    let mappings = match (&t.template.mappings, typed) {
        (Some(m), true) => json!({ "_doc": m }),
        (Some(m), false) => m.clone(),
        (None, _) => json!({}),
    };
    out.insert("mappings".into(), mappings);
    out.insert(
        "aliases".into(),
        Value::Object(t.template.aliases.clone().unwrap_or_default()),
    );
    Value::Object(out)
}

fn selected(node: &Node, name: Option<&str>) -> Vec<(String, LegacyTemplate)> {
    super::index_templates::selected(node.index_templates.legacy_templates(), name)
}

/// `GET /_template[/<name>]`: by name; nothing found for a name is an empty 404.
pub fn get(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    let found = selected(node, p.str("name"));
    let out: Map<String, Value> = found
        .iter()
        .map(|(n, t)| (n.clone(), render(t, flat, false)))
        .collect();
    let status = if out.is_empty() && p.str("name").is_some() {
        404
    } else {
        200
    };
    Ok(Response::json(status, &Value::Object(out)))
}

pub fn exists(node: &Node, p: &Params) -> Result<Response> {
    let found = selected(node, p.str("name"));
    Ok(Response::empty(if found.is_empty() { 404 } else { 200 }))
}

pub fn delete(node: &Node, p: &Params) -> Result<Response> {
    node.index_templates
        .delete_legacy_templates(p.required("name")?)?;
    Ok(Response::acknowledged())
}
