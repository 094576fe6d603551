//! Query values → tantivy terms per field type: numbers (with OpenSearch's coercions and
//! failures), dates (the field's or the query's format), booleans, ips; and `range`.

use super::{all, constant, none, Context, Q};
use crate::dsl::RangeQuery;
use crate::error::{Error, ErrorKind, Result};
use crate::index::date_format::DateFormat;
use crate::index::mapping::{FieldMapping, FieldType};
use crate::util::time_zone::Zone;
use serde_json::Value;
use std::net::IpAddr;
use std::ops::Bound;
use tantivy::query::{RangeQuery as TRange, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DateTime, Term};

pub fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub fn boolean(cx: &Context, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" || s.is_empty() => Ok(false),
        other => Err(cx
            .shard_error(format!(
                "failed to create query: Can't parse boolean value [{}], expected [true] or [false]",
                text_of(other)
            ))
            .caused_by(Error::illegal_argument(format!(
                "Can't parse boolean value [{}], expected [true] or [false]",
                text_of(other)
            )))),
    }
}

fn number_error(cx: &Context, v: &Value) -> Error {
    let text = text_of(v);
    // Java's Double.parseDouble, which OpenSearch's number fields parse with, names a blank
    // string apart.
    let reason = if text.trim().is_empty() {
        "empty String".to_string()
    } else {
        format!("For input string: \"{text}\"")
    };
    cx.create_failure(Error::new(ErrorKind::NumberFormat, reason))
}

fn as_f64(cx: &Context, v: &Value) -> Result<f64> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => s.trim().parse::<f64>().map_err(|_| number_error(cx, v)),
        _ => Err(number_error(cx, v)),
    }
}

/// Whether `x` is infinite, or the largest double, which stands in for a number past the
/// double range (`dsl::json`).
fn infinite(x: f64) -> bool {
    x.is_infinite() || x.abs() == f64::MAX
}

/// A value for a `long`, `integer`, `short`, `byte` or `unsigned_long` field, as OpenSearch's
/// `NumberType.parse` reads it: a whole number exactly (not through a double, which rounds past
/// 2^53), a number with a decimal part as its double.
enum Whole {
    Exact(i128),
    Decimal(f64),
}

/// The values of a whole-number field type, and its name in failures.
fn whole_range(ty: FieldType) -> (i128, i128, &'static str) {
    match ty {
        // `short` and `byte` queries are `integer` ones.
        FieldType::Integer | FieldType::Short | FieldType::Byte => {
            (i32::MIN.into(), i32::MAX.into(), "an integer")
        }
        FieldType::UnsignedLong => (0, u64::MAX.into(), "an unsigned long"),
        _ => (i64::MIN.into(), i64::MAX.into(), "a long"),
    }
}

/// A whole-number type's term for `i` (within its range).
fn whole_term(f: Field, ty: FieldType, i: i128) -> Term {
    if ty == FieldType::UnsignedLong {
        Term::from_field_u64(f, i as u64)
    } else {
        Term::from_field_i64(f, i as i64)
    }
}

/// `hasDecimalPart`, which a term query asks before it parses the value: an infinite value has
/// one (`Infinity % 1` is NaN).
fn has_decimal_part(cx: &Context, v: &Value) -> bool {
    as_f64(cx, v).is_ok_and(|x| infinite(x) || x.fract() != 0.0)
}

/// How a string value prints in an out-of-range failure: a `term`'s as the `BytesRef` it
/// became (its bytes in hex), a `range` bound's and a `match` text's as written.
#[derive(Clone, Copy, PartialEq)]
pub enum StringsAs {
    Bytes,
    Text,
}

