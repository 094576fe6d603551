//! `_source` includes/excludes with `*` wildcards over dotted paths, as OpenSearch filters maps.

use crate::metadata::target::glob_match;
use serde_json::{Map, Value};

#[derive(Debug, Clone)]
pub struct SourceFilter {
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
}

impl SourceFilter {
    /// A `_source` option in a body: `false`, a field or list of fields, or
    /// `{includes, excludes}`. `Ok(None)` means no source; `true` means all of it.
    pub fn from_value(v: &Value) -> Option<SourceFilter> {
        let strings = |v: Option<&Value>| -> Vec<String> {
            match v {
                Some(Value::String(s)) => vec![s.clone()],
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            }
        };
        match v {
            Value::Bool(false) => None,
            Value::Object(o) => Some(SourceFilter {
                includes: strings(o.get("includes").or(o.get("include"))),
                excludes: strings(o.get("excludes").or(o.get("exclude"))),
            }),
            Value::Bool(true) => Some(SourceFilter {
                includes: Vec::new(),
                excludes: Vec::new(),
            }),
            other => Some(SourceFilter {
                includes: strings(Some(other)),
                excludes: Vec::new(),
            }),
        }
    }

    pub fn is_noop(&self) -> bool {
        self.includes.is_empty() && self.excludes.is_empty()
    }

    pub fn apply(&self, source: &Value) -> Value {
        match source {
            Value::Object(m) => Value::Object(self.filter_map(m, "")),
            other => other.clone(),
        }
    }

    fn filter_map(&self, map: &Map<String, Value>, prefix: &str) -> Map<String, Value> {
        let mut out = Map::new();
        for (k, v) in map {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            if self.excludes.iter().any(|e| glob_match(e, &path)) {
                continue;
            }
            let included = self.includes.is_empty()
                || self
                    .includes
                    .iter()
                    .any(|i| glob_match(i, &path) || glob_match(&format!("{i}.*"), &path));
            let could_include_below = self.includes.iter().any(|i| {
                i.starts_with(&format!("{path}."))
                    || (i.contains('*')
                        && glob_match(
                            &i.split('.')
                                .take(path.split('.').count())
                                .collect::<Vec<_>>()
                                .join("."),
                            &path,
                        ))
            });
            match v {
                Value::Object(inner)
                    if (!included || !self.excludes.is_empty())
                        && (included || could_include_below) =>
                {
                    let sub = if included && self.includes.is_empty() {
                        self.filter_map(inner, &path)
                    } else if included {
                        let f = SourceFilter {
                            includes: Vec::new(),
                            excludes: self.excludes.clone(),
                        };
                        f.filter_map(inner, &path)
                    } else {
                        self.filter_map(inner, &path)
                    };
                    if !sub.is_empty() || (included && inner.is_empty()) {
                        out.insert(k.clone(), Value::Object(sub));
                    }
                }
                Value::Array(items) if !included && could_include_below => {
                    let filtered: Vec<Value> = items
                        .iter()
                        .filter_map(|it| match it {
                            Value::Object(m) => {
                                let sub = self.filter_map(m, &path);
                                (!sub.is_empty()).then_some(Value::Object(sub))
                            }
                            _ => None,
                        })
                        .collect();
                    if !filtered.is_empty() {
                        out.insert(k.clone(), Value::Array(filtered));
                    }
                }
                _ if included => {
                    out.insert(k.clone(), v.clone());
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(inc: &[&str], exc: &[&str], v: Value) -> Value {
        SourceFilter {
            includes: inc.iter().map(|s| s.to_string()).collect(),
            excludes: exc.iter().map(|s| s.to_string()).collect(),
        }
        .apply(&v)
    }

    #[test]
    fn include_exclude() {
        let doc = json!({"a": 1, "b": {"c": 2, "d": 3}, "e": [{"f": 1, "g": 2}]});
        assert_eq!(f(&["a"], &[], doc.clone()), json!({"a": 1}));
        assert_eq!(f(&["b.c"], &[], doc.clone()), json!({"b": {"c": 2}}));
        assert_eq!(f(&["b"], &[], doc.clone()), json!({"b": {"c": 2, "d": 3}}));
        assert_eq!(
            f(&[], &["b.d", "e"], doc.clone()),
            json!({"a": 1, "b": {"c": 2}})
        );
        assert_eq!(
            f(&["b.*"], &[], doc.clone()),
            json!({"b": {"c": 2, "d": 3}})
        );
        assert_eq!(f(&["e.f"], &[], doc.clone()), json!({"e": [{"f": 1}]}));
        assert_eq!(f(&["b"], &["b.c"], doc), json!({"b": {"d": 3}}));
    }
}
