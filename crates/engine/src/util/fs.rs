//! Durable file writes: metadata is replaced atomically (temp file, fsync, rename, fsync dir).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// A node state file (`_state/*.json`) read back; absent, the default. `what` names it in the
/// error a corrupt file gives.
pub fn read_state<T: serde::de::DeserializeOwned + Default>(
    path: &Path,
    what: &str,
) -> crate::error::Result<T> {
    match fs::read(path) {
        Ok(b) => serde_json::from_slice(&b)
            .map_err(|e| crate::error::Error::internal(format!("corrupt {what}: {e}"))),
        Err(_) => Ok(T::default()),
    }
}

pub fn atomic_write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .expect("atomic_write needs a file inside a directory");
    fs::create_dir_all(dir)?;
    let tmp = path.with_extension("tmp");
    {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)?;
    sync_dir(dir)
}

pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Total bytes of the files under `dir`, for store statistics.
pub fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a/state.json");
        atomic_write(&p, b"one").unwrap();
        atomic_write(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert!(!p.with_extension("tmp").exists());
        assert_eq!(dir_size(d.path()), 3);
    }
}
