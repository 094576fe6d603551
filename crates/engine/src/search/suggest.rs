//! The `term` suggester: each token of the suggestion text (analysed with the field's search
//! analyzer) gets the index's terms within `max_edits` of it, chosen as Lucene's
//! `DirectSpellChecker` chooses them (one edit first, then more; scored by string distance,
//! then document frequency), per shard, merged by term across shards.

use crate::api::Params;
use crate::dsl::json::{Node, J};
use crate::dsl::{self, parsing};
use crate::error::{Error, ErrorKind, Result};
use crate::index::mapping::FieldType;
use crate::query::Context;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use tantivy::Term;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Missing,
    Popular,
    Always,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distance {
    Internal,
    Levenshtein,
    Damerau,
    JaroWinkler,
    NGram,
}

#[derive(Debug, Clone)]
pub struct TermSuggestion {
    pub name: String,
    pub text: Option<String>,
    pub field: String,
    pub analyzer: Option<String>,
    pub size: usize,
    pub shard_size: Option<usize>,
    pub by_frequency: bool,
    pub mode: Mode,
    pub accuracy: f32,
    pub max_edits: u32,
    pub prefix_length: usize,
    pub min_word_length: usize,
    pub min_doc_freq: f32,
    pub max_term_freq: f32,
    pub max_inspections: usize,
    pub lowercase_terms: bool,
    pub distance: Distance,
}

impl TermSuggestion {
    fn new(name: String, field: String) -> TermSuggestion {
        TermSuggestion {
            name,
            text: None,
            field,
            analyzer: None,
            size: 5,
            shard_size: None,
            by_frequency: false,
            mode: Mode::Missing,
            accuracy: 0.5,
            max_edits: 2,
            prefix_length: 1,
            min_word_length: 4,
            min_doc_freq: 0.0,
            max_term_freq: 0.01,
            max_inspections: 5,
            lowercase_terms: false,
            distance: Distance::Internal,
        }
    }
}

pub fn parse_mode(s: &str) -> Result<Mode> {
    match s.to_ascii_lowercase().as_str() {
        "missing" => Ok(Mode::Missing),
        "popular" => Ok(Mode::Popular),
        "always" => Ok(Mode::Always),
        _ => Err(Error::illegal_argument(format!(
            "No enum constant org.opensearch.search.suggest.term.TermSuggestionBuilder.SuggestMode.{}",
            s.to_ascii_uppercase()
        ))),
    }
}

fn parse_term(name: &str, text: Option<String>, body: &Node) -> Result<TermSuggestion> {
    let mut s = TermSuggestion::new(name.to_string(), String::new());
    s.text = text;
    let mut field = None;
    for (k, _, v) in body.as_obj().unwrap_or_default() {
        let int = |v: &Node| -> Result<usize> { Ok(dsl::int("term", k, v)?.max(0) as usize) };
        match k.as_str() {
            "field" => field = v.text(),
            "analyzer" => s.analyzer = v.text(),
            "size" => s.size = int(v)?,
            "shard_size" => s.shard_size = Some(int(v)?),
            "sort" => {
                s.by_frequency = match v.text().as_deref() {
                    Some("score") => false,
                    Some("frequency") => true,
                    other => {
                        return Err(Error::illegal_argument(format!(
                            "Illegal suggest sort {}",
                            other.unwrap_or_default()
                        )))
                    }
                }
            }
            "suggest_mode" => s.mode = parse_mode(&v.text().unwrap_or_default())?,
            "accuracy" => s.accuracy = dsl::float("term", k, v)?,
            "max_edits" => {
                let n = int(v)?;
                if !(1..=2).contains(&n) {
                    return Err(Error::illegal_argument(
                        "Illegal max_edits value ".to_string() + &n.to_string(),
                    ));
                }
                s.max_edits = n as u32;
            }
            "prefix_length" | "prefix_len" => s.prefix_length = int(v)?,
            "min_word_length" | "min_word_len" => s.min_word_length = int(v)?,
            "min_doc_freq" => s.min_doc_freq = dsl::float("term", k, v)?,
            "max_term_freq" => s.max_term_freq = dsl::float("term", k, v)?,
            "max_inspections" => s.max_inspections = int(v)?,
            "lowercase_terms" => s.lowercase_terms = dsl::boolean("term", k, v)?,
            "string_distance" => {
                s.distance = match v.text().unwrap_or_default().as_str() {
                    "internal" => Distance::Internal,
                    "levenshtein" => Distance::Levenshtein,
                    "damerau_levenshtein" => Distance::Damerau,
                    "jaro_winkler" => Distance::JaroWinkler,
                    "ngram" => Distance::NGram,
                    other => {
                        return Err(Error::illegal_argument(format!(
                            "string_distance [{other}] is not supported yet"
                        )))
                    }
                }
            }
            _ => {
                return Err(parsing(
                    format!("suggester[term] doesn't support field [{k}]"),
                    v.pos,
                ))
            }
        }
    }
    s.field = field.ok_or_else(|| {
        Error::new(
            ErrorKind::Parse,
            "the required field option [field] is missing",
        )
    })?;
    Ok(s)
}

