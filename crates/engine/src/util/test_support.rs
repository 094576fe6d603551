//! What the randomized tests share: a seeded generator (xorshift64: the same seed builds the
//! same index on every run and machine, so a failing seed can be replayed), a writer whose
//! commits stay separate segments, and the exhaustive top-k the fast paths are checked against.

use tantivy::query::{EnableScoring, Query};
use tantivy::Searcher;

/// A one-thread writer that never merges: each commit is a segment of its own.
pub fn segment_writer(index: &tantivy::Index) -> tantivy::IndexWriter {
    let w = index.writer_with_num_threads(1, 20_000_000).unwrap();
    w.set_merge_policy(Box::new(tantivy::indexer::NoMergePolicy));
    w
}

pub struct Rng(pub u64);

impl Rng {
    pub fn step(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.step() % n
    }

    /// One to `max_len` of `pieces`, picked at random and joined.
    pub fn soup(&mut self, pieces: &[&str], max_len: u64) -> String {
        let len = 1 + self.below(max_len);
        (0..len)
            .map(|_| pieces[self.below(pieces.len() as u64) as usize])
            .collect()
    }

    /// Skewed towards small numbers, as word frequencies are.
    pub fn skewed(&mut self, n: u64) -> u64 {
        let a = self.below(n);
        self.below(a + 1)
    }
}

/// Hits as (score, segment ordinal, doc).
pub type Hits = Vec<(f32, u32, u32)>;

/// The top `k` of every alive match by score, then segment and doc; and how many matched.
pub fn exhaustive(searcher: &Searcher, q: &dyn Query, k: usize) -> (Hits, u32) {
    let w = q
        .weight(EnableScoring::enabled_from_searcher(searcher))
        .unwrap();
    let mut all = Vec::new();
    for (s, r) in searcher.segment_readers().iter().enumerate() {
        w.for_each(r, &mut |d, score| {
            if r.alive_bitset().is_none_or(|a| a.is_alive(d)) {
                all.push((score, s as u32, d));
            }
        })
        .unwrap();
    }
    let count = all.len() as u32;
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    all.truncate(k);
    (all, count)
}
