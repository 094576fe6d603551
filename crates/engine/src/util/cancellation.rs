//! Cancelling a running request (`POST /_tasks/<id>/_cancel`): the HTTP layer names a request
//! by its task id when it hands it over; the job runs with that task's flag as its thread's
//! current one, and a search checks the flag before each shard, as OpenSearch's shard tasks
//! refuse to start once their parent is cancelled.

use crate::error::{Error, ErrorKind, Result};
use parking_lot::Mutex;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The reason `_tasks/_cancel` gives.
pub const BY_USER_REQUEST: &str = "by user request";

/// The flags of the running requests that can be cancelled, by task id.
#[derive(Default)]
pub struct Cancellations {
    running: Mutex<HashMap<u64, Arc<AtomicBool>>>,
}

impl Cancellations {
    /// Runs `f` as task `task`, cancellable while it runs. A cancel that came before the job
    /// started still counts: the flag is made by whichever comes first.
    pub fn run<T>(&self, task: u64, f: impl FnOnce() -> T) -> T {
        let flag = self.running.lock().entry(task).or_default().clone();
        let previous = CURRENT.with(|c| c.replace(Some(flag)));
        let out = f();
        CURRENT.with(|c| *c.borrow_mut() = previous);
        self.running.lock().remove(&task);
        out
    }

    /// Marks a task cancelled; its running search stops before its next shard.
    pub fn cancel(&self, task: u64) {
        self.running
            .lock()
            .entry(task)
            .or_default()
            .store(true, Ordering::Relaxed);
    }

    /// Forgets a cancel for a task that never ran (it finished before the job was queued).
    pub fn forget(&self, task: u64) {
        let mut running = self.running.lock();
        if running
            .get(&task)
            .is_some_and(|f| Arc::strong_count(f) == 1)
        {
            running.remove(&task);
        }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// OpenSearch's `TaskCancelledException` if this thread's request was cancelled.
pub fn check() -> Result<()> {
    let cancelled = CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    });
    if cancelled {
        return Err(Error::new(
            ErrorKind::TaskCancelled,
            format!("cancelled task with reason: {BY_USER_REQUEST}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_reaches_the_running_task_only() {
        let c = Cancellations::default();
        assert!(check().is_ok());
        c.run(7, || {
            assert!(check().is_ok());
            c.cancel(8);
            assert!(check().is_ok());
            c.cancel(7);
            assert_eq!(
                check().unwrap_err().reason,
                "cancelled task with reason: by user request"
            );
        });
        assert!(check().is_ok(), "the flag leaves with its job");
        c.forget(8);
        assert!(c.running.lock().is_empty());
    }

    #[test]
    fn a_cancel_before_the_job_starts_counts() {
        let c = Cancellations::default();
        c.cancel(3);
        c.run(3, || assert!(check().is_err()));
    }
}
