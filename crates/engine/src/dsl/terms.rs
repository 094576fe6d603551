//! `terms`: any of several exact values on one field (constant score).

use super::json::{Node, J};
use super::{float, parsing, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut found: Option<(String, Vec<serde_json::Value>)> = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match (&v.v, k.as_str()) {
            (J::Arr(items), _) => {
                if let Some((first, _)) = &found {
                    return Err(parsing(
                        format!(
                            "[terms] query does not support multiple fields [{first}] and [{k}]"
                        ),
                        v.pos,
                    ));
                }
                found = Some((k.clone(), values(k, v, items)?));
            }
            (_, "boost") => boost = float("terms", k, v)?,
            (_, "_name") => {}
            (J::Obj(_), _) => {
                return Err(parsing("[terms] query does not support lookups yet", v.pos))
            }
            _ => {
                return Err(parsing(
                    format!("[terms] query does not support [{k}]"),
                    v.pos,
                ))
            }
        }
    }
    let Some((field, values)) = found else {
        return Err(parsing(
            "[terms] query requires a field with a list of values",
            body.end,
        ));
    };
    super::negative_boost::checked(Query::Terms {
        field,
        values,
        boost,
    })
}

/// The values as `TermsQueryBuilder.parseValues` reads them off Jackson's tokens: a null is
/// refused; a nested array's opening passes for a value, its elements too, and its closing
/// ends the list, so what follows in the outer array is read as the query's own fields.
fn values(field: &str, list: &Node, items: &[Node]) -> Result<Vec<serde_json::Value>> {
    let no_value = |n: &Node| parsing("No value specified for terms query", n.pos);
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        match &it.v {
            J::Null => return Err(no_value(it)),
            J::Arr(inner) => {
                if let Some(n) = inner
                    .iter()
                    .take_while(|n| !matches!(n.v, J::Arr(_)))
                    .find(|n| matches!(n.v, J::Null))
                {
                    return Err(no_value(n));
                }
                return Err(match items.get(i + 1) {
                    None => parsing(
                        format!("[terms] unknown token [END_ARRAY] after [{field}]"),
                        list.end,
                    ),
                    Some(n) if matches!(n.v, J::Arr(_)) => {
                        parsing("[terms] query does not support multiple fields", n.pos)
                    }
                    Some(n) => parsing(format!("[terms] query does not support [{field}]"), n.pos),
                });
            }
            _ => out.push(it.to_value()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        let q = parse_str(r#"{"terms":{"k":["a","b"],"boost":3}}"#).unwrap();
        assert!(
            matches!(q, Query::Terms { boost, ref values, .. } if boost == 3.0 && values.len() == 2)
        );
        assert!(parse_str(r#"{"terms":{"k":"a"}}"#).is_err());
    }

    #[test]
    fn nulls_and_nested_arrays_as_opensearch_reads_them() {
        let reason = |s: &str| parse_str(s).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"terms":{"f":["a",null]}}"#),
            "No value specified for terms query"
        );
        assert_eq!(
            reason(r#"{"terms":{"f":[["a"]]}}"#),
            "[terms] unknown token [END_ARRAY] after [f]"
        );
        assert_eq!(
            reason(r#"{"terms":{"f":["x",["a"],"b"]}}"#),
            "[terms] query does not support [f]"
        );
    }
}
