//! One shard's part of each aggregation: every alive match read once, each aggregation counting
//! from its field's column (keyword ordinals counted per segment, then named; numbers decoded
//! from tantivy's u64 mapping).

use super::request::{AggKind, Aggs, Interval, Metric};
use crate::error::{Error, Result};
use crate::index::mapping::{FieldType, Mapping};
use crate::search::open_columns;
use crate::search::top_k::{column_type, num_type, NumType};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use tantivy::columnar::{Column, StrColumn};
use tantivy::query::Weight;
use tantivy::{DateTime, DocId, Searcher, SegmentReader};

/// What a shard found for each aggregation, in the request's order, and for each one with
/// nested aggregations, what they found in each of its buckets (by `bucket_filter` id).
#[derive(Debug, Default, Clone)]
pub struct ShardAggs(
    pub(crate) Vec<Part>,
    pub(crate) Vec<FxHashMap<String, ShardAggs>>,
);

impl ShardAggs {
    /// One shard's answer from the two scopes its aggregations ran in (`global` ones over every
    /// doc, the others over the query's matches), back in the request's order: `in_global[i]`
    /// tells the scope of the `i`th aggregation, and each scope's parts are in that order.
    pub fn interleave(in_global: &[bool], query: ShardAggs, global: ShardAggs) -> ShardAggs {
        let mut scopes = [
            (query.0.into_iter(), query.1.into_iter()),
            (global.0.into_iter(), global.1.into_iter()),
        ];
        let mut out = ShardAggs::default();
        for &g in in_global {
            let (parts, nested) = &mut scopes[usize::from(g)];
            out.0.extend(parts.next());
            // A scope keeps nested results only up to its last aggregation that has some.
            out.1.push(nested.next().unwrap_or_default());
        }
        out
    }

    /// How many buckets the parts hold (what keeping them costs).
    pub fn buckets(&self) -> usize {
        let nested: usize = self
            .1
            .iter()
            .flat_map(|m| m.values())
            .map(ShardAggs::buckets)
            .sum();
        nested
            + self
                .0
                .iter()
                .map(|p| match p {
                    Part::Terms(b) => b.len(),
                    Part::Histogram(h) => h.len(),
                    Part::NumHistogram(h) => h.len(),
                    Part::Range(r, _) => r.len(),
                    Part::Distinct { terms, raws } => terms.len() + raws.len(),
                    Part::Single(..) => 1,
                    Part::Multi(b, _) => b.len(),
                    _ => 1,
                })
                .sum::<usize>()
    }
}

/// A terms bucket's key, as the field's type has it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Key {
    Str(String),
    Long(i64),
    /// Unsigned longs, printed as themselves.
    Unsigned(u64),
    Double(f64),
    Bool(bool),
    /// Epoch millis of a date.
    Date(i64),
}

/// A terms bucket: its key, doc count and the metrics under the aggregation.
pub(crate) type Bucket = (Key, u64, Vec<Stats>);

#[derive(Debug, Clone)]
pub(crate) enum Part {
    /// The field is mapped nowhere on this shard.
    Unmapped,
    /// Buckets: key, doc count, the metrics under the aggregation.
    Terms(Vec<Bucket>),
    /// Bucket key (epoch millis) → doc count and metrics.
    Histogram(BTreeMap<i64, (u64, Vec<Stats>)>),
    /// A numeric histogram's buckets: key (as `f64_to_u64`, so the map orders them) → doc
    /// count and metrics.
    NumHistogram(BTreeMap<u64, (u64, Vec<Stats>)>),
    /// Each range's doc count and metrics, in the ranges' order, and the ranges as this shard
    /// read them (`resolve_ranges`; dates resolve on the shard, as `now` does in OpenSearch).
    Range(Vec<(u64, Vec<Stats>)>, Vec<ResolvedRange>),
    /// The distinct values seen: a keyword's terms, or a number's column values.
    Distinct {
        terms: rustc_hash::FxHashSet<Vec<u8>>,
        raws: rustc_hash::FxHashSet<u64>,
    },
    /// A `filters` aggregation's buckets, one per filter then the other bucket: doc count and
    /// metrics; and whether a filter matched nothing on the shard (an empty `meta`, as for
    /// `filter`).
    Multi(Vec<(u64, Vec<Stats>)>, bool),
    /// A single bucket (`missing`, `filter`): its doc count and metrics, and whether its
    /// filter matched nothing on the shard (OpenSearch then prints an empty `meta`).
    Single(u64, Vec<Stats>, bool),
    Metric(Stats),
}

