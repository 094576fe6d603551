//! A per-thread memo of what a fused filter chain made of a token text: natural-language text
//! repeats a few thousand words most of the time, so the chain (possessive, lowercase, stop
//! words, stemming) runs once per distinct word instead of once per token. Direct-mapped: a
//! slot holds the last short text that hashed to it, tagged with the chain that wrote it (each
//! chain has its own stop words), so a miss costs one compare and a recompute.

use std::cell::RefCell;
use std::hash::Hasher;
use std::sync::atomic::{AtomicU32, Ordering};

/// 8192 slots (~420 KB a thread): 88% of the Debian descriptions' tokens hit.
const SLOTS: usize = 1 << SLOT_BITS;
const SLOT_BITS: u32 = 13;
/// Longer texts are never memoized (rare words, and they keep slots small).
pub const MAX_LEN: usize = 22;
const REMOVED: u8 = u8::MAX;

#[derive(Clone, Copy)]
struct Slot {
    owner: u32,
    key_len: u8,
    /// `REMOVED` when the chain drops the token.
    val_len: u8,
    key: [u8; MAX_LEN],
    val: [u8; MAX_LEN],
}

const EMPTY: Slot = Slot {
    owner: 0,
    key_len: 0,
    val_len: 0,
    key: [0; MAX_LEN],
    val: [0; MAX_LEN],
};

pub struct Memo {
    slots: Box<[Slot]>,
}

/// What the chain made of a text: `None` when it removes the token.
pub type Outcome<'a> = Option<&'a str>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo { slots: vec![EMPTY; SLOTS].into_boxed_slice() });
}

/// A fresh owner tag for a chain (0 marks an empty slot).
pub fn new_owner() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[inline]
fn slot_of(key: &[u8]) -> usize {
    let mut h = rustc_hash::FxHasher::default();
    h.write(key);
    (h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SLOT_BITS)) as usize
}

impl Memo {
    /// Runs `f` with this thread's memo.
    pub fn with<R>(f: impl FnOnce(&mut Memo) -> R) -> R {
        MEMO.with(|m| f(&mut m.borrow_mut()))
    }

    /// The remembered outcome for `key` (at most `MAX_LEN` bytes) under `owner`.
    #[inline]
    pub fn get(&self, owner: u32, key: &str) -> Option<Outcome<'_>> {
        let s = &self.slots[slot_of(key.as_bytes())];
        if s.owner != owner
            || s.key_len as usize != key.len()
            || &s.key[..key.len()] != key.as_bytes()
        {
            return None;
        }
        if s.val_len == REMOVED {
            return Some(None);
        }
        // Values are copied from `str`s whole, so they are UTF-8.
        std::str::from_utf8(&s.val[..s.val_len as usize])
            .ok()
            .map(Some)
    }

    /// Remembers an outcome; keys or values longer than `MAX_LEN` are not kept.
    #[inline]
    pub fn put(&mut self, owner: u32, key: &str, out: Outcome<'_>) {
        if key.len() > MAX_LEN || out.is_some_and(|v| v.len() > MAX_LEN) {
            return;
        }
        let s = &mut self.slots[slot_of(key.as_bytes())];
        s.owner = owner;
        s.key_len = key.len() as u8;
        s.key[..key.len()].copy_from_slice(key.as_bytes());
        match out {
            None => s.val_len = REMOVED,
            Some(v) => {
                s.val_len = v.len() as u8;
                s.val[..v.len()].copy_from_slice(v.as_bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_per_owner() {
        let (a, b) = (new_owner(), new_owner());
        Memo::with(|m| {
            m.put(a, "running", Some("run"));
            m.put(a, "the", None);
            m.put(a, "a-very-long-token-text-here", Some("x"));
            assert_eq!(m.get(a, "running"), Some(Some("run")));
            assert_eq!(m.get(a, "the"), Some(None));
            assert_eq!(m.get(b, "running"), None);
            assert_eq!(m.get(a, "runnin"), None);
            assert_eq!(m.get(a, "a-very-long-token-text-here"), None);
        });
    }
}