fn whole(cx: &Context, v: &Value, ty: FieldType, strings: StringsAs) -> Result<Whole> {
    let (lo, hi, name) = whole_range(ty);
    // `"Value [" + value + "]"`: a Double prints as Java prints it, a string term as its bytes.
    let out_of_range = || {
        let shown = match v {
            Value::Number(n) if n.is_f64() => {
                let x = n.as_f64().unwrap_or_default();
                super::function_score::java_double(if infinite(x) { x * f64::INFINITY } else { x })
            }
            Value::String(s) if strings == StringsAs::Bytes => {
                let hex: Vec<String> = s.bytes().map(|b| format!("{b:x}")).collect();
                format!("[{}]", hex.join(" "))
            }
            other => text_of(other),
        };
        cx.create_failure(Error::illegal_argument(format!(
            "Value [{shown}] is out of range for {name}"
        )))
    };
    let exact = match v {
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        Value::String(s) => s.trim().parse::<i128>().ok(),
        _ => None,
    };
    if let Some(i) = exact {
        return if (lo..=hi).contains(&i) {
            Ok(Whole::Exact(i))
        } else {
            Err(out_of_range())
        };
    }
    let x = as_f64(cx, v)?;
    // 2^63 itself is past a long, 2^64 past an unsigned long (a double holds neither maximum).
    if x.is_nan() || x < lo as f64 || x >= hi as f64 + 1.0 {
        return Err(out_of_range());
    }
    Ok(if x.fract() != 0.0 {
        Whole::Decimal(x)
    } else {
        Whole::Exact(x as i128)
    })
}

/// A date value as millis, with the field's format (or `format`) and date math; for callers
/// outside this module (decay origins, range descriptions).
pub fn date_millis_pub(
    fm: &FieldMapping,
    format: Option<&str>,
    v: &Value,
    round_up: bool,
) -> Result<i64> {
    date_millis(fm, format, v, round_up)
}

/// A date value as millis with a field's date format (the default one where `None`), for an
/// aggregation reading a date bound (`date_range`, which parses with the default format on a
/// field the shard does not map).
pub fn date_millis_in(format: Option<&DateFormat>, v: &Value) -> Result<i64> {
    let mut fm = FieldMapping::parse(
        "",
        crate::index::mapping::FieldType::Date,
        &serde_json::Map::new(),
    )?;
    fm.date_format = Some(format.cloned().unwrap_or_else(DateFormat::default_format));
    date_millis(&fm, None, v, false)
}

fn date_millis(fm: &FieldMapping, format: Option<&str>, v: &Value, round_up: bool) -> Result<i64> {
    date_millis_tz(fm, format, v, round_up, None)
}

/// A date bound: date math (`now…`, `<date>||…`) or a date in the format, in `time_zone`.
fn date_millis_tz(
    fm: &FieldMapping,
    format: Option<&str>,
    v: &Value,
    round_up: bool,
    time_zone: Option<&str>,
) -> Result<i64> {
    let fmt = match format {
        Some(f) => DateFormat::parse_format(f)?,
        None => fm
            .date_format
            .clone()
            .unwrap_or_else(DateFormat::default_format),
    };
    let zone = match time_zone {
        Some(tz) => Zone::parse(tz)?,
        None => Zone::UTC,
    };
    let text = text_of(v);
    let failed = |e: Error| {
        let reason = format!(
            "failed to parse date field [{text}] with format [{}]",
            fmt.source
        );
        Error::new(ErrorKind::Parse, format!("{reason}: [{reason}]")).caused_by(e)
    };
    if let Some(ops) = text.strip_prefix("now") {
        return super::date_math::apply(super::date_math::now_millis(), ops, round_up, &zone);
    }
    if let Some((anchor, ops)) = text.split_once("||") {
        // The anchor always parses rounding down.
        let ms = fmt.parse_millis(anchor).map_err(failed)?;
        let ms = in_zone(&zone, anchor, ms);
        return super::date_math::apply(ms, ops, round_up, &zone);
    }
    if text.is_empty() {
        return Err(Error::new(ErrorKind::Parse, "cannot parse empty date"));
    }
    let ms = fmt.parse_millis(&text).map_err(failed)?;
    // Rounding up fills the fields a date-only value leaves out (OpenSearch's roundUp parser),
    // on the wall clock: a day of a daylight-saving switch is 23 or 25 hours long.
    let date_only = !text.contains('T') && text.len() == 10 && text.as_bytes()[4] == b'-';
    let ms = if round_up && date_only {
        ms + 86_399_999
    } else {
        ms
    };
    Ok(in_zone(&zone, &text, ms))
}

