//! Why a body is not JSON, worded as OpenSearch's parser (Jackson) words it, with its line and
//! column: clients and tests match these texts. serde_json decides *whether* a body parses; this
//! scanner only runs on bodies that failed, to describe the first error the way Jackson would.

/// Jackson's location suffix; OpenSearch disables source snippets in locations.
use super::json_cursor::Cursor;

const SOURCE: &str = "[Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// End of input (`json_e_o_f_exception`) rather than a bad character (`json_parse_exception`).
    pub eof: bool,
    /// The full message, location included.
    pub message: String,
    /// Where the last complete token started (what OpenSearch's object parsers report as
    /// `[line:col]`).
    pub last_token: (usize, usize),
    /// The top-level field whose value held the error, if any.
    pub top_field: Option<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// A value (after `:`, at the root, after `,` in an array).
    Value,
    /// A key or `}` (right after `{`).
    KeyOrEnd,
    /// A key (after `,` in an object).
    Key,
    Colon,
    /// `,` or the closing bracket.
    CommaOrEnd,
    /// A value or `]` (right after `[`).
    ValueOrEnd,
}

struct Frame {
    object: bool,
    start: (usize, usize),
    keys: Vec<String>,
}

struct Scanner<'a> {
    c: Cursor<'a>,
    last_token: (usize, usize),
    stack: Vec<Frame>,
    top_field: Option<String>,
}

impl Scanner<'_> {
    fn fail(&self, eof: bool, msg: String, at: (usize, usize)) -> SyntaxError {
        SyntaxError {
            eof,
            message: located(&msg, at.0, at.1),
            last_token: self.last_token,
            top_field: self.top_field.clone(),
        }
    }

    fn eof(&self, expect: Expect) -> SyntaxError {
        let at = self.c.location();
        let frame = self.stack.last();
        let desc = |f: &Frame| if f.object { "Object" } else { "Array" };
        let msg = match (expect, frame) {
            (Expect::KeyOrEnd | Expect::CommaOrEnd | Expect::ValueOrEnd, Some(f)) => format!(
                "Unexpected end-of-input: expected close marker for {} (start marker at {SOURCE}; line: {}, column: {}])",
                desc(f),
                f.start.0,
                f.start.1
            ),
            (_, Some(f)) => format!("Unexpected end-of-input within/between {} entries", desc(f)),
            (_, None) => "No content to map due to end-of-input".to_string(),
        };
        self.fail(true, msg, at)
    }

    fn unexpected(&self, c: u8, what: &str) -> SyntaxError {
        let shown = c as char;
        self.fail(
            false,
            format!("Unexpected character ('{shown}' (code {c})): {what}"),
            self.c.location(),
        )
    }

    /// A string starting at the cursor (the opening quote); `None` if the input ends inside it.
    fn string(&mut self) -> Option<String> {
        let quoted = self.c.skip_string()?;
        Some(String::from_utf8_lossy(&quoted[1..quoted.len() - 1]).into_owned())
    }

    /// A bare word (number or literal) at the cursor.
    fn word(&mut self) -> &str {
        let start = self.c.i;
        while let Some(c) = self.c.peek() {
            if c.is_ascii_whitespace()
                || matches!(c, b',' | b']' | b'}' | b'[' | b'{' | b':' | b'"')
            {
                break;
            }
            self.c.i += 1;
        }
        std::str::from_utf8(&self.c.b[start..self.c.i]).unwrap_or("")
    }

    fn run(&mut self) -> Option<SyntaxError> {
        let mut expect = Expect::Value;
        let mut root_done = false;
        loop {
            self.c.skip_ws();
            let Some(&c) = self.c.b.get(self.c.i) else {
                if root_done && self.stack.is_empty() {
                    return None;
                }
                return Some(self.eof(expect));
            };
            let token_at = self.c.location();
            match expect {
                Expect::Value | Expect::ValueOrEnd => {
                    if expect == Expect::ValueOrEnd && c == b']' {
                        self.c.i += 1;
                        self.last_token = token_at;
                        self.stack.pop();
                        expect = Expect::CommaOrEnd;
                    } else {
                        match c {
                            b'{' | b'[' => {
                                self.c.i += 1;
                                self.last_token = token_at;
                                self.stack.push(Frame {
                                    object: c == b'{',
                                    start: token_at,
                                    keys: Vec::new(),
                                });
                                expect = if c == b'{' {
                                    Expect::KeyOrEnd
                                } else {
                                    Expect::ValueOrEnd
                                };
                                continue;
                            }
                            b'"' => {
                                if self.string().is_none() {
                                    return Some(self.fail(
                                        true,
                                        "Unexpected end-of-input in VALUE_STRING".into(),
                                        self.c.location(),
                                    ));
                                }
                                self.last_token = token_at;
                            }
                            b'-' | b'0'..=b'9' => {
                                self.word();
                                self.last_token = token_at;
                            }
                            c if c.is_ascii_alphabetic() => {
                                let w = self.word().to_string();
                                if !matches!(w.as_str(), "true" | "false" | "null") {
                                    return Some(self.fail(
                                        false,
                                        format!("Unrecognized token '{w}': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
                                        self.c.location(),
                                    ));
                                }
                                self.last_token = token_at;
                            }
                            other => return Some(self.unexpected(other, "expected a value")),
                        }
                        expect = Expect::CommaOrEnd;
                    }
                    if self.stack.is_empty() {
                        root_done = true;
                        expect = Expect::Value;
                    }
                }
                Expect::KeyOrEnd | Expect::Key => {
                    if expect == Expect::KeyOrEnd && c == b'}' {
                        self.c.i += 1;
                        self.last_token = token_at;
                        self.stack.pop();
                        expect = Expect::CommaOrEnd;
                        if self.stack.is_empty() {
                            root_done = true;
                            expect = Expect::Value;
                        }
                        continue;
                    }
                    if c != b'"' {
                        return Some(
                            self.unexpected(c, "was expecting double-quote to start field name"),
                        );
                    }
                    let Some(key) = self.string() else {
                        return Some(self.fail(
                            true,
                            "Unexpected end-of-input in field name".into(),
                            self.c.location(),
                        ));
                    };
                    let depth = self.stack.len();
                    let frame = self.stack.last_mut().expect("inside an object");
                    if frame.keys.contains(&key) {
                        // The repeated name never becomes the parser's current token.
                        return Some(self.fail(
                            false,
                            format!("Duplicate field '{key}'"),
                            self.c.location(),
                        ));
                    }
                    self.last_token = token_at;
                    frame.keys.push(key.clone());
                    if depth == 1 {
                        self.top_field = Some(key);
                    }
                    expect = Expect::Colon;
                }
                Expect::Colon => {
                    if c != b':' {
                        return Some(self.unexpected(
                            c,
                            "was expecting a colon to separate field name and value",
                        ));
                    }
                    self.c.i += 1;
                    expect = Expect::Value;
                }
                Expect::CommaOrEnd => {
                    let frame = self.stack.last().expect("inside a container");
                    let (close, kind) = if frame.object {
                        (b'}', "Object")
                    } else {
                        (b']', "Array")
                    };
                    if c == b',' {
                        self.c.i += 1;
                        expect = if frame.object {
                            Expect::Key
                        } else {
                            Expect::Value
                        };
                    } else if c == close {
                        self.c.i += 1;
                        self.last_token = token_at;
                        self.stack.pop();
                        if self.stack.is_empty() {
                            root_done = true;
                            expect = Expect::Value;
                        }
                    } else {
                        let what = format!("was expecting comma to separate {kind} entries");
                        return Some(self.unexpected(c, &what));
                    }
                }
            }
        }
    }
}

