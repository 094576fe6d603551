//! `dis_max`: the best clause's score plus `tie_breaker` times the others'.

use super::json::{Node, J};
use super::{float, parse_query, parsing, Query, DEFAULT_BOOST};
use crate::error::Result;

pub fn parse(body: &Node) -> Result<Query> {
    let mut boost = DEFAULT_BOOST;
    let mut tie_breaker = 0.0;
    let mut queries = Vec::new();
    let mut name = None;
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        match k.as_str() {
            "queries" => {
                // OpenSearch parses the clauses by hand, so their errors come through as they
                // are (no `failed to parse field` around them, as `bool`'s object parser adds).
                match &v.v {
                    J::Arr(items) => {
                        for it in items {
                            queries.push(parse_query(it)?);
                        }
                    }
                    _ => queries.push(parse_query(v)?),
                }
            }
            "tie_breaker" => tie_breaker = float("dis_max", k, v)?,
            "boost" => boost = float("dis_max", k, v)?,
            "_name" => name = v.text(),
            _ => {
                return Err(parsing(
                    format!("[dis_max] query does not support [{k}]"),
                    *kpos,
                ))
            }
        }
    }
    if queries.is_empty() {
        return Err(parsing(
            "[dis_max] requires 'queries' field with at least one clause",
            body.end,
        ));
    }
    // The builder takes its tie breaker and name, then its boost, then its clauses.
    super::negative_boost::check(boost, || {
        let mut b = serde_json::Map::new();
        let tie = crate::query::function_score::java_float(tie_breaker);
        b.insert(
            "tie_breaker".into(),
            serde_json::from_str(&tie).unwrap_or_default(),
        );
        b.insert("queries".into(), serde_json::json!([]));
        b.insert("boost".into(), serde_json::json!(1.0));
        if let Some(n) = name {
            b.insert("_name".into(), n.into());
        }
        serde_json::json!({ "dis_max": b })
    })?;
    Ok(Query::DisMax {
        queries,
        tie_breaker,
        boost,
    })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parses() {
        let q = parse_str(
            r#"{"dis_max":{"queries":[{"term":{"a":"b"}},{"match_all":{}}],"tie_breaker":0.3}}"#,
        )
        .unwrap();
        assert!(
            matches!(q, Query::DisMax { ref queries, tie_breaker, .. } if queries.len() == 2 && (tie_breaker - 0.3).abs() < 1e-6)
        );
    }
}
