//! `function_score` as OpenSearch's `FunctionScoreQuery` runs it: the query's score, a factor
//! from the functions whose filter matches (combined by `score_mode`), and the two combined by
//! `boost_mode`, capped by `max_boost`, cut by `min_score`.
//!
//! Arithmetic follows the Java code: function values and their combination in double, the query
//! score a float, the final score cast to float; `field_value_factor` reads the smallest value
//! of a multi-valued field, decays every value (sorted distances, then `multi_value_mode`), and
//! `random_score` hashes the field's value with murmur3 under a seed salted with the index name
//! and shard, bit for bit as OpenSearch. The function_score `boost` reaches the inner query's
//! leaves (Lucene passes it down the weights), so it scales the query score, not the factor.
//!
//! Failures while scoring (a missing value without `missing`, a negative modified value, an
//! invalid final score) cannot leave tantivy's `Scorer::score`; the scorer records the first one
//! and the searcher's caller collects it with [`take_failure`] after the shard is searched.

use super::{build, Context, Q};
use crate::dsl::function_score::{
    BoostMode, DecayKind, FilterFunction, FunctionScoreQuery as Ast, Modifier, MultiValueMode,
    ScoreFunction, ScoreMode,
};
use crate::dsl::Query as Dsl;
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::FieldType;
use crate::index::schema;
use crate::search::term_strings::{self, TermStrings};
use parking_lot::Mutex;
use serde_json::Value;
use std::cell::RefCell;
use std::sync::Arc;
use tantivy::columnar::{Column, StrColumn};
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::Value as _;
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyDocument, TERMINATED};

/// A query's first scoring failure, with the index and shard it was built for.
type Slot = Arc<Mutex<Option<(Error, String, usize)>>>;

thread_local! {
    /// The failure slots of the function_score queries built on this thread.
    static SLOTS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

fn new_slot() -> Slot {
    let slot: Slot = Arc::new(Mutex::new(None));
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        // Slots of queries already dropped can hold nothing new.
        s.retain(|x| Arc::strong_count(x) > 1 || x.lock().is_some());
        s.push(slot.clone());
    });
    slot
}

/// The first scoring failure of the function_score queries built on this thread since the last
/// call (scorers may run on other threads: the slot is shared), clearing them.
pub fn take_failure() -> Option<(Error, String, usize)> {
    SLOTS.with(|s| {
        let mut s = s.borrow_mut();
        let mut found = None;
        for slot in s.iter() {
            if let Some(e) = slot.lock().take() {
                found.get_or_insert(e);
            }
        }
        s.retain(|x| Arc::strong_count(x) > 1);
        found
    })
}

fn fail(query: &FunctionScoreQuery, e: Error) {
    let mut g = query.failure.lock();
    if g.is_none() {
        *g = Some((e, query.index.clone(), query.shard));
    }
}

/// Java's `Double.toString`: the shortest digits that read back, plain between 10^-3 and 10^7,
/// else `d.dddE±n`.
pub fn java_double(v: f64) -> String {
    java_number(v, format!("{v:e}"))
}

/// Java's `Float.toString`.
pub fn java_float(v: f32) -> String {
    java_number(v as f64, format!("{v:e}"))
}

fn java_number(v: f64, sci: String) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let a = v.abs();
    if (1e-3..1e7).contains(&a) {
        let point = exp + 1;
        let (int, frac) = if point <= 0 {
            (
                "0".to_string(),
                "0".repeat((-point) as usize) + digits.as_str(),
            )
        } else if point as usize >= digits.len() {
            (
                digits.clone() + &"0".repeat(point as usize - digits.len()),
                String::new(),
            )
        } else {
            (
                digits[..point as usize].to_string(),
                digits[point as usize..].to_string(),
            )
        };
        let frac = if frac.is_empty() { "0".into() } else { frac };
        format!("{sign}{int}.{frac}")
    } else {
        let frac = if digits.len() > 1 { &digits[1..] } else { "0" };
        format!("{sign}{}.{frac}E{exp}", &digits[..1])
    }
}

/// A numeric doc-values column of any numeric or date type, read as doubles.
#[derive(Clone)]
enum NumColumn {
    I64(Column<i64>),
    U64(Column<u64>),
    F64(Column<f64>),
    Date(Column<tantivy::DateTime>),
    Bool(Column<bool>),
}

impl NumColumn {
    /// The document's values, ascending (Lucene's sorted numeric doc values order).
    fn values(&self, doc: DocId, out: &mut Vec<f64>) {
        out.clear();
        match self {
            NumColumn::I64(c) => out.extend(c.values_for_doc(doc).map(|v| v as f64)),
            NumColumn::U64(c) => out.extend(c.values_for_doc(doc).map(|v| v as f64)),
            NumColumn::F64(c) => out.extend(c.values_for_doc(doc)),
            NumColumn::Date(c) => out.extend(
                c.values_for_doc(doc)
                    .map(|v| v.into_timestamp_millis() as f64),
            ),
            NumColumn::Bool(c) => out.extend(c.values_for_doc(doc).map(|v| v as u8 as f64)),
        }
        if out.len() > 1 {
            out.sort_by(f64::total_cmp);
        }
    }

    /// The document's first (smallest) value as OpenSearch's bytes doc values print it.
    fn first_text(&self, doc: DocId) -> Option<String> {
        match self {
            NumColumn::I64(c) => c.values_for_doc(doc).min().map(|v| v.to_string()),
            NumColumn::U64(c) => c.values_for_doc(doc).min().map(|v| v.to_string()),
            NumColumn::F64(c) => c
                .values_for_doc(doc)
                .min_by(f64::total_cmp)
                .map(java_double),
            NumColumn::Date(c) => c
                .values_for_doc(doc)
                .map(|d| d.into_timestamp_millis())
                .min()
                .map(|v| v.to_string()),
            NumColumn::Bool(c) => c
                .values_for_doc(doc)
                .min()
                .map(|b| (if b { "T" } else { "F" }).to_string()),
        }
    }
}

