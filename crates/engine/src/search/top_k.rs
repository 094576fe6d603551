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

use super::open_columns;
use super::sort::{compare, Missing, Mode, SortField, SortSpec, SortValue};
use super::Candidate;
use super::{column_bounds, column_order, id_ords, term_strings};
use crate::error::{Error, ErrorKind, Result};
use crate::index::date_format::DateFormat;
use crate::index::mapping::{FieldType, Mapping};
use crate::index::schema;
use crate::query::block_max::{self, PruneNode};
use crate::util::segment_cache::SegmentCache;
use serde_json::Value;
use std::cell::OnceCell;
use std::cmp::Ordering;
use std::sync::Arc;
use tantivy::columnar::{Column, ColumnType, ColumnValues, StrColumn, TermOrdHit};
use tantivy::query::Weight;
use tantivy::{DateTime, DocAddress, DocId, SegmentReader};

const PRESENT: u128 = 1 << 96;
const MISSING_LAST: u128 = 2 << 96;
/// The column scan of a sorted query runs where at least 1 doc in this many matches.
const SCAN_MIN_DENSITY: u64 = 8;
/// A constant-score query's matches are gathered for a walk in value order up to this many per
/// segment; past it, gathering them costs more than the column scan's skipping runs.
const WALK_MAX_MATCHES: u64 = 1 << 16;
const MISSING_FIRST: u128 = 0;
const PAYLOAD: u128 = (1 << 96) - 1;

fn present(raw: u128, ascending: bool) -> u128 {
    PRESENT | if ascending { raw } else { PAYLOAD - raw }
}

/// The column value a present key was built from.
fn raw_of(key: u128, ascending: bool) -> u64 {
    let payload = key & PAYLOAD;
    (if ascending {
        payload
    } else {
        PAYLOAD - payload
    }) as u64
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
    /// A scroll's place on this shard: only hits after it, ties on every level included.
    pub cursor: Option<&'a Cursor>,
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
    /// The query scores every match the same (`query::constant::is_constant`); the pass checks
    /// that the weight's scorers are [`ConstantScorer`]s before relying on it.
    pub constant: bool,
    /// Terms each of whose docs matches the query (`block_max::implied_terms`): where one
    /// term's doc freq alone takes a pruned pass's count past `count_up_to`, that floor is the
    /// count ("more than"), and the matches are not counted one by one.
    pub implied: &'a [tantivy::Term],
    /// The weight's pruning tree (`block_max::weight_and_node`), when it has one: its walk
    /// starts from [`PruneNode::prime`]'s threshold, and it gives the count floors of
    /// `implied` from the term entries its weights looked up.
    pub node: Option<&'a PruneNode>,
}

/// Where a scroll's pages have reached on a shard: the sort values and `_seq_no` of the last
/// hit returned from it. The next page is the hits after it in the shard's order, as
/// OpenSearch's scroll resumes each shard after its last emitted doc, so a page costs what a
/// first page costs rather than everything before it.
#[derive(Debug, Clone)]
pub(crate) struct Cursor {
    values: Vec<SortValue>,
    seq: i64,
}

impl Cursor {
    pub(super) fn of(c: &Candidate) -> Cursor {
        Cursor {
            values: c.sort.values().to_vec(),
            seq: c.seq,
        }
    }
}

pub(super) struct ShardTop {
    pub(super) candidates: Vec<Candidate>,
    pub count: u64,
    pub max_score: Option<f32>,
}

/// The typed column a field sorts (or aggregates) on, and how a doc's values become one.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum NumType {
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
    /// `_id`, uninverted (`id_ords`): ordinals local to the segment, as a keyword column's.
    Id(Arc<id_ords::IdOrds>),
    Str {
        col: StrColumn,
        max: bool,
        multi: bool,
        segment: tantivy::index::SegmentId,
        field: String,
        /// The dictionary decoded whole, once a value is printed (`term_strings`).
        strings: std::sync::OnceLock<Option<Arc<term_strings::TermStrings>>>,
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
    /// `_id`: its ids, as strings.
    Id,
    /// Sorts as missing everywhere (ip: no column to sort on yet).
    Absent,
}

