//! `term`: an exact value on one field (not analysed; keyword normalizers are the query
//! builder's business).

use super::json::{Node, J};
use super::{boolean, float, parsing, single_non_null_field, unsupported, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let (field, v) = single_non_null_field("term", body)?;
    let mut boost = DEFAULT_BOOST;
    let mut case_insensitive = false;
    let value = match &v.v {
        J::Obj(entries) => {
            let mut value = None;
            for (i, (k, _, x)) in entries.iter().enumerate() {
                match k.as_str() {
                    // Jackson reads an object here as the term's own options (OpenSearch then
                    // refuses what it finds in it, or the key after it as a second field).
                    "value" => match &x.v {
                        J::Obj(inner) => {
                            return Err(match (inner.first(), entries.get(i + 1)) {
                                (Some((ik, _, ix)), _) => unsupported("term", ik, ix.pos),
                                (None, Some((next, _, nx))) => parsing(
                                    format!("[term] query doesn't support multiple fields, found [{field}] and [{next}]"),
                                    nx.pos,
                                ),
                                (None, None) => parsing(
                                    "[term] unknown token [START_OBJECT] after [value]",
                                    x.pos,
                                ),
                            })
                        }
                        _ => value = Some(x.to_value()),
                    },
                    "boost" => boost = float("term", k, x)?,
                    "case_insensitive" => case_insensitive = boolean("term", k, x)?,
                    "_name" => {}
                    _ => return Err(unsupported("term", k, x.pos)),
                }
            }
            // `TermQueryBuilder`'s constructor refuses a missing or null value.
            match value {
                Some(serde_json::Value::Null) | None => {
                    return Err(crate::error::Error::illegal_argument(
                        "value cannot be null",
                    ))
                }
                Some(value) => value,
            }
        }
        J::Arr(_) => {
            return Err(parsing(
                "[term] query does not support array of values",
                v.pos,
            ))
        }
        // The short form's parser takes a null value for the end of its object: no field.
        J::Null => {
            return Err(crate::error::Error::illegal_argument(
                "field name is null or empty",
            ))
        }
        _ => v.to_value(),
    };
    super::negative_boost::checked(Query::Term {
        field,
        value,
        boost,
        case_insensitive,
    })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};
    use serde_json::json;

    #[test]
    fn short_and_long_forms() {
        let q = parse_str(r#"{"term":{"k":{"value":"a","boost":2}}}"#).unwrap();
        assert_eq!(
            q,
            Query::Term {
                field: "k".into(),
                value: json!("a"),
                boost: 2.0,
                case_insensitive: false
            }
        );
        assert!(matches!(
            parse_str(r#"{"term":{"k":5}}"#).unwrap(),
            Query::Term { .. }
        ));
        let e = parse_str(r#"{"term":{"k":"a","n":5}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "[term] query doesn't support multiple fields, found [k] and [n]"
        );
        let e = parse_str(r#"{"term":{"k":{"value":"a","bar":1}}}"#).unwrap_err();
        assert_eq!(e.reason, "[term] query does not support [bar]");
        let e = parse_str(r#"{"term":{"k":["a"]}}"#).unwrap_err();
        assert_eq!(e.reason, "[term] query does not support array of values");
    }
}
