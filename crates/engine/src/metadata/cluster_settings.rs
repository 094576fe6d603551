//! Dynamic cluster settings (`PUT/GET /_cluster/settings`). Persistent values survive restarts
//! (`_state/cluster_settings.json`, written atomically); transient ones last until the node
//! stops. A transient value wins over a persistent one, which wins over the default. Only the
//! settings Quarry acts on are accepted; any other key is refused as OpenSearch refuses an
//! unknown one.

use crate::error::{Error, ErrorKind, Result};
use crate::util::fs::atomic_write;
use parking_lot::RwLock;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

pub const DEFAULT_ALLOW_PARTIAL_RESULTS: &str = "search.default_allow_partial_results";
pub const DEFAULT_SEARCH_TIMEOUT: &str = "search.default_search_timeout";
pub const DESTRUCTIVE_REQUIRES_NAME: &str = "action.destructive_requires_name";
pub const CLOSE_ENABLE: &str = "cluster.indices.close.enable";

#[derive(Clone, Copy)]
enum Kind {
    Boolean,
    Time,
}

/// The settings Quarry honours: key, type and default as OpenSearch prints it.
const KNOWN: &[(&str, Kind, &str)] = &[
    (DEFAULT_ALLOW_PARTIAL_RESULTS, Kind::Boolean, "true"),
    (DEFAULT_SEARCH_TIMEOUT, Kind::Time, "-1"),
    (DESTRUCTIVE_REQUIRES_NAME, Kind::Boolean, "false"),
    (CLOSE_ENABLE, Kind::Boolean, "true"),
];

#[derive(Default, Clone, Serialize, Deserialize)]
struct State {
    persistent: BTreeMap<String, String>,
    #[serde(skip)]
    transient: BTreeMap<String, String>,
}

/// What a search reads from the cluster settings, copied once per request.
#[derive(Clone, Copy, Debug)]
pub struct SearchDefaults {
    pub allow_partial_results: bool,
    pub timeout: Option<Duration>,
}

pub struct ClusterSettings {
    path: PathBuf,
    state: RwLock<State>,
}

impl ClusterSettings {
    pub fn open(data: &std::path::Path) -> Result<ClusterSettings> {
        let path = data.join("_state").join("cluster_settings.json");
        let state: State = crate::util::fs::read_state(&path, "cluster settings")?;
        Ok(ClusterSettings {
            path,
            state: RwLock::new(state),
        })
    }

    fn effective(&self, key: &str) -> String {
        let st = self.state.read();
        st.transient
            .get(key)
            .or_else(|| st.persistent.get(key))
            .cloned()
            .unwrap_or_else(|| default_of(key).to_string())
    }

