//! OpenSearch's analysis chain: tokenizers, token filters, char filters, analyzers and
//! normalizers by their OpenSearch names and parameters, custom chains from an index's
//! `index.analysis.*` settings, and the bridge that registers them into a tantivy index.

pub mod analyzer;
pub mod builtin;
pub mod char_filter;
pub mod filter;
pub mod params;
pub mod registry;
pub mod token;
pub mod tokenizer;
pub mod unicode;
pub mod word_break;

pub use analyzer::Analyzer;
pub use registry::Registry;

use filter::memo::Key;
use std::sync::Arc;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer, TokenizerManager};
use tokenizer::standard::AsciiScan;

/// The registry of an index, built once per version of its analysis settings.
pub fn index_registry(
    uuid: &str,
    flat: &std::collections::BTreeMap<String, serde_json::Value>,
) -> crate::error::Result<Arc<Registry>> {
    use parking_lot::Mutex;
    use std::collections::HashMap;
    use std::sync::OnceLock;
    type Cached = HashMap<String, (String, Arc<Registry>)>;
    static CACHE: OnceLock<Mutex<Cached>> = OnceLock::new();
    let fingerprint = format!(
        "{:?}",
        flat.iter()
            .filter(|(k, _)| k.starts_with("index.analysis.") || k.starts_with("index.max_"))
            .collect::<Vec<_>>()
    );
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some((fp, reg)) = cache.lock().get(uuid) {
        if *fp == fingerprint {
            return Ok(reg.clone());
        }
    }
    let reg = Arc::new(Registry::from_settings(flat)?);
    let mut c = cache.lock();
    if c.len() > 4096 {
        c.clear();
    }
    c.insert(uuid.to_string(), (fingerprint, reg.clone()));
    Ok(reg)
}

/// Whether a built-in analyzer has this name (`default` included).
pub fn is_known_analyzer(name: &str) -> bool {
    name == "default" || builtin::is_builtin(name)
}

/// The tantivy tokenizer name that runs an analyzer: the analyzer's own name (`default` is
/// registered per index as the index's default analyzer).
pub fn tokenizer_name(analyzer: &str) -> &str {
    analyzer
}

/// Names a normalizer where an analyzer name is expected (the tokenizer manager, and
/// `Registry::analyzer`). The separator cannot occur in an index's analysis setting names.
pub const NORMALIZER_PREFIX: &str = "normalizer\u{1F}";
/// The tokenizer of a keyword field with a normalizer: the value arrives normalized (by
/// `normalize`, so its doc values are normalized too) and is kept whole; the name carries the
/// normalizer's, so the schema records it.
const NORMALIZED_PREFIX: &str = "normalized\u{1F}";
/// An analyzer run value by value over a multi-valued field (see `multi_valued`).
const VALUES_PREFIX: &str = "values\u{1F}";
/// The position increment gap of an index's analyzers: a custom analyzer's own setting, else
/// 100 (OpenSearch wraps every other analyzer with the text field default).
pub const DEFAULT_POSITION_INCREMENT_GAP: u32 = 100;

pub fn normalizer_key(normalizer: &str) -> String {
    format!("{NORMALIZER_PREFIX}{normalizer}")
}

/// The tantivy tokenizer name of a keyword field normalized by `normalizer`.
pub fn keyword_tokenizer_name(normalizer: &str) -> String {
    format!("{NORMALIZED_PREFIX}{normalizer}")
}

/// The normalizer a keyword field's tokenizer name stands for, as its tokenizer-manager key.
pub fn normalizer_of_tokenizer(tokenizer: &str) -> Option<String> {
    tokenizer
        .strip_prefix(NORMALIZED_PREFIX)
        .map(normalizer_key)
}

/// The tokenizer-manager key that analyses a text field's values one by one.
pub fn values_tokenizer_name(tokenizer: &str) -> String {
    format!("{VALUES_PREFIX}{tokenizer}")
}

fn index_gap(a: &Analyzer) -> u32 {
    if a.custom {
        a.position_increment_gap
    } else {
        DEFAULT_POSITION_INCREMENT_GAP
    }
}

