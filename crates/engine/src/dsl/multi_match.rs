//! `multi_match`: one text over several fields (`field^boost`, wildcards), combined per `type`.

use super::json::{Node, J};
use super::match_query::{float_value, Operator, ZeroTerms};
use super::{
    boolean, float, parsing, string, unsupported, MinimumShouldMatch, Query, DEFAULT_BOOST,
};
use crate::error::{Error, ErrorKind, Result};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiMatchType {
    BestFields,
    MostFields,
    CrossFields,
    Phrase,
    PhrasePrefix,
    BoolPrefix,
}

/// A `type` name (`best_fields`, …, and the old aliases); another is `MultiMatchQueryBuilder.Type
/// .parse`'s OpenSearchParseException, which carries no position.
pub fn parse_type(t: &str) -> Result<MultiMatchType> {
    Ok(match t {
        "best_fields" | "boolean" => MultiMatchType::BestFields,
        "most_fields" => MultiMatchType::MostFields,
        "cross_fields" => MultiMatchType::CrossFields,
        "phrase" | "match_phrase" => MultiMatchType::Phrase,
        "phrase_prefix" | "match_phrase_prefix" => MultiMatchType::PhrasePrefix,
        "bool_prefix" => MultiMatchType::BoolPrefix,
        _ => {
            return Err(Error::new(
                ErrorKind::Parse,
                format!("failed to parse [multi_match] query type [{t}]. unknown type."),
            ))
        }
    })
}

