//! Stored scripts (`_scripts/<id>`): the cluster metadata search templates are kept in by id.
//! They survive restarts in `_state/stored_scripts.json`, replaced atomically on each change.

use crate::error::{Error, Result};
use crate::util::fs::atomic_write;
use parking_lot::RwLock;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredScript {
    pub lang: String,
    pub source: String,
    /// The one compiler option OpenSearch accepts: the MIME type the template renders for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

pub struct StoredScripts {
    path: PathBuf,
    scripts: RwLock<BTreeMap<String, StoredScript>>,
}

impl StoredScripts {
    pub fn open(data: &Path) -> Result<StoredScripts> {
        let path = data.join("_state").join("stored_scripts.json");
        let scripts: BTreeMap<String, StoredScript> =
            crate::util::fs::read_state(&path, "stored scripts")?;
        Ok(StoredScripts {
            path,
            scripts: RwLock::new(scripts),
        })
    }

    pub fn get(&self, id: &str) -> Option<StoredScript> {
        self.scripts.read().get(id).cloned()
    }

    pub fn all(&self) -> Vec<(String, StoredScript)> {
        self.scripts
            .read()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Adds or replaces a script; acknowledged once it is on disk.
    pub fn put(&self, id: &str, script: StoredScript) -> Result<()> {
        let mut scripts = self.scripts.write();
        let mut next = scripts.clone();
        next.insert(id.to_string(), script);
        self.persist(&next)?;
        *scripts = next;
        Ok(())
    }

    /// Removes a script; `false` if there was none.
    pub fn delete(&self, id: &str) -> Result<bool> {
        let mut scripts = self.scripts.write();
        if !scripts.contains_key(id) {
            return Ok(false);
        }
        let mut next = scripts.clone();
        next.remove(id);
        self.persist(&next)?;
        *scripts = next;
        Ok(true)
    }

    fn persist(&self, scripts: &BTreeMap<String, StoredScript>) -> Result<()> {
        let bytes = serde_json::to_vec(scripts).expect("scripts serialize");
        atomic_write(&self.path, &bytes)
            .map_err(|e| Error::internal(format!("failed to write stored scripts: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let s = StoredScripts::open(dir.path()).unwrap();
        let script = StoredScript {
            lang: "mustache".into(),
            source: "{\"size\":{{n}}}".into(),
            content_type: Some("application/json; charset=UTF-8".into()),
        };
        s.put("a", script.clone()).unwrap();
        s.put("b", script.clone()).unwrap();
        assert!(s.delete("b").unwrap());
        assert!(!s.delete("b").unwrap());
        let again = StoredScripts::open(dir.path()).unwrap();
        assert_eq!(again.get("a"), Some(script));
        assert_eq!(again.all().len(), 1);
    }
}
