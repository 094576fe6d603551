//! A JSON tree that remembers where each token started (line and byte column, 1-based, as
//! Jackson reports them), so DSL errors carry OpenSearch's `line`/`col` and `[l:c]` prefixes.
//! Bodies are validated by serde first; this parser only has to walk well-formed input.

use crate::util::json_cursor::Cursor;
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
    /// The number and its text as written (Jackson quotes it in range errors).
    Num(Number, Box<str>),
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
            J::Num(..) => "VALUE_NUMBER",
            J::Str(_) => "VALUE_STRING",
            J::Arr(_) => "START_ARRAY",
            J::Obj(_) => "START_OBJECT",
        }
    }

    pub fn to_value(&self) -> Value {
        match &self.v {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Num(n, _) => Value::Number(n.clone()),
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

    /// Whether an object anywhere in the tree repeats a key.
    pub fn has_duplicate_keys(&self) -> bool {
        match &self.v {
            J::Obj(entries) => entries.iter().enumerate().any(|(i, (k, _, v))| {
                entries[..i].iter().any(|(other, _, _)| other == k) || v.has_duplicate_keys()
            }),
            J::Arr(items) => items.iter().any(Node::has_duplicate_keys),
            _ => false,
        }
    }

    /// The value as text, the way OpenSearch's `parser.text()` reads scalars.
    pub fn text(&self) -> Option<String> {
        match &self.v {
            J::Str(s) => Some(s.clone()),
            J::Num(n, _) => Some(n.to_string()),
            J::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

/// Parses well-formed JSON text (validated beforehand). `None` if it is not.
pub fn parse(bytes: &[u8]) -> Option<Node> {
    let mut p = Parser(Cursor::new(bytes));
    p.0.skip_ws();
    p.value()
}

struct Parser<'a>(Cursor<'a>);

impl Parser<'_> {
    fn pos(&self) -> Pos {
        let (line, col) = self.0.location();
        Pos { line, col }
    }

    /// Steps over `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.0.peek() == Some(c);
        if hit {
            self.0.i += 1;
        }
        hit
    }

    fn value(&mut self) -> Option<Node> {
        let pos = self.pos();
        let v = match self.0.peek()? {
            b'{' => {
                self.0.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.0.skip_ws();
                    if self.0.peek() == Some(b'}') {
                        let end = self.pos();
                        self.0.i += 1;
                        return Some(Node {
                            v: J::Obj(entries),
                            pos,
                            end,
                        });
                    }
                    if self.eat(b',') {
                        self.0.skip_ws();
                    }
                    let kpos = self.pos();
                    let key = self.string()?;
                    self.0.skip_ws();
                    if !self.eat(b':') {
                        return None;
                    }
                    self.0.skip_ws();
                    let v = self.value()?;
                    entries.push((key, kpos, v));
                }
            }
            b'[' => {
                self.0.i += 1;
                let mut items = Vec::new();
                loop {
                    self.0.skip_ws();
                    if self.0.peek() == Some(b']') {
                        let end = self.pos();
                        self.0.i += 1;
                        return Some(Node {
                            v: J::Arr(items),
                            pos,
                            end,
                        });
                    }
                    if self.eat(b',') {
                        self.0.skip_ws();
                    }
                    items.push(self.value()?);
                }
            }
            b'"' => J::Str(self.string()?),
            b't' => {
                self.0.i += 4;
                J::Bool(true)
            }
            b'f' => {
                self.0.i += 5;
                J::Bool(false)
            }
            b'n' => {
                self.0.i += 4;
                J::Null
            }
            _ => {
                let start = self.0.i;
                while let Some(c) = self.0.peek() {
                    if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                        self.0.i += 1;
                    } else {
                        break;
                    }
                }
                let text = std::str::from_utf8(&self.0.b[start..self.0.i]).ok()?;
                match serde_json::from_str::<Value>(text).ok()? {
                    Value::Number(n) => J::Num(n, text.into()),
                    _ => return None,
                }
            }
        };
        Some(Node { v, pos, end: pos })
    }

    fn string(&mut self) -> Option<String> {
        if self.0.peek() != Some(b'"') {
            return None;
        }
        serde_json::from_slice(self.0.skip_string()?).ok()
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
        // OpenSearch reads bodies as bytes: `é` is two columns wide.
        let n = parse("{\"é\": {}}".as_bytes()).unwrap();
        assert_eq!(n.get("é").unwrap().pos, Pos { line: 1, col: 8 });
    }
}
