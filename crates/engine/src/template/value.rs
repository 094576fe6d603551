//! A template's parameters as OpenSearch holds them: the `Map` its parser reads from the
//! request (`Integer`, `Long` or `BigInteger` for whole numbers, `Double` for the rest, nested
//! `HashMap`s and `ArrayList`s), and the two ways the templates print them: Java's `toString`
//! (a `{{var}}`, a `{{#join}}`'s items) and Jackson's JSON (`{{#toJson}}`).

use crate::dsl::json::{Node, J};
use crate::query::function_score::java_double;
use crate::util::java_hash::hash_order;
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A whole number, as Java prints it (`Integer`, `Long` or `BigInteger` alike).
    Int(String),
    Double(f64),
    Str(String),
    List(Vec<Value>),
    /// Entries in the iteration order of the `HashMap` the parser fills.
    Map(Vec<(String, Value)>),
}

impl Value {
    pub fn from_node(node: &Node) -> Value {
        Value::read(node, true)
    }

    /// The value with its objects' keys in document order (a template's own JSON, which
    /// OpenSearch copies rather than reads into a map).
    pub fn in_document_order(node: &Node) -> Value {
        Value::read(node, false)
    }

    fn read(node: &Node, hashed: bool) -> Value {
        match &node.v {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Num(_, text) => {
                if text.contains(['.', 'e', 'E']) {
                    Value::Double(text.parse().unwrap_or(f64::NAN))
                } else {
                    // `-0` reads as the int 0; a number past i128 keeps its text, as BigInteger.
                    Value::Int(
                        text.parse::<i128>()
                            .map_or_else(|_| text.to_string(), |i| i.to_string()),
                    )
                }
            }
            J::Str(s) => Value::Str(s.clone()),
            J::Arr(items) => Value::List(items.iter().map(|i| Value::read(i, hashed)).collect()),
            J::Obj(entries) => {
                let mut map: Vec<(String, Value)> = Vec::with_capacity(entries.len());
                for (k, _, v) in entries {
                    // A repeated key keeps its first place and its last value, as `put` does.
                    let v = Value::read(v, hashed);
                    match map.iter_mut().find(|(m, _)| m == k) {
                        Some(slot) => slot.1 = v,
                        None => map.push((k.clone(), v)),
                    }
                }
                if hashed {
                    hash_order(&mut map);
                }
                Value::Map(map)
            }
        }
    }

    /// The value under one key of a path: a map's entry, or a list's `size` or element (as
    /// OpenSearch's `CollectionMap` answers them). `None` where nothing is there.
    pub fn member(&self, key: &str) -> Option<Cow<'_, Value>> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| Cow::Borrowed(v)),
            Value::List(items) if key == "size" => {
                Some(Cow::Owned(Value::Int(items.len().to_string())))
            }
            Value::List(items) => {
                let i: usize = key.strip_prefix('+').unwrap_or(key).parse().ok()?;
                items
                    .get(i)
                    .filter(|v| **v != Value::Null)
                    .map(Cow::Borrowed)
            }
            _ => None,
        }
    }

    /// Whether a section over it renders nothing (`null`, `false`, `""` or an empty list).
    pub fn is_falsey(&self) -> bool {
        match self {
            Value::Null => true,
            Value::Bool(b) => !b,
            Value::Str(s) => s.is_empty(),
            Value::List(items) => items.is_empty(),
            _ => false,
        }
    }

    /// Java's `toString` of the value as a template sees it: a list it looked up is the
    /// `CollectionMap` OpenSearch wraps lists in, printed as a map of index to element.
    pub fn looked_up_text(&self) -> String {
        match self {
            Value::List(items) => {
                let mut out = String::from("{");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&i.to_string());
                    out.push('=');
                    item.java_text_into(&mut out);
                }
                out.push('}');
                out
            }
            other => other.java_text(),
        }
    }

    /// Java's `toString`: `ArrayList` as `[a, b]`, `HashMap` as `{k=v, k2=v2}`.
    pub fn java_text(&self) -> String {
        let mut out = String::new();
        self.java_text_into(&mut out);
        out
    }

    fn java_text_into(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(text) => out.push_str(text),
            Value::Double(d) => out.push_str(&java_double(*d)),
            Value::Str(s) => out.push_str(s),
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.java_text_into(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(k);
                    out.push('=');
                    v.java_text_into(out);
                }
                out.push('}');
            }
        }
    }

    /// The JSON OpenSearch's `XContentBuilder` writes for it (Jackson's escapes and doubles).
    pub fn json_into(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(text) => out.push_str(text),
            Value::Double(d) if d.is_finite() => out.push_str(&java_double(*d)),
            // Jackson quotes the numbers JSON has no word for.
            Value::Double(d) => {
                out.push('"');
                out.push_str(&java_double(*d));
                out.push('"');
            }
            Value::Str(s) => {
                out.push('"');
                json_escape_into(s, out);
                out.push('"');
            }
            Value::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.json_into(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    json_escape_into(k, out);
                    out.push_str("\":");
                    v.json_into(out);
                }
                out.push('}');
            }
        }
    }
}

/// Jackson's `quoteAsString`: `"` and `\` escaped, control characters as `\n`-style escapes
/// or `\u00XX` (upper-case hex); everything else, non-ASCII included, as it is.
pub fn json_escape_into(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\u{0C}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(json: &str) -> Value {
        Value::from_node(&crate::dsl::json::parse(json.as_bytes()).unwrap())
    }

    #[test]
    fn maps_iterate_as_java_hash_maps() {
        // "b" (98) lands in bucket 2, "k" (107) in 11, "n" (110) in 14.
        let v = params(r#"{"k":[1,2.5,"z"],"b":true,"n":null}"#);
        assert_eq!(v.java_text(), "{b=true, k=[1, 2.5, z], n=null}");
    }

    #[test]
    fn numbers_print_as_java_reads_them() {
        let v = params(
            r#"[1e21, 0.0001, 12345678.0, 9007199254740993, 99999999999999999999999999999999999999999, -0.0, 1E2, -0]"#,
        );
        assert_eq!(
            v.java_text(),
            "[1.0E21, 1.0E-4, 1.2345678E7, 9007199254740993, 99999999999999999999999999999999999999999, -0.0, 100.0, 0]"
        );
    }

    #[test]
    fn a_looked_up_list_prints_as_its_collection_map() {
        let v = params(r#"["a", [1, 2], {"k": 1}]"#);
        assert_eq!(v.looked_up_text(), "{0=a, 1=[1, 2], 2={k=1}}");
    }

    #[test]
    fn json_as_jackson_writes_it() {
        let v = params(r#"{"z":1,"a":[1,{"q":"w\"x\u0001"}],"f":1e21,"b":null}"#);
        let mut out = String::new();
        v.json_into(&mut out);
        assert_eq!(
            out,
            r#"{"a":[1,{"q":"w\"x\u0001"}],"b":null,"f":1.0E21,"z":1}"#
        );
    }

    #[test]
    fn falsey_values() {
        for (json, falsey) in [
            ("null", true),
            ("false", true),
            (r#""""#, true),
            ("[]", true),
            ("0", false),
            ("{}", false),
            (r#""a""#, false),
        ] {
            assert_eq!(params(json).is_falsey(), falsey, "{json}");
        }
    }
}
