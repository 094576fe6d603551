//! A per-thread memo of what a fused filter chain made of a token text: natural-language text
//! repeats a few thousand words most of the time, so the chain (possessive, lowercase, stop
//! words, stemming) runs once per distinct word instead of once per token. Two-way set
//! associative: a set holds the last two short texts that hashed to it, tagged with the chain
//! that wrote them (each chain has its own stop words), so a miss costs two compares and a
//! recompute.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

/// 4096 sets of two 32-byte entries, a set per cache line (256 KB a thread, well inside a
/// core's L2): 90% of the Debian descriptions' tokens hit.
const SET_BITS: u32 = 12;
/// Longer texts are never memoized (rare words, and they keep entries small).
pub const MAX_LEN: usize = 16;
/// A value is the key lowercased, cut, plus at most this many bytes (a stemmer's ending).
const SUFFIX: usize = 9;
const REMOVED: u8 = u8::MAX;

#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    /// The key's bytes, zero-padded.
    key: [u64; 2],
    owner: u32,
    key_len: u8,
    /// How much of the lowercased key the value keeps; `REMOVED` when the chain drops the
    /// token.
    keep: u8,
    suffix_len: u8,
    suffix: [u8; SUFFIX],
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Set([Entry; 2]);

const EMPTY: Entry = Entry {
    key: [0; 2],
    owner: 0,
    key_len: 0,
    keep: 0,
    suffix_len: 0,
    suffix: [0; SUFFIX],
};

pub struct Memo {
    sets: Box<[Set]>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        sets: vec![Set([EMPTY; 2]); 1 << SET_BITS].into_boxed_slice(),
    });
}

/// A fresh owner tag for a chain (0 marks an empty entry).
pub fn new_owner() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A key of at most `MAX_LEN` bytes as two words, and the set it belongs to.
#[inline]
fn pack(key: &[u8]) -> ([u64; 2], usize) {
    let mut b = [0u8; 16];
    b[..key.len()].copy_from_slice(key);
    let lo = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let hi = u64::from_le_bytes([b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]]);
    let h = (lo ^ hi.rotate_left(29) ^ key.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ([lo, hi], (h >> (64 - SET_BITS)) as usize)
}

impl Entry {
    #[inline]
    fn is(&self, owner: u32, key: &[u64; 2], len: usize) -> bool {
        self.key == *key && self.key_len as usize == len && self.owner == owner
    }
}

impl Memo {
    /// Runs `f` with this thread's memo.
    pub fn with<R>(f: impl FnOnce(&mut Memo) -> R) -> R {
        MEMO.with(|m| f(&mut m.borrow_mut()))
    }

    /// The remembered outcome for `key` under `owner`: `Some(true)` with the value written to
    /// `out`, `Some(false)` when the chain removes the token, `None` when not remembered.
    #[inline]
    pub fn get_into(&self, owner: u32, key: &str, out: &mut String) -> Option<bool> {
        if key.len() > MAX_LEN {
            return None;
        }
        let (packed, set) = pack(key.as_bytes());
        let [a, b] = &self.sets[set].0;
        let e = if a.is(owner, &packed, key.len()) {
            a
        } else if b.is(owner, &packed, key.len()) {
            b
        } else {
            return None;
        };
        if e.keep == REMOVED {
            return Some(false);
        }
        // Only ASCII keys are remembered, so any cut is a char boundary.
        out.clear();
        out.push_str(key.get(..e.keep as usize)?);
        out.make_ascii_lowercase();
        out.extend(e.suffix[..e.suffix_len as usize].iter().map(|&b| b as char));
        Some(true)
    }

    /// Remembers an outcome (`None`: the token is removed). Only ASCII keys of at most
    /// `MAX_LEN` bytes whose value is the key lowercased and cut plus a short lowercase ending
    /// are kept, which is what an English chain makes of nearly every word. The newest entry
    /// of a set goes first; the older one moves to the second place, and the second leaves.
    #[inline]
    pub fn put(&mut self, owner: u32, key: &str, out: Option<&str>) {
        if key.len() > MAX_LEN || !key.is_ascii() {
            return;
        }
        let (keep, suffix) = match out {
            None => (REMOVED, &[][..]),
            Some(v) => {
                let v = v.as_bytes();
                let keep = key
                    .bytes()
                    .zip(v)
                    .take_while(|&(k, &v)| k.to_ascii_lowercase() == v)
                    .count();
                let suffix = &v[keep..];
                if suffix.len() > SUFFIX || !suffix.iter().all(u8::is_ascii_lowercase) {
                    return;
                }
                (keep as u8, suffix)
            }
        };
        let (packed, set) = pack(key.as_bytes());
        let mut e = EMPTY;
        e.key = packed;
        e.owner = owner;
        e.key_len = key.len() as u8;
        e.keep = keep;
        e.suffix_len = suffix.len() as u8;
        e.suffix[..suffix.len()].copy_from_slice(suffix);
        let ways = &mut self.sets[set].0;
        ways[1] = ways[0];
        ways[0] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_per_owner() {
        let (a, b) = (new_owner(), new_owner());
        let get = |m: &Memo, owner, key| {
            let mut out = String::new();
            m.get_into(owner, key, &mut out)
                .map(|kept| kept.then_some(out))
        };
        Memo::with(|m| {
            m.put(a, "Running", Some("run"));
            m.put(a, "the", None);
            m.put(a, "a-very-long-token-text-here", Some("x"));
            m.put(a, "sixteen-bytes-ok", Some("sixteen-bytes-ok"));
            m.put(a, "relational", Some("relat"));
            m.put(a, "ponies", Some("poni"));
            m.put(a, "agreed", Some("agre"));
            m.put(a, "conditional", Some("condit"));
            m.put(a, "word", Some("somethingelse"));
            assert_eq!(get(m, a, "Running"), Some(Some("run".into())));
            assert_eq!(get(m, a, "the"), Some(None));
            assert_eq!(get(m, b, "Running"), None);
            assert_eq!(get(m, a, "Runnin"), None);
            assert_eq!(get(m, a, "a-very-long-token-text-here"), None);
            assert_eq!(get(m, a, "ponies"), Some(Some("poni".into())));
            assert_eq!(get(m, a, "conditional"), Some(Some("condit".into())));
            assert_eq!(get(m, a, "word"), None);
            assert_eq!(
                get(m, a, "sixteen-bytes-ok"),
                Some(Some("sixteen-bytes-ok".into()))
            );
        });
    }
}