/// A date without its own offset is wall-clock time in the query's zone (epoch values too:
/// OpenSearch's quirk). `parse_millis` read it as UTC; this moves it to the zone, resolving as
/// `withZoneSameLocal` from UTC does (an ambiguous time keeps offset 0 where the zone has it).
fn in_zone(zone: &Zone, text: &str, ms: i64) -> i64 {
    if zone.is_utc() || super::date_math::has_offset(text) {
        return ms;
    }
    let naive = chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .naive_utc();
    zone.instant(naive, Some(0))
}

/// Millis kept inside what tantivy's `DateTime` (i64 nanoseconds, years 1677–2262) holds; past
/// it the conversion would wrap around.
fn clamp_nanos_range(ms: i64) -> i64 {
    const LIMIT: i64 = i64::MAX / 1_000_000;
    ms.clamp(-LIMIT, LIMIT)
}

/// The bounds of the query matching `v` exactly on the field: one term twice, or a date's
/// rounding span (`None` where no value can match: a fraction on an integer field); a string
/// value prints in failures as `strings` says.
pub fn exact_bounds(
    cx: &Context,
    f: Field,
    fm: &FieldMapping,
    v: &Value,
    strings: StringsAs,
) -> Result<Option<(Bound<Term>, Bound<Term>)>> {
    use FieldType::*;
    let term = match fm.ty {
        Long | Integer | Short | Byte | UnsignedLong if has_decimal_part(cx, v) => return Ok(None),
        Long | Integer | Short | Byte | UnsignedLong => match whole(cx, v, fm.ty, strings)? {
            Whole::Exact(i) => whole_term(f, fm.ty, i),
            Whole::Decimal(_) => return Ok(None),
        },
        Double | Float | HalfFloat | ScaledFloat => {
            let x = as_f64(cx, v)?;
            let x = if fm.ty == Float { x as f32 as f64 } else { x };
            Term::from_field_f64(f, x)
        }
        Date => {
            let lo = date_millis(fm, None, v, false)?;
            let hi = date_millis(fm, None, v, true)?;
            return Ok(Some((
                Bound::Included(Term::from_field_date(
                    f,
                    DateTime::from_timestamp_millis(lo),
                )),
                Bound::Included(Term::from_field_date(
                    f,
                    DateTime::from_timestamp_millis(hi),
                )),
            )));
        }
        Ip => {
            let text = text_of(v);
            let ip: IpAddr = text.parse().map_err(|_| {
                cx.shard_error(format!(
                    "failed to create query: '{text}' is not an IP string literal."
                ))
                .caused_by(Error::illegal_argument(format!(
                    "'{text}' is not an IP string literal."
                )))
            })?;
            let v6 = match ip {
                IpAddr::V4(a) => a.to_ipv6_mapped(),
                IpAddr::V6(a) => a,
            };
            Term::from_field_ip_addr(f, v6)
        }
        Boolean => Term::from_field_bool(f, boolean(cx, v)?),
        Text | Keyword => Term::from_field_text(f, &text_of(v)),
    };
    Ok(Some((Bound::Included(term.clone()), Bound::Included(term))))
}

/// A term query for one value, a range query for a span.
pub fn exact_query(lo: Bound<Term>, hi: Bound<Term>) -> Q {
    match (lo, hi) {
        (Bound::Included(a), Bound::Included(b)) if a == b => {
            Box::new(TermQuery::new(a, IndexRecordOption::Basic))
        }
        (lo, hi) => Box::new(TRange::new(lo, hi)),
    }
}

/// Lucene's text of the points query OpenSearch runs for these bounds on a number, date or
/// ip field, paired with a doc-values query where the field has doc values.
pub fn describe_points(
    cx: &Context,
    name: &str,
    f: Field,
    fm: &FieldMapping,
    lo: &Bound<Term>,
    hi: &Bound<Term>,
) -> Option<super::constant::Described> {
    let text = super::lucene_string::point_range(name, fm.ty, lo, hi)?;
    let doc_values = cx.searcher.schema().get_field_entry(f).is_fast();
    Some(super::lucene_string::points(text, doc_values))
}

