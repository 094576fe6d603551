//! Composable index templates (`_index_template`) and the component templates they are composed
//! of (`_component_template`): kept in `_state/index_templates.json` (rewritten atomically
//! before a change is acknowledged), and applied when an index is created — explicitly or by a
//! write — as OpenSearch's `MetadataCreateIndexService` applies them: the matching template of
//! highest priority, its components' settings, mappings and aliases in order, then its own, then
//! the request's.

use crate::error::{Error, ErrorKind, Result};
use crate::metadata::target::glob_match;
use crate::util::fs::atomic_write;
use parking_lot::RwLock;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `template` part both kinds share: flat settings, mappings and aliases, as given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Template {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<BTreeMap<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mappings: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aliases: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexTemplate {
    pub index_patterns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub composed_of: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComponentTemplate {
    pub template: Template,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// A legacy template (`_template`): applied, by `order`, only when no composable one matches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegacyTemplate {
    pub order: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    pub index_patterns: Vec<String>,
    pub template: Template,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Stored {
    #[serde(default)]
    index_templates: BTreeMap<String, IndexTemplate>,
    #[serde(default)]
    component_templates: BTreeMap<String, ComponentTemplate>,
    #[serde(default)]
    legacy_templates: BTreeMap<String, LegacyTemplate>,
}

/// What a new index takes from the templates: settings (flat), mappings, aliases, each in the
/// order to apply them (later ones win).
#[derive(Debug, Default)]
pub struct Resolved {
    pub settings: BTreeMap<String, Value>,
    pub mappings: Vec<Value>,
    pub aliases: Map<String, Value>,
}

impl Resolved {
    /// Lays `t` over what is there.
    fn add(&mut self, t: &Template) {
        if let Some(settings) = &t.settings {
            self.settings.extend(settings.clone());
        }
        if let Some(m) = &t.mappings {
            self.mappings.push(m.clone());
        }
        if let Some(a) = &t.aliases {
            self.aliases.extend(a.clone());
        }
    }
}

pub struct IndexTemplates {
    path: PathBuf,
    stored: RwLock<Stored>,
}

/// Whether some index name matches both patterns (`*` being the only wildcard).
pub fn patterns_overlap(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut memo = vec![vec![None; b.len() + 1]; a.len() + 1];
    fn go(a: &[char], b: &[char], i: usize, j: usize, memo: &mut Vec<Vec<Option<bool>>>) -> bool {
        if let Some(r) = memo[i][j] {
            return r;
        }
        let r = if i == a.len() && j == b.len() {
            true
        } else if i < a.len() && a[i] == '*' {
            go(a, b, i + 1, j, memo) || (j < b.len() && go(a, b, i, j + 1, memo))
        } else if j < b.len() && b[j] == '*' {
            go(a, b, i, j + 1, memo) || (i < a.len() && go(a, b, i + 1, j, memo))
        } else {
            i < a.len() && j < b.len() && a[i] == b[j] && go(a, b, i + 1, j + 1, memo)
        };
        memo[i][j] = Some(r);
        r
    }
    go(&a, &b, 0, 0, &mut memo)
}

/// Mappings applied one over another: objects merge key by key, anything else is replaced.
pub fn merge_mappings(into: &mut Value, over: &Value) {
    match (into, over) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(slot) => merge_mappings(slot, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

impl IndexTemplates {
    pub fn open(data: &Path) -> Result<IndexTemplates> {
        let path = data.join("_state").join("index_templates.json");
        let stored: Stored = crate::util::fs::read_state(&path, "index templates")?;
        Ok(IndexTemplates {
            path,
            stored: RwLock::new(stored),
        })
    }

    fn change(&self, f: impl FnOnce(&mut Stored) -> Result<()>) -> Result<()> {
        let mut stored = self.stored.write();
        let mut next = stored.clone();
        f(&mut next)?;
        let bytes = serde_json::to_vec(&next).expect("templates serialize");
        atomic_write(&self.path, &bytes)
            .map_err(|e| Error::internal(format!("failed to write index templates: {e}")))?;
        *stored = next;
        Ok(())
    }

    pub fn index_templates(&self) -> BTreeMap<String, IndexTemplate> {
        self.stored.read().index_templates.clone()
    }

    pub fn component_templates(&self) -> BTreeMap<String, ComponentTemplate> {
        self.stored.read().component_templates.clone()
    }

    pub fn legacy_templates(&self) -> BTreeMap<String, LegacyTemplate> {
        self.stored.read().legacy_templates.clone()
    }

    pub fn put_legacy_template(&self, name: &str, t: LegacyTemplate, create: bool) -> Result<()> {
        self.change(|s| {
            if create && s.legacy_templates.contains_key(name) {
                return Err(Error::illegal_argument(format!(
                    "index_template [{name}] already exists"
                )));
            }
            s.legacy_templates.insert(name.to_string(), t);
            Ok(())
        })
    }

    pub fn delete_legacy_templates(&self, pattern: &str) -> Result<()> {
        self.change(|s| {
            let names = matching(s.legacy_templates.keys(), pattern);
            if names.is_empty() {
                return Err(missing(pattern));
            }
            for n in names {
                s.legacy_templates.remove(&n);
            }
            Ok(())
        })
    }

    /// What the legacy templates matching `index` give it, lowest `order` first so higher
    /// orders win. Used only when no composable template matches.
    pub fn compose_legacy(&self, index: &str) -> Option<Resolved> {
        let s = self.stored.read();
        let mut found: Vec<&LegacyTemplate> = s
            .legacy_templates
            .values()
            .filter(|t| t.index_patterns.iter().any(|p| glob_match(p, index)))
            .collect();
        if found.is_empty() {
            return None;
        }
        found.sort_by_key(|t| t.order);
        let mut out = Resolved::default();
        for t in found {
            out.add(&t.template);
        }
        Some(out)
    }

    /// Stores an index template after OpenSearch's checks against the others: `create` refuses
    /// an existing name, components must exist, and no other template of the same priority may
    /// match an index this one matches.
    pub fn put_index_template(&self, name: &str, t: IndexTemplate, create: bool) -> Result<()> {
        self.change(|s| {
            if create && s.index_templates.contains_key(name) {
                return Err(Error::illegal_argument(format!(
                    "index template [{name}] already exists"
                )));
            }
            check(s, name, &t)?;
            s.index_templates.insert(name.to_string(), t);
            Ok(())
        })
    }

    /// The checks a put of `t` as `name` makes, without storing it (`_simulate/<name>`).
    pub fn check_index_template(&self, name: &str, t: &IndexTemplate) -> Result<()> {
        check(&self.stored.read(), name, t)
    }

    /// The other templates whose patterns some index name matches together with `patterns`'.
    pub fn overlapping_patterns(
        &self,
        patterns: &[String],
        skip: Option<&str>,
    ) -> Vec<(String, Vec<String>)> {
        let s = self.stored.read();
        s.index_templates
            .iter()
            .filter(|(n, t)| {
                Some(n.as_str()) != skip
                    && t.index_patterns
                        .iter()
                        .any(|p| patterns.iter().any(|q| patterns_overlap(p, q)))
            })
            .map(|(n, t)| (n.clone(), t.index_patterns.clone()))
            .collect()
    }

    pub fn put_component_template(
        &self,
        name: &str,
        t: ComponentTemplate,
        create: bool,
    ) -> Result<()> {
        self.change(|s| {
            if create && s.component_templates.contains_key(name) {
                return Err(Error::illegal_argument(format!(
                    "component template [{name}] already exists"
                )));
            }
            s.component_templates.insert(name.to_string(), t);
            Ok(())
        })
    }

    /// Deletes the templates `pattern` names (a name, a wildcard, or a comma-separated list).
    pub fn delete_index_templates(&self, pattern: &str) -> Result<()> {
        self.change(|s| {
            let names = matching(s.index_templates.keys(), pattern);
            if names.is_empty() {
                return Err(missing(pattern));
            }
            for n in names {
                s.index_templates.remove(&n);
            }
            Ok(())
        })
    }

    /// Deletes component templates no index template is composed of.
    pub fn delete_component_templates(&self, pattern: &str) -> Result<()> {
        self.change(|s| {
            let names = matching(s.component_templates.keys(), pattern);
            if names.is_empty() {
                return Err(missing(pattern));
            }
            let users: Vec<&str> = s
                .index_templates
                .iter()
                .filter(|(_, t)| t.composed_of.iter().any(|c| names.contains(c)))
                .map(|(n, _)| n.as_str())
                .collect();
            if !users.is_empty() {
                return Err(Error::illegal_argument(format!(
                    "component templates [{}] cannot be removed as they are still in use by index templates [{}]",
                    names.join(", "),
                    users.join(", ")
                )));
            }
            for n in names {
                s.component_templates.remove(&n);
            }
            Ok(())
        })
    }

    /// The index template a new index named `index` takes: the matching one of highest
    /// priority. A hidden index takes none whose patterns include a bare `*`.
    pub fn find(&self, index: &str, hidden: bool) -> Option<(String, IndexTemplate)> {
        let s = self.stored.read();
        s.index_templates
            .iter()
            .filter(|(_, t)| {
                t.index_patterns.iter().any(|p| glob_match(p, index))
                    && !(hidden && t.index_patterns.iter().any(|p| p == "*"))
            })
            .max_by_key(|(_, t)| t.priority.unwrap_or(0))
            .map(|(n, t)| (n.clone(), t.clone()))
    }

    /// The other templates that match `index` (what `_simulate_index` calls overlapping).
    pub fn overlapping(&self, index: &str, chosen: &str) -> Vec<(String, Vec<String>)> {
        let s = self.stored.read();
        s.index_templates
            .iter()
            .filter(|(n, t)| {
                n.as_str() != chosen && t.index_patterns.iter().any(|p| glob_match(p, index))
            })
            .map(|(n, t)| (n.clone(), t.index_patterns.clone()))
            .collect()
    }

    /// What a template composes to: its components in order, then its own `template`.
    pub fn compose(&self, t: &IndexTemplate) -> Resolved {
        let s = self.stored.read();
        let mut out = Resolved::default();
        let parts = t
            .composed_of
            .iter()
            .filter_map(|c| s.component_templates.get(c).map(|c| &c.template))
            .chain(t.template.as_ref());
        for part in parts {
            out.add(part);
        }
        out
    }
}

/// Components must exist, and no other template of the same priority may match an index `t`
/// matches.
fn check(s: &Stored, name: &str, t: &IndexTemplate) -> Result<()> {
    let missing: Vec<&str> = t
        .composed_of
        .iter()
        .filter(|c| !s.component_templates.contains_key(*c))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(invalid(
            name,
            &format!(
                "index template [{name}] specifies component templates [{}] that do not exist",
                missing.join(", ")
            ),
        ));
    }
    let priority = t.priority.unwrap_or(0);
    let clashes: Vec<(&String, &IndexTemplate)> = s
        .index_templates
        .iter()
        .filter(|(other, o)| {
            other.as_str() != name
                && o.priority.unwrap_or(0) == priority
                && o.index_patterns
                    .iter()
                    .any(|p| t.index_patterns.iter().any(|q| patterns_overlap(p, q)))
        })
        .collect();
    if !clashes.is_empty() {
        let names: Vec<&str> = clashes.iter().map(|(n, _)| n.as_str()).collect();
        let with: Vec<String> = clashes
            .iter()
            .map(|(n, o)| format!("{n} => [{}]", o.index_patterns.join(", ")))
            .collect();
        return Err(Error::illegal_argument(format!(
            "index template [{name}] has index patterns [{}] matching patterns from existing templates [{}] with patterns ({}) that have the same priority [{priority}], multiple index templates may not match during index creation, please use a different priority",
            t.index_patterns.join(", "),
            names.join(","),
            with.join(",")
        )));
    }
    Ok(())
}

fn matching<'a>(names: impl Iterator<Item = &'a String>, pattern: &str) -> Vec<String> {
    let wanted: Vec<&str> = pattern.split(',').map(str::trim).collect();
    names
        .filter(|n| wanted.iter().any(|w| glob_match(w, n)))
        .cloned()
        .collect()
}

fn missing(pattern: &str) -> Error {
    Error::new(
        ErrorKind::IndexTemplateMissing,
        format!("index_template [{pattern}] missing"),
    )
}

/// `invalid_index_template_exception`: `index_template [name] invalid, cause [...]`.
pub fn invalid(name: &str, cause: &str) -> Error {
    Error::new(
        ErrorKind::InvalidIndexTemplate,
        format!("index_template [{name}] invalid, cause [{cause}]"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(patterns: &[&str], priority: i64) -> IndexTemplate {
        IndexTemplate {
            index_patterns: patterns.iter().map(|p| p.to_string()).collect(),
            template: None,
            composed_of: vec![],
            priority: Some(priority),
            version: None,
            meta: None,
        }
    }

    #[test]
    fn patterns_overlap_when_one_name_matches_both() {
        assert!(patterns_overlap("logs-*", "logs-x*"));
        assert!(patterns_overlap("*", "z-*"));
        assert!(patterns_overlap("a*c", "ab*"));
        assert!(!patterns_overlap("a-*", "logs-*"));
        assert!(!patterns_overlap("abc", "abd"));
        assert!(patterns_overlap("abc", "a*"));
    }

    #[test]
    fn the_highest_priority_wins_and_templates_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let t = IndexTemplates::open(dir.path()).unwrap();
        t.put_index_template("low", template(&["logs-*"], 1), false)
            .unwrap();
        t.put_index_template("high", template(&["logs-2*"], 2), false)
            .unwrap();
        let e = t
            .put_index_template("clash", template(&["logs-9*"], 1), false)
            .unwrap_err();
        assert!(e
            .reason
            .contains("matching patterns from existing templates [low]"));
        let t = IndexTemplates::open(dir.path()).unwrap();
        assert_eq!(t.find("logs-2024", false).unwrap().0, "high");
        assert_eq!(t.find("logs-1", false).unwrap().0, "low");
        assert!(t.find("other", false).is_none());
    }
}
