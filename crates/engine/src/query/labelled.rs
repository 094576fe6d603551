//! A query carrying Lucene's `toString` of what OpenSearch builds in its place, for
//! `_validate` explanations (`Context::label`): a fuzzy query prints `title:quikc~1`, not the
//! terms it expands to, a phrase prefix `title:"quick br*"`. Searching runs the inner query.

use super::Q;
use tantivy::query::{EnableScoring, Query, Weight};
use tantivy::Term;

#[derive(Debug)]
pub struct LabelledQuery {
    inner: Q,
    text: String,
    /// The text is a Lucene `BooleanQuery`'s, which a parent parenthesises.
    boolean: bool,
}

impl Clone for LabelledQuery {
    fn clone(&self) -> Self {
        LabelledQuery {
            inner: self.inner.box_clone(),
            text: self.text.clone(),
            boolean: self.boolean,
        }
    }
}

impl LabelledQuery {
    pub fn new(inner: Q, text: String, boolean: bool) -> Self {
        LabelledQuery {
            inner,
            text,
            boolean,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_boolean(&self) -> bool {
        self.boolean
    }

    pub fn inner(&self) -> &dyn Query {
        self.inner.as_ref()
    }
}

impl Query for LabelledQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        self.inner.weight(scoring)
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}
