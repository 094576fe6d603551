//! Lucene's `MatchNoDocsQuery` with the reason OpenSearch gives it, where the reason shows: a
//! lenient query on a field it cannot query (`Queries.newLenientFieldQuery`) prints
//! `MatchNoDocsQuery("failed [f] query, caused by …")` in `_validate` and explains a miss with
//! that reason. Built only for explanations and `_validate` (a searching context builds
//! tantivy's `EmptyQuery`, which scores and matches the same: nothing).

use super::Q;
use crate::error::{Error, ErrorKind};
use tantivy::query::{EmptyQuery, EmptyWeight, EnableScoring, Query, Weight};

#[derive(Debug, Clone)]
pub struct MatchNoDocs {
    reason: String,
}

impl MatchNoDocs {
    pub fn new(reason: String) -> Self {
        MatchNoDocs { reason }
    }

    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl Query for MatchNoDocs {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(EmptyWeight))
    }
}

/// Whether `q` is Lucene's `MatchNoDocsQuery`: tantivy's `EmptyQuery` or one with a reason.
pub fn is_match_no_docs(q: &dyn Query) -> bool {
    q.is::<EmptyQuery>() || q.is::<MatchNoDocs>()
}

/// Lucene's `DisjunctionMaxQuery` holds its clauses in a multiset, where `MatchNoDocsQuery`s are
/// all one (its `equals` ignores the reason): each prints and explains as the first of them.
/// The clause `c` stands for among `clauses`.
pub fn disjunct<'a>(clauses: &'a [Q], c: &'a dyn Query) -> &'a dyn Query {
    if !is_match_no_docs(c) {
        return c;
    }
    clauses
        .iter()
        .map(|q| q.as_ref())
        .find(|q| is_match_no_docs(*q))
        .unwrap_or(c)
}

/// `Queries.newLenientFieldQuery`'s reason: the field query's own exception (inside the shard's
/// wrapper when there is one), by its OpenSearch name and message.
pub fn lenient_failure(field: &str, e: &Error) -> String {
    let cause = match (&e.kind, e.caused_by.as_deref()) {
        (ErrorKind::QueryShard, Some(c)) => c,
        _ => e,
    };
    format!(
        "failed [{field}] query, caused by {}:[{}]",
        cause.type_name(),
        cause.reason
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_reasons_name_the_field_query_s_own_exception() {
        let cause = Error::new(ErrorKind::NumberFormat, "For input string: \"x\"");
        assert_eq!(
            lenient_failure("n", &cause),
            "failed [n] query, caused by number_format_exception:[For input string: \"x\"]"
        );
        let wrapped = Error::new(ErrorKind::QueryShard, "failed to create query").caused_by(cause);
        assert_eq!(
            lenient_failure("n", &wrapped),
            "failed [n] query, caused by number_format_exception:[For input string: \"x\"]"
        );
        assert!(is_match_no_docs(&MatchNoDocs::new(String::new())));
        assert!(is_match_no_docs(&EmptyQuery));
    }

    #[test]
    fn a_disjunction_s_no_docs_clauses_stand_for_the_first() {
        let clauses: Vec<Q> = vec![
            Box::new(tantivy::query::AllQuery),
            Box::new(MatchNoDocs::new("a".into())),
            Box::new(MatchNoDocs::new("b".into())),
            Box::new(EmptyQuery),
        ];
        let reason = |q: &dyn Query| {
            q.downcast_ref::<MatchNoDocs>()
                .map(|m| m.reason().to_string())
        };
        for c in &clauses[1..] {
            assert_eq!(reason(disjunct(&clauses, c.as_ref())).as_deref(), Some("a"));
        }
        let all = disjunct(&clauses, clauses[0].as_ref());
        assert!(all.is::<tantivy::query::AllQuery>());
    }
}
