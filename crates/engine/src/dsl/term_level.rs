//! `wildcard`, `regexp` and `fuzzy`: one field, one value and their options, in the short
//! (`{"f": "v"}`) or long (`{"f": {"value": "v", …}}`) form.

use super::fuzziness::Fuzziness;
use super::json::{Node, J};
use super::{
    boolean, float, int, parsing, single_field, string, unsupported, Query, DEFAULT_BOOST,
};
use crate::error::{Error, Result};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct MultiTermQuery {
    pub field: String,
    pub value: String,
    pub case_insensitive: bool,
    pub boost: f32,
    /// As given; the shard refuses one it cannot parse (`query::multi_term::check_rewrite`).
    pub rewrite: Option<String>,
    /// `regexp`'s optional operators (`query::lucene_regexp`'s bits), all by default.
    pub flags: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FuzzyQuery {
    pub field: String,
    pub value: Value,
    pub fuzziness: Fuzziness,
    /// As given: Lucene's `FuzzyQuery` refuses a negative one when the shard builds it.
    pub prefix_length: i64,
    /// As given: Lucene's `FuzzyQuery` refuses one below 1 when the shard builds it.
    pub max_expansions: i64,
    pub transpositions: bool,
    pub boost: f32,
    /// As given; the shard refuses one it cannot parse (`query::multi_term::check_rewrite`).
    pub rewrite: Option<String>,
}

/// The field, its value node, the long form's other entries and the boost.
type ValueAndOptions<'a> = (String, Node, Vec<&'a (String, super::json::Pos, Node)>, f32);

fn value_and_options<'a>(
    name: &str,
    body: &'a Node,
    value_keys: &[&str],
) -> Result<ValueAndOptions<'a>> {
    let (field, v) = single_field(name, body)?;
    let mut boost = DEFAULT_BOOST;
    match &v.v {
        J::Obj(entries) => {
            let mut value = None;
            let mut opts = Vec::new();
            for e in entries {
                let (k, _, x) = e;
                if value_keys.contains(&k.as_str()) {
                    value = Some(x.clone());
                } else if k == "boost" {
                    boost = float(name, k, x)?;
                } else {
                    opts.push(e);
                }
            }
            // The builders' constructors refuse a missing value, fuzzy's in its own words.
            let value = value.ok_or_else(|| {
                Error::illegal_argument(match name {
                    "fuzzy" => "query value cannot be null",
                    _ => "value cannot be null",
                })
            })?;
            Ok((field, value, opts, boost))
        }
        _ => Ok((field, v.clone(), Vec::new(), boost)),
    }
}

pub fn parse_wildcard(body: &Node) -> Result<Query> {
    let (field, value, opts, boost) = value_and_options("wildcard", body, &["value", "wildcard"])?;
    // WildcardQueryBuilder reads a null as text, where Jackson fails.
    if let J::Null = value.v {
        return Err(super::no_text(&value));
    }
    let mut q = MultiTermQuery {
        field,
        value: super::text_value("wildcard", "value", &value)?,
        case_insensitive: false,
        boost,
        rewrite: None,
        flags: crate::query::lucene_regexp::ALL,
    };
    for (k, _, x) in opts {
        match k.as_str() {
            "case_insensitive" => q.case_insensitive = boolean("wildcard", k, x)?,
            "rewrite" => q.rewrite = x.text(),
            "_name" => {}
            _ => return Err(unsupported("wildcard", k, x.pos)),
        }
    }
    super::negative_boost::checked(Query::Wildcard(q))
}

pub fn parse_regexp(body: &Node) -> Result<Query> {
    let (field, value, opts, boost) = value_and_options("regexp", body, &["value"])?;
    let mut q = MultiTermQuery {
        field,
        value: super::text_value("regexp", "value", &value)?,
        case_insensitive: false,
        boost,
        rewrite: None,
        flags: crate::query::lucene_regexp::ALL,
    };
    for (k, _, x) in opts {
        match k.as_str() {
            "case_insensitive" => q.case_insensitive = boolean("regexp", k, x)?,
            "flags" => q.flags = regexp_flags(&x.text().unwrap_or_default())?,
            "flags_value" => q.flags = int("regexp", k, x)? as u32,
            "rewrite" => q.rewrite = x.text(),
            "max_determinized_states" | "_name" => {}
            _ => return Err(unsupported("regexp", k, x.pos)),
        }
    }
    Ok(Query::Regexp(q))
}

