//! How a shard came to be open: created empty or opened from its own files, when, and how
//! many translog operations it replayed past its last commit (`_cat/recovery`). A single node
//! never copies a shard from a peer or a snapshot, so those are the only two kinds.

/// One opening of a shard.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovery {
    /// `existing_store` (the shard's files were there) or `empty_store` (created).
    pub existing_store: bool,
    pub start_ms: i64,
    pub stop_ms: i64,
    /// The files of the store found at opening, name and length (reused, none copied).
    pub files: Vec<(String, u64)>,
    /// How long opening the store and replaying the translog took.
    pub index_ms: i64,
    pub translog_ms: i64,
    pub translog_ops: u64,
}

impl Recovery {
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, n)| n).sum()
    }

    pub fn kind(&self) -> &'static str {
        if self.existing_store {
            "existing_store"
        } else {
            "empty_store"
        }
    }
}

/// The files in `dir` and their lengths, by name, not descending (a tantivy index is flat).
pub fn store_files(dir: &std::path::Path) -> Vec<(String, u64)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, u64)> = entries
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(|m| m.is_file())?;
            Some((e.file_name().to_string_lossy().into_owned(), m.len()))
        })
        .collect();
    files.sort();
    files
}