/// Which column a numeric field reads, by its mapped type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum NumKind {
    I64,
    U64,
    F64,
    Date,
    Bool,
}

fn num_kind(ty: FieldType) -> Option<NumKind> {
    use FieldType::*;
    Some(match ty {
        Long | Integer | Short | Byte => NumKind::I64,
        UnsignedLong => NumKind::U64,
        Double | Float | HalfFloat | ScaledFloat => NumKind::F64,
        Date => NumKind::Date,
        Boolean => NumKind::Bool,
        _ => return None,
    })
}

fn open_column(reader: &SegmentReader, field: &str, kind: NumKind) -> Option<NumColumn> {
    let ff = reader.fast_fields();
    match kind {
        NumKind::I64 => ff.column_opt(field).ok().flatten().map(NumColumn::I64),
        NumKind::U64 => ff.column_opt(field).ok().flatten().map(NumColumn::U64),
        NumKind::F64 => ff.column_opt(field).ok().flatten().map(NumColumn::F64),
        NumKind::Date => ff.column_opt(field).ok().flatten().map(NumColumn::Date),
        NumKind::Bool => ff.column_opt(field).ok().flatten().map(NumColumn::Bool),
    }
}

/// Where `random_score` reads the bytes it hashes.
#[derive(Clone, Debug)]
enum RandomSource {
    /// No seed: the doc id.
    DocId,
    Numeric(String, NumKind),
    Keyword(String),
    /// A seed without a field: the `_id` (deprecated in OpenSearch, still honoured).
    Id,
}

#[derive(Clone, Debug)]
enum Kind {
    One,
    FieldValueFactor {
        field: String,
        factor: f32,
        modifier: Modifier,
        missing: Option<f64>,
        column: Option<NumKind>,
    },
    Random {
        original_seed: i32,
        salted_seed: i32,
        source: RandomSource,
        field: Option<String>,
    },
    Decay {
        kind: DecayKind,
        field: String,
        column: NumKind,
        origin: f64,
        /// The scale after `processScale`.
        scale: f64,
        offset: f64,
        mode: MultiValueMode,
    },
}

#[derive(Debug)]
struct Function {
    filter: Option<Q>,
    /// `match filter(_name: n): <Lucene toString of the filter>`.
    filter_description: String,
    kind: Kind,
    weight: Option<f32>,
    name: Option<String>,
}

impl Clone for Function {
    fn clone(&self) -> Self {
        Function {
            filter: self.filter.as_ref().map(|q| q.box_clone()),
            filter_description: self.filter_description.clone(),
            kind: self.kind.clone(),
            weight: self.weight,
            name: self.name.clone(),
        }
    }
}

impl Function {
    /// `ScoreFunction.getWeight()`: the weight, 1 without one.
    fn weight_value(&self) -> f64 {
        self.weight.unwrap_or(1.0) as f64
    }
}

/// The built query.
#[derive(Debug)]
pub struct FunctionScoreQuery {
    /// Shared, not owned: the weight and every segment's scorer keep a copy of the query, and a
    /// deep copy of the sub-query for each made nested function_scores cubic to explain.
    sub: Arc<dyn Query>,
    sub_name: Option<String>,
    functions: Arc<Vec<Function>>,
    score_mode: ScoreMode,
    boost_mode: BoostMode,
    max_boost: f32,
    min_score: Option<f32>,
    single_function: bool,
    failure: Slot,
    index: String,
    shard: usize,
}

impl FunctionScoreQuery {
    pub(crate) fn sub(&self) -> &dyn Query {
        self.sub.as_ref()
    }
}

impl Clone for FunctionScoreQuery {
    fn clone(&self) -> Self {
        FunctionScoreQuery {
            sub: self.sub.clone(),
            sub_name: self.sub_name.clone(),
            functions: self.functions.clone(),
            score_mode: self.score_mode,
            boost_mode: self.boost_mode,
            max_boost: self.max_boost,
            min_score: self.min_score,
            single_function: self.single_function,
            failure: self.failure.clone(),
            index: self.index.clone(),
            shard: self.shard,
        }
    }
}

/// The query with `f` folded into its boost, as Lucene passes a boost down to the leaves;
/// `None` when the query type carries no boost of its own.
pub fn scale_boost(q: &Dsl, f: f32) -> Option<Dsl> {
    if f == 1.0 {
        return Some(q.clone());
    }
    let mut q = q.clone();
    match &mut q {
        Dsl::MatchAll { boost }
        | Dsl::MatchNone { boost }
        | Dsl::Term { boost, .. }
        | Dsl::Terms { boost, .. }
        | Dsl::Exists { boost, .. }
        | Dsl::Ids { boost, .. }
        | Dsl::Prefix { boost, .. }
        | Dsl::ConstantScore { boost, .. }
        | Dsl::DisMax { boost, .. }
        | Dsl::Boosting { boost, .. } => *boost *= f,
        Dsl::Bool(b) => b.boost *= f,
        Dsl::Match(m) | Dsl::MatchBoolPrefix(m) => m.boost *= f,
        Dsl::MatchPhrase(m) => m.boost *= f,
        Dsl::MultiMatch(m) => m.boost *= f,
        Dsl::Range(r) => r.boost *= f,
        Dsl::FunctionScore(fs) => fs.boost *= f,
        Dsl::TermsSet(t) => t.boost *= f,
        _ => return None,
    }
    Some(q)
}

