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

/// During a long ingest, commits come every refresh interval; trimming each time would hand
/// back pages the next segment writer faults in again at once.
const MIN_INTERVAL_MS: i64 = 1000;

/// Releases free heap pages if a commit (at `last_commit_ms`) happened since the last release
/// and the last release is at least a second old. Returns whether it ran.
pub fn release_after_commit(last_commit_ms: i64, now_ms: i64) -> bool {
    let last = LAST_RELEASE_MS.load(Ordering::Relaxed);
    if last_commit_ms <= last || now_ms - last < MIN_INTERVAL_MS {
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
    fn runs_once_per_commit() {
        assert!(release_after_commit(10, 2000));
        assert!(
            !release_after_commit(1500, 3000),
            "that commit was before the release"
        );
        assert!(
            !release_after_commit(2500, 2900),
            "less than a second after the last"
        );
        assert!(
            release_after_commit(2500, 3000),
            "the commit waited for the interval"
        );
    }
}
