//! The fetch sub-phases beside `_source`: `docvalue_fields` (from the columns), `fields` (from
//! `_source`, read through the mapping), both with `format` for dates, and `matched_queries`.

use super::request::FieldAndFormat;
use super::term_strings;
use crate::error::{Error, Result};
use crate::index::mapping::{FieldType, Mapping};
use crate::index::schema;
use crate::query::{self, Context};
use serde_json::{Map, Value};
use tantivy::query::EnableScoring;
use tantivy::{DocAddress, Searcher};

/// OpenSearch's glob (`*` only) over field names.
fn glob(pattern: &str, name: &str) -> bool {
    fn rec(p: &[u8], s: &[u8]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|i| rec(rest, &s[i..])),
            Some((c, rest)) => s.first() == Some(c) && rec(rest, &s[1..]),
        }
    }
    rec(pattern.as_bytes(), name.as_bytes())
}

/// How `docvalue_fields` reads a metadata field.
#[derive(Clone, Copy, PartialEq)]
enum Meta {
    Id,
    Index,
    SeqNo,
    /// Named without error, printed as nothing (OpenSearch has no value for it there).
    PrimaryTerm,
    /// No field data: the request fails.
    Unsupported,
}

/// The metadata fields, in the order a pattern meets them: OpenSearch's `_*` and `*` fail on
/// `_routing` first.
const METADATA: [(&str, Meta); 10] = [
    ("_routing", Meta::Unsupported),
    (schema::ID, Meta::Id),
    ("_index", Meta::Index),
    (schema::SEQ_NO, Meta::SeqNo),
    ("_primary_term", Meta::PrimaryTerm),
    ("_version", Meta::Unsupported),
    ("_source", Meta::Unsupported),
    ("_ignored", Meta::Unsupported),
    ("_field_names", Meta::Unsupported),
    ("_doc_count", Meta::Unsupported),
];

fn metadata(path: &str) -> Option<Meta> {
    METADATA.iter().find(|(n, _)| *n == path).map(|(_, m)| *m)
}

/// The fields a requested entry names: a pattern expands over the metadata fields, then the
/// mapped leaves; a name is kept when it is either.
fn expand(mapping: &Mapping, entries: &[FieldAndFormat]) -> Vec<(String, Option<String>)> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for e in entries {
        if e.field.contains('*') {
            let leaves = mapping.leaves();
            let names = METADATA
                .iter()
                .map(|(n, _)| *n)
                .chain(leaves.iter().map(|l| l.path.as_str()));
            for name in names {
                if glob(&e.field, name) && !out.iter().any(|(p, _)| p == name) {
                    out.push((name.to_string(), e.format.clone()));
                }
            }
        } else if (metadata(&e.field).is_some() || mapping.field(&e.field).is_some())
            && !out.iter().any(|(p, _)| *p == e.field)
        {
            out.push((e.field.clone(), e.format.clone()));
        }
    }
    out
}

/// `fields` and `docvalue_fields` resolved against one shard's mapping: each entry's pattern
/// expanded to the fields it names, with its format. Built once per shard that fetches hits.
#[derive(Default)]
pub struct ShardFields {
    fields: Vec<(String, Option<String>)>,
    docvalue: Vec<(String, Option<String>)>,
}

impl ShardFields {
    /// Fails as OpenSearch's shard does when it builds the fetch: a `docvalue_fields` metadata
    /// field or text field without field data, a `format` on a metadata field, or a `fields`
    /// format on anything but a date.
    pub fn resolve(
        mapping: &Mapping,
        fields: &[FieldAndFormat],
        docvalue: &[FieldAndFormat],
    ) -> Result<ShardFields> {
        let docvalue = expand(mapping, docvalue);
        for (path, format) in &docvalue {
            match metadata(path) {
                Some(Meta::Unsupported) => {
                    return Err(Error::illegal_argument(format!(
                        "Fielddata is not supported on field [{path}] of type [{path}]"
                    )))
                }
                Some(Meta::Id | Meta::Index | Meta::SeqNo) if format.is_some() => {
                    return Err(Error::illegal_argument(format!(
                        "Field [{path}] of type [{path}] does not support custom formats"
                    )))
                }
                None if mapping
                    .field(path)
                    .is_some_and(|fm| fm.ty == FieldType::Text) =>
                {
                    return Err(Error::text_fielddata(path))
                }
                _ => {}
            }
        }
        let fields = expand(mapping, fields);
        for (path, format) in &fields {
            // The `fields` option formats dates only; other field types refuse a format.
            match mapping.field(path) {
                Some(fm) if format.is_some() && fm.ty != FieldType::Date => {
                    return Err(Error::illegal_argument(format!(
                        "Field [{path}] of type [{}] doesn't support formats.",
                        fm.ty.name()
                    )))
                }
                _ => {}
            }
        }
        Ok(ShardFields { fields, docvalue })
    }
}

