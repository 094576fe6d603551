//! Giving freed heap back to the operating system. glibc's allocator keeps what indexing threads
//! free in per-thread arenas: after a bulk ingest some hundreds of MB of segment-writer buffers
//! stay resident although nothing uses them. `malloc_trim` returns those pages; it walks every
//! arena under its lock, so it runs off the request path: on the scheduler thread after writes
//! settle, and when an explicit `_refresh` (the usual end of a bulk load) has finished.
//!
//! The binding ran on mimalloc for a while (allocation was ~10% of ingest CPU under glibc), but
//! mimalloc keeps freed pages in the heaps of the threads that freed them: a node right after
//! ingesting the bench's four corpora held 350 MB, 257 MB once released, against glibc's
//! 175-197 MB after `malloc_trim`, and the memory goal weighs more than that CPU.

use std::sync::atomic::{AtomicI64, Ordering};

/// When memory was last released (epoch millis).
static LAST_RELEASE_MS: AtomicI64 = AtomicI64::new(0);

/// Writes have settled once the last commit is this old. During an ingest commits come every
/// refresh interval (1 s by default): handing pages back between two of them only made the next
/// segment writer fault them in again.
const SETTLE_MS: i64 = 1500;

/// Releases free heap pages once after each pause in commits: when the last commit (at
/// `last_commit_ms`) came after the last release and is `SETTLE_MS` old. Returns whether it ran.
pub fn release_after_commit(last_commit_ms: i64, now_ms: i64) -> bool {
    let last = LAST_RELEASE_MS.load(Ordering::Relaxed);
    if last_commit_ms <= last || now_ms - last_commit_ms < SETTLE_MS {
        return false;
    }
    LAST_RELEASE_MS.store(now_ms, Ordering::Relaxed);
    trim_glibc();
    true
}

/// Releases free heap pages now: an explicit `_refresh` has made everything written so far
/// searchable, which is how a bulk load ends, and the buffers its segments were built in are free.
pub fn release_now(now_ms: i64) {
    LAST_RELEASE_MS.store(now_ms, Ordering::Relaxed);
    trim_glibc();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn trim_glibc() {
    // SAFETY: malloc_trim only touches the allocator's own bookkeeping.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_glibc() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_once_commits_pause() {
        assert!(
            !release_after_commit(1000, 2000),
            "commits every second: an ingest is going on"
        );
        assert!(release_after_commit(1000, 2500), "the commit is 1.5 s old");
        assert!(
            !release_after_commit(1000, 4000),
            "no commit since the release"
        );
        assert!(!release_after_commit(5000, 6000), "too recent");
        assert!(release_after_commit(5000, 6500));
    }
}
