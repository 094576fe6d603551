//! `function_score`: a query whose score is combined with the factor of score functions
//! (`weight`, `field_value_factor`, `random_score`, the `gauss`/`linear`/`exp` decays), each
//! optionally behind a filter. Parsed as FunctionScoreQueryBuilder.fromXContent parses it, with
//! its messages and positions; what depends on the mapping (decay parameters, field types) is
//! checked when the query is built for a shard, as OpenSearch does.

use super::json::{Node, Pos, J};
use super::{double, float, parse_query, parsing, Query, DEFAULT_BOOST};
use crate::error::{Error, Result};
use serde_json::Value;

/// How the functions' results are combined (`score_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    First,
    Avg,
    Max,
    Sum,
    Min,
    Multiply,
}

impl ScoreMode {
    pub fn name(self) -> &'static str {
        match self {
            ScoreMode::First => "first",
            ScoreMode::Avg => "avg",
            ScoreMode::Max => "max",
            ScoreMode::Sum => "sum",
            ScoreMode::Min => "min",
            ScoreMode::Multiply => "multiply",
        }
    }
}

/// How the functions' factor is combined with the query score (`boost_mode`, Lucene-side
/// `CombineFunction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoostMode {
    Multiply,
    Replace,
    Sum,
    Avg,
    Min,
    Max,
}

/// `field_value_factor`'s `modifier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    None,
    Log,
    Log1p,
    Log2p,
    Ln,
    Ln1p,
    Ln2p,
    Square,
    Sqrt,
    Reciprocal,
}

impl Modifier {
    pub fn name(self) -> &'static str {
        use Modifier::*;
        match self {
            None => "none",
            Log => "log",
            Log1p => "log1p",
            Log2p => "log2p",
            Ln => "ln",
            Ln1p => "ln1p",
            Ln2p => "ln2p",
            Square => "square",
            Sqrt => "sqrt",
            Reciprocal => "reciprocal",
        }
    }

    /// The modifier in double precision, with Java's `Math` functions.
    pub fn apply(self, n: f64) -> f64 {
        use Modifier::*;
        match self {
            None => n,
            Log => n.log10(),
            Log1p => (n + 1.0).log10(),
            Log2p => (n + 2.0).log10(),
            Ln => n.ln(),
            Ln1p => n.ln_1p(),
            Ln2p => (n + 1.0).ln_1p(),
            Square => n.powi(2),
            Sqrt => n.sqrt(),
            Reciprocal => 1.0 / n,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecayKind {
    Gauss,
    Linear,
    Exp,
}

/// `multi_value_mode` of a decay function: which of a document's distances counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiValueMode {
    Min,
    Max,
    Avg,
    Sum,
    Median,
}

impl MultiValueMode {
    pub fn name(self) -> &'static str {
        match self {
            MultiValueMode::Min => "MIN",
            MultiValueMode::Max => "MAX",
            MultiValueMode::Avg => "AVG",
            MultiValueMode::Sum => "SUM",
            MultiValueMode::Median => "MEDIAN",
        }
    }
}

/// One score function, before the mapping is known.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreFunction {
    /// `weight` alone: a constant 1 (times the weight).
    Weight,
    FieldValueFactor {
        field: String,
        factor: f32,
        modifier: Modifier,
        missing: Option<f64>,
    },
    RandomScore {
        seed: Option<i32>,
        field: Option<String>,
    },
    Decay {
        kind: DecayKind,
        field: String,
        /// The field's object (`origin`, `scale`, `offset`, `decay`), read against the field's
        /// type when the query is built.
        params: Vec<(String, Value)>,
        multi_value_mode: MultiValueMode,
    },
}

/// A function with its optional filter, `weight` and `_name`.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterFunction {
    /// `None`: every document (no filter, or `match_all`).
    pub filter: Option<Query>,
    /// The filter query's own `_name` (printed in explanations).
    pub filter_name: Option<String>,
    pub function: ScoreFunction,
    pub weight: Option<f32>,
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FunctionScoreQuery {
    pub query: Query,
    /// The inner query's `_name` (its explanation carries it).
    pub query_name: Option<String>,
    pub functions: Vec<FilterFunction>,
    pub score_mode: ScoreMode,
    /// `None`: the default, multiply.
    pub boost_mode: Option<BoostMode>,
    pub max_boost: f32,
    pub min_score: Option<f32>,
    pub boost: f32,
}

