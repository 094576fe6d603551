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

pub use analyzer::Analyzer;
pub use registry::Registry;

use std::sync::Arc;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer, TokenizerManager};

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

/// Registers every analyzer an index can name (built-in, its own, `default`,
/// `default_search`) into its tantivy tokenizer manager.
pub fn register(manager: &TokenizerManager, registry: &Registry) {
    for (name, a) in registry::builtins() {
        manager.register(name, ChainTokenizer::new(a.clone()));
    }
    for (name, a) in &registry.analyzers {
        manager.register(name, ChainTokenizer::new(a.clone()));
    }
    for name in ["default", "default_search"] {
        if let Some(a) = registry.analyzer(name) {
            manager.register(name, ChainTokenizer::new(a));
        }
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
}

impl Tokenizer for ChainTokenizer {
    type TokenStream<'a> = ChainStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> ChainStream<'a> {
        let buf = std::mem::take(&mut self.buf);
        self.buf = self.analyzer.run_into(text, buf).tokens;
        ChainStream {
            buf: &mut self.buf,
            next: 0,
            token: Token::default(),
            position: usize::MAX,
        }
    }
}

impl TokenStream for ChainStream<'_> {
    fn advance(&mut self) -> bool {
        let Some(t) = self.buf.toks.get_mut(self.next) else {
            return false;
        };
        self.next += 1;
        self.position = if self.position == usize::MAX {
            (t.pos_inc as usize).saturating_sub(1)
        } else {
            self.position + t.pos_inc as usize
        };
        self.token.position = self.position;
        self.token.offset_from = t.start;
        self.token.offset_to = t.end;
        self.token.position_length = t.pos_len as usize;
        // Swap rather than copy: the buffer keeps an allocation for the next run.
        std::mem::swap(&mut self.token.text, &mut t.text);
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
