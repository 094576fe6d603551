//! OpenSearch's refusal of a negative `boost`: `AbstractQueryBuilder.boost` throws, quoting the
//! builder as its `toString()` renders it at that moment, which is before the parser has set the
//! boost (printed as its default, 1.0) and, for most queries, the options set after it.

use super::Query;
use crate::error::Error;
use crate::util::jackson_pretty::pretty;
use serde_json::{json, Map, Value};

/// `Err` when `boost` is negative; `builder` renders the query as OpenSearch's builder prints it.
pub(super) fn check(boost: f32, builder: impl FnOnce() -> Value) -> Result<(), Error> {
    if boost >= 0.0 || boost.is_nan() {
        return Ok(());
    }
    Err(Error::illegal_argument(format!(
        "negative [boost] are not allowed in [{}], use a value between 0 and 1 to deboost",
        pretty(&builder())
    )))
}

/// The `boost` of a query OpenSearch declares with an `ObjectParser` (`match_all`, `ids`): its
/// setter refuses a negative value as the field is parsed, which the parser reports as a failure
/// to parse the field, surfaced as a `parsing_exception`.
pub fn object_parser_boost(
    query: &str,
    v: &super::json::Node,
    builder: impl FnOnce() -> Value,
) -> crate::error::Result<f32> {
    super::object_parser_float(query, "boost", v)
        .and_then(|b| {
            check(b, builder).map(|()| b).map_err(|e| {
                super::x_content(format!("[{query}] failed to parse field [boost]"), v.pos)
                    .caused_by(e)
            })
        })
        .map_err(|e| super::as_parsing(e, v.pos))
}

/// `q` as parsed, or OpenSearch's refusal when its own boost is negative (the queries whose
/// builder rendering this module knows; others pass).
pub fn checked(q: Query) -> crate::error::Result<Query> {
    if let Some(boost) = own_boost(&q) {
        check(boost, || render(&q, 1.0))?;
    }
    Ok(q)
}

/// How OpenSearch's builder of `q` renders with `boost`; queries this module does not know as
/// an empty object.
fn render(q: &Query, boost: f64) -> Value {
    let one = |name: &str, field: &str, body: Value| json!({ name: { field: body } });
    match q {
        Query::Term { field, value, .. } => {
            one("term", field, json!({"value": value, "boost": boost}))
        }
        Query::Terms {
            field,
            values,
            lookup,
            ..
        } => {
            let list = lookup
                .as_ref()
                .map_or_else(|| json!(values), |l| l.to_json());
            json!({"terms": {field.as_str(): list, "boost": boost}})
        }
        Query::Prefix { field, value, .. } => {
            one("prefix", field, json!({"value": value, "boost": boost}))
        }
        Query::Wildcard(w) => one(
            "wildcard",
            &w.field,
            json!({"wildcard": w.value, "boost": boost}),
        ),
        Query::Exists { field, .. } => json!({"exists": {"field": field, "boost": boost}}),
        Query::MatchNone { .. } => json!({"match_none": {"boost": boost}}),
        Query::Range(r) => {
            let mut body = Map::new();
            body.insert("from".into(), r.from.clone().unwrap_or(Value::Null));
            body.insert("to".into(), r.to.clone().unwrap_or(Value::Null));
            body.insert("include_lower".into(), r.include_lower.into());
            body.insert("include_upper".into(), r.include_upper.into());
            if let Some(tz) = &r.time_zone {
                body.insert("time_zone".into(), tz.clone().into());
            }
            body.insert("boost".into(), boost.into());
            json!({"range": {r.field.as_str(): body}})
        }
        // The filter prints as built, with its own boost.
        Query::ConstantScore { filter, .. } => {
            let inner = own_boost(filter).map_or(1.0, f64::from);
            json!({"constant_score": {"filter": render(filter, inner), "boost": boost}})
        }
        _ => json!({}),
    }
}

/// The boost of a query `render` knows.
fn own_boost(q: &Query) -> Option<f32> {
    match q {
        Query::Term { boost, .. }
        | Query::Terms { boost, .. }
        | Query::Prefix { boost, .. }
        | Query::Exists { boost, .. }
        | Query::MatchNone { boost }
        | Query::ConstantScore { boost, .. } => Some(*boost),
        Query::Wildcard(w) => Some(w.boost),
        Query::Range(r) => Some(r.boost),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::dsl::parse_str;

    #[test]
    fn quotes_the_builder_as_opensearch_prints_it() {
        let e = parse_str(r#"{"terms":{"k":[1,true,"x"],"boost":-2}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "negative [boost] are not allowed in [{\n  \"terms\" : {\n    \"k\" : [\n      1,\n      true,\n      \"x\"\n    ],\n    \"boost\" : 1.0\n  }\n}], use a value between 0 and 1 to deboost"
        );
        assert!(parse_str(r#"{"term":{"k":{"value":"x","boost":0}}}"#).is_ok());
        let e =
            parse_str(r#"{"range":{"n":{"gt":1,"boost":-1,"time_zone":"+01:00"}}}"#).unwrap_err();
        assert!(e.reason.contains("\"to\" : null,\n      \"include_lower\" : false,\n      \"include_upper\" : true,\n      \"time_zone\" : \"+01:00\",\n      \"boost\" : 1.0"), "{}", e.reason);
    }
}
