//! Lucene's unified highlighter as OpenSearch configures it: matches in offset order grouped
//! into passages (the first match of each decides the passage's bounds through the break
//! iterator), passages scored with Lucene's `PassageScorer` (BM25 over the passage), the best
//! `number_of_fragments` kept and formatted in text order.

use super::breaks::{self, BreakIterator, RuleBased};
use super::split::Split;

/// A match of one term in the field's text (UTF-16 offsets).
#[derive(Debug, Clone)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    /// The term it counts as (a pattern's matches share one), `None` sorting last.
    pub term: Option<String>,
    pub key: String,
    /// The term's occurrences in the whole field.
    pub freq: u32,
}

/// How passages are bounded within one value (see [`Split`] for the values).
pub enum Breaker {
    /// Java's plain `BreakIterator` (sentence, word, or value separators).
    Plain(Box<dyn BreakIterator>),
    /// OpenSearch's `BoundedBreakIteratorScanner`: sentences merged up to `max_len`, split at
    /// words when one sentence is longer.
    Bounded(Box<Bounded>),
}

pub struct Bounded {
    main: RuleBased,
    inner: RuleBased,
    max_len: i64,
    window_start: i64,
    window_end: i64,
    inner_start: i64,
    inner_end: i64,
}

const DONE: i64 = -1;

fn opt(v: Option<usize>) -> i64 {
    v.map_or(DONE, |x| x as i64)
}

impl Bounded {
    pub fn new(text: &[u16], max_len: usize) -> Bounded {
        Bounded {
            main: breaks::sentences(text),
            inner: breaks::words(text),
            max_len: max_len as i64,
            window_start: -1,
            window_end: -1,
            inner_start: -1,
            inner_end: 0,
        }
    }

    fn preceding(&mut self, offset: i64) -> i64 {
        if offset > self.window_start && offset < self.window_end {
            self.inner_start = self.inner_end;
            self.inner_end = self.window_end;
        } else {
            self.inner_start = opt(self.main.preceding(offset as usize));
            self.window_start = self.inner_start;
            self.inner_end = opt(self.main.following((offset - 1) as usize));
            self.window_end = self.inner_end;
            while self.inner_end - self.inner_start < self.max_len {
                let new_end = if self.inner_end < 0 {
                    DONE
                } else {
                    opt(self.main.following(self.inner_end as usize))
                };
                if new_end == DONE || new_end - self.inner_start > self.max_len {
                    break;
                }
                self.inner_end = new_end;
                self.window_end = new_end;
            }
        }
        if self.inner_end - self.inner_start > self.max_len {
            if offset - self.max_len > self.inner_start {
                let p = opt(self.inner.preceding((offset - self.max_len) as usize));
                self.inner_start = self.inner_start.max(p);
            }
            let remaining = 0.max(self.max_len - (offset - self.inner_start));
            if offset + remaining < self.window_end {
                let f = opt(self.inner.following((offset + remaining) as usize));
                self.inner_end = self.window_end.min(f);
            }
        }
        self.inner_start
    }
}

impl Breaker {
    pub(super) fn preceding(&mut self, offset: usize) -> i64 {
        match self {
            Breaker::Plain(b) => opt(b.preceding(offset)),
            Breaker::Bounded(b) => b.preceding(offset as i64),
        }
    }

