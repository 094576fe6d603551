//! The search `timeout`: a weight wrapper whose collection stops at a deadline, checked when a
//! segment starts and every [`CHECK_EVERY`] documents after (counts: per segment), and which remembers that it stopped
//! so the shard reports `timed_out` with what it collected (as OpenSearch's query phase does).
//! Only searches with a `timeout` are wrapped, so the others keep their weights' own paths.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tantivy::query::{Explanation, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

/// Documents between two reads of the clock: a read costs tens of nanoseconds, a document a few.
const CHECK_EVERY: u32 = 1024;

/// A deadline shared by every shard of one search, and whether some collection hit it.
#[derive(Clone)]
pub struct Deadline {
    at: Instant,
    hit: Arc<AtomicBool>,
}

impl Deadline {
    pub fn new(at: Instant) -> Self {
        Deadline {
            at,
            hit: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the time is up (and, if so, records that a collection stopped early).
    pub fn passed(&self) -> bool {
        if self.hit.load(Ordering::Relaxed) {
            return true;
        }
        if Instant::now() > self.at {
            self.hit.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    /// Whether some collection stopped at the deadline.
    pub fn was_hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }
}

pub struct TimeLimitedWeight {
    pub inner: Box<dyn Weight>,
    pub deadline: Deadline,
}

/// Counts calls and reads the clock every [`CHECK_EVERY`] of them.
struct Ticker<'a> {
    n: u32,
    deadline: &'a Deadline,
}

impl Ticker<'_> {
    #[inline]
    fn expired(&mut self) -> bool {
        self.n += 1;
        if self.n < CHECK_EVERY {
            return false;
        }
        self.n = 0;
        self.deadline.passed()
    }
}

impl TimeLimitedWeight {
    /// Walks a segment's matches until the deadline.
    fn walk(
        &self,
        reader: &SegmentReader,
        mut callback: impl FnMut(&mut dyn Scorer),
    ) -> tantivy::Result<()> {
        if self.deadline.passed() {
            return Ok(());
        }
        let mut scorer = self.inner.scorer(reader, 1.0)?;
        let mut tick = Ticker {
            n: 0,
            deadline: &self.deadline,
        };
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            callback(scorer.as_mut());
            if tick.expired() {
                break;
            }
            doc = scorer.advance();
        }
        Ok(())
    }
}

impl Weight for TimeLimitedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        self.inner.scorer(reader, boost)
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }

    /// Counts keep the weight's own shortcuts (a term's doc freq, block-wise unions), which
    /// take a fraction of a collection: the deadline is checked per segment only.
    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if self.deadline.passed() {
            return Ok(0);
        }
        self.inner.count(reader)
    }

    fn for_each(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score),
    ) -> tantivy::Result<()> {
        self.walk(reader, |s| callback(s.doc(), s.score()))
    }

    fn for_each_no_score(
        &self,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(&[DocId]),
    ) -> tantivy::Result<()> {
        self.walk(reader, |s| callback(&[s.doc()]))
    }

    fn for_each_pruning(
        &self,
        threshold: Score,
        reader: &SegmentReader,
        callback: &mut dyn FnMut(DocId, Score) -> Score,
    ) -> tantivy::Result<()> {
        if self.deadline.passed() {
            return Ok(());
        }
        let mut tick = Ticker {
            n: 0,
            deadline: &self.deadline,
        };
        let mut stopped = false;
        // Past the deadline every document is refused and the threshold raised out of reach,
        // which lets a pruning scorer skip the rest of the segment.
        self.inner
            .for_each_pruning(threshold, reader, &mut |doc, score| {
                if stopped || tick.expired() {
                    stopped = true;
                    return Score::MAX;
                }
                callback(doc, score)
            })
    }
}
