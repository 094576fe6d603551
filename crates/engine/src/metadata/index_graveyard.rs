//! The index graveyard: a tombstone for each deleted index (its name, uuid and when it was
//! deleted), as the cluster state's `metadata.index-graveyard` lists them. OpenSearch keeps the
//! latest 500 (`cluster.indices.tombstones.size`); so does Quarry, in
//! `_state/index_graveyard.json`, so they survive restarts as OpenSearch's cluster state does.

use crate::error::{Error, Result};
use crate::util::fs::atomic_write;
use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const MAX_TOMBSTONES: usize = 500;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tombstone {
    pub index_name: String,
    pub index_uuid: String,
    pub delete_date_in_millis: i64,
}

pub struct IndexGraveyard {
    path: PathBuf,
    tombstones: Mutex<Vec<Tombstone>>,
}

impl IndexGraveyard {
    pub fn open(data: &Path) -> Result<IndexGraveyard> {
        let path = data.join("_state").join("index_graveyard.json");
        let tombstones: Vec<Tombstone> = crate::util::fs::read_state(&path, "index graveyard")?;
        Ok(IndexGraveyard {
            path,
            tombstones: Mutex::new(tombstones),
        })
    }

    /// Records a deleted index, dropping the oldest tombstone past the limit.
    pub fn bury(
        &self,
        index_name: &str,
        index_uuid: &str,
        delete_date_in_millis: i64,
    ) -> Result<()> {
        let mut tombstones = self.tombstones.lock();
        let mut next = tombstones.clone();
        next.push(Tombstone {
            index_name: index_name.to_string(),
            index_uuid: index_uuid.to_string(),
            delete_date_in_millis,
        });
        let excess = next.len().saturating_sub(MAX_TOMBSTONES);
        next.drain(..excess);
        let bytes = serde_json::to_vec(&next).expect("tombstones serialize");
        atomic_write(&self.path, &bytes)
            .map_err(|e| Error::internal(format!("failed to write the index graveyard: {e}")))?;
        *tombstones = next;
        Ok(())
    }

    /// `{"tombstones": [...]}`, oldest first, as the cluster state prints it.
    pub fn render(&self) -> Value {
        let list: Vec<Value> = self
            .tombstones
            .lock()
            .iter()
            .map(|t| {
                json!({
                    "index": {"index_name": t.index_name, "index_uuid": t.index_uuid},
                    "delete_date_in_millis": t.delete_date_in_millis,
                })
            })
            .collect();
        json!({ "tombstones": list })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tombstones_survive_a_reopen_and_keep_the_latest_500() {
        let dir = tempfile::tempdir().unwrap();
        let g = IndexGraveyard::open(dir.path()).unwrap();
        g.bury("a", "uuid-a", 1).unwrap();
        let reopened = IndexGraveyard::open(dir.path()).unwrap();
        assert_eq!(
            reopened.render(),
            json!({"tombstones": [{"index": {"index_name": "a", "index_uuid": "uuid-a"}, "delete_date_in_millis": 1}]})
        );
        for i in 0..MAX_TOMBSTONES {
            reopened.bury(&format!("i{i}"), "u", i as i64 + 2).unwrap();
        }
        let list = reopened.render()["tombstones"].as_array().unwrap().clone();
        assert_eq!(list.len(), MAX_TOMBSTONES);
        assert_eq!(list[0]["index"]["index_name"], "i0");
    }
}
