//! OpenSearch's query DSL: JSON → an engine-neutral query AST. One file per query type; errors
//! carry OpenSearch's `parsing_exception` / `x_content_parse_exception` reasons and positions.

pub mod bool_query;
pub mod boosting;
pub mod constant_score;
pub mod dis_max;
pub mod exists;
pub mod function_score;
pub mod fuzziness;
pub mod ids;
pub mod json;
pub mod lucene_syntax;
pub mod match_all;
pub mod match_none;
pub mod match_phrase;
pub mod match_phrase_prefix;
pub mod match_query;
pub mod minimum_should_match;
pub mod multi_match;
pub mod negative_boost;
pub mod prefix;
pub mod query_string;
pub mod range;
pub mod simple_syntax;
pub mod term;
pub mod term_level;
pub mod terms;
pub mod terms_set;

use crate::error::{Error, ErrorKind, Result};
use json::{Node, Pos, J};
use serde_json::Value;

pub use bool_query::BoolQuery;
pub use match_phrase::MatchPhraseQuery;
pub use match_query::{MatchQuery, Operator, ZeroTerms};
pub use minimum_should_match::MinimumShouldMatch;
pub use multi_match::{MultiMatchQuery, MultiMatchType};
pub use range::RangeQuery;

/// A parsed query, independent of any index.
#[derive(Debug, Clone, PartialEq)]
pub enum Query {
    MatchAll {
        boost: f32,
    },
    MatchNone {
        boost: f32,
    },
    Term {
        field: String,
        value: Value,
        boost: f32,
        case_insensitive: bool,
    },
    Terms {
        field: String,
        values: Vec<Value>,
        /// Where the values are to be read from, until they are (`api::terms_lookup`).
        lookup: Option<Box<terms::TermsLookup>>,
        boost: f32,
    },
    Range(RangeQuery),
    Exists {
        field: String,
        boost: f32,
    },
    Ids {
        values: Vec<String>,
        boost: f32,
    },
    Prefix {
        field: String,
        value: String,
        boost: f32,
        case_insensitive: bool,
        /// As given; the shard refuses one it cannot parse.
        rewrite: Option<String>,
    },
    Bool(BoolQuery),
    Match(MatchQuery),
    MatchBoolPrefix(MatchQuery),
    MatchPhrase(MatchPhraseQuery),
    MultiMatch(MultiMatchQuery),
    ConstantScore {
        filter: Box<Query>,
        boost: f32,
    },
    DisMax {
        queries: Vec<Query>,
        tie_breaker: f32,
        boost: f32,
    },
    Wildcard(term_level::MultiTermQuery),
    Regexp(term_level::MultiTermQuery),
    Fuzzy(term_level::FuzzyQuery),
    Boosting {
        positive: Box<Query>,
        negative: Box<Query>,
        negative_boost: f32,
        boost: f32,
    },
    QueryString(Box<query_string::QueryStringQuery>),
    SimpleQueryString(Box<query_string::SimpleQueryStringQuery>),
    FunctionScore(Box<function_score::FunctionScoreQuery>),
    TermsSet(terms_set::TermsSetQuery),
}

pub const DEFAULT_BOOST: f32 = 1.0;

impl Query {
    /// Calls `f` on this query and every query inside it (a parent before its clauses).
    pub fn for_each_mut(&mut self, f: &mut dyn FnMut(&mut Query) -> Result<()>) -> Result<()> {
        f(self)?;
        let inner: Vec<&mut Query> = match self {
            Query::Bool(b) => b
                .must
                .iter_mut()
                .chain(&mut b.should)
                .chain(&mut b.filter)
                .chain(&mut b.must_not)
                .collect(),
            Query::ConstantScore { filter, .. } => vec![filter.as_mut()],
            Query::DisMax { queries, .. } => queries.iter_mut().collect(),
            Query::Boosting {
                positive, negative, ..
            } => vec![positive.as_mut(), negative.as_mut()],
            Query::FunctionScore(fs) => std::iter::once(&mut fs.query)
                .chain(fs.functions.iter_mut().filter_map(|f| f.filter.as_mut()))
                .collect(),
            _ => Vec::new(),
        };
        for q in inner {
            q.for_each_mut(f)?;
        }
        Ok(())
    }
}