/// Lucene's `FunctionScoreQuery.toString` around `sub`, the inner query's text: each function
/// as Java's `Object.toString` prints it, its class and hash code. That hash mixes in an enum
/// constant's identity hash, which every JVM draws anew, so no text can equal OpenSearch's
/// there; this one is stable and equal for equal functions, as OpenSearch's is within a run.
pub(crate) fn lucene_text(fs: &Ast, sub: &str) -> String {
    const FUNCTION: &str = "org.opensearch.common.lucene.search.function.";
    const DECAY: &str = "org.opensearch.index.query.functionscore.DecayFunctionBuilder$";
    let mut out = format!("function score ({sub}, functions: [");
    for f in &fs.functions {
        let (package, class) = match (&f.filter, &f.function, f.weight) {
            (Some(_), ..) => (FUNCTION, "FunctionScoreQuery$FilterScoreFunction"),
            (None, ScoreFunction::Weight, _) | (None, _, Some(_)) => {
                (FUNCTION, "WeightFactorFunction")
            }
            (None, ScoreFunction::FieldValueFactor { .. }, None) => {
                (FUNCTION, "FieldValueFactorFunction")
            }
            (None, ScoreFunction::RandomScore { .. }, None) => (FUNCTION, "RandomScoreFunction"),
            (None, ScoreFunction::Decay { .. }, None) => (DECAY, "NumericFieldDataScoreFunction"),
        };
        // FNV-1a over the function as parsed, printed as Java's `Integer.toHexString`.
        let hash = format!("{f:?}").bytes().fold(0x811c_9dc5_u32, |h, b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
        out.push_str(&format!("{{{package}{class}@{hash:x}}}"));
    }
    out.push_str("])");
    out
}

/// `failed to create query: <reason>` around a shard-level build failure.
fn create_failure(cx: &Context, e: Error) -> Error {
    // A shard's own exception passes through `create_failure` itself.
    if e.kind == ErrorKind::Parsing {
        return e;
    }
    cx.create_failure(e)
}

fn not_numeric_fielddata() -> Error {
    Error::new(
        ErrorKind::ClassCast,
        "class org.opensearch.index.fielddata.plain.SortedSetOrdinalsIndexFieldData cannot be cast to class org.opensearch.index.fielddata.IndexNumericFieldData (org.opensearch.index.fielddata.plain.SortedSetOrdinalsIndexFieldData and org.opensearch.index.fielddata.IndexNumericFieldData are in unnamed module of loader 'app')",
    )
}

/// Builds `function_score` for one shard.
pub fn build_function_score(cx: &Context, fs: &Ast) -> Result<Q> {
    // OpenSearch builds the functions (each before its filter), then the query: a failure of
    // each is reported in that order.
    let mut functions = Vec::with_capacity(fs.functions.len());
    for f in &fs.functions {
        functions.push(function(cx, f).map_err(|e| create_failure(cx, e))?);
    }
    let sub = match scale_boost(&fs.query, fs.boost) {
        Some(q) => build(&q, cx)?,
        None => super::boosted(build(&fs.query, cx)?, fs.boost),
    };
    // Where the query is printed, its text (the boost, folded into the sub-query, is
    // OpenSearch's `BoostQuery` around it).
    let text = if cx.label {
        Some(super::lucene_string::function_score(fs, cx)?.0)
    } else {
        None
    };
    let q: Q = Box::new(FunctionScoreQuery {
        sub: Arc::from(sub),
        sub_name: fs.query_name.clone(),
        single_function: fs.single_function(),
        functions: Arc::new(functions),
        score_mode: fs.score_mode,
        boost_mode: fs.boost_mode.unwrap_or(BoostMode::Multiply),
        max_boost: fs.max_boost,
        min_score: fs.min_score,
        failure: new_slot(),
        index: cx.index.to_string(),
        shard: SHARD.with(|s| s.get()) as usize,
    });
    Ok(match text {
        Some(t) => super::label(cx, q, || t),
        None => q,
    })
}

fn function(cx: &Context, f: &FilterFunction) -> Result<Function> {
    let kind = match &f.function {
        ScoreFunction::Weight => Kind::One,
        ScoreFunction::FieldValueFactor {
            field,
            factor,
            modifier,
            missing,
        } => {
            let column = match cx.mapping.field(field) {
                None => {
                    if missing.is_none() {
                        return Err(Error::new(
                            ErrorKind::OpenSearch,
                            format!("Unable to find a field mapper for field [{field}]. No 'missing' value defined."),
                        ));
                    }
                    None
                }
                Some(fm) => match fm.ty {
                    FieldType::Text => return Err(Error::text_fielddata(field)),
                    ty => Some(num_kind(ty).ok_or_else(not_numeric_fielddata)?),
                },
            };
            Kind::FieldValueFactor {
                field: field.clone(),
                factor: *factor,
                modifier: *modifier,
                missing: *missing,
                column,
            }
        }
        ScoreFunction::RandomScore { seed, field } => random(cx, *seed, field.as_deref())?,
        ScoreFunction::Decay {
            kind,
            field,
            params,
            multi_value_mode,
        } => decay(cx, *kind, field, params, *multi_value_mode)?,
    };
    let (filter, filter_description) = match &f.filter {
        Some(q) => {
            let name = match &f.filter_name {
                Some(n) if !n.is_empty() => format!("(_name: {n})"),
                _ => String::new(),
            };
            (
                Some(build(q, cx)?),
                // Only an explanation prints it.
                if cx.describe {
                    let (text, _) = super::lucene_string::render(q, cx).unwrap_or_default();
                    format!("match filter{name}: {text}")
                } else {
                    String::new()
                },
            )
        }
        None => (None, String::new()),
    };
    Ok(Function {
        filter,
        filter_description,
        kind,
        weight: f.weight,
        name: f.name.clone(),
    })
}

thread_local! {
    /// The shard a query is being built for (`random_score` salts its seed with it).
    static SHARD: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Records the shard the next queries on this thread are built for.
pub fn set_shard(shard: usize) {
    SHARD.with(|s| s.set(shard as u32));
}

fn shard_salt(cx: &Context) -> i32 {
    let shard = SHARD.with(|s| s.get()) as i32;
    (crate::util::java_hash::string_hash(cx.index) << 10) | shard
}

/// hppc's `BitMixer.mix32` (murmur3's finalizer).
fn mix32(k: i32) -> i32 {
    let mut k = k as u32;
    k = (k ^ (k >> 16)).wrapping_mul(0x85eb_ca6b);
    k = (k ^ (k >> 13)).wrapping_mul(0xc2b2_ae35);
    (k ^ (k >> 16)) as i32
}

fn random(cx: &Context, seed: Option<i32>, field: Option<&str>) -> Result<Kind> {
    let salt = shard_salt(cx);
    let now_seed = || {
        let ms = crate::query::date_math::now_millis();
        ((ms as u64 >> 32) as i32) ^ (ms as i32)
    };
    let Some(seed) = seed else {
        let s = now_seed();
        return Ok(Kind::Random {
            original_seed: s,
            salted_seed: mix32(s ^ salt),
            source: RandomSource::DocId,
            field: None,
        });
    };
    let (source, name) = match field {
        None | Some("_id") => (RandomSource::Id, "_id".to_string()),
        Some(f @ (schema::SEQ_NO | schema::VERSION | schema::PRIMARY_TERM)) => {
            (RandomSource::Numeric(f.into(), NumKind::I64), f.into())
        }
        Some(f) => match cx.mapping.field(f) {
            None => {
                return Err(Error::illegal_argument(format!(
                    "Field [{f}] is not mapped on [[{}/{}]] and cannot be used as a source of random numbers.",
                    cx.index, cx.index_uuid
                )))
            }
            Some(fm) => match fm.ty {
                FieldType::Text => return Err(Error::text_fielddata(f)),
                FieldType::Keyword => (RandomSource::Keyword(f.into()), f.into()),
                ty => match num_kind(ty) {
                    Some(k) => (RandomSource::Numeric(f.into(), k), f.into()),
                    None => (RandomSource::Keyword(f.into()), f.into()),
                },
            },
        },
    };
    Ok(Kind::Random {
        original_seed: seed,
        salted_seed: mix32(seed ^ salt),
        source,
        field: Some(name),
    })
}

fn parse_exception(reason: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parse, reason)
}

fn field_type_class(ty: FieldType) -> &'static str {
    use FieldType::*;
    match ty {
        Text => "org.opensearch.index.mapper.TextFieldMapper$TextFieldType",
        Keyword => "org.opensearch.index.mapper.KeywordFieldMapper$KeywordFieldType",
        Boolean => "org.opensearch.index.mapper.BooleanFieldMapper$BooleanFieldType",
        Ip => "org.opensearch.index.mapper.IpFieldMapper$IpFieldType",
        _ => "org.opensearch.index.mapper.MappedFieldType",
    }
}

