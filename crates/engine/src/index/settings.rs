//! Index settings: OpenSearch's keys, validation, dynamic-vs-static, and the typed view the
//! engine runs on. Stored flat (`index.number_of_shards` → `"1"`), rendered nested or flat.

use crate::error::{Error, ErrorKind, Result};
use crate::util::units::parse_time_value;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    Request,
    Async,
}

/// Typed settings the engine acts on; the flat map stays the source of truth.
#[derive(Debug, Clone)]
pub struct IndexSettings {
    pub flat: BTreeMap<String, Value>,
    pub number_of_shards: u32,
    pub number_of_replicas: u32,
    pub refresh_interval: Option<Duration>,
    pub durability: Durability,
    pub sync_interval: Duration,
    pub max_result_window: u64,
    pub max_token_count: u64,
    pub hidden: bool,
    pub blocks: crate::metadata::blocks::Blocks,
}

/// Values of settings nobody set, as `include_defaults` shows them.
pub const DEFAULTS: &[(&str, &str)] = &[
    ("index.analyze.max_token_count", "10000"),
    ("index.auto_expand_replicas", "false"),
    ("index.hidden", "false"),
    ("index.mapping.total_fields.limit", "1000"),
    ("index.max_result_window", "10000"),
    ("index.refresh_interval", "1s"),
    ("index.translog.durability", "REQUEST"),
    ("index.translog.sync_interval", "5s"),
];

enum Kind {
    Static,
    Dynamic,
}

/// What OpenSearch records on an index it closed (and drops when it opens it again).
const VERIFIED_BEFORE_CLOSE: &str = "index.verified_before_close";

/// Settings an update names as unknown: OpenSearch records them itself.
const PRIVATE: &[&str] = &[
    "index.creation_date",
    "index.uuid",
    "index.version.created",
    "index.provided_name",
];

/// Static settings no update changes, even on a closed index (`Property.Final`).
const FINAL: &[&str] = &["index.number_of_shards", "index.replication.type"];

/// The codecs `index.codec` takes.
const CODECS: &[&str] = &["default", "lz4", "best_compression", "zlib"];

/// The settings Quarry knows: key, whether it may change on an open index.
fn known(key: &str) -> Option<Kind> {
    use Kind::*;
    if key.starts_with("index.analysis.") {
        return Some(Static);
    }
    if crate::metadata::blocks::Block::ALL
        .iter()
        .any(|b| b.setting() == key)
        || key.starts_with("index.search.slowlog.")
        || key.starts_with("index.indexing.slowlog.")
    {
        return Some(Dynamic);
    }
    Some(match key {
        "index.number_of_shards"
        | "index.number_of_routing_shards"
        | "index.codec"
        | "index.routing_partition_size" => Static,
        "index.creation_date"
        | "index.uuid"
        | "index.version.created"
        | "index.provided_name"
        | VERIFIED_BEFORE_CLOSE => Static,
        "index.replication.type" => Static,
        "index.number_of_replicas"
        | "index.refresh_interval"
        | "index.translog.durability"
        | "index.translog.sync_interval"
        | "index.max_result_window"
        | "index.analyze.max_token_count"
        | "index.hidden"
        | "index.auto_expand_replicas"
        | "index.mapping.total_fields.limit"
        | "index.mapping.depth.limit"
        | "index.mapping.nested_fields.limit"
        | "index.max_inner_result_window"
        | "index.max_ngram_diff"
        | "index.max_shingle_diff"
        | "index.priority"
        | "index.query.default_field"
        | "index.gc_deletes"
        | "index.default_pipeline"
        | "index.final_pipeline" => Dynamic,
        _ => return None,
    })
}

fn unknown_setting(key: &str) -> Error {
    Error::illegal_argument(format!(
        "unknown setting [{key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
    ))
}

/// Flattens `{"index":{"number_of_shards":3}}`, `{"number_of_shards":3}` and
/// `{"index.number_of_shards":"3"}` into `index.`-prefixed keys with string values.
pub fn flatten(body: &Value) -> Result<BTreeMap<String, Value>> {
    let mut out = BTreeMap::new();
    let Value::Object(map) = body else {
        return Err(Error::new(
            ErrorKind::Settings,
            "Failed to load settings from [settings]",
        ));
    };
    flatten_into("", map, &mut out);
    Ok(out
        .into_iter()
        .map(|(k, v)| {
            if k.starts_with("index.") {
                (k, v)
            } else {
                (format!("index.{k}"), v)
            }
        })
        .collect())
}

