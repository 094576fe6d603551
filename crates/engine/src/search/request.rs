//! The search request: body (SearchSourceBuilder's keys) and URL parameters, validated with
//! OpenSearch's messages.

use crate::api::Params;
use crate::dsl::json::{Node, J};
use crate::dsl::{self, parsing};
use crate::error::{Error, ErrorKind, Result};
use crate::search::sort::{SortField, SortSpec};
use crate::search::SourceFilter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackTotalHits {
    Off,
    Exact,
    UpTo(u64),
}

#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub query: dsl::Query,
    pub from: usize,
    pub size: usize,
    pub sort: Vec<SortSpec>,
    /// `None`: no `_source` in hits.
    pub source: Option<SourceFilter>,
    pub track_total_hits: TrackTotalHits,
    /// Whether `track_total_hits` was given (a scroll refuses any value but an exact count).
    pub track_total_hits_given: bool,
    /// A body's `track_total_hits` below -1: OpenSearch takes it as it is and fails where the
    /// shards' counts are reduced to a total, after the query phase.
    pub track_total_hits_below: Option<i64>,
    pub track_scores: bool,
    pub rest_total_hits_as_int: bool,
    /// `phase_took`: print each phase's time.
    pub phase_took: bool,
    pub version: bool,
    pub seq_no_primary_term: bool,
    /// `explain`: each hit carries `_explanation` (with `_shard` and `_node`).
    pub explain: bool,
    pub post_filter: Option<dsl::Query>,
    pub min_score: Option<f32>,
    pub terminate_after: Option<u64>,
    /// `search_after`: the sort values of the last hit of the previous page.
    pub search_after: Option<Vec<serde_json::Value>>,
    /// `indices_boost`: index expressions and their score multipliers (the first match wins).
    pub indices_boost: Vec<(String, f32)>,
    /// The queries given a `_name`, checked against every hit for `matched_queries`.
    pub named: Vec<(String, dsl::Query)>,
    pub include_named_queries_score: bool,
    /// `stored_fields: _none_`: hits without `_id` (nor `_source`).
    pub stored_none: bool,
    pub docvalue_fields: Vec<FieldAndFormat>,
    pub fields: Vec<FieldAndFormat>,
    pub timeout: Option<std::time::Duration>,
    /// `search_type=dfs_query_then_fetch`: score with term statistics gathered from every shard.
    pub dfs: bool,
    /// Whether OpenSearch would pre-filter the shards (`can_match`) first: a sort it cannot
    /// build then fails a shard in that phase, not in `query`.
    pub can_match: bool,
    /// `allow_partial_search_results` (default true): whether shard failures or a timeout may
    /// leave a partial answer rather than fail the search.
    pub allow_partial: bool,
    /// A scroll's pages: no result-window limit, no `search_after`.
    pub scroll: bool,
    pub highlight: Option<std::sync::Arc<super::highlight::Highlight>>,
    /// Term suggestions (the body's `suggest`, or the URL's `suggest_field`).
    pub suggest: Option<std::sync::Arc<Vec<super::suggest::TermSuggestion>>>,
    /// Suggestions without a query: OpenSearch then searches nothing (no hits, total 0).
    pub suggest_only: bool,
    /// The body's `aggs` (or `aggregations`).
    pub aggs: Option<std::sync::Arc<crate::aggs::Aggs>>,
    /// `profile`: each shard's timings in the response.
    pub profile: bool,
    /// `human`: the profile's times also as text (`17.5ms`).
    pub human: bool,
    /// `typed_keys`: aggregation names prefixed with their types.
    pub typed_keys: bool,
    /// `request_cache`, when given.
    pub request_cache: Option<bool>,
}

/// A `docvalue_fields` / `fields` entry: a field name (or pattern) and an optional format.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldAndFormat {
    pub field: String,
    pub format: Option<String>,
}

