//! A document's `_source` parsed for indexing: strings borrow from the request's bytes (copied
//! only when they hold escapes) and objects are lists of entries in source order. Parsing into
//! `serde_json::Value` instead allocates every key and string and hashes every key into an
//! ordered map, which was the largest single cost of a bulk request's own work; indexing only
//! walks the tree, it never looks a key up.

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// Objects up to this many keys are checked for duplicates by scanning, larger ones by hashing.
const SCAN_KEYS: usize = 16;

impl<'a> Json<'a> {
    /// Parses `bytes` as OpenSearch parses a document: one JSON object, no duplicate keys.
    /// `None` when it is not one; the caller reports why with the slow path's exact errors.
    pub fn parse_object(bytes: &'a [u8]) -> Option<Json<'a>> {
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first != Some(&b'{') {
            return None;
        }
        serde_json::from_slice::<Json<'a>>(bytes).ok()
    }

    /// The same tree over a `Value`'s strings.
    pub fn from_value(v: &'a Value) -> Json<'a> {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(a) => Json::Array(a.iter().map(Json::from_value).collect()),
            Value::Object(m) => Json::Object(
                m.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// Whether this is a JSON `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// An owned `Value`, for the rare paths that need one (error previews, dynamic mapping).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(entries) => {
                let mut m = Map::new();
                for (k, v) in entries {
                    m.insert(k.to_string(), v.to_value());
                }
                Value::Object(m)
            }
        }
    }

    /// Whether this is a JSON array.
    pub fn is_array(&self) -> bool {
        matches!(self, Json::Array(_))
    }
}

/// Takes the value's strings over instead of copying them.
impl From<Value> for Json<'static> {
    fn from(v: Value) -> Json<'static> {
        match v {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(Cow::Owned(s)),
            Value::Array(a) => Json::Array(a.into_iter().map(Json::from).collect()),
            Value::Object(m) => Json::Object(
                m.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Json::from(v)))
                    .collect(),
            ),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Json<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TreeVisitor(std::marker::PhantomData))
    }
}

struct TreeVisitor<'a>(std::marker::PhantomData<&'a ()>);

/// A key as written: borrowed unless it holds escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Key<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for KeyVisitor<'a> {
            type Value = Key<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'a>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(KeyVisitor(std::marker::PhantomData))
    }
}

impl<'de: 'a, 'a> Visitor<'de> for TreeVisitor<'a> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json<'a>, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json<'a>, E> {
        Ok(Json::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json<'a>, E> {
        Ok(Json::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json<'a>, E> {
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<Json<'a>, E> {
        Ok(Json::String(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'a>, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Json<'a>>()? {
            out.push(v);
        }
        Ok(Json::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'a>, A::Error> {
        let mut out: Vec<(Cow<'a, str>, Json<'a>)> = Vec::new();
        let mut seen: Option<std::collections::HashSet<Cow<'a, str>>> = None;
        while let Some(Key(key)) = map.next_key::<Key<'a>>()? {
            let value = map.next_value::<Json<'a>>()?;
            let duplicate = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None if out.len() < SCAN_KEYS => out.iter().any(|(k, _)| *k == key),
                None => {
                    let mut set: std::collections::HashSet<Cow<'a, str>> =
                        out.iter().map(|(k, _)| k.clone()).collect();
                    let dup = !set.insert(key.clone());
                    seen = Some(set);
                    dup
                }
            };
            if duplicate {
                return Err(A::Error::custom(format!("Duplicate field '{key}'")));
            }
            out.push((key, value));
        }
        Ok(Json::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn borrows_plain_strings_and_keeps_order() {
        let src = br#"{"b":"x","a":["y\n",1,2.5,true,null],"c":{"d":-3}}"#;
        let j = Json::parse_object(src).unwrap();
        let Json::Object(entries) = &j else { panic!() };
        assert_eq!(entries[0].0, "b");
        assert!(matches!(&entries[0].1, Json::String(Cow::Borrowed("x"))));
        let Json::Array(items) = &entries[1].1 else {
            panic!()
        };
        assert!(matches!(&items[0], Json::String(Cow::Owned(s)) if s == "y\n"));
        assert_eq!(
            j.to_value(),
            json!({"b":"x","a":["y\n",1,2.5,true,null],"c":{"d":-3}})
        );
        let v: Value = serde_json::from_slice(src).unwrap();
        assert_eq!(Json::from_value(&v), j);
    }

    #[test]
    fn refuses_what_is_not_one_strict_object() {
        assert!(Json::parse_object(b"[1]").is_none());
        assert!(Json::parse_object(b" \"a\"").is_none());
        assert!(Json::parse_object(b"{\"a\":1").is_none());
        assert!(Json::parse_object(br#"{"a":1,"a":2}"#).is_none());
        assert!(Json::parse_object(br#"{"a":{"x":1,"x":1}}"#).is_none());
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
        let ok = format!("{{{}}}", many.join(","));
        assert!(Json::parse_object(ok.as_bytes()).is_some());
        let dup = format!("{{{},\"k3\":0}}", many.join(","));
        assert!(Json::parse_object(dup.as_bytes()).is_none());
    }
}
