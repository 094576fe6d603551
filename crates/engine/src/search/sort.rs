//! `sort`: by field (fast-field values; on arrays min for ascending and max for descending
//! unless `mode` says otherwise), `_score` and `_doc`, with `order`, `mode` and `missing`.

use crate::dsl::json::{Node, J};
use crate::dsl::parsing;
use crate::error::{Error, Result};
use crate::index::mapping::FieldType;
use serde_json::Value;
use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq)]
pub enum SortField {
    Score,
    Doc,
    Field(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Missing {
    Last,
    First,
    Value(Value),
}

/// How a multi-valued field's values make one sort value (OpenSearch's `SortMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Min,
    Max,
    Sum,
    Avg,
    Median,
}

impl Mode {
    fn parse(s: &str, pos: crate::dsl::json::Pos) -> Result<Mode> {
        match s.to_ascii_lowercase().as_str() {
            "min" => Ok(Mode::Min),
            "max" => Ok(Mode::Max),
            "sum" => Ok(Mode::Sum),
            "avg" => Ok(Mode::Avg),
            "median" => Ok(Mode::Median),
            _ => Err(
                crate::dsl::x_content("[field_sort] failed to parse field [mode]", pos)
                    .caused_by(Error::illegal_argument(format!("Unknown SortMode [{s}]"))),
            ),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SortSpec {
    pub field: SortField,
    pub ascending: bool,
    pub missing: Missing,
    /// `None`: min for ascending, max for descending.
    pub mode: Option<Mode>,
    /// The type to sort by where the field is not mapped (every doc then misses it).
    pub unmapped_type: Option<String>,
}

impl SortSpec {
    /// The mode a field's values are reduced with.
    pub fn effective_mode(&self) -> Mode {
        self.mode
            .unwrap_or(if self.ascending { Mode::Min } else { Mode::Max })
    }
}

impl SortSpec {
    fn new(name: &str) -> SortSpec {
        let field = match name {
            "_score" => SortField::Score,
            "_doc" => SortField::Doc,
            f => SortField::Field(f.to_string()),
        };
        // _score sorts descending by default, everything else ascending.
        let ascending = field != SortField::Score;
        SortSpec {
            field,
            ascending,
            missing: Missing::Last,
            mode: None,
            unmapped_type: None,
        }
    }
}

/// `asc` or `desc` in any case, as Java's `SortOrder.valueOf` of the upper-cased text reads it.
fn order(s: &str) -> Result<bool> {
    match s.to_uppercase().as_str() {
        "ASC" => Ok(true),
        "DESC" => Ok(false),
        upper => Err(Error::illegal_argument(format!(
            "No enum constant org.opensearch.search.sort.SortOrder.{upper}"
        ))),
    }
}

/// The `order` option of a sort's object form: its object parser (`_score`'s own, else
/// `field_sort`) takes a string and wraps what `order` refuses.
fn order_option(name: &str, x: &Node) -> Result<bool> {
    let parser = if name == "_score" {
        "_score"
    } else {
        "field_sort"
    };
    match &x.v {
        J::Str(s) => order(s).map_err(|e| {
            crate::dsl::x_content(format!("[{parser}] failed to parse field [order]"), x.pos)
                .caused_by(e)
        }),
        _ => Err(crate::dsl::x_content(
            format!(
                "[{parser}] order doesn't support values of type: {}",
                x.token()
            ),
            x.pos,
        )),
    }
}

fn one(node: &Node, out: &mut Vec<SortSpec>) -> Result<()> {
    match &node.v {
        J::Str(s) => out.push(SortSpec::new(s)),
        J::Obj(entries) => {
            for (name, _, v) in entries {
                let mut spec = SortSpec::new(name);
                match &v.v {
                    J::Str(s) => spec.ascending = order(s)?,
                    J::Obj(opts) => {
                        for (k, kpos, x) in opts {
                            if name == "_score" && k != "order" {
                                // `_score`'s own object parser knows only the order.
                                return Err(crate::dsl::x_content(
                                    format!("[_score] unknown field [{k}]"),
                                    *kpos,
                                ));
                            }
                            match k.as_str() {
                                "order" => spec.ascending = order_option(name, x)?,
                                "missing" => {
                                    spec.missing = match x.text().as_deref() {
                                        Some("_last") => Missing::Last,
                                        Some("_first") => Missing::First,
                                        _ => Missing::Value(x.to_value()),
                                    }
                                }
                                "mode" => {
                                    spec.mode =
                                        Some(Mode::parse(&x.text().unwrap_or_default(), x.pos)?)
                                }
                                "unmapped_type" => match &x.v {
                                    J::Str(t) => spec.unmapped_type = Some(t.clone()),
                                    _ => {
                                        return Err(crate::dsl::x_content(
                                            format!(
                                                "[field_sort] unmapped_type doesn't support values of type: {}",
                                                x.token()
                                            ),
                                            x.pos,
                                        ))
                                    }
                                },
                                "numeric_type" | "format" => {}
                                _ => {
                                    return Err(parsing(
                                        format!("[field_sort] unknown field [{k}]"),
                                        x.pos,
                                    ))
                                }
                            }
                        }
                    }
                    _ => {
                        return Err(parsing(
                            format!("[sort] unexpected value for [{name}]"),
                            v.pos,
                        ))
                    }
                }
                out.push(spec);
            }
        }
        _ => return Err(parsing("[sort] unexpected token", node.pos)),
    }
    Ok(())
}

pub fn parse_body(node: &Node) -> Result<Vec<SortSpec>> {
    let mut out = Vec::new();
    match &node.v {
        J::Arr(items) => {
            for it in items {
                one(it, &mut out)?;
            }
        }
        _ => one(node, &mut out)?,
    }
    Ok(out)
}

/// `?sort=field:asc,other` (a field alone keeps its default order).
pub fn parse_param(s: &str) -> Result<Vec<SortSpec>> {
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        match part.rsplit_once(':') {
            // An order other than `asc`/`desc` drops the entry, as OpenSearch's REST layer does.
            Some((f, o)) if o == "asc" || o == "desc" => {
                let mut spec = SortSpec::new(f);
                spec.ascending = o == "asc";
                out.push(spec);
            }
            Some(_) => {}
            None => out.push(SortSpec::new(part)),
        }
    }
    Ok(out)
}

/// One sort value of a hit.
#[derive(Debug, Clone, PartialEq)]
pub enum SortValue {
    Missing,
    I64(i64),
    U64(u64),
    F64(f64),
    Str(String),
}

impl SortValue {
    pub fn to_json(&self, missing: &Missing, ascending: bool, ty: Option<FieldType>) -> Value {
        match self {
            SortValue::Missing => match missing {
                Missing::Value(v) => v.clone(),
                // OpenSearch prints the extreme value it sorted the missing doc with.
                _ => {
                    let first = matches!(missing, Missing::First);
                    let low = first == ascending;
                    match ty {
                        // Sorted as bytes, where a missing value has no substitute.
                        Some(FieldType::Keyword | FieldType::Ip) | None => Value::Null,
                        Some(
                            FieldType::Double
                            | FieldType::Float
                            | FieldType::HalfFloat
                            | FieldType::ScaledFloat,
                        ) => {
                            if low {
                                Value::from("-Infinity")
                            } else {
                                Value::from("Infinity")
                            }
                        }
                        // Lucene sorts these as ints.
                        Some(FieldType::Integer | FieldType::Short | FieldType::Byte) => {
                            Value::from(if low { i32::MIN } else { i32::MAX })
                        }
                        Some(FieldType::UnsignedLong) => {
                            Value::from(if low { 0 } else { u64::MAX })
                        }
                        _ => {
                            if low {
                                Value::from(i64::MIN)
                            } else {
                                Value::from(i64::MAX)
                            }
                        }
                    }
                }
            },
            SortValue::I64(v) => Value::from(*v),
            SortValue::U64(v) => Value::from(*v),
            SortValue::F64(v) => Value::from(*v),
            SortValue::Str(s) => Value::from(s.clone()),
        }
    }

    fn cmp_present(&self, other: &SortValue) -> Ordering {
        match (self, other) {
            (SortValue::I64(a), SortValue::I64(b)) => a.cmp(b),
            (SortValue::U64(a), SortValue::U64(b)) => a.cmp(b),
            (SortValue::F64(a), SortValue::F64(b)) => a.total_cmp(b),
            (SortValue::Str(a), SortValue::Str(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }
}

/// Compares two values under a spec: order applied to present values; missing ones placed
/// first or last whatever the order (or compared as their `missing` value).
pub fn compare(a: &SortValue, b: &SortValue, spec: &SortSpec) -> Ordering {
    let missing_first = matches!(spec.missing, Missing::First);
    match (a, b) {
        (SortValue::Missing, SortValue::Missing) => Ordering::Equal,
        (SortValue::Missing, _) => {
            if missing_first {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
        (_, SortValue::Missing) => {
            if missing_first {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        _ => {
            let o = a.cmp_present(b);
            if spec.ascending {
                o
            } else {
                o.reverse()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_and_compare() {
        let s = parse_param("a:desc,_score").unwrap();
        assert_eq!(s[0].field, SortField::Field("a".into()));
        assert!(!s[0].ascending);
        assert_eq!(s[1].field, SortField::Score);
        assert!(!s[1].ascending);
        let spec = SortSpec::new("a");
        assert_eq!(
            compare(&SortValue::Missing, &SortValue::I64(1), &spec),
            Ordering::Greater
        );
        assert_eq!(
            compare(&SortValue::I64(0), &SortValue::I64(1), &spec),
            Ordering::Less
        );
    }
}
