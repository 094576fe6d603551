//! `_source` → the values each mapped field indexes, with OpenSearch's coercions and errors, and
//! the dynamic mapping update a document introduces.

use crate::error::{Error, ErrorKind, Result};
use crate::index::date_format::DateFormat;
use crate::index::mapping::{Dynamic, FieldMapping, FieldType, Mapping, ObjectMapping, Property};
use crate::index::source_tree::Json;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::net::{IpAddr, Ipv6Addr};

/// A value to index. Strings borrow from the parsed source (or the mapping's `null_value`)
/// where they can: the document is built right after parsing, and each copy is one allocation
/// per value of every document ingested.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue<'a> {
    Str(Cow<'a, str>),
    I64(i64),
    U64(u64),
    F64(f64),
    Bool(bool),
    DateMillis(i64),
    Ip(Ipv6Addr),
    /// Precedes each value of a text field whose mapping sets `position_increment_gap`.
    PositionGap(u32),
}

/// A field path and one of its values.
pub type Values<'a> = Vec<(Cow<'a, str>, FieldValue<'a>)>;

#[derive(Debug, Default)]
pub struct ParsedDocument<'a> {
    pub values: Values<'a>,
    /// New fields this document introduces (dynamic mapping), as a mapping to merge.
    pub dynamic_update: Option<Value>,
}

struct Ctx<'a, 'i> {
    id: &'i str,
    mapping: &'a Mapping,
    out: ParsedDocument<'a>,
    update: Map<String, Value>,
}

/// The values `source` indexes under `mapping`; they borrow from both.
pub fn parse_document<'a>(
    mapping: &'a Mapping,
    id: &str,
    source: &'a Json<'a>,
) -> Result<ParsedDocument<'a>> {
    let Json::Object(root) = source else {
        return Err(Error::new(
            ErrorKind::MapperParsing,
            "failed to parse, document is empty",
        ));
    };
    let mut ctx = Ctx {
        id,
        mapping,
        out: ParsedDocument::default(),
        update: Map::new(),
    };
    for (key, value) in root {
        let key = key.as_ref();
        if crate::index::schema::is_metadata_field(key) {
            return Err(field_error(id, key, key, value).caused_by(Error::new(
                ErrorKind::MapperParsing,
                format!("Field [{key}] is a metadata field and cannot be added inside a document. Use the index API request parameters."),
            )));
        }
    }
    let root_dynamic = mapping.root.dynamic.unwrap_or(Dynamic::True);
    if mapping.root.enabled {
        parse_object(&mut ctx, "", &mapping.root, root_dynamic, root)?;
    }
    if !ctx.update.is_empty() {
        ctx.out.dynamic_update =
            Some(json!({ "properties": Value::Object(std::mem::take(&mut ctx.update)) }));
    }
    Ok(ctx.out)
}

/// Moves values parsed from a tree that lives shorter than the document (a dotted key's
/// expansion, a `null_value`) into the document, owning their strings.
fn adopt(ctx: &mut Ctx<'_, '_>, values: Values<'_>) {
    ctx.out.values.extend(
        values
            .into_iter()
            .map(|(p, v)| (Cow::Owned(p.into_owned()), v.into_owned())),
    );
}

type Entries<'a> = [(Cow<'a, str>, Json<'a>)];