fn field_list(key: &str, v: &Node) -> Result<Vec<FieldAndFormat>> {
    let items: Vec<&Node> = match &v.v {
        J::Arr(items) => items.iter().collect(),
        // Only a list is read there; anything else is a key the search source parser lacks.
        _ => return Err(unknown_key(key, v)),
    };
    let mut out = Vec::new();
    for it in items {
        match &it.v {
            // Any scalar is a field name, as Jackson's `text()` reads it.
            J::Str(_) | J::Num(..) | J::Bool(_) => out.push(FieldAndFormat {
                field: it.text().unwrap_or_default(),
                format: None,
            }),
            J::Obj(entries) => {
                let mut f = FieldAndFormat {
                    field: String::new(),
                    format: None,
                };
                for (k, kpos, x) in entries {
                    match k.as_str() {
                        "field" => f.field = x.text().unwrap_or_default(),
                        "format" => f.format = x.text(),
                        "include_unmapped" => {}
                        _ => return Err(parsing(format!("[{key}] unknown field [{k}]"), *kpos)),
                    }
                }
                out.push(f);
            }
            _ => {
                return Err(parsing(
                    format!("Expected [START_OBJECT] or [VALUE_STRING] in [{key}]"),
                    it.pos,
                ))
            }
        }
    }
    Ok(out)
}

fn indices_boost(v: &Node) -> Result<Vec<(String, f32)>> {
    let mut out = Vec::new();
    // The list form holds one index per object; the older object form any number of them.
    let listed = matches!(v.v, J::Arr(_));
    let objs: Vec<&Node> = match &v.v {
        J::Arr(items) => items.iter().collect(),
        J::Obj(_) => vec![v],
        _ => {
            return Err(parsing(
                format!("Unexpected token {} in [indices_boost].", v.token()),
                v.pos,
            ))
        }
    };
    for o in objs {
        let Some(entries) = o.as_obj() else {
            return Err(parsing(
                format!(
                    "Expected [START_OBJECT] in [indices_boost] but found [{}]",
                    o.token()
                ),
                o.pos,
            ));
        };
        if listed && entries.is_empty() {
            return Err(parsing(
                "Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]",
                o.end,
            ));
        }
        if let (true, Some((_, kpos, _))) = (listed, entries.get(1)) {
            return Err(parsing(
                "Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]",
                *kpos,
            ));
        }
        for (k, _, x) in entries {
            // Only a number token; even a numeric string is refused.
            let J::Num(n, _) = &x.v else {
                return Err(parsing(
                    format!(
                        "Expected [VALUE_NUMBER] in [indices_boost] but found [{}]",
                        x.token()
                    ),
                    x.pos,
                ));
            };
            out.push((k.clone(), n.as_f64().unwrap_or(0.0) as f32));
        }
    }
    Ok(out)
}

const DEFAULT_TRACK: u64 = 10_000;

/// Keys of a search body Quarry does not run yet (accepted by OpenSearch).
const NOT_YET: &[&str] = &["collapse", "rescore", "slice", "pit", "script_fields"];

/// `track_total_hits` as a boolean's text, else `None`.
fn track_flag(v: &str) -> Option<TrackTotalHits> {
    match v {
        "true" => Some(TrackTotalHits::Exact),
        "false" => Some(TrackTotalHits::Off),
        _ => None,
    }
}

/// `track_total_hits` as a count: the largest int counts exactly, -1 not at all.
fn track_count(i: i64) -> Result<TrackTotalHits> {
    match i {
        i if i == i64::from(i32::MAX) => Ok(TrackTotalHits::Exact),
        i if i >= 0 => Ok(TrackTotalHits::UpTo(i as u64)),
        -1 => Ok(TrackTotalHits::Off),
        i => Err(Error::illegal_argument(format!(
            "[track_total_hits] parameter must be positive or equals to -1, got {i}"
        ))),
    }
}

