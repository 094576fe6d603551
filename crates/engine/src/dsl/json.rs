//! A JSON tree that remembers where each token started (line and column, 1-based, as Jackson
//! reports them), so DSL errors carry OpenSearch's `line`/`col` and `[l:c]` prefixes. Bodies are
//! validated by serde first; this parser only has to walk well-formed input.

use serde_json::{Number, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}:{}]", self.line, self.col)
    }
}

#[derive(Debug, Clone)]
pub enum J {
    Null,
    Bool(bool),
    Num(Number),
    Str(String),
    Arr(Vec<Node>),
    /// Entries in document order, duplicates kept: `(key, key position, value)`.
    Obj(Vec<(String, Pos, Node)>),
}

#[derive(Debug, Clone)]
pub struct Node {
    pub v: J,
    /// Where the value's first token starts.
    pub pos: Pos,
    /// Where the closing `}`/`]` starts (objects and arrays), else `pos`.
    pub end: Pos,
}

impl Node {
    /// Jackson's name for the value's first token.
    pub fn token(&self) -> &'static str {
        match self.v {
            J::Null => "VALUE_NULL",
            J::Bool(_) => "VALUE_BOOLEAN",
            J::Num(_) => "VALUE_NUMBER",
            J::Str(_) => "VALUE_STRING",
            J::Arr(_) => "START_ARRAY",
            J::Obj(_) => "START_OBJECT",
        }
    }

    pub fn to_value(&self) -> Value {
        match &self.v {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Num(n) => Value::Number(n.clone()),
            J::Str(s) => Value::String(s.clone()),
            J::Arr(a) => Value::Array(a.iter().map(Node::to_value).collect()),
            J::Obj(o) => Value::Object(
                o.iter()
                    .map(|(k, _, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }

    pub fn as_obj(&self) -> Option<&[(String, Pos, Node)]> {
        match &self.v {
            J::Obj(o) => Some(o),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_obj()?
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, _, v)| v)
    }

    /// The value as text, the way OpenSearch's `parser.text()` reads scalars.
    pub fn text(&self) -> Option<String> {
        match &self.v {
            J::Str(s) => Some(s.clone()),
            J::Num(n) => Some(n.to_string()),
            J::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

/// Parses well-formed JSON text (validated beforehand). `None` if it is not.
pub fn parse(bytes: &[u8]) -> Option<Node> {
    let mut p = Parser {
        b: bytes,
        i: 0,
        line: 1,
        line_start: 0,
    };
    p.ws();
    let n = p.value()?;
    Some(n)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
}

impl Parser<'_> {
    fn pos(&self) -> Pos {
        // Columns count characters, not bytes.
        let col = std::str::from_utf8(&self.b[self.line_start..self.i])
            .map(|s| s.chars().count())
            .unwrap_or(self.i - self.line_start);
        Pos {
            line: self.line,
            col: col + 1,
        }
    }

    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                _ => break,
            }
        }
    }

    fn value(&mut self) -> Option<Node> {
        let pos = self.pos();
        let c = *self.b.get(self.i)?;
        let v = match c {
            b'{' => {
                self.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        let end = self.pos();
                        self.i += 1;
                        return Some(Node {
                            v: J::Obj(entries),
                            pos,
                            end,
                        });
                    }
                    if self.b.get(self.i) == Some(&b',') {
                        self.i += 1;
                        self.ws();
                    }
                    let kpos = self.pos();
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return None;
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value()?;
                    entries.push((key, kpos, v));
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        let end = self.pos();
                        self.i += 1;
                        return Some(Node {
                            v: J::Arr(items),
                            pos,
                            end,
                        });
                    }
                    if self.b.get(self.i) == Some(&b',') {
                        self.i += 1;
                        self.ws();
                    }
                    items.push(self.value()?);
                }
            }
            b'"' => J::Str(self.string()?),
            b't' => {
                self.i += 4;
                J::Bool(true)
            }
            b'f' => {
                self.i += 5;
                J::Bool(false)
            }
            b'n' => {
                self.i += 4;
                J::Null
            }
            _ => {
                let start = self.i;
                while let Some(&c) = self.b.get(self.i) {
                    if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                        self.i += 1;
                    } else {
                        break;
                    }
                }
                let text = std::str::from_utf8(&self.b[start..self.i]).ok()?;
                match serde_json::from_str::<Value>(text).ok()? {
                    Value::Number(n) => J::Num(n),
                    _ => return None,
                }
            }
        };
        Some(Node { v, pos, end: pos })
    }

    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i;
        self.i += 1;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw = std::str::from_utf8(&self.b[start..self.i]).ok()?;
                    return serde_json::from_str(raw).ok();
                }
                _ => self.i += 1,
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_jacksons() {
        let n = parse(br#"{"query":{"foo":{}}}"#).unwrap();
        let q = n.get("query").unwrap();
        let (k, kpos, v) = &q.as_obj().unwrap()[0];
        assert_eq!(k, "foo");
        assert_eq!(*kpos, Pos { line: 1, col: 11 });
        assert_eq!(v.pos, Pos { line: 1, col: 17 });
        assert_eq!(q.end, Pos { line: 1, col: 19 });
        let n = parse(b"{\n  \"a\": [1, \"x\"]\n}").unwrap();
        assert_eq!(n.get("a").unwrap().pos, Pos { line: 2, col: 8 });
        assert_eq!(n.to_value(), serde_json::json!({"a": [1, "x"]}));
    }
}
