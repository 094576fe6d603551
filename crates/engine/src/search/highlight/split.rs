//! Lucene's `SplittingBreakIterator`, which the unified highlighter wraps around every passage
//! iterator: a field's values are joined with a separator (`\0`), and the iterator underneath
//! sees one value at a time, never the separator. So passages never cross values, and the
//! iterator's state (the JDK's `cachedLastKnownBreak`, the bounded scanner's window) starts
//! afresh whenever the highlighter moves on to another value, because `setText` resets it.
//!
//! The value in use is kept between calls and replaced only when an offset falls outside it,
//! by the same index tests as Lucene's; the answers of the iterator underneath are shifted by
//! the value's start, `DONE` included (so a `DONE` inside a value reads as one before its
//! start, which the highlighter clamps).

use super::unified::Breaker;

/// Java's `BreakIterator.DONE`.
const DONE: i64 = -1;

/// The value separator, `MULTIVAL_SEP_CHAR` in both Lucene's and OpenSearch's highlighters.
pub const SEP: u16 = 0;

/// Makes the iterator for one value (its text, without separators).
pub type MakeBreaker<'a> = Box<dyn Fn(&[u16]) -> Breaker + 'a>;

/// A passage iterator over joined values, running a fresh `make(value)` per value.
pub struct Split<'t> {
    text: &'t [u16],
    make: MakeBreaker<'t>,
    /// The iterator over the value in use, `None` until one is set.
    base: Option<Breaker>,
    slice_start: i64,
    slice_end: i64,
}

/// Java's `String.indexOf(ch, from)`.
fn index_of(text: &[u16], from: i64) -> i64 {
    let from = from.max(0) as usize;
    text.get(from..)
        .and_then(|t| t.iter().position(|&u| u == SEP))
        .map_or(-1, |i| (from + i) as i64)
}

/// Java's `String.lastIndexOf(ch, from)`: searching backwards from `from` (inclusive).
fn last_index_of(text: &[u16], from: i64) -> i64 {
    if from < 0 {
        return -1;
    }
    let to = (from as usize + 1).min(text.len());
    text[..to]
        .iter()
        .rposition(|&u| u == SEP)
        .map_or(-1, |i| i as i64)
}

