//! `match_all`: every document, scored `boost`.

use super::json::Node;
use super::{unsupported, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "boost" => {
                boost = super::object_parser_float("match_all", k, v)
                    .and_then(|b| {
                        super::negative_boost::check(
                            b,
                            || serde_json::json!({"match_all": {"boost": 1.0}}),
                        )
                        .map_err(|e| {
                            super::x_content("[match_all] failed to parse field [boost]", v.pos)
                                .caused_by(e)
                        })
                        .map(|()| b)
                    })
                    .map_err(|e| super::as_parsing(e, v.pos))?
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
