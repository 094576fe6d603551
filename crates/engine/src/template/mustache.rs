//! Mustache as OpenSearch's templates run it (mustache.java with OpenSearch's functions):
//! the parser's own rules for lines holding only a section tag, dotted names, sections over
//! lists, maps and scalars, and the functions `toJson`, `join` (with or without a
//! `delimiter='…'`) and `url`. Text is kept as written except where those line rules drop it.

use super::value::{json_escape_into, Value};
use std::borrow::Cow;

/// A template the parser refused, worded as mustache.java words it.
#[derive(Debug, Clone, PartialEq)]
pub struct MustacheError {
    pub message: String,
    /// A partial or parent template was named: mustache.java's `MustacheNotFoundException`.
    pub not_found: bool,
}

/// The template's name in mustache.java's messages; OpenSearch compiles every template under it.
const FILE: &str = "query-template";

fn failure(message: impl Into<String>, line: usize) -> MustacheError {
    MustacheError {
        message: format!("{} @[{FILE}:{line}]", message.into()),
        not_found: false,
    }
}

/// How `{{var}}` writes a value: by the script's `content_type` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoder {
    Json,
    Plain,
    Url,
}

impl Encoder {
    /// The encoder OpenSearch's `CustomMustacheFactory` picks for a MIME type.
    pub fn for_content_type(mime: &str) -> Option<Encoder> {
        match mime {
            "application/json" | "application/json; charset=UTF-8" => Some(Encoder::Json),
            "text/plain" => Some(Encoder::Plain),
            "application/x-www-form-urlencoded" => Some(Encoder::Url),
            _ => None,
        }
    }