fn parse_object<'a>(
    ctx: &mut Ctx<'a, '_>,
    prefix: &str,
    obj: &'a ObjectMapping,
    dynamic: Dynamic,
    doc: &'a Entries<'a>,
) -> Result<()> {
    for (key, value) in doc {
        let key: &'a str = key.as_ref();
        if key.is_empty() || key.trim().is_empty() {
            return Err(
                Error::new(ErrorKind::MapperParsing, "failed to parse".to_string()).caused_by(
                    Error::illegal_argument("field name cannot be an empty string".to_string()),
                ),
            );
        }
        if key.chars().all(|c| c == '.') {
            return Err(
                Error::new(ErrorKind::MapperParsing, "failed to parse").caused_by(
                    Error::illegal_argument("field name cannot contain only the character [.]"),
                ),
            );
        }
        if let Some((head, rest)) = key.split_once('.') {
            // `{"a.b": 1}` is `{"a": {"b": 1}}`. Rare: its values are copied out of the tree
            // built here, which lives only as long as this call.
            let inner = Json::Object(vec![(Cow::Borrowed(rest), value.clone())]);
            let outer = [(Cow::Borrowed(head), inner)];
            let mut sub = Ctx {
                id: ctx.id,
                mapping: ctx.mapping,
                out: ParsedDocument::default(),
                update: std::mem::take(&mut ctx.update),
            };
            let parsed = parse_object(&mut sub, prefix, obj, dynamic, &outer);
            ctx.update = sub.update;
            parsed?;
            adopt(ctx, sub.out.values);
            continue;
        }
        let path: Cow<'a, str> = if prefix.is_empty() {
            Cow::Borrowed(key)
        } else {
            Cow::Owned(format!("{prefix}.{key}"))
        };
        match obj.properties.get(key) {
            Some(Property::Object(child)) => {
                let child_dynamic = child.dynamic.unwrap_or(dynamic);
                match value {
                    Json::Object(m) if child.enabled => {
                        parse_object(ctx, &path, child, child_dynamic, m)?
                    }
                    Json::Object(_) | Json::Null => {}
                    Json::Array(items) => {
                        for item in items {
                            match item {
                                Json::Object(m) if child.enabled => {
                                    parse_object(ctx, &path, child, child_dynamic, m)?
                                }
                                Json::Null | Json::Object(_) => {}
                                _ => return Err(concrete_on_object(&path)),
                            }
                        }
                    }
                    _ if !child.enabled => {}
                    _ => return Err(concrete_on_object(&path)),
                }
            }
            Some(Property::Field(field)) => parse_field_values(ctx, &path, field, value)?,
            None => match dynamic {
                Dynamic::False => {}
                Dynamic::Strict => {
                    let within = if prefix.is_empty() {
                        "_doc".to_string()
                    } else {
                        prefix.rsplit('.').next().unwrap_or(prefix).to_string()
                    };
                    return Err(Error::new(
                        ErrorKind::StrictDynamicMapping,
                        format!("mapping set to strict, dynamic introduction of [{key}] within [{within}] is not allowed"),
                    ));
                }
                Dynamic::True => {
                    if let Some(def) = infer(ctx.mapping, &value.to_value()) {
                        insert_update(&mut ctx.update, &path, def);
                    }
                }
            },
        }
    }
    Ok(())
}

fn concrete_on_object(path: &str) -> Error {
    Error::new(
        ErrorKind::MapperParsing,
        format!("object mapping for [{path}] tried to parse field [{}] as object, but found a concrete value", path.rsplit('.').next().unwrap_or(path)),
    )
}

/// Puts a dynamic definition at `a.b.c` inside nested `properties`.
fn insert_update(update: &mut Map<String, Value>, path: &str, def: Value) {
    let mut parts = path.split('.').peekable();
    let mut cur = update;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            cur.entry(part.to_string()).or_insert(def);
            return;
        }
        let entry = cur
            .entry(part.to_string())
            .or_insert_with(|| json!({"properties": {}}));
        let Some(props) = entry.as_object_mut().and_then(|o| {
            o.entry("properties").or_insert_with(|| json!({}));
            o.get_mut("properties")
        }) else {
            return;
        };
        let Value::Object(p) = props else { return };
        cur = p;
    }
}

const DYNAMIC_DATE_FORMATS: &[&str] = &[
    "strict_date_optional_time",
    "yyyy/MM/dd HH:mm:ss||yyyy/MM/dd",
];

