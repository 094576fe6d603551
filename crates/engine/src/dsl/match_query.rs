//! `match`: analysed full text on one field.

use super::json::{Node, J};
use super::{
    boolean, float, parsing, single_field, string, unsupported, MinimumShouldMatch, Query,
    DEFAULT_BOOST,
};
use crate::error::{Error, Result};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    Or,
    And,
}

impl Operator {
    pub fn parse(s: &str) -> Result<Operator> {
        match s.to_ascii_lowercase().as_str() {
            "or" => Ok(Operator::Or),
            "and" => Ok(Operator::And),
            _ => Err(Error::illegal_argument(format!(
                "No enum constant org.opensearch.index.query.Operator.{}",
                s.to_ascii_uppercase()
            ))),
        }
    }

    /// The constant's name, as the builders print it.
    pub fn java_name(self) -> &'static str {
        match self {
            Operator::And => "AND",
            Operator::Or => "OR",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZeroTerms {
    None,
    All,
}

impl ZeroTerms {
    /// The constant's name, as the builders print it.
    pub fn java_name(self) -> &'static str {
        match self {
            ZeroTerms::None => "NONE",
            ZeroTerms::All => "ALL",
        }
    }

    pub fn parse(s: &str, pos: super::json::Pos) -> Result<ZeroTerms> {
        match s.to_ascii_lowercase().as_str() {
            "none" => Ok(ZeroTerms::None),
            "all" => Ok(ZeroTerms::All),
            _ => Err(parsing(
                format!("Unsupported zero_terms_query value [{s}]"),
                pos,
            )),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchQuery {
    pub field: String,
    pub query: Value,
    pub operator: Operator,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub analyzer: Option<String>,
    pub zero_terms_query: ZeroTerms,
    pub lenient: bool,
    pub boost: f32,
    /// `fuzziness`: each analysed term becomes a fuzzy query.
    pub fuzziness: Option<super::fuzziness::Fuzziness>,
    pub prefix_length: usize,
    pub max_expansions: usize,
    pub fuzzy_transpositions: bool,
    /// Checked and applied as the shard builds the query (`query::text`).
    pub fuzzy_rewrite: Option<String>,
    /// Terms in more docs than this (a fraction of the shard's docs below 1, else a count) are
    /// optional: Lucene's `CommonTermsQuery`.
    pub cutoff_frequency: Option<f32>,
}

pub fn parse(body: &Node) -> Result<Query> {
    Ok(Query::Match(parse_as("match", body)?))
}

/// `match_bool_prefix`: `match`'s parameters but the last term a prefix.
pub fn parse_bool_prefix(body: &Node) -> Result<Query> {
    Ok(Query::MatchBoolPrefix(parse_as("match_bool_prefix", body)?))
}

fn parse_as(name: &'static str, body: &Node) -> Result<MatchQuery> {
    let (field, v) = single_field(name, body)?;
    let mut q = MatchQuery {
        field,
        query: Value::Null,
        operator: Operator::Or,
        minimum_should_match: None,
        analyzer: None,
        zero_terms_query: ZeroTerms::None,
        lenient: false,
        boost: DEFAULT_BOOST,
        fuzziness: None,
        prefix_length: 0,
        max_expansions: 50,
        fuzzy_transpositions: true,
        fuzzy_rewrite: None,
        cutoff_frequency: None,
    };
    // What only a negative boost's refusal quotes (OpenSearch prints the builder).
    let mut fuzziness_text: Option<String> = None;
    let mut query_name: Option<String> = None;
    let mut synonyms_phrase = true;
    match &v.v {
        J::Obj(entries) => {
            for (k, _, x) in entries {
                super::loop_token(name, k, x, super::Arrays::Unknown)?;
                if name != "match"
                    && matches!(
                        k.as_str(),
                        "zero_terms_query"
                            | "lenient"
                            | "cutoff_frequency"
                            | "auto_generate_synonyms_phrase_query"
                    )
                {
                    return Err(unsupported(name, k, x.pos));
                }
                match k.as_str() {
                    "query" => q.query = x.to_value(),
                    "operator" => q.operator = Operator::parse(&string(name, k, x)?)?,
                    "minimum_should_match" => {
                        q.minimum_should_match = x.text().map(MinimumShouldMatch)
                    }
                    "analyzer" => q.analyzer = Some(string(name, k, x)?),
                    "zero_terms_query" => {
                        q.zero_terms_query = ZeroTerms::parse(&string(name, k, x)?, x.pos)?
                    }
                    "lenient" => q.lenient = boolean(name, k, x)?,
                    "boost" => q.boost = float(name, k, x)?,
                    "fuzziness" => {
                        let text = string(name, k, x)?;
                        q.fuzziness = Some(super::fuzziness::Fuzziness::parse(&text)?);
                        fuzziness_text = Some(text.to_uppercase());
                    }
                    "prefix_length" => q.prefix_length = super::int(name, k, x)?.max(0) as usize,
                    "max_expansions" => {
                        let n = super::int(name, k, x)?;
                        if n <= 0 {
                            return Err(Error::illegal_argument(
                                "[max_expansions] must be greater than 0.",
                            ));
                        }
                        q.max_expansions = n as usize
                    }
                    "fuzzy_transpositions" => q.fuzzy_transpositions = boolean(name, k, x)?,
                    "fuzzy_rewrite" => q.fuzzy_rewrite = x.text(),
                    "cutoff_frequency" => q.cutoff_frequency = Some(float(name, k, x)?),
                    "auto_generate_synonyms_phrase_query" => synonyms_phrase = boolean(name, k, x)?,
                    "_name" => query_name = x.text(),
                    _ => return Err(unsupported(name, k, x.pos)),
                }
            }
        }
        J::Arr(_) => return Err(super::no_text(v)),
        _ => q.query = v.to_value(),
    }
    if q.query.is_null() {
        // Whether written out or short (`"field": null`): `match` checks once its body ends (a
        // parsing error there); the others as their builder is made.
        return Err(match name {
            "match" => parsing("No text specified for text query", body.end),
            _ => Error::illegal_argument(format!("[{name}] requires query value")),
        });
    }
    if name == "match" {
        super::negative_boost::check(q.boost, || {
            builder_json(&q, fuzziness_text, synonyms_phrase, query_name)
        })?;
    }
    Ok(q)
}

/// A Java float as Jackson writes it: its shortest form.
pub(super) fn float_value(v: f32) -> Value {
    Value::from(v.to_string().parse::<f64>().unwrap_or(f64::from(v)))
}

/// The fuzzy options `match` and `multi_match` print alike, in their order: fuzziness, prefix
/// length and max expansions, `minimum_should_match`, fuzzy rewrite.
pub(super) fn print_fuzzy_options(
    m: &mut serde_json::Map<String, Value>,
    fuzziness: Option<String>,
    (prefix_length, max_expansions): (usize, u64),
    msm: Option<&MinimumShouldMatch>,
    rewrite: Option<&String>,
) {
    if let Some(f) = fuzziness {
        m.insert("fuzziness".into(), f.into());
    }
    m.insert("prefix_length".into(), prefix_length.into());
    m.insert("max_expansions".into(), max_expansions.into());
    if let Some(msm) = msm {
        m.insert("minimum_should_match".into(), msm.0.clone().into());
    }
    if let Some(r) = rewrite {
        m.insert("fuzzy_rewrite".into(), r.clone().into());
    }
}

/// `MatchQueryBuilder` as its `toString` prints it once parsed, boost not yet set.
fn builder_json(
    q: &MatchQuery,
    fuzziness: Option<String>,
    synonyms_phrase: bool,
    query_name: Option<String>,
) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("query".into(), q.query.clone());
    m.insert("operator".into(), q.operator.java_name().into());
    if let Some(a) = &q.analyzer {
        m.insert("analyzer".into(), a.clone().into());
    }
    print_fuzzy_options(
        &mut m,
        fuzziness,
        (q.prefix_length, q.max_expansions as u64),
        q.minimum_should_match.as_ref(),
        q.fuzzy_rewrite.as_ref(),
    );
    m.insert("fuzzy_transpositions".into(), q.fuzzy_transpositions.into());
    m.insert("lenient".into(), q.lenient.into());
    m.insert(
        "zero_terms_query".into(),
        q.zero_terms_query.java_name().into(),
    );
    if let Some(c) = q.cutoff_frequency {
        m.insert("cutoff_frequency".into(), float_value(c));
    }
    m.insert(
        "auto_generate_synonyms_phrase_query".into(),
        synonyms_phrase.into(),
    );
    m.insert("boost".into(), 1.0.into());
    if let Some(n) = query_name {
        m.insert("_name".into(), n.into());
    }
    serde_json::json!({"match": {q.field.as_str(): Value::Object(m)}})
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, Operator, Query, ZeroTerms};
    use serde_json::json;

    #[test]
    fn forms() {
        let Query::Match(m) = parse_str(r#"{"match":{"t":"quick fox"}}"#).unwrap() else {
            panic!()
        };
        assert_eq!(m.query, json!("quick fox"));
        assert_eq!(m.operator, Operator::Or);
        let Query::Match(m) = parse_str(
            r#"{"match":{"t":{"query":"a b","operator":"AND","zero_terms_query":"all","minimum_should_match":"50%"}}}"#,
        )
        .unwrap() else {
            panic!()
        };
        assert_eq!(m.operator, Operator::And);
        assert_eq!(m.zero_terms_query, ZeroTerms::All);
        let e = parse_str(r#"{"match":{"t":{"query":"x","operator":"xor"}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "No enum constant org.opensearch.index.query.Operator.XOR"
        );
    }
}