    fn encode(self, s: &str, out: &mut String) {
        match self {
            Encoder::Json => json_escape_into(s, out),
            Encoder::Plain => out.push_str(s),
            Encoder::Url => url_encode_into(s, out),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Code {
    Text(String),
    Value {
        name: String,
        escaped: bool,
    },
    Section {
        name: String,
        body: Vec<Code>,
    },
    Inverted {
        name: String,
        body: Vec<Code>,
    },
    ToJson {
        name: String,
    },
    Join {
        name: String,
        delimiter: String,
    },
    Url {
        body: Vec<Code>,
    },
    /// A `{{$name}}` block: its content, as no parent template overrides it here.
    Block {
        body: Vec<Code>,
    },
}

#[derive(Debug, Clone)]
pub struct Template {
    codes: Vec<Code>,
    encoder: Encoder,
}

impl Template {
    pub fn compile(source: &str, encoder: Encoder) -> Result<Template, MustacheError> {
        let mut p = Parser {
            chars: source.chars().collect(),
            at: 0,
            line: 0,
        };
        let codes = p.compile(None, 0, ['{', '{'].into(), ['}', '}'].into())?;
        Ok(Template { codes, encoder })
    }

    pub fn render(&self, params: &Value) -> String {
        let mut out = String::new();
        let mut scopes = vec![Cow::Borrowed(params)];
        render(&self.codes, &mut scopes, self.encoder, &mut out);
        out
    }
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    line: usize,
}

fn push_text(codes: &mut Vec<Code>, out: &mut String) {
    if out.is_empty() {
        return;
    }
    // Consecutive writes are one code, as the visitor appends them.
    if let Some(Code::Text(prev)) = codes.last_mut() {
        prev.push_str(out);
    } else {
        codes.push(Code::Text(out.clone()));
    }
    out.clear();
}

impl Parser {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.at).copied();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    fn peek_is(&self, c: char) -> bool {
        self.chars.get(self.at) == Some(&c)
    }

    /// One level of the template: the whole of it, or a section's body up to its closing tag.
    /// The line rules are mustache.java's: a `\r` is dropped; a line holding only whitespace
    /// and a section's opening or closing tag leaves neither its whitespace nor its newline.
    fn compile(
        &mut self,
        tag: Option<&str>,
        open_line: usize,
        mut sm: Vec<char>,
        mut em: Vec<char>,
    ) -> Result<Vec<Code>, MustacheError> {
        let mut codes = Vec::new();
        let mut only_whitespace = true;
        let mut iterable = self.line != 0;
        if self.line == 0 {
            self.line = 1;
        }
        let mut out = String::new();
        while let Some(c) = self.next() {
            if c == '\r' {
                continue;
            }
            if c == '\n' {
                self.line += 1;
                if !iterable || !only_whitespace {
                    out.push('\n');
                }
                push_text(&mut codes, &mut out);
                iterable = false;
                only_whitespace = true;
                continue;
            }
            if c == sm[0] && (sm.len() == 1 || self.peek_is(sm[1])) {
                self.at += sm.len() - 1;
                let (command, closed) = self.command(&em);
                let Some(kind) = command.chars().next() else {
                    return Err(failure("Empty mustache", self.line));
                };
                let variable = command[kind.len_utf8()..].trim().to_string();
                match kind {
                    '#' | '^' | '<' | '$' => {
                        let line = self.line;
                        let body = self.compile(Some(&variable), line, sm.clone(), em.clone())?;
                        let lines = self.line - line;
                        if !only_whitespace || lines == 0 {
                            push_text(&mut codes, &mut out);
                        } else {
                            out.clear();
                        }
                        codes.push(match kind {
                            '#' => section(variable, body)?,
                            '^' => Code::Inverted {
                                name: variable,
                                body,
                            },
                            '<' => return Err(not_found(&variable)),
                            _ => Code::Block { body },
                        });
                        iterable = lines != 0;
                    }
                    '/' => {
                        if !only_whitespace {
                            push_text(&mut codes, &mut out);
                        }
                        if tag != Some(variable.as_str()) {
                            let line = self.line;
                            return Err(failure(
                                format!(
                                    "Mismatched start/end tags: {} != {variable} in {FILE}:{line}",
                                    tag.unwrap_or("null")
                                ),
                                line,
                            ));
                        }
                        return Ok(codes);
                    }
                    '>' => return Err(not_found(&variable)),
                    '{' => {
                        push_text(&mut codes, &mut out);
                        let name = if em.get(1) == Some(&'}') {
                            if self.next() != Some('}') {
                                return Err(failure("Improperly closed variable", self.line));
                            }
                            variable
                        } else {
                            let mut v = variable;
                            v.pop();
                            v
                        };
                        codes.push(Code::Value {
                            name,
                            escaped: false,
                        });
                    }
                    '&' => {
                        push_text(&mut codes, &mut out);
                        codes.push(Code::Value {
                            name: variable,
                            escaped: false,
                        });
                    }
                    '%' => {
                        // Pragmas: mustache.java knows none that change a template's output.
                        if !only_whitespace {
                            push_text(&mut codes, &mut out);
                        }
                    }
                    '!' => push_text(&mut codes, &mut out),
                    '=' => {
                        push_text(&mut codes, &mut out);
                        let d: Vec<char> = command.chars().filter(|c| !c.is_whitespace()).collect();
                        let n = d.len();
                        if n > 6 || !n.is_multiple_of(2) || n < 4 {
                            return Err(failure("Invalid delimiter string", self.line));
                        }
                        sm = d[1..n / 2].to_vec();
                        em = d[n / 2..n - 1].to_vec();
                    }
                    _ => {
                        if !closed {
                            return Err(failure("Improperly closed variable", self.line));
                        }
                        push_text(&mut codes, &mut out);
                        codes.push(Code::Value {
                            name: command.trim().to_string(),
                            escaped: true,
                        });
                    }
                }
                continue;
            }
            only_whitespace = only_whitespace && (c == ' ' || c == '\t');
            out.push(c);
        }
        push_text(&mut codes, &mut out);
        if let Some(tag) = tag {
            return Err(failure(format!("Failed to close '{tag}' tag"), open_line));
        }
        Ok(codes)
    }

    /// A tag's text up to the end delimiter, and whether that delimiter came.
    fn command(&mut self, em: &[char]) -> (String, bool) {
        let mut command = String::new();
        while let Some(c) = self.next() {
            if c == em[0] && (em.len() == 1 || self.peek_is(em[1])) {
                self.at += em.len() - 1;
                return (command, true);
            }
            command.push(c);
        }
        (command, false)
    }
}

fn not_found(name: &str) -> MustacheError {
    MustacheError {
        message: format!("Template {name} not found"),
        not_found: true,
    }
}

/// A `{{#…}}` section, or one of OpenSearch's functions when its name is one.
fn section(variable: String, body: Vec<Code>) -> Result<Code, MustacheError> {
    let function = |code: &str| -> Result<String, MustacheError> {
        match body.as_slice() {
            [Code::Text(name)] => Ok(name.clone()),
            [Code::Value { name, .. }] => Ok(format!("{{{{{name}}}}}")),
            _ => Err(MustacheError {
                message: format!(
                    "Mustache function [{code}] must contain one and only one identifier"
                ),
                not_found: false,
            }),
        }
    };
    if variable.eq_ignore_ascii_case("toJson") {
        return Ok(Code::ToJson {
            name: function("toJson")?,
        });
    }
    if variable.eq_ignore_ascii_case("join") {
        return Ok(Code::Join {
            name: function("join")?,
            delimiter: ",".into(),
        });
    }
    if let Some(delimiter) = variable
        .strip_prefix("join delimiter='")
        .and_then(|rest| rest.strip_suffix('\''))
    {
        return Ok(Code::Join {
            name: function("join")?,
            delimiter: delimiter.to_string(),
        });
    }
    if variable.eq_ignore_ascii_case("url") {
        return Ok(Code::Url { body });
    }
    Ok(Code::Section {
        name: variable,
        body,
    })
}

/// A name's value: `.` is the innermost scope; otherwise the first part is looked for from
/// the innermost scope out, and the rest of a dotted name within what it found.
fn lookup<'a>(scopes: &'a [Cow<'a, Value>], name: &str) -> Option<Cow<'a, Value>> {
    if name == "." {
        return scopes.last().map(|s| Cow::Borrowed(s.as_ref()));
    }
    let mut parts = name.split('.');
    let first = parts.next()?;
    let mut found = scopes.iter().rev().find_map(|s| s.as_ref().member(first))?;
    for part in parts {
        found = match found {
            Cow::Borrowed(v) => v.member(part)?,
            Cow::Owned(v) => Cow::Owned(v.member(part)?.into_owned()),
        };
    }
    Some(found)
}

fn render<'a>(
    codes: &'a [Code],
    scopes: &mut Vec<Cow<'a, Value>>,
    encoder: Encoder,
    out: &mut String,
) {
    for code in codes {
        match code {
            Code::Text(t) => out.push_str(t),
            Code::Value { name, escaped } => {
                if let Some(v) = lookup(scopes, name).filter(|v| **v != Value::Null) {
                    let text = v.looked_up_text();
                    if *escaped {
                        encoder.encode(&text, out);
                    } else {
                        out.push_str(&text);
                    }
                }
            }
            Code::Section { name, body } => {
                let Some(v) = lookup(scopes, name).map(Cow::into_owned) else {
                    continue;
                };
                if v.is_falsey() {
                    continue;
                }
                match v {
                    Value::List(items) => {
                        for item in items {
                            let pushed = item != Value::Null;
                            if pushed {
                                scopes.push(Cow::Owned(item));
                            }
                            render(body, scopes, encoder, out);
                            if pushed {
                                scopes.pop();
                            }
                        }
                    }
                    other => {
                        scopes.push(Cow::Owned(other));
                        render(body, scopes, encoder, out);
                        scopes.pop();
                    }
                }
            }
            Code::Inverted { name, body } => {
                if lookup(scopes, name).is_none_or(|v| v.is_falsey()) {
                    render(body, scopes, encoder, out);
                }
            }
            Code::ToJson { name } => match lookup(scopes, name).as_deref() {
                None | Some(Value::Null) => {}
                Some(v @ (Value::List(_) | Value::Map(_))) => v.json_into(out),
                Some(v) => out.push_str(&v.java_text()),
            },
            Code::Join { name, delimiter } => match lookup(scopes, name).as_deref() {
                Some(Value::List(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(delimiter);
                        }
                        out.push_str(&item.java_text());
                    }
                }
                // Not a list: the function hands back what it was given, the name itself.
                _ => out.push_str(name),
            },
            Code::Url { body } => {
                let mut inner = String::new();
                render(body, scopes, encoder, &mut inner);
                url_encode_into(&inner, out);
            }
            Code::Block { body } => render(body, scopes, encoder, out),
        }
    }
}

/// Java's `URLEncoder.encode(s, "UTF-8")`: letters, digits and `.-*_` as they are, a space as
/// `+`, every other byte of the UTF-8 as `%XX`.
fn url_encode_into(s: &str, out: &mut String) {
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render_with(source: &str, params: &str) -> Result<String, MustacheError> {
        let params = Value::from_node(&crate::dsl::json::parse(params.as_bytes()).unwrap());
        Ok(Template::compile(source, Encoder::Json)?.render(&params))
    }

    fn ok(source: &str, params: &str) -> String {
        render_with(source, params).unwrap()
    }

    fn err(source: &str) -> String {
        render_with(source, "{}").unwrap_err().message
    }

    #[test]
    fn variables_escape_for_json_unless_triple() {
        assert_eq!(
            ok(
                r#"[{{x}}|{{{x}}}|{{& x}}|{{! c }}|{{=<% %>=}}<%x%><%={{ }}=%>|{{x}}]"#,
                r#"{"x":"a\"b\n\u0001é"}"#
            ),
            "[a\\\"b\\n\\u0001é|a\"b\n\u{1}é|a\"b\n\u{1}é||a\\\"b\\n\\u0001é|a\\\"b\\n\\u0001é]"
        );
    }

    #[test]
    fn sections_over_each_kind_of_value() {
        let t = "[{{#s}}S{{/s}}|{{^s}}I{{/s}}]";
        for (params, want) in [
            (r#"{"s":""}"#, "[|I]"),
            (r#"{"s":0}"#, "[S|]"),
            (r#"{"s":[]}"#, "[|I]"),
            (r#"{"s":{}}"#, "[S|]"),
            (r#"{}"#, "[|I]"),
            (r#"{"s":false}"#, "[|I]"),
        ] {
            assert_eq!(ok(t, params), want, "{params}");
        }
        assert_eq!(
            ok(
                "[{{#s}}({{.}}){{/s}}]",
                r#"{"s":[1,"x",null,true,[1,2],{"k":1}]}"#
            ),
            "[(1)(x)({s=[1, x, null, true, [1, 2], {k=1}]})(true)({0=1, 1=2})({k=1})]"
        );
        assert_eq!(
            ok("{{#a}}{{b}}{{/a}}", r#"{"a":{"c":1},"b":"outer"}"#),
            "outer"
        );
    }

    #[test]
    fn dotted_names_and_list_members() {
        assert_eq!(
            ok(
                "[{{s.0}}|{{s.1.k}}|{{s.size}}|{{m.a.b}}|{{m.c}}|{{a.b}}]",
                r#"{"s":[1,{"k":2}],"m":{"a":{"b":"deep"}},"a":"str"}"#
            ),
            "[1|2|2|deep||]"
        );
    }

    #[test]
    fn functions() {
        assert_eq!(
            ok(
                "{{#toJson}}m{{/toJson}}|{{#toJson}}x{{/toJson}}|{{#toJson}}nope{{/toJson}}",
                r#"{"m":{"z":1,"a":[1,{"q":"w"}],"f":1e21,"b":null},"x":"str\"q"}"#
            ),
            r#"{"a":[1,{"q":"w"}],"b":null,"f":1.0E21,"z":1}|str"q|"#
        );
        assert_eq!(
            ok("{{#join}}s{{/join}}|{{#join}}x{{/join}}|{{#join delimiter=' | '}}s{{/join delimiter=' | '}}", r#"{"s":[1,"t\"w",{"a":1},[2,3]],"x":"str"}"#),
            "1,t\"w,{a=1},[2, 3]|x|1 | t\"w | {a=1} | [2, 3]"
        );
        assert_eq!(
            ok(
                "{{#url}}{{x}}&y={{y}}{{/url}}",
                r#"{"x":"a b/é?\"","y":"*._-~"}"#
            ),
            "a+b%2F%C3%A9%3F%5C%22%26y%3D*._-%7E"
        );
    }

    #[test]
    fn lines_holding_only_a_section_tag_are_dropped() {
        assert_eq!(
            ok(
                "{\n  {{#a}}\n  \"x\": 1,\n  {{/a}}\n  \"y\": 2 {{! c }}\n   {{! standalone }}\n}",
                r#"{"a":true}"#
            ),
            "{\n  \"x\": 1,\n  \"y\": 2 \n   \n}"
        );
        assert_eq!(
            ok("a\r\n  {{#a}}  \r\nb\r\n{{/a}}\r\nc", r#"{"a":1}"#),
            "a\n  b\nc"
        );
    }

    #[test]
    fn refusals_worded_as_mustache_java() {
        assert_eq!(err("{{#x}}"), "Failed to close 'x' tag @[query-template:1]");
        assert_eq!(
            err("a\n\n{{#a}}\nb"),
            "Failed to close 'a' tag @[query-template:3]"
        );
        assert_eq!(
            err("{{#a}}x{{/b}}"),
            "Mismatched start/end tags: a != b in query-template:1 @[query-template:1]"
        );
        assert_eq!(
            err("a\n{{#a}}x\n{{/a}}{{/b}}"),
            "Mismatched start/end tags: null != b in query-template:3 @[query-template:3]"
        );
        assert_eq!(err("{{a"), "Improperly closed variable @[query-template:1]");
        assert_eq!(
            err("{{#toJson}}a{{b}}{{/toJson}}"),
            "Mustache function [toJson] must contain one and only one identifier"
        );
        assert_eq!(
            err("{{#toJson}}{{/toJson}}"),
            "Mustache function [toJson] must contain one and only one identifier"
        );
        let partial = render_with("{{>p}}", "{}").unwrap_err();
        assert_eq!(
            (partial.message.as_str(), partial.not_found),
            ("Template p not found", true)
        );
    }
}
