//! A search body's `aggs` (or `aggregations`), read as OpenSearch's `AggregatorFactories` and
//! the aggregation builders' object parsers read them, with their messages.

use crate::dsl::json::{Node, J};
use crate::dsl::{parsing, x_content};
use crate::error::{Error, ErrorKind, Result};

/// The aggregations of a request, in the order written (the response keeps it).
#[derive(Debug, Clone, PartialEq)]
pub struct Aggs(pub Vec<Agg>);

#[derive(Debug, Clone, PartialEq)]
pub struct Agg {
    pub name: String,
    pub kind: AggKind,
    /// Metrics computed in each of a bucket aggregation's buckets, in the same pass.
    pub subs: Vec<Agg>,
    /// The other sub-aggregations (buckets, `cardinality`): each bucket's own pass over its
    /// docs (`search::shard_aggs`).
    pub nested: Vec<Agg>,
    /// Its place among its siblings as written: `subs` and `nested` split them, and the profile
    /// lists them in the written order.
    pub position: usize,
    /// `meta`, echoed first in the aggregation's answer, its maps in Java `HashMap` order as
    /// OpenSearch reads them (`parser.map()`).
    pub meta: Option<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AggKind {
    Terms {
        field: String,
        size: usize,
        shard_size: Option<usize>,
        min_doc_count: u64,
    },
    DateHistogram {
        field: String,
        interval: Interval,
        min_doc_count: u64,
    },
    /// A numeric histogram: buckets `interval` wide, shifted by `offset`.
    Histogram {
        field: String,
        interval: f64,
        offset: f64,
        min_doc_count: u64,
        keyed: bool,
    },
    /// Buckets of values in `[from, to)` ranges.
    Range {
        field: String,
        ranges: Vec<RangeSpec>,
        keyed: bool,
        /// `date_range`: bounds are dates even on a field the shard does not map.
        dates: bool,
    },
    Metric {
        field: String,
        metric: Metric,
    },
    /// The matches without a value in the field.
    Missing {
        field: String,
    },
    /// The matches of a query (each shard builds it).
    Filter {
        query: Box<crate::dsl::Query>,
    },
    /// A bucket per query: named (and sorted by name) or in the order given, then, with
    /// `other`, the matches of none under that key.
    Filters {
        filters: Vec<(Option<String>, crate::dsl::Query)>,
        other: Option<String>,
    },
    /// The number of distinct values, counted exactly (OpenSearch's HyperLogLog++ is exact
    /// below its `precision_threshold`, 3,000 by default, and estimates above it).
    Cardinality {
        field: String,
    },
    /// One bucket of every live doc of the shard, whatever the search's query: only at the top
    /// level (`search::shard_aggs` refuses it below a bucket, as OpenSearch's shards do).
    Global,
}

/// One range of a `range` aggregation as written: its bounds are read as numbers by each shard
/// (a string that is not one fails there, as in OpenSearch).
#[derive(Debug, Clone, PartialEq)]
pub struct RangeSpec {
    pub key: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Metric {
    Stats,
    Min,
    Max,
    Avg,
    Sum,
    ValueCount,
    /// `extended_stats`, with its `sigma` (how many standard deviations its bounds lie out).
    ExtendedStats(f64),
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stats => "stats",
            Metric::Min => "min",
            Metric::Max => "max",
            Metric::Avg => "avg",
            Metric::Sum => "sum",
            Metric::ValueCount => "value_count",
            Metric::ExtendedStats(_) => "extended_stats",
        }
    }
}

/// A date histogram's rounding: a calendar unit, or a fixed span in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Interval {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
    Fixed(i64),
}