/// Whether every doc of every segment of the shard has a value for the field (doc values with
/// none deleted, or a text field's norms), as Lucene's `FieldExistsQuery` asks before it
/// rewrites itself to `*:*`.
pub fn in_every_doc(cx: &Context, f: Field, fast: bool) -> bool {
    let name = cx.searcher.schema().get_field_name(f);
    cx.searcher.segment_readers().iter().all(|r| {
        if fast {
            !r.has_deletes()
                && r.fast_fields()
                    .dynamic_column_handles(name)
                    .ok()
                    .into_iter()
                    .flatten()
                    .filter_map(|h| h.open().ok())
                    .any(|c| matches!(c.column_index(), tantivy::columnar::ColumnIndex::Full))
        } else {
            super::lucene_term::segment_doc_count(r, f, true).ok() == Some(r.max_doc() as u64)
        }
    })
}

pub fn range(cx: &Context, r: &RangeQuery) -> Result<Q> {
    let Some((f, fm)) = cx.field(&r.field) else {
        return Ok(none());
    };
    use FieldType::*;
    let (lo, hi): (Bound<Term>, Bound<Term>) = match fm.ty {
        Long | Integer | Short | Byte | UnsignedLong => {
            // Lucene's inclusive bounds: a decimal rounds inward, an exclusive whole bound
            // steps inward, and one that cannot step (past the type's end) matches nothing.
            let (min, max, _) = whole_range(fm.ty);
            let bound =
                |v: &Option<Value>, lower: bool, incl: bool| -> Result<Option<Bound<Term>>> {
                    let Some(v) = v else {
                        return Ok(Some(Bound::Unbounded));
                    };
                    let i = match whole(cx, v, fm.ty, StringsAs::Text)? {
                        Whole::Decimal(x) if lower => x.ceil() as i128,
                        Whole::Decimal(x) => x.floor() as i128,
                        Whole::Exact(i) if incl => i,
                        Whole::Exact(i) if lower => i + 1,
                        Whole::Exact(i) => i - 1,
                    };
                    if !(min..=max).contains(&i) {
                        return Ok(None);
                    }
                    Ok(Some(Bound::Included(whole_term(f, fm.ty, i))))
                };
            match (
                bound(&r.from, true, r.include_lower)?,
                bound(&r.to, false, r.include_upper)?,
            ) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => return Ok(none()),
            }
        }
        Double | Float | HalfFloat | ScaledFloat => {
            let b = |v: &Option<Value>, incl: bool| -> Result<Bound<Term>> {
                Ok(match v {
                    None => Bound::Unbounded,
                    Some(v) => {
                        let t = Term::from_field_f64(f, as_f64(cx, v)?);
                        if incl {
                            Bound::Included(t)
                        } else {
                            Bound::Excluded(t)
                        }
                    }
                })
            };
            (b(&r.from, r.include_lower)?, b(&r.to, r.include_upper)?)
        }
        Date => {
            let fmt = r.format.as_deref();
            let lo = match &r.from {
                None => Bound::Unbounded,
                Some(v) => {
                    let ms = date_millis_tz(fm, fmt, v, !r.include_lower, r.time_zone.as_deref())?;
                    let ms = if r.include_lower { ms } else { ms + 1 };
                    let ms = clamp_nanos_range(ms);
                    Bound::Included(Term::from_field_date(
                        f,
                        DateTime::from_timestamp_millis(ms),
                    ))
                }
            };
            let hi = match &r.to {
                None => Bound::Unbounded,
                Some(v) => {
                    let ms = date_millis_tz(fm, fmt, v, r.include_upper, r.time_zone.as_deref())?;
                    let ms = if r.include_upper { ms } else { ms - 1 };
                    let ms = clamp_nanos_range(ms);
                    Bound::Included(Term::from_field_date(
                        f,
                        DateTime::from_timestamp_millis(ms),
                    ))
                }
            };
            (lo, hi)
        }
        Text | Keyword => {
            let b = |v: &Option<Value>, incl: bool| match v {
                None => Bound::Unbounded,
                Some(v) => {
                    let t = Term::from_field_text(f, &text_of(v));
                    if incl {
                        Bound::Included(t)
                    } else {
                        Bound::Excluded(t)
                    }
                }
            };
            (b(&r.from, r.include_lower), b(&r.to, r.include_upper))
        }
        Ip => {
            let b = |v: &Option<Value>, incl: bool| -> Result<Bound<Term>> {
                Ok(match v {
                    None => Bound::Unbounded,
                    Some(v) => {
                        let text = text_of(v);
                        let ip: IpAddr = text.parse().map_err(|_| {
                            cx.shard_error(format!(
                                "failed to create query: '{text}' is not an IP string literal."
                            ))
                        })?;
                        let v6 = match ip {
                            IpAddr::V4(a) => a.to_ipv6_mapped(),
                            IpAddr::V6(a) => a,
                        };
                        let t = Term::from_field_ip_addr(f, v6);
                        if incl {
                            Bound::Included(t)
                        } else {
                            Bound::Excluded(t)
                        }
                    }
                })
            };
            (b(&r.from, r.include_lower)?, b(&r.to, r.include_upper)?)
        }
        Boolean => {
            let b = |v: &Option<Value>, incl: bool| -> Result<Bound<Term>> {
                Ok(match v {
                    None => Bound::Unbounded,
                    Some(v) => {
                        let t = Term::from_field_bool(f, boolean(cx, v)?);
                        if incl {
                            Bound::Included(t)
                        } else {
                            Bound::Excluded(t)
                        }
                    }
                })
            };
            (b(&r.from, r.include_lower)?, b(&r.to, r.include_upper)?)
        }
    };
    if matches!((&lo, &hi), (Bound::Unbounded, Bound::Unbounded)) {
        return Ok(super::exists(cx, &r.field, r.boost));
    }
    if let (Bound::Included(a), Bound::Included(b)) = (&lo, &hi) {
        if a.serialized_value_bytes() > b.serialized_value_bytes()
            && fm.ty != Text
            && fm.ty != Keyword
        {
            return Ok(none());
        }
    }
    let _ = all;
    let on_column = matches!(
        fm.ty,
        Long | Integer
            | Short
            | Byte
            | UnsignedLong
            | Double
            | Float
            | HalfFloat
            | ScaledFloat
            | Date
    );
    // The column's order-preserving u64s, as tantivy's fast-field range reads them.
    let raw = |b: &Bound<Term>| -> Option<Bound<u64>> {
        let v = |t: &Term| {
            let v = t.value();
            v.as_u64()
                .or(v.as_i64().map(tantivy::i64_to_u64))
                .or(v.as_f64().map(tantivy::f64_to_u64))
                .or(v
                    .as_date()
                    .map(|d| tantivy::i64_to_u64(d.into_timestamp_nanos())))
        };
        Some(match b {
            Bound::Included(t) => Bound::Included(v(t)?),
            Bound::Excluded(t) => Bound::Excluded(v(t)?),
            Bound::Unbounded => Bound::Unbounded,
        })
    };
    // Described before the bounds move into the query.
    let text = if !cx.describe {
        None
    } else if matches!(fm.ty, Text | Keyword) {
        let range = super::lucene_string::term_range(&r.field, &lo, &hi);
        let doc_values = cx.searcher.schema().get_field_entry(f).is_fast();
        // The doc-values half prints in a ConstantScore once rewritten, which an explanation
        // shows and `_validate` (the query as parsed) does not.
        let dv = if cx.parsed {
            range.clone()
        } else {
            format!("ConstantScore({range})")
        };
        Some(super::lucene_string::points((range, dv), doc_values))
    } else {
        describe_points(cx, &r.field, f, fm, &lo, &hi)
    };
    if on_column && cx.searcher.schema().get_field_entry(f).is_fast() {
        if let (Some(a), Some(b)) = (raw(&lo), raw(&hi)) {
            let fallback = Box::new(TRange::new(lo, hi));
            let q = match super::constant::ColumnRangeQuery::new(&r.field, a, b, fallback) {
                Some(q) => constant(Box::new(q), r.boost),
                None => none(),
            };
            return Ok(super::describe(cx, q, || text));
        }
    }
    let q = constant(Box::new(TRange::new(lo, hi)), r.boost);
    Ok(super::describe(cx, q, || text))
}