/// The place of a query's own boost, borrowed as `$query` is (`&` or `&mut`).
macro_rules! boost_place {
    ($query:expr $(, $mut_:tt)?) => {
        match $query {
            Query::MatchAll { boost }
            | Query::MatchNone { boost }
            | Query::Term { boost, .. }
            | Query::Terms { boost, .. }
            | Query::Exists { boost, .. }
            | Query::Ids { boost, .. }
            | Query::Prefix { boost, .. }
            | Query::ConstantScore { boost, .. }
            | Query::DisMax { boost, .. }
            | Query::Boosting { boost, .. } => boost,
            Query::Range(q) => &$($mut_)? q.boost,
            Query::Bool(q) => &$($mut_)? q.boost,
            Query::Match(q) | Query::MatchBoolPrefix(q) => &$($mut_)? q.boost,
            Query::MatchPhrase(q) => &$($mut_)? q.boost,
            Query::MultiMatch(q) => &$($mut_)? q.boost,
            Query::Wildcard(q) | Query::Regexp(q) => &$($mut_)? q.boost,
            Query::Fuzzy(q) => &$($mut_)? q.boost,
            Query::QueryString(q) => &$($mut_)? q.boost,
            Query::SimpleQueryString(q) => &$($mut_)? q.boost,
            Query::FunctionScore(q) => &$($mut_)? q.boost,
            Query::TermsSet(q) => &$($mut_)? q.boost,
        }
    };
}

impl Query {
    /// The same query with its own boost 1.
    pub fn unboosted(&self) -> Query {
        let mut q = self.clone();
        *boost_place!(&mut q, mut) = DEFAULT_BOOST;
        q
    }

    /// The query's own `boost` (every query type has one).
    pub fn boost(&self) -> f32 {
        *boost_place!(self)
    }
}

/// Parses one query object (`{"<type>": {...}}`).
pub fn parse_query(node: &Node) -> Result<Query> {
    let Some(entries) = node.as_obj() else {
        return Err(parsing(
            "[_na] query malformed, must start with start_object",
            node.pos,
        ));
    };
    let Some((name, _, body)) = entries.first() else {
        return Err(Error::illegal_argument(format!(
            "query malformed, empty clause found at {}",
            node.end
        )));
    };
    if let Some((_, kpos, _)) = entries.get(1) {
        return Err(parsing(
            format!("[{name}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]"),
            *kpos,
        ));
    }
    let parser: fn(&Node) -> Result<Query> = match name.as_str() {
        "match_all" => match_all::parse,
        "match_none" => match_none::parse,
        "term" => term::parse,
        "terms" => terms::parse,
        "range" => range::parse,
        "exists" => exists::parse,
        "ids" => ids::parse,
        "prefix" => prefix::parse,
        "bool" => bool_query::parse,
        "match" => match_query::parse,
        "match_bool_prefix" => match_query::parse_bool_prefix,
        "match_phrase" => match_phrase::parse,
        "match_phrase_prefix" => match_phrase_prefix::parse,
        "multi_match" => multi_match::parse,
        "constant_score" => constant_score::parse,
        "dis_max" => dis_max::parse,
        "query_string" => query_string::parse,
        "wildcard" => term_level::parse_wildcard,
        "regexp" => term_level::parse_regexp,
        "fuzzy" => term_level::parse_fuzzy,
        "boosting" => boosting::parse,
        "simple_query_string" => query_string::parse_simple,
        "function_score" => function_score::parse,
        "terms_set" => terms_set::parse,
        other => {
            return Err(
                parsing(format!("unknown query [{other}]"), body.pos).caused_by(Error::new(
                    ErrorKind::NamedObjectNotFound,
                    format!("{} unknown field [{other}]", body.pos),
                )),
            )
        }
    };
    if !matches!(body.v, J::Obj(_)) {
        return Err(parsing(
            format!("[{name}] query malformed, no start_object after query name"),
            body.pos,
        ));
    }
    let q = parser(body)?;
    NAMED.with(|n| {
        if let Some(list) = n.borrow_mut().as_mut() {
            if let Some(name) = query_name(body) {
                list.push((name, q.clone()));
            }
        }
    });
    Ok(q)
}

thread_local! {
    static NAMED: std::cell::RefCell<Option<Vec<(String, Query)>>> =
        const { std::cell::RefCell::new(None) };
}

/// The `_name` of a query body: beside its parameters, or inside a single field's object.
fn query_name(body: &Node) -> Option<String> {
    let entries = body.as_obj()?;
    let direct = |n: &Node| {
        n.as_obj()?
            .iter()
            .find(|(k, _, _)| k == "_name")
            .and_then(|(_, _, v)| v.text())
    };
    direct(body).or_else(|| {
        entries
            .iter()
            .filter(|(_, _, v)| matches!(v.v, J::Obj(_)))
            .find_map(|(_, _, v)| direct(v))
    })
}

