//! Giving freed heap back to the operating system. glibc's allocator keeps what indexing threads
//! free in per-thread arenas: after a bulk ingest some hundreds of MB of segment-writer buffers
//! stay resident although nothing uses them. `malloc_trim` returns those pages; it walks every
//! arena under its lock, so it runs on the scheduler thread after writes settle, not per request.
//! A program that installs another global allocator (the binding runs on mimalloc) names that
//! allocator's release with [`set_release`]: the engine itself picks no allocator.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;

/// The global allocator's own way of handing free pages back, when it is not glibc's malloc.
static RELEASE: OnceLock<fn()> = OnceLock::new();

/// Names how the program's global allocator returns free memory to the system; set once, at
/// start-up, by the program that chose the allocator. Without it, glibc's `malloc_trim` runs.
pub fn set_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// When memory was last released (epoch millis).
static LAST_RELEASE_MS: AtomicI64 = AtomicI64::new(0);

/// Writes have settled once the last commit is this old. During an ingest commits come every
/// refresh interval (1 s by default): handing pages back between two of them only made the next
/// segment writer fault them in again (with mimalloc, ~5% of the ingest's CPU).
const SETTLE_MS: i64 = 1500;

/// Releases free heap pages once after each pause in commits: when the last commit (at
/// `last_commit_ms`) came after the last release and is `SETTLE_MS` old. Returns whether it ran.
pub fn release_after_commit(last_commit_ms: i64, now_ms: i64) -> bool {
    let last = LAST_RELEASE_MS.load(Ordering::Relaxed);
    if last_commit_ms <= last || now_ms - last_commit_ms < SETTLE_MS {
        return false;
    }
    LAST_RELEASE_MS.store(now_ms, Ordering::Relaxed);
    match RELEASE.get() {
        Some(release) => release(),
        None => trim_glibc(),
    }
    true
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