impl MultiMatchType {
    /// OpenSearch's default `tie_breaker` per type.
    pub fn default_tie(self) -> f32 {
        match self {
            MultiMatchType::MostFields | MultiMatchType::BoolPrefix => 1.0,
            _ => 0.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct MultiMatchQuery {
    pub query: Value,
    /// `(pattern, boost)`, as given (patterns expand against the mapping).
    pub fields: Vec<(String, f32)>,
    pub ty: MultiMatchType,
    pub operator: Operator,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub tie_breaker: Option<f32>,
    pub analyzer: Option<String>,
    pub zero_terms_query: ZeroTerms,
    pub slop: u32,
    /// `phrase_prefix`: expansions of the last term at most.
    pub max_expansions: u32,
    pub lenient: bool,
    pub boost: f32,
    /// Each analysed term a fuzzy query (best_fields, most_fields, bool_prefix).
    pub fuzziness: Option<super::fuzziness::Fuzziness>,
    pub prefix_length: usize,
    pub fuzzy_transpositions: bool,
    pub fuzzy_rewrite: Option<String>,
    pub cutoff_frequency: Option<f32>,
}

impl MultiMatchQuery {
    /// Whether it runs leniently: asked to, or over fields given by pattern (none given is
    /// every field), as OpenSearch's `MultiMatchQueryBuilder` decides.
    pub fn runs_lenient(&self) -> bool {
        self.lenient || self.fields.is_empty() || self.fields.iter().any(|(f, _)| f.contains('*'))
    }

    /// The `match` this query runs on one field (lenient, unboosted), for the
    /// callers that take a field at a time.
    pub fn as_match(&self, field: &str) -> super::MatchQuery {
        super::MatchQuery {
            field: field.to_string(),
            query: self.query.clone(),
            operator: self.operator,
            minimum_should_match: self.minimum_should_match.clone(),
            analyzer: self.analyzer.clone(),
            zero_terms_query: self.zero_terms_query,
            lenient: true,
            boost: 1.0,
            fuzziness: self.fuzziness,
            prefix_length: self.prefix_length,
            max_expansions: self.max_expansions as usize,
            fuzzy_transpositions: self.fuzzy_transpositions,
            fuzzy_rewrite: self.fuzzy_rewrite.clone(),
            cutoff_frequency: self.cutoff_frequency,
        }
    }
}

pub fn parse_field_boost(spec: &str) -> Result<(String, f32)> {
    match spec.rsplit_once('^') {
        Some((f, b)) => {
            let boost = b.parse::<f32>().map_err(|_| {
                Error::new(
                    crate::error::ErrorKind::NumberFormat,
                    format!("For input string: \"{b}\""),
                )
            })?;
            Ok((f.to_string(), boost))
        }
        None => Ok((spec.to_string(), 1.0)),
    }
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut q = MultiMatchQuery {
        query: Value::Null,
        fields: Vec::new(),
        ty: MultiMatchType::BestFields,
        operator: Operator::Or,
        minimum_should_match: None,
        tie_breaker: None,
        analyzer: None,
        zero_terms_query: ZeroTerms::None,
        slop: 0,
        max_expansions: super::match_phrase_prefix::DEFAULT_MAX_EXPANSIONS,
        lenient: false,
        boost: DEFAULT_BOOST,
        fuzziness: None,
        prefix_length: 0,
        fuzzy_transpositions: true,
        fuzzy_rewrite: None,
        cutoff_frequency: None,
    };
    // What only a negative boost's refusal quotes (OpenSearch prints the builder).
    let (mut fuzziness_text, mut synonyms_phrase) = (None::<String>, true);
    for (k, _, x) in body.as_obj().unwrap_or_default() {
        super::loop_token("multi_match", k, x, super::Arrays::FieldsElseUnknown)?;
        match k.as_str() {
            "query" => q.query = x.to_value(),
            "fields" => match &x.v {
                J::Arr(items) => {
                    for it in items {
                        q.fields
                            .push(parse_field_boost(&string("multi_match", k, it)?)?);
                    }
                }
                _ => q
                    .fields
                    .push(parse_field_boost(&string("multi_match", k, x)?)?),
            },
            "type" => {
                let t = string("multi_match", k, x)?;
                q.ty = parse_type(&t)?;
            }
            "operator" => q.operator = Operator::parse(&string("multi_match", k, x)?)?,
            "minimum_should_match" => q.minimum_should_match = x.text().map(MinimumShouldMatch),
            "tie_breaker" => q.tie_breaker = Some(float("multi_match", k, x)?),
            "analyzer" => q.analyzer = Some(string("multi_match", k, x)?),
            "zero_terms_query" => {
                q.zero_terms_query = ZeroTerms::parse(&string("multi_match", k, x)?, x.pos)?
            }
            "slop" => q.slop = super::int("multi_match", k, x)?.max(0) as u32,
            "lenient" => q.lenient = boolean("multi_match", k, x)?,
            "boost" => q.boost = float("multi_match", k, x)?,
            "max_expansions" => {
                let n = super::int("multi_match", k, x)?;
                if n < 0 {
                    return Err(Error::illegal_argument(
                        "No negative maxExpansions allowed.",
                    ));
                }
                q.max_expansions = n.min(u32::MAX as i64) as u32;
            }
            "fuzziness" => {
                let text = string("multi_match", k, x)?;
                q.fuzziness = Some(super::fuzziness::Fuzziness::parse(&text)?);
                fuzziness_text = Some(text.to_uppercase());
            }
            "prefix_length" => q.prefix_length = super::int("multi_match", k, x)?.max(0) as usize,
            "fuzzy_transpositions" => q.fuzzy_transpositions = boolean("multi_match", k, x)?,
            "fuzzy_rewrite" => q.fuzzy_rewrite = x.text(),
            "cutoff_frequency" => q.cutoff_frequency = Some(float("multi_match", k, x)?),
            "auto_generate_synonyms_phrase_query" => {
                synonyms_phrase = boolean("multi_match", k, x)?
            }
            "_name" => {}
            _ => return Err(unsupported("multi_match", k, x.pos)),
        }
    }
    if q.query.is_null() {
        return Err(parsing("No text specified for multi_match query", body.end));
    }
    let fuzzy_type = !matches!(
        q.ty,
        MultiMatchType::CrossFields | MultiMatchType::Phrase | MultiMatchType::PhrasePrefix
    );
    if q.fuzziness.is_some() && !fuzzy_type {
        let name = match q.ty {
            MultiMatchType::CrossFields => "cross_fields",
            MultiMatchType::Phrase => "phrase",
            _ => "phrase_prefix",
        };
        return Err(parsing(
            format!("Fuzziness not allowed for type [{name}]"),
            body.end,
        ));
    }
    super::negative_boost::check(q.boost, || {
        builder_json(&q, fuzziness_text, synonyms_phrase)
    })?;
    Ok(Query::MultiMatch(q))
}

/// `MultiMatchQueryBuilder` as its `toString` prints it once parsed, boost not yet set (nor
/// `lenient`, set after it): fields in name order with their boosts.
fn builder_json(q: &MultiMatchQuery, fuzziness: Option<String>, synonyms_phrase: bool) -> Value {
    let mut fields: Vec<&(String, f32)> = q.fields.iter().collect();
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    let mut m = serde_json::Map::new();
    m.insert("query".into(), q.query.clone());
    m.insert(
        "fields".into(),
        fields
            .iter()
            .map(|(f, b)| {
                Value::from(format!(
                    "{f}^{}",
                    crate::query::function_score::java_float(*b)
                ))
            })
            .collect(),
    );
    let ty = match q.ty {
        MultiMatchType::BestFields => "best_fields",
        MultiMatchType::MostFields => "most_fields",
        MultiMatchType::CrossFields => "cross_fields",
        MultiMatchType::Phrase => "phrase",
        MultiMatchType::PhrasePrefix => "phrase_prefix",
        MultiMatchType::BoolPrefix => "bool_prefix",
    };
    m.insert("type".into(), ty.into());
    m.insert("operator".into(), q.operator.java_name().into());
    if let Some(a) = &q.analyzer {
        m.insert("analyzer".into(), a.clone().into());
    }
    m.insert("slop".into(), q.slop.into());
    super::match_query::print_fuzzy_options(
        &mut m,
        fuzziness,
        (q.prefix_length, u64::from(q.max_expansions)),
        q.minimum_should_match.as_ref(),
        q.fuzzy_rewrite.as_ref(),
    );
    if let Some(t) = q.tie_breaker {
        m.insert("tie_breaker".into(), float_value(t));
    }
    if let Some(c) = q.cutoff_frequency {
        m.insert("cutoff_frequency".into(), float_value(c));
    }
    m.insert(
        "zero_terms_query".into(),
        q.zero_terms_query.java_name().into(),
    );
    m.insert(
        "auto_generate_synonyms_phrase_query".into(),
        synonyms_phrase.into(),
    );
    m.insert("fuzzy_transpositions".into(), q.fuzzy_transpositions.into());
    m.insert("boost".into(), 1.0.into());
    serde_json::json!({ "multi_match": Value::Object(m) })
}

#[cfg(test)]
mod tests {
    use crate::dsl::{parse_str, MultiMatchType, Query};

    #[test]
    fn fields_and_type() {
        let Query::MultiMatch(m) =
            parse_str(r#"{"multi_match":{"query":"x","fields":["a^2","b"],"type":"most_fields"}}"#)
                .unwrap()
        else {
            panic!()
        };
        assert_eq!(m.fields, vec![("a".into(), 2.0), ("b".into(), 1.0)]);
        assert_eq!(m.ty, MultiMatchType::MostFields);
    }

    #[test]
    fn fuzziness_only_where_terms_are_matched() {
        let Query::MultiMatch(m) = parse_str(
            r#"{"multi_match":{"query":"x","fields":["a"],"fuzziness":"AUTO","prefix_length":2}}"#,
        )
        .unwrap() else {
            panic!()
        };
        assert!(m.fuzziness.is_some());
        assert_eq!(m.as_match("a").prefix_length, 2);
        for ty in ["cross_fields", "phrase", "phrase_prefix"] {
            let e = parse_str(&format!(
                r#"{{"multi_match":{{"query":"x","type":"{ty}","fuzziness":1}}}}"#
            ))
            .unwrap_err();
            assert_eq!(e.reason, format!("Fuzziness not allowed for type [{ty}]"));
        }
    }
}
