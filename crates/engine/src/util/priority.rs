//! Write-side engine threads (bulk parsing, indexing, merging, commits) run at the lowest
//! priority: on a 2-core machine the JS event loop and searches must get the CPU first, or every
//! request waits behind ingest. Threads a lowered thread spawns (tantivy's indexing and merge
//! threads) inherit its priority on Linux. Ingest still gets every cycle nobody else wants.

/// `nice` 19: the lowest priority that still runs whenever a core is free.
const ENGINE_NICENESS: i32 = 19;

/// Lowers the calling thread's scheduling priority; best effort (an error only logs).
#[allow(unsafe_code)]
pub fn lower_current_thread() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take plain integers and touch no memory of ours.
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
