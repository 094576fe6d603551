//! Documents on their way to tantivy's indexing threads, handed over in batches and counted
//! until an indexing thread is done with them.
//!
//! `IndexWriter::add_document` sends one document per channel message, and the channel holds
//! 10,000 messages: with the queue full (a bulk ingest faster than indexing), every document an
//! indexing thread took woke the blocked request thread to send the next one, a context switch
//! per document. `IndexWriter::run` sends a batch as one message (each operation keeps its own
//! opstamp, so deletes and adds keep their order), but the channel then holds 10,000 batches:
//! the bound on what is queued, and so on the memory it takes, is kept here instead, in
//! documents, with room to refill in one go once a waiting writer wakes.

use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tantivy::schema::document::Document;
use tantivy::TantivyDocument;

/// Documents a shard lets wait for its indexing threads (what tantivy's channel held before).
pub const MAX_QUEUED: usize = 10_000;
/// A writer that found the queue full waits until it is down to this.
const RESUME_AT: usize = MAX_QUEUED / 2;
/// Documents per message to the indexing threads: a thread checks its memory budget between
/// messages, and the 1 MB margin tantivy leaves under the budget holds this many.
pub const BATCH: usize = 128;

/// How many documents a shard has queued and not yet indexed.
#[derive(Default)]
pub struct Queue {
    queued: AtomicUsize,
    waiting: AtomicBool,
    lock: Mutex<()>,
    drained: Condvar,
}

impl Queue {
    /// Wraps `doc` for the indexing threads, counted until they drop it.
    pub fn enqueue(self: &Arc<Self>, doc: TantivyDocument) -> QueuedDoc {
        self.queued.fetch_add(1, Ordering::AcqRel);
        QueuedDoc {
            doc,
            _ticket: Ticket(self.clone()),
        }
    }

    /// Blocks while more than [`MAX_QUEUED`] documents wait, until half of them are indexed.
    pub fn wait_for_room(&self) {
        if self.queued.load(Ordering::Acquire) <= MAX_QUEUED {
            return;
        }
        let mut g = self.lock.lock();
        self.waiting.store(true, Ordering::Release);
        while self.queued.load(Ordering::Acquire) > RESUME_AT {
            // The timeout covers a wake-up sent between the check and the wait.
            self.drained.wait_for(&mut g, Duration::from_millis(5));
        }
        self.waiting.store(false, Ordering::Release);
    }

    fn done(&self) {
        let before = self.queued.fetch_sub(1, Ordering::AcqRel);
        if before == RESUME_AT + 1 && self.waiting.load(Ordering::Acquire) {
            let _g = self.lock.lock();
            self.drained.notify_all();
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.queued.load(Ordering::Acquire)
    }
}

struct Ticket(Arc<Queue>);

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.done();
    }
}

/// A document as the shard's `IndexWriter` takes it: tantivy's own, plus its place in the queue,
/// given back when an indexing thread drops it (indexed, or thrown away by a failing writer).
pub struct QueuedDoc {
    doc: TantivyDocument,
    _ticket: Ticket,
}

impl Document for QueuedDoc {
    type Value<'a> = <TantivyDocument as Document>::Value<'a>;
    type FieldsValuesIter<'a> = <TantivyDocument as Document>::FieldsValuesIter<'a>;

    fn iter_fields_and_values(&self) -> Self::FieldsValuesIter<'_> {
        self.doc.iter_fields_and_values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_until_dropped_and_waits_for_half() {
        let q = Arc::new(Queue::default());
        let docs: Vec<QueuedDoc> = (0..MAX_QUEUED + 10)
            .map(|_| q.enqueue(TantivyDocument::default()))
            .collect();
        assert_eq!(q.len(), MAX_QUEUED + 10);
        let indexer = {
            let q = q.clone();
            std::thread::spawn(move || {
                // Only once the writer waits: were the first drops to come before it looked,
                // it could find the queue no longer full and go on without waiting.
                while !q.waiting.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
                for d in docs {
                    drop(d);
                    std::thread::yield_now();
                }
                assert_eq!(q.len(), 0);
            })
        };
        q.wait_for_room();
        assert!(q.len() <= RESUME_AT);
        indexer.join().unwrap();
        q.wait_for_room();
        assert_eq!(q.len(), 0);
    }
}
