//! The terms of a keyword column's dictionary, decoded once per segment and field, for the
//! sort values a page prints.
//!
//! A dictionary block is zstd-compressed, and tantivy creates a zstd context for every block it
//! reads: one keyword sort value cost ~25 µs, 0.25 ms of the 0.44 ms flights
//! `asc-sort-delay-with-range` took in the engine (ten hits, a tie-break on `id`). Decoding a
//! whole dictionary reads each block once; dictionaries past `MAX_TERMS` are read term by term
//! as before. Ordinal lookups (a keyword `prefix`'s range, a `search_after` or `missing` value)
//! search the decoded terms the same way: through the dictionary, npm's `@types/` prefix spent
//! 60% of its time in two lookups, half of it creating zstd contexts.

use crate::util::segment_cache::SegmentCache;
use std::sync::Arc;
use tantivy::columnar::{StrColumn, TermOrdHit};
use tantivy::index::SegmentId;

/// The terms in ordinal order, back to back.
#[derive(Default)]
pub(crate) struct TermStrings {
    bytes: Vec<u8>,
    /// Where each term ends in `bytes`.
    ends: Vec<u32>,
}

impl TermStrings {
    pub(crate) fn get(&self, ord: u64) -> Option<&str> {
        let i = usize::try_from(ord).ok()?;
        if i >= self.ends.len() {
            return None;
        }
        std::str::from_utf8(self.term(i)).ok()
    }

    /// The bytes of term `i` (in range).
    fn term(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    /// The dictionary's `term_ord_or_next`: `key`'s ordinal, or the first greater term's (the
    /// term count when there is none), in the dictionary's byte order.
    pub(crate) fn ord_or_next(&self, key: &[u8]) -> TermOrdHit {
        let (mut lo, mut hi) = (0, self.ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.term(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let i = lo;
        if i < self.ends.len() && self.term(i) == key {
            TermOrdHit::Exact(i as u64)
        } else {
            TermOrdHit::Next(i as u64)
        }
    }

    /// Appends the term of the next ordinal (terms come in byte order).
    pub(crate) fn push(&mut self, term: &[u8]) {
        self.bytes.extend_from_slice(term);
        self.ends.push(self.bytes.len() as u32);
    }

    pub(crate) fn size(&self) -> usize {
        self.bytes.len() + 4 * self.ends.len()
    }
}

/// Dictionaries with more terms are not decoded whole.
const MAX_TERMS: u64 = 1 << 20;

/// At most this many bytes cached.
static CACHE: SegmentCache<(SegmentId, String), TermStrings> = SegmentCache::new(64 << 20);

/// The decoded terms of `col`, the keyword column of `field` in segment `segment`, or `None`
/// where the dictionary is too large. A dictionary that could not be read whole decodes to no
/// terms, and its values are then read term by term.
pub(crate) fn term_strings(
    segment: SegmentId,
    field: &str,
    col: &StrColumn,
) -> Option<Arc<TermStrings>> {
    let dict = col.dictionary();
    if dict.num_terms() as u64 > MAX_TERMS {
        return None;
    }
    Some(
        CACHE.get_or_build((segment, field.to_string()), TermStrings::size, || {
            decode(col).unwrap_or(TermStrings {
                bytes: Vec::new(),
                ends: Vec::new(),
            })
        }),
    )
}

/// `col`'s `dictionary().term_ord_or_next(key)`, through its decoded terms (`term_strings`)
/// where there are; past the last term, `Next` of the term count.
pub(crate) fn ord_or_next(
    terms: Option<&TermStrings>,
    col: &StrColumn,
    key: &[u8],
) -> std::io::Result<TermOrdHit> {
    let n = col.dictionary().num_terms();
    match terms {
        // A dictionary that failed to decode whole decodes to no terms.
        Some(t) if t.ends.len() == n => Ok(t.ord_or_next(key)),
        // Past the last term the dictionary says `Next(u64::MAX)`.
        _ => Ok(match col.dictionary().term_ord_or_next(key)? {
            TermOrdHit::Next(o) => TermOrdHit::Next(o.min(n as u64)),
            exact => exact,
        }),
    }
}

/// The term of ordinal `ord` in `col`, through its decoded terms where there are.
pub(crate) fn term_of(terms: Option<&TermStrings>, col: &StrColumn, ord: u64) -> Option<String> {
    if let Some(s) = terms.and_then(|t| t.get(ord)) {
        return Some(s.to_string());
    }
    let mut s = String::new();
    matches!(col.ord_to_str(ord, &mut s), Ok(true)).then_some(s)
}

fn decode(col: &StrColumn) -> Option<TermStrings> {
    let dict = col.dictionary();
    let mut stream = dict.stream().ok()?;
    let mut out = TermStrings {
        bytes: Vec::new(),
        ends: Vec::with_capacity(dict.num_terms()),
    };
    while stream.advance() {
        out.bytes.extend_from_slice(stream.key());
        out.ends.push(u32::try_from(out.bytes.len()).ok()?);
    }
    (out.ends.len() == dict.num_terms()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::{Schema, FAST, STRING};
    use tantivy::{Index, TantivyDocument};

    #[test]
    fn decodes_every_term_as_the_dictionary_reads_it() {
        let mut sb = Schema::builder();
        let k = sb.add_text_field("k", STRING | FAST);
        let index = Index::create_in_ram(sb.build());
        let mut w = crate::util::test_support::segment_writer(&index);
        // Enough terms for many compressed blocks, an empty one, and non-ASCII ones.
        for i in 0..20_000u32 {
            let mut d = TantivyDocument::default();
            d.add_text(
                k,
                format!(
                    "term-{}-{}",
                    i * 7919 % 20_000,
                    "é".repeat((i % 3) as usize)
                ),
            );
            w.add_document(d).unwrap();
        }
        let mut d = TantivyDocument::default();
        d.add_text(k, "");
        w.add_document(d).unwrap();
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let reader = searcher.segment_reader(0);
        let col = reader.fast_fields().str("k").unwrap().unwrap();
        let terms = term_strings(reader.segment_id(), "k", &col).unwrap();
        let n = col.dictionary().num_terms() as u64;
        assert!(n > 20_000);
        for ord in 0..n {
            let mut want = String::new();
            assert!(col.ord_to_str(ord, &mut want).unwrap());
            assert_eq!(terms.get(ord), Some(want.as_str()), "ord {ord}");
        }
        assert_eq!(terms.get(n), None);
        // Ordinal lookups agree with the dictionary's: every term, keys between and around
        // them, and prefixes.
        let mut keys: Vec<Vec<u8>> = vec![b"".to_vec(), b"a".to_vec(), b"zzz".to_vec()];
        for ord in (0..n).step_by(97) {
            let t = terms.get(ord).unwrap().as_bytes().to_vec();
            let mut after = t.clone();
            after.push(0);
            keys.push(t[..t.len() / 2].to_vec());
            keys.push(after);
            keys.push(t);
        }
        for key in keys {
            let want = match col.dictionary().term_ord_or_next(&key).unwrap() {
                TermOrdHit::Next(o) => TermOrdHit::Next(o.min(n)),
                exact => exact,
            };
            assert_eq!(
                ord_or_next(Some(&terms), &col, &key).unwrap(),
                want,
                "key {key:?}"
            );
            assert_eq!(ord_or_next(None, &col, &key).unwrap(), want, "key {key:?}");
        }
    }
}
