//! A fixed set of threads running jobs from one FIFO queue.
//!
//! Requests arrive one at a time from the JS thread and each runs start to finish on one
//! thread; nothing is split or stolen. A work-stealing pool (rayon) spins and yields when it
//! runs dry, which on a 2-core machine takes the CPU from the JS thread and the other worker
//! exactly when they have the next request in hand. Here an idle worker parks at once and a
//! new job wakes one parked worker, if any is parked: the one that parked last, whose core's
//! caches still hold what the previous request read. Taking turns, as a FIFO of parked workers
//! has them do, each request starts on the core that did not run the last one (npm deep page
//! over HTTP, one connection: 2.70-2.83 ms p50 taking turns, 2.18-2.53 the last one first).

use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A job parses, builds and runs queries by recursion, as deep as a request nests (up to
/// `dsl::MAX_NESTING` levels); Rust's default 2 MiB holds a few hundred. Only the pages a
/// job touches are committed, so the reservation costs address space, not memory.
const STACK_SIZE: usize = 64 * 1024 * 1024;

struct Queue {
    jobs: VecDeque<Job>,
    /// Parked workers, the most recently parked last.
    parked: Vec<usize>,
    /// One idle worker is polling for the next job instead of parking.
    spinning: bool,
    stopping: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    /// One per worker, so a job wakes the worker chosen for it.
    wake: Vec<Condvar>,
    /// Jobs queued: what the spinning worker polls without taking the lock.
    queued: AtomicUsize,
    /// Jobs run to the end, for `_cat/thread_pool`.
    completed: AtomicUsize,
    spin: Duration,
}

/// A pool's threads and jobs at one moment.
pub struct PoolStatus {
    pub size: usize,
    /// Threads running a job (or woken for one).
    pub active: usize,
    pub queued: usize,
    pub completed: usize,
}

pub struct WorkerPool {
    shared: Arc<Shared>,
}

impl WorkerPool {
    /// Starts `n` threads named `quarry-{name}-{i}`; `on_start` runs first on each. After a
    /// job, one idle worker at a time polls for the next one for `spin` before parking.
    pub fn new(
        name: &str,
        n: usize,
        spin: Duration,
        on_start: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<WorkerPool> {
        let n = n.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                parked: Vec::with_capacity(n),
                spinning: false,
                stopping: false,
            }),
            wake: (0..n).map(|_| Condvar::new()).collect(),
            queued: AtomicUsize::new(0),
            completed: AtomicUsize::new(0),
            spin,
        });
        let on_start = Arc::new(on_start);
        for i in 0..n {
            let shared = shared.clone();
            let on_start = on_start.clone();
            std::thread::Builder::new()
                .name(format!("quarry-{name}-{i}"))
                .stack_size(STACK_SIZE)
                .spawn(move || {
                    on_start();
                    work(&shared, i);
                })?;
        }
        Ok(WorkerPool { shared })
    }

    /// What `_cat/thread_pool` shows of the pool now.
    pub fn status(&self) -> PoolStatus {
        let q = self.shared.queue.lock();
        let size = self.shared.wake.len();
        PoolStatus {
            size,
            active: size - q.parked.len() - usize::from(q.spinning),
            queued: q.jobs.len(),
            completed: self.shared.completed.load(Ordering::Relaxed),
        }
    }

    /// Whether an idle worker polls for the next job before it parks.
    pub fn polls(&self) -> bool {
        !self.shared.spin.is_zero()
    }

    /// Queues `job`; it runs on the first free worker.
    pub fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        let mut q = self.shared.queue.lock();
        q.jobs.push_back(Box::new(job));
        self.shared.queued.fetch_add(1, Ordering::Release);
        // The spinning worker takes one job; a parked one is woken for each job beyond that.
        let wake = if q.jobs.len() > usize::from(q.spinning) {
            q.parked.pop()
        } else {
            None
        };
        drop(q);
        if let Some(i) = wake {
            self.shared.wake[i].notify_one();
        }
    }
}

fn work(shared: &Shared, me: usize) {
    let mut q = shared.queue.lock();
    // Whether this worker may poll before parking: right after a job, not after a fruitless poll.
    let mut may_spin = false;
    loop {
        if let Some(job) = q.jobs.pop_front() {
            shared.queued.fetch_sub(1, Ordering::Relaxed);
            drop(q);
            job();
            shared.completed.fetch_add(1, Ordering::Relaxed);
            may_spin = !shared.spin.is_zero();
            q = shared.queue.lock();
        } else if q.stopping {
            return;
        } else if may_spin && !q.spinning {
            may_spin = false;
            q.spinning = true;
            drop(q);
            // Yielding, not busy-waiting: on a small machine the thread that will send the next
            // job may need this core to do it.
            let until = Instant::now() + shared.spin;
            while shared.queued.load(Ordering::Acquire) == 0 && Instant::now() < until {
                std::thread::yield_now();
            }
            q = shared.queue.lock();
            q.spinning = false;
        } else {
            may_spin = false;
            q.parked.push(me);
            // Woken by a job (which took this worker off the list) or by the pool's end.
            while q.parked.contains(&me) && !q.stopping {
                shared.wake[me].wait(&mut q);
            }
        }
    }
}

impl Drop for WorkerPool {
    /// The threads finish what is queued, then exit. Not joined: the last owner may be a job
    /// on one of them, or the JS thread, which must not wait on a long bulk.
    fn drop(&mut self) {
        self.shared.queue.lock().stopping = true;
        for w in &self.shared.wake {
            w.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn runs_every_job_queued_before_drop() {
        let done = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = mpsc::channel();
        let pool = WorkerPool::new("test", 2, Duration::from_micros(50), || {}).unwrap();
        for _ in 0..1000 {
            let (done, tx) = (done.clone(), tx.clone());
            pool.spawn(move || {
                if done.fetch_add(1, Ordering::Relaxed) == 999 {
                    tx.send(()).unwrap();
                }
            });
        }
        drop(pool);
        rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        assert_eq!(done.load(Ordering::Relaxed), 1000);
    }

    /// Waits until every worker of `pool` has parked.
    fn all_parked(pool: &WorkerPool, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while pool.shared.queue.lock().parked.len() < n {
            assert!(Instant::now() < deadline, "workers never parked");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_worker_that_parked_last_takes_the_next_job() {
        let pool = WorkerPool::new("test", 4, Duration::ZERO, || {}).unwrap();
        let (tx, rx) = mpsc::channel();
        let mut names = Vec::new();
        for _ in 0..20 {
            all_parked(&pool, 4);
            let tx = tx.clone();
            pool.spawn(move || tx.send(std::thread::current().id()).unwrap());
            names.push(rx.recv_timeout(Duration::from_secs(10)).unwrap());
        }
        // Jobs one at a time, each after the last worker parked: the same warm worker each time.
        assert!(names.iter().all(|n| *n == names[0]), "{names:?}");
    }

    #[test]
    fn jobs_run_concurrently_on_distinct_workers() {
        let pool = WorkerPool::new("test", 2, Duration::from_micros(50), || {}).unwrap();
        let (tx, rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        for _ in 0..2 {
            let tx = tx.clone();
            let release_rx = release_rx.clone();
            pool.spawn(move || {
                tx.send(std::thread::current().name().map(str::to_string))
                    .unwrap();
                // Both jobs are held until both have started: only two workers can do that.
                let _ = release_rx.lock().recv();
            });
        }
        let a = rx.recv().unwrap();
        let b = rx.recv().unwrap();
        assert_ne!(a, b);
        release_tx.send(()).unwrap();
        release_tx.send(()).unwrap();
    }
}