/// Count, compensated sum, min and max of a field's values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stats {
    pub count: u64,
    pub sum: f64,
    compensation: f64,
    /// The sum of the squares, compensated as the sum is (only where `extended_stats` asks:
    /// it costs a second compensated addition per value).
    pub sum_of_squares: f64,
    squares_compensation: f64,
    squares: bool,
    pub min: f64,
    pub max: f64,
    pub date: bool,
}

impl Stats {
    pub(crate) fn new(date: bool, squares: bool) -> Stats {
        Stats {
            squares,
            count: 0,
            sum: 0.0,
            compensation: 0.0,
            sum_of_squares: 0.0,
            squares_compensation: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            date,
        }
    }

    pub(crate) fn add(&mut self, v: f64) {
        self.count += 1;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        if !v.is_finite() {
            self.sum += v;
            self.sum_of_squares += v * v;
            return;
        }
        kahan(&mut self.sum, &mut self.compensation, v);
        if self.squares {
            kahan(
                &mut self.sum_of_squares,
                &mut self.squares_compensation,
                v * v,
            );
        }
    }

    /// The shard's stats as the coordinating node's reduce starts from them: its
    /// `CompensatedSum`s start at 0 and take each shard's sums, not their compensations.
    pub(crate) fn reducing(mut self) -> Stats {
        self.compensation = 0.0;
        self.squares_compensation = 0.0;
        self
    }

    pub(crate) fn merge(&mut self, o: &Stats) {
        self.count += o.count;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
        kahan(&mut self.sum, &mut self.compensation, o.sum);
        kahan(
            &mut self.sum_of_squares,
            &mut self.squares_compensation,
            o.sum_of_squares,
        );
    }
}

/// Kahan summation, as OpenSearch's `CompensatedSum` adds.
fn kahan(sum: &mut f64, compensation: &mut f64, v: f64) {
    let corrected = v - *compensation;
    let t = *sum + corrected;
    *compensation = (t - *sum) - corrected;
    *sum = t;
}

/// A bucket key of a raw column value.
fn key(ty: NumType, raw: u64) -> Key {
    match ty {
        NumType::I64 => Key::Long(tantivy::u64_to_i64(raw)),
        NumType::U64 => Key::Unsigned(raw),
        NumType::F64 => Key::Double(tantivy::u64_to_f64(raw)),
        NumType::Bool => Key::Bool(raw != 0),
        NumType::Date => Key::Date(millis(raw)),
    }
}

/// A raw column value as the double metrics add up (dates as epoch millis).
fn value(ty: NumType, raw: u64) -> f64 {
    match ty {
        NumType::I64 => tantivy::u64_to_i64(raw) as f64,
        NumType::U64 => raw as f64,
        NumType::F64 => tantivy::u64_to_f64(raw),
        NumType::Bool => raw as f64,
        NumType::Date => millis(raw) as f64,
    }
}

fn millis(raw: u64) -> i64 {
    DateTime::from_timestamp_nanos(tantivy::u64_to_i64(raw)).into_timestamp_millis()
}

/// What an aggregation reads from its field, once per shard.
enum Source {
    Unmapped,
    Keyword,
    Number(NumType),
}

fn source(agg: &str, kind: &AggKind, mapping: &Mapping) -> Result<(String, Source)> {
    let field = match kind {
        AggKind::Filter { .. } | AggKind::Filters { .. } | AggKind::Global => {
            return Ok((String::new(), Source::Unmapped))
        }
        AggKind::Terms { field, .. }
        | AggKind::DateHistogram { field, .. }
        | AggKind::Histogram { field, .. }
        | AggKind::Range { field, .. }
        | AggKind::Cardinality { field }
        | AggKind::Missing { field }
        | AggKind::Metric { field, .. } => field,
    };
    let Some(fm) = mapping.field(field) else {
        return Ok((field.clone(), Source::Unmapped));
    };
    let refused = || {
        Error::illegal_argument(format!(
            "Field [{field}] of type [{}] is not supported for aggregation [{agg}]",
            fm.ty.name()
        ))
    };
    let source = match (kind, fm.ty) {
        (_, FieldType::Text) => return Err(Error::text_fielddata(field)),
        (
            AggKind::Terms { .. } | AggKind::Cardinality { .. } | AggKind::Missing { .. },
            FieldType::Keyword | FieldType::Ip,
        ) => Source::Keyword,
        (
            AggKind::Metric {
                metric: Metric::ExtendedStats(_),
                ..
            },
            FieldType::Date,
        ) => {
            return Err(Error::illegal_argument(
                "[extended_stats] aggregations on date fields are not supported yet",
            ))
        }
        // Values of any type count.
        (
            AggKind::Metric {
                metric: Metric::ValueCount,
                ..
            },
            FieldType::Keyword | FieldType::Ip,
        ) => Source::Keyword,
        (_, FieldType::Keyword | FieldType::Ip) => return Err(refused()),
        (_, ty) => Source::Number(num_type(ty).ok_or_else(refused)?),
    };
    Ok((field.clone(), source))
}