fn decay(
    cx: &Context,
    kind: DecayKind,
    field: &str,
    params: &[(String, Value)],
    mode: MultiValueMode,
) -> Result<Kind> {
    let at = |col| crate::dsl::json::Pos { line: 1, col };
    let Some(fm) = cx.mapping.field(field) else {
        return Err(crate::dsl::parsing(
            format!("unknown field [{field}]"),
            at(0),
        ));
    };
    let is_date = fm.ty == FieldType::Date;
    let column = match num_kind(fm.ty) {
        Some(k) if fm.ty != FieldType::Boolean => k,
        _ => {
            // Java prints the field type object; its identity hash is this process's own.
            let hash = crate::util::java_hash::string_hash(field) as u32;
            return Err(crate::dsl::parsing(
                format!(
                    "field [{field}] is of type [{}@{hash:x}], but only numeric types are supported.",
                    field_type_class(fm.ty)
                ),
                at(1),
            ));
        }
    };
    let number = |v: &Value| -> Result<f64> {
        let text = super::values::text_of(v);
        match v {
            Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0)),
            _ => text.trim().parse::<f64>().map_err(|_| {
                Error::new(
                    ErrorKind::NumberFormat,
                    format!("For input string: \"{text}\""),
                )
            }),
        }
    };
    let (origin, scale, offset, decay_v) = if is_date {
        let (mut scale, mut origin, mut offset, mut decay_v) = (None, None, "0d".to_string(), 0.5);
        for (k, v) in params {
            match k.as_str() {
                "scale" => scale = Some(super::values::text_of(v)),
                "origin" => origin = Some(v.clone()),
                "decay" => decay_v = number(v)?,
                "offset" => offset = super::values::text_of(v),
                _ => return Err(parse_exception(format!("parameter [{k}] not supported!"))),
            }
        }
        let origin = match origin {
            None => crate::query::date_math::now_millis(),
            Some(v) => super::values::date_millis_pub(fm, None, &v, false)?,
        };
        let Some(scale) = scale else {
            return Err(parse_exception("[scale] must be set for date fields."));
        };
        let millis = |s: &str, key: &str| -> Result<f64> {
            let d = crate::util::units::parse_time_value(s, key)?;
            Ok(d.map_or(-1.0, |d| d.as_millis() as f64))
        };
        let scale = millis(&scale, "DecayFunctionParser.scale")?;
        let offset = millis(&offset, "DecayFunctionParser.offset")?;
        (origin as f64, scale, offset, decay_v)
    } else {
        let (mut scale, mut origin, mut offset, mut decay_v) = (None, None, 0.0, 0.5);
        for (k, v) in params {
            match k.as_str() {
                "scale" => scale = Some(number(v)?),
                "decay" => decay_v = number(v)?,
                "origin" => origin = Some(number(v)?),
                "offset" => offset = number(v)?,
                _ => return Err(parse_exception(format!("parameter [{k}] not supported!"))),
            }
        }
        let (Some(scale), Some(origin)) = (scale, origin) else {
            return Err(parse_exception(
                "both [scale] and [origin] must be set for numeric fields.",
            ));
        };
        (origin, scale, offset, decay_v)
    };
    if scale <= 0.0 {
        return Err(Error::illegal_argument(
            "function_score : scale must be > 0.0.",
        ));
    }
    if decay_v <= 0.0 || decay_v >= 1.0 {
        return Err(Error::illegal_argument(
            "function_score : decay must be in the range [0..1].",
        ));
    }
    let processed = match kind {
        DecayKind::Gauss => 0.5 * scale.powi(2) / decay_v.ln(),
        DecayKind::Linear => scale / (1.0 - decay_v),
        DecayKind::Exp => decay_v.ln() / scale,
    };
    if offset < 0.0 {
        return Err(Error::illegal_argument(
            "function_score : offset must be > 0.0",
        ));
    }
    Ok(Kind::Decay {
        kind,
        field: field.to_string(),
        column,
        origin,
        scale: processed,
        offset,
        mode,
    })
}

