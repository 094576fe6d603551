//! `match_all`: every document, scored `boost`.

use super::json::Node;
use super::{unsupported, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "boost" => {
                boost = super::negative_boost::object_parser_boost(
                    "match_all",
                    v,
                    || serde_json::json!({"match_all": {"boost": 1.0}}),
                )?
            }
            "_name" => {}
            _ => return Err(unsupported("match_all", k, v.pos)),
        }
    }
    Ok(Query::MatchAll { boost })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn boost() {
        assert_eq!(
            parse_str(r#"{"match_all":{"boost":2}}"#).unwrap(),
            Query::MatchAll { boost: 2.0 }
        );
        assert!(parse_str(r#"{"match_all":{"x":2}}"#).is_err());
    }
}