/// Aggregation types OpenSearch knows that Quarry does not run yet: refused by name.
const NOT_YET: &[&str] = &[
    "ip_range",
    "nested",
    "reverse_nested",
    "composite",
    "significant_terms",
    "significant_text",
    "rare_terms",
    "multi_terms",
    "auto_date_histogram",
    "variable_width_histogram",
    "sampler",
    "diversified_sampler",
    "adjacency_matrix",
    "geohash_grid",
    "geotile_grid",
    "geo_distance",
    "percentiles",
    "percentile_ranks",
    "median_absolute_deviation",
    "top_hits",
    "scripted_metric",
    "weighted_avg",
    "geo_bounds",
    "geo_centroid",
    "matrix_stats",
    "avg_bucket",
    "sum_bucket",
    "min_bucket",
    "max_bucket",
    "stats_bucket",
    "extended_stats_bucket",
    "percentiles_bucket",
    "derivative",
    "cumulative_sum",
    "moving_avg",
    "moving_fn",
    "serial_diff",
    "bucket_script",
    "bucket_selector",
    "bucket_sort",
];

pub fn parse(node: &Node) -> Result<Aggs> {
    let Some(entries) = node.as_obj() else {
        return Err(parsing(
            format!("Unexpected token {} in [aggs].", node.token()),
            node.pos,
        ));
    };
    let mut out = Vec::new();
    for (name, name_pos, def) in entries {
        if name.contains(['[', ']', '>']) {
            return Err(parsing(
                format!("Invalid aggregation name [{name}]. Aggregation names can contain any character except '[', ']', and '>'"),
                *name_pos,
            ));
        }
        let Some(fields) = def.as_obj() else {
            return Err(parsing(
                format!(
                    "Aggregation definition for [{name} starts with a [{}], expected a [START_OBJECT].",
                    def.token()
                ),
                def.pos,
            ));
        };
        let mut kind: Option<(&str, AggKind)> = None;
        let mut subs = Vec::new();
        let mut meta = None;
        for (key, _, body) in fields {
            // `AggregatorFactories` asks every key for an object before it looks at the key.
            if body.as_obj().is_none() {
                return Err(parsing(
                    format!(
                        "Expected [START_OBJECT] under [{key}], but got a [{}] in [{name}]",
                        body.token()
                    ),
                    body.pos,
                ));
            }
            match key.as_str() {
                "meta" => {
                    meta = Some(java_map(body));
                    continue;
                }
                "aggs" | "aggregations" => {
                    subs = parse(body)?.0;
                    continue;
                }
                _ => {}
            }
            // OpenSearch's parser stands on the type's object when it refuses one.
            if let Some((first, _)) = &kind {
                return Err(parsing(
                    format!(
                        "Found two aggregation type definitions in [{name}]: [{first}] and [{key}]"
                    ),
                    body.pos,
                ));
            }
            let parsed = match key.as_str() {
                "terms" => terms(name, body)?,
                "date_histogram" => date_histogram(body)?,
                "histogram" => histogram(name, body)?,
                "range" => range("range", body)?,
                "date_range" => range("date_range", body)?,
                "cardinality" => cardinality(name, body)?,
                "extended_stats" => extended_stats(name, body)?,
                "missing" => AggKind::Missing {
                    field: field_only(key, body)?,
                },
                "filter" => AggKind::Filter {
                    query: Box::new(crate::dsl::parse_query(body)?),
                },
                "filters" => filters(name, body)?,
                "global" => global(name, body)?,
                "stats" | "min" | "max" | "avg" | "sum" | "value_count" => {
                    let metric = match key.as_str() {
                        "stats" => Metric::Stats,
                        "min" => Metric::Min,
                        "max" => Metric::Max,
                        "avg" => Metric::Avg,
                        "sum" => Metric::Sum,
                        _ => Metric::ValueCount,
                    };
                    AggKind::Metric {
                        field: field_only(key, body)?,
                        metric,
                    }
                }
                other if NOT_YET.contains(&other) => {
                    return Err(Error::illegal_argument(format!(
                        "[{other}] aggregations are not supported yet"
                    )))
                }
                other => {
                    return Err(
                        parsing(format!("Unknown aggregation type [{other}]"), body.pos).caused_by(
                            Error::new(
                                ErrorKind::NamedObjectNotFound,
                                format!("{} unknown field [{other}]", body.pos),
                            ),
                        ),
                    )
                }
            };
            kind = Some((key.as_str(), parsed));
        }
        let Some((_, kind)) = kind else {
            return Err(parsing(
                format!("Missing definition for aggregation [{name}]"),
                def.end,
            ));
        };
        let bucketing = !matches!(kind, AggKind::Metric { .. } | AggKind::Cardinality { .. });
        if !subs.is_empty() && !bucketing {
            return Err(Error::new(
                ErrorKind::AggregationInitialization,
                format!(
                    "Aggregator [{name}] of type [{}] cannot accept sub-aggregations",
                    super::collect::type_name(&kind)
                ),
            ));
        }
        let (subs, nested) = subs
            .into_iter()
            .partition(|s| matches!(s.kind, AggKind::Metric { .. }));
        out.push(Agg {
            name: name.clone(),
            kind,
            subs,
            nested,
            position: out.len(),
            meta,
        });
    }
    Ok(Aggs(out))
}

