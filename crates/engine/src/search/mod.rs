//! Request execution: per shard on a tantivy `Searcher` (top-k by score with
//! `TopDocs::order_by_score`, so pruning stays reachable; counts through `Query::count` only
//! when `track_total_hits` asks), then a merge of every shard's and index's hits, and the fetch
//! of `_source` for the final page.

pub mod alias_filter;
mod column_bounds;
pub(crate) mod column_order;
pub mod failures;
pub mod fetch_fields;
pub mod highlight;
mod hit;
mod id_ords;
pub(crate) mod open_columns;
pub mod request;
mod request_cache;
mod shard_order;
pub mod sort;
mod stored_hit;
pub mod suggest;
pub(crate) mod term_strings;
mod timeout;
pub(crate) mod top_k;

pub(crate) use top_k::Cursor;

pub use crate::api::source_filter::SourceFilter;
pub use failures::ShardFailure;
pub use hit::{Hit, HitSource};
pub use request::{SearchRequest, TrackTotalHits};

use crate::error::{Error, ErrorKind, Result};
use crate::index::index_service::IndexService;
use crate::index::schema;
use crate::query::{self, Context};
use serde_json::Value;
use sort::{SortField, SortSpec};
use std::cmp::Ordering;
use std::sync::Arc;
use tantivy::collector::{Collector, TopDocs};
use tantivy::{DocAddress, Searcher};

pub fn all_source() -> SourceFilter {
    SourceFilter {
        includes: Vec::new(),
        excludes: Vec::new(),
    }
}

/// One hit before the fetch: where it is and what it sorts by.
struct Candidate {
    score: f32,
    /// Indexing order inside the shard, the tie-break.
    seq: i64,
    sort: top_k::HitKeys,
    /// Index of the (index, shard) pair in the search's shard list.
    shard: usize,
    doc: DocAddress,
}

pub struct ShardTarget {
    pub service: Arc<IndexService>,
    pub shard: usize,
    /// The id of the node holding the shard (this one).
    pub node_id: Arc<str>,
    pub searcher: Searcher,
    /// The `indices_boost` of the shard's index.
    pub boost: f32,
    /// The filter of the aliases the index was read through (`alias_filter`), if any.
    pub alias_filter: Option<Arc<crate::dsl::Query>>,
}

impl ShardTarget {
    /// The query this shard runs for `query`: held to the alias filter, if any.
    pub fn query<'a>(
        &self,
        query: &'a crate::dsl::Query,
    ) -> std::borrow::Cow<'a, crate::dsl::Query> {
        match &self.alias_filter {
            Some(f) => std::borrow::Cow::Owned(alias_filter::filtered(query, f)),
            None => std::borrow::Cow::Borrowed(query),
        }
    }
}