pub(crate) fn num_type(ty: FieldType) -> Option<NumType> {
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

pub(crate) fn column_type(t: NumType) -> ColumnType {
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
                SortField::Field(f) if f == schema::ID => {
                    if matches!(spec.mode, Some(Mode::Sum | Mode::Avg | Mode::Median)) {
                        return Err(Error::new(
                            ErrorKind::QueryShard,
                            "we only support AVG, MEDIAN and SUM on number based fields",
                        ));
                    }
                    LevelKind::Id
                }
                SortField::Field(f) => {
                    // An unmapped field sorts as OpenSearch's anonymous field of `unmapped_type`:
                    // no column anywhere, so every doc misses it.
                    let unmapped;
                    let fm = match (mapping.field(f), spec.unmapped_type.as_deref()) {
                        (Some(fm), _) => fm,
                        (None, Some(t)) => {
                            let ty = FieldType::from_name(t).ok_or_else(|| {
                                Error::illegal_argument(format!("No mapper found for type [{t}]"))
                            })?;
                            unmapped = crate::index::mapping::FieldMapping::parse(
                                &format!("__anonymous_{t}"),
                                ty,
                                &Default::default(),
                            )?;
                            &unmapped
                        }
                        (None, None) => {
                            return Err(Error::new(
                                ErrorKind::QueryShard,
                                format!("No mapping found for [{f}] in order to sort on"),
                            ))
                        }
                    };
                    if fm.ty == FieldType::Text {
                        let name = match mapping.field(f) {
                            Some(_) => f.clone(),
                            None => "__anonymous_text".to_string(),
                        };
                        return Err(Error::text_fielddata(&name));
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
        let multi = |c: &Column<u64>| c.get_cardinality().is_multivalue();
        let source = match &level.kind {
            LevelKind::Score => Source::Score,
            LevelKind::Doc => Source::Doc,
            LevelKind::Num(ty, _) => {
                match open_columns::numeric(reader, field, &[column_type(*ty)])? {
                    Some((col, _)) => Source::Num {
                        multi: multi(&col),
                        col,
                        ty: *ty,
                        mode: spec.effective_mode(),
                    },
                    None => Source::Absent,
                }
            }
            LevelKind::Str => match open_columns::keyword(reader, field)? {
                Some(col) => Source::Str {
                    multi: col.ords().get_cardinality().is_multivalue(),
                    col,
                    max: spec.effective_mode() == Mode::Max,
                    segment: reader.segment_id(),
                    field: field.to_string(),
                    strings: std::sync::OnceLock::new(),
                },
                None => Source::Absent,
            },
            LevelKind::Id => Source::Id(id_ords::id_ords(reader)?),
            LevelKind::Absent => Source::Absent,
        };
        let domain = match &level.kind {
            LevelKind::Score => Domain::Score,
            LevelKind::Doc => Domain::Doc,
            LevelKind::Num(ty, _) => Domain::Num(*ty as u8),
            LevelKind::Str | LevelKind::Id => Domain::Local,
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
                LevelKind::Str | LevelKind::Id => {
                    let s = text_of(v);
                    let key = match &source {
                        Source::Str { .. } | Source::Id(_) => {
                            present(str_bound(&source, &s)?, spec.ascending)
                        }
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
            Source::Str {
                col, max, multi, ..
            } => {
                let ords = col.ords();
                if !multi {
                    ords.first(doc)
                } else if *max {
                    ords.values_for_doc(doc).max()
                } else {
                    ords.values_for_doc(doc).min()
                }
            }
            Source::Id(ids) => ids.ord(doc),
            _ => None,
        }
    }

    #[inline]
    fn key(&self, doc: DocId, score: f32) -> u128 {
        match &self.source {
            Source::Score => present(score_bits(score) as u128, self.ascending),
            Source::Doc => present(doc as u128, self.ascending),
            Source::Str { .. } | Source::Id(_) => match self.raw(doc) {
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
            Source::Str {
                col,
                segment,
                field,
                strings,
                ..
            } => match self.raw(doc) {
                Some(ord) => {
                    let decoded =
                        strings.get_or_init(|| term_strings::term_strings(*segment, field, col));
                    match term_strings::term_of(decoded.as_deref(), col, ord) {
                        Some(s) => SortValue::Str(s),
                        None => SortValue::Missing,
                    }
                }
                None => self.missing_value.clone(),
            },
            Source::Id(ids) => match self.raw(doc).and_then(|ord| ids.id(ord)) {
                Some(id) => SortValue::Str(id.to_string()),
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
            (LevelKind::Str, Source::Str { .. }) | (LevelKind::Id, Source::Id(_)) => {
                present(str_bound(&self.source, &text_of(v))?, self.ascending)
            }
            // No values on this segment: only missing keys occur, so any present key works.
            _ => PRESENT,
        })
    }
}

impl KeyReader {
    /// The key of a scroll cursor's value on this segment: the key of any doc printing it.
    fn cursor_key(&self, level: &Level, v: &SortValue) -> Result<u128> {
        Ok(match (v, &level.kind, &self.source) {
            (SortValue::Missing, _, _) => self.missing_key,
            (SortValue::F64(s), LevelKind::Score, _) => {
                present(score_bits(*s as f32) as u128, self.ascending)
            }
            (SortValue::I64(d), LevelKind::Doc, _) => present(*d as u128, self.ascending),
            (_, LevelKind::Num(ty, _), _) => present(encode(v, *ty) as u128, self.ascending),
            (SortValue::Str(s), LevelKind::Str, Source::Str { .. })
            | (SortValue::Str(s), LevelKind::Id, Source::Id(_)) => {
                present(str_bound(&self.source, s)?, self.ascending)
            }
            // No values on this segment: only missing keys occur, so any present key works.
            _ => PRESENT,
        })
    }
}

/// The column value `decode` printed as `v`.
fn encode(v: &SortValue, ty: NumType) -> u64 {
    match (v, ty) {
        (SortValue::I64(ms), NumType::Date) => tantivy::i64_to_u64(ms.saturating_mul(1_000_000)),
        (SortValue::I64(i), _) => tantivy::i64_to_u64(*i),
        (SortValue::U64(u), _) => *u,
        (SortValue::F64(f), _) => tantivy::f64_to_u64(*f),
        (SortValue::Missing | SortValue::Str(_), _) => 0,
    }
}

/// Where a string falls among a segment's keyword ordinals (`source`, a `Source::Str` or
/// `Source::Id`), on the `2·ord + 1` scale of present values: on a term, or just before the
/// first term above it.
fn str_bound(source: &Source, s: &str) -> Result<u128> {
    if let Source::Id(ids) = source {
        return Ok(ord_bound(ids.ord_or_next(s)));
    }
    let Source::Str {
        col,
        segment,
        field,
        strings,
        ..
    } = source
    else {
        return Ok(PRESENT);
    };
    let decoded = strings.get_or_init(|| term_strings::term_strings(*segment, field, col));
    Ok(ord_bound(term_strings::ord_or_next(
        decoded.as_deref(),
        col,
        s.as_bytes(),
    )?))
}

fn ord_bound(hit: TermOrdHit) -> u128 {
    match hit {
        TermOrdHit::Exact(o) => 2 * o as u128 + 1,
        TermOrdHit::Next(o) => 2 * o as u128,
    }
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
        if self.bar.is_none() && self.buf.len() == self.window {
            // The first `window` hits: the worst of them already bars the way (pruning and
            // column scans start here rather than at the first cut).
            let worst = self
                .buf
                .iter()
                .max_by(|a, b| a.cmp_key(b))
                .expect("a full buffer");
            self.bar = Some(Entry {
                k0: worst.k0,
                rest: worst.rest.clone(),
                seq: worst.seq,
                doc: worst.doc,
                score: worst.score,
            });
        }
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

/// Docs per `_seq_no` floor: one bitset word.
const RUN: u32 = 64;

/// At most this many floors cached (8 bytes each, one per 64 docs: 256 M docs).
static SEQ_FLOORS: SegmentCache<tantivy::index::SegmentId, Vec<i64>> = SegmentCache::new(4 << 20);

/// The smallest `_seq_no` of each run of [`RUN`] docs of a segment, deleted docs included.
/// Segments never change, so the floors are cached per segment (one `i64` per 64 docs).
fn seq_floors(reader: &SegmentReader, seq: Option<&Arc<dyn ColumnValues<i64>>>) -> Arc<Vec<i64>> {
    SEQ_FLOORS.get_or_build(reader.segment_id(), Vec::len, || {
        let max_doc = reader.max_doc();
        let mut floors = Vec::with_capacity(max_doc.div_ceil(RUN) as usize);
        let mut run = [0i64; RUN as usize];
        let mut start = 0;
        while start < max_doc {
            let n = RUN.min(max_doc - start) as usize;
            floors.push(match seq {
                Some(col) => {
                    col.get_range(start as u64, &mut run[..n]);
                    run[..n].iter().copied().min().unwrap_or(i64::MAX)
                }
                None => start as i64,
            });
            start += RUN;
        }
        floors
    })
}

/// The page of a query whose matches all score the same, by score: the matches with the
/// smallest `_seq_no` (ties on the score fall to it). Segments are visited from the one
/// holding the smallest `_seq_no`, and each match is judged by its run's floor (then its own
/// `_seq_no`) against the bar, the worst of the page kept so far: nothing is scored or keyed
/// unless it beats the bar, and only the runs whose floor beats the bar are read, in no
/// segment whose smallest `_seq_no` does not. While the count is still wanted a segment is
/// counted through the weight's count. `None` when the weight's scorer is not a
/// [`ConstantScorer`].
fn collect_constant(
    plan: &Plan,
    searcher: &tantivy::Searcher,
    weight: &dyn Weight,
    shard: usize,
    levels: &[Level],
) -> Result<Option<ShardTop>> {
    use crate::query::constant::ConstantScorer;
    use std::collections::BinaryHeap;
    use tantivy::{DocSet, TERMINATED};
    let window = plan.window;
    let readers = searcher.segment_readers();
    let mut segments: Vec<_> = readers
        .iter()
        .enumerate()
        .map(|(ord, r)| {
            let seq = open_columns::seq_no(r);
            let floors = seq_floors(r, seq.as_ref());
            let min = floors.iter().copied().min().unwrap_or(i64::MAX);
            (min, ord, seq, floors)
        })
        .collect();
    segments.sort_by_key(|s| (s.0, s.1));
    // The kept page: a max-heap on (`_seq_no`, segment, doc), touched only by docs that beat
    // its worst.
    let mut kept: BinaryHeap<(i64, u32, DocId)> = BinaryHeap::with_capacity(window + 1);
    let mut count = 0u64;
    let mut score = None::<f32>;
    let mut seen = false;
    let mut decided = false;
    for (min, ord, seq, floors) in segments {
        let reader = &readers[ord];
        let counting = plan.count_up_to.is_some_and(|up| count <= up);
        let bar = |kept: &BinaryHeap<(i64, u32, DocId)>| match kept.peek() {
            Some(&(s, ..)) if kept.len() >= window => s,
            _ => i64::MAX,
        };
        if decided && !counting && min >= bar(&kept) {
            continue;
        }
        let open = || -> Result<Option<Box<ConstantScorer>>> {
            Ok(weight
                .scorer(reader, 1.0)?
                .downcast::<ConstantScorer>()
                .ok())
        };
        // The first segment tells whether the weight's scorers are constant ones.
        let mut first = None;
        if !decided {
            match open()? {
                Some(d) => first = Some(d),
                None => return Ok(None),
            }
            decided = true;
        }
        if counting {
            // Through the weight's own count (column or postings shortcuts), apart from the
            // walk below, which skips what cannot enter the page.
            let n = weight.count(reader)? as u64;
            count += n;
            seen |= n > 0;
        }
        if min >= bar(&kept) {
            continue;
        }
        let mut docs = match first {
            Some(d) => d,
            None => {
                open()?.ok_or_else(|| Error::internal("a constant-score weight changed scorers"))?
            }
        };
        let s = docs.score_of_all() * plan.boost;
        score = Some(s);
        let alive = reader.alive_bitset();
        let seq_of = |doc: DocId| seq.as_ref().map_or(doc as i64, |c| c.get_val(doc));
        let offer = |kept: &mut BinaryHeap<(i64, u32, DocId)>, doc: DocId| {
            let q = seq_of(doc);
            if kept.len() < window {
                kept.push((q, ord as u32, doc));
            } else if q < bar(kept) {
                kept.pop();
                kept.push((q, ord as u32, doc));
            }
        };
        let mut threshold = bar(&kept);
        let mut run = 0usize;
        let mut doc = docs.doc();
        while run < floors.len() && doc != TERMINATED {
            if floors[run] >= threshold {
                run += 1;
                continue;
            }
            let (start, end) = (run as u32 * RUN, (run as u32 + 1) * RUN);
            if doc < start {
                doc = docs.seek(start);
            }
            while doc < end {
                if alive.is_none_or(|a| a.is_alive(doc)) {
                    seen = true;
                    offer(&mut kept, doc);
                    threshold = bar(&kept);
                }
                doc = docs.advance();
            }
            run = (run + 1).max((doc / RUN) as usize);
        }
    }
    if !decided {
        // No segment at all: nothing matches.
        return Ok(Some(ShardTop {
            candidates: Vec::new(),
            count: 0,
            max_score: None,
        }));
    }
    let score = score.unwrap_or(0.0);
    let mut keys: Vec<Option<Arc<Vec<KeyReader>>>> = (0..readers.len()).map(|_| None).collect();
    let mut candidates = Vec::with_capacity(kept.len());
    for (seq, ord, doc) in kept.into_vec() {
        let segment = match &keys[ord as usize] {
            Some(k) => k.clone(),
            None => {
                let k = Arc::new(
                    levels
                        .iter()
                        .map(|l| KeyReader::new(l, &readers[ord as usize]))
                        .collect::<Result<Vec<_>>>()?,
                );
                keys[ord as usize] = Some(k.clone());
                k
            }
        };
        candidates.push(Candidate {
            score,
            seq,
            shard,
            doc: DocAddress::new(ord, doc),
            sort: HitKeys {
                k0: segment[0].key(doc, score),
                rest: Box::new([]),
                segment,
                doc,
                score,
                values: OnceCell::new(),
            },
        });
    }
    Ok(Some(ShardTop {
        max_score: (plan.track_max_score && (seen || !candidates.is_empty())).then_some(score),
        candidates,
        count,
    }))
}

/// Runs the plan over every segment of a shard with the query's weight.
pub(super) fn collect(
    plan: &Plan,
    searcher: &tantivy::Searcher,
    weight: &dyn Weight,
    shard: usize,
) -> Result<ShardTop> {
    let levels = levels(plan.specs, plan.mapping)?;
    let by_score = matches!(plan.specs, [s] if s.field == SortField::Score && !s.ascending);
    if plan.constant && by_score && plan.window > 0 && plan.after.is_none() && plan.cursor.is_none()
    {
        if let Some(top) = collect_constant(plan, searcher, weight, shard, &levels)? {
            return Ok(top);
        }
    }
    let mut out = ShardTop {
        candidates: Vec::new(),
        count: 0,
        max_score: None,
    };
    let mut max_score = f32::NEG_INFINITY;
    // The first sort level's value at the bar of an earlier segment whose page filled: a doc
    // past it cannot be among the shard's first `window`, whatever its segment (a page deep
    // in a many-segment index then costs about one page, not one per segment).
    let mut carried_bar: Option<u64> = None;
    // The segments' count floors: once the count so far and the floors of the segments left
    // together pass the count wanted, counting stops at them.
    let floors: Option<Vec<u64>> = match plan.count_up_to {
        Some(_) if plan.prune && !plan.implied.is_empty() => Some(
            searcher
                .segment_readers()
                .iter()
                .map(|r| match plan.node {
                    Some(node) => node.count_floor(r).map(u64::from),
                    None => block_max::count_floor(r, plan.implied).map(u64::from),
                })
                .collect::<tantivy::Result<Vec<u64>>>()?,
        ),
        _ => None,
    };
    // Pruned passes all start from a threshold under the shard's `window`-th best score.
    let prunes = plan.prune
        && plan.window > 0
        && plan.after.is_none()
        && plan.cursor.is_none()
        && plan.boost > 0.0
        && by_score;
    let prime = match plan.node {
        Some(node) if prunes => node.prime(searcher.segment_readers(), plan.window)?,
        _ => f32::NEG_INFINITY,
    };
    // The best `window` scores of the segments passed so far (pruned passes): a doc of a later
    // segment scoring below the worst of them cannot make the page, so each segment's pruning
    // starts from there rather than from nothing.
    let mut best_scores: Vec<f32> = Vec::new();
    let mut floors_left: u64 = floors.as_ref().map_or(0, |f| f.iter().sum());
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        let readers = Arc::new(
            levels
                .iter()
                .map(|l| KeyReader::new(l, reader))
                .collect::<Result<Vec<_>>>()?,
        );
        let after: Option<Vec<u128>> = match (plan.after, plan.cursor) {
            (Some(values), _) => Some(
                levels
                    .iter()
                    .zip(readers.iter())
                    .zip(values)
                    .map(|((l, r), v)| r.after_key(l, v))
                    .collect::<Result<_>>()?,
            ),
            (None, Some(c)) => Some(
                levels
                    .iter()
                    .zip(readers.iter())
                    .zip(&c.values)
                    .map(|((l, r), v)| r.cursor_key(l, v))
                    .collect::<Result<_>>()?,
            ),
            (None, None) => None,
        };
        let seq = open_columns::seq_no(reader);
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
            && after.is_none()
            && plan.boost > 0.0
            && matches!(plan.specs, [s] if s.field == SortField::Score && !s.ascending);
        if prune {
            if let Some(up_to) = plan.count_up_to {
                if out.count <= up_to {
                    out.count += match &floors {
                        Some(f) if out.count + floors_left > up_to => f[ord],
                        _ => weight.count(reader)? as u64,
                    };
                }
            }
        }
        if let Some(f) = &floors {
            floors_left -= f[ord];
        }
        // `match_all`, or a query that counts apart (`plan.prune`, `plan.constant`), sorted first on a
        // single-valued number, missing values last: the column is scanned for the values that
        // can still enter the page (Lucene skips with the points instead), and only those docs
        // are asked whether they match; the count is the segment's alive docs, or the weight's
        // count. Later sort levels and `search_after` are judged per doc, as in the ordinary
        // pass; the scan's range only leaves out docs whose first value puts them past the bar
        // or before the `search_after` values.
        let mut scan = match (
            readers.first(),
            (plan.match_all || plan.prune || plan.constant) && window > 0,
        ) {
            (Some(r), true) if !plan.track_max_score && r.missing_key == MISSING_LAST => {
                match (&r.source, &levels[0]) {
                    (
                        Source::Num {
                            col, multi: false, ..
                        },
                        Level {
                            spec,
                            kind: LevelKind::Num(ty, _),
                        },
                    ) => {
                        let field = match &spec.field {
                            SortField::Field(f) => f.as_str(),
                            _ => "",
                        };
                        Some((col.clone(), r.ascending, field, column_type(*ty)))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let mut scan_matches = None;
        if scan.is_some() {
            if plan.match_all {
                out.count += reader.num_docs() as u64;
            } else {
                // Asking column docs whether they match pays only where most docs do: for a
                // sparse query every doc ahead of the bar is a failed seek, and walking the
                // matches themselves is cheaper (npm `parser` by downloads: 1.08 vs 0.18 ms).
                let matches = weight.count(reader)? as u64;
                scan_matches = Some(matches);
                if matches * SCAN_MIN_DENSITY < reader.num_docs() as u64 {
                    scan = None;
                } else if plan.count_up_to.is_some_and(|up_to| out.count <= up_to) {
                    out.count += matches;
                }
            }
        }
        let scanning = scan.is_some();
        let counted_apart = prune || scanning;
        let carried = match best_scores.last() {
            Some(&worst) if prune && best_scores.len() >= window => {
                raw_threshold(worst, plan.boost).max(prime)
            }
            _ if prune => prime,
            _ => f32::NEG_INFINITY,
        };
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
                // Ordered by score alone, a hit scoring below the bar is past it whatever its
                // `_seq_no`: turned away before its keys are made (most of an exhaustive
                // pass's matches, once its page has filled).
                if by_score && bar.is_some_and(|b| score < b.score) {
                    break 'visit;
                }
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
                let seq = seq_of(doc);
                // Equal to the `search_after` values: that hit was on the previous page; equal
                // to a cursor's, it was if it comes first on `_seq_no`.
                if vs_after == Cut::Undecided && plan.cursor.is_none_or(|c| seq <= c.seq) {
                    break 'visit;
                }
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
                Some(bar) if prune => raw_threshold(bar.score, plan.boost).max(carried),
                _ if prune => carried,
                _ => f32::NEG_INFINITY,
            }
        };
        let scan_ascending = scan.as_ref().map(|s| s.1);
        if let Some((col, ascending, field, ty)) = scan {
            use crate::query::constant::{BitDocs, ConstantScorer};
            use tantivy::{DocSet, TERMINATED};
            // The first `search_after` value's class, and its raw value when present.
            let after_first = after.as_ref().and_then(|a| a.first().copied());
            let after_raw = after_first
                .filter(|a| a >> 96 == PRESENT >> 96)
                .map(|a| raw_of(a, ascending));
            // The bar's raw value when it is a present one: only values at or beyond it
            // (ties may still win on `_seq_no`) can enter.
            let bar_raw = || {
                let own = bar_key
                    .get()
                    .filter(|k| k >> 96 == PRESENT >> 96)
                    .map(|k| raw_of(k, ascending));
                match (own, carried_bar) {
                    (Some(a), Some(b)) if ascending => Some(a.min(b)),
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                }
            };
            let mut scorer = weight.scorer(reader, 1.0)?;
            // The docs to walk in value order: all of them (`match_all`), or the matches of a
            // constant-score query gathered into a bitset first (one pass over its docs, which
            // the density check has bounded from below), every one scoring the same.
            let constant = scorer
                .downcast_ref::<ConstantScorer>()
                .filter(|_| scan_matches.is_some_and(|m| m <= WALK_MAX_MATCHES));
            let walk = if plan.match_all {
                Some((scorer.score(), None))
            } else if let Some(c) = constant {
                let score = c.score_of_all();
                let mut words = BitDocs::empty(reader.max_doc());
                let mut doc = scorer.doc();
                while doc != TERMINATED {
                    BitDocs::insert(&mut words, doc);
                    doc = scorer.advance();
                }
                Some((score, Some(words)))
            } else {
                None
            };
            if let Some((score, members)) = walk {
                let member =
                    |doc: DocId| members.as_ref().is_none_or(|w| BitDocs::contains(w, doc));
                let order = column_order::value_order(reader, field, ty, &col);
                // From the first value the `search_after` values let through, toward worse
                // values, until one is past the bar. Missing last: a `search_after` past the
                // present values leaves only the docs without one.
                let past_present = after_first.is_some_and(|a| a >> 96 > PRESENT >> 96);
                if !past_present {
                    if ascending {
                        let from = after_raw.map_or(0, |a| order.rank(&col, a, false));
                        for i in from..order.len() {
                            let doc = order.doc(i);
                            if !member(doc) {
                                continue;
                            }
                            if bar_raw().is_some_and(|b| column_order::value(&col, doc) > b) {
                                break;
                            }
                            on_doc(doc, score);
                        }
                    } else {
                        let to = after_raw.map_or(order.len(), |a| order.rank(&col, a, true));
                        for i in (0..to).rev() {
                            let doc = order.doc(i);
                            if !member(doc) {
                                continue;
                            }
                            if bar_raw().is_some_and(|b| column_order::value(&col, doc) < b) {
                                break;
                            }
                            on_doc(doc, score);
                        }
                    }
                }
                // Docs without a value sort after every present one: they are wanted only
                // while the page has room.
                if order.len() < reader.max_doc() as usize && bar_raw().is_none() {
                    for doc in 0..reader.max_doc() {
                        if member(doc) && !col.index.has_value(doc) {
                            on_doc(doc, score);
                        }
                    }
                }
            } else {
                let bounds = column_bounds::bounds(reader, field, ty, &col);
                let mut ids = Vec::with_capacity(column_bounds::RUN as usize);
                for run in 0..bounds.runs() {
                    let start = run as u32 * column_bounds::RUN;
                    let end = (start + column_bounds::RUN).min(reader.max_doc());
                    match bar_raw() {
                        None => {
                            let mut doc = scorer.doc();
                            if doc < start {
                                doc = scorer.seek(start);
                            }
                            while doc < end {
                                on_doc(doc, scorer.score());
                                doc = scorer.advance();
                            }
                        }
                        Some(bar) => {
                            let (mut lo, mut hi) =
                                if ascending { (0, bar) } else { (bar, u64::MAX) };
                            // Nor can values before the `search_after` ones (equal ones are
                            // judged on the later levels).
                            if let Some(a) = after_raw {
                                if ascending {
                                    lo = lo.max(a);
                                } else {
                                    hi = hi.min(a);
                                }
                            }
                            // Within the column's bounds: a column read through a monotonic
                            // mapping wraps values past them.
                            let (lo, hi) = (lo.max(col.min_value()), hi.min(col.max_value()));
                            ids.clear();
                            if lo <= hi && bounds.meets(run, &(lo..=hi)) {
                                col.get_docids_for_value_range(lo..=hi, start..end, &mut ids);
                            }
                            for &doc in &ids {
                                if scorer.doc() < doc {
                                    scorer.seek(doc);
                                }
                                if scorer.doc() == doc {
                                    on_doc(doc, scorer.score());
                                }
                            }
                        }
                    }
                    if scorer.doc() == TERMINATED {
                        break;
                    }
                }
            }
        } else if prune {
            weight.for_each_pruning(carried, reader, &mut on_doc)?;
        } else {
            weight.for_each(reader, &mut |doc, score| {
                on_doc(doc, score);
            })?;
        }
        if let Some(ascending) = scan_ascending {
            if let Some(own) = bar_key.get().filter(|k| k >> 96 == PRESENT >> 96) {
                let own = raw_of(own, ascending);
                carried_bar = Some(match carried_bar {
                    Some(b) if ascending => b.min(own),
                    Some(b) => b.max(own),
                    None => own,
                });
            }
        }
        out.count += count;
        max_score = max_score.max(seg_max);
        let entries = top.into_entries();
        if prune {
            best_scores.extend(entries.iter().map(|e| e.score));
            best_scores.sort_by(|a, b| b.total_cmp(a));
            best_scores.truncate(window);
        }
        for e in entries {
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
    use crate::search::sort::{Missing, SortField};

    /// `_score` descending, the default order.
    fn by_score() -> SortSpec {
        SortSpec {
            field: SortField::Score,
            ascending: false,
            missing: Missing::Last,
            mode: None,
            unmapped_type: None,
        }
    }

    mod constant {
        use super::super::*;
        use super::by_score;
        use crate::index::mapping::Mapping;
        use crate::query::constant::{is_constant, ColumnExistsQuery, ConstantQuery};
        use crate::query::lucene_term::LuceneTermQuery;
        use crate::query::wrappers::BoostedQuery;
        use crate::query::Q;
        use crate::search::sort::{Missing, SortField, SortSpec};

        use tantivy::query::{AllQuery, EnableScoring, Query, RangeQuery, TermSetQuery};
        use tantivy::schema::{Schema, FAST, INDEXED, STRING};
        use tantivy::{Index, Searcher, TantivyDocument, Term};

        use crate::util::test_support::Rng;

        /// Segments whose `_seq_no`s interleave (as concurrent bulks leave them) and run
        /// backwards in places (as merges of such segments do), some docs deleted, one segment
        /// without matches for `k`.
        fn index(seed: u64) -> Searcher {
            let mut sb = Schema::builder();
            let seq = sb.add_i64_field(crate::index::schema::SEQ_NO, FAST);
            let id = sb.add_text_field("id", STRING);
            let k = sb.add_text_field("k", STRING | FAST);
            // A keyword as Quarry maps it: no freqs, no norms, so a scored term on it scores
            // every match alike, however many values a doc holds.
            let u = sb.add_text_field(
                "u",
                tantivy::schema::TextOptions::default().set_indexing_options(
                    tantivy::schema::TextFieldIndexing::default()
                        .set_tokenizer("raw")
                        .set_index_option(tantivy::schema::IndexRecordOption::Basic)
                        .set_fieldnorms(false),
                ),
            );
            let n = sb.add_i64_field("n", FAST | INDEXED);
            // Few values: pages decided by `_seq_no` among ties.
            let t = sb.add_i64_field("t", FAST);
            let index = Index::create_in_ram(sb.build());
            let mut w = crate::util::test_support::segment_writer(&index);
            let mut rng = Rng(seed | 1);
            let total = 6000u64;
            // A permutation of 0..total: mostly increasing runs, some reversed, some shuffled.
            let mut seqs: Vec<i64> = (0..total as i64).collect();
            for chunk in seqs.chunks_mut(500) {
                match rng.below(3) {
                    0 => chunk.reverse(),
                    1 => {
                        for i in (1..chunk.len()).rev() {
                            chunk.swap(i, rng.below(i as u64 + 1) as usize);
                        }
                    }
                    _ => {}
                }
            }
            let mut at = 0usize;
            for segment in 0..5 {
                let size = if segment == 4 {
                    total as usize - at
                } else {
                    700 + rng.below(800) as usize
                };
                for _ in 0..size {
                    let mut d = TantivyDocument::default();
                    d.add_i64(seq, seqs[at]);
                    d.add_text(id, at.to_string());
                    if segment != 2 && rng.below(4) > 0 {
                        let v = format!("v{}", rng.below(5));
                        d.add_text(k, &v);
                        d.add_text(u, &v);
                        if rng.below(5) == 0 {
                            d.add_text(u, format!("v{}", rng.below(3)));
                        }
                    }
                    if rng.below(20) > 0 {
                        d.add_i64(n, rng.below(1000) as i64);
                        d.add_i64(t, rng.below(4) as i64);
                    }
                    w.add_document(d).unwrap();
                    at += 1;
                }
                w.commit().unwrap();
            }
            for _ in 0..400 {
                w.delete_term(Term::from_field_text(id, &rng.below(total).to_string()));
            }
            w.commit().unwrap();
            index.reader().unwrap().searcher()
        }

        fn run(
            searcher: &Searcher,
            q: &dyn Query,
            window: usize,
            up_to: Option<u64>,
            constant: bool,
        ) -> (Vec<(i64, DocAddress, f32)>, u64, Option<f32>) {
            let specs = [by_score()];
            let mapping = Mapping::empty();
            // A pruning tree where the query has one, its walks primed as a search primes them.
            let (weight, node) = crate::query::block_max::weight_and_node(
                q,
                EnableScoring::enabled_from_searcher(searcher),
            )
            .unwrap();
            let plan = Plan {
                specs: &specs,
                window,
                after: None,
                cursor: None,
                boost: 2.0,
                track_max_score: true,
                mapping: &mapping,
                prune: false,
                count_up_to: up_to,
                match_all: false,
                constant,
                implied: &[],
                node: node.as_ref(),
            };
            let top = collect(&plan, searcher, weight.as_ref(), 0).unwrap();
            let mut hits: Vec<_> = top
                .candidates
                .iter()
                .map(|c| (c.seq, c.doc, c.score))
                .collect();
            hits.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
            hits.truncate(window);
            (hits, top.count, top.max_score)
        }

        fn check(searcher: &Searcher, q: &dyn Query) {
            for window in [1, 10, 100, 3000] {
                let (want, total, max) = run(searcher, q, window, Some(u64::MAX), false);
                for up_to in [None, Some(0), Some(10), Some(1000), Some(u64::MAX)] {
                    let (hits, count, got_max) = run(searcher, q, window, up_to, true);
                    assert_eq!(hits, want, "{q:?} window {window} up to {up_to:?}");
                    assert_eq!(got_max, max, "{q:?}");
                    match up_to {
                        None => assert_eq!(count, 0),
                        Some(u) if total <= u => assert_eq!(count, total, "{q:?}"),
                        Some(u) => assert!(count > u, "{q:?}: {count} <= {u}"),
                    }
                }
            }
        }

        #[test]
        fn constant_top_k_equals_exhaustive() {
            for seed in [11, 2024, 31337] {
                let s = index(seed);
                let k = s.schema().get_field("k").unwrap();
                let n = s.schema().get_field("n").unwrap();
                let u = s.schema().get_field("u").unwrap();
                let queries: Vec<Q> = vec![
                    Box::new(ConstantQuery::new(
                        Box::new(TermSetQuery::new([
                            Term::from_field_text(k, "v1"),
                            Term::from_field_text(k, "v3"),
                        ])),
                        1.5,
                    )),
                    Box::new(ConstantQuery::new(
                        Box::new(RangeQuery::new(
                            std::ops::Bound::Included(Term::from_field_i64(n, 100)),
                            std::ops::Bound::Excluded(Term::from_field_i64(n, 400)),
                        )),
                        1.0,
                    )),
                    Box::new(ConstantQuery::new(
                        Box::new(ColumnExistsQuery::new("k".into())),
                        1.0,
                    )),
                    Box::new(ConstantQuery::new(Box::new(AllQuery), 0.5)),
                    Box::new(ConstantQuery::new(
                        Box::new(TermSetQuery::new([Term::from_field_text(k, "none")])),
                        1.0,
                    )),
                    Box::new(LuceneTermQuery::new(Term::from_field_text(u, "v1"))),
                    Box::new(LuceneTermQuery::new(Term::from_field_text(u, "v2")).with_boost(2.5)),
                    Box::new(BoostedQuery::new(
                        Box::new(LuceneTermQuery::new(Term::from_field_text(u, "v0"))),
                        0.5,
                    )),
                ];
                for q in &queries {
                    assert!(is_constant(q.as_ref(), s.schema()), "{q:?}");
                    check(&s, q.as_ref());
                }
            }
        }

        /// A term on a keyword scores each match exactly as its BM25 explanation does, and a
        /// term on a field with norms is not taken for a constant one.
        #[test]
        fn uniform_terms_score_as_bm25() {
            let s = index(77);
            let (k, u) = (
                s.schema().get_field("k").unwrap(),
                s.schema().get_field("u").unwrap(),
            );
            let normed = LuceneTermQuery::new(Term::from_field_text(k, "v1"));
            assert!(!is_constant(&normed, s.schema()));
            let q = LuceneTermQuery::new(Term::from_field_text(u, "v1")).with_boost(1.7);
            let weight = q.weight(EnableScoring::enabled_from_searcher(&s)).unwrap();
            let mut seen = 0;
            for reader in s.segment_readers() {
                let mut scorer = weight.scorer(reader, 1.0).unwrap();
                let mut doc = scorer.doc();
                while doc != tantivy::TERMINATED {
                    let want = weight.explain(reader, doc).unwrap().value();
                    assert_eq!(scorer.score(), want);
                    seen += 1;
                    doc = scorer.advance();
                }
            }
            assert!(seen > 100);
        }

        /// A query sorted on `n` through the column scan (`prune`: counted apart) and through
        /// the ordinary pass.
        /// A scored term query, a constant-score terms query, and `match_all` (last).
        fn scored_constant_and_all(s: &Searcher) -> Vec<Q> {
            let k = s.schema().get_field("k").unwrap();
            vec![
                Box::new(crate::query::lucene_term::LuceneTermQuery::new(
                    Term::from_field_text(k, "v2"),
                )),
                Box::new(TermSetQuery::new([
                    Term::from_field_text(k, "v0"),
                    Term::from_field_text(k, "v4"),
                ])),
                // Constant-score wrapped: a sorted pass walks their matches in value order.
                Box::new(ConstantQuery::new(
                    Box::new(TermSetQuery::new([
                        Term::from_field_text(k, "v0"),
                        Term::from_field_text(k, "v4"),
                    ])),
                    1.0,
                )),
                {
                    use std::ops::Bound::Included;
                    let n = s.schema().get_field("n").unwrap();
                    let (lo, hi) = (200i64, 850i64);
                    let fallback = RangeQuery::new(
                        Included(Term::from_field_i64(n, lo)),
                        Included(Term::from_field_i64(n, hi)),
                    );
                    let range = crate::query::constant::ColumnRangeQuery::new(
                        "n",
                        Included(tantivy::i64_to_u64(lo)),
                        Included(tantivy::i64_to_u64(hi)),
                        Box::new(fallback),
                    )
                    .unwrap();
                    Box::new(ConstantQuery::new(Box::new(range), 2.0))
                },
                Box::new(AllQuery),
            ]
        }

        #[test]
        fn column_scan_of_a_query_equals_the_ordinary_pass() {
            let mapping = Mapping::parse(
                &serde_json::json!({"properties": {"n": {"type": "long"}, "t": {"type": "long"}}}),
            )
            .unwrap();
            for seed in [8, 808] {
                let s = index(seed);
                let queries = scored_constant_and_all(&s);
                for (qi, q) in queries.iter().enumerate() {
                    let is_all = qi == queries.len() - 1;
                    let weight = q.weight(EnableScoring::enabled_from_searcher(&s)).unwrap();
                    // One level, or `t` then `n` (the page then ends inside a tie on `t`).
                    for (fields, ascending) in [
                        (&["n"][..], true),
                        (&["n"], false),
                        (&["t"], true),
                        (&["t"], false),
                        (&["t", "n"], true),
                        (&["t", "n"], false),
                    ] {
                        let specs: Vec<SortSpec> = fields
                            .iter()
                            .enumerate()
                            .map(|(i, f)| SortSpec {
                                field: SortField::Field(f.to_string()),
                                ascending: ascending == (i == 0),
                                missing: Missing::Last,
                                mode: None,
                                unmapped_type: None,
                            })
                            .collect();
                        let after_of = |n: i64, t: i64| {
                            let v: Vec<Value> = fields
                                .iter()
                                .map(|&f| serde_json::json!(if f == "n" { n } else { t }))
                                .collect();
                            Some(v)
                        };
                        let afters = [None, after_of(300, 1), after_of(700, 2)];
                        for (window, after) in [1, 10, 500]
                            .into_iter()
                            .flat_map(|w| afters.iter().map(move |a| (w, a)))
                        {
                            let run = |prune: bool| {
                                let plan = Plan {
                                    specs: &specs,
                                    window,
                                    after: after.as_deref(),
                                    cursor: None,
                                    boost: 1.0,
                                    track_max_score: false,
                                    mapping: &mapping,
                                    prune: prune && !is_all,
                                    count_up_to: Some(u64::MAX),
                                    match_all: prune && is_all,
                                    constant: prune
                                        && crate::query::constant::is_constant(
                                            q.as_ref(),
                                            s.schema(),
                                        ),
                                    implied: &[],
                                    node: None,
                                };
                                let top = collect(&plan, &s, weight.as_ref(), 0).unwrap();
                                let mut c = top.candidates;
                                c.sort_by(|a, b| a.sort.k0.cmp(&b.sort.k0).then(a.seq.cmp(&b.seq)));
                                c.truncate(window);
                                let hits: Vec<_> =
                                    c.iter().map(|c| (c.sort.k0, c.seq, c.doc)).collect();
                                (hits, top.count)
                            };
                            assert_eq!(
                                run(true),
                                run(false),
                                "{q:?} {fields:?} {ascending} {window} {after:?}"
                            );
                        }
                    }
                }
            }
        }

        /// Paging with a scroll cursor gives the same hits, in the same order, as one page
        /// holding them all: scored and constant queries, match_all, one and two sort levels,
        /// ties, docs without values.
        #[test]
        fn cursor_pages_equal_one_long_page() {
            let mapping = Mapping::parse(
                &serde_json::json!({"properties": {"n": {"type": "long"}, "t": {"type": "long"}}}),
            )
            .unwrap();
            let s = index(31);
            let queries = scored_constant_and_all(&s);
            let level = |f: &str, ascending: bool| SortSpec {
                field: match f {
                    "_score" => SortField::Score,
                    _ => SortField::Field(f.into()),
                },
                ascending,
                missing: Missing::Last,
                mode: None,
                unmapped_type: None,
            };
            let sorts = [
                vec![level("_score", false)],
                vec![level("n", false)],
                vec![level("t", true), level("n", false)],
            ];
            for (qi, q) in queries.iter().enumerate() {
                let is_all = qi == queries.len() - 1;
                let weight = q.weight(EnableScoring::enabled_from_searcher(&s)).unwrap();
                for specs in &sorts {
                    let by_score = specs[0].field == SortField::Score;
                    let page = |window: usize, cursor: Option<&Cursor>| {
                        let plan = Plan {
                            specs,
                            window,
                            after: None,
                            cursor,
                            boost: 1.0,
                            track_max_score: by_score,
                            mapping: &mapping,
                            prune: !is_all,
                            count_up_to: Some(u64::MAX),
                            match_all: is_all,
                            constant: qi == 1,
                            implied: &[],
                            node: None,
                        };
                        let mut c = collect(&plan, &s, weight.as_ref(), 0).unwrap().candidates;
                        c.sort_by(|a, b| {
                            (a.sort.k0, &a.sort.rest, a.seq).cmp(&(b.sort.k0, &b.sort.rest, b.seq))
                        });
                        c.truncate(window);
                        c
                    };
                    let want: Vec<_> = page(100_000, None).iter().map(|c| c.doc).collect();
                    for size in [1, 7, 500] {
                        let mut got = Vec::new();
                        let mut cursor = None;
                        // Bounded: a cursor that fails to move on would page forever.
                        for _ in 0..=want.len() {
                            let p = page(size, cursor.as_ref());
                            let Some(last) = p.last() else { break };
                            cursor = Some(Cursor::of(last));
                            got.extend(p.iter().map(|c| c.doc));
                        }
                        assert_eq!(got, want, "{q:?} {specs:?} {size}");
                    }
                }
            }
        }

        /// A pruned pass whose implied terms' doc freqs pass the count wanted stops counting
        /// there ("more than"), with the same page as the exact count.
        #[test]
        fn count_floors_end_counting_with_the_same_page() {
            let s = index(9);
            let k = s.schema().get_field("k").unwrap();
            let q = crate::query::combine::SumQuery::new(vec![
                Box::new(LuceneTermQuery::new(Term::from_field_text(k, "v1"))),
                Box::new(LuceneTermQuery::new(Term::from_field_text(k, "v3"))),
            ]);
            let implied = crate::query::block_max::implied_terms(&q);
            assert_eq!(implied.len(), 2);
            let (weight, node) = crate::query::block_max::weight_and_node(
                &q,
                EnableScoring::enabled_from_searcher(&s),
            )
            .unwrap();
            assert!(node.is_some());
            let specs = [by_score()];
            let mapping = Mapping::empty();
            let run_with = |up_to: u64, implied: &[Term], prune: bool| {
                let plan = Plan {
                    specs: &specs,
                    window: 10,
                    after: None,
                    cursor: None,
                    boost: 1.0,
                    track_max_score: true,
                    mapping: &mapping,
                    prune,
                    count_up_to: Some(up_to),
                    match_all: false,
                    constant: false,
                    implied,
                    node: node.as_ref().filter(|_| prune),
                };
                let top = collect(&plan, &s, weight.as_ref(), 0).unwrap();
                let mut hits: Vec<_> = top.candidates.iter().map(|c| (c.seq, c.score)).collect();
                hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                hits.truncate(10);
                (hits, top.count, top.max_score)
            };
            let run = |up_to: u64, implied: &[Term]| {
                let (hits, count, _) = run_with(up_to, implied, true);
                (hits, count)
            };
            // Every segment's matches tie on the score: pages are decided by `_seq_no` across
            // segments, each starting its pruning from the bar the ones before it left.
            let (want, total, max) = run_with(u64::MAX, &[], false);
            assert_eq!(run_with(u64::MAX, &[], true), (want.clone(), total, max));
            assert!(total > 100, "{total}");
            for up_to in [0, 10, 100] {
                let (hits, count) = run(up_to, &implied);
                assert_eq!(hits, want);
                assert!(
                    count > up_to && count <= total,
                    "{count} vs {up_to}, {total}"
                );
            }
            // Floors short of the count wanted: the first segments are counted exactly until
            // their count and the floors of the segments left pass it.
            let floors: u64 = s
                .segment_readers()
                .iter()
                .map(|r| crate::query::block_max::count_floor(r, &implied).unwrap() as u64)
                .sum();
            assert!(floors < total, "{floors} vs {total}");
            let mut stopped = false;
            for up_to in floors..total {
                let (hits, count) = run(up_to, &implied);
                assert_eq!(hits, want);
                assert!(
                    count > up_to && count <= total,
                    "{count} vs {up_to}, {total}"
                );
                stopped |= count < total;
            }
            assert!(
                stopped,
                "no count stopped at the floors of the segments left"
            );
            // Counted exactly when nothing short of every match passes the count wanted.
            assert_eq!(run(total, &implied), (want, total));
        }

        #[test]
        fn other_scorers_take_the_ordinary_pass() {
            let s = index(5);
            let k = s.schema().get_field("k").unwrap();
            let q = TermSetQuery::new([Term::from_field_text(k, "v2")]);
            let (want, total, _) = run(&s, &q, 10, Some(u64::MAX), false);
            let (hits, count, _) = run(&s, &q, 10, Some(u64::MAX), true);
            assert_eq!((hits, count), (want, total));
        }
    }

    /// Pages by BM25 score through the pruned pass, its walks primed from the cached block
    /// bounds, against the ordinary pass over every match.
    mod primed {
        use super::super::*;
        use super::by_score;
        use crate::index::mapping::Mapping;
        use crate::query::combine::{DisMaxQuery, SumQuery};
        use crate::query::lucene_term::LuceneTermQuery;
        use crate::query::wrappers::BoostedQuery;
        use crate::query::Q;
        use crate::util::test_support::Rng;

        use tantivy::query::{EnableScoring, Query};
        use tantivy::schema::{Schema, FAST, STRING, TEXT};
        use tantivy::{doc, Index, Searcher, Term};

        /// Segments of random text (a few words dominating), `_seq_no`s in doc order, some
        /// docs deleted, and many short docs repeating one word, whose scores tie.
        fn index(seed: u64) -> Searcher {
            let mut sb = Schema::builder();
            let seq = sb.add_i64_field(crate::index::schema::SEQ_NO, FAST);
            let id = sb.add_text_field("id", STRING);
            let body = sb.add_text_field("body", TEXT);
            let title = sb.add_text_field("title", TEXT);
            let index = Index::create_in_ram(sb.build());
            let mut w = crate::util::test_support::segment_writer(&index);
            let mut rng = Rng(seed | 1);
            let mut n = 0i64;
            for _ in 0..4 {
                for _ in 0..(800 + rng.below(1200)) {
                    let text = |rng: &mut Rng, len: u64| {
                        (0..1 + rng.below(len))
                            .map(|_| format!("w{}", rng.skewed(30)))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let (b, t) = if rng.below(10) == 0 {
                        ("w1 w1".to_string(), "w2".to_string())
                    } else {
                        (text(&mut rng, 30), text(&mut rng, 5))
                    };
                    w.add_document(doc!(seq => n, id => n.to_string(), body => b, title => t))
                        .unwrap();
                    n += 1;
                }
                w.commit().unwrap();
            }
            for _ in 0..150 {
                w.delete_term(Term::from_field_text(id, &rng.below(n as u64).to_string()));
            }
            w.commit().unwrap();
            index.reader().unwrap().searcher()
        }

        /// The shard's page and count, pruned (and primed) or not.
        fn run(
            s: &Searcher,
            q: &dyn Query,
            window: usize,
            up_to: u64,
            boost: f32,
            prune: bool,
        ) -> (Vec<(i64, f32)>, u64, Option<f32>) {
            let (weight, node) = crate::query::block_max::weight_and_node(
                q,
                EnableScoring::enabled_from_searcher(s),
            )
            .unwrap();
            let implied = crate::query::block_max::implied_terms(q);
            let specs = [by_score()];
            let mapping = Mapping::empty();
            let plan = Plan {
                specs: &specs,
                window,
                after: None,
                cursor: None,
                boost,
                track_max_score: true,
                mapping: &mapping,
                prune,
                count_up_to: Some(up_to),
                match_all: false,
                constant: false,
                implied: &implied,
                node: node.as_ref().filter(|_| prune),
            };
            let top = collect(&plan, s, weight.as_ref(), 0).unwrap();
            let mut hits: Vec<_> = top.candidates.iter().map(|c| (c.seq, c.score)).collect();
            hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            hits.truncate(window);
            (hits, top.count, top.max_score)
        }

        fn term(s: &Searcher, field: &str, word: &str) -> Q {
            let f = s.schema().get_field(field).unwrap();
            Box::new(LuceneTermQuery::new(Term::from_field_text(f, word)))
        }

        #[test]
        fn primed_pages_equal_the_ordinary_pass() {
            for seed in [3, 77, 4242] {
                let s = index(seed);
                let mut rng = Rng(seed * 7 + 1);
                let mut primed = 0;
                for round in 0..8 {
                    let words: Vec<String> = (0..2 + rng.below(3))
                        .map(|_| format!("w{}", rng.skewed(30)))
                        .collect();
                    let sum = |field: &str| -> Q {
                        Box::new(SumQuery::new(
                            words.iter().map(|w| term(&s, field, w)).collect(),
                        ))
                    };
                    let queries: Vec<Q> = vec![
                        term(&s, "body", &words[0]),
                        // Ties: the short docs repeating `w1` all score alike.
                        term(&s, "body", "w1"),
                        sum("body"),
                        Box::new(BoostedQuery::new(sum("title"), 2.5)),
                        Box::new(DisMaxQuery::new(
                            vec![sum("body"), Box::new(BoostedQuery::new(sum("title"), 2.0))],
                            0.2,
                        )),
                    ];
                    for q in &queries {
                        let (w, node) = crate::query::block_max::weight_and_node(
                            q.as_ref(),
                            EnableScoring::enabled_from_searcher(&s),
                        )
                        .unwrap();
                        drop(w);
                        for window in [1, 10, 57] {
                            let prime = node
                                .as_ref()
                                .unwrap()
                                .prime(s.segment_readers(), window)
                                .unwrap();
                            let boost = if round % 2 == 0 { 1.0 } else { 1.7 };
                            let (want, total, max) =
                                run(&s, q.as_ref(), window, u64::MAX, boost, false);
                            if prime.is_finite() {
                                primed += 1;
                                // Under the `window`-th best raw score.
                                assert!(
                                    (prime * boost) < want[window - 1].1,
                                    "{q:?}: {prime} vs {want:?}"
                                );
                            }
                            for up_to in [0, 100, u64::MAX] {
                                let (hits, count, got_max) =
                                    run(&s, q.as_ref(), window, up_to, boost, true);
                                assert_eq!(hits, want, "{q:?} window {window} up to {up_to}");
                                assert_eq!(got_max, max, "{q:?}");
                                if up_to >= total {
                                    assert_eq!(count, total, "{q:?}");
                                } else {
                                    assert!(count > up_to, "{q:?}: {count} <= {up_to}");
                                }
                            }
                        }
                    }
                }
                assert!(primed > 50, "only {primed} primed");
            }
        }
    }

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
