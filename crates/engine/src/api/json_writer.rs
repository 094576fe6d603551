//! Writes a JSON object field by field, splicing stored `_source` bytes in verbatim (no parse,
//! no re-serialization on the hot path).

use serde::Serialize;

pub struct ObjectWriter {
    buf: Vec<u8>,
    first: bool,
}

impl ObjectWriter {
    pub fn new() -> Self {
        let mut buf = Vec::with_capacity(256);
        buf.push(b'{');
        ObjectWriter { buf, first: true }
    }

    fn key(&mut self, key: &str) {
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
        serde_json::to_writer(&mut self.buf, key).expect("string serializes");
        self.buf.push(b':');
    }

    pub fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> &mut Self {
        self.key(key);
        serde_json::to_writer(&mut self.buf, value).expect("value serializes");
        self
    }

    pub fn raw(&mut self, key: &str, json: &[u8]) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(json);
        self
    }

    pub fn finish(mut self) -> Vec<u8> {
        self.buf.push(b'}');
        self.buf
    }
}
