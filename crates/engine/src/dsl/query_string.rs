//! `query_string` and `simple_query_string`: their parameters. The query text is parsed per
//! shard by the query builder (`lucene_syntax`, `simple_syntax`), where syntax errors become
//! OpenSearch's `query_shard_exception`.

use super::fuzziness::Fuzziness;
use super::json::{Node, J};
use super::match_query::Operator;
use super::multi_match::parse_field_boost;
use super::{boolean, float, int, parsing, string, MinimumShouldMatch, MultiMatchType, Query};
use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct QueryStringQuery {
    pub query: String,
    pub default_field: Option<String>,
    pub fields: Vec<(String, f32)>,
    pub default_operator: Operator,
    pub analyzer: Option<String>,
    pub quote_analyzer: Option<String>,
    pub allow_leading_wildcard: bool,
    pub analyze_wildcard: bool,
    pub fuzziness: Fuzziness,
    pub fuzzy_max_expansions: u32,
    pub fuzzy_prefix_length: u32,
    pub fuzzy_transpositions: bool,
    pub phrase_slop: u32,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub lenient: Option<bool>,
    pub time_zone: Option<String>,
    pub ty: MultiMatchType,
    pub tie_breaker: Option<f32>,
    pub escape: bool,
    pub boost: f32,
    /// Checked as the shard builds the query; `rewrite` scores prefixes, wildcards and regexps.
    pub rewrite: Option<String>,
    pub fuzzy_rewrite: Option<String>,
}

impl QueryStringQuery {
    pub fn new(query: String) -> QueryStringQuery {
        QueryStringQuery {
            query,
            default_field: None,
            fields: Vec::new(),
            default_operator: Operator::Or,
            analyzer: None,
            quote_analyzer: None,
            allow_leading_wildcard: true,
            analyze_wildcard: false,
            fuzziness: Fuzziness::AUTO,
            fuzzy_max_expansions: 50,
            fuzzy_prefix_length: 0,
            fuzzy_transpositions: true,
            phrase_slop: 0,
            minimum_should_match: None,
            lenient: None,
            time_zone: None,
            ty: MultiMatchType::BestFields,
            tie_breaker: None,
            escape: false,
            boost: 1.0,
            rewrite: None,
            fuzzy_rewrite: None,
        }
    }
}

const QS: &str = "query_string";

fn field_list(name: &str, k: &str, x: &Node) -> Result<Vec<(String, f32)>> {
    let J::Arr(items) = &x.v else {
        return Err(parsing(
            format!("[{name}] query does not support [{k}]"),
            x.pos,
        ));
    };
    items
        .iter()
        .map(|it| parse_field_boost(&string(name, k, it)?))
        .collect()
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut q = QueryStringQuery::new(String::new());
    let mut query = None;
    for (k, _, x) in body.as_obj().unwrap_or_default() {
        super::loop_token(QS, k, x, super::Arrays::FieldsElseUnsupported)?;
        match k.as_str() {
            "query" => query = Some(string(QS, k, x)?),
            "default_field" => q.default_field = Some(string(QS, k, x)?),
            "fields" => q.fields = field_list(QS, k, x)?,
            "default_operator" => q.default_operator = Operator::parse(&string(QS, k, x)?)?,
            "analyzer" => q.analyzer = Some(string(QS, k, x)?),
            "quote_analyzer" => q.quote_analyzer = Some(string(QS, k, x)?),
            "allow_leading_wildcard" => q.allow_leading_wildcard = boolean(QS, k, x)?,
            "analyze_wildcard" => q.analyze_wildcard = boolean(QS, k, x)?,
            "fuzziness" => q.fuzziness = Fuzziness::parse(&string(QS, k, x)?)?,
            "fuzzy_max_expansions" => q.fuzzy_max_expansions = int(QS, k, x)?.max(0) as u32,
            "fuzzy_prefix_length" => q.fuzzy_prefix_length = int(QS, k, x)?.max(0) as u32,
            "fuzzy_transpositions" => q.fuzzy_transpositions = boolean(QS, k, x)?,
            "phrase_slop" => q.phrase_slop = int(QS, k, x)?.max(0) as u32,
            "minimum_should_match" => q.minimum_should_match = x.text().map(MinimumShouldMatch),
            "lenient" => q.lenient = Some(boolean(QS, k, x)?),
            "time_zone" => {
                let id = string(QS, k, x)?;
                crate::util::time_zone::Zone::parse(&id)?;
                q.time_zone = Some(id);
            }
            "type" => q.ty = super::multi_match::parse_type(&string(QS, k, x)?)?,
            "tie_breaker" => q.tie_breaker = Some(float(QS, k, x)?),
            "escape" => q.escape = boolean(QS, k, x)?,
            "boost" => q.boost = float(QS, k, x)?,
            "rewrite" => q.rewrite = x.text(),
            "fuzzy_rewrite" => q.fuzzy_rewrite = x.text(),
            "max_determinized_states"
            | "enable_position_increments"
            | "auto_generate_synonyms_phrase_query"
            | "quote_field_suffix"
            | "_name" => {}
            _ => {
                return Err(parsing(
                    format!("[{QS}] query does not support [{k}]"),
                    x.pos,
                ))
            }
        }
    }
    q.query = query
        .ok_or_else(|| parsing(format!("[{QS}] must be provided with a [query]"), body.end))?;
    if q.default_field.is_some() && !q.fields.is_empty() {
        return Err(Error::illegal_argument(
            "Validation Failed: 1: cannot use [fields] parameter in conjunction with [default_field];",
        ));
    }
    Ok(Query::QueryString(Box::new(q)))
}

