//! Per-shard top-k: one pass over a shard's matches that counts them, keeps the best
//! `from + size` in a bounded heap and drops what `search_after` puts before the page.
//!
//! Hits are ordered by keys built per segment: one `u128` per sort level (a class for "missing
//! first", "present", "missing last" above a 96-bit payload that is the value's
//! order-preserving `u64`, inverted for descending order, or a keyword's term ordinal), then the
//! `_seq_no` (indexing order, the tie-break Quarry uses where Lucene uses doc ids). Comparing
//! keys compares hits exactly as `sort::compare` compares their sort values, so a doc is judged
//! by one column read while it cannot enter the heap. Numeric, date, `_score` and `_doc` keys
//! compare across segments and shards as they are; keyword ordinals are per segment, so two
//! kept hits of different segments that tie up to a keyword level read their strings then, and
//! only then (a deep page keeps thousands of hits per segment and prints ten).

use super::sort::{compare, Missing, Mode, SortField, SortSpec, SortValue};
use super::Candidate;
use crate::error::{Error, ErrorKind, Result};
use crate::index::date_format::DateFormat;
use crate::index::mapping::{FieldType, Mapping};
use crate::index::schema;
use serde_json::Value;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::sync::Arc;
use tantivy::columnar::{Column, ColumnType, ColumnValues, StrColumn, TermOrdHit};
use tantivy::query::Weight;
use tantivy::{DateTime, DocAddress, DocId, SegmentReader};

const PRESENT: u128 = 1 << 96;
const MISSING_LAST: u128 = 2 << 96;
const MISSING_FIRST: u128 = 0;
const PAYLOAD: u128 = (1 << 96) - 1;

fn present(raw: u128, ascending: bool) -> u128 {
    PRESENT | if ascending { raw } else { PAYLOAD - raw }
}

/// An f32 as a u32 ordered as `f32::total_cmp` orders floats.
fn score_bits(s: f32) -> u32 {
    let b = s.to_bits();
    if b & 0x8000_0000 != 0 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// The threshold a pruning weight gets from the worst kept hit's (boosted) score: docs scoring
/// above it, the bar's own score included (a tie may still win on `_seq_no`), are reported.
fn raw_threshold(bar: f32, boost: f32) -> f32 {
    if boost == 1.0 {
        return bar.next_down();
    }
    // Division rounds: leave a margin far wider than one ulp.
    ((bar / boost) as f64 * (1.0 - 1e-6)) as f32
}

/// What a search asks of a shard's pass.
pub(super) struct Plan<'a> {
    /// The order: the request's sort, or `_score` descending.
    pub specs: &'a [SortSpec],
    pub window: usize,
    pub after: Option<&'a [Value]>,
    /// The shard's `indices_boost`, applied to every score.
    pub boost: f32,
    pub track_max_score: bool,
    pub mapping: &'a Mapping,
    /// The weight prunes (`query::block_max::prunable`). Ordered by score alone, its matches
    /// are then counted apart (`Weight::count`, which skips scoring) and the scoring pass is
    /// asked only for docs that can still enter the top `window`.
    pub prune: bool,
    /// How far to count: `None` not at all, else segment by segment until the count passes
    /// it (it then only says "more than").
    pub count_up_to: Option<u64>,
    /// The query is `match_all` alone (no filter, `min_score`, `terminate_after` or `timeout`
    /// around it): every alive doc matches, scoring the same.
    pub match_all: bool,
}

pub(super) struct ShardTop {
    pub(super) candidates: Vec<Candidate>,
    pub count: u64,
    pub max_score: Option<f32>,
}

/// The typed column a field sorts on, and how a doc's values become one.
#[derive(Clone, Copy)]
enum NumType {
    I64,
    U64,
    F64,
    Bool,
    Date,
}

enum Source {
    Score,
    Doc,
    Num {
        col: Column<u64>,
        ty: NumType,
        mode: Mode,
        multi: bool,
    },
    Str {
        col: StrColumn,
        max: bool,
        multi: bool,
    },
    /// The segment has no values for the field.
    Absent,
}