impl FunctionScoreQuery {
    /// The way Lucene's query is shaped: one unfiltered function is a "single function" query.
    pub fn single_function(&self) -> bool {
        self.functions.len() == 1 && self.functions[0].filter.is_none()
    }
}

const NAME: &str = "function_score";
const MISPLACED: &str = "you can either define [functions] array or a single function, not both. ";

fn no_enum(class: &str, v: &str) -> Error {
    Error::illegal_argument(format!(
        "No enum constant org.opensearch.common.lucene.search.function.{class}.{}",
        v.to_uppercase()
    ))
}

fn score_mode(v: &str) -> Result<ScoreMode> {
    Ok(match v.to_lowercase().as_str() {
        "first" => ScoreMode::First,
        "avg" => ScoreMode::Avg,
        "max" => ScoreMode::Max,
        "sum" => ScoreMode::Sum,
        "min" => ScoreMode::Min,
        "multiply" => ScoreMode::Multiply,
        _ => return Err(no_enum("FunctionScoreQuery.ScoreMode", v)),
    })
}

fn boost_mode(v: &str) -> Result<BoostMode> {
    Ok(match v.to_lowercase().as_str() {
        "multiply" => BoostMode::Multiply,
        "replace" => BoostMode::Replace,
        "sum" => BoostMode::Sum,
        "avg" => BoostMode::Avg,
        "min" => BoostMode::Min,
        "max" => BoostMode::Max,
        _ => return Err(no_enum("CombineFunction", v)),
    })
}

fn modifier(v: &str) -> Result<Modifier> {
    use Modifier::*;
    Ok(match v.to_lowercase().as_str() {
        "none" => None,
        "log" => Log,
        "log1p" => Log1p,
        "log2p" => Log2p,
        "ln" => Ln,
        "ln1p" => Ln1p,
        "ln2p" => Ln2p,
        "square" => Square,
        "sqrt" => Sqrt,
        "reciprocal" => Reciprocal,
        _ => return Err(no_enum("FieldValueFactorFunction.Modifier", v)),
    })
}

fn multi_value_mode(v: &str) -> Result<MultiValueMode> {
    Ok(match v.to_lowercase().as_str() {
        "min" => MultiValueMode::Min,
        "max" => MultiValueMode::Max,
        "avg" => MultiValueMode::Avg,
        "sum" => MultiValueMode::Sum,
        "median" => MultiValueMode::Median,
        _ => {
            return Err(Error::illegal_argument(format!(
                "Illegal sort mode: {}",
                v.to_lowercase()
            )))
        }
    })
}

fn check_weight(w: f32) -> Result<f32> {
    if w < 0.0 {
        return Err(Error::illegal_argument(
            "[weight] cannot be negative for a filtering function",
        ));
    }
    Ok(w)
}

/// The filter of a function: `None` for `match_all` (OpenSearch drops it), with its `_name`.
fn filter_of(node: &Node) -> Result<(Option<Query>, Option<String>)> {
    let q = parse_query(node)?;
    let name = node
        .as_obj()
        .and_then(|e| e.first())
        .and_then(|(_, _, body)| super::query_name(body));
    let is_all = node
        .as_obj()
        .and_then(|e| e.first())
        .is_some_and(|(k, _, _)| k == "match_all");
    Ok(if is_all {
        (None, None)
    } else {
        (Some(q), name)
    })
}

