//! A UAX#29 word tokenizer in the spirit of Lucene's StandardTokenizer: words and numbers, with
//! punctuation dropped. Long tokens are chopped at 255 characters as Lucene does. Tokens are
//! produced lazily into one reused `Token`, so analysis allocates nothing per token.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_segmentation::{UnicodeSegmentation, UnicodeWordIndices};

const MAX_TOKEN_LENGTH: usize = 255;

#[derive(Clone, Default)]
pub struct StandardTokenizer;

pub struct StandardTokenStream<'a> {
    words: UnicodeWordIndices<'a>,
    /// The rest of a word longer than the maximum, still to be emitted.
    pending: Option<(usize, &'a str)>,
    token: Token,
}

impl Tokenizer for StandardTokenizer {
    type TokenStream<'a> = StandardTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> StandardTokenStream<'a> {
        let token = Token {
            position: usize::MAX,
            ..Token::default()
        };
        StandardTokenStream {
            words: text.unicode_word_indices(),
            pending: None,
            token,
        }
    }
}

impl TokenStream for StandardTokenStream<'_> {
    fn advance(&mut self) -> bool {
        let Some((start, word)) = self.pending.take().or_else(|| self.words.next()) else {
            return false;
        };
        // A word of at most 255 bytes has at most 255 characters: no need to count them.
        let cut = if word.len() <= MAX_TOKEN_LENGTH {
            word.len()
        } else {
            word.char_indices()
                .nth(MAX_TOKEN_LENGTH)
                .map(|(i, _)| i)
                .unwrap_or(word.len())
        };
        let (piece, tail) = word.split_at(cut);
        if !tail.is_empty() {
            self.pending = Some((start + cut, tail));
        }
        self.token.position = self.token.position.wrapping_add(1);
        self.token.offset_from = start;
        self.token.offset_to = start + piece.len();
        self.token.position_length = 1;
        self.token.text.clear();
        self.token.text.push_str(piece);
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

    fn run(text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut t = StandardTokenizer;
        let mut s = t.token_stream(text);
        let mut out = Vec::new();
        while s.advance() {
            let k = s.token();
            out.push((k.text.clone(), k.position, k.offset_from, k.offset_to));
        }
        out
    }

    #[test]
    fn positions_and_offsets() {
        assert_eq!(
            run("Hello, world"),
            vec![("Hello".into(), 0, 0, 5), ("world".into(), 1, 7, 12)]
        );
    }

    #[test]
    fn long_words_are_chopped() {
        let long = "a".repeat(300);
        let toks = run(&format!("x {long}"));
        assert_eq!(toks.len(), 3);
        assert_eq!(toks[1].0.len(), 255);
        assert_eq!((toks[2].0.len(), toks[2].1, toks[2].2), (45, 2, 257));
    }
}