    pub(super) fn following(&mut self, offset: usize) -> i64 {
        match self {
            Breaker::Plain(b) => opt(b.following(offset)),
            Breaker::Bounded(b) => b.inner_end,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Passage {
    pub start: usize,
    pub end: usize,
    pub hits: Vec<Hit>,
    pub score: f32,
}

const K1: f32 = 1.2;
const B: f32 = 0.75;
const PIVOT: f32 = 87.0;

/// Lucene's `PassageScorer.score`: per distinct term, BM25's saturation of its count in the
/// passage times an idf guessed from the field's length, boosted towards the text's start.
fn score(p: &Passage, content_len: usize) -> f32 {
    let mut terms: Vec<(&str, u32, u32)> = Vec::new();
    for h in &p.hits {
        match terms.iter_mut().find(|(k, _, _)| *k == h.key) {
            Some(t) => t.1 += 1,
            None => terms.push((&h.key, 1, h.freq)),
        }
    }
    let len = (p.end - p.start) as i32;
    let mut s: f32 = 0.0;
    for (_, in_passage, in_doc) in terms {
        let norm = K1 * ((1.0 - B) + B * (len as f32 / PIVOT));
        let tf = in_passage as f32 / (in_passage as f32 + norm);
        let num_docs = 1.0 + content_len as f32 / PIVOT;
        let weight =
            (K1 + 1.0) * (1.0 + (num_docs as f64 + 0.5) / (in_doc as f64 + 0.5)).ln() as f32;
        s += tf * weight;
    }
    s * (1.0 + 1.0 / ((PIVOT + p.start as f32) as f64).ln() as f32)
}

/// The passages of a text for its matches (sorted by start, end and term), at most `max`,
/// best-scored, in text order (OpenSearch's `CustomFieldHighlighter`).
pub fn passages(hits: &[Hit], breaker: &mut Split, content_len: usize, max: usize) -> Vec<Passage> {
    // The kept passages; the weakest (ties: the earliest) is dropped first.
    let mut queue: Vec<Passage> = Vec::new();
    let weakest = |q: &[Passage]| {
        (0..q.len())
            .min_by(|&a, &b| {
                q[a].score
                    .partial_cmp(&q[b].score)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(q[a].start.cmp(&q[b].start))
            })
            .expect("non-empty")
    };
    let offer = |queue: &mut Vec<Passage>, mut p: Passage| {
        p.score = score(&p, content_len);
        if queue.len() == max && max > 0 && p.score < queue[weakest(queue)].score {
            return;
        }
        queue.push(p);
        if queue.len() > max {
            let w = weakest(queue);
            queue.remove(w);
        }
    };
    let mut current: Option<Passage> = None;
    for h in hits {
        if h.start < content_len && h.end > content_len {
            continue;
        }
        let starts_new = current.as_ref().is_none_or(|p| h.start >= p.end);
        if starts_new {
            if let Some(p) = current.take() {
                offer(&mut queue, p);
            }
            if h.start >= content_len {
                break;
            }
            let start = breaker.preceding(h.start as i64 + 1).max(0) as usize;
            let end = breaker
                .following(h.start as i64)
                .min(content_len as i64)
                .max(0) as usize;
            current = Some(Passage {
                start,
                end,
                hits: Vec::new(),
                score: 0.0,
            });
        }
        current.as_mut().expect("passage").hits.push(h.clone());
    }
    if let Some(p) = current.take() {
        offer(&mut queue, p);
    }
    queue.sort_by_key(|p| p.start);
    queue
}

/// Lucene's `SimpleHTMLEncoder`.
pub fn html_encode(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#x27;"),
            '/' => out.push_str("&#x2F;"),
            c => out.push(c),
        }
    }
}

/// Appends UTF-16 text, through the HTML encoder when `html` (the highlighters' encoders).
pub fn push_text(out: &mut String, units: &[u16], html: bool) {
    let s = String::from_utf16_lossy(units);
    if html {
        html_encode(&s, out);
    } else {
        out.push_str(&s);
    }
}

/// OpenSearch's `CustomPassageFormatter`: tags around merged overlapping matches, a trailing
/// value separator dropped, the snippet trimmed as Java's `String.trim`.
pub fn format(p: &Passage, text: &[u16], pre: &str, post: &str, html: bool) -> String {
    let mut sb = String::new();
    let append = |sb: &mut String, from: usize, to: usize| push_text(sb, &text[from..to], html);
    let mut pos = p.start;
    let mut i = 0;
    while i < p.hits.len() {
        let start = p.hits[i].start.max(pos);
        append(&mut sb, pos, start);
        let mut end = p.hits[i].end;
        while i + 1 < p.hits.len() && p.hits[i + 1].start < end {
            i += 1;
            end = p.hits[i].end;
        }
        let end = end.min(p.end).max(start);
        sb.push_str(pre);
        append(&mut sb, start, end);
        sb.push_str(post);
        pos = end;
        i += 1;
    }
    append(&mut sb, pos, pos.max(p.end));
    if sb.ends_with('\u{2029}') || sb.ends_with('\u{0}') {
        sb.pop();
    }
    sb.trim_matches(|c: char| c <= ' ').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(text: &str, word: &str) -> Hit {
        let start = text.find(word).expect("word in text");
        Hit {
            start,
            end: start + word.len(),
            term: Some(word.into()),
            key: word.into(),
            freq: 1,
        }
    }

    #[test]
    fn passages_stay_in_their_value() {
        // Over the joined text the sentence rules run on through a value that ends without
        // punctuation (the separator is no break); split by value, the passage starts at its
        // value.
        let s = "short\0a longer value about the match. Then more.";
        let text: Vec<u16> = s.encode_utf16().collect();
        let hits = [hit(s, "the")];
        let mut split = Split::new(&text, |v| Breaker::Bounded(Box::new(Bounded::new(v, 100))));
        let ps = passages(&hits, &mut split, text.len(), 5);
        assert_eq!(ps.len(), 1);
        assert_eq!(
            format(&ps[0], &text, "<em>", "</em>", false),
            "a longer value about <em>the</em> match. Then more."
        );
        let mut split = Split::new(&text, |v| Breaker::Plain(Box::new(breaks::sentences(v))));
        let ps = passages(&hits, &mut split, text.len(), 5);
        assert_eq!(
            format(&ps[0], &text, "<em>", "</em>", false),
            "a longer value about <em>the</em> match."
        );
    }
}
