//! Write-side engine threads (bulk parsing, indexing, merging, commits) run at the lowest
//! priority: on a 2-core machine the JS event loop and searches must get the CPU first, or every
//! request waits behind ingest. Threads a lowered thread spawns (tantivy's indexing and merge
//! threads) inherit its priority on Linux. Ingest still gets every cycle nobody else wants.

/// `nice` 19: the lowest priority that still runs whenever a core is free.
const ENGINE_NICENESS: i32 = 19;

/// Lowers the calling thread's scheduling priority, with the kernel's default time slice (a
/// thread started by a request thread inherits its short one); best effort (an error only logs).
///
/// Not `SCHED_IDLE`: an idle-class thread runs only when nothing else on the machine wants
/// the core, so any busy neighbour (a build, another server, the tests of a CI run) starved
/// start-up replay and ingest outright (a restart took 24 s behind a build); nice 19 still
/// gets its small share.
pub fn lower_current_thread() {
    if let Err(e) = schedule_current_thread(Some(ENGINE_NICENESS), DEFAULT_SLICE) {
        log::warn!("could not lower an engine thread's priority: {e}");
    }
}

/// Asks for the shortest time slice for the calling thread, which serves requests (the JS
/// thread, the search threads); best effort, a kernel without custom slices ignores it.
///
/// Nice 19 sets ingest's share of the CPU, not how soon a woken request thread runs: EEVDF
/// lets the running thread finish its slice first, and the JS thread waited up to 8 ms behind
/// tantivy's indexing threads while `GET /` was probed under bulk ingest. Since Linux 6.12 a
/// woken thread with a shorter slice than the running one preempts it at once.
pub fn favour_current_thread() {
    if let Err(e) = schedule_current_thread(None, SHORTEST_SLICE) {
        log::debug!("could not shorten a request thread's time slice: {e}");
    }
}

/// `sched_attr.sched_runtime` of a normal thread: 0 is the kernel's default slice.
const DEFAULT_SLICE: u64 = 0;
/// The shortest slice the kernel grants, in nanoseconds.
const SHORTEST_SLICE: u64 = 100_000;

/// Sets the calling thread's niceness (`None` keeps it) and time slice in one `sched_setattr`,
/// falling back to `setpriority` where that call is refused.
#[allow(unsafe_code)]
fn schedule_current_thread(nice: Option<i32>, slice_ns: u64) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        /// `struct sched_attr` as of Linux 4.13 (`SCHED_ATTR_SIZE_VER1`).
        #[repr(C)]
        struct SchedAttr {
            size: u32,
            policy: u32,
            flags: u64,
            nice: i32,
            priority: u32,
            runtime: u64,
            deadline: u64,
            period: u64,
            util_min: u32,
            util_max: u32,
        }
        // SAFETY: gettid, getpriority and setpriority take plain integers; sched_setattr reads
        // a sched_attr that lives across the call and whose `size` says how much to read.
        unsafe {
            let tid = libc::gettid();
            let lowering = nice.is_some();
            let nice = match nice {
                Some(n) => n,
                None => {
                    *libc::__errno_location() = 0;
                    let n = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
                    if n == -1 && *libc::__errno_location() != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    n
                }
            };
            let attr = SchedAttr {
                size: std::mem::size_of::<SchedAttr>() as u32,
                policy: libc::SCHED_OTHER as u32,
                flags: 0,
                nice,
                priority: 0,
                runtime: slice_ns,
                deadline: 0,
                period: 0,
                util_min: 0,
                util_max: 0,
            };
            let rc = libc::syscall(
                libc::SYS_sched_setattr,
                tid,
                &attr as *const SchedAttr,
                0u32,
            );
            if rc == 0 {
                return Ok(());
            }
            // Only the slice was asked for: without sched_setattr there is nothing else to do.
            if !lowering {
                return Err(std::io::Error::last_os_error());
            }
            if libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (nice, slice_ns);
    Ok(())
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

    /// The thread's time slice as the kernel reports it (ns), where it does.
    fn own_slice() -> Option<u64> {
        let sched = std::fs::read_to_string("/proc/thread-self/sched").ok()?;
        let line = sched.lines().find(|l| l.starts_with("se.slice"))?;
        line.rsplit(':').next()?.trim().parse().ok()
    }

    #[test]
    fn request_threads_get_the_shortest_slice_and_lowered_threads_drop_it() {
        let (default, favoured, lowered, lowered_child) = std::thread::spawn(|| {
            let default = own_slice();
            super::favour_current_thread();
            let favoured = own_slice();
            let (lowered, child) =
                super::run_lowered(|| (own_slice(), std::thread::spawn(own_slice).join().unwrap()));
            (default, favoured, lowered, child)
        })
        .join()
        .unwrap();
        assert_eq!(lowered, default, "a lowered thread keeps the default slice");
        assert_eq!(lowered_child, default);
        // Kernels before 6.12 have no custom slices (and older ones report none).
        if favoured != default {
            assert_eq!(favoured, Some(super::SHORTEST_SLICE));
        }
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