/// Which keys of a level compare across segments as they are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Domain {
    Score,
    Doc,
    Num(u8),
    /// Missing everywhere: only the class and a `missing` value's key occur.
    Missing,
    /// Keyword ordinals: one segment's own.
    Local,
}

/// One sort level on one segment.
struct KeyReader {
    source: Source,
    domain: Domain,
    ascending: bool,
    missing_key: u128,
    /// The sort value printed for a doc without one (`missing` given as a value).
    missing_value: SortValue,
}

/// The field-level facts of one sort level, resolved once per shard.
struct Level<'a> {
    spec: &'a SortSpec,
    kind: LevelKind,
}

enum LevelKind {
    Score,
    Doc,
    Num(NumType, Option<DateFormat>),
    Str,
    /// Sorts as missing everywhere (ip: no column to sort on yet).
    Absent,
}

fn num_type(ty: FieldType) -> Option<NumType> {
    use FieldType::*;
    Some(match ty {
        Long | Integer | Short | Byte => NumType::I64,
        UnsignedLong => NumType::U64,
        Double | Float | HalfFloat | ScaledFloat => NumType::F64,
        Boolean => NumType::Bool,
        Date => NumType::Date,
        _ => return None,
    })
}

fn column_type(t: NumType) -> ColumnType {
    match t {
        NumType::I64 => ColumnType::I64,
        NumType::U64 => ColumnType::U64,
        NumType::F64 => ColumnType::F64,
        NumType::Bool => ColumnType::Bool,
        NumType::Date => ColumnType::DateTime,
    }
}

/// Whether the sort builds on a mapping (the `can_match` phase asks before any collection).
pub(crate) fn check_sort(specs: &[SortSpec], mapping: &Mapping) -> Result<()> {
    levels(specs, mapping).map(|_| ())
}

fn levels<'a>(specs: &'a [SortSpec], mapping: &Mapping) -> Result<Vec<Level<'a>>> {
    specs
        .iter()
        .map(|spec| {
            let kind = match &spec.field {
                SortField::Score => LevelKind::Score,
                SortField::Doc => LevelKind::Doc,
                SortField::Field(f) => {
                    let fm = mapping.field(f).ok_or_else(|| {
                        Error::new(
                            ErrorKind::QueryShard,
                            format!("No mapping found for [{f}] in order to sort on"),
                        )
                    })?;
                    if fm.ty == FieldType::Text {
                        return Err(Error::illegal_argument(format!(
                            "Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [{f}] in order to load field data by uninverting the inverted index. Note that this can use significant memory."
                        )));
                    }
                    let numeric = num_type(fm.ty);
                    if numeric.is_none()
                        && matches!(spec.mode, Some(Mode::Sum | Mode::Avg | Mode::Median))
                    {
                        return Err(Error::new(
                            ErrorKind::QueryShard,
                            "we only support AVG, MEDIAN and SUM on number based fields",
                        ));
                    }
                    match (numeric, fm.ty) {
                        (Some(t), _) => LevelKind::Num(
                            t,
                            (fm.ty == FieldType::Date).then(|| {
                                fm.date_format
                                    .clone()
                                    .unwrap_or_else(DateFormat::default_format)
                            }),
                        ),
                        (None, FieldType::Keyword) => LevelKind::Str,
                        _ => LevelKind::Absent,
                    }
                }
            };
            Ok(Level { spec, kind })
        })
        .collect()
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn number_format(text: &str) -> Error {
    Error::new(
        ErrorKind::NumberFormat,
        format!("For input string: \"{text}\""),
    )
}

