//! `boosting`: the positive query's matches, scores multiplied by `negative_boost` where the
//! negative query matches too.

use super::json::Node;
use super::{float, parse_query, parsing, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut negative_boost = -1.0;
    let (mut positive, mut negative) = (None, None);
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        // Parsed by hand in OpenSearch: a clause's error comes through as it is.
        let sub = || parse_query(v);
        match k.as_str() {
            "positive" => positive = Some(sub()?),
            "negative" => negative = Some(sub()?),
            "negative_boost" => negative_boost = float("boosting", k, v)?,
            "boost" => boost = float("boosting", k, v)?,
            "_name" => {}
            _ => {
                return Err(parsing(
                    format!("[boosting] query does not support [{k}]"),
                    *kpos,
                ))
            }
        }
    }
    let positive = positive.ok_or_else(|| {
        parsing(
            "[boosting] query requires 'positive' query to be set'",
            body.end,
        )
    })?;
    let negative = negative.ok_or_else(|| {
        parsing(
            "[boosting] query requires 'negative' query to be set'",
            body.end,
        )
    })?;
    if negative_boost < 0.0 {
        return Err(parsing(
            "[boosting] query requires 'negative_boost' to be set to be a positive value'",
            body.end,
        ));
    }
    Ok(Query::Boosting {
        positive: Box::new(positive),
        negative: Box::new(negative),
        negative_boost,
        boost,
    })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        let q = parse_str(
            r#"{"boosting":{"positive":{"match_all":{}},"negative":{"term":{"a":"b"}},"negative_boost":0.5}}"#,
        )
        .unwrap();
        assert!(matches!(q, Query::Boosting { negative_boost, .. } if negative_boost == 0.5));
        let e = parse_str(r#"{"boosting":{"positive":{"match_all":{}}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "[boosting] query requires 'negative' query to be set'"
        );
    }
}