/// Registers every analyzer an index can name (built-in, its own, `default`,
/// `default_search`) into its tantivy tokenizer manager, each also as a multi-value analyzer,
/// and every normalizer it can name.
pub fn register(manager: &TokenizerManager, registry: &Registry) {
    let add = |name: &str, a: Arc<Analyzer>| {
        manager.register(
            &values_tokenizer_name(name),
            ValuesTokenizer {
                gap: index_gap(&a),
                chain: ChainTokenizer::new(a.clone()),
            },
        );
        manager.register(name, ChainTokenizer::new(a));
    };
    for (name, a) in registry::builtins() {
        add(name, a.clone());
    }
    for (name, a) in &registry.analyzers {
        add(name, a.clone());
    }
    for name in ["default", "default_search"] {
        if let Some(a) = registry.analyzer(name) {
            add(name, a);
        }
    }
    let normalizers = registry
        .normalizers
        .keys()
        .map(String::as_str)
        .chain(["lowercase"]);
    for name in normalizers {
        if let Some(a) = registry.normalizer(name) {
            manager.register(&normalizer_key(name), ChainTokenizer::new(a));
            manager.register(
                &keyword_tokenizer_name(name),
                tantivy::tokenizer::RawTokenizer::default(),
            );
        }
    }
}

/// A keyword value through a normalizer registered in `manager` (by its `normalizer_key`):
/// the one token the chain makes, or the value itself when the normalizer is unknown.
pub fn normalize(manager: &TokenizerManager, key: &str, text: &str) -> String {
    let Some(mut a) = manager.get(key) else {
        return text.to_string();
    };
    let mut s = a.token_stream(text);
    let mut out = String::new();
    if s.advance() {
        std::mem::swap(&mut out, &mut s.token_mut().text);
    }
    out
}

/// A query's value for a keyword field, through the field's normalizer (as OpenSearch
/// normalizes `term`, `terms` and `match` values on keyword fields).
pub fn keyword_query_text<'a>(
    index: &tantivy::Index,
    field: &crate::index::mapping::FieldMapping,
    text: &'a str,
) -> std::borrow::Cow<'a, str> {
    match &field.normalizer {
        Some(n) => normalize(index.tokenizers(), &normalizer_key(n), text).into(),
        None => text.into(),
    }
}

/// The values of a multi-valued text field as one pre-tokenized value, with Lucene's positions:
/// each value continues after the previous one's last position plus its end increment
/// (removed trailing tokens) plus the position increment gap (`gap`, else the analyzer's), so
/// a phrase never matches across values. `tokenizer` is the field's tokenizer name.
pub fn multi_valued(
    manager: &TokenizerManager,
    tokenizer: &str,
    values: &[&str],
    gap: Option<u32>,
) -> Option<tantivy::tokenizer::PreTokenizedString> {
    let mut a = manager.get(&values_tokenizer_name(tokenizer))?;
    let mut tokens = Vec::new();
    // Lucene's invert state: the position before the first token is -1.
    let mut pos: i64 = -1;
    for v in values {
        let mut s = a.token_stream(v);
        let mut value_gap = 0;
        let mut incs = 0;
        while s.advance() {
            let t = s.token_mut();
            if t.position_length == 0 {
                // The trailer: total increments (end included) and the analyzer's gap.
                incs = t.position as i64;
                value_gap = t.offset_from as u32;
                break;
            }
            let mut tok = std::mem::take(t);
            tok.position = (pos + 1 + tok.position as i64) as usize;
            tokens.push(tok);
        }
        // The gap follows every value; the last one's is never seen.
        pos += incs + gap.unwrap_or(value_gap) as i64;
    }
    Some(tantivy::tokenizer::PreTokenizedString {
        text: String::new(),
        tokens,
    })
}

/// An analyzer whose stream, after the tokens of a value (positions relative to the value),
/// yields a trailer token with `position_length` 0: its `position` is the value's total
/// position increment (the end increment included) and its `offset_from` the analyzer's
/// position increment gap. Only `multi_valued` reads it; no schema names it.
#[derive(Clone)]
struct ValuesTokenizer {
    chain: ChainTokenizer,
    gap: u32,
}

pub struct ValuesStream<'a> {
    inner: ChainStream<'a>,
    gap: u32,
    done: bool,
}

impl Tokenizer for ValuesTokenizer {
    type TokenStream<'a> = ValuesStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ValuesStream<'a> {
        let gap = self.gap;
        ValuesStream {
            inner: self.chain.token_stream(text),
            gap,
            done: false,
        }
    }
}

impl TokenStream for ValuesStream<'_> {
    fn advance(&mut self) -> bool {
        if self.inner.advance() {
            return true;
        }
        if self.done {
            return false;
        }
        self.done = true;
        let last = if self.inner.position == usize::MAX {
            0
        } else {
            self.inner.position as i64 + 1
        };
        let end_inc = self.inner.buf.end_inc;
        let t = &mut self.inner.token;
        t.text.clear();
        t.position = (last + end_inc as i64) as usize;
        t.position_length = 0;
        t.offset_from = self.gap as usize;
        t.offset_to = self.gap as usize;
        true
    }

    fn token(&self) -> &Token {
        &self.inner.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.inner.token
    }
}