/// Refuses a `global` below another aggregation, as a shard does when it builds the aggregators
/// (each parent builds its sub-aggregations in order, depth first), so the search fails on every
/// shard rather than at parsing.
pub fn check_global_placement(aggs: &Aggs) -> Result<()> {
    fn below(parent: &Agg) -> Result<()> {
        // Metrics (`subs`) have no sub-aggregations and are never `global`.
        for child in &parent.nested {
            if child.kind == AggKind::Global {
                return Err(Error::new(
                    ErrorKind::AggregationExecution,
                    format!(
                        "Aggregation [{}] cannot have a global sub-aggregation [{}]. Global aggregations can only be defined as top level aggregations",
                        parent.name, child.name
                    ),
                ));
            }
            below(child)?;
        }
        Ok(())
    }
    aggs.0.iter().try_for_each(below)
}

/// A type's body, which `parse` has already seen to be an object.
fn object(body: &Node) -> &[(String, crate::dsl::json::Pos, Node)] {
    body.as_obj().unwrap_or_default()
}

/// A JSON object as Java's `HashMap`s hold it (recursively; arrays keep their order).
fn java_map(node: &Node) -> serde_json::Value {
    use serde_json::Value;
    match &node.v {
        J::Obj(entries) => {
            let mut items: Vec<(String, Value)> = entries
                .iter()
                .map(|(k, _, v)| (k.clone(), java_map(v)))
                .collect();
            crate::util::java_hash::hash_order(&mut items);
            Value::Object(items.into_iter().collect())
        }
        J::Arr(items) => Value::Array(items.iter().map(java_map).collect()),
        _ => node.to_value(),
    }
}

/// `global` takes no options. Its parser steps into the object and leaves, so the aggregation's
/// own loop meets the first option's value where it expects the next key.
fn global(name: &str, body: &Node) -> Result<AggKind> {
    match object(body).first() {
        None => Ok(AggKind::Global),
        Some((_, _, v)) => Err(parsing(
            format!(
                "Expected [FIELD_NAME] under a [START_OBJECT], but got a [{}] in [{name}]",
                v.token()
            ),
            v.pos,
        )),
    }
}

/// Options OpenSearch's builders take that Quarry does not apply yet: refused by name rather
/// than ignored (an ignored one would change the answer silently).
const OPTIONS_NOT_YET: &[&str] = &[
    "order",
    "missing",
    "format",
    "script",
    "include",
    "exclude",
    "shard_min_doc_count",
    "show_term_doc_count_error",
    "collect_mode",
    "execution_hint",
    "value_type",
    "time_zone",
    "offset",
    "extended_bounds",
    "hard_bounds",
    "keyed",
    "interval",
];

