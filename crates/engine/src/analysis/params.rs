//! One component's definition (`index.analysis.<kind>.<name>.*` or an inline `_analyze`
//! object): typed accessors with OpenSearch's parsing (values arrive as strings from settings).

use crate::error::{Error, Result};
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default)]
pub struct Def {
    pub map: BTreeMap<String, Value>,
    /// The inline definition as given (for error messages).
    pub raw: Option<String>,
}

impl Def {
    pub fn new(map: BTreeMap<String, Value>) -> Def {
        Def { map, raw: None }
    }

    /// A definition from an inline JSON object: nested objects flattened with dots.
    pub fn from_json(obj: &serde_json::Map<String, Value>) -> Def {
        let mut map = BTreeMap::new();
        fn walk(
            prefix: &str,
            obj: &serde_json::Map<String, Value>,
            out: &mut BTreeMap<String, Value>,
        ) {
            for (k, v) in obj {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match v {
                    Value::Object(inner) => walk(&key, inner, out),
                    other => {
                        out.insert(key, other.clone());
                    }
                }
            }
        }
        walk("", obj, &mut map);
        Def {
            map,
            raw: Some(Value::Object(obj.clone()).to_string()),
        }
    }

    pub fn type_name(&self) -> Option<&str> {
        self.str("type")
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        match self.map.get(key) {
            Some(Value::String(s)) => Some(s.as_str()),
            _ => None,
        }
    }

    /// A scalar as text (numbers and booleans from inline definitions included).
    pub fn text(&self, key: &str) -> Option<String> {
        match self.map.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            Value::Array(_) | Value::Object(_) => None,
            other => Some(other.to_string()),
        }
    }

    pub fn bool(&self, key: &str, default: bool) -> Result<bool> {
        match self.text(key) {
            None => Ok(default),
            Some(s) => match s.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(Error::illegal_argument(format!(
                    "Failed to parse value [{s}] as only [true] or [false] are allowed."
                ))),
            },
        }
    }

    pub fn int(&self, key: &str, default: i64) -> Result<i64> {
        match self.text(key) {
            None => Ok(default),
            Some(s) => s.trim().parse::<i64>().map_err(|_| {
                Error::new(
                    crate::error::ErrorKind::NumberFormat,
                    format!("For input string: \"{s}\""),
                )
            }),
        }
    }

    pub fn usize(&self, key: &str, default: usize) -> Result<usize> {
        Ok(self.int(key, default as i64)?.max(0) as usize)
    }

    /// A list setting: an array, or one string (OpenSearch also splits on commas for a few
    /// keys; callers that want that pass `split`).
    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        match self.map.get(key)? {
            Value::Array(items) => Some(
                items
                    .iter()
                    .map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect(),
            ),
            Value::String(s) => Some(vec![s.clone()]),
            Value::Null => None,
            other => Some(vec![other.to_string()]),
        }
    }

    /// A list where a single string may hold comma-separated items.
    pub fn list_split(&self, key: &str) -> Option<Vec<String>> {
        match self.map.get(key)? {
            Value::String(s) => Some(
                s.split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect(),
            ),
            _ => self.list(key),
        }
    }
}
