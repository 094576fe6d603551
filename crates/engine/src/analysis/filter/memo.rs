//! A per-thread memo of what a fused filter chain made of a word: natural-language text
//! repeats a few thousand words most of the time, so the chain (possessive, lowercase, stop
//! words, stemming) runs once per distinct word instead of once per token.
//!
//! Only chains whose outcome for an ASCII word depends on its lowercase form alone use it, so
//! the key is the word lowercased: `The` and `the` share an entry, and the key is made with a
//! few word-wide operations from the text itself (`Key::at`), without copying the word. A
//! value is the key cut plus a short ending, so an entry needs no room for a second word.
//! Two-way set associative: a set holds the last two keys that hashed to it, tagged with the
//! chain that wrote them (each chain has its own stop words); a miss costs two compares.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};

/// 16,384 sets of two 32-byte entries, a set per cache line: 1 MB a thread. On the Debian
/// descriptions 97% of the tokens hit (4,096 sets: 90%), and each miss runs the whole chain.
const SET_BITS: u32 = 14;
/// Longer words are never memoized (rare, and they keep keys at two machine words).
pub const MAX_LEN: usize = 16;
/// A value is the key cut, plus at most this many bytes (a stemmer's ending).
const SUFFIX: usize = 8;
const REMOVED: u8 = u8::MAX;

/// A word of at most `MAX_LEN` ASCII bytes, lowercased, as two little-endian words padded
/// with zero bytes (a word holds no NUL, so the padding also tells its length).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key([u64; 2]);

const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The bytes `A`..=`Z` of `w` (all of whose bytes are below 0x80) as lowercase: a byte is
/// upper case when adding `0x80 - 'A'` sets its high bit and adding `0x80 - 'Z' - 1` does not.
#[inline]
fn lower8(w: u64) -> u64 {
    let ge_a = w + 0x3F3F_3F3F_3F3F_3F3F;
    let gt_z = w + 0x2525_2525_2525_2525;
    w | ((ge_a & !gt_z & HIGH) >> 2)
}

/// The low `n` bytes (n ≤ 8) of a word.
#[inline]
fn low_bytes(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

#[inline]
fn load8(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Key {
    /// The key of `text[start..end]`, which must be ASCII, or `None` if it is longer than
    /// `MAX_LEN` or empty. Reads the text a word at a time where 16 bytes follow `start`.
    #[inline]
    pub fn at(text: &[u8], start: usize, end: usize) -> Option<Key> {
        let len = end - start;
        if len > MAX_LEN || len == 0 {
            return None;
        }
        let (lo, hi) = if start + 16 <= text.len() {
            (load8(text, start), load8(text, start + 8))
        } else {
            let mut b = [0u8; 16];
            b[..len].copy_from_slice(&text[start..end]);
            (load8(&b, 0), load8(&b, 8))
        };
        let lo = lo & low_bytes(len);
        let hi = hi & low_bytes(len.saturating_sub(8));
        debug_assert!((lo | hi) & !LO7 == 0, "ASCII only");
        Some(Key([lower8(lo), lower8(hi)]))
    }

    /// The key of an ASCII word; `None` for other words and those longer than `MAX_LEN`.
    #[inline]
    pub fn of(word: &str) -> Option<Key> {
        if !word.is_ascii() {
            return None;
        }
        Key::at(word.as_bytes(), 0, word.len())
    }

    #[inline]
    fn len(&self) -> usize {
        let [lo, hi] = self.0;
        if hi != 0 {
            16 - (hi.leading_zeros() / 8) as usize
        } else {
            8 - (lo.leading_zeros() / 8) as usize
        }
    }

    #[inline]
    fn bytes(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&self.0[0].to_le_bytes());
        b[8..].copy_from_slice(&self.0[1].to_le_bytes());
        b
    }

    #[inline]
    fn set(&self) -> usize {
        let h = (self.0[0] ^ self.0[1].rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - SET_BITS)) as usize
    }
}

