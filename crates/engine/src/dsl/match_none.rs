//! `match_none`: no document.

use super::json::Node;
use super::{float, unsupported, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "boost" => boost = float("match_none", k, v)?,
            "_name" => {}
            _ => return Err(unsupported("match_none", k, v.pos)),
        }
    }
    super::negative_boost::checked(Query::MatchNone { boost })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        assert_eq!(
            parse_str(r#"{"match_none":{}}"#).unwrap(),
            Query::MatchNone { boost: 1.0 }
        );
    }
}
