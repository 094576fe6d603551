//! The pool reads run on: a queue and a fixed set of threads, each job handed to exactly one
//! sleeping thread (one futex wake).
//!
//! rayon's pool, built for fork-join work, wakes a second worker whenever a job is injected (to
//! help with the splits it expects) and lets idle workers spin on `sched_yield` before they
//! sleep; on the 2 cores Quarry targets that is a second thread competing with the JS thread for
//! every search, and strace shows both workers yielding after each request. A search here is one
//! sequential job, so a plain queue serves it with one hand-off.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

type Job = Box<dyn FnOnce() + Send + 'static>;

struct Queue {
    jobs: Mutex<(VecDeque<Job>, bool)>,
    ready: Condvar,
}

pub struct Pool {
    queue: Arc<Queue>,
}

impl Pool {
    pub fn new(name: &str, threads: usize) -> std::io::Result<Pool> {
        let queue = Arc::new(Queue {
            jobs: Mutex::new((VecDeque::new(), false)),
            ready: Condvar::new(),
        });
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || work(&queue))?;
        }
        Ok(Pool { queue })
    }

    pub fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        self.queue
            .jobs
            .lock()
            .expect("pool lock")
            .0
            .push_back(Box::new(job));
        self.queue.ready.notify_one();
    }
}

fn work(queue: &Queue) {
    loop {
        let job = {
            let mut guard = queue.jobs.lock().expect("pool lock");
            loop {
                if let Some(job) = guard.0.pop_front() {
                    break job;
                }
                if guard.1 {
                    return;
                }
                guard = queue.ready.wait(guard).expect("pool lock");
            }
        };
        job();
    }
}

impl Drop for Pool {
    /// The threads finish what is queued, then exit (not joined: the JS thread drops the pool
    /// and must not wait for a running search).
    fn drop(&mut self) {
        self.queue.jobs.lock().expect("pool lock").1 = true;
        self.queue.ready.notify_all();
    }
}