pub fn parse(body: &Node) -> Result<Query> {
    let mut query = None;
    let mut query_name = None;
    let mut boost = DEFAULT_BOOST;
    let mut score_mode_v = ScoreMode::Multiply;
    let mut boost_mode_v = None;
    let mut max_boost = f32::MAX;
    let mut min_score = None;
    let mut functions = Vec::new();
    let mut array_found = false;
    let mut single: Option<String> = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match &v.v {
            J::Obj(_) => {
                if k == "query" {
                    query = Some(parse_query(v)?);
                    query_name = v
                        .as_obj()
                        .and_then(|e| e.first())
                        .and_then(|(_, _, body)| super::query_name(body));
                    continue;
                }
                if let Some(first) = &single {
                    return Err(already_found(first, k, v.pos));
                }
                if array_found {
                    return Err(misplaced(
                        &format!("already found [functions] array, now encountering [{k}]."),
                        v.pos,
                    ));
                }
                single = Some(k.clone());
                let (function, name) = parse_function(k, v)?;
                functions.push(FilterFunction {
                    filter: None,
                    filter_name: None,
                    function,
                    weight: None,
                    name,
                });
            }
            J::Arr(items) => {
                if k != "functions" {
                    return Err(parsing(
                        format!("failed to parse [{NAME}] query. array [{k}] is not supported"),
                        v.pos,
                    ));
                }
                if let Some(first) = &single {
                    return Err(misplaced(
                        &format!("already found [{first}], now encountering [functions]."),
                        v.pos,
                    ));
                }
                array_found = true;
                for item in items {
                    functions.push(parse_entry(item)?);
                }
            }
            _ => match k.as_str() {
                "score_mode" => score_mode_v = score_mode(&v.text().unwrap_or_default())?,
                "boost_mode" => boost_mode_v = Some(boost_mode(&v.text().unwrap_or_default())?),
                "max_boost" => max_boost = float(NAME, k, v)?,
                "boost" => boost = float(NAME, k, v)?,
                "_name" => {}
                "min_score" => min_score = Some(float(NAME, k, v)?),
                _ => {
                    if let Some(first) = &single {
                        return Err(already_found(first, k, v.pos));
                    }
                    if array_found {
                        return Err(misplaced(
                            &format!("already found [functions] array, now encountering [{k}]."),
                            v.pos,
                        ));
                    }
                    if k != "weight" {
                        return Err(parsing(
                            format!("failed to parse [{NAME}] query. field [{k}] is not supported"),
                            v.pos,
                        ));
                    }
                    single = Some(k.clone());
                    functions.push(FilterFunction {
                        filter: None,
                        filter_name: None,
                        function: ScoreFunction::Weight,
                        weight: Some(check_weight(float(NAME, k, v)?)?),
                        name: None,
                    });
                }
            },
        }
    }
    Ok(Query::FunctionScore(Box::new(FunctionScoreQuery {
        query: query.unwrap_or(Query::MatchAll { boost: 1.0 }),
        query_name,
        functions,
        score_mode: score_mode_v,
        boost_mode: boost_mode_v,
        max_boost,
        min_score,
        boost,
    })))
}

fn already_found(first: &str, now: &str, pos: Pos) -> Error {
    parsing(
        format!(
            "failed to parse [{NAME}] query. already found function [{first}], now encountering [{now}]. use [functions] array if you want to define several functions."
        ),
        pos,
    )
}

fn misplaced(detail: &str, pos: Pos) -> Error {
    parsing(
        format!("failed to parse [{NAME}] query. [{MISPLACED}{detail}]"),
        pos,
    )
}