/// Empty metrics for each of `subs`, as a bucket starts.
fn fresh(subs: &[(String, Source, bool)]) -> Vec<Stats> {
    subs.iter()
        .map(|(_, s, squares)| Stats::new(matches!(s, Source::Number(NumType::Date)), *squares))
        .collect()
}

/// Whether a metric sums its values' squares.
fn squares(kind: &AggKind) -> bool {
    matches!(
        kind,
        AggKind::Metric {
            metric: Metric::ExtendedStats(_),
            ..
        }
    )
}

/// Adds a doc's values to its bucket's metrics.
fn add_subs(doc: DocId, subs: &[Open], stats: &mut [Stats], seen: &mut Vec<u64>) {
    for (col, s) in subs.iter().zip(stats.iter_mut()) {
        match col {
            Open::Keyword(c) => {
                distinct(seen, c.ords().values_for_doc(doc));
                s.count += seen.len() as u64;
            }
            Open::Number(c, n) => {
                for raw in c.values_for_doc(doc) {
                    s.add(value(*n, raw));
                }
            }
            Open::Absent => {}
        }
    }
}

/// Counts one shard's matches of `weight` (its alive docs) into each aggregation.
/// Whether a filter's scorer matches `doc` (docs come in increasing order within a segment).
fn matches(scorer: &mut Box<dyn tantivy::query::Scorer>, doc: DocId) -> bool {
    if scorer.doc() < doc {
        scorer.seek(doc);
    }
    scorer.doc() == doc
}

/// A `filter` aggregation's query as a shard built it.
pub struct FilterWeight {
    pub weight: Box<dyn Weight>,
    /// It rewrote to match nothing (a field the shard does not map, say).
    pub matches_none: bool,
}

