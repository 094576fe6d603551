//! Write-side engine threads (bulk parsing, indexing, merging, commits) run at the lowest
//! priority: on a 2-core machine the JS event loop and searches must get the CPU first, or every
//! request waits behind ingest. Threads a lowered thread spawns (tantivy's indexing and merge
//! threads) inherit its priority on Linux. Ingest still gets every cycle nobody else wants.

/// `nice` 19: the lowest priority that still runs whenever a core is free.
const ENGINE_NICENESS: i32 = 19;

/// Lowers the calling thread's scheduling priority; best effort (an error only logs).
///
/// Not `SCHED_IDLE`: an idle-class thread runs only when nothing else on the machine wants
/// the core, so any busy neighbour (a build, another server, the tests of a CI run) starved
/// start-up replay and ingest outright (a restart took 24 s behind a build); nice 19 still
/// gets its small share, and it did no worse for `GET /` under ingest.
#[allow(unsafe_code)]
pub fn lower_current_thread() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take plain integers; they touch no memory of ours.
        let rc = unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, ENGINE_NICENESS)
        };
        if rc != 0 {
            log::warn!(
                "could not lower an engine thread's priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// Runs `f` on a new thread of engine priority and waits for it, so whatever `f` spawns
/// (index writers opened at start-up) inherits that priority.
pub fn run_lowered<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .name("quarry-open".into())
        .spawn(move || {
            lower_current_thread();
            f()
        })
        .expect("spawn a thread")
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[allow(unsafe_code)]
    fn own_niceness() -> i32 {
        // SAFETY: gettid and getpriority take plain integers.
        unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
    }

    #[test]
    fn lowered_threads_and_their_children_run_at_nice_19() {
        let (own, child) = super::run_lowered(|| {
            let child = std::thread::spawn(own_niceness).join().unwrap();
            (own_niceness(), child)
        });
        assert_eq!(own, super::ENGINE_NICENESS);
        assert_eq!(child, super::ENGINE_NICENESS);
    }
}
