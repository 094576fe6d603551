//! `bool`: must / should / filter / must_not, minimum_should_match, boost.

use super::json::{Node, J};
use super::{
    error_pos, object_parser_boolean, object_parser_float, parse_query, x_content,
    MinimumShouldMatch, Query, DEFAULT_BOOST,
};
use crate::error::Result;

#[derive(Debug, Clone, PartialEq)]
pub struct BoolQuery {
    pub must: Vec<Query>,
    pub should: Vec<Query>,
    pub filter: Vec<Query>,
    pub must_not: Vec<Query>,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub boost: f32,
    /// Composed by Quarry as Lucene's `BooleanQuery` (a query held to an alias filter), not
    /// read from the DSL: `BoolQueryBuilder`'s own rewrites (a required clause rewritten to
    /// `match_none` making the whole query `match_none`) do not apply to it.
    pub lucene: bool,
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut q = BoolQuery {
        must: Vec::new(),
        should: Vec::new(),
        filter: Vec::new(),
        must_not: Vec::new(),
        minimum_should_match: None,
        boost: DEFAULT_BOOST,
        lucene: false,
    };
    for (k, kpos, v) in body.as_obj().unwrap_or_default() {
        let clauses = match k.as_str() {
            "must" => &mut q.must,
            "should" => &mut q.should,
            "filter" => &mut q.filter,
            "must_not" | "mustNot" => &mut q.must_not,
            "boost" => {
                q.boost = object_parser_float("bool", k, v)?;
                continue;
            }
            "minimum_should_match" | "minimumShouldMatch" => {
                q.minimum_should_match = v.text().map(MinimumShouldMatch);
                continue;
            }
            "adjust_pure_negative" => {
                object_parser_boolean("bool", k, v)?;
                continue;
            }
            "_name" => continue,
            _ => return Err(x_content(format!("[bool] unknown field [{k}]"), *kpos)),
        };
        let wrap = |e: crate::error::Error| {
            let pos = error_pos(&e).unwrap_or(v.pos);
            let out = x_content(format!("[bool] failed to parse field [{k}]"), pos);
            // The root cause is the clause's own OpenSearch exception; a plain Java one (an
            // illegal argument) leaves the wrapper as the root, as OpenSearch guesses it.
            let inner = e.root_cause();
            if inner.is_java_exception() {
                return out.caused_by(e);
            }
            let mut root = inner.to_json();
            if let serde_json::Value::Object(m) = &mut root {
                m.remove("caused_by");
            }
            out.with("root_cause", serde_json::Value::Array(vec![root]))
                .caused_by(e)
        };
        match &v.v {
            J::Arr(items) => {
                for it in items {
                    // An empty clause object is skipped, as OpenSearch does inside arrays.
                    if matches!(&it.v, J::Obj(o) if o.is_empty()) {
                        continue;
                    }
                    clauses.push(parse_query(it).map_err(wrap)?);
                }
            }
            J::Obj(o) if o.is_empty() => {}
            _ => clauses.push(parse_query(v).map_err(wrap)?),
        }
    }
    Ok(Query::Bool(q))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn clauses() {
        let Query::Bool(b) = parse_str(
            r#"{"bool":{"must":{"match_all":{}},"should":[{"term":{"a":"x"}},{"term":{"a":"y"}}],"minimum_should_match":1,"boost":2}}"#,
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(b.must.len(), 1);
        assert_eq!(b.should.len(), 2);
        assert_eq!(b.boost, 2.0);
        let e = parse_str(r#"{"bool":{"must":{"match_all":{}},"zap":1}}"#).unwrap_err();
        assert_eq!(e.reason, "[1:34] [bool] unknown field [zap]");
        let e = parse_str(r#"{"bool":{"must":[{"nope":{}}]}}"#).unwrap_err();
        assert_eq!(e.reason, "[1:26] [bool] failed to parse field [must]");
        assert_eq!(e.caused_by.unwrap().reason, "unknown query [nope]");
    }
}