/// Runs `f` (query parsing) and collects the named queries (`_name`) parsed meanwhile, in
/// parsing order.
pub fn with_named<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, Vec<(String, Query)>)> {
    let outer = NAMED.with(|n| n.borrow_mut().replace(Vec::new()));
    let r = f();
    let named = NAMED.with(|n| std::mem::replace(&mut *n.borrow_mut(), outer));
    Ok((r?, named.unwrap_or_default()))
}

/// How deep a request may nest: JSON objects and arrays, and the groups of a query string.
/// OpenSearch sets no limit and its parsers recurse until the JVM's stack overflows, which
/// stops the node; Quarry's parsers recurse too, so past this depth the request is refused.
/// Jackson's own default for the same constraint.
pub const MAX_NESTING: usize = 1000;

/// A `parsing_exception` at a position.
pub fn parsing(reason: impl Into<String>, pos: Pos) -> Error {
    Error::new(ErrorKind::Parsing, reason)
        .with("line", pos.line)
        .with("col", pos.col)
}

/// An `x_content_parse_exception`: `[l:c] reason`.
pub fn x_content(reason: impl std::fmt::Display, pos: Pos) -> Error {
    let mut e = Error::new(ErrorKind::XContentParse, format!("{pos} {reason}"));
    e.at = Some((pos.line, pos.col));
    e
}

/// A query as OpenSearch's `RestActions.getQueryContent` reads one (`_count`, `_explain`,
/// `_validate/query`): a `parsing_exception` passes as it is, anything else the query's parser
/// throws becomes a `parsing_exception` "Failed to parse" where the parser stood, caused by it.
/// Where the error does not say, that is taken as the end of the query's body (a builder
/// refuses its values once that object is read).
pub fn parse_top_level_query(node: &Node) -> Result<Query> {
    parse_query(node).map_err(|e| {
        if e.kind == ErrorKind::Parsing {
            return e;
        }
        let pos = error_pos(&e).unwrap_or_else(|| {
            node.as_obj()
                .and_then(|o| o.first())
                .map_or(node.end, |(_, _, body)| body.end)
        });
        parsing("Failed to parse", pos).caused_by(e)
    })
}

/// The position recorded on an error (its `line`/`col`), if any.
pub fn error_pos(e: &Error) -> Option<Pos> {
    let get = |k: &str| {
        e.metadata
            .iter()
            .find(|(m, _)| m == k)
            .and_then(|(_, v)| v.as_u64())
    };
    match (get("line"), get("col"), e.at) {
        (Some(line), Some(col), _) => Some(Pos {
            line: line as usize,
            col: col as usize,
        }),
        (_, _, Some((line, col))) => Some(Pos { line, col }),
        _ => None,
    }
}

/// How a hand-written token loop treats an array where it takes a value.
#[derive(Clone, Copy, PartialEq)]
pub enum Arrays {
    /// Inside a field's object (`match` and the phrase queries): an unknown token.
    Unknown,
    /// `multi_match`: a `fields` list, else an unknown token.
    FieldsElseUnknown,
    /// `query_string`, `simple_query_string`: a `fields` list, else "does not support".
    FieldsElseUnsupported,
}

/// What a hand-written token loop (`match`, `multi_match`, `query_string`, …) says of a token
/// it takes no value from, before it looks at the key: objects and nulls are an unknown token
/// after the key, arrays as `arrays` says.
pub fn loop_token(name: &str, key: &str, v: &Node, arrays: Arrays) -> Result<()> {
    let unknown = || {
        Err(parsing(
            format!("[{name}] unknown token [{}] after [{key}]", v.token()),
            v.pos,
        ))
    };
    match v.v {
        J::Obj(_) | J::Null => unknown(),
        J::Arr(_) if arrays != Arrays::Unknown && key == "fields" => Ok(()),
        J::Arr(_) if arrays == Arrays::FieldsElseUnsupported => Err(unsupported(name, key, v.pos)),
        J::Arr(_) => unknown(),
        _ => Ok(()),
    }
}

/// `[name] query does not support [key]`.
pub fn unsupported(name: &str, key: &str, pos: Pos) -> Error {
    parsing(format!("[{name}] query does not support [{key}]"), pos)
}