/// Parses the body's `suggest` object (a global `text` and named suggestions).
pub fn parse(v: &Node) -> Result<Vec<TermSuggestion>> {
    let Some(entries) = v.as_obj() else {
        return Err(parsing(
            format!("Unknown key for a {} in [suggest].", v.token()),
            v.pos,
        ));
    };
    let global = entries
        .iter()
        .find(|(k, _, _)| k == "text")
        .and_then(|(_, _, v)| v.text());
    let mut out = Vec::new();
    for (name, _, body) in entries {
        if name == "text" {
            continue;
        }
        let mut text = global.clone();
        let mut suggestion = None;
        let Some(fields) = body.as_obj() else {
            return Err(Error::illegal_argument(format!(
                "[suggest] does not support [{name}]"
            )));
        };
        for (k, _, x) in fields {
            match k.as_str() {
                "text" => text = x.text(),
                "prefix" | "regex" => {}
                "term" => suggestion = Some(x),
                other => {
                    let e = Error::new(
                        ErrorKind::NamedObjectNotFound,
                        format!("{} unknown field [{other}]", x.pos),
                    );
                    return Err(e);
                }
            }
        }
        let Some(x) = suggestion else {
            return Err(Error::new(ErrorKind::Parse, "missing suggestion object"));
        };
        if !matches!(x.v, J::Obj(_)) {
            return Err(parsing("suggestion does not support [term]", x.pos));
        }
        out.push(parse_term(name, text, x)?);
    }
    Ok(out)
}

/// The URL's `suggest_field`/`suggest_text`/`suggest_mode`/`suggest_size`: one term suggestion
/// named after its field (`suggest_text` defaults to `q`).
pub fn from_params(p: &Params) -> Result<Option<TermSuggestion>> {
    let Some(field) = p.str("suggest_field") else {
        return Ok(None);
    };
    let mut s = TermSuggestion::new(field.to_string(), field.to_string());
    s.text = p.str("suggest_text").or(p.str("q")).map(String::from);
    if let Some(n) = p.int("suggest_size")? {
        s.size = n.max(0) as usize;
    }
    // OpenSearch fails with a NullPointerException without a mode; the default mode is meant.
    if let Some(m) = p.str("suggest_mode") {
        s.mode = parse_mode(m)?;
    }
    Ok(Some(s))
}

/// One option: the suggested term, its score and document frequency.
#[derive(Debug, Clone)]
pub struct Suggested {
    pub text: String,
    pub score: f32,
    pub freq: u64,
}

pub struct Entry {
    pub text: String,
    pub offset: usize,
    pub length: usize,
    pub options: Vec<Suggested>,
}

