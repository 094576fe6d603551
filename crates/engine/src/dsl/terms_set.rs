//! `terms_set`: documents matching at least a per-document number of the given terms, that
//! number read from a numeric field (`minimum_should_match_field`) or given by a script. Lucene
//! runs it as a `CoveringQuery`, which sums the scores of the matching term queries.
//!
//! Scripts are not run by Quarry. A script that only reads a number from its params
//! (`params.num_terms`, the number of terms given, or `params.<name>` of its own `params`) is the
//! same for every document and is evaluated here; any other script is refused with a 400.

use super::json::{Node, J};
use super::{float, parsing, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};
use serde_json::Value;

/// Where the per-document minimum comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum MinimumShouldMatch {
    /// A numeric field of the document.
    Field(String),
    /// A constant, from a params-only script.
    Constant(i64),
    /// Neither was given: OpenSearch fails when the query is built.
    Unset,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermsSetQuery {
    pub field: String,
    pub terms: Vec<Value>,
    pub minimum: MinimumShouldMatch,
    pub boost: f32,
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut found: Option<(String, &Node)> = None;
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        if found.is_some() {
            return Err(parsing("[terms_set] unknown token [FIELD_NAME]", *kpos));
        }
        if !matches!(v.v, J::Obj(_)) {
            return Err(parsing(
                format!("[terms_set] unknown token [{}] after [{k}]", v.token()),
                v.pos,
            ));
        }
        found = Some((k.clone(), v));
    }
    let Some((field, params)) = found else {
        return Err(Error::illegal_argument("[terms_set] requires field name"));
    };
    let mut terms = Vec::new();
    let mut min_field = None;
    let mut script: Option<&Node> = None;
    let mut boost = DEFAULT_BOOST;
    for (k, _, v) in params.as_obj().unwrap_or_default() {
        match (k.as_str(), &v.v) {
            ("terms", J::Arr(items)) => terms = items.iter().map(Node::to_value).collect(),
            ("minimum_should_match_script", J::Obj(_)) => script = Some(v),
            ("minimum_should_match_script", J::Str(_)) => script = Some(v),
            ("minimum_should_match_field", _) if !matches!(v.v, J::Obj(_) | J::Arr(_)) => {
                min_field = v.text()
            }
            ("boost", _) => boost = float("terms_set", k, v)?,
            ("_name", _) => {}
            _ => {
                return Err(parsing(
                    format!("[terms_set] query does not support [{k}]"),
                    v.pos,
                ))
            }
        }
    }
    let minimum = match (min_field, script) {
        (Some(f), _) => MinimumShouldMatch::Field(f),
        (None, Some(s)) => MinimumShouldMatch::Constant(params_script(s, terms.len())?),
        (None, None) => MinimumShouldMatch::Unset,
    };
    Ok(Query::TermsSet(TermsSetQuery {
        field,
        terms,
        minimum,
        boost,
    }))
}

/// The value of a script that only reads its params: `params.num_terms` or `params.<name>`.
fn params_script(node: &Node, num_terms: usize) -> Result<i64> {
    let (source, params) = match &node.v {
        J::Str(s) => (s.clone(), None),
        _ => (
            node.get("source")
                .or_else(|| node.get("inline"))
                .and_then(Node::text)
                .unwrap_or_default(),
            node.get("params").map(Node::to_value),
        ),
    };
    let expr = source.trim().trim_end_matches(';').trim();
    let expr = expr.strip_prefix("return ").unwrap_or(expr).trim();
    let refused = || {
        Error::illegal_argument(format!(
            "[terms_set] minimum_should_match_script [{source}] is not supported: Quarry runs no scripts; only a params lookup ([params.num_terms] or [params.<name>]) is evaluated. Use [minimum_should_match_field] instead"
        ))
    };
    let Some(name) = expr.strip_prefix("params.") else {
        return Err(refused());
    };
    if name == "num_terms" {
        return Ok(num_terms as i64);
    }
    let value = params
        .as_ref()
        .and_then(|p| p.get(name))
        .ok_or_else(refused)?;
    match value {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|f| f as i64))
            .ok_or_else(refused),
        _ => Err(refused()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_str;
    use super::*;

    fn ts(s: &str) -> TermsSetQuery {
        match parse_str(s).unwrap() {
            Query::TermsSet(t) => t,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn field_and_params_scripts() {
        let t = ts(
            r#"{"terms_set":{"tags":{"terms":["a","b","c"],"minimum_should_match_field":"n","boost":2}}}"#,
        );
        assert_eq!(t.minimum, MinimumShouldMatch::Field("n".into()));
        assert_eq!(t.boost, 2.0);
        let t = ts(
            r#"{"terms_set":{"tags":{"terms":["a","b","c"],"minimum_should_match_script":{"source":"params.num_terms"}}}}"#,
        );
        assert_eq!(t.minimum, MinimumShouldMatch::Constant(3));
        let t = ts(
            r#"{"terms_set":{"tags":{"terms":["a"],"minimum_should_match_script":{"source":"params.m","params":{"m":2}}}}}"#,
        );
        assert_eq!(t.minimum, MinimumShouldMatch::Constant(2));
    }

    #[test]
    fn refusals() {
        let e = parse_str(
            r#"{"terms_set":{"tags":{"terms":["a"],"minimum_should_match_script":{"source":"Math.min(params.num_terms, doc['n'].value)"}}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::IllegalArgument);
        let e = parse_str(r#"{"terms_set":{"tags":{"terms":["a"],"foo":"x"}}}"#).unwrap_err();
        assert_eq!(e.reason, "[terms_set] query does not support [foo]");
        let e = parse_str(r#"{"terms_set":{"tags":{"terms":["a"]},"genre":{"terms":["b"]}}}"#)
            .unwrap_err();
        assert_eq!(e.reason, "[terms_set] unknown token [FIELD_NAME]");
    }
}