/// An analysis chain as a tantivy tokenizer: byte offsets into the original text, positions
/// from the chain's increments. Each clone keeps its own token buffer, reused across values.
pub struct ChainTokenizer {
    analyzer: Arc<Analyzer>,
    buf: token::Tokens,
}

impl Clone for ChainTokenizer {
    fn clone(&self) -> Self {
        ChainTokenizer::new(self.analyzer.clone())
    }
}

impl ChainTokenizer {
    pub fn new(analyzer: Arc<Analyzer>) -> ChainTokenizer {
        ChainTokenizer {
            analyzer,
            buf: token::Tokens::default(),
        }
    }
}

pub struct ChainStream<'a> {
    buf: &'a mut token::Tokens,
    next: usize,
    token: Token,
    position: usize,
    /// ASCII text through the standard tokenizer and one word-mapping filter is streamed:
    /// each token goes from the text through the filter into `token` as it is found (nothing
    /// is buffered), removed tokens' increments carried in `buf.end_inc` until the next one.
    words: Option<Words<'a>>,
}

struct Words<'a> {
    text: &'a str,
    scan: AsciiScan<'a>,
    filter: &'a dyn filter::TokenFilter,
    /// The thread's memo and the filter's tag in it, when the filter has one: each word's
    /// key is read from the text where the scanner found it.
    memo: Option<(filter::memo::Held, u32)>,
    /// With a memo, the word after the one being mapped, found beforehand so that its memo
    /// set is already on its way into the cache: start, end and key.
    ahead: Option<(usize, usize, Option<Key>)>,
}

impl Tokenizer for ChainTokenizer {
    type TokenStream<'a> = ChainStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ChainStream<'a> {
        let ChainTokenizer { analyzer, buf } = self;
        let words = match analyzer.word_chain() {
            Some((standard, filter)) if text.is_ascii() => {
                buf.recycle();
                buf.text_len = text.len();
                Some(Words {
                    text,
                    scan: standard.ascii_scan(text),
                    filter,
                    memo: filter
                        .memo_owner()
                        .map(|owner| (filter::memo::Memo::take(), owner)),
                    ahead: None,
                })
            }
            _ => {
                *buf = analyzer.run_into(text, std::mem::take(buf)).tokens;
                None
            }
        };
        ChainStream {
            buf,
            next: 0,
            token: Token::default(),
            position: usize::MAX,
            words,
        }
    }
}

impl ChainStream<'_> {
    #[inline]
    fn place(&mut self, pos_inc: u32, start: usize, end: usize, pos_len: u32) {
        self.position = if self.position == usize::MAX {
            (pos_inc as usize).saturating_sub(1)
        } else {
            self.position + pos_inc as usize
        };
        self.token.position = self.position;
        self.token.offset_from = start;
        self.token.offset_to = end;
        self.token.position_length = pos_len as usize;
    }
}

