//! `match_phrase`: analysed terms in order, within `slop` moves.

use super::json::{Node, J};
use super::match_query::ZeroTerms;
use super::{float, single_field, string, unsupported, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct MatchPhraseQuery {
    pub field: String,
    pub query: Value,
    pub slop: u32,
    pub analyzer: Option<String>,
    pub zero_terms_query: ZeroTerms,
    pub boost: f32,
    /// `match_phrase_prefix`: the last term is a prefix expanded to this many terms at most.
    pub max_expansions: Option<u32>,
}

pub fn parse(body: &Node) -> Result<Query> {
    let (field, v) = single_field("match_phrase", body)?;
    let mut q = MatchPhraseQuery {
        field,
        query: Value::Null,
        slop: 0,
        analyzer: None,
        zero_terms_query: ZeroTerms::None,
        boost: DEFAULT_BOOST,
        max_expansions: None,
    };
    match &v.v {
        J::Obj(entries) => {
            for (k, _, x) in entries {
                super::loop_token("match_phrase", k, x, super::Arrays::Unknown)?;
                match k.as_str() {
                    "query" => q.query = x.to_value(),
                    "slop" => {
                        let s = super::int("match_phrase", k, x)?;
                        if s < 0 {
                            return Err(Error::illegal_argument("No negative slop allowed."));
                        }
                        q.slop = s as u32;
                    }
                    "analyzer" => q.analyzer = Some(string("match_phrase", k, x)?),
                    "zero_terms_query" => {
                        q.zero_terms_query =
                            ZeroTerms::parse(&string("match_phrase", k, x)?, x.pos)?
                    }
                    "boost" => q.boost = float("match_phrase", k, x)?,
                    "_name" => {}
                    _ => return Err(unsupported("match_phrase", k, x.pos)),
                }
            }
        }
        J::Arr(_) => return Err(super::no_text(v)),
        _ => q.query = v.to_value(),
    }
    // Written out or short (`"field": null`), as the builder is made.
    if q.query.is_null() {
        return Err(Error::illegal_argument(
            "[match_phrase] requires query value",
        ));
    }
    Ok(Query::MatchPhrase(q))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn slop() {
        let Query::MatchPhrase(p) =
            parse_str(r#"{"match_phrase":{"t":{"query":"a b","slop":2}}}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(p.slop, 2);
    }
}