/// The mapping OpenSearch's dynamic mapping gives a new value.
fn infer(mapping: &Mapping, value: &Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::Bool(_) => Some(json!({"type": "boolean"})),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(json!({"type": "long"})),
        Value::Number(_) => Some(json!({"type": "float"})),
        Value::String(s) => {
            if mapping.date_detection() {
                let custom: Option<Vec<String>> = mapping
                    .root_params
                    .get("dynamic_date_formats")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(String::from))
                            .collect()
                    });
                let formats: Vec<String> = custom.unwrap_or_else(|| {
                    DYNAMIC_DATE_FORMATS.iter().map(|s| s.to_string()).collect()
                });
                for fmt in &formats {
                    let parsed = DateFormat::parse_format(fmt)
                        .ok()
                        .and_then(|f| f.parse_millis(s).ok());
                    if parsed.is_some() {
                        if fmt == "strict_date_optional_time" {
                            return Some(json!({"type": "date"}));
                        }
                        // Detected dates print with the format's first pattern; the default
                        // slash formats keep epoch_millis, as OpenSearch's do.
                        let print = fmt.split("||").next().unwrap_or(fmt).to_string();
                        let format = if DYNAMIC_DATE_FORMATS.contains(&fmt.as_str()) {
                            format!("{fmt}||epoch_millis")
                        } else {
                            fmt.clone()
                        };
                        return Some(
                            json!({"type": "date", "format": format, "print_format": print}),
                        );
                    }
                }
            }
            if mapping.numeric_detection() {
                if s.parse::<i64>().is_ok() {
                    return Some(json!({"type": "long"}));
                }
                if s.parse::<f64>().is_ok() {
                    return Some(json!({"type": "float"}));
                }
            }
            Some(
                json!({"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}}),
            )
        }
        Value::Array(items) => items
            .iter()
            .find(|v| !v.is_null())
            .and_then(|v| infer(mapping, v)),
        Value::Object(m) => {
            let mut props = Map::new();
            for (k, v) in m {
                if let Some(def) = infer(mapping, v) {
                    insert_update(&mut props, k, def);
                }
            }
            Some(if props.is_empty() {
                json!({"type": "object"})
            } else {
                json!({"properties": props})
            })
        }
    }
}

impl FieldValue<'_> {
    /// The same value, owning its string.
    pub fn into_owned(self) -> FieldValue<'static> {
        match self {
            FieldValue::Str(s) => FieldValue::Str(Cow::Owned(s.into_owned())),
            FieldValue::I64(v) => FieldValue::I64(v),
            FieldValue::U64(v) => FieldValue::U64(v),
            FieldValue::F64(v) => FieldValue::F64(v),
            FieldValue::Bool(v) => FieldValue::Bool(v),
            FieldValue::DateMillis(v) => FieldValue::DateMillis(v),
            FieldValue::Ip(v) => FieldValue::Ip(v),
            FieldValue::PositionGap(v) => FieldValue::PositionGap(v),
        }
    }
}

// A `&Cow`, not a `&str`: values keep borrowing the source's key where the path is one.
#[allow(clippy::ptr_arg)]
fn parse_field_values<'a>(
    ctx: &mut Ctx<'a, '_>,
    path: &Cow<'a, str>,
    field: &'a FieldMapping,
    value: &'a Json<'a>,
) -> Result<()> {
    match value {
        Json::Array(items) => {
            for item in items {
                if item.is_array() {
                    // Nested arrays flatten, as OpenSearch reads them.
                    parse_field_values(ctx, path, field, item)?;
                } else {
                    parse_one(ctx, path, field, item)?;
                }
            }
            Ok(())
        }
        other => parse_one(ctx, path, field, other),
    }
}

