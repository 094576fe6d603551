//! `_index_template` and `_component_template`: put, get, exists, delete, and
//! `_index_template/_simulate_index/<index>`, in OpenSearch's answers and refusals. The model
//! and how templates apply to a new index live in `metadata/index_templates.rs`.

use super::params::Params;
use super::Response;
use crate::dsl::json::{Node as JNode, J};
use crate::dsl::x_content;
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::Mapping;
use crate::index::settings::{flatten, render_map, IndexSettings};
use crate::metadata::index_templates::{
    invalid, merge_mappings, ComponentTemplate, IndexTemplate, Resolved, Template,
};
use crate::metadata::target::glob_match;
use crate::node::Node;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

fn body(raw: Option<&[u8]>) -> Result<JNode> {
    let raw = raw.unwrap_or_default();
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(Error::new(ErrorKind::Parse, "request body is required"));
    }
    // Malformed JSON is refused in serde's words first; the positioned tree needs it well formed.
    serde_json::from_slice::<serde::de::IgnoredAny>(raw)
        .map_err(|e| super::bulk::json_error(&e, raw))?;
    crate::dsl::json::parse(raw)
        .ok_or_else(|| Error::new(ErrorKind::Parse, "Failed to parse content to map"))
}

fn long(parser: &str, key: &str, v: &JNode) -> Result<i64> {
    match &v.v {
        J::Num(..) | J::Str(_) => v
            .text()
            .and_then(|t| t.parse::<i64>().ok())
            .ok_or_else(|| x_content(format!("[{parser}] failed to parse field [{key}]"), v.pos)),
        _ => Err(x_content(
            format!(
                "[{parser}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )),
    }
}

fn strings(parser: &str, key: &str, v: &JNode) -> Result<Vec<String>> {
    match &v.v {
        J::Str(s) => Ok(vec![s.clone()]),
        J::Arr(items) => items
            .iter()
            .map(|i| {
                i.text()
                    .filter(|_| matches!(i.v, J::Str(_)))
                    .ok_or_else(|| {
                        x_content(format!("[{parser}] failed to parse field [{key}]"), i.pos)
                    })
            })
            .collect(),
        _ => Err(x_content(
            format!(
                "[{parser}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )),
    }
}

fn object(parser: &str, key: &str, v: &JNode) -> Result<Value> {
    match v.v {
        J::Obj(_) => Ok(v.to_value()),
        _ => Err(x_content(
            format!(
                "[{parser}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )),
    }
}

/// The `template` object: `settings`, `mappings`, `aliases`; an unknown key fails as
/// OpenSearch's parser fails it, wrapped in the outer parser's "failed to parse field".
fn parse_template(outer: &str, v: &JNode) -> Result<Template> {
    let Some(fields) = v.as_obj() else {
        return Err(x_content(
            format!(
                "[{outer}] template doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        ));
    };
    let mut t = Template::default();
    for (key, kpos, val) in fields {
        match key.as_str() {
            "settings" => t.settings = Some(flatten(&object("template", key, val)?)?),
            "mappings" => {
                let mut m = object("template", key, val)?;
                // `{"_doc": {...}}` is the typed form of the same mapping.
                if let Value::Object(o) = &m {
                    if o.len() == 1 {
                        if let Some(inner @ Value::Object(_)) = o.get("_doc") {
                            m = inner.clone();
                        }
                    }
                }
                t.mappings = Some(m);
            }
            "aliases" => {
                let Value::Object(a) = object("template", key, val)? else {
                    unreachable!("checked an object")
                };
                for (name, def) in &a {
                    super::indices::parse_alias_body(name, Some(def))?;
                }
                t.aliases = Some(a);
            }
            other => {
                return Err(x_content(
                    format!("[{outer}] failed to parse field [template]"),
                    val.pos,
                )
                .caused_by(x_content(
                    format!("[template] unknown field [{other}]"),
                    *kpos,
                )));
            }
        }
    }
    Ok(t)
}

/// Settings and mappings composed as a new index would take them, checked as OpenSearch checks
/// a template on put (the settings first, then the composed mappings).
/// What is wrong with a template's name, in OpenSearch's words and order.
pub(crate) fn validate_name(name: &str) -> Vec<String> {
    [
        (name.contains(' '), "name must not contain a space"),
        (name.contains(','), "name must not contain a ','"),
        (name.contains('#'), "name must not contain a '#'"),
        (name.contains('*'), "name must not contain a '*'"),
        (name.starts_with('_'), "name must not start with '_'"),
        (name.to_lowercase() != name, "name must be lower cased"),
    ]
    .into_iter()
    .filter(|(bad, _)| *bad)
    .map(|(_, why)| why.to_string())
    .collect()
}

/// `invalid_index_template_exception` listing its problems as a validation failure does.
pub(crate) fn invalid_listing(name: &str, problems: &[String]) -> Error {
    let listed: String = problems
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}: {p};", i + 1))
        .collect();
    invalid(name, &format!("Validation Failed: {listed}"))
}

fn validate(name: &str, resolved: &Resolved) -> Result<()> {
    let mut problems = validate_name(name);
    let settings = Value::Object(resolved.settings.clone().into_iter().collect());
    if let Err(e) = IndexSettings::for_new_index(Some(&settings), "validate-template", "_na_", 0) {
        problems.push(e.reason);
    }
    if !problems.is_empty() {
        return Err(invalid_listing(name, &problems));
    }
    let mapping = composed_mapping(resolved, None);
    if let Some(m) = mapping {
        Mapping::parse(&m).map_err(|e| {
            Error::illegal_argument(format!(
                "composable template [{name}] template after composition is invalid"
            ))
            .caused_by(
                Error::illegal_argument(format!("invalid composite mappings for [{name}]"))
                    .caused_by(
                        Error::new(
                            ErrorKind::MapperParsing,
                            format!("Failed to parse mapping [_doc]: {}", e.reason),
                        )
                        .caused_by(e),
                    ),
            )
        })?;
    }
    Ok(())
}

/// The templates' mappings merged in order, then the request's over them.
pub fn composed_mapping(resolved: &Resolved, request: Option<&Value>) -> Option<Value> {
    let mut parts = resolved.mappings.iter().chain(request);
    let mut out = parts.next()?.clone();
    for m in parts {
        merge_mappings(&mut out, m);
    }
    Some(out)
}

pub fn put_index_template(node: &Node, p: &Params, raw: Option<&[u8]>) -> Result<Response> {
    let name = p.required("name")?;
    let create = p.bool("create", false)?;
    let t = parse_index_template(node, name, raw)?;
    node.index_templates.put_index_template(name, t, create)?;
    Ok(Response::acknowledged())
}

/// An index template body, checked as composed with the components that exist now (a missing
/// one is refused by the store's own checks).
fn parse_index_template(node: &Node, name: &str, raw: Option<&[u8]>) -> Result<IndexTemplate> {
    let b = body(raw)?;
    let Some(fields) = b.as_obj() else {
        return Err(Error::new(
            ErrorKind::Parse,
            "Failed to parse content to map",
        ));
    };
    let mut t = IndexTemplate {
        index_patterns: Vec::new(),
        template: None,
        composed_of: Vec::new(),
        priority: None,
        version: None,
        meta: None,
    };
    let mut patterns = None;
    const P: &str = "index_template";
    for (key, kpos, v) in fields {
        match key.as_str() {
            "index_patterns" => patterns = Some(strings(P, key, v)?),
            "template" => t.template = Some(parse_template(P, v)?),
            "composed_of" => t.composed_of = strings(P, key, v)?,
            "priority" => t.priority = Some(long(P, key, v)?),
            "version" => t.version = Some(long(P, key, v)?),
            "_meta" => t.meta = Some(object(P, key, v)?),
            "data_stream" => {
                return Err(Error::illegal_argument(format!(
                    "index template [{name}] has [data_stream]: Quarry has no data streams"
                )))
            }
            other => return Err(x_content(format!("[{P}] unknown field [{other}]"), *kpos)),
        }
    }
    let Some(patterns) = patterns else {
        return Err(Error::illegal_argument("Required [index_patterns]"));
    };
    t.index_patterns = patterns;
    validate(name, &node.index_templates.compose(&t))?;
    Ok(t)
}

/// What a template resolves to, as `_simulate_index` and `_simulate` print it.
fn simulated(resolved: &Resolved, overlapping: Vec<(String, Vec<String>)>) -> Response {
    let mut template = Map::new();
    template.insert("settings".into(), render_map(&resolved.settings, false));
    if let Some(m) = composed_mapping(resolved, None) {
        template.insert("mappings".into(), m);
    }
    template.insert("aliases".into(), Value::Object(resolved.aliases.clone()));
    let overlapping: Vec<Value> = overlapping
        .into_iter()
        .map(|(n, patterns)| json!({"name": n, "index_patterns": patterns}))
        .collect();
    Response::ok(&json!({"template": template, "overlapping": overlapping}))
}

/// `POST /_index_template/_simulate[/<name>]`: a template given in the body (checked as a put of
/// it under `name` would be) or the stored one named, resolved with its components, and the
/// other templates whose patterns overlap its own.
pub fn simulate_template(node: &Node, p: &Params, raw: Option<&[u8]>) -> Result<Response> {
    let name = p.str("name").filter(|n| !n.is_empty());
    let has_body = raw.is_some_and(|b| !b.iter().all(u8::is_ascii_whitespace));
    let t = match (name, has_body) {
        (_, true) => {
            // Unnamed, it is checked under a name of its own, as OpenSearch does.
            let temp = format!(
                "simulate_template_{}",
                crate::util::ids::random_uuid().to_lowercase()
            );
            let n = name.unwrap_or(&temp);
            let t = parse_index_template(node, n, raw)?;
            node.index_templates.check_index_template(n, &t)?;
            t
        }
        (Some(n), false) => node
            .index_templates
            .index_templates()
            .remove(n)
            .ok_or_else(|| {
                Error::illegal_argument(format!(
                    "unable to simulate template [{n}] that does not exist"
                ))
            })?,
        (None, false) => {
            return Err(Error::new(
                ErrorKind::ActionRequestValidation,
                "Validation Failed: 1: either index name or index template body must be specified for simulation;",
            ))
        }
    };
    let overlapping = node
        .index_templates
        .overlapping_patterns(&t.index_patterns, name);
    Ok(simulated(&node.index_templates.compose(&t), overlapping))
}

pub fn put_component_template(node: &Node, p: &Params, raw: Option<&[u8]>) -> Result<Response> {
    let name = p.required("name")?;
    let create = p.bool("create", false)?;
    let b = body(raw)?;
    let Some(fields) = b.as_obj() else {
        return Err(Error::new(
            ErrorKind::Parse,
            "Failed to parse content to map",
        ));
    };
    const P: &str = "component_template";
    let (mut template, mut version, mut meta) = (None, None, None);
    for (key, kpos, v) in fields {
        match key.as_str() {
            "template" => template = Some(parse_template(P, v)?),
            "version" => version = Some(long(P, key, v)?),
            "_meta" => meta = Some(object(P, key, v)?),
            other => return Err(x_content(format!("[{P}] unknown field [{other}]"), *kpos)),
        }
    }
    let Some(template) = template else {
        return Err(Error::illegal_argument("Required [template]"));
    };
    let resolved = Resolved {
        settings: template.settings.clone().unwrap_or_default(),
        mappings: template.mappings.iter().cloned().collect(),
        aliases: template.aliases.clone().unwrap_or_default(),
    };
    validate(name, &resolved)?;
    node.index_templates.put_component_template(
        name,
        ComponentTemplate {
            template,
            version,
            meta,
        },
        create,
    )?;
    Ok(Response::acknowledged())
}

fn render_template(t: &Template, flat: bool) -> Value {
    let mut out = Map::new();
    // OpenSearch prints a template's settings nested whatever `flat_settings` says.
    let _ = flat;
    if let Some(s) = &t.settings {
        out.insert("settings".into(), render_map(s, false));
    }
    if let Some(m) = &t.mappings {
        out.insert("mappings".into(), m.clone());
    }
    if let Some(a) = &t.aliases {
        out.insert("aliases".into(), Value::Object(a.clone()));
    }
    Value::Object(out)
}

pub(crate) fn render_index_template(t: &IndexTemplate, flat: bool) -> Value {
    let mut out = Map::new();
    out.insert("index_patterns".into(), json!(t.index_patterns));
    if let Some(tpl) = &t.template {
        out.insert("template".into(), render_template(tpl, flat));
    }
    if !t.composed_of.is_empty() {
        out.insert("composed_of".into(), json!(t.composed_of));
    }
    if let Some(p) = t.priority {
        out.insert("priority".into(), json!(p));
    }
    if let Some(v) = t.version {
        out.insert("version".into(), json!(v));
    }
    if let Some(m) = &t.meta {
        out.insert("_meta".into(), m.clone());
    }
    Value::Object(out)
}

pub(crate) fn render_component_template(t: &ComponentTemplate, flat: bool) -> Value {
    let mut out = Map::new();
    out.insert("template".into(), render_template(&t.template, flat));
    if let Some(v) = t.version {
        out.insert("version".into(), json!(v));
    }
    if let Some(m) = &t.meta {
        out.insert("_meta".into(), m.clone());
    }
    Value::Object(out)
}

/// The names `name` selects: all without one, else each comma-separated name or wildcard.
/// Listed in the order of the Java `HashMap` OpenSearch keeps them in.
pub(crate) fn selected<T>(all: BTreeMap<String, T>, name: Option<&str>) -> Vec<(String, T)> {
    let wanted: Option<Vec<&str>> = name.map(|n| n.split(',').map(str::trim).collect());
    let mut out: Vec<(String, T)> = all
        .into_iter()
        .filter(|(n, _)| {
            wanted
                .as_ref()
                .is_none_or(|w| w.iter().any(|p| glob_match(p, n)))
        })
        .collect();
    crate::util::java_hash::hash_order(&mut out);
    out
}

fn not_found(kind: &str, name: &str) -> Error {
    Error::new(
        ErrorKind::ResourceNotFound,
        format!("{kind} matching [{name}] not found"),
    )
}

/// A `GET` of either kind, as `{"<kind>s": [{"name", "<kind>": ...}]}`: a name that matches
/// nothing is an error, a wildcard that matches nothing an empty 404.
fn listing<T>(
    all: BTreeMap<String, T>,
    name: Option<&str>,
    (kind, entry, list_key): (&str, &str, &str),
    render: impl Fn(&T) -> Value,
) -> Result<Response> {
    let found = selected(all, name);
    if let (true, Some(name)) = (found.is_empty(), name) {
        if !name.contains('*') {
            return Err(not_found(kind, name));
        }
        return Ok(Response::json(404, &json!({ list_key: [] })));
    }
    let list: Vec<Value> = found
        .iter()
        .map(|(n, t)| json!({"name": n, entry: render(t)}))
        .collect();
    Ok(Response::ok(&json!({ list_key: list })))
}

pub fn get_index_templates(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    listing(
        node.index_templates.index_templates(),
        p.str("name"),
        ("index template", "index_template", "index_templates"),
        |t| render_index_template(t, flat),
    )
}

pub fn get_component_templates(node: &Node, p: &Params) -> Result<Response> {
    let flat = p.bool("flat_settings", false)?;
    listing(
        node.index_templates.component_templates(),
        p.str("name"),
        (
            "component template",
            "component_template",
            "component_templates",
        ),
        |t| render_component_template(t, flat),
    )
}

pub fn index_template_exists(node: &Node, p: &Params) -> Result<Response> {
    let found = selected(node.index_templates.index_templates(), p.str("name"));
    Ok(Response::empty(if found.is_empty() { 404 } else { 200 }))
}

pub fn component_template_exists(node: &Node, p: &Params) -> Result<Response> {
    let found = selected(node.index_templates.component_templates(), p.str("name"));
    Ok(Response::empty(if found.is_empty() { 404 } else { 200 }))
}

pub fn delete_index_template(node: &Node, p: &Params) -> Result<Response> {
    node.index_templates
        .delete_index_templates(p.required("name")?)?;
    Ok(Response::acknowledged())
}

pub fn delete_component_template(node: &Node, p: &Params) -> Result<Response> {
    node.index_templates
        .delete_component_templates(p.required("name")?)?;
    Ok(Response::acknowledged())
}

/// `POST /_index_template/_simulate_index/<index>`: what a new index of that name would take.
pub fn simulate_index(node: &Node, p: &Params) -> Result<Response> {
    let index = p.required("name")?;
    let Some((chosen, t)) = node.index_templates.find(index, false) else {
        return Ok(Response::ok(&json!({})));
    };
    let overlapping = node.index_templates.overlapping(index, &chosen);
    Ok(simulated(&node.index_templates.compose(&t), overlapping))
}