impl TokenStream for ChainStream<'_> {
    fn advance(&mut self) -> bool {
        if let Some(w) = &mut self.words {
            let bytes = w.text.as_bytes();
            loop {
                let (start, end, key) = match w.ahead.take() {
                    Some(word) => word,
                    None => match w.scan.next() {
                        Some((start, end, _)) if w.memo.is_some() => {
                            (start, end, Key::at(bytes, start, end))
                        }
                        Some((start, end, _)) => (start, end, None),
                        None => return false,
                    },
                };
                let out = &mut self.token.text;
                let word = &w.text[start..end];
                let kept = match &mut w.memo {
                    Some((memo, owner)) => {
                        if let Some((s, e, _)) = w.scan.next() {
                            let next = Key::at(bytes, s, e);
                            if let Some(k) = next {
                                memo.prefetch(k);
                            }
                            w.ahead = Some((s, e, next));
                        }
                        match key.map(|key| (key, memo.get(*owner, key, out))) {
                            Some((_, Some(kept))) => kept,
                            Some((key, None)) => {
                                let kept = w.filter.map_word(word, out);
                                memo.put(*owner, key, kept.then_some(out.as_str()));
                                kept
                            }
                            None => w.filter.map_word(word, out),
                        }
                    }
                    None => w.filter.map_word(word, out),
                };
                if kept {
                    let pos_inc = 1 + std::mem::take(&mut self.buf.end_inc);
                    self.place(pos_inc, start, end, 1);
                    return true;
                }
                self.buf.end_inc += 1;
            }
        }
        let Some(t) = self.buf.toks.get_mut(self.next) else {
            return false;
        };
        self.next += 1;
        let (pos_inc, start, end, pos_len) = (t.pos_inc, t.start, t.end, t.pos_len);
        // Swap rather than copy: the buffer keeps an allocation for the next run.
        std::mem::swap(&mut self.token.text, &mut t.text);
        self.place(pos_inc, start, end, pos_len);
        true
    }

    fn token(&self) -> &Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn tokens(m: &TokenizerManager, analyzer: &str, text: &str) -> Vec<String> {
        let mut a = m.get(analyzer).unwrap();
        let mut s = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = s.next() {
            out.push(t.text.clone());
        }
        out
    }

    #[test]
    fn builtin_and_custom_analyzers() {
        let mut flat = BTreeMap::new();
        flat.insert(
            "index.analysis.analyzer.my.tokenizer".to_string(),
            json!("whitespace"),
        );
        flat.insert(
            "index.analysis.analyzer.my.filter".to_string(),
            json!(["lowercase", "my_stop"]),
        );
        flat.insert(
            "index.analysis.filter.my_stop.type".to_string(),
            json!("stop"),
        );
        flat.insert(
            "index.analysis.filter.my_stop.stopwords".to_string(),
            json!(["fox"]),
        );
        flat.insert(
            "index.analysis.analyzer.default.type".to_string(),
            json!("english"),
        );
        let reg = Registry::from_settings(&flat).unwrap();
        let m = TokenizerManager::default();
        register(&m, &reg);
        assert_eq!(
            tokens(&m, "standard", "The Quick-Brown fox's 3.14!"),
            ["the", "quick", "brown", "fox's", "3.14"]
        );
        assert_eq!(tokens(&m, "keyword", "Keep Me"), ["Keep Me"]);
        assert_eq!(tokens(&m, "english", "running dogs"), ["run", "dog"]);
        assert_eq!(tokens(&m, "my", "The FOX jumps"), ["the", "jumps"]);
        assert_eq!(tokens(&m, "default", "Steven's dogs"), ["steven", "dog"]);
    }

    #[test]
    fn multi_valued_positions_follow_lucene() {
        let m = TokenizerManager::default();
        register(&m, &Registry::from_settings(&BTreeMap::new()).unwrap());
        let pos = |tok: &str, vals: &[&str], gap: Option<u32>| -> Vec<(String, usize)> {
            multi_valued(&m, tok, vals, gap)
                .unwrap()
                .tokens
                .into_iter()
                .map(|t| (t.text, t.position))
                .collect()
        };
        assert_eq!(
            pos("standard", &["a b", "c"], None),
            [("a".into(), 0), ("b".into(), 1), ("c".into(), 102)]
        );
        // Trailing stop words and empty values still advance, then the gap.
        assert_eq!(
            pos("english", &["the cat sat on the", "", "mat"], None),
            [("cat".into(), 1), ("sat".into(), 2), ("mat".into(), 205)]
        );
        assert_eq!(
            pos("standard", &["a", "b"], Some(7)),
            [("a".into(), 0), ("b".into(), 8)]
        );
        assert_eq!(normalize(&m, &normalizer_key("lowercase"), "ÉtÉ"), "été");
    }

    #[test]
    fn bad_definitions_fail() {
        let mut flat = BTreeMap::new();
        flat.insert(
            "index.analysis.analyzer.my.tokenizer".to_string(),
            json!("nope"),
        );
        let e = Registry::from_settings(&flat).err().unwrap();
        assert_eq!(
            e.reason,
            "Custom Analyzer [my] failed to find tokenizer under name [nope]"
        );
    }
}

#[cfg(test)]
mod streaming_tests {
    use super::*;

    /// The streamed chains (ASCII text through `standard` and one word-mapping filter) give
    /// the tokens, offsets and positions of the buffered run.
    #[test]
    fn streaming_matches_the_buffered_run() {
        let m = TokenizerManager::default();
        register(&m, &Registry::global());
        let long = "x".repeat(300);
        let texts = [
            "The Debian packages of the running services aren't stopping: it's the user's.",
            "the a an of",
            "",
            "Running 3.14 dogs' O'Reilly's ab_cd a:b 1,2;3",
            long.as_str(),
            "over the lazy dog and the",
        ];
        for name in ["standard", "english"] {
            let a = registry::builtins()[name].clone();
            assert!(a.word_chain().is_some());
            for text in texts {
                let want = a.run(text).tokens;
                let mut pos = -1i64;
                let want: Vec<_> = want
                    .toks
                    .iter()
                    .map(|t| {
                        pos += t.pos_inc as i64;
                        (t.text.clone(), t.start, t.end, pos.max(0) as usize)
                    })
                    .collect();
                let mut an = m.get(name).unwrap();
                let mut s = an.token_stream(text);
                let mut got = Vec::new();
                while let Some(t) = s.next() {
                    got.push((t.text.clone(), t.offset_from, t.offset_to, t.position));
                }
                assert_eq!(got, want, "{name}: {text}");
            }
        }
    }
}