// A `&Cow`, not a `&str`: values keep borrowing the source's key where the path is one.
#[allow(clippy::ptr_arg)]
fn parse_one<'a>(
    ctx: &mut Ctx<'a, '_>,
    path: &Cow<'a, str>,
    field: &'a FieldMapping,
    value: &'a Json<'a>,
) -> Result<()> {
    if value.is_null() {
        let Some(null_value) = &field.null_value else {
            return Ok(());
        };
        let substitute = Json::from_value(null_value);
        let mut sub = Ctx {
            id: ctx.id,
            mapping: ctx.mapping,
            out: ParsedDocument::default(),
            update: std::mem::take(&mut ctx.update),
        };
        let parsed = parse_one(&mut sub, path, field, &substitute);
        ctx.update = sub.update;
        parsed?;
        adopt(ctx, sub.out.values);
        return Ok(());
    }
    if let Json::Object(_) = value {
        return Err(
            field_error(ctx.id, path, field.ty.name(), value).caused_by(Error::new(
                ErrorKind::IllegalState,
                "Can't get text on a START_OBJECT".to_string(),
            )),
        );
    }
    let converted = match convert(field, value) {
        Ok(v) => v,
        Err(_) if field.ignore_malformed => return Ok(()),
        Err(cause) => {
            return Err(field_error(ctx.id, path, field.ty.name(), value).caused_by(cause))
        }
    };
    let Some(converted) = converted else {
        return Ok(());
    };
    for (sub, sf) in &field.fields {
        let sub_path = Cow::Owned(format!("{path}.{sub}"));
        parse_one(ctx, &sub_path, sf, value)?;
    }
    let mapping = ctx.mapping;
    for target in &field.copy_to {
        if let Some(tf) = mapping.field(target) {
            parse_one(ctx, &Cow::Borrowed(target.as_str()), tf, value)?;
        }
    }
    if field.index || field.doc_values {
        if let (FieldType::Text, Some(gap)) = (field.ty, field.position_increment_gap) {
            ctx.out
                .values
                .push((path.clone(), FieldValue::PositionGap(gap)));
        }
        ctx.out.values.push((path.clone(), converted));
    }
    Ok(())
}

fn preview(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(m) => {
            let inner: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}={}", preview(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => other.to_string(),
    }
}

fn field_error(id: &str, path: &str, ty: &str, value: &Json) -> Error {
    Error::new(
        ErrorKind::MapperParsing,
        format!(
            "failed to parse field [{path}] of type [{ty}] in document with id '{id}'. Preview of field's value: '{}'",
            preview(&value.to_value())
        ),
    )
}

/// A value as text: a string as it is, anything else as JSON prints it.
fn text_of<'a>(value: &'a Json<'_>) -> Cow<'a, str> {
    match value {
        Json::String(s) => Cow::Borrowed(s.as_ref()),
        other => Cow::Owned(other.to_value().to_string()),
    }
}

fn number_format(s: &str) -> Error {
    Error::illegal_argument(format!("For input string: \"{s}\""))
}

