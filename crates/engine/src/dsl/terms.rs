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
                found = Some((k.clone(), items.iter().map(Node::to_value).collect()));
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
}