fn unknown(agg: &str, key: &str, key_pos: crate::dsl::json::Pos) -> Error {
    if OPTIONS_NOT_YET.contains(&key) {
        return Error::illegal_argument(format!("[{agg}] option [{key}] is not supported yet"));
    }
    x_content(format!("[{agg}] unknown field [{key}]"), key_pos)
}

fn required_field(field: Option<String>) -> Result<String> {
    field.ok_or_else(|| {
        Error::illegal_argument("Required one of fields [field, script], but none were specified. ")
    })
}

fn text(agg: &str, key: &str, v: &Node) -> Result<String> {
    match &v.v {
        J::Str(s) => Ok(s.clone()),
        J::Num(_, raw) => Ok(raw.to_string()),
        J::Bool(b) => Ok(b.to_string()),
        _ => Err(x_content(
            format!(
                "[{agg}] {key} doesn't support values of type: {}",
                v.token()
            ),
            v.pos,
        )),
    }
}

fn count(agg: &str, key: &str, v: &Node) -> Result<i64> {
    crate::dsl::int(agg, key, v).map_err(|e| field_refused(agg, key, v.pos, e))
}

/// `[agg] failed to parse field [key]` where the parser stood, caused by what the builder refused.
fn field_refused(agg: &str, key: &str, at: crate::dsl::json::Pos, cause: Error) -> Error {
    x_content(format!("[{agg}] failed to parse field [{key}]"), at).caused_by(cause)
}

fn field_only(agg: &str, body: &Node) -> Result<String> {
    let mut field = None;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text(agg, key, v)?),
            _ => return Err(unknown(agg, key, *key_pos)),
        }
    }
    required_field(field)
}

fn terms(name: &str, body: &Node) -> Result<AggKind> {
    let mut field = None;
    let mut size = 10;
    let mut shard_size = None;
    let mut min_doc_count = 1;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text("terms", key, v)?),
            "size" | "shard_size" | "min_doc_count" => {
                let n = count("terms", key, v)?;
                let floor = if key == "min_doc_count" { 0 } else { 1 };
                if n < floor {
                    let what = if floor == 0 {
                        "must be greater than or equal to 0"
                    } else {
                        "must be greater than 0"
                    };
                    return Err(field_refused(
                        "terms",
                        key,
                        v.pos,
                        Error::illegal_argument(format!("[{key}] {what}. Found [{n}] in [{name}]")),
                    ));
                }
                match key.as_str() {
                    "size" => size = n as usize,
                    "shard_size" => shard_size = Some(n as usize),
                    _ => min_doc_count = n as u64,
                }
            }
            _ => return Err(unknown("terms", key, *key_pos)),
        }
    }
    Ok(AggKind::Terms {
        field: required_field(field)?,
        size,
        shard_size,
        min_doc_count,
    })
}

/// A double option of an aggregation, read as OpenSearch's object parser reads it.
fn double(agg: &str, key: &str, v: &Node) -> Result<f64> {
    crate::dsl::double(agg, key, v).map_err(|e| field_refused(agg, key, v.pos, e))
}

/// `filters`, read as OpenSearch's hand-written parser reads it (its own "Unknown key" words).
fn filters(name: &str, body: &Node) -> Result<AggKind> {
    let mut list: Vec<(Option<String>, crate::dsl::Query)> = Vec::new();
    let (mut other_bucket, mut other_key) = (false, None);
    let unknown_key = |key: &str, v: &Node| {
        parsing(
            format!("Unknown key for a {} in [{name}]: [{key}].", v.token()),
            v.pos,
        )
    };
    for (key, _, v) in object(body) {
        match (key.as_str(), &v.v) {
            ("filters", J::Obj(named)) => {
                for (filter, _, q) in named {
                    list.push((Some(filter.clone()), crate::dsl::parse_query(q)?));
                }
                // Keyed filters are kept in key order (Java's `String.compareTo`).
                list.sort_by(|a, b| {
                    let key = |f: &(Option<String>, _)| f.0.clone().unwrap_or_default();
                    key(a).encode_utf16().cmp(key(b).encode_utf16())
                });
            }
            ("filters", J::Arr(items)) => {
                for q in items {
                    list.push((None, crate::dsl::parse_query(q)?));
                }
            }
            ("other_bucket", J::Bool(b)) => other_bucket = *b,
            ("other_bucket_key", J::Str(k)) => other_key = Some(k.clone()),
            _ => return Err(unknown_key(key, v)),
        }
    }
    if list.is_empty() {
        return Err(Error::illegal_argument("[filters] cannot be empty."));
    }
    // A key for the other bucket asks for it.
    let other = (other_bucket || other_key.is_some())
        .then(|| other_key.unwrap_or_else(|| "_other_".to_string()));
    Ok(AggKind::Filters {
        filters: list,
        other,
    })
}

