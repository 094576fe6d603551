//! The `plain` highlighter: Lucene's classic `Highlighter` as OpenSearch's `PlainHighlighter`
//! drives it, one value at a time. The value's tokens are walked in order; the text between
//! them goes to the fragment being built, a matching token is wrapped in the tags, and the
//! fragmenter may open a new fragment before a token (so a fragment starts with the spaces or
//! punctuation before its first token, and the last one runs to the end of the value). A
//! fragment scores the number of distinct query terms in it; the best `number_of_fragments`
//! with a score are kept, best first, ties in text order.

use super::unified::push_text;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A token of one value: its analyzed text, position increment and UTF-16 offsets.
pub struct PlainToken<'a> {
    pub text: &'a str,
    pub pos_inc: usize,
    pub start: usize,
    pub end: usize,
}

/// How the text is cut into fragments.
pub enum Fragmenter {
    /// `span` (the default): about `size` chars each, never inside a matching phrase.
    Span(usize),
    /// `simple`: a new fragment once a token ends past the next multiple of `size`.
    Simple(usize),
    /// `number_of_fragments: 0`: the whole value.
    Null,
}

/// What one value is highlighted with.
pub struct Plain<'a> {
    pub fragmenter: &'a Fragmenter,
    /// The best fragments kept per value.
    pub max: usize,
    pub pre: &'a str,
    pub post: &'a str,
    pub html: bool,
}

/// One fragment of a value: its text (tags included) and score.
pub struct Fragment {
    pub text: String,
    pub score: f32,
}

/// SimpleSpanFragmenter's and SimpleFragmenter's state over one value.
struct Cutter<'a> {
    kind: &'a Fragmenter,
    /// The phrases' `(first, last)` positions, by the term text of their tokens.
    spans: &'a HashMap<&'a str, Vec<(usize, usize)>>,
    text_len: usize,
    /// Lucene's fragmenter sees every token's increment but the first one's, so its positions
    /// run one behind the tokens' (and its wait for a phrase's end with them).
    position: i64,
    wait: i64,
    fragments: usize,
}

impl Cutter<'_> {
    fn is_new(&mut self, t: &PlainToken) -> bool {
        match self.kind {
            Fragmenter::Null => false,
            Fragmenter::Simple(size) => {
                let new = t.end > size * self.fragments;
                self.fragments += new as usize;
                new
            }
            Fragmenter::Span(size) => {
                self.position += t.pos_inc as i64;
                if self.wait <= self.position {
                    self.wait = -1;
                } else if self.wait != -1 {
                    return false;
                }
                if let Some(spans) = self.spans.get(t.text) {
                    if let Some(&(_, last)) = spans
                        .iter()
                        .find(|(first, _)| *first as i64 == self.position)
                    {
                        self.wait = last as i64 + 1;
                    }
                }
                let new = t.end >= size * self.fragments
                    && self.text_len.saturating_sub(t.end) >= size / 2
                    && self.text_len >= t.end;
                self.fragments += new as usize;
                new
            }
        }
    }
}

/// The best fragments of one value. `matched`: the weights of the tokens that count as query
/// terms, by token index (a phrase's only where it matches); `spans`: the phrases' position
/// spans by term.
pub fn fragments(
    value: &str,
    tokens: &[PlainToken],
    matched: &BTreeMap<usize, f32>,
    spans: &HashMap<&str, Vec<(usize, usize)>>,
    opts: &Plain,
) -> Vec<Fragment> {
    let text: Vec<u16> = value.encode_utf16().collect();
    let mut out = String::new();
    let append = |out: &mut String, from: usize, to: usize| {
        push_text(out, &text[from.min(to)..to], opts.html)
    };
    let mut cutter = Cutter {
        kind: opts.fragmenter,
        spans,
        text_len: text.len(),
        position: -1,
        wait: -1,
        fragments: 1,
    };
    // (start in `out`, end in `out`, score) per fragment, in text order.
    let mut frags: Vec<(usize, usize, f32)> = Vec::new();
    let (mut start, mut score) = (0usize, 0f32);
    let mut found: HashSet<&str> = HashSet::new();
    let mut last_end = 0usize;
    // The token group: overlapping tokens, marked up together.
    let mut group: Option<(usize, usize, f32)> = None;
    let flush = |out: &mut String, g: (usize, usize, f32), last_end: &mut usize| {
        if g.0 > *last_end {
            append(out, *last_end, g.0);
        }
        if g.2 > 0.0 {
            out.push_str(opts.pre);
            append(out, g.0, g.1);
            out.push_str(opts.post);
        } else {
            append(out, g.0, g.1);
        }
        *last_end = (*last_end).max(g.1);
    };
    for (i, t) in tokens.iter().enumerate() {
        if let Some(g) = group.filter(|g| t.start >= g.1) {
            flush(&mut out, g, &mut last_end);
            group = None;
            if cutter.is_new(t) {
                frags.push((start, out.len(), score));
                start = out.len();
                score = 0.0;
                found.clear();
            }
        }
        let s = matched.get(&i).copied().unwrap_or(0.0);
        if s > 0.0 && found.insert(t.text) {
            score += s;
        }
        group = Some(match group {
            None => (t.start, t.end, s),
            Some((a, b, total)) => (a.min(t.start), b.max(t.end), total + s),
        });
    }
    if let Some(g) = group {
        flush(&mut out, g, &mut last_end);
    }
    if last_end < text.len() {
        append(&mut out, last_end, text.len());
    }
    frags.push((start, out.len(), score));
    // Lucene's FragmentQueue: the best scores, a tie going to the earlier fragment.
    let mut order: Vec<usize> = (0..frags.len()).collect();
    order.sort_by(|&a, &b| frags[b].2.total_cmp(&frags[a].2).then(a.cmp(&b)));
    order.truncate(opts.max);
    order
        .into_iter()
        .map(|i| Fragment {
            text: out[frags[i].0..frags[i].1].to_string(),
            score: frags[i].2,
        })
        .collect()
}