/// A date (epoch millis) in a `format`; without one, `strict_date_optional_time`.
pub fn format_date(ms: i64, format: Option<&str>) -> Value {
    let Some(dt) = chrono::DateTime::from_timestamp_millis(ms) else {
        return Value::from(ms.to_string());
    };
    let Some(fmt) = format else {
        return Value::from(crate::index::date_format::format_iso_millis(ms));
    };
    let fmt = fmt.split("||").next().unwrap_or(fmt);
    match fmt {
        "epoch_millis" => Value::from(ms.to_string()),
        "epoch_second" => Value::from(ms.div_euclid(1000).to_string()),
        "strict_date_optional_time" | "date_optional_time" | "strict_date_time" | "date_time" => {
            Value::from(crate::index::date_format::format_iso_millis(ms))
        }
        "strict_date" | "date" => Value::from(dt.format("%Y-%m-%d").to_string()),
        pattern => Value::from(dt.format(&java_pattern(pattern)).to_string()),
    }
}

/// A java.time pattern as a chrono format string (the common letters).
fn java_pattern(p: &str) -> String {
    let chars: Vec<char> = p.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut n = 1;
        while i + n < chars.len() && chars[i + n] == c {
            n += 1;
        }
        match c {
            'y' | 'u' => out.push_str(if n == 2 { "%y" } else { "%Y" }),
            'M' => out.push_str(match n {
                1 => "%-m",
                2 => "%m",
                3 => "%b",
                _ => "%B",
            }),
            'd' => out.push_str(if n == 1 { "%-d" } else { "%d" }),
            'H' => out.push_str(if n == 1 { "%-H" } else { "%H" }),
            'm' => out.push_str(if n == 1 { "%-M" } else { "%M" }),
            's' => out.push_str(if n == 1 { "%-S" } else { "%S" }),
            'S' => out.push_str(&format!("%{}f", n.min(9))),
            'D' => out.push_str("%j"),
            'E' => out.push_str(if n >= 4 { "%A" } else { "%a" }),
            'X' | 'Z' => out.push_str("%:z"),
            '\'' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&x| x == '\'')
                    .map_or(chars.len(), |e| i + 1 + e);
                out.extend(chars[i + 1..end].iter());
                i = end + 1;
                continue;
            }
            '%' => out.push_str(&"%%".repeat(n)),
            other => out.extend(std::iter::repeat_n(other, n)),
        }
        i += n;
    }
    out
}

/// The `_id` and `_index` a hit prints, which `docvalue_fields` repeats.
pub struct Printed<'a> {
    /// `None` when the hit prints no `_id` (`stored_fields: _none_`).
    pub id: Option<&'a str>,
    pub index: &'a str,
}

/// `docvalue_fields` of one hit (its address, and what it prints as `_id` and `_index`), read
/// from the segment's columns.
pub fn docvalue_fields(
    searcher: &Searcher,
    mapping: &Mapping,
    resolved: &ShardFields,
    (addr, hit): (DocAddress, Printed),
    out: &mut Map<String, Value>,
) {
    let reader = searcher.segment_reader(addr.segment_ord);
    let ff = reader.fast_fields();
    let doc = addr.doc_id;
    for (path, format) in &resolved.docvalue {
        if let Some(m) = metadata(path) {
            let value = match m {
                Meta::Id => hit.id.map(Value::from),
                Meta::Index => Some(Value::from(hit.index)),
                Meta::SeqNo => {
                    super::open_columns::seq_no(reader).map(|c| Value::from(c.get_val(doc)))
                }
                Meta::PrimaryTerm | Meta::Unsupported => None,
            };
            if let Some(v) = value {
                out.insert(path.clone(), Value::Array(vec![v]));
            }
            continue;
        }
        let Some(fm) = mapping.field(path) else {
            continue;
        };
        use FieldType::*;
        let values: Vec<Value> = match fm.ty {
            Keyword | Ip => match super::open_columns::keyword(reader, path).ok().flatten() {
                Some(col) => {
                    let terms = term_strings::term_strings(reader.segment_id(), path, &col);
                    col.ords()
                        .values_for_doc(doc)
                        .filter_map(|ord| term_strings::term_of(terms.as_deref(), &col, ord))
                        .map(Value::from)
                        .collect()
                }
                None => Vec::new(),
            },
            Long | Integer | Short | Byte => {
                let mut v: Vec<i64> = ff
                    .column_opt::<i64>(path)
                    .ok()
                    .flatten()
                    .map(|c| c.values_for_doc(doc).collect())
                    .unwrap_or_default();
                v.sort();
                v.into_iter().map(Value::from).collect()
            }
            UnsignedLong => {
                let mut v: Vec<u64> = ff
                    .column_opt::<u64>(path)
                    .ok()
                    .flatten()
                    .map(|c| c.values_for_doc(doc).collect())
                    .unwrap_or_default();
                v.sort();
                v.into_iter().map(Value::from).collect()
            }
            Double | Float | HalfFloat | ScaledFloat => {
                let mut v: Vec<f64> = ff
                    .column_opt::<f64>(path)
                    .ok()
                    .flatten()
                    .map(|c| c.values_for_doc(doc).collect())
                    .unwrap_or_default();
                v.sort_by(f64::total_cmp);
                v.into_iter().map(Value::from).collect()
            }
            Boolean => {
                let mut v: Vec<bool> = ff
                    .column_opt::<bool>(path)
                    .ok()
                    .flatten()
                    .map(|c| c.values_for_doc(doc).collect())
                    .unwrap_or_default();
                v.sort();
                v.into_iter().map(Value::from).collect()
            }
            Date => {
                let mut v: Vec<i64> = ff
                    .column_opt::<tantivy::DateTime>(path)
                    .ok()
                    .flatten()
                    .map(|c| {
                        c.values_for_doc(doc)
                            .map(|d| d.into_timestamp_millis())
                            .collect()
                    })
                    .unwrap_or_default();
                v.sort();
                v.into_iter()
                    .map(|ms| format_date(ms, format.as_deref()))
                    .collect()
            }
            Text => Vec::new(),
        };
        if !values.is_empty() {
            out.insert(path.clone(), Value::Array(values));
        }
    }
}