fn extended_stats(name: &str, body: &Node) -> Result<AggKind> {
    const AGG: &str = "extended_stats";
    let mut field = None;
    let mut sigma = 2.0;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text(AGG, key, v)?),
            "sigma" => {
                sigma = double(AGG, key, v)?;
                if sigma < 0.0 {
                    return Err(field_refused(
                        AGG,
                        key,
                        v.pos,
                        Error::illegal_argument(format!(
                            "[sigma] must be greater than or equal to 0. Found [{}] in [{name}]",
                            crate::query::function_score::java_double(sigma)
                        )),
                    ));
                }
            }
            _ => return Err(unknown(AGG, key, *key_pos)),
        }
    }
    Ok(AggKind::Metric {
        field: required_field(field)?,
        metric: Metric::ExtendedStats(sigma),
    })
}

fn cardinality(name: &str, body: &Node) -> Result<AggKind> {
    const AGG: &str = "cardinality";
    let mut field = None;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text(AGG, key, v)?),
            // Quarry counts exactly at any threshold; the option is checked as OpenSearch does.
            "precision_threshold" => {
                let n = count(AGG, key, v)?;
                if n < 0 {
                    return Err(field_refused(AGG, key, v.pos, Error::illegal_argument(format!(
                            "[precisionThreshold] must be greater than or equal to 0. Found [{n}] in [{name}]"
                        ))));
                }
            }
            _ => return Err(unknown(AGG, key, *key_pos)),
        }
    }
    Ok(AggKind::Cardinality {
        field: required_field(field)?,
    })
}

fn range(agg: &'static str, body: &Node) -> Result<AggKind> {
    let dates = agg == "date_range";
    let mut field = None;
    let mut ranges = Vec::new();
    let mut keyed = false;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text(agg, key, v)?),
            "keyed" => keyed = crate::dsl::boolean(agg, key, v)?,
            // An object array also takes a single object.
            "ranges" => {
                let items: Vec<&Node> = match &v.v {
                    J::Arr(items) => items.iter().collect(),
                    J::Obj(_) => vec![v],
                    _ => {
                        return Err(x_content(
                            format!(
                                "[{agg}] ranges doesn't support values of type: {}",
                                v.token()
                            ),
                            v.pos,
                        ))
                    }
                };
                for item in items {
                    ranges
                        .push(range_spec(item).map_err(|(e, at)| field_refused(agg, key, at, e))?);
                }
            }
            _ => return Err(unknown(agg, key, *key_pos)),
        }
    }
    Ok(AggKind::Range {
        field: required_field(field)?,
        ranges,
        keyed,
        dates,
    })
}