pub struct SearchResult {
    /// `Some` when `terminate_after` was given: whether a shard stopped early.
    pub terminated_early: Option<bool>,
    pub total: Option<(u64, &'static str)>,
    pub max_score: Option<f32>,
    pub hits: Vec<Hit>,
    pub shards: usize,
    /// The shards that failed (the others' hits are the answer).
    pub failures: Vec<ShardFailure>,
    /// Whether `timeout` stopped a shard's collection.
    pub timed_out: bool,
    /// Milliseconds spent in each of OpenSearch's search phases (`phase_took`).
    pub phase_took: PhaseTook,
    /// Each answering shard's part of the request's aggregations.
    pub aggs: Vec<crate::aggs::ShardAggs>,
    /// Each answering shard's `profile`, when asked for.
    pub profiles: Vec<crate::profile::ShardProfile>,
}

/// The phases OpenSearch times for `phase_took`, in milliseconds. Quarry has no `can_match`
/// round trip or field collapsing `expand`; those stay 0 as they do on OpenSearch when skipped.
#[derive(Debug, Clone, Copy, Default)]
pub struct PhaseTook {
    pub dfs_pre_query: u64,
    pub query: u64,
    pub fetch: u64,
    pub dfs_query: u64,
}

impl PhaseTook {
    pub fn to_json(self) -> Value {
        serde_json::json!({
            "dfs_pre_query": self.dfs_pre_query,
            "query": self.query,
            "fetch": self.fetch,
            "dfs_query": self.dfs_query,
            "expand": 0,
            "can_match": 0,
        })
    }
}

/// OpenSearch's answer when the only shard a request reached fails in the query phase.
pub fn all_shards_failed(e: Error, t: &ShardTarget) -> Error {
    failures::phase_failure("query", "all shards failed", &[ShardFailure::new(t, e)])
}

/// The request's query on one shard (held to its alias filter): `post_filter` as a
/// non-scoring filter beside it (no aggregations see the difference yet), `min_score` around
/// both, held to the score after the index's `boost`.
fn request_query(
    req: &SearchRequest,
    t: &ShardTarget,
    cx: &Context,
    post_filter: bool,
) -> Result<query::Q> {
    let boost = t.boost;
    let mut q = query::build(&t.query(&req.query), cx)?;
    if let Some(pf) = req.post_filter.as_ref().filter(|_| post_filter) {
        let filter = query::build(pf, cx)?;
        let mut b = tantivy::query::BooleanQuery::new(vec![
            (tantivy::query::Occur::Must, q),
            (
                tantivy::query::Occur::Must,
                Box::new(tantivy::query::ConstScoreQuery::new(filter, 0.0)),
            ),
        ]);
        b.set_minimum_number_should_match(0);
        q = Box::new(b);
    }
    if let Some(min) = req.min_score {
        q = Box::new(query::wrappers::MinScoreQuery {
            inner: q,
            min,
            scale: boost,
        });
    }
    Ok(q)
}

/// Whether Lucene's weight for `ast` counts a segment's matches without visiting them
/// (`Weight.count`): a match_all; where nothing is deleted, a term query (a `term` on a keyword
/// or text field, a `match` that analyses to one term) or an `exists`; any of them under
/// `constant_score`, or alone in a boolean (which rewrites to it).
fn counts_at_once(ast: &crate::dsl::Query, cx: &Context) -> bool {
    use crate::dsl::Query as Ast;
    use crate::index::mapping::FieldType;
    let undeleted = || {
        cx.searcher
            .segment_readers()
            .iter()
            .all(|r| r.num_deleted_docs() == 0)
    };
    let terms_field = |f: &str| {
        cx.mapping
            .field(f)
            .is_some_and(|f| matches!(f.ty, FieldType::Keyword | FieldType::Text))
    };
    match ast {
        Ast::MatchAll { .. } => true,
        Ast::Term {
            field,
            case_insensitive: false,
            ..
        } => terms_field(field) && undeleted(),
        Ast::Match(m) => {
            terms_field(&m.field)
                && matches!(
                    query::lucene_string::match_shape(cx, m),
                    Ok(query::lucene_string::MatchShape::Term)
                )
                && undeleted()
        }
        Ast::Exists { field, .. } => cx.mapping.field(field).is_some() && undeleted(),
        Ast::ConstantScore { filter, .. } => counts_at_once(filter, cx),
        // Lucene rewrites a required `match_all` beside one filter (an alias's, say) to a
        // constant score of the filter.
        Ast::Bool(b)
            if matches!(b.must.as_slice(), [Ast::MatchAll { boost }] if *boost != 0.0)
                && b.should.is_empty()
                && b.must_not.is_empty() =>
        {
            match b.filter.as_slice() {
                [only] => counts_at_once(only, cx),
                _ => false,
            }
        }
        Ast::Bool(b) => match (b.must.as_slice(), b.filter.as_slice()) {
            ([only], []) | ([], [only]) if b.should.is_empty() && b.must_not.is_empty() => {
                b.minimum_should_match.is_none() && counts_at_once(only, cx)
            }
            _ => false,
        },
        _ => false,
    }
}

/// How many docs match, and a query for those among the first `limit` matches by `_seq_no`
/// (`None` when no more than `limit` match: nothing is cut). The `timeout` holds here as in the
/// collection proper (OpenSearch's early-terminating collector runs under the same time check).
fn terminate_after_cut(
    searcher: &Searcher,
    q: &query::Q,
    limit: u64,
    deadline: Option<&timeout::Deadline>,
) -> Result<(u64, Option<query::Q>)> {
    let mut weight = q.weight(tantivy::query::EnableScoring::disabled_from_searcher(
        searcher,
    ))?;
    if let Some(d) = deadline {
        weight = Box::new(timeout::TimeLimitedWeight {
            inner: weight,
            deadline: d.clone(),
        });
    }
    let mut n = 0u64;
    for r in searcher.segment_readers() {
        n += weight.count(r)? as u64;
    }
    let none = || -> Option<query::Q> { Some(Box::new(tantivy::query::EmptyQuery)) };
    if limit == 0 {
        return Ok((n, none()));
    }
    // The collector holds `limit` entries, so it is only built below the match count: a limit
    // past it (any int a body may give) cuts nothing and must not size an allocation.
    if n <= limit {
        return Ok((n, None));
    }
    let collector =
        TopDocs::with_limit(limit as usize).tweak_score(|r: &tantivy::SegmentReader| {
            let seq = open_columns::seq_no(r);
            move |doc: tantivy::DocId, _score: f32| -seq.as_ref().map_or(0, |c| c.get_val(doc))
        });
    let mut per_segment = Vec::new();
    for (ord, r) in searcher.segment_readers().iter().enumerate() {
        per_segment.push(collector.collect_segment(weight.as_ref(), ord as u32, r)?);
    }
    let first = collector.merge_fruits(per_segment)?;
    let Some(cut) = first.iter().map(|(s, _)| -s).max() else {
        return Ok((n, none()));
    };
    let field = searcher.schema().get_field(schema::SEQ_NO)?;
    let range = tantivy::query::RangeQuery::new(
        std::ops::Bound::Unbounded,
        std::ops::Bound::Included(tantivy::Term::from_field_i64(field, cut)),
    );
    Ok((n, Some(Box::new(range))))
}

/// `ranks`: each shard's place in the tie-break (`shard_order`).
fn cmp_candidates(a: &Candidate, b: &Candidate, req: &SearchRequest, ranks: &[usize]) -> Ordering {
    if req.sorts_by_score_only() {
        return b
            .score
            .total_cmp(&a.score)
            .then(a.shard.cmp(&b.shard))
            .then(a.seq.cmp(&b.seq));
    }
    for (i, spec) in req.sort.iter().enumerate() {
        let o = match spec.field {
            SortField::Score => {
                let o = a.score.total_cmp(&b.score);
                if spec.ascending {
                    o
                } else {
                    o.reverse()
                }
            }
            _ => a.sort.cmp_level(&b.sort, i, spec),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    ranks[a.shard].cmp(&ranks[b.shard]).then(a.seq.cmp(&b.seq))
}

/// `search_after` checked against the sort, as each shard refuses it.
fn check_search_after(req: &SearchRequest) -> Result<()> {
    let Some(after) = &req.search_after else {
        return Ok(());
    };
    if req.scroll {
        return Err(Error::new(
            ErrorKind::Search,
            "`search_after` cannot be used in a scroll context.",
        )
        .with_status(500));
    }
    if req.from > 0 {
        return Err(Error::new(
            ErrorKind::Search,
            "`from` parameter must be set to 0 when `search_after` is used.",
        )
        .with_status(500));
    }
    // A sort on the score alone, descending, is no sort to OpenSearch (`SortBuilder.buildSort`).
    if req.sorts_by_score_only() {
        return Err(Error::illegal_argument(
            "Sort must contain at least one field.",
        ));
    }
    if after.len() != req.sort.len() {
        return Err(Error::illegal_argument(format!(
            "search_after has {} value(s) but sort has {}.",
            after.len(),
            req.sort.len()
        )));
    }
    Ok(())
}

/// A shard's part of the aggregations, and how long its `global` ones took. Those run as a
/// search of their own over every live doc, as OpenSearch runs them after the query phase: no
/// query, post filter, minimum score or count limit. The others run over the query's matches
/// (`query_scope_aggs`).
fn shard_aggs(
    req: &SearchRequest,
    aggs: &crate::aggs::Aggs,
    t: &ShardTarget,
    deadline: Option<&timeout::Deadline>,
) -> Result<(crate::aggs::ShardAggs, u64)> {
    crate::aggs::check_global_placement(aggs)?;
    let meta = t.service.meta();
    let cx = Context::of(&t.searcher, &meta);
    let in_global: Vec<bool> = aggs
        .0
        .iter()
        .map(|a| a.kind == crate::aggs::AggKind::Global)
        .collect();
    if !in_global.contains(&true) {
        return Ok((query_scope_aggs(req, aggs, t, deadline, &cx)?, 0));
    }
    let pick = |global: bool| {
        let chosen = aggs.0.iter().zip(&in_global).filter(|(_, g)| **g == global);
        crate::aggs::Aggs(chosen.map(|(a, _)| a.clone()).collect())
    };
    let scoped = pick(false);
    let in_query = if scoped.0.is_empty() {
        crate::aggs::ShardAggs::default()
    } else {
        query_scope_aggs(req, &scoped, t, deadline, &cx)?
    };
    let started = std::time::Instant::now();
    // Every live doc the index is read through: an alias filter holds here too, as
    // OpenSearch's global aggregator runs its match-all through `buildFilteredQuery`.
    let everything: query::Q = match &t.alias_filter {
        Some(_) => query::build(&t.query(&crate::dsl::Query::MatchAll { boost: 1.0 }), &cx)?,
        None => Box::new(tantivy::query::AllQuery),
    };
    let in_all = aggs_over(&pick(true), t, deadline, &cx, everything, false)?;
    let nanos = started.elapsed().as_nanos() as u64;
    Ok((
        crate::aggs::ShardAggs::interleave(&in_global, in_query, in_all),
        nanos,
    ))
}

/// The aggregations of the query's scope: over its matches, before any post filter (a minimum
/// score still applies, as OpenSearch's collector holds every other one), and without a post
/// filter only the first `terminate_after` of them, as its early-terminating collector stops
/// the aggregations' collection too.
fn query_scope_aggs(
    req: &SearchRequest,
    aggs: &crate::aggs::Aggs,
    t: &ShardTarget,
    deadline: Option<&timeout::Deadline>,
    cx: &Context,
) -> Result<crate::aggs::ShardAggs> {
    let mut q = request_query(req, t, cx, false)?;
    if let (Some(limit), None) = (req.terminate_after, &req.post_filter) {
        if let (_, Some(cut)) = terminate_after_cut(&t.searcher, &q, limit, deadline)? {
            q = Box::new(tantivy::query::BooleanQuery::new(vec![
                (tantivy::query::Occur::Must, q),
                (tantivy::query::Occur::Must, cut),
            ]));
        }
    }
    aggs_over(aggs, t, deadline, cx, q, req.min_score.is_some())
}

/// The aggregations over the docs `q` matches on the shard, and each bucket's nested
/// aggregations over that bucket's own docs (`scores`: `q` holds its matches to a score).
fn aggs_over(
    aggs: &crate::aggs::Aggs,
    t: &ShardTarget,
    deadline: Option<&timeout::Deadline>,
    cx: &Context,
    q: query::Q,
    scores: bool,
) -> Result<crate::aggs::ShardAggs> {
    let scoring = if scores {
        tantivy::query::EnableScoring::enabled_from_searcher(&t.searcher)
    } else {
        tantivy::query::EnableScoring::disabled_from_searcher(&t.searcher)
    };
    let mut weight = q.weight(scoring)?;
    if let Some(d) = deadline {
        weight = Box::new(timeout::TimeLimitedWeight {
            inner: weight,
            deadline: d.clone(),
        });
    }
    // The queries of `filter` and `filters` aggregations, built on this shard as the search's
    // own is; the aggregation builds them itself, outside the query phase's "failed to create
    // query" wrapper.
    let build_filter = |query: &crate::dsl::Query| -> Result<crate::aggs::FilterWeight> {
        let q = query::build(query, cx).map_err(|e| match e.caused_by {
            Some(cause) if e.reason.starts_with("failed to create query: ") => *cause,
            _ => e,
        })?;
        let matches_none = query::is_none(&q);
        let weight = q.weight(tantivy::query::EnableScoring::disabled_from_searcher(
            &t.searcher,
        ))?;
        Ok(crate::aggs::FilterWeight {
            weight,
            matches_none,
        })
    };
    let filters = aggs
        .0
        .iter()
        .map(|a| match &a.kind {
            crate::aggs::AggKind::Filter { query } => Ok(vec![build_filter(query)?]),
            crate::aggs::AggKind::Filters { filters, .. } => filters
                .iter()
                .map(|(_, q)| build_filter(q))
                .collect::<Result<Vec<_>>>(),
            _ => Ok(Vec::new()),
        })
        .collect::<Result<Vec<_>>>()?;
    let mut out = crate::aggs::collect(aggs, &t.searcher, weight.as_ref(), cx.mapping, &filters)?;
    // Nested bucket aggregations (and `cardinality`) run over each bucket's own docs.
    for (i, buckets) in crate::aggs::bucket_filter::nested_buckets(aggs, &out) {
        let nested = crate::aggs::Aggs(aggs.0[i].nested.clone());
        let mut found = rustc_hash::FxHashMap::default();
        for (id, filter) in buckets {
            let docs: query::Q = match bucket_query(filter, cx)? {
                // The bucket is the whole scope (`global`).
                None => q.box_clone(),
                Some(f) => Box::new(tantivy::query::BooleanQuery::new(vec![
                    (tantivy::query::Occur::Must, q.box_clone()),
                    (tantivy::query::Occur::Must, f),
                ])),
            };
            found.insert(id, aggs_over(&nested, t, deadline, cx, docs, scores)?);
        }
        crate::aggs::bucket_filter::set_nested(&mut out, i, found);
    }
    Ok(out)
}

/// The query of a bucket's own docs, `None` for all of its scope's.
fn bucket_query(
    filter: crate::aggs::bucket_filter::BucketFilter,
    cx: &Context,
) -> Result<Option<query::Q>> {
    use crate::aggs::bucket_filter::BucketFilter;
    use tantivy::query::Occur;
    Ok(Some(match filter {
        BucketFilter::All => return Ok(None),
        BucketFilter::Json(text) => {
            let node = crate::dsl::json::parse(text.as_bytes())
                .ok_or_else(|| Error::internal("a bucket filter is not JSON"))?;
            query::build(&crate::dsl::parse_query(&node)?, cx)?
        }
        BucketFilter::Query(ast) => query::build(ast, cx)?,
        BucketFilter::NoneOf(asts) => {
            let mut clauses: Vec<(Occur, query::Q)> =
                vec![(Occur::Must, Box::new(tantivy::query::AllQuery))];
            for ast in asts {
                clauses.push((Occur::MustNot, query::build(ast, cx)?));
            }
            Box::new(tantivy::query::BooleanQuery::new(clauses))
        }
    }))
}

/// What a shard refuses before it searches (OpenSearch's `createContext` checks) and its
/// query, in OpenSearch's order: the query is built first (parseSource), then `search_after` and
/// the result window (preProcess) are checked.
fn shard_query(req: &SearchRequest, t: &ShardTarget) -> Result<query::Q> {
    let meta = t.service.meta();
    let cx = Context::of(&t.searcher, &meta);
    crate::query::function_score::set_shard(t.shard);
    let q = request_query(req, t, &cx, true)?;
    check_search_after(req)?;
    let max_window = meta.settings.max_result_window as usize;
    let window = req.from + req.size;
    if window > max_window && !req.scroll {
        return Err(Error::illegal_argument(format!(
            "Result window is too large, from + size must be less than or equal to: [{max_window}] but was [{window}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting."
        )));
    }
    Ok(q)
}

/// OpenSearch's DFS phase: every shard's query weighed once to learn the term and field
/// statistics its leaves score with, summed over shards and indices. Shards failing here are
/// marked and left out of the query phase.
fn dfs_phase(
    req: &SearchRequest,
    targets: &[ShardTarget],
    failures: &mut Vec<ShardFailure>,
    failed: &mut [bool],
) -> query::lucene_term::DfsStats {
    let mut all = query::lucene_term::DfsStats::default();
    for (si, t) in targets.iter().enumerate() {
        let (r, stats) = query::lucene_term::record_dfs(|| -> Result<()> {
            let q = shard_query(req, t)?;
            // The shard's search context builds the sort too.
            top_k::check_sort(&req.sort, &t.service.meta().mapping)?;
            q.weight(tantivy::query::EnableScoring::enabled_from_searcher(
                &t.searcher,
            ))?;
            Ok(())
        });
        match r {
            Ok(()) => all.add(stats),
            Err(e) => {
                failed[si] = true;
                failures.push(ShardFailure::new(t, e));
            }
        }
    }
    all
}

/// OpenSearch's pre-filter round: each shard builds the primary sort's bounds, so a sort the
/// shard cannot build (an unmapped or text field) fails it here.
fn can_match_phase(
    req: &SearchRequest,
    targets: &[ShardTarget],
    failures: &mut Vec<ShardFailure>,
    failed: &mut [bool],
) {
    for (si, t) in targets.iter().enumerate() {
        let meta = t.service.meta();
        if let Err(e) = top_k::check_sort(&req.sort, &meta.mapping) {
            let e = if e.kind == ErrorKind::QueryShard {
                e.with("index", meta.name.clone())
                    .with("index_uuid", meta.settings.uuid())
            } else {
                e
            };
            failed[si] = true;
            failures.push(ShardFailure::new(t, e));
        }
    }
}

/// The end of a phase: every shard failed, or some did and partial results are refused.
fn check_phase(
    phase: &str,
    req: &SearchRequest,
    shards: usize,
    failures: &[ShardFailure],
) -> Result<()> {
    if shards > 0 && failures.len() >= shards {
        return Err(failures::phase_failure(
            phase,
            "all shards failed",
            failures,
        ));
    }
    if !req.allow_partial && !failures.is_empty() {
        return Err(failures::phase_failure(
            phase,
            "Partial shards failure",
            failures,
        ));
    }
    Ok(())
}

/// One shard's part of the query phase.
struct ShardOutcome {
    count: u64,
    terminated_early: bool,
    max_score: Option<f32>,
    candidates: Vec<Candidate>,
    aggs: Option<crate::aggs::ShardAggs>,
    profile: Option<crate::profile::ShardProfile>,
}

struct QueryPlan<'a> {
    window: usize,
    by_score: bool,
    specs: &'a [SortSpec],
    deadline: Option<&'a timeout::Deadline>,
}

fn query_shard(
    req: &SearchRequest,
    plan: &QueryPlan,
    t: &ShardTarget,
    si: usize,
    cursor: Option<&Cursor>,
) -> Result<ShardOutcome> {
    if let Some(below) = req.track_total_hits_below {
        // Where a collector wraps the top docs one (a minimum score, a post filter, a count
        // limit), Lucene's creation of it refuses the threshold on each shard.
        if req.min_score.is_some() || req.post_filter.is_some() || req.terminate_after.is_some() {
            return Err(Error::illegal_argument(format!(
                "totalHitsThreshold must be >= 0, got {below}"
            )));
        }
    }
    let meta = t.service.meta();
    let rewrite_started = std::time::Instant::now();
    let mut q = shard_query(req, t)?;
    let rewrite_nanos = rewrite_started.elapsed().as_nanos() as u64;
    // A profiled search is never answered from the cache (as in OpenSearch).
    let cache_key = if plan.window == 0 && !req.profile {
        request_cache::key(req, t)
    } else {
        None
    };
    if let Some(hit) = cache_key.as_deref().and_then(request_cache::get) {
        return Ok(ShardOutcome {
            count: hit.count,
            terminated_early: hit.terminated_early,
            max_score: None,
            candidates: Vec::new(),
            aggs: hit.aggs.clone(),
            profile: None,
        });
    }
    let mut out = ShardOutcome {
        count: 0,
        terminated_early: false,
        max_score: None,
        candidates: Vec::new(),
        aggs: None,
        profile: None,
    };
    let aggs_started = std::time::Instant::now();
    let mut global_nanos = 0;
    if let Some(aggs) = &req.aggs {
        let (found, nanos) = shard_aggs(req, aggs, t, plan.deadline)?;
        out.aggs = Some(found);
        global_nanos = nanos;
    }
    let aggs_nanos = (aggs_started.elapsed().as_nanos() as u64).saturating_sub(global_nanos);
    let profiled = |out: &mut ShardOutcome, collect_nanos: u64| -> Result<()> {
        if req.profile {
            out.profile = Some(shard_profile(
                req,
                t,
                plan,
                [rewrite_nanos, collect_nanos, aggs_nanos, global_nanos],
            )?);
        }
        Ok(())
    };
    let mut counted = None;
    if let Some(limit) = req.terminate_after {
        // The first `limit` matches in indexing order (Lucene's doc order on the shard): a
        // cut on `_seq_no` at the last of them.
        let (n, cut) = terminate_after_cut(&t.searcher, &q, limit, plan.deadline)?;
        out.terminated_early = n > limit;
        // Without hits to collect, OpenSearch's hit counter takes a segment's count from a
        // weight that knows it at once (Lucene's `Weight.count`), past the limit.
        let whole = plan.window == 0
            && req.post_filter.is_none()
            && req.min_score.is_none()
            && counts_at_once(&t.query(&req.query), &Context::of(&t.searcher, &meta));
        counted = Some(if whole { n } else { n.min(limit) });
        if let Some(cut) = cut {
            q = Box::new(tantivy::query::BooleanQuery::new(vec![
                (tantivy::query::Occur::Must, q),
                (
                    tantivy::query::Occur::Must,
                    Box::new(tantivy::query::ConstScoreQuery::new(cut, 0.0)),
                ),
            ]));
        }
    }
    let scoring = if plan.window == 0 {
        tantivy::query::EnableScoring::disabled_from_searcher(&t.searcher)
    } else {
        tantivy::query::EnableScoring::enabled_from_searcher(&t.searcher)
    };
    // The weight and, for a tree of term leaves, its pruning tree: the pass by score starts
    // its walks from the tree's primed threshold.
    let (mut weight, node) = query::block_max::weight_and_node(q.as_ref(), scoring)?;
    if let Some(d) = plan.deadline {
        weight = Box::new(timeout::TimeLimitedWeight {
            inner: weight,
            deadline: d.clone(),
        });
    }
    if plan.window == 0 {
        // Nothing to rank (and no max_score to print): the count alone, through the
        // weights' own counting shortcuts.
        let count_started = std::time::Instant::now();
        if req.track_total_hits != TrackTotalHits::Off {
            out.count = match counted {
                Some(n) => n,
                None => {
                    let mut n = 0u64;
                    for r in t.searcher.segment_readers() {
                        n += weight.count(r)? as u64;
                    }
                    n
                }
            };
        }
        if let Some(key) = cache_key {
            if !plan.deadline.is_some_and(timeout::Deadline::was_hit) {
                request_cache::put(
                    key,
                    request_cache::Cached {
                        count: out.count,
                        terminated_early: out.terminated_early,
                        aggs: out.aggs.clone(),
                    },
                );
            }
        }
        profiled(&mut out, count_started.elapsed().as_nanos() as u64)?;
        return Ok(out);
    }
    let implied = match req.track_total_hits {
        TrackTotalHits::UpTo(_) => query::block_max::implied_terms(q.as_ref()),
        _ => Vec::new(),
    };
    // A shard holds no more hits than docs: past that, a window (up to any int a raised
    // `index.max_result_window` lets through) would only size the collectors' buffers.
    let docs = t.searcher.num_docs().max(1);
    let top_plan = top_k::Plan {
        specs: plan.specs,
        window: plan.window.min(usize::try_from(docs).unwrap_or(usize::MAX)),
        after: req.search_after.as_deref(),
        cursor,
        boost: t.boost,
        track_max_score: plan.by_score || req.track_scores,
        mapping: &meta.mapping,
        prune: query::block_max::prunable(q.as_ref()),
        constant: query::constant::is_constant(q.as_ref(), t.searcher.schema()),
        implied: &implied,
        node: node.as_ref(),
        count_up_to: match req.track_total_hits {
            TrackTotalHits::UpTo(n) => Some(n),
            TrackTotalHits::Exact => Some(u64::MAX),
            TrackTotalHits::Off => None,
        },
        match_all: matches!(req.query, crate::dsl::Query::MatchAll { .. })
            && t.alias_filter.is_none()
            && req.post_filter.is_none()
            && req.min_score.is_none()
            && req.terminate_after.is_none()
            && plan.deadline.is_none(),
    };
    let collect_started = std::time::Instant::now();
    let top = top_k::collect(&top_plan, &t.searcher, weight.as_ref(), si).map_err(|e| {
        if e.kind == ErrorKind::QueryShard {
            e.with("index", meta.name.clone())
                .with("index_uuid", meta.settings.uuid())
        } else {
            e
        }
    })?;
    let collect_nanos = collect_started.elapsed().as_nanos() as u64;
    // The pass saw every match: its count is exact.
    out.count = counted.unwrap_or(top.count);
    out.max_score = top.max_score;
    out.candidates = top.candidates;
    profiled(&mut out, collect_nanos)?;
    Ok(out)
}

/// The shard's `profile`: its query timed node by node, its collectors, and each aggregation
/// timed on its own pass (`timings`: the search's rewrite, collection and aggregation times,
/// and the `global` aggregations' own search's).
fn shard_profile(
    req: &SearchRequest,
    t: &ShardTarget,
    plan: &QueryPlan,
    [rewrite_nanos, collect_nanos, aggs_nanos, global_nanos]: [u64; 4],
) -> Result<crate::profile::ShardProfile> {
    let meta = t.service.meta();
    let cx = Context::of(&t.searcher, &meta);
    // A minimum score needs scores, hits or not.
    let scoring = req.min_score.is_some() || plan.window > 0 && (plan.by_score || req.track_scores);
    let queries = crate::profile::query::search_profiles(
        &t.query(&req.query),
        req.post_filter.as_ref(),
        &cx,
        scoring,
    )?;
    // `global` aggregations are collected by a search of their own, not the query's collector.
    let (globals, names): (Vec<&crate::aggs::Agg>, Vec<&crate::aggs::Agg>) = req
        .aggs
        .iter()
        .flat_map(|a| a.0.iter())
        .partition(|agg| agg.kind == crate::aggs::AggKind::Global);
    let name = |aggs: Vec<&crate::aggs::Agg>| -> Vec<String> {
        aggs.into_iter().map(|agg| agg.name.clone()).collect()
    };
    let (globals, names) = (name(globals), name(names));
    let global = if globals.is_empty() {
        None
    } else {
        let all = t
            .query(&crate::dsl::Query::MatchAll { boost: 1.0 })
            .into_owned();
        let started = std::time::Instant::now();
        query::build(&all, &cx)?;
        let rewrite_nanos = started.elapsed().as_nanos() as u64;
        Some(crate::profile::GlobalSearch {
            queries: crate::profile::query::search_profiles(&all, None, &cx, false)?,
            rewrite_nanos,
            collector: crate::profile::global_collector(&globals, global_nanos),
        })
    };
    let collector = crate::profile::collectors(
        &crate::profile::CollectorShape {
            hits: plan.window > 0,
            field_sort: !plan.by_score && !req.sorts_by_score_only(),
            post_filter: req.post_filter.is_some(),
            min_score: req.min_score.is_some(),
            terminate_after: req.terminate_after.is_some(),
            aggs: &names,
        },
        collect_nanos,
        aggs_nanos,
    );
    let aggs = match &req.aggs {
        Some(aggs) => {
            // OpenSearch's profiler meets the `global` aggregations last, in their own search.
            let mut in_order = aggs.0.clone();
            in_order.sort_by_key(|agg| agg.kind == crate::aggs::AggKind::Global);
            let in_order = crate::aggs::Aggs(in_order);
            crate::profile::aggregation::profile(&in_order, &meta.mapping, &mut |one| {
                shard_aggs(req, one, t, plan.deadline).map(|_| ())
            })?
        }
        None => Vec::new(),
    };
    Ok(crate::profile::ShardProfile {
        id: format!("[{}][{}][{}]", t.node_id, meta.name, t.shard),
        queries,
        rewrite_nanos,
        collector,
        global,
        aggs,
    })
}

pub fn execute(req: &SearchRequest, targets: &[ShardTarget]) -> Result<SearchResult> {
    execute_paged(req, targets, None)
}

/// A scroll's page: each shard's hits after its cursor (`None`: from its first hit); the
/// cursors then move to the last hit each shard gave the page.
pub(crate) fn execute_scroll(
    req: &SearchRequest,
    targets: &[ShardTarget],
    cursors: &mut [Option<Cursor>],
) -> Result<SearchResult> {
    execute_paged(req, targets, Some(cursors))
}

fn execute_paged(
    req: &SearchRequest,
    targets: &[ShardTarget],
    cursors: Option<&mut [Option<Cursor>]>,
) -> Result<SearchResult> {
    let started = std::time::Instant::now();
    let deadline = req.timeout.map(|d| timeout::Deadline::new(started + d));
    let window = req.from + req.size;
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut total: u64 = 0;
    let mut max_score: Option<f32> = None;
    let mut terminated_early = false;
    let by_score = req.sorts_by_score_only() && req.search_after.is_none();
    let by_score_spec = [SortSpec {
        field: SortField::Score,
        ascending: false,
        missing: sort::Missing::Last,
        mode: None,
        unmapped_type: None,
    }];
    let scoring =
        by_score || req.track_scores || req.sort.iter().any(|s| s.field == SortField::Score);
    let mut failures: Vec<ShardFailure> = Vec::new();
    let mut failed = vec![false; targets.len()];
    let mut phase_took = PhaseTook::default();
    let mut shard_aggs = Vec::new();
    let mut profiles = Vec::new();
    let millis = |since: std::time::Instant| since.elapsed().as_millis() as u64;
    if req.can_match {
        can_match_phase(req, targets, &mut failures, &mut failed);
        check_phase("can_match", req, targets.len(), &failures)?;
    }
    let dfs = if req.dfs {
        let stats = dfs_phase(req, targets, &mut failures, &mut failed);
        phase_took.dfs_pre_query = millis(started);
        check_phase("dfs_pre_query", req, targets.len(), &failures)?;
        Some(Arc::new(stats))
    } else {
        None
    };
    let with_stats = |f: &mut dyn FnMut() -> Result<ShardOutcome>| match &dfs {
        Some(s) => query::lucene_term::with_dfs(s, f),
        None => f(),
    };
    let plan = QueryPlan {
        window,
        by_score,
        specs: if by_score { &by_score_spec } else { &req.sort },
        deadline: deadline.as_ref(),
    };
    for (si, t) in targets.iter().enumerate() {
        if failed[si] {
            continue;
        }
        // A cancelled search starts no more shards; each one left fails with the cancellation.
        if let Err(e) = crate::util::cancellation::check() {
            failures.push(ShardFailure::new(t, e));
            continue;
        }
        let cursor = cursors.as_deref().and_then(|c| c[si].as_ref());
        let outcome = with_stats(&mut || query_shard(req, &plan, t, si, cursor));
        // A function_score failure while scoring is parked (tantivy's scorers cannot return
        // errors): it fails this shard.
        let outcome = match crate::query::function_score::take_failure() {
            Some((e, _, _)) => Err(e),
            None => outcome,
        };
        let o = match outcome {
            Ok(o) => o,
            Err(e) => {
                failures.push(ShardFailure::new(t, e));
                continue;
            }
        };
        if !req.allow_partial && deadline.as_ref().is_some_and(timeout::Deadline::was_hit) {
            failures.push(ShardFailure::new(
                t,
                Error::new(ErrorKind::QueryPhaseExecution, "Time exceeded"),
            ));
            continue;
        }
        terminated_early |= o.terminated_early;
        if req.track_total_hits != TrackTotalHits::Off {
            total += o.count;
        }
        if let Some(m) = o.max_score {
            max_score = Some(max_score.map_or(m, |x: f32| x.max(m)));
        }
        candidates.extend(o.candidates);
        shard_aggs.extend(o.aggs);
        profiles.extend(o.profile);
    }
    check_phase(
        if req.dfs { "dfs_query" } else { "query" },
        req,
        targets.len(),
        &failures,
    )?;
    if let Some(below) = req.track_total_hits_below {
        // Lucene's `TotalHits` refuses the count OpenSearch reduces the total to.
        return Err(failures::reduce_failure(
            "fetch",
            Error::illegal_argument(format!("value must be >= 0, got {below}")),
        ));
    }
    let terminated_early = req.terminate_after.map(|_| terminated_early);
    if !by_score {
        top_k::cut(&mut candidates, window, req.sort.len());
    }
    // Only the page needs an order: what precedes it goes in one selection, then the page is
    // selected from the rest and sorted alone.
    let ranks = shard_order::ranks(req, targets);
    let cmp = |a: &Candidate, b: &Candidate| cmp_candidates(a, b, req, &ranks);
    if req.from > 0 {
        if candidates.len() > req.from {
            candidates.select_nth_unstable_by(req.from, cmp);
            candidates.drain(..req.from);
        } else {
            candidates.clear();
        }
    }
    if req.size > 0 && candidates.len() > req.size {
        candidates.select_nth_unstable_by(req.size - 1, cmp);
    }
    candidates.truncate(req.size);
    candidates.sort_unstable_by(cmp);
    if let Some(cursors) = cursors {
        // Each shard's cursor moves to its last hit on the page: only that one's values are read.
        let mut moved = vec![false; cursors.len()];
        for c in candidates.iter().rev() {
            if !std::mem::replace(&mut moved[c.shard], true) {
                cursors[c.shard] = Some(Cursor::of(c));
            }
        }
    }
    let query_took = millis(started) - phase_took.dfs_pre_query;
    if req.dfs {
        phase_took.dfs_query = query_took;
    } else {
        phase_took.query = query_took;
    }
    let fetch_started = std::time::Instant::now();
    let plans = fetch_plans(req, targets, &mut candidates, &mut failures)?;
    let mut hits = Vec::with_capacity(candidates.len());
    let mut shard_fetch: Vec<Option<ShardFetch>> = targets.iter().map(|_| None).collect();
    for c in &candidates {
        let t = &targets[c.shard];
        let shard = shard_fetch[c.shard].get_or_insert_with(|| ShardFetch::of(t));
        let f = || fetch(c, req, (t, &plans[c.shard], shard), scoring);
        // The fetch phase scores with the same statistics (explanations, named query scores).
        hits.push(match &dfs {
            Some(s) => query::lucene_term::with_dfs(s, f),
            None => f(),
        }?);
    }
    let total = match req.track_total_hits {
        TrackTotalHits::Off => None,
        TrackTotalHits::Exact => Some((total, "eq")),
        TrackTotalHits::UpTo(n) if total > n => Some((n, "gte")),
        TrackTotalHits::UpTo(_) => Some((total, "eq")),
    };
    Ok(SearchResult {
        terminated_early,
        total,
        max_score: if targets.is_empty() && by_score {
            // OpenSearch's empty reduce (no shard at all) reports 0.
            Some(0.0)
        } else if (by_score || req.track_scores) && window > 0 {
            max_score
        } else {
            None
        },
        hits,
        shards: targets.len(),
        failures,
        timed_out: deadline.as_ref().is_some_and(timeout::Deadline::was_hit),
        phase_took: PhaseTook {
            fetch: millis(fetch_started),
            ..phase_took
        },
        aggs: shard_aggs,
        profiles,
    })
}

/// The fetch each shard with hits on the page builds, its `fields` and `docvalue_fields`
/// resolved against its mapping once (indexed by shard; empty for the others). A shard that
/// cannot build it (`docvalue_fields` it has no field data for) fails, and its hits leave the
/// page. One shard queries and fetches in one round, so its failure is the query phase's, as
/// OpenSearch's.
fn fetch_plans(
    req: &SearchRequest,
    targets: &[ShardTarget],
    candidates: &mut Vec<Candidate>,
    failures: &mut Vec<ShardFailure>,
) -> Result<Vec<fetch_fields::ShardFields>> {
    let mut plans: Vec<fetch_fields::ShardFields> =
        targets.iter().map(|_| Default::default()).collect();
    if req.fields.is_empty() && req.docvalue_fields.is_empty() {
        return Ok(plans);
    }
    let mut fetching: Vec<usize> = candidates.iter().map(|c| c.shard).collect();
    fetching.sort_unstable();
    fetching.dedup();
    let mut failed = vec![false; targets.len()];
    let before = failures.len();
    for si in fetching {
        let t = &targets[si];
        let meta = t.service.meta();
        match fetch_fields::ShardFields::resolve(&meta.mapping, &req.fields, &req.docvalue_fields) {
            Ok(p) => plans[si] = p,
            Err(e) if targets.len() == 1 => return Err(all_shards_failed(e, t)),
            Err(e) => {
                failed[si] = true;
                failures.push(ShardFailure::new(t, e));
            }
        }
    }
    if failures.len() > before {
        candidates.retain(|c| !failed[c.shard]);
        check_phase("fetch", req, targets.len(), &failures[before..])?;
    }
    Ok(plans)
}

/// What the fetch of one shard's hits reads once, not per hit.
struct ShardFetch {
    meta: Arc<crate::index::index_service::IndexMeta>,
    /// The index name its hits share.
    index: Arc<str>,
    fields: stored_hit::InternalFields,
}

impl ShardFetch {
    fn of(t: &ShardTarget) -> ShardFetch {
        let meta = t.service.meta();
        ShardFetch {
            index: Arc::from(meta.name.as_str()),
            meta,
            fields: stored_hit::InternalFields::of(t.searcher.schema()),
        }
    }
}

/// One hit of the page; an unfiltered `_source` keeps its stored bytes.
fn fetch(
    c: &Candidate,
    req: &SearchRequest,
    (t, plan, shard): (&ShardTarget, &fetch_fields::ShardFields, &ShardFetch),
    with_score: bool,
) -> Result<Hit> {
    let mut doc: stored_hit::StoredHit = t.searcher.doc(c.doc)?;
    let f = &shard.fields;
    let meta = &shard.meta;
    let id = (!req.stored_none).then(|| doc.str(f.id).unwrap_or_default().to_string());
    let mut hit = Hit {
        index: shard.index.clone(),
        version: req.version.then(|| doc.i64(f.version)),
        seq_no_primary_term: req
            .seq_no_primary_term
            .then(|| (doc.i64(f.seq_no), doc.i64(f.primary_term))),
        score: with_score.then_some(c.score),
        routing: doc.str(f.routing).map(String::from),
        source: HitSource::Absent,
        rest: serde_json::Map::new(),
        id,
    };
    let source = doc.take_source(f.source);
    // Parsed only when something below reads it.
    let parsed = std::cell::OnceCell::new();
    let raw_source = |source: &Option<Vec<u8>>| -> Value {
        parsed
            .get_or_init(|| {
                source
                    .as_deref()
                    .and_then(|b| serde_json::from_slice(b).ok())
                    .unwrap_or(Value::Null)
            })
            .clone()
    };
    let mut keep_stored = false;
    if let Some(filter) = &req.source {
        if source.is_some() {
            if filter.is_noop() {
                keep_stored = true;
            } else {
                hit.source = HitSource::Filtered(filter.apply(&raw_source(&source)));
            }
        }
    }
    if !req.named.is_empty() {
        let cx = Context::of(&t.searcher, meta);
        let matched = fetch_fields::matched_queries(&req.named, &cx, c.doc);
        if !matched.is_empty() || req.include_named_queries_score {
            hit.rest.insert(
                "matched_queries".into(),
                if req.include_named_queries_score {
                    Value::Object(
                        matched
                            .into_iter()
                            .map(|(n, s)| (n, score_json(s)))
                            .collect(),
                    )
                } else {
                    Value::Array(matched.into_iter().map(|(n, _)| Value::from(n)).collect())
                },
            );
        }
    }
    let mut fields = serde_json::Map::new();
    if !req.fields.is_empty() {
        fetch_fields::fields(&meta.mapping, plan, &raw_source(&source), &mut fields);
    }
    if !req.docvalue_fields.is_empty() {
        let printed = fetch_fields::Printed {
            id: hit.id.as_deref(),
            index: &hit.index,
        };
        fetch_fields::docvalue_fields(
            &t.searcher,
            &meta.mapping,
            plan,
            (c.doc, printed),
            &mut fields,
        );
    }
    if !fields.is_empty() {
        hit.rest.insert("fields".into(), Value::Object(fields));
    }
    if let Some(h) = &req.highlight {
        let cx = Context::of(&t.searcher, meta);
        let highlighted = highlight::ShardHighlighter::new(h, &cx, &req.query)
            .and_then(|hl| hl.hit(&raw_source(&source)))
            .map_err(|e| all_shards_failed(e, t))?;
        if let Some(v) = highlighted {
            hit.rest.insert("highlight".into(), v);
        }
    }
    // Hits of a search by relevance carry no sort values, even when it names `_score` desc.
    if !req.sorts_by_score_only() {
        let values: Vec<Value> = req
            .sort
            .iter()
            .zip(c.sort.values())
            .map(|(spec, v)| {
                let ty = match &spec.field {
                    SortField::Field(f) => meta.mapping.field(f).map(|m| m.ty).or_else(|| {
                        spec.unmapped_type
                            .as_deref()
                            .and_then(crate::index::mapping::FieldType::from_name)
                    }),
                    _ => None,
                };
                match spec.field {
                    SortField::Score => score_json(c.score),
                    _ => v.to_json(&spec.missing, spec.ascending, ty),
                }
            })
            .collect();
        hit.rest.insert("sort".into(), Value::Array(values));
    }
    if req.explain {
        crate::api::explain::explain_hit(&mut hit.rest, req, t, c.doc)?;
    }
    if let (true, Some(bytes)) = (keep_stored, source) {
        hit.source = HitSource::Stored(bytes);
    }
    Ok(hit)
}

/// A score as OpenSearch prints a Java float: the shortest text that reads back as the f32,
/// except for the whole numbers from 2^24 up, whose digits Java rounds otherwise.
pub fn score_json(s: f32) -> Value {
    score_f64(s).map_or(Value::Null, Value::from)
}

/// `score_json`'s bytes, written into `out` without building the value.
pub fn write_score(out: &mut Vec<u8>, s: f32) {
    match score_f64(s) {
        Some(v) => serde_json::to_writer(out, &v).expect("a finite f64 serializes"),
        None => out.extend_from_slice(b"null"),
    }
}

/// Writes scores as `write_score` does, each run of equal ones formatted once: a page of
/// equal scores (a term or filter query's, a match_all's) is common, and formatting a float is
/// most of writing a hit that is not its source.
#[derive(Default)]
pub struct ScoreWriter {
    last: Option<(u32, StackText)>,
}

impl ScoreWriter {
    pub fn write(&mut self, out: &mut Vec<u8>, s: f32) {
        if let Some((bits, text)) = &self.last {
            if *bits == s.to_bits() {
                out.extend_from_slice(text.as_str().as_bytes());
                return;
            }
        }
        let start = out.len();
        write_score(out, s);
        let mut text = StackText::default();
        // A text too long to keep (none is) is written again next time.
        self.last = std::str::from_utf8(&out[start..])
            .ok()
            .and_then(|t| std::fmt::Write::write_str(&mut text, t).ok())
            .map(|()| (s.to_bits(), text));
    }
}

/// The f64 nearest a score's printed digits, as parsing that JSON would give; `None` for NaN
/// and the infinities, which JSON prints as null.
fn score_f64(s: f32) -> Option<f64> {
    if !s.is_finite() {
        return None;
    }
    if let Some(text) = java_whole_float(s) {
        return text.parse().ok();
    }
    // Rust's shortest round-trip digits, written on the stack rather than into a `String`.
    // (serde_json's own f32 formatter is cheaper but breaks ties to even: 0.000244140625f
    // prints 0.00024414062 there and 0.00024414063 here.)
    let mut text = StackText::default();
    std::fmt::Write::write_fmt(&mut text, format_args!("{s:?}")).ok()?;
    text.as_str().parse().ok()
}

/// A short text written on the stack (`write!` without an allocation).
#[derive(Default)]
struct StackText {
    buf: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("written as str")
    }
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// JDK 17's `Float.toString` digits of a float from 2^24 to 2^63, where every float is a
/// whole number (`FloatingDecimal.dtoa`'s easy case): the number's own digits, its low
/// "insignificant" ones rounded away (by how far the exponent passes the 24-bit significand),
/// not the shortest that would read back. `2610418688f` prints `2.61041869E9`, not
/// `2.6104187E9`.
fn java_whole_float(s: f32) -> Option<String> {
    /// `FloatingDecimal.insignificantDigitsNumber`.
    const INSIGNIFICANT: [u32; 64] = [
        0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8,
        9, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13, 13, 13, 14, 14, 14, 15, 15, 15, 15,
        16, 16, 16, 17, 17, 17, 18, 18, 18, 19,
    ];
    let a = s.abs();
    if !(16_777_216.0..9.223_372e18).contains(&a) {
        return None;
    }
    let mut value = a as u64;
    let bin_exp = 63 - value.leading_zeros();
    let insignificant = if bin_exp > 24 {
        let p2 = (bin_exp - 25) as usize;
        if p2 > 1 {
            INSIGNIFICANT[p2]
        } else {
            0
        }
    } else {
        0
    };
    let pow10 = 10u64.pow(insignificant);
    let residue = value % pow10;
    value /= pow10;
    if insignificant > 0 && residue >= pow10 / 2 {
        value += 1;
    }
    let sign = if s < 0.0 { "-" } else { "" };
    Some(format!("{sign}{value}e{insignificant}"))
}

#[cfg(test)]
mod score_text_tests {
    use super::{score_json, write_score};

    /// A score's bytes as they were made before: Rust's `{:?}` digits read back as an f64 and
    /// serialized as a JSON value.
    fn formatted_then_parsed(s: f32) -> String {
        let text = super::java_whole_float(s).unwrap_or_else(|| format!("{s:?}"));
        let value = text
            .parse::<f64>()
            .map_or(serde_json::Value::Null, serde_json::Value::from);
        serde_json::to_string(&value).unwrap()
    }

    fn written(s: f32) -> String {
        let mut out = Vec::new();
        write_score(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_run_of_equal_scores_writes_the_same_text() {
        let mut scores = super::ScoreWriter::default();
        let mut out = Vec::new();
        for s in [
            2.639_308_7,
            2.639_308_7,
            1.0,
            1.0,
            f32::NAN,
            f32::NAN,
            2.639_308_7,
        ] {
            scores.write(&mut out, s);
            out.push(b' ');
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "2.6393087 2.6393087 1.0 1.0 null null 2.6393087 "
        );
        // 0.0 and -0.0 are equal floats but print apart.
        let mut out = Vec::new();
        scores.write(&mut out, 0.0);
        scores.write(&mut out, -0.0);
        assert_eq!(out, b"0.0-0.0");
    }

    #[test]
    fn written_scores_are_the_formatted_and_reparsed_text() {
        let mut samples = vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            0.287_682_1,
            11.193_865,
            // Ties between two shortest texts, which formatters break differently:
            // 0.000244140625 (2^-12), 0.00244140625, 0.0361328125.
            f32::from_bits(0x3980_0000),
            f32::from_bits(0x3b20_0000),
            f32::from_bits(0x3d14_0000),
            1e-7,
            1e-45,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            f32::EPSILON,
            16_777_215.0,
            16_777_216.0,
            2_610_418_688.0,
            9.223_372e18,
            1e16,
            1e17,
            123_456_790.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        // Every exponent, with a few mantissas each, and a spread of bit patterns.
        for exp in 0u32..255 {
            for mantissa in [0u32, 1, 0x2a_aaaa, 0x40_0000, 0x7f_ffff] {
                samples.push(f32::from_bits((exp << 23) | mantissa));
            }
        }
        let mut bits = 0x1234_5678u32;
        for _ in 0..20_000 {
            bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            samples.push(f32::from_bits(bits));
        }
        for s in samples {
            assert_eq!(
                written(s),
                formatted_then_parsed(s),
                "{s:?} ({:#x})",
                s.to_bits()
            );
            assert_eq!(
                serde_json::to_string(&score_json(s)).unwrap(),
                written(s),
                "{s:?}"
            );
        }
    }

    #[test]
    fn whole_floats_print_javas_digits() {
        // OpenSearch 2.19 (JDK 17) printed these scores as 2.61041869E9 and 9.1883251E8.
        assert_eq!(score_json(2_610_418_688.0).as_f64(), Some(2.61041869e9));
        assert_eq!(score_json(918_832_512.0).as_f64(), Some(9.1883251e8));
        // Below 2^24 the shortest text stands.
        assert_eq!(score_json(4.537_311).as_f64(), Some(4.537311));
        assert_eq!(score_json(16_777_215.0).as_f64(), Some(16_777_215.0));
    }

    #[test]
    fn prints_the_shortest_digits_and_null_for_what_json_cannot_hold() {
        assert_eq!(
            serde_json::to_string(&score_json(0.287_682_1)).unwrap(),
            "0.2876821"
        );
        assert_eq!(serde_json::to_string(&score_json(1e-7)).unwrap(), "1e-7");
        assert_eq!(serde_json::to_string(&score_json(1.0)).unwrap(), "1.0");
        assert!(score_json(f32::NAN).is_null());
        assert!(score_json(f32::INFINITY).is_null());
        assert!(score_json(f32::NEG_INFINITY).is_null());
    }
}