/// A request value (`missing`, `search_after`) as a raw column value of the level's type.
fn parse_raw(v: &Value, ty: NumType, date: Option<&DateFormat>) -> Result<u64> {
    let text = text_of(v);
    let t = text.trim();
    Ok(match ty {
        NumType::I64 => tantivy::i64_to_u64(match v {
            Value::Bool(b) => *b as i64,
            _ => t
                .parse::<i64>()
                .or_else(|_| t.parse::<f64>().map(|f| f as i64))
                .map_err(|_| number_format(&text))?,
        }),
        NumType::U64 => t.parse::<u64>().map_err(|_| number_format(&text))?,
        NumType::F64 => tantivy::f64_to_u64(t.parse::<f64>().map_err(|_| number_format(&text))?),
        NumType::Bool => match v {
            Value::Bool(b) => *b as u64,
            _ => match t {
                "true" => 1,
                "false" => 0,
                _ => (t.parse::<f64>().map_err(|_| number_format(&text))? != 0.0) as u64,
            },
        },
        NumType::Date => {
            let fmt = date.cloned().unwrap_or_else(DateFormat::default_format);
            let ms = fmt.parse_millis(t).map_err(|e| {
                let reason = format!(
                    "failed to parse date field [{text}] with format [{}]",
                    fmt.source
                );
                Error::new(ErrorKind::Parse, format!("{reason}: [{reason}]")).caused_by(e)
            })?;
            tantivy::i64_to_u64(ms.saturating_mul(1_000_000))
        }
    })
}

fn decode(raw: u64, ty: NumType) -> SortValue {
    match ty {
        NumType::I64 => SortValue::I64(tantivy::u64_to_i64(raw)),
        NumType::U64 => SortValue::U64(raw),
        NumType::F64 => SortValue::F64(tantivy::u64_to_f64(raw)),
        NumType::Bool => SortValue::I64(raw as i64),
        NumType::Date => SortValue::I64(
            DateTime::from_timestamp_nanos(tantivy::u64_to_i64(raw)).into_timestamp_millis(),
        ),
    }
}

