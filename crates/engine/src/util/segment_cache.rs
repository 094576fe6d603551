//! Data derived from one segment (column bounds, value orders, `_seq_no` floors), cached by the
//! segment's id and what was derived: segments never change, so an entry never goes stale.
//! Merges retire segments without telling anyone, so a cache past its size starts over rather
//! than tracking them.

use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::hash::Hash;
use std::sync::{Arc, OnceLock};

/// The entries and their total size.
type Entries<K, V> = Mutex<(FxHashMap<K, Arc<V>>, usize)>;

pub struct SegmentCache<K, V> {
    entries: OnceLock<Entries<K, V>>,
    /// The most the entries may add up to, in the caller's unit (see `get_or_build`).
    max: usize,
}

impl<K: Hash + Eq, V> SegmentCache<K, V> {
    pub const fn new(max: usize) -> Self {
        SegmentCache {
            entries: OnceLock::new(),
            max,
        }
    }

    /// The entry for `key`, built by `build` on a miss (outside the lock); `size` measures an
    /// entry against the cache's `max`.
    pub fn get_or_build(
        &self,
        key: K,
        size: impl Fn(&V) -> usize,
        build: impl FnOnce() -> V,
    ) -> Arc<V> {
        let entries = self.entries.get_or_init(Default::default);
        if let Some(v) = entries.lock().0.get(&key) {
            return v.clone();
        }
        let v = Arc::new(build());
        let mut e = entries.lock();
        if e.1 + size(&v) > self.max {
            e.0.clear();
            e.1 = 0;
        }
        e.1 += size(&v);
        if let Some(old) = e.0.insert(key, v.clone()) {
            e.1 -= size(&old);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_once_and_starts_over_when_full() {
        static CACHE: SegmentCache<u32, Vec<u8>> = SegmentCache::new(10);
        let mut built = 0;
        let mut get = |k: u32, n: usize| {
            CACHE.get_or_build(k, Vec::len, || {
                built += 1;
                vec![0; n]
            })
        };
        assert_eq!(get(1, 4).len(), 4);
        assert_eq!(get(1, 4).len(), 4);
        get(2, 4);
        // 4 + 4 + 4 > 10: the cache starts over, so key 1 is built again.
        get(3, 4);
        get(1, 4);
        assert_eq!(built, 4);
    }
}