fn flatten_into(prefix: &str, map: &Map<String, Value>, out: &mut BTreeMap<String, Value>) {
    for (k, v) in map {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Object(inner) => flatten_into(&key, inner, out),
            Value::Array(items) => {
                out.insert(key, Value::Array(items.iter().map(scalar_string).collect()));
            }
            Value::Null => {
                out.insert(key, Value::Null);
            }
            other => {
                out.insert(key, scalar_string(other));
            }
        }
    }
}

fn scalar_string(v: &Value) -> Value {
    match v {
        Value::String(_) => v.clone(),
        Value::Null => Value::Null,
        Value::Object(_) | Value::Array(_) => Value::String(v.to_string()),
        other => Value::String(other.to_string()),
    }
}

fn int_setting(
    flat: &BTreeMap<String, Value>,
    key: &str,
    default: i64,
    min: i64,
    max: Option<i64>,
) -> Result<i64> {
    let Some(v) = flat.get(key).and_then(Value::as_str) else {
        return Ok(default);
    };
    let n: i64 = v.parse().map_err(|_| {
        Error::illegal_argument(format!("Failed to parse value [{v}] for setting [{key}]"))
            .caused_by(Error::new(
                ErrorKind::NumberFormat,
                format!("For input string: \"{v}\""),
            ))
    })?;
    if n < min {
        return Err(Error::illegal_argument(format!(
            "Failed to parse value [{v}] for setting [{key}] must be >= {min}"
        )));
    }
    if let Some(max) = max {
        if n > max {
            return Err(Error::illegal_argument(format!(
                "Failed to parse value [{v}] for setting [{key}] must be <= {max}"
            )));
        }
    }
    Ok(n)
}

fn bool_setting(flat: &BTreeMap<String, Value>, key: &str) -> Result<bool> {
    match flat.get(key).and_then(Value::as_str) {
        None => Ok(false),
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(v) => Err(Error::illegal_argument(format!(
            "Failed to parse value [{v}] as only [true] or [false] are allowed."
        ))),
    }
}

fn time_setting(
    flat: &BTreeMap<String, Value>,
    key: &str,
    default: Option<Duration>,
) -> Result<Option<Duration>> {
    match flat.get(key).and_then(Value::as_str) {
        None => Ok(default),
        Some(v) => parse_time_value(v, key),
    }
}

impl IndexSettings {
    /// Validates a flat map and derives the typed view.
    pub fn from_flat(flat: BTreeMap<String, Value>) -> Result<Self> {
        for key in flat.keys() {
            if known(key).is_none() {
                return Err(unknown_setting(key));
            }
        }
        if let Some(codec) = flat.get("index.codec").and_then(Value::as_str) {
            if !CODECS.contains(&codec) {
                return Err(Error::illegal_argument(format!(
                    "unknown value for [index.codec] must be one of [{}] but was: {codec}",
                    CODECS.join(", ")
                )));
            }
        }
        let number_of_shards =
            int_setting(&flat, "index.number_of_shards", 1, 1, Some(1024))? as u32;
        let number_of_replicas = int_setting(&flat, "index.number_of_replicas", 1, 0, None)? as u32;
        let refresh_interval = time_setting(
            &flat,
            "index.refresh_interval",
            Some(Duration::from_secs(1)),
        )?;
        let durability = match flat
            .get("index.translog.durability")
            .and_then(Value::as_str)
        {
            None => Durability::Request,
            Some(v) if v.eq_ignore_ascii_case("request") => Durability::Request,
            Some(v) if v.eq_ignore_ascii_case("async") => Durability::Async,
            Some(v) => {
                return Err(Error::illegal_argument(format!(
                    "No enum constant org.opensearch.index.translog.Translog.Durability.{}",
                    v.to_uppercase()
                )))
            }
        };
        let sync_interval = time_setting(
            &flat,
            "index.translog.sync_interval",
            Some(Duration::from_secs(5)),
        )?
        .unwrap_or(Duration::from_secs(5));
        if sync_interval < Duration::from_millis(100) {
            let v = flat
                .get("index.translog.sync_interval")
                .and_then(Value::as_str)
                .unwrap_or("");
            return Err(Error::illegal_argument(format!(
                "failed to parse value [{v}] for setting [index.translog.sync_interval], must be >= [100ms]"
            )));
        }
        let max_result_window =
            int_setting(&flat, "index.max_result_window", 10_000, 1, None)? as u64;
        let max_token_count =
            int_setting(&flat, "index.analyze.max_token_count", 10_000, 1, None)? as u64;
        int_setting(&flat, "index.mapping.total_fields.limit", 1000, 0, None)?;
        let hidden = bool_setting(&flat, "index.hidden")?;
        let blocks = crate::metadata::blocks::Blocks::from_settings(&flat)?;
        Ok(IndexSettings {
            flat,
            number_of_shards,
            number_of_replicas,
            refresh_interval,
            durability,
            sync_interval,
            max_result_window,
            max_token_count,
            hidden,
            blocks,
        })
    }