/// The object form of `_source` as OpenSearch's `FetchSourceContext` parser takes it: `includes`
/// and `excludes` (or `include`, `exclude`) as a string or a list of strings, nothing else.
fn check_source(v: &Node) -> Result<()> {
    match &v.v {
        J::Num(..) => {
            return Err(parsing(
                "Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [VALUE_NUMBER]",
                v.pos,
            ))
        }
        J::Null => return Err(unknown_key("_source", v)),
        _ => {}
    }
    let Some(entries) = v.as_obj() else {
        return Ok(());
    };
    for (k, _, x) in entries {
        let listed = matches!(k.as_str(), "includes" | "include" | "excludes" | "exclude");
        match &x.v {
            J::Str(_) if listed => {}
            J::Arr(items) if listed => {
                if let Some(it) = items.iter().find(|it| !matches!(it.v, J::Str(_))) {
                    return Err(unknown_key(k, it));
                }
            }
            _ => return Err(unknown_key(k, x)),
        }
    }
    Ok(())
}

/// `_source` as a filter reads it: a list's numbers and booleans are patterns in their written
/// text, as `FetchSourceContext` takes each item's text.
fn source_value(v: &Node) -> serde_json::Value {
    match &v.v {
        J::Arr(items) => serde_json::Value::Array(
            items
                .iter()
                .map(|it| match &it.v {
                    J::Num(_, text) => serde_json::Value::from(text.to_string()),
                    J::Bool(b) => serde_json::Value::from(b.to_string()),
                    _ => it.to_value(),
                })
                .collect(),
        ),
        _ => v.to_value(),
    }
}

/// A body key OpenSearch's search source parser has no use for with this kind of value.
fn unknown_key(key: &str, v: &Node) -> Error {
    parsing(
        format!("Unknown key for a {} in [{key}].", v.token()),
        v.pos,
    )
}

/// The URL parameters that tune how OpenSearch fans a search out to shards: Quarry has no
/// network hop to batch or throttle, but it refuses the values OpenSearch refuses.
fn check_shard_request_params(p: &Params) -> Result<()> {
    let at_least = |key: &str, name: &str, min: i64| -> Result<()> {
        match p.int(key)? {
            Some(v) if v < min => Err(Error::illegal_argument(format!("{name} must be >= {min}"))),
            _ => Ok(()),
        }
    };
    at_least("batched_reduce_size", "batchedReduceSize", 2)?;
    at_least("pre_filter_shard_size", "preFilterShardSize", 1)?;
    at_least(
        "max_concurrent_shard_requests",
        "maxConcurrentShardRequests",
        1,
    )?;
    if let Some(v) = p.str("cancel_after_time_interval") {
        crate::util::units::parse_time_value(v, "cancel_after_time_interval")?;
    }
    p.bool("ccs_minimize_roundtrips", true)?;
    p.bool("request_cache", false)?;
    Ok(())
}

/// `q=` with `df`, `analyzer`, `analyze_wildcard`, `lenient` and `default_operator`: a
/// `query_string` query (RestActions.urlParamsToQueryBuilder).
pub fn url_query(p: &Params, q: &str) -> Result<dsl::Query> {
    let mut qs = dsl::query_string::QueryStringQuery::new(q.to_string());
    qs.default_field = p.str("df").map(String::from);
    qs.analyzer = p.str("analyzer").map(String::from);
    qs.analyze_wildcard = p.bool("analyze_wildcard", false)?;
    if p.str("lenient").is_some() {
        qs.lenient = Some(p.bool("lenient", false)?);
    }
    if let Some(op) = p.str("default_operator") {
        qs.default_operator = dsl::Operator::parse(op)?;
    }
    Ok(dsl::Query::QueryString(Box::new(qs)))
}

fn terminate_after(v: i64) -> Result<Option<u64>> {
    if v < 0 {
        return Err(Error::illegal_argument("terminateAfter must be > 0"));
    }
    Ok((v > 0).then_some(v as u64))
}

fn nonneg(key: &str, v: i64) -> Result<usize> {
    if v < 0 {
        return Err(Error::illegal_argument(format!(
            "[{key}] parameter cannot be negative, found [{v}]"
        )));
    }
    Ok(v as usize)
}