/// The values at a dotted path of a source document (arrays flattened, dotted keys allowed).
pub(crate) fn source_values<'a>(src: &'a Value, path: &str, out: &mut Vec<&'a Value>) {
    match src {
        Value::Array(items) => items.iter().for_each(|i| source_values(i, path, out)),
        Value::Null => {}
        Value::Object(m) => {
            if path.is_empty() {
                return;
            }
            let ends = path
                .match_indices('.')
                .map(|(i, _)| i)
                .chain(std::iter::once(path.len()));
            for end in ends {
                if let Some(v) = m.get(&path[..end]) {
                    let rest = if end == path.len() {
                        ""
                    } else {
                        &path[end + 1..]
                    };
                    source_values(v, rest, out);
                }
            }
        }
        v => {
            if path.is_empty() {
                out.push(v)
            }
        }
    }
}

/// `fields` of one hit, read from its `_source` through the mapping.
pub fn fields(
    mapping: &Mapping,
    resolved: &ShardFields,
    src: &Value,
    out: &mut Map<String, Value>,
) {
    for (path, format) in &resolved.fields {
        let Some(fm) = mapping.field(path) else {
            continue;
        };
        let mut raw = Vec::new();
        source_values(src, path, &mut raw);
        let values: Vec<Value> = raw
            .into_iter()
            .filter_map(|v| match fm.ty {
                FieldType::Date => {
                    let text = match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    let ms = match &fm.date_format {
                        Some(f) => f.parse_millis(&text).ok(),
                        None => crate::index::date_format::DateFormat::default_format()
                            .parse_millis(&text)
                            .ok(),
                    }?;
                    Some(format_date(ms, format.as_deref()))
                }
                FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
                    match v {
                        Value::String(s) => {
                            s.trim().parse::<f64>().ok().map(|n| Value::from(n as i64))
                        }
                        Value::Number(n) => Some(Value::from(n.as_f64().unwrap_or(0.0) as i64)),
                        other => Some(other.clone()),
                    }
                }
                FieldType::Keyword | FieldType::Text => Some(match v {
                    Value::String(_) => v.clone(),
                    other => Value::from(other.to_string()),
                }),
                _ => Some(v.clone()),
            })
            .collect();
        if !values.is_empty() {
            out.insert(path.clone(), Value::Array(values));
        }
    }
}

/// The named queries a hit matches, with their scores on it, in OpenSearch's order.
pub fn matched_queries(
    named: &[(String, crate::dsl::Query)],
    cx: &Context,
    addr: DocAddress,
) -> Vec<(String, f32)> {
    let mut out: Vec<(String, f32)> = Vec::new();
    for (name, ast) in named {
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        let Ok(q) = query::build(ast, cx) else {
            continue;
        };
        let Ok(w) = q.weight(EnableScoring::enabled_from_searcher(cx.searcher)) else {
            continue;
        };
        let reader = cx.searcher.segment_reader(addr.segment_ord);
        let Ok(mut s) = w.scorer(reader, 1.0) else {
            continue;
        };
        let alive = reader.alive_bitset();
        if query::reaches(s.as_mut(), addr.doc_id) && alive.is_none_or(|a| a.is_alive(addr.doc_id))
        {
            out.push((name.clone(), s.score()));
        }
    }
    crate::util::java_hash::hash_order(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_globs() {
        assert_eq!(format_date(1459728000000, Some("yyyy/MM/dd")), "2016/04/04");
        assert_eq!(format_date(1459728000000, None), "2016-04-04T00:00:00.000Z");
        assert_eq!(
            format_date(1459728000000, Some("epoch_millis")),
            "1459728000000"
        );
        assert!(glob("t*", "tags") && !glob("t*", "pages"));
    }
}