/// `message` located as Jackson locates it (`\n at [Source: …; line: L, column: C]`).
pub fn located(message: &str, line: usize, column: usize) -> String {
    format!("{message}\n at {SOURCE}; line: {line}, column: {column}]")
}

/// The first syntax error in `body` as Jackson reports it, or `None` if it finds none (serde
/// failed for another reason, e.g. a number out of range).
pub fn describe(body: &[u8]) -> Option<SyntaxError> {
    let mut s = Scanner {
        c: Cursor::new(body),
        last_token: (1, 1),
        stack: Vec::new(),
        top_field: None,
    };
    s.run()
}

/// Where field name `key` of the root object first appears, as Jackson locates that token
/// (positions come from the query DSL's positioned JSON tree, the one place that tracks them).
pub fn key_location(body: &[u8], key: &str) -> (usize, usize) {
    let root = crate::dsl::json::parse(body);
    let pos = root
        .as_ref()
        .and_then(|r| r.as_obj())
        .and_then(|o| o.iter().find(|(k, _, _)| k == key))
        .map(|(_, p, _)| *p);
    pos.map_or((1, 1), |p| (p.line, p.col))
}

/// Where the value of the root object's field `key` starts, as Jackson locates that token.
pub fn value_location(body: &[u8], key: &str) -> (usize, usize) {
    let root = crate::dsl::json::parse(body);
    root.as_ref()
        .and_then(|r| r.get(key))
        .map_or((1, 1), |n| (n.pos.line, n.pos.col))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(body: &str) -> String {
        let e = describe(body.as_bytes()).expect("an error");
        e.message.split('\n').next().unwrap().to_string()
            + &format!(
                " @{}",
                e.message
                    .rsplit("column: ")
                    .next()
                    .unwrap()
                    .trim_end_matches(']')
            )
    }

    #[test]
    fn eof_wording() {
        assert_eq!(
            msg(r#"{"a": "#),
            "Unexpected end-of-input within/between Object entries @7"
        );
        assert_eq!(
            msg(r#"{"settings": {"number_of_shards": 1"#),
            format!("Unexpected end-of-input: expected close marker for Object (start marker at {SOURCE}; line: 1, column: 14]) @36")
        );
        assert_eq!(
            msg(r#"{"ids": ["#),
            format!("Unexpected end-of-input: expected close marker for Array (start marker at {SOURCE}; line: 1, column: 9]) @10")
        );
    }

    #[test]
    fn character_wording() {
        assert_eq!(
            msg(r#"{"a": 1} x"#),
            "Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false') @11"
        );
        assert_eq!(msg(r#"{index: 1}"#), "Unexpected character ('i' (code 105)): was expecting double-quote to start field name @2");
        assert_eq!(msg(r#"{"a": 1, "a": 2}"#), "Duplicate field 'a' @13");
    }

    #[test]
    fn locations_of_fields() {
        let body = br#"{"doc": {"a": 1}, "bogus": 1}"#;
        assert_eq!(key_location(body, "bogus"), (1, 19));
        assert_eq!(value_location(body, "doc"), (1, 9));
        assert_eq!(value_location(b"{\n  \"x\": [1]}", "x"), (2, 8));
        assert_eq!(key_location(b"{}", "missing"), (1, 1));
    }

    #[test]
    fn positions_of_the_last_token() {
        let e = describe(br#"{"doc": {"n": "#).unwrap();
        assert_eq!(e.last_token, (1, 10));
        assert_eq!(e.top_field.as_deref(), Some("doc"));
        let e = describe(br#"{"actions": ["#).unwrap();
        assert_eq!(e.last_token, (1, 13));
        assert!(describe(br#"{"a": [1, {"b": null}]}"#).is_none());
    }
}
