//! Request parameters as the HTTP layer hands them over (path and query values, as strings),
//! parsed with OpenSearch's rules and messages.

use crate::error::{Error, Result};
use crate::metadata::target::IndicesOptions;
use serde_json::{Map, Value};

#[derive(Debug, Default, Clone)]
pub struct Params(pub Map<String, Value>);

/// OpenSearch's message for a numeric URL parameter that does not parse.
fn number_error(kind: &str, key: &str, v: &str) -> Error {
    Error::illegal_argument(format!(
        "Failed to parse {kind} parameter [{key}] with value [{v}]"
    ))
    .caused_by(Error::new(
        crate::error::ErrorKind::NumberFormat,
        format!("For input string: \"{v}\""),
    ))
}

impl Params {
    pub fn from_json(bytes: &[u8]) -> Result<Params> {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(m)) => Ok(Params(m)),
            _ => Err(Error::illegal_argument("parameters must be a JSON object")),
        }
    }

    pub fn str(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    pub fn required(&self, key: &str) -> Result<&str> {
        self.str(key)
            .ok_or_else(|| Error::illegal_argument(format!("missing parameter [{key}]")))
    }

    pub fn bool(&self, key: &str, default: bool) -> Result<bool> {
        match self.0.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::String(s)) if s.is_empty() || s == "true" => Ok(true),
            Some(Value::String(s)) if s == "false" => Ok(false),
            Some(v) => Err(Error::illegal_argument(format!(
                "Failed to parse value [{}] as only [true] or [false] are allowed.",
                v.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| v.to_string())
            ))),
        }
    }

    /// A `long` parameter (versions, sequence numbers), with OpenSearch's parse message.
    pub fn i64(&self, key: &str) -> Result<Option<i64>> {
        self.number(key, "long")
    }

    /// An `int` parameter (`retry_on_conflict`, sizes).
    pub fn int(&self, key: &str) -> Result<Option<i64>> {
        self.number(key, "int")
    }

    /// A `float` parameter (`min_score`).
    pub fn f32(&self, key: &str) -> Result<Option<f32>> {
        match self.0.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64().map(|f| f as f32)),
            Some(v) => {
                let text = v
                    .as_str()
                    .map(String::from)
                    .unwrap_or_else(|| v.to_string());
                text.trim()
                    .parse::<f32>()
                    .map(Some)
                    .map_err(|_| number_error("float", key, &text))
            }
        }
    }

    fn number(&self, key: &str, kind: &str) -> Result<Option<i64>> {
        let bad = |v: &str| number_error(kind, key, v);
        match self.0.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_i64()),
            Some(Value::String(s)) => s.parse::<i64>().map(Some).map_err(|_| bad(s)),
            Some(v) => Err(bad(&v.to_string())),
        }
    }

    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        self.str(key).map(|s| {
            s.split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
    }

    /// `ignore_unavailable`, `allow_no_indices`, `expand_wildcards` over the API's defaults.
    pub fn indices_options(&self, mut defaults: IndicesOptions) -> Result<IndicesOptions> {
        // IndicesOptions reads these as node booleans, which name the setting first.
        let named = |key: &str, default: bool| {
            self.bool(key, default).map_err(|e| {
                Error::illegal_argument(format!("Could not convert [{key}] to boolean"))
                    .caused_by(e)
            })
        };
        defaults.ignore_unavailable = named("ignore_unavailable", defaults.ignore_unavailable)?;
        defaults.allow_no_indices = named("allow_no_indices", defaults.allow_no_indices)?;
        // Read as OpenSearch reads it; Quarry has no throttled (frozen) indices to leave out.
        named("ignore_throttled", false)?;
        if let Some(w) = self.str("expand_wildcards") {
            defaults.apply_expand_wildcards(w)?;
        }
        Ok(defaults)
    }
}