/// `simple_query_string` operator flags (Lucene's SimpleQueryParser bits).
pub mod flags {
    pub const AND: u32 = 1;
    pub const NOT: u32 = 2;
    pub const OR: u32 = 4;
    pub const PREFIX: u32 = 8;
    pub const PHRASE: u32 = 16;
    pub const PRECEDENCE: u32 = 32;
    pub const ESCAPE: u32 = 64;
    pub const WHITESPACE: u32 = 128;
    pub const FUZZY: u32 = 256;
    pub const NEAR: u32 = 512;
    pub const ALL: u32 = 1023;
}

#[derive(Debug, Clone, PartialEq)]
pub struct SimpleQueryStringQuery {
    pub query: String,
    pub fields: Vec<(String, f32)>,
    pub default_operator: Operator,
    pub analyzer: Option<String>,
    pub flags: u32,
    pub lenient: Option<bool>,
    pub analyze_wildcard: bool,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub fuzzy_prefix_length: u32,
    pub fuzzy_max_expansions: u32,
    pub fuzzy_transpositions: bool,
    pub boost: f32,
}

const SQS: &str = "simple_query_string";

fn parse_flags(x: &Node) -> Result<u32> {
    if let J::Num(n, _) = &x.v {
        let v = n.as_i64().unwrap_or(-1);
        return Ok(if v < 0 {
            flags::ALL
        } else {
            v as u32 & flags::ALL
        });
    }
    let s = x.text().unwrap_or_default();
    let mut out = 0;
    for part in s.split('|') {
        let p = part.trim();
        if p.is_empty() {
            continue;
        }
        let bit = match p.to_ascii_uppercase().as_str() {
            "ALL" => return Ok(flags::ALL),
            "NONE" => return Ok(0),
            "AND" => flags::AND,
            "NOT" => flags::NOT,
            "OR" => flags::OR,
            "PREFIX" => flags::PREFIX,
            "PHRASE" => flags::PHRASE,
            "PRECEDENCE" => flags::PRECEDENCE,
            "ESCAPE" => flags::ESCAPE,
            "WHITESPACE" => flags::WHITESPACE,
            "FUZZY" => flags::FUZZY,
            "NEAR" | "SLOP" => flags::NEAR,
            _ => return Err(Error::illegal_argument(format!("Unknown {SQS} flag [{p}]"))),
        };
        out |= bit;
    }
    Ok(out)
}

pub fn parse_simple(body: &Node) -> Result<Query> {
    let mut q = SimpleQueryStringQuery {
        query: String::new(),
        fields: Vec::new(),
        default_operator: Operator::Or,
        analyzer: None,
        flags: flags::ALL,
        lenient: None,
        analyze_wildcard: false,
        minimum_should_match: None,
        fuzzy_prefix_length: 0,
        fuzzy_max_expansions: 50,
        fuzzy_transpositions: true,
        boost: 1.0,
    };
    let mut query = None;
    for (k, _, x) in body.as_obj().unwrap_or_default() {
        super::loop_token(SQS, k, x, super::Arrays::FieldsElseUnsupported)?;
        match k.as_str() {
            "query" => query = Some(string(SQS, k, x)?),
            "fields" => q.fields = field_list(SQS, k, x)?,
            "default_operator" => q.default_operator = Operator::parse(&string(SQS, k, x)?)?,
            "analyzer" => q.analyzer = Some(string(SQS, k, x)?),
            "flags" => q.flags = parse_flags(x)?,
            "lenient" => q.lenient = Some(boolean(SQS, k, x)?),
            "analyze_wildcard" => q.analyze_wildcard = boolean(SQS, k, x)?,
            "minimum_should_match" => q.minimum_should_match = x.text().map(MinimumShouldMatch),
            "fuzzy_prefix_length" => q.fuzzy_prefix_length = int(SQS, k, x)?.max(0) as u32,
            "fuzzy_max_expansions" => q.fuzzy_max_expansions = int(SQS, k, x)?.max(0) as u32,
            "fuzzy_transpositions" => q.fuzzy_transpositions = boolean(SQS, k, x)?,
            "boost" => q.boost = float(SQS, k, x)?,
            "quote_field_suffix"
            | "auto_generate_synonyms_phrase_query"
            | "_name"
            | "locale"
            | "lowercase_expanded_terms"
            | "all_fields" => {}
            _ => return Err(parsing(format!("[{SQS}] unsupported field [{k}]"), x.pos)),
        }
    }
    q.query = query.ok_or_else(|| parsing(format!("[{SQS}] query text missing"), body.end))?;
    Ok(Query::SimpleQueryString(Box::new(q)))
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Query};

    #[test]
    fn parameters() {
        let Query::QueryString(q) = parse_str(
            r#"{"query_string":{"query":"a b","fields":["t^2","d"],"default_operator":"and"}}"#,
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(q.fields, vec![("t".into(), 2.0), ("d".into(), 1.0)]);
        let e = parse_str(r#"{"query_string":{"query":"a","fields":"t"}}"#).unwrap_err();
        assert_eq!(e.reason, "[query_string] query does not support [fields]");
        let e = parse_str(r#"{"query_string":{"fields":["t"]}}"#).unwrap_err();
        assert_eq!(e.reason, "[query_string] must be provided with a [query]");
        let Query::SimpleQueryString(s) =
            parse_str(r#"{"simple_query_string":{"query":"a","flags":"OR|prefix"}}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(s.flags, 4 | 8);
        let e = parse_str(r#"{"simple_query_string":{"query":"a","flags":"BAD"}}"#).unwrap_err();
        assert_eq!(e.reason, "Unknown simple_query_string flag [BAD]");
        let e = parse_str(r#"{"simple_query_string":{"query":"a","type":"x"}}"#).unwrap_err();
        assert_eq!(e.reason, "[simple_query_string] unsupported field [type]");
    }
}
