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
    /// The files and bytes of the store found at opening (reused, none copied).
    pub files: u64,
    pub bytes: u64,
    pub translog_ops: u64,
}

impl Recovery {
    pub fn kind(&self) -> &'static str {
        if self.existing_store {
            "existing_store"
        } else {
            "empty_store"
        }
    }
}

/// The files and their total size in `dir`, not descending (a tantivy index is flat).
pub fn store_files(dir: &std::path::Path) -> (u64, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    entries
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .fold((0, 0), |(n, bytes), m| (n + 1, bytes + m.len()))
}