/// Why a value is not a number, as OpenSearch's hand-written parsers (most queries, the search
/// body, suggesters) find out through `parser.floatValue()`/`intValue()`: a string fails Java's
/// number parsing, a boolean or null reaches Jackson's numeric accessors, which refuse it at the
/// token's end. Objects and arrays keep the object-parser wording.
fn not_a_number(query: &str, key: &str, node: &Node) -> Error {
    let literal = match node.v {
        // Java's `Double.parseDouble` words an empty (or blank) string apart.
        J::Str(ref s) if s.trim().is_empty() => {
            return Error::new(ErrorKind::NumberFormat, "empty String")
        }
        J::Str(ref s) => {
            return Error::new(
                ErrorKind::NumberFormat,
                format!("For input string: \"{s}\""),
            )
        }
        J::Bool(true) => Some(("VALUE_TRUE", 4)),
        J::Bool(false) => Some(("VALUE_FALSE", 5)),
        J::Null => Some(("VALUE_NULL", 4)),
        _ => None,
    };
    match literal {
        Some((token, len)) => Error::new(
            ErrorKind::JsonParse,
            crate::util::json_syntax::located(
                &format!(
                    "Current token ({token}) not numeric, can not use numeric value accessors"
                ),
                node.pos.line,
                node.pos.col + len,
            ),
        ),
        None => {
            let reason = format!("{} [{query}] failed to parse field [{key}]", node.pos);
            parsing(reason.clone(), node.pos).caused_by(
                Error::new(ErrorKind::XContentParse, reason).caused_by(Error::new(
                    ErrorKind::NumberFormat,
                    "For input string: \"\"",
                )),
            )
        }
    }
}

/// A float parameter (boost, tie_breaker) of a hand-written parser: numbers or numeric strings.
pub fn float(query: &str, key: &str, node: &Node) -> Result<f32> {
    match &node.v {
        J::Num(n, _) => Ok(n.as_f64().unwrap_or(0.0) as f32),
        J::Str(s) => s
            .trim()
            .parse::<f32>()
            .map_err(|_| not_a_number(query, key, node)),
        _ => Err(not_a_number(query, key, node)),
    }
}

/// A double parameter (a function's `missing`) of a hand-written parser.
pub fn double(query: &str, key: &str, node: &Node) -> Result<f64> {
    match &node.v {
        J::Num(n, _) => Ok(n.as_f64().unwrap_or(0.0)),
        J::Str(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| not_a_number(query, key, node)),
        _ => Err(not_a_number(query, key, node)),
    }
}

/// An int parameter (slop, size) of a hand-written parser, read as OpenSearch's
/// `intValue(coerce)` reads it: fractions are truncated, strings are read as a double first,
/// and a value past Java's int range is refused (Jackson's coercion error for a number, a
/// range error for a string) rather than carried on as a count no allocation can hold.
pub fn int(query: &str, key: &str, node: &Node) -> Result<i64> {
    let in_range = |d: f64| (i32::MIN as f64..=i32::MAX as f64).contains(&d);
    match &node.v {
        J::Num(n, raw) => {
            let v = n.as_i64().map(|i| i as f64).or_else(|| n.as_f64());
            match v {
                Some(d) if in_range(d) => Ok(d as i64),
                _ => Err(Error::new(
                    ErrorKind::InputCoercion,
                    crate::util::json_syntax::located(
                        &format!(
                            "Numeric value ({raw}) out of range of int (-2147483648 - 2147483647)"
                        ),
                        node.pos.line,
                        node.pos.col + raw.len(),
                    ),
                )),
            }
        }
        J::Str(s) => match s.trim().parse::<f64>() {
            Ok(d) if in_range(d) => Ok(d as i64),
            Ok(d) if d.is_finite() => Err(Error::illegal_argument(format!(
                "Value [{s}] is out of range for an integer"
            ))),
            _ => Err(not_a_number(query, key, node)),
        },
        _ => Err(not_a_number(query, key, node)),
    }
}

/// A float field of a query OpenSearch declares with an `ObjectParser` (`match_all`, `ids`,
/// `bool`): strings must parse, other scalars are refused by type, both as
/// `[l:c] [query] …` x_content errors.
pub fn object_parser_float(query: &str, key: &str, node: &Node) -> Result<f32> {
    let reason = match &node.v {
        J::Num(n, _) => return Ok(n.as_f64().unwrap_or(0.0) as f32),
        J::Str(s) => match s.trim().parse::<f32>() {
            Ok(f) => return Ok(f),
            Err(_) => {
                let reason = format!("[{query}] failed to parse field [{key}]");
                return Err(x_content(reason, node.pos).caused_by(Error::new(
                    ErrorKind::NumberFormat,
                    format!("For input string: \"{s}\""),
                )));
            }
        },
        _ => format!(
            "[{query}] {key} doesn't support values of type: {}",
            node.token()
        ),
    };
    Err(x_content(reason, node.pos))
}