#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    key: Key,
    /// The ending's bytes, little-endian, zero-padded.
    suffix: u64,
    owner: u32,
    /// How much of the key the value keeps; `REMOVED` when the chain drops the word.
    keep: u8,
    suffix_len: u8,
}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Set([Entry; 2]);

const EMPTY: Entry = Entry {
    key: Key([0; 2]),
    suffix: 0,
    owner: 0,
    keep: 0,
    suffix_len: 0,
};

pub struct Memo {
    sets: Box<[Set]>,
}

thread_local! {
    /// This thread's memo while no stream holds it (`Memo::take`); `None` before first use.
    static MEMO: Cell<Option<Memo>> = const { Cell::new(None) };
}

/// A fresh owner tag for a chain (0 marks an empty entry).
pub fn new_owner() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// This thread's memo, held for as long as the guard lives (a token stream's life), so that
/// looking a word up costs no thread-local access. Dropping the guard gives it back.
pub struct Held(Memo);

impl std::ops::Deref for Held {
    type Target = Memo;
    fn deref(&self) -> &Memo {
        &self.0
    }
}

impl std::ops::DerefMut for Held {
    fn deref_mut(&mut self) -> &mut Memo {
        &mut self.0
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        // An empty slice in its place: no allocation.
        let m = std::mem::replace(
            &mut self.0,
            Memo {
                sets: Box::default(),
            },
        );
        // After a thread's locals are gone there is nowhere to keep it.
        let _ = MEMO.try_with(|c| c.set(Some(m)));
    }
}

impl Memo {
    fn new() -> Memo {
        Memo {
            sets: vec![Set([EMPTY; 2]); 1 << SET_BITS].into_boxed_slice(),
        }
    }

    /// Takes this thread's memo until the guard drops. A stream opened while another one on
    /// the same thread holds it (none does today) gets a memo of its own.
    pub fn take() -> Held {
        let m = MEMO.try_with(Cell::take).ok().flatten();
        Held(m.unwrap_or_else(Memo::new))
    }