/// One `{from, to, key}`; a refusal with where the parser stood. Its messages name `[range]`
/// for `date_range` too: the two share the range parser.
fn range_spec(item: &Node) -> std::result::Result<RangeSpec, (Error, crate::dsl::json::Pos)> {
    const AGG: &str = "range";
    let Some(fields) = item.as_obj() else {
        let e = x_content(
            format!("[{AGG}] Expected START_OBJECT but was: {}", item.token()),
            item.pos,
        );
        return Err((e, item.pos));
    };
    let mut spec = RangeSpec {
        key: None,
        from: None,
        to: None,
    };
    for (key, key_pos, v) in fields {
        let value = match &v.v {
            J::Null => None,
            J::Str(s) => Some(s.clone()),
            J::Num(_, raw) => Some(raw.to_string()),
            _ => {
                let e = x_content(
                    format!(
                        "[{AGG}] {key} doesn't support values of type: {}",
                        v.token()
                    ),
                    v.pos,
                );
                return Err((e, v.pos));
            }
        };
        match key.as_str() {
            "key" => spec.key = value,
            "from" => spec.from = value,
            "to" => spec.to = value,
            _ => {
                return Err((
                    x_content(format!("[{AGG}] unknown field [{key}]"), *key_pos),
                    v.pos,
                ))
            }
        }
    }
    Ok(spec)
}

fn histogram(name: &str, body: &Node) -> Result<AggKind> {
    const AGG: &str = "histogram";
    let mut field = None;
    // Left out, the interval is 0, which each shard refuses.
    let mut interval = 0.0;
    let mut offset = 0.0;
    let mut min_doc_count = 0;
    let mut keyed = false;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text(AGG, key, v)?),
            "interval" => {
                interval = double(AGG, key, v)?;
                if interval <= 0.0 {
                    return Err(field_refused(
                        AGG,
                        key,
                        v.pos,
                        Error::illegal_argument(format!(
                            "[interval] must be >0 for histogram aggregation [{name}]"
                        )),
                    ));
                }
            }
            "offset" => offset = double(AGG, key, v)?,
            "min_doc_count" => {
                let n = count(AGG, key, v)?;
                if n < 0 {
                    return Err(field_refused(AGG, key, v.pos, Error::illegal_argument(format!(
                            "[minDocCount] must be greater than or equal to 0. Found [{n}] in [{name}]"
                        ))));
                }
                min_doc_count = n as u64;
            }
            "keyed" => keyed = crate::dsl::boolean(AGG, key, v)?,
            _ => return Err(unknown(AGG, key, *key_pos)),
        }
    }
    Ok(AggKind::Histogram {
        field: required_field(field)?,
        interval,
        offset,
        min_doc_count,
        keyed,
    })
}

fn date_histogram(body: &Node) -> Result<AggKind> {
    let mut field = None;
    let mut interval = None;
    let mut min_doc_count = 0;
    for (key, key_pos, v) in object(body) {
        match key.as_str() {
            "field" => field = Some(text("date_histogram", key, v)?),
            "calendar_interval" => {
                let t = text("date_histogram", key, v)?;
                interval = Some(calendar(&t).ok_or_else(|| {
                    field_refused(
                        "date_histogram",
                        key,
                        v.pos,
                        Error::illegal_argument(format!(
                        "The supplied interval [{t}] could not be parsed as a calendar interval."
                    )),
                    )
                })?);
            }
            "fixed_interval" => {
                let t = text("date_histogram", key, v)?;
                interval = Some(Interval::Fixed(fixed(&t).ok_or_else(|| {
                    field_refused("date_histogram", key, v.pos, Error::illegal_argument(format!(
                        "failed to parse setting [date_histogram.fixedInterval] with value [{t}] as a time value: unit is missing or unrecognized"
                    )))
                })?));
            }
            "min_doc_count" => {
                let n = count("date_histogram", key, v)?;
                if n < 0 {
                    return Err(field_refused("date_histogram", key, v.pos, Error::illegal_argument(format!(
                        "[minDocCount] must be greater than or equal to 0. Found [{n}] in [date_histogram]"
                    ))));
                }
                min_doc_count = n as u64;
            }
            _ => return Err(unknown("date_histogram", key, *key_pos)),
        }
    }
    let field = required_field(field)?;
    let interval = interval.ok_or_else(|| {
        Error::illegal_argument("Invalid interval specified, must be non-null and non-empty")
    })?;
    Ok(AggKind::DateHistogram {
        field,
        interval,
        min_doc_count,
    })
}