/// `Ok(None)`: nothing to index (e.g. a keyword past `ignore_above`).
fn convert<'a>(field: &FieldMapping, value: &'a Json<'_>) -> Result<Option<FieldValue<'a>>> {
    use FieldType::*;
    Ok(Some(match field.ty {
        Text => FieldValue::Str(text_of(value)),
        Keyword => {
            let s = text_of(value);
            if let Some(limit) = field.ignore_above {
                if s.chars().count() > limit {
                    return Ok(None);
                }
            }
            FieldValue::Str(s)
        }
        Long | Integer | Short | Byte => {
            let (min, max, name) = match field.ty {
                Integer => (i32::MIN as i64, i32::MAX as i64, "integer"),
                Short => (i16::MIN as i64, i16::MAX as i64, "short"),
                Byte => (i8::MIN as i64, i8::MAX as i64, "byte"),
                _ => (i64::MIN, i64::MAX, "long"),
            };
            let v = integral(value, field.coerce, name)?;
            if v < min as i128 || v > max as i128 {
                return Err(Error::illegal_argument(format!(
                    "Value [{}] is out of range for {} {name}",
                    text_of(value),
                    article(name)
                )));
            }
            FieldValue::I64(v as i64)
        }
        UnsignedLong => {
            let v = integral(value, field.coerce, "unsigned_long")?;
            if v < 0 || v > u64::MAX as i128 {
                return Err(Error::illegal_argument(format!(
                    "Value [{}] is out of range for an unsigned long",
                    text_of(value)
                )));
            }
            FieldValue::U64(v as u64)
        }
        Double | Float | HalfFloat | ScaledFloat => {
            let v = match value {
                Json::Number(n) => n.as_f64().unwrap_or(f64::NAN),
                Json::String(s) if field.coerce => {
                    s.trim().parse::<f64>().map_err(|_| number_format(s))?
                }
                Json::Bool(_) | Json::String(_) => return Err(number_format(&text_of(value))),
                _ => return Err(number_format(&text_of(value))),
            };
            if !v.is_finite() {
                return Err(Error::illegal_argument(format!(
                    "[{}] supports only finite values, but got [{v}]",
                    field.ty.name()
                )));
            }
            FieldValue::F64(match field.ty {
                Float => v as f32 as f64,
                HalfFloat => half_round(v),
                ScaledFloat => (v * field.scaling_factor).round() / field.scaling_factor,
                _ => v,
            })
        }
        Boolean => FieldValue::Bool(match value {
            Json::Bool(b) => *b,
            Json::String(s) if s == "true" => true,
            Json::String(s) if s == "false" || s.is_empty() => false,
            other => {
                return Err(Error::illegal_argument(format!(
                    "Failed to parse value [{}] as only [true] or [false] are allowed.",
                    text_of(other)
                )))
            }
        }),
        Date => {
            let fmt = field
                .date_format
                .as_ref()
                .expect("date fields carry a format");
            let text = match value {
                Json::String(s) => s.to_string(),
                Json::Number(n) => n.to_string(),
                other => {
                    return Err(Error::illegal_argument(format!(
                        "failed to parse date field [{}]",
                        text_of(other)
                    )))
                }
            };
            FieldValue::DateMillis(fmt.parse_millis(&text)?)
        }
        Ip => {
            let s = text_of(value);
            let ip: IpAddr = s.parse().map_err(|_| {
                Error::illegal_argument(format!("'{s}' is not an IP string literal."))
            })?;
            FieldValue::Ip(match ip {
                IpAddr::V4(v4) => v4.to_ipv6_mapped(),
                IpAddr::V6(v6) => v6,
            })
        }
    }))
}

fn article(name: &str) -> &'static str {
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

fn integral(value: &Json, coerce: bool, _name: &str) -> Result<i128> {
    match value {
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i as i128)
            } else if let Some(u) = n.as_u64() {
                Ok(u as i128)
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                if !coerce && f.fract() != 0.0 {
                    return Err(Error::illegal_argument(format!(
                        "Value [{f}] has a decimal part"
                    )));
                }
                Ok(f.trunc() as i128)
            }
        }
        Json::String(s) if coerce => {
            let t = s.trim();
            if let Ok(i) = t.parse::<i128>() {
                return Ok(i);
            }
            let f: f64 = t.parse().map_err(|_| number_format(s))?;
            if !f.is_finite() {
                return Err(number_format(s));
            }
            Ok(f.trunc() as i128)
        }
        other => Err(number_format(&text_of(other))),
    }
}

