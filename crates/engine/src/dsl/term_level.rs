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
    let (field, v, extra) = single_field(name, body)?;
    let mut boost = DEFAULT_BOOST;
    for (k, _, x) in extra {
        if k == "boost" {
            boost = float(name, k, x)?;
        }
    }
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
    let mut q = MultiTermQuery {
        field,
        value: string("wildcard", "value", &value)?,
        case_insensitive: false,
        boost,
        rewrite: None,
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
        value: string("regexp", "value", &value)?,
        case_insensitive: false,
        boost,
        rewrite: None,
    };
    for (k, _, x) in opts {
        match k.as_str() {
            "case_insensitive" => q.case_insensitive = boolean("regexp", k, x)?,
            "flags" => check_regexp_flags(&x.text().unwrap_or_default())?,
            "rewrite" => q.rewrite = x.text(),
            "flags_value" | "max_determinized_states" | "_name" => {}
            _ => return Err(unsupported("regexp", k, x.pos)),
        }
    }
    Ok(Query::Regexp(q))
}

/// OpenSearch's `RegexpFlag.resolveValue`: `|`-separated flag names, any case.
fn check_regexp_flags(flags: &str) -> Result<()> {
    const KNOWN: &[&str] = &[
        "INTERSECTION",
        "COMPLEMENT",
        "EMPTY",
        "ANYSTRING",
        "INTERVAL",
        "NONE",
        "ALL",
    ];
    for s in flags.split('|').filter(|s| !s.is_empty()) {
        let upper = s.to_uppercase();
        if upper == "ALL" {
            return Ok(());
        }
        if !KNOWN.contains(&upper.as_str()) {
            return Err(crate::error::Error::illegal_argument(format!(
                "Unknown regexp flag [{s}]"
            )));
        }
    }
    Ok(())
}

pub fn parse_fuzzy(body: &Node) -> Result<Query> {
    let (field, value, opts, boost) = value_and_options("fuzzy", body, &["value"])?;
    if let J::Obj(_) = value.v {
        return Err(parsing(
            "[fuzzy] unexpected token [START_OBJECT] after [value]",
            value.pos,
        ));
    }
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