/// Levenshtein distance with adjacent transpositions (optimal string alignment), as Lucene's
/// transposition-aware Levenshtein automata count edits.
pub(crate) fn osa(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, v) in d[0].iter_mut().enumerate() {
        *v = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

pub(crate) fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Scores of Lucene's `StringDistance`s other than the internal one.
fn distance_score(d: Distance, a: &[char], b: &[char], ed: usize) -> f32 {
    let longest = a.len().max(b.len()).max(1);
    match d {
        Distance::Internal => 1.0 - ed as f32 / a.len().min(b.len()).max(1) as f32,
        Distance::Levenshtein => 1.0 - levenshtein(a, b) as f32 / longest as f32,
        // `LuceneLevenshteinDistance`: scaled by the shorter term, as the internal distance.
        Distance::Damerau => match a.len().min(b.len()) {
            0 => f32::from(a.len() == b.len()),
            shortest => 1.0 - osa(a, b) as f32 / shortest as f32,
        },
        Distance::JaroWinkler => jaro_winkler(a, b),
        Distance::NGram => ngram(a, b),
    }
}

/// Lucene's `JaroWinklerDistance` (threshold 0.7), in its float arithmetic: the Jaro
/// similarity of the characters matched within half the longer length, plus Winkler's bonus
/// for the whole common prefix (Lucene does not cap it at 4) once past the threshold.
fn jaro_winkler(a: &[char], b: &[char]) -> f32 {
    let (short, long) = if a.len() > b.len() { (b, a) } else { (a, b) };
    let range = (long.len() / 2).saturating_sub(1);
    let mut taken = vec![false; long.len()];
    let mut short_matched = Vec::new();
    for (i, &c) in short.iter().enumerate() {
        let from = i.saturating_sub(range);
        let to = (i + range + 1).min(long.len());
        if let Some(x) = (from..to).find(|&x| !taken[x] && long[x] == c) {
            taken[x] = true;
            short_matched.push(c);
        }
    }
    let m = short_matched.len();
    if m == 0 {
        return 0.0;
    }
    let long_matched = long.iter().zip(&taken).filter(|(_, &t)| t).map(|(&c, _)| c);
    let half_transpositions = short_matched
        .iter()
        .zip(long_matched)
        .filter(|(x, y)| *x != y)
        .count()
        / 2;
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let mf = m as f32;
    let j =
        (mf / a.len() as f32 + mf / b.len() as f32 + (mf - half_transpositions as f32) / mf) / 3.0;
    if j < 0.7 {
        j
    } else {
        j + (0.1f32).min(1.0 / long.len() as f32) * prefix as f32 * (1.0 - j)
    }
}

/// Lucene's `NGramDistance` with bigrams (Kondrak's n-gram edit distance): `source` padded in
/// front with one NUL so its first character is in as many bigrams as the others, matches on
/// the padding not counted, normalised by the longer length.
fn ngram(source: &[char], target: &[char]) -> f32 {
    const N: usize = 2;
    let (sl, tl) = (source.len(), target.len());
    if sl == 0 || tl == 0 {
        return if sl == tl { 1.0 } else { 0.0 };
    }
    if sl < N || tl < N {
        let same = source.iter().zip(target).filter(|(x, y)| x == y).count();
        return same as f32 / sl.max(tl) as f32;
    }
    let padded: Vec<char> = std::iter::repeat_n('\0', N - 1)
        .chain(source.iter().copied())
        .collect();
    let mut prev: Vec<f32> = (0..=sl).map(|i| i as f32).collect();
    let mut cur = vec![0f32; sl + 1];
    for j in 1..=tl {
        // The target's j-th bigram, padded like the source's.
        let gram: [char; N] = std::array::from_fn(|k| match (j + k).checked_sub(N) {
            Some(at) => target[at],
            None => '\0',
        });
        cur[0] = j as f32;
        for i in 1..=sl {
            let (mut cost, mut counted) = (0usize, N);
            for k in 0..N {
                let c = padded[i - 1 + k];
                if c != gram[k] {
                    cost += 1;
                } else if c == '\0' {
                    counted -= 1;
                }
            }
            let edit = cost as f32 / counted as f32;
            cur[i] = (cur[i - 1] + 1.0)
                .min(prev[i] + 1.0)
                .min(prev[i - 1] + edit);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    1.0 - prev[sl] / sl.max(tl) as f32
}

struct Candidate {
    term: String,
    boost: f32,
    score: f32,
    df: u64,
}

/// `DirectSpellChecker.suggestSimilar` for one edit distance: candidates in term order, a
/// bounded queue whose weakest (lowest boost; ties: the greater term) goes first.
#[allow(clippy::too_many_arguments)]
fn similar(
    terms: &[(String, u64)],
    query: &[char],
    query_text: &str,
    num: usize,
    docfreq: u64,
    edits: usize,
    prefix: usize,
    s: &TermSuggestion,
) -> Vec<Candidate> {
    let prefix = prefix.max(edits.saturating_sub(1));
    let mut queue: Vec<Candidate> = Vec::new();
    let weakest = |q: &[Candidate]| -> usize {
        (0..q.len())
            .min_by(|&a, &b| {
                q[a].boost
                    .partial_cmp(&q[b].boost)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| q[b].term.cmp(&q[a].term))
            })
            .expect("non-empty")
    };
    for (t, df) in terms {
        let c: Vec<char> = t.chars().collect();
        if query.len() < prefix || c.len() < prefix || c[..prefix] != query[..prefix] {
            continue;
        }
        let ed = osa(&query[prefix..], &c[prefix..]);
        if ed > edits {
            continue;
        }
        let boost = if ed == 0 {
            1.0
        } else {
            1.0 - ed as f32 / c.len().min(query.len()) as f32
        };
        if queue.len() >= num && num > 0 && boost <= queue[weakest(&queue)].boost {
            continue;
        }
        if t == query_text {
            continue;
        }
        if *df <= docfreq {
            continue;
        }
        let score = match s.distance {
            Distance::Internal => boost,
            d => distance_score(d, query, &c, ed),
        };
        if score < s.accuracy {
            continue;
        }
        queue.push(Candidate {
            term: t.clone(),
            boost,
            score,
            df: *df,
        });
        if queue.len() > num {
            let w = weakest(&queue);
            queue.remove(w);
        }
    }
    queue
}

fn compare(a: &Suggested, b: &Suggested, by_frequency: bool) -> std::cmp::Ordering {
    let score = || {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    let freq = || b.freq.cmp(&a.freq);
    let text = || a.text.cmp(&b.text);
    if by_frequency {
        freq().then_with(score).then_with(text)
    } else {
        score().then_with(freq).then_with(text)
    }
}

/// The suggestions of one shard for every token of the text.
pub fn shard(s: &TermSuggestion, cx: &Context) -> Result<Vec<Entry>> {
    let Some(text) = &s.text else {
        return Err(Error::illegal_argument(
            "The required text option is missing",
        ));
    };
    let searcher = cx.searcher;
    let fm = cx.mapping.field(&s.field);
    let tokens = tokens(cx, s, text)?;
    let field = searcher.schema().get_field(&s.field).ok();
    let max_doc: u64 = searcher
        .segment_readers()
        .iter()
        .map(|r| r.max_doc() as u64)
        .sum();
    let num = s.shard_size.unwrap_or(s.size.max(5));
    let mut out = Vec::new();
    for (token, offset, length) in tokens {
        let mut entry = Entry {
            text: token.clone(),
            offset,
            length,
            options: Vec::new(),
        };
        let indexed = fm.is_some_and(|f| matches!(f.ty, FieldType::Text | FieldType::Keyword));
        if let (Some(f), true) = (field, indexed) {
            entry.options = spell(s, searcher, f, &token, num, max_doc)?;
        }
        out.push(entry);
    }
    Ok(out)
}

fn spell(
    s: &TermSuggestion,
    searcher: &tantivy::Searcher,
    field: tantivy::schema::Field,
    token: &str,
    num: usize,
    max_doc: u64,
) -> Result<Vec<Suggested>> {
    let query: Vec<char> = if s.lowercase_terms {
        token.to_lowercase().chars().collect()
    } else {
        token.chars().collect()
    };
    let query_text: String = query.iter().collect();
    if s.min_word_length > 0 && query.len() < s.min_word_length {
        return Ok(Vec::new());
    }
    let mut docfreq = searcher.doc_freq(&Term::from_field_text(field, &query_text))?;
    if s.mode == Mode::Missing && docfreq > 0 {
        return Ok(Vec::new());
    }
    // `max_term_freq`: an absolute count from 1 up, else a fraction of the shard's documents.
    let too_frequent = if s.max_term_freq >= 1.0 {
        docfreq as f32 > s.max_term_freq
    } else {
        docfreq > (s.max_term_freq * max_doc as f32).ceil() as u64
    };
    if too_frequent {
        return Ok(Vec::new());
    }
    if s.mode != Mode::Popular {
        docfreq = 0;
    }
    if s.min_doc_freq >= 1.0 {
        docfreq = docfreq.max(s.min_doc_freq as u64);
    } else if s.min_doc_freq > 0.0 {
        docfreq = docfreq.max(((s.min_doc_freq * max_doc as f32) as i64 - 1).max(0) as u64);
    }
    // The field's terms sharing the shortest prefix either pass needs, with their frequencies.
    let shared = s.prefix_length.min(query.len());
    let prefix: String = query[..shared].iter().collect();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for r in searcher.segment_readers() {
        let inv = r.inverted_index(field)?;
        let mut stream = inv.terms().range().ge(prefix.as_bytes()).into_stream()?;
        while stream.advance() {
            let k = stream.key();
            if !k.starts_with(prefix.as_bytes()) {
                break;
            }
            if let Ok(t) = std::str::from_utf8(k) {
                names.insert(t.to_string());
            }
        }
    }
    let mut terms = Vec::with_capacity(names.len());
    for t in names {
        let df = searcher.doc_freq(&Term::from_field_text(field, &t))?;
        terms.push((t, df));
    }
    let inspections = num * s.max_inspections;
    let mut found = similar(
        &terms,
        &query,
        &query_text,
        inspections,
        docfreq,
        1,
        s.prefix_length,
        s,
    );
    // The wider pass fills a queue as large as the first's, and the two are joined (Lucene's
    // `DirectSpellChecker`): a term both found is kept once.
    if s.max_edits > 1 && found.len() < inspections {
        let more = similar(
            &terms,
            &query,
            &query_text,
            inspections,
            docfreq,
            s.max_edits as usize,
            s.prefix_length,
            s,
        );
        for c in more {
            if !found.iter().any(|f| f.term == c.term) {
                found.push(c);
            }
        }
    }
    let mut options: Vec<Suggested> = found
        .into_iter()
        .map(|c| Suggested {
            text: c.term,
            score: c.score,
            freq: c.df,
        })
        .collect();
    // The shard keeps its best `num` in the suggestion's own order (OpenSearch hands the spell
    // checker the `sort` option's comparator), so `sort: frequency` keeps frequent terms a
    // score order would cut.
    options.sort_by(|a, b| compare(a, b, s.by_frequency));
    options.truncate(num);
    Ok(options)
}

/// `(token, UTF-16 offset, UTF-16 length)` of the suggestion text.
fn tokens(cx: &Context, s: &TermSuggestion, text: &str) -> Result<Vec<(String, usize, usize)>> {
    let fm = cx.mapping.field(&s.field);
    let utf16 = |b: usize| text[..b.min(text.len())].encode_utf16().count();
    let analyzer = match (s.analyzer.as_deref(), fm) {
        (Some(a), _) => a.to_string(),
        (None, Some(f)) if f.ty == FieldType::Text => f.search_analyzer.clone(),
        (None, Some(f)) if f.ty == FieldType::Keyword => {
            let t = crate::analysis::keyword_query_text(cx.searcher.index(), f, text);
            return Ok(vec![(t.into_owned(), 0, utf16(text.len()))]);
        }
        _ => "standard".to_string(),
    };
    let Some(mut a) = cx
        .searcher
        .index()
        .tokenizers()
        .get(crate::analysis::tokenizer_name(&analyzer))
    else {
        return Err(Error::illegal_argument(format!(
            "analyzer [{analyzer}] has not been configured in mappings"
        )));
    };
    let mut stream = a.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        let start = utf16(t.offset_from);
        out.push((t.text.clone(), start, utf16(t.offset_to) - start));
    }
    Ok(out)
}

/// Entries of every shard merged: options by term (frequencies summed), sorted, `size` kept.
pub fn merge(s: &TermSuggestion, shards: Vec<Vec<Entry>>) -> Vec<Entry> {
    let mut it = shards.into_iter();
    let Some(mut first) = it.next() else {
        return Vec::new();
    };
    for other in it {
        for (e, o) in first.iter_mut().zip(other) {
            for opt in o.options {
                match e.options.iter_mut().find(|x| x.text == opt.text) {
                    Some(x) => {
                        x.freq += opt.freq;
                        x.score = x.score.max(opt.score);
                    }
                    None => e.options.push(opt),
                }
            }
        }
    }
    for e in &mut first {
        e.options.sort_by(|a, b| compare(a, b, s.by_frequency));
        e.options.truncate(s.size);
    }
    first
}

/// The response's `suggest` object.
pub fn render(results: Vec<(&TermSuggestion, Vec<Entry>)>, typed_keys: bool) -> Value {
    let mut out = Map::new();
    for (s, entries) in results {
        let key = if typed_keys {
            format!("term#{}", s.name)
        } else {
            s.name.clone()
        };
        let list: Vec<Value> = entries
            .into_iter()
            .map(|e| {
                json!({
                    "text": e.text,
                    "offset": e.offset,
                    "length": e.length,
                    "options": e.options.into_iter().map(|o| json!({
                        "text": o.text,
                        "score": crate::search::score_json(o.score),
                        "freq": o.freq,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        out.insert(key, Value::Array(list));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// Scores OpenSearch 2.19 gave these pairs (query first).
    #[test]
    fn jaro_winkler_and_ngram_score_as_lucene() {
        let jw = |a: &str, b: &str| jaro_winkler(&chars(a), &chars(b));
        let ng = |a: &str, b: &str| ngram(&chars(a), &chars(b));
        assert_eq!(jw("quikc", "quick"), 0.953_333_3);
        assert_eq!(jw("qick", "quack"), 0.804_999_95);
        assert_eq!(jw("xz", "xy"), 0.666_666_7);
        assert_eq!(jw("a", "abc"), 0.800_000_1);
        assert_eq!(ng("quikc", "quick"), 0.7);
        assert_eq!(ng("bown", "brow"), 0.375);
        assert_eq!(ng("a", "abc"), 0.333_333_34);
        assert_eq!(ng("", ""), 1.0);
    }

    /// `damerau_levenshtein` scales by the shorter term (OpenSearch 2.19: `netwrk` gave
    /// `network` 0.8333333 and `networks` 0.6666666), `levenshtein` by the longer.
    #[test]
    fn damerau_scales_by_the_shorter_term() {
        let score = |d, a: &str, b: &str| {
            let (a, b) = (chars(a), chars(b));
            distance_score(d, &a, &b, osa(&a, &b))
        };
        assert_eq!(score(Distance::Damerau, "netwrk", "network"), 0.833_333_3);
        assert_eq!(score(Distance::Damerau, "netwrk", "networks"), 0.666_666_6);
        assert_eq!(score(Distance::Damerau, "fille", "flile"), 0.8);
        assert_eq!(
            score(Distance::Levenshtein, "netwrk", "network"),
            0.857_142_87
        );
        assert_eq!(score(Distance::Damerau, "", ""), 1.0);
        assert_eq!(score(Distance::Damerau, "", "a"), 0.0);
    }
}
