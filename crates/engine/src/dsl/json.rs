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

/// Parses well-formed JSON text (validated beforehand). `None` if it is not, or if it nests
/// deeper than [`super::MAX_NESTING`].
pub fn parse(bytes: &[u8]) -> Option<Node> {
    parse_checked(bytes).ok().flatten()
}

/// [`parse`], telling a body nested too deep (`Err`, where the first level too many opens)
/// apart from one that is not JSON.
pub fn parse_checked(bytes: &[u8]) -> Result<Option<Node>, Pos> {
    let mut p = Parser {
        c: Cursor::new(bytes),
        depth: 0,
        too_deep: None,
    };
    p.c.skip_ws();
    let node = p.value();
    match p.too_deep {
        Some(at) => Err(at),
        None => Ok(node),
    }
}

struct Parser<'a> {
    c: Cursor<'a>,
    depth: usize,
    too_deep: Option<Pos>,
}

impl Parser<'_> {
    fn pos(&self) -> Pos {
        let (line, col) = self.c.location();
        Pos { line, col }
    }

    /// Steps over `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.c.peek() == Some(c);
        if hit {
            self.c.i += 1;
        }
        hit
    }

    fn value(&mut self) -> Option<Node> {
        let pos = self.pos();
        if matches!(self.c.peek()?, b'{' | b'[') {
            if self.depth == super::MAX_NESTING {
                self.too_deep = Some(pos);
                return None;
            }
            self.depth += 1;
        }
        let node = self.container_or_scalar(pos);
        if node
            .as_ref()
            .is_some_and(|n| matches!(n.v, J::Obj(_) | J::Arr(_)))
        {
            self.depth -= 1;
        }
        node
    }

    fn container_or_scalar(&mut self, pos: Pos) -> Option<Node> {
        let v = match self.c.peek()? {
            b'{' => {
                self.c.i += 1;
                let mut entries = Vec::new();
                loop {
                    self.c.skip_ws();
                    if self.c.peek() == Some(b'}') {
                        let end = self.pos();
                        self.c.i += 1;
                        return Some(Node {
                            v: J::Obj(entries),
                            pos,
                            end,
                        });
                    }
                    if self.eat(b',') {
                        self.c.skip_ws();
                    }
                    let kpos = self.pos();
                    let key = self.string()?;
                    self.c.skip_ws();
                    if !self.eat(b':') {
                        return None;
                    }
                    self.c.skip_ws();
                    let v = self.value()?;
                    entries.push((key, kpos, v));
                }
            }
            b'[' => {
                self.c.i += 1;
                let mut items = Vec::new();
                loop {
                    self.c.skip_ws();
                    if self.c.peek() == Some(b']') {
                        let end = self.pos();
                        self.c.i += 1;
                        return Some(Node {
                            v: J::Arr(items),
                            pos,
                            end,
                        });
                    }
                    if self.eat(b',') {
                        self.c.skip_ws();
                    }
                    items.push(self.value()?);
                }
            }
            b'"' => J::Str(self.string()?),
            b't' => {
                self.c.i += 4;
                J::Bool(true)
            }
            b'f' => {
                self.c.i += 5;
                J::Bool(false)
            }
            b'n' => {
                self.c.i += 4;
                J::Null
            }
            _ => {
                let start = self.c.i;
                while let Some(c) = self.c.peek() {
                    if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                        self.c.i += 1;
                    } else {
                        break;
                    }
                }
                let text = std::str::from_utf8(&self.c.b[start..self.c.i]).ok()?;
                match serde_json::from_str::<Value>(text) {
                    Ok(Value::Number(n)) => J::Num(n, text.into()),
                    // Past the double range (`1e400`): Jackson reads it as an infinite double,
                    // which a JSON number cannot hold; the largest finite double stands in (a
                    // float read of it is infinite too) and the raw text keeps what was
                    // written (an int read refuses it as out of range).
                    Err(_) => match text.parse::<f64>() {
                        Ok(x) if x.is_infinite() => {
                            J::Num(Number::from_f64(f64::MAX.copysign(x))?, text.into())
                        }
                        _ => return None,
                    },
                    Ok(_) => return None,
                }
            }
        };
        Some(Node { v, pos, end: pos })
    }

    fn string(&mut self) -> Option<String> {
        if self.c.peek() != Some(b'"') {
            return None;
        }
        serde_json::from_slice(self.c.skip_string()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_limited() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse_checked(nested(super::super::MAX_NESTING).as_bytes())
            .unwrap()
            .is_some());
        let e = parse_checked(nested(super::super::MAX_NESTING + 1).as_bytes()).unwrap_err();
        assert_eq!(e, Pos { line: 1, col: 1001 });
        assert!(parse(nested(100_000).as_bytes()).is_none());
    }

    #[test]
    fn numbers_past_the_double_range_read_as_infinite_floats() {
        let n = parse(br#"{"a": 1e400, "b": -1e400}"#).expect("a body, not nothing");
        for (key, sign) in [("a", 1.0), ("b", -1.0)] {
            let J::Num(x, raw) = &n.get(key).unwrap().v else {
                panic!("{key} is a number");
            };
            assert_eq!(x.as_f64().unwrap() as f32, f32::INFINITY * sign);
            assert_eq!(&**raw, if sign > 0.0 { "1e400" } else { "-1e400" });
        }
    }

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
