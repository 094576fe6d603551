//! A UAX#29 word tokenizer in the spirit of Lucene's StandardTokenizer: words and numbers, with
//! punctuation dropped. Long tokens are chopped at 255 characters as Lucene does.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_segmentation::UnicodeSegmentation;

const MAX_TOKEN_LENGTH: usize = 255;

#[derive(Clone, Default)]
pub struct StandardTokenizer;

pub struct StandardTokenStream {
    tokens: Vec<Token>,
    index: usize,
}

impl Tokenizer for StandardTokenizer {
    type TokenStream<'a> = StandardTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> StandardTokenStream {
        let mut tokens = Vec::new();
        let mut position = 0;
        for (start, word) in text.unicode_word_indices() {
            let mut offset = start;
            let mut rest = word;
            while !rest.is_empty() {
                let cut = rest
                    .char_indices()
                    .nth(MAX_TOKEN_LENGTH)
                    .map(|(i, _)| i)
                    .unwrap_or(rest.len());
                let (piece, tail) = rest.split_at(cut);
                tokens.push(Token {
                    offset_from: offset,
                    offset_to: offset + piece.len(),
                    position,
                    text: piece.to_string(),
                    position_length: 1,
                });
                position += 1;
                offset += piece.len();
                rest = tail;
            }
        }
        StandardTokenStream {
            tokens,
            index: usize::MAX,
        }
    }
}

impl TokenStream for StandardTokenStream {
    fn advance(&mut self) -> bool {
        self.index = self.index.wrapping_add(1);
        self.index < self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.index]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.index]
    }
}