/// How `match_all` and `ids` surface their `ObjectParser` errors: a `parsing_exception` with the
/// same text at the value, caused by the original.
pub fn as_parsing(e: Error, pos: Pos) -> Error {
    parsing(e.reason.clone(), pos).caused_by(e)
}

/// A boolean parameter: `true`/`false` or their strings.
pub fn boolean(query: &str, key: &str, node: &Node) -> Result<bool> {
    let not_boolean = |text: String| {
        Error::illegal_argument(format!(
            "Failed to parse value [{text}] as only [true] or [false] are allowed."
        ))
    };
    match &node.v {
        J::Bool(b) => Ok(*b),
        J::Str(s) if s == "true" => Ok(true),
        // `Booleans.parseBoolean` reads empty text as its default, false.
        J::Str(s) if s == "false" || s.is_empty() => Ok(false),
        // OpenSearch's hand-written parsers call `parser.booleanValue()`: a string goes through
        // `Booleans.parseBoolean`, a number reaches Jackson's accessor, which refuses it at the
        // token's end.
        J::Str(s) => Err(not_boolean(s.clone())),
        J::Num(n, _) => {
            let token = if n.is_f64() {
                "VALUE_NUMBER_FLOAT"
            } else {
                "VALUE_NUMBER_INT"
            };
            Err(Error::new(
                ErrorKind::JsonParse,
                crate::util::json_syntax::located(
                    &format!("Current token ({token}) not of boolean type"),
                    node.pos.line,
                    node.pos.col + n.to_string().len(),
                ),
            ))
        }
        _ => Err(parsing(
            format!("{} [{query}] failed to parse field [{key}]", node.pos),
            node.pos,
        )
        .caused_by(not_boolean(node.text().unwrap_or_default()))),
    }
}

/// A boolean field of a query OpenSearch declares with an `ObjectParser` (`bool`).
pub fn object_parser_boolean(query: &str, key: &str, node: &Node) -> Result<bool> {
    match &node.v {
        J::Bool(b) => Ok(*b),
        J::Str(s) if s == "true" || s == "false" || s.is_empty() => Ok(s == "true"),
        J::Str(s) => Err(
            x_content(format!("[{query}] failed to parse field [{key}]"), node.pos).caused_by(
                Error::illegal_argument(format!(
                    "Failed to parse value [{s}] as only [true] or [false] are allowed."
                )),
            ),
        ),
        _ => Err(x_content(
            format!(
                "[{query}] {key} doesn't support values of type: {}",
                node.token()
            ),
            node.pos,
        )),
    }
}

/// A string parameter (numbers and booleans read as text, as Jackson's `text()` does).
/// Jackson's refusal to read an array (or object) as text, where a query's value parser asks
/// for text without looking. OpenSearch lets it escape as a 500 at the top of a query and as
/// the cause of a 400 inside a compound one; Quarry answers 400 in both places.
pub fn no_text(node: &Node) -> Error {
    let mut e = Error::new(
        ErrorKind::IllegalState,
        format!(
            "Can't get text on a {} at {}:{}",
            node.token(),
            node.pos.line,
            node.pos.col
        ),
    )
    .with_status(400);
    e.at = Some((node.pos.line, node.pos.col));
    e
}

/// A query's text value: the array Jackson will not read as text refused as it refuses it, and
/// a null as the builders' constructors refuse it.
pub fn text_value(query: &str, key: &str, node: &Node) -> Result<String> {
    match node.v {
        J::Arr(_) => Err(no_text(node)),
        J::Null => Err(Error::illegal_argument("value cannot be null")),
        _ => string(query, key, node),
    }
}

pub fn string(query: &str, key: &str, node: &Node) -> Result<String> {
    node.text().ok_or_else(|| {
        parsing(
            format!("[{query}] query does not support [{key}]"),
            node.pos,
        )
    })
}

/// A single-field query's field name, its value, and the query's own parameters beside it.
pub type SingleField<'a> = (String, &'a Node);

/// The one field a single-field query (`term`, `match`, `prefix`, …) names, and its value.
/// OpenSearch takes every other key as a second field, `boost` and `_name` too: they go
/// inside the field's object.
pub fn single_field<'a>(name: &str, body: &'a Node) -> Result<SingleField<'a>> {
    first_field(name, body, false)
}