fn evaluate(kind: DecayKind, distance: f64, scale: f64) -> f64 {
    match kind {
        DecayKind::Gauss => (0.5 * distance.powi(2) / scale).exp(),
        DecayKind::Linear => ((scale - distance) / scale).max(0.0),
        DecayKind::Exp => (scale * distance).exp(),
    }
}

/// MultiValueMode's pick over sorted distances.
fn pick(mode: MultiValueMode, d: &[f64]) -> f64 {
    match mode {
        MultiValueMode::Min => d[0],
        MultiValueMode::Max => d[d.len() - 1],
        MultiValueMode::Sum => d.iter().sum(),
        MultiValueMode::Avg => d.iter().sum::<f64>() / d.len() as f64,
        MultiValueMode::Median => {
            let n = d.len();
            if n.is_multiple_of(2) {
                (d[(n - 1) / 2] + d[(n - 1) / 2 + 1]) / 2.0
            } else {
                d[(n - 1) / 2]
            }
        }
    }
}

/// A function opened on one segment.
struct LeafFunction {
    kind: Kind,
    weight: Option<f32>,
    name: Option<String>,
    numbers: Option<NumColumn>,
    /// With its decoded terms: every scored doc reads its value.
    keyword: Option<(StrColumn, Option<Arc<TermStrings>>)>,
    reader: SegmentReader,
    buf: Vec<f64>,
}

impl LeafFunction {
    fn open(f: &Function, reader: &SegmentReader) -> LeafFunction {
        let (numbers, keyword) = match &f.kind {
            Kind::FieldValueFactor {
                field,
                column: Some(k),
                ..
            } => (open_column(reader, field, *k), None),
            Kind::Decay { field, column, .. } => (open_column(reader, field, *column), None),
            Kind::Random {
                source: RandomSource::Numeric(field, k),
                ..
            } => (open_column(reader, field, *k), None),
            Kind::Random {
                source: RandomSource::Keyword(field),
                ..
            } => (
                None,
                crate::search::open_columns::keyword(reader, field)
                    .ok()
                    .flatten()
                    .map(|c| {
                        let terms = term_strings::term_strings(reader.segment_id(), field, &c);
                        (c, terms)
                    }),
            ),
            _ => (None, None),
        };
        LeafFunction {
            kind: f.kind.clone(),
            weight: f.weight,
            name: f.name.clone(),
            numbers,
            keyword,
            reader: reader.clone(),
            buf: Vec::new(),
        }
    }

    /// The function's value (times its weight), or why it cannot be computed.
    fn score(&mut self, doc: DocId) -> std::result::Result<f64, Error> {
        let v = self.raw(doc)?;
        Ok(match self.weight {
            Some(w) => v * w as f64,
            None => v,
        })
    }

    fn raw(&mut self, doc: DocId) -> std::result::Result<f64, Error> {
        match &self.kind {
            Kind::One => Ok(1.0),
            Kind::FieldValueFactor {
                field,
                factor,
                modifier,
                missing,
                ..
            } => {
                let value = match &self.numbers {
                    Some(c) => {
                        c.values(doc, &mut self.buf);
                        self.buf.first().copied()
                    }
                    None => None,
                };
                let value = match (value, missing) {
                    (Some(v), _) => v,
                    (None, Some(m)) => *m,
                    (None, None) => {
                        return Err(Error::new(
                            ErrorKind::OpenSearch,
                            format!("Missing value for field [{field}]"),
                        ))
                    }
                };
                let result = modifier.apply(value * *factor as f64);
                if result < 0.0 {
                    let mut message = format!(
                        "field value function must not produce negative scores, but got: [{}] for field value: [{}]",
                        java_double(result),
                        java_double(value)
                    );
                    match modifier {
                        Modifier::Ln => message.push_str(
                            "; consider using ln1p or ln2p instead of ln to avoid negative scores",
                        ),
                        Modifier::Log => message.push_str(
                            "; consider using log1p or log2p instead of log to avoid negative scores",
                        ),
                        _ => {}
                    }
                    return Err(Error::illegal_argument(message));
                }
                Ok(result)
            }
            Kind::Random {
                salted_seed,
                source,
                ..
            } => {
                let hash = match source {
                    RandomSource::DocId => mix32((doc as i32) ^ salted_seed),
                    RandomSource::Numeric(..) => {
                        match self.numbers.as_ref().and_then(|c| c.first_text(doc)) {
                            Some(t) => murmur(t.as_bytes(), *salted_seed),
                            None => *salted_seed,
                        }
                    }
                    RandomSource::Keyword(_) => {
                        let text = self.keyword.as_ref().and_then(|(c, terms)| {
                            let ord = c.ords().values_for_doc(doc).min()?;
                            term_strings::term_of(terms.as_deref(), c, ord)
                        });
                        match text {
                            Some(t) => murmur(t.as_bytes(), *salted_seed),
                            None => *salted_seed,
                        }
                    }
                    RandomSource::Id => match stored_id(&self.reader, doc) {
                        Some(id) => murmur(id.as_bytes(), *salted_seed),
                        None => *salted_seed,
                    },
                };
                Ok(((hash & 0x00FF_FFFF) as f32 / (1u32 << 24) as f32) as f64)
            }
            Kind::Decay {
                kind,
                origin,
                scale,
                offset,
                mode,
                ..
            } => {
                let (kind, origin, scale, offset, mode) = (*kind, *origin, *scale, *offset, *mode);
                Ok(evaluate(
                    kind,
                    self.distance(doc, origin, offset, mode),
                    scale,
                ))
            }
        }
    }