/// One entry of `functions`: `{filter?, <function>?, weight?, _name?}`.
fn parse_entry(item: &Node) -> Result<FilterFunction> {
    let Some(entries) = item.as_obj() else {
        return Err(parsing(
            format!(
                "failed to parse [START_OBJECT]. malformed query, expected a [{}] while parsing functions but got a [{NAME}] instead",
                item.token()
            ),
            item.pos,
        ));
    };
    let mut filter = None;
    let mut filter_name = None;
    let mut function: Option<(String, ScoreFunction)> = None;
    let mut weight = None;
    let mut name = None;
    for (k, _, v) in entries {
        match &v.v {
            J::Obj(_) if k == "filter" => (filter, filter_name) = filter_of(v)?,
            J::Obj(_) => {
                if let Some((first, _)) = &function {
                    return Err(parsing(
                        format!(
                            "failed to parse function_score functions. already found [{first}], now encountering [{k}]."
                        ),
                        v.pos,
                    ));
                }
                let (f, fname) = parse_function(k, v)?;
                if fname.is_some() {
                    name = fname;
                }
                function = Some((k.clone(), f));
            }
            J::Arr(_) => {}
            _ => match k.as_str() {
                "weight" => weight = Some(check_weight(float(NAME, k, v)?)?),
                "_name" => name = v.text(),
                _ => {
                    return Err(parsing(
                        format!("failed to parse [{NAME}] query. field [{k}] is not supported"),
                        v.pos,
                    ))
                }
            },
        }
    }
    let function = match (function, weight) {
        (Some((_, f)), _) => f,
        (None, Some(_)) => ScoreFunction::Weight,
        (None, None) => {
            return Err(parsing(
                format!(
                "failed to parse [{NAME}] query. an entry in functions list is missing a function."
            ),
                item.end,
            ))
        }
    };
    Ok(FilterFunction {
        filter,
        filter_name,
        function,
        weight,
        name,
    })
}

/// A named score function's body, and the function's `_name` when it carries one.
fn parse_function(name: &str, body: &Node) -> Result<(ScoreFunction, Option<String>)> {
    match name {
        "field_value_factor" => parse_field_value_factor(body).map(|f| (f, None)),
        "random_score" => parse_random(body),
        "gauss" => parse_decay(DecayKind::Gauss, body),
        "linear" => parse_decay(DecayKind::Linear, body),
        "exp" => parse_decay(DecayKind::Exp, body),
        "script_score" => Err(Error::illegal_argument(
            "[script_score] scripts are not supported by Quarry: use field_value_factor, decay functions (gauss, linear, exp), random_score or weight",
        )),
        other => Err(parsing(format!("unknown query [{NAME}]"), body.pos).caused_by(
            Error::new(
                crate::error::ErrorKind::NamedObjectNotFound,
                format!("{} unknown field [{other}]", body.pos),
            ),
        )),
    }
}

fn parse_field_value_factor(body: &Node) -> Result<ScoreFunction> {
    let mut field = None;
    let mut factor = 1.0f32;
    let mut modifier_v = Modifier::None;
    let mut missing = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match &v.v {
            J::Obj(_) | J::Arr(_) => {
                if k == "factor" {
                    return Err(parsing(
                        "[field_value_factor] field 'factor' does not support lists or objects",
                        v.pos,
                    ));
                }
            }
            _ => match k.as_str() {
                "field" => field = v.text(),
                "factor" => factor = float(NAME, k, v)?,
                "modifier" => modifier_v = modifier(&v.text().unwrap_or_default())?,
                "missing" => missing = Some(double(NAME, k, v)?),
                _ => {
                    return Err(parsing(
                        format!("field_value_factor query does not support [{k}]"),
                        v.pos,
                    ))
                }
            },
        }
    }
    let Some(field) = field else {
        return Err(parsing(
            "[field_value_factor] required field 'field' missing",
            body.end,
        ));
    };
    Ok(ScoreFunction::FieldValueFactor {
        field,
        factor,
        modifier: modifier_v,
        missing,
    })
}

fn parse_random(body: &Node) -> Result<(ScoreFunction, Option<String>)> {
    let mut seed = None;
    let mut field = None;
    let mut name = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        if matches!(v.v, J::Obj(_) | J::Arr(_)) {
            continue;
        }
        match k.as_str() {
            "seed" => {
                seed = Some(match &v.v {
                    J::Num(n, _) => match (n.as_i64(), n.as_u64()) {
                        (Some(i), _) if i32::try_from(i).is_ok() => i as i32,
                        // Long.hashCode of a long seed.
                        (Some(i), _) => ((i as u64 >> 32) as i32) ^ (i as i32),
                        _ => return Err(parsing(
                            "random_score seed must be an int, long or string, not 'VALUE_NUMBER'",
                            v.pos,
                        )),
                    },
                    J::Str(s) => crate::util::java_hash::string_hash(s),
                    _ => {
                        return Err(parsing(
                            format!(
                                "random_score seed must be an int/long or string, not '{}'",
                                v.token()
                            ),
                            v.pos,
                        ))
                    }
                })
            }
            "field" => field = v.text(),
            "_name" => name = v.text(),
            _ => {
                return Err(parsing(
                    format!("random_score query does not support [{k}]"),
                    v.pos,
                ))
            }
        }
    }
    Ok((ScoreFunction::RandomScore { seed, field }, name))
}