impl<'t> Split<'t> {
    /// After `setText`, which positions it on the first value.
    pub fn new(text: &'t [u16], make: impl Fn(&[u16]) -> Breaker + 't) -> Split<'t> {
        let mut s = Split {
            text,
            make: Box::new(make),
            base: None,
            slice_start: 0,
            slice_end: 0,
        };
        s.first();
        s
    }

    fn len(&self) -> i64 {
        self.text.len() as i64
    }

    /// A new value to use: the iterator underneath gets its text (and so a fresh state) unless
    /// the value is empty, when it keeps the old one, which is never asked about it.
    fn set_slice(&mut self, start: i64, end: i64) {
        self.slice_start = start;
        self.slice_end = end;
        if start != end {
            let value = &self.text[start as usize..end as usize];
            self.base = Some((self.make)(value));
        }
    }

    fn first(&mut self) {
        let end = match index_of(self.text, 0) {
            -1 => self.len(),
            e => e,
        };
        self.set_slice(0, end);
    }

    fn last(&mut self) {
        let start = last_index_of(self.text, self.len()) + 1;
        self.set_slice(start, self.len());
    }

    fn base(&mut self) -> &mut Breaker {
        self.base.as_mut().expect("a non-empty value is set")
    }

    /// `following`: the first boundary after `offset`.
    pub fn following(&mut self, offset: i64) -> i64 {
        if offset + 1 < self.slice_start || offset + 1 > self.slice_end {
            if offset == self.len() {
                self.last();
                return DONE;
            }
            let start = last_index_of(self.text, offset) + 1;
            let end = match index_of(self.text, (offset + 1).max(start)) {
                -1 => self.len(),
                e => e,
            };
            self.set_slice(start, end);
        }
        if self.slice_start == self.slice_end {
            return offset + 1;
        }
        if offset == self.slice_start - 1 {
            // Right before the value: its first boundary, which `first()` (0) gives; the
            // bounded scanner refuses `first()`, but a match never starts on a separator.
            return self.slice_start;
        }
        let start = self.slice_start;
        start + self.base().following((offset - start) as usize)
    }

    /// `preceding`: the last boundary before `offset`.
    pub fn preceding(&mut self, offset: i64) -> i64 {
        if offset - 1 < self.slice_start || offset - 1 > self.slice_end {
            if offset == 0 {
                self.first();
                return DONE;
            }
            let end = match index_of(self.text, offset) {
                -1 => self.len(),
                e => e,
            };
            let start = match last_index_of(self.text, offset - 1) {
                -1 => 0,
                s => (s + 1).min(end),
            };
            self.set_slice(start, end);
        }
        if self.slice_start == self.slice_end {
            return offset - 1;
        }
        if offset == self.slice_end + 1 {
            // Right after the value: its last boundary, its end (`last()`; as above, the
            // bounded scanner would refuse, and the highlighter never asks).
            return self.slice_end;
        }
        let start = self.slice_start;
        start + self.base().preceding((offset - start) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::highlight::breaks;
    use crate::search::highlight::unified::Bounded;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn sentences(text: &[u16]) -> Split<'_> {
        Split::new(text, |v| Breaker::Plain(Box::new(breaks::sentences(v))))
    }

    #[test]
    fn java_index_of() {
        let t = units("ab\0c\0");
        assert_eq!(index_of(&t, 0), 2);
        assert_eq!(index_of(&t, 3), 4);
        assert_eq!(index_of(&t, 5), -1);
        assert_eq!(index_of(&t, 9), -1);
        assert_eq!(last_index_of(&t, 1), -1);
        assert_eq!(last_index_of(&t, 2), 2);
        assert_eq!(last_index_of(&t, 3), 2);
        assert_eq!(last_index_of(&t, 9), 4);
        assert_eq!(last_index_of(&t, -1), -1);
    }

    #[test]
    fn breaks_stay_inside_values() {
        // Over the joined text the sentence rules see no break at the separator (a value
        // ending without punctuation runs on into the next); per value each ends one.
        let t = units("First value. More\0second value");
        let mut joined = breaks::sentences(&t);
        assert_eq!(breaks::BreakIterator::preceding(&mut joined, 19), Some(13));
        let mut it = sentences(&t);
        assert_eq!(it.preceding(14), 13);
        assert_eq!(it.following(13), 17);
        assert_eq!(it.preceding(19), 18);
        assert_eq!(it.following(18), 30);
    }

    #[test]
    fn empty_values_are_boundaries() {
        let t = units("a\0\0b");
        let mut it = sentences(&t);
        assert_eq!(it.preceding(3), 2);
        assert_eq!(it.following(2), 3);
        assert_eq!(it.preceding(4), 3);
        assert_eq!(it.following(3), 4);
        assert_eq!(it.following(4), DONE);
        assert_eq!(it.preceding(0), DONE);
    }

    #[test]
    fn each_value_starts_with_a_fresh_iterator() {
        // The JDK's iterator resumes from the last break it returned when that lies before the
        // offset; `setText` forgets it. Alone, the second value's `preceding(24)` backs up to
        // 19 (see `breaks`); after a call at its start on the same text it would answer 0.
        let second = "kernel DRI version..\n> something) and Ive just made dummy packages. Fine";
        let joined = format!("x\0{second}");
        let t = units(&joined);
        let mut it = sentences(&t);
        assert_eq!(it.preceding(1), 0);
        assert_eq!(it.preceding(2 + 1), 2);
        assert_eq!(it.preceding(2 + 24), 2);
        // A value entered afresh: the remembered break is gone.
        let mut it = sentences(&t);
        assert_eq!(it.preceding(1), 0);
        assert_eq!(it.preceding(2 + 24), 2 + 19);
    }

    #[test]
    fn bounded_scanner_per_value() {
        // The bounded scanner's window never spans values, and is reset per value.
        let t = units("One. Two three.\0Four five. Six.");
        let mut it = Split::new(&t, |v| Breaker::Bounded(Box::new(Bounded::new(v, 100))));
        assert_eq!(it.preceding(1), 0);
        assert_eq!(it.following(0), 15);
        assert_eq!(it.preceding(17), 16);
        assert_eq!(it.following(16), 31);
    }
}