    /// Settings given at index creation, completed with the ones OpenSearch always records.
    pub fn for_new_index(
        body: Option<&Value>,
        name: &str,
        uuid: &str,
        now_millis: i64,
    ) -> Result<Self> {
        let mut flat = match body {
            Some(b) => flatten(b)?,
            None => BTreeMap::new(),
        };
        for private in ["index.uuid", "index.version.created", "index.provided_name"] {
            if flat.contains_key(private) {
                return Err(Error::illegal_argument(format!(
                    "private index setting [{private}] can not be set explicitly"
                )));
            }
        }
        flat.retain(|_, v| !v.is_null());
        flat.entry("index.number_of_shards".into())
            .or_insert_with(|| "1".into());
        flat.entry("index.number_of_replicas".into())
            .or_insert_with(|| "1".into());
        flat.entry("index.creation_date".into())
            .or_insert_with(|| now_millis.to_string().into());
        flat.insert("index.uuid".into(), uuid.into());
        flat.insert("index.version.created".into(), "136407927".into());
        flat.insert("index.provided_name".into(), name.into());
        flat.entry("index.replication.type".into())
            .or_insert_with(|| "DOCUMENT".into());
        Self::from_flat(flat)
    }

    /// Applies an update body: dynamic keys only on an open index, static ones too on a closed
    /// one (but for final and private ones); `null` resets to default.
    pub fn updated(
        &self,
        body: &Value,
        index_name: &str,
        uuid: &str,
        closed: bool,
    ) -> Result<Self> {
        let changes = flatten(body)?;
        let mut non_dynamic = Vec::new();
        for key in changes.keys() {
            if key == VERIFIED_BEFORE_CLOSE {
                return Err(Error::illegal_argument(format!(
                    "can not update private setting [{key}]; this setting is managed by OpenSearch"
                )));
            }
            if closed && PRIVATE.contains(&key.as_str()) {
                return Err(unknown_setting(key));
            }
            match known(key) {
                None => return Err(unknown_setting(key)),
                Some(Kind::Static) if closed && FINAL.contains(&key.as_str()) => {
                    return Err(Error::illegal_argument(format!(
                        "final {index_name} setting [{key}], not updateable"
                    )))
                }
                Some(Kind::Static) if !closed => non_dynamic.push(key.clone()),
                Some(_) => {}
            }
        }
        if !non_dynamic.is_empty() {
            // OpenSearch collects them in a `HashSet`: they print in its order.
            let mut keys: Vec<(String, ())> = non_dynamic.into_iter().map(|k| (k, ())).collect();
            crate::util::java_hash::hash_order(&mut keys);
            let keys: Vec<String> = keys.into_iter().map(|(k, _)| k).collect();
            return Err(Error::illegal_argument(format!(
                "Can't update non dynamic settings [[{}]] for open indices [[{index_name}/{uuid}]]",
                keys.join(", ")
            )));
        }
        let mut flat = self.flat.clone();
        for (k, v) in changes {
            if v.is_null() {
                flat.remove(&k);
            } else {
                flat.insert(k, v);
            }
        }
        Self::from_flat(flat)
    }

    /// These settings with `index.verified_before_close` recorded (closing) or dropped (opening).
    pub fn with_verified_before_close(&self, verified: bool) -> Result<Self> {
        let mut flat = self.flat.clone();
        if verified {
            flat.insert(VERIFIED_BEFORE_CLOSE.into(), "true".into());
        } else {
            flat.remove(VERIFIED_BEFORE_CLOSE);
        }
        Self::from_flat(flat)
    }

    pub fn uuid(&self) -> &str {
        self.flat
            .get("index.uuid")
            .and_then(Value::as_str)
            .unwrap_or("_na_")
    }