    fn distance(&mut self, doc: DocId, origin: f64, offset: f64, mode: MultiValueMode) -> f64 {
        let Some(c) = &self.numbers else {
            return 0.0;
        };
        c.values(doc, &mut self.buf);
        if self.buf.is_empty() {
            return 0.0;
        }
        let mut d: Vec<f64> = self
            .buf
            .iter()
            .map(|v| ((v - origin).abs() - offset).max(0.0))
            .collect();
        d.sort_by(f64::total_cmp);
        pick(mode, &d)
    }

    /// `LeafScoreFunction.explainScore`, with the weight's `product of:` around it.
    fn explain(&mut self, doc: DocId) -> std::result::Result<Explanation, Error> {
        let inner = self.explain_raw(doc)?;
        Ok(match self.weight {
            Some(w) => {
                let mut e = Explanation::new("product of:", inner.value() * w);
                e.add_detail(inner);
                e.add_const("weight", w);
                e
            }
            None => inner,
        })
    }

    fn explain_raw(&mut self, doc: DocId) -> std::result::Result<Explanation, Error> {
        let value = self.raw(doc)? as f32;
        let name_arg = match &self.name {
            Some(n) if !n.is_empty() => format!(", _name: {n}"),
            _ => String::new(),
        };
        Ok(match self.kind.clone() {
            Kind::One => Explanation::new("constant score 1.0 - no function provided", 1.0),
            Kind::FieldValueFactor {
                field,
                factor,
                modifier,
                missing,
                ..
            } => Explanation::new_with_string(
                format!(
                    "field value function: {}(doc['{field}'].value{} * factor={})",
                    modifier.name(),
                    missing.map_or(String::new(), |m| format!("?:{}", java_double(m))),
                    java_float(factor)
                ),
                value,
            ),
            Kind::Random {
                original_seed,
                field,
                ..
            } => Explanation::new_with_string(
                format!(
                    "random score function (seed: {original_seed}, field: {}{name_arg})",
                    field.as_deref().unwrap_or("null")
                ),
                value,
            ),
            Kind::Decay {
                kind,
                field,
                origin,
                scale,
                offset,
                mode,
                ..
            } => {
                let mut values = Vec::new();
                if let Some(c) = &self.numbers {
                    c.values(doc, &mut values);
                }
                let list = if values.is_empty() {
                    "0.0".to_string()
                } else {
                    values
                        .iter()
                        .map(|v| {
                            format!(
                                "Math.max(Math.abs({}(=doc value) - {}(=origin))) - {}(=offset), 0)",
                                java_double(*v),
                                java_double(origin),
                                java_double(offset)
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let dist = format!("{}[{list}]", mode.name());
                let text = match kind {
                    DecayKind::Gauss => {
                        format!("exp(-0.5*pow({dist},2.0)/{})", java_double(-scale))
                    }
                    DecayKind::Linear => format!(
                        "max(0.0, (({} - {dist})/{})",
                        java_double(scale),
                        java_double(scale)
                    ),
                    DecayKind::Exp => format!("exp(- {dist} * {})", java_double(-scale)),
                };
                let mut e =
                    Explanation::new_with_string(format!("Function for field {field}:"), value);
                e.add_detail(Explanation::new_with_string(text, value));
                e
            }
        })
    }
}

fn murmur(bytes: &[u8], seed: i32) -> i32 {
    crate::util::murmur3::murmur3_x86_32(bytes, seed as u32) as i32
}

fn stored_id(reader: &SegmentReader, doc: DocId) -> Option<String> {
    let store = reader.get_store_reader(1).ok()?;
    let d: TantivyDocument = store.get(doc).ok()?;
    let f = reader.schema().get_field(schema::ID).ok()?;
    d.get_first(f).and_then(|v| v.as_str().map(String::from))
}

impl Query for FunctionScoreQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let scores = scoring.is_scoring_enabled();
        let searcher = scoring.searcher();
        let filters = self
            .functions
            .iter()
            .map(|f| match (&f.filter, searcher) {
                (Some(q), Some(s)) => q.weight(EnableScoring::disabled_from_searcher(s)).map(Some),
                (Some(q), None) => q
                    .weight(EnableScoring::disabled_from_schema(scoring.schema()))
                    .map(Some),
                (None, _) => Ok(None),
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        // With min_score the scores decide what matches, even when the caller only counts.
        let sub_scoring = match (scoring, self.min_score) {
            (
                EnableScoring::Disabled {
                    searcher_opt: Some(s),
                    ..
                },
                Some(_),
            ) => EnableScoring::enabled_from_searcher(s),
            (other, _) => other,
        };
        Ok(Box::new(FunctionScoreWeight {
            sub: self.sub.weight(sub_scoring)?,
            filters,
            query: self.clone(),
            scoring: scores || self.min_score.is_some(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        self.sub.query_terms(visitor);
    }
}

struct FunctionScoreWeight {
    sub: Box<dyn Weight>,
    filters: Vec<Option<Box<dyn Weight>>>,
    query: FunctionScoreQuery,
    scoring: bool,
}

impl FunctionScoreWeight {
    fn function_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<FunctionScorer> {
        let filters = self
            .filters
            .iter()
            .map(|w| w.as_ref().map(|w| w.scorer(reader, 1.0)).transpose())
            .collect::<tantivy::Result<Vec<_>>>()?;
        let leaves = self
            .query
            .functions
            .iter()
            .map(|f| LeafFunction::open(f, reader))
            .collect();
        Ok(FunctionScorer {
            sub: self.sub.scorer(reader, boost)?,
            filters,
            leaves,
            query: self.query.clone(),
            needs_sub_score: self.query.boost_mode != BoostMode::Replace,
            score: 0.0,
            doc: 0,
        })
    }
}

impl Weight for FunctionScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut s = self.function_scorer(reader, boost)?;
        if !self.scoring {
            return Ok(s.sub);
        }
        s.settle();
        Ok(Box::new(s))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut sub_expl = self.sub.explain(reader, doc)?;
        if let Some(n) = self.query.sub_name.as_deref().filter(|n| !n.is_empty()) {
            let mut e = Explanation::new_with_string(
                format!("{} (_name: {n})", description_of(&sub_expl)),
                sub_expl.value(),
            );
            for d in details_of(&sub_expl) {
                e.add_detail(d);
            }
            sub_expl = e;
        }
        let mut s = self.function_scorer(reader, 1.0)?;
        if s.sub.seek(doc) != doc {
            return Ok(sub_expl);
        }
        let q = &self.query;
        let mut expl = sub_expl;
        if !q.functions.is_empty() {
            let mut parts = Vec::new();
            for (i, f) in q.functions.iter().enumerate() {
                if !s.filter_matches(i, doc) {
                    continue;
                }
                let fe = s.leaves[i]
                    .explain(doc)
                    .map_err(|e| tantivy::TantivyError::InvalidArgument(e.reason))?;
                if f.filter.is_some() {
                    let mut w = Explanation::new("function score, product of:", fe.value());
                    w.add_detail(Explanation::new_with_string(
                        f.filter_description.clone(),
                        1.0,
                    ));
                    w.add_detail(fe);
                    parts.push(w);
                } else {
                    parts.push(fe);
                }
            }
            let factor = if parts.is_empty() {
                Explanation::new("No function matched", 1.0)
            } else if q.single_function && parts.len() == 1 {
                parts.remove(0)
            } else {
                let score = s
                    .factor(doc, expl.value())
                    .map_err(|e| tantivy::TantivyError::InvalidArgument(e.reason))?;
                let mut e = Explanation::new_with_string(
                    format!("function score, score mode [{}]", q.score_mode.name()),
                    score as f32,
                );
                for p in parts {
                    e.add_detail(p);
                }
                e
            };
            expl = combine_explain(q.boost_mode, expl, factor, q.max_boost);
        }
        if let Some(min) = q.min_score {
            if min > expl.value() {
                let mut e = Explanation::new_with_string(
                    format!(
                        "Score value is too low, expected at least {} but got {}",
                        java_float(min),
                        java_float(expl.value())
                    ),
                    0.0,
                );
                e.add_detail(expl);
                return Ok(e);
            }
        }
        Ok(expl)
    }

    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if self.query.min_score.is_none() {
            return self.sub.count(reader);
        }
        let mut s = self.scorer(reader, 1.0)?;
        let alive = reader.alive_bitset();
        let mut n = 0;
        let mut d = s.doc();
        while d != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(d)) {
                n += 1;
            }
            d = s.advance();
        }
        Ok(n)
    }
}

fn description_of(e: &Explanation) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| {
            v.get("description")
                .and_then(Value::as_str)
                .map(String::from)
        })
        .unwrap_or_default()
}

/// The children of an explanation (tantivy keeps them private), rebuilt from its serialized form.
fn details_of(e: &Explanation) -> Vec<Explanation> {
    fn rebuild(v: &Value) -> Explanation {
        let mut e = Explanation::new_with_string(
            v.get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            v.get("value").and_then(Value::as_f64).unwrap_or(0.0) as f32,
        );
        for d in v
            .get("details")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            e.add_detail(rebuild(d));
        }
        e
    }
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.get("details").and_then(Value::as_array).cloned())
        .unwrap_or_default()
        .iter()
        .map(rebuild)
        .collect()
}