fn parse_decay(kind: DecayKind, body: &Node) -> Result<(ScoreFunction, Option<String>)> {
    let mut mode = MultiValueMode::Min;
    let mut field: Option<(String, Vec<(String, Value)>)> = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        match &v.v {
            J::Obj(entries) => {
                let params = entries
                    .iter()
                    .map(|(pk, _, pv)| (pk.clone(), pv.to_value()))
                    .collect();
                field = Some((k.clone(), params));
            }
            _ if k == "multi_value_mode" => mode = multi_value_mode(&v.text().unwrap_or_default())?,
            _ => return Err(parsing("malformed score function score parameters.", v.pos)),
        }
    }
    let Some((field, params)) = field else {
        return Err(parsing(
            "malformed score function score parameters.",
            body.end,
        ));
    };
    Ok((
        ScoreFunction::Decay {
            kind,
            field,
            params,
            multi_value_mode: mode,
        },
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::parse_str;
    use super::*;

    fn fs(s: &str) -> FunctionScoreQuery {
        match parse_str(s).unwrap() {
            Query::FunctionScore(f) => *f,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn single_and_array_forms() {
        let f = fs(r#"{"function_score":{"weight":2,"boost":3}}"#);
        assert_eq!(f.functions.len(), 1);
        assert_eq!(f.functions[0].weight, Some(2.0));
        assert!(f.single_function());
        assert_eq!(f.boost, 3.0);
        let f = fs(
            r#"{"function_score":{"functions":[{"filter":{"term":{"a":"b"}},"weight":2},{"filter":{"match_all":{}},"field_value_factor":{"field":"n","modifier":"LN1P","missing":1}}],"score_mode":"AVG","boost_mode":"sum"}}"#,
        );
        assert_eq!(f.functions.len(), 2);
        assert!(f.functions[0].filter.is_some());
        assert!(f.functions[1].filter.is_none());
        assert_eq!(f.score_mode, ScoreMode::Avg);
        assert_eq!(f.boost_mode, Some(BoostMode::Sum));
        assert!(!f.single_function());
    }

    #[test]
    fn errors_as_opensearch() {
        let e = parse_str(r#"{"function_score":{"weight":2,"random_score":{}}}"#).unwrap_err();
        assert!(e
            .reason
            .contains("already found function [weight], now encountering [random_score]"));
        let e = parse_str(r#"{"function_score":{"functions":[{"filter":{"match_all":{}}}]}}"#)
            .unwrap_err();
        assert_eq!(
            e.reason,
            "failed to parse [function_score] query. an entry in functions list is missing a function."
        );
        let e = parse_str(r#"{"function_score":{"weight":-1}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "[weight] cannot be negative for a filtering function"
        );
        let e = parse_str(r#"{"function_score":{"score_mode":"foo"}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "No enum constant org.opensearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode.FOO"
        );
        let e = parse_str(r#"{"function_score":{"script_score":{"script":{"source":"1"}}}}"#)
            .unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::IllegalArgument);
        assert!(e.reason.contains("scripts are not supported"));
    }

    #[test]
    fn seeds_hash_like_java() {
        let f = fs(r#"{"function_score":{"random_score":{"seed":12345678901,"field":"f"}}}"#);
        let v: i64 = 12345678901;
        assert_eq!(
            f.functions[0].function,
            ScoreFunction::RandomScore {
                seed: Some(((v as u64 >> 32) as i32) ^ (v as i32)),
                field: Some("f".into())
            }
        );
    }
}