/// Where OpenSearch ends a `no_match_size` excerpt of a value: after the last token ending by
/// `size` (so a value shorter than that loses what follows its last token); `None` when the
/// first token ends past it.
pub fn no_match_end(tokens: &[PlainToken], size: usize) -> Option<usize> {
    let mut end = None;
    for t in tokens {
        if t.end >= size {
            return (t.end == size).then_some(size).or(end);
        }
        end = Some(t.end);
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(words: &[(&'static str, usize, usize)]) -> Vec<PlainToken<'static>> {
        words
            .iter()
            .map(|&(text, start, end)| PlainToken {
                text,
                pos_inc: 1,
                start,
                end,
            })
            .collect()
    }

    #[test]
    fn fragments_carry_the_text_around_their_tokens() {
        let value = "a net here. b net";
        let t = toks(&[
            ("a", 0, 1),
            ("net", 2, 5),
            ("here", 6, 10),
            ("b", 12, 13),
            ("net", 14, 17),
        ]);
        let matched: BTreeMap<usize, f32> = [(1, 1.0), (4, 1.0)].into();
        let f = Fragmenter::Span(8);
        let opts = Plain {
            fragmenter: &f,
            max: 5,
            pre: "<",
            post: ">",
            html: false,
        };
        let got = fragments(value, &t, &matched, &HashMap::new(), &opts);
        let texts: Vec<&str> = got.iter().map(|f| f.text.as_str()).collect();
        // A new fragment opens before "here" (it ends at 10 ≥ 8) and not before "b" (16 is not
        // reached); both score one distinct term, so text order holds.
        assert_eq!(texts, ["a <net>", " here. b <net>"]);
        let whole = Plain {
            fragmenter: &Fragmenter::Null,
            max: 1,
            ..opts
        };
        let got = fragments(value, &t, &matched, &HashMap::new(), &whole);
        assert_eq!(got[0].text, "a <net> here. b <net>");
        assert_eq!(got[0].score, 1.0);
    }

    #[test]
    fn best_fragments_first() {
        let value = "a x y net file";
        let t = toks(&[
            ("a", 0, 1),
            ("x", 2, 3),
            ("y", 4, 5),
            ("net", 6, 9),
            ("file", 10, 14),
        ]);
        let matched: BTreeMap<usize, f32> = [(3, 1.0), (4, 1.0)].into();
        let f = Fragmenter::Simple(8);
        let opts = Plain {
            fragmenter: &f,
            max: 2,
            pre: "[",
            post: "]",
            html: false,
        };
        let got = fragments(value, &t, &matched, &HashMap::new(), &opts);
        let texts: Vec<(&str, f32)> = got.iter().map(|f| (f.text.as_str(), f.score)).collect();
        assert_eq!(texts, [(" [net] [file]", 2.0), ("a x y", 0.0)]);
    }

    #[test]
    fn no_match_excerpts_end_on_a_token() {
        let t = toks(&[("ab", 0, 2), ("cd", 3, 5), ("ef", 6, 8)]);
        assert_eq!(no_match_end(&t, 5), Some(5));
        assert_eq!(no_match_end(&t, 6), Some(5));
        assert_eq!(no_match_end(&t, 1), None);
        assert_eq!(no_match_end(&t, 100), Some(8));
    }
}
