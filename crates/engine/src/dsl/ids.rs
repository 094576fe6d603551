//! `ids`: documents by `_id`.

use super::json::{Node, J};
use super::{parsing, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut values = Vec::new();
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "values" => match &v.v {
                J::Arr(items) => {
                    for it in items {
                        values.push(it.text().ok_or_else(|| {
                            parsing(
                                format!("{} [ids] failed to parse field [values]", it.pos),
                                it.pos,
                            )
                        })?);
                    }
                }
                // A lone string is one id (its object parser's string array takes one).
                J::Str(s) => values.push(s.clone()),
                _ => {
                    let e = super::x_content(
                        "[ids] values doesn't support values of type: ".to_string() + v.token(),
                        v.pos,
                    );
                    return Err(super::as_parsing(e, v.pos));
                }
            },
            "boost" => {
                boost = super::negative_boost::object_parser_boost(
                    "ids",
                    v,
                    || serde_json::json!({"ids": {"values": values, "boost": 1.0}}),
                )?
            }
            "_name" | "types" => {}
            _ => {
                return Err(super::x_content(
                    format!("[ids] unknown field [{k}]"),
                    *kpos,
                ))
            }
        }
    }
    Ok(Query::Ids { values, boost })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        assert_eq!(
            parse_str(r#"{"ids":{"values":["1",2]}}"#).unwrap(),
            Query::Ids {
                values: vec!["1".into(), "2".into()],
                boost: 1.0
            }
        );
        let e = parse_str(r#"{"ids":{"x":1}}"#).unwrap_err();
        assert_eq!(e.reason, "[1:9] [ids] unknown field [x]");
    }
}
