//! Stored scripts: `PUT|POST /_scripts/<id>[/<context>]`, `GET` and `DELETE /_scripts/<id>`.
//! The body is read as OpenSearch's `StoredScriptSource.parse` reads it: one `script` object
//! with `lang`, `source` (or `code`; an object is kept as its JSON text) and `options`, other
//! fields passed over. Mustache is the only language Quarry runs.

use super::{Params, Response};
use crate::dsl::json::{Node, Pos, J};
use crate::dsl::{parsing, x_content};
use crate::error::{Error, ErrorKind, Result};
use crate::metadata::stored_scripts::StoredScript;
use crate::node::Node as QuarryNode;
use crate::template::{self, request::compact_json, Value};
use serde_json::json;

/// `script.max_size_in_bytes`, OpenSearch's default.
const MAX_SIZE_IN_BYTES: usize = 65_535;
const CONTENT_TYPE: &str = "content_type";
const JSON_CONTENT_TYPE: &str = "application/json; charset=UTF-8";
const PARSER: &str = "stored script source";

pub fn put(node: &QuarryNode, p: &Params, body: Option<&[u8]>) -> Result<Response> {
    let id = p.required("id")?;
    if id.contains('#') {
        return Err(Error::new(
            ErrorKind::ActionRequestValidation,
            "Validation Failed: 1: id cannot contain '#' for stored script;",
        ));
    }
    let size = body.map_or(0, <[u8]>::len);
    let Some(body) = super::search::body_node(body)? else {
        return Err(Error::new(ErrorKind::Parse, "request body is required"));
    };
    let script = parse(&body)?;
    // OpenSearch measures the request's content, not the script's source.
    if size > MAX_SIZE_IN_BYTES {
        return Err(Error::illegal_argument(format!(
            "exceeded max allowed stored script size in bytes [{MAX_SIZE_IN_BYTES}] with size [{size}] for script [{id}]"
        )));
    }
    if script.lang != template::LANG {
        return Err(Error::illegal_argument(format!(
            "unable to put stored script with unsupported lang [{}]",
            script.lang
        )));
    }
    if let Some(context) = p.str("context") {
        check_compiles(id, context, &script)?;
    }
    node.stored_scripts.put(id, script)?;
    Ok(Response::acknowledged())
}

/// The script contexts an OpenSearch node knows (its core ones and its bundled modules').
const CONTEXTS: &[&str] = &[
    "aggregation_selector",
    "aggs",
    "aggs_combine",
    "aggs_init",
    "aggs_map",
    "aggs_reduce",
    "analysis",
    "bucket_aggregation",
    "derived_field",
    "field",
    "filter",
    "ingest",
    "interval",
    "moving-function",
    "number_sort",
    "painless_test",
    "processor_conditional",
    "score",
    "script_heuristic",
    "search",
    "similarity",
    "similarity_weight",
    "string_sort",
    "template",
    "terms_set",
    "update",
];

/// With a context named, the script is compiled for it first: mustache serves templates only.
fn check_compiles(id: &str, context: &str, script: &StoredScript) -> Result<()> {
    let refused = |cause: Error| {
        Error::illegal_argument(format!("failed to parse/compile stored script [{id}]"))
            .caused_by(cause)
    };
    if !CONTEXTS.contains(&context) {
        return Err(refused(Error::illegal_argument(format!(
            "Unknown context [{context}]"
        ))));
    }
    if context != "template" {
        return Err(refused(Error::illegal_argument(format!(
            "mustache engine does not know how to handle context [{context}]"
        ))));
    }
    let encoder = template::encoder_for(script.content_type.as_deref()).map_err(refused)?;
    template::compile(&script.source, encoder)?;
    Ok(())
}

fn parse(body: &Node) -> Result<StoredScript> {
    let Some(entries) = body.as_obj() else {
        return Err(parsing(
            format!("unexpected token [{}], expected [{{]", body.token()),
            body.pos,
        ));
    };
    let Some((name, kpos, v)) = entries.first() else {
        // An empty body stores an empty template (deprecated in OpenSearch, still accepted).
        return Ok(StoredScript {
            lang: template::LANG.into(),
            source: String::new(),
            content_type: None,
        });
    };
    if name != "script" {
        return Err(parsing(
            format!("unexpected field [{name}], expected [script]"),
            *kpos,
        ));
    }
    let Some(fields) = v.as_obj() else {
        return Err(parsing(
            format!("unexpected token [{}], expected [{{, <source>]", v.token()),
            v.pos,
        ));
    };
    script_source(fields)
}

/// An option set once more keeps its place and takes the new value, as a map's `put` does.
fn set_option(options: &mut Vec<(String, Value)>, k: &str, v: String) {
    match options.iter_mut().find(|(o, _)| o == k) {
        Some(slot) => slot.1 = Value::Str(v),
        None => options.push((k.to_string(), Value::Str(v))),
    }
}

