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
        // SAFETY: gettid, setpriority and sched_setscheduler take plain integers and a
        // pointer to a live local; they touch no other memory of ours.
        let (rc, idle_rc) = unsafe {
            let tid = libc::gettid();
            let rc = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, ENGINE_NICENESS);
            // SCHED_IDLE: any other thread that wakes up preempts this one at once, where
            // nice 19 alone still lets it finish a slice first.
            let param = libc::sched_param { sched_priority: 0 };
            (rc, libc::sched_setscheduler(tid, libc::SCHED_IDLE, &param))
        };
        if idle_rc != 0 {
            log::debug!(
                "could not make an engine thread SCHED_IDLE: {}",
                std::io::Error::last_os_error()
            );
        }
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
    #[test]
    #[allow(unsafe_code)]
    fn lowered_threads_and_their_children_are_idle_class() {
        let (policy, child_policy) = super::run_lowered(|| {
            // SAFETY: sched_getscheduler(0) reads the calling thread's policy.
            let own = unsafe { libc::sched_getscheduler(0) };
            let child = std::thread::spawn(|| unsafe { libc::sched_getscheduler(0) })
                .join()
                .unwrap();
            (own, child)
        });
        assert_eq!(policy, libc::SCHED_IDLE);
        assert_eq!(child_policy, libc::SCHED_IDLE);
    }
}