/// Java's `Math.round`: half up.
fn round_half_up(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// A doc's values reduced by `sum`, `avg` or `median` as OpenSearch's `MultiValueMode` does
/// (integers averaged and halved with rounding half up, doubles over their sorted values).
fn reduce_typed(values: &mut [u64], ty: NumType, mode: Mode) -> u64 {
    let n = values.len();
    match ty {
        NumType::F64 => {
            let mut v: Vec<f64> = values.iter().map(|&r| tantivy::u64_to_f64(r)).collect();
            v.sort_by(f64::total_cmp);
            let sum = || v.iter().sum::<f64>();
            tantivy::f64_to_u64(match mode {
                Mode::Sum => sum(),
                Mode::Avg => sum() / n as f64,
                _ if n % 2 == 1 => v[n / 2],
                _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
            })
        }
        NumType::U64 => {
            values.sort_unstable();
            let sum = || values.iter().fold(0u64, |a, &b| a.wrapping_add(b));
            match mode {
                Mode::Sum => sum(),
                Mode::Avg => round_half_up(sum() as f64 / n as f64) as u64,
                _ if n % 2 == 1 => values[n / 2],
                _ => round_half_up((values[n / 2 - 1] as f64 + values[n / 2] as f64) / 2.0) as u64,
            }
        }
        NumType::I64 | NumType::Bool | NumType::Date => {
            // Dates reduce as OpenSearch's longs: their milliseconds.
            let scale = if matches!(ty, NumType::Date) {
                1_000_000
            } else {
                1
            };
            let mut v: Vec<i64> = values
                .iter()
                .map(|&r| tantivy::u64_to_i64(r).div_euclid(scale))
                .collect();
            v.sort_unstable();
            let sum = || v.iter().fold(0i64, |a, &b| a.wrapping_add(b));
            let out = match mode {
                Mode::Sum => sum(),
                Mode::Avg => round_half_up(sum() as f64 / n as f64),
                _ if n % 2 == 1 => v[n / 2],
                _ => round_half_up((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
            };
            tantivy::i64_to_u64(out.wrapping_mul(scale))
        }
    }
}

impl KeyReader {
    fn new(level: &Level, reader: &SegmentReader) -> Result<KeyReader> {
        let spec = level.spec;
        let field = match &spec.field {
            SortField::Field(f) => f.as_str(),
            _ => "",
        };
        let ff = reader.fast_fields();
        let multi = |c: &Column<u64>| c.get_cardinality().is_multivalue();
        let source = match &level.kind {
            LevelKind::Score => Source::Score,
            LevelKind::Doc => Source::Doc,
            LevelKind::Num(ty, _) => {
                match ff.u64_lenient_for_type(Some(&[column_type(*ty)]), field)? {
                    Some((col, _)) => Source::Num {
                        multi: multi(&col),
                        col,
                        ty: *ty,
                        mode: spec.effective_mode(),
                    },
                    None => Source::Absent,
                }
            }
            LevelKind::Str => match ff.str(field)? {
                Some(col) => Source::Str {
                    multi: col.ords().get_cardinality().is_multivalue(),
                    col,
                    max: spec.effective_mode() == Mode::Max,
                },
                None => Source::Absent,
            },
            LevelKind::Absent => Source::Absent,
        };
        let domain = match &level.kind {
            LevelKind::Score => Domain::Score,
            LevelKind::Doc => Domain::Doc,
            LevelKind::Num(ty, _) => Domain::Num(*ty as u8),
            LevelKind::Str => Domain::Local,
            LevelKind::Absent => Domain::Missing,
        };
        let (missing_key, missing_value) = match &spec.missing {
            Missing::First => (MISSING_FIRST, SortValue::Missing),
            Missing::Last => (MISSING_LAST, SortValue::Missing),
            Missing::Value(v) => match &level.kind {
                LevelKind::Num(ty, date) => {
                    let raw = parse_raw(v, *ty, date.as_ref())?;
                    (present(raw as u128, spec.ascending), decode(raw, *ty))
                }
                LevelKind::Str => {
                    let s = text_of(v);
                    let key = match &source {
                        Source::Str { col, .. } => present(str_bound(col, &s)?, spec.ascending),
                        // No values here: every doc takes the missing value.
                        _ => PRESENT,
                    };
                    (key, SortValue::Str(s))
                }
                _ => (MISSING_LAST, SortValue::Missing),
            },
        };
        Ok(KeyReader {
            source,
            domain,
            ascending: spec.ascending,
            missing_key,
            missing_value,
        })
    }

    /// The raw value of a doc (`None`: it has none).
    #[inline]
    fn raw(&self, doc: DocId) -> Option<u64> {
        match &self.source {
            Source::Num {
                col,
                ty,
                mode,
                multi,
            } => {
                if !multi {
                    return col.first(doc);
                }
                match mode {
                    Mode::Min => col.values_for_doc(doc).min(),
                    Mode::Max => col.values_for_doc(doc).max(),
                    _ => {
                        let mut v: Vec<u64> = col.values_for_doc(doc).collect();
                        (!v.is_empty()).then(|| reduce_typed(&mut v, *ty, *mode))
                    }
                }
            }
            Source::Str { col, max, multi } => {
                let ords = col.ords();
                if !multi {
                    ords.first(doc)
                } else if *max {
                    ords.values_for_doc(doc).max()
                } else {
                    ords.values_for_doc(doc).min()
                }
            }
            _ => None,
        }
    }

    #[inline]
    fn key(&self, doc: DocId, score: f32) -> u128 {
        match &self.source {
            Source::Score => present(score_bits(score) as u128, self.ascending),
            Source::Doc => present(doc as u128, self.ascending),
            Source::Str { .. } => match self.raw(doc) {
                Some(ord) => present(2 * ord as u128 + 1, self.ascending),
                None => self.missing_key,
            },
            Source::Num { .. } => match self.raw(doc) {
                Some(raw) => present(raw as u128, self.ascending),
                None => self.missing_key,
            },
            Source::Absent => self.missing_key,
        }
    }

    /// The sort value a hit prints (and is merged across segments and shards with).
    fn value(&self, doc: DocId, score: f32) -> Result<SortValue> {
        Ok(match &self.source {
            Source::Score => SortValue::F64(score as f64),
            Source::Doc => SortValue::I64(doc as i64),
            Source::Num { ty, .. } => match self.raw(doc) {
                Some(raw) => decode(raw, *ty),
                None => self.missing_value.clone(),
            },
            Source::Str { col, .. } => match self.raw(doc) {
                Some(ord) => {
                    let mut s = String::new();
                    if col.ord_to_str(ord, &mut s)? {
                        SortValue::Str(s)
                    } else {
                        SortValue::Missing
                    }
                }
                None => self.missing_value.clone(),
            },
            Source::Absent => self.missing_value.clone(),
        })
    }

    /// The key of a `search_after` value on this segment.
    fn after_key(&self, level: &Level, v: &Value) -> Result<u128> {
        if v.is_null() {
            return Ok(self.missing_key);
        }
        Ok(match (&level.kind, &self.source) {
            (LevelKind::Score, _) => present(
                score_bits(v.as_f64().unwrap_or(0.0) as f32) as u128,
                self.ascending,
            ),
            (LevelKind::Doc, _) => present(
                v.as_i64().unwrap_or(0).clamp(0, u32::MAX as i64) as u128,
                self.ascending,
            ),
            (LevelKind::Num(ty, date), _) => {
                present(parse_raw(v, *ty, date.as_ref())? as u128, self.ascending)
            }
            (LevelKind::Str, Source::Str { col, .. }) => {
                present(str_bound(col, &text_of(v))?, self.ascending)
            }
            // No values on this segment: only missing keys occur, so any present key works.
            _ => PRESENT,
        })
    }
}

/// Where a string falls among a segment's keyword ordinals, on the `2·ord + 1` scale of present
/// values: on a term, or just before the first term above it.
fn str_bound(col: &StrColumn, s: &str) -> Result<u128> {
    Ok(match col.dictionary().term_ord_or_next(s.as_bytes())? {
        TermOrdHit::Exact(o) => 2 * o as u128 + 1,
        TermOrdHit::Next(o) => 2 * (o as u128).min(col.dictionary().num_terms() as u128),
    })
}

/// A kept hit's order keys, with what reads its sort values when they are needed.
pub(super) struct HitKeys {
    k0: u128,
    rest: Box<[u128]>,
    segment: Arc<Vec<KeyReader>>,
    doc: DocId,
    score: f32,
    values: OnceCell<Vec<SortValue>>,
}

impl HitKeys {
    fn key(&self, i: usize) -> u128 {
        if i == 0 {
            self.k0
        } else {
            self.rest[i - 1]
        }
    }

    /// Compares level `i` of two hits as `sort::compare` compares their values.
    pub(super) fn cmp_level(&self, other: &HitKeys, i: usize, spec: &SortSpec) -> Ordering {
        let (a, b) = (&self.segment[i], &other.segment[i]);
        if Arc::ptr_eq(&self.segment, &other.segment)
            || (a.domain == b.domain && a.domain != Domain::Local)
        {
            return self.key(i).cmp(&other.key(i));
        }
        compare(&self.values()[i], &other.values()[i], spec)
    }

    /// The hit's sort values, read from the columns on first use.
    pub(super) fn values(&self) -> &[SortValue] {
        self.values.get_or_init(|| {
            self.segment
                .iter()
                .map(|r| r.value(self.doc, self.score).unwrap_or(SortValue::Missing))
                .collect()
        })
    }
}

/// Drops the candidates that cannot be among the first `window`, judged by the leading sort
/// levels whose keys compare across all their segments: past that cut, keyword levels read
/// strings only for hits that tie at the boundary.
pub(super) fn cut(candidates: &mut Vec<Candidate>, window: usize, levels: usize) {
    if window == 0 || candidates.len() <= window {
        return;
    }
    let first = &candidates[0].sort.segment;
    let global = (0..levels)
        .take_while(|&i| {
            let d = first[i].domain;
            d != Domain::Local && candidates.iter().all(|c| c.sort.segment[i].domain == d)
        })
        .count();
    if global == 0 {
        return;
    }
    let prefix = |a: &HitKeys, b: &HitKeys| {
        (0..global)
            .map(|i| a.key(i).cmp(&b.key(i)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    let (_, nth, _) =
        candidates.select_nth_unstable_by(window - 1, |a, b| prefix(&a.sort, &b.sort));
    let bound = HitKeys {
        k0: nth.sort.k0,
        rest: nth.sort.rest.clone(),
        segment: nth.sort.segment.clone(),
        doc: nth.sort.doc,
        score: nth.sort.score,
        values: OnceCell::new(),
    };
    candidates.retain(|c| prefix(&c.sort, &bound).is_le());
}

/// A kept hit: its first key inline (most sorts have one level), the others boxed.
struct Entry {
    k0: u128,
    rest: Box<[u128]>,
    seq: i64,
    doc: DocId,
    score: f32,
}

impl Entry {
    fn cmp_key(&self, other: &Entry) -> Ordering {
        self.k0
            .cmp(&other.k0)
            .then_with(|| self.rest.cmp(&other.rest))
            .then(self.seq.cmp(&other.seq))
    }
}

/// Keeps the best `window` entries: a buffer of twice that, cut back to the best `window`
/// whenever it fills, whose worst entry is then the bar a new hit must beat (amortized O(1) a
/// hit, as tantivy's `TopNComputer`).
struct TopN {
    window: usize,
    buf: Vec<Entry>,
    bar: Option<Entry>,
}

impl TopN {
    fn new(window: usize) -> TopN {
        TopN {
            window,
            buf: Vec::new(),
            bar: None,
        }
    }

    fn push(&mut self, e: Entry) {
        if self.buf.len() >= 2 * self.window {
            self.truncate();
        }
        self.buf.push(e);
    }

    fn truncate(&mut self) {
        if self.buf.len() <= self.window {
            return;
        }
        let (_, nth, _) = self
            .buf
            .select_nth_unstable_by(self.window - 1, |a, b| a.cmp_key(b));
        self.bar = Some(Entry {
            k0: nth.k0,
            rest: nth.rest.clone(),
            seq: nth.seq,
            doc: nth.doc,
            score: nth.score,
        });
        self.buf.truncate(self.window);
    }

    fn into_entries(mut self) -> Vec<Entry> {
        self.truncate();
        self.buf
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Cut {
    Undecided,
    Passed,
}

/// Runs the plan over every segment of a shard with the query's weight.
pub(super) fn collect(
    plan: &Plan,
    searcher: &tantivy::Searcher,
    weight: &dyn Weight,
    shard: usize,
) -> Result<ShardTop> {
    let levels = levels(plan.specs, plan.mapping)?;
    let mut out = ShardTop {
        candidates: Vec::new(),
        count: 0,
        max_score: None,
    };
    let mut max_score = f32::NEG_INFINITY;
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        let readers = Arc::new(
            levels
                .iter()
                .map(|l| KeyReader::new(l, reader))
                .collect::<Result<Vec<_>>>()?,
        );
        let after: Option<Vec<u128>> = match plan.after {
            Some(values) => Some(
                levels
                    .iter()
                    .zip(readers.iter())
                    .zip(values)
                    .map(|((l, r), v)| r.after_key(l, v))
                    .collect::<Result<_>>()?,
            ),
            None => None,
        };
        let seq: Option<Arc<dyn ColumnValues<i64>>> = reader
            .fast_fields()
            .i64(schema::SEQ_NO)
            .ok()
            .map(|c| c.first_or_default_col(0));
        let seq_of = |doc: DocId| seq.as_ref().map_or(doc as i64, |c| c.get_val(doc));
        let alive = reader.alive_bitset();
        let window = plan.window;
        let mut top = TopN::new(window);
        let mut scratch: Vec<u128> = Vec::with_capacity(readers.len());
        let mut count = 0u64;
        let mut seg_max = f32::NEG_INFINITY;
        // Pruning needs the order to be the score alone, descending, and scores it can bound.
        let prune = plan.prune
            && window > 0
            && plan.after.is_none()
            && plan.boost > 0.0
            && matches!(plan.specs, [s] if s.field == SortField::Score && !s.ascending);
        if prune {
            if let Some(up_to) = plan.count_up_to {
                if out.count <= up_to {
                    out.count += weight.count(reader)? as u64;
                }
            }
        }
        // `match_all` sorted on one single-valued number, missing values last: the column is
        // scanned for the values that can still enter the page (Lucene skips with the points
        // instead); the count is the segment's alive docs.
        let scan = match (
            &readers[..],
            plan.match_all && window > 0 && plan.after.is_none(),
        ) {
            ([r], true) if !plan.track_max_score && r.missing_key == MISSING_LAST => {
                match &r.source {
                    Source::Num {
                        col, multi: false, ..
                    } => Some((col.clone(), r.ascending)),
                    _ => None,
                }
            }
            _ => None,
        };
        if scan.is_some() {
            out.count += reader.num_docs() as u64;
        }
        let scanning = scan.is_some();
        let counted_apart = prune || scanning;
        // The worst kept hit's key, for the column scan.
        let bar_key: std::cell::Cell<Option<u128>> = std::cell::Cell::new(None);
        let mut on_doc = |doc: DocId, score: f32| -> f32 {
            'visit: {
                if let Some(a) = alive {
                    if !a.is_alive(doc) {
                        break 'visit;
                    }
                }
                if !counted_apart {
                    count += 1;
                }
                let score = score * plan.boost;
                if score > seg_max {
                    seg_max = score;
                }
                if window == 0 {
                    break 'visit;
                }
                let bar = top.bar.as_ref();
                let mut vs_after = if after.is_some() {
                    Cut::Undecided
                } else {
                    Cut::Passed
                };
                let mut vs_bar = if bar.is_some() {
                    Cut::Undecided
                } else {
                    Cut::Passed
                };
                scratch.clear();
                for (i, r) in readers.iter().enumerate() {
                    let k = r.key(doc, score);
                    scratch.push(k);
                    if vs_after == Cut::Undecided {
                        match k.cmp(&after.as_ref().expect("after")[i]) {
                            Ordering::Less => break 'visit,
                            Ordering::Greater => vs_after = Cut::Passed,
                            Ordering::Equal => {}
                        }
                    }
                    if vs_bar == Cut::Undecided {
                        let b = bar.expect("bar");
                        let bk = if i == 0 { b.k0 } else { b.rest[i - 1] };
                        match k.cmp(&bk) {
                            Ordering::Greater => break 'visit,
                            Ordering::Less => vs_bar = Cut::Passed,
                            Ordering::Equal => {}
                        }
                    }
                    if vs_after == Cut::Passed && vs_bar == Cut::Passed {
                        scratch.extend(readers[i + 1..].iter().map(|r| r.key(doc, score)));
                        break;
                    }
                }
                if vs_after == Cut::Undecided {
                    // Equal to the `search_after` values: that hit was on the previous page.
                    break 'visit;
                }
                let seq = seq_of(doc);
                if vs_bar == Cut::Undecided && seq >= bar.expect("bar").seq {
                    break 'visit;
                }
                top.push(Entry {
                    k0: scratch[0],
                    rest: scratch[1..].into(),
                    seq,
                    doc,
                    score,
                });
            }
            if scanning {
                bar_key.set(top.bar.as_ref().map(|b| b.k0));
            }
            match &top.bar {
                Some(bar) if prune => raw_threshold(bar.score, plan.boost),
                _ => f32::NEG_INFINITY,
            }
        };
        if let Some((col, ascending)) = scan {
            // The match_all score, as its scorer gives it.
            let score = weight.scorer(reader, 1.0)?.score();
            const CHUNK: u32 = 4096;
            let mut ids = Vec::with_capacity(CHUNK as usize);
            let mut start = 0;
            while start < reader.max_doc() {
                let end = (start + CHUNK).min(reader.max_doc());
                // The bar's raw value when it is a present one: only values at or beyond it
                // (ties may still win on `_seq_no`) can enter.
                match bar_key.get().filter(|k| k >> 96 == PRESENT >> 96) {
                    None => {
                        for doc in start..end {
                            on_doc(doc, score);
                        }
                    }
                    Some(k) => {
                        let payload = k & PAYLOAD;
                        let range = if ascending {
                            0..=payload as u64
                        } else {
                            (PAYLOAD - payload) as u64..=u64::MAX
                        };
                        ids.clear();
                        col.get_docids_for_value_range(range, start..end, &mut ids);
                        for &doc in &ids {
                            on_doc(doc, score);
                        }
                    }
                }
                start = end;
            }
        } else if prune {
            weight.for_each_pruning(f32::NEG_INFINITY, reader, &mut on_doc)?;
        } else {
            weight.for_each(reader, &mut |doc, score| {
                on_doc(doc, score);
            })?;
        }
        out.count += count;
        max_score = max_score.max(seg_max);
        for e in top.into_entries() {
            out.candidates.push(Candidate {
                score: e.score,
                seq: e.seq,
                shard,
                doc: DocAddress::new(ord as u32, e.doc),
                sort: HitKeys {
                    k0: e.k0,
                    rest: e.rest,
                    segment: readers.clone(),
                    doc: e.doc,
                    score: e.score,
                    values: OnceCell::new(),
                },
            });
        }
    }
    if plan.track_max_score && max_score > f32::NEG_INFINITY {
        out.max_score = Some(max_score);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_like_values() {
        let asc = |r: u64| present(r as u128, true);
        let desc = |r: u64| present(r as u128, false);
        assert!(MISSING_FIRST < asc(0) && asc(u64::MAX) < MISSING_LAST);
        assert!(MISSING_FIRST < desc(u64::MAX) && desc(0) < MISSING_LAST);
        assert!(desc(5) < desc(4));
        let i = |v: i64| tantivy::i64_to_u64(v);
        assert!(asc(i(-3)) < asc(i(2)));
        let f = |v: f64| tantivy::f64_to_u64(v);
        assert!(asc(f(-0.5)) < asc(f(0.25)));
        assert!(score_bits(-1.0) < score_bits(0.0) && score_bits(0.5) < score_bits(2.0));
    }

    #[test]
    fn modes_round_as_opensearch() {
        let enc = |v: &[i64]| {
            v.iter()
                .map(|&x| tantivy::i64_to_u64(x))
                .collect::<Vec<_>>()
        };
        let dec = |r: u64| tantivy::u64_to_i64(r);
        assert_eq!(
            dec(reduce_typed(&mut enc(&[1, 10]), NumType::I64, Mode::Avg)),
            6
        );
        assert_eq!(
            dec(reduce_typed(&mut enc(&[3, 4, 9]), NumType::I64, Mode::Avg)),
            5
        );
        assert_eq!(
            dec(reduce_typed(&mut enc(&[10, 1]), NumType::I64, Mode::Median)),
            6
        );
        assert_eq!(
            dec(reduce_typed(
                &mut enc(&[9, 3, 4]),
                NumType::I64,
                Mode::Median
            )),
            4
        );
        assert_eq!(
            dec(reduce_typed(&mut enc(&[5, 6]), NumType::I64, Mode::Sum)),
            11
        );
        let fenc = |v: &[f64]| {
            v.iter()
                .map(|&x| tantivy::f64_to_u64(x))
                .collect::<Vec<_>>()
        };
        let fdec = tantivy::u64_to_f64;
        assert_eq!(
            fdec(reduce_typed(
                &mut fenc(&[1.5, 2.5, 4.0]),
                NumType::F64,
                Mode::Avg
            )),
            8.0 / 3.0
        );
        assert_eq!(
            fdec(reduce_typed(
                &mut fenc(&[2.0, 1.0]),
                NumType::F64,
                Mode::Median
            )),
            1.5
        );
    }
}