/// `CombineFunction.explain`.
fn combine_explain(
    mode: BoostMode,
    query: Explanation,
    func: Explanation,
    max_boost: f32,
) -> Explanation {
    let capped = func.value().min(max_boost);
    let mut min_of = Explanation::new("min of:", capped);
    min_of.add_detail(func);
    min_of.add_const("maxBoost", max_boost);
    let q = query.value();
    let (desc, value) = match mode {
        BoostMode::Replace => return min_of,
        BoostMode::Multiply => ("function score, product of:", q * capped),
        BoostMode::Sum => ("sum of", capped + q),
        BoostMode::Avg => ("avg of", ((capped as f64 + q as f64) / 2.0) as f32),
        BoostMode::Min => ("min of", capped.min(q)),
        BoostMode::Max => ("max of:", capped.max(q)),
    };
    let mut e = Explanation::new(desc, value);
    e.add_detail(query);
    e.add_detail(min_of);
    e
}

struct FunctionScorer {
    sub: Box<dyn Scorer>,
    filters: Vec<Option<Box<dyn Scorer>>>,
    leaves: Vec<LeafFunction>,
    query: FunctionScoreQuery,
    needs_sub_score: bool,
    score: f32,
    /// The current doc, kept here: asking `sub` walks down every nested scorer, so with
    /// `function_score`s nested n deep each step cost n² (a 300-deep nest took a second).
    doc: DocId,
}

impl FunctionScorer {
    fn filter_matches(&mut self, i: usize, doc: DocId) -> bool {
        match &mut self.filters[i] {
            None => true,
            Some(f) => {
                if f.doc() < doc {
                    f.seek(doc);
                }
                f.doc() == doc
            }
        }
    }