/// `filters[i]` are the queries of the `i`th aggregation (a `filter` or `filters` one).
pub fn collect(
    aggs: &Aggs,
    searcher: &Searcher,
    weight: &dyn Weight,
    mapping: &Mapping,
    filters: &[Vec<FilterWeight>],
) -> Result<ShardAggs> {
    let sources = aggs
        .0
        .iter()
        .map(|a| source(type_name(&a.kind), &a.kind, mapping))
        .collect::<Result<Vec<_>>>()?;
    let sub_sources = aggs
        .0
        .iter()
        .map(|a| {
            a.subs
                .iter()
                .map(|s| {
                    let (field, source) = source(type_name(&s.kind), &s.kind, mapping)?;
                    Ok((field, source, squares(&s.kind)))
                })
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    let mut resolved: Vec<Vec<ResolvedRange>> = Vec::with_capacity(aggs.0.len());
    for a in &aggs.0 {
        resolved.push(match &a.kind {
            AggKind::Range {
                field,
                ranges,
                dates,
                ..
            } => {
                let format = match mapping.field(field) {
                    Some(fm) if fm.ty == FieldType::Date => {
                        // Keys print as `strict_date_optional_time`; a field printing its own
                        // format would need that format's printer.
                        if fm.date_format.as_ref().is_some_and(|f| {
                            !f.source.starts_with("strict_date_optional_time")
                                && !f.source.starts_with("date_optional_time")
                        }) {
                            return Err(Error::illegal_argument(format!(
                                "[{}] on a date field with format [{}] is not supported yet",
                                type_name(&a.kind),
                                fm.date_format.as_ref().map_or("", |f| f.source.as_str())
                            )));
                        }
                        Some(fm.date_format.as_ref())
                    }
                    None if *dates => Some(None),
                    _ => None,
                };
                resolve_ranges(&a.name, ranges, format)?
            }
            _ => Vec::new(),
        });
        if let AggKind::Histogram { interval, .. } = a.kind {
            if interval <= 0.0 {
                return Err(Error::illegal_argument(format!(
                    "interval must be positive, got: {}",
                    crate::query::function_score::java_double(interval)
                )));
            }
        }
    }
    let mut parts: Vec<Part> = aggs
        .0
        .iter()
        .zip(sources.iter().zip(&sub_sources))
        .enumerate()
        .map(|(i, (a, ((_, s), sub)))| match (s, &a.kind) {
            (_, AggKind::Missing { .. } | AggKind::Global) => Part::Single(0, fresh(sub), false),
            (_, AggKind::Filter { .. }) => Part::Single(
                0,
                fresh(sub),
                filters
                    .get(i)
                    .and_then(|f| f.first())
                    .is_some_and(|f| f.matches_none),
            ),
            (_, AggKind::Filters { filters: f, other }) => Part::Multi(
                vec![(0, fresh(sub)); f.len() + usize::from(other.is_some())],
                filters
                    .get(i)
                    .is_some_and(|list| list.iter().any(|w| w.matches_none)),
            ),
            // An unmapped field still lists its ranges, empty.
            (_, AggKind::Range { ranges, .. }) => {
                Part::Range(vec![(0, fresh(sub)); ranges.len()], resolved[i].clone())
            }
            (Source::Unmapped, _) => Part::Unmapped,
            (_, AggKind::Terms { .. }) => Part::Terms(Vec::new()),
            (_, AggKind::DateHistogram { .. }) => Part::Histogram(BTreeMap::new()),
            (_, AggKind::Histogram { .. }) => Part::NumHistogram(BTreeMap::new()),
            (_, AggKind::Cardinality { .. }) => Part::Distinct {
                terms: Default::default(),
                raws: Default::default(),
            },
            (Source::Number(n), AggKind::Metric { .. }) => {
                Part::Metric(Stats::new(*n == NumType::Date, squares(&a.kind)))
            }
            (Source::Keyword, AggKind::Metric { .. }) => Part::Metric(Stats::new(false, false)),
        })
        .collect();
    // Terms are merged by key over the segments.
    let mut terms: Vec<FxHashMap<KeyBits, Bucket>> =
        aggs.0.iter().map(|_| FxHashMap::default()).collect();
    for reader in searcher.segment_readers() {
        let mut segment = Vec::with_capacity(parts.len());
        let mut subs = Vec::with_capacity(parts.len());
        for ((field, s), sub) in sources.iter().zip(&sub_sources) {
            segment.push(open(reader, field, s)?);
            subs.push(
                sub.iter()
                    .map(|(f, s, _)| open(reader, f, s))
                    .collect::<Result<Vec<_>>>()?,
            );
        }
        let mut filter_scorers = filters
            .iter()
            .map(|list| {
                list.iter()
                    .map(|f| f.weight.scorer(reader, 1.0))
                    .collect::<tantivy::Result<Vec<_>>>()
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        let alive = reader.alive_bitset();
        let mut ord_counts: Vec<Vec<u64>> = segment
            .iter()
            .map(|c| match c {
                Open::Keyword(col) => vec![0; col.num_terms()],
                _ => Vec::new(),
            })
            .collect();
        // Each keyword bucket's metrics, by ordinal (only where there are metrics).
        let mut ord_stats: Vec<Vec<Vec<Stats>>> = segment
            .iter()
            .zip(&sub_sources)
            .map(|(c, sub)| match c {
                Open::Keyword(col) if !sub.is_empty() => vec![fresh(sub); col.num_terms()],
                _ => Vec::new(),
            })
            .collect();
        // A doc's distinct values: Lucene's sorted-set doc values hold a keyword once, and the
        // numeric aggregators skip a repeated value.
        let mut seen: Vec<u64> = Vec::new();
        let mut sub_seen: Vec<u64> = Vec::new();
        // Single-valued columns (the common case) skip the distinct values' sort.
        let single: Vec<bool> = segment
            .iter()
            .map(|c| match c {
                Open::Keyword(c) => !c.ords().get_cardinality().is_multivalue(),
                Open::Number(c, _) => !c.get_cardinality().is_multivalue(),
                Open::Absent => true,
            })
            .collect();
        // A histogram's current bucket and the docs counted into it since it began: matches
        // come in doc order, which is mostly time order, so most docs only add to the run.
        let mut runs: Vec<Run> = segment.iter().map(|_| Run::default()).collect();
        let mut visit = |doc: DocId| {
            for (i, col) in segment.iter().enumerate() {
                let metrics = !subs[i].is_empty();
                match (col, &mut parts[i]) {
                    (Open::Keyword(c), Part::Metric(s)) => {
                        if single[i] {
                            s.count += u64::from(c.ords().first(doc).is_some());
                        } else {
                            distinct(&mut seen, c.ords().values_for_doc(doc));
                            s.count += seen.len() as u64;
                        }
                    }
                    (_, Part::Multi(buckets, _)) => {
                        // Each filter the doc matches, else the other bucket (if there is one).
                        let mut any = false;
                        for (scorer, bucket) in filter_scorers[i].iter_mut().zip(buckets.iter_mut())
                        {
                            if matches(scorer, doc) {
                                any = true;
                                bucket.0 += 1;
                                add_subs(doc, &subs[i], &mut bucket.1, &mut sub_seen);
                            }
                        }
                        if !any && buckets.len() > filter_scorers[i].len() {
                            if let Some(other) = buckets.last_mut() {
                                other.0 += 1;
                                add_subs(doc, &subs[i], &mut other.1, &mut sub_seen);
                            }
                        }
                    }
                    (col, Part::Single(n, stats, _)) => {
                        // A `filter` bucket holds its query's matches, a `missing` one the docs
                        // without a value, a `global` one every doc (its scope is all of them).
                        let holds = match (filter_scorers[i].first_mut(), col) {
                            _ if matches!(aggs.0[i].kind, AggKind::Global) => true,
                            (Some(scorer), _) => matches(scorer, doc),
                            (None, Open::Keyword(c)) => c.ords().first(doc).is_none(),
                            (None, Open::Number(c, _)) => c.first(doc).is_none(),
                            (None, Open::Absent) => true,
                        };
                        if holds {
                            *n += 1;
                            add_subs(doc, &subs[i], stats, &mut sub_seen);
                        }
                    }
                    (Open::Keyword(c), Part::Distinct { .. }) => {
                        for ord in c.ords().values_for_doc(doc) {
                            ord_counts[i][ord as usize] = 1;
                        }
                    }
                    (Open::Number(c, _), Part::Distinct { raws, .. }) => {
                        raws.extend(c.values_for_doc(doc));
                    }
                    (Open::Keyword(c), _) => {
                        if single[i] && !metrics {
                            if let Some(ord) = c.ords().first(doc) {
                                ord_counts[i][ord as usize] += 1;
                            }
                            continue;
                        }
                        distinct(&mut seen, c.ords().values_for_doc(doc));
                        for &ord in &seen {
                            ord_counts[i][ord as usize] += 1;
                            if metrics {
                                let stats = &mut ord_stats[i][ord as usize];
                                add_subs(doc, &subs[i], stats, &mut sub_seen);
                            }
                        }
                    }
                    (Open::Number(c, n), Part::Terms(_)) => {
                        distinct(&mut seen, c.values_for_doc(doc));
                        for &raw in &seen {
                            let key = key(*n, raw);
                            let e = terms[i]
                                .entry(bits(&key))
                                .or_insert_with(|| (key, 0, fresh(&sub_sources[i])));
                            e.1 += 1;
                            add_subs(doc, &subs[i], &mut e.2, &mut sub_seen);
                        }
                    }
                    (Open::Number(c, n), Part::Histogram(h)) => {
                        let AggKind::DateHistogram { interval, .. } = &aggs.0[i].kind else {
                            continue;
                        };
                        if single[i] && !metrics {
                            if let Some(raw) = c.first(doc) {
                                runs[i].add(value(*n, raw) as i64, *interval, h);
                            }
                            continue;
                        }
                        // A doc counts once per bucket its values fall in.
                        let buckets = c.values_for_doc(doc).map(|raw| {
                            tantivy::i64_to_u64(round(value(*n, raw) as i64, *interval))
                        });
                        distinct(&mut seen, buckets);
                        for &key in &seen {
                            let e = h
                                .entry(tantivy::u64_to_i64(key))
                                .or_insert_with(|| (0, fresh(&sub_sources[i])));
                            e.0 += 1;
                            add_subs(doc, &subs[i], &mut e.1, &mut sub_seen);
                        }
                    }
                    (Open::Number(c, n), Part::NumHistogram(h)) => {
                        let AggKind::Histogram {
                            interval, offset, ..
                        } = aggs.0[i].kind
                        else {
                            continue;
                        };
                        // A doc counts once per bucket its values fall in.
                        let buckets = c.values_for_doc(doc).map(|raw| {
                            tantivy::f64_to_u64(histogram_key(value(*n, raw), interval, offset))
                        });
                        distinct(&mut seen, buckets);
                        for &key in &seen {
                            let e = h.entry(key).or_insert_with(|| (0, fresh(&sub_sources[i])));
                            e.0 += 1;
                            add_subs(doc, &subs[i], &mut e.1, &mut sub_seen);
                        }
                    }
                    (Open::Number(c, n), Part::Range(buckets, _)) => {
                        // A doc counts once in each range one of its values falls in.
                        for (r, bucket) in resolved[i].iter().zip(buckets.iter_mut()) {
                            if c.values_for_doc(doc).any(|raw| r.holds(value(*n, raw))) {
                                bucket.0 += 1;
                                add_subs(doc, &subs[i], &mut bucket.1, &mut sub_seen);
                            }
                        }
                    }
                    (Open::Number(c, n), Part::Metric(s)) => {
                        if single[i] {
                            if let Some(raw) = c.first(doc) {
                                s.add(value(*n, raw));
                            }
                            continue;
                        }
                        for raw in c.values_for_doc(doc) {
                            s.add(value(*n, raw));
                        }
                    }
                    _ => {}
                }
            }
        };
        weight.for_each_no_score(reader, &mut |docs: &[DocId]| {
            for &doc in docs {
                if alive.is_none_or(|a| a.is_alive(doc)) {
                    visit(doc);
                }
            }
        })?;
        for (run, part) in runs.iter_mut().zip(parts.iter_mut()) {
            if let Part::Histogram(h) = part {
                run.flush(h);
            }
        }
        for (i, col) in segment.iter().enumerate() {
            if let (Open::Keyword(c), Part::Distinct { terms, .. }) = (col, &mut parts[i]) {
                let used = ord_counts[i].iter().enumerate().filter(|(_, n)| **n > 0);
                c.dictionary().sorted_ords_to_term_cb(
                    used.map(|(ord, _)| ord as u64),
                    |bytes| {
                        terms.insert(bytes.to_vec());
                        Ok(())
                    },
                )?;
                continue;
            }
            if let (Open::Keyword(c), Part::Terms(_)) = (col, &parts[i]) {
                // Named in one sorted walk of the dictionary (a lookup per ordinal seeks a
                // block each time).
                let counts = &ord_counts[i];
                let used = counts.iter().enumerate().filter(|(_, n)| **n > 0);
                let mut counted = used.clone().map(|(ord, n)| (ord, *n));
                let map = &mut terms[i];
                let stats = &mut ord_stats[i];
                let sub = &sub_sources[i];
                c.dictionary().sorted_ords_to_term_cb(
                    used.map(|(ord, _)| ord as u64),
                    |bytes| {
                        let (ord, n) = counted.next().unwrap_or((0, 0));
                        let key = Key::Str(String::from_utf8_lossy(bytes).into_owned());
                        let e = map
                            .entry(bits(&key))
                            .or_insert_with(|| (key, 0, fresh(sub)));
                        e.1 += n;
                        if let Some(s) = stats.get(ord) {
                            for (into, from) in e.2.iter_mut().zip(s) {
                                into.merge(from);
                            }
                        }
                        Ok(())
                    },
                )?;
            }
        }
    }
    for (i, map) in terms.into_iter().enumerate() {
        if let Part::Terms(list) = &mut parts[i] {
            *list = map.into_values().collect();
        }
    }
    Ok(ShardAggs(parts, Vec::new()))
}

/// A range with its bounds read as numbers and its key (`from-to` in Java's doubles, `*` for
/// no bound, unless the request named it).
#[derive(Debug, Clone)]
pub(crate) struct ResolvedRange {
    pub key: String,
    pub from: Option<f64>,
    pub to: Option<f64>,
    /// The bounds are epoch millis, printed as dates.
    pub dates: bool,
}

impl ResolvedRange {
    fn holds(&self, v: f64) -> bool {
        self.from.is_none_or(|f| v >= f) && self.to.is_none_or(|t| v < t)
    }
}

/// The ranges as each shard reads them (Java's `Double.parseDouble` of each bound), sorted by
/// `from` then `to` as OpenSearch's range aggregator sorts them.
pub(crate) fn resolve_ranges(
    name: &str,
    ranges: &[super::request::RangeSpec],
    dates: Option<Option<&crate::index::date_format::DateFormat>>,
) -> Result<Vec<ResolvedRange>> {
    if ranges.is_empty() {
        return Err(Error::illegal_argument(format!(
            "No [ranges] specified for the [{name}] aggregation"
        )));
    }
    let number = |s: &Option<String>| -> Result<Option<f64>> {
        let Some(s) = s else { return Ok(None) };
        match s.trim().parse::<f64>() {
            Ok(v) => Ok(Some(v)),
            Err(_) if s.trim().is_empty() => Err(Error::new(
                crate::error::ErrorKind::NumberFormat,
                "empty String",
            )),
            Err(_) => Err(Error::new(
                crate::error::ErrorKind::NumberFormat,
                format!("For input string: \"{s}\""),
            )),
        }
    };
    // Dates: in the field's format (or date math), printed as `strict_date_optional_time`.
    let date = |s: &Option<String>, format| -> Result<Option<f64>> {
        let Some(s) = s else { return Ok(None) };
        let v = serde_json::Value::String(s.clone());
        Ok(Some(
            crate::query::values::date_millis_in(format, &v)? as f64
        ))
    };
    let text = |v: Option<f64>| match (v, dates.is_some()) {
        (None, _) => "*".to_string(),
        (Some(v), true) => crate::index::date_format::format_iso_millis(v as i64),
        (Some(v), false) => crate::query::function_score::java_double(v),
    };
    let mut out = ranges
        .iter()
        .map(|r| {
            let (from, to) = match dates {
                Some(format) => (date(&r.from, format)?, date(&r.to, format)?),
                None => (number(&r.from)?, number(&r.to)?),
            };
            Ok(ResolvedRange {
                key: r
                    .key
                    .clone()
                    .unwrap_or_else(|| format!("{}-{}", text(from), text(to))),
                from,
                to,
                dates: dates.is_some(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    out.sort_by(|a, b| {
        let lo = |r: &ResolvedRange| r.from.unwrap_or(f64::NEG_INFINITY);
        let hi = |r: &ResolvedRange| r.to.unwrap_or(f64::INFINITY);
        lo(a).total_cmp(&lo(b)).then(hi(a).total_cmp(&hi(b)))
    });
    Ok(out)
}

/// The key of a numeric histogram's bucket holding `v`, computed in doubles as OpenSearch's
/// `Math.floor((value - offset) / interval) * interval + offset`.
pub(crate) fn histogram_key(v: f64, interval: f64, offset: f64) -> f64 {
    ((v - offset) / interval).floor() * interval + offset
}

/// A histogram bucket being counted: `[lo, hi)` holds the values of bucket `lo`.
#[derive(Default)]
struct Run {
    lo: i64,
    hi: i64,
    count: u64,
}

impl Run {
    fn add(&mut self, ms: i64, interval: Interval, h: &mut BTreeMap<i64, (u64, Vec<Stats>)>) {
        if self.count == 0 || ms < self.lo || ms >= self.hi {
            self.flush(h);
            self.lo = round(ms, interval);
            self.hi = next(self.lo, interval);
        }
        self.count += 1;
    }

    fn flush(&mut self, h: &mut BTreeMap<i64, (u64, Vec<Stats>)>) {
        if self.count > 0 {
            h.entry(self.lo).or_insert_with(|| (0, Vec::new())).0 += self.count;
            self.count = 0;
        }
    }
}

/// `values`, sorted and each once, into `out`.
fn distinct(out: &mut Vec<u64>, values: impl Iterator<Item = u64>) {
    out.clear();
    out.extend(values);
    out.sort_unstable();
    out.dedup();
}

pub(crate) fn type_name(kind: &AggKind) -> &'static str {
    match kind {
        AggKind::Terms { .. } => "terms",
        AggKind::DateHistogram { .. } => "date_histogram",
        AggKind::Histogram { .. } => "histogram",
        AggKind::Range { dates: true, .. } => "date_range",
        AggKind::Range { .. } => "range",
        AggKind::Cardinality { .. } => "cardinality",
        AggKind::Missing { .. } => "missing",
        AggKind::Filter { .. } => "filter",
        AggKind::Filters { .. } => "filters",
        AggKind::Global => "global",
        AggKind::Metric { metric, .. } => metric.name(),
    }
}

enum Open {
    Absent,
    Keyword(StrColumn),
    Number(Column<u64>, NumType),
}

fn open(reader: &SegmentReader, field: &str, s: &Source) -> Result<Open> {
    Ok(match s {
        Source::Unmapped => Open::Absent,
        Source::Keyword => match open_columns::keyword(reader, field)? {
            Some(c) => Open::Keyword(c),
            None => Open::Absent,
        },
        Source::Number(n) => match open_columns::numeric(reader, field, &[column_type(*n)])? {
            Some((c, _)) => Open::Number(c, *n),
            None => Open::Absent,
        },
    })
}

/// A hashable identity of a key (doubles by their bits).
#[derive(Hash, PartialEq, Eq)]
pub(crate) enum KeyBits {
    Str(String),
    Num(u8, u64),
}

pub(crate) fn bits(k: &Key) -> KeyBits {
    match k {
        Key::Str(s) => KeyBits::Str(s.clone()),
        Key::Long(v) => KeyBits::Num(0, *v as u64),
        Key::Unsigned(v) => KeyBits::Num(1, *v),
        Key::Double(v) => KeyBits::Num(2, v.to_bits()),
        Key::Bool(v) => KeyBits::Num(3, u64::from(*v)),
        Key::Date(v) => KeyBits::Num(4, *v as u64),
    }
}

/// The start of the bucket holding `ms`, in UTC.
pub(crate) fn round(ms: i64, interval: Interval) -> i64 {
    use chrono::{Datelike, NaiveDate, TimeZone, Utc};
    const MIN: i64 = 60_000;
    const HOUR: i64 = 3_600_000;
    const DAY: i64 = 86_400_000;
    let floor = |unit: i64| ms.div_euclid(unit) * unit;
    match interval {
        Interval::Minute => floor(MIN),
        Interval::Hour => floor(HOUR),
        Interval::Day => floor(DAY),
        Interval::Fixed(unit) => floor(unit),
        // Weeks start on Monday; 1970-01-01 was a Thursday.
        Interval::Week => (ms - 4 * DAY).div_euclid(7 * DAY) * 7 * DAY + 4 * DAY,
        Interval::Month | Interval::Quarter | Interval::Year => {
            let Some(dt) = Utc.timestamp_millis_opt(ms).single() else {
                return ms;
            };
            let month = match interval {
                Interval::Month => dt.month(),
                Interval::Quarter => (dt.month() - 1) / 3 * 3 + 1,
                _ => 1,
            };
            NaiveDate::from_ymd_opt(dt.year(), month, 1)
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map_or(ms, |d| d.and_utc().timestamp_millis())
        }
    }
}

/// The start of the bucket after the one starting at `key`.
pub(crate) fn next(key: i64, interval: Interval) -> i64 {
    use chrono::{Months, TimeZone, Utc};
    const DAY: i64 = 86_400_000;
    let months = |n: u32| {
        Utc.timestamp_millis_opt(key)
            .single()
            .and_then(|d| d.checked_add_months(Months::new(n)))
            .map_or(i64::MAX, |d| d.timestamp_millis())
    };
    match interval {
        Interval::Minute => key + 60_000,
        Interval::Hour => key + 3_600_000,
        Interval::Day => key + DAY,
        Interval::Week => key + 7 * DAY,
        Interval::Fixed(unit) => key + unit,
        Interval::Month => months(1),
        Interval::Quarter => months(3),
        Interval::Year => months(12),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_calendar_units_in_utc() {
        // 2001-01-03T10:47:00Z, a Wednesday.
        let t = 978_518_820_000;
        assert_eq!(round(t, Interval::Day), 978_480_000_000);
        assert_eq!(round(t, Interval::Week), 978_307_200_000);
        assert_eq!(round(t, Interval::Month), 978_307_200_000);
        assert_eq!(round(t, Interval::Year), 978_307_200_000);
        assert_eq!(next(978_307_200_000, Interval::Month), 980_985_600_000);
        assert_eq!(round(-1, Interval::Day), -86_400_000);
    }

    #[test]
    fn sums_as_compensated() {
        let mut s = Stats::new(false, false);
        for _ in 0..10 {
            s.add(0.1);
        }
        // A plain sum gives 0.9999999999999999.
        assert_eq!(s.sum, 1.0);
        assert_eq!((s.count, s.min, s.max), (10, 0.1, 0.1));
    }

    #[test]
    fn interleaves_the_two_scopes_in_the_request_order() {
        let single = |n| Part::Single(n, Vec::new(), false);
        let found = |id: &str| {
            let mut m = FxHashMap::default();
            m.insert(id.to_string(), ShardAggs::default());
            m
        };
        // The query's scope kept no nested results past its first aggregation.
        let query = ShardAggs(vec![single(1), single(2)], vec![found("q")]);
        let global = ShardAggs(vec![single(10), single(20)], Vec::new());
        let out = ShardAggs::interleave(&[true, false, false, true], query, global);
        let counts: Vec<u64> = out
            .0
            .iter()
            .map(|p| match p {
                Part::Single(n, ..) => *n,
                _ => 0,
            })
            .collect();
        assert_eq!(counts, [10, 1, 2, 20]);
        assert_eq!(out.1.len(), 4);
        assert!(out.1[1].contains_key("q"));
        assert!(out.1[0].is_empty() && out.1[2].is_empty() && out.1[3].is_empty());
    }
}
