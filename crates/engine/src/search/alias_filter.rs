//! Filtered aliases. A read through aliases with filters is held to them on each shard of the
//! index (OpenSearch's `DefaultSearchContext.buildFilteredQuery`): the request's query stays
//! the one scoring clause and the filter is a non-scoring clause beside it, so scores are the
//! unfiltered query's. An alias's filter is checked against its index before it is accepted.

use crate::dsl::{self, BoolQuery, Query as Ast};
use crate::error::{Error, Result};
use crate::index::index_service::{AliasMeta, IndexService};
use crate::query::{self, Context};
use serde_json::Value;

/// An alias's stored filter as a query. OpenSearch keeps the filter as the compact JSON of the
/// map it was given (keys in order) and parses that, so positions in errors count from it.
fn parse(filter: &Value) -> Result<Ast> {
    let bytes = serde_json::to_vec(filter).map_err(|e| Error::internal(e.to_string()))?;
    let node =
        dsl::json::parse(&bytes).ok_or_else(|| Error::internal("an alias filter is not JSON"))?;
    dsl::parse_query(&node)
}

/// The filter of a read through `aliases` (each with a filter, as `filtering_aliases` gives
/// them): one alias's own query, several OR-ed in a `bool` of `should` clauses, as
/// `AliasFilter` combines them.
pub fn of_aliases(aliases: &[(&str, &AliasMeta)]) -> Result<Option<Ast>> {
    let mut queries = Vec::with_capacity(aliases.len());
    for (_, a) in aliases {
        if let Some(f) = &a.filter {
            queries.push(parse(f)?);
        }
    }
    Ok(match queries.len() {
        0 => None,
        1 => queries.pop(),
        _ => Some(Ast::Bool(BoolQuery {
            must: Vec::new(),
            should: queries,
            filter: Vec::new(),
            must_not: Vec::new(),
            minimum_should_match: None,
            boost: dsl::DEFAULT_BOOST,
            lucene: false,
        })),
    })
}

/// `query` held to `filter`: Lucene's `+query #filter`.
pub fn filtered(query: &Ast, filter: &Ast) -> Ast {
    Ast::Bool(BoolQuery {
        must: vec![query.clone()],
        should: Vec::new(),
        filter: vec![filter.clone()],
        must_not: Vec::new(),
        minimum_should_match: None,
        boost: dsl::DEFAULT_BOOST,
        lucene: true,
    })
}

/// Whether `filter` may be the filter of alias `alias` on `svc`: it must parse and build on
/// the index's mapping (`AliasValidator.validateAliasFilter`), else OpenSearch's
/// `failed to parse filter for alias [<alias>]`, caused by the query's own error as its
/// builder throws it (no shard's "failed to create query" around it).
pub fn validate(alias: &str, filter: &Value, svc: &IndexService) -> Result<()> {
    let built = parse(filter).and_then(|ast| {
        let meta = svc.meta();
        let searcher = svc.shards()[0].searcher();
        let cx = Context::of(&searcher, &meta);
        query::build(&ast, &cx)
            .map(drop)
            .map_err(|e| match e.caused_by {
                Some(cause) if e.reason.starts_with("failed to create query: ") => *cause,
                _ => e,
            })
    });
    built.map_err(|cause| {
        Error::illegal_argument(format!("failed to parse filter for alias [{alias}]"))
            .caused_by(cause)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn alias(filter: Value) -> AliasMeta {
        AliasMeta {
            filter: Some(filter),
            ..AliasMeta::default()
        }
    }

    #[test]
    fn one_alias_is_its_filter_and_several_are_ored() {
        let x = alias(json!({"term": {"k": "x"}}));
        let y = alias(json!({"term": {"k": "y"}}));
        let one = of_aliases(&[("x", &x)]).unwrap().unwrap();
        assert!(matches!(one, Ast::Term { .. }));
        let Some(Ast::Bool(both)) = of_aliases(&[("x", &x), ("y", &y)]).unwrap() else {
            panic!("a bool");
        };
        assert_eq!(both.should.len(), 2);
        assert!(both.must.is_empty() && both.filter.is_empty());
        assert!(of_aliases(&[]).unwrap().is_none());
    }

    #[test]
    fn errors_are_placed_in_the_filters_own_json() {
        let e = parse(&json!({"bogus": {}})).unwrap_err();
        assert_eq!(e.reason, "unknown query [bogus]");
        assert!(e
            .metadata
            .iter()
            .any(|(k, v)| k == "col" && *v == json!(10)));
    }

    #[test]
    fn the_query_scores_and_the_filter_only_filters() {
        let q = Ast::MatchAll { boost: 2.0 };
        let f = Ast::MatchNone { boost: 1.0 };
        let Ast::Bool(b) = filtered(&q, &f) else {
            panic!("a bool");
        };
        assert_eq!(b.must, vec![q]);
        assert_eq!(b.filter, vec![f]);
    }
}