/// Rounds to the nearest IEEE half-precision value, as a `half_float` field stores it.
fn half_round(v: f64) -> f64 {
    let f = v as f32;
    if f == 0.0 || !f.is_finite() {
        return f as f64;
    }
    let exp = f.abs().log2().floor().max(-14.0);
    let step = 2f32.powf(exp - 10.0);
    ((f / step).round() * step) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapping(v: Value) -> Mapping {
        Mapping::parse(&v).unwrap()
    }

    #[derive(Debug)]
    struct Parsed {
        values: Vec<(String, FieldValue<'static>)>,
        dynamic_update: Option<Value>,
    }

    fn parse(m: &Mapping, doc: &Value) -> Result<Parsed> {
        let tree = Json::from_value(doc);
        let p = parse_document(m, "1", &tree)?;
        Ok(Parsed {
            values: p
                .values
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
            dynamic_update: p.dynamic_update,
        })
    }

    #[test]
    fn dynamic_update_for_new_fields() {
        let m = Mapping::empty();
        let doc = json!({"title": "Hello", "n": 3, "f": 1.5, "b": true, "d": "2020-01-01", "o": {"x": "y"}});
        let p = parse(&m, &doc).unwrap();
        let up = p.dynamic_update.unwrap();
        assert_eq!(
            up["properties"]["title"]["fields"]["keyword"]["ignore_above"],
            256
        );
        assert_eq!(up["properties"]["n"]["type"], "long");
        assert_eq!(up["properties"]["f"]["type"], "float");
        assert_eq!(up["properties"]["d"]["type"], "date");
        assert_eq!(up["properties"]["o"]["properties"]["x"]["type"], "text");
        let merged = m.merged(&Mapping::parse(&up).unwrap()).unwrap();
        let p2 = parse(&merged, &doc).unwrap();
        assert!(p2.dynamic_update.is_none());
        assert!(p2
            .values
            .contains(&("title.keyword".into(), FieldValue::Str("Hello".into()))));
        assert!(p2
            .values
            .contains(&("o.x".into(), FieldValue::Str("y".into()))));
    }

    #[test]
    fn type_errors() {
        let m = mapping(json!({"properties": {"n": {"type": "long"}, "i": {"type": "integer"}}}));
        let e = parse(&m, &json!({"n": "abc"})).unwrap_err();
        assert_eq!(e.reason, "failed to parse field [n] of type [long] in document with id '1'. Preview of field's value: 'abc'");
        assert_eq!(
            e.caused_by.unwrap().type_name(),
            "illegal_argument_exception"
        );
        let p = parse(&m, &json!({"n": "42", "i": 7.9})).unwrap();
        assert!(p.values.contains(&("n".into(), FieldValue::I64(42))));
        assert!(p.values.contains(&("i".into(), FieldValue::I64(7))));
        assert!(parse(&m, &json!({"i": 3_000_000_000i64})).is_err());
    }

    #[test]
    fn dotted_keys_and_escaped_strings() {
        let m = mapping(json!({"properties": {
            "a": {"properties": {"b": {"type": "keyword"}, "c": {"type": "text"}}},
            "n": {"type": "keyword", "null_value": "none"}
        }}));
        let src = br#"{"a.b":"x","a":{"c":"line\nnext"},"n":null}"#;
        let tree = Json::parse_object(src).unwrap();
        let p = parse_document(&m, "1", &tree).unwrap();
        assert!(p.dynamic_update.is_none());
        assert_eq!(
            p.values,
            vec![
                ("a.b".into(), FieldValue::Str("x".into())),
                ("a.c".into(), FieldValue::Str("line\nnext".into())),
                ("n".into(), FieldValue::Str("none".into())),
            ]
        );
    }

    #[test]
    fn strict_and_false() {
        let m = mapping(json!({"dynamic": "strict", "properties": {"a": {"type": "keyword"}}}));
        let e = parse(&m, &json!({"b": 1})).unwrap_err();
        assert_eq!(
            e.reason,
            "mapping set to strict, dynamic introduction of [b] within [_doc] is not allowed"
        );
        let m = mapping(json!({"dynamic": false}));
        let p = parse(&m, &json!({"b": 1})).unwrap();
        assert!(p.dynamic_update.is_none() && p.values.is_empty());
    }

    #[test]
    fn ignore_above_copy_to_null_value() {
        let m = mapping(json!({"properties": {
            "k": {"type": "keyword", "ignore_above": 3, "null_value": "NA", "copy_to": "all"},
            "all": {"type": "text"}
        }}));
        let p = parse(&m, &json!({"k": ["abcd", "ab", null]})).unwrap();
        assert!(p
            .values
            .contains(&("k".into(), FieldValue::Str("ab".into()))));
        assert!(!p
            .values
            .contains(&("k".into(), FieldValue::Str("abcd".into()))));
        assert!(p
            .values
            .contains(&("k".into(), FieldValue::Str("NA".into()))));
        assert!(p
            .values
            .contains(&("all".into(), FieldValue::Str("ab".into()))));
    }
}
