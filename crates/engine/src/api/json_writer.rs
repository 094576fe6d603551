//! Writes a JSON object field by field, splicing stored `_source` bytes in verbatim (no parse,
//! no re-serialization on the hot path).

use serde::Serialize;
use std::borrow::BorrowMut;

/// An object written into its own buffer (`new`, `finish`) or appended to one being written
/// (`within`, `close`).
pub struct ObjectWriter<B: BorrowMut<Vec<u8>> = Vec<u8>> {
    buf: B,
    first: bool,
}

impl ObjectWriter {
    pub fn new() -> Self {
        Self::with_capacity(256)
    }

    pub fn with_capacity(capacity: usize) -> Self {
        let mut buf = Vec::with_capacity(capacity);
        buf.push(b'{');
        ObjectWriter { buf, first: true }
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.buf.push(b'}');
        self.buf
    }
}

impl<'a> ObjectWriter<&'a mut Vec<u8>> {
    /// An object appended to `buf`, ended by `close`.
    pub fn within(buf: &'a mut Vec<u8>) -> Self {
        buf.push(b'{');
        ObjectWriter { buf, first: true }
    }

    pub fn close(self) {
        self.buf.push(b'}');
    }
}

impl<B: BorrowMut<Vec<u8>>> ObjectWriter<B> {
    fn key(&mut self, key: &str) {
        let buf = self.buf.borrow_mut();
        if !self.first {
            buf.push(b',');
        }
        self.first = false;
        serde_json::to_writer(&mut *buf, key).expect("string serializes");
        buf.push(b':');
    }

    pub fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.key(key);
        serde_json::to_writer(self.buf.borrow_mut(), value).expect("value serializes");
        self
    }

    pub fn raw(&mut self, key: &str, json: &[u8]) -> &mut Self {
        self.key(key);
        self.buf.borrow_mut().extend_from_slice(json);
        self
    }

    /// A field whose value `write` appends to the buffer itself, as JSON.
    pub fn raw_with(&mut self, key: &str, write: impl FnOnce(&mut Vec<u8>)) -> &mut Self {
        self.key(key);
        write(self.buf.borrow_mut());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_fields_in_order_and_nests_within_a_buffer() {
        let mut w = ObjectWriter::new();
        w.field("a\"", &1).raw("b", b"[1, 2]").raw_with("c", |buf| {
            let mut inner = ObjectWriter::within(buf);
            inner.field("d", "e").field("f", &None::<u8>);
            inner.close();
        });
        assert_eq!(
            String::from_utf8(w.finish()).unwrap(),
            r#"{"a\"":1,"b":[1, 2],"c":{"d":"e","f":null}}"#
        );
        let mut empty = Vec::new();
        ObjectWriter::within(&mut empty).close();
        assert_eq!(empty, b"{}");
    }
}