/// The `script` object, as the `stored script source` parser and `build()` read it.
fn script_source(fields: &[(String, Pos, Node)]) -> Result<StoredScript> {
    let refused = |key: &str, v: &Node| {
        x_content(
            format!(
                "[{PARSER}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )
    };
    let mut lang = None;
    let mut source = None;
    let mut options: Vec<(String, Value)> = Vec::new();
    for (key, _, v) in fields {
        match key.as_str() {
            "lang" => match &v.v {
                J::Str(s) => lang = Some(s.clone()),
                _ => return Err(refused(key, v)),
            },
            "source" | "code" => match &v.v {
                J::Str(s) => source = Some(s.clone()),
                J::Obj(_) => {
                    let mut text = String::new();
                    compact_json(v, &mut text);
                    source = Some(text);
                    set_option(&mut options, CONTENT_TYPE, JSON_CONTENT_TYPE.into());
                }
                _ => return Err(refused(key, v)),
            },
            "options" => {
                let Some(entries) = v.as_obj() else {
                    return Err(refused(key, v));
                };
                for (k, _, value) in entries {
                    let text = value.text().ok_or_else(|| refused(k, value))?;
                    set_option(&mut options, k, text);
                }
            }
            // OpenSearch's parser passes over fields it does not know (`params` among them).
            _ => {}
        }
    }
    let Some(lang) = lang else {
        return Err(Error::illegal_argument(
            "must specify lang for stored script",
        ));
    };
    if lang.is_empty() {
        return Err(Error::illegal_argument("lang cannot be empty"));
    }
    let source = match source {
        Some(s) if s.is_empty() && lang != template::LANG => {
            return Err(Error::illegal_argument("source cannot be empty"))
        }
        Some(s) => s,
        // OpenSearch lets a mustache script without a source through to a null pointer (500);
        // it is the request's fault, so Quarry answers with the message other languages get.
        None => {
            return Err(Error::illegal_argument(
                "must specify source for stored script",
            ))
        }
    };
    if options.iter().any(|(k, _)| k != CONTENT_TYPE) {
        crate::util::java_hash::hash_order(&mut options);
        return Err(Error::illegal_argument(format!(
            "illegal compiler options [{}] specified",
            Value::Map(options).java_text()
        )));
    }
    let content_type = options.into_iter().next().map(|(_, v)| match v {
        Value::Str(s) => s,
        other => other.java_text(),
    });
    Ok(StoredScript {
        lang,
        source,
        content_type,
    })
}

pub fn get(node: &QuarryNode, p: &Params) -> Result<Response> {
    let id = p.required("id")?;
    Ok(match node.stored_scripts.get(id) {
        Some(s) => Response::ok(&json!({"_id": id, "found": true, "script": script_json(&s)})),
        None => Response::json(404, &json!({"_id": id, "found": false})),
    })
}

/// A stored script as OpenSearch prints it: `lang`, `source`, and `options` when it has any.
pub fn script_json(s: &StoredScript) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("lang".into(), json!(s.lang));
    m.insert("source".into(), json!(s.source));
    if let Some(ct) = &s.content_type {
        m.insert("options".into(), json!({ CONTENT_TYPE: ct }));
    }
    serde_json::Value::Object(m)
}

pub fn delete(node: &QuarryNode, p: &Params) -> Result<Response> {
    let id = p.required("id")?;
    if !node.stored_scripts.delete(id)? {
        return Err(Error::new(
            ErrorKind::ResourceNotFound,
            format!("stored script [{id}] does not exist and cannot be deleted"),
        ));
    }
    Ok(Response::acknowledged())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(body: &str) -> Result<StoredScript> {
        parse(&crate::dsl::json::parse(body.as_bytes()).unwrap())
    }

    #[test]
    fn an_object_source_is_kept_as_json_with_its_content_type() {
        let s =
            parse_str(r#"{"script":{"lang":"mustache","source":{"a":"{{x}}"},"params":{"x":1}}}"#)
                .unwrap();
        assert_eq!(s.source, r#"{"a":"{{x}}"}"#);
        assert_eq!(s.content_type.as_deref(), Some(JSON_CONTENT_TYPE));
        let plain = parse_str(r#"{"script":{"lang":"mustache","source":{"a":1},"options":{"content_type":"text/plain"}}}"#).unwrap();
        assert_eq!(plain.content_type.as_deref(), Some("text/plain"));
    }

    #[test]
    fn refusals_as_opensearch_words_them() {
        let reason = |b: &str| parse_str(b).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"lang":"mustache"}"#),
            "unexpected field [lang], expected [script]"
        );
        assert_eq!(
            reason(r#"{"script":"abc"}"#),
            "unexpected token [VALUE_STRING], expected [{, <source>]"
        );
        assert_eq!(
            reason(r#"{"script":{"source":"x"}}"#),
            "must specify lang for stored script"
        );
        assert_eq!(
            reason(r#"{"script":{"lang":5,"source":"a"}}"#),
            "[1:19] [stored script source] lang doesn't support values of type: VALUE_NUMBER"
        );
        assert_eq!(
            reason(r#"{"script":{"lang":"mustache","source":"x","options":{"foo":"bar"}}}"#),
            "illegal compiler options [{foo=bar}] specified"
        );
        assert_eq!(parse_str("{}").unwrap().source, "");
    }
}
