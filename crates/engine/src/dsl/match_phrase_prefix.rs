//! `match_phrase_prefix`: a phrase whose last analysed term is a prefix, expanded over the term
//! dictionary to at most `max_expansions` terms (OpenSearch's MultiPhrasePrefixQuery).

use super::json::{Node, J};
use super::match_phrase::MatchPhraseQuery;
use super::match_query::ZeroTerms;
use super::{float, single_field, string, unsupported, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};
use serde_json::Value;

pub const DEFAULT_MAX_EXPANSIONS: u32 = 50;

pub fn parse(body: &Node) -> Result<Query> {
    const NAME: &str = "match_phrase_prefix";
    let (field, v) = single_field(NAME, body)?;
    let mut q = MatchPhraseQuery {
        field,
        query: Value::Null,
        slop: 0,
        analyzer: None,
        zero_terms_query: ZeroTerms::None,
        boost: DEFAULT_BOOST,
        max_expansions: Some(DEFAULT_MAX_EXPANSIONS),
    };
    match &v.v {
        J::Obj(entries) => {
            for (k, _, x) in entries {
                super::loop_token(NAME, k, x, super::Arrays::Unknown)?;
                match k.as_str() {
                    "query" => q.query = x.to_value(),
                    "slop" => {
                        let s = super::int(NAME, k, x)?;
                        if s < 0 {
                            return Err(Error::illegal_argument("No negative slop allowed."));
                        }
                        q.slop = s as u32;
                    }
                    "max_expansions" => {
                        let m = super::int(NAME, k, x)?;
                        if m < 0 {
                            return Err(Error::illegal_argument(
                                "No negative maxExpansions allowed.",
                            ));
                        }
                        q.max_expansions = Some(m.min(u32::MAX as i64) as u32);
                    }
                    "analyzer" => q.analyzer = Some(string(NAME, k, x)?),
                    "zero_terms_query" => {
                        q.zero_terms_query = ZeroTerms::parse(&string(NAME, k, x)?, x.pos)?
                    }
                    "boost" => q.boost = float(NAME, k, x)?,
                    "_name" => {}
                    _ => return Err(unsupported(NAME, k, x.pos)),
                }
            }
        }
        J::Arr(_) => return Err(super::no_text(v)),
        _ => q.query = v.to_value(),
    }
    // Written out or short (`"field": null`), as the builder is made.
    if q.query.is_null() {
        return Err(Error::illegal_argument(
            "[match_phrase_prefix] requires query value",
        ));
    }
    Ok(Query::MatchPhrase(q))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn defaults_and_errors() {
        let Query::MatchPhrase(p) =
            parse_str(r#"{"match_phrase_prefix":{"t":"quick br"}}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(p.max_expansions, Some(50));
        let e = parse_str(r#"{"match_phrase_prefix":{"t":{"query":"a","max_expansions":-1}}}"#)
            .unwrap_err();
        assert_eq!(e.reason, "No negative maxExpansions allowed.");
        let e = parse_str(r#"{"match_phrase_prefix":{"t":{"slop":1}}}"#).unwrap_err();
        assert_eq!(e.reason, "[match_phrase_prefix] requires query value");
    }
}