    /// `computeScore`: the functions' factor for a document, in double.
    fn factor(&mut self, doc: DocId, _sub: f32) -> std::result::Result<f64, Error> {
        // One function without a filter is OpenSearch's single-function query: the factor is
        // the function's own score whatever `score_mode` says (`avg` divides by no weight).
        if self.query.single_function && self.leaves.len() == 1 {
            return self.leaves[0].score(doc);
        }
        let n = self.leaves.len();
        let mut factor = 1f64;
        match self.query.score_mode {
            ScoreMode::First => {
                for i in 0..n {
                    if self.filter_matches(i, doc) {
                        factor = self.leaves[i].score(doc)?;
                        break;
                    }
                }
            }
            ScoreMode::Max => {
                let mut m = f64::NEG_INFINITY;
                for i in 0..n {
                    if self.filter_matches(i, doc) {
                        m = self.leaves[i].score(doc)?.max(m);
                    }
                }
                if m != f64::NEG_INFINITY {
                    factor = m;
                }
            }
            ScoreMode::Min => {
                let mut m = f64::INFINITY;
                for i in 0..n {
                    if self.filter_matches(i, doc) {
                        m = self.leaves[i].score(doc)?.min(m);
                    }
                }
                if m != f64::INFINITY {
                    factor = m;
                }
            }
            ScoreMode::Multiply => {
                for i in 0..n {
                    if self.filter_matches(i, doc) {
                        factor *= self.leaves[i].score(doc)?;
                    }
                }
            }
            ScoreMode::Sum | ScoreMode::Avg => {
                let (mut total, mut weights) = (0f64, 0f64);
                for i in 0..n {
                    if self.filter_matches(i, doc) {
                        total += self.leaves[i].score(doc)?;
                        weights += self.query.functions[i].weight_value();
                    }
                }
                if weights != 0.0 {
                    factor = total;
                    if self.query.score_mode == ScoreMode::Avg {
                        factor /= weights;
                    }
                }
            }
        }
        Ok(factor)
    }

    fn compute(&mut self) -> std::result::Result<f32, Error> {
        let doc = self.doc;
        let sub = if self.needs_sub_score {
            self.sub.score()
        } else {
            0.0
        };
        if self.leaves.is_empty() {
            return Ok(sub);
        }
        let factor = self.factor(doc, sub)?;
        let q = sub as f64;
        let f = factor.min(self.query.max_boost as f64);
        let score = match self.query.boost_mode {
            BoostMode::Multiply => (q * f) as f32,
            BoostMode::Replace => f as f32,
            BoostMode::Sum => (q + f) as f32,
            BoostMode::Avg => ((f + q) / 2.0) as f32,
            BoostMode::Min => q.min(f) as f32,
            BoostMode::Max => q.max(f) as f32,
        };
        if score < 0.0 || score.is_nan() {
            return Err(Error::new(
                ErrorKind::OpenSearch,
                format!(
                    "function score query returned an invalid score: {} for doc: {doc}",
                    java_float(score)
                ),
            ));
        }
        Ok(score)
    }

    /// Moves to the first document at or after the current one that scores (and, with
    /// `min_score`, scores enough); a scoring failure is recorded and ends the segment.
    fn settle(&mut self) -> DocId {
        loop {
            let d = self.sub.doc();
            self.doc = d;
            if d == TERMINATED {
                return d;
            }
            match self.compute() {
                Ok(s) => {
                    if self.query.min_score.is_none_or(|m| s >= m) {
                        self.score = s;
                        return d;
                    }
                }
                Err(e) => {
                    fail(&self.query, e);
                    while self.sub.advance() != TERMINATED {}
                    self.doc = TERMINATED;
                    return TERMINATED;
                }
            }
            self.sub.advance();
        }
    }
}

impl DocSet for FunctionScorer {
    fn advance(&mut self) -> DocId {
        self.sub.advance();
        self.settle()
    }
    fn seek(&mut self, target: DocId) -> DocId {
        self.sub.seek(target);
        self.settle()
    }
    fn doc(&self) -> DocId {
        self.doc
    }
    fn size_hint(&self) -> u32 {
        self.sub.size_hint()
    }
}

impl Scorer for FunctionScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_number_formats() {
        assert_eq!(java_double(1.0), "1.0");
        assert_eq!(java_double(0.0013862943611198907), "0.0013862943611198907");
        assert_eq!(java_double(1803.3688011112042), "1803.3688011112042");
        assert_eq!(java_double(1.728e11), "1.728E11");
        assert_eq!(java_double(8.64e7), "8.64E7");
        assert_eq!(java_double(1.5175296e12), "1.5175296E12");
        assert_eq!(java_double(4.199999809265137), "4.199999809265137");
        assert_eq!(java_double(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(java_double(1e-4), "1.0E-4");
        assert_eq!(java_double(100.0), "100.0");
        assert_eq!(java_float(3.4028235e38), "3.4028235E38");
        assert_eq!(java_float(1.2), "1.2");
    }

    #[test]
    fn random_matches_opensearch() {
        // OpenSearch 2.19: index fn_books, shard 0, seed 42, _seq_no 0 scores 0.3410765.
        // Shard 0: the shard number ORed in below the hash is nothing.
        let salt = crate::util::java_hash::string_hash("fn_books") << 10;
        let salted = mix32(42 ^ salt);
        let h = murmur(b"0", salted);
        let s = (h & 0x00FF_FFFF) as f32 / (1u32 << 24) as f32;
        assert_eq!(s, 0.3410765);
    }

    #[test]
    fn decays() {
        // gauss origin 200 scale 100 offset 10 decay 0.3 on 250: OpenSearch 0.82478243.
        let scale = 0.5 * 100f64.powi(2) / 0.3f64.ln();
        let d = ((250f64 - 200.0).abs() - 10.0).max(0.0);
        assert_eq!(evaluate(DecayKind::Gauss, d, scale) as f32, 0.82478243);
        assert_eq!(pick(MultiValueMode::Median, &[1.0, 2.0, 3.0, 4.0]), 2.5);
    }
}
