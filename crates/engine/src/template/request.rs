//! The body of `_search/template`, `_render/template` and each template of
//! `_msearch/template`, read as OpenSearch's `SearchTemplateRequest` parser reads it: `source`
//! (or `inline`, `template`) as an object or a string, `id`, `params`, `explain`, `profile`;
//! the last of `source` and `id` decides which template runs.

use super::value::Value;
use crate::dsl::json::{Node, J};
use crate::dsl::{object_parser_boolean, x_content};
use crate::error::{Error, ErrorKind, Result};

const NAME: &str = "search_template";

#[derive(Debug, Clone, PartialEq)]
pub enum ScriptRef {
    Inline(String),
    Stored(String),
}

#[derive(Debug, Clone)]
pub struct TemplateRequest {
    pub script: Option<ScriptRef>,
    pub params: Value,
    pub explain: bool,
    pub profile: bool,
}

impl TemplateRequest {
    pub fn parse(body: &Node) -> Result<TemplateRequest> {
        let Some(entries) = body.as_obj() else {
            return Err(x_content(
                format!("[{NAME}] Expected START_OBJECT but was: {}", body.token()),
                body.pos,
            ));
        };
        let mut r = TemplateRequest {
            script: None,
            params: Value::Map(Vec::new()),
            explain: false,
            profile: false,
        };
        let refused = |key: &str, v: &Node| {
            x_content(
                format!(
                    "[{NAME}] {key} doesn't support values of type: {}",
                    v.token()
                ),
                v.pos,
            )
        };
        for (key, kpos, v) in entries {
            match key.as_str() {
                "params" => match v.v {
                    J::Obj(_) => r.params = Value::from_node(v),
                    _ => return Err(refused(key, v)),
                },
                "id" => match &v.v {
                    J::Str(s) => r.script = Some(ScriptRef::Stored(s.clone())),
                    _ => return Err(refused(key, v)),
                },
                "explain" => r.explain = object_parser_boolean(NAME, key, v)?,
                "profile" => r.profile = object_parser_boolean(NAME, key, v)?,
                "source" | "inline" | "template" => match &v.v {
                    J::Str(s) => r.script = Some(ScriptRef::Inline(s.clone())),
                    J::Obj(_) => {
                        let mut text = String::new();
                        compact_json(v, &mut text);
                        r.script = Some(ScriptRef::Inline(text));
                    }
                    _ => return Err(refused(key, v)),
                },
                other => {
                    return Err(x_content(
                        format!("[{NAME}] unknown field [{other}]"),
                        *kpos,
                    ))
                }
            }
        }
        Ok(r)
    }

    /// `SearchTemplateRequest.validate()`: a template must be named or given.
    pub fn script(&self) -> Result<&ScriptRef> {
        self.script.as_ref().ok_or_else(|| {
            Error::new(
                ErrorKind::ActionRequestValidation,
                "Validation Failed: 1: template is missing;2: template's script type is missing;",
            )
        })
    }
}

/// A JSON value as Jackson copies it into a string: compact, keys in document order, whole
/// numbers as written, the others as Java doubles.
pub fn compact_json(node: &Node, out: &mut String) {
    Value::in_document_order(node).json_into(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &str) -> Result<TemplateRequest> {
        TemplateRequest::parse(&crate::dsl::json::parse(body.as_bytes()).unwrap())
    }

    #[test]
    fn an_object_source_becomes_its_json_text() {
        let r =
            parse(r#"{"source":{"query":{"match":{"t":"{{q}}"}},"size":1.50},"params":{"q":"x"}}"#)
                .unwrap();
        assert_eq!(
            r.script,
            Some(ScriptRef::Inline(
                r#"{"query":{"match":{"t":"{{q}}"}},"size":1.5}"#.into()
            ))
        );
    }

    #[test]
    fn the_last_of_source_and_id_wins() {
        let r = parse(r#"{"source":"x","id":"t1"}"#).unwrap();
        assert_eq!(r.script, Some(ScriptRef::Stored("t1".into())));
    }

    #[test]
    fn refusals_as_the_object_parser_words_them() {
        let reason = |b: &str| parse(b).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"source":{"size":1},"bogus":1}"#),
            "[1:22] [search_template] unknown field [bogus]"
        );
        assert_eq!(
            reason(r#"{"source":{"size":1}, "params":[1]}"#),
            "[1:32] [search_template] params doesn't support values of type: START_ARRAY"
        );
        assert_eq!(
            reason(r#"{"source":3}"#),
            "[1:11] [search_template] source doesn't support values of type: VALUE_NUMBER"
        );
        let missing = parse(r#"{"params":{}}"#).unwrap();
        assert_eq!(
            missing.script().unwrap_err().reason,
            "Validation Failed: 1: template is missing;2: template's script type is missing;"
        );
    }
}
