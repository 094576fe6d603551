//! Analyzers by their OpenSearch names, registered into each tantivy index. This is the
//! foundation's set (standard, simple, whitespace, keyword, stop, english); the analysis issue
//! makes every component Lucene-exact and adds custom chains from index settings.

mod standard_tokenizer;

use standard_tokenizer::StandardTokenizer;
use tantivy::tokenizer::{
    Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter,
    TextAnalyzer, TokenizerManager, WhitespaceTokenizer,
};

pub const BUILTIN: &[&str] = &[
    "default",
    "standard",
    "simple",
    "whitespace",
    "keyword",
    "stop",
    "english",
];

pub fn is_known_analyzer(name: &str) -> bool {
    BUILTIN.contains(&name)
}

/// The tantivy tokenizer name that runs an analyzer (`default` is OpenSearch's `standard`).
pub fn tokenizer_name(analyzer: &str) -> &str {
    if analyzer == "default" {
        "standard"
    } else {
        analyzer
    }
}

pub fn register(manager: &TokenizerManager) {
    manager.register(
        "standard",
        TextAnalyzer::builder(StandardTokenizer)
            .filter(LowerCaser)
            .build(),
    );
    manager.register(
        "simple",
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .build(),
    );
    manager.register(
        "whitespace",
        TextAnalyzer::builder(WhitespaceTokenizer::default()).build(),
    );
    manager.register(
        "keyword",
        TextAnalyzer::builder(RawTokenizer::default()).build(),
    );
    manager.register(
        "stop",
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(LowerCaser)
            .filter(StopWordFilter::new(Language::English).expect("english stop words"))
            .build(),
    );
    manager.register(
        "english",
        TextAnalyzer::builder(StandardTokenizer)
            .filter(RemoveLongFilter::limit(255))
            .filter(LowerCaser)
            .filter(StopWordFilter::new(Language::English).expect("english stop words"))
            .filter(Stemmer::new(Language::English))
            .build(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(analyzer: &str, text: &str) -> Vec<String> {
        let m = TokenizerManager::default();
        register(&m);
        let mut a = m.get(analyzer).unwrap();
        let mut s = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = s.next() {
            out.push(t.text.clone());
        }
        out
    }

    #[test]
    fn standard_lowercases_words() {
        assert_eq!(
            tokens("standard", "The Quick-Brown fox's 3.14!"),
            ["the", "quick", "brown", "fox's", "3.14"]
        );
        assert_eq!(tokens("keyword", "Keep Me"), ["Keep Me"]);
        assert_eq!(tokens("english", "running dogs"), ["run", "dog"]);
    }
}