/// `DateHistogramAggregationBuilder.DATE_FIELD_UNITS`: the calendar units by name.
fn calendar(t: &str) -> Option<Interval> {
    Some(match t {
        "1m" | "minute" => Interval::Minute,
        "1h" | "hour" => Interval::Hour,
        "1d" | "day" => Interval::Day,
        "1w" | "week" => Interval::Week,
        "1M" | "month" => Interval::Month,
        "1q" | "quarter" => Interval::Quarter,
        "1y" | "year" => Interval::Year,
        _ => return None,
    })
}

/// A fixed interval as a time value: a whole number and a unit up to days.
fn fixed(t: &str) -> Option<i64> {
    let split = t.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = t.split_at(split);
    let n: i64 = n.parse().ok()?;
    let ms = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    };
    (n > 0).then_some(n * ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aggs(s: &str) -> Result<Aggs> {
        parse(&crate::dsl::json::parse(s.as_bytes()).unwrap())
    }

    #[test]
    fn reads_the_supported_types() {
        let a = aggs(r#"{"o":{"terms":{"field":"k","size":3}},"d":{"date_histogram":{"field":"t","calendar_interval":"day"}},"s":{"stats":{"field":"n"}}}"#).unwrap();
        assert_eq!(a.0.len(), 3);
        assert_eq!(
            a.0[0].kind,
            AggKind::Terms {
                field: "k".into(),
                size: 3,
                shard_size: None,
                min_doc_count: 1
            }
        );
        assert!(matches!(
            a.0[1].kind,
            AggKind::DateHistogram {
                interval: Interval::Day,
                ..
            }
        ));
        assert_eq!(fixed("90m"), Some(5_400_000));
    }

    #[test]
    fn refuses_as_opensearch_does() {
        let e = aggs(r#"{"a":{"bogus":{}}}"#).unwrap_err();
        assert_eq!(e.reason, "Unknown aggregation type [bogus]");
        let e = aggs(r#"{"a":{"terms":{"field":"k"},"avg":{"field":"n"}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "Found two aggregation type definitions in [a]: [terms] and [avg]"
        );
        let e = aggs(r#"{"a":{"terms":{}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "Required one of fields [field, script], but none were specified. "
        );
        let e = aggs(r#"{"a":{"percentiles":{"field":"n"}}}"#).unwrap_err();
        assert_eq!(e.reason, "[percentiles] aggregations are not supported yet");
        let e = aggs(r#"{"r":{"range":{"field":"n","ranges":[{"bogus":3}]}}}"#).unwrap_err();
        assert_eq!(e.reason, "[1:47] [range] failed to parse field [ranges]");
        assert_eq!(
            e.caused_by.unwrap().reason,
            "[1:39] [range] unknown field [bogus]"
        );
        let e = aggs(r#"{"h":{"histogram":{"field":"n","interval":-1}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "[1:43] [histogram] failed to parse field [interval]"
        );
        assert_eq!(
            e.caused_by.unwrap().reason,
            "[interval] must be >0 for histogram aggregation [h]"
        );
    }

    #[test]
    fn reads_global_and_its_refusals() {
        let a = aggs(r#"{"all":{"global":{},"aggs":{"p":{"avg":{"field":"n"}},"t":{"terms":{"field":"k"}}}}}"#).unwrap();
        assert_eq!(a.0[0].kind, AggKind::Global);
        assert_eq!((a.0[0].subs.len(), a.0[0].nested.len()), (1, 1));
        // Written order survives the split into metrics and the rest.
        assert_eq!((a.0[0].subs[0].position, a.0[0].nested[0].position), (0, 1));
        // The first option's value stands where the next key was expected.
        let e = aggs(r#"{"all":{"global":{"x":1}}}"#).unwrap_err();
        assert_eq!(
            (e.kind, e.reason.as_str()),
            (
                ErrorKind::Parsing,
                "Expected [FIELD_NAME] under a [START_OBJECT], but got a [VALUE_NUMBER] in [all]"
            )
        );
        assert_eq!(e.metadata[1].1, serde_json::json!(23));
        let e = aggs(r#"{"all":{"global":{"a":{},"b":2}}}"#).unwrap_err();
        assert!(e.reason.contains("but got a [START_OBJECT] in [all]"));
        let e = aggs(r#"{"all":{"global":[]}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "Expected [START_OBJECT] under [global], but got a [START_ARRAY] in [all]"
        );
        assert_eq!(e.metadata[1].1, serde_json::json!(18));
        let e = aggs(r#"{"all":{"max":{"field":"n"},"global":{}}}"#).unwrap_err();
        assert_eq!(
            e.reason,
            "Found two aggregation type definitions in [all]: [max] and [global]"
        );
    }

    #[test]
    fn every_key_of_an_aggregation_takes_an_object() {
        for (body, key, token) in [
            (r#"{"m":{"max":1}}"#, "max", "VALUE_NUMBER"),
            (
                r#"{"m":{"max":{"field":"n"},"meta":"x"}}"#,
                "meta",
                "VALUE_STRING",
            ),
            (
                r#"{"m":{"max":{"field":"n"},"aggs":[]}}"#,
                "aggs",
                "START_ARRAY",
            ),
            // Before the unknown type or the second type is looked at.
            (
                r#"{"m":{"max":{"field":"n"},"bogus":null}}"#,
                "bogus",
                "VALUE_NULL",
            ),
        ] {
            let e = aggs(body).unwrap_err();
            assert_eq!(
                e.reason,
                format!("Expected [START_OBJECT] under [{key}], but got a [{token}] in [m]"),
                "{body}"
            );
        }
    }

    #[test]
    fn meta_is_kept_as_java_hash_maps_order_it() {
        let a = aggs(r#"{"m":{"meta":{"zeta":1,"alpha":{"y":2.0,"b":[{"q":null,"a":true}]},"b":3,"f":1e2},"max":{"field":"n"}}}"#).unwrap();
        let meta = serde_json::to_string(a.0[0].meta.as_ref().unwrap()).unwrap();
        assert_eq!(
            meta,
            r#"{"zeta":1,"b":3,"f":100.0,"alpha":{"b":[{"q":null,"a":true}],"y":2.0}}"#
        );
        assert_eq!(
            aggs(r#"{"m":{"max":{"field":"n"}}}"#).unwrap().0[0].meta,
            None
        );
    }

    #[test]
    fn global_only_at_the_top() {
        let ok =
            aggs(r#"{"a":{"global":{},"aggs":{"t":{"terms":{"field":"k"}}}},"b":{"global":{}}}"#)
                .unwrap();
        assert!(check_global_placement(&ok).is_ok());
        for (body, parent, child) in [
            (
                r#"{"t":{"terms":{"field":"k"},"aggs":{"all":{"global":{}}}}}"#,
                "t",
                "all",
            ),
            (
                r#"{"a":{"global":{},"aggs":{"g":{"global":{}}}}}"#,
                "a",
                "g",
            ),
            // Depth first, in the order written: the first parent to build a global names it.
            (
                r#"{"t":{"terms":{"field":"k"},"aggs":{"f":{"filter":{"match_all":{}},"aggs":{"x":{"global":{}}}},"y":{"global":{}}}}}"#,
                "f",
                "x",
            ),
        ] {
            let e = check_global_placement(&aggs(body).unwrap()).unwrap_err();
            assert_eq!(e.type_name(), "aggregation_execution_exception");
            assert_eq!(e.status(), 500);
            assert_eq!(
                e.reason,
                format!("Aggregation [{parent}] cannot have a global sub-aggregation [{child}]. Global aggregations can only be defined as top level aggregations")
            );
        }
    }
}
