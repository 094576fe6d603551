//! `exists`: documents with a value in a field.

use super::json::{Node, J};
use super::{float, parsing, string, unsupported, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut field = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "field" if matches!(v.v, J::Obj(_) | J::Arr(_)) => {
                return Err(parsing(
                    format!("[exists] unknown token [{}] after [field]", v.token()),
                    v.pos,
                ))
            }
            "field" => field = Some(string("exists", k, v)?),
            "boost" => boost = float("exists", k, v)?,
            "_name" => {}
            _ => return Err(unsupported("exists", k, v.pos)),
        }
    }
    let field =
        field.ok_or_else(|| parsing("[exists] must be provided with a [field]", body.end))?;
    super::negative_boost::checked(Query::Exists { field, boost })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        assert_eq!(
            parse_str(r#"{"exists":{"field":"a"}}"#).unwrap(),
            Query::Exists {
                field: "a".into(),
                boost: 1.0
            }
        );
        assert!(parse_str(r#"{"exists":{}}"#).is_err());
    }
}