    /// Starts bringing `key`'s set into the cache, to be looked up a little later: on a
    /// corpus the memo outgrows the core's own caches, and a lookup that waits for memory
    /// costs as much as the rest of a token's analysis.
    #[inline]
    pub fn prefetch(&self, key: Key) {
        let set: *const Set = &self.sets[key.set()];
        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        // SAFETY: a prefetch is a hint to the cache: it never faults and reads nothing into
        // the program (and the address is that of a live set anyway).
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(set.cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = set;
    }

    /// The remembered outcome for `key` under `owner`: `Some(true)` with the value written to
    /// `out`, `Some(false)` when the chain removes the word, `None` when not remembered.
    #[inline]
    pub fn get(&mut self, owner: u32, key: Key, out: &mut String) -> Option<bool> {
        let ways = &mut self.sets[key.set()].0;
        let e = if ways[0].key == key && ways[0].owner == owner {
            ways[0]
        } else if ways[1].key == key && ways[1].owner == owner {
            // The word last used goes first, so that the next new word replaces the other.
            ways.swap(0, 1);
            ways[0]
        } else {
            return None;
        };
        if e.keep == REMOVED {
            return Some(false);
        }
        let mut buf = [0u8; MAX_LEN + SUFFIX];
        buf[..MAX_LEN].copy_from_slice(&key.bytes());
        let keep = e.keep as usize;
        buf[keep..keep + SUFFIX].copy_from_slice(&e.suffix.to_le_bytes());
        out.clear();
        // Byte by byte as chars: ASCII needs no UTF-8 check, and a few bytes no memcpy call.
        out.extend(
            buf[..keep + e.suffix_len as usize]
                .iter()
                .map(|&b| char::from(b)),
        );
        Some(true)
    }

    /// Remembers an outcome (`None`: the word is removed). A value that is not the key cut
    /// plus a short lowercase ending is not kept (an English chain makes such a value of
    /// nearly every word). The newest entry of a set goes first; the older one moves to the
    /// second place, and the second leaves.
    #[inline]
    pub fn put(&mut self, owner: u32, key: Key, out: Option<&str>) {
        let (keep, suffix) = match out {
            None => (REMOVED, &[][..]),
            Some(v) => {
                let v = v.as_bytes();
                let k = key.bytes();
                let keep = k[..key.len()]
                    .iter()
                    .zip(v)
                    .take_while(|(a, b)| a == b)
                    .count();
                let suffix = &v[keep..];
                if suffix.len() > SUFFIX || !suffix.iter().all(u8::is_ascii_lowercase) {
                    return;
                }
                (keep as u8, suffix)
            }
        };
        let mut s = [0u8; 8];
        s[..suffix.len()].copy_from_slice(suffix);
        let e = Entry {
            key,
            suffix: u64::from_le_bytes(s),
            owner,
            keep,
            suffix_len: suffix.len() as u8,
        };
        let ways = &mut self.sets[key.set()].0;
        ways[1] = ways[0];
        ways[0] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_lowercase_words() {
        let text = b"The QUICK brown-fox sixteen-bytes-OK seventeen-bytes-no z";
        let word = |s: &str| {
            let at = text
                .windows(s.len())
                .position(|w| w == s.as_bytes())
                .unwrap();
            Key::at(text, at, at + s.len())
        };
        assert_eq!(word("The"), Key::of("the"));
        assert_eq!(word("QUICK"), Key::of("quick"));
        assert_eq!(word("QUICK").unwrap().len(), 5);
        assert_eq!(word("sixteen-bytes-OK"), Key::of("sixteen-bytes-ok"));
        assert_eq!(word("sixteen-bytes-OK").unwrap().len(), 16);
        assert_eq!(word("seventeen-bytes-no"), None);
        // Near the end of the text the word is copied rather than read in place.
        assert_eq!(word("z"), Key::of("z"));
        assert_ne!(Key::of("ab"), Key::of("ab@"));
        assert_eq!(Key::of("été"), None);
        // Only A-Z change: the bytes next to them in ASCII stay.
        assert_eq!(
            Key::of("@[`{AZaz"),
            Some(Key::at(b"@[`{azaz", 0, 8).unwrap())
        );
    }

    #[test]
    fn remembers_per_owner() {
        let (a, b) = (new_owner(), new_owner());
        let mut m = Memo::take();
        let get = |m: &mut Memo, owner, key: &str| {
            let mut out = String::new();
            m.get(owner, Key::of(key).unwrap(), &mut out)
                .map(|kept| kept.then_some(out))
        };
        let mut put = |owner, key: &str, v: Option<&str>| m.put(owner, Key::of(key).unwrap(), v);
        put(a, "Running", Some("run"));
        put(a, "the", None);
        put(a, "sixteen-bytes-ok", Some("sixteen-bytes-ok"));
        put(a, "relational", Some("relat"));
        put(a, "ponies", Some("poni"));
        put(a, "agreed", Some("agre"));
        put(a, "conditional", Some("condit"));
        put(a, "abilities", Some("abil"));
        put(a, "word", Some("somethingelse"));
        put(a, "UPPER", Some("UPPER"));
        assert_eq!(get(&mut m, a, "running"), Some(Some("run".into())));
        assert_eq!(get(&mut m, a, "RUNNING"), Some(Some("run".into())));
        assert_eq!(get(&mut m, a, "The"), Some(None));
        assert_eq!(get(&mut m, b, "Running"), None);
        assert_eq!(get(&mut m, a, "Runnin"), None);
        assert_eq!(get(&mut m, a, "ponies"), Some(Some("poni".into())));
        assert_eq!(get(&mut m, a, "conditional"), Some(Some("condit".into())));
        assert_eq!(get(&mut m, a, "abilities"), Some(Some("abil".into())));
        assert_eq!(get(&mut m, a, "word"), None);
        assert_eq!(get(&mut m, a, "upper"), None);
        assert_eq!(
            get(&mut m, a, "sixteen-bytes-ok"),
            Some(Some("sixteen-bytes-ok".into()))
        );
    }
}
