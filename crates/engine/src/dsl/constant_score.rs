//! `constant_score`: a filter whose matches all score `boost`.

use super::json::Node;
use super::{float, parse_query, parsing, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut filter = None;
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            // Parsed by hand in OpenSearch: the filter's error comes through as it is.
            "filter" => filter = Some(parse_query(v)?),
            "boost" => boost = float("constant_score", k, v)?,
            "_name" => {}
            _ => {
                return Err(parsing(
                    format!("[constant_score] query does not support [{k}]"),
                    *kpos,
                ))
            }
        }
    }
    let filter =
        filter.ok_or_else(|| parsing("[constant_score] requires a 'filter' element", body.end))?;
    super::negative_boost::checked(Query::ConstantScore {
        filter: Box::new(filter),
        boost,
    })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        let q =
            parse_str(r#"{"constant_score":{"filter":{"term":{"a":"b"}},"boost":1.5}}"#).unwrap();
        assert!(matches!(q, Query::ConstantScore { boost, .. } if boost == 1.5));
        assert!(parse_str(r#"{"constant_score":{}}"#).is_err());
    }
}