    pub fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            // Both were validated when set.
            allow_partial_results: self.effective(DEFAULT_ALLOW_PARTIAL_RESULTS) == "true",
            timeout: crate::util::units::parse_time_value(
                &self.effective(DEFAULT_SEARCH_TIMEOUT),
                DEFAULT_SEARCH_TIMEOUT,
            )
            .ok()
            .flatten(),
        }
    }

    /// `action.destructive_requires_name`: deleting, closing, opening or blocking indices by a
    /// wildcard or `_all` is refused (OpenSearch's `DestructiveOperations`), before anything
    /// is resolved.
    pub fn check_destructive(&self, expr: &str) -> Result<()> {
        if self.effective(DESTRUCTIVE_REQUIRES_NAME) != "true" {
            return Ok(());
        }
        let wildcard = expr.is_empty()
            || expr
                .split(',')
                .any(|part| part == "_all" || part.contains('*'));
        if wildcard {
            return Err(Error::illegal_argument(
                "Wildcard expressions or all indices are not allowed",
            ));
        }
        Ok(())
    }

    /// `cluster.indices.close.enable: false` refuses every close.
    pub fn check_close_enabled(&self) -> Result<()> {
        if self.effective(CLOSE_ENABLE) == "true" {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::IllegalState,
            format!(
                "closing indices is disabled - set [{CLOSE_ENABLE}: true] to enable it. NOTE: \
                 closed indices still consume a significant amount of diskspace"
            ),
        ))
    }

    /// `GET /_cluster/settings`.
    pub fn get(&self, flat: bool, include_defaults: bool) -> Value {
        let st = self.state.read().clone();
        let mut out = Map::new();
        out.insert("persistent".into(), render(&st.persistent, flat));
        out.insert("transient".into(), render(&st.transient, flat));
        if include_defaults {
            let defaults: BTreeMap<String, String> = KNOWN
                .iter()
                .filter(|(k, ..)| !st.persistent.contains_key(*k) && !st.transient.contains_key(*k))
                .map(|(k, _, d)| (k.to_string(), d.to_string()))
                .collect();
            out.insert("defaults".into(), render(&defaults, flat));
        }
        Value::Object(out)
    }

    /// `PUT /_cluster/settings`: validates everything (transient first, then persistent, each
    /// in key order, as OpenSearch's sorted settings are checked), then applies both; the
    /// answer echoes what this request set.
    pub fn update(&self, body: &Value, flat: bool) -> Result<Value> {
        let section = |name: &str| -> Result<BTreeMap<String, Option<String>>> {
            let mut out = BTreeMap::new();
            match body.get(name) {
                None | Some(Value::Null) => {}
                Some(Value::Object(m)) => flatten(m, "", &mut out),
                Some(_) => {
                    return Err(Error::new(
                        ErrorKind::ClassCast,
                        "class java.lang.String cannot be cast to class java.util.Map \
                         (java.lang.String and java.util.Map are in module java.base of loader \
                         'bootstrap')",
                    ))
                }
            }
            Ok(out)
        };
        let transient = section("transient")?;
        let persistent = section("persistent")?;
        if transient.is_empty() && persistent.is_empty() {
            return Err(Error::new(
                ErrorKind::ActionRequestValidation,
                "Validation Failed: 1: no settings to update;",
            ));
        }
        for (scope, values) in [("transient", &transient), ("persistent", &persistent)] {
            for (key, value) in values {
                validate(scope, key, value.as_deref())?;
            }
        }
        let mut st = self.state.write();
        let mut next = st.clone();
        let (t_set, p_set) = (
            apply(&mut next.transient, &transient),
            apply(&mut next.persistent, &persistent),
        );
        if next.persistent != st.persistent {
            let bytes = serde_json::to_vec(&next).expect("settings serialize");
            atomic_write(&self.path, &bytes)?;
        }
        *st = next;
        let mut out = Map::new();
        out.insert("acknowledged".into(), Value::Bool(true));
        out.insert("persistent".into(), render(&p_set, flat));
        out.insert("transient".into(), render(&t_set, flat));
        Ok(Value::Object(out))
    }
}

fn default_of(key: &str) -> &'static str {
    KNOWN
        .iter()
        .find(|(k, ..)| *k == key)
        .map(|(_, _, d)| *d)
        .unwrap_or_default()
}