    pub fn creation_date(&self) -> i64 {
        self.flat
            .get("index.creation_date")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0)
    }

    pub fn analysis(&self) -> BTreeMap<String, Value> {
        self.flat
            .iter()
            .filter(|(k, _)| k.starts_with("index.analysis."))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// `{"index":{...}}` nested the way OpenSearch prints settings, or flat keys.
    pub fn render(&self, flat_settings: bool) -> Value {
        render_map(&self.flat, flat_settings)
    }
}

pub fn render_map(flat: &BTreeMap<String, Value>, flat_settings: bool) -> Value {
    if flat_settings {
        return Value::Object(flat.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
    }
    let mut root = Map::new();
    for (k, v) in flat {
        let parts: Vec<&str> = k.split('.').collect();
        insert_nested(&mut root, &parts, v.clone());
    }
    Value::Object(root)
}

fn insert_nested(map: &mut Map<String, Value>, parts: &[&str], v: Value) {
    if parts.len() == 1 {
        map.insert(parts[0].to_string(), v);
        return;
    }
    let entry = map
        .entry(parts[0].to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    if let Value::Object(inner) = entry {
        insert_nested(inner, &parts[1..], v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_and_render() {
        let s = IndexSettings::for_new_index(Some(&json!({"number_of_shards": 3})), "a", "u", 5)
            .unwrap();
        assert_eq!(s.number_of_shards, 3);
        assert_eq!(s.number_of_replicas, 1);
        assert_eq!(s.refresh_interval, Some(Duration::from_secs(1)));
        let r = s.render(false);
        assert_eq!(r["index"]["number_of_shards"], "3");
        assert_eq!(r["index"]["uuid"], "u");
    }

    #[test]
    fn validation() {
        let e = IndexSettings::for_new_index(
            Some(&json!({"index": {"number_of_shards": 0}})),
            "a",
            "u",
            5,
        )
        .unwrap_err();
        assert!(e.reason.contains("must be >= 1"), "{}", e.reason);
        let e =
            IndexSettings::for_new_index(Some(&json!({"index.foo": 1})), "a", "u", 5).unwrap_err();
        assert!(e.reason.starts_with("unknown setting [index.foo]"));
        let s = IndexSettings::for_new_index(Some(&json!({"refresh_interval": "-1"})), "a", "u", 5)
            .unwrap();
        assert_eq!(s.refresh_interval, None);
    }

    #[test]
    fn static_settings_change_on_closed_indices_only() {
        let s = IndexSettings::for_new_index(None, "a", "u", 0).unwrap();
        let analysis = json!({"index.analysis.analyzer.ws.tokenizer": "whitespace"});
        let reason = |body: &Value, closed| s.updated(body, "a", "u", closed).unwrap_err().reason;
        assert_eq!(
            reason(&analysis, false),
            "Can't update non dynamic settings [[index.analysis.analyzer.ws.tokenizer]] for open indices [[a/u]]"
        );
        let closed = s.updated(&analysis, "a", "u", true).unwrap();
        assert_eq!(
            closed.flat["index.analysis.analyzer.ws.tokenizer"],
            json!("whitespace")
        );
        assert_eq!(
            reason(&json!({"index.number_of_shards": 2}), true),
            "final a setting [index.number_of_shards], not updateable"
        );
        assert!(
            reason(&json!({"index.uuid": "x"}), true).starts_with("unknown setting [index.uuid]")
        );
        assert_eq!(
            reason(&json!({"index.verified_before_close": false}), true),
            "can not update private setting [index.verified_before_close]; this setting is managed by OpenSearch"
        );
        assert_eq!(
            reason(&json!({"index.codec": "nope"}), true),
            "unknown value for [index.codec] must be one of [default, lz4, best_compression, zlib] but was: nope"
        );
        assert!(s
            .updated(&json!({"index.codec": "best_compression"}), "a", "u", true)
            .is_ok());
    }

    #[test]
    fn updates() {
        let s = IndexSettings::for_new_index(None, "a", "u", 5).unwrap();
        let s2 = s
            .updated(
                &json!({"index": {"number_of_replicas": 0}}),
                "a",
                "u",
                false,
            )
            .unwrap();
        assert_eq!(s2.number_of_replicas, 0);
        let e = s
            .updated(&json!({"number_of_shards": 2}), "a", "u", false)
            .unwrap_err();
        assert!(e
            .reason
            .contains("Can't update non dynamic settings [[index.number_of_shards]]"));
        let s3 = s2
            .updated(&json!({"index.number_of_replicas": null}), "a", "u", false)
            .unwrap();
        assert_eq!(s3.number_of_replicas, 1);
    }
}