/// OpenSearch's `RegexpFlag.resolveValue`: `|`-separated flag names, any case, or'ed.
fn regexp_flags(flags: &str) -> Result<u32> {
    use crate::query::lucene_regexp as re;
    let mut out = 0;
    for s in flags.split('|').filter(|s| !s.is_empty()) {
        out |= match s.to_uppercase().as_str() {
            "INTERSECTION" => re::INTERSECTION,
            "COMPLEMENT" => re::COMPLEMENT,
            "EMPTY" => re::EMPTY,
            "ANYSTRING" => re::ANYSTRING,
            "INTERVAL" => re::INTERVAL,
            "NONE" => 0,
            // OpenSearch stops reading at ALL.
            "ALL" => return Ok(re::ALL),
            _ => {
                return Err(Error::illegal_argument(format!(
                    "Unknown regexp flag [{s}]"
                )))
            }
        };
    }
    // No flag named at all is OpenSearch's default.
    Ok(if flags.is_empty() { re::ALL } else { out })
}

pub fn parse_fuzzy(body: &Node) -> Result<Query> {
    // FuzzyQueryBuilder reads options only as plain values, and a short form's array as more
    // fields (an empty one naming the field again, its values naming none).
    let (name, v) = super::single_field("fuzzy", body)?;
    match &v.v {
        J::Obj(entries) => {
            if let Some((k, _, x)) = entries
                .iter()
                .find(|(_, _, x)| matches!(x.v, J::Null | J::Arr(_) | J::Obj(_)))
            {
                let token = if matches!(x.v, J::Null) {
                    "VALUE_NULL"
                } else {
                    x.token()
                };
                return Err(parsing(
                    format!("[fuzzy] unexpected token [{token}] after [{k}]"),
                    x.pos,
                ));
            }
        }
        J::Arr(items) => {
            let (other, pos) = match items.first() {
                Some(first) => ("null", first.pos),
                None => (name.as_str(), v.end),
            };
            return Err(parsing(
                format!(
                    "[fuzzy] query doesn't support multiple fields, found [{name}] and [{other}]"
                ),
                pos,
            ));
        }
        J::Null => return Err(Error::illegal_argument("query value cannot be null")),
        _ => {}
    }
    let (field, value, opts, boost) = value_and_options("fuzzy", body, &["value"])?;
    let mut q = FuzzyQuery {
        field,
        value: value.to_value(),
        fuzziness: Fuzziness::AUTO,
        prefix_length: 0,
        max_expansions: 50,
        transpositions: true,
        boost,
        rewrite: None,
    };
    for (k, _, x) in opts {
        match k.as_str() {
            "fuzziness" => q.fuzziness = Fuzziness::parse(&string("fuzzy", k, x)?)?,
            "prefix_length" => q.prefix_length = int("fuzzy", k, x)?,
            "max_expansions" => q.max_expansions = int("fuzzy", k, x)?,
            "transpositions" => q.transpositions = boolean("fuzzy", k, x)?,
            "rewrite" => q.rewrite = x.text(),
            "_name" => {}
            _ => return Err(unsupported("fuzzy", k, x.pos)),
        }
    }
    Ok(Query::Fuzzy(q))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn forms() {
        let Query::Wildcard(w) = parse_str(r#"{"wildcard":{"t":"qu*"}}"#).unwrap() else {
            panic!()
        };
        assert_eq!(w.value, "qu*");
        let Query::Regexp(r) =
            parse_str(r#"{"regexp":{"t":{"value":"q.*","case_insensitive":true}}}"#).unwrap()
        else {
            panic!()
        };
        assert!(r.case_insensitive);
        let Query::Fuzzy(f) =
            parse_str(r#"{"fuzzy":{"t":{"value":"quikc","fuzziness":1,"boost":2}}}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(f.boost, 2.0);
        let e = parse_str(r#"{"fuzzy":{"t":{"value":"x","zz":1}}}"#).unwrap_err();
        assert_eq!(e.reason, "[fuzzy] query does not support [zz]");
    }
}