/// Nested objects → dotted keys; `null` (a reset) → `None`; arrays printed as Java prints a list.
fn flatten(m: &Map<String, Value>, prefix: &str, out: &mut BTreeMap<String, Option<String>>) {
    for (k, v) in m {
        let key = format!("{prefix}{k}");
        match v {
            Value::Object(inner) => flatten(inner, &format!("{key}."), out),
            Value::Null => {
                out.insert(key, None);
            }
            other => {
                out.insert(key, Some(scalar(other)));
            }
        }
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(scalar).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}

fn validate(scope: &str, key: &str, value: Option<&str>) -> Result<()> {
    let Some((_, kind, _)) = KNOWN.iter().find(|(k, ..)| *k == key) else {
        // A reset may name a pattern of keys (`search.*`); it removes what it matches.
        if value.is_none() && key.contains('*') {
            return Ok(());
        }
        return Err(Error::illegal_argument(format!(
            "{scope} setting [{key}], not recognized"
        )));
    };
    let Some(v) = value else {
        return Ok(());
    };
    match kind {
        Kind::Boolean if v == "true" || v == "false" => Ok(()),
        Kind::Boolean => Err(Error::illegal_argument(format!(
            "Failed to parse value [{v}] as only [true] or [false] are allowed."
        ))),
        Kind::Time => crate::util::units::parse_time_value(v, key)
            .map(|_| ())
            .map_err(|e| {
                // A number without a unit is worded by the setting, not as a bare parse failure.
                if e.kind == ErrorKind::Parse {
                    Error::illegal_argument(format!(
                        "failed to parse setting [{key}] with value [{v}] as a time value: unit is missing or unrecognized"
                    ))
                } else {
                    e
                }
            }),
    }
}

/// Applies one scope's changes; what was set (resets are not echoed).
fn apply(
    current: &mut BTreeMap<String, String>,
    changes: &BTreeMap<String, Option<String>>,
) -> BTreeMap<String, String> {
    let mut set = BTreeMap::new();
    for (key, value) in changes {
        match value {
            Some(v) => {
                current.insert(key.clone(), v.clone());
                set.insert(key.clone(), v.clone());
            }
            None => current.retain(|k, _| !crate::metadata::target::glob_match(key, k)),
        }
    }
    set
}

/// Dotted keys as OpenSearch prints them: flat, or nested objects split at the dots.
fn render(values: &BTreeMap<String, String>, flat: bool) -> Value {
    let mut out = Map::new();
    for (k, v) in values {
        if flat {
            out.insert(k.clone(), Value::String(v.clone()));
            continue;
        }
        let mut node = &mut out;
        let parts: Vec<&str> = k.split('.').collect();
        for p in &parts[..parts.len() - 1] {
            node = node
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
                .expect("settings nest as objects");
        }
        node.insert(parts[parts.len() - 1].to_string(), Value::String(v.clone()));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn destructive_names_and_closing_follow_the_settings() {
        let dir = tempfile::tempdir().unwrap();
        let s = ClusterSettings::open(dir.path()).unwrap();
        assert!(s.check_destructive("_all").is_ok());
        assert!(s.check_close_enabled().is_ok());
        s.update(
            &json!({"persistent": {"action.destructive_requires_name": true,
                                   "cluster.indices.close.enable": false}}),
            false,
        )
        .unwrap();
        for expr in ["_all", "a*", "a,b*", "*,-a", ""] {
            let e = s.check_destructive(expr).unwrap_err();
            assert_eq!(e.kind, ErrorKind::IllegalArgument, "{expr}");
        }
        assert!(s.check_destructive("a,b").is_ok());
        assert_eq!(
            s.check_close_enabled().unwrap_err().kind,
            ErrorKind::IllegalState
        );
        // Persistent: a restarted node keeps refusing.
        let reopened = ClusterSettings::open(dir.path()).unwrap();
        assert!(reopened.check_destructive("_all").is_err());
    }

    #[test]
    fn transient_wins_persistent_survives() {
        let dir = tempfile::tempdir().unwrap();
        let s = ClusterSettings::open(dir.path()).unwrap();
        assert!(s.search_defaults().allow_partial_results);
        s.update(
            &json!({"persistent": {"search": {"default_allow_partial_results": false}},
                    "transient": {"search.default_search_timeout": "2s"}}),
            false,
        )
        .unwrap();
        let d = s.search_defaults();
        assert!(!d.allow_partial_results);
        assert_eq!(d.timeout, Some(Duration::from_secs(2)));
        s.update(
            &json!({"transient": {"search.default_allow_partial_results": "true"}}),
            false,
        )
        .unwrap();
        assert!(s.search_defaults().allow_partial_results);
        let reopened = ClusterSettings::open(dir.path()).unwrap();
        let d = reopened.search_defaults();
        assert!(!d.allow_partial_results);
        assert_eq!(d.timeout, None);
        reopened
            .update(&json!({"persistent": {"search.*": null}}), true)
            .unwrap();
        assert_eq!(
            reopened.get(true, false),
            json!({"persistent": {}, "transient": {}})
        );
    }

    #[test]
    fn refusals() {
        let dir = tempfile::tempdir().unwrap();
        let s = ClusterSettings::open(dir.path()).unwrap();
        let err = |b: Value| s.update(&b, false).unwrap_err().reason;
        assert_eq!(
            err(json!({"transient": {"search.nope": 1}, "persistent": {"search.nope2": 1}})),
            "transient setting [search.nope], not recognized"
        );
        assert_eq!(
            err(json!({"persistent": {"search.nope": 1,
                "search.default_allow_partial_results": "TRUE"}})),
            "Failed to parse value [TRUE] as only [true] or [false] are allowed."
        );
        assert_eq!(
            err(json!({"foo": {}})),
            "Validation Failed: 1: no settings to update;"
        );
    }
}