impl SearchRequest {
    pub fn parse(p: &Params, body: Option<&Node>, count_only: bool) -> Result<SearchRequest> {
        let mut r = SearchRequest {
            query: dsl::Query::MatchAll { boost: 1.0 },
            from: 0,
            size: 10,
            sort: Vec::new(),
            source: Some(super::all_source()),
            track_total_hits: TrackTotalHits::UpTo(DEFAULT_TRACK),
            track_total_hits_given: false,
            track_total_hits_below: None,
            track_scores: false,
            rest_total_hits_as_int: false,
            phase_took: false,
            version: false,
            seq_no_primary_term: false,
            explain: false,
            post_filter: None,
            min_score: None,
            terminate_after: None,
            search_after: None,
            indices_boost: Vec::new(),
            named: Vec::new(),
            include_named_queries_score: false,
            stored_none: false,
            docvalue_fields: Vec::new(),
            fields: Vec::new(),
            timeout: None,
            dfs: false,
            can_match: false,
            allow_partial: true,
            scroll: false,
            highlight: None,
            suggest: None,
            suggest_only: false,
            aggs: None,
            profile: false,
            human: p.bool("human", false)?,
            typed_keys: p.bool("typed_keys", false)?,
            request_cache: match p.str("request_cache") {
                Some(_) => Some(p.bool("request_cache", false)?),
                None => None,
            },
        };
        let mut source_given = false;
        let mut stored: Option<Vec<String>> = None;
        if let Some(body) = body {
            let Some(entries) = body.as_obj() else {
                return Err(parsing(
                    "Expected [START_OBJECT] but found [".to_string() + body.token() + "]",
                    body.pos,
                ));
            };
            for (k, kpos, v) in entries {
                if count_only && k != "query" {
                    return Err(parsing(format!("request does not support [{k}]"), *kpos));
                }
                match k.as_str() {
                    "query" => {
                        if !matches!(v.v, J::Obj(_)) {
                            return Err(parsing(
                                format!("Unknown key for a {} in [query].", v.token()),
                                v.pos,
                            ));
                        }
                        let (q, named) = if count_only {
                            dsl::with_named(|| dsl::parse_top_level_query(v))?
                        } else {
                            dsl::with_named(|| dsl::parse_query(v))?
                        };
                        r.query = q;
                        r.named = named;
                    }
                    "from" => r.from = nonneg("from", dsl::int("search", k, v)?)?,
                    "size" => r.size = nonneg("size", dsl::int("search", k, v)?)?,
                    "sort" => r.sort = super::sort::parse_body(v)?,
                    "_source" => {
                        source_given = true;
                        check_source(v)?;
                        r.source = SourceFilter::from_value(&source_value(v))
                    }
                    "search_after" => match &v.v {
                        J::Arr(items) if items.is_empty() => {
                            return Err(Error::illegal_argument(
                                "Values must contains at least one value.",
                            ))
                        }
                        J::Arr(items) => {
                            if let Some(it) = items
                                .iter()
                                .find(|it| matches!(it.v, J::Obj(_) | J::Arr(_)))
                            {
                                return Err(parsing(
                                    format!(
                                        "Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [{}] inside search_after.",
                                        it.token()
                                    ),
                                    it.pos,
                                ));
                            }
                            r.search_after = Some(items.iter().map(Node::to_value).collect())
                        }
                        _ => return Err(unknown_key(k, v)),
                    },
                    "indices_boost" => r.indices_boost = indices_boost(v)?,
                    "stored_fields" => {
                        stored = Some(match v.to_value() {
                            serde_json::Value::Array(a) => a
                                .iter()
                                .map(|x| x.as_str().unwrap_or_default().to_string())
                                .collect(),
                            other => vec![other.as_str().unwrap_or_default().to_string()],
                        })
                    }
                    "docvalue_fields" => r.docvalue_fields = field_list(k, v)?,
                    "fields" => r.fields = field_list(k, v)?,
                    "timeout" => {
                        r.timeout = crate::util::units::parse_time_value(
                            &v.text().unwrap_or_default(),
                            "timeout",
                        )?
                    }
                    "track_total_hits" => {
                        r.track_total_hits_given = true;
                        r.track_total_hits = match &v.v {
                            J::Bool(true) => TrackTotalHits::Exact,
                            J::Bool(false) => TrackTotalHits::Off,
                            J::Arr(_) | J::Obj(_) | J::Null => return Err(unknown_key(k, v)),
                            // Else `intValue()`: a fraction is truncated, past int is refused.
                            _ => match v.text().as_deref().and_then(track_flag) {
                                Some(flag) => flag,
                                None => match dsl::int("search", k, v)? {
                                    i if i < -1 => {
                                        r.track_total_hits_below = Some(i);
                                        TrackTotalHits::Off
                                    }
                                    i => track_count(i)?,
                                },
                            },
                        }
                    }
                    "track_scores" => r.track_scores = dsl::boolean("search", k, v)?,
                    "explain" => r.explain = dsl::boolean("search", k, v)?,
                    // Read, but the hits print scores only for the URL parameter (OpenSearch
                    // renders matched_queries from the REST parameter alone).
                    "include_named_queries_score" => {
                        dsl::boolean("search", k, v)?;
                    }
                    "post_filter" => {
                        if !matches!(v.v, J::Obj(_)) {
                            return Err(parsing(
                                format!("Unknown key for a {} in [post_filter].", v.token()),
                                v.pos,
                            ));
                        }
                        r.post_filter = Some(dsl::parse_query(v)?);
                    }
                    "min_score" => r.min_score = Some(dsl::float("search", k, v)?),
                    "terminate_after" => {
                        // The body is not validated: a negative limit collects nothing.
                        let n = dsl::int("search", k, v)?;
                        r.terminate_after = (n != 0).then_some(n.max(0) as u64);
                    }
                    "version" => r.version = dsl::boolean("search", k, v)?,
                    "profile" => r.profile = dsl::boolean("search", k, v)?,
                    "seq_no_primary_term" => r.seq_no_primary_term = dsl::boolean("search", k, v)?,
                    "highlight" => {
                        r.highlight = Some(std::sync::Arc::new(super::highlight::parse(v)?))
                    }
                    "suggest" => r.suggest = Some(std::sync::Arc::new(super::suggest::parse(v)?)),
                    "stats" => {
                        let J::Arr(groups) = &v.v else {
                            return Err(unknown_key(k, v));
                        };
                        if let Some(g) = groups.iter().find(|g| !matches!(g.v, J::Str(_))) {
                            return Err(parsing(
                                format!(
                                    "Expected [VALUE_STRING] in [stats] but found [{}]",
                                    g.token()
                                ),
                                g.pos,
                            ));
                        }
                    }
                    "_name" => {}
                    // Search extensions come from plugins; Quarry has none, so any named one is
                    // unknown as it is to an OpenSearch without that plugin.
                    "ext" if v.as_obj().is_some() => {
                        if v.as_obj().is_some_and(|e| !e.is_empty()) {
                            return Err(Error::new(
                                ErrorKind::XContentParse,
                                "unknown named object category [org.opensearch.search.SearchExtBuilder]",
                            ));
                        }
                    }
                    "aggs" | "aggregations" => {
                        r.aggs = Some(std::sync::Arc::new(crate::aggs::parse(v)?));
                    }
                    other if NOT_YET.contains(&other) => {
                        return Err(Error::illegal_argument(format!(
                            "[{other}] is not supported yet"
                        )))
                    }
                    other => return Err(unknown_key(other, v)),
                }
            }
        }
        check_shard_request_params(p)?;
        if let Some(q) = p.str("q") {
            // The URL query replaces the body's (`_count` reads it only without a body).
            if !count_only || body.is_none() {
                r.query = url_query(p, q)?;
            }
        }
        if let Some(v) = p.int("terminate_after")? {
            r.terminate_after = terminate_after(v)?;
        }
        if let Some(v) = p.int("from")? {
            r.from = nonneg("from", v)?;
        }
        if let Some(v) = p.int("size")? {
            r.size = nonneg("size", v)?;
        }
        if let Some(s) = p.str("sort") {
            r.sort = super::sort::parse_param(s)?;
        }
        if let Some(v) = p.str("track_total_hits") {
            r.track_total_hits_given = true;
            r.track_total_hits_below = None;
            r.track_total_hits = match track_flag(v) {
                Some(t) => t,
                None => track_count(p.int("track_total_hits")?.unwrap_or_default())?,
            };
        }
        r.track_scores = p.bool("track_scores", r.track_scores)?;
        r.version = p.bool("version", r.version)?;
        r.seq_no_primary_term = p.bool("seq_no_primary_term", r.seq_no_primary_term)?;
        r.explain = p.bool("explain", r.explain)?;
        r.rest_total_hits_as_int = p.bool("rest_total_hits_as_int", false)?;
        r.phase_took = p.bool("phase_took", false)?;
        if r.rest_total_hits_as_int {
            // RestSearchAction.checkRestTotalHits: an integer total needs an exact count.
            match r.track_total_hits {
                TrackTotalHits::UpTo(n) if r.track_total_hits_given && n != i32::MAX as u64 => {
                    return Err(Error::illegal_argument(format!(
                        "[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got {n}"
                    )))
                }
                TrackTotalHits::Off => {}
                _ => r.track_total_hits = TrackTotalHits::Exact,
            }
        }
        if let Some(t) = p.str("search_type") {
            if t != "query_then_fetch" && t != "dfs_query_then_fetch" {
                return Err(Error::illegal_argument(format!("No search type for [{t}]")));
            }
            r.dfs = t == "dfs_query_then_fetch";
        }
        r.allow_partial = p.bool("allow_partial_search_results", true)?;
        if let Some(v) = p.str("timeout") {
            r.timeout = crate::util::units::parse_time_value(v, "timeout")?;
        }
        if let Some(list) = p.list("stored_fields") {
            stored = Some(list);
        }
        if let Some(list) = p.list("docvalue_fields") {
            r.docvalue_fields = list
                .into_iter()
                .map(|field| FieldAndFormat {
                    field,
                    format: None,
                })
                .collect();
        }
        r.include_named_queries_score = p.bool("include_named_queries_score", false)?;
        if let Some(s) = super::suggest::from_params(p)? {
            r.suggest = Some(std::sync::Arc::new(vec![s]));
        }
        r.suggest_only = r.suggest.is_some()
            && r.aggs.is_none()
            && p.str("q").is_none()
            && body.and_then(|b| b.get("query")).is_none();
        if let Some(list) = stored {
            if list.iter().any(|f| f == "_none_") {
                r.stored_none = true;
                r.source = None;
            } else if !source_given && p.str("_source").is_none() {
                r.source = None;
            }
        }
        if let Some(v) = p.str("_source") {
            r.source = match v {
                "false" => None,
                "true" | "" => Some(super::all_source()),
                list => Some(SourceFilter {
                    includes: list.split(',').map(String::from).collect(),
                    excludes: Vec::new(),
                }),
            };
        }
        if let Some(inc) = p.list("_source_includes") {
            let f = r.source.get_or_insert_with(super::all_source);
            f.includes = inc;
        }
        if let Some(exc) = p.list("_source_excludes") {
            let f = r.source.get_or_insert_with(super::all_source);
            f.excludes = exc;
        }
        Ok(r)
    }

    pub fn sorts_by_score_only(&self) -> bool {
        self.sort.is_empty()
            || (self.sort.len() == 1
                && matches!(self.sort[0].field, SortField::Score)
                && !self.sort[0].ascending)
    }
}
