//! OpenSearch's refusal of a negative `boost`: `AbstractQueryBuilder.boost` throws, quoting the
//! builder as its `toString()` renders it at that moment, which is before the parser has set the
//! boost (printed as its default, 1.0) and, for most queries, the options set after it.

use super::Query;
use crate::error::Error;
use crate::util::jackson_pretty::pretty;
use serde_json::{json, Map, Value};

/// `Err` when `boost` is negative; `builder` renders the query as OpenSearch's builder prints it.
pub fn check(boost: f32, builder: impl FnOnce() -> Value) -> Result<(), Error> {
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

/// How OpenSearch's builder of `q` renders, for the queries whose rendering this module knows
/// (a query nested in one being refused); others as their type with the boost only.
pub fn builder_of(q: &Query) -> Value {
    let one = |name: &str, field: &str, body: Value| json!({ name: { field: body } });
    match q {
        Query::Term {
            field,
            value,
            boost,
            ..
        } => one(
            "term",
            field,
            json!({"value": value, "boost": f64::from(*boost)}),
        ),
        Query::Terms {
            field,
            values,
            boost,
        } => json!({"terms": {field.as_str(): values, "boost": f64::from(*boost)}}),
        Query::Prefix {
            field,
            value,
            boost,
            ..
        } => one(
            "prefix",
            field,
            json!({"value": value, "boost": f64::from(*boost)}),
        ),
        Query::Wildcard(w) => one(
            "wildcard",
            &w.field,
            json!({"wildcard": w.value, "boost": f64::from(w.boost)}),
        ),
        Query::Exists { field, boost } => {
            json!({"exists": {"field": field, "boost": f64::from(*boost)}})
        }
        Query::Range(r) => range(r, f64::from(r.boost)),
        _ => json!({}),
    }
}

/// A `range` builder: bounds as given, then the time zone if one is.
pub fn range(r: &super::range::RangeQuery, boost: f64) -> Value {
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