/// `single_field` for the parsers (`term`, `range`) that pass over a null value as if its
/// key were not there: `{"term": {"a": null, "b": "v"}}` is a term on `b`.
pub fn single_non_null_field<'a>(name: &str, body: &'a Node) -> Result<SingleField<'a>> {
    first_field(name, body, true)
}

fn first_field<'a>(name: &str, body: &'a Node, skip_nulls: bool) -> Result<SingleField<'a>> {
    let mut found: Option<(&String, &Node)> = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        if skip_nulls && matches!(v.v, J::Null) {
            continue;
        }
        if let Some((first, _)) = found {
            return Err(parsing(
                format!(
                    "[{name}] query doesn't support multiple fields, found [{first}] and [{k}]"
                ),
                v.pos,
            ));
        }
        found = Some((k, v));
    }
    match found {
        Some((k, v)) if !k.is_empty() => Ok((k.clone(), v)),
        _ => Err(Error::illegal_argument("field name is null or empty")),
    }
}

#[cfg(test)]
pub(crate) fn parse_str(s: &str) -> Result<Query> {
    parse_query(&json::parse(s.as_bytes()).expect("valid json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_field_query_takes_no_parameter_beside_its_field() {
        let reason = |s: &str| parse_str(s).unwrap_err().reason;
        assert_eq!(
            reason(r#"{"term": {"k": "v", "boost": 2}}"#),
            "[term] query doesn't support multiple fields, found [k] and [boost]"
        );
        assert_eq!(
            reason(r#"{"match": {"_name": "n", "k": "v"}}"#),
            "[match] query doesn't support multiple fields, found [_name] and [k]"
        );
        // Range reads a value beside its field as a parameter it does not know.
        assert_eq!(
            reason(r#"{"range": {"boost": 2, "n": {"gte": 1}}}"#),
            "[range] query does not support [boost]"
        );
        assert_eq!(
            reason(r#"{"range": {"n": {"gte": 1}, "m": {"gte": 1}, "_name": "x"}}"#),
            "[range] query doesn't support multiple fields, found [n] and [m]"
        );
        // term and range pass over a null as if its key were absent.
        assert!(matches!(
            parse_str(r#"{"term": {"k": null, "boost": 2}}"#),
            Ok(Query::Term { ref field, .. }) if field == "boost"
        ));
        assert_eq!(
            reason(r#"{"range": {"k": null}}"#),
            "field name is null or empty"
        );
    }

    #[test]
    fn ints_stay_within_javas_range() {
        let at = |s: &str| int("q", "k", &json::parse(s.as_bytes()).unwrap());
        assert_eq!(at("2147483647").unwrap(), 2147483647);
        assert_eq!(at("-2147483648").unwrap(), -2147483648);
        assert_eq!(at("7.9").unwrap(), 7);
        assert_eq!(at(r#""12.5""#).unwrap(), 12);
        let e = at("2147483648").unwrap_err();
        assert_eq!(e.kind, ErrorKind::InputCoercion);
        assert!(e.reason.starts_with(
            "Numeric value (2147483648) out of range of int (-2147483648 - 2147483647)\n at "
        ));
        // The column is where the token ends, as Jackson reports it; the text is as written.
        assert!(e.reason.ends_with("line: 1, column: 11]"), "{}", e.reason);
        assert!(at("1.5e10").unwrap_err().reason.contains("(1.5e10)"));
        let e = at(r#""2147483648""#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalArgument);
        assert_eq!(
            e.reason,
            "Value [2147483648] is out of range for an integer"
        );
    }

    #[test]
    fn unknown_and_malformed() {
        let e = parse_str(r#"{"foo":{}}"#).unwrap_err();
        assert_eq!(e.reason, "unknown query [foo]");
        assert_eq!(error_pos(&e), Some(Pos { line: 1, col: 8 }));
        let e = parse_str(r#"{"match_all":{},"term":{}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "[match_all] malformed query, expected [END_OBJECT] but found [FIELD_NAME]"
        );
        let e = parse_str(r#"{}"#).unwrap_err();
        assert_eq!(e.reason, "query malformed, empty clause found at [1:2]");
        let e = parse_str(r#"{"match_all":{"boost":"x"}}"#).unwrap_err();
        assert_eq!(e.reason, "[1:23] [match_all] failed to parse field [boost]");
    }
}
